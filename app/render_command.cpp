#include "render_command.h"

#include "atomic_write.h"
#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "evaluate.h"
#include "render_input.h"
#include "scene/campus_scene.h"
#include "scene/color_metric.h"
#include "scene/offscreen_renderer.h"
#include "scene/site_map_basemap.h"
#include "scene/site_map_scene.h"

#include <exception>
#include <filesystem>
#include <optional>
#include <ostream>

namespace ctwin::app {

int campusViewMetric(const std::string& view, std::optional<views::ColorMetric>& metric, std::ostream& err) {
    metric.reset();
    if (view == "campus") {
        metric = views::ColorMetric::PowerDensity;
    } else if (view.rfind("campus:", 0) == 0) {
        metric = views::colorMetricFromKey(view.substr(7));
        if (!metric) {
            err << "render: unknown colour metric '" << view.substr(7) << "' (power, thermal, type, loop)\n";
            return kExitUsage;
        }
    }
    return kExitOk;
}

std::optional<RenderInput> loadRenderInput(const std::string& designPath, const char* withoutResults,
                                           std::ostream& err) {
    RenderInput in;
    try {
        in.catalog = loadDefaultCatalog();
        in.project = store::loadDesign(designPath, &in.catalog);
    } catch (const std::exception& e) {
        err << e.what() << "\n";
        return std::nullopt;
    }
    try {
        in.results = cost::evaluate(in.project, in.catalog, loadDefaultAssumptions());
    } catch (const std::exception& e) {
        // The picture is still useful without figures; the scene says what is missing.
        err << "render: evaluation failed (" << e.what() << "); " << withoutResults << "\n";
    }
    return in;
}

int renderToPng(const std::string& designPath, const std::string& view, const std::string& outPng, int width,
                int height, std::ostream& err) {
    std::optional<views::ColorMetric> metric;
    const bool map = view == "map";
    if (const int rc = campusViewMetric(view, metric, err)) return rc;
    if (!metric && !map) {
        err << "render: --view must be campus, campus:<metric> or map, not '" << view << "'\n";
        return kExitUsage;
    }
    constexpr int kMaxSize = 16384;
    if (width < 16 || height < 16 || width > kMaxSize || height > kMaxSize) {
        err << "render: size " << width << "x" << height << " is out of range (16 to " << kMaxSize
            << " pixels)\n";
        return kExitUsage;
    }
    if (outPng.empty()) {
        err << "render: --out FILE.png is required\n";
        return kExitUsage;
    }
    std::string why;
    if (!views::OffscreenRenderer::displayAvailable(&why)) {
        err << "render: " << why << "\n";
        return kExitRenderFailed;
    }

    auto input = loadRenderInput(designPath, "drawing without results", err);
    if (!input) return kExitInvalidInput;
    const auto& [catalog, project, results] = *input;
    const views::SceneSource source{project, catalog, results ? &*results : nullptr};
    // The picture goes to a temporary beside the target and replaces it only when complete: a full disk or
    // a failed render leaves the previous picture (model::SaveTemp, shared with design and report saves).
    std::optional<model::SaveTemp> temp;
    try {
        temp.emplace(outPng);
    } catch (const std::exception& e) {
        err << "render: " << e.what() << "\n";
        return kExitRenderFailed;
    }

    views::OffscreenRenderer offscreen(width, height);
    std::string error;
    bool ok = false;
    if (map) {
        // The basemap the build preprocessed from GSHHG, beside the catalog this command reads.
        views::SiteMapBasemap::setSharedPath(
            (std::filesystem::path(dataDirectory()) / "basemap" / "gshhg-low.ctmap").string());
        views::SiteMapScene scene;
        offscreen.attach(scene.renderer());
        scene.showProject(source);
        ok = offscreen.render(scene.renderer(), &error) && offscreen.writePng(temp->path(), &error);
        offscreen.attach(nullptr);
    } else {
        views::CampusScene scene;
        offscreen.attach(scene.renderer());
        scene.showProject(source, *metric);
        ok = offscreen.render(scene.renderer(), &error) && offscreen.writePng(temp->path(), &error);
        offscreen.attach(nullptr);
    }
    if (ok) {
        try {
            temp->commit();
        } catch (const std::exception& e) {
            ok = false, error = e.what();
        }
    }
    if (!ok) {
        // Name the user's file, not the temporary.
        for (size_t at = error.find(temp->path()); at != std::string::npos; at = error.find(temp->path()))
            error.replace(at, temp->path().size(), outPng);
        err << "render: " << error << "\n";
        return kExitRenderFailed;
    }
    return kExitOk;
}

} // namespace ctwin::app
