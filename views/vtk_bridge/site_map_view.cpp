#include "site_map_view.h"

#include "change_set.h"
#include "scene/offscreen_renderer.h"
#include "scene/site_map_pick.h"
#include "scene/site_map_scene.h"
#include "scene/view_interactor_style.h"
#include "vtk_bridge/vtk_render_widget.h"

#include <QMouseEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <vtkCamera.h>
#include <vtkRenderer.h>

namespace ctwin::views {

SiteMapView::SiteMapView(QWidget* parent)
    : QWidget(parent), m_scene(std::make_unique<SiteMapScene>()),
      m_style(vtkSmartPointer<ViewInteractorStyle>::New()) {
    m_vtk = new VtkRenderWidget(this);
    m_vtk->setToolTip(tr("Click: place a site there. Drag from a site to another: link them. Drag elsewhere: "
                         "pan. Wheel or right drag: zoom. Right click: menu. R: reset."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_vtk, 1);
    m_style->setPlanar(true);
    m_style->setResetCallback([this] { resetView(); });
    m_vtk->setInteractorStyle(m_style);
    m_vtk->setRenderer(m_scene->renderer());
    m_vtk->installEventFilter(this);
    connect(m_vtk, &VtkRenderWidget::clicked, this,
            [this](QPointF displayPos, Qt::MouseButton button, Qt::KeyboardModifiers) {
                onClicked(displayPos, button);
            });
}

SiteMapView::~SiteMapView() {
    m_vtk->setRenderer(nullptr);
}

void SiteMapView::showProject(const model::Project& project, const model::Catalog& catalog,
                              const cost::Results* results) {
    m_scene->showProject(SceneSource{project, catalog, results});
    m_vtk->requestRender();
}

bool SiteMapView::applyChanges(const model::ChangeSet& changes, const model::Project& project,
                               const model::Catalog& catalog, const cost::Results* results) {
    using K = model::EntityKind;
    if (changes.touches(K::Site) || changes.touches(K::Building) || changes.touches(K::ScaleAcrossLink) ||
        !changes.assumptions.empty()) {
        showResults(project, catalog, results);
        return true;
    }
    return false;
}

void SiteMapView::showResults(const model::Project& project, const model::Catalog& catalog,
                              const cost::Results* results) {
    // Keep the user's pan and zoom across the rebuild.
    auto camera = vtkSmartPointer<vtkCamera>::New();
    camera->DeepCopy(m_scene->renderer()->GetActiveCamera());
    m_scene->showProject(SceneSource{project, catalog, results});
    m_scene->renderer()->GetActiveCamera()->DeepCopy(camera);
    m_vtk->requestRender();
}

QPointF SiteMapView::widgetPosOf(double xKm, double yKm) const {
    const auto d = m_scene->displayOf({xKm, yKm});
    // Inverse of VtkRenderWidget::toDisplay.
    const double dpr = m_vtk->devicePixelRatioF();
    return {d[0] / dpr, (m_vtk->height() * dpr - d[1] - 1.0) / dpr};
}

double SiteMapView::pickRadiusKm() const {
    return std::max(10.0 * m_vtk->devicePixelRatioF() * m_scene->kmPerPixel(),
                    m_scene->data().markerRadiusKm);
}

QString SiteMapView::siteAt(const QPointF& widgetPos) const {
    const QPointF d = m_vtk->toDisplay(widgetPos);
    const MapSite* s = SiteMapPick::siteAt(m_scene->data(), m_scene->worldAt(d.x(), d.y()), pickRadiusKm());
    return s ? QString::fromStdString(s->id) : QString();
}

bool SiteMapView::eventFilter(QObject* watched, QEvent* event) {
    if (watched != m_vtk) return QWidget::eventFilter(watched, event);
    if (event->type() == QEvent::Resize) {
        // After the GL widget took its new size: the first real size fits the map to it; later ones keep
        // the user's view and only place the link labels anew (they avoid the site names in pixels).
        QTimer::singleShot(0, this, [this] {
            if (!m_sized) {
                m_sized = true;
                resetView();
            } else {
                m_scene->relayoutLabels();
                m_vtk->requestRender();
            }
        });
    }
    // A left press on a site starts a link drag; the interactor (pan) does not see it.
    switch (event->type()) {
    case QEvent::MouseButtonPress: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (e->button() != Qt::LeftButton) break;
        const QString site = siteAt(e->position());
        if (site.isEmpty()) break;
        m_linkFrom = site;
        m_linkPress = e->position();
        m_linkMoved = false;
        return true;
    }
    case QEvent::MouseMove: {
        if (m_linkFrom.isEmpty()) break;
        auto* e = static_cast<QMouseEvent*>(event);
        if ((e->position() - m_linkPress).manhattanLength() >= 4.0) m_linkMoved = true;
        const auto& sites = m_scene->data().sites;
        const auto from = std::find_if(sites.begin(), sites.end(),
                                       [&](const MapSite& s) { return s.id == m_linkFrom.toStdString(); });
        if (from != sites.end() && m_linkMoved) {
            const QPointF d = m_vtk->toDisplay(e->position());
            m_scene->showLinkPreview(from->position, m_scene->worldAt(d.x(), d.y()));
            m_vtk->requestRender();
        }
        return true;
    }
    case QEvent::MouseButtonRelease: {
        auto* e = static_cast<QMouseEvent*>(event);
        if (m_linkFrom.isEmpty() || e->button() != Qt::LeftButton) break;
        const QString from = m_linkFrom;
        m_linkFrom.clear();
        m_scene->clearLinkPreview();
        m_vtk->requestRender();
        if (!m_linkMoved && (e->position() - m_linkPress).manhattanLength() < 4.0)
            emit sitePicked(from);
        else
            emit linkDrawn(from, siteAt(e->position()));
        return true;
    }
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void SiteMapView::onClicked(QPointF displayPos, Qt::MouseButton button) {
    const auto& data = m_scene->data();
    const Vec2 km = m_scene->worldAt(displayPos.x(), displayPos.y());
    const auto ll = SiteMapPick::latLonAt(data, km);
    const bool onGlobe = SiteMapPick::onGlobe(data, km);
    if (button == Qt::LeftButton) {
        if (onGlobe) emit placeSiteRequested(ll[0], ll[1]);
        return;
    }
    if (button != Qt::RightButton) return;
    QString entity;
    if (const MapSite* s = SiteMapPick::siteAt(data, km, pickRadiusKm()))
        entity = QString::fromStdString(s->id);
    else if (const MapLink* l = SiteMapPick::linkAt(data, km, pickRadiusKm()))
        entity = QString::fromStdString(l->id);
    const double dpr = m_vtk->devicePixelRatioF();
    const QPoint widget(qRound(displayPos.x() / dpr),
                        qRound((m_vtk->height() * dpr - displayPos.y() - 1.0) / dpr));
    emit contextMenuRequested(m_vtk->mapToGlobal(widget), entity, ll[0], ll[1], onGlobe);
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
