#include "inference_presets.h"

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
    return m;
}

} // namespace ctwin::cost
