#include "explore_command.h"

#include "cli.h"
#include "data_paths.h"
#include "design_json.h"
#include "design_file.h"
#include "explore.h"
#include "input_error.h"
#include "report/comparison_input.h"
#include "report/finance_report.h"
#include "scenarios.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <map>
#include <optional>
#include <ostream>

#ifdef CTWIN_HAVE_MPI
#include "lean/mpi_session.h" // Open MPI itself is in libclustertwin-mpi.so, loaded by --mpi only
#endif

namespace ctwin::app {

const char* const kExploreSynopsis =
    "explore SPEC [--json|--csv] [--threads N] [--seed S] [--mpi] [--report FILE.pdf|.xlsx|.json|DIR] "
    "[--design INDEX --out FILE]";
const char* const kExploreHelp =
    "Explores a design space (data/FORMAT.md section 7): the choices of an exploration spec (catalog ids,\n"
    "plants, topologies, generator targets, overrides such as assumptions.wacc) are combined into points;\n"
    "each point is laid out by the design generator and evaluated; points that do not lay out, carry\n"
    "design-rule errors or miss a constraint are rejected (counted by reason); the Pareto set of the\n"
    "objectives is printed with each point's choices and figures. Exhaustive up to the spec's\n"
    "search.max_exhaustive (at most 100,000 points), else a seeded Latin hypercube or random sample.\n"
    "The result does not depend on --threads or on the number of MPI ranks.\n"
    "  --json | --csv      machine-readable result (default: a summary table)\n"
    "  --threads N         worker threads per process (default: the machine's cores)\n"
    "  --seed S            sample seed (default: the spec's search.seed, else 1)\n"
    "  --mpi               split the points over MPI ranks; run under a launcher:\n"
    "                        mpirun -n 4 clustertwin-cli explore SPEC --mpi\n"
    "                      (add --hostfile FILE to mpirun to spread ranks over machines; see README)\n"
    "  --report PATH       also write a comparison report (PDF, XLSX, JSON, or CSV into a directory) of up "
    "to\n"
    "                      6 Pareto points, best first by the first objective, each evaluated as its design\n"
    "  --design INDEX --out FILE   write the design of one point (its layout and assumption choices; the\n"
    "                      --set overrides of other choices are printed) instead of exploring";

namespace {

struct Usage {
    std::string message;
};

std::uint64_t whole(const std::string& option, const std::string& text, std::uint64_t min,
                    std::uint64_t max) {
    if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
        throw Usage{option + " expects a whole number, got '" + text + "'"};
    const auto v = std::strtoull(text.c_str(), nullptr, 10);
    if (v < min || v > max)
        throw Usage{option + " " + text + " is out of range [" + std::to_string(min) + ", " +
                    std::to_string(max) + "]"};
    return v;
}

/// Environment variables MPI launchers set for their ranks (Open MPI's mpirun, MPICH/Hydra and Slurm's
/// PMI, PMIx).
bool underMpiLauncher() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

void print(const cost::ExploreResult& result, const cost::Explorer& explorer, const std::string& format,
           std::ostream& out) {
    if (format == "json")
        out << model::dumpOutputJson(cost::exploreResultToJson(result, explorer)) << "\n";
    else if (format == "csv")
        out << cost::exploreResultToCsv(result, explorer);
    else
        out << cost::exploreResultToText(result, explorer);
}

/// The comparison report of up to 6 Pareto points (best first by the first objective), each point's design
/// evaluated with the overrides it does not carry.
void writeParetoReport(const cost::ExploreResult& result, const cost::Explorer& explorer,
                       const model::Catalog& catalog, const model::AssumptionSet& defaults,
                       const std::string& path, std::ostream& out) {
    if (result.pareto.size() < 2)
        throw model::InputError(
            model::InputLocation{path, "", "", "", ""},
            "the Pareto set has one point: write it with --design INDEX --out FILE and run "
            "`clustertwin-cli report` on it");
    auto points = result.pareto;
    const bool maximize = explorer.spec().objectives.front().maximize;
    std::stable_sort(points.begin(), points.end(), [&](const auto& a, const auto& b) {
        return maximize ? a.values[0] > b.values[0] : a.values[0] < b.values[0];
    });
    if (points.size() > 6) points.resize(6);
    std::vector<std::string> names;
    std::vector<cost::Results> results;
    for (const auto& p : points) {
        cost::InputOverrides unapplied;
        const auto design = explorer.pointDesign(p.index, &unapplied);
        results.push_back(cost::evaluate(design, catalog, defaults, unapplied));
        std::string name = "#" + std::to_string(p.index);
        const auto choices = explorer.choicesOf(p.index);
        for (const auto& [k, v] : choices.items())
            name += " " + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
        names.push_back(name);
    }
    const ReportFormat format = reportFormatForPath(path);
    ComparisonInput in;
    in.comparison = cost::compareDesigns(names, results, 0);
    for (const auto& r : results)
        in.results.push_back(&r);
    writeComparisonReport(in, format, path);
    out << "wrote " << path << " (" << reportFormatName(format) << " comparison of " << names.size()
        << " Pareto points)\n";
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

#ifdef CTWIN_HAVE_MPI
/// Every rank parses and checks the spec and plans the same points; rank r evaluates the r-th contiguous
/// slice of the plan (the plan groups points by layout, so a slice generates few layouts); rank 0 gathers
/// the records (MessagePack, doubles bit-exact) and finishes. The records of a point depend on its index
/// only, so the Pareto set equals the single-process one bit for bit.
int runMpi(const std::string& specPath, const std::string& format, int threads,
           std::optional<std::uint64_t> seedArg, std::ostream& out, std::ostream& err) {
    MpiSession mpi;
    const int rank = mpi.rank(), size = mpi.size();
    const auto t0 = std::chrono::steady_clock::now();
    try {
        const auto catalog = loadDefaultCatalog();
        const auto defaults = loadDefaultAssumptions();
        cost::Explorer explorer(cost::loadExploreSpec(specPath), catalog, defaults);
        const std::uint64_t seed = seedArg.value_or(explorer.spec().search.seed);
        const auto plan = explorer.plan(seed);
        const size_t lo = plan.size() * static_cast<size_t>(rank) / static_cast<size_t>(size);
        const size_t hi = plan.size() * static_cast<size_t>(rank + 1) / static_cast<size_t>(size);
        const std::vector<std::uint64_t> mine(plan.begin() + static_cast<long>(lo),
                                              plan.begin() + static_cast<long>(hi));
        const std::clock_t cpu0 = std::clock();
        const auto bytes = cost::exploreRecordsToBytes(explorer.run(mine, threads));
        // Processor time of each rank's share: on a loaded machine wall time hides the split's balance.
        const double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
        const std::vector<double> cpus = mpi.gather(cpu);
        const std::vector<int> counts = mpi.gather(static_cast<int>(bytes.size()));
        const std::vector<std::uint8_t> all = mpi.gatherBytes(bytes, counts);
        if (rank != 0) return kExitOk;
        std::vector<cost::ExplorePointRecord> records;
        size_t at = 0;
        for (const int count : counts) {
            const std::vector<std::uint8_t> part(all.begin() + static_cast<long>(at),
                                                 all.begin() + static_cast<long>(at) + count);
            at += static_cast<size_t>(count);
            auto recs = cost::exploreRecordsFromBytes(part);
            records.insert(records.end(), recs.begin(), recs.end());
        }
        const auto result = explorer.finish(std::move(records), seed);
        print(result, explorer, format, out);
        err << "explore: " << result.evaluated << " points in " << secondsSince(t0) << " s on " << size
            << " MPI ranks x " << (threads > 0 ? std::to_string(threads) : std::string("all"))
            << " threads; processor time per rank:";
        for (double c : cpus)
            err << " " << c << " s";
        err << "\n";
        return kExitOk;
    } catch (const model::InputError& e) {
        // Every rank reads the same spec and fails the same way: one message, from rank 0.
        if (rank == 0) err << "error: " << e.what() << "\n";
        return kExitInvalidInput;
    } catch (const std::exception& e) {
        std::cerr << "error (rank " << rank << "): " << e.what() << "\n";
        mpi.abort(kExitInvalidInput);
        return kExitInvalidInput;
    }
}
#endif

} // namespace

bool exploreHasMpi() {
#ifdef CTWIN_HAVE_MPI
    return true;
#else
    return false;
#endif
}

int runExploreCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    std::string spec, format = "text", designOut, reportPath;
    int threads = 0;
    bool mpi = false;
    std::optional<std::uint64_t> seed, design;
    try {
        for (size_t i = 0; i < args.size(); ++i) {
            const std::string& a = args[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)
                    throw Usage{"option " + a + " needs a value"};
                return args[++i];
            };
            if (a == "--json" || a == "--csv") {
                if (format != "text") throw Usage{"give one of --json and --csv"};
                format = a.substr(2);
            } else if (a == "--threads") {
                threads = static_cast<int>(whole(a, value(), 1, 256));
            } else if (a == "--seed") {
                seed = whole(a, value(), 0, 1ull << 53);
            } else if (a == "--mpi") {
                mpi = true;
            } else if (a == "--design") {
                design = whole(a, value(), 0, 1ull << 53);
            } else if (a == "--report") {
                reportPath = value();
            } else if (a == "--out") {
                designOut = value();
            } else if (a.rfind("--", 0) == 0) {
                throw Usage{"unknown option " + a};
            } else if (spec.empty()) {
                spec = a;
            } else {
                throw Usage{"explore takes one SPEC, got '" + spec + "' and '" + a + "'"};
            }
        }
        if (spec.empty()) throw Usage{"explore needs a SPEC file (data/explore/*.json)"};
        if (design.has_value() != !designOut.empty())
            throw Usage{"--design INDEX and --out FILE go together"};
        if (design && mpi) throw Usage{"--design writes one point's design; it does not take --mpi"};
        if (!reportPath.empty() && (mpi || design))
            throw Usage{"--report goes with a threaded run (not --mpi or --design): explore with --mpi, then "
                        "write the report of the Pareto points without --mpi"};
        if (mpi && !exploreHasMpi())
            throw Usage{
                "this clustertwin-cli was built without MPI (install libopenmpi-dev, reconfigure with "
                "-DCTWIN_WITH_MPI=ON); without --mpi the exploration runs on threads"};
        if (mpi && !underMpiLauncher())
            throw Usage{"--mpi needs an MPI launcher: run `mpirun -n 4 clustertwin-cli explore " + spec +
                        " --mpi` (add --hostfile FILE for several machines; as root, --allow-run-as-root); "
                        "without --mpi the exploration runs on threads"};
    } catch (const Usage& u) {
        err << "clustertwin-cli explore: " << u.message << "\nusage: clustertwin-cli " << kExploreSynopsis
            << "\n";
        return kExitUsage;
    }
#ifdef CTWIN_HAVE_MPI
    if (mpi) return runMpi(spec, format, threads, seed, out, err);
#endif

