#include "netbox_command.h"

#include "atomic_write.h"
#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"
#include "netbox.h"
#include "netbox_device_type.h"
#include "netbox_live.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unistd.h>

namespace ctwin::app {

const char* const kExportNetBoxSynopsis = "export-netbox FILE --out FOLDER [--netbox-version 4.7|4.6]";
const char* const kExportNetBoxHelp =
    "Writes the design as NetBox bulk-import files, in the order to import them: 01-manufacturers.csv,\n"
    "02-sites.csv, 03-locations.csv (buildings, halls and rows as nested locations), 04-rack-types.csv,\n"
    "05-racks.csv, 06-power-panels.csv (one per power feed), 07-power-feeds.csv (one per rack and side),\n"
    "for NetBox 4.7 (the default) 08-cooling-sources.csv (one per cooling loop) and 09-cooling-feeds.csv\n"
    "(one per rack on a loop: its liquid heat in kW and the flow in L/min), and netbox-request-bodies.json\n"
    "(the same objects as REST API bodies, related objects named by slug). --netbox-version 4.6 leaves the\n"
    "cooling objects out and carries the loops on their halls. What NetBox has no field for (coordinates,\n"
    "capacities, a loop's CDUs) rides in each object's comments as one 'clustertwin: {...}' line, so\n"
    "import-netbox restores it. Each file is replaced atomically.";
const char* const kImportNetBoxSynopsis =
    "import-netbox (FOLDER | --url URL [--token-file FILE] [--timeout S] [--save-responses DIR]) --out FILE "
    "[--mapping FILE]";
const char* const kImportNetBoxHelp =
    "Builds a design from saved NetBox REST API list responses: FOLDER/dcim/sites.json, racks.json and\n"
    "optionally locations, rack-types, power-panels, power-feeds, devices, device-types, cooling-sources "
    "and\n"
    "cooling-feeds (each a file, or a folder of page files read in name order). Locations without a parent\n"
    "become buildings, their children halls, theirs rows. A NetBox 4.7 cooling source becomes a cooling "
    "loop\n"
    "in each hall it serves (sized N+1 for its racks' liquid heat, each choice logged; CRAC and CRAH are "
    "left\n"
    "out), and a cooling feed puts its rack on that loop. Rack types map to catalog racks by slug, or "
    "through\n"
    "--mapping FILE\n"
    "({\"rack_types\": {\"netbox-slug\": \"catalog-id\"}}; without it FOLDER/netbox-mapping.json when there\n"
    "is one); a rack whose type maps to nothing is left out.\n"
    "Prints the import log (every choice made and every object left out). Writes FILE (.json or .ctwin)\n"
    "atomically, and nothing when the responses are malformed (exit 3).\n"
    "--url URL reads a live NetBox (REST API v4, read only) instead: the same object lists, every page\n"
    "(limit 1000, following `next` only within URL/api/dcim/<type>/), no redirects, --timeout seconds per\n"
    "page (default 120). The API token comes from --token-file FILE or $NETBOX_TOKEN, never the command\n"
    "line. --save-responses DIR keeps the pages as a folder this command reads again.";

const char* const kImportDeviceTypeSynopsis =
    "import-devicetype FILE|FOLDER... --out OVERLAY.json [--mapping FILE]";
const char* const kImportDeviceTypeHelp =
    "Reads NetBox device types in the devicetype-library YAML format (a FOLDER: its .yaml and .yml files in\n"
    "name order, at most 1,000) and writes their values as a catalog overlay (data/FORMAT.md 8.4) for\n"
    "--catalog-overlay: a switch takes rack_units from u_height and power_w from the power ports' draw; a\n"
    "compute rack takes power_load_w = per_item x draw (per_item: the mapping's, else the rack's servers).\n"
    "The draw is the ports' allocated_draw summed when any port states one, else their maximum_draw. A\n"
    "device type maps to the catalog item whose id is its slug, or through --mapping FILE\n"
    "({\"device_types\": {\"slug\": {\"item\": \"catalog-id\", \"per_item\": 2}}}). Prints every mapping "
    "and\n"
    "every device type left out. The overlay is checked against the catalog and written atomically; a bad\n"
    "file writes nothing (exit 3).";
const char* const kExportDeviceTypeSynopsis = "export-devicetype ITEM --out FILE.yaml";
const char* const kExportDeviceTypeHelp =
    "Writes a catalog switch (e.g. sw-51t) as a NetBox device-type YAML file for the devicetype-library or\n"
    "NetBox's device-type import: model, slug, u_height from rack_units and one power port whose\n"
    "maximum_draw is power_w. Written atomically.";

namespace {

/// The one positional argument a command takes (UsageError for none or several).
std::string onlyPositional(const Args& a, const char* what) {
    if (a.positional.size() != 1)
        throw UsageError(a.positional.empty() ? std::string("needs ") + what
                                              : "unexpected argument '" + a.positional[1] + "'");
    return a.positional.front();
}

/// The value of a valued option given once (UsageError when it is missing or repeated).
std::string once(const Args& a, const std::string& option, bool required) {
    const auto it = a.options.find(option);
    if (it == a.options.end()) {
        if (required) throw UsageError("needs " + option);
        return {};
    }
    if (it->second.size() > 1) throw UsageError("option " + option + " given twice");
    return it->second.front();
}

} // namespace

int runExportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(args, {}, {"--out", "--netbox-version"});
    const std::string design = onlyPositional(a, "a design FILE"), folder = once(a, "--out", true);
    std::string version = once(a, "--netbox-version", false);
    if (version.empty()) version = cost::netbox::kNetBoxVersion;
    if (!cost::netbox::isSupportedNetBoxVersion(version))
        throw UsageError("--netbox-version must be 4.7 or 4.6, not '" + version + "'");
    const auto catalog = loadDefaultCatalog();
    const model::Project project = store::loadDesign(design, &catalog);
    const auto files = cost::netbox::exportNetBox(project, catalog, version);
    cost::netbox::writeNetBoxExport(folder, files);
    out << "wrote " << files.size() << " files to " << folder << " (NetBox " << version
        << "): " << project.sites.size() << " sites, "
        << project.buildings.size() + project.halls.size() + project.rows.size() << " locations, "
        << project.racks.size() << " racks, " << project.powerFeeds.size() << " power panels";
    if (version != "4.6") out << ", " << project.coolingLoops.size() << " cooling sources";
    out << "\n";
    return kExitOk;
}

