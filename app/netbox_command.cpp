#include "netbox_command.h"

#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "netbox.h"

#include <ostream>

namespace ctwin::app {

const char* const kExportNetBoxSynopsis = "export-netbox FILE --out FOLDER";
const char* const kExportNetBoxHelp =
    "Writes the design as NetBox 4.6 bulk-import files, in the order to import them: 01-manufacturers.csv,\n"
    "02-sites.csv, 03-locations.csv (buildings, halls and rows as nested locations), 04-rack-types.csv,\n"
    "05-racks.csv, 06-power-panels.csv (one per power feed), 07-power-feeds.csv (one per rack and side), "
    "and\n"
    "netbox-request-bodies.json (the same objects as REST API bodies, related objects named by slug). What\n"
    "NetBox has no field for (coordinates, capacities, cooling loops) rides in each object's comments as "
    "one\n"
    "'clustertwin: {...}' line, so import-netbox restores it. Each file is replaced atomically.";
const char* const kImportNetBoxSynopsis = "import-netbox FOLDER --out FILE [--mapping FILE]";
const char* const kImportNetBoxHelp =
    "Builds a design from saved NetBox REST API list responses: FOLDER/dcim/sites.json, racks.json and\n"
    "optionally locations, rack-types, power-panels, power-feeds, devices and device-types (each a file, or "
    "a\n"
    "folder of page files read in name order). Locations without a parent become buildings, their children\n"
    "halls, theirs rows. Rack types map to catalog racks by slug, or through --mapping FILE\n"
    "({\"rack_types\": {\"netbox-slug\": \"catalog-id\"}}; without it FOLDER/netbox-mapping.json when there\n"
    "is one); a rack whose type maps to nothing is left out.\n"
    "Prints the import log (every choice made and every object left out). Writes FILE (.json or .ctwin)\n"
    "atomically, and nothing when the responses are malformed (exit 3).";

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
    const Args a = parseArgs(args, {}, {"--out"});
    const std::string design = onlyPositional(a, "a design FILE"), folder = once(a, "--out", true);
    const auto catalog = loadDefaultCatalog();
    const model::Project project = store::loadDesign(design, &catalog);
    const auto files = cost::netbox::exportNetBox(project, catalog);
    cost::netbox::writeNetBoxExport(folder, files);
    out << "wrote " << files.size() << " files to " << folder << " (NetBox " << cost::netbox::kNetBoxVersion
        << "): " << project.sites.size() << " sites, "
        << project.buildings.size() + project.halls.size() + project.rows.size() << " locations, "
        << project.racks.size() << " racks, " << project.powerFeeds.size() << " power panels\n";
    return kExitOk;
}

int runImportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(args, {}, {"--out", "--mapping"});
    const std::string folder = onlyPositional(a, "a FOLDER of saved API responses"),
                      design = once(a, "--out", true);
    const auto catalog = loadDefaultCatalog();
    const auto result = cost::netbox::importNetBoxFolder(folder, catalog, once(a, "--mapping", false));
    store::saveDesign(result.project, design);
    for (const auto& line : result.log)
        out << line << "\n";
    out << "wrote " << design << "\n";
    return kExitOk;
}

} // namespace ctwin::app
