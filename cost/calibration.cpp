#include "calibration.h"

#include "csv_read.h"
#include "evaluate_stages.h"
#include "format_number.h"
#include "inference_presets.h"
#include "inference_service.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

namespace ctwin::cost {

using detail::fmt;
using model::InputError;
using model::InputLocation;

namespace {

constexpr const char* kCsvKind = "measured point";
constexpr const char* kJsonKind = "benchmark result";

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

/// Strict decimal: the whole text, finite.
bool parseDouble(const std::string& text, double& v) {
    const auto parsed = model::parseDecimal(text);
    if (parsed) v = *parsed;
    return parsed.has_value();
}

struct FieldCheck {
    const InputLocation& where;
    InputLocation at(const std::string& field) const {
        InputLocation w = where;
        w.field = field;
        return w;
    }
    double positive(const std::string& field, double v) const {
        if (!(v > 0) || !std::isfinite(v))
            throw InputError(at(field), "must be a finite number > 0, got " + fmt(v, 6));
        return v;
    }
    double nonNegative(const std::string& field, double v) const {
        if (!(v >= 0) || !std::isfinite(v))
            throw InputError(at(field), "must be a finite number >= 0, got " + fmt(v, 6));
        return v;
    }
    int gpuCount(const std::string& field, double v) const {
        if (!(v >= 1 && v <= 10000) || v != std::floor(v))
            throw InputError(at(field), "must be a whole number of GPUs from 1 to 10000, got " + fmt(v, 6));
        return static_cast<int>(v);
    }
    double bytesPerValue(const std::string& field, double v) const {
        if (!(v > 0 && v <= 8)) throw InputError(at(field), "must be in (0, 8] bytes, got " + fmt(v, 6));
        return v;
    }
    std::string precision(const std::string& field, const std::string& v) const {
        if (v != "bf16" && v != "fp8" && v != "fp4")
            throw InputError(at(field), "must be bf16, fp8 or fp4, got '" + v + "'");
        return v;
    }
};

void checkPoint(const MeasuredPoint& p, const FieldCheck& c) {
    if (p.model.empty()) throw InputError(c.at("model"), "no model preset (give the column or --model)");
    if (p.accelerator.empty())
        throw InputError(c.at("accelerator"), "no accelerator (give the column or --accelerator)");
    if (p.outputTokens < 1)
        throw InputError(c.at("output_tokens"), "must be >= 1, got " + fmt(p.outputTokens, 6));
}

} // namespace

namespace {
/// calibrate fits over every point at every step of its search: past kMaxMeasuredPoints it is refused
/// while reading (issue 27: 100,000 rows ran for more than 50 s).
InputError tooManyPoints(const std::string& file) {
    return InputError(InputLocation{file, "", "", "", ""},
                      "more than " + std::to_string(kMaxMeasuredPoints) + " measured points (the limit per file)");
}
} // namespace

std::vector<MeasuredPoint> parseMeasuredPointsCsv(const std::string& text, const std::string& file,
                                                  const PointDefaults& defaults) {
    static const std::vector<std::string> required = {"input_tokens", "output_tokens", "replica_gpus",
                                                      "tokens_per_s_per_user", "tokens_per_s_per_gpu"};
    static const std::vector<std::string> optional = {
        "model",       "accelerator", "precision", "weight_bytes_per_param", "kv_bytes_per_element",
        "concurrency", "label"};
    std::vector<MeasuredPoint> points;
    std::vector<std::string> header;
    // RFC 4180 records (cost/csv_read.h): quoted fields as spreadsheets write them; the header and at most
    // kMaxMeasuredPoints points.
    std::optional<CsvSyntaxError> syntax;
    const auto records = readCsv(text, '#', kMaxMeasuredPoints + 1, syntax);
    if (syntax) {
        if (syntax->tooManyRecords) throw tooManyPoints(file);
        throw InputError(InputLocation{file, kCsvKind, "line " + std::to_string(syntax->line), "", ""},
                         syntax->problem + " (data/FORMAT.md §8.1)");
    }
    for (const auto& record : records) {
        const std::size_t lineNo = record.line;
        const InputLocation where{file, kCsvKind, "line " + std::to_string(lineNo), "", ""};
        const FieldCheck check{where};
        const auto& cells = record.fields;
        for (size_t i = 0; i < cells.size(); ++i)
            if (const size_t bad = model::invalidUtf8(cells[i]); bad != std::string::npos)
                throw InputError(header.empty() || i >= header.size() ? where : check.at(header[i]),
                                 "text is not valid UTF-8 (byte " + std::to_string(bad + 1) +
                                     " of the field)");
        if (header.empty()) {
            header = cells;
            for (const auto& h : header) {
                if (std::find(required.begin(), required.end(), h) == required.end() &&
                    std::find(optional.begin(), optional.end(), h) == optional.end())
                    throw InputError(check.at(h),
                                     "unknown column '" + h + "' in the header (data/FORMAT.md §8.1)");
                if (std::count(header.begin(), header.end(), h) > 1)
                    throw InputError(check.at(h), "column '" + h + "' appears twice in the header");
            }
            for (const auto& r : required)
                if (std::find(header.begin(), header.end(), r) == header.end())
                    throw InputError(check.at(r), "the header lacks the required column '" + r + "'");
            continue;
        }
        if (cells.size() != header.size())
            throw InputError(check.at(cells.size() < header.size() ? header[cells.size()] : "(extra)"),
                             "has " + std::to_string(cells.size()) + " fields, the header " +
                                 std::to_string(header.size()));
        MeasuredPoint p;
        p.model = defaults.model;
        p.accelerator = defaults.accelerator;
        p.precision = defaults.precision.empty() ? "fp8" : defaults.precision;
        p.origin = file + ":" + std::to_string(lineNo);
        for (size_t i = 0; i < header.size(); ++i) {
            const std::string& h = header[i];
            const std::string& cell = cells[i];
            if (h == "model" || h == "accelerator" || h == "label") {
                if (cell.empty() && h != "label") throw InputError(check.at(h), "is empty");
                if (h == "model") p.model = cell;
                if (h == "accelerator") p.accelerator = cell;
                if (h == "label" && !cell.empty()) p.origin += " " + cell;
                continue;
            }
            if (h == "precision") {
                p.precision = check.precision(h, cell);
                continue;
            }
            double v = 0;
            if (!parseDouble(cell, v)) throw InputError(check.at(h), "'" + cell + "' is not a number");
            if (h == "input_tokens")
                p.inputTokens = check.nonNegative(h, v);
            else if (h == "output_tokens")
                p.outputTokens = check.positive(h, v);
            else if (h == "replica_gpus")
                p.replicaGpus = check.gpuCount(h, v);
            else if (h == "tokens_per_s_per_user")
                p.tokensPerSecondPerUser = check.positive(h, v);
            else if (h == "tokens_per_s_per_gpu")
                p.tokensPerSecondPerGpu = check.positive(h, v);
            else if (h == "weight_bytes_per_param")
                p.weightBytesPerParam = check.bytesPerValue(h, v);
            else if (h == "kv_bytes_per_element")
                p.kvBytesPerElement = check.bytesPerValue(h, v);
            else if (h == "concurrency")
                p.concurrency = check.positive(h, v);
        }
        checkPoint(p, check);
        points.push_back(std::move(p));
    }
    if (points.empty())
        throw InputError(InputLocation{file, "", "", "", ""},
                         header.empty() ? "empty file: no header and no measured point"
                                        : "no measured point after the header");
    return points;
}

namespace {

/// A number from a benchmark record: JSON number, or a numeric string (vLLM `--metadata` values are strings).
bool recordNumber(const nlohmann::json& r, const char* key, double& v) {
    const auto it = r.find(key);
    if (it == r.end() || it->is_null()) return false;
    if (it->is_number()) {
        v = it->get<double>();
        return true;
    }
    if (it->is_string() && parseDouble(it->get<std::string>(), v)) return true;
    v = std::numeric_limits<double>::quiet_NaN();
    return true; // present but not a number: the caller's range check names it
}

std::string recordText(const nlohmann::json& r, const char* key, const std::string& fallback) {
    const auto it = r.find(key);
    return (it != r.end() && it->is_string() && !it->get<std::string>().empty()) ? it->get<std::string>()
                                                                                 : fallback;
}

MeasuredPoint pointOfRecord(const nlohmann::json& r, const std::string& file, size_t index,
                            const PointDefaults& defaults) {
    const InputLocation where{file, kJsonKind, "record " + std::to_string(index + 1), "", ""};
    const FieldCheck check{where};
    if (!r.is_object()) throw InputError(where, "must be a JSON object (one benchmark result)");
    const auto need = [&](const char* key) {
        double v = 0;
        if (!recordNumber(r, key, v))
            throw InputError(check.at(key), "missing (a vLLM/SGLang benchmark result field)");
        return v;
    };
    MeasuredPoint p;
    p.origin = file + "[" + std::to_string(index + 1) + "]";
    // Metadata keys (vLLM --metadata KEY=VALUE lands at the top level) beat the command line's defaults.
    p.model = recordText(r, "ctwin_model", defaults.model);
    p.accelerator = recordText(r, "accelerator", defaults.accelerator);
    p.precision = check.precision(
        "precision", recordText(r, "precision", defaults.precision.empty() ? "fp8" : defaults.precision));
    double replica = defaults.replicaGpus;
    for (const char* key : {"tensor_parallel_size", "replica_gpus"})
        if (double v = 0; recordNumber(r, key, v)) replica = v;
    if (replica == 0)
        throw InputError(check.at("replica_gpus"), "unknown: give --replica-gpus or the metadata key");
    p.replicaGpus = check.gpuCount("replica_gpus", replica);
    double gpus = defaults.gpus > 0 ? defaults.gpus : p.replicaGpus;
    for (const char* key : {"num_gpus", "gpus"})
        if (double v = 0; recordNumber(r, key, v)) gpus = v;
    check.gpuCount("gpus", gpus);
    // benchmark_serving.py --max-concurrency (null when unlimited): requests in flight on the whole server,
    // shared evenly by its gpus / replica_gpus replicas.
    if (double v = 0; recordNumber(r, "max_concurrency", v))
        p.concurrency = check.positive("max_concurrency", v) * p.replicaGpus / gpus;
    if (double v = 0; recordNumber(r, "kv_bytes_per_element", v))
        p.kvBytesPerElement = check.bytesPerValue("kv_bytes_per_element", v);
    const double completed = check.positive("completed", need("completed"));
    p.inputTokens = check.nonNegative("total_input_tokens", need("total_input_tokens")) / completed;
    p.outputTokens = check.positive("total_output_tokens", need("total_output_tokens")) / completed;
    // benchmark_serving.py: output_throughput = total output tokens / duration (whole server);
    // mean_tpot_ms = mean over requests of (latency − TTFT) / (output tokens − 1).
    p.tokensPerSecondPerGpu = check.positive("output_throughput", need("output_throughput")) / gpus;
    p.tokensPerSecondPerUser = 1000.0 / check.positive("mean_tpot_ms", need("mean_tpot_ms"));
    checkPoint(p, check);
    return p;
}

} // namespace

std::vector<MeasuredPoint> parseMeasuredPointsJson(const std::string& text, const std::string& file,
                                                   const PointDefaults& defaults) {
    std::vector<nlohmann::json> records;
    // One document, else JSON lines; both through model::parseJson (nesting limit, no key twice).
    try {
        nlohmann::json doc = model::parseJson<nlohmann::json>(text);
        if (doc.is_array())
            for (auto& r : doc)
                records.push_back(std::move(r));
        else
            records.push_back(std::move(doc));
    } catch (const nlohmann::json::exception& asDocument) {
        // JSON lines: SGLang's bench_serving appends one result object per line.
        std::istringstream in(text);
        std::string line;
        int lineNo = 0;
        while (std::getline(in, line)) {
            ++lineNo;
            if (trim(line).empty()) continue;
            if (records.size() == kMaxMeasuredPoints) throw tooManyPoints(file);
            try {
                records.push_back(model::parseJson<nlohmann::json>(line));
            } catch (const nlohmann::json::exception&) {
                throw InputError(InputLocation{file, kJsonKind, "line " + std::to_string(lineNo), "", ""},
                                 "malformed JSON (neither one JSON document nor JSON lines; as one document: " +
                                     model::jsonErrorText(asDocument) + ")");
            }
        }
    }
    if (records.size() > kMaxMeasuredPoints) throw tooManyPoints(file);
    std::vector<MeasuredPoint> points;
    for (size_t i = 0; i < records.size(); ++i)
        points.push_back(pointOfRecord(records[i], file, i, defaults));
    if (points.empty())
        throw InputError(InputLocation{file, "", "", "", ""}, "empty file: no benchmark result");
    return points;
}

std::vector<MeasuredPoint> loadMeasuredPoints(const std::string& file, const PointDefaults& defaults) {
    namespace fs = std::filesystem;
    const std::string text = model::readInputFile(file, model::kMaxMeasuredPointsFileBytes, "measured-points file");
    const std::string t = trim(text);
    if (t.find_first_not_of("\n") == std::string::npos)
        throw InputError(InputLocation{file, "", "", "", ""}, "empty file: no measured points");
    const std::string ext = fs::path(file).extension().string();
    const bool json = ext == ".json" || ext == ".jsonl" || (ext != ".csv" && (t[0] == '{' || t[0] == '['));
    return json ? parseMeasuredPointsJson(text, file, defaults)
                : parseMeasuredPointsCsv(text, file, defaults);
}

ServedModel servedModelForPoint(const model::CatalogItem& preset, const MeasuredPoint& p) {
    model::InferenceService s; // preset values only: no stated params, layers or heads
    s.precision = p.precision;
    s.kvBytesPerElement = p.kvBytesPerElement;
    // Weight bytes follow the precision unless stated: bf16 2, fp8 1, fp4 0.5 bytes per parameter.
    s.weightBytesPerParam = p.weightBytesPerParam > 0 ? p.weightBytesPerParam
                            : p.precision == "bf16"   ? 2.0
                            : p.precision == "fp4"    ? 0.5
                                                      : 1.0;
    return servedModelOf(s, &preset, std::nullopt);
}

PointPrediction predictPoint(const ServedModel& m, const AcceleratorSpec& a, const MeasuredPoint& p) {
    PointPrediction out;
    const int g = p.replicaGpus;
    const double context = p.inputTokens + p.outputTokens / 2.0; // as sizeService: prompt + half the output
    const double peak = p.inputTokens + p.outputTokens;
    const double bmax = maxDecodeBatch(m, a, g, peak);
    if (!(bmax >= 1)) return out;
    // Co-located prefill on the same replica (cost::sizeService): its GPU-seconds per request stretch the
    // user's inter-token time (cost::withPrefillInterference).
    // Under data-parallel attention the prompt also holds the other ranks (cost::coLocatedPrefillSeconds).
    const auto prefillSecondsAt = [&](double b) {
        return coLocatedPrefillSeconds(m, a, g, AttentionParallel::Auto, p.inputTokens, p.inputTokens,
                                       p.outputTokens, b);
    };
    const auto at = [&](double b) {
        return withPrefillInterference(decodePoint(m, a, g, context, b), prefillSecondsAt(b), p.outputTokens);
    };
    const auto userRate = [&](double b) { return at(b).tokensPerSecondPerUser; };
    const double target = p.tokensPerSecondPerUser;
    double b = 1;
    const double fastest = userRate(1.0), slowest = userRate(bmax);
    if (!(fastest > 0)) return out;
    if (p.concurrency > 0) {
        // The requests in flight on one replica decode together: the batch is the per-replica concurrency
        // (data/FORMAT.md §8); the prefill share of their GPU time is the interference above.
        b = std::clamp(p.concurrency, 1.0, bmax);
        out.outOfReach = p.concurrency > bmax * (1 + 1e-4);
        out.userMismatch = std::log(userRate(b) / target);
    } else if (target >= fastest) {
        b = 1, out.userMismatch = std::log(fastest / target), out.outOfReach = target > fastest * (1 + 1e-4);
    } else if (target <= slowest) {
        b = bmax, out.userMismatch = std::log(slowest / target),
        out.outOfReach = target < slowest * (1 - 1e-4);
    } else {
        // The user's speed falls monotonically with b (cost::bestDecodePoint): bisect on log b.
        double lo = 0, hi = std::log(bmax);
        for (int i = 0; i < 80 && hi - lo > 1e-12; ++i) {
            const double mid = 0.5 * (lo + hi);
            (userRate(std::exp(mid)) > target ? lo : hi) = mid;
        }
        b = std::exp(0.5 * (lo + hi));
    }
    const DecodePoint d = at(b);
    out.batch = b;
    out.tokensPerSecondPerUser = d.tokensPerSecondPerUser;
    // Co-located prefill and decode share the GPUs by GPU-seconds per request (cost::sizeService).
    const double seconds = prefillSecondsAt(b) + (d.tokensPerSecondPerGpu > 0 ? p.outputTokens / d.tokensPerSecondPerGpu : 0.0);
    out.tokensPerSecondPerGpu = seconds > 0 ? p.outputTokens / seconds : 0.0;
    return out;
}

namespace {

struct Problem {
    const model::CatalogItem& acc;
    const model::CatalogItem& preset;
    const std::vector<MeasuredPoint>& points;
    std::vector<ServedModel> models;
    std::vector<AcceleratorSpec> specs;

