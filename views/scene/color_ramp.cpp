#include "color_ramp.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ctwin::views {

ColorRamp::ColorRamp(std::vector<Stop> stops) : m_stops(std::move(stops)) {
    if (m_stops.empty()) m_stops.push_back({0.0, kNoData});
    std::stable_sort(m_stops.begin(), m_stops.end(),
                     [](const Stop& a, const Stop& b) { return a.value < b.value; });
}

Rgb ColorRamp::at(double value) const {
    if (std::isnan(value)) return kNoData;
    if (value <= m_stops.front().value) return m_stops.front().color;
    if (value >= m_stops.back().value) return m_stops.back().color;
    const auto hi = std::upper_bound(m_stops.begin(), m_stops.end(), value,
                                     [](double v, const Stop& s) { return v < s.value; });
    const auto lo = hi - 1;
    const double span = hi->value - lo->value;
    const double t = span > 0.0 ? (value - lo->value) / span : 0.0;
    const auto mix = [t](std::uint8_t a, std::uint8_t b) {
        return static_cast<std::uint8_t>(std::lround(a + (static_cast<double>(b) - a) * t));
    };
    return {mix(lo->color.r, hi->color.r), mix(lo->color.g, hi->color.g), mix(lo->color.b, hi->color.b)};
}

ColorRamp ColorRamp::viridis(double lo, double hi) {
    // viridis at 0, 0.25, 0.5, 0.75, 1 (matplotlib _cm_listed.py).
    static constexpr std::array<std::uint32_t, 5> kHex = {0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725};
    if (!(hi > lo)) hi = lo + 1.0;
    std::vector<Stop> stops;
    for (std::size_t i = 0; i < kHex.size(); ++i)
        stops.push_back({lo + (hi - lo) * static_cast<double>(i) / (kHex.size() - 1), Rgb::fromHex(kHex[i])});
    return ColorRamp(std::move(stops));
}

ColorRamp ColorRamp::thermalMargin() {
    // RdYlGn (5-class) anchored on margins that mean something to a cooling engineer: < 0 % overloaded,
    // 0-10 % no headroom for a CDU failure beyond the redundancy, >= 25 % comfortable.
    return ColorRamp({{-20.0, Rgb::fromHex(0xa50026)},
                      {0.0, Rgb::fromHex(0xf46d43)},
                      {10.0, Rgb::fromHex(0xfee08b)},
                      {25.0, Rgb::fromHex(0xa6d96a)},
                      {40.0, Rgb::fromHex(0x1a9850)}});
}

Rgb ColorRamp::categorical(std::size_t index) {
    static constexpr std::array<std::uint32_t, kCategoricalCount> kTableau10 = {
        0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return Rgb::fromHex(kTableau10[index % kCategoricalCount]);
}

} // namespace ctwin::views
