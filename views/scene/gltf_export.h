#pragma once
#include <cstddef>
#include <string>

class vtkRenderer;

namespace ctwin::views {

/// Writes the props of a renderer (use CampusScene::exportRenderer(): explicit geometry) as glTF 2.0 with
/// vtkGLTFExporter: `.gltf` as one self-contained JSON file (buffers inline as base64), `.glb` as the
/// binary container (one JSON chunk and one BIN chunk). Needs no display. Actors without geometry are left
/// out (glTF forbids empty accessors, §5.1.1 count >= 1). The file is replaced atomically (model::SaveTemp):
/// a failed export leaves no partial file and the previous one intact. Returns false with `error` set when
/// the renderer holds no geometry or the file cannot be written.
bool writeGltf(vtkRenderer* renderer, const std::string& path, std::string* error = nullptr);

/// Points + cells (polygons, lines, strips, vertices) of the visible actors' mapper inputs: 0 when there is
/// nothing for a glTF export to draw.
std::size_t exportableCells(vtkRenderer* renderer);

} // namespace ctwin::views
