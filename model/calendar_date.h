#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace ctwin::model {

/// A calendar date of the proleptic Gregorian calendar (ISO 8601 calendar date), as the design's time axis
/// reads it: `project.build_start`, a building's or a hall's `energisation_date`, `--at`.
struct CalendarDate {
    int year = 0;
    int month = 0; ///< 1..12
    int day = 1;   ///< 1..days in the month; 1 when the text gives the month only

    /// Months since year 0 month 1: the time axis is monthly, so two dates are `monthIndex` apart in months
    /// (the day is kept for display and ordering only).
    int monthIndex() const { return year * 12 + (month - 1); }
    /// The date as ISO 8601 text, "YYYY-MM-DD".
    std::string iso() const;
    /// The first day of the month `months` after this one's month.
    CalendarDate plusMonths(int months) const;
    friend bool operator==(const CalendarDate&, const CalendarDate&) = default;
};

/// The earliest and latest years a design's dates may name: wide enough for any plan, narrow enough that
/// month arithmetic over a horizon cannot overflow (a documented bound on every date read from a file).
inline constexpr int kEarliestYear = 1900;
inline constexpr int kLatestYear = 2200;

/// Reads "YYYY-MM-DD" or "YYYY-MM" (ISO 8601 extended calendar date, or its reduced month precision); years
/// kEarliestYear..kLatestYear, a real day of that month (leap years by the Gregorian rule). nullopt for
/// anything else, including surrounding spaces or a time of day.
std::optional<CalendarDate> parseCalendarDate(std::string_view text);

/// Why `text` is not a date, or empty when it is one (or is empty: an absent date). The message says the
/// accepted forms, for the loaders' and the inspector's refusals.
std::string calendarDateProblem(std::string_view text);

/// Whether a text field holds a date: its key ends in "_date" or is "build_start" (the loaders check such
/// fields with calendarDateProblem; data/FORMAT.md §1).
bool isDateField(std::string_view key);

} // namespace ctwin::model
