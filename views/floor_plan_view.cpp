#include "floor_plan_view.h"

#include "floor_plan_scene.h"

#include <QKeyEvent>
#include <QScrollBar>
#include <QWheelEvent>
#include <cmath>

namespace ctwin::views {

FloorPlanView::FloorPlanView(FloorPlanScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene) {
    setDragMode(RubberBandDrag);
    setRubberBandSelectionMode(Qt::IntersectsItemShape);
    setTransformationAnchor(AnchorUnderMouse);
    setResizeAnchor(AnchorViewCenter);
    // Cheap painting for thousands of rectangles: no antialiasing, no painter state saves per item.
    setRenderHint(QPainter::Antialiasing, false);
    setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
    setViewportUpdateMode(SmartViewportUpdate);
    setAcceptDrops(true);
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setMouseTracking(true); // the scene follows the cursor: paste lands under it
    connect(scene, &FloorPlanScene::drawingEnded, this, [this] {
        setDragMode(RubberBandDrag);
        viewport()->unsetCursor();
    });
}

void FloorPlanView::startDrawing(int drawKind) {
    setDragMode(NoDrag);
    viewport()->setCursor(Qt::CrossCursor);
    setFocus();
    m_scene->startDrawing(static_cast<FloorPlanScene::DrawKind>(drawKind));
}

void FloorPlanView::fitAll() {
    const QRectF r = scene()->itemsBoundingRect();
    if (r.isEmpty()) return;
    m_autoFit = true;
    fitInView(r.adjusted(-5, -5, 5, 5), Qt::KeepAspectRatio);
}

void FloorPlanView::zoomBy(double factor) {
    const double next = pixelsPerMetre() * factor;
    if (next < 0.05 || next > 2000) return;
    m_autoFit = false;
    scale(factor, factor);
}

void FloorPlanView::reveal(const QRectF& rect) {
    if (rect.isEmpty() && rect.topLeft().isNull()) return;
    m_autoFit = false;
    const QRectF r = rect.adjusted(-3, -3, 3, 3);
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (r.width() > visible.width() || r.height() > visible.height() || pixelsPerMetre() < 2.0) {
        fitInView(r.width() < 20 ? QRectF(r.center() - QPointF(15, 10), QSizeF(30, 20)) : r,
                  Qt::KeepAspectRatio);
    } else {
        centerOn(r.center());
    }
}

void FloorPlanView::wheelEvent(QWheelEvent* event) {
    const double steps = event->angleDelta().y() / 120.0;
    zoomBy(std::pow(1.2, steps));
    event->accept();
}

void FloorPlanView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::MiddleButton || (m_spaceHeld && event->button() == Qt::LeftButton)) {
        m_panning = true;
        m_autoFit = false;
        m_panFrom = event->pos();
        viewport()->setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void FloorPlanView::mouseMoveEvent(QMouseEvent* event) {
    if (m_panning) {
        const QPoint d = event->pos() - m_panFrom;
        m_panFrom = event->pos();
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() - d.x());
        verticalScrollBar()->setValue(verticalScrollBar()->value() - d.y());
        event->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(event);
}

void FloorPlanView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_panning) {
        m_panning = false;
        viewport()->unsetCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void FloorPlanView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Space:
        if (!event->isAutoRepeat()) m_spaceHeld = true;
        return;
    case Qt::Key_Left:
        emit nudgeRequested(-1, 0);
        return;
    case Qt::Key_Right:
        emit nudgeRequested(1, 0);
        return;
    case Qt::Key_Up:
        emit nudgeRequested(0, -1);
        return;
    case Qt::Key_Down:
        emit nudgeRequested(0, 1);
        return;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(1.25);
        return;
    case Qt::Key_Minus:
        zoomBy(0.8);
        return;
    default:
        break;
    }
    QGraphicsView::keyPressEvent(event);
}

void FloorPlanView::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    if (m_autoFit) fitAll();
}

void FloorPlanView::keyReleaseEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Space && !event->isAutoRepeat()) {
        m_spaceHeld = false;
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

} // namespace ctwin::views
