// The design generator against issue 11: "the wizard generates a 100K-GPU design in under 200 ms". Layout
// only (what OK and `clustertwin-cli new --gpus` pay), layout plus the wizard's preview evaluation, and an
// IT-power target (which evaluates the design while adjusting the rack count). Never asserts on time.
#include "../test_support.h"
#include "design_generator.h"
#include "evaluate.h"

#include <benchmark/benchmark.h>

using namespace ctwin;

namespace {
using test_support::catalog;
using test_support::defaults;

/// 100,000 GB200 GPUs: 1,389 sellable + 28 spare NVL72 racks in 4 buildings of 2 halls, dry coolers.
cost::DesignSpec hundredK() {
    cost::TargetSpec t;
    t.gpus = 100000;
    t.rackType = "gb200-nvl72";
    t.cooling = "dry_cooler";
    t.buildings = 4;
    t.hallsPerBuilding = 2;
    cost::DesignSpec s;
    s.target = t;
    return s;
}

void BM_Generate100kGpus(benchmark::State& state) {
    const auto spec = hundredK();
    for (auto _ : state) {
        auto p = cost::generateDesign(spec, catalog(), defaults());
        benchmark::DoNotOptimize(p.racks.data());
    }
}
BENCHMARK(BM_Generate100kGpus)->Unit(benchmark::kMillisecond);

void BM_Generate100kGpusWithPreview(benchmark::State& state) {
    const auto spec = hundredK();
    for (auto _ : state) {
        const auto p = cost::generateDesign(spec, catalog(), defaults());
        const auto s = cost::summarize(p, catalog(), defaults());
        benchmark::DoNotOptimize(s.itPeakMw);
    }
}
BENCHMARK(BM_Generate100kGpusWithPreview)->Unit(benchmark::kMillisecond);

void BM_Generate150MwTarget(benchmark::State& state) {
    auto spec = hundredK();
    spec.target->gpus.reset();
    spec.target->itMw = 150;
    for (auto _ : state) {
        auto p = cost::generateDesign(spec, catalog(), defaults());
        benchmark::DoNotOptimize(p.racks.data());
    }
}
BENCHMARK(BM_Generate150MwTarget)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
