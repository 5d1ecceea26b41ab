#pragma once
#include <QPoint>
#include <QPointF>
#include <QSize>
#include <QString>
#include <QWidget>
#include <memory>
#include <vtkSmartPointer.h>

namespace ctwin::model {
struct Project;
class Catalog;
struct ChangeSet;
} // namespace ctwin::model
namespace ctwin::cost {
struct Results;
}

namespace ctwin::views {

class SiteMapScene;
class VtkRenderWidget;
class ViewInteractorStyle;

/// The site map (SPEC.md §5): sites by latitude/longitude with scale-across links labelled with route km,
/// one-way latency and capacity; links over their latency budget in the warning colour. Pan with the left
/// or middle button, zoom with the wheel, 'r' resets. Authoring happens through signals (the window turns
/// them into forms and commands): a click on open map asks to place a site there, a drag from one site to
/// another asks for a link between them (the dragged line follows the cursor), a click on a site picks it
/// and a right click asks for a context menu.
class SiteMapView : public QWidget {
    Q_OBJECT
public:
    explicit SiteMapView(QWidget* parent = nullptr);
    ~SiteMapView() override;

    void showProject(const model::Project& project, const model::Catalog& catalog,
                     const cost::Results* results);
    /// Rebuilds when the change touches sites, buildings or links (the map is small), else nothing; says
    /// whether it rebuilt.
    bool applyChanges(const model::ChangeSet& changes, const model::Project& project,
                      const model::Catalog& catalog, const cost::Results* results);
    /// Rebuilds with fresh results (link figures from the evaluation, not estimates), keeping pan and zoom.
    void showResults(const model::Project& project, const model::Catalog& catalog,
                     const cost::Results* results);
    void resetView();
    bool saveSnapshot(const QString& path, const QSize& size, QString* error = nullptr) const;

    SiteMapScene& scene() { return *m_scene; }
    VtkRenderWidget* renderWidget() const { return m_vtk; }
    /// Position in renderWidget() coordinates of a map point (km), and back (tests, menus).
    QPointF widgetPosOf(double xKm, double yKm) const;
    /// The site (id) whose marker is under a renderWidget() position, else empty.
    QString siteAt(const QPointF& widgetPos) const;

signals:
    /// A click on the map away from every site, at this latitude and longitude (degrees, on the globe).
    void placeSiteRequested(double latDeg, double lonDeg);
    /// A drag from one site released on a site (possibly the same one: the window refuses that) or, with
    /// `toSite` empty, on open map.
    void linkDrawn(const QString& fromSite, const QString& toSite);
    /// A click on a site's marker.
    void sitePicked(const QString& site);
    /// A right click: on a site or a link (`entity` its id, else empty), at a place on the globe (`onGlobe`
    /// false when outside it).
    void contextMenuRequested(const QPoint& globalPos, const QString& entity, double latDeg, double lonDeg,
                              bool onGlobe);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onClicked(QPointF displayPos, Qt::MouseButton button);
    /// Hit tolerance around markers and arcs: 10 px at the current zoom, at least the marker radius.
    double pickRadiusKm() const;
    std::unique_ptr<SiteMapScene> m_scene;
    VtkRenderWidget* m_vtk = nullptr;
    vtkSmartPointer<ViewInteractorStyle> m_style;
    /// The site a link drag started on (empty when no drag), and whether the cursor moved off it.
    QString m_linkFrom;
    QPointF m_linkPress;
    bool m_linkMoved = false;
    /// False until the map widget first had a size (the map is then fitted to it).
    bool m_sized = false;
};

} // namespace ctwin::views
