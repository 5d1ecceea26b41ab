#pragma once
#include <QImage>
#include <QMetaObject>
#include <QPoint>
#include <QPointF>
#include <QString>
#include <QSurfaceFormat>
#include <QWidget>
#include <vector>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorObserver;
class vtkObject;
class vtkRenderer;
class vtkRenderWindowInteractor;
class QOpenGLContext;
class QTimer;

namespace ctwin::views {

/// The Qt <-> VTK bridge: a widget hosting a vtkGenericOpenGLRenderWindow (Debian's VTK Qt module is built
/// for Qt 5, so QVTKOpenGLNativeWidget cannot be used; see STYLE.md).
///
/// The picture is drawn in a native child window (a QOpenGLWindow in QWidget::createWindowContainer), not in
/// a QOpenGLWidget: a QOpenGLWidget makes Qt (6.4 and later) recreate the whole top-level window the first
/// time one is shown, which flashed the application black, and then composes every widget repaint of the
/// window through OpenGL. VTK renders into its own framebuffers inside that window's context (own context
/// off, make-current and is-current events answered with the window's QOpenGLContext on its surface), then
/// paintGL blits VTK's display framebuffer into the window. Mouse, wheel, key and enter/leave events that
/// reach the native window are sent on to this widget (its event filters see them), and from here to a VTK
/// interactor with rendering disabled: the interactor's render requests become requestRender(), so frames
/// are drawn only on demand, never in a loop. Sizes are in device pixels (HiDPI) and text is scaled through
/// the window's DPI. GL resources are released when the context goes away and recreated on the next
/// initializeGL.
class VtkGlWindow;

class VtkRenderWidget : public QWidget {
    Q_OBJECT
public:
    explicit VtkRenderWidget(QWidget* parent = nullptr);
    ~VtkRenderWidget() override;

    /// The surface format VTK needs (OpenGL 3.2 core, 8-bit RGBA, 24-bit depth, no multisampling).
    /// Applied to every VtkRenderWidget; an application may also make it the default before creating
    /// its QApplication so that all GL widgets share one format.
    static QSurfaceFormat defaultFormat();

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    vtkRenderWindowInteractor* interactor() const;
    /// Shows one renderer (replacing the previous one, whose GL resources are released first).
    void setRenderer(vtkRenderer* renderer);
    void setInteractorStyle(vtkInteractorObserver* style);

    /// VTK display coordinates (device pixels, origin bottom-left) of a widget position.
    QPointF toDisplay(const QPointF& widgetPos) const;
    /// "vendor; renderer; version" of the GL context (empty before the first initializeGL).
    QString glRendererInfo() const { return m_glInfo; }
    /// Frames VTK rendered (for tests and on-demand checks).
    int framesRendered() const { return m_frames; }
    /// A freshly rendered frame read back from the native window (tests, screenshots); empty before the
    /// window has its GL context (first exposure).
    QImage grabFramebuffer();

public slots:
    /// Schedules one frame (coalesced by Qt). Call after changing the scene.
    void requestRender();

signals:
    /// The user started / finished dragging or zooming the camera.
    void interactionStarted();
    void interactionEnded();
    /// A press and release without a drag; `displayPos` in VTK display coordinates.
    void clicked(QPointF displayPos, Qt::MouseButton button, Qt::KeyboardModifiers modifiers);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void enterEvent(QEnterEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    friend class VtkGlWindow;
    // Called by the native window (VtkGlWindow) with its context current.
    void initializeGL();
    void paintGL();
    void resizeGL();
    QOpenGLContext* context() const;
    void makeCurrent();
    void doneCurrent();

    void onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
    void onInteractorEvent(vtkObject* caller, unsigned long eventId, void* callData);
    void releaseGl();
    void updateSize();
    void setEventPosition(const QPointF& pos, Qt::KeyboardModifiers modifiers, int repeat = 0);
    void forwardKey(QKeyEvent* event, bool press);

    VtkGlWindow* m_glWindow = nullptr; // owned by its container widget
    QWidget* m_container = nullptr;
    vtkSmartPointer<vtkGenericOpenGLRenderWindow> m_window;
    vtkSmartPointer<vtkGenericRenderWindowInteractor> m_interactor;
    vtkSmartPointer<vtkRenderer> m_renderer;
    vtkSmartPointer<vtkInteractorObserver> m_style;
    std::vector<unsigned long> m_windowObservers;
    std::vector<unsigned long> m_styleObservers;
    unsigned long m_renderObserver = 0;
    QMetaObject::Connection m_contextConnection;
    bool m_glReady = false;
    bool m_inPaint = false;
    QPointF m_pressPos;
    Qt::MouseButton m_pressButton = Qt::NoButton;
    bool m_dragged = false;
    int m_wheelAccumulator = 0;
    QString m_glInfo;
    int m_frames = 0;
    QTimer* m_tipTimer = nullptr; // the native window gets no tooltip events: shown after a hover pause
    QPoint m_tipPos;
};

} // namespace ctwin::views
