// Reliability Monte Carlo against SPEC.md §7: 10,000 trials of a 100K-GPU 54-day job under 2 s on 2 cores.
// The design is the neocloud-100k-gb200 reference (97,920-GPU job, ~49 unexpected interruptions a day with
// the Llama 3 calibrated rates), whole-job restarts, 2 worker threads. Benchmarks never assert on time.
#include "../test_support.h"
#include "catalog.h"
#include "design_json.h"
#include "evaluate.h"
#include "monte_carlo.h"
#include "reliability.h"

#include <benchmark/benchmark.h>

using namespace ctwin;

namespace {
using test_support::catalog;
using test_support::defaults;

const cost::ReliabilityResult& neocloud() {
    static const cost::ReliabilityResult r = [] {
        const auto p = test_support::reference("neocloud-100k-gb200");
        const auto bom = cost::evaluate(p, catalog(), defaults()).bom;
        return cost::analyzeReliability(cost::reliabilityInputFor(p, catalog(), bom, p.trainingJobs.front()));
    }();
    return r;
}

void BM_MonteCarlo100kGpu54Days(benchmark::State& state) {
    const auto& r = neocloud();
    cost::MonteCarloConfig config;
    config.trials = 10'000;
    config.jobDuration = units::days(54);
    config.threads = static_cast<int>(state.range(0));
    config.seed = 2024;
    cost::MonteCarloResult mc;
    for (auto _ : state) {
        mc = cost::simulateReliability(r.process, config);
        benchmark::DoNotOptimize(mc);
    }
    state.counters["trials"] = static_cast<double>(config.trials);
    state.counters["events_per_trial"] = mc.eventsPerTrial;
    state.counters["goodput_mc"] = mc.goodput.mean;
    state.counters["goodput_analytic"] = r.goodput;
}
BENCHMARK(BM_MonteCarlo100kGpu54Days)->Arg(2)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The analytic model from the layout (runs on every edit inside evaluate once wired).
void BM_ReliabilityAnalytic100k(benchmark::State& state) {
    const auto p = test_support::reference("neocloud-100k-gb200");
    const auto bom = cost::evaluate(p, catalog(), defaults()).bom;
    for (auto _ : state)
        benchmark::DoNotOptimize(
            cost::analyzeReliability(cost::reliabilityInputFor(p, catalog(), bom, p.trainingJobs.front())));
}
BENCHMARK(BM_ReliabilityAnalytic100k)->Unit(benchmark::kMicrosecond);
} // namespace

BENCHMARK_MAIN();
