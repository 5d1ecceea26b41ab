#pragma once
#include <optional>
#include <string>
#include <vector>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// An inference service: a model served to (agentic) sessions on a pool of GPUs.
struct InferenceService {
    static constexpr EntityKind kKind = EntityKind::InferenceService;
    std::string id;
    std::string name;
    double modelParams = 0.0;
    /// Parameters active per token (MoE); absent for a dense model (all modelParams are active).
    std::optional<double> activeParams;
    int layers = 0;
    int kvHeads = 0;
    int headDim = 0;
    double kvBytesPerElement = 2.0;
    double weightBytesPerParam = 1.0;
    double inputTokens = 0.0;
    double outputTokens = 0.0;
    double targetTokensPerSPerUser = 0.0;
    double gpus = 0.0;
    /// Prefill and decode on separate GPU pools.
    bool disaggregated = false;
    double concurrentSessions = 0.0;
    double sessionContextTokens = 0.0;
    /// Where KV cache spills beyond HBM: "dram", "nvme".
    std::vector<std::string> kvOffload;
    std::string precision = "fp8";
    /// Architecture preset (catalog category `models`): hidden size, heads, layer groups (sliding window,
    /// linear), MLA latent, experts. Empty = the fields above only. Non-zero layers/kv_heads/head_dim and
    /// model_params above override the preset's.
    std::string model;
    /// GPUs per model replica (tensor/expert parallel size) inside the scale-up domain; 0 = searched.
    int tensorParallel = 0;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("model_params", modelParams, kParams);
        v.optionalNumber("active_params", activeParams, kParams);
        v.integer("layers", layers, Bounds{0.0, 10000.0});
        v.integer("kv_heads", kvHeads, Bounds{0.0, 10000.0});
        v.integer("head_dim", headDim, Bounds{0.0, 100000.0});
        v.number("kv_bytes_per_element", kvBytesPerElement, Bounds{0.0, 8.0});
        v.number("weight_bytes_per_param", weightBytesPerParam, Bounds{0.0, 8.0});
        v.number("input_tokens", inputTokens, Bounds{0.0, 1e8});
        v.number("output_tokens", outputTokens, Bounds{0.0, 1e8});
        v.number("target_tokens_per_s_per_user", targetTokensPerSPerUser, Bounds{0.0, 1e6});
        v.number("gpus", gpus, kGpuCount);
        v.flag("disaggregated", disaggregated);
        v.number("concurrent_sessions", concurrentSessions, Bounds{0.0, 1e10});
        v.number("session_context_tokens", sessionContextTokens, Bounds{0.0, 1e8});
        v.choiceList("kv_offload", kvOffload, {"dram", "nvme"});
        v.choice("precision", precision, {"bf16", "fp8", "fp4"});
        v.catalogRef("model", model, "models", /*optional=*/true);
        v.integer("tensor_parallel", tensorParallel, Bounds{0.0, 10000.0});
    }
};

} // namespace ctwin::model
