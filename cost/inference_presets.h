#pragma once
// The served model of an inference service: its own fields over the architecture preset it names
// (data/catalog/models.json, issue 17).
#include <optional>

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

} // namespace ctwin::cost
