#include "cli.h"

#include "assumption_values.h"
#include "calendar_date.h"
#include "calibrate_command.h"
#include "catalog.h"
#include "catalog_database.h"
#include "climate.h"
#include "csv_cell.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "evaluate.h"
#include "explore_command.h"
#include "format_number.h"
#include "input_error.h"
#include "monte_carlo.h"
#include "netbox_command.h"
#include "new_command.h"
#include "reliability.h"
#include "render_command.h"
#include "report/finance_report.h"
#include "results_json.h"
#include "scenarios.h"
#include "terminal_text.h"
#include "timeline_export.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace ctwin::app {

namespace {

struct Command {
    const char* name;
    const char* synopsis;
    const char* help;
    std::function<int(const std::vector<std::string>&, std::ostream&, std::ostream&)> run;
};

} // namespace

Args parseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& flags,
               const std::vector<std::string>& valued) {
    Args a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string& s = argv[i];
        if (s.rfind("--", 0) == 0) {
            std::string key = s, value;
            bool inline_ = false; // --key=value (an empty value after '=' is an error, not "take the next")
            if (auto eq = s.find('='); eq != std::string::npos && std::find(valued.begin(), valued.end(),
                                                                            s.substr(0, eq)) != valued.end())
                key = s.substr(0, eq), value = s.substr(eq + 1), inline_ = true;
            if (std::find(flags.begin(), flags.end(), key) != flags.end()) {
                a.options[key].push_back("");
            } else if (std::find(valued.begin(), valued.end(), key) != valued.end()) {
                if (inline_ && value.empty()) throw UsageError("option " + key + "= needs a value after '='");
                if (!inline_) {
                    if (i + 1 >= argv.size()) throw UsageError("option " + key + " needs a value");
                    value = argv[++i];
                    // `--pdf --json out.json` forgot the PDF path: never take the next option as a value.
                    if (value.rfind("--", 0) == 0)
                        throw UsageError("option " + key + " needs a value, found the option " + value);
                }
                if (value.empty()) throw UsageError("option " + key + " needs a non-empty value");
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

namespace {

model::Catalog& catalog() {
    // Reloaded when the catalog overlays change between runCli calls (--catalog-overlay, data/FORMAT.md
    // §8.4).
    static model::Catalog c;
    static std::optional<std::vector<std::string>> loadedWith;
    if (!loadedWith || *loadedWith != catalogOverlays()) {
        c = loadDefaultCatalog();
        loadedWith = catalogOverlays();
    }
    return c;
}

model::AssumptionSet defaultAssumptions() {
    static const model::AssumptionSet set = loadDefaultAssumptions();
    return set;
}

/// The --set PATH=VALUE overrides (cost::InputResolver grammar); checked against each design when it is
/// evaluated, where they beat the design's own assumptions block and entity fields.
cost::InputOverrides overridesOf(const Args& args) {
    cost::InputOverrides out;
    for (const auto& kv :
         args.options.count("--set") ? args.options.at("--set") : std::vector<std::string>{}) {
        if (kv.find('=') == std::string::npos) throw UsageError("--set expects PATH=VALUE, got '" + kv + "'");
        out.push_back(cost::parseInputOverride(kv, "--set"));
    }
    return out;
}

/// Loads a design and checks, naming the file, its assumptions block against the shipped defaults (known
/// keys, valid ranges) and its sites' climate locations against data/climate.json (an unknown
/// `climate_location` exits 3 naming the site and the field).
model::Project loadChecked(const std::string& file) {
    model::Project p = store::loadDesign(file, &catalog());
    cost::checkDesignAssumptions(p.assumptions, defaultAssumptions(), file);
    cost::checkClimateLocations(p.sites, *cost::defaultClimateTable(), file);
    return p;
}

int cmdValidate(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {}, {});
    if (a.positional.empty()) throw UsageError("validate needs at least one FILE");
    for (const auto& file : a.positional) {
        const auto project = loadChecked(file);
        out << file << ": ok (" << project.racks.size() << " racks, " << project.entityCount()
            << " entities)\n";
    }
    return kExitOk;
}

int cmdConvert(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {}, {});
    if (a.positional.size() != 2) throw UsageError("convert needs IN and OUT");
    const auto project = loadChecked(a.positional[0]);
    store::saveDesign(project, a.positional[1]);
    out << "wrote " << a.positional[1] << "\n";
    return kExitOk;
}

int cmdEvaluate(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--set", "--at"});
    if (a.positional.size() != 1) throw UsageError("evaluate needs exactly one FILE");
    if (a.flag("--at") && a.options.at("--at").size() > 1) throw UsageError("--at is given once");
    const auto project = loadChecked(a.positional[0]);
    const auto results = cost::evaluate(project, catalog(), defaultAssumptions(), overridesOf(a));
    std::optional<int> at;
    if (a.flag("--at"))
        at = cost::timelineMonthAt(cost::requireTimeline(results, a.positional[0]), a.options.at("--at")[0],
                                   a.positional[0]);
    if (a.flag("--json")) {
        auto j = cost::resultsToJson(results);
        if (at) {
            auto& o = j["at"];
            o["date"] = a.options.at("--at")[0];
            o["month"] = *at;
            o["basis"] = "timeline month (the figures above are steady state)";
            o["values"] = cost::timelineMonthToJson(*results.timeline, *at);
        }
        out << model::dumpOutputJson(j) << "\n";
    } else {
        out << project.info.name << "  (" << a.positional[0] << ")\n" << cost::resultsToText(results);
        if (at) out << "\n" << cost::timelineMonthText(*results.timeline, *at);
    }
    return kExitOk;
}

int cmdTimeline(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json", "--csv"}, {"--set"});
    if (a.positional.size() != 1) throw UsageError("timeline needs exactly one FILE");
    if (a.flag("--json") && a.flag("--csv")) throw UsageError("--json and --csv exclude each other");
    const auto project = loadChecked(a.positional[0]);
    const auto results = cost::evaluate(project, catalog(), defaultAssumptions(), overridesOf(a));
    const cost::Timeline& t = cost::requireTimeline(results, a.positional[0]);
    if (a.flag("--json")) {
        auto j = cost::timelineToJson(t);
        if (const auto* f = results.figure("timeline.npv_without_phasing_usd"))
            j["summary"]["npv_without_phasing_usd"] = f->value;
        out << model::dumpOutputJson(j) << "\n";
    } else if (a.flag("--csv")) {
        out << cost::timelineToCsv(t);
    } else {
        out << project.info.name << "  (" << a.positional[0] << ")\n" << cost::timelineToText(t);
        if (const auto* f = results.figure("timeline.npv_without_phasing_usd"))
            out << "NPV without phasing (every hall at the reference delivery): $"
                << model::formatNumber(std::round(f->value / 1e5) / 10) << "M\n";
    }
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

double parseNumber(const std::string& text, const std::string& what) {
    const auto v = model::parseDecimal(text);
    if (!v)
        throw model::InputError(model::InputLocation{"command line", "", "", "", what},
                                "'" + text +
                                    "' is not a finite number (decimal notation, e.g. 0.08 or 1.5e9)");
    return *v;
}

/// A whole number option (seed, threads): digits only, within [min, max]. Anything else (2.5, 1e300, -1,
/// 99999999999999999999) is a usage error: casting such a double to an integer is undefined behaviour.
std::uint64_t parseWhole(const std::string& text, const std::string& option, std::uint64_t min,
                         std::uint64_t max) {
    const std::string range =
        " (a whole number from " + std::to_string(min) + " to " + std::to_string(max) + ")";
    if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError(option + " expects a whole number" + range + ", got '" + text + "'");
    errno = 0;
    const unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
    if (errno == ERANGE || v < min || v > max)
        throw UsageError(option + " " + text + " is out of range" + range);
    return v;
}

std::vector<std::string> optionValues(const Args& a, const std::string& key) {
    auto it = a.options.find(key);
    return it == a.options.end() ? std::vector<std::string>{} : it->second;
}

/// Loads and evaluates one design with the shared defaults (+ --set overrides).
struct Evaluated {
    std::string file;
    model::Project project;
    cost::Results results;
    double seconds = 0.0; // wall time of the evaluation, for run-time estimates
};
Evaluated loadAndEvaluate(const std::string& file, const cost::InputOverrides& overrides) {
    Evaluated e{file, loadChecked(file), {}};
    const auto start = std::chrono::steady_clock::now();
    e.results = cost::evaluate(e.project, catalog(), defaultAssumptions(), overrides);
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return e;
}

/// The designs of a comparison (compare, report with several files), loaded and evaluated. Refuses, naming
/// the file: the same file twice, two files holding the same design (a comparison with itself shows no
/// differences), and a design with no workload (no training job or inference service: it has no token
/// costs and its $/GPU-hour is that of idle hardware, so every delta against a working design misleads).
std::vector<Evaluated> loadComparedDesigns(const std::vector<std::string>& files,
                                           const cost::InputOverrides& overrides) {
    std::vector<Evaluated> designs;
    std::vector<std::string> canonical, content;
    for (const auto& f : files) {
        std::error_code ec;
        const auto path = std::filesystem::weakly_canonical(f, ec);
        const std::string key = ec ? f : path.string();
        if (std::find(canonical.begin(), canonical.end(), key) != canonical.end())
            throw model::InputError(model::InputLocation{f, "", "", "", ""},
                                    "is compared with itself; give different designs");
        auto e = loadAndEvaluate(f, overrides);
        std::string json = model::dumpJson(model::projectToJson(e.project));
        for (size_t i = 0; i < content.size(); ++i)
            if (content[i] == json)
                throw model::InputError(model::InputLocation{f, "", "", "", ""},
                                        "holds the same design as " + files[i] +
                                            "; a comparison with itself shows no differences");
        if (!e.project.hasWorkload())
            throw model::InputError(model::InputLocation{f, "design", "", "", "training_jobs"},
                                    "has no workload (no training job or inference service): it has no token "
                                    "costs and its GPU-hour cost is that of idle hardware; add one or leave "
                                    "it out of the comparison");
        canonical.push_back(key);
        content.push_back(std::move(json));
        designs.push_back(std::move(e));
    }
    return designs;
}

/// Progress bar on a terminal (stderr); silent when stderr is not a TTY.
cost::ProgressCallback terminalProgress(std::ostream& err) {
    if (!::isatty(STDERR_FILENO)) return {};
    // The time left is measured, not guessed: elapsed / done x remaining, once 2% of the work and a second
    // have passed (the first points also pay for warm-up).
    const auto start = std::chrono::steady_clock::now();
    return [&err, start](double f) {
        const int width = 40, done = static_cast<int>(f * width + 0.5);
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::string left;
        if (f >= 0.02 && f < 1.0 && elapsed >= 1.0)
            left = ", about " + cost::formatHuman(elapsed / f * (1.0 - f), "s") + " left";
        // The carriage return is the bar's own terminal control: past the filter that escapes control
        // characters in what the CLI prints (terminal_text.h).
        writeUnescaped(err, "\r[" + std::string(static_cast<size_t>(done), '#') +
                                std::string(static_cast<size_t>(width - done), ' ') + "] " +
                                std::to_string(static_cast<int>(f * 100 + 0.5)) + "%" + left + "          " +
                                (f >= 1.0 ? "\n" : ""));
    };
}

int cmdCompare(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--set", "--baseline"});
    if (a.positional.size() < 2 || a.positional.size() > 6) throw UsageError("compare needs 2 to 6 designs");
    std::vector<std::string> names;
    std::vector<cost::Results> results;
    for (auto& e : loadComparedDesigns(a.positional, overridesOf(a))) {
        names.push_back(e.project.info.name.empty() ? e.file : e.project.info.name);
        results.push_back(std::move(e.results));
    }
    size_t baseline = 0;
    if (auto b = optionValues(a, "--baseline"); !b.empty()) {
        const double v = parseNumber(b.back(), "--baseline");
        if (v < 1 || v > static_cast<double>(names.size()) || v != std::floor(v))
            throw UsageError("--baseline must be a design number from 1 to " + std::to_string(names.size()));
        baseline = static_cast<size_t>(v) - 1;
    }
    const auto cmp = cost::compareDesigns(names, results, baseline);
    if (a.flag("--json")) {
        nlohmann::ordered_json j;
        j["designs"] = cmp.names;
        j["files"] = a.positional;
        j["baseline"] = cmp.baseline;
        auto& rows = j["rows"] = nlohmann::ordered_json::array();
        for (const auto& r : cmp.rows)
            rows.push_back({{"key", r.key},
                            {"label", r.label},
                            {"unit", r.unit},
                            {"values", r.values},
                            {"delta_absolute", r.deltaAbsolute},
                            {"delta_percent", r.deltaPercent},
                            {"best", r.best},
                            {"worst", r.worst}});
        j["explanations"] = cmp.explanations;
        out << model::dumpOutputJson(j) << "\n";
        return kExitOk;
    }
    char line[512];
    out << "baseline: " << cmp.names[cmp.baseline] << "\n";
    for (size_t i = 0; i < cmp.names.size(); ++i)
        out << "  [" << i + 1 << "] " << cmp.names[i] << "\n";
    std::snprintf(line, sizeof line, "\n%-34s", "figure");
    out << line;
    for (size_t i = 0; i < cmp.names.size(); ++i) {
        std::snprintf(line, sizeof line, " %24s", ("[" + std::to_string(i + 1) + "]").c_str());
        out << line;
    }
    out << "\n";
    for (const auto& r : cmp.rows) {
        if (r.key.rfind("capex.share.", 0) == 0) continue;
        std::snprintf(line, sizeof line, "%-34s", r.label.substr(0, 34).c_str());
        out << line;
        for (size_t i = 0; i < r.values.size(); ++i) {
            std::string cell = cost::formatHuman(r.values[i], "");
            if (i != cmp.baseline && std::abs(r.deltaPercent[i]) >= 0.05) {
                char pct[32];
                std::snprintf(pct, sizeof pct, " (%+.1f%%)", r.deltaPercent[i]);
                cell += pct;
            }
            if (static_cast<int>(i) == r.best) cell += " +";
            if (static_cast<int>(i) == r.worst) cell += " -";
            std::snprintf(line, sizeof line, " %24s", cell.c_str());
            out << line;
        }
        out << "  " << r.unit << "\n";
    }
    out << "\n(+ best, - worst; % against the baseline)\n";
    for (const auto& e : cmp.explanations)
        out << "  * " << e << "\n";
    return kExitOk;
}

std::vector<cost::SweepAxis> parseAxes(const Args& a) {
    std::vector<cost::SweepAxis> axes;
    for (const auto& v : optionValues(a, "--vary")) {
        const auto eq = v.find('=');
        const auto c1 = v.find(':', eq == std::string::npos ? 0 : eq);
        const auto c2 = c1 == std::string::npos ? std::string::npos : v.find(':', c1 + 1);
        if (eq == std::string::npos || c1 == std::string::npos || c2 == std::string::npos)
            throw UsageError("--vary expects PATH=LOW:HIGH:STEPS, got '" + v + "'");
        cost::SweepAxis axis;
        axis.key = v.substr(0, eq);
        axis.low = parseNumber(v.substr(eq + 1, c1 - eq - 1), axis.key + " low");
        axis.high = parseNumber(v.substr(c1 + 1, c2 - c1 - 1), axis.key + " high");
        const double steps = parseNumber(v.substr(c2 + 1), axis.key + " steps");
        if (steps != std::floor(steps) || steps < 1 || steps > 1000)
            throw model::InputError(model::InputLocation{"--vary", "input", axis.key, "", "steps"},
                                    "steps must be a whole number from 1 to 1000");
        axis.steps = static_cast<int>(steps);
        axes.push_back(axis);
    }
    if (axes.empty()) throw UsageError("sweep needs at least one --vary PATH=LOW:HIGH:STEPS");
    return axes;
}

int cmdSweep(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const Args a = parseArgs(argv, {"--json", "--csv"}, {"--set", "--vary", "--output"});
    if (a.positional.size() != 1) throw UsageError("sweep needs exactly one FILE");
    const auto axes = parseAxes(a);
    double points = 1;
    for (const auto& ax : axes)
        points *= ax.steps;
    if (points > cost::kMaxSweepPoints)
        throw model::InputError(model::InputLocation{"--vary", "", "", "", "steps"},
                                "the grid has " + cost::formatHuman(points, "") +
                                    " points, more than the limit of " +
                                    cost::formatHuman(cost::kMaxSweepPoints, "") + "; use fewer steps");
    auto e = loadAndEvaluate(a.positional[0], overridesOf(a));
    // An upper bound (points reuse the bill of materials where they can), said before a long run starts.
    const double estimate = points * e.seconds;
    if (estimate > 10)
        err << "sweep: " << static_cast<long long>(points) << " points, about " << e.seconds * 1e3
            << " ms each: up to " << cost::formatHuman(estimate / 60, "min")
            << " (single-threaded estimate)\n";
    auto outputs = optionValues(a, "--output");
    if (outputs.empty()) outputs = cost::headlineOutputs(e.results);
    cost::ScenarioInput in{&e.project, &catalog(), defaultAssumptions(), overridesOf(a)};
    const auto result = cost::sweep(in, axes, outputs, terminalProgress(err));
    const int n1 = axes.size() > 1 ? axes[1].steps : 1;
    if (a.flag("--json")) {
        nlohmann::ordered_json j;
        for (const auto& ax : axes)
            j["axes"].push_back({{"key", ax.key}, {"low", ax.low}, {"high", ax.high}, {"steps", ax.steps}});
        auto& pts = j["points"] = nlohmann::ordered_json::array();
        for (int i0 = 0; i0 < axes[0].steps; ++i0)
            for (int i1 = 0; i1 < n1; ++i1) {
                nlohmann::ordered_json p;
                p[axes[0].key] = axes[0].value(i0);
                if (axes.size() > 1) p[axes[1].key] = axes[1].value(i1);
                for (size_t k = 0; k < outputs.size(); ++k) {
                    const size_t idx = static_cast<size_t>(i0 * n1 + i1);
                    p[outputs[k]] = result.defined[k][idx] ? nlohmann::ordered_json(result.values[k][idx])
                                                           : nlohmann::ordered_json();
                }
                pts.push_back(std::move(p));
            }
        out << model::dumpOutputJson(j) << "\n";
        return kExitOk;
    }
    if (a.flag("--csv")) { // through cost::csvField, as every CSV the product writes: keys are text
        std::vector<cost::CsvCell> header{axes[0].key};
        if (axes.size() > 1) header.emplace_back(axes[1].key);
        header.insert(header.end(), outputs.begin(), outputs.end());
        out << cost::csvLine(header);
        for (int i0 = 0; i0 < axes[0].steps; ++i0)
            for (int i1 = 0; i1 < n1; ++i1) {
                std::vector<cost::CsvCell> line{cost::CsvCell::number(axes[0].value(i0))};
                if (axes.size() > 1) line.push_back(cost::CsvCell::number(axes[1].value(i1)));
                for (size_t k = 0; k < outputs.size(); ++k) {
                    const size_t idx = static_cast<size_t>(i0 * n1 + i1);
                    line.push_back(result.defined[k][idx] ? cost::CsvCell::number(result.values[k][idx])
                                                          : cost::CsvCell(""));
                }
                out << cost::csvLine(line);
            }
        return kExitOk;
    }
    const char sep = '\t';
    out << axes[0].key;
    if (axes.size() > 1) out << sep << axes[1].key;
    for (const auto& o : outputs)
        out << sep << o;
    out << "\n";
    for (int i0 = 0; i0 < axes[0].steps; ++i0)
        for (int i1 = 0; i1 < n1; ++i1) {
            out << axes[0].value(i0);
            if (axes.size() > 1) out << sep << axes[1].value(i1);
            for (size_t k = 0; k < outputs.size(); ++k) {
                const size_t idx = static_cast<size_t>(i0 * n1 + i1);
                out << sep;
                if (result.defined[k][idx]) out << result.values[k][idx];
            }
            out << "\n";
        }
    return kExitOk;
}

int cmdSensitivity(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--set", "--output"});
    if (a.positional.size() != 1) throw UsageError("sensitivity needs exactly one FILE");
    auto e = loadAndEvaluate(a.positional[0], overridesOf(a));
    auto outs = optionValues(a, "--output");
    const std::string key = outs.empty() ? "finance.cost_per_gpu_hour_usd" : outs.back();
    cost::ScenarioInput in{&e.project, &catalog(), defaultAssumptions(), overridesOf(a)};
    const auto t = cost::tornado(in, key);
    if (a.flag("--json")) {
        nlohmann::ordered_json j{
            {"output", t.output}, {"base", t.base}, {"bars", nlohmann::ordered_json::array()}};
        for (const auto& b : t.bars)
            j["bars"].push_back({{"assumption", b.assumption},
                                 {"input_low", b.inputLow},
                                 {"input_high", b.inputHigh},
                                 {"output_at_low", b.outputAtLow},
                                 {"output_at_high", b.outputAtHigh},
                                 {"swing", b.swing}});
        out << model::dumpOutputJson(j) << "\n";
        return kExitOk;
    }
    out << "sensitivity of " << t.output << " (base " << cost::formatHuman(t.base, "") << ")\n";
    char line[256];
    for (const auto& b : t.bars) {
        std::snprintf(line, sizeof line, "  %-36s %14s .. %-14s  swing %s\n", b.assumption.c_str(),
                      cost::formatHuman(b.outputAtLow, "").c_str(),
                      cost::formatHuman(b.outputAtHigh, "").c_str(), cost::formatHuman(b.swing, "").c_str());
        out << line;
    }
    return kExitOk;
}

int cmdUncertainty(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--set", "--output", "--samples", "--seed"});
    if (a.positional.size() != 1) throw UsageError("uncertainty needs exactly one FILE");
    auto e = loadAndEvaluate(a.positional[0], overridesOf(a));
    auto outs = optionValues(a, "--output");
    if (outs.empty()) outs = cost::headlineOutputs(e.results);
    const auto samplesArg = optionValues(a, "--samples"), seedArg = optionValues(a, "--seed");
    const double samples = samplesArg.empty() ? 1000 : parseNumber(samplesArg.back(), "--samples");
    const std::uint64_t seed =
        seedArg.empty() ? 1
                        : parseWhole(seedArg.back(), "--seed", 0, std::numeric_limits<std::uint64_t>::max());
    if (samples != std::floor(samples) || samples < 1 || samples > 100000)
        throw model::InputError(model::InputLocation{"--samples", "", "", "", ""},
                                "samples must be from 1 to 100,000");
    cost::ScenarioInput in{&e.project, &catalog(), defaultAssumptions(), overridesOf(a)};
    const auto pct = cost::uncertainty(in, outs, static_cast<int>(samples), seed);
    if (a.flag("--json")) {
        nlohmann::ordered_json j;
        for (const auto& [k, p] : pct)
            j[k] = {{"p10", p.p10}, {"p50", p.p50}, {"p90", p.p90}, {"mean", p.mean}};
        out << model::dumpOutputJson(j) << "\n";
        return kExitOk;
    }
    char line[256];
    std::snprintf(line, sizeof line, "%-48s %14s %14s %14s\n", "figure", "P10", "P50", "P90");
    out << line;
    for (const auto& [k, p] : pct) {
        std::snprintf(line, sizeof line, "%-48s %14s %14s %14s\n", k.c_str(),
                      cost::formatHuman(p.p10, "").c_str(), cost::formatHuman(p.p50, "").c_str(),
                      cost::formatHuman(p.p90, "").c_str());
        out << line;
    }
    return kExitOk;
}

int cmdSimulate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const Args a =
        parseArgs(argv, {"--json"}, {"--set", "--trials", "--seed", "--days", "--job", "--threads"});
    if (a.positional.size() != 1) throw UsageError("simulate needs exactly one FILE");
    auto number = [&](const char* key, double fallback) {
        const auto v = optionValues(a, key);
        return v.empty() ? fallback : parseNumber(v.back(), key);
    };
    const double trials = number("--trials", 1000);
    const auto seedArg = optionValues(a, "--seed"), threadsArg = optionValues(a, "--threads");
    const std::uint64_t seed =
        seedArg.empty() ? 1
                        : parseWhole(seedArg.back(), "--seed", 0, std::numeric_limits<std::uint64_t>::max());
    const int threads =
        threadsArg.empty()
            ? 0
            : static_cast<int>(parseWhole(threadsArg.back(), "--threads", 0, cost::kMaxMonteCarloThreads));
    if (trials != std::floor(trials) || trials < 1 ||
        trials > static_cast<double>(cost::kMaxMonteCarloTrials))
        throw model::InputError(model::InputLocation{"--trials", "", "", "", ""},
                                "trials must be a whole number from 1 to " +
                                    std::to_string(cost::kMaxMonteCarloTrials));
    auto e = loadAndEvaluate(a.positional[0], overridesOf(a));
    if (e.results.training.empty())
        throw model::InputError(model::InputLocation{a.positional[0], "", "", "", "training_jobs"},
                                "the design has no training job to simulate");
    const auto jobIds = optionValues(a, "--job");
    const cost::TrainingResult* job = &e.results.training.front();
    if (!jobIds.empty()) {
        job = nullptr;
        for (const auto& t : e.results.training)
            if (t.jobId == jobIds.back()) job = &t;
        if (!job)
            throw model::InputError(
                model::InputLocation{a.positional[0], "training job", jobIds.back(), "", ""}, "no such job");
    }
    // Useful work at full speed: the job's training time with goodput 1, unless --days gives it.
    const double fullSpeedDays = units::toDays(job->estimate.time) * job->reliability.goodput;
    const double days = number("--days", fullSpeedDays);
    if (!(days > 0) || days > cost::kMaxMonteCarloJobDays)
        throw model::InputError(model::InputLocation{"--days", "", "", "", ""},
                                "job duration must lie in (0, " +
                                    std::to_string(static_cast<int>(cost::kMaxMonteCarloJobDays)) + "] days");
    cost::MonteCarloConfig cfg;
    cfg.trials = static_cast<std::int64_t>(trials);
    cfg.jobDuration = units::days(days);
    cfg.seed = seed;
    cfg.threads = threads;
    if (::isatty(STDERR_FILENO)) err << "simulating " << cfg.trials << " trials of " << days << " days...\n";
    const auto mc = cost::simulateReliability(job->reliability.process, cfg);
    const auto& rel = job->reliability;
    auto dist = [](const auto& d, double scale) {
        return nlohmann::ordered_json{
            {"mean", d.mean * scale}, {"p10", d.p10 * scale}, {"p50", d.p50 * scale}, {"p90", d.p90 * scale}};
    };
    auto timeDist = [](const cost::Distribution<units::Time>& d) {
        return nlohmann::ordered_json{{"mean", units::toDays(d.mean)},
                                      {"p10", units::toDays(d.p10)},
                                      {"p50", units::toDays(d.p50)},
                                      {"p90", units::toDays(d.p90)}};
    };
    if (a.flag("--json")) {
        nlohmann::ordered_json j{
            {"job", job->jobId},
            {"trials", mc.trials},
            {"seed", cfg.seed},
            {"work_days", days},
            {"goodput", dist(mc.goodput, 1.0)},
            {"interruptions", dist(mc.interruptions, 1.0)},
            {"completion_days", timeDist(mc.completion)},
            {"analytic", {{"goodput", rel.goodput}, {"interruptions_per_day", rel.interruptionsPerDay}}}};
        out << model::dumpOutputJson(j) << "\n";
        return kExitOk;
    }
    char line[256];
    out << "job " << job->jobId << ": " << mc.trials << " trials of " << cost::formatHuman(days, "days")
        << " of work (seed " << cfg.seed << ")\n";
    std::snprintf(line, sizeof line, "%-24s %12s %12s %12s %12s\n", "", "mean", "P10", "P50", "P90");
    out << line;
    std::snprintf(line, sizeof line, "%-24s %12.4f %12.4f %12.4f %12.4f\n", "goodput", mc.goodput.mean,
                  mc.goodput.p10, mc.goodput.p50, mc.goodput.p90);
    out << line;
    std::snprintf(line, sizeof line, "%-24s %12.1f %12.1f %12.1f %12.1f\n", "interruptions",
                  mc.interruptions.mean, mc.interruptions.p10, mc.interruptions.p50, mc.interruptions.p90);
    out << line;
    std::snprintf(line, sizeof line, "%-24s %12.2f %12.2f %12.2f %12.2f\n", "completion (days)",
                  units::toDays(mc.completion.mean), units::toDays(mc.completion.p10),
                  units::toDays(mc.completion.p50), units::toDays(mc.completion.p90));
    out << line;
    std::snprintf(line, sizeof line, "analytic goodput %.4f (Monte Carlo mean %.4f +- %.4f s.e.)\n",
                  rel.goodput, mc.goodput.mean, mc.goodputStandardError);
    out << line;
    return kExitOk;
}

int cmdCheckpoint(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(argv, {"--json"}, {"--mtbf-hours", "--save-minutes", "--restart-minutes"});
    auto required = [&](const char* key) {
        const auto v = optionValues(a, key);
        if (v.empty()) throw UsageError(std::string("checkpoint needs ") + key);
        const double x = parseNumber(v.back(), key);
        if (x < 0) throw model::InputError(model::InputLocation{key, "", "", "", ""}, "must not be negative");
        return x;
    };
    const double mtbfH = required("--mtbf-hours"), saveMin = required("--save-minutes"),
                 restartMin = required("--restart-minutes");
    // Limits: an MTBF up to 10^6 hours (a whole job, not one part: 114 years), a save and a restart up to a
    // week. A save of 0 has no optimum (the interval tends to 0 with an efficiency of 1).
    auto within = [](const char* key, double v, double lo, bool loOpen, double hi, const char* what) {
        if (v < lo || (loOpen && v == lo) || v > hi) {
            std::ostringstream msg;
            msg << what << " must lie in " << (loOpen ? "(" : "[") << lo << ", " << hi << "], got " << v;
            throw model::InputError(model::InputLocation{key, "", "", "", ""}, msg.str());
        }
    };
    within("--mtbf-hours", mtbfH, 0, true, 1e6, "MTBF in hours");
    within("--save-minutes", saveMin, 0, true, 10080, "checkpoint save time in minutes");
    within("--restart-minutes", restartMin, 0, false, 10080, "restart time in minutes");
    const auto mtbf = units::hours(mtbfH), delta = units::seconds(60 * saveMin),
               restart = units::seconds(60 * restartMin);
    const auto young = cost::checkpointIntervalYoung(delta, mtbf),
               daly = cost::checkpointIntervalDaly(delta, mtbf);
    const double effYoung = cost::checkpointEfficiency(young, delta, restart, mtbf);
    const double effDaly = cost::checkpointEfficiency(daly, delta, restart, mtbf);
    if (!(effYoung > 0 && effDaly > 0 && std::isfinite(young.value()) && std::isfinite(daly.value())))
        throw model::InputError(model::InputLocation{"--save-minutes", "", "", "", ""},
                                "a save of " + cost::formatHuman(saveMin, "min") + " against an MTBF of " +
                                    cost::formatHuman(mtbfH, "h") +
                                    " leaves no useful work (efficiency 0); the job cannot make progress");
    if (a.flag("--json")) {
        out << nlohmann::ordered_json{{"young_minutes", young.value() / 60},
                                      {"daly_minutes", daly.value() / 60},
                                      {"efficiency_young", effYoung},
                                      {"efficiency_daly", effDaly}}
                   .dump(2)
            << "\n";
        return kExitOk;
    }
    char line[256];
    std::snprintf(line, sizeof line, "Young (1974)  interval %8.2f min   expected efficiency %.4f\n",
                  young.value() / 60, effYoung);
    out << line;
    std::snprintf(line, sizeof line, "Daly (2006)   interval %8.2f min   expected efficiency %.4f\n",
                  daly.value() / 60, effDaly);
    out << line;
    return kExitOk;
}

int cmdReport(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    const Args a = parseArgs(
        argv, {}, {"--set", "--pdf", "--xlsx", "--csv", "--json", "--charts", "--samples", "--page-size"});
    if (a.positional.empty() || a.positional.size() > 6)
        throw UsageError("report needs 1 design (or 2 to 6 to compare)");
    PaperSize paper = PaperSize::A4;
    if (const auto size = optionValues(a, "--page-size"); !size.empty()) {
        if (size.back() != "a4" && size.back() != "letter")
            throw UsageError("--page-size is a4 or letter, not '" + size.back() + "'");
        paper = size.back() == "letter" ? PaperSize::Letter : PaperSize::A4;
    }
    std::vector<std::pair<ReportFormat, std::string>> targets;
    for (const auto& [flag, format] : {std::pair{"--pdf", ReportFormat::Pdf},
                                       {"--xlsx", ReportFormat::Xlsx},
                                       {"--csv", ReportFormat::Csv},
                                       {"--json", ReportFormat::Json},
                                       {"--charts", ReportFormat::Charts}})
        for (const auto& path : optionValues(a, flag))
            targets.emplace_back(format, path);
    if (targets.empty())
        throw UsageError(
            "report needs at least one of --pdf OUT, --xlsx OUT, --csv DIR, --json OUT, --charts DIR");
    const auto overrides = overridesOf(a);
    std::vector<Evaluated> designs;
    if (a.positional.size() == 1)
        designs.push_back(loadAndEvaluate(a.positional.front(), overrides));
    else
        designs = loadComparedDesigns(a.positional, overrides);
    if (designs.size() == 1) {
        auto& d = designs.front();
        ReportInput in;
        in.paper = paper;
        in.project = &d.project;
        in.results = &d.results;
        in.assumptions = cost::assumptionSetOf(d.results.inputs);
        cost::ScenarioInput scenario{&d.project, &catalog(), defaultAssumptions(), overrides};
        in.tornado = cost::tornado(scenario, "finance.cost_per_gpu_hour_usd");
        const auto samples = optionValues(a, "--samples");
        const double n = samples.empty() ? 300 : parseNumber(samples.back(), "--samples");
        if (n != std::floor(n) || n < 0 || n > 100000)
            throw model::InputError(model::InputLocation{"--samples", "", "", "", ""},
                                    "samples must be from 0 to 100,000");
        if (n > 0)
            in.uncertainty =
                cost::uncertainty(scenario, cost::headlineOutputs(d.results), static_cast<int>(n), 1);
        for (const auto& [format, path] : targets) {
            writeReport(in, format, path);
            out << "wrote " << path << " (" << reportFormatName(format) << ")\n";
        }
        return kExitOk;
    }
    std::vector<std::string> names;
    std::vector<cost::Results> results;
    for (const auto& d : designs)
        names.push_back(d.project.info.name.empty() ? d.file : d.project.info.name),
            results.push_back(d.results);
    ComparisonInput in;
    in.paper = paper;
    in.comparison = cost::compareDesigns(names, results, 0);
    for (const auto& r : results)
        in.results.push_back(&r);
    for (const auto& [format, path] : targets) {
        writeComparisonReport(in, format, path);
        out << "wrote " << path << " (" << reportFormatName(format) << " comparison of " << names.size()
            << " designs)\n";
    }
    return kExitOk;
}

int cmdRender(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
    const Args a = parseArgs(argv, {}, {"--view", "--out", "--size"});
    if (a.positional.size() != 1) throw UsageError("render needs exactly one FILE");
    const auto opt = [&](const char* k, const char* d) {
        return a.options.count(k) ? a.options.at(k).back() : std::string(d);
    };
    if (opt("--out", "").empty()) throw UsageError("render needs --out FILE.png, FILE.gltf or FILE.glb");
    int w = 0, h = 0;
    {
        // Exactly digits 'x' digits: "800x600junk", "1e3x600" and 20-digit sizes are usage errors.
        const std::string size = opt("--size", "1600x1000");
        const auto x = size.find('x');
        const auto digits = [](const std::string& t) {
            return !t.empty() && t.size() <= 6 && t.find_first_not_of("0123456789") == std::string::npos;
        };
        if (x == std::string::npos || !digits(size.substr(0, x)) || !digits(size.substr(x + 1)))
            throw UsageError("--size expects WxH, e.g. 1920x1080, got '" + size + "'");
        w = std::stoi(size.substr(0, x)), h = std::stoi(size.substr(x + 1));
        if (w <= 0 || h <= 0) throw UsageError("--size expects WxH, e.g. 1920x1080, got '" + size + "'");
    }
    const std::string outPath = opt("--out", ""), format = renderFormat(outPath);
    if (format.empty()) {
        err << "render: " << outPath << ": unknown file type (use .png, .gltf or .glb)\n";
        return kExitInvalidInput;
    }
    const int rc = format == "png" ? renderToPng(a.positional[0], opt("--view", "campus"), outPath, w, h, err)
                                   : renderToGltf(a.positional[0], opt("--view", "campus"), outPath, err);
    if (rc == kExitOk) out << "wrote " << opt("--out", "") << "\n";
    return rc;
}

int cmdVersion(const std::vector<std::string>& argv, std::ostream& out, std::ostream&) {
    if (!argv.empty()) throw UsageError("version takes no arguments");
    // The data line shows where an installed binary found its catalog and reference designs (next to the
    // executable, ../share/clustertwin, unless CTWIN_DATA_DIR says otherwise); the package test checks it.
    out << "clustertwin-cli " << CTWIN_VERSION << "\n"
        << "data: " << dataDirectory() << "\n"
        << "catalog: " << catalog().items().size() << " items\n";
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
        {"evaluate", "evaluate FILE [--json] [--at DATE] [--set PATH=VALUE ...]",
         "Runs the engine on a design and prints inventory, power, capex, finance, training and inference\n"
         "figures and the design rules. --json prints one JSON object. The figures are steady state (every\n"
         "hall energised); --at YYYY-MM[-DD] adds the timeline's month at that date (needs "
         "project.build_start).\n"
         "--set overrides an input; it beats the design's assumptions block and entity fields:\n"
         "  assumptions.KEY=V          e.g. assumptions.wacc=0.1\n"
         "  COLLECTION.ID.FIELD=V      e.g. sites.site-wi.electricity_usd_per_kwh=0.06\n"
         "  COLLECTION.*.FIELD=V       every entity, e.g. buildings.*.pue_pinned=1.2\n"
         "COLLECTION: sites, buildings, links, jobs (training_jobs), services (inference_services) or any\n"
         "collection of data/FORMAT.md; FIELD must be numeric. An override nothing reads (e.g. the tariff\n"
         "assumption when every site sets its own) is an error (exit 3) naming what shadows it.",
         cmdEvaluate},
        {"timeline", "timeline FILE [--json|--csv] [--set PATH=VALUE ...]",
         "The design on a monthly time axis (issue 34, data/FORMAT.md §1): halls energise at their\n"
         "energisation_date (or their building's; else build start + construction_months), facility capex\n"
         "is drawn over the construction months before each, IT is paid on delivery, GPU cohorts rent at a\n"
         "price that falls with their age and are refreshed by their hall's refresh_policy. Prints the\n"
         "phases, NPV, IRR, peak funding, payback and a yearly table; --json every month and phase, --csv\n"
         "one row per month. Exit 3 when a date is bad or falls outside the horizon.",
         cmdTimeline},
        {"compare", "compare A B [C ...] [--baseline N] [--json] [--set PATH=VALUE ...]",
         "Evaluates 2 to 6 designs and prints every figure side by side with absolute and % deltas against\n"
         "the baseline (the first design unless --baseline N), best (+) and worst (-) marked, and a line\n"
         "explaining each big delta.",
         cmdCompare},
        {"sweep",
         "sweep FILE --vary PATH=LOW:HIGH:STEPS [--vary ...] [--output KEY ...] [--json|--csv] [--set ...]",
         "Evaluates the design over a 1-D or 2-D grid of input values (e.g. electricity price x\n"
         "utilization) and prints one row per point: the varied values and each output figure. PATH uses\n"
         "the --set grammar (see evaluate --help): assumptions.KEY, COLLECTION.ID.FIELD, COLLECTION.*.FIELD.",
         cmdSweep},
        {"sensitivity", "sensitivity FILE [--output KEY] [--json] [--set ...]",
         "Tornado: the output figure (default finance.cost_per_gpu_hour_usd) at each input's low and high\n"
         "value, the others at base, sorted by swing. Inputs: the assumptions the design reads and entity\n"
         "values with a range (a site's own tariff moves over the tariff assumption's relative range).",
         cmdSensitivity},
        {"uncertainty", "uncertainty FILE [--samples N] [--seed S] [--output KEY ...] [--json] [--set ...]",
         "Samples every ranged input (as sensitivity) from a triangular distribution (low, base, high) and\n"
         "prints P10/P50/P90 of the output figures; deterministic for a seed.",
         cmdUncertainty},
        {"simulate", "simulate FILE [--trials N] [--seed S] [--days D] [--job ID] [--threads T] [--json]",
         "Monte Carlo of a training job's failures, checkpoints and restarts (event-driven; deterministic "
         "for\n"
         "a seed, whatever the thread count). Prints mean and P10/P50/P90 of goodput, interruptions and\n"
         "completion time, beside the analytic goodput. --days sets the job's work at full speed\n"
         "(default: its training time at goodput 1). Limits: 1 to 1,000,000 trials, at most 3,650 days.",
         cmdSimulate},
        {"checkpoint", "checkpoint --mtbf-hours M --save-minutes S --restart-minutes R [--json]",
         "Optimal checkpoint interval by Young (1974) and Daly (2006) and the expected efficiency.",
         cmdCheckpoint},
        {"report",
         "report FILE [FILE ...] [--pdf OUT] [--xlsx OUT] [--csv DIR] [--json OUT] [--charts DIR] [--samples "
         "N] "
         "[--page-size a4|letter] [--set ...]",
         "Finance report of one design (summary, capex, depreciation, cash flow, TCO, unit costs, "
         "reliability,\n"
         "rules, assumptions with sources, sensitivity tornado, uncertainty from N samples, default 300), or "
         "a\n"
         "comparison report of 2 to 6 designs. --charts writes the report's charts as PNG (300 dpi) and "
         "SVG.\n"
         "Files are written atomically: nothing partial is left behind. --page-size sets the PDF paper "
         "(default a4).",
         cmdReport},
        {"render",
         "render FILE --out FILE.png|FILE.gltf|FILE.glb "
         "[--view campus|campus:power|campus:thermal|campus:type|campus:loop|map] [--size WxH]",
         "Renders the 3D campus or the site map offscreen into a PNG (default 1600x1000).\n"
         "Needs an X server: on a headless machine run `xvfb-run -a clustertwin-cli render ...`. Exit 4 "
         "when\n"
         "no display is available or the image cannot be written.\n"
         "FILE.gltf (one self-contained JSON file) or FILE.glb (binary) writes the 3D campus as glTF 2.0\n"
         "instead, for Blender, three.js or any glTF viewer; needs no display. Exit 3 for another file type\n"
         "or a design with nothing to draw, 4 when the file cannot be written (nothing partial is left).",
         cmdRender},
        {"new", kNewSynopsis, kNewHelp, runNewCommand},
        {"export-netbox", kExportNetBoxSynopsis, kExportNetBoxHelp, runExportNetBoxCommand},
        {"import-netbox", kImportNetBoxSynopsis, kImportNetBoxHelp, runImportNetBoxCommand},
        {"import-devicetype", kImportDeviceTypeSynopsis, kImportDeviceTypeHelp, runImportDeviceTypeCommand},
        {"export-devicetype", kExportDeviceTypeSynopsis, kExportDeviceTypeHelp, runExportDeviceTypeCommand},
        {"calibrate", kCalibrateSynopsis, kCalibrateHelp, runCalibrateCommand},
        {"explore", kExploreSynopsis, kExploreHelp, runExploreCommand},
        {"version", "version", "Prints the version, the data folder in use and the size of the catalog.",
         cmdVersion},
        {"catalog-db", "catalog-db JSON_DIR OUT.db",
         "Builds the SQLite catalog database from the catalog JSON files (done by the build).", cmdCatalogDb},
    };
    return list;
}

void printUsage(std::ostream& s) {
    s << "usage: clustertwin-cli COMMAND [ARGS]\n\ncommands:\n";
    for (const auto& c : commands())
        s << "  " << c.synopsis << "\n";
    s << "\n'clustertwin-cli COMMAND --help' describes one command. Exit codes: 0 ok, 2 usage error, 3 "
         "invalid input.\n";
    s << "Any command takes --catalog-overlay FILE (repeatable): catalog values replaced by a user overlay, "
         "e.g.\n"
         "the efficiency factors `calibrate --out` wrote (data/FORMAT.md §8.4).\n";
}

} // namespace

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    // --catalog-overlay FILE (anywhere, repeatable) applies to every command's catalog.
    std::vector<std::string> overlays;
    for (size_t i = 0; i < args.size();) {
        if (args[i].rfind("--catalog-overlay=", 0) == 0) {
            overlays.push_back(args[i].substr(18));
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
        } else if (args[i] == "--catalog-overlay") {
            if (i + 1 >= args.size() || args[i + 1].empty() || args[i + 1].rfind("--", 0) == 0) {
                err << "clustertwin-cli: option --catalog-overlay needs a FILE\n";
                return kExitUsage;
            }
            overlays.push_back(args[i + 1]);
            args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                       args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
        } else {
            ++i;
        }
    }
    if (std::any_of(overlays.begin(), overlays.end(), [](const std::string& f) { return f.empty(); })) {
        err << "clustertwin-cli: option --catalog-overlay= needs a FILE\n";
        return kExitUsage;
    }
    setCatalogOverlays(overlays);
    if (args.empty()) {
        printUsage(err);
        return kExitUsage;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        printUsage(out);
        return kExitOk;
    }
    const auto it = std::find_if(commands().begin(), commands().end(),
                                 [&](const Command& c) { return args[0] == c.name; });
    if (it == commands().end()) {
        err << "clustertwin-cli: unknown command '" << args[0] << "'\n";
        printUsage(err);
        return kExitUsage;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (std::find(rest.begin(), rest.end(), "--help") != rest.end() ||
        std::find(rest.begin(), rest.end(), "-h") != rest.end()) {
        out << "usage: clustertwin-cli " << it->synopsis << "\n\n" << it->help << "\n";
        return kExitOk;
    }
    try {
        return it->run(rest, out, err);
    } catch (const UsageError& e) {
        err << "clustertwin-cli " << it->name << ": " << e.what() << "\nusage: clustertwin-cli "
            << it->synopsis << "\n";
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
