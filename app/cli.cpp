#include "cli.h"

#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog.h"
#include "catalog_database.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "results_json.h"

namespace ctwin::app {

namespace {

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Command {
    const char* name;
    const char* synopsis;
    const char* help;
    std::function<int(const std::vector<std::string>&, std::ostream&, std::ostream&)> run;
};

/// Parsed arguments: positionals, flags (--json) and repeated options (--set K=V).
struct Args {
    std::vector<std::string> positional;
    std::map<std::string, std::vector<std::string>> options;
    bool flag(const std::string& f) const { return options.count(f) > 0; }
};

Args parseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& flags,
               const std::vector<std::string>& valued) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& s = argv[i];
        if (s.rfind("--", 0) == 0) {
            std::string key = s, value;
            if (auto eq = s.find('='); eq != std::string::npos && std::find(valued.begin(), valued.end(), s.substr(0, eq)) != valued.end())
                key = s.substr(0, eq), value = s.substr(eq + 1);
            if (std::find(flags.begin(), flags.end(), key) != flags.end()) {
                a.options[key].push_back("");
            } else if (std::find(valued.begin(), valued.end(), key) != valued.end()) {
                if (value.empty()) {
                    if (i + 1 >= argv.size()) throw UsageError("option " + key + " needs a value");
                    value = argv[++i];
                }
                a.options[key].push_back(value);
            } else {
                throw UsageError("unknown option " + s);
            }
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

model::Catalog& catalog() {
    static model::Catalog c = loadDefaultCatalog();
    return c;
}

model::AssumptionSet defaultsWithOverrides(const Args& args) {
    model::AssumptionSet set = loadDefaultAssumptions();
    for (const auto& kv : args.options.count("--set") ? args.options.at("--set") : std::vector<std::string>{}) {
        const auto eq = kv.find('=');
        if (eq == std::string::npos) throw UsageError("--set expects KEY=VALUE, got '" + kv + "'");
        const std::string key = kv.substr(0, eq), text = kv.substr(eq + 1);
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v))
            throw model::InputError(model::InputLocation{"--set", "assumption", key, "", "base"},
                                    "'" + text + "' is not a finite number");
        cost::overrideAssumption(set, key, v);
    }
    return set;
}

int cmdValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {}, {});
    if (a.positional.empty()) throw UsageError("validate needs at least one FILE");
    for (const auto& file : a.positional) {
        const auto project = store::loadDesign(file, &catalog());
        out << file << ": ok (" << project.racks.size() << " racks, " << project.entityCount() << " entities)\n";
    }
    return kExitOk;
}

int cmdConvert(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {}, {});
    if (a.positional.size() != 2) throw UsageError("convert needs IN and OUT");
    const auto project = store::loadDesign(a.positional[0], &catalog());
    store::saveDesign(project, a.positional[1]);
    out << "wrote " << a.positional[1] << "\n";
    return kExitOk;
}

int cmdEvaluate(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--set"});
    if (a.positional.size() != 1) throw UsageError("evaluate needs exactly one FILE");
    const auto defaults = defaultsWithOverrides(a);
    const auto project = store::loadDesign(a.positional[0], &catalog());
    const auto results = cost::evaluate(project, catalog(), defaults);
    if (a.flag("--json")) out << cost::resultsToJson(results).dump(2) << "\n";
    else out << project.info.name << "  (" << a.positional[0] << ")\n" << cost::resultsToText(results);
    return kExitOk;
}

int cmdCatalogDb(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {}, {});
    if (a.positional.size() != 2) throw UsageError("catalog-db needs JSON_DIR and OUT.db");
    const auto c = model::loadCatalogDirectory(a.positional[0]);
    store::writeCatalogDatabase(c, a.positional[1]);
    out << "wrote " << a.positional[1] << " (" << c.items().size() << " items)\n";
    return kExitOk;
}

const std::vector<Command>& commands() {
    static const std::vector<Command> list = {
        {"validate", "validate FILE...",
         "Loads each design (.json or .ctwin) and checks types, ranges, ids, references and catalog ids.\n"
         "Prints one line per file; the first error names the file, entity and field.",
         cmdValidate},
        {"convert", "convert IN OUT",
         "Converts between the JSON interchange format and the .ctwin SQLite document (by extension).\n"
         "The output is written atomically: an existing OUT is replaced only when the write succeeds.",
         cmdConvert},
        {"evaluate", "evaluate FILE [--json] [--set assumptions.KEY=VALUE ...]",
         "Runs the engine on a design and prints inventory, power, capex, finance, training and inference\n"
         "figures and the design rules. --json prints one JSON object; --set overrides an assumption.",
         cmdEvaluate},
        {"catalog-db", "catalog-db JSON_DIR OUT.db",
         "Builds the SQLite catalog database from the catalog JSON files (done by the build).", cmdCatalogDb},
    };
    return list;
}

void printUsage(std::ostream& s) {
    s << "usage: clustertwin-cli COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : commands()) s << "  " << c.synopsis << "\n";
    s << "\n'clustertwin-cli COMMAND --help' describes one command. Exit codes: 0 ok, 2 usage error, 3 invalid input.\n";
}

} // namespace

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    if (args.empty()) {
        printUsage(err);
        return kExitUsage;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(out);
        return kExitOk;
    }
    const auto it = std::find_if(commands().begin(), commands().end(), [&](const Command& c) { return args[0] == c.name; });
    if (it == commands().end()) {
        err << "clustertwin-cli: unknown command '" << args[0] << "'\n";
        printUsage(err);
        return kExitUsage;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() || std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        out << "usage: clustertwin-cli " << it->synopsis << "\n\n" << it->help << "\n";
        return kExitOk;
    }
    try {
        return it->run(rest, out, err);
    } catch (const UsageError& e) {
        err << "clustertwin-cli " << it->name << ": " << e.what() << "\nusage: clustertwin-cli " << it->synopsis << "\n";
        return kExitUsage;
    } catch (const model::InputError& e) {
        err << "error: " << e.what() << "\n";
        return kExitInvalidInput;
    } catch (const std::exception& e) {
        err << "error: " << e.what() << "\n";
        return kExitInvalidInput;
    }
}

} // namespace ctwin::app
