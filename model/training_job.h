#pragma once
#include <optional>
#include <string>
#include <vector>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A pre-training run: model size, token budget, parallelism and where it runs.
struct TrainingJob {
    static constexpr EntityKind kKind = EntityKind::TrainingJob;
    std::string id;
    std::string name;
    double modelParams = 0.0;
    /// Parameters active per token (MoE); absent for a dense model (all modelParams are active).
    std::optional<double> activeParams;
    double tokens = 0.0;
    std::string precision = "bf16";
    /// Absent means "use assumptions.mfu".
    std::optional<double> mfu;
    double gpus = 0.0;
    int tp = 1, pp = 1, dp = 1, ep = 1;
    double checkpointBytesPerParam = 16.0;
    std::string storageTier;
    std::vector<std::string> sites;
    /// What restarts after a failure: "whole_job", "parallel_group" (only the affected TP x PP x EP group
    /// loses work) or "hot_spare" (a powered spare rack is swapped in).
    std::string restartScope = "whole_job";
    /// In-memory snapshot, written to storage in the background.
    bool asyncCheckpoint = false;
    /// The asynchronous snapshot is also replicated in peer hosts' memory and restarts restore from there
    /// (GEMINI); storage only when an event takes the peers too. Needs asyncCheckpoint.
    bool inMemoryRestore = false;
    // ---- Batch and pipeline schedule ----
    /// Tokens per optimizer step (global batch); absent: assumptions.global_batch_tokens.
    std::optional<double> globalBatchTokens;
    /// Tokens per sequence; absent: assumptions.sequence_length.
    std::optional<double> sequenceLength;
    /// Sequences per microbatch (each pipeline step of one data-parallel replica).
    int microbatchSequences = 1;
    /// Model chunks per pipeline rank: 1 = plain 1F1B, > 1 = interleaved 1F1B (Narayanan et al. 2021).
    int virtualStages = 1;
    /// Activation recomputation: "selective" (attention core only, the MFU assumption's convention),
    /// "full" (every layer's forward again) or "none" (Korthikanti et al. 2023).
    std::string recomputation = "selective";
    /// When a cross-site gradient exchange starts: "per_chunk" (each model chunk's gradients when its last
    /// backward ends, Megatron-Core's overlap_grad_reduce), "per_stage" or "last_microbatch".
    std::string wanSync = "per_chunk";
    /// Transformer layers; absent: unknown (pipeline stages are then not checked against it).
    std::optional<double> layers;
    /// Mixture of experts: model width, routed experts per MoE layer and experts each token
    /// selects; absent: unknown (a dense model, or an MoE whose all-to-all is not counted: a warning).
    std::optional<double> hiddenSize;
    std::optional<double> experts;
    std::optional<double> activeExperts;
    // ---- Failure rates; all absent: the catalog classes (Llama 3 calibration) ----
    /// A failure-rate preset of the catalog (failures.json, kind node_rate): one rate per node.
    std::string failureRatePreset;
    /// One failure rate per node (server) per day for every node-level class; overrides the preset.
    std::optional<double> nodeFailureRatePerDay;
    /// GPUs per node that nodeFailureRatePerDay counts (8 for an HGX server); the rate scales to the
    /// design by GPU count. Required with nodeFailureRatePerDay (a rate without its unit is an error).
    std::optional<double> nodeFailureRateGpus;
    /// Per-class overrides: failure class ids and their rates per unit-hour, pairwise.
    std::vector<std::string> failureRateClasses;
    std::vector<double> failureRatesPerHour;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("model_params", modelParams, fieldRange(kKind, "model_params"));
        v.optionalNumber("active_params", activeParams, fieldRange(kKind, "active_params"));
        v.number("tokens", tokens, fieldRange(kKind, "tokens"));
        v.choice("precision", precision, {"bf16", "fp8", "fp4"});
        v.optionalNumber("mfu", mfu, fieldRange(kKind, "mfu"));
        v.number("gpus", gpus, fieldRange(kKind, "gpus"));
        v.integer("tp", tp, fieldRange(kKind, "tp"));
        v.integer("pp", pp, fieldRange(kKind, "pp"));
        v.integer("dp", dp, fieldRange(kKind, "dp"));
        v.integer("ep", ep, fieldRange(kKind, "ep"));
        v.number("checkpoint_bytes_per_param", checkpointBytesPerParam,
                 fieldRange(kKind, "checkpoint_bytes_per_param"));
        v.ref("storage_tier", storageTier, EntityRef{EntityKind::StorageTier, true});
        v.refList("sites", sites, EntityKind::Site);
        v.choice("restart_scope", restartScope, {"whole_job", "parallel_group", "hot_spare"});
        v.flag("async_checkpoint", asyncCheckpoint);
        v.flag("in_memory_restore", inMemoryRestore);
        v.optionalNumber("global_batch_tokens", globalBatchTokens, fieldRange(kKind, "global_batch_tokens"));
        v.optionalNumber("sequence_length", sequenceLength, fieldRange(kKind, "sequence_length"));
        v.integer("microbatch_sequences", microbatchSequences, fieldRange(kKind, "microbatch_sequences"));
        v.integer("virtual_stages", virtualStages, fieldRange(kKind, "virtual_stages"));
        v.choice("recomputation", recomputation, {"selective", "full", "none"});
        v.choice("wan_sync", wanSync, {"per_chunk", "per_stage", "last_microbatch"});
        v.optionalNumber("layers", layers, fieldRange(kKind, "layers"));
        v.optionalNumber("hidden_size", hiddenSize, fieldRange(kKind, "hidden_size"));
        v.optionalNumber("experts", experts, fieldRange(kKind, "experts"));
        v.optionalNumber("active_experts", activeExperts, fieldRange(kKind, "active_experts"));
        v.catalogRef("failure_rate_preset", failureRatePreset, "failures", /*optional=*/true);
        v.optionalNumber("node_failure_rate_per_day", nodeFailureRatePerDay,
                         fieldRange(kKind, "node_failure_rate_per_day"));
        v.optionalNumber("node_failure_rate_gpus", nodeFailureRateGpus,
                         fieldRange(kKind, "node_failure_rate_gpus"));
        v.catalogRefList("failure_rate_classes", failureRateClasses, "failures");
        v.numbers("failure_rates_per_hour", failureRatesPerHour, fieldRange(kKind, "failure_rates_per_hour"));
    }
};

} // namespace ctwin::model
