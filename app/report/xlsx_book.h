#pragma once
// The XLSX writer's shared pieces (app/report/xlsx_report.cpp, xlsx_timeline.cpp): the workbook with its
// formats, A1 references, and cells written as values, formulas, or formulas that stand in for the engine's
// value only when they reproduce it.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>
#include <xlsxwriter.h>

namespace ctwin::app::xlsx {

/// "A".."Z", "AA".. for a 0-based column.
inline std::string columnName(int col) {
    std::string s;
    for (int c = col + 1; c > 0; c = (c - 1) / 26)
        s.insert(s.begin(), static_cast<char>('A' + (c - 1) % 26));
    return s;
}

/// A1-style reference of a 0-based cell, optionally absolute and on another sheet (quoted when needed).
inline std::string cell(int row, int col, bool absolute = false) {
    const std::string d = absolute ? "$" : "";
    return d + columnName(col) + d + std::to_string(row + 1);
}
inline std::string onSheet(const std::string& sheet, const std::string& ref) {
    const bool plain = std::all_of(sheet.begin(), sheet.end(),
                                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
    return (plain ? sheet : "'" + sheet + "'") + "!" + ref;
}

/// True when a formula's own result equals the engine's value (1e-9 relative), so the formula may stand in
/// for it.
inline bool same(double formula, double engine) {
    return std::abs(formula - engine) <= 1e-9 * std::max(1.0, std::max(std::abs(formula), std::abs(engine)));
}

/// Owns a libxlsxwriter workbook and its formats; frees it when an exception leaves it unclosed.
class Book {
public:
    explicit Book(const std::string& path) : m_wb(workbook_new(path.c_str())) {
        if (!m_wb) throw std::runtime_error("cannot create the workbook");
        header = workbook_add_format(m_wb);
        format_set_bold(header);
        format_set_bg_color(header, 0x2E3B4E);
        format_set_font_color(header, LXW_COLOR_WHITE);
        format_set_text_wrap(header);
        format_set_align(header, LXW_ALIGN_VERTICAL_TOP);
        title = workbook_add_format(m_wb);
        format_set_bold(title);
        format_set_font_size(title, 13);
        bold = workbook_add_format(m_wb);
        format_set_bold(bold);
        wrap = workbook_add_format(m_wb);
        format_set_text_wrap(wrap);
        format_set_align(wrap, LXW_ALIGN_VERTICAL_TOP);
        usd = number("#,##0");
        usdTotal = number("#,##0", true);
        cents = number("#,##0.00");
        percent = number("0.0%");
        percentTotal = number("0.0%", true);
        decimal = number("#,##0.00##");
        general = number("General");
        // Inputs in blue: the usual financial-modelling convention that tells typed-in values from formulas.
        input = number("General");
        format_set_font_color(input, 0x0000FF);
        inputUsd = number("#,##0");
        format_set_font_color(inputUsd, 0x0000FF);
    }
    ~Book() {
        if (m_wb) lxw_workbook_free(m_wb);
    }
    Book(const Book&) = delete;
    Book& operator=(const Book&) = delete;

    lxw_worksheet* sheet(const std::string& name) { return workbook_add_worksheet(m_wb, name.c_str()); }
    lxw_chart* chart(uint8_t type) { return workbook_add_chart(m_wb, type); }
    /// Writes the file; returns libxlsxwriter's message on failure.
    std::optional<std::string> close() {
        const lxw_error err = workbook_close(m_wb);
        m_wb = nullptr;
        if (err != LXW_NO_ERROR) return std::string(lxw_strerror(err));
        return std::nullopt;
    }

    lxw_format *header, *title, *bold, *wrap, *usd, *usdTotal, *cents, *percent, *percentTotal, *decimal,
        *general, *input, *inputUsd;

private:
    lxw_format* number(const char* fmt, bool isBold = false) {
        lxw_format* f = workbook_add_format(m_wb);
        format_set_num_format(f, fmt);
        if (isBold) format_set_bold(f);
        return f;
    }
    lxw_workbook* m_wb;
};

inline void text(lxw_worksheet* ws, int row, int col, const std::string& s, lxw_format* f = nullptr) {
    worksheet_write_string(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col), s.c_str(), f);
}
inline void number(lxw_worksheet* ws, int row, int col, double v, lxw_format* f) {
    worksheet_write_number(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col),
                           std::isfinite(v) ? v : 0.0, f);
}
/// A formula with its computed value as the cached result.
inline void formula(lxw_worksheet* ws, int row, int col, const std::string& f, double value,
                    lxw_format* fmt) {
    worksheet_write_formula_num(ws, static_cast<lxw_row_t>(row), static_cast<lxw_col_t>(col), f.c_str(), fmt,
                                std::isfinite(value) ? value : 0.0);
}
/// The formula when it reproduces the engine's value, else the engine's value.
inline void live(lxw_worksheet* ws, int row, int col, const std::string& f, double formulaValue,
                 double engineValue, lxw_format* fmt) {
    if (same(formulaValue, engineValue))
        formula(ws, row, col, f, engineValue, fmt);
    else
        number(ws, row, col, engineValue, fmt);
}
inline void headerRow(Book& b, lxw_worksheet* ws, int row, const std::vector<std::string>& titles) {
    for (size_t c = 0; c < titles.size(); ++c)
        text(ws, row, static_cast<int>(c), titles[c], b.header);
}
inline void columnWidth(lxw_worksheet* ws, int first, int last, double width, lxw_format* f = nullptr) {
    worksheet_set_column(ws, static_cast<lxw_col_t>(first), static_cast<lxw_col_t>(last), width, f);
}

} // namespace ctwin::app::xlsx
