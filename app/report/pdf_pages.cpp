#include "report/pdf_pages.h"

#include <QGuiApplication>
#include <QPainter>
#include <algorithm>
#include <stdexcept>

namespace ctwin::app::pdf {

void requireGuiApplication() {
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        throw std::logic_error("PDF reports need a QGuiApplication (for fonts); create one first, with "
                               "QT_QPA_PLATFORM=offscreen when there is no display");
}

void titlePage(PdfLayout& doc, const QString& kind, const QString& name, const QString& description) {
    doc.block(28.0, [kind](QPainter& p, const QRectF& r) {
        p.fillRect(r, kAccent);
        const double u = p.device()->logicalDpiX() / 25.4;
        p.setPen(Qt::white);
        p.setFont(PdfLayout::font(9.0, true));
        p.drawText(r.adjusted(8 * u, 6 * u, -8 * u, -6 * u), Qt::AlignLeft | Qt::AlignTop,
                   QStringLiteral("CLUSTERTWIN"));
        p.setFont(PdfLayout::font(18.0, true));
        p.drawText(r.adjusted(8 * u, 6 * u, -8 * u, -5 * u), Qt::AlignLeft | Qt::AlignBottom, kind);
    });
    doc.space(10.0);
    doc.text(name, PdfLayout::font(22.0, true), kInk, 4.0);
    if (!description.isEmpty()) doc.text(description, PdfLayout::font(11.0), kMuted, 8.0);
}

/// A grid of headline tiles (label above a large value), four per row.
void tiles(PdfLayout& doc, const std::vector<std::pair<QString, QString>>& items) {
    constexpr int perRow = 4;
    for (size_t start = 0; start < items.size(); start += perRow) {
        std::vector<std::pair<QString, QString>> row(
            items.begin() + static_cast<long>(start),
            items.begin() + static_cast<long>(std::min(items.size(), start + perRow)));
        doc.block(19.0, [row](QPainter& p, const QRectF& r) {
            const double u = p.device()->logicalDpiX() / 25.4, gap = 3 * u;
            const double w = (r.width() - gap * (perRow - 1)) / perRow;
            for (size_t i = 0; i < row.size(); ++i) {
                const QRectF tile(r.left() + static_cast<double>(i) * (w + gap), r.top(), w, r.height());
                p.setPen(Qt::NoPen);
                p.setBrush(kTileFill);
                p.drawRoundedRect(tile, 1.5 * u, 1.5 * u);
                p.fillRect(QRectF(tile.left(), tile.top(), 1.0 * u, tile.height()), kAccent);
                p.setPen(kMuted);
                p.setFont(PdfLayout::font(7.5));
                p.drawText(tile.adjusted(3.5 * u, 2.5 * u, -2 * u, -2 * u), Qt::AlignLeft | Qt::AlignTop,
                           row[i].first);
                p.setPen(kInk);
                p.setFont(PdfLayout::font(13.0, true));
                p.drawText(tile.adjusted(3.5 * u, 2 * u, -2 * u, -3 * u), Qt::AlignLeft | Qt::AlignBottom,
                           row[i].second);
            }
        });
    }
}

} // namespace ctwin::app::pdf
