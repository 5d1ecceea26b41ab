#pragma once
// The design a `render` command draws (render_command.cpp, render_gltf.cpp): loaded with the default
// catalog and evaluated, so thermal margins and link figures can colour the scene.
#include "catalog.h"
#include "evaluate.h"
#include "project.h"
#include "scene/color_metric.h"

#include <iosfwd>
#include <optional>
#include <string>

namespace ctwin::app {

struct RenderInput {
    model::Catalog catalog;
    model::Project project;
    std::optional<cost::Results> results; ///< empty when the evaluation failed (the scene says so)
};

/// Loads and evaluates `designPath`. An unreadable design prints its message to `err` and returns nothing
/// (the caller exits with kExitInvalidInput); a failed evaluation prints "render: evaluation failed (...);
/// `withoutResults`" and returns the design without results.
std::optional<RenderInput> loadRenderInput(const std::string& designPath, const char* withoutResults,
                                           std::ostream& err);

/// The colour metric of a campus view: "campus" is power density, "campus:<metric>" that metric (`metric`
/// set, returns 0); an unknown metric prints the choices and returns kExitUsage; any other view leaves
/// `metric` empty and returns 0 (the caller knows which other views it draws).
int campusViewMetric(const std::string& view, std::optional<views::ColorMetric>& metric, std::ostream& err);

} // namespace ctwin::app
