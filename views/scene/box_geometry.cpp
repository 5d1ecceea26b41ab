// VTK geometry of plain boxes shared by the campus scene and its exporters: floors, walls and edges of
// axis-aligned boxes, oriented boxes appended to a mesh, and the direct-RGB colouring the mappers use.
#include "box_geometry.h"

#include <cmath>
#include <numbers>
#include <utility>
#include <vtkActor.h>
#include <vtkCellArray.h>
#include <vtkMapper.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkUnsignedCharArray.h>

namespace ctwin::views {

namespace {
constexpr double kDegToRad = std::numbers::pi / 180.0;
} // namespace

void setColor(vtkProperty* p, Rgb c) {
    p->SetColor(c.r / 255.0, c.g / 255.0, c.b / 255.0);
}

/// Colour array the mappers use as direct RGB scalars.
vtkSmartPointer<vtkUnsignedCharArray> makeRgbArray() {
    auto a = vtkSmartPointer<vtkUnsignedCharArray>::New();
    a->SetName("rgb");
    a->SetNumberOfComponents(3);
    return a;
}

void useDirectColors(vtkMapper* m) {
    m->ScalarVisibilityOn();
    m->SetColorModeToDirectScalars();
    m->SetScalarModeToUsePointFieldData();
    m->SelectColorArray("rgb");
}

namespace {
/// The eight corners of a box, the bottom four (counter-clockwise from (x0, y0)) then the top four; the
/// index of the first.
vtkIdType insertCorners(vtkPoints& pts, double x0, double y0, double x1, double y1, double z0, double z1) {
    const vtkIdType base = pts.GetNumberOfPoints();
    for (double z : {z0, z1}) {
        pts.InsertNextPoint(x0, y0, z);
        pts.InsertNextPoint(x1, y0, z);
        pts.InsertNextPoint(x1, y1, z);
        pts.InsertNextPoint(x0, y1, z);
    }
    return base;
}
} // namespace

/// Axis-aligned boxes as polygons: top faces only (floors, grounds) or the four walls (building shells).
vtkSmartPointer<vtkPolyData> boxFaces(const std::vector<BoxShape>& boxes, bool walls) {
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto polys = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& b : boxes) {
        const double x0 = b.min[0], y0 = b.min[1], x1 = x0 + b.size[0], y1 = y0 + b.size[1];
        const double z0 = b.min[2], z1 = b.min[2] + b.size[2];
        if (walls) {
            const vtkIdType base = insertCorners(*pts, x0, y0, x1, y1, z0, z1);
            for (vtkIdType i = 0; i < 4; ++i) {
                const vtkIdType j = (i + 1) % 4;
                const vtkIdType q[4] = {base + i, base + j, base + 4 + j, base + 4 + i};
                polys->InsertNextCell(4, q);
            }
        } else {
            const vtkIdType q[4] = {pts->InsertNextPoint(x0, y0, z1), pts->InsertNextPoint(x1, y0, z1),
                                    pts->InsertNextPoint(x1, y1, z1), pts->InsertNextPoint(x0, y1, z1)};
            polys->InsertNextCell(4, q);
        }
    }
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(pts);
    pd->SetPolys(polys);
    return pd;
}

/// Box edges as lines: the top outline, and with `verticals` the bottom outline and the four uprights.
vtkSmartPointer<vtkPolyData> boxEdges(const std::vector<BoxShape>& boxes, bool verticals) {
    auto pts = vtkSmartPointer<vtkPoints>::New();
    auto lines = vtkSmartPointer<vtkCellArray>::New();
    for (const auto& b : boxes) {
        const double x0 = b.min[0], y0 = b.min[1], x1 = x0 + b.size[0], y1 = y0 + b.size[1];
        const double z0 = b.min[2], z1 = b.min[2] + b.size[2] + 0.02;
        const vtkIdType base = insertCorners(*pts, x0, y0, x1, y1, z0, z1);
        for (vtkIdType i = 0; i < 4; ++i) {
            const vtkIdType j = (i + 1) % 4;
            const vtkIdType top[2] = {base + 4 + i, base + 4 + j};
            lines->InsertNextCell(2, top);
            if (verticals) {
                const vtkIdType bottom[2] = {base + i, base + j};
                const vtkIdType up[2] = {base + i, base + 4 + i};
                lines->InsertNextCell(2, bottom);
                lines->InsertNextCell(2, up);
            }
        }
    }
    auto pd = vtkSmartPointer<vtkPolyData>::New();
    pd->SetPoints(pts);
    pd->SetLines(lines);
    return pd;
}

vtkSmartPointer<vtkActor> actorFor(vtkPolyData* pd, Rgb color, double opacity) {
    auto mapper = vtkSmartPointer<vtkPolyDataMapper>::New();
    mapper->SetInputData(pd);
    mapper->ScalarVisibilityOff();
    auto actor = vtkSmartPointer<vtkActor>::New();
    actor->SetMapper(mapper);
    setColor(actor->GetProperty(), color);
    actor->GetProperty()->SetOpacity(opacity);
    return actor;
}

/// An oriented box as 8 shared corners and 6 quads with one colour, appended to a mesh (for exporters).
void appendBox(vtkPoints* pts, vtkCellArray* polys, vtkUnsignedCharArray* rgb, const Vec3& base, double w,
               double d, double h, double rotDeg, Rgb c) {
    const double a = rotDeg * kDegToRad, ca = std::cos(a), sa = std::sin(a);
    const vtkIdType first = pts->GetNumberOfPoints();
    for (double z : {0.0, h})
        for (const auto& [u, v] :
             {std::pair{-w / 2, -d / 2}, {w / 2, -d / 2}, {w / 2, d / 2}, {-w / 2, d / 2}}) {
            pts->InsertNextPoint(base[0] + u * ca - v * sa, base[1] + u * sa + v * ca, base[2] + z);
            const unsigned char col[3] = {c.r, c.g, c.b};
            rgb->InsertNextTypedTuple(col);
        }
    // Counter-clockwise seen from outside.
    static constexpr vtkIdType kFaces[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                               {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}};
    for (const auto& f : kFaces) {
        const vtkIdType q[4] = {first + f[0], first + f[1], first + f[2], first + f[3]};
        polys->InsertNextCell(4, q);
    }
}

} // namespace ctwin::views
