#include "rack_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <tuple>
#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkFloatArray.h>
#include <vtkIdTypeArray.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

namespace ctwin::views {

namespace {

/// Racks closer than this (m) along a row count as touching; their shared faces are never seen.
constexpr double kTouchTolerance = 1e-3;

long long mm(double v) {
    return std::llround(v * 1000.0);
}

} // namespace

RackMesh::RackMesh()
    : m_poly(vtkSmartPointer<vtkPolyData>::New()), m_rgb(vtkSmartPointer<vtkUnsignedCharArray>::New()),
      m_actor(vtkSmartPointer<vtkActor>::New()) {
    m_rgb->SetName("rgb");
    m_rgb->SetNumberOfComponents(3);
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(m_poly);
    mapper->ScalarVisibilityOn();
    mapper->SetColorModeToDirectScalars();
    mapper->SetScalarModeToUseCellData();
    m_actor->SetMapper(mapper);
    auto* p = m_actor->GetProperty();
    p->SetAmbient(0.3);
    p->SetDiffuse(0.7);
    p->SetSpecular(0.0);
    p->BackfaceCullingOn();
}

RackMesh::~RackMesh() = default;
RackMesh::RackMesh(RackMesh&&) noexcept = default;
RackMesh& RackMesh::operator=(RackMesh&&) noexcept = default;

void RackMesh::build(const std::vector<RackInstance>& racks, const std::vector<std::size_t>& members) {
    // Racks of one line (row, type size, rotation, offset across the row, floor height) ordered along it.
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

    auto points = vtkSmartPointer<vtkFloatArray>::New();
    points->SetNumberOfComponents(3);
    points->Allocate(static_cast<vtkIdType>(items.size()) * 4 * 3 + 64);
    auto conn = vtkSmartPointer<vtkIdTypeArray>::New();
    conn->Allocate(static_cast<vtkIdType>(items.size()) * 5 * 4);
    m_racks.clear();
    m_cellStart.assign(1, 0);
    m_cellSlot.clear();
    m_runs = 0;
    vtkIdType cells = 0;
    const auto quad = [&](vtkIdType a, vtkIdType b, vtkIdType c, vtkIdType d) {
        conn->InsertNextValue(a), conn->InsertNextValue(b), conn->InsertNextValue(c),
            conn->InsertNextValue(d);
        m_cellSlot.push_back(static_cast<std::uint32_t>(m_racks.size()));
        ++cells;
    };
    for (std::size_t begin = 0; begin < items.size();) {
        // The run: following racks of the same line whose centres are one width apart (touching).
        const auto& first = racks[items[begin].rack];
        std::size_t end = begin + 1;
        while (end < items.size() && items[end].line == items[begin].line &&
               std::abs(items[end].along - items[end - 1].along - first.width) <= kTouchTolerance)
            ++end;
        ++m_runs;
        const std::size_t n = end - begin;
        const double a = first.rotationDeg * std::numbers::pi / 180.0, ca = std::cos(a), sa = std::sin(a);
        const double hw = first.width / 2, hd = first.depth / 2;
        const double z0 = first.base[2], z1 = first.base[2] + first.height;
        // Boundary j (0..n) between rack j-1 and rack j: 4 corners (front/back x bottom/top).
        const vtkIdType base = points->GetNumberOfTuples();
        for (std::size_t j = 0; j <= n; ++j) {
            double px, py;
            const auto& left = racks[items[begin + std::min(j, n - 1)].rack];
            if (j == 0) {
                px = left.base[0] - hw * ca, py = left.base[1] - hw * sa;
            } else if (j == n) {
                px = left.base[0] + hw * ca, py = left.base[1] + hw * sa;
            } else {
                const auto& prev = racks[items[begin + j - 1].rack];
                px = (prev.base[0] + hw * ca + left.base[0] - hw * ca) / 2;
                py = (prev.base[1] + hw * sa + left.base[1] - hw * sa) / 2;
            }
            for (double z : {z0, z1})
                for (double side : {-hd, hd}) {
                    const float p[3] = {static_cast<float>(px - side * sa),
                                        static_cast<float>(py + side * ca), static_cast<float>(z)};
                    points->InsertNextTypedTuple(p);
                }
        }
        // Corner k of boundary j: k = 0 front bottom, 1 back bottom, 2 front top, 3 back top.
        const auto v = [&](std::size_t j, int k) { return base + static_cast<vtkIdType>(4 * j) + k; };
        for (std::size_t i = 0; i < n; ++i) {
            // Counter-clockwise seen from outside, so back-face culling keeps them.
            if (i == 0) quad(v(0, 1), v(0, 0), v(0, 2), v(0, 3));     // start end face
            quad(v(i, 2), v(i + 1, 2), v(i + 1, 3), v(i, 3));         // top
            quad(v(i, 0), v(i + 1, 0), v(i + 1, 2), v(i, 2));         // front
            quad(v(i + 1, 1), v(i, 1), v(i, 3), v(i + 1, 3));         // back
            if (i + 1 == n) quad(v(n, 0), v(n, 1), v(n, 3), v(n, 2)); // finish end face
            m_racks.push_back(items[begin + i].rack);
            m_cellStart.push_back(cells);
        }
        begin = end;
    }
    auto pts = vtkSmartPointer<vtkPoints>::New();
    pts->SetData(points);
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    polys->SetData(4, conn);
    m_rgb->SetNumberOfTuples(cells);
    m_poly->Initialize();
    m_poly->SetPoints(pts);
    m_poly->SetPolys(polys);
    m_poly->GetCellData()->SetScalars(m_rgb);
    for (std::size_t k = 0; k < m_racks.size(); ++k)
        setColor(k, racks[m_racks[k]].color);
    modified();
}

void RackMesh::setColor(std::size_t slot, Rgb color) {
    for (vtkIdType c = m_cellStart[slot]; c < m_cellStart[slot + 1]; ++c) {
        unsigned char* p = m_rgb->GetPointer(c * 3);
        p[0] = color.r, p[1] = color.g, p[2] = color.b;
    }
}

void RackMesh::modified() {
    m_rgb->Modified();
    m_poly->Modified();
}

vtkPolyData* RackMesh::polyData() const {
    return m_poly;
}
vtkActor* RackMesh::actor() const {
    return m_actor;
}

} // namespace ctwin::views
