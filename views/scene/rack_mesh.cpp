#include "rack_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkImageData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkTexture.h>
#include <vtkUnsignedCharArray.h>

namespace ctwin::views {

namespace {

/// A rack closer than this (m) to where a touching neighbour would stand continues its run.
constexpr double kTouchTolerance = 1e-3;
constexpr int kCellsPerRun = 5;

long long mm(double v) {
    return std::llround(v * 1000.0);
}

} // namespace

void RackMesh::build(const std::vector<RackInstance>& racks, const std::vector<std::size_t>& members,
                     std::size_t maxRun) {
    // Racks of one line (row, size, rotation, offset across the row, floor height) ordered along it.
    struct Item {
        std::tuple<std::string, long long, long long, long long, long long, long long, long long> line;
        double along = 0.0;
        std::size_t rack = 0;
    };
    std::vector<Item> items;
    items.reserve(members.size());
    for (std::size_t i : members) {
        const auto& r = racks[i];
        const double a = r.rotationDeg * std::numbers::pi / 180.0, ca = std::cos(a), sa = std::sin(a);
        const double along = r.base[0] * ca + r.base[1] * sa, across = -r.base[0] * sa + r.base[1] * ca;
        items.push_back({{r.rowId, std::llround(r.rotationDeg * 100.0), mm(r.width), mm(r.depth),
                          mm(r.height), mm(across), mm(r.base[2])},
                         along,
                         i});
    }
    std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) {
        return std::tie(x.line, x.along, x.rack) < std::tie(y.line, y.along, y.rack);
    });

    m_racks.clear();
    m_runs.clear();
    m_runOfSlot.clear();
    m_racks.reserve(items.size());
    m_runOfSlot.reserve(items.size());
    maxRun = std::max<std::size_t>(maxRun, 1);
    for (std::size_t begin = 0; begin < items.size();) {
        // The run: following racks of the same line, the k-th standing k widths along from the first
        // (touching; the test is against the first so that small gaps cannot add up along a long row).
        const auto& first = racks[items[begin].rack];
        std::size_t end = begin + 1;
        while (end < items.size() && end - begin < maxRun && items[end].line == items[begin].line &&
               std::abs(items[end].along - items[begin].along -
                        static_cast<double>(end - begin) * first.width) <= kTouchTolerance)
            ++end;
        const auto& last = racks[items[end - 1].rack];
        Run run;
        run.first = m_racks.size();
        run.count = end - begin;
        const double a = first.rotationDeg * std::numbers::pi / 180.0, ca = std::cos(a), sa = std::sin(a);
        const double hw = first.width / 2, hd = first.depth / 2;
        const double z0 = first.base[2], z1 = first.base[2] + first.height;
        for (int j = 0; j < 2; ++j) {
            const auto& r = j == 0 ? first : last;
            const double sign = j == 0 ? -1.0 : 1.0;
            const double px = r.base[0] + sign * hw * ca, py = r.base[1] + sign * hw * sa;
            int k = 0;
            for (double z : {z0, z1})
                for (double side : {-hd, hd}) {
                    float* c = &run.corners[static_cast<std::size_t>(3 * (4 * j + k++))];
                    c[0] = static_cast<float>(px - side * sa);
                    c[1] = static_cast<float>(py + side * ca);
                    c[2] = static_cast<float>(z);
                }
        }
        for (std::size_t i = begin; i < end; ++i) {
            m_racks.push_back(items[i].rack);
            m_runOfSlot.push_back(static_cast<std::uint32_t>(m_runs.size()));
        }
        m_runs.push_back(run);
        begin = end;
    }
}

RackBatch::RackBatch()
    : m_poly(vtkSmartPointer<vtkPolyData>::New()), m_image(vtkSmartPointer<vtkImageData>::New()),
      m_actor(vtkSmartPointer<vtkActor>::New()) {
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(m_poly);
    mapper->ScalarVisibilityOff();
    m_actor->SetMapper(mapper);
    auto texture = vtkSmartPointer<vtkTexture>::New();
    texture->SetInputData(m_image);
    texture->InterpolateOff(); // nearest texel: a rack's colour ends exactly at its side
    texture->MipmapOff();
    texture->RepeatOff();
    texture->EdgeClampOn();
    texture->SetColorModeToDirectScalars();
    m_actor->SetTexture(texture);
    auto* p = m_actor->GetProperty();
    p->SetColor(1.0, 1.0, 1.0);
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    p->SetSpecular(0.0);
    p->BackfaceCullingOn();
}

