#pragma once
#include "site_map_data.h"

#include <array>
#include <string>

namespace ctwin::views {

/// What lies under a point of the site map (km, map coordinates): hit tests for authoring on the map.
/// Plain data, no VTK.
struct SiteMapPick {
    /// Latitude and longitude (degrees) of a map point: the inverse of SiteMapBuilder::project for the
    /// map's standard parallel and central meridian. Not range-checked (see onGlobe).
    static std::array<double, 2> latLonAt(const SiteMapData& map, Vec2 km);
    /// True when latLonAt(km) is a place on the globe (|lat| <= 90, |lon| <= 180).
    static bool onGlobe(const SiteMapData& map, Vec2 km);
    /// The nearest site whose drawn marker (its displayed position) lies within `radiusKm`; null when none.
    static const MapSite* siteAt(const SiteMapData& map, Vec2 km, double radiusKm);
    /// The nearest link whose drawn arc passes within `radiusKm`; null when none (same-site links have no
    /// arc and are not picked).
    static const MapLink* linkAt(const SiteMapData& map, Vec2 km, double radiusKm);
};

} // namespace ctwin::views