namespace {

/// A private folder under the system's temporary directory (mkdtemp: mode 0700), removed with its contents.
class TempFolder {
public:
    TempFolder() {
        std::string t = (std::filesystem::temp_directory_path() / "clustertwin-netbox-XXXXXX").string();
        if (!::mkdtemp(t.data()))
            throw model::InputError(model::InputLocation{t, "", "", "", ""},
                                    "cannot make a temporary folder");
        m_path = t;
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    const std::string& path() const { return m_path; }

private:
    std::string m_path;
};

/// --timeout SECONDS: 1 to 3,600 (default 120).
long timeoutMs(const Args& a) {
    const std::string t = once(a, "--timeout", false);
    if (t.empty()) return 120000;
    char* end = nullptr;
    const double s = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end || !(s >= 1 && s <= 3600))
        throw UsageError("--timeout takes 1 to 3600 seconds");
    return static_cast<long>(s * 1000);
}

} // namespace

int runImportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    const Args a =
        parseArgs(args, {}, {"--out", "--mapping", "--url", "--token-file", "--timeout", "--save-responses"});
    const std::string design = once(a, "--out", true), url = once(a, "--url", false);
    std::string folder;
    std::unique_ptr<TempFolder> temp;
    std::vector<std::string> fetched;
    if (!url.empty()) {
        if (!a.positional.empty()) throw UsageError("takes a FOLDER or --url, not both");
        NetBoxLiveOptions o;
        o.url = url;
        o.requestTimeoutMs = timeoutMs(a); // a usage error before any file is read
        o.token = readNetBoxToken(once(a, "--token-file", false));
        o.connectTimeoutMs = std::min(o.connectTimeoutMs, o.requestTimeoutMs);
        folder = once(a, "--save-responses", false);
        std::error_code ec;
        if (!folder.empty() && std::filesystem::exists(folder, ec) && !std::filesystem::is_empty(folder, ec))
            throw model::InputError(model::InputLocation{folder, "", "", "", ""},
                                    "--save-responses needs a new or empty folder: pages of another fetch "
                                    "would be read with these");
        if (folder.empty()) {
            temp = std::make_unique<TempFolder>();
            folder = temp->path();
        }
        fetched = fetchNetBox(o, folder);
    } else {
        if (a.flag("--token-file") || a.flag("--timeout") || a.flag("--save-responses"))
            throw UsageError("--token-file, --timeout and --save-responses go with --url");
        folder = onlyPositional(a, "a FOLDER of saved API responses or --url URL");
    }
    const auto catalog = loadDefaultCatalog();
    const auto result = cost::netbox::importNetBoxFolder(folder, catalog, once(a, "--mapping", false));
    store::saveDesign(result.project, design);
    for (const auto& line : fetched)
        out << line << "\n";
    for (const auto& line : result.log)
        out << line << "\n";
    out << "wrote " << design << "\n";
    return kExitOk;
}

