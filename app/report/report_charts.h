#pragma once
#include "report/comparison_input.h"
#include "report/report_input.h"

#include <QRectF>
#include <QString>
#include <functional>
#include <string>
#include <vector>

class QPainter;

namespace ctwin::app {

/// A chart of a finance report (SPEC.md §6), painted with QPainter in millimetre-based units (pdf_charts.h),
/// so the same chart goes into the PDF page and out as PNG and SVG files.
struct ReportChart {
    std::string name; ///< file stem: "capex_by_category", "cash_flow", "sensitivity"
    QString title;
    /// Height on the report page; every chart takes the page's content width (PdfLayout::kContentWidthMm).
    double heightMm = 0;
    std::function<void(QPainter&, const QRectF&)> paint;
};

/// The charts of one design's report: capex by category, yearly cash flow and, when the input has a
/// tornado, the sensitivity of its output (at most kMaxTornadoBars bars, widest first).
std::vector<ReportChart> reportCharts(const ReportInput& input);
/// The charts of a comparison report: capex by category stacked per design.
std::vector<ReportChart> comparisonCharts(const ComparisonInput& input);
inline constexpr size_t kMaxTornadoBars = 15;

/// Writes each chart as NAME.png (300 dpi, white background) and NAME.svg into `directory`, at the size it
/// has on the report page, created when
/// missing; all files or none (AtomicDirectory). Needs a QGuiApplication (fonts). Throws model::InputError
/// naming the directory or file when it cannot be written.
void writeCharts(const std::vector<ReportChart>& charts, const std::string& directory);

} // namespace ctwin::app
