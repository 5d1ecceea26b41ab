#pragma once
// Event-driven Monte Carlo of a training job under failures (SPEC.md §4.6): it replays the FailureProcess
// that analyzeReliability derives (per-class Poisson failures, checkpoints every T, restarts, rollbacks, hot
// spares, late-detected SDC, stragglers) until the job has done its useful work, and reports distributions.
// Its mean goodput agrees with expectedGoodput() (tests/cost/test_reliability.cpp states the tolerance).
#include "reliability.h"
#include "units.h"

#include <cstdint>

namespace ctwin::cost {

/// Mean and 10th/50th/90th percentiles (linear interpolation between order statistics, Hyndman & Fan 1996
/// definition 7, the default of R and NumPy).
template <class T> struct Distribution { T mean{}, p10{}, p50{}, p90{}; };

struct MonteCarloConfig {
    std::int64_t trials = 1000;
    /// Useful work of the job at full speed (its training time at goodput 1).
    units::Time jobDuration{};
    /// Results depend only on (seed, trial index): trial i draws from a generator seeded by splitmix64 of
    /// (seed, i), so any thread count gives the same summary.
    std::uint64_t seed = 1;
    /// Worker threads; 0 uses std::thread::hardware_concurrency().
    int threads = 0;
};

struct MonteCarloResult {
    std::int64_t trials = 0;
    Distribution<double> goodput;       // useful work / completion time, per trial
    Distribution<double> interruptions; // unexpected interruptions per trial
    Distribution<units::Time> completion;
    double plannedMean = 0;          // planned interruptions per trial, mean
    double eventsPerTrial = 0;       // all simulated failure events per trial, mean
    double goodputStandardError = 0; // standard deviation of the trials' goodput / sqrt(trials)
};

/// Limits (SPEC.md §7 "bad input"; each throws model::InputError naming the job and the field):
/// trials in [1, 10^6]; job duration in (0, 3650 days]; threads in [0, 256]; at most 10^7 failure events
/// in one trial (a run that needs more cannot finish in any useful sense: expected goodput near zero);
/// at most 2·10^9 expected events in a whole run (about half a minute of CPU at ~15 ns per event), so a run is
/// rejected up front rather than left to spin.
inline constexpr std::int64_t kMaxMonteCarloTrials = 1'000'000;
inline constexpr double kMaxMonteCarloJobDays = 3650.0;
inline constexpr int kMaxMonteCarloThreads = 256;
inline constexpr std::int64_t kMaxEventsPerTrial = 10'000'000;
inline constexpr double kMaxSimulatedEvents = 2e9;

/// Simulates `config.trials` runs of the job. Each trial: failures arrive as a Poisson process of the total
/// rate λ at every moment (computing, writing a checkpoint, restarting), the class drawn with probability
/// λ_c/λ; a failure rolls the segment since the last checkpoint back with probability f_c (the restart
/// scope's share of GPUs that lose their work; equal in expectation to rolling back that share), removes
/// k_c·T of committed work for a late-detected SDC, and starts a restart of R_c (a failure during a
/// restart starts it over with the new class). Between failures the work advances in closed form over
/// whole checkpoint segments of T + δ, so the cost per trial is proportional to the failures, not to the
/// checkpoints. Stragglers stretch the work by 1/(1 - s). Threads take fixed blocks of trials.
MonteCarloResult simulateReliability(const FailureProcess& process, const MonteCarloConfig& config);

} // namespace ctwin::cost
