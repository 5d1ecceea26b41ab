#include "outline_item.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

namespace ctwin::views {

OutlineItem::OutlineItem(QString id, QRectF rect, QString title, QColor fill, double grid)
    : m_id(std::move(id)), m_rect(rect), m_title(std::move(title)), m_fill(std::move(fill)), m_grid(grid) {}

void OutlineItem::setRect(const QRectF& rect) {
    if (rect == m_rect) return;
    prepareGeometryChange();
    m_rect = rect;
}

void OutlineItem::setTitle(const QString& title) {
    if (title == m_title) return;
    m_title = title;
    update();
}

void OutlineItem::setFill(const QColor& fill) {
    if (fill == m_fill) return;
    m_fill = fill;
    update();
}

void OutlineItem::setGrid(double grid) {
    if (grid == m_grid) return;
    m_grid = grid;
    update();
}

void OutlineItem::setHighlighted(bool on, const QColor& colour) {
    const QColor next = on ? colour : QColor();
    if (next == m_highlight) return;
    m_highlight = next;
    update();
}

void OutlineItem::setRowLabels(std::vector<RowLabel> labels) {
    if (labels == m_rowLabels) return;
    m_rowLabels = std::move(labels);
    update();
}

namespace {
/// Draws text `pixels` high on screen at a scene point, whatever the zoom; on a `backdrop` plate when given
/// (hall titles sit over the racks at overview zoom and would be unreadable without one).
void drawScreenText(QPainter* p, const QPointF& at, const QString& text, int pixels, const QColor& color,
                    const QColor& backdrop = QColor()) {
    const QTransform t = p->worldTransform();
    const QPointF screen = t.map(at);
    p->save();
    p->resetTransform();
    QFont f = p->font();
    f.setPixelSize(pixels);
    p->setFont(f);
    const QPointF baseline = screen + QPointF(2, pixels + 1);
    if (backdrop.isValid()) {
        const QFontMetricsF m(f);
        QColor plate = backdrop;
        plate.setAlpha(225);
        p->fillRect(QRectF(baseline.x() - 2, baseline.y() - m.ascent() - 1, m.horizontalAdvance(text) + 4,
                           m.height() + 2),
                    plate);
    }
    p->setPen(color);
    p->drawText(baseline, text);
    p->restore();
}
} // namespace

void OutlineItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->fillRect(m_rect, m_fill);
    const QColor line = lineColor();
    if (m_grid > 0.0 && m_grid * lod >= 6.0) {
        painter->setPen(QPen(QColor(line.red(), line.green(), line.blue(), 70), 0));
        const QRectF area = option->exposedRect.intersected(m_rect);
        const double x0 = m_rect.left() + std::ceil((area.left() - m_rect.left()) / m_grid) * m_grid;
        const double y0 = m_rect.top() + std::ceil((area.top() - m_rect.top()) / m_grid) * m_grid;
        for (double x = x0; x <= area.right(); x += m_grid)
            painter->drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
        for (double y = y0; y <= area.bottom(); y += m_grid)
            painter->drawLine(QPointF(area.left(), y), QPointF(area.right(), y));
    }
    painter->setPen(QPen(line, 0));
    painter->drawRect(m_rect);
    if (m_highlight.isValid()) {
        // Three pixels on screen whatever the zoom (a cosmetic pen).
        QPen pen(m_highlight, 3);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawRect(m_rect);
    }
    const bool hall = m_grid > 0.0;
    // A hall's title goes over its racks, so the scene draws it in the foreground (paintTitle).
    if (!hall) paintTitle(painter, lod);
    if (hall && lod > 9.0) {
        // A row name that would fall under the hall's title (the first row sits one aisle below the wall)
        // moves right of it on screen.
        const QTransform t = painter->worldTransform();
        const QRectF title = titleScreenRect(t, lod);
        QFont f = painter->font();
        f.setPixelSize(10);
        const QFontMetricsF m(f);
        for (const auto& l : m_rowLabels) {
            QPointF at = l.at - QPointF(0, 1.2);
            const QPointF screen = t.map(at);
            const QRectF box(screen.x(), screen.y(), m.horizontalAdvance(l.text) + 4, m.height() + 3);
            if (!title.isEmpty() && box.intersects(title))
                at = t.inverted().map(QPointF(title.right() + 6, screen.y()));
            drawScreenText(painter, at, l.text, 10, textColor(150));
        }
    }
}

QRectF OutlineItem::titleScreenRect(const QTransform& t, qreal lod) const {
    if (m_rect.width() * lod <= 60 || m_title.isEmpty()) return {};
    QFont f;
    f.setPixelSize(m_grid > 0.0 ? 11 : 13);
    const QFontMetricsF m(f);
    const QPointF screen = t.map(m_rect.topLeft());
    return QRectF(screen.x(), screen.y(), m.horizontalAdvance(m_title) + 6, m.height() + 3);
}

void OutlineItem::paintTitle(QPainter* painter, qreal lod) const {
    // Titles only when the outline is big enough on screen to hold them.
    if (m_rect.width() * lod <= 60) return;
    const bool hall = m_grid > 0.0;
    drawScreenText(painter, m_rect.topLeft(), m_title, hall ? 11 : 13, textColor(hall ? 130 : 160),
                   hall ? m_fill : QColor());
}

} // namespace ctwin::views
