#pragma once
#include <limits>
#include <map>
#include <string>

namespace ctwin::model {

/// One assumption with its range and source (SPEC.md §3: "Every assumption has base, low, high and a source").
struct Assumption {
    double base = 0.0;
    double low = 0.0;
    double high = 0.0;
    std::string unit;
    std::string source;
    bool estimate = false;
    /// Valid range, inclusive (data/assumptions.json `min`/`max`; required there). A design's assumptions
    /// block does not carry it: mergeAssumptions keeps the shipped range for an overridden key.
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    /// Only whole numbers are valid (data/assumptions.json `whole`, e.g. horizon_years: the cash flows run
    /// in whole years). Like the valid range, a design does not carry it: mergeAssumptions keeps the shipped
    /// flag.
    bool whole = false;
    bool operator==(const Assumption&) const = default;
};

/// Assumptions by key (e.g. "electricity_usd_per_kwh"), ordered for stable output.
using AssumptionSet = std::map<std::string, Assumption>;

/// Defaults overlaid with a design's overrides.
AssumptionSet mergeAssumptions(const AssumptionSet& defaults, const AssumptionSet& overrides);

} // namespace ctwin::model
