#pragma once
#include "scene_source.h"
#include "site_map_basemap.h"
#include "site_map_data.h"

namespace ctwin::views {

/// Lays out the site map: sites by latitude/longitude, a graticule, and each scale-across link as a
/// great-circle arc labelled with route length, one-way latency and capacity; links over their latency
/// budget in the warning colour, over a basemap of coastlines and borders (SiteMapBasemap, GSHHG). Plain
/// data, no VTK.
class SiteMapBuilder {
public:
    /// `basemap` null: no coastlines or borders (the data's basemapProblem says the shared one's problem).
    static SiteMapData build(const SceneSource& source,
                             const SiteMapBasemap* basemap = SiteMapBasemap::shared());

    /// The part of the segment a-b (longitude, latitude) inside the box lon0..lon1 x lat0..lat1, by
    /// Liang-Barsky parametric clipping (Y.-D. Liang and B. A. Barsky, "A new concept and method for line
    /// clipping", ACM Transactions on Graphics 3(1), 1984); false when none of it is.
    static bool clipSegment(std::array<double, 2>& a, std::array<double, 2>& b, double lon0, double lon1,
                            double lat0, double lat1);

    /// Equidistant cylindrical (equirectangular) projection on a sphere of the mean Earth radius
    /// 6,371.0088 km (IUGG): x = R (lon - lon0) cos(lat1), y = R (lat - lat1), km (J. P. Snyder, "Map
    /// Projections: A Working Manual", USGS Professional Paper 1395, 1987, p. 91, eqs. 12-1 and 12-2).
    static Vec2 project(double latDeg, double lonDeg, double standardParallelDeg, double centralMeridianDeg);

    static constexpr Rgb kLinkColor = Rgb::fromHex(0x5aa9e6);
    static constexpr Rgb kWarningColor = Rgb::fromHex(0xff5a4e);
};

} // namespace ctwin::views
