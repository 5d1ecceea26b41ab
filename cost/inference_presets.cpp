#include "inference_presets.h"

#include "evaluate_stages.h"

namespace ctwin::cost {

namespace {
double presetValue(const model::CatalogItem* preset, const char* field) {
    if (!preset) return 0;
    const auto* v = preset->find(field);
    return v ? v->base : 0;
}
} // namespace

ServedModel servedModelOf(const model::InferenceService& s, const model::CatalogItem* preset,
                          std::optional<double> activeParams) {
    ServedModel m;
    m.params = s.modelParams > 0 ? s.modelParams : presetValue(preset, "model_params");
    // Stated (or overridden) active parameters win; else the preset's; without a preset the model is dense.
    m.activeParams = activeParams ? *activeParams : (preset ? presetValue(preset, "active_params") : m.params);
    m.layers = s.layers > 0 ? s.layers : static_cast<int>(presetValue(preset, "layers"));
    const bool statedKv = s.kvHeads > 0 || s.headDim > 0;
    m.kvHeads = s.kvHeads > 0 ? s.kvHeads : static_cast<int>(presetValue(preset, "kv_heads"));
    m.headDim = s.headDim > 0 ? s.headDim : static_cast<int>(presetValue(preset, "head_dim"));
    m.kvBytesPerElement = s.kvBytesPerElement;
    m.weightBytesPerParam = s.weightBytesPerParam;
    m.hiddenSize = static_cast<int>(presetValue(preset, "hidden_size"));
    m.attentionHeads = static_cast<int>(presetValue(preset, "attention_heads"));
    m.qkHeadDim = presetValue(preset, "qk_head_dim");
    m.vHeadDim = presetValue(preset, "v_head_dim");
    if (!statedKv && preset && preset->attribute("attention") == "mla") {
        m.kvLatentDim = presetValue(preset, "kv_latent_dim");
        m.kvRopeDim = presetValue(preset, "kv_rope_dim");
    }
    m.slidingWindow = presetValue(preset, "sliding_window");
    m.slidingLayers = static_cast<int>(presetValue(preset, "sliding_window_layers"));
    m.linearLayers = static_cast<int>(presetValue(preset, "linear_attention_layers"));
    m.linearStateElements = presetValue(preset, "linear_state_elements");
    m.experts = static_cast<int>(presetValue(preset, "experts"));
    m.activeExperts = static_cast<int>(presetValue(preset, "active_experts"));
    m.nonExpertWeightBits = presetValue(preset, "non_expert_weight_bits");
    return m;
}

std::string attentionPrecisionOf(const model::CatalogItem& accelerator, const std::string& stated,
                                 double kvBytesPerElement) {
    if (stated == "bf16" || stated == "fp8") return stated;
    return kvBytesPerElement <= 1.0 && nativePrecision(accelerator, "fp8") ? "fp8" : "bf16";
}

bool nativePrecision(const model::CatalogItem& accelerator, const std::string& precision) {
    const auto* v = accelerator.find(precision + "_flops");
    return v && v->base > 0;
}

AcceleratorSpec acceleratorSpecOf(const model::CatalogItem& acc, const std::string& precision,
                                  const std::string& attentionPrecision) {
    AcceleratorSpec spec;
    spec.flops = detail::precisionFlops(acc, precision) * units::hertz;
    spec.attentionFlops = detail::precisionFlops(acc, attentionPrecision) * units::hertz;
    spec.fp8Flops = detail::precisionFlops(acc, "fp8") * units::hertz;
    spec.bf16Flops = detail::precisionFlops(acc, "bf16") * units::hertz;
    spec.hbmBandwidth = units::bytesPerSecond(acc.value("hbm_bandwidth_bytes_per_s"));
    spec.hbmCapacity = units::bytes(acc.value("hbm_bytes"));
    spec.scaleUpBandwidth = units::bytesPerSecond(acc.value("scale_up_bandwidth_bytes_per_s"));
    // Achievable fractions of the peaks, per accelerator (data/catalog/accelerators.json).
    spec.hbmEfficiency = acc.value("decode_hbm_efficiency");
    spec.computeEfficiency = acc.value("prefill_compute_efficiency");
    spec.collectiveEfficiency = acc.value("scale_up_collective_efficiency");
    return spec;
}

EngineProfile engineProfileOf(const model::CatalogItem& engine) {
    EngineProfile e;
    e.stepOverheadSeconds = engine.value("step_overhead_s");
    e.layerOverheadSeconds = engine.value("layer_overhead_s");
    e.sequenceOverheadSeconds = engine.value("sequence_overhead_s");
    e.maxBatchPerScheduler = engine.value("max_batch_per_scheduler");
    // Optional: absent, routed experts are read at the accelerator's dense decode fraction.
    if (const auto* v = engine.find("expert_gemm_hbm_efficiency")) e.expertGemmHbmEfficiency = v->base;
    return e;
}

} // namespace ctwin::cost
