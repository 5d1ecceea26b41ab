#include "site_map_view.h"

#include "change_set.h"
#include "scene/offscreen_renderer.h"
#include "scene/site_map_scene.h"
#include "scene/view_interactor_style.h"
#include "vtk_bridge/vtk_render_widget.h"

#include <QVBoxLayout>
#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace ctwin::views {

SiteMapView::SiteMapView(QWidget* parent)
    : QWidget(parent), m_scene(std::make_unique<SiteMapScene>()),
      m_style(vtkSmartPointer<ViewInteractorStyle>::New()) {
    m_vtk = new VtkRenderWidget(this);
    m_vtk->setToolTip(tr("Drag: pan. Wheel or right drag: zoom. R: reset."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_vtk, 1);
    m_style->setPlanar(true);
    m_style->setResetCallback([this] { resetView(); });
    m_vtk->setInteractorStyle(m_style);
    m_vtk->setRenderer(m_scene->renderer());
}

SiteMapView::~SiteMapView() {
    m_vtk->setRenderer(nullptr);
}

void SiteMapView::showProject(const model::Project& project, const model::Catalog& catalog,
                              const cost::Results* results) {
    m_scene->showProject(SceneSource{project, catalog, results});
    m_vtk->requestRender();
}

void SiteMapView::applyChanges(const model::ChangeSet& changes, const model::Project& project,
                               const model::Catalog& catalog, const cost::Results* results) {
    using K = model::EntityKind;
    if (changes.touches(K::Site) || changes.touches(K::Building) || changes.touches(K::ScaleAcrossLink) ||
        !changes.assumptions.empty()) {
        // Keep the user's pan and zoom across the rebuild.
        auto camera = vtkSmartPointer<vtkCamera>::New();
        camera->DeepCopy(m_scene->renderer()->GetActiveCamera());
        m_scene->showProject(SceneSource{project, catalog, results});
        m_scene->renderer()->GetActiveCamera()->DeepCopy(camera);
        m_vtk->requestRender();
    }
}

void SiteMapView::resetView() {
    m_scene->resetCamera();
    m_vtk->requestRender();
}

bool SiteMapView::saveSnapshot(const QString& path, const QSize& size, QString* error) const {
    std::string why;
    if (!OffscreenRenderer::displayAvailable(&why)) {
        if (error) *error = QString::fromStdString(why);
        return false;
    }
    SiteMapScene copy;
    OffscreenRenderer offscreen(size.width(), size.height());
    offscreen.attach(copy.renderer());
    copy.showData(m_scene->data()); // fits the camera to the snapshot's aspect
    const bool ok = offscreen.render(copy.renderer(), &why) && offscreen.writePng(path.toStdString(), &why);
    offscreen.attach(nullptr);
    if (!ok && error) *error = QString::fromStdString(why);
    return ok;
}

} // namespace ctwin::views
