#include "uncertainty_skew.h"

#include "field_names.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ctwin::views {

QString inputDisplayName(const std::string& path) {
    const std::string prefix = "assumptions.";
    if (path.rfind(prefix, 0) == 0) return fieldName(path.substr(prefix.size()));
    // COLLECTION.ID.FIELD: the id may hold dots, the field does not.
    const size_t first = path.find('.'), last = path.rfind('.');
    if (first == std::string::npos || last == first) return QString::fromStdString(path);
    return QStringLiteral("%1 (%2)").arg(fieldName(path.substr(last + 1)),
                                         QString::fromStdString(path.substr(first + 1, last - first - 1)));
}

std::vector<SkewDriver> skewDrivers(const cost::Tornado& t, const std::vector<cost::ResolvedInput>& inputs) {
    std::unordered_map<std::string, double> baseOf;
    for (const auto& in : inputs)
        baseOf.emplace(in.path, in.value);
    std::vector<SkewDriver> out;
    for (const auto& bar : t.bars) {
        const double a = bar.inputLow, b = bar.inputHigh;
        if (!(b > a) || !std::isfinite(a) || !std::isfinite(b)) continue;
        const auto it = baseOf.find(bar.path);
        // Without the base value (an input the evaluation did not record), the midpoint: no lopsidedness
        // is claimed that cannot be shown.
        const double c = std::clamp(it == baseOf.end() ? (a + b) / 2 : it->second, a, b);
        const double down = bar.definedAtLow ? bar.outputAtLow - t.base : 0.0;
        const double up = bar.definedAtHigh ? bar.outputAtHigh - t.base : 0.0;
        const double shift = ((c - a) * down + (b - c) * up) / (3.0 * (b - a));
        if (!std::isfinite(shift)) continue;
        out.push_back({bar.path, inputDisplayName(bar.path), shift});
    }
    std::stable_sort(out.begin(), out.end(), [](const SkewDriver& x, const SkewDriver& y) {
        return std::abs(x.shift) > std::abs(y.shift);
    });
    return out;
}

std::vector<SkewDriver> mainSkewDrivers(const std::vector<SkewDriver>& all, double direction, double minShare,
                                        std::size_t limit) {
    std::vector<SkewDriver> out;
    if (direction == 0 || !std::isfinite(direction)) return out;
    double total = 0;
    for (const auto& d : all)
        if ((d.shift > 0) == (direction > 0) && d.shift != 0) total += std::abs(d.shift);
    if (total <= 0) return out;
    for (const auto& d : all) // already largest first
        if (out.size() < limit && d.shift != 0 && (d.shift > 0) == (direction > 0) &&
            std::abs(d.shift) >= minShare * total)
            out.push_back(d);
    return out;
}

} // namespace ctwin::views
