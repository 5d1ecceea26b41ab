#include "geodesy.h"

#include <GeographicLib/Geodesic.hpp>
#include <algorithm>
#include <cmath>
#include <limits>

namespace ctwin::cost {

units::Length geodesicDistance(double lat1Deg, double lon1Deg, double lat2Deg, double lon2Deg) {
    const auto valid = [](double lat, double lon) {
        return std::isfinite(lat) && std::isfinite(lon) && std::abs(lat) <= 90.0;
    };
    if (!valid(lat1Deg, lon1Deg) || !valid(lat2Deg, lon2Deg))
        return std::numeric_limits<double>::quiet_NaN() * units::meter;
    double s12 = 0;
    // WGS84() is a function-local static GeographicLib builds once (thread-safe initialisation); Inverse is
    // const and reentrant, so the parallel explore may call it from every thread.
    GeographicLib::Geodesic::WGS84().Inverse(lat1Deg, lon1Deg, lat2Deg, lon2Deg, s12);
    return s12 * units::meter;
}

double sphericalDistanceM(double lat1Deg, double lon1Deg, double lat2Deg, double lon2Deg) {
    constexpr double rad = 3.14159265358979323846 / 180.0;
    const double sLat = std::sin((lat2Deg - lat1Deg) * rad / 2),
                 sLon = std::sin((lon2Deg - lon1Deg) * rad / 2);
    const double h = sLat * sLat + std::cos(lat1Deg * rad) * std::cos(lat2Deg * rad) * sLon * sLon;
    return 2.0 * kMeanEarthRadiusM * std::asin(std::min(1.0, std::sqrt(h)));
}

} // namespace ctwin::cost
