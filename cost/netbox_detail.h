#pragma once
// What the NetBox export (netbox_export.cpp) and import (netbox_import.cpp) share: the comment line that
// carries ClusterTwin's own fields, and the catalog read both make.
#include "catalog.h"

#include <algorithm>
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

/// A rack type's liquid heat at its catalog load (W): power_load_w × liquid_fraction (0 when either is
/// missing; the share capped at 1), what its cooling feed carries in both directions of the interchange.
inline double rackLiquidHeatW(const model::CatalogItem* rack) {
    return catalogValue(rack, "power_load_w", 0) * std::min(1.0, catalogValue(rack, "liquid_fraction", 0));
}

/// NetBox 4.7 liquid cooling-source types (CoolingSourceTypeChoices) and the catalog plant `type` each
/// stands for, both ways of the interchange; CRAC and CRAH are room air and map to no plant.
struct SourcePlantType {
    const char* netbox;
    const char* plant;
};
inline constexpr SourcePlantType kSourcePlantTypes[] = {
    {"chiller", "chiller"}, {"cooling-tower", "cooling_tower"}, {"dry-cooler", "dry_cooler"}};

} // namespace ctwin::cost::netbox::detail
