#include "vtk_render_widget.h"

#include "scene/allocator_tuning.h"

#include <QCoreApplication>
#include <QCursor>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cstring>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkInteractorObserver.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLShaderCache.h>
#include <vtkOpenGLState.h>
#include <vtkRenderer.h>
#include <vtkRendererCollection.h>

namespace ctwin::views {

namespace {

/// X11 keysym names VTK's interactor styles understand for non-text keys.
const char* keySym(int key) {
    switch (key) {
    case Qt::Key_Left:
        return "Left";
    case Qt::Key_Right:
        return "Right";
    case Qt::Key_Up:
        return "Up";
    case Qt::Key_Down:
        return "Down";
    case Qt::Key_Home:
        return "Home";
    case Qt::Key_End:
        return "End";
    case Qt::Key_PageUp:
        return "Prior";
    case Qt::Key_PageDown:
        return "Next";
    case Qt::Key_Escape:
        return "Escape";
    case Qt::Key_Return:
    case Qt::Key_Enter:
        return "Return";
    case Qt::Key_Space:
        return "space";
    case Qt::Key_Delete:
        return "Delete";
    case Qt::Key_Backspace:
        return "BackSpace";
    case Qt::Key_Tab:
        return "Tab";
    case Qt::Key_Shift:
        return "Shift_L";
    case Qt::Key_Control:
        return "Control_L";
    case Qt::Key_Alt:
        return "Alt_L";
    case Qt::Key_Plus:
        return "plus";
    case Qt::Key_Minus:
        return "minus";
    default:
        return nullptr;
    }
}

} // namespace

/// The native window the picture is drawn in (see VtkRenderWidget): its GL callbacks and input events go
/// to the owning widget.
class VtkGlWindow : public QOpenGLWindow {
public:
    explicit VtkGlWindow(VtkRenderWidget* owner)
        : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate), m_owner(owner) {
        setFormat(VtkRenderWidget::defaultFormat());
    }
    /// The owner is going away: no more callbacks.
    void detach() { m_owner = nullptr; }

protected:
    void initializeGL() override {
        if (m_owner) m_owner->initializeGL();
    }
    void paintGL() override {
        if (m_owner) m_owner->paintGL();
    }
    void resizeGL(int, int) override {
        if (m_owner) m_owner->resizeGL();
    }
    bool event(QEvent* event) override {
        switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseMove:
        case QEvent::Wheel:
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
        case QEvent::Enter:
        case QEvent::Leave:
            // Window and widget share their origin and size (the container fills the widget), so the
            // event's local position is the widget's; sendEvent also runs the widget's event filters.
            if (m_owner) return QCoreApplication::sendEvent(m_owner, event);
            return false;
        default:
            return QOpenGLWindow::event(event);
        }
    }

private:
    VtkRenderWidget* m_owner;
};

QSurfaceFormat VtkRenderWidget::defaultFormat() {
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    // VTK 9.1's OpenGL2 backend needs a 3.2 core context.
    f.setVersion(3, 2);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    f.setRedBufferSize(8), f.setGreenBufferSize(8), f.setBlueBufferSize(8), f.setAlphaBufferSize(8);
    f.setDepthBufferSize(24);
    f.setStencilBufferSize(0);
    f.setSamples(0);
    return f;
}

