// Serving-model validation harness (groundwork for issue 28 item 8): holds the engine's serving roofline
// (cost/inference.h) against the published, measured LLM serving points of data/validation/serving.json
// (TensorRT-LLM performance overview, MLPerf Inference v5.1, NVIDIA NIM; read data/validation/README.md).
//
// `--check` is the ctest `serving_validation` (see kKnownGaps). Without it, it prints, per point, the
// measured and predicted tokens/s per GPU and per user with the relative error, the RMS relative error of
// each metric and how many points fall within ±30%, and lists every point it could not run with the reason.
// `--json` prints the same as one JSON document. data/validation/BASELINE.md keeps the output of one run.
//
// Everything the engine needs comes from the SHIPPED catalog with its base values: the accelerator through
// cost::acceleratorSpecOf and the model preset through cost::servedModelForPoint (the functions
// `clustertwin-cli calibrate` uses), the point's serving engine profile (engine_catalog_id, else trt-llm for
// TensorRT-LLM and NIM, vllm for vLLM), weight bytes by precision (fp8 1, fp4 0.5 bytes per parameter) unless
// the point states weight_bytes_per_param, and the KV-cache bytes the source ran (kv_bytes_per_element, 2
// when absent); attention runs at FP8 with a 1-byte KV cache on FP8 hardware (cost::attentionPrecisionOf).
//
// A replica is tp × pp GPUs (pp null = 1). Each kind of point is predicted with the engine's own end-to-end
// figure for that condition; every kind includes prefill's GPU-time share (co-located serving,
// disaggregated = false), so the predicted per-GPU figure is output tokens/s per GPU of a fixed-ISL/OSL run:
//  - fixed concurrency (NIM): cost::predictPoint exactly as `calibrate` calls it — decode batch = the
//    per-replica concurrency (concurrency × replica GPUs / GPUs), clamped to the largest batch that fits;
//    tokens/s/GPU = O / (I / prefill rate + O / decode rate(b)), as cost::sizeService.
//  - per-user speed measured, no concurrency (MLPerf Server/Interactive): cost::sizeService with the measured
//    tokens/s/user as target and the stated replica size: chooseReplica/bestDecodePoint pick the largest
//    whole batch whose predicted per-user speed is >= the measured one; predicted tokens/s/GPU =
//    requests/s × OSL / GPUs. The per-user column then shows the engine's speed at that batch.
//  - offline with a stated request count (TRT-LLM performance overview: 3,000 requests at 1024/1024, 1,500
//    at 8192/1024 and 1024/8192, 1,000 at 32768/1024 and 1024/32768): as fixed concurrency with the
//    request count, i.e. one wave at that batch when it is below the largest batch that fits (predictPoint
//    clamps it there otherwise).
//  - offline (per-user null, TRT-LLM tables, MLPerf Offline): cost::sizeService with a zero per-user target,
//    i.e. the largest batch whose KV at ISL + OSL fits next to the weights (maxDecodeBatch); same per-GPU
//    formula. The per-user column shows the engine's speed at that batch (nothing measured to compare).
// For an MoE with known experts sizeService tries data- and tensor-parallel attention and keeps the faster;
// the `attn` column says which it chose (the TRT-LLM "DEP" and MLPerf DeepSeek-R1 runs use attention-DP).
//
// Points are skipped, with the reason printed, when the accelerator or the model has no catalog entry
// (h200, mi300x, mi325x; Llama 2 70B, Mixtral 8x7B), when the replica size is unknown, or when the input
// length is null: MLPerf's datasets have variable inputs and no mean input length is published in the
// sources data/validation/README.md read ("MLPerf input lengths are unknown here"), so no ISL is guessed.
#include "calibration.h"
#include "catalog.h"
#include "inference.h"
#include "input_file.h"
#include "json_fast_parse.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ctwin;

