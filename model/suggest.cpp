#include "suggest.h"

#include <algorithm>

namespace ctwin::model {

namespace {
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}
} // namespace

std::string didYouMean(std::string_view key, const std::vector<std::string>& candidates) {
    // A key of thousands of characters is no typo; skip the quadratic distance (fuzzed input).
    if (key.size() > 256) return {};
    const std::string* best = nullptr;
    size_t bestDistance = std::string::npos;
    for (const auto& c : candidates)
        if (const size_t d = editDistance(key, c); d < bestDistance) best = &c, bestDistance = d;
    if (!best || bestDistance > std::max<size_t>(2, key.size() / 3)) return {};
    return " (did you mean '" + *best + "'?)";
}

} // namespace ctwin::model
