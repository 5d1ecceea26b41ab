#pragma once
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
/// or middle button, zoom with the wheel, 'r' resets. Read only.
class SiteMapView : public QWidget {
    Q_OBJECT
public:
    explicit SiteMapView(QWidget* parent = nullptr);
    ~SiteMapView() override;

    void showProject(const model::Project& project, const model::Catalog& catalog,
                     const cost::Results* results);
    /// Rebuilds when the change touches sites, buildings or links (the map is small), else nothing.
    void applyChanges(const model::ChangeSet& changes, const model::Project& project,
                      const model::Catalog& catalog, const cost::Results* results);
    void resetView();
    bool saveSnapshot(const QString& path, const QSize& size, QString* error = nullptr) const;

    SiteMapScene& scene() { return *m_scene; }
    VtkRenderWidget* renderWidget() const { return m_vtk; }

private:
    std::unique_ptr<SiteMapScene> m_scene;
    VtkRenderWidget* m_vtk = nullptr;
    vtkSmartPointer<ViewInteractorStyle> m_style;
};

} // namespace ctwin::views
