// .ctwin save and open against issue 15 item 6: a 14,000-rack design saves in < 120 ms and opens in
// < 80 ms. The design is the 14,180-rack campus of bench_campus (ten copies of the 1,418-rack neocloud
// reference, views::replicateCampus). Open checks catalog references, as the app and the CLI do. Like every
// benchmark here, it reports and never asserts.
#include "../store/legacy_ctwin.h"
#include "../test_support.h"
#include "catalog.h"
#include "design_file.h"
#include "design_json.h"
#include "scene/design_replicator.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <filesystem>

using namespace ctwin;

namespace {
using test_support::catalog;

const model::Project& campus() {
    static const model::Project p =
        views::replicateCampus(test_support::reference("neocloud-100k-gb200"), 10);
    return p;
}

std::string scratch(const char* name) {
    return (std::filesystem::temp_directory_path() / name).string();
}

/// Save (schema 3, typed tables): one durable commit, file and folder synced.
void BM_SaveCtwin14kRacks(benchmark::State& state) {
    const auto& p = campus();
    const std::string path = scratch("ctwin-bench-save.ctwin");
    for (auto _ : state)
        store::saveCtwin(p, path);
    state.counters["racks"] = static_cast<double>(p.racks.size());
    state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path));
    std::remove(path.c_str());
}
BENCHMARK(BM_SaveCtwin14kRacks)->Unit(benchmark::kMillisecond);

/// Open (schema 3): typed tables read into the entities, then validated against the catalog.
void BM_OpenCtwin14kRacks(benchmark::State& state) {
    const auto& p = campus();
    const std::string path = scratch("ctwin-bench-open.ctwin");
    store::saveCtwin(p, path);
    for (auto _ : state)
        benchmark::DoNotOptimize(store::loadCtwin(path, &catalog()));
    state.counters["racks"] = static_cast<double>(p.racks.size());
    std::remove(path.c_str());
}
BENCHMARK(BM_OpenCtwin14kRacks)->Unit(benchmark::kMillisecond);

/// Open of the same design in the schema-2 entity layout (each entity's JSON text parsed): the path every
/// open took before schema 3, and still takes for older files.
void BM_OpenCtwinSchema2_14kRacks(benchmark::State& state) {
    const auto& p = campus();
    const std::string path = scratch("ctwin-bench-open-v2.ctwin");
    std::remove(path.c_str());
    test_support::writeLegacyCtwin(p, path, 2);
    for (auto _ : state)
        benchmark::DoNotOptimize(store::loadCtwin(path, &catalog()));
    std::remove(path.c_str());
}
BENCHMARK(BM_OpenCtwinSchema2_14kRacks)->Unit(benchmark::kMillisecond);

/// The same design as interchange JSON, for comparison: parse and validate.
void BM_OpenJson14kRacks(benchmark::State& state) {
    const auto& p = campus();
    const std::string path = scratch("ctwin-bench-open.json");
    store::saveDesign(p, path);
    for (auto _ : state)
        benchmark::DoNotOptimize(store::loadDesign(path, &catalog()));
    std::remove(path.c_str());
}
BENCHMARK(BM_OpenJson14kRacks)->Unit(benchmark::kMillisecond);
} // namespace

BENCHMARK_MAIN();