VtkRenderWidget::VtkRenderWidget(QWidget* parent)
    : QWidget(parent), m_window(vtkSmartPointer<vtkGenericOpenGLRenderWindow>::New()),
      m_interactor(vtkSmartPointer<vtkGenericRenderWindowInteractor>::New()) {
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(160, 120);
    m_glWindow = new VtkGlWindow(this);
    m_container = QWidget::createWindowContainer(m_glWindow, this);
    m_container->setFocusPolicy(Qt::StrongFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_container);
    m_tipTimer = new QTimer(this);
    m_tipTimer->setSingleShot(true);
    m_tipTimer->setInterval(700);
    connect(m_tipTimer, &QTimer::timeout, this, [this] {
        if (!toolTip().isEmpty() && m_pressButton == Qt::NoButton && rect().contains(m_tipPos))
            QToolTip::showText(mapToGlobal(m_tipPos), toolTip(), this);
    });

    m_window->SetMultiSamples(0);
    m_window->SetOwnContext(false);
    m_window->SetReadyForRendering(false);
    for (unsigned long e : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                            vtkCommand::WindowFrameEvent, vtkCommand::WindowSupportsOpenGLEvent,
                            vtkCommand::WindowIsDirectEvent, vtkCommand::CursorChangedEvent})
        m_windowObservers.push_back(m_window->AddObserver(e, this, &VtkRenderWidget::onWindowEvent));

    m_interactor->SetRenderWindow(m_window);
    // The interactor never renders by itself: its requests become update() (render on demand).
    m_interactor->EnableRenderOff();
    m_renderObserver =
        m_interactor->AddObserver(vtkCommand::RenderEvent, this, &VtkRenderWidget::onInteractorEvent);
    m_interactor->Initialize();
}

VtkRenderWidget::~VtkRenderWidget() {
    // Release GL resources while the context still exists, and stop VTK and the native window (destroyed
    // with its container after this destructor) from calling back into this half-destroyed widget.
    QObject::disconnect(m_contextConnection);
    m_glWindow->detach();
    if (m_glReady && context()) {
        makeCurrent();
        releaseGl();
        doneCurrent();
    }
    if (m_style) {
        for (unsigned long id : m_styleObservers)
            m_style->RemoveObserver(id);
        m_interactor->SetInteractorStyle(nullptr);
    }
    m_interactor->RemoveObserver(m_renderObserver);
    if (m_renderer) m_window->RemoveRenderer(m_renderer);
    for (unsigned long id : m_windowObservers)
        m_window->RemoveObserver(id);
    m_interactor->SetRenderWindow(nullptr);
}

vtkGenericOpenGLRenderWindow* VtkRenderWidget::renderWindow() const {
    return m_window;
}
vtkRenderWindowInteractor* VtkRenderWidget::interactor() const {
    return m_interactor;
}

void VtkRenderWidget::setRenderer(vtkRenderer* renderer) {
    if (m_renderer == renderer) return;
    if (m_renderer) {
        // RemoveRenderer releases the renderer's GL resources: do it with our context current.
        if (m_glReady && context()) makeCurrent();
        m_window->RemoveRenderer(m_renderer);
        if (m_glReady && context()) doneCurrent();
    }
    m_renderer = renderer;
    if (renderer) m_window->AddRenderer(renderer);
    requestRender();
}

void VtkRenderWidget::setInteractorStyle(vtkInteractorObserver* style) {
    if (m_style)
        for (unsigned long id : m_styleObservers)
            m_style->RemoveObserver(id);
    m_styleObservers.clear();
    m_style = style;
    m_interactor->SetInteractorStyle(style);
    if (style) {
        m_styleObservers.push_back(
            style->AddObserver(vtkCommand::StartInteractionEvent, this, &VtkRenderWidget::onInteractorEvent));
        m_styleObservers.push_back(
            style->AddObserver(vtkCommand::EndInteractionEvent, this, &VtkRenderWidget::onInteractorEvent));
    }
}

void VtkRenderWidget::requestRender() {
    m_glWindow->update();
}

QOpenGLContext* VtkRenderWidget::context() const {
    return m_glWindow->context();
}

void VtkRenderWidget::makeCurrent() {
    m_glWindow->makeCurrent();
}

void VtkRenderWidget::doneCurrent() {
    m_glWindow->doneCurrent();
}

