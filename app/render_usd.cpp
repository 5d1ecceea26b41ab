// `clustertwin-cli render FILE --out X.usda`: the campus as OpenUSD ASCII through the same
// writer as the GUI's File > Export > OpenUSD (views/scene/usda_export.*), placed by CampusSceneBuilder like
// the 3D view and the glTF export. Needs no display.
#include "cli.h"
#include "render_command.h"
#include "render_input.h"
#include "scene/color_metric.h"
#include "scene/usda_export.h"

#include <exception>
#include <optional>
#include <ostream>

namespace ctwin::app {

int renderToUsd(const std::string& designPath, const std::string& view, const std::string& outPath,
                std::ostream& err) {
    std::optional<views::ColorMetric> metric;
    if (const int rc = campusViewMetric(view, metric, err)) return rc;
    if (!metric) {
        err << "render: an OpenUSD file holds the 3D campus: --view must be campus, not '" << view
            << "' (the site map renders to PNG only)\n";
        return kExitUsage;
    }
    auto input = loadRenderInput(designPath, "exporting without the engine's figures", err);
    if (!input) return kExitInvalidInput;
    const auto& [catalog, project, results] = *input;
    try {
        const auto counts = views::writeCampusUsda(
            views::SceneSource{project, catalog, results ? &*results : nullptr}, outPath);
        if (counts.racks + counts.cdus + counts.buildings == 0)
            err << "render: " << designPath << ": the design has no buildings, racks or CDUs; " << outPath
                << " holds an empty /Campus\n";
    } catch (const std::exception& e) {
        err << "render: " << e.what() << "\n";
        return kExitRenderFailed;
    }
    return kExitOk;
}

} // namespace ctwin::app
