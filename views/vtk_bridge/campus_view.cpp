#include "campus_view.h"

#include "project.h"
#include "scene/campus_scene.h"
#include "scene/gltf_export.h"
#include "scene/offscreen_renderer.h"
#include "scene/view_interactor_style.h"
#include "vtk_bridge/vtk_render_widget.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace ctwin::views {

CampusView::CampusView(QWidget* parent)
    : QWidget(parent), m_scene(std::make_unique<CampusScene>()),
      m_style(vtkSmartPointer<ViewInteractorStyle>::New()) {
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    bar->addWidget(new QLabel(tr("Colour by"), this));
    m_metric = new QComboBox(this);
    for (ColorMetric m : kAllColorMetrics)
        m_metric->addItem(QString::fromStdString(colorMetricTitle(m)), static_cast<int>(m));
    m_metric->setToolTip(tr("What the racks are coloured by"));
    bar->addWidget(m_metric);
    bar->addStretch(1);
    auto* reset = new QToolButton(this);
    reset->setText(tr("Reset view"));
    reset->setToolTip(tr("Back to the whole campus (R)"));
    bar->addWidget(reset);

    m_vtk = new VtkRenderWidget(this);
    m_vtk->setToolTip(tr("Left drag: orbit. Middle drag or Shift+left: pan. Wheel or right drag: zoom. "
                         "R: reset. Click a rack to select it."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_vtk, 1);

    m_style->setResetCallback([this] { resetView(); });
    m_vtk->setInteractorStyle(m_style);
    m_vtk->setRenderer(m_scene->renderer());

    // Full detail shortly after the camera stops (wheel steps arrive as many short interactions).
    m_lodTimer = new QTimer(this);
    m_lodTimer->setSingleShot(true);
    m_lodTimer->setInterval(250);
    connect(m_lodTimer, &QTimer::timeout, this, [this] {
        m_scene->setInteractiveLod(false);
        m_vtk->requestRender();
    });
    connect(m_vtk, &VtkRenderWidget::interactionStarted, this, &CampusView::onInteractionStarted);
    connect(m_vtk, &VtkRenderWidget::interactionEnded, this, &CampusView::onInteractionEnded);
    connect(m_vtk, &VtkRenderWidget::clicked, this,
            [this](QPointF pos, Qt::MouseButton button, Qt::KeyboardModifiers) { onClicked(pos, button); });
    connect(reset, &QToolButton::clicked, this, &CampusView::resetView);
    connect(m_metric, &QComboBox::currentIndexChanged, this, [this](int index) {
        const auto m = static_cast<ColorMetric>(m_metric->itemData(index).toInt());
        if (m == m_scene->colorMetric()) return;
        m_scene->setColorMetric(m);
        m_vtk->requestRender();
        emit colorMetricChanged(m);
    });
}

CampusView::~CampusView() {
    // Detach the scene's renderer (releasing its GL resources) before the scene goes away.
    m_vtk->setRenderer(nullptr);
}

void CampusView::showProject(const model::Project& project, const model::Catalog& catalog,
                             const cost::Results* results) {
    m_scene->showProject(SceneSource{project, catalog, results}, colorMetric());
    m_vtk->requestRender();
}

void CampusView::applyChanges(const model::ChangeSet& changes, const model::Project& project,
                              const model::Catalog& catalog, const cost::Results* results) {
    if (m_scene->applyChanges(changes, SceneSource{project, catalog, results}) != CampusScene::Update::None)
        m_vtk->requestRender();
}

void CampusView::showResults(const cost::Results* results) {
    if (m_scene->showResults(results) != CampusScene::Update::None) m_vtk->requestRender();
}

void CampusView::setColorMetric(ColorMetric metric) {
    const int index = m_metric->findData(static_cast<int>(metric));
    if (index >= 0) m_metric->setCurrentIndex(index); // recolours through currentIndexChanged
}

ColorMetric CampusView::colorMetric() const {
    return static_cast<ColorMetric>(m_metric->currentData().toInt());
}

void CampusView::setDimmedHalls(const std::vector<bool>& halls) {
    m_scene->setDimmedHalls(halls);
    m_vtk->requestRender();
}

void CampusView::setSelectedRack(const QString& id) {
    if (id.toStdString() == m_scene->highlightedRack()) return;
    m_scene->setHighlightedRack(id.toStdString());
    m_vtk->requestRender();
}

void CampusView::resetView() {
    m_scene->resetCamera();
    m_vtk->requestRender();
}

void CampusView::onClicked(QPointF displayPos, Qt::MouseButton button) {
    if (button != Qt::LeftButton) return;
    const auto id = m_scene->pickRack(displayPos.x(), displayPos.y());
    m_scene->setHighlightedRack(id.value_or(std::string()));
    m_vtk->requestRender();
    emit rackPicked(id ? QString::fromStdString(*id) : QString());
}

void CampusView::onInteractionStarted() {
    m_lodTimer->stop();
    if (m_scene->data().placedRackCount() >= kLodRackThreshold) m_scene->setInteractiveLod(true);
}

void CampusView::onInteractionEnded() {
    if (m_scene->interactiveLod()) m_lodTimer->start();
}

bool CampusView::saveSnapshot(const QString& path, const QSize& size, QString* error) const {
    std::string why;
    if (!OffscreenRenderer::displayAvailable(&why)) {
        if (error) *error = QString::fromStdString(why);
        return false;
    }
    // A second scene from the same data: a renderer cannot be shared between two GL windows.
    CampusScene copy;
    copy.showData(m_scene->data());
    copy.setHighlightedRack(m_scene->highlightedRack());
    copy.renderer()->GetActiveCamera()->DeepCopy(m_scene->renderer()->GetActiveCamera());
    OffscreenRenderer offscreen(size.width(), size.height());
    const bool ok = offscreen.render(copy.renderer(), &why) && offscreen.writePng(path.toStdString(), &why);
    offscreen.attach(nullptr);
    if (!ok && error) *error = QString::fromStdString(why);
    return ok;
}

bool CampusView::exportGltf(const QString& path, QString* error) const {
    std::string why;
    const bool ok = writeGltf(m_scene->exportRenderer(), path.toStdString(), &why);
    if (!ok && error) *error = QString::fromStdString(why);
    return ok;
}

} // namespace ctwin::views
