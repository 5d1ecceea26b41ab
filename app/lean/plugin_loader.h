#pragma once
#include <stdexcept>
#include <string>

namespace ctwin::app {

/// The lean clustertwin-cli links no Qt and no VTK (app/CMakeLists.txt). What needs them is built as
/// shared libraries ("plugins") that the CLI loads only when a command asks for them:
///   render -> libclustertwin-render.so (app/render_command.cpp, views/, VTK, Qt Widgets)
///   report -> libclustertwin-report.so (app/report/*: Qt Gui for PDF and charts, libxlsxwriter)
///   mpi    -> libclustertwin-mpi.so (`explore --mpi`: Open MPI; app/lean/mpi_session.h)
///   http   -> libclustertwin-http.so (`import-netbox --url`: libcurl; app/netbox_live.h)
/// They live in <directory of the executable>/../<libdir>/clustertwin/plugins, in the build tree (build/bin
/// -> build/lib/clustertwin/plugins) and in the installed package (/usr/bin -> /usr/lib/clustertwin/plugins)
/// alike; $CTWIN_PLUGIN_DIR overrides the folder. The executable is found through /proc/self/exe; without it
/// (no /proc) the folder is the one compiled in for the installed package, or there are no plugins. Never
/// the current directory: whoever owns the folder the user happens to be in must not supply our code.

/// Raised when a plugin is missing, cannot be loaded or comes from another build; says which file and why.
struct PluginError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Where the plugins are: `path` empty when there are none to load, `note` (when not empty) saying why the
/// usual folder was not used, for messages.
struct PluginFolder {
    std::string path;
    std::string note;
};

/// The plugin folder for an executable found through the link `selfExe` (/proc/self/exe; tests pass a
/// missing one): $CTWIN_PLUGIN_DIR, else beside the executable, else the installed folder, else none.
PluginFolder findPluginFolder(const std::string& selfExe = "/proc/self/exe");

/// The folder the plugins are loaded from (findPluginFolder().path; empty: none).
std::string pluginDirectory();

/// How a plugin's symbols are shared when it is first loaded: Local (RTLD_LOCAL) keeps its engine copy
/// private; Global (RTLD_GLOBAL) is for Open MPI, whose components (loaded by libmpi itself) resolve
/// libmpi's symbols globally.
enum class PluginScope { Local, Global };

/// The address of `symbol` in plugin `name` ("render", "report", "mpi"), loading the plugin on first use
/// (it stays loaded). Checks that the plugin was built with this CLI (ctwin_plugin_version() ==
/// CTWIN_VERSION and the same plugin interface). Throws PluginError.
void* pluginSymbol(const std::string& name, const char* symbol, PluginScope scope = PluginScope::Local);

/// pluginSymbol cast to the function type `Fn` the plugin exports under `symbol`.
template <class Fn>
Fn pluginFunction(const std::string& name, const char* symbol, PluginScope scope = PluginScope::Local) {
    return reinterpret_cast<Fn>(pluginSymbol(name, symbol, scope));
}

} // namespace ctwin::app
