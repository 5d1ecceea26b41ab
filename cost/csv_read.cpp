#include "csv_read.h"

namespace ctwin::cost {

namespace {

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string::npos) return {};
    return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

} // namespace

std::vector<CsvRecord> readCsv(const std::string& text, char commentChar, std::size_t maxRecords,
                               std::optional<CsvSyntaxError>& error) {
    std::vector<CsvRecord> out;
    error.reset();
    std::size_t i = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0, line = 1;
    const std::size_t n = text.size();
    const auto fail = [&](std::size_t at, const char* problem, bool tooMany = false) {
        error = CsvSyntaxError{at, problem, tooMany};
        return std::vector<CsvRecord>{};
    };
    while (i < n) {
        // A record starts here: skip blank and comment lines.
        if (text[i] == '\n' || (text[i] == '\r' && i + 1 < n && text[i + 1] == '\n')) {
            i += text[i] == '\r' ? 2 : 1;
            ++line;
            continue;
        }
        if (commentChar) {
            std::size_t j = i;
            while (j < n && (text[j] == ' ' || text[j] == '\t'))
                ++j;
            if (j < n && text[j] == commentChar) {
                while (i < n && text[i] != '\n')
                    ++i;
                continue;
            }
        }
        CsvRecord rec;
        rec.line = line;
        bool blank = true;
        for (bool more = true; more;) {
            std::string field;
            // Leading spaces before an opening quote are allowed (and dropped), as spreadsheets tolerate.
            std::size_t j = i;
            while (j < n && (text[j] == ' ' || text[j] == '\t'))
                ++j;
            if (j < n && text[j] == '"') {
                const std::size_t opened = line;
                for (i = j + 1;; ++i) {
                    if (i >= n) return fail(opened, "a quoted field is not closed");
                    if (text[i] == '"') {
                        if (i + 1 < n && text[i + 1] == '"') {
                            field += '"';
                            ++i;
                            continue;
                        }
                        ++i;
                        break;
                    }
                    if (text[i] == '\n') ++line;
                    field += text[i];
                }
                while (i < n && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
                    ++i;
                if (i < n && text[i] != ',' && text[i] != '\n')
                    return fail(line, "text after a closing quote (a quote inside a field is written \"\")");
                blank = false;
            } else {
                while (i < n && text[i] != ',' && text[i] != '\n') {
                    if (text[i] == '"')
                        return fail(line, "a quote inside an unquoted field (quote the whole field)");
                    field += text[i++];
                }
                if (!field.empty() && field.back() == '\r') field.pop_back();
                field = trimmed(field);
                if (!field.empty()) blank = false;
            }
            rec.fields.push_back(std::move(field));
            if (i < n && text[i] == ',') {
                ++i;
                blank = false;
            } else {
                more = false;
                if (i < n) ++i, ++line; // the '\n'
            }
        }
        if (blank) continue;
        if (out.size() == maxRecords) return fail(rec.line, "more records than the file may hold", true);
        out.push_back(std::move(rec));
    }
    return out;
}

} // namespace ctwin::cost
