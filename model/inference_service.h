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
    /// Serving engine profile (catalog category `serving_engines`): per-step overheads and batch cap.
    std::string servingEngine = "vllm";
    /// Share of each prompt's tokens served from the prefix cache (earlier turns of an agent session).
    double prefixCacheHitRate = 0.0;
    /// Precision of the attention kernels: "auto" (fp8 with a <= 1-byte KV cache on FP8 hardware, else
    /// bf16), "bf16" or "fp8".
    std::string attentionPrecision = "auto";
    /// Token prices, USD per million tokens: new (uncached) input, cached input and output.
    /// Absent = the model preset's market API price (catalog `models`, api_price_usd_per_m_*_tokens).
    std::optional<double> priceInputUsdPerMTokens, priceCachedInputUsdPerMTokens, priceOutputUsdPerMTokens;
    /// Share of the token revenue paid to the model's licensor; absent =
    /// assumptions.model_licence_revenue_share.
    std::optional<double> licenceRevenueShare;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.number("model_params", modelParams, fieldRange(kKind, "model_params"));
        v.optionalNumber("active_params", activeParams, fieldRange(kKind, "active_params"));
        v.integer("layers", layers, fieldRange(kKind, "layers"));
        v.integer("kv_heads", kvHeads, fieldRange(kKind, "kv_heads"));
        v.integer("head_dim", headDim, fieldRange(kKind, "head_dim"));
        v.number("kv_bytes_per_element", kvBytesPerElement, fieldRange(kKind, "kv_bytes_per_element"));
        v.number("weight_bytes_per_param", weightBytesPerParam, fieldRange(kKind, "weight_bytes_per_param"));
        v.number("input_tokens", inputTokens, fieldRange(kKind, "input_tokens"));
        v.number("output_tokens", outputTokens, fieldRange(kKind, "output_tokens"));
        v.number("target_tokens_per_s_per_user", targetTokensPerSPerUser,
                 fieldRange(kKind, "target_tokens_per_s_per_user"));
        v.number("gpus", gpus, fieldRange(kKind, "gpus"));
        v.flag("disaggregated", disaggregated);
        v.number("concurrent_sessions", concurrentSessions, fieldRange(kKind, "concurrent_sessions"));
        v.number("session_context_tokens", sessionContextTokens, fieldRange(kKind, "session_context_tokens"));
        v.choiceList("kv_offload", kvOffload, {"dram", "nvme"});
        v.choice("precision", precision, {"bf16", "fp8", "fp4"});
        v.catalogRef("model", model, "models", /*optional=*/true);
        v.integer("tensor_parallel", tensorParallel, fieldRange(kKind, "tensor_parallel"));
        v.catalogRef("serving_engine", servingEngine, "serving_engines");
        v.number("prefix_cache_hit_rate", prefixCacheHitRate, fieldRange(kKind, "prefix_cache_hit_rate"));
        v.choice("attention_precision", attentionPrecision, {"auto", "bf16", "fp8"});
        v.optionalNumber("price_usd_per_m_input_tokens", priceInputUsdPerMTokens,
                         fieldRange(kKind, "price_usd_per_m_input_tokens"));
        v.optionalNumber("price_usd_per_m_cached_input_tokens", priceCachedInputUsdPerMTokens,
                         fieldRange(kKind, "price_usd_per_m_cached_input_tokens"));
        v.optionalNumber("price_usd_per_m_output_tokens", priceOutputUsdPerMTokens,
                         fieldRange(kKind, "price_usd_per_m_output_tokens"));
        v.optionalNumber("licence_revenue_share", licenceRevenueShare,
                         fieldRange(kKind, "licence_revenue_share"));
    }
};

} // namespace ctwin::model
