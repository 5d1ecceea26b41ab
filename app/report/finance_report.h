#pragma once
#include "report/comparison_input.h"
#include "report/csv_report.h"
#include "report/json_report.h"
#include "report/pdf_report.h"
#include "report/report_format.h"
#include "report/report_input.h"
#include "report/xlsx_report.h"

#include <optional>
#include <string>
#include <string_view>

namespace ctwin::app {

/// The finance report formats of SPEC.md §6. The entry points below dispatch to writePdfReport,
/// writeXlsxReport, writeCsvReport and writeJsonReport (and their comparison variants); see those for what
/// each file holds. PDF needs a QGuiApplication (QT_QPA_PLATFORM=offscreen when headless); the other formats
/// need no Qt application at all.
/// Charts: the report's charts as PNG and SVG files in a directory (report_charts.h); needs a QGuiApplication
/// like PDF.
enum class ReportFormat { Pdf, Xlsx, Csv, Json, Charts };

/// "pdf", "xlsx", "csv", "json", "charts" (case-insensitive); nullopt for anything else.
std::optional<ReportFormat> reportFormatFromName(std::string_view name);
/// The format an output path implies: .pdf, .xlsx, .json; anything else (a directory) is CSV (charts are
/// only ever asked for by name).
ReportFormat reportFormatForPath(const std::string& path);
const char* reportFormatName(ReportFormat format);

/// Writes the report of one design. `path` is a file, or for CSV a directory. Throws model::InputError
/// naming the path when it cannot be written (nothing is left behind then).
void writeReport(const ReportInput& input, ReportFormat format, const std::string& path);
/// Writes the comparison of several designs in `format`.
void writeComparisonReport(const ComparisonInput& input, ReportFormat format, const std::string& path);

} // namespace ctwin::app