QImage VtkRenderWidget::grabFramebuffer() {
    if (!m_glReady || !context()) return {};
    // A double-buffered window's back buffer is undefined after a swap: render a frame into it and read
    // it back before anything swaps.
    makeCurrent();
    paintGL();
    const int* size = m_window->GetSize();
    QImage img(size[0], size[1], QImage::Format_RGBA8888);
    auto* f = context()->functions();
    f->glBindFramebuffer(GL_FRAMEBUFFER, m_glWindow->defaultFramebufferObject());
    f->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    f->glReadPixels(0, 0, size[0], size[1], GL_RGBA, GL_UNSIGNED_BYTE, img.bits());
    doneCurrent();
    img = img.mirrored().convertToFormat(QImage::Format_RGB32); // GL rows run bottom-up
    img.setDevicePixelRatio(devicePixelRatioF());
    return img;
}

QPointF VtkRenderWidget::toDisplay(const QPointF& widgetPos) const {
    const double dpr = devicePixelRatioF();
    const double h = height() * dpr;
    return {widgetPos.x() * dpr, h - widgetPos.y() * dpr - 1.0};
}

void VtkRenderWidget::onWindowEvent(vtkObject*, unsigned long eventId, void* callData) {
    switch (eventId) {
    case vtkCommand::WindowMakeCurrentEvent:
        // The context's own makeCurrent on its surface: the widget's makeCurrent would bind Qt's FBO and
        // VTK would attach its framebuffers to it (black picture, STYLE.md pitfalls).
        if (QOpenGLContext* ctx = context()) ctx->makeCurrent(ctx->surface());
        break;
    case vtkCommand::WindowIsCurrentEvent:
        *static_cast<bool*>(callData) = context() && QOpenGLContext::currentContext() == context();
        break;
    case vtkCommand::WindowSupportsOpenGLEvent:
    case vtkCommand::WindowIsDirectEvent:
        *static_cast<int*>(callData) = 1;
        break;
    case vtkCommand::WindowFrameEvent:
        // A render outside paintGL (e.g. an exporter): show it on the next paint.
        if (!m_inPaint) requestRender();
        break;
    case vtkCommand::CursorChangedEvent: {
        const int shape = *static_cast<int*>(callData);
        m_glWindow->setCursor(shape == VTK_CURSOR_HAND        ? Qt::PointingHandCursor
                              : shape == VTK_CURSOR_SIZEALL   ? Qt::SizeAllCursor
                              : shape == VTK_CURSOR_CROSSHAIR ? Qt::CrossCursor
                                                              : Qt::ArrowCursor);
        break;
    }
    default:
        break;
    }
}

void VtkRenderWidget::onInteractorEvent(vtkObject*, unsigned long eventId, void*) {
    switch (eventId) {
    case vtkCommand::RenderEvent:
        requestRender();
        break;
    case vtkCommand::StartInteractionEvent:
        emit interactionStarted();
        break;
    case vtkCommand::EndInteractionEvent:
        emit interactionEnded();
        break;
    default:
        break;
    }
}

void VtkRenderWidget::initializeGL() {
    // A new context (first show or after reparenting): VTK initialises its GL state and functions in it.
    m_window->SetForceMaximumHardwareLineWidth(1);
    m_window->SetFrameBlitModeToNoBlit();
    m_window->SetReadyForRendering(true);
    m_window->OpenGLInitContext();
    m_glReady = true;
    QObject::disconnect(m_contextConnection);
    m_contextConnection = connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] {
        makeCurrent();
        releaseGl();
        doneCurrent();
    });
    auto* f = context()->functions();
    const auto str = [f](GLenum e) {
        const auto* s = reinterpret_cast<const char*>(f->glGetString(e));
        return QString::fromLatin1(s ? s : "?");
    };
    m_glInfo =
        str(GL_VENDOR) + QStringLiteral("; ") + str(GL_RENDERER) + QStringLiteral("; ") + str(GL_VERSION);
    tuneAllocatorForSoftwareGl(m_glInfo.toStdString());
    updateSize();
}

