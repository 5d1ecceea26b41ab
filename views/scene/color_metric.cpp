#include "color_metric.h"

namespace ctwin::views {

std::string_view colorMetricKey(ColorMetric metric) {
    switch (metric) {
    case ColorMetric::PowerDensity:
        return "power";
    case ColorMetric::ThermalMargin:
        return "thermal";
    case ColorMetric::RackType:
        return "type";
    case ColorMetric::CoolingLoop:
        break;
    }
    return "loop";
}

std::optional<ColorMetric> colorMetricFromKey(std::string_view key) {
    for (ColorMetric m : kAllColorMetrics)
        if (colorMetricKey(m) == key) return m;
    return std::nullopt;
}

std::string colorMetricTitle(ColorMetric metric) {
    switch (metric) {
    case ColorMetric::PowerDensity:
        return "Power density (kW per rack)";
    case ColorMetric::ThermalMargin:
        return "Cooling loop thermal margin (%)";
    case ColorMetric::RackType:
        return "Rack type";
    case ColorMetric::CoolingLoop:
        break;
    }
    return "Blast radius: cooling loop";
}

bool colorMetricIsCategorical(ColorMetric metric) {
    return metric == ColorMetric::RackType || metric == ColorMetric::CoolingLoop;
}

} // namespace ctwin::views
