#include "new_command.h"

#include "cli.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_generator.h"
#include "format_number.h"
#include "input_error.h"
#include "json_fast_parse.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <ostream>

namespace ctwin::app {

const char* const kNewSynopsis =
    "new (--gpus N | --it-mw X) --rack ID [--buildings B] [--halls H] [--cooling "
    "dry_cooler|tower|chiller|air] "
    "[--site NAME --lat X --lon Y] [--tiers 1|2|3] [--planes P] [--oversubscription R] [--spares F] "
    "[--build-start YYYY-MM-DD [--phase-months N]] [--spec FILE] --out FILE";
const char* const kNewHelp =
    "Lays out a new design from targets with the design generator (the one behind File > New from target "
    "and\n"
    "the shipped reference designs): sites, buildings, halls, rows, racks with hot spares, A/B power feeds,\n"
    "liquid-cooling loops with CDU counts from heat and N+1 redundancy, a back-end fabric sized to fit the "
    "switch\n"
    "radix, a front-end network and a flash file system. The result is an ordinary design to edit.\n"
    "  --gpus N            sellable GPUs, rounded up to whole racks (hot spares come on top)\n"
    "  --it-mw X           or: peak compute IT power in MW (evaluate's power.it_compute_peak_mw: racks at\n"
    "                      load, spares idle; network, storage and WAN come on top), met within one rack\n"
    "  --rack ID           compute rack type from the catalog (e.g. gb200-nvl72, hgx-h100-2srv)\n"
    "  --buildings B       buildings on the site; --halls H halls per building. Default: sized to the "
    "target,\n"
    "                      enough halls that none holds more than 36.25 MW of rack load or 384 racks, at\n"
    "                      most 4 halls per building (the shipped campus-1gw and llama3-16k-h100 halls); a\n"
    "                      count given is kept and the other follows from it\n"
    "  --cooling C         air, or liquid with dry_cooler (default), tower or chiller heat rejection\n"
    "  --site NAME --lat X --lon Y   the site (default 'Site 1' at 0, 0)\n"
    "  --tiers T --planes P --oversubscription R   back-end shape (default: fewest tiers, then planes, that "
    "fit;\n"
    "                      R applies at the top tier boundary, default 1 = non-blocking)\n"
    "  --spares F          hot-spare racks as a fraction of sellable racks (default assumptions: 0.02)\n"
    "  --spec FILE         a generator spec (data/FORMAT.md section 4); target options given here override "
    "its\n"
    "                      target\n"
    "  --build-start D     the day construction starts (YYYY-MM-DD), the time axis's origin\n"
    "  --phase-months N    one building energised every N months from build start + construction_months\n"
    "                      (needs --build-start; 0 = all at once)\n"
    "  --out FILE          .json or .ctwin, written atomically\n"
    "Impossible targets (no GPUs, an unknown or non-compute rack, more halls than racks, NaN) exit 3.";

cost::DesignSpec designSpecForTarget(const cost::TargetSpec& target) {
    cost::DesignSpec spec;
    spec.target = target;
    return spec;
}

namespace {

struct Usage {
    std::string message;
};

double number(const std::string& option, const std::string& text) {
    const auto v = model::parseDecimal(text);
    if (!v)
        throw model::InputError(model::InputLocation{"command line", "option", option, "", ""},
                                "'" + text + "' is not a finite number (decimal notation)");
    return *v;
}

int whole(const std::string& option, const std::string& text) {
    const double v = number(option, text);
    if (!std::isfinite(v) || v != std::floor(v) || std::abs(v) > 1e6)
        throw model::InputError(model::InputLocation{"command line", "option", option, "", ""},
                                "'" + text + "' is not a whole number");
    return static_cast<int>(v);
}

} // namespace

int runNewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    static const std::vector<std::string> valued = {
        "--gpus",   "--it-mw", "--rack", "--buildings",   "--halls",       "--cooling",
        "--site",   "--lat",   "--lon",  "--tiers",       "--planes",      "--oversubscription",
        "--spares", "--spec",  "--out",  "--build-start", "--phase-months"};
    std::map<std::string, std::string> opt;
    try {
        for (size_t i = 0; i < args.size(); ++i) {
            std::string key = args[i], value;
            bool inline_value = false;
            if (const auto eq = key.find('='); key.rfind("--", 0) == 0 && eq != std::string::npos)
                value = key.substr(eq + 1), key = key.substr(0, eq), inline_value = true;
            if (std::find(valued.begin(), valued.end(), key) == valued.end())
                throw Usage{key.rfind("--", 0) == 0 ? "unknown option " + key
                                                    : "unexpected argument '" + key + "'"};
            if (!inline_value) {
                if (i + 1 >= args.size()) throw Usage{"option " + key + " needs a value"};
                value = args[++i];
            }
            if (opt.count(key)) throw Usage{"option " + key + " given twice"};
            opt[key] = value;
        }
        if (!opt.count("--out") || opt["--out"].empty()) throw Usage{"new needs --out FILE"};
        if (!opt.count("--spec") && !(opt.count("--gpus") || opt.count("--it-mw")))
            throw Usage{"new needs --gpus N or --it-mw X (or --spec FILE)"};
        if (!opt.count("--spec") && !opt.count("--rack"))
            throw Usage{"new needs --rack ID (a compute rack type)"};
        if ((opt.count("--lat") || opt.count("--lon")) && !(opt.count("--lat") && opt.count("--lon")))
            throw Usage{"--lat and --lon go together"};
    } catch (const Usage& u) {
        err << "clustertwin-cli new: " << u.message << "\nusage: clustertwin-cli " << kNewSynopsis << "\n";
        return kExitUsage;
    }

