// Training-model validation harness (issue 29 item 9): holds the engine's training time and MFU
// (cost/training.h) against the published, measured runs of data/validation/training.json (Llama 3 Table 4,
// Korthikanti et al. 2023, MLPerf Training v4.0-v6.0; read data/validation/README.md for each source).
//
// `--check` is the ctest `training_validation`: every evaluated point must lie within ±20% of its measured
// value, except the points named in kKnownGaps, which must still fail (so a fixed gap is noticed and
// removed from the list). Without it, it prints a table: measured, predicted, error, and every point it
// could not run with the reason.
//
// Everything comes from the SHIPPED data with base values: data/assumptions.json (mfu, mfu_fp8_ratio,
// mfu_fp4_ratio, mfu_pipeline_bubble) and the accelerator's dense peak of data/catalog at the point's
// precision (bf16_flops; fp8 and mxfp8 -> fp8_flops; nvfp4 -> fp4_flops). Goodput is 1: benchmark runs and
// the MFU rows measure steady-state steps, not failures. Per kind:
//  - mfu (Llama 3 Table 4): cost::estimateTraining's end-to-end MFU for the published layout (pp, dp,
//    sequence length, global batch; virtual_stages null -> 8, the interleaving mfu_pipeline_bubble's source
//    assumes for that run). Compared with the published MFU.
//  - time_to_train (MLPerf): tokens = samples × sequence length of the run whose time is the olympic mean;
//    predicted minutes = cost::estimateTraining(tokens, layout) compared with that run's training minutes:
//    its raw minutes less the evaluations its MLLOG log times (measured.evaluation; the RCP scaling factor
//    is a convergence allowance, not compute). Model parameters from the point (dense: all active; MoE:
//    active_params).
//  - hfu (Megatron-LM SC21 Table 1, full recomputation): the same as mfu, against the model-FLOPs MFU the
//    point derives from the published hardware teraFLOP/s (derived.mfu_model_flops).
//  - recomputation pairs (Korthikanti et al.): the ratio of full- to selective-recomputation iteration
//    time for the same model and layout against cost::recomputationTimeFactor(full) / (selective).
// A run's recomputation (full / none) scales its time against the MFU assumption's selective convention
// (cost::recomputationTimeFactor). Points whose accelerator is not in the catalog are skipped with the
// reason.
#include "catalog.h"
#include "design_json.h"
#include "training.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace ctwin;

