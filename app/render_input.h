#pragma once
// The design a `render` command draws (render_command.cpp, render_gltf.cpp): loaded with the default
// catalog and evaluated, so thermal margins and link figures can colour the scene.
#include "catalog.h"
#include "evaluate.h"
#include "project.h"

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

} // namespace ctwin::app