    Problem(const model::CatalogItem& a, const model::CatalogItem& p, const std::vector<MeasuredPoint>& pts,
            const model::CatalogItem* engine)
        : acc(a), preset(p), points(pts) {
        for (const auto& pt : pts) {
            models.push_back(servedModelForPoint(preset, pt));
            specs.push_back(pointSpecOf(acc, pt, engine));
            const double peak = pt.inputTokens + pt.outputTokens;
            if (!(maxDecodeBatch(models.back(), specs.back(), pt.replicaGpus, peak) >= 1))
                throw InputError(InputLocation{pt.origin, kCsvKind, "", "", "replica_gpus"},
                                 "the weights and one sequence's KV of " + preset.id + " (" + pt.precision +
                                     ") do not fit in " + std::to_string(pt.replicaGpus) + " x " + acc.id +
                                     " at 90% of HBM");
        }
    }

    std::vector<PointPrediction> predict(const EfficiencyFactors& f) const {
        std::vector<PointPrediction> out;
        for (size_t i = 0; i < points.size(); ++i) {
            AcceleratorSpec a = specs[i];
            a.hbmEfficiency = f.hbm, a.computeEfficiency = f.compute, a.collectiveEfficiency = f.collective;
            out.push_back(predictPoint(models[i], a, points[i]));
        }
        return out;
    }

