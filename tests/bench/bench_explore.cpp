// Design-space exploration (issue 16) against its target: 10,000 design points of a 100K-GPU space in under
// 5 s on 2 cores. tests/bench/explore-100k.json: the neocloud-100k-gb200 layout (1,418 racks) with 27
// layouts (rack type x liquid plant x restart scope) and four overrides, 108,000 points of which a Latin
// hypercube draws 10,000 (9,495 distinct). Wall time on 2 threads; the per-point figure is the same run
// divided by the points evaluated. Never asserts on time (STYLE.md). The MPI 1 -> 2 rank speed-up is
// measured by tests/bench/explore_mpi_speedup.sh (it needs mpirun).
#include "../test_support.h"
#include "explore.h"

#include <benchmark/benchmark.h>

using namespace ctwin;

namespace {

const std::string kSpec = std::string(CTWIN_SOURCE_DATA_DIR) + "/../tests/bench/explore-100k.json";

void BM_Explore10000Points100k(benchmark::State& state) {
    const cost::Explorer x(cost::loadExploreSpec(kSpec), test_support::catalog(), test_support::defaults());
    const auto plan = x.plan(1);
    size_t pareto = 0;
    for (auto _ : state) {
        const auto r = x.finish(x.run(plan, static_cast<int>(state.range(0))), 1);
        pareto = r.pareto.size();
        benchmark::DoNotOptimize(r);
    }
    state.counters["points"] = static_cast<double>(plan.size());
    state.counters["pareto"] = static_cast<double>(pareto);
    state.counters["points_per_s"] =
        benchmark::Counter(static_cast<double>(plan.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Explore10000Points100k)->Arg(1)->Arg(2)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

} // namespace

BENCHMARK_MAIN();
