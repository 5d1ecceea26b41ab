#pragma once
#include <QGraphicsView>

namespace ctwin::views {

class FloorPlanScene;

/// The floor-plan editor's view: wheel zoom about the cursor, pan with the middle button (or Space + drag),
/// rubber-band selection, arrow keys nudge the selection by one grid step. Edits leave as signals.
class FloorPlanView : public QGraphicsView {
    Q_OBJECT
public:
    explicit FloorPlanView(FloorPlanScene* scene, QWidget* parent = nullptr);
    FloorPlanScene* floorScene() const { return m_scene; }
    /// Fits the whole plan in the view.
    void fitAll();
    void zoomBy(double factor);
    /// Centers on a rectangle, zooming in only when it would otherwise be too small to see.
    void reveal(const QRectF& rect);
    double pixelsPerMetre() const { return transform().m11(); }
    /// The next drag draws a building or hall rectangle (FloorPlanScene::startDrawing) with a cross cursor
    /// instead of a selection band; the band comes back when drawing ends.
    void startDrawing(int drawKind);

signals:
    void nudgeRequested(int gridStepsX, int gridStepsY);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    FloorPlanScene* m_scene;
    bool m_panning = false;
    bool m_spaceHeld = false;
    /// Until the user zooms or pans, the plan keeps fitting the view as it is resized.
    bool m_autoFit = true;
    QPoint m_panFrom;
};

} // namespace ctwin::views