namespace {

/// Points the engine misses by more than ±20% today, each with the reason (the note of issue 29 lists
/// them). `--check` requires them to stay outside the band, so a fix shows up as a failure to remove here.
const std::map<std::string, std::string> kKnownGaps = {
    {"mlperf-train40-gpt3-175b-h100x512-nvidia-eos",
     "software stack: NVIDIA's MLPerf FP8 stack runs at a busy FP8 MFU of ~0.47 where the engine's "
     "production "
     "default is 0.31 (mfu 0.40 / (1 - 0.105) x mfu_fp8_ratio 0.685). A two-point fit on this run and the "
     "11,616-GPU run of the same submission (step = 6N tokens / (GPUs x peak x u x (1 - bubble)) + t0) gives "
     "u = 0.468 and t0 = 0.28 s per step; the large runs agree with the engine only because it has no fixed "
     "per-step cost to lose at their 0.9-s steps (+48%)"},
    {"mlperf-train50-llama31-405b-h200x1024-nebius",
     "software stack, as the GPT-3 512-GPU point: busy FP8 MFU 0.45 measured (training minutes, bubble 1.2%) "
     "against the engine's 0.31; H100 runs of the same stack reach 0.45-0.47, so it is the stack, not H200's "
     "faster HBM (+43%)"},
    {"mlperf-train51-llama31-405b-gb200x512-nvidia-nvfp4",
     "busy FP4 MFU 0.26 measured against the engine's 0.20 (mfu 0.40 x mfu_fp4_ratio 0.45 / 0.895); the "
     "2,560- and 5,120-GPU runs of the same stack (within 16%) lose part of their 1.6-2.4-s steps to "
     "per-step costs the engine does not model, which hides the same gap there (+26%)"},
    {"megascale-175b-a100x12288-tp8-pp8-dp192",
     "MegaScale (Jiang et al. 2024) changes the model and optimizer (parallel attention/MLP block, "
     "sliding-window "
     "attention, LAMB at 4x the batch) and overlaps its communication; the engine models the standard "
     "Megatron-LM stack, whose baseline row on the same 12,288 GPUs it holds within 5% (-22%)"},
    {"megascale-175b-a100x3072-tp8-pp8-dp48",
     "MegaScale's algorithmic and overlap optimisations, as the 12,288-GPU row (-25%)"},
    {"deepseek-v3-h800x2048-pp16-ep64-zero1-fp8-pretrain",
     "DeepSeek-V3's FP8 pre-training ran at ~17% of the FP8 dense peak in 6N FLOPs (342.6 TFLOP/s per GPU); "
     "the "
     "engine's FP8 MFU (mfu x mfu_fp8_ratio = 0.274) comes from dense Llama-class runs, and 6N with N = 37B "
     "active leaves out MLA's attention FLOPs (128 heads, ~+14% at 4K causal tokens) and the MTP module "
     "(-43%)"},
    {"mlperf-train60-deepseekv3-671b-gb200x8192-nvidia-mxfp8",
     "strong scaling of a 45-step MoE run: its training minutes (16% of the run is the evaluation after "
     "every step, taken out) are 45 steps of 3.6 s where 6N at the GB300 x 256 run's MFU (within 3%) gives "
     "1.4 s; at 8K tokens per GPU per step, per-step costs the engine does not model (expert load "
     "imbalance, optimizer, exposed gradient exchange) dominate (-62% with the expert all-to-all counted)"},
};

/// Bound on the points read: the file is ours, but a harness bounds every loop over external data.
constexpr size_t kMaxPoints = 10000;

struct Row {
    std::string id, kind, what;
    double measured = 0, predicted = 0;
    /// Time-to-train rows: the run's end-to-end MFU in the engine's convention (6·N·tokens over GPUs x
    /// dense peak x measured seconds) and the engine's (TrainingEstimate::effectiveMfu); NaN elsewhere.
    double measuredMfu = std::nan(""), engineMfu = std::nan("");
    double error() const { return predicted / measured - 1.0; }
};

/// 6·N·D / (GPUs x peak x seconds): a measured run's MFU as the engine counts model FLOPs.
double measuredMfuOf(const cost::TrainingInput& in, double seconds) {
    return 6.0 * in.activeParams * in.tokens / (in.gpus * in.peakFlopsPerGpu.value() * seconds);
}

std::optional<double> number(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) return std::nullopt;
    return it->get<double>();
}

/// A string field, or `fallback` when it is absent or null (the file writes unknowns as null).
std::string text(const nlohmann::json& j, const char* key, const std::string& fallback = {}) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

double peakFor(const model::CatalogItem& acc, const std::string& precision) {
    const std::string p = precision.substr(0, precision.find(' '));
    const char* field = p == "fp8" || p == "mxfp8"   ? "fp8_flops"
                        : p == "nvfp4" || p == "fp4" ? "fp4_flops"
                                                     : "bf16_flops";
    const auto* v = acc.find(field);
    return v ? v->base : 0.0;
}

/// The shipped MFU for the precision: mfu (BF16) x mfu_fp8_ratio / mfu_fp4_ratio (InputResolver::jobMfu).
double mfuFor(const model::AssumptionSet& a, const std::string& precision) {
    const std::string p = precision.substr(0, precision.find(' '));
    const double bf16 = a.at("mfu").base;
    if (p == "fp8" || p == "mxfp8") return bf16 * a.at("mfu_fp8_ratio").base;
    if (p == "nvfp4" || p == "fp4") return bf16 * a.at("mfu_fp4_ratio").base;
    return bf16;
}

