#pragma once
#include "assumption.h"
#include "evaluate.h"
#include "project.h"
#include "scenarios.h"

#include <map>
#include <optional>
#include <string>

namespace ctwin::app {

/// Paper of the PDF report (`report --page-size a4|letter`): ISO 216 A4, 210 x 297 mm, or US Letter,
/// 8.5 x 11 in (215.9 x 279.4 mm). The content keeps its 174 mm width on both.
enum class PaperSize { A4, Letter };

/// Everything a finance report of one design prints (SPEC.md §6). The pointers must outlive the call that
/// writes the report.
struct ReportInput {
    const model::Project* project = nullptr;
    const cost::Results* results = nullptr;
    /// The merged assumptions the results were computed with (defaults + the design's overrides), with
    /// their sources and low/high ranges; `project->assumptions` tells which ones the design overrides.
    model::AssumptionSet assumptions;
    /// One-at-a-time sensitivity of one output (cost::tornado); a "Sensitivity" section when given.
    std::optional<cost::Tornado> tornado;
    /// P10/P50/P90 by figure key (cost::uncertainty); an "Uncertainty" table when given.
    std::optional<std::map<std::string, cost::Percentiles>> uncertainty;
    /// Date printed on the report (e.g. "2025-01-31"); empty means today. Fixed dates give reproducible
    /// files.
    std::string date;
    /// Paper of the PDF.
    PaperSize paper = PaperSize::A4;
};

} // namespace ctwin::app
