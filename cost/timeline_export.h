#pragma once
// The timeline (cost/timeline.h) as the CLI and the reports write it: JSON, CSV (one row per month) and the
// figures of one month as text (`evaluate --at DATE`).
#include "evaluate.h"
#include "timeline.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ctwin::cost {

/// {"build_start", "reference_month", "phases": [...], "months": [...], "summary": {...}}; money in USD,
/// months counted from the build start, dates when the timeline is dated.
nlohmann::ordered_json timelineToJson(const Timeline& t);

/// One month as timelineToJson writes it in "months"; null outside the timeline.
nlohmann::ordered_json timelineMonthToJson(const Timeline& t, int month);

/// The timeline of an evaluation, or model::InputError naming `file` with the Error rules that stopped it.
const Timeline& requireTimeline(const Results& results, const std::string& file);

/// The month of a date (`--at`) on a dated timeline; InputError for a bad date or an undated design.
int timelineMonthAt(const Timeline& t, const std::string& date, const std::string& file);

/// One header line and one line per month (cost/csv_cell.h quoting), the same columns as the JSON months.
std::string timelineToCsv(const Timeline& t);

/// A summary for people: phases with their dates, the dated figures, and one line per year (rates at the
/// year's last month, money summed over its months).
std::string timelineToText(const Timeline& t);

/// The rates and money of the month `month` (a date's month, Timeline::monthOf) as text lines, each naming
/// its basis ("at 2028-07, timeline").
std::string timelineMonthText(const Timeline& t, int month);

} // namespace ctwin::cost
