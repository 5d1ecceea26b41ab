#include "assumption_values.h"

#include <algorithm>
#include <cmath>

#include "input_error.h"

namespace ctwin::cost {

using model::InputError;
using model::InputLocation;

const model::Assumption& AssumptionValues::at(const std::string& key) const {
    auto it = m_set.find(key);
    if (it == m_set.end())
        throw InputError(InputLocation{"assumptions", "assumption", key, "", ""}, "unknown assumption");
    return it->second;
}

double AssumptionValues::get(const std::string& key) const {
    const double v = at(key).base;
    m_read.insert(key);
    return v;
}

std::string AssumptionValues::source(const std::string& key) const {
    const auto& a = at(key);
    return "assumption " + key + ": " + a.source + (a.estimate ? " (estimate)" : "");
}

void overrideAssumption(model::AssumptionSet& set, const std::string& path, double value) {
    const std::string prefix = "assumptions.";
    const std::string key = path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : std::string();
    auto it = set.find(key);
    if (key.empty() || it == set.end())
        throw InputError(InputLocation{"--set", "assumption", path, "", ""},
                         "unknown assumption path (expected assumptions.<key>, e.g. assumptions.wacc)");
    if (!std::isfinite(value))
        throw InputError(InputLocation{"--set", "assumption", path, "", "base"}, "value is not finite");
    auto& a = it->second;
    a.base = value;
    a.low = std::min(a.low, value);
    a.high = std::max(a.high, value);
}

} // namespace ctwin::cost
