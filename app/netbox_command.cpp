#include "netbox_command.h"

#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "netbox.h"

#include <algorithm>
#include <map>
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
    "({\"rack_types\": {\"netbox-slug\": \"catalog-id\"}}); a rack whose type maps to nothing is left out.\n"
    "Prints the import log (every choice made and every object left out). Writes FILE (.json or .ctwin)\n"
    "atomically, and nothing when the responses are malformed (exit 3).";

namespace {

struct Usage {
    std::string message;
};

/// One positional argument and the valued options named; each option once.
std::map<std::string, std::string> parse(const std::vector<std::string>& args,
                                         const std::vector<std::string>& valued, std::string& positional) {
    std::map<std::string, std::string> opt;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string key = args[i], value;
        if (key.rfind("--", 0) != 0) {
            if (!positional.empty()) throw Usage{"unexpected argument '" + key + "'"};
            positional = key;
            continue;
        }
        bool inlineValue = false;
        if (const auto eq = key.find('='); eq != std::string::npos)
            value = key.substr(eq + 1), key = key.substr(0, eq), inlineValue = true;
        if (std::find(valued.begin(), valued.end(), key) == valued.end())
            throw Usage{"unknown option " + key};
        if (!inlineValue) {
            if (i + 1 >= args.size()) throw Usage{"option " + key + " needs a value"};
            value = args[++i];
        }
        if (value.empty()) throw Usage{"option " + key + " needs a value"};
        if (opt.count(key)) throw Usage{"option " + key + " given twice"};
        opt[key] = value;
    }
    return opt;
}

} // namespace

int runExportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string design;
    std::map<std::string, std::string> opt;
    try {
        opt = parse(args, {"--out"}, design);
        if (design.empty()) throw Usage{"export-netbox needs a design FILE"};
        if (!opt.count("--out")) throw Usage{"export-netbox needs --out FOLDER"};
    } catch (const Usage& u) {
        err << "clustertwin-cli export-netbox: " << u.message << "\nusage: clustertwin-cli "
            << kExportNetBoxSynopsis << "\n";
        return kExitUsage;
    }
    const auto catalog = loadDefaultCatalog();
    const model::Project project = store::loadDesign(design, &catalog);
    const auto files = cost::netbox::exportNetBox(project, catalog);
    cost::netbox::writeNetBoxExport(opt["--out"], files);
    out << "wrote " << files.size() << " files to " << opt["--out"] << " (NetBox "
        << cost::netbox::kNetBoxVersion << "): " << project.sites.size() << " sites, "
        << project.buildings.size() + project.halls.size() + project.rows.size() << " locations, "
        << project.racks.size() << " racks, " << project.powerFeeds.size() << " power panels\n";
    return kExitOk;
}

int runImportNetBoxCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string folder;
    std::map<std::string, std::string> opt;
    try {
        opt = parse(args, {"--out", "--mapping"}, folder);
        if (folder.empty()) throw Usage{"import-netbox needs a FOLDER of saved API responses"};
        if (!opt.count("--out")) throw Usage{"import-netbox needs --out FILE"};
    } catch (const Usage& u) {
        err << "clustertwin-cli import-netbox: " << u.message << "\nusage: clustertwin-cli "
            << kImportNetBoxSynopsis << "\n";
        return kExitUsage;
    }
    const auto catalog = loadDefaultCatalog();
    const auto result =
        cost::netbox::importNetBoxFolder(folder, catalog, opt.count("--mapping") ? opt["--mapping"] : "");
    store::saveDesign(result.project, opt["--out"]);
    for (const auto& line : result.log)
        out << line << "\n";
    out << "wrote " << opt["--out"] << "\n";
    return kExitOk;
}

} // namespace ctwin::app
