#pragma once
#include "rgb.h"

#include <array>
#include <string>
#include <vector>

namespace ctwin::views {

/// Map coordinates in km (equirectangular projection, see SiteMapBuilder).
using Vec2 = std::array<double, 2>;

struct MapSite {
    std::string id;
    std::string name;
    double latDeg = 0.0;
    double lonDeg = 0.0;
    Vec2 position{};
    /// Moved off its true position because another site has the same coordinates.
    bool displaced = false;
};

/// A scale-across link with the figures the map labels it with.
struct MapLink {
    std::string id;
    std::string name;
    std::string fromSite;
    std::string toSite;
    /// The great-circle arc, projected (empty when both ends are on one site).
    std::vector<Vec2> path;
    double routeKm = 0.0;
    double latencyMs = 0.0; // one-way
    double capacityTbps = 0.0;
    double budgetMs = 0.0; // 0 = no budget
    bool overBudget = false;
    /// False when the figures were estimated here because no evaluation was given.
    bool fromResults = false;
    std::string label;
    Vec2 labelPosition{};
    Rgb color;
};

struct MapText {
    std::string text;
    Vec2 position{};
};

/// The site map as plain data: what SiteMapBuilder computes and SiteMapScene draws.
struct SiteMapData {
    std::vector<MapSite> sites;
    std::vector<MapLink> links;
    std::vector<std::vector<Vec2>> graticule;
    /// The basemap (SiteMapBasemap: GSHHG) clipped to the graticule's frame and projected: coastlines with
    /// the larger lakes, country borders, and state or province borders.
    std::vector<std::vector<Vec2>> coastlines, countryBorders, stateBorders;
    /// The basemap's attribution, shown on the map; empty without a basemap, and then `basemapProblem` says
    /// why (the caption shows it).
    std::string basemapAttribution, basemapProblem;
    std::vector<MapText> graticuleLabels;
    std::vector<std::string> notices;
    /// xmin, xmax, ymin, ymax (km).
    std::array<double, 4> bounds{-1000, 1000, -1000, 1000};
    double standardParallelDeg = 0.0;
    double centralMeridianDeg = 0.0;
    double graticuleStepDeg = 5.0;
    /// Marker radius (km) that reads well at the map's scale.
    double markerRadiusKm = 10.0;
};

} // namespace ctwin::views
