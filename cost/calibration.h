#pragma once
// Calibration of an accelerator's achievable efficiencies to measured serving runs.
//
// A measured point is one serving run: tokens/s per GPU against tokens/s per user for a model, accelerator,
// precision, input/output lengths and replica size. The fit moves the three efficiency factors the roofline
// uses (decode HBM-bandwidth fraction, prefill compute fraction, scale-up collective efficiency; see
// data/catalog/accelerators.json) inside their catalog ranges until the engine's own model (cost/inference.h)
// reproduces the points; formats and method are documented in data/FORMAT.md §8.
#include "catalog_item.h"
#include "inference.h"
#include "inference_presets.h"

#include <array>
#include <string>
#include <vector>

namespace ctwin::cost {

/// One measured serving run, from a CSV row or a vLLM/SGLang benchmark result.
struct MeasuredPoint {
    std::string model;       // models catalog id (llama3-70b)
    std::string accelerator; // accelerators catalog id (h100-sxm)
    std::string precision = "fp8";
    double inputTokens = 0;            // mean prompt length per request
    double outputTokens = 0;           // mean generated length per request
    int replicaGpus = 0;               // GPUs per model replica (tensor/expert parallel size)
    double tokensPerSecondPerUser = 0; // 1000 / mean TPOT (ms)
    double tokensPerSecondPerGpu = 0;  // output tokens/s of the server / its GPUs
    double weightBytesPerParam = 0;    // 0 = by precision (bf16 2, fp8 1, fp4 0.5)
    double kvBytesPerElement = 2;      // KV cache dtype (vLLM default: the model dtype, bf16)
    double concurrency = 0;            // requests in flight (benchmark --max-concurrency); 0 = unknown
    std::string origin;                // "file:line" or "file[index]", for messages and the chart
};

/// Values a benchmark JSON does not carry (vLLM `--metadata KEY=VALUE` keys beat these).
struct PointDefaults {
    std::string model, accelerator, precision;
    int replicaGpus = 0; // 0 = required in the file
    double gpus = 0;     // GPUs the server ran on; 0 = replicaGpus
};

/// Reads measured points: CSV (header row, `#` comments; data/FORMAT.md §8.1) or the JSON that vLLM's
/// benchmark_serving.py `--save-result` / SGLang's bench_serving `--output-file` write (one object, an array
/// of them, or JSON lines; §8.2). Every error is a model::InputError naming the file, the line (or record)
/// and the field; a file with no point is an error.
/// Measured points one file may hold (README "Limits"); more are refused while the file is read. Published
/// sweeps (NIM, vLLM, SGLang bench_serving) hold tens to hundreds of points.
inline constexpr size_t kMaxMeasuredPoints = 10'000;

std::vector<MeasuredPoint> loadMeasuredPoints(const std::string& file, const PointDefaults& defaults = {});
std::vector<MeasuredPoint> parseMeasuredPointsCsv(const std::string& text, const std::string& file,
                                                  const PointDefaults& defaults = {});
std::vector<MeasuredPoint> parseMeasuredPointsJson(const std::string& text, const std::string& file,
                                                   const PointDefaults& defaults);

/// The three factors the fit moves, in the order of their catalog field names (kFactorFields).
struct EfficiencyFactors {
    double hbm = 1;        // decode_hbm_efficiency
    double compute = 1;    // prefill_compute_efficiency
    double collective = 1; // scale_up_collective_efficiency
    std::array<double, 3> array() const { return {hbm, compute, collective}; }
    static EfficiencyFactors of(const std::array<double, 3>& v) { return {v[0], v[1], v[2]}; }
};
inline constexpr std::array<const char*, 3> kFactorFields = {
    "decode_hbm_efficiency", "prefill_compute_efficiency", "scale_up_collective_efficiency"};

/// The served model of a point: the preset at the point's precision (weight bytes) and KV dtype.
ServedModel servedModelForPoint(const model::CatalogItem& preset, const MeasuredPoint& p);

/// What the engine predicts for one point. The engine's co-located service (cost::sizeService) is
/// reproduced: tokens/s/GPU = O / (I / prefill rate + O / decode rate(b)), prefill and decode time-sharing
/// the GPUs, at decode batch b. With a known concurrency, b = the concurrency (per replica); otherwise b is
/// the batch whose tokens/s/user 1/step(b) equals the measured one (bisection over [1, largest batch that
/// fits]). b is clamped to [1, largest batch that fits] (`outOfReach` when that clamps a measured value);
/// `userMismatch` = log(model / measured tokens/s/user) at b (0 when b was matched to it).
struct PointPrediction {
    double batch = 0;
    double tokensPerSecondPerGpu = 0;
    double tokensPerSecondPerUser = 0;
    double userMismatch = 0;
    bool outOfReach = false;
};
PointPrediction predictPoint(const ServedModel& m, const AcceleratorSpec& a, const MeasuredPoint& p);

struct CalibrationResult {
    EfficiencyFactors before, after, low, high;
    /// sqrt(mean((predicted / measured tokens/s/GPU − 1)²)) over the points.
    double rmsRelativeErrorBefore = 0, rmsRelativeErrorAfter = 0;
    /// The same for tokens/s/user, sqrt(mean((exp(userMismatch) − 1)²)): non-zero for points with a stated
    /// concurrency or beyond the model's reach. The fit minimises both (in logs), so one may rise.
    double rmsUserErrorBefore = 0, rmsUserErrorAfter = 0;
    std::vector<PointPrediction> predictedBefore, predictedAfter;
    /// false: the points do not move this factor (e.g. collective efficiency with single-GPU replicas); it
    /// keeps its catalog value.
    std::array<bool, 3> identified{};
    std::array<bool, 3> atBound{}; // the fitted value sits on its catalog low or high
    int iterations = 0;
    int outOfReachAfter = 0;
};

/// Fits the factors to the points by bounded least squares on r = [log(pred/measured tokens/s/GPU),
/// userMismatch] per point: a coarse grid over the catalog box, then Levenberg–Marquardt (Marquardt 1963)
/// with a forward-difference Jacobian, steps projected onto the box. Throws InputError when the preset's
/// weights do not fit a point's replica.
/// `engine` (catalog category serving_engines; nullptr = no overhead, no cap) is the serving engine the points
/// ran on: its step overheads and batch cap enter every prediction.
CalibrationResult calibrateAccelerator(const model::CatalogItem& accelerator,
                                       const model::CatalogItem& preset,
                                       const std::vector<MeasuredPoint>& points,
                                       const model::CatalogItem* engine = nullptr);

/// The points' predictions at arbitrary factors (the chart's curves and the tests).
std::vector<PointPrediction> predictPoints(const model::CatalogItem& accelerator,
                                           const model::CatalogItem& preset,
                                           const std::vector<MeasuredPoint>& points,
                                           const EfficiencyFactors& f,
                                           const model::CatalogItem* engine = nullptr);

/// The roofline's view of a point's accelerator: its precision, attention at FP8 with a 1-byte KV cache on FP8
/// hardware (attentionPrecisionOf), the engine profile when given.
AcceleratorSpec pointSpecOf(const model::CatalogItem& accelerator, const MeasuredPoint& p,
                            const model::CatalogItem* engine);

/// The model's tokens/s/GPU vs tokens/s/user curve for the points' setting (first point's lengths, replica
/// and precision), batches 1, 2, 4, … up to the largest that fits, at factors f.
std::vector<PointPrediction> modelCurve(const model::CatalogItem& accelerator,
                                        const model::CatalogItem& preset, const MeasuredPoint& setting,
                                        const EfficiencyFactors& f, const model::CatalogItem* engine = nullptr);

} // namespace ctwin::cost