/// The layout and model of a point as a TrainingInput (tokens and GPUs set by the caller).
cost::TrainingInput inputFor(const nlohmann::json& p, const model::AssumptionSet& a, double peak) {
    cost::TrainingInput in;
    const auto& m = p.at("model");
    const double params = number(m, "params").value_or(0.0);
    in.activeParams = number(m, "active_params").value_or(params);
    in.modelParams = params;
    in.gpus = p.at("gpus").get<double>();
    in.peakFlopsPerGpu = peak * units::hertz;
    in.mfu = mfuFor(a, text(p, "precision", "bf16"));
    in.goodput = 1.0;
    const auto& par = p.at("parallelism");
    in.pp = static_cast<int>(number(par, "pp").value_or(1.0));
    in.dp = number(par, "dp").value_or(1.0);
    in.virtualStages = static_cast<int>(number(par, "virtual_stages").value_or(8.0));
    in.sequenceLength = number(p, "sequence_length").value_or(0.0);
    in.globalBatchTokens = number(p, "global_batch_tokens").value_or(0.0);
    in.microbatchSequences = static_cast<int>(number(p, "micro_batch_size").value_or(1.0));
    in.mfuPipelineBubble = a.at("mfu_pipeline_bubble").base;
    // The run's activation recomputation relative to the MFU assumption's (selective), as
    // evaluate_training.cpp applies a job's `recomputation`; unstated -> selective (factor 1).
    const std::string mode = text(p, "recomputation");
    if (mode == "full" || mode == "none")
        in.recomputeFactor = cost::recomputationTimeFactor(
            mode == "full" ? cost::Recomputation::Full : cost::Recomputation::None, in.activeParams,
            number(m, "layers").value_or(0.0), in.sequenceLength);
    return in;
}

/// Mixture-of-experts inputs as evaluate_training.cpp sets them (addExpertInputs): the point's experts,
/// top-k, hidden size, layers, tp and ep; the scale-up domain and back-end NIC of the catalog's largest rack
/// type for the accelerator; NVLink per direction at the collective efficiency; moe_alltoall_overlap.
void addExperts(const nlohmann::json& p, const model::Catalog& catalog, const model::CatalogItem& acc,
                const model::AssumptionSet& a, cost::TrainingInput& in) {
    const auto& m = p.at("model");
    const auto& par = p.at("parallelism");
    const auto experts = number(m, "experts"), k = number(m, "top_k"), h = number(m, "hidden"),
               layers = number(m, "layers");
    in.tp = static_cast<int>(number(par, "tp").value_or(1.0));
    in.ep = static_cast<int>(number(par, "ep").value_or(1.0));
    if (!experts || !k || !h || !layers || in.ep <= 1) return;
    in.experts = static_cast<int>(*experts), in.activeExperts = static_cast<int>(*k);
    in.hiddenSize = *h, in.moeLayers = *layers;
    const std::string precision = text(p, "precision", "bf16");
    in.dispatchBytes = precision.rfind("bf16", 0) == 0 ? 2.0 : 1.0;
    in.combineBytes = 2.0;
    const model::CatalogItem* rack = nullptr;
    for (const auto* r : catalog.byCategory("racks"))
        if (r->attribute("accelerator") == acc.id && r->find("gpus") &&
            (!rack || r->value("gpus") > rack->value("gpus")))
            rack = r;
    cost::setExpertLinks(in, rack, &acc);
    in.expertCommOverlap = a.at("moe_alltoall_overlap").base;
}

