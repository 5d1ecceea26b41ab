#include "geodesy.h"

#include <GeographicLib/Geodesic.hpp>
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

} // namespace ctwin::cost
