#include "floor_item.h"

#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <cmath>

namespace ctwin::views {

FloorItem::FloorItem(QString id, QString hallId, QRectF footprint)
    : m_id(std::move(id)), m_hallId(std::move(hallId)), m_footprint(footprint), m_color(Qt::gray) {
    setFlags(ItemIsSelectable | ItemIsMovable | ItemSendsGeometryChanges);
}

void FloorItem::setFootprint(const QRectF& footprint) {
    if (footprint == m_footprint) return;
    prepareGeometryChange();
    m_footprint = footprint;
}

void FloorItem::setBrushColor(const QColor& color) {
    if (color == m_color) return;
    m_color = color;
    update();
}

void FloorItem::beginDrag(double grid) {
    m_dragStart = pos();
    m_grid = grid;
    m_dragging = true;
}

void FloorItem::endDrag() {
    m_dragging = false;
}

QVariant FloorItem::itemChange(GraphicsItemChange change, const QVariant& value) {
    if (change == ItemPositionChange && m_dragging && m_grid > 0.0) {
        const QPointF d = value.toPointF() - m_dragStart;
        return m_dragStart +
               QPointF(std::round(d.x() / m_grid) * m_grid, std::round(d.y() / m_grid) * m_grid);
    }
    return QGraphicsItem::itemChange(change, value);
}

void FloorItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->fillRect(m_footprint, isSelected() ? m_color.lighter(150) : m_color);
    if (lod > 4.0) {
        painter->setPen(QPen(m_color.darker(170), 0));
        painter->drawRect(m_footprint);
    }
    if (isSelected()) {
        painter->setPen(QPen(QColor(255, 140, 0), 2.0 / std::max<qreal>(lod, 0.01)));
        painter->drawRect(m_footprint);
    }
    if (lod > 12.0) paintDetail(painter, lod);
}

void FloorItem::paintDetail(QPainter*, qreal) {}

} // namespace ctwin::views
