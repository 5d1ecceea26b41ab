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
    return {};
}

std::string didYouMean(const std::string& key, const model::AssumptionSet& known) {
    std::vector<std::string> keys;
    keys.reserve(known.size());
    for (const auto& [k, _] : known) keys.push_back(k);
    return model::didYouMean(key, keys); // model/suggest.h: the one edit-distance rule of every loader
}

bool sameAssumptionUnit(std::string_view stated, std::string_view shipped) {
    // The shipped units carry a description after the unit proper: "1/year (fraction of IT capex per year)",
    // "fraction of IT power", "W per W of air-side heat". Two units are the same when their unit proper is:
    // the text before " (" or " of ", trimmed; "fraction", "ratio" and "1" all name a pure number.
    const auto proper = [](std::string_view u) {
        for (const std::string_view cut : {std::string_view(" ("), std::string_view(" of ")})
            if (const auto at = u.find(cut); at != std::string_view::npos) u = u.substr(0, at);
        while (!u.empty() && u.front() == ' ') u.remove_prefix(1);
        while (!u.empty() && u.back() == ' ') u.remove_suffix(1);
        if (u == "fraction" || u == "ratio" || u == "1" || u == "W per W" || u == "W/W") return std::string_view("1");
        return u;
    };
    return proper(stated) == proper(shipped);
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
