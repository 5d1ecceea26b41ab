#pragma once
#include <QMetaObject>
#include <QOpenGLWidget>
#include <QPointF>
#include <QString>
#include <vector>
#include <vtkSmartPointer.h>

class vtkGenericOpenGLRenderWindow;
class vtkGenericRenderWindowInteractor;
class vtkInteractorObserver;
class vtkObject;
class vtkRenderer;
class vtkRenderWindowInteractor;

namespace ctwin::views {

/// The Qt <-> VTK bridge: a QOpenGLWidget hosting a vtkGenericOpenGLRenderWindow (Debian's VTK Qt module
/// is built for Qt 5, so QVTKOpenGLNativeWidget cannot be used; see STYLE.md).
///
/// VTK renders into its own framebuffers inside Qt's context (own context off, make-current and
/// is-current events answered with the widget's QOpenGLContext on its surface), then paintGL blits VTK's
/// display framebuffer into the widget's framebuffer. Mouse, wheel and keys go to a VTK interactor with
/// rendering disabled: the interactor's render requests become update(), so frames are drawn only on
/// demand (Qt coalesces them), never in a loop. Sizes are in device pixels (HiDPI) and text is scaled
/// through the window's DPI. GL resources are released when the context goes away (reparenting or
/// destruction) and recreated on the next initializeGL.
class VtkRenderWidget : public QOpenGLWidget {
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
    void initializeGL() override;
    void paintGL() override;
    void resizeGL(int w, int h) override;
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
    void onWindowEvent(vtkObject* caller, unsigned long eventId, void* callData);
    void onInteractorEvent(vtkObject* caller, unsigned long eventId, void* callData);
    void releaseGl();
    void updateSize();
    void setEventPosition(const QPointF& pos, Qt::KeyboardModifiers modifiers, int repeat = 0);
    void forwardKey(QKeyEvent* event, bool press);

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
};

} // namespace ctwin::views