/// Tokens and raw minutes of an MLPerf point: the run whose minutes equal the olympic mean.
std::optional<std::pair<double, double>> mlperfRun(const nlohmann::json& p) {
    const auto& meas = p.at("measured");
    const auto raw = number(meas, "olympic_mean_raw_minutes") ? number(meas, "olympic_mean_raw_minutes")
                                                              : number(meas, "time_to_train_minutes");
    const auto seq = number(p, "sequence_length");
    if (!raw || !seq || !meas.contains("runs")) return std::nullopt;
    const auto& runs = meas.at("runs");
    std::optional<std::pair<double, double>> best;
    double bestGap = 1e300;
    for (size_t i = 0; i < runs.size() && i < kMaxPoints; ++i) {
        const auto minutes = number(runs[i], "minutes");
        const auto samples = number(runs[i], "samples");
        const auto tokens = number(runs[i], "tokens");
        if (!minutes || (!samples && !tokens)) continue;
        const double gap = std::abs(*minutes - *raw);
        if (gap < bestGap) bestGap = gap, best = std::make_pair(tokens ? *tokens : *samples * *seq, *minutes);
    }
    // MLPerf's clock runs through the periodic evaluations (training_rules.adoc); the engine models training
    // steps only, so the run is compared without them where its log measures them (measured.evaluation).
    if (best && meas.contains("evaluation")) {
        const auto train = number(meas.at("evaluation"), "train_minutes");
        if (train && *train > 0 && *train <= best->second) best->second = *train;
    }
    return best;
}

} // namespace

