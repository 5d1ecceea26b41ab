#include "data_paths.h"

#include <cstdlib>
#include <filesystem>

#include <unistd.h>

#include "catalog_database.h"
#include "climate.h"
#include "design_json.h"

namespace ctwin::app {

namespace fs = std::filesystem;

namespace {
fs::path executableDirectory() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::current_path() : exe.parent_path();
}
bool looksLikeDataDir(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p / "assumptions.json", ec);
}
} // namespace

std::string dataDirectory() {
    if (const char* env = std::getenv("CTWIN_DATA_DIR"); env && *env) return env;
    const fs::path installed = executableDirectory() / ".." / "share" / "clustertwin";
    if (looksLikeDataDir(installed)) return fs::weakly_canonical(installed).string();
#ifdef CTWIN_SOURCE_DATA_DIR
    return CTWIN_SOURCE_DATA_DIR;
#else
    return installed.string();
#endif
}

std::string referenceDirectory() { return (fs::path(dataDirectory()) / "reference").string(); }

model::Catalog loadDefaultCatalog() {
    const fs::path dir(dataDirectory());
    // The engine's climate table (cost/climate.h) comes from the same data directory as the catalog.
    cost::setClimateFile((dir / "climate.json").string());
    std::error_code ec;
    if (fs::is_regular_file(dir / "catalog.db", ec)) return store::loadCatalogDatabase((dir / "catalog.db").string());
    return model::loadCatalogDirectory((dir / "catalog").string());
}

model::AssumptionSet loadDefaultAssumptions() {
    return model::loadAssumptionsFile((fs::path(dataDirectory()) / "assumptions.json").string());
}

std::string defaultReferenceDesign() {
    return (fs::path(referenceDirectory()) / "neocloud-100k-gb200.json").string();
}

} // namespace ctwin::app