    const auto catalog = loadDefaultCatalog();
    const auto defaults = loadDefaultAssumptions();
    cost::DesignSpec spec;
    if (opt.count("--spec")) spec = cost::loadDesignSpec(opt["--spec"]);
    const std::size_t scheduleOptions = opt.count("--build-start") + opt.count("--phase-months");
    const bool targetOptions = opt.size() - scheduleOptions > (opt.count("--spec") ? 2u : 1u);
    if (targetOptions) {
        if (!spec.sites.empty()) {
            err << "clustertwin-cli new: " << opt["--spec"]
                << " is an explicit layout; target options apply only to a spec with a target\n";
            return kExitUsage;
        }
        cost::TargetSpec t = spec.target.value_or(cost::TargetSpec{});
        if (opt.count("--gpus")) t.gpus = number("--gpus", opt["--gpus"]), t.itMw.reset();
        if (opt.count("--it-mw")) t.itMw = number("--it-mw", opt["--it-mw"]), t.gpus.reset();
        if (opt.count("--gpus") && opt.count("--it-mw"))
            throw model::InputError(model::InputLocation{"command line", "option", "--it-mw", "", ""},
                                    "give --gpus or --it-mw, not both");
        if (opt.count("--rack")) t.rackType = opt["--rack"];
        if (opt.count("--buildings")) t.buildings = whole("--buildings", opt["--buildings"]);
        if (opt.count("--halls")) t.hallsPerBuilding = whole("--halls", opt["--halls"]);
        if (opt.count("--cooling")) t.cooling = opt["--cooling"];
        if (opt.count("--site")) {
            if (model::invalidUtf8(opt["--site"]) != std::string::npos)
                throw model::InputError(model::InputLocation{"command line", "option", "--site", "", ""},
                                        "the site name is not valid UTF-8 text");
            t.site.name = opt["--site"];
        }
        if (opt.count("--lat")) t.site.latDeg = number("--lat", opt["--lat"]);
        if (opt.count("--lon")) t.site.lonDeg = number("--lon", opt["--lon"]);
        if (opt.count("--tiers")) t.tiers = whole("--tiers", opt["--tiers"]);
        if (opt.count("--planes")) t.planes = whole("--planes", opt["--planes"]);
        if (opt.count("--oversubscription"))
            t.oversubscription = number("--oversubscription", opt["--oversubscription"]);
        if (opt.count("--spares")) t.spareFraction = number("--spares", opt["--spares"]);
        spec.target = t;
    }
    if (scheduleOptions)
        cost::applyBuildSchedule(
            spec, opt.count("--build-start") ? opt["--build-start"] : spec.info.buildStart,
            opt.count("--phase-months") ? whole("--phase-months", opt["--phase-months"]) : 0, defaults,
            model::InputLocation{"command line", "option", "--build-start", "", ""});
    const auto project = cost::generateDesign(spec, catalog, defaults);
    store::saveDesign(project, opt["--out"]);
    const auto s = cost::summarize(project, catalog, defaults);
    out << "wrote " << opt["--out"] << ": " << s.racks << " racks (" << s.spareRacks << " hot spares, "
        << s.networkRacks << " network racks), " << static_cast<long long>(s.gpus) << " GPUs, " << s.buildings
        << " building(s), " << s.halls << " hall(s), " << s.coolingUnits
        << " CDUs, compute IT power at full load " << std::round(s.itComputePeakMw * 100) / 100
        << " MW (total IT with network, storage and WAN " << std::round(s.itPeakMw * 100) / 100 << " MW)\n";
    return kExitOk;
}

} // namespace ctwin::app
