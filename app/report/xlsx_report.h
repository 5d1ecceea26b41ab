#pragma once
#include "report/comparison_input.h"
#include "report/report_input.h"

#include <string>

namespace ctwin::app {

/// Writes the finance report of one design as an Excel workbook (libxlsxwriter; SPEC.md §6), one sheet per
/// section: Summary, Capex, Depreciation, Cash flow, Assumptions, Rules, and Sensitivity / Uncertainty when
/// given. Cells finance will tweak drive live formulas: capex total = SUM of the categories, shares and
/// per-GPU costs divide by it, asset-class capex sums its categories, straight-line depreciation divides by
/// the life cells of the Assumptions sheet, capital recovery uses its WACC cell, the cash flow computes
/// revenue, tax and net = revenue - opex - tax, and NPV / IRR use Excel's NPV and IRR; the Summary links to
/// those cells. Every formula carries the engine's value as its cached result, so viewers that do not
/// recalculate show numbers. A formula is written only where it reproduces the engine's value; otherwise the
/// value is written. Throws model::InputError naming `path` when it cannot be written; a failed write leaves
/// no file.
void writeXlsxReport(const ReportInput& input, const std::string& path);

/// Writes the comparison of several designs as a workbook: "Comparison" (values per design, deltas and
/// percentage deltas against the baseline as formulas), "Capex" (categories by design with SUM totals and a
/// stacked column chart) and "Explanations".
void writeComparisonXlsx(const ComparisonInput& input, const std::string& path);

} // namespace ctwin::app
