// The lean CLI's side of `render`: app/render_command.cpp lives in libclustertwin-render.so (VTK, Qt),
// loaded only when a picture is asked for. Declarations in render_command.h; the plugin's side is
// render_plugin.cpp.
#include "cli.h"
#include "lean/plugin_loader.h"
#include "render_command.h"

#include <ostream>

namespace ctwin::app {

int renderToPng(const std::string& designPath, const std::string& view, const std::string& outPng, int width,
                int height, std::ostream& err) {
    using Fn = int (*)(const std::string&, const std::string&, const std::string&, int, int, std::ostream&);
    Fn fn = nullptr;
    try {
        fn = pluginFunction<Fn>("render", "ctwin_render_to_png");
    } catch (const PluginError& e) {
        err << "render: " << e.what() << "\n";
        return kExitRenderFailed;
    }
    return fn(designPath, view, outPng, width, height, err);
}

int renderToGltf(const std::string& designPath, const std::string& view, const std::string& outPath,
                 std::ostream& err) {
    using Fn = int (*)(const std::string&, const std::string&, const std::string&, std::ostream&);
    Fn fn = nullptr;
    try {
        fn = pluginFunction<Fn>("render", "ctwin_render_to_gltf");
    } catch (const PluginError& e) {
        err << "render: " << e.what() << "\n";
        return kExitRenderFailed;
    }
    return fn(designPath, view, outPath, err);
}

} // namespace ctwin::app
