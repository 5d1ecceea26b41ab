#include "calibrate_command.h"

#include "atomic_write.h"
#include "calibration.h"
#include "design_json.h"
#include "catalog_overlay.h"
#include "cli.h"
#include "data_paths.h"
#include "format_number.h"
#include "input_error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

namespace ctwin::app {

const char* const kCalibrateSynopsis =
    "calibrate POINTS --accelerator ID --model PRESET [--engine ID] [--precision P] [--replica-gpus N] [--gpus N] "
    "[--json] [--out OVERLAY.json [--force]]";
const char* const kCalibrateHelp =
    "Fits the accelerator's efficiency factors (decode_hbm_efficiency, prefill_compute_efficiency,\n"
    "scale_up_collective_efficiency; data/catalog/accelerators.json) to measured serving points, within "
    "their\n"
    "catalog ranges, and prints fitted values and the RMS relative error of tokens/s/GPU before and after.\n"
    "POINTS: a CSV "
    "(model,accelerator,precision,input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,\n"
    "tokens_per_s_per_gpu) or the JSON of vLLM benchmark_serving.py --save-result / SGLang bench_serving\n"
    "(data/FORMAT.md §8). Rows for another accelerator or model are skipped. --precision, --replica-gpus "
    "and\n"
    "--gpus (GPUs the server ran on) supply what a benchmark JSON does not record.\n"
    "--engine names the serving engine profile the points ran on (catalog serving_engines: vllm, sglang,\n"
    "trt-llm, dynamo; default vllm): its per-step overheads and batch cap enter every prediction.\n"
    "--out writes a catalog overlay with the fitted factors and their source; use it with\n"
    "`clustertwin-cli --catalog-overlay OVERLAY.json evaluate DESIGN.json` (or CTWIN_CATALOG_OVERLAY).\n"
    "A fit with a factor on its catalog bound means the data push it past its sourced range (or the model\n"
    "misses an effect): --out then refuses (exit 3) unless --force, and the forced overlay says so.";

namespace {

struct Usage {
    std::string message;
};

std::string today() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
    return buf;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

int gpuOption(const std::string& option, const std::string& text) {
    const double v = model::parseDecimal(text).value_or(0.0);
    if (!(v >= 1 && v <= 10000) || v != std::floor(v))
        throw model::InputError(model::InputLocation{"command line", "", "", "", option},
                                "'" + text + "' is not a whole number of GPUs from 1 to 10000");
    return static_cast<int>(v);
}

/// The calibration as JSON: the overlay, each factor's catalog and fitted value with its range, and each
/// point measured against the model before and after the fit.
void printCalibrationJson(std::ostream& out, const nlohmann::ordered_json& overlay,
                          const cost::CalibrationResult& r, const std::vector<cost::MeasuredPoint>& points,
                          size_t skipped) {
    const auto before = r.before.array(), after = r.after.array(), low = r.low.array(), high = r.high.array();
    nlohmann::ordered_json j = overlay;
    j["factors"] = nlohmann::ordered_json::array();
    for (int k = 0; k < 3; ++k)
        j["factors"].push_back({{"field", cost::kFactorFields[k]},
                                {"catalog", before[k]},
                                {"fitted", after[k]},
                                {"low", low[k]},
                                {"high", high[k]},
                                {"identified", r.identified[k]},
                                {"at_bound", r.atBound[k]}});
    j["skipped_points"] = skipped;
    j["points"] = nlohmann::ordered_json::array();
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        j["points"].push_back(
            {{"origin", p.origin},
             {"precision", p.precision},
             {"input_tokens", p.inputTokens},
             {"output_tokens", p.outputTokens},
             {"replica_gpus", p.replicaGpus},
             {"tokens_per_s_per_user", p.tokensPerSecondPerUser},
             {"measured_tokens_per_s_per_gpu", p.tokensPerSecondPerGpu},
             {"model_before_tokens_per_s_per_gpu", r.predictedBefore[i].tokensPerSecondPerGpu},
             {"model_after_tokens_per_s_per_gpu", r.predictedAfter[i].tokensPerSecondPerGpu},
             {"concurrency", p.concurrency},
             {"model_after_tokens_per_s_per_user", r.predictedAfter[i].tokensPerSecondPerUser},
             {"batch_after", r.predictedAfter[i].batch},
             {"out_of_reach", r.predictedAfter[i].outOfReach}});
    }
    out << model::dumpOutputJson(j) << "\n";
}

/// The calibration as a text table: factors, RMS errors, fit-quality warnings and the points.
void printCalibrationText(std::ostream& out, const model::CatalogItem& acc, const model::CatalogItem& preset,
                          const model::CatalogItem& engine, const cost::CalibrationResult& r,
                          const std::vector<cost::MeasuredPoint>& points, const std::string& file, size_t skipped,
                          const std::string& onBound) {
    const auto before = r.before.array(), after = r.after.array(), low = r.low.array(), high = r.high.array();
    out << "Calibration of " << acc.id << " (" << acc.name << ") with " << preset.id << " on "
        << engine.id << ": " << points.size() << " points from " << file;
    if (skipped) out << " (" << skipped << " for other accelerators or models skipped)";
    out << "\n\n";
    out << std::left << std::setw(32) << "factor" << std::setw(10) << "catalog" << std::setw(10) << "fitted"
        << "range\n";
    for (int k = 0; k < 3; ++k) {
        out << std::setw(32) << cost::kFactorFields[k] << std::setw(10) << fixed(before[k], 3)
            << std::setw(10) << (r.identified[k] ? fixed(after[k], 3) : std::string("-")) << "["
            << fixed(low[k], 2) << ", " << fixed(high[k], 2) << "]";
        if (!r.identified[k])
            out << "  not moved by these points: catalog value kept";
        else if (r.atBound[k])
            out << "  at the catalog bound";
        out << "\n";
    }
    out << "\nRMS relative error of tokens/s/GPU: " << fixed(100 * r.rmsRelativeErrorBefore, 1) << "% -> "
        << fixed(100 * r.rmsRelativeErrorAfter, 1) << "%";
    if (r.rmsUserErrorBefore > 0 || r.rmsUserErrorAfter > 0)
        out << "; of tokens/s/user: " << fixed(100 * r.rmsUserErrorBefore, 1) << "% -> "
            << fixed(100 * r.rmsUserErrorAfter, 1) << "%";
    if (r.outOfReachAfter)
        out << " (" << r.outOfReachAfter << (r.outOfReachAfter == 1 ? " point" : " points")
            << " beyond the model's reach, marked *)";
    const int moved = static_cast<int>(std::count(r.identified.begin(), r.identified.end(), true));
    // Each point gives one equation (tokens/s/GPU), two with a stated concurrency (tokens/s/user too).
    const auto equations = static_cast<int>(
        points.size() + static_cast<size_t>(std::count_if(points.begin(), points.end(),
                                                          [](const auto& p) { return p.concurrency > 0; })));
    if (!onBound.empty())
        out << "\nfit quality: " << onBound << " on the catalog bound; the points ask for a value outside the "
            << "sourced range (or an effect the model lacks)";
    if (equations < moved)
        out << "\nwarning: " << equations << " measured values for " << moved
            << " factors: the data do not determine the fit; measure more operating points";
    out << "\n\n"
        << std::setw(26) << "point" << std::right << std::setw(7) << "in" << std::setw(7) << "out"
        << std::setw(5) << "GPUs" << std::setw(11) << "tok/s/user" << std::setw(10) << "measured"
        << std::setw(10) << "before" << std::setw(10) << "fitted"
        << "  tok/s/GPU\n";
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& p = points[i];
        std::string origin = p.origin.size() > 25 ? "..." + p.origin.substr(p.origin.size() - 22) : p.origin;
        out << std::left << std::setw(26) << origin << std::right << std::setw(7) << fixed(p.inputTokens, 0)
            << std::setw(7) << fixed(p.outputTokens, 0) << std::setw(5) << p.replicaGpus << std::setw(11)
            << fixed(p.tokensPerSecondPerUser, 1) << std::setw(10) << fixed(p.tokensPerSecondPerGpu, 1)
            << std::setw(10) << fixed(r.predictedBefore[i].tokensPerSecondPerGpu, 1) << std::setw(10)
            << fixed(r.predictedAfter[i].tokensPerSecondPerGpu, 1)
            << (r.predictedAfter[i].outOfReach ? "  *" : "") << "\n";
    }
}

} // namespace

int runCalibrateCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    static const std::vector<std::string> valued = {"--accelerator",  "--model", "--precision", "--engine",
                                                    "--replica-gpus", "--gpus",  "--out"};
    std::map<std::string, std::string> opt;
    std::vector<std::string> positional;
    bool json = false, force = false;
    try {
        for (size_t i = 0; i < args.size(); ++i) {
            std::string key = args[i], value;
            if (key == "--json") {
                json = true;
                continue;
            }
            if (key == "--force") {
                force = true;
                continue;
            }
            if (key.rfind("--", 0) != 0) {
                positional.push_back(key);
                continue;
            }
            bool inlineValue = false;
            if (const auto eq = key.find('='); eq != std::string::npos)
                value = key.substr(eq + 1), key = key.substr(0, eq), inlineValue = true;
            if (std::find(valued.begin(), valued.end(), key) == valued.end())
                throw Usage{"unknown option " + key};
            if (!inlineValue) {
                if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                    throw Usage{"option " + key + " needs a value"};
                value = args[++i];
            }
            if (value.empty()) throw Usage{"option " + key + " needs a non-empty value"};
            if (opt.count(key)) throw Usage{"option " + key + " given twice"};
            opt[key] = value;
        }
        if (positional.size() != 1) throw Usage{"calibrate needs exactly one POINTS file"};
        if (!opt.count("--accelerator")) throw Usage{"calibrate needs --accelerator ID"};
        if (!opt.count("--model")) throw Usage{"calibrate needs --model PRESET"};
        if (force && !opt.count("--out")) throw Usage{"--force only applies to --out"};
    } catch (const Usage& u) {
        err << "clustertwin-cli calibrate: " << u.message << "\nusage: clustertwin-cli " << kCalibrateSynopsis
            << "\n";
        return kExitUsage;
    }

    const model::Catalog catalog = loadDefaultCatalog();
    const auto* acc = catalog.find(opt["--accelerator"]);
    if (!acc || acc->category != "accelerators")
        throw model::InputError(model::InputLocation{"command line", "", "", "", "--accelerator"},
                                "unknown accelerator '" + opt["--accelerator"] +
                                    "' (not in the catalog's accelerators)");
    const auto* preset = catalog.find(opt["--model"]);
    if (!preset || preset->category != "models")
        throw model::InputError(model::InputLocation{"command line", "", "", "", "--model"},
                                "unknown model preset '" + opt["--model"] +
                                    "' (not in the catalog's models)");
    const std::string engineId = opt.count("--engine") ? opt["--engine"] : std::string("vllm");
    const auto* engine = catalog.find(engineId);
    if (!engine || engine->category != "serving_engines")
        throw model::InputError(model::InputLocation{"command line", "", "", "", "--engine"},
                                "unknown serving engine profile '" + engineId +
                                    "' (not in the catalog's serving_engines)");
    cost::PointDefaults defaults;
    defaults.model = preset->id;
    defaults.accelerator = acc->id;
    if (opt.count("--precision")) {
        defaults.precision = opt["--precision"];
        if (defaults.precision != "bf16" && defaults.precision != "fp8" && defaults.precision != "fp4")
            throw model::InputError(model::InputLocation{"command line", "", "", "", "--precision"},
                                    "must be bf16, fp8 or fp4, got '" + defaults.precision + "'");
    }
    if (opt.count("--replica-gpus"))
        defaults.replicaGpus = gpuOption("--replica-gpus", opt["--replica-gpus"]);
    if (opt.count("--gpus")) defaults.gpus = gpuOption("--gpus", opt["--gpus"]);

    const std::string file = positional[0];
    const auto all = cost::loadMeasuredPoints(file, defaults);
    std::vector<cost::MeasuredPoint> points;
    for (const auto& p : all)
        if (p.accelerator == acc->id && p.model == preset->id) points.push_back(p);
    const size_t skipped = all.size() - points.size();
    if (points.empty())
        throw model::InputError(model::InputLocation{file, "", "", "", "accelerator"},
                                "none of the " + std::to_string(all.size()) + " measured points is for " +
                                    acc->id + " with " + preset->id);
    const auto r = cost::calibrateAccelerator(*acc, *preset, points, engine);
    auto overlay = cost::calibrationOverlay(
        *acc, r, cost::CalibrationSource{file, today(), preset->id, static_cast<int>(points.size())});
    overlay["calibration"]["engine"] = engine->id;
    std::string onBound;
    for (int k = 0; k < 3; ++k)
        if (r.identified[k] && r.atBound[k]) onBound += (onBound.empty() ? "" : ", ") + std::string(cost::kFactorFields[k]);
    if (!onBound.empty()) overlay["calibration"]["factors_at_bound"] = onBound;
    if (opt.count("--out")) {
        // A factor pinned on its sourced range says the data (or an effect the model lacks) push it further:
        // such an overlay is not a calibration to hand on without saying so.
        if (!onBound.empty() && !force)
            throw model::InputError(model::InputLocation{file, "", "", "", "--out"},
                                    "not written: the fit stops on the catalog bound of " + onBound +
                                        " (RMS error of tokens/s/GPU " + fixed(100 * r.rmsRelativeErrorAfter, 1) +
                                        "%, tokens/s/user " + fixed(100 * r.rmsUserErrorAfter, 1) +
                                        "%); check the points and --engine, or add --force to write it marked as such");
        if (!onBound.empty()) overlay["calibration"]["forced"] = true;
        model::writeFileAtomic(opt["--out"], overlay.dump(2) + "\n");
    }

    if (json) {
        printCalibrationJson(out, overlay, r, points, skipped);
        return kExitOk;
    }
    printCalibrationText(out, *acc, *preset, *engine, r, points, file, skipped, onBound);
    if (opt.count("--out"))
        out << "\nwrote " << opt["--out"] << " (use: clustertwin-cli --catalog-overlay " << opt["--out"]
            << " evaluate DESIGN.json)\n";
    return kExitOk;
}

} // namespace ctwin::app