    const auto t0 = std::chrono::steady_clock::now();
    const auto catalog = loadDefaultCatalog();
    const auto defaults = loadDefaultAssumptions();
    cost::Explorer explorer(cost::loadExploreSpec(spec), catalog, defaults);
    if (design) {
        cost::InputOverrides unapplied;
        store::saveDesign(explorer.pointDesign(*design, &unapplied), designOut);
        out << "wrote " << designOut << " (point " << *design << ": " << explorer.choicesOf(*design).dump()
            << "; assumption choices are in its assumptions block)\n";
        if (!unapplied.empty()) {
            out << "evaluate it as explored with:\n  clustertwin-cli evaluate " << designOut;
            for (const auto& o : unapplied) // shortest text that reads back as the same double
                out << " --set " << o.path << "=" << nlohmann::json(o.value).dump();
            out << "\n";
        }
        return kExitOk;
    }
    const std::uint64_t s = seed.value_or(explorer.spec().search.seed);
    const auto setup = secondsSince(t0);
    const auto records = explorer.run(explorer.plan(s), threads);
    const auto result = explorer.finish(records, s);
    // With --report the report's "wrote" line goes to stderr when the result itself is on stdout as data.
    if (!reportPath.empty())
        writeParetoReport(result, explorer, catalog, defaults, reportPath, format == "text" ? out : err);
    print(result, explorer, format, out);
    err << "explore: " << result.evaluated << " points in " << secondsSince(t0) << " s (setup " << setup
        << " s) on " << (threads > 0 ? std::to_string(threads) : std::string("all")) << " threads\n";
    return kExitOk;
}

} // namespace ctwin::app
