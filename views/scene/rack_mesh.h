#pragma once
#include "campus_scene_data.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>
#include <vtkSmartPointer.h>
#include <vtkType.h>

class vtkActor;
class vtkImageData;
class vtkPolyData;
class vtkUnsignedCharArray;

namespace ctwin::views {

/// The racks of one hall as runs: racks standing side by side in a row (same row, size, rotation and
/// floor height, each one width further along than the first, within 1 mm) form one box, the run. No
/// VTK here: RackBatch draws the runs of every hall as one mesh. A rack alone is a run of one.
class RackMesh {
public:
    /// A run: slots [first, first + count) in racks() order, and the 8 corners of its box (x, y, z each):
    /// corner 4 j + k is at boundary j (0 = start, 1 = end) and k = 0 front bottom, 1 back bottom,
    /// 2 front top, 3 back top.
    struct Run {
        std::size_t first = 0;
        std::size_t count = 0;
        std::array<float, 24> corners{};
    };

    /// Builds the runs of `members` (indices into `racks`, all placed), none longer than `maxRun` racks.
    void build(const std::vector<RackInstance>& racks, const std::vector<std::size_t>& members,
               std::size_t maxRun);

    /// The racks in slot order (indices into CampusSceneData::racks).
    const std::vector<std::size_t>& racks() const { return m_racks; }
    const std::vector<Run>& runs() const { return m_runs; }
    /// The run holding a slot.
    std::size_t runOfSlot(std::size_t slot) const { return m_runOfSlot[slot]; }
    std::size_t runCount() const { return m_runs.size(); }

private:
    std::vector<std::size_t> m_racks;
    std::vector<Run> m_runs;
    std::vector<std::uint32_t> m_runOfSlot;
};

/// Every hall's rack runs as one mesh drawn in one call. A run is 5 quads (top, front, back, one end face
/// at each end; no bottom: racks stand on the floor; the faces between neighbours are never seen) over 8
/// shared corners, whatever its length. Each rack keeps its own colour through a colour texture: a run of
/// n racks owns 9 n + 2 consecutive texels of one texture row (kTexelsPerRack per rack, the first of each
/// rack after the first a darker seam, and a copy of its first and last rack's colour at either end, so
/// that its end faces, sampled exactly on the run's edge, take the end rack's colour), and the run's
/// texture coordinate runs from its first rack's texels to past its last along the run, so nearest-texel
/// sampling gives every rack its colour over exactly its width, with a seam where racks meet. Faces carry no
/// normals: the mapper shades each face flat (ambient 0.3, diffuse 0.7, no specular, back faces culled), and
/// the texture colour multiplies the lit white, as the per-face colours this replaces did.
///
/// Against one 3-to-5-face box per rack (cell colours), a software rasterizer transforms 8 corners and
/// sets up 10 triangles per run instead of about 4 corners and 6 triangles per rack; a recolour changes
/// texels only (the geometry is not uploaded again).
///
/// Each run owns 5 consecutive cells, so a picked cell and the picked point map back to their rack
/// (slotAt).
class RackBatch {
public:
    /// Texture width in texels.
    static constexpr int kTextureWidth = 1024;
    /// Texels per rack: the first of a rack that follows another in its run is its seam, a darker band of
    /// 1/9 of its width (6.7 cm on a 0.6 m rack) that shows where one rack ends and the next begins, at no
    /// cost in triangles; the middle texel (4) is the one texelOf names. Odd, so that the middle texel's
    /// centre is the rack's centre.
    static constexpr int kTexelsPerRack = 9;
    /// The longest run the texture holds: (kTextureWidth - 2) / kTexelsPerRack racks.
    static constexpr int kMaxRun = (kTextureWidth - 2) / kTexelsPerRack;

    RackBatch();
    ~RackBatch();
    RackBatch(const RackBatch&) = delete;
    RackBatch& operator=(const RackBatch&) = delete;

    /// Builds the mesh and texture from the halls' runs, colours from `racks` (indices in each mesh's
    /// racks()).
    void assemble(const std::vector<RackMesh>& meshes, const std::vector<RackInstance>& racks);
    /// Recolours the rack in `slot` of `mesh` (call modified() after a batch).
    void setColor(std::size_t mesh, std::size_t slot, Rgb color);
    /// Marks the colours changed so the next frame uploads the texture.
    void modified();

    vtkPolyData* polyData() const;
    vtkActor* actor() const;
    /// The colour texture's image (RGB, kTextureWidth wide, one row per filled line of runs).
    vtkImageData* colours() const;
    /// The texel (column, row) holding the colour of a rack.
    std::array<int, 2> texelOf(std::size_t mesh, std::size_t slot) const;
    /// First cell and number of cells of the run drawing a rack.
    std::pair<vtkIdType, vtkIdType> runCells(std::size_t mesh, std::size_t slot) const;
    /// The {mesh, slot} of the rack drawn at `world` (a point on or near the cell's face) in `cell`.
    std::optional<std::pair<std::size_t, std::size_t>> slotAt(vtkIdType cell, const double world[3]) const;
    std::size_t runCount() const { return m_runs.size(); }

private:
    struct RunRef {
        std::size_t mesh = 0;
        std::size_t firstSlot = 0;
        std::size_t count = 0;
        int texelX = 0; // texel of the run's padding texel; slot k's colour is at texelX + 1 + k
        int texelY = 0;
        std::array<double, 3> start{}, end{}; // front bottom corners of both ends
    };
    vtkSmartPointer<vtkPolyData> m_poly;
    vtkSmartPointer<vtkImageData> m_image;
    vtkSmartPointer<vtkActor> m_actor;
    std::vector<RunRef> m_runs;
    /// Global run of each slot of each mesh.
    std::vector<std::vector<std::uint32_t>> m_runOfSlot;
    void setTexel(int x, int y, Rgb color);
};

} // namespace ctwin::views