int main(int argc, char** argv) {
    bool checkMode = false;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--check")
            checkMode = true;
        else {
            std::cerr << "usage: training_validation [--check]\n";
            return 2;
        }
    }
    try {
        const model::Catalog catalog = model::loadCatalogDirectory(CTWIN_SOURCE_DATA_DIR "/catalog");
        const model::AssumptionSet a = model::loadAssumptionsFile(CTWIN_SOURCE_DATA_DIR "/assumptions.json");
        std::ifstream file(CTWIN_SOURCE_DATA_DIR "/validation/training.json");
        const nlohmann::json doc = nlohmann::json::parse(file);
        const auto& points = doc.at("points");
        if (points.size() > kMaxPoints) throw std::runtime_error("training.json: more than 10,000 points");
        std::vector<Row> rows;
        std::vector<std::pair<std::string, std::string>> skipped;
        std::map<std::string, std::pair<double, double>> recompute; // model+layout -> (selective, full) s
        std::map<std::string, nlohmann::json> recomputeModel;
        for (const auto& p : points) {
            const std::string id = p.at("id"), kind = p.at("kind");
            // Korthikanti pairs: selective vs full iteration time of one model and layout.
            if (id.rfind("korthikanti-", 0) == 0) {
                const auto t = number(p.at("measured"), "iteration_time_s");
                const std::string mode = text(p, "recomputation");
                const std::string key = id.substr(0, id.find("-a100"));
                if (t && (mode == "selective" || mode == "full")) {
                    (mode == "selective" ? recompute[key].first : recompute[key].second) = *t;
                    recomputeModel[key] = p;
                }
                continue;
            }
            const std::string acc = text(p, "accelerator");
            const auto* item = catalog.find(acc);
            if (!item) {
                skipped.emplace_back(id, "accelerator '" + acc + "' is not in the catalog");
                continue;
            }
            const double peak = peakFor(*item, text(p, "precision", "bf16"));
            if (!(peak > 0)) {
                skipped.emplace_back(id, "no catalog peak for precision " + text(p, "precision"));
                continue;
            }
            cost::TrainingInput in = inputFor(p, a, peak);
            addExperts(p, catalog, *item, a, in);
            if (kind == "mfu" || kind == "hfu") {
                // hfu rows (Megatron-LM SC21 Table 1) publish hardware FLOPs with full recomputation; the
                // point's derived.mfu_model_flops is the same throughput in model FLOPs (6N per token).
                const auto mfu = kind == "mfu"           ? number(p.at("measured"), "mfu")
                                 : p.contains("derived") ? number(p.at("derived"), "mfu_model_flops")
                                                         : std::nullopt;
                if (!mfu) continue;
                in.tokens = 1e12;
                const auto e = cost::estimateTraining(in);
                rows.push_back({id, kind, "MFU", *mfu, e.effectiveMfu});
            } else if (kind == "time_to_train") {
                const auto run = mlperfRun(p);
                const auto& meas = p.at("measured");
                const auto tokens = number(meas, "pretraining_tokens");
                const auto days =
                    p.contains("derived") ? number(p.at("derived"), "pretraining_wall_days") : std::nullopt;
                if (!run && tokens && days) {
                    // A published pre-training run (DeepSeek-V3): wall days = GPU-hours / GPUs / 24. Expert
                    // parallelism nests inside data parallelism (the engine's convention, as a job's ep), so
                    // the dense data-parallel degree is GPUs / (tp x pp).
                    in.dp = in.gpus / (std::max(1, in.tp) * std::max(1, in.pp));
                    in.tokens = *tokens;
                    const auto e = cost::estimateTraining(in);
                    const double wallDays = days.value_or(0.0);
                    rows.push_back({id, kind, "days", wallDays, e.time.value() / 86400.0,
                                    measuredMfuOf(in, wallDays * 86400.0), e.effectiveMfu});
                    continue;
                }
                if (!run) {
                    skipped.emplace_back(id,
                                         "no per-run samples or tokens (not an MLPerf time-to-train point) "
                                         "and no pre-training tokens and wall days");
                    continue;
                }
                in.tokens = run->first;
                const auto e = cost::estimateTraining(in);
                rows.push_back({id, kind, "train minutes", run->second, e.time.value() / 60.0,
                                measuredMfuOf(in, run->second * 60.0), e.effectiveMfu});
            }
        }
        for (const auto& [key, t] : recompute) {
            if (!(t.first > 0) || !(t.second > 0)) continue;
            const auto& p = recomputeModel[key];
            const auto& m = p.at("model");
            const double params = number(m, "params").value_or(0.0),
                         layers = number(m, "layers").value_or(0.0);
            const double s = number(p, "sequence_length").value_or(0.0);
            const double ratio =
                cost::recomputationTimeFactor(cost::Recomputation::Full, params, layers, s) /
                cost::recomputationTimeFactor(cost::Recomputation::Selective, params, layers, s);
            rows.push_back(
                {key + "-full-over-selective", "recompute_ratio", "time ratio", t.second / t.first, ratio});
        }

        int failures = 0;
        // The MFU column (time-to-train rows): measured end to end in 6N FLOPs / the engine's, at the
        // point's precision peak; it shows where a gap sits (a stack faster than the MFU default, or a
        // per-step cost the engine lacks) independently of the token count.
        std::printf("| id | kind | metric | measured | predicted | error | MFU measured / engine |\n"
                    "|---|---|---|---:|---:|---:|---:|\n");
        double sum2 = 0;
        int within = 0;
        for (const auto& r : rows) {
            const double err = r.error();
            const bool ok = std::abs(err) <= 0.20;
            sum2 += err * err, within += ok;
            const bool known = kKnownGaps.count(r.id) > 0;
            if (ok == known) ++failures;
            char mfu[48] = "–";
            if (std::isfinite(r.measuredMfu) && std::isfinite(r.engineMfu))
                std::snprintf(mfu, sizeof mfu, "%.3f / %.3f", r.measuredMfu, r.engineMfu);
            std::printf("| %s | %s | %s | %.4g | %.4g | %+.1f%%%s | %s |\n", r.id.c_str(), r.kind.c_str(),
                        r.what.c_str(), r.measured, r.predicted, err * 100,
                        ok      ? ""
                        : known ? " (known gap)"
                                : " FAIL",
                        mfu);
        }
        std::printf("\n%zu points evaluated, %d within ±20%%, RMS relative error %.1f%%, %zu known gaps, %d "
                    "failures\n",
                    rows.size(), within, rows.empty() ? 0.0 : 100 * std::sqrt(sum2 / rows.size()),
                    kKnownGaps.size(), failures);
        for (const auto& [id, why] : kKnownGaps)
            std::printf("known gap %s: %s\n", id.c_str(), why.c_str());
        for (const auto& [id, why] : skipped)
            std::printf("skipped %s: %s\n", id.c_str(), why.c_str());
        if (checkMode) return failures == 0 && rows.size() >= 10 ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "training_validation: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
