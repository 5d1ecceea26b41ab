#include "site_map_pick.h"

#include "geodesy.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ctwin::views {

namespace {

constexpr double kEarthRadiusKm = cost::kMeanEarthRadiusM / 1e3; // the projection sphere (cost/geodesy.h)
constexpr double kDeg = std::numbers::pi / 180.0;

/// Distance from p to the segment ab (km).
double segmentDistance(Vec2 p, Vec2 a, Vec2 b) {
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    const double len2 = dx * dx + dy * dy;
    const double t = len2 > 0 ? std::clamp(((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2, 0.0, 1.0) : 0.0;
    return std::hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

} // namespace

std::array<double, 2> SiteMapPick::latLonAt(const SiteMapData& map, Vec2 km) {
    // Inverse of the equirectangular projection (Snyder 1987, p. 91, eqs. 12-1 and 12-2 solved for lat and
    // lon): lat = lat1 + y / R, lon = lon0 + x / (R cos lat1), in radians.
    const double lat = map.standardParallelDeg + km[1] / kEarthRadiusKm / kDeg;
    const double c = std::cos(map.standardParallelDeg * kDeg);
    const double lon = map.centralMeridianDeg + (c > 1e-12 ? km[0] / (kEarthRadiusKm * c) / kDeg : 0.0);
    return {lat, lon};
}

bool SiteMapPick::onGlobe(const SiteMapData& map, Vec2 km) {
    const auto ll = latLonAt(map, km);
    return std::isfinite(ll[0]) && std::isfinite(ll[1]) && std::abs(ll[0]) <= 90.0 &&
           std::abs(ll[1]) <= 180.0;
}

const MapSite* SiteMapPick::siteAt(const SiteMapData& map, Vec2 km, double radiusKm) {
    const MapSite* best = nullptr;
    double bestD = radiusKm;
    for (const auto& s : map.sites) {
        const double d = std::hypot(s.position[0] - km[0], s.position[1] - km[1]);
        if (d <= bestD) best = &s, bestD = d;
    }
    return best;
}

const MapLink* SiteMapPick::linkAt(const SiteMapData& map, Vec2 km, double radiusKm) {
    const MapLink* best = nullptr;
    double bestD = radiusKm;
    for (const auto& l : map.links)
        for (std::size_t i = 1; i < l.path.size(); ++i) {
            const double d = segmentDistance(km, l.path[i - 1], l.path[i]);
            if (d <= bestD) best = &l, bestD = d;
        }
    return best;
}

} // namespace ctwin::views
