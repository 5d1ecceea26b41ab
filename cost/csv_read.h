#pragma once
// Reading CSV as RFC 4180 defines it (and spreadsheets write it): fields separated by commas, a field in
// double quotes may hold commas, line breaks and quotes (doubled: ""), records end at LF or CRLF. The
// counterpart of csv_cell.h's writer, for the files users bring (calibrate's measured points).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

/// One record and the line it starts on (1-based; a quoted line break makes a record span lines).
struct CsvRecord {
    std::size_t line = 0;
    std::vector<std::string> fields;
};

/// A record that cannot be read: the line, and what is wrong.
struct CsvSyntaxError {
    std::size_t line = 0;
    std::string problem;
    bool tooManyRecords = false; // the file holds more than maxRecords records
};

/// Splits `text` into records. A UTF-8 byte-order mark at the start is skipped (spreadsheets' "CSV UTF-8"
/// writes one). Unquoted fields are trimmed of spaces and tabs; quoted ones are kept as quoted. Blank
/// lines give no record; a line whose first character other than spaces is `commentChar` (when not 0) is
/// skipped. At most
/// `maxRecords` records are read (the caller's documented bound): one more is an error. Errors: a quote
/// inside an unquoted field, text after a closing quote, a quoted field still open at the end.
std::vector<CsvRecord> readCsv(const std::string& text, char commentChar, std::size_t maxRecords,
                               std::optional<CsvSyntaxError>& error);

} // namespace ctwin::cost
