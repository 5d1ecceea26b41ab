#pragma once
#include "rgb.h"

#include <cstddef>
#include <vector>

namespace ctwin::views {

/// A piecewise-linear colour ramp over a value range (interpolated in sRGB), plus the categorical palette.
/// The scene builders colour racks with it and the scalar-bar legend is built from the same stops, so the
/// legend always matches the picture.
class ColorRamp {
public:
    struct Stop {
        double value = 0.0;
        Rgb color;
    };

    /// Stops in increasing value order (at least one).
    explicit ColorRamp(std::vector<Stop> stops);

    /// The colour at a value; values outside the range take the end colours; NaN takes kNoData.
    Rgb at(double value) const;
    double minValue() const { return m_stops.front().value; }
    double maxValue() const { return m_stops.back().value; }
    const std::vector<Stop>& stops() const { return m_stops; }

    /// Perceptually uniform sequential ramp (matplotlib "viridis", S. van der Walt and N. Smith, 2015;
    /// five samples of the published colormap) stretched over [lo, hi].
    static ColorRamp viridis(double lo, double hi);
    /// Thermal margin of a cooling loop in percent of its installed capacity: red below 0 (overloaded),
    /// amber to yellow for thin margins, green from 25 %. ColorBrewer RdYlGn (C. Brewer, colorbrewer2.org).
    static ColorRamp thermalMargin();
    /// Categorical colours, "Tableau 10" (Tableau Software, 2016); repeats after 10.
    static Rgb categorical(std::size_t index);
    static constexpr std::size_t kCategoricalCount = 10;
    /// Racks with no value for the metric (air-cooled for loop metrics, unknown rack type).
    static constexpr Rgb kNoData = Rgb::fromHex(0x9e9e9e);

private:
    std::vector<Stop> m_stops;
};

} // namespace ctwin::views
