#include "monte_carlo.h"

#include "input_error.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ctwin::cost {

using namespace ctwin::units;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSecondsPerDay = 86400.0;
/// Trials per block handed to a worker.
constexpr std::int64_t kBlockTrials = 64;

std::string fmtG(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

/// splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014; the
/// seeding generator recommended for xoshiro by Blackman & Vigna).
std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/// Ziggurat tables for the standard exponential, 256 layers of equal area v (Marsaglia & Tsang, "The
/// Ziggurat Method for Generating Random Variables", J. Statistical Software 5(8), 2000: r
/// = 7.69711747013104972, v = 0.0039496598225815571993 for n = 256). x[0] = v/e^(-r) is the base layer's
/// pseudo-width, x[1] = r, x[i+1] = -ln(e^(-x[i]) + v/x[i]), x[256] = 0; f[i] = e^(-x[i]).
struct ExponentialZiggurat {
    static constexpr double kR = 7.69711747013104972;
    static constexpr double kV = 0.0039496598225815571993;
    double x[257];
    double f[257];
    ExponentialZiggurat() {
        x[0] = kV / std::exp(-kR);
        x[1] = kR;
        for (int i = 1; i < 255; ++i)
            x[i + 1] = -std::log(std::exp(-x[i]) + kV / x[i]);
        x[256] = 0.0;
        for (int i = 0; i < 257; ++i)
            f[i] = std::exp(-x[i]);
    }
};
const ExponentialZiggurat& ziggurat() {
    static const ExponentialZiggurat z;
    return z;
}

/// xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators", ACM TOMS 47(4), 2021).
class Xoshiro256 {
public:
    /// The generator of trial `index` of a run seeded with `seed`.
    Xoshiro256(std::uint64_t seed, std::uint64_t index) {
        std::uint64_t x = seed ^ (0xd1b54a32d192ed03ULL * (index + 1)); // odd multiplier: distinct per index
        x = splitmix64(x) ^ index;
        for (auto& w : m_s)
            w = splitmix64(x);
    }
    std::uint64_t next() {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0], m_s[3] ^= m_s[1], m_s[1] ^= m_s[2], m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    /// Uniform in [0, 1) with 53 random bits.
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Standard exponential (rate 1), by the ziggurat: one 64-bit draw (low 8 bits pick the layer, the top
    /// 53 the abscissa) and a multiply in ~99% of draws; the wedges and the tail (r + Exp(1), memoryless)
    /// take the exact slow path. Replaces -ln(1 - U), whose logarithm dominated the cost per event. The
    /// caller scales by the mean (a multiply, not a division).
    double exponential(const ExponentialZiggurat& z) {
        for (;;) {
            const std::uint64_t bits = next();
            const auto i = static_cast<int>(bits & 0xff);
            const double x = static_cast<double>(bits >> 11) * 0x1.0p-53 * z.x[i];
            if (x < z.x[i + 1]) [[likely]]
                return x;
            if (i == 0) return ExponentialZiggurat::kR - std::log1p(-uniform());
            if (z.f[i] + uniform() * (z.f[i + 1] - z.f[i]) < std::exp(-x)) return x;
        }
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

/// floor(q) for q >= 0 without a libm call (the build targets baseline x86-64, where std::floor is a call:
/// no SSE4.1 roundsd); truncation equals floor for non-negative q below 2^62.
double floorNonNegative(double q) {
    return q < 0x1p62 ? static_cast<double>(static_cast<std::int64_t>(q)) : std::floor(q);
}

/// Classes with the same restart behaviour merged. One 64-bit draw serves a whole failure: its top 32 bits
/// pick the class by Walker's alias method (A. J. Walker, "An efficient method for generating discrete
/// random variables with general distributions", ACM TOMS 3(3), 1977; table built by M. D. Vose's stable
/// construction, IEEE TSE 17(9), 1991): top32 × n = column × 2^32 + fraction, and the class is the column
/// when fraction < accept[column], else alias[column]; no branch, whatever the number of classes. Each
/// share λ_c/λ is thereby rounded to a multiple of 2^-32 per column. The low 32 bits decide whether a
/// further failure arrives during the restart (probability 1 - e^(-λR_c)); if so, it arrives at E mod R_c
/// for a fresh E ~ Exp(λ), which by memorylessness has exactly the law of Exp(λ) conditioned on < R_c
/// (density Σ_j λe^(-λ(x + jR)) = λe^(-λx) / (1 - e^(-λR)) on [0, R)): no logarithm in the event loop.
struct Kind {
    double downtime = 0, rollback = 1, extraWork = 0; // R_c, f_c, k_c·τ
    std::uint64_t interruptThreshold = 0; // (1 - e^(-λ R_c)) × 2^32: P(a failure during the restart)
    double invDowntime = 0;               // 1 / R_c (0 when R_c = 0: never interrupted)
    double keepProgress = 1;              // 0 when f_c = 1, else 1
    std::int64_t plannedCount = 0;        // 1 for planned maintenance, else 0
    /// f_c = 1: always back to the checkpoint; 0 < f_c < 1: with probability f_c (one more draw).
    bool alwaysRollback = false, partialRollback = false;
};

struct AliasColumn {
    std::uint64_t accept = 0; // fraction threshold in [0, 2^32]
    std::uint32_t self = 0, alias = 0;
};

/// Vose's construction: column i keeps class i with probability q_i = n·p_i (capped at 1) and otherwise
/// gives the alias, a class whose q exceeds 1, which pays the column's deficit.
std::vector<AliasColumn> aliasTable(const std::vector<double>& weights) {
    const size_t n = weights.size();
    double total = 0;
    for (double w : weights)
        total += w;
    std::vector<double> q(n);
    std::vector<std::uint32_t> small, large;
    for (size_t i = 0; i < n; ++i) {
        q[i] = weights[i] / total * static_cast<double>(n);
        (q[i] < 1.0 ? small : large).push_back(static_cast<std::uint32_t>(i));
    }
    std::vector<AliasColumn> table(n);
    for (size_t i = 0; i < n; ++i)
        table[i].self = table[i].alias = static_cast<std::uint32_t>(i);
    while (!small.empty() && !large.empty()) {
        const std::uint32_t s = small.back(), l = large.back();
        small.pop_back();
        table[s].accept = static_cast<std::uint64_t>(std::llround(q[s] * 0x1.0p32));
        table[s].alias = l;
        q[l] -= 1.0 - q[s];
        if (q[l] < 1.0) large.pop_back(), small.push_back(l);
    }
    // What is left has q = 1 up to rounding: always keeps its own class.
    for (auto i : small)
        table[i].accept = std::uint64_t{1} << 32;
    for (auto i : large)
        table[i].accept = std::uint64_t{1} << 32;
    return table;
}

struct Model {
    double lambda = 0, meanUp = 0; // all events per second; 1/λ
    std::vector<Kind> kinds;
    std::vector<AliasColumn> alias;
    double tau = 0, delta = 0, len = 0;
    double invTau = 0, invLen = 0; // multiplications instead of divisions in the event loop
    double work = 0;               // compute seconds to do: job duration / (1 - straggler loss)
    double jobSeconds = 0;
    const ExponentialZiggurat* zig = nullptr;

    const Kind& pick(std::uint64_t bits) const {
        const std::uint64_t h = (bits >> 32) * alias.size(); // < 2^32 · n: no overflow for n < 2^32
        const AliasColumn& c = alias[h >> 32];
        // Select by mask (a ternary compiles to a branch that mispredicts whenever the alias is taken).
        const std::uint32_t keep = 0u - static_cast<std::uint32_t>((h & 0xffffffffULL) < c.accept);
        return kinds[c.alias ^ ((c.self ^ c.alias) & keep)];
    }
};

struct Outcome {
    double completion = 0;
    std::int64_t unexpected = 0, planned = 0, events = 0;
};

/// Up time still needed to finish from (committed work `done`, progress `p` in the current segment of
/// T + δ): finish this segment, whole segments, then the last partial compute (no checkpoint after the last
/// step). Never less than rem - p (rem = work - done), which the event loop uses as a cheap lower bound.
double upTimeNeeded(const Model& m, double done, double p) {
    const double rem = m.work - done;
    if (rem <= m.tau) return std::max(0.0, rem - std::min(p, m.tau));
    const double after = rem - m.tau;
    const double whole = std::max(0.0, std::ceil(after * m.invTau) - 1.0);
    return (m.len - p) + whole * m.len + (after - whole * m.tau);
}

/// One trial; false when it exceeds kMaxEventsPerTrial. The generator is copied into a local so that its
/// state stays in registers across the libm calls (a reference kept it in memory: a third of the loop's
/// instructions were its loads and stores).
bool runTrial(const Model& m, Xoshiro256 rng, Outcome& out) {
    double t = 0, done = 0, p = 0; // wall time, committed compute, progress in the current segment (T + δ)
    std::int64_t events = 0, unexpected = 0, planned = 0;
    const bool failures = m.lambda > 0;
    for (;;) {
        const double up = failures ? rng.exponential(*m.zig) * m.meanUp : kInf;
        // upTimeNeeded >= work - done - p: below that bound the job cannot finish before this failure, so
        // the exact (ceil) computation runs only near the end of the job.
        if (up >= m.work - done - p) {
            const double need = upTimeNeeded(m, done, p);
            if (up >= need) {
                t += need;
                break;
            }
        }
        t += up;
        const double x = p + up;
        const double segments = floorNonNegative(x * m.invLen);
        done += segments * m.tau;
        p = std::max(0.0, x - segments * m.len);
        if (p >= m.len) done += m.tau, p -= m.len; // rounding at a segment boundary
        // A down period: the failure, then its restart, which a further failure may interrupt.
        for (;;) {
            if (++events > kMaxEventsPerTrial) return false;
            const std::uint64_t bits = rng.next();
            const Kind& k = m.pick(bits);
            planned += k.plannedCount; // arithmetic, not a branch: planned events are ~10%
            unexpected += 1 - k.plannedCount;
            // Back to the checkpoint: f_c = 1 always, f_c = 0 never (a multiply, not a branch: the shares are
            // uneven), 0 < f_c < 1 with probability f_c.
            if (k.partialRollback) [[unlikely]] {
                if (rng.uniform() < k.rollback) p = 0;
            } else {
                p *= k.keepProgress;
            }
            done = std::max(0.0, done - k.extraWork); // k_c·τ of committed work lost (0 unless SDC)
            // Low 32 bits against P(interrupted)·2^32: an integer compare.
            if ((bits & 0xffffffffULL) >= k.interruptThreshold) {
                t += k.downtime;
                break;
            }
            // The next failure, within the restart: E mod R_c (see Kind).
            const double e = rng.exponential(*m.zig) * m.meanUp;
            t += e - floorNonNegative(e * k.invDowntime) * k.downtime;
        }
    }
    out.completion = t;
    out.events = events;
    out.unexpected = unexpected;
    out.planned = planned;
    return true;
}

/// Percentile of sorted values (Hyndman & Fan definition 7).
double percentileSorted(const std::vector<double>& v, double q) {
    const double h = (static_cast<double>(v.size()) - 1.0) * q;
    const auto lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

/// Mean (summed in trial order: independent of the thread count) and percentiles; sorts a copy once.
Distribution<double> summarize(const std::vector<double>& v) {
    Distribution<double> d;
    double sum = 0;
    for (double x : v)
        sum += x;
    d.mean = sum / static_cast<double>(v.size());
    std::vector<double> sorted(v);
    std::sort(sorted.begin(), sorted.end());
    d.p10 = percentileSorted(sorted, 0.10), d.p50 = percentileSorted(sorted, 0.50),
    d.p90 = percentileSorted(sorted, 0.90);
    return d;
}

} // namespace

MonteCarloResult simulateReliability(const FailureProcess& process, const MonteCarloConfig& cfg) {
    auto fail = [&](const std::string& field, const std::string& problem) {
        throw model::InputError(
            model::InputLocation{"", "training job", process.jobId, process.jobName, field}, problem);
    };
    if (cfg.trials < 1 || cfg.trials > kMaxMonteCarloTrials)
        fail("monte_carlo.trials", "trials " + std::to_string(cfg.trials) + " outside [1, " +
                                       std::to_string(kMaxMonteCarloTrials) + "]");
    const double jobSeconds = cfg.jobDuration.value();
    if (!std::isfinite(jobSeconds) || jobSeconds <= 0 || jobSeconds > kMaxMonteCarloJobDays * kSecondsPerDay)
        fail("monte_carlo.job_duration", "job duration " + fmtG(jobSeconds / kSecondsPerDay) +
                                             " days outside (0, " + fmtG(kMaxMonteCarloJobDays) + "]");
    if (cfg.threads < 0 || cfg.threads > kMaxMonteCarloThreads)
        fail("monte_carlo.threads", "threads " + std::to_string(cfg.threads) + " outside [0, " +
                                        std::to_string(kMaxMonteCarloThreads) + "]");
    if (!process.feasible)
        fail("reliability",
             "the job cannot make progress (no GPUs, or checkpoints cannot be written or restored); "
             "see the design rules");

    Model m;
    m.tau = process.checkpointInterval.value();
    m.delta = process.checkpointWrite.value();
    const double s = process.stragglerLoss;
    if (!std::isfinite(m.tau) || m.tau <= 0)
        fail("checkpoint_interval", "checkpoint interval must be a positive time");
    if (!std::isfinite(m.delta) || m.delta < 0)
        fail("checkpoint_write", "checkpoint write time must be a non-negative time");
    if (!std::isfinite(s) || s < 0 || s >= 1) fail("straggler_loss", "straggler loss must lie in [0, 1)");
    m.len = m.tau + m.delta;
    m.invTau = 1.0 / m.tau;
    m.invLen = 1.0 / m.len;
    m.jobSeconds = jobSeconds;
    m.work = jobSeconds / (1.0 - s);
    std::vector<double> kindRates; // λ of each merged kind
    for (const auto& c : process.classes) {
        const double rate = c.rate.value(), down = c.downtime.value();
        if (!std::isfinite(rate) || rate < 0 || !std::isfinite(down) || down < 0 ||
            !(c.rollbackFraction >= 0 && c.rollbackFraction <= 1) ||
            !std::isfinite(c.extraRollbackIntervals) || c.extraRollbackIntervals < 0)
            fail("failure_class " + c.id,
                 "rate, downtime, rollback fraction (0..1) and extra rollback must be "
                 "finite and non-negative");
        if (rate == 0) continue;
        m.lambda += rate;
        const double extraWork = c.extraRollbackIntervals * m.tau;
        auto same = std::find_if(m.kinds.begin(), m.kinds.end(), [&](const Kind& k) {
            return k.downtime == down && k.rollback == c.rollbackFraction && k.extraWork == extraWork &&
                   k.plannedCount == (c.planned ? 1 : 0);
        });
        if (same == m.kinds.end()) {
            m.kinds.push_back(Kind{down, c.rollbackFraction, extraWork, 0, 0, 1, c.planned ? 1 : 0,
                                   c.rollbackFraction >= 1.0,
                                   c.rollbackFraction > 0 && c.rollbackFraction < 1.0});
            kindRates.push_back(rate);
        } else {
            kindRates[static_cast<size_t>(same - m.kinds.begin())] += rate;
        }
    }
    if (m.lambda > 0) {
        m.meanUp = 1.0 / m.lambda;
        m.alias = aliasTable(kindRates);
        // P(a failure within the restart R_c) = 1 - e^(-λ R_c) (Poisson arrivals of the total rate).
        for (auto& k : m.kinds) {
            k.interruptThreshold =
                static_cast<std::uint64_t>(std::llround(-std::expm1(-m.lambda * k.downtime) * 0x1.0p32));
            k.keepProgress = k.alwaysRollback ? 0.0 : 1.0;
            k.invDowntime = k.downtime > 0 ? 1.0 / k.downtime : 0.0;
        }
    }

    // Runtime cap, checked before any work: expected events per trial = λ × expected completion time.
    const double goodput = expectedGoodput(process);
    if (!(goodput > 0))
        fail("reliability",
             "expected goodput is zero: failures outpace checkpointed progress, the job would not "
             "finish");
    const double expectedEvents = m.lambda * jobSeconds / goodput;
    if (expectedEvents > static_cast<double>(kMaxEventsPerTrial) / 4)
        fail("reliability", "a trial would need about " + fmtG(expectedEvents) + " failure events (limit " +
                                fmtG(static_cast<double>(kMaxEventsPerTrial)) +
                                "): the failure rate is too high for the job to finish");
    if (expectedEvents * static_cast<double>(cfg.trials) > kMaxSimulatedEvents)
        fail("monte_carlo.trials", std::to_string(cfg.trials) + " trials of about " + fmtG(expectedEvents) +
                                       " events each exceed the budget of " + fmtG(kMaxSimulatedEvents) +
                                       " simulated events; use fewer trials");

    m.zig = &ziggurat(); // build the tables before the workers start
    const auto trials = static_cast<size_t>(cfg.trials);
    std::vector<double> goodputs(trials), unexpected(trials), planned(trials), completion(trials),
        events(trials);
    const std::int64_t blocks = (cfg.trials + kBlockTrials - 1) / kBlockTrials;
    std::atomic<std::int64_t> nextBlock{0};
    std::atomic<bool> failed{false};
    std::int64_t failedTrial = -1;
    std::mutex failMutex;
    auto worker = [&] {
        for (;;) {
            const std::int64_t b = nextBlock.fetch_add(1);
            if (b >= blocks || failed.load()) return;
            const std::int64_t end = std::min(cfg.trials, (b + 1) * kBlockTrials);
            for (std::int64_t i = b * kBlockTrials; i < end; ++i) {
                Xoshiro256 rng(cfg.seed, static_cast<std::uint64_t>(i));
                Outcome o;
                if (!runTrial(m, rng, o)) {
                    std::lock_guard lock(failMutex);
                    if (failedTrial < 0 || i < failedTrial) failedTrial = i;
                    failed = true;
                    return;
                }
                const auto k = static_cast<size_t>(i);
                completion[k] = o.completion;
                goodputs[k] = jobSeconds / o.completion;
                unexpected[k] = static_cast<double>(o.unexpected);
                planned[k] = static_cast<double>(o.planned);
                events[k] = static_cast<double>(o.events);
            }
        }
    };
    int threads = cfg.threads > 0 ? cfg.threads : static_cast<int>(std::thread::hardware_concurrency());
    threads = static_cast<int>(
        std::clamp<std::int64_t>(threads, 1, std::min<std::int64_t>(blocks, kMaxMonteCarloThreads)));
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    if (failed)
        fail("reliability", "trial " + std::to_string(failedTrial) + " exceeded " +
                                std::to_string(kMaxEventsPerTrial) +
                                " failure events: the failure rate is too high for the job to finish");

    MonteCarloResult r;
    r.trials = cfg.trials;
    r.goodput = summarize(goodputs);
    r.interruptions = summarize(unexpected);
    const auto days = summarize(completion);
    r.completion = {days.mean * second, days.p10 * second, days.p50 * second, days.p90 * second};
    r.plannedMean = summarize(planned).mean;
    r.eventsPerTrial = summarize(events).mean;
    double ss = 0;
    for (double g : goodputs)
        ss += (g - r.goodput.mean) * (g - r.goodput.mean);
    r.goodputStandardError =
        trials > 1 ? std::sqrt(ss / static_cast<double>(trials - 1) / static_cast<double>(trials)) : 0.0;
    return r;
}

} // namespace ctwin::cost
