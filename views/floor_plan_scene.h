#pragma once
#include "catalog.h"
#include "change_set.h"
#include "project.h"

#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QHash>
#include <QSet>
#include <optional>
#include <vector>

namespace ctwin::views {

class FloorItem;
class OutlineItem;
class RackItem;

/// A rack or CDU moved on the plan, in the frame of the hall it was dropped in.
struct FloorMove {
    QString id;
    QString hallId;
    QPointF hallPos;
};

/// The campus floor plan to scale (1 scene unit = 1 m): sites side by side, buildings, halls with their
/// grids, racks and CDUs. Reads the project, never edits it: moves, drops and deletes leave as signals
/// (STYLE.md "Edits flow one way"). Edits update the items they touch (applyChanges); only a new
/// project rebuilds the scene.
class FloorPlanScene : public QGraphicsScene {
    Q_OBJECT
public:
    enum class ColorMode { RackType, PowerDensity, CoolingLoop };
    struct LegendEntry {
        QColor color;
        QString text;
    };
    struct HallHit {
        QString hallId;
        QPointF hallPos;
        double grid = 0.0;
    };
    /// What a rectangle drawn on the plan becomes (Insert > Draw ...).
    enum class DrawKind { None, Building, Hall };
    /// A container under a scene point: its id and the point in its own frame (metres).
    struct FrameHit {
        QString id;
        QPointF local;
    };

    explicit FloorPlanScene(const model::Catalog& catalog, QObject* parent = nullptr);
    ~FloorPlanScene() override;

    void showProject(const model::Project& project);
    void applyChanges(const model::Project& project, const model::ChangeSet& changes);

    void setColorMode(ColorMode mode);
    ColorMode colorMode() const { return m_colorMode; }
    std::vector<LegendEntry> legend() const;
    void setSnapToGrid(bool snap) { m_snap = snap; }
    bool snapToGrid() const { return m_snap; }
    void setDark(bool dark);
    /// The Timeline tab's date cursor: these halls (id -> energisation month text) are not
    /// yet energised and are drawn greyed, with the month they energise; empty = every hall as designed.
    void setUnenergisedHalls(const QHash<QString, QString>& halls);
    const QHash<QString, QString>& unenergisedHalls() const { return m_unenergised; }

    QStringList selectedIds() const;
    /// Selects the items of these ids (racks, CDUs); returns the bounding rectangle of what was selected.
    QRectF selectIds(const QStringList& ids);
    /// Scene rectangle of any entity with a footprint (building, hall, row's racks, rack, CDU).
    QRectF entityRect(const QString& id) const;
    std::optional<HallHit> hallAt(const QPointF& scenePos) const;
    /// The building under a scene point, and the point in the building's frame.
    std::optional<FrameHit> buildingAt(const QPointF& scenePos) const;
    /// The site whose campus strip (sites stand side by side) is nearest a scene point, and the point in
    /// that site's campus frame; nullopt without sites.
    std::optional<FrameHit> siteAt(const QPointF& scenePos) const;
    /// The next left-button drag draws a rectangle (not a selection band) and emits rectangleDrawn; Escape
    /// or a click without a drag cancels. One rectangle per call.
    void startDrawing(DrawKind kind);
    void cancelDrawing();
    DrawKind drawing() const { return m_drawKind; }
    QPointF hallOrigin(const QString& hallId) const;
    /// Snaps a hall-relative position to the hall grid (when snapping is on).
    QPointF snapInHall(const QString& hallId, const QPointF& hallPos) const;
    /// Last position of the mouse over the scene (paste target).
    QPointF lastMousePos() const { return m_lastMouse; }
    int rackItemCount() const { return static_cast<int>(m_racks.size()); }
    RackItem* rackItem(const QString& id) const { return m_racks.value(id); }

signals:
    void selectionChangedByUser(const QStringList& ids);
    /// A rectangle drawn after startDrawing, in scene metres (at least 1 x 1 m).
    void rectangleDrawn(ctwin::views::FloorPlanScene::DrawKind kind, const QRectF& sceneRect);
    /// Drawing mode ended (drawn, cancelled or too small): the view restores its selection band.
    void drawingEnded();
    void itemsMoved(const QList<ctwin::views::FloorMove>& moves);
    void catalogItemDropped(const QString& catalogId, const QString& hallId, const QPointF& hallPos);
    void contextMenuRequested(const QPoint& screenPos, const QStringList& ids);

protected:
    /// Hall titles, over the racks (OutlineItem::paintTitle).
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseMoveEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;
    void dragEnterEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dropEvent(QGraphicsSceneDragDropEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    struct Hall {
        QPointF origin;
        QRectF rect; // scene
        double grid = 0.6;
        OutlineItem* item = nullptr;
    };
    void rebuild(const model::Project& project);
    /// Brings building and hall outlines and row labels in line with the project, touching only the items
    /// that differ (a fresh build is the same call on an empty scene); returns the halls whose origin moved.
    QSet<QString> syncOutlines(const model::Project& project);
    /// Brings every loop's CDU items in line with the project the same way (and the loop order that colours
    /// racks by loop); true when a selected CDU went.
    bool syncCdus(const model::Project& project);
    void updateSceneRect();
    /// Creates or updates a rack's item; true when a selected item had to be replaced (the rack changed
    /// hall) and the selection changed.
    bool updateRack(const model::RackPlacement& rack);
    QColor rackColor(const QString& rackType, const QString& loop) const;
    QRectF rackFootprint(const std::string& rackType, double rotationDeg) const;
    void recolor();
    void onSelectionChanged();

    const model::Catalog& m_catalog;
    ColorMode m_colorMode = ColorMode::RackType;
    bool m_snap = true;
    bool m_dark = false;
    bool m_syncing = false;
    bool m_dragging = false;
    QPointF m_lastMouse;
    QHash<QString, Hall> m_halls;
    QHash<QString, QString> m_unenergised;
    QHash<QString, OutlineItem*> m_buildingItems;
    /// Each site's campus strip on the plan: scene x range and the offset from campus x to scene x.
    struct SiteStrip {
        QString id;
        double x0 = 0, x1 = 0, offset = 0;
    };
    std::vector<SiteStrip> m_siteStrips;
    DrawKind m_drawKind = DrawKind::None;
    QGraphicsRectItem* m_drawItem = nullptr;
    QPointF m_drawStart;
    QHash<QString, QPointF> m_buildingOrigins;
    QHash<QString, QRectF> m_buildingRects;
    QHash<QString, QString> m_rowHall;
    QHash<QString, int> m_loopIndex;
    QHash<QString, QString> m_rackLoop;
    QHash<QString, QString> m_rackType;
    /// Racks per rack type (m_rackType counted): the legend lists the types in use without a walk over
    /// every rack after each edit.
    QHash<QString, int> m_rackTypeCount;
    void setRackType(const QString& id, const QString& type);
    void forgetRackType(const QString& id);
    QHash<QString, RackItem*> m_racks;
    QHash<QString, FloorItem*> m_cdus;
};

} // namespace ctwin::views
