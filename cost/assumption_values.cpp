#include "assumption_values.h"
#include "format_number.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "input_error.h"
#include "suggest.h"

namespace ctwin::cost {

using model::InputError;
using model::InputLocation;

const AssumptionValues::Entry* AssumptionValues::entry(const std::string& key) const {
    if (!m_changed.empty())
        if (auto it = m_changed.find(key); it != m_changed.end()) return &*it;
    auto it = m_base->find(key);
    return it == m_base->end() ? nullptr : &*it;
}

const model::Assumption& AssumptionValues::at(const std::string& key) const {
    const Entry* e = entry(key);
    if (!e) throw InputError(InputLocation{"assumptions", "assumption", key, "", ""}, "unknown assumption");
    return e->second;
}

double AssumptionValues::get(const std::string& key) const {
    const Entry* e = entry(key);
    if (!e) throw InputError(InputLocation{"assumptions", "assumption", key, "", ""}, "unknown assumption");
    if (std::find(m_read.begin(), m_read.end(), e) == m_read.end()) m_read.push_back(e);
    return e->second.base;
}

bool AssumptionValues::wasRead(const std::string& key) const {
    const Entry* e = entry(key);
    return e && std::find(m_read.begin(), m_read.end(), e) != m_read.end();
}

const model::AssumptionSet& AssumptionValues::all() const {
    if (m_changed.empty()) return *m_base;
    if (!m_all) {
        m_all = *m_base;
        for (const auto& [key, a] : m_changed)
            (*m_all)[key] = a;
    }
    return *m_all;
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
                         "unknown assumption path (expected assumptions.<key>, e.g. assumptions.wacc)" +
                             didYouMean(key, set));
    auto& a = it->second;
    if (const std::string problem = assumptionValueProblem(a, value); !problem.empty())
        throw InputError(InputLocation{"--set", "assumption", path, "", "base"}, problem);
    a.base = value;
    a.low = std::min(a.low, value);
    a.high = std::max(a.high, value);
}

using model::formatNumber;

std::string assumptionValueProblem(const model::Assumption& a, double value) {
    if (!std::isfinite(value)) return "value is not finite";
    if (value < a.min || value > a.max)
        return "value " + formatNumber(value) + " is outside the valid range [" + formatNumber(a.min) + ", " +
               formatNumber(a.max) + "]" + (a.unit.empty() ? "" : " " + a.unit);
    // A whole-number assumption (horizon_years: the cash flows run in whole years) is refused rather than
    // rounded, so the figures are never those of another value than the one given.
    if (a.whole && value != std::floor(value))
        return "value " + formatNumber(value) + " is not a whole number" +
               (a.unit.empty() ? "" : " of " + a.unit) + "; only whole numbers are valid";
    return {};
}

std::string didYouMean(const std::string& key, const model::AssumptionSet& known) {
    std::vector<std::string> keys;
    keys.reserve(known.size());
    for (const auto& [k, _] : known) keys.push_back(k);
    return model::didYouMean(key, keys); // model/suggest.h: the one edit-distance rule of every loader
}

std::string_view assumptionUnitProper(std::string_view unit) {
    // The shipped units carry a description after the unit proper: "1/year (fraction of IT capex per year)",
    // "fraction of IT power", "W per W of air-side heat". The unit proper is the text before " (" or " of ",
    // trimmed; "fraction", "ratio", "1" and "W per W" all name a pure number, written "1".
    for (const std::string_view cut : {std::string_view(" ("), std::string_view(" of ")})
        if (const auto at = unit.find(cut); at != std::string_view::npos) unit = unit.substr(0, at);
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    while (!unit.empty() && unit.back() == ' ') unit.remove_suffix(1);
    if (unit == "fraction" || unit == "ratio" || unit == "1" || unit == "W per W" || unit == "W/W") return "1";
    return unit;
}

bool sameAssumptionUnit(std::string_view stated, std::string_view shipped) {
    return assumptionUnitProper(stated) == assumptionUnitProper(shipped);
}

void checkDesignAssumptions(const model::AssumptionSet& design, const model::AssumptionSet& defaults,
                            const std::string& file) {
    for (const auto& [key, a] : design) {
        InputLocation where{file, "assumption", key, "", ""};
        // The single maintenance_fraction of earlier releases still loads and overrides the three per-class
        // fractions (cost/evaluate_finance.cpp, data/FORMAT.md §2); it is checked against their range.
        const auto it = defaults.find(key == "maintenance_fraction" && !defaults.count(key)
                                          ? std::string("it_maintenance_fraction")
                                          : key);
        if (it == defaults.end())
            throw InputError(where, "unknown assumption" + didYouMean(key, defaults) +
                                        "; the keys are those of data/assumptions.json");
        // Values are read in the shipped unit; a design that states another one (e.g. "USD" for wacc, or
        // "USD/MWh" for a $/kWh tariff) would be off by the conversion, so it is refused rather than guessed.
        if (!a.unit.empty() && !sameAssumptionUnit(a.unit, it->second.unit)) {
            where.field = "unit";
            throw InputError(where, "unit '" + a.unit + "' is not the unit of this assumption; values are read in '" +
                                        it->second.unit + "'");
        }
        for (const auto& [field, value] : {std::pair{"base", a.base}, {"low", a.low}, {"high", a.high}}) {
            where.field = field;
            if (const std::string problem = assumptionValueProblem(it->second, value); !problem.empty())
                throw InputError(where, problem);
        }
    }
}

} // namespace ctwin::cost
