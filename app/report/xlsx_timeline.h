#pragma once
#include "report/xlsx_book.h"

#include <string>

namespace ctwin::cost {
struct Timeline;
}

namespace ctwin::app::xlsx {

/// The monthly Timeline sheet (cost/timeline.h): one row per month with the energised MW, GPUs
/// earning, the capex by timing, revenue, opex, tax and terminal value as values, and the cash flow, its
/// running sum and its present value as live formulas; the NPV and peak funding above them as formulas that
/// recalculate to the engine's figures. `waccRef` is the WACC's cell (the Assumptions sheet), `wacc` its
/// value.
void writeTimelineSheet(Book& book, lxw_worksheet* ws, const cost::Timeline& t, const std::string& waccRef,
                        double wacc);

} // namespace ctwin::app::xlsx