RackBatch::~RackBatch() = default;

void RackBatch::assemble(const std::vector<RackMesh>& meshes, const std::vector<RackInstance>& racks) {
    std::size_t runs = 0;
    for (const auto& m : meshes)
        runs += m.runCount();
    // Texture rows: runs fill a row left to right, each with a padding texel at both ends.
    m_runs.clear();
    m_runs.reserve(runs);
    m_runOfSlot.assign(meshes.size(), {});
    int x = 0, y = 0;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const auto firstRun = static_cast<std::uint32_t>(m_runs.size());
        for (const auto& run : meshes[m].runs()) {
            const int need = static_cast<int>(run.count) * kTexelsPerRack + 2;
            if (x + need > kTextureWidth) x = 0, ++y;
            RunRef ref;
            ref.mesh = m, ref.firstSlot = run.first, ref.count = run.count, ref.texelX = x, ref.texelY = y;
            for (int i = 0; i < 3; ++i)
                ref.start[static_cast<std::size_t>(i)] = run.corners[static_cast<std::size_t>(i)],
                ref.end[static_cast<std::size_t>(i)] = run.corners[static_cast<std::size_t>(12 + i)];
            m_runs.push_back(ref);
            x += need;
        }
        auto& slots = m_runOfSlot[m];
        slots.resize(meshes[m].racks().size());
        for (std::size_t s = 0; s < slots.size(); ++s)
            slots[s] = firstRun + static_cast<std::uint32_t>(meshes[m].runOfSlot(s));
    }
    const int rows = y + 1;

    auto points = vtkSmartPointer<vtkFloatArray>::New();
    points->SetNumberOfComponents(3);
    points->SetNumberOfTuples(static_cast<vtkIdType>(runs * 8));
    auto tcoords = vtkSmartPointer<vtkFloatArray>::New();
    tcoords->SetName("tcoords");
    tcoords->SetNumberOfComponents(2);
    tcoords->SetNumberOfTuples(static_cast<vtkIdType>(runs * 8));
    auto conn = vtkSmartPointer<vtkIdTypeArray>::New();
    conn->SetNumberOfValues(static_cast<vtkIdType>(runs * kCellsPerRun * 4));
    float* pt = points->GetPointer(0);
    float* tc = tcoords->GetPointer(0);
    vtkIdType* q = conn->GetPointer(0);
    std::size_t g = 0;
    for (const auto& m : meshes)
        for (const auto& run : m.runs()) {
            const auto& ref = m_runs[g];
            const auto base = static_cast<vtkIdType>(8 * g);
            std::copy(run.corners.begin(), run.corners.end(), pt + 24 * g);
            // Along the run the coordinate goes from the first rack's texel to past the last one's.
            const float u0 = static_cast<float>(ref.texelX + 1) / kTextureWidth;
            const float u1 =
                static_cast<float>(ref.texelX + 1 + static_cast<int>(ref.count) * kTexelsPerRack) /
                kTextureWidth;
            const float v = (static_cast<float>(ref.texelY) + 0.5f) / static_cast<float>(rows);
            for (std::size_t c = 0; c < 8; ++c) {
                tc[16 * g + 2 * c] = c < 4 ? u0 : u1;
                tc[16 * g + 2 * c + 1] = v;
            }
            // Corner k of end j is base + 4 j + k (k: 0 front bottom, 1 back bottom, 2 front top, 3 back
            // top). Counter-clockwise seen from outside, so back-face culling keeps them.
            const vtkIdType faces[kCellsPerRun][4] = {
                {1, 0, 2, 3}, // start end face
                {2, 6, 7, 3}, // top
                {0, 4, 6, 2}, // front
                {5, 1, 3, 7}, // back
                {4, 5, 7, 6}, // finish end face
            };
            for (const auto& f : faces)
                for (vtkIdType k : f)
                    *q++ = base + k;
            ++g;
        }
    auto pts = vtkSmartPointer<vtkPoints>::New();
    pts->SetData(points);
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    polys->SetData(4, conn);
    m_poly->Initialize();
    m_poly->SetPoints(pts);
    m_poly->SetPolys(polys);
    m_poly->GetPointData()->SetTCoords(tcoords);

    m_image->SetDimensions(kTextureWidth, rows, 1);
    m_image->AllocateScalars(VTK_UNSIGNED_CHAR, 3);
    std::fill_n(static_cast<unsigned char*>(m_image->GetScalarPointer()),
                static_cast<std::size_t>(kTextureWidth) * static_cast<std::size_t>(rows) * 3, 0);
    for (std::size_t m = 0; m < meshes.size(); ++m)
        for (std::size_t s = 0; s < meshes[m].racks().size(); ++s)
            setColor(m, s, racks[meshes[m].racks()[s]].color);
    modified();
}

