#pragma once
#include "report/comparison_input.h"
#include "report/report_input.h"

#include <string>

namespace ctwin::app {

/// Writes the finance report of one design as a PDF (A4, 300 dpi; SPEC.md §6): title page with contents,
/// executive summary, capex by category with a chart, depreciation schedules by asset class, yearly cash
/// flow with a chart, TCO and unit costs, goodput and reliability, design rules, assumptions with sources
/// and ranges, sensitivity (tornado) and uncertainty when given, and every figure with its provenance.
///
/// Painting text needs a QGuiApplication (fonts): the caller must have created one; headless programs
/// (the CLI, tests) run it with QT_QPA_PLATFORM=offscreen. Throws std::logic_error without one, and
/// std::invalid_argument when `input.project` or `input.results` is null.
/// Throws model::InputError naming `path` when it cannot be written; a failed write leaves no file.
void writePdfReport(const ReportInput& input, const std::string& path);

/// Writes the comparison of several designs as a PDF: figures side by side with deltas against the
/// baseline (best and worst marked), what drives the big deltas, capex by category as stacked columns.
/// Same requirements and errors as writePdfReport.
void writeComparisonPdf(const ComparisonInput& input, const std::string& path);

} // namespace ctwin::app
