#pragma once
#include "campus_scene_data.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>
#include <vtkSmartPointer.h>
#include <vtkType.h>

class vtkActor;
class vtkPolyData;
class vtkUnsignedCharArray;

namespace ctwin::views {

/// The racks of one hall as one mesh, drawn in one call. Racks standing side by side in a row (same row,
/// type and rotation, touching within 1 mm) form a run that shares its corners: each rack has its top,
/// front and back faces, the run has one end face at each end, and the faces between neighbours (never
/// seen) are left out. A rack alone is a 5-face box (no bottom: it stands on the floor). Colours are per
/// face (cell scalars), so every rack keeps its own colour. Faces carry no normals: the mapper shades each
/// face flat from the screen-space derivatives of its position, as the instanced cube glyphs this replaces
/// were shaded (ambient 0.3, diffuse 0.7, no specular, back faces culled).
///
/// Against one instanced glyph set per rack type over the whole campus, a software rasterizer shades
/// about 4 shared corners per rack instead of 24 instanced ones and sets up 6 triangles instead of 12,
/// and the renderer's frustum culler can drop halls out of view.
///
/// Each rack owns a contiguous range of cells (rackCells), so a picked cell maps back to its rack
/// (rackOfCell) and a recolour touches only that range.
class RackMesh {
public:
    RackMesh();
    ~RackMesh();
    RackMesh(RackMesh&&) noexcept;
    RackMesh& operator=(RackMesh&&) noexcept;

    /// Builds the mesh of `members` (indices into `racks`, all placed). The mesh orders them along their
    /// rows: racks() gives the order (slot k = racks()[k]).
    void build(const std::vector<RackInstance>& racks, const std::vector<std::size_t>& members);
    /// Recolours the rack in `slot` (call modified() after a batch).
    void setColor(std::size_t slot, Rgb color);
    /// Marks the colours changed so the next frame uploads them.
    void modified();

    vtkPolyData* polyData() const;
    vtkActor* actor() const;
    /// The racks in slot order (indices into CampusSceneData::racks).
    const std::vector<std::size_t>& racks() const { return m_racks; }
    /// First cell and number of cells of the rack in `slot`.
    std::pair<vtkIdType, vtkIdType> rackCells(std::size_t slot) const {
        return {m_cellStart[slot], m_cellStart[slot + 1] - m_cellStart[slot]};
    }
    /// The slot of the rack a cell belongs to.
    std::size_t slotOfCell(vtkIdType cell) const { return m_cellSlot[static_cast<std::size_t>(cell)]; }
    /// Number of runs (rows of touching racks drawn with shared corners) after build().
    std::size_t runCount() const { return m_runs; }

private:
    vtkSmartPointer<vtkPolyData> m_poly;
    vtkSmartPointer<vtkUnsignedCharArray> m_rgb;
    vtkSmartPointer<vtkActor> m_actor;
    std::vector<std::size_t> m_racks;
    std::vector<vtkIdType> m_cellStart;    // per slot, plus the end
    std::vector<std::uint32_t> m_cellSlot; // per cell
    std::size_t m_runs = 0;
};

} // namespace ctwin::views
