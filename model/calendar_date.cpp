#include "calendar_date.h"

#include <cstdio>

namespace ctwin::model {

namespace {

bool leapYear(int y) {
    // Gregorian rule: every fourth year, except centuries not divisible by 400.
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int daysInMonth(int y, int m) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leapYear(y) ? 29 : kDays[m - 1];
}

// Exactly `n` ASCII digits at `s` (no sign, no spaces): their value, or -1.
int digits(std::string_view s, std::size_t at, std::size_t n) {
    if (s.size() < at + n) return -1;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

} // namespace

std::string CalendarDate::iso() const {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
    return buf;
}

CalendarDate CalendarDate::plusMonths(int months) const {
    const int index = monthIndex() + months;
    return CalendarDate{index / 12, index % 12 + 1, 1};
}

std::optional<CalendarDate> parseCalendarDate(std::string_view text) {
    if (text.size() != 7 && text.size() != 10) return std::nullopt;
    const int y = digits(text, 0, 4);
    const int m = digits(text, 5, 2);
    if (y < 0 || m < 0 || text[4] != '-') return std::nullopt;
    int d = 1;
    if (text.size() == 10) {
        if (text[7] != '-') return std::nullopt;
        d = digits(text, 8, 2);
    }
    if (y < kEarliestYear || y > kLatestYear || m < 1 || m > 12) return std::nullopt;
    if (d < 1 || d > daysInMonth(y, m)) return std::nullopt;
    return CalendarDate{y, m, d};
}

std::string calendarDateProblem(std::string_view text) {
    if (text.empty() || parseCalendarDate(text)) return {};
    return "'" + std::string(text.substr(0, 40)) + (text.size() > 40 ? "..." : "") +
           "' is not a date: write YYYY-MM-DD or YYYY-MM (ISO 8601), a real day, years " +
           std::to_string(kEarliestYear) + "-" + std::to_string(kLatestYear);
}

bool isDateField(std::string_view key) {
    constexpr std::string_view suffix = "_date";
    return key == "build_start" ||
           (key.size() > suffix.size() && key.substr(key.size() - suffix.size()) == suffix);
}

} // namespace ctwin::model