namespace {

/// One point of data/validation/serving.json, the fields the harness reads (README "Format").
struct ValidationPoint {
    std::string id, accelerator, model, modelCatalogId, precision, scenario;
    std::optional<int> tp, pp, ep;
    int gpus = 0;
    std::optional<double> inputTokens, outputTokens, concurrency, perUser;
    std::optional<double> numRequests; // requests of an offline run, when the source states them
    double perGpu = 0;
    std::string engine;             // serving_engines catalog id
    double kvBytesPerElement = 2;   // KV-cache dtype the source ran
    double weightBytesPerParam = 0; // 0 = by precision
    /// The source's KV-cache manager allocates sliding-window layers over the whole sequence (TensorRT-LLM's
    /// V1 manager without max_attention_window; README "Format").
    bool slidingWindowKvFullLength = false;
};

std::optional<double> optionalNumber(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return std::nullopt;
    return it->get<double>();
}

std::optional<int> optionalInt(const nlohmann::json& j, const char* key) {
    const auto v = optionalNumber(j, key);
    return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
}

std::string optionalText(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return (it == j.end() || it->is_null()) ? std::string() : it->get<std::string>();
}

std::vector<ValidationPoint> loadPoints(const std::string& file) {
    // The project's one bounded reader and parser (model::readInputFile, model::parseJson): regular files
    // only, nesting limit, a key given twice is an error.
    const auto doc = model::parseJson<nlohmann::json>(
        model::readInputFile(file, model::kMaxCatalogFileBytes, "validation file"));
    if (doc.value("format", "") != "clustertwin-validation-serving")
        throw std::runtime_error(file + ": not a clustertwin-validation-serving file");
    std::vector<ValidationPoint> out;
    for (const auto& j : doc.at("points")) {
        ValidationPoint p;
        p.id = j.at("id").get<std::string>();
        p.accelerator = j.at("accelerator").get<std::string>();
        p.model = j.at("model").get<std::string>();
        p.modelCatalogId = optionalText(j, "model_catalog_id");
        p.precision = j.at("precision").get<std::string>();
        p.scenario = j.at("scenario").get<std::string>();
        p.tp = optionalInt(j, "tp");
        p.pp = optionalInt(j, "pp");
        p.ep = optionalInt(j, "ep");
        p.gpus = j.at("gpus").get<int>();
        p.inputTokens = optionalNumber(j, "input_tokens");
        p.outputTokens = optionalNumber(j, "output_tokens");
        p.concurrency = optionalNumber(j, "concurrency");
        p.numRequests = optionalNumber(j, "num_requests");
        p.perUser = optionalNumber(j, "tokens_per_s_per_user");
        p.perGpu = j.at("tokens_per_s_per_gpu").get<double>();
        p.engine = optionalText(j, "engine_catalog_id");
        if (p.engine.empty()) p.engine = optionalText(j, "engine") == "vllm" ? "vllm" : "trt-llm";
        p.kvBytesPerElement = optionalNumber(j, "kv_bytes_per_element").value_or(2.0);
        p.weightBytesPerParam = optionalNumber(j, "weight_bytes_per_param").value_or(0.0);
        if (const auto it = j.find("sliding_window_kv_full_length"); it != j.end() && it->is_boolean())
            p.slidingWindowKvFullLength = it->get<bool>();
        out.push_back(std::move(p));
    }
    return out;
}

enum class Kind { Concurrency, UserTarget, Offline };

const char* kindName(Kind k) {
    switch (k) {
    case Kind::Concurrency:
        return "concurrency";
    case Kind::UserTarget:
        return "user-target";
    case Kind::Offline:
        return "max-batch";
    }
    return "";
}

struct Result {
    const ValidationPoint* point = nullptr;
    Kind kind = Kind::Offline;
    int replicaGpus = 0;
    double batch = 0, maxBatch = 0;
    double perGpu = 0, perUser = 0;
    double prefillFraction = 0;
    bool dataParallelAttention = false, memoryBound = false;
    cost::DecodePoint step; // the decode operating point (step parts in the table)
    bool reached = true;    // the measured per-user speed or concurrency is within the engine's reach
    double gpuError() const { return perGpu / point->perGpu - 1.0; }
    std::optional<double> userError() const {
        if (!point->perUser) return std::nullopt;
        return perUser / *point->perUser - 1.0;
    }
};

struct Skipped {
    const ValidationPoint* point;
    std::string reason;
};

std::string skipReason(const ValidationPoint& p, const model::Catalog& catalog) {
    const auto* acc = catalog.find(p.accelerator);
    if (!acc || acc->category != "accelerators")
        return "accelerator '" + p.accelerator + "' is not in the catalog";
    if (p.modelCatalogId.empty())
        return "model '" + p.model + "' has no catalog preset (model_catalog_id null)";
    const auto* preset = catalog.find(p.modelCatalogId);
    if (!preset || preset->category != "models")
        return "model preset '" + p.modelCatalogId + "' is not in the catalog";
    if (!p.tp) return "replica size unknown (tp null)";
    if (!p.outputTokens) return "output length unknown (output_tokens null)";
    if (!p.inputTokens)
        return "input length unknown (input_tokens null: variable-length dataset, no published mean ISL in "
               "data/validation/README.md)";
    if (const auto* e = catalog.find(p.engine); !e || e->category != "serving_engines")
        return "serving engine profile '" + p.engine + "' is not in the catalog";
    if (p.precision != "bf16" && p.precision != "fp8" && p.precision != "fp4")
        return "precision '" + p.precision + "' is not one the engine knows";
    return {};
}

Result predict(const ValidationPoint& vp, const model::CatalogItem& acc, const model::CatalogItem& preset,
               const model::CatalogItem& engine) {
    Result r;
    r.point = &vp;
    r.replicaGpus = *vp.tp * std::max(1, vp.pp.value_or(1));
    cost::MeasuredPoint mp;
    mp.model = preset.id;
    mp.accelerator = acc.id;
    mp.precision = vp.precision;
    mp.inputTokens = *vp.inputTokens;
    mp.outputTokens = *vp.outputTokens;
    mp.replicaGpus = r.replicaGpus;
    mp.tokensPerSecondPerGpu = vp.perGpu;
    mp.tokensPerSecondPerUser = vp.perUser.value_or(0);
    mp.origin = vp.id;
    mp.kvBytesPerElement = vp.kvBytesPerElement;
    mp.weightBytesPerParam = vp.weightBytesPerParam;
    const cost::ServedModel m = cost::servedModelForPoint(preset, mp);
    cost::AcceleratorSpec a = cost::acceleratorSpecOf(
        acc, vp.precision, cost::attentionPrecisionOf(acc, "auto", vp.kvBytesPerElement));
    a.engine = cost::engineProfileOf(engine);
    const double decodeContext = mp.inputTokens + mp.outputTokens / 2.0; // as sizeService and predictPoint
    const double peakContext = mp.inputTokens + mp.outputTokens;

    // An offline run of a finite request set (trtllm-bench: every request queued at once, throughput = output
    // tokens / makespan) never runs a batch above its request count: when the requests per replica are fewer
    // than the largest batch that fits, the whole run is one wave at that batch, which is the fixed-
    // concurrency case with concurrency = the request count (each request's time = its share of the
    // prefill + OSL decode steps at that batch). With more requests it is the steady state below.
    std::optional<double> offlineWave;
    if (!vp.concurrency && !vp.perUser && vp.numRequests && *vp.numRequests > 0) {
        cost::ServiceDemand steady;
        steady.inputTokens = mp.inputTokens;
        steady.outputTokens = mp.outputTokens;
        steady.gpus = vp.gpus;
        steady.disaggregated = false;
        steady.tensorParallel = r.replicaGpus;
        const cost::ServiceSizing s = cost::sizeService(m, a, steady);
        double perReplica = *vp.numRequests * r.replicaGpus / vp.gpus;
        // A KV-cache manager that gives sliding-window layers blocks for the whole sequence (TensorRT-LLM
        // PR #6768, Aug 2025: "the maximum number of blocks allocated for a sequence ... is the 'max sequence
        // length'"; pools sized per window only by the V2 manager, PR #16942, Jul 2026) holds fewer
        // sequences: the largest batch whose KV fits with every windowed layer at full length. The kernels
        // still read only the window, so the step is the windowed model's at that batch.
        if (vp.slidingWindowKvFullLength && m.slidingLayers > 0) {
            cost::ServedModel full = m;
            full.slidingLayers = 0; // counted with the full layers (layers - sliding - linear)
            const double fits =
                cost::maxDecodeBatch(full, a, r.replicaGpus, peakContext,
                                     s.decode.dataParallelAttention ? cost::AttentionParallel::Data
                                                                    : cost::AttentionParallel::Tensor);
            perReplica = std::min(perReplica, std::max(1.0, fits));
        }
        if (perReplica < s.decode.batch) offlineWave = perReplica * vp.gpus / r.replicaGpus;
    }
    if (vp.concurrency || offlineWave) {
        r.kind = vp.concurrency ? Kind::Concurrency : Kind::Offline;
        // Requests in flight on the whole system, shared evenly by its replicas (as calibrate's JSON reader).
        mp.concurrency = (vp.concurrency ? *vp.concurrency : *offlineWave) * r.replicaGpus / vp.gpus;
        if (!(mp.tokensPerSecondPerUser > 0)) mp.tokensPerSecondPerUser = 1; // only feeds userMismatch
        const cost::PointPrediction pp = cost::predictPoint(m, a, mp);
        r.batch = pp.batch;
        r.perGpu = pp.tokensPerSecondPerGpu;
        r.perUser = pp.tokensPerSecondPerUser;
        r.reached = !pp.outOfReach;
        const cost::DecodePoint d =
            cost::decodePoint(m, a, r.replicaGpus, decodeContext, std::max(1.0, pp.batch));
        r.dataParallelAttention = d.dataParallelAttention;
        r.memoryBound = d.memoryBound;
        r.step = d;
        const double ps =
            cost::coLocatedPrefillSeconds(m, a, r.replicaGpus, cost::AttentionParallel::Auto, mp.inputTokens,
                                          mp.inputTokens, mp.outputTokens, std::max(1.0, pp.batch));
        const double ds = d.tokensPerSecondPerGpu > 0 ? mp.outputTokens / d.tokensPerSecondPerGpu : 0.0;
        r.prefillFraction = ps + ds > 0 ? ps / (ps + ds) : 0.0;
    } else {
        r.kind = vp.perUser ? Kind::UserTarget : Kind::Offline;
        cost::ServiceDemand d;
        d.inputTokens = mp.inputTokens;
        d.outputTokens = mp.outputTokens;
        d.targetTokensPerSecondPerUser = vp.perUser.value_or(0.0);
        d.gpus = vp.gpus;
        d.disaggregated = false;
        d.tensorParallel = r.replicaGpus;
        const cost::ServiceSizing s = cost::sizeService(m, a, d);
        r.batch = s.decode.batch;
        r.perGpu = d.gpus > 0 ? s.outputTokensPerSecond / d.gpus : 0.0;
        r.perUser = s.decode.tokensPerSecondPerUser;
        r.reached = s.meetsTarget;
        r.dataParallelAttention = s.decode.dataParallelAttention;
        r.memoryBound = s.decode.memoryBound;
        r.step = s.decode;
        r.prefillFraction = s.prefillFraction;
    }
    r.maxBatch = cost::maxDecodeBatch(m, a, r.replicaGpus, peakContext,
                                      r.dataParallelAttention ? cost::AttentionParallel::Data
                                                              : cost::AttentionParallel::Tensor);
    return r;
}

std::string num(double v, int decimals = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string percent(std::optional<double> e) {
    if (!e) return "–";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%+.0f%%", *e * 100.0);
    return buf;
}

std::string lengths(const ValidationPoint& p) {
    const auto n = [](std::optional<double> v) { return v ? num(*v) : std::string("?"); };
    return n(p.inputTokens) + "/" + n(p.outputTokens);
}

struct Summary {
    int n = 0, within = 0;
    double rms = 0;
};

Summary summarize(const std::vector<std::optional<double>>& errors) {
    Summary s;
    double sum = 0;
    for (const auto& e : errors) {
        if (!e) continue;
        ++s.n;
        sum += *e * *e;
        if (std::abs(*e) <= 0.30) ++s.within;
    }
    s.rms = s.n > 0 ? std::sqrt(sum / s.n) : 0.0;
    return s;
}

// Worst points by |log(predicted / measured)| of tokens/s/GPU: symmetric in over- and under-prediction.
std::vector<const Result*> worstPoints(const std::vector<Result>& results, size_t count) {
    std::vector<const Result*> out;
    for (const auto& r : results)
        out.push_back(&r);
    const auto badness = [](const Result* r) {
        return r->perGpu > 0 ? std::abs(std::log(r->perGpu / r->point->perGpu)) : 1e300;
    };
    std::stable_sort(out.begin(), out.end(), [&](auto* x, auto* y) { return badness(x) > badness(y); });
    if (out.size() > count) out.resize(count);
    return out;
}

void printText(const std::vector<Result>& results, const std::vector<Skipped>& skipped, const Summary& gpu,
               const Summary& user) {
    std::cout << "## Evaluated points (" << results.size() << ")\n\n"
              << "| id | accelerator | model | ISL/OSL | conc | measured tok/s/GPU | predicted | error | "
                 "measured tok/s/user | predicted | error | kind | batch (max) | attn | prefill share | step "
                 "ms: compute / "
                 "memory / comm / overhead |\n"
              << "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|---|\n";
    for (const auto& r : results) {
        const auto& p = *r.point;
        std::cout << "| " << p.id << " | " << p.accelerator << " | " << p.modelCatalogId << " | "
                  << lengths(p) << " | " << (p.concurrency ? num(*p.concurrency) : "–") << " | "
                  << num(p.perGpu, 1) << " | " << num(r.perGpu, 1) << " | " << percent(r.gpuError()) << " | "
                  << (p.perUser ? num(*p.perUser, 2) : "–") << " | " << num(r.perUser, 2) << " | "
                  << percent(r.userError()) << " | " << kindName(r.kind)
                  << (r.reached ? "" : " (out of reach)") << " | " << num(r.batch) << " (" << num(r.maxBatch)
                  << ") | " << (r.dataParallelAttention ? "DP" : "TP")
                  << (r.memoryBound ? ", mem" : ", compute") << " | " << num(r.prefillFraction * 100.0)
                  << "% | " << num(r.step.computeTime.value() * 1e3, 2) << " / "
                  << num(r.step.memoryTime.value() * 1e3, 2) << " / " << num(r.step.commTime.value() * 1e3, 2)
                  << " / " << num(r.step.overheadTime.value() * 1e3, 2) << " |\n";
    }
    std::cout << "\nError = predicted / measured − 1. Per-user predictions of max-batch points have nothing "
                 "measured to compare with.\n\n## Summary\n\n"
              << "| metric | points | RMS relative error | within ±30% |\n|---|---:|---:|---:|\n"
              << "| tokens/s per GPU | " << gpu.n << " | " << num(gpu.rms * 100.0, 1) << "% | " << gpu.within
              << " |\n"
              << "| tokens/s per user | " << user.n << " | " << num(user.rms * 100.0, 1) << "% | "
              << user.within << " |\n\n## Worst 5 by tokens/s per GPU (|log ratio|)\n\n";
    for (const Result* r : worstPoints(results, 5))
        std::cout << "- " << r->point->id << ": measured " << num(r->point->perGpu, 1) << ", predicted "
                  << num(r->perGpu, 1) << " (" << percent(r->gpuError()) << ")\n";
    std::cout << "\n## Skipped points (" << skipped.size() << ")\n\n";
    for (const auto& s : skipped)
        std::cout << "- " << s.point->id << ": " << s.reason << "\n";
}

void printJson(const std::vector<Result>& results, const std::vector<Skipped>& skipped, const Summary& gpu,
               const Summary& user) {
    nlohmann::ordered_json j;
    j["format"] = "clustertwin-validation-serving-result";
    j["points"] = nlohmann::ordered_json::array();
    const auto optional = [](std::optional<double> v) { return v ? nlohmann::ordered_json(*v) : nullptr; };
    for (const auto& r : results) {
        const auto& p = *r.point;
        j["points"].push_back({{"id", p.id},
                               {"accelerator", p.accelerator},
                               {"model", p.modelCatalogId},
                               {"input_tokens", optional(p.inputTokens)},
                               {"output_tokens", optional(p.outputTokens)},
                               {"concurrency", optional(p.concurrency)},
                               {"kind", kindName(r.kind)},
                               {"reached", r.reached},
                               {"replica_gpus", r.replicaGpus},
                               {"batch", r.batch},
                               {"max_batch", r.maxBatch},
                               {"data_parallel_attention", r.dataParallelAttention},
                               {"memory_bound", r.memoryBound},
                               {"prefill_fraction", r.prefillFraction},
                               {"measured_tokens_per_s_per_gpu", p.perGpu},
                               {"predicted_tokens_per_s_per_gpu", r.perGpu},
                               {"error_per_gpu", r.gpuError()},
                               {"measured_tokens_per_s_per_user", optional(p.perUser)},
                               {"predicted_tokens_per_s_per_user", r.perUser},
                               {"error_per_user", optional(r.userError())}});
    }
    const auto summary = [](const Summary& s) {
        return nlohmann::ordered_json{
            {"points", s.n}, {"rms_relative_error", s.rms}, {"within_30_percent", s.within}};
    };
    j["summary"] = {{"tokens_per_s_per_gpu", summary(gpu)}, {"tokens_per_s_per_user", summary(user)}};
    j["worst_per_gpu"] = nlohmann::ordered_json::array();
    for (const Result* r : worstPoints(results, 5))
        j["worst_per_gpu"].push_back(r->point->id);
    j["skipped"] = nlohmann::ordered_json::array();
    for (const auto& s : skipped)
        j["skipped"].push_back({{"id", s.point->id}, {"reason", s.reason}});
    std::cout << j.dump(2) << "\n";
}

// Points the engine does not yet hold within ±30% (issue 28 item 8 is open for them), with the errors of the
// engine that committed this list. `--check` (the ctest) fails when any other point leaves ±30% (per GPU, and
// per user where measured), when a listed point gets worse by more than 0.05 in |log(predicted / measured)|,
// and when a listed point comes within ±30% (then it must leave this list: the list only shrinks). The
// mixture-of-experts points are still over-predicted at large batches after expert-GEMM bandwidth, the
// data-parallel prefill stall and the expert-parallel hot rank (data/validation/BASELINE.md, "after"); the
// GPT-OSS points moved with the source's full-length sliding-window KV allocation (BASELINE.md, "KV
// manager"), and all FP4 MoE points with the FP8/BF16 non-expert part of their checkpoints (BASELINE.md,
// "Non-expert precision"). What is left grows with the per-GPU batch: between the two stated-batch
// DeepSeek-R1 runs on 8 B200 (384 and 896 sequences per rank) a sequence adds ~160 µs to the measured step
// against ~49 µs in the engine, an effect the roofline terms here do not name.
struct KnownGap {
    const char* id;
    double error;     // predicted / measured − 1 of tokens/s per GPU
    double userError; // the same of tokens/s per user; NaN = per user within ±30% or not measured
};
constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
constexpr KnownGap kKnownGaps[] = {
    {"trtllm-llama33-70b-h100-tp2-fp8-8192-1024", -0.31, kNone},
    {"trtllm-dsr1-b200-dep4-fp4-1024-1024", 0.50, kNone},
    {"trtllm-dsr1-h200-dep8-fp8-1024-1024", 0.92, kNone},
    {"trtllm-gptoss120b-b200-dep2-fp4-1024-1024", 0.68, kNone},
    {"trtllm-gptoss120b-h200-tp1-fp8-1024-1024", 0.32, kNone},
    {"trtllm-blog-dsr1-0528-b200-dep8-fp4-fp8kv-1024-2048-c7168", 0.93, 0.88},
    {"trtllm-blog-dsr1-b200-dep8-fp4-bf16kv-1024-2048-c3072", 0.52, 0.51},
};

/// The ctest's verdict (see kKnownGaps); prints every failure and returns their count.
int check(const std::vector<Result>& results) {
    int failures = 0;
    const auto fail = [&](const std::string& why) {
        std::cerr << "FAIL " << why << "\n";
        ++failures;
    };
    const auto within = [](double e) { return std::abs(e) <= 0.30; };
    for (const auto& r : results) {
        const auto& id = r.point->id;
        const KnownGap* gap = nullptr;
        for (const auto& g : kKnownGaps)
            if (id == g.id) gap = &g;
        const double e = r.gpuError();
        if (const auto u = r.userError(); u && !within(*u)) {
            if (!gap || std::isnan(gap->userError))
                fail(id + ": tokens/s per user " + percent(u) + " is outside ±30%");
            else if (std::abs(std::log1p(*u)) > std::abs(std::log1p(gap->userError)) + 0.05)
                fail(id + ": tokens/s per user " + percent(u) + ", worse than the recorded " +
                     percent(gap->userError));
        } else if (gap && !std::isnan(gap->userError) && u) {
            fail(id + ": tokens/s per user now within ±30% (" + percent(u) +
                 "); clear its userError in kKnownGaps");
        }
        if (!gap) {
            if (!within(e)) fail(id + ": tokens/s per GPU " + percent(e) + " is outside ±30%");
            continue;
        }
        if (within(e)) {
            fail(id + ": now within ±30% (" + percent(e) + "); remove it from kKnownGaps");
        } else if (std::abs(std::log1p(e)) > std::abs(std::log1p(gap->error)) + 0.05) {
            fail(id + ": tokens/s per GPU " + percent(e) + ", worse than the recorded " +
                 percent(gap->error));
        }
    }
    for (const auto& g : kKnownGaps) {
        const bool seen =
            std::any_of(results.begin(), results.end(), [&](const Result& r) { return r.point->id == g.id; });
        if (!seen) fail(std::string(g.id) + ": listed in kKnownGaps but not evaluated");
    }
    if (results.size() < 15)
        fail("only " + std::to_string(results.size()) + " points evaluated (at least 15)");
    std::cerr << results.size() << " points evaluated, " << std::size(kKnownGaps) << " known gaps, "
              << failures << " failures\n";
    return failures;
}

} // namespace

int main(int argc, char** argv) {
    bool json = false, checkMode = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json") {
            json = true;
        } else if (arg == "--check") {
            checkMode = true;
        } else {
            std::cerr << "usage: serving_validation [--json | --check]\n";
            return 2;
        }
    }
    try {
        const model::Catalog catalog = model::loadCatalogDirectory(CTWIN_SOURCE_DATA_DIR "/catalog");
        const std::vector<ValidationPoint> points =
            loadPoints(CTWIN_SOURCE_DATA_DIR "/validation/serving.json");
        std::vector<Result> results;
        std::vector<Skipped> skipped;
        for (const auto& p : points) {
            if (std::string why = skipReason(p, catalog); !why.empty()) {
                skipped.push_back({&p, why});
                continue;
            }
            Result r =
                predict(p, catalog.at(p.accelerator), catalog.at(p.modelCatalogId), catalog.at(p.engine));
            if (!(r.perGpu > 0)) {
                skipped.push_back(
                    {&p, "the engine predicts nothing: the weights and one sequence's KV do not fit "
                         "the replica"});
                continue;
            }
            results.push_back(r);
        }
        std::vector<std::optional<double>> gpuErrors, userErrors;
        for (const auto& r : results) {
            gpuErrors.push_back(r.gpuError());
            userErrors.push_back(r.userError());
        }
        const Summary gpu = summarize(gpuErrors), user = summarize(userErrors);
        if (checkMode) return check(results) == 0 ? 0 : 1;
        if (json)
            printJson(results, skipped, gpu, user);
        else
            printText(results, skipped, gpu, user);
    } catch (const std::exception& e) {
        std::cerr << "serving_validation: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
