// The OpenUSD export against issue 33 item 4: a 14,000-rack campus must write as .usda in under 1 s. The
// campus is ten copies of the 1,418-rack neocloud reference (views::replicateCampus: 14,180 GB200 NVL72
// racks in 40 buildings), evaluated once; the export places it with CampusSceneBuilder, writes the text and
// (BM_UsdaWriteFile) replaces a file atomically. Reports, never asserts; counters give the file size.
#include "../test_support.h"
#include "design_file.h"
#include "evaluate.h"
#include "scene/design_replicator.h"
#include "scene/usda_export.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <string>
#include <unistd.h>

using namespace ctwin;

namespace {

using test_support::catalog;
using test_support::kData;

const model::Project& campus() {
    static const model::Project p = views::replicateCampus(
        store::loadDesign(kData + "/reference/neocloud-100k-gb200.json", &catalog()), 10);
    return p;
}

const cost::Results& results() {
    static const cost::Results r = cost::evaluate(campus(), catalog(), test_support::defaults());
    return r;
}

void report(benchmark::State& state, const views::UsdaExportCounts& c) {
    state.counters["racks"] = static_cast<double>(c.racks);
    state.counters["cdus"] = static_cast<double>(c.cdus);
    state.counters["MB"] = static_cast<double>(c.bytes) / 1e6;
}

void BM_UsdaText(benchmark::State& state) {
    const views::SceneSource source{campus(), catalog(), &results()};
    views::UsdaExportCounts counts;
    for (auto _ : state) {
        std::string text = views::campusUsda(source, &counts);
        benchmark::DoNotOptimize(text.data());
    }
    report(state, counts);
}
BENCHMARK(BM_UsdaText)->Unit(benchmark::kMillisecond);

void BM_UsdaWriteFile(benchmark::State& state) {
    const views::SceneSource source{campus(), catalog(), &results()};
    const std::string path = "/tmp/ctwin-bench-campus-" + std::to_string(::getpid()) + ".usda";
    views::UsdaExportCounts counts;
    for (auto _ : state)
        counts = views::writeCampusUsda(source, path);
    std::remove(path.c_str());
    report(state, counts);
}
BENCHMARK(BM_UsdaWriteFile)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
