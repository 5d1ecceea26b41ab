#pragma once
#include <string>
#include <vector>

namespace ctwin::model {

/// Title block of a design: what it models and where its figures come from.
struct ProjectInfo {
    std::string id;
    std::string name;
    std::string description;
    std::vector<std::string> sources;
    std::string currency = "USD";
    /// The annual-cost convention of the headline TCO and of every cost per unit derived from it:
    /// "economic" (capital recovery at WACC) or "accounting" (straight-line depreciation); both are reported.
    std::string tcoConvention = "economic";
    /// The day construction starts (ISO date, model/calendar_date.h), the origin of the time axis:
    /// phases energise at their buildings' and halls' `energisation_date`. Empty: the build starts at month
    /// 0 of an undated timeline and every phase energises after assumptions.construction_months.
    std::string buildStart;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.text("description", description);
        v.texts("sources", sources);
        v.choice("currency", currency, {"USD"});
        v.choice("tco_convention", tcoConvention, {"economic", "accounting"});
        v.text("build_start", buildStart);
    }
};

} // namespace ctwin::model