namespace {

/// The device-type files named on the command line: files as given, folders' .yaml/.yml files in name
/// order; at most kMaxDeviceTypeFiles in all (a folder with more is refused, not cut short).
std::vector<std::string> deviceTypeFiles(const std::vector<std::string>& named) {
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    const auto add = [&](const std::string& f) {
        if (files.size() >= cost::netbox::kMaxDeviceTypeFiles)
            throw model::InputError(model::InputLocation{f, "", "", "", ""},
                                    "more than " + std::to_string(cost::netbox::kMaxDeviceTypeFiles) +
                                        " device-type files in one import");
        files.push_back(f);
    };
    for (const auto& n : named) {
        std::error_code ec;
        if (!fs::is_directory(n, ec)) {
            add(n);
            continue;
        }
        std::vector<std::string> inFolder;
        for (auto it = fs::directory_iterator(n, ec); !ec && it != fs::directory_iterator();
             it.increment(ec)) {
            const auto ext = it->path().extension().string();
            if (ext == ".yaml" || ext == ".yml") inFolder.push_back(it->path().string());
            if (inFolder.size() > cost::netbox::kMaxDeviceTypeFiles) break;
        }
        if (ec)
            throw model::InputError(model::InputLocation{n, "", "", "", ""},
                                    "cannot list the folder: " + ec.message());
        std::sort(inFolder.begin(), inFolder.end());
        for (const auto& f : inFolder)
            add(f);
    }
    return files;
}

} // namespace

int runImportDeviceTypeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(args, {}, {"--out", "--mapping"});
    if (a.positional.empty()) throw UsageError("needs device-type FILEs or a FOLDER");
    const std::string overlayFile = once(a, "--out", true), mappingFile = once(a, "--mapping", false);
    std::vector<cost::netbox::DeviceType> types;
    for (const auto& f : deviceTypeFiles(a.positional))
        types.push_back(cost::netbox::readDeviceTypeFile(f));
    nlohmann::json mapping;
    if (!mappingFile.empty()) {
        // The one parser of outside JSON (nesting limit, no key twice; data/FORMAT.md §6).
        const std::string text = model::readInputFile(mappingFile, model::kMaxSpecFileBytes, "mapping file");
        try {
            mapping = model::parseJson<nlohmann::json>(text);
        } catch (const nlohmann::json::exception& e) {
            throw model::InputError(model::InputLocation{mappingFile, "device-type mapping", "", "", ""},
                                    "malformed JSON: " + model::jsonErrorText(e));
        }
    }
    const auto catalog = loadDefaultCatalog();
    const auto result = cost::netbox::deviceTypeOverlay(
        types, catalog, mappingFile.empty() ? nullptr : &mapping, mappingFile);
    model::writeFileAtomic(overlayFile, result.overlay.dump(2) + "\n");
    for (const auto& line : result.log)
        out << line << "\n";
    out << "wrote " << overlayFile << " (" << result.overlay["items"].size() << " catalog items from "
        << types.size() << " device types)\n";
    return kExitOk;
}

int runExportDeviceTypeCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(args, {}, {"--out"});
    const std::string id = onlyPositional(a, "a catalog ITEM id"), file = once(a, "--out", true);
    const auto catalog = loadDefaultCatalog();
    const auto* item = catalog.find(id);
    if (!item)
        throw model::InputError(model::InputLocation{"", "catalog item", id, "", ""},
                                "is not in the catalog");
    model::writeFileAtomic(file, cost::netbox::deviceTypeYaml(*item));
    out << "wrote " << file << " (NetBox device type " << item->id << ")\n";
    return kExitOk;
}

} // namespace ctwin::app