    Eigen::VectorXd residuals(const Eigen::Vector3d& x) const {
        const auto pred = predict(EfficiencyFactors{x[0], x[1], x[2]});
        Eigen::VectorXd r(2 * pred.size());
        for (size_t i = 0; i < pred.size(); ++i) {
            const double ratio = pred[i].tokensPerSecondPerGpu / points[i].tokensPerSecondPerGpu;
            r[2 * i] = ratio > 0 ? std::log(ratio) : 50.0;
            r[2 * i + 1] = pred[i].userMismatch;
        }
        return r;
    }
};

double rmsRelative(const std::vector<PointPrediction>& pred, const std::vector<MeasuredPoint>& pts) {
    double s = 0;
    for (size_t i = 0; i < pred.size(); ++i) {
        const double e = pred[i].tokensPerSecondPerGpu / pts[i].tokensPerSecondPerGpu - 1.0;
        s += e * e;
    }
    return pred.empty() ? 0.0 : std::sqrt(s / static_cast<double>(pred.size()));
}

double rmsUser(const std::vector<PointPrediction>& pred) {
    double s = 0;
    for (const auto& p : pred)
        s += std::expm1(p.userMismatch) * std::expm1(p.userMismatch);
    return pred.empty() ? 0.0 : std::sqrt(s / static_cast<double>(pred.size()));
}

} // namespace

AcceleratorSpec pointSpecOf(const model::CatalogItem& accelerator, const MeasuredPoint& p,
                            const model::CatalogItem* engine) {
    AcceleratorSpec a =
        acceleratorSpecOf(accelerator, p.precision, attentionPrecisionOf(accelerator, "auto", p.kvBytesPerElement));
    if (engine) a.engine = engineProfileOf(*engine);
    return a;
}

std::vector<PointPrediction> predictPoints(const model::CatalogItem& accelerator,
                                           const model::CatalogItem& preset,
                                           const std::vector<MeasuredPoint>& points,
                                           const EfficiencyFactors& f, const model::CatalogItem* engine) {
    return Problem(accelerator, preset, points, engine).predict(f);
}

std::vector<PointPrediction> modelCurve(const model::CatalogItem& accelerator,
                                        const model::CatalogItem& preset, const MeasuredPoint& setting,
                                        const EfficiencyFactors& f, const model::CatalogItem* engine) {
    const ServedModel m = servedModelForPoint(preset, setting);
    AcceleratorSpec a = pointSpecOf(accelerator, setting, engine);
    a.hbmEfficiency = f.hbm, a.computeEfficiency = f.compute, a.collectiveEfficiency = f.collective;
    const double bmax = maxDecodeBatch(m, a, setting.replicaGpus, setting.inputTokens + setting.outputTokens);
    std::vector<PointPrediction> curve;
    for (double b = 1; b <= bmax; b = (b * 2 <= bmax || b == bmax) ? b * 2 : bmax) {
        MeasuredPoint at = setting;
        at.tokensPerSecondPerUser =
            decodePoint(m, a, setting.replicaGpus, setting.inputTokens + setting.outputTokens / 2.0, b)
                .tokensPerSecondPerUser;
        curve.push_back(predictPoint(m, a, at));
        if (b == bmax) break;
    }
    return curve;
}

CalibrationResult calibrateAccelerator(const model::CatalogItem& accelerator,
                                       const model::CatalogItem& preset,
                                       const std::vector<MeasuredPoint>& points,
                                       const model::CatalogItem* engine) {
    const Problem prob(accelerator, preset, points, engine);
    CalibrationResult res;
    Eigen::Vector3d lo, hi, base;
    for (int k = 0; k < 3; ++k) {
        const auto* v = accelerator.find(kFactorFields[k]);
        if (!v)
            throw InputError(
                InputLocation{"catalog", "accelerator", accelerator.id, accelerator.name, kFactorFields[k]},
                "missing: the fit needs the factor's catalog range");
        lo[k] = v->low, hi[k] = v->high, base[k] = v->base;
    }
    res.before = EfficiencyFactors{base[0], base[1], base[2]};
    res.low = EfficiencyFactors{lo[0], lo[1], lo[2]};
    res.high = EfficiencyFactors{hi[0], hi[1], hi[2]};
    res.predictedBefore = prob.predict(res.before);
    res.rmsRelativeErrorBefore = rmsRelative(res.predictedBefore, points);
    res.rmsUserErrorBefore = rmsUser(res.predictedBefore);

    const auto cost = [&](const Eigen::Vector3d& x) { return prob.residuals(x).squaredNorm(); };
    const auto clamp = [&](Eigen::Vector3d x) {
        for (int k = 0; k < 3; ++k)
            x[k] = std::clamp(x[k], lo[k], hi[k]);
        return x;
    };
    // Forward-difference Jacobian (backward at the upper bound, so the probe stays inside the box).
    const auto jacobian = [&](const Eigen::Vector3d& x, const Eigen::VectorXd& r) {
        Eigen::MatrixXd J(r.size(), 3);
        for (int k = 0; k < 3; ++k) {
            const double h = 1e-6 * std::max(1.0, std::abs(x[k]));
            Eigen::Vector3d xp = x;
            xp[k] = x[k] + h <= hi[k] ? x[k] + h : x[k] - h;
            J.col(k) = (prob.residuals(xp) - r) / (xp[k] - x[k]);
        }
        return J;
    };

    // 1. Coarse grid, 7 values per factor over the catalog box: the roofline's max() makes the cost
    //    piecewise smooth, so a local method alone can stall on a flat face.
    Eigen::Vector3d x = base;
    double best = cost(base);
    constexpr int kGrid = 7;
    for (int i = 0; i < kGrid; ++i)
        for (int j = 0; j < kGrid; ++j)
            for (int k = 0; k < kGrid; ++k) {
                const Eigen::Vector3d g{lo[0] + (hi[0] - lo[0]) * i / (kGrid - 1),
                                        lo[1] + (hi[1] - lo[1]) * j / (kGrid - 1),
                                        lo[2] + (hi[2] - lo[2]) * k / (kGrid - 1)};
                if (const double c = cost(g); c < best) best = c, x = g;
            }

    // 2. Levenberg–Marquardt (Marquardt 1963), damping on the diagonal of JᵀJ, steps projected on the box.
    Eigen::VectorXd r = prob.residuals(x);
    double c = r.squaredNorm();
    double lambda = 1e-3;
    for (res.iterations = 0; res.iterations < 200; ++res.iterations) {
        const Eigen::MatrixXd J = jacobian(x, r);
        const Eigen::Matrix3d A = J.transpose() * J;
        const Eigen::Vector3d grad = J.transpose() * r;
        bool accepted = false;
        Eigen::Vector3d xn = x;
        while (lambda < 1e12) {
            Eigen::Matrix3d D = A;
            for (int k = 0; k < 3; ++k)
                D(k, k) += lambda * std::max(A(k, k), 1e-12) + 1e-15;
            xn = clamp(x - D.ldlt().solve(grad));
            const Eigen::VectorXd rn = prob.residuals(xn);
            if (const double cn = rn.squaredNorm(); cn < c) {
                accepted = true;
                const double gain = c - cn;
                r = rn, c = cn, lambda = std::max(lambda / 3, 1e-12);
                if (gain < 1e-16 * std::max(1.0, c)) lambda = 1e12; // converged
                break;
            }
            lambda *= 4;
        }
        const double moved = (xn - x).norm();
        if (accepted) x = xn;
        if (!accepted || moved < 1e-12) break;
    }

    // A factor the points do not move keeps its catalog value (its column of J is zero).
    const Eigen::MatrixXd J = jacobian(x, r);
    for (int k = 0; k < 3; ++k) {
        res.identified[k] = J.col(k).norm() > 1e-9;
        if (!res.identified[k]) x[k] = base[k];
        // On a bound: within 0.1% of the range's width of it (the projected steps stop just short of it).
        const double near = 1e-3 * std::max(hi[k] - lo[k], 1e-9);
        res.atBound[k] = res.identified[k] && (std::abs(x[k] - lo[k]) < near || std::abs(x[k] - hi[k]) < near);
    }
    res.after = EfficiencyFactors{x[0], x[1], x[2]};
    res.predictedAfter = prob.predict(res.after);
    res.rmsRelativeErrorAfter = rmsRelative(res.predictedAfter, points);
    res.rmsUserErrorAfter = rmsUser(res.predictedAfter);
    for (const auto& p : res.predictedAfter)
        res.outOfReachAfter += p.outOfReach ? 1 : 0;
    return res;
}

} // namespace ctwin::cost
