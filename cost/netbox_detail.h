#pragma once
// What the NetBox export (netbox_export.cpp) and import (netbox_import.cpp) share: the comment line that
// carries ClusterTwin's own fields, and the catalog read both make.
#include "catalog.h"

#include <cmath>

namespace ctwin::cost::netbox::detail {

/// Prefix of the one line in an object's comments that holds ClusterTwin's fields as JSON.
inline constexpr const char* kTagPrefix = "clustertwin: ";

/// A catalog value when the item has it finite and positive, else `fallback`.
inline double catalogValue(const model::CatalogItem* item, const char* field, double fallback) {
    if (!item) return fallback;
    const auto* v = item->find(field);
    return v && std::isfinite(v->base) && v->base > 0 ? v->base : fallback;
}

} // namespace ctwin::cost::netbox::detail
