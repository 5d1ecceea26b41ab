#include "lean/plugin_loader.h"

#include "lean/plugin_abi.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <map>

namespace ctwin::app {

namespace fs = std::filesystem;

PluginFolder findPluginFolder(const std::string& selfExe) {
    if (const char* env = std::getenv("CTWIN_PLUGIN_DIR"); env && *env) return {env, {}};
    std::error_code ec;
    const fs::path exe = fs::read_symlink(selfExe, ec);
    if (!ec && exe.is_absolute())
        return {(exe.parent_path().parent_path() / CTWIN_PLUGIN_SUBDIR).lexically_normal().string(), {}};
    const std::string why = "the program's own folder is unknown (" + selfExe + ": " +
                            (ec ? ec.message() : "not an absolute path") + "; is /proc mounted?)";
#ifdef CTWIN_INSTALLED_PLUGIN_DIR
    if (fs::is_directory(CTWIN_INSTALLED_PLUGIN_DIR, ec))
        return {CTWIN_INSTALLED_PLUGIN_DIR, why + ", so the installed plugin folder is used"};
    return {{}, why + " and the installed plugin folder " CTWIN_INSTALLED_PLUGIN_DIR " does not exist"};
#else
    return {{}, why};
#endif
}

std::string pluginDirectory() {
    return findPluginFolder().path;
}

void* pluginSymbol(const std::string& name, const char* symbol, PluginScope scope) {
    static std::map<std::string, void*> loaded; // the CLI is single-threaded; plugins are never unloaded
    void*& handle = loaded[name];
    const PluginFolder folder = findPluginFolder();
    if (folder.path.empty())
        throw PluginError("cannot load the " + name + " plugin: " + folder.note +
                          "; set CTWIN_PLUGIN_DIR to the plugin folder");
    const std::string file = (fs::path(folder.path) / ("libclustertwin-" + name + ".so")).string();
    if (!handle) {
        std::error_code ec;
        if (!fs::is_regular_file(file, ec))
            throw PluginError("the " + name + " plugin " + file +
                              " is missing (build the clustertwin-plugins target, or reinstall)" +
                              (folder.note.empty() ? "" : "; " + folder.note));
        void* h = ::dlopen(file.c_str(), RTLD_NOW | (scope == PluginScope::Global ? RTLD_GLOBAL : RTLD_LOCAL));
        if (!h) throw PluginError("cannot load the " + name + " plugin: " + std::string(::dlerror()));
        using VersionFn = const char* (*)();
        const auto version = reinterpret_cast<VersionFn>(::dlsym(h, "ctwin_plugin_version"));
        if (!version || std::strcmp(version(), kCtwinPluginInterface) != 0)
            throw PluginError(file + " is from another build (" + (version ? version() : "no version") +
                              ", this is " + kCtwinPluginInterface + ")");
        handle = h;
    }
    void* fn = ::dlsym(handle, symbol);
    if (!fn) throw PluginError(file + " has no " + symbol);
    return fn;
}

} // namespace ctwin::app
