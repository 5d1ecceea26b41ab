// The lean CLI's side of `render`: app/render_command.cpp and app/render_gltf.cpp live in
// libclustertwin-render.so (VTK, Qt), loaded only when a picture or a glTF file is asked for. Declarations
// in render_command.h; the plugin's side is render_plugin.cpp.
#include "cli.h"
#include "lean/plugin_loader.h"
#include "render_command.h"

#include <ostream>

namespace ctwin::app {

namespace {

/// Calls the plugin's `symbol` (of type Fn, `err` its last parameter) with `args` and `err`; a missing
/// plugin is exit 4 with its reason.
template <typename Fn, typename... Args>
int callRenderPlugin(const char* symbol, std::ostream& err, const Args&... args) {
    Fn fn = nullptr;
    try {
        fn = pluginFunction<Fn>("render", symbol);
    } catch (const PluginError& e) {
        err << "render: " << e.what() << "\n";
        return kExitRenderFailed;
    }
    return fn(args..., err);
}

} // namespace

int renderToPng(const std::string& designPath, const std::string& view, const std::string& outPng, int width,
                int height, std::ostream& err) {
    using Fn = int (*)(const std::string&, const std::string&, const std::string&, int, int, std::ostream&);
    return callRenderPlugin<Fn>("ctwin_render_to_png", err, designPath, view, outPng, width, height);
}

int renderToGltf(const std::string& designPath, const std::string& view, const std::string& outPath,
                 std::ostream& err) {
    using Fn = int (*)(const std::string&, const std::string&, const std::string&, std::ostream&);
    return callRenderPlugin<Fn>("ctwin_render_to_gltf", err, designPath, view, outPath);
}

} // namespace ctwin::app
