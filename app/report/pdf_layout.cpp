#include "report/pdf_layout.h"

#include <QFontMetricsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <algorithm>
#include <numeric>

namespace ctwin::app {

namespace {
// Page geometry in millimetres: A4 (ISO 216, 210 x 297 mm) with 18 mm side and top margins and the footer
// in the bottom 20 mm.
constexpr double kMarginMm = PdfLayout::kMarginMm;
constexpr double kBottomMm = 20.0;
constexpr double kFooterMm = 12.0;
constexpr int kResolutionDpi = 300;
// Tables up to this share of a page's content height are never split.
constexpr double kKeepTogetherShare = 0.45;

const QColor kInk(0x1f, 0x29, 0x37);
const QColor kMuted(0x6b, 0x72, 0x80);
const QColor kAccent(0x1d, 0x4e, 0x89);
const QColor kHeaderFill(0x2e, 0x3b, 0x4e);
const QColor kZebra(0xf2, 0xf4, 0xf7);
const QColor kRule(0xc8, 0xcd, 0xd4);

int alignFlag(PdfLayout::Align a) {
    switch (a) {
    case PdfLayout::Align::Right:
        return Qt::AlignRight;
    case PdfLayout::Align::Center:
        return Qt::AlignHCenter;
    case PdfLayout::Align::Left:
        break;
    }
    return Qt::AlignLeft;
}
} // namespace

PdfLayout::PdfLayout(QPdfWriter& writer, bool letter) : m_writer(writer) {
    m_writer.setResolution(kResolutionDpi);
    m_writer.setPageSize(QPageSize(letter ? QPageSize::Letter : QPageSize::A4));
    m_writer.setPageMargins(QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter);
    m_pxPerMm = kResolutionDpi / 25.4;
    // US Letter is 8.5 x 11 in = 215.9 x 279.4 mm (ANSI/ASME Y14.1); A4 is 210 x 297 mm (ISO 216).
    const double widthMm = letter ? 215.9 : kPageWidthMm;
    m_pageWidth = mm(widthMm);
    m_pageHeight = mm(letter ? 279.4 : 297.0);
    m_left = mm((widthMm - kContentWidthMm) / 2);
    m_top = mm(kMarginMm);
    m_bottom = m_pageHeight - mm(kBottomMm);
    m_y = m_top;
    m_pages.emplace_back();
}

double PdfLayout::mm(double millimetres) const {
    return millimetres * m_pxPerMm;
}

double PdfLayout::contentWidth() const {
    return m_pageWidth - 2 * m_left;
}

QFont PdfLayout::font(double pointSize, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setStyleHint(QFont::SansSerif);
    // No shaping: ligatures ("fi", "fl") would reach the PDF as single glyphs that text extraction and search
    // read as U+FB01/U+FB02, so "cash flow" would not be found.
    f.setStyleStrategy(QFont::PreferNoShaping);
    f.setPointSizeF(pointSize);
    f.setBold(bold);
    return f;
}

double PdfLayout::textHeight(const QString& text, const QFont& font, double width, int flags) const {
    const QFontMetricsF fm(font, &m_writer);
    return fm.boundingRect(QRectF(0, 0, width, 1e7), flags, text).height();
}

void PdfLayout::addOp(Op op) {
    m_pages.back().push_back(std::move(op));
}

void PdfLayout::newPage() {
    // What waits for the next block (a heading and its paragraph) stays on this page when it fits: a
    // page break asked for after it must not leave this page empty behind it.
    if (!m_pending.empty()) {
        double pending = 0;
        for (const auto& p : m_pending)
            pending += p.height;
        if (m_y + pending <= m_bottom || m_y <= m_top + 1.0) flushPending();
    }
    startPage();
}

void PdfLayout::startPage() {
    m_pages.emplace_back();
    m_y = m_top;
}

void PdfLayout::reserve(double height) {
    double pending = 0;
    for (const auto& p : m_pending)
        pending += p.height;
    if (m_y + pending + height > m_bottom && m_y > m_top + 1.0) startPage(); // what waits goes along
    flushPending();
}

void PdfLayout::flushPending() {
    for (const auto& p : m_pending) {
        p.place(m_y);
        m_y += p.height;
    }
    m_pending.clear();
}

void PdfLayout::space(double millimetres) {
    if (m_y > m_top + 1.0) m_y = std::min(m_y + mm(millimetres), m_bottom);
}

void PdfLayout::text(const QString& text, const QFont& font, const QColor& color, double spaceAfterMm,
                     Align align) {
    const int flags = Qt::TextWordWrap | alignFlag(align) | Qt::AlignTop;
    const double h = textHeight(text, font, contentWidth(), flags);
    // Under a heading, a paragraph keeps with what follows it too: heading and paragraph alone at the foot
    // of a page, their table on the next, read as a stranded heading. It waits with the heading
    // and goes wherever the next block goes.
    if (!m_pending.empty() && h < 0.3 * (m_bottom - m_top)) {
        m_pending.push_back({h + mm(spaceAfterMm), [=, this](double y) {
                                 const QRectF rect(m_left, y, contentWidth(), h);
                                 addOp([=](QPainter& p) {
                                     p.setFont(font);
                                     p.setPen(color);
                                     p.drawText(rect, flags, text);
                                 });
                             }});
        return;
    }
    reserve(h);
    const QRectF rect(m_left, m_y, contentWidth(), h);
    addOp([=](QPainter& p) {
        p.setFont(font);
        p.setPen(color);
        p.drawText(rect, flags, text);
    });
    m_y += h + mm(spaceAfterMm);
}

void PdfLayout::paragraph(const QString& t) {
    text(t, font(9.0), kInk, 2.5);
}

void PdfLayout::heading(const QString& t, double minRoomMm) {
    // A new section: what the last one left waiting (its heading and paragraph with no block after them)
    // is placed first.
    if (!m_pending.empty()) reserve(0.0);
    // A section starts on a new page when little of this one is left: better than a heading with a few
    // lines under it at the foot of a page.
    if (m_pending.empty() && m_y > m_top + 1.0 && m_bottom - m_y < mm(minRoomMm)) newPage();
    const QFont f = font(15.0, true);
    const int flags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;
    const double before = mm(3.0), h = textHeight(t, f, contentWidth(), flags), after = mm(4.0);
    m_pending.push_back({before + h + after, [=, this](double y) {
                             const bool atTop = y <= m_top + 1.0;
                             const QRectF rect(m_left, atTop ? y : y + before, contentWidth(), h);
                             m_headingPages.emplace(t, pageCount());
                             const double rule = mm(0.35), below = rect.bottom() + mm(1.2), length = mm(30);
                             addOp([=](QPainter& p) {
                                 p.setFont(f);
                                 p.setPen(kAccent);
                                 p.drawText(rect, flags, t);
                                 p.setPen(QPen(kAccent, rule));
                                 p.drawLine(QPointF(rect.left(), below),
                                            QPointF(rect.left() + length, below));
                             });
                         }});
}

void PdfLayout::subheading(const QString& t) {
    // As heading(), on a smaller scale: a subheading near the foot of a page goes to the next one with its
    // content rather than stand alone there.
    if (m_pending.empty() && m_y > m_top + 1.0 && m_bottom - m_y < mm(35.0)) newPage();
    const QFont f = font(10.5, true);
    const int flags = Qt::TextWordWrap | Qt::AlignLeft | Qt::AlignTop;
    const double before = mm(2.0), h = textHeight(t, f, contentWidth(), flags), after = mm(2.0);
    m_pending.push_back({before + h + after, [=, this](double y) {
                             const bool atTop = y <= m_top + 1.0;
                             const QRectF rect(m_left, atTop ? y : y + before, contentWidth(), h);
                             addOp([=](QPainter& p) {
                                 p.setFont(f);
                                 p.setPen(kInk);
                                 p.drawText(rect, flags, t);
                             });
                         }});
}

namespace {
/// Breaks words wider than `width` after '_', '/' or '-' (identifiers such as assumption keys and units)
/// with explicit line breaks, so that they wrap at a readable place instead of anywhere.
QString breakLongWords(const QString& text, const QFontMetricsF& fm, double width) {
    QStringList lines;
    for (const QString& line : text.split('\n')) {
        QStringList words;
        for (const QString& word : line.split(' ')) {
            if (fm.horizontalAdvance(word) <= width) {
                words << word;
                continue;
            }
            QString current, out;
            int lastBreak = -1; // index in `current` after which a break may go
            for (const QChar c : word) {
                current += c;
                if (c == '_' || c == '/' || c == '-') lastBreak = static_cast<int>(current.size());
                if (fm.horizontalAdvance(current) > width && lastBreak > 0 && lastBreak < current.size()) {
                    out += current.left(lastBreak) + '\n';
                    current = current.mid(lastBreak);
                    lastBreak = -1;
                }
            }
            words << out + current;
        }
        lines << words.join(' ');
    }
    return lines.join('\n');
}

/// Word wrap, or wrap anywhere when one word alone is still wider than the cell.
int cellFlags(const QString& text, const QFontMetricsF& fm, double width, PdfLayout::Align align) {
    int wrap = Qt::TextWordWrap;
    // Compiled once: a QRegularExpression built per call was JIT-compiled per table cell (a third of the
    // PDF writer's instructions on the 14K-rack campus).
    static const QRegularExpression kWhitespace(QStringLiteral("\\s+"));
    for (const QString& word : text.split(kWhitespace, Qt::SkipEmptyParts))
        if (fm.horizontalAdvance(word) > width) wrap = Qt::TextWrapAnywhere;
    return wrap | alignFlag(align) | Qt::AlignTop;
}
} // namespace

void PdfLayout::tableHeader(const Table& t, const std::vector<double>& widths, double height, double pt) {
    if (!t.header) return;
    const QFont f = font(pt, true);
    const QFontMetricsF fm(f, &m_writer);
    const double pad = mm(1.2), vpad = mm(0.9);
    double x = m_left;
    std::vector<std::pair<QRectF, std::pair<int, QString>>> cells;
    for (size_t c = 0; c < t.columns.size(); ++c) {
        const QRectF r(x + pad, m_y + vpad, widths[c] - 2 * pad, height - 2 * vpad);
        const QString title = breakLongWords(t.columns[c].title, fm, r.width());
        cells.push_back({r, {cellFlags(title, fm, r.width(), t.columns[c].align), title}});
        x += widths[c];
    }
    const QRectF band(m_left, m_y, contentWidth(), height);
    addOp([=](QPainter& p) {
        p.fillRect(band, kHeaderFill);
        p.setFont(f);
        p.setPen(Qt::white);
        for (const auto& [rect, content] : cells)
            p.drawText(rect, content.first, content.second);
    });
}

std::vector<double> PdfLayout::columnMinima(const Table& t, double pt) const {
    // What must not wrap: every word of a header (a title broken mid-word read "Joules pe r output t oken")
    // and every right-aligned or centred cell whole (figures: a number never wraps); a left-aligned text
    // cell only its longest word, and only up to 40 % of the width (a long identifier still wraps).
    const QFontMetricsF bodyMetrics(font(pt), &m_writer), boldMetrics(font(pt, true), &m_writer);
    static const QRegularExpression kSpace(QStringLiteral("\\s+"));
    const double pad = mm(1.2), cap = 0.4 * contentWidth();
    std::vector<double> minima(t.columns.size(), 0.0);
    const auto longestWord = [&](const QString& text, const QFontMetricsF& fm) {
        double w = 0;
        for (const QString& word : text.split(kSpace, Qt::SkipEmptyParts))
            w = std::max(w, fm.horizontalAdvance(word));
        return w;
    };
    const auto widest = [&](const QString& text, const QFontMetricsF& fm) {
        double w = 0;
        for (const QString& line : text.split(QLatin1Char('\n')))
            w = std::max(w, fm.horizontalAdvance(line));
        return w;
    };
    for (size_t c = 0; c < t.columns.size(); ++c) {
        if (t.header) minima[c] = longestWord(t.columns[c].title, boldMetrics);
        const bool figure = t.columns[c].align != Align::Left;
        for (const auto& row : t.rows) {
            if (c >= static_cast<size_t>(row.cells.size())) continue;
            const QString& cell = row.cells[static_cast<int>(c)];
            const QFontMetricsF& fm = row.total ? boldMetrics : bodyMetrics;
            minima[c] = std::max(minima[c], figure ? widest(cell, fm) : std::min(cap, longestWord(cell, fm)));
        }
        minima[c] += 2 * pad + 1.0;
    }
    return minima;
}

void PdfLayout::table(const Table& t) {
    if (t.columns.empty()) return;
    const double pad = mm(1.2), vpad = mm(0.9);
    const double weights = std::accumulate(t.columns.begin(), t.columns.end(), 0.0,
                                           [](double s, const Column& c) { return s + c.weight; });
    // The table's font: its own size, or down to 6.5 pt in half points until the columns' minima fit.
    double pt = t.fontPt;
    std::vector<double> minima = columnMinima(t, pt);
    const auto sum = [](const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
    while (sum(minima) > contentWidth() && pt > 6.5 + 1e-9) {
        pt -= 0.5;
        minima = columnMinima(t, pt);
    }
    // Widths by weight, then each column raised to its minimum, the room taken from the columns with
    // slack in proportion to it (issue 36: headers broken mid-word, numbers wrapped).
    std::vector<double> widths;
    for (const auto& c : t.columns)
        widths.push_back(contentWidth() * c.weight / weights);
    if (sum(minima) <= contentWidth()) {
        for (int pass = 0; pass < 8; ++pass) {
            double deficit = 0, slack = 0;
            for (size_t c = 0; c < widths.size(); ++c) {
                if (widths[c] < minima[c])
                    deficit += minima[c] - widths[c], widths[c] = minima[c];
                else
                    slack += widths[c] - minima[c];
            }
            if (deficit <= 0 || slack <= 0) break;
            const double take = std::min(1.0, deficit / slack);
            for (size_t c = 0; c < widths.size(); ++c)
                if (widths[c] > minima[c]) widths[c] -= (widths[c] - minima[c]) * take;
        }
    }
    const QFont body = font(pt), bold = font(pt, true);
    const QFontMetricsF bodyMetrics(body, &m_writer), boldMetrics(bold, &m_writer);

    auto heightOf = [&](const QString& raw, bool isBold, size_t c) {
        const auto& fm = isBold ? boldMetrics : bodyMetrics;
        const double w = widths[c] - 2 * pad;
        const QString s = breakLongWords(raw, fm, w);
        return fm.boundingRect(QRectF(0, 0, w, 1e7), cellFlags(s, fm, w, t.columns[c].align), s).height() +
               2 * vpad;
    };
    double headerHeight = 0;
    if (t.header)
        for (size_t c = 0; c < t.columns.size(); ++c)
            headerHeight = std::max(headerHeight, heightOf(t.columns[c].title, true, c));
    std::vector<double> rowHeights;
    for (const auto& row : t.rows) {
        double h = bodyMetrics.height() + 2 * vpad;
        for (size_t c = 0; c < t.columns.size() && c < static_cast<size_t>(row.cells.size()); ++c)
            h = std::max(h, heightOf(row.cells[static_cast<int>(c)], row.total, c));
        rowHeights.push_back(h);
    }

    // A short table moves whole to the next page rather than leave a few rows behind; a long one only keeps
    // its header with the first row.
    const double whole = headerHeight + std::accumulate(rowHeights.begin(), rowHeights.end(), 0.0);
    const bool keepTogether = whole <= kKeepTogetherShare * (m_bottom - m_top);
    reserve(keepTogether ? whole : headerHeight + (rowHeights.empty() ? 0.0 : rowHeights.front()));
    tableHeader(t, widths, headerHeight, pt);
    m_y += headerHeight;
    for (size_t i = 0; i < t.rows.size(); ++i) {
        const auto& row = t.rows[i];
        const double h = rowHeights[i];
        if (m_y + h > m_bottom) {
            newPage();
            tableHeader(t, widths, headerHeight, pt);
            m_y += headerHeight;
        }
        const QFont& f = row.total ? bold : body;
        const auto& fm = row.total ? boldMetrics : bodyMetrics;
        struct Cell {
            QRectF back, text;
            int flags;
            QString content;
            QColor fill;
        };
        std::vector<Cell> cells;
        double x = m_left;
        for (size_t c = 0; c < t.columns.size(); ++c) {
            const QRectF text(x + pad, m_y + vpad, widths[c] - 2 * pad, h - 2 * vpad);
            const QString s = breakLongWords(
                c < static_cast<size_t>(row.cells.size()) ? row.cells[static_cast<int>(c)] : QString(), fm,
                text.width());
            QColor fill = c < row.fills.size() ? row.fills[c] : QColor();
            cells.push_back({QRectF(x, m_y, widths[c], h), text,
                             cellFlags(s, fm, text.width(), t.columns[c].align), s, fill});
            x += widths[c];
        }
        const QRectF band(m_left, m_y, contentWidth(), h);
        const bool zebra = i % 2 == 1, total = row.total;
        const double ruleWidth = mm(total ? 0.3 : 0.1);
        addOp([=](QPainter& p) {
            if (zebra) p.fillRect(band, kZebra);
            for (const auto& cell : cells)
                if (cell.fill.isValid()) p.fillRect(cell.back, cell.fill);
            p.setPen(QPen(total ? kInk : kRule, ruleWidth));
            p.drawLine(total ? band.topLeft() : band.bottomLeft(),
                       total ? band.topRight() : band.bottomRight());
            p.setFont(f);
            p.setPen(kInk);
            for (const auto& cell : cells)
                p.drawText(cell.text, cell.flags, cell.content);
        });
        m_y += h;
    }
    m_y += mm(4.0);
}

void PdfLayout::block(double heightMm, BlockPainter painter) {
    const double h = mm(heightMm);
    reserve(h);
    const QRectF rect(m_left, m_y, contentWidth(), h);
    addOp([rect, painter = std::move(painter)](QPainter& p) {
        p.save();
        painter(p, rect);
        p.restore();
    });
    m_y += h + mm(4.0);
}

void PdfLayout::contents(const QStringList& titles) {
    const QFont f = font(10.0);
    const QFontMetricsF fm(f, &m_writer);
    const double line = fm.height() * 1.6;
    reserve(line * titles.size());
    const double left = m_left, width = contentWidth(), top = m_y;
    addOp([=, this](QPainter& p) {
        p.setFont(f);
        double y = top;
        for (const QString& t : titles) {
            const auto it = m_headingPages.find(t);
            const QRectF rect(left, y, width, line);
            p.setPen(kInk);
            p.drawText(rect, Qt::AlignLeft | Qt::AlignVCenter, t);
            p.setPen(kMuted);
            p.drawText(rect, Qt::AlignRight | Qt::AlignVCenter,
                       it == m_headingPages.end() ? QString() : QString::number(it->second));
            p.setPen(QPen(kRule, mm(0.1), Qt::DotLine));
            p.drawLine(QPointF(left + fm.horizontalAdvance(t) + mm(2), y + line * 0.7),
                       QPointF(left + width - mm(8), y + line * 0.7));
            y += line;
        }
    });
    m_y += line * titles.size() + mm(4.0);
}

bool PdfLayout::render(const QString& footerLeft) {
    flushPending();
    QPainter p;
    if (!p.begin(&m_writer)) return false;
    p.setRenderHint(QPainter::Antialiasing);
    const int n = pageCount();
    const QFont footer = font(7.5);
    for (int i = 0; i < n; ++i) {
        if (i > 0 && !m_writer.newPage()) return false;
        for (const auto& op : m_pages[static_cast<size_t>(i)])
            op(p);
        const double y = m_pageHeight - mm(kFooterMm);
        p.setPen(QPen(kRule, mm(0.15)));
        p.drawLine(QPointF(m_left, y - mm(1.5)), QPointF(m_left + contentWidth(), y - mm(1.5)));
        p.setFont(footer);
        p.setPen(kMuted);
        const QRectF rect(m_left, y, contentWidth(), mm(5));
        p.drawText(rect, Qt::AlignLeft | Qt::AlignTop, footerLeft);
        p.drawText(rect, Qt::AlignRight | Qt::AlignTop, QStringLiteral("Page %1 of %2").arg(i + 1).arg(n));
    }
    return p.end();
}

} // namespace ctwin::app
