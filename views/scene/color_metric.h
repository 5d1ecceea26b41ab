#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace ctwin::views {

/// What the racks of the campus view are coloured by.
enum class ColorMetric {
    /// IT power at load per rack (kW); hot spares at idle power.
    PowerDensity,
    /// Headroom of the rack's cooling loop: (installed capacity - liquid heat) / installed capacity, %.
    ThermalMargin,
    /// Catalog rack type (categorical).
    RackType,
    /// Failure blast radius: racks that one cooling loop takes down together (categorical).
    CoolingLoop,
};

inline constexpr std::array kAllColorMetrics = {ColorMetric::PowerDensity, ColorMetric::ThermalMargin,
                                                ColorMetric::RackType, ColorMetric::CoolingLoop};

/// Stable key for settings and the CLI ("power", "thermal", "type", "loop").
std::string_view colorMetricKey(ColorMetric metric);
std::optional<ColorMetric> colorMetricFromKey(std::string_view key);
/// Legend title, e.g. "Power density (kW per rack)".
std::string colorMetricTitle(ColorMetric metric);
bool colorMetricIsCategorical(ColorMetric metric);

} // namespace ctwin::views
