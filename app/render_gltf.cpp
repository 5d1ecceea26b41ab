// `clustertwin-cli render FILE --out X.glb|X.gltf`: the 3D campus as glTF 2.0, through the same
// exporter as the GUI's File > Export (views/scene/gltf_export.*). Needs no display: the scene is built and
// exported, never rendered.
#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "evaluate.h"
#include "render_command.h"
#include "render_input.h"
#include "scene/campus_scene.h"
#include "scene/color_metric.h"
#include "scene/gltf_export.h"

#include <exception>
#include <optional>
#include <ostream>

namespace ctwin::app {

int renderToGltf(const std::string& designPath, const std::string& view, const std::string& outPath,
                 std::ostream& err) {
    if (renderFormat(outPath) == "usda") return renderToUsd(designPath, view, outPath, err);
    std::optional<views::ColorMetric> metric;
    if (const int rc = campusViewMetric(view, metric, err)) return rc;
    if (!metric) {
        err << "render: a glTF file holds the 3D campus: --view must be campus or campus:<metric>, not '"
            << view << "' (the site map renders to PNG only)\n";
        return kExitUsage;
    }

    auto input = loadRenderInput(designPath, "exporting without results", err);
    if (!input) return kExitInvalidInput;
    const auto& [catalog, project, results] = *input;
    views::CampusScene scene;
    scene.showProject(views::SceneSource{project, catalog, results ? &*results : nullptr}, *metric);
    const auto exported = scene.exportRenderer();
    if (views::exportableCells(exported) == 0) {
        err << "render: " << designPath
            << ": nothing to draw (no site with buildings, halls or placed racks); no file written\n";
        return kExitInvalidInput;
    }
    // writeGltf replaces the file atomically (model::SaveTemp): on failure nothing partial is left.
    std::string error;
    if (!views::writeGltf(exported, outPath, &error)) {
        err << "render: " << error << "\n";
        return kExitRenderFailed;
    }
    return kExitOk;
}

} // namespace ctwin::app