void VtkRenderWidget::releaseGl() {
    if (!m_glReady) return;
    // Finalize releases every renderer's and mapper's GL resources in the current context.
    m_window->Finalize();
    m_window->SetReadyForRendering(false);
    m_glReady = false;
}

void VtkRenderWidget::updateSize() {
    const double dpr = devicePixelRatioF();
    const int w = qMax(1, qRound(width() * dpr)), h = qMax(1, qRound(height() * dpr));
    m_interactor->UpdateSize(w, h); // also sizes the render window
    m_window->SetSize(w, h);
    // Text sizes are in points: scale them with the device pixel ratio.
    m_window->SetDPI(qRound(72 * dpr));
}

void VtkRenderWidget::resizeGL() {
    updateSize();
    // A native window that shrinks gets no expose event (X11): draw the new size explicitly.
    requestRender();
}

void VtkRenderWidget::paintGL() {
    if (!m_glReady) return;
    m_inPaint = true;
    updateSize();
    // Qt changed the GL state (framebuffer bindings, viewport, ...) behind VTK's back: reload VTK's cache
    // from the context before rendering.
    vtkOpenGLState* state = m_window->GetState();
    state->ResetFramebufferBindings();
    state->ResetGLViewportState();
    state->ResetGLScissorState();
    state->ResetGLClearColorState();
    state->ResetGLClearDepthState();
    state->ResetGLDepthFuncState();
    state->ResetGLDepthMaskState();
    state->ResetGLColorMaskState();
    state->ResetGLBlendFuncState();
    state->ResetGLBlendEquationState();
    state->ResetGLCullFaceState();
    state->ResetGLActiveTexture();
    for (unsigned int cap : {GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_SCISSOR_TEST, GL_STENCIL_TEST})
        state->ResetEnumState(cap);
    if (auto* shaders = m_window->GetShaderCache()) shaders->ReleaseCurrentShader();

    m_window->Render();
    ++m_frames;

    // Blit VTK's display framebuffer into the widget's framebuffer, then make it opaque.
    const int* size = m_window->GetSize();
    const GLuint target = m_glWindow->defaultFramebufferObject();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, target);
    state->vtkglDisable(GL_SCISSOR_TEST);
    m_window->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1], GL_COLOR_BUFFER_BIT,
                                     GL_NEAREST);
    state->vtkglBindFramebuffer(GL_FRAMEBUFFER, target);
    state->vtkglViewport(0, 0, size[0], size[1]);
    state->vtkglColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    state->vtkglClearColor(0.f, 0.f, 0.f, 1.f);
    state->vtkglClear(GL_COLOR_BUFFER_BIT);
    state->vtkglColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    m_inPaint = false;
}

