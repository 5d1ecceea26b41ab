#include "field_traits.h"
#include "format_number.h"


namespace ctwin::model {

std::string rangeProblem(double value, const Bounds& b) {
    if (value >= b.min && value <= b.max) return {};
    std::string s = "value " + formatNumber(value) + " is outside the accepted range [" +
                    formatNumber(b.min) + ", " + formatNumber(b.max) + "]";
    if (b.unit && *b.unit) s += std::string(" ") + b.unit;
    if (b.reason && *b.reason) s += std::string(" (") + b.reason + ")";
    return s;
}

} // namespace ctwin::model
