#include "format_number.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

namespace ctwin::model {

std::string formatNumber(double v) {
    std::ostringstream s;
    s << (v == 0.0 ? 0.0 : v); // -0 prints as 0
    return s.str();
}

std::optional<double> parseDecimal(std::string_view text) {
    // One sign at most; from_chars takes '-' only, so a '+' is dropped here.
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        const std::string_view digits = text.substr(1);
        // from_chars also reads "inf", "nan" and "infinity"; decimal notation starts with a digit or point.
        if (digits.empty() || !(std::isdigit(static_cast<unsigned char>(digits.front())) || digits.front() == '.'))
            return std::nullopt;
        if (text.front() == '+') text = digits;
    } else if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text.front())) || text.front() == '.')) {
        return std::nullopt;
    }
    double v = 0.0;
    const auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
    return v;
}

} // namespace ctwin::model
