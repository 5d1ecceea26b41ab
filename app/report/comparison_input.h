#pragma once
#include "evaluate.h"
#include "report_input.h"
#include "scenarios.h"

#include <string>
#include <vector>

namespace ctwin::app {

/// A side-by-side report of 2-6 evaluated designs (SPEC.md §4.9, §6). `results[i]` belongs to
/// `comparison.names[i]`; the pointers must outlive the call that writes the report.
struct ComparisonInput {
    std::vector<const cost::Results*> results;
    /// From cost::compareDesigns over the same results (names, baseline, rows with deltas, explanations).
    cost::Comparison comparison;
    /// Date printed on the report; empty means today.
    std::string date;
    /// Paper of the PDF.
    PaperSize paper = PaperSize::A4;
};

} // namespace ctwin::app