void VtkRenderWidget::setEventPosition(const QPointF& pos, Qt::KeyboardModifiers modifiers, int repeat) {
    const double dpr = devicePixelRatioF();
    m_interactor->SetEventInformationFlipY(qRound(pos.x() * dpr), qRound(pos.y() * dpr),
                                           (modifiers & Qt::ControlModifier) ? 1 : 0,
                                           (modifiers & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
    m_interactor->SetAltKey((modifiers & Qt::AltModifier) ? 1 : 0);
}

void VtkRenderWidget::mousePressEvent(QMouseEvent* event) {
    setEventPosition(event->position(), event->modifiers());
    m_pressPos = event->position();
    m_pressButton = event->button();
    m_dragged = false;
    switch (event->button()) {
    case Qt::LeftButton:
        m_interactor->InvokeEvent(vtkCommand::LeftButtonPressEvent);
        break;
    case Qt::MiddleButton:
        m_interactor->InvokeEvent(vtkCommand::MiddleButtonPressEvent);
        break;
    case Qt::RightButton:
        m_interactor->InvokeEvent(vtkCommand::RightButtonPressEvent);
        break;
    default:
        break;
    }
    event->accept();
}

void VtkRenderWidget::mouseDoubleClickEvent(QMouseEvent* event) {
    setEventPosition(event->position(), event->modifiers(), 1);
    m_pressPos = event->position();
    m_pressButton = event->button();
    m_dragged = false;
    if (event->button() == Qt::LeftButton) m_interactor->InvokeEvent(vtkCommand::LeftButtonPressEvent);
    event->accept();
}

void VtkRenderWidget::mouseReleaseEvent(QMouseEvent* event) {
    setEventPosition(event->position(), event->modifiers());
    switch (event->button()) {
    case Qt::LeftButton:
        m_interactor->InvokeEvent(vtkCommand::LeftButtonReleaseEvent);
        break;
    case Qt::MiddleButton:
        m_interactor->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent);
        break;
    case Qt::RightButton:
        m_interactor->InvokeEvent(vtkCommand::RightButtonReleaseEvent);
        break;
    default:
        break;
    }
    if (event->button() == m_pressButton && !m_dragged &&
        (event->position() - m_pressPos).manhattanLength() < 4.0)
        emit clicked(toDisplay(event->position()), event->button(), event->modifiers());
    m_pressButton = Qt::NoButton;
    event->accept();
}

void VtkRenderWidget::mouseMoveEvent(QMouseEvent* event) {
    if ((event->position() - m_pressPos).manhattanLength() >= 4.0) m_dragged = true;
    m_tipPos = event->position().toPoint();
    QToolTip::hideText();
    m_tipTimer->start();
    setEventPosition(event->position(), event->modifiers());
    m_interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
    event->accept();
}

void VtkRenderWidget::wheelEvent(QWheelEvent* event) {
    setEventPosition(event->position(), event->modifiers());
    // One VTK wheel step per 15 degrees (120 units of angleDelta, Qt's QWheelEvent documentation).
    m_wheelAccumulator += event->angleDelta().y();
    while (m_wheelAccumulator >= 120) {
        m_interactor->InvokeEvent(vtkCommand::MouseWheelForwardEvent);
        m_wheelAccumulator -= 120;
    }
    while (m_wheelAccumulator <= -120) {
        m_interactor->InvokeEvent(vtkCommand::MouseWheelBackwardEvent);
        m_wheelAccumulator += 120;
    }
    event->accept();
}

void VtkRenderWidget::forwardKey(QKeyEvent* event, bool press) {
    const QByteArray text = event->text().toLatin1();
    const char ascii = text.size() == 1 && text[0] >= 32 && text[0] < 127 ? text[0] : 0;
    const char* sym = keySym(event->key());
    const QByteArray textSym = ascii ? QByteArray(1, ascii) : QByteArray();
    m_interactor->SetKeyEventInformation((event->modifiers() & Qt::ControlModifier) ? 1 : 0,
                                         (event->modifiers() & Qt::ShiftModifier) ? 1 : 0, ascii,
                                         event->isAutoRepeat() ? 1 : 0, sym ? sym : textSym.constData());
    m_interactor->SetAltKey((event->modifiers() & Qt::AltModifier) ? 1 : 0);
    m_interactor->InvokeEvent(press ? vtkCommand::KeyPressEvent : vtkCommand::KeyReleaseEvent);
    if (press && ascii) m_interactor->InvokeEvent(vtkCommand::CharEvent);
}

void VtkRenderWidget::keyPressEvent(QKeyEvent* event) {
    forwardKey(event, true);
    event->accept();
}

void VtkRenderWidget::keyReleaseEvent(QKeyEvent* event) {
    forwardKey(event, false);
    event->accept();
}

void VtkRenderWidget::enterEvent(QEnterEvent* event) {
    setEventPosition(event->position(), event->modifiers());
    m_interactor->InvokeEvent(vtkCommand::EnterEvent);
    QWidget::enterEvent(event);
}

void VtkRenderWidget::leaveEvent(QEvent* event) {
    m_interactor->InvokeEvent(vtkCommand::LeaveEvent);
    m_tipTimer->stop();
    QWidget::leaveEvent(event);
}

} // namespace ctwin::views
