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

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("model_params", modelParams, kParams);
        v.optionalNumber("active_params", activeParams, kParams);
        v.number("tokens", tokens, kTokens);
        v.choice("precision", precision, {"bf16", "fp8", "fp4"});
        v.optionalNumber("mfu", mfu, kFraction);
        v.number("gpus", gpus, kGpuCount);
        v.integer("tp", tp, Bounds{1.0, 1e6});
        v.integer("pp", pp, Bounds{1.0, 1e6});
        v.integer("dp", dp, Bounds{1.0, 1e7});
        v.integer("ep", ep, Bounds{1.0, 1e6});
        v.number("checkpoint_bytes_per_param", checkpointBytesPerParam, Bounds{0.0, 64.0});
        v.ref("storage_tier", storageTier, EntityRef{EntityKind::StorageTier, true});
        v.refList("sites", sites, EntityKind::Site);
        v.choice("restart_scope", restartScope, {"whole_job", "parallel_group", "hot_spare"});
        v.flag("async_checkpoint", asyncCheckpoint);
    }
};

} // namespace ctwin::model
