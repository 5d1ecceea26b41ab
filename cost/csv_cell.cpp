#include "csv_cell.h"

#include <charconv>
#include <string_view>

namespace ctwin::cost {

CsvCell CsvCell::number(double value) {
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, value);
    CsvCell cell(std::string(buf, res.ptr));
    cell.m_number = true;
    return cell;
}

CsvCell CsvCell::wholeNumber(std::uint64_t value) {
    CsvCell cell(std::to_string(value));
    cell.m_number = true;
    return cell;
}

/// The rule, in one place:
///  - a number is written as it is (no quotes, never altered: -3.5 stays -3.5);
///  - text beginning with '=', '+', '-', '@', TAB (0x09) or CR (0x0d) is neutralised as OWASP's "CSV
///    Injection" page advises (https://owasp.org/www-community/attacks/CSV_Injection): a single quote is
///    put before it and the cell is quoted, so Excel, LibreOffice and Google Sheets show the text instead of
///    evaluating `=HYPERLINK(...)` or `+cmd|' /C calc'!A0` as a formula (the quote shows in the cell; that is
///    the price of the rule, which also applies to text such as "-3.5" that only looks like a number);
///  - any other text is quoted only when it holds a comma, a quote or a line break (RFC 4180 §2), a quote
///    inside doubled.
std::string csvField(const CsvCell& cell) {
    const std::string& s = cell.text();
    if (cell.isNumber()) return s;
    constexpr std::string_view kFormulaStart = "=+-@\t\r";
    const bool formula = !s.empty() && kFormulaStart.find(s.front()) != std::string_view::npos;
    if (!formula && s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = formula ? "\"'" : "\"";
    for (char c : s) {
        out += c;
        if (c == '"') out += '"';
    }
    return out + '"';
}

std::string csvLine(const std::vector<CsvCell>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i) line += ',';
        line += csvField(cells[i]);
    }
    return line + '\n';
}

} // namespace ctwin::cost
