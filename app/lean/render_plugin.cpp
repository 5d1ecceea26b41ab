// libclustertwin-render.so: the renderer behind `clustertwin-cli render` (app/lean/plugin_loader.h).
#include "lean/plugin_abi.h"
#include "render_command.h"

#include <ostream>
#include <string>

CTWIN_PLUGIN_EXPORT const char* ctwin_plugin_version() {
    return ctwin::app::kCtwinPluginInterface;
}

CTWIN_PLUGIN_EXPORT int ctwin_render_to_png(const std::string& designPath, const std::string& view,
                                            const std::string& outPng, int width, int height,
                                            std::ostream& err) {
    return ctwin::app::renderToPng(designPath, view, outPng, width, height, err);
}

CTWIN_PLUGIN_EXPORT int ctwin_render_to_gltf(const std::string& designPath, const std::string& view,
                                             const std::string& outPath, std::ostream& err) {
    return ctwin::app::renderToGltf(designPath, view, outPath, err);
}
