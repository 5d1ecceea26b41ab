// MainWindow: authoring by direct manipulation. Buildings and data halls drawn as rectangles on the floor
// plan; sites placed by a click on the site map, scale-across links dragged from one site to another, and
// the site map's context menu. Each gesture opens the entity's ordinary form with what it implies filled in
// (app/gui/authoring), so the form's checks and its one undoable command apply.
#include "floor_plan_scene.h"
#include "gui/authoring/authoring_actions.h"
#include "main_window.h"
#include "project_tree.h"
#include "vtk_bridge/site_map_view.h"

#include <QMenu>
#include <QStatusBar>
#include <cmath>

namespace ctwin::app {

QHash<QString, QString> MainWindow::drawnRectanglePreset(views::FloorPlanScene::DrawKind kind,
                                                         const QRectF& rect, QString* error) const {
    // Positions to the decimetre: what a person reads off a plan, and what the form shows.
    const auto num = [](double v) { return QString::number(std::round(v * 10.0) / 10.0, 'f', 1); };
    QHash<QString, QString> preset;
    if (kind == views::FloorPlanScene::DrawKind::Hall) {
        const auto hit = m_scene->buildingAt(rect.center());
        if (!hit) {
            *error = tr("Draw the data hall inside a building");
            return {};
        }
        const QPointF at = hit->local - (rect.center() - rect.topLeft());
        preset = {{"building", hit->id}, {"x_m", num(at.x())}, {"y_m", num(at.y())}};
    } else {
        const auto hit = m_scene->siteAt(rect.center());
        if (!hit) {
            *error = tr("Add a site first: buildings stand on a site's campus");
            return {};
        }
        const QPointF at = hit->local - (rect.center() - rect.topLeft());
        preset = {{"site", hit->id}, {"x_m", num(at.x())}, {"y_m", num(at.y())}};
    }
    preset.insert(QStringLiteral("width_m"), num(rect.width()));
    preset.insert(QStringLiteral("depth_m"), num(rect.height()));
    return preset;
}

void MainWindow::connectSiteMap() {
    connect(m_siteMap, &views::SiteMapView::placeSiteRequested, this,
            [this](double lat, double lon) { placeSiteAt(lat, lon); });
    connect(m_siteMap, &views::SiteMapView::linkDrawn, this, &MainWindow::linkSites);
    connect(m_siteMap, &views::SiteMapView::sitePicked, this,
            [this](const QString& id) { setSelection({id}, Source::Map); });
    connect(m_siteMap, &views::SiteMapView::contextMenuRequested, this, &MainWindow::showSiteMapMenu);
}

QString MainWindow::placeSiteAt(double latDeg, double lonDeg) {
    // Four decimals of a degree: about 11 m, finer than a click on a map of hundreds of km.
    return m_authoring->insert(model::EntityKind::Site,
                               {{QStringLiteral("lat_deg"), QString::number(latDeg, 'f', 4)},
                                {QStringLiteral("lon_deg"), QString::number(lonDeg, 'f', 4)}});
}

QString MainWindow::linkSites(const QString& from, const QString& to) {
    if (to.isEmpty()) {
        statusBar()->showMessage(tr("Release the link on another site to join the two."), 5000);
        return {};
    }
    if (from == to) {
        statusBar()->showMessage(
            tr("A scale-across link joins two different sites; drag it to another site."), 5000);
        return {};
    }
    statusBar()->clearMessage();
    return m_authoring->insert(model::EntityKind::ScaleAcrossLink,
                               {{QStringLiteral("from"), from}, {QStringLiteral("to"), to}});
}

void MainWindow::showSiteMapMenu(const QPoint& screenPos, const QString& entity, double latDeg, double lonDeg,
                                 bool onGlobe) {
    const QStringList ids = entity.isEmpty() ? QStringList() : QStringList{entity};
    if (!ids.isEmpty() && ids != m_selection) setSelection(ids, Source::Map);
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("siteMapMenu"));
    if (ids.isEmpty() && onGlobe)
        menu.addAction(tr("Add site here (%1°, %2°)...").arg(latDeg, 0, 'f', 2).arg(lonDeg, 0, 'f', 2), this,
                       [this, latDeg, lonDeg] { placeSiteAt(latDeg, lonDeg); });
    const auto& p = m_document.project();
    if (!ids.isEmpty() && m_document.index().find(entity.toStdString()) &&
        m_document.index().find(entity.toStdString())->kind == model::EntityKind::Site &&
        p.sites.size() > 1) {
        auto* link = menu.addMenu(tr("Link to"));
        link->setObjectName(QStringLiteral("linkToMenu"));
        for (const auto& s : p.sites)
            if (QString::fromStdString(s.id) != entity)
                link->addAction(QString::fromStdString(s.name.empty() ? s.id : s.name), this,
                                [this, entity, id = QString::fromStdString(s.id)] { linkSites(entity, id); });
    }
    m_authoring->addContextActions(&menu, ids);
    if (!ids.isEmpty()) menu.addAction(m_deleteAction);
    menu.addSeparator();
    menu.addAction(tr("Reset view"), this, [this] {
        if (m_siteMap) m_siteMap->resetView();
    });
    menu.exec(screenPos);
}

} // namespace ctwin::app
