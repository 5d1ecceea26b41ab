#pragma once
// The served model of an inference service: its own fields over the architecture preset it names
// (data/catalog/models.json).
#include <optional>
#include <string>

#include "catalog_item.h"
#include "inference.h"
#include "inference_service.h"

namespace ctwin::cost {

/// Builds the roofline's model from a service and its preset (nullptr = none). The service's non-zero
/// model_params, layers, kv_heads and head_dim override the preset; stating kv_heads and head_dim also
/// replaces an MLA preset's latent cache by the 2·kv_heads·head_dim formula. `activeParams` is the stated or
/// overridden value (InputResolver::serviceActiveParams); absent, the preset's applies, else the model is
/// dense.
ServedModel servedModelOf(const model::InferenceService& s, const model::CatalogItem* preset,
                          std::optional<double> activeParams);

/// The attention kernels' precision: "bf16" or "fp8" as stated; "auto" = fp8 when the KV cache is stored in
/// at most one byte and the accelerator runs FP8 natively (FlashAttention-3, TensorRT-LLM FP8 attention),
/// else bf16. No FP4 attention kernels ship, so attention never runs at the FP4 peak.
std::string attentionPrecisionOf(const model::CatalogItem& accelerator, const std::string& stated,
                                 double kvBytesPerElement);

/// Whether the accelerator runs `precision` natively (its catalog peak for it is > 0; FP4 from Blackwell,
/// FP8 from Hopper). A format without native support is dequantized: the weights are read at their stored
/// bytes and the math runs at the native peak it maps to (cost::detail::precisionFlops).
bool nativePrecision(const model::CatalogItem& accelerator, const std::string& precision);

/// The roofline's view of an accelerator serving weights at `precision` with attention at
/// `attentionPrecision` (attentionPrecisionOf), with the catalog's base efficiencies. Domain size, host
/// memory, scale-out bandwidth and the engine come from the rack and the service (evaluateInference).
AcceleratorSpec acceleratorSpecOf(const model::CatalogItem& accelerator, const std::string& precision,
                                  const std::string& attentionPrecision = "bf16");

/// A serving engine profile (catalog category serving_engines) as the roofline uses it.
EngineProfile engineProfileOf(const model::CatalogItem& engine);

} // namespace ctwin::cost
