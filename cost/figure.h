#pragma once
#include <string>
#include <utility>
#include <vector>

namespace ctwin::cost {

/// How a figure was computed: the formula, its named inputs and the sources of the catalog entries and
/// assumptions it used, so the GUI can answer "where does this number come from?".
struct Provenance {
    std::string formula;
    std::vector<std::pair<std::string, double>> inputs;
    std::vector<std::string> sources;
};

/// One reported figure, keyed by its dotted export path (e.g. "power.pue") in display units named by
/// the key's suffix (`_mw`, `_usd`, ...). Kept in evaluation order.
struct Figure {
    std::string key;
    double value = 0.0;
    std::string unit;
    std::string label;
    Provenance provenance;
};

} // namespace ctwin::cost
