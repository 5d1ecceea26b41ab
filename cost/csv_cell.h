#pragma once
// The one CSV cell writer: every CSV file ClusterTwin writes (the report tables, `explore --csv`,
// `sweep --csv`) goes through csvField, so quoting and the formula-injection rule live in one place.
#include <cstdint>
#include <string>
#include <vector>

namespace ctwin::cost {

/// One CSV cell as it was made: a number (written as it is, never altered) or text (quoted per RFC 4180 and
/// neutralised against formula injection; see csvField). The kind comes from whoever produced the value,
/// not from looking at the text: a design named "-3.5" is text and is neutralised, a figure of -3.5 is a
/// number and stays -3.5.
class CsvCell {
public:
    /// Text cells (implicit, so a line can be written as {"key", CsvCell::number(v), unit}).
    CsvCell(std::string text) : m_text(std::move(text)) {}
    CsvCell(const char* text) : m_text(text) {}
    /// A number in the shortest form that reads back to the same double (std::to_chars, C++17
    /// [charconv]); "inf", "-inf" and "nan" for non-finite values (callers that want 0 pass 0).
    static CsvCell number(double value);
    /// A whole number in decimal digits (a year, a point index): std::to_chars of a double would write
    /// 10^15 as 1e+15.
    static CsvCell wholeNumber(std::uint64_t value);

    bool isNumber() const { return m_number; }
    const std::string& text() const { return m_text; }

private:
    std::string m_text;
    bool m_number = false;
};

/// The cell as it goes into the file: see csv_cell.cpp for the rule.
std::string csvField(const CsvCell& cell);

/// The cells joined by ',' and ended by '\n' (LF rather than RFC 4180's CRLF: Unix pipelines such as cut
/// and awk keep no stray '\r').
std::string csvLine(const std::vector<CsvCell>& cells);

} // namespace ctwin::cost
