#pragma once
#include <QGraphicsItem>

namespace ctwin::views {

/// Base of the selectable, movable floor-plan items (racks, CDUs): a filled footprint rectangle in metres
/// that knows the entity it stands for and the hall grid its moves snap to. Deliberately cheap (no
/// QGraphicsObject, no per-item pens or text objects) so a 1,400-rack campus stays fluid.
class FloorItem : public QGraphicsItem {
public:
    FloorItem(QString id, QString hallId, QRectF footprint);

    const QString& entityId() const { return m_id; }
    const QString& hallId() const { return m_hallId; }
    void setFootprint(const QRectF& footprint);
    void setBrushColor(const QColor& color);
    const QColor& brushColor() const { return m_color; }
    void setLabel(const QString& label) { m_label = label; }
    const QString& label() const { return m_label; }

    /// Moves snap the drag delta (not the absolute position) to this grid so off-grid layouts keep their
    /// shape; 0 disables snapping.
    void beginDrag(double grid);
    void endDrag();
    QPointF dragStart() const { return m_dragStart; }

    QRectF boundingRect() const override { return m_footprint; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    QVariant itemChange(GraphicsItemChange change, const QVariant& value) override;
    /// Extra drawing over the footprint when zoomed in (front edge, label); `lod` is pixels per metre.
    virtual void paintDetail(QPainter* painter, qreal lod);

private:
    QString m_id;
    QString m_hallId;
    QRectF m_footprint;
    QColor m_color;
    QString m_label;
    QPointF m_dragStart;
    double m_grid = 0.0;
    bool m_dragging = false;
};

} // namespace ctwin::views
