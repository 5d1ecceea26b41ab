#pragma once
#include "units.h"

namespace ctwin::cost {

/// IUGG mean Earth radius R1 = (2a + b) / 3 of the GRS80/WGS84 ellipsoid, 6,371,008.8 m (Moritz, "Geodetic
/// Reference System 1980", Bulletin Géodésique 54(3), 1980): the sphere the site map's equirectangular
/// projection uses (views/scene). Distances between sites do not use it: see geodesicDistance.
inline constexpr double kMeanEarthRadiusM = 6371008.8;

/// Shortest distance on the WGS84 ellipsoid between two points given in degrees (latitude, longitude):
/// Karney's geodesic inverse solution ("Algorithms for geodesics", J. Geodesy 87, 2013), through
/// GeographicLib, accurate to ~15 nm. A sphere of mean radius is off by up to ~0.5% (it overstates meridian
/// arcs near the equator and understates them near the poles); the WAN route and cable lengths, the fibre
/// leases and the nearest climate station all use this one function. Latitudes outside [-90, 90] or
/// non-finite input: NaN.
units::Length geodesicDistance(double lat1Deg, double lon1Deg, double lat2Deg, double lon2Deg);

/// Great-circle distance on the sphere of radius kMeanEarthRadiusM (haversine; Sinnott, "Virtues of the
/// Haversine", Sky & Telescope 68(2), 1984), ~40x cheaper than geodesicDistance (25 ns against 1 us here).
/// For pruning only: it lies within 0.6% of the geodesic (a degree of latitude is 110.574 km at the equator,
/// 111.694 km at the poles, 111.195 km on the sphere), so a search can rank candidates with it and call
/// geodesicDistance on those within kSphereToGeodesicSlack of the best.
double sphericalDistanceM(double lat1Deg, double lon1Deg, double lat2Deg, double lon2Deg);
/// A candidate whose spherical distance exceeds the smallest one by more than this factor cannot be the
/// geodesic nearest: (1 + 0.006) / (1 - 0.006) = 1.0121, rounded up.
inline constexpr double kSphereToGeodesicSlack = 1.02;

} // namespace ctwin::cost
