#pragma once
#include "campus_scene_data.h"
#include "color_metric.h"
#include "scene_source.h"

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <vtkRenderer.h> // exportRenderer() returns a smart pointer to one
#include <vtkSmartPointer.h>

class vtkImageData;
class vtkPolyData;
class vtkProp;

namespace ctwin::model {
struct ChangeSet;
}
namespace ctwin::cost {
struct Results;
}

namespace ctwin::views {

class CampusSceneBuilder;

/// The 3D campus as VTK props in one vtkRenderer (no Qt): site grounds, translucent building shells with
/// edges, hall floors, racks as one mesh (RackBatch: a box per run of touching racks, coloured per rack by
/// a metric through a colour texture, one draw call for the campus), CDUs, cooling pipes as tubes,
/// building labels, a scalar-bar legend and a notice for what could not be drawn. Model change sets update
/// only what changed (moved racks: the runs of their halls, then the batch; recoloured racks: their
/// texels). Picking is a ray cast against the racks' boxes, so it needs no GL read-back; a cell of the
/// rack mesh and the picked point (from a VTK picker) map back to their rack too (rackOfCell).
///
/// While the user orbits (setInteractiveLod(true)) the racks are drawn as one box per run of adjacent,
/// same-coloured racks of a row, and the pipes as lines; CampusView does so only for very large campuses
/// (full detail orbits a 14,000-rack campus at about 36 frames/s under llvmpipe).
class CampusScene {
public:
    enum class Update { None, Recoloured, Incremental, Rebuilt };

    CampusScene();
    ~CampusScene();
    CampusScene(const CampusScene&) = delete;
    CampusScene& operator=(const CampusScene&) = delete;

    vtkRenderer* renderer() const;

    /// Builds everything from a design (full rebuild) and keeps the frames for incremental updates.
    void showProject(const SceneSource& source, ColorMetric metric);
    /// Shows prepared data (offscreen snapshots, tests). Incremental updates need showProject first.
    void showData(CampusSceneData data);
    /// Applies one committed change set: moved or edited racks update in place, anything structural or
    /// any change of sites, buildings, halls, rows or loops rebuilds. Pass the design after the change
    /// (and the results of its evaluation when available).
    Update applyChanges(const model::ChangeSet& changes, const SceneSource& source);
    /// New engine results (thermal margins; null = none): recolours when the colours change.
    Update showResults(const cost::Results* results);
    /// Recolours for another metric (no rebuild; needs showProject first).
    void setColorMetric(ColorMetric metric);
    ColorMetric colorMetric() const { return m_data.metric; }
    /// Greys the racks of these halls (indices into the design's halls; the Timeline's date cursor, issue
    /// 34 item 5); an empty list shows every hall as designed. Kept across rebuilds.
    void setDimmedHalls(const std::vector<bool>& halls);
    const CampusSceneData& data() const { return m_data; }

    /// The rack under a display position (pixels, origin bottom-left, as VTK's display coordinates).
    std::optional<std::string> pickRack(double displayX, double displayY) const;
    /// Display position (x, y, depth) of a rack's top-face centre (or its mid-height centre).
    std::optional<std::array<double, 3>> rackDisplayPoint(const std::string& id, bool topFace = true) const;
    /// Outlines one rack (empty id: none).
    void setHighlightedRack(const std::string& id);
    const std::string& highlightedRack() const { return m_highlighted; }

    void setInteractiveLod(bool on);
    bool interactiveLod() const { return m_lod; }
    /// Number of boxes the interactive level of detail draws (after it was built).
    std::size_t lodBoxCount() const;

    /// Oblique view of the whole campus from the south-east.
    void resetCamera();

    /// The racks' runs (RackMesh: one per hall with placed racks) and where a rack is: {mesh, slot}.
    std::size_t rackMeshCount() const;
    std::optional<std::pair<std::size_t, std::size_t>> rackMeshSlot(const std::string& id) const;
    /// The one mesh drawing every rack (RackBatch), its colour texture, its number of runs, the faces
    /// {first cell, count} of the run drawing a rack and the texel (column, row) holding its colour.
    vtkPolyData* rackBatch() const;
    vtkImageData* rackColours() const;
    std::size_t rackRunCount() const;
    std::optional<std::pair<vtkIdType, vtkIdType>> rackCells(const std::string& id) const;
    std::optional<std::array<int, 2>> rackTexel(const std::string& id) const;
    /// The rack drawn at world point `world` of a picked cell, when `prop` is the rack mesh's actor (a
    /// cell is a face of a whole run, so the point along the run tells the rack).
    std::optional<std::string> rackOfCell(const vtkProp* prop, vtkIdType cell, const double world[3]) const;

    /// Test hooks: the tube geometry, label actors.
    vtkPolyData* tubeGeometry() const;
    std::size_t labelActorCount() const;
    bool noticeVisible() const;
    std::string noticeText() const;

    /// A renderer holding the same scene as explicit geometry (no glyph instancing, no text, building
    /// shells as edges), for exporters such as vtkGLTFExporter that read mapper inputs.
    vtkSmartPointer<vtkRenderer> exportRenderer() const;

private:
    struct Vtk;
    void rebuildActors();
    void rebuildRackMeshes();
    void buildRackMesh(std::size_t mesh, const std::vector<std::size_t>& members);
    void refreshRackColours();
    static constexpr std::size_t kNoMesh = static_cast<std::size_t>(-1);
    void refreshTubes();
    void refreshLegend();
    void refreshNotice();
    void refreshHighlight();
    void rebuildLod();
    /// After a full recolour: colour arrays, pipes, legend, notice, LOD.
    void refreshColours();
    void applyLodVisibility();
    void hideLabelsBehindCamera();

    std::unique_ptr<Vtk> m_vtk;
    std::unique_ptr<CampusSceneBuilder> m_builder;
    CampusSceneData m_data;
    std::string m_highlighted;
    bool m_lod = false;
    bool m_lodDirty = true;
};

} // namespace ctwin::views
