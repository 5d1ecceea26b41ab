#pragma once
// VTK geometry of plain boxes (views/scene/box_geometry.cpp): what the campus scene draws its grounds, hall
// floors and building shells with, and what its exporters build explicit meshes from.
#include "campus_scene_data.h"
#include "rgb.h"

#include <vector>
#include <vtkSmartPointer.h>
#include <vtkType.h>

class vtkActor;
class vtkCellArray;
class vtkMapper;
class vtkPoints;
class vtkPolyData;
class vtkProperty;
class vtkUnsignedCharArray;

namespace ctwin::views {

void setColor(vtkProperty* p, Rgb c);
/// Colour array the mappers use as direct RGB scalars (named "rgb").
vtkSmartPointer<vtkUnsignedCharArray> makeRgbArray();
/// The mapper colours with the "rgb" point array as is.
void useDirectColors(vtkMapper* m);
/// Axis-aligned boxes as polygons: top faces only (floors, grounds) or the four walls (building shells).
vtkSmartPointer<vtkPolyData> boxFaces(const std::vector<BoxShape>& boxes, bool walls);
/// Box edges as lines: the top outline, and with `verticals` the bottom outline and the four uprights.
vtkSmartPointer<vtkPolyData> boxEdges(const std::vector<BoxShape>& boxes, bool verticals);
/// An actor drawing `pd` in one colour.
vtkSmartPointer<vtkActor> actorFor(vtkPolyData* pd, Rgb color, double opacity = 1.0);
/// An oriented box as 8 shared corners and 6 quads with one colour, appended to a mesh (for exporters).
void appendBox(vtkPoints* pts, vtkCellArray* polys, vtkUnsignedCharArray* rgb, const Vec3& base, double w,
               double d, double h, double rotDeg, Rgb c);

} // namespace ctwin::views