void RackBatch::setTexel(int x, int y, Rgb color) {
    auto* p = static_cast<unsigned char*>(m_image->GetScalarPointer(x, y, 0));
    p[0] = color.r, p[1] = color.g, p[2] = color.b;
}

void RackBatch::setColor(std::size_t mesh, std::size_t slot, Rgb color) {
    const auto& run = m_runs[m_runOfSlot[mesh][slot]];
    const std::size_t k = slot - run.firstSlot;
    const int first = run.texelX + 1 + static_cast<int>(k) * kTexelsPerRack;
    for (int t = 0; t < kTexelsPerRack; ++t)
        setTexel(first + t, run.texelY, color);
    // A rack after the first starts with its seam: its colour at 60%, dark enough to read as an edge and
    // still the metric's hue.
    const auto dim = [](unsigned char c) { return static_cast<unsigned char>(c * 3 / 5); };
    if (k > 0) setTexel(first, run.texelY, Rgb{dim(color.r), dim(color.g), dim(color.b)});
    // The padding texels repeat the end racks' colours.
    if (k == 0) setTexel(run.texelX, run.texelY, color);
    if (k + 1 == run.count)
        setTexel(run.texelX + 1 + static_cast<int>(run.count) * kTexelsPerRack, run.texelY, color);
}

void RackBatch::modified() {
    m_image->Modified();
}

vtkPolyData* RackBatch::polyData() const {
    return m_poly;
}
vtkActor* RackBatch::actor() const {
    return m_actor;
}
vtkImageData* RackBatch::colours() const {
    return m_image;
}

std::array<int, 2> RackBatch::texelOf(std::size_t mesh, std::size_t slot) const {
    const auto& run = m_runs[m_runOfSlot[mesh][slot]];
    return {run.texelX + 1 + static_cast<int>(slot - run.firstSlot) * kTexelsPerRack + kTexelsPerRack / 2,
            run.texelY};
}

std::pair<vtkIdType, vtkIdType> RackBatch::runCells(std::size_t mesh, std::size_t slot) const {
    return {static_cast<vtkIdType>(m_runOfSlot[mesh][slot]) * kCellsPerRun, kCellsPerRun};
}

std::optional<std::pair<std::size_t, std::size_t>> RackBatch::slotAt(vtkIdType cell,
                                                                     const double world[3]) const {
    if (cell < 0 || cell >= static_cast<vtkIdType>(m_runs.size()) * kCellsPerRun) return std::nullopt;
    const auto& run = m_runs[static_cast<std::size_t>(cell / kCellsPerRun)];
    // Position along the run from its start end (0) to its finish end (1), in rack widths.
    double len2 = 0.0, dot = 0.0;
    for (std::size_t i = 0; i < 2; ++i) {
        const double axis = run.end[i] - run.start[i];
        len2 += axis * axis;
        dot += axis * (world[i] - run.start[i]);
    }
    const double t = len2 > 0.0 ? dot / len2 : 0.0;
    const auto n = static_cast<double>(run.count);
    const auto k = static_cast<std::size_t>(std::clamp(std::floor(t * n), 0.0, n - 1.0));
    return std::pair{run.mesh, run.firstSlot + k};
}

} // namespace ctwin::views
