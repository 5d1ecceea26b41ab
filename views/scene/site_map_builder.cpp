#include "site_map_builder.h"

#include "bill_of_materials.h"
#include "evaluate.h"
#include "geodesy.h"
#include "project.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <unordered_map>

namespace ctwin::views {

namespace {

constexpr double kEarthRadiusKm = cost::kMeanEarthRadiusM / 1e3; // the projection sphere (cost/geodesy.h)
constexpr double kDeg = std::numbers::pi / 180.0;

std::string format(const char* fmt, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

/// Points along the great circle from a to b: spherical linear interpolation of the unit vectors
/// (K. Shoemake, "Animating rotation with quaternion curves", SIGGRAPH 1985).
std::vector<std::array<double, 2>> greatCircle(double lat1, double lon1, double lat2, double lon2,
                                               int segments) {
    const auto unit = [](double lat, double lon) {
        return std::array<double, 3>{std::cos(lat * kDeg) * std::cos(lon * kDeg),
                                     std::cos(lat * kDeg) * std::sin(lon * kDeg), std::sin(lat * kDeg)};
    };
    const auto a = unit(lat1, lon1), b = unit(lat2, lon2);
    const double dot = std::clamp(a[0] * b[0] + a[1] * b[1] + a[2] * b[2], -1.0, 1.0);
    const double omega = std::acos(dot);
    std::vector<std::array<double, 2>> out;
    for (int i = 0; i <= segments; ++i) {
        const double t = static_cast<double>(i) / segments;
        std::array<double, 3> p{};
        if (omega < 1e-9) {
            p = a;
        } else {
            const double wa = std::sin((1 - t) * omega) / std::sin(omega),
                         wb = std::sin(t * omega) / std::sin(omega);
            for (int k = 0; k < 3; ++k)
                p[k] = wa * a[k] + wb * b[k];
        }
        out.push_back({std::atan2(p[2], std::hypot(p[0], p[1])) / kDeg, std::atan2(p[1], p[0]) / kDeg});
    }
    return out;
}

std::string latLabel(double lat) {
    return format("%.0f", std::abs(lat)) + "\xc2\xb0" + (lat > 0 ? "N" : lat < 0 ? "S" : "");
}
std::string lonLabel(double lon) {
    return format("%.0f", std::abs(lon)) + "\xc2\xb0" + (lon > 0 ? "E" : lon < 0 ? "W" : "");
}

/// The graticule's frame (degrees), the projection's centre and the map's extent (km).
struct Frame {
    double gLatMin, gLatMax, gLonMin, gLonMax;
    double lat0, lon0;
    double extentKm;
};

/// Sites with usable coordinates into `d.sites`; notices for those without.
void collectSites(const model::Project& p, SiteMapData& d) {
    // Sites with usable coordinates.
    std::vector<std::string> badSites;
    for (const auto& s : p.sites) {
        if (!std::isfinite(s.latDeg) || !std::isfinite(s.lonDeg) || std::abs(s.latDeg) > 90.0 ||
            std::abs(s.lonDeg) > 180.0) {
            badSites.push_back(s.name.empty() ? s.id : s.name);
            continue;
        }
        d.sites.push_back({s.id, s.name.empty() ? s.id : s.name, s.latDeg, s.lonDeg, {}, false});
    }
    if (!badSites.empty())
        d.notices.push_back(std::to_string(badSites.size()) +
                            " site(s) without valid coordinates are not shown.");
    if (d.sites.empty()) d.notices.push_back("No sites with coordinates to show.");
}

/// Projection centre, bounds and marker size from the sites' extent; returns the padded frame.
Frame computeFrame(SiteMapData& d) {
    double latMin = 90, latMax = -90, lonMin = 180, lonMax = -180;
    for (const auto& s : d.sites) {
        latMin = std::min(latMin, s.latDeg), latMax = std::max(latMax, s.latDeg);
        lonMin = std::min(lonMin, s.lonDeg), lonMax = std::max(lonMax, s.lonDeg);
    }
    if (d.sites.empty()) latMin = latMax = lonMin = lonMax = 0.0;
    d.standardParallelDeg = (latMin + latMax) / 2;
    d.centralMeridianDeg = (lonMin + lonMax) / 2;
    // Padding: 20 % of the span, at least 3 degrees, so labels and the graticule frame the sites.
    const double padLat = std::max(3.0, 0.2 * (latMax - latMin)),
                 padLon = std::max(4.0, 0.2 * (lonMax - lonMin));
    const double gLatMin = std::max(-89.0, latMin - padLat), gLatMax = std::min(89.0, latMax + padLat);
    const double gLonMin = std::max(-180.0, lonMin - padLon), gLonMax = std::min(180.0, lonMax + padLon);
    const double lat0 = d.standardParallelDeg, lon0 = d.centralMeridianDeg;
    const Vec2 lo = SiteMapBuilder::project(gLatMin, gLonMin, lat0, lon0),
               hi = SiteMapBuilder::project(gLatMax, gLonMax, lat0, lon0);
    d.bounds = {lo[0], hi[0], lo[1], hi[1]};
    const double extentKm = std::max(hi[0] - lo[0], hi[1] - lo[1]);
    d.markerRadiusKm = extentKm * 0.008;
    return {gLatMin, gLatMax, gLonMin, gLonMax, lat0, lon0, extentKm};
}

/// Graticule lines and their labels over the frame.
void addGraticule(SiteMapData& d, const Frame& f) {
    const double gLatMin = f.gLatMin, gLatMax = f.gLatMax, gLonMin = f.gLonMin, gLonMax = f.gLonMax;
    const double lat0 = f.lat0, lon0 = f.lon0, extentKm = f.extentKm;
    // Graticule: a round step giving 3 to 8 lines across.
    const double span = std::max(gLatMax - gLatMin, (gLonMax - gLonMin) * std::cos(lat0 * kDeg));
    d.graticuleStepDeg = 30.0;
    for (double step : {1.0, 2.0, 5.0, 10.0, 15.0, 30.0})
        if (span / step <= 8.0) {
            d.graticuleStepDeg = step;
            break;
        }
    const double step = d.graticuleStepDeg;
    for (double lat = std::ceil(gLatMin / step) * step; lat <= gLatMax + 1e-9; lat += step) {
        d.graticule.push_back({SiteMapBuilder::project(lat, gLonMin, lat0, lon0),
                               SiteMapBuilder::project(lat, gLonMax, lat0, lon0)});
        const Vec2 at = SiteMapBuilder::project(lat, gLonMin, lat0, lon0);
        d.graticuleLabels.push_back({latLabel(lat), {at[0] + extentKm * 0.025, at[1] + extentKm * 0.006}});
    }
    for (double lon = std::ceil(gLonMin / step) * step; lon <= gLonMax + 1e-9; lon += step) {
        d.graticule.push_back({SiteMapBuilder::project(gLatMin, lon, lat0, lon0),
                               SiteMapBuilder::project(gLatMax, lon, lat0, lon0)});
        const Vec2 at = SiteMapBuilder::project(gLatMin, lon, lat0, lon0);
        d.graticuleLabels.push_back({lonLabel(lon), {at[0], at[1] + extentKm * 0.015}});
    }
}

/// Basemap polylines clipped to the frame and projected, or the reason there is none.
void addBasemap(SiteMapData& d, const SiteMapBasemap* basemap, const Frame& f) {
    const double gLatMin = f.gLatMin, gLatMax = f.gLatMax, gLonMin = f.gLonMin, gLonMax = f.gLonMax;
    const double lat0 = f.lat0, lon0 = f.lon0;
    // Basemap: each polyline clipped to the graticule's frame, cut where it leaves it, then projected.
    if (basemap) {
        d.basemapAttribution = basemap->attribution();
        for (const auto& line : basemap->lines()) {
            auto& out = line.kind == SiteMapBasemap::Kind::Country ? d.countryBorders
                        : line.kind == SiteMapBasemap::Kind::State ? d.stateBorders
                                                                   : d.coastlines;
            bool open = false; // the last polyline of `out` ends at this line's previous point
            for (std::size_t i = 1; i < line.points.size(); ++i) {
                std::array<double, 2> a = line.points[i - 1], b = line.points[i];
                if (!SiteMapBuilder::clipSegment(a, b, gLonMin, gLonMax, gLatMin, gLatMax)) {
                    open = false;
                    continue;
                }
                // Unclipped start (a unchanged) after an unclipped end: the same polyline goes on.
                const bool continues = open && a == line.points[i - 1];
                if (!continues) out.push_back({SiteMapBuilder::project(a[1], a[0], lat0, lon0)});
                out.back().push_back(SiteMapBuilder::project(b[1], b[0], lat0, lon0));
                open = b == line.points[i];
            }
        }
    } else {
        d.basemapProblem = SiteMapBasemap::sharedProblem();
        if (d.basemapProblem.empty()) d.basemapProblem = "no basemap";
    }
}

/// Site positions, spreading sites that share coordinates; a notice naming them.
void placeSites(SiteMapData& d, const Frame& f) {
    const double lat0 = f.lat0, lon0 = f.lon0, extentKm = f.extentKm;
    // Place sites; spread those that share coordinates around their common point.
    for (auto& s : d.sites)
        s.position = SiteMapBuilder::project(s.latDeg, s.lonDeg, lat0, lon0);
    std::vector<bool> done(d.sites.size(), false);
    std::vector<std::string> shared;
    for (std::size_t i = 0; i < d.sites.size(); ++i) {
        if (done[i]) continue;
        std::vector<std::size_t> group{i};
        for (std::size_t j = i + 1; j < d.sites.size(); ++j)
            if (!done[j] && std::abs(d.sites[j].latDeg - d.sites[i].latDeg) < 1e-4 &&
                std::abs(d.sites[j].lonDeg - d.sites[i].lonDeg) < 1e-4)
                group.push_back(j);
        for (std::size_t k : group)
            done[k] = true;
        if (group.size() < 2) continue;
        // Far enough apart (6 % of the map) for the markers and their names to separate.
        const double r = std::max({4.0 * d.markerRadiusKm, 0.06 * extentKm, 1.0});
        for (std::size_t k = 0; k < group.size(); ++k) {
            auto& s = d.sites[group[k]];
            // Starting north, so that two sites stack vertically and their names do not overlap.
            const double a = std::numbers::pi / 2 + 2 * std::numbers::pi * static_cast<double>(k) /
                                                        static_cast<double>(group.size());
            s.position = {s.position[0] + r * std::cos(a), s.position[1] + r * std::sin(a)};
            s.displaced = true;
            shared.push_back(s.name);
        }
    }
    if (!shared.empty()) {
        std::string names;
        for (std::size_t i = 0; i < shared.size() && i < 4; ++i)
            names += (i ? ", " : "") + shared[i];
        if (shared.size() > 4) names += ", ...";
        d.notices.push_back("Sites at identical coordinates (" + names + ") are spread apart for display.");
    }
}

/// Links between placed sites (or their buildings) with route, latency and capacity labels; notices.
void addLinks(SiteMapData& d, const SceneSource& source, const Frame& f) {
    const auto& p = source.project;
    const double lat0 = f.lat0, lon0 = f.lon0;
    // Links: endpoints are sites or buildings (a building stands for its site).
    std::unordered_map<std::string, std::size_t> siteAt;
    for (std::size_t i = 0; i < d.sites.size(); ++i)
        siteAt[d.sites[i].id] = i;
    std::unordered_map<std::string, std::string> siteOfBuilding;
    for (const auto& b : p.buildings)
        siteOfBuilding[b.id] = b.site;
    const auto resolve = [&](const std::string& id) -> const MapSite* {
        auto it = siteAt.find(id);
        if (it == siteAt.end()) {
            const auto b = siteOfBuilding.find(id);
            if (b != siteOfBuilding.end()) it = siteAt.find(b->second);
        }
        return it == siteAt.end() ? nullptr : &d.sites[it->second];
    };
    std::unordered_map<std::string, const cost::WanBom*> wan;
    if (source.results)
        for (const auto& w : source.results->bom.links)
            wan[w.linkId] = &w;
    bool estimated = false;
    std::vector<std::string> dangling;
    std::size_t sameSite = 0;
    for (const auto& l : p.links) {
        const MapSite* a = resolve(l.from);
        const MapSite* b = resolve(l.to);
        if (!a || !b) {
            dangling.push_back(l.name.empty() ? l.id : l.name);
            continue;
        }
        MapLink m;
        m.id = l.id;
        m.name = l.name.empty() ? l.id : l.name;
        m.fromSite = a->id;
        m.toSite = b->id;
        const auto w = wan.find(l.id);
        if (w != wan.end()) {
            m.routeKm = w->second->routeLength.value() / 1e3;
            m.latencyMs = w->second->oneWayLatency.value() * 1e3;
            m.capacityTbps = w->second->capacityBitPerS / 1e12;
            m.fromResults = true;
        } else {
            // Without an evaluation: the stored route length, else great-circle x route factor (SPEC §3).
            const double gc = cost::geodesicDistance(a->latDeg, a->lonDeg, b->latDeg, b->lonDeg).value();
            const double route = l.routeLength ? l.routeLength->value() : gc * l.routeFactor.value_or(1.0);
            m.routeKm = route / 1e3;
            // Light in fiber: 4.9 us/km (cost::kFiberDelaySecondsPerMeter, REFERENCES.md Network).
            m.latencyMs = route * cost::kFiberDelaySecondsPerMeter * 1e3;
            m.capacityTbps = l.capacityBitPerS / 1e12;
            estimated = true;
        }
        m.budgetMs = l.latencyBudget ? l.latencyBudget->value() * 1e3 : 0.0;
        m.overBudget = m.budgetMs > 0 && m.latencyMs > m.budgetMs;
        m.color = m.overBudget ? SiteMapBuilder::kWarningColor : SiteMapBuilder::kLinkColor;
        if (a == b || (a->position[0] == b->position[0] && a->position[1] == b->position[1])) {
            ++sameSite;
            m.labelPosition = {a->position[0], a->position[1] - 6 * d.markerRadiusKm};
        } else {
            for (const auto& ll : greatCircle(a->latDeg, a->lonDeg, b->latDeg, b->lonDeg, 48))
                m.path.push_back(SiteMapBuilder::project(ll[0], ll[1], lat0, lon0));
            // Displaced sites: keep the arc attached to the drawn markers.
            m.path.front() = a->position;
            m.path.back() = b->position;
            m.labelPosition = m.path[m.path.size() / 2];
        }
        m.label = m.name + "\n" + format("%.0f km", m.routeKm) + "  |  " +
                  format("%.2f ms one-way", m.latencyMs) + "  |  " + format("%.1f Tbps", m.capacityTbps);
        if (m.budgetMs > 0)
            m.label += std::string("\n") + (m.overBudget ? "OVER latency budget " : "latency budget ") +
                       format("%.1f ms", m.budgetMs);
        d.links.push_back(std::move(m));
    }
    if (!dangling.empty())
        d.notices.push_back(std::to_string(dangling.size()) + " link(s) with an unknown end are not drawn.");
    if (sameSite)
        d.notices.push_back(std::to_string(sameSite) +
                            " link(s) join buildings of one site; labelled at the site.");
    if (estimated)
        d.notices.push_back("Link figures estimated without an evaluation (route factor, 4.9 us/km).");
}

} // namespace

Vec2 SiteMapBuilder::project(double latDeg, double lonDeg, double standardParallelDeg,
                             double centralMeridianDeg) {
    return {kEarthRadiusKm * (lonDeg - centralMeridianDeg) * kDeg * std::cos(standardParallelDeg * kDeg),
            kEarthRadiusKm * (latDeg - standardParallelDeg) * kDeg};
}

bool SiteMapBuilder::clipSegment(std::array<double, 2>& a, std::array<double, 2>& b, double lon0, double lon1,
                                 double lat0, double lat1) {
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    double t0 = 0.0, t1 = 1.0;
    // For each edge: p t <= q keeps the point inside.
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a[0] - lon0, lon1 - a[0], a[1] - lat0, lat1 - a[1]};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0) return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1) return false;
    }
    const std::array<double, 2> a0 = a;
    if (t0 > 0.0) a = {a0[0] + t0 * dx, a0[1] + t0 * dy};
    if (t1 < 1.0) b = {a0[0] + t1 * dx, a0[1] + t1 * dy};
    return true;
}

SiteMapData SiteMapBuilder::build(const SceneSource& source, const SiteMapBasemap* basemap) {
    SiteMapData d;
    collectSites(source.project, d);
    const Frame f = computeFrame(d);
    addGraticule(d, f);
    addBasemap(d, basemap, f);
    placeSites(d, f);
    addLinks(d, source, f);
    return d;
}

} // namespace ctwin::views
