#pragma once

/// The interface between clustertwin-cli and its plugins (app/lean/plugin_loader.h). The exported functions
/// take C++ types (std::string, std::ostream, report inputs), so a plugin must come from the same build as
/// the CLI: every plugin exports ctwin_plugin_version() returning kCtwinPluginInterface, which the loader
/// compares with its own. Bump the number when an exported signature or a structure passed across changes.
#define CTWIN_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace ctwin::app {
inline constexpr const char* kCtwinPluginInterface = "clustertwin-plugin-1 " CTWIN_VERSION;
} // namespace ctwin::app
