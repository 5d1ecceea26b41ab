#pragma once
#include "scene/color_metric.h"

#include <QSize>
#include <QString>
#include <QWidget>
#include <memory>
#include <vtkSmartPointer.h>

class QComboBox;
class QTimer;

namespace ctwin::model {
struct Project;
class Catalog;
struct ChangeSet;
} // namespace ctwin::model
namespace ctwin::cost {
struct Results;
}

namespace ctwin::views {

class CampusScene;
class VtkRenderWidget;
class ViewInteractorStyle;

/// The 3D campus view (SPEC.md §5): a colour-metric chooser and reset button over a VtkRenderWidget
/// showing a CampusScene. Orbit with the left button, pan with the middle button (or shift+left), zoom
/// with the wheel or right button, 'r' or the button resets the view; a click on a rack emits rackPicked.
///
/// Read only: it never changes the design. Feed it like the other views: showProject() after open/reset,
/// applyChanges() after every committed change set (with the re-evaluated results), setSelectedRack()
/// when the selection changes elsewhere. Nothing it is given is retained except the derived scene.
class CampusView : public QWidget {
    Q_OBJECT
public:
    explicit CampusView(QWidget* parent = nullptr);
    ~CampusView() override;

    /// Full rebuild (document opened or reset). `results` may be null (thermal margins then show grey).
    void showProject(const model::Project& project, const model::Catalog& catalog,
                     const cost::Results* results);
    /// Incremental update after a committed change (moved racks update in place).
    void applyChanges(const model::ChangeSet& changes, const model::Project& project,
                      const model::Catalog& catalog, const cost::Results* results);
    /// New results for the same design (e.g. an assumption changed): recolours if needed.
    void showResults(const cost::Results* results);

    void setColorMetric(ColorMetric metric);
    ColorMetric colorMetric() const;
    /// Outlines a rack (empty: none) without emitting rackPicked.
    void setSelectedRack(const QString& id);
    /// Greys the racks of these halls (indices into the design's halls; the Timeline's date cursor).
    void setDimmedHalls(const std::vector<bool>& halls);
    void resetView();

    /// Renders the current view (same camera) offscreen at `size` into a PNG. Needs an X display.
    bool saveSnapshot(const QString& path, const QSize& size, QString* error = nullptr) const;
    /// Writes the campus as glTF (.gltf self-contained, or .glb).
    bool exportGltf(const QString& path, QString* error = nullptr) const;

    CampusScene& scene() { return *m_scene; }
    VtkRenderWidget* renderWidget() const { return m_vtk; }

    /// Above this many racks the view switches to the row-run level of detail while the camera moves.
    /// Full detail draws a box per run of touching racks (RackBatch), so a 14,180-rack campus orbits at
    /// full detail (campus_orbit under llvmpipe: about 13 ms main-thread and 38 ms process CPU per frame,
    /// against 10 and 31 for the level of detail); far larger campuses still switch.
    static constexpr std::size_t kLodRackThreshold = 30000;

signals:
    /// A click on a rack (its entity id), or on empty space (empty id: clear the selection).
    void rackPicked(const QString& id);
    void colorMetricChanged(ColorMetric metric);

private:
    void onClicked(QPointF displayPos, Qt::MouseButton button);
    void onInteractionStarted();
    void onInteractionEnded();

    std::unique_ptr<CampusScene> m_scene;
    VtkRenderWidget* m_vtk = nullptr;
    QComboBox* m_metric = nullptr;
    QTimer* m_lodTimer = nullptr;
    vtkSmartPointer<ViewInteractorStyle> m_style;
};

} // namespace ctwin::views
