#pragma once
// Internal to cost/reliability*.cpp: the number formats, catalog look-up and rule helper both the
// reliability input (reliability_input.cpp) and its analysis (reliability.cpp) use.
#include "design_rule.h"
#include "fixed_format.h"
#include "project.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace ctwin::cost::reliability_detail {

using model::CatalogItem;

using detail::fmt; // the engine's one fixed-point format (cost/fixed_format.h)

inline std::string fmtRate(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

/// A catalog figure when present and finite, else `fallback`.
inline double valueOr(const CatalogItem& item, const std::string& field, double fallback) {
    const auto* v = item.find(field);
    return v && std::isfinite(v->base) ? v->base : fallback;
}

inline void addRule(std::vector<DesignRule>& rules, Severity s, std::string rule, std::string entity,
                    std::string message) {
    for (const auto& r : rules)
        if (r.rule == rule && r.entity == entity) return; // one finding per rule and entity
    rules.push_back({s, std::move(rule), std::move(entity), std::move(message)});
}

} // namespace ctwin::cost::reliability_detail
