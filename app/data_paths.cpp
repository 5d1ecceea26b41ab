#include "data_paths.h"

#include <cstdlib>
#include <filesystem>

#include <unistd.h>

#include "catalog_database.h"
#include "catalog_overlay.h"
#include "climate.h"
#include "design_json.h"

namespace ctwin::app {

namespace fs = std::filesystem;

namespace {
/// The program's folder, or empty when /proc/self/exe cannot be read (no /proc): never the current
/// directory, whose owner need not be the user (app/lean/plugin_loader.h says the same of plugins).
fs::path executableDirectory() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec || !exe.is_absolute() ? fs::path() : exe.parent_path();
}
bool looksLikeDataDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p / "assumptions.json", ec);
}
} // namespace

std::string dataDirectory() {
    if (const char* env = std::getenv("CTWIN_DATA_DIR"); env && *env) return env;
    const fs::path exeDir = executableDirectory();
    const fs::path installed = exeDir.empty() ? fs::path() : exeDir / ".." / "share" / "clustertwin";
    if (!exeDir.empty() && looksLikeDataDir(installed)) return fs::weakly_canonical(installed).string();
#ifdef CTWIN_SOURCE_DATA_DIR
    return CTWIN_SOURCE_DATA_DIR;
#else
    return installed.string();
#endif
}

std::string referenceDirectory() { return (fs::path(dataDirectory()) / "reference").string(); }

namespace {
std::vector<std::string>& overlayFiles() {
    static std::vector<std::string> files;
    return files;
}
model::Catalog loadShippedCatalog() {
    const fs::path dir(dataDirectory());
    // The engine's climate table (cost/climate.h) comes from the same data directory as the catalog.
    cost::setClimateFile((dir / "climate.json").string());
    std::error_code ec;
    if (fs::is_regular_file(dir / "catalog.db", ec)) return store::loadCatalogDatabase((dir / "catalog.db").string());
    return model::loadCatalogDirectory((dir / "catalog").string());
}
} // namespace

void setCatalogOverlays(std::vector<std::string> files) { overlayFiles() = std::move(files); }

std::vector<std::string> catalogOverlays() {
    if (!overlayFiles().empty()) return overlayFiles();
    std::vector<std::string> out;
    if (const char* env = std::getenv("CTWIN_CATALOG_OVERLAY"); env && *env) {
        std::string list = env;
        for (size_t start = 0; start <= list.size();) {
            const size_t end = std::min(list.find(':', start), list.size());
            if (end > start) out.push_back(list.substr(start, end - start));
            start = end + 1;
        }
    }
    return out;
}

model::Catalog loadDefaultCatalog() {
    model::Catalog c = loadShippedCatalog();
    for (const auto& file : catalogOverlays()) c = cost::applyCatalogOverlayFile(c, file);
    return c;
}

model::AssumptionSet loadDefaultAssumptions() {
    return model::loadAssumptionsFile((fs::path(dataDirectory()) / "assumptions.json").string());
}

std::string defaultReferenceDesign() {
    return (fs::path(referenceDirectory()) / "neocloud-100k-gb200.json").string();
}

} // namespace ctwin::app
