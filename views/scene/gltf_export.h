#pragma once
#include <string>

class vtkRenderer;

namespace ctwin::views {

/// Writes the props of a renderer (use CampusScene::exportRenderer(): explicit geometry) as glTF 2.0 with
/// vtkGLTFExporter: `.gltf` as one self-contained JSON file (buffers inline as base64), `.glb` as the
/// binary container (one JSON chunk and one BIN chunk). Needs no display. Returns false with `error` set
/// when the file cannot be written.
bool writeGltf(vtkRenderer* renderer, const std::string& path, std::string* error = nullptr);

} // namespace ctwin::views
