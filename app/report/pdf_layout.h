#pragma once
#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <vector>

class QPainter;
class QPdfWriter;

namespace ctwin::app {

/// Flows headings, paragraphs, tables and charts down A4 pages of a QPdfWriter and paints them with a
/// "Page n of N" footer. Content is laid out first (measured with the writer's font metrics) and painted
/// at the end, when the page count is known. Rules: a heading never ends a page (it moves with what follows
/// it), a table row never splits across pages, a table's header repeats on every page it spans, and a
/// chart block stays on one page. Coordinates are device pixels of the writer (its resolution, 300 dpi).
class PdfLayout {
public:
    /// Page geometry in millimetres: A4 (ISO 216) is 210 mm wide; 18 mm side margins leave 174 mm for text,
    /// tables and charts.
    static constexpr double kPageWidthMm = 210.0;
    static constexpr double kMarginMm = 18.0;
    static constexpr double kContentWidthMm = kPageWidthMm - 2 * kMarginMm;
    enum class Align { Left, Right, Center };
    struct Column {
        QString title;
        double weight = 1.0; // share of the table width
        Align align = Align::Left;
    };
    struct Row {
        QStringList cells;
        bool total = false;        // bold, with a rule above (totals)
        std::vector<QColor> fills; // optional background per cell
    };
    struct Table {
        std::vector<Column> columns;
        std::vector<Row> rows;
        double fontPt = 8.0;
        bool header = true; // false: a plain key/value list without a header band
    };
    /// Paints a block into its rectangle on the page.
    using BlockPainter = std::function<void(QPainter&, const QRectF&)>;

    /// `letter`: US Letter (215.9 x 279.4 mm) with the same 174 mm content width, centred; else A4.
    explicit PdfLayout(QPdfWriter& writer, bool letter = false);

    /// Millimetres to device pixels.
    double mm(double millimetres) const;
    double contentWidth() const;
    /// The report's typeface (DejaVu Sans, the sans serif every Debian desktop has) at `pointSize`.
    static QFont font(double pointSize, bool bold = false);

    /// Free text, word-wrapped to the content width.
    void text(const QString& text, const QFont& font, const QColor& color, double spaceAfterMm,
              Align align = Align::Left);
    /// A section heading, recorded for the table of contents; starts a new page when less than
    /// `minRoomMm` is left on this one.
    void heading(const QString& text, double minRoomMm = 70.0);
    void subheading(const QString& text);
    void paragraph(const QString& text);
    void table(const Table& table);
    /// A block of `heightMm` (full content width) kept on one page.
    void block(double heightMm, BlockPainter painter);
    void space(double millimetres);
    void newPage();
    /// One line per heading in `titles` with the page it starts on, filled in when painting.
    void contents(const QStringList& titles);

    int pageCount() const { return static_cast<int>(m_pages.size()); }
    /// Paints all pages to the writer, footer `footerLeft` and "Page n of N" on each. False when the
    /// writer cannot open its file.
    bool render(const QString& footerLeft);

private:
    using Op = std::function<void(QPainter&)>;
    struct Pending {
        double height;
        std::function<void(double y)> place;
    };
    void reserve(double height);
    /// A new page, with no regard to what waits for the next block (newPage places that first).
    void startPage();
    void flushPending();
    double textHeight(const QString& text, const QFont& font, double width, int flags) const;
    void addOp(Op op);
    void tableHeader(const Table& table, const std::vector<double>& widths, double height, double pointSize);
    /// The narrowest each column may be at `pointSize` (device pixels, padding included).
    std::vector<double> columnMinima(const Table& table, double pointSize) const;

    QPdfWriter& m_writer;
    double m_pxPerMm;
    double m_pageWidth, m_pageHeight;
    double m_left, m_top, m_bottom;
    double m_y;
    std::vector<std::vector<Op>> m_pages;
    std::vector<Pending> m_pending;
    std::map<QString, int> m_headingPages;
};

} // namespace ctwin::app
