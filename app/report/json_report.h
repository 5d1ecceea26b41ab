#pragma once
#include "report/comparison_input.h"
#include "report/report_input.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ctwin::app {

/// cost::resultsToJson (the keys and values of `evaluate --json`) plus a "report" object: design (id, name,
/// description, sources), date, and the tables of the other formats — capex (by category with shares),
/// depreciation (asset classes with straight-line and declining-balance schedules), cash_flow (per year),
/// assumptions (base, low, high, unit, source, estimate, design_override), and sensitivity / uncertainty
/// when given.
nlohmann::ordered_json reportToJson(const ReportInput& input);

/// {"designs": [names], "baseline", "rows": [{key, label, unit, values, delta_absolute, delta_percent, best,
/// worst}], "explanations", "capex_by_category_usd": {category: [per design]}}.
nlohmann::ordered_json comparisonToJson(const ComparisonInput& input);

/// Writes reportToJson / comparisonToJson, indented, atomically. Throws model::InputError naming `path` when
/// it cannot be written; a failed write leaves no file.
void writeJsonReport(const ReportInput& input, const std::string& path);
void writeComparisonJson(const ComparisonInput& input, const std::string& path);

} // namespace ctwin::app
