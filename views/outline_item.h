#pragma once
#include <QColor>
#include <QGraphicsItem>
#include <vector>

namespace ctwin::views {

/// A building or a data hall on the floor plan: a filled outline with a title and, for halls, the placement
/// grid (drawn only where it is at least a few pixels apart) and the row names. Not selectable, so a drag
/// that starts on the floor draws a rubber band.
class OutlineItem : public QGraphicsItem {
public:
    OutlineItem(QString id, QRectF rect, QString title, QColor fill, double grid = 0.0);

    /// A row's name on the hall floor, at the row's origin (scene metres).
    struct RowLabel {
        QPointF at;
        QString text;
        bool operator==(const RowLabel&) const = default;
    };

    const QString& entityId() const { return m_id; }
    double grid() const { return m_grid; }
    QRectF rect() const { return m_rect; }
    const QString& title() const { return m_title; }
    const QColor& fill() const { return m_fill; }
    const std::vector<RowLabel>& rowLabels() const { return m_rowLabels; }
    /// Setters for edits in place (FloorPlanScene::applyChanges): each repaints only when the value
    /// changed, so an edit elsewhere on a 5,000-rack campus does not repaint this outline.
    void setRect(const QRectF& rect);
    void setTitle(const QString& title);
    void setFill(const QColor& fill);
    void setGrid(double grid);
    void setRowLabels(std::vector<RowLabel> labels);
    /// A selected hall or building: drawn with a highlight border (the palette's highlight colour).
    void setHighlighted(bool on, const QColor& colour = QColor());
    bool highlighted() const { return m_highlight.isValid(); }

    QRectF boundingRect() const override { return m_rect; }
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    /// The title at the outline's top-left, a fixed size on screen, when the outline is wide enough on
    /// screen (`lod`: pixels per metre) to hold it; a hall's title sits on a plate of the hall's colour.
    /// Halls leave this to the scene's foreground so that their racks do not cover it.
    void paintTitle(QPainter* painter, qreal lod) const;

private:
    /// Outline, grid and text colour: a darker shade of the fill on light floors, a lighter one on dark.
    QColor lineColor() const { return m_fill.lightnessF() > 0.5 ? m_fill.darker(160) : m_fill.lighter(170); }
    /// Titles and row names: dark grey on light floors; on dark floors a light grey, since a lighter shade
    /// of a near-black fill is still near black (issue 36: labels invisible in the dark theme).
    QColor textColor(int darker) const {
        return m_fill.lightnessF() > 0.5 ? lineColor().darker(darker) : QColor(0xd0, 0xd4, 0xda);
    }
    /// Where the title is on screen (device pixels) when drawn with this transform; empty when not drawn.
    QRectF titleScreenRect(const QTransform& t, qreal lod) const;
    QString m_id;
    QRectF m_rect;
    QString m_title;
    QColor m_fill;
    double m_grid;
    std::vector<RowLabel> m_rowLabels;
    QColor m_highlight;
};

} // namespace ctwin::views
