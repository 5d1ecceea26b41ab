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
    /// Exponential with the given rate, by the ziggurat: one 64-bit draw (low 8 bits pick the layer, the top
    /// 53 the abscissa) and a multiply in ~99% of draws; the wedges and the tail (r + Exp(1), memoryless)
    /// take the exact slow path. Replaces -ln(1 - U), whose logarithm dominated the cost per event.
    double exponential(double rate) {
        const auto& z = ziggurat();
        for (;;) {
            const std::uint64_t bits = next();
            const auto i = static_cast<int>(bits & 0xff);
            const double x = static_cast<double>(bits >> 11) * 0x1.0p-53 * z.x[i];
            if (x < z.x[i + 1]) return x / rate;
            if (i == 0) return (ExponentialZiggurat::kR - std::log1p(-uniform())) / rate;
            if (z.f[i] + uniform() * (z.f[i + 1] - z.f[i]) < std::exp(-x)) return x / rate;
        }
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

/// Classes with the same restart behaviour merged; drawn by cumulative probability.
struct Kind {
    double cumulative = 0; // P(class <= this)
    double downtime = 0, rollback = 1, extra = 0;
    bool planned = false;
};

struct Model {
    double lambda = 0; // all events per second
    std::vector<Kind> kinds;
    double tau = 0, delta = 0, len = 0;
    double invTau = 0, invLen = 0; // multiplications instead of divisions in the event loop
    double work = 0;               // compute seconds to do: job duration / (1 - straggler loss)
    double jobSeconds = 0;

    const Kind& pick(double u) const {
        for (const auto& k : kinds)
            if (u < k.cumulative) return k;
        return kinds.back();
    }
};

struct Outcome {
    double completion = 0, unexpected = 0, planned = 0, events = 0;
};

/// One trial; false when it exceeds kMaxEventsPerTrial.
bool runTrial(const Model& m, Xoshiro256& rng, Outcome& out) {
    double t = 0, done = 0, p = 0; // wall time, committed compute, progress in the current segment (T + δ)
    std::int64_t events = 0;
    for (;;) {
        // Up time still needed: finish this segment, whole segments, then the last partial compute (no
        // checkpoint after the last step).
        const double rem = m.work - done;
        double need;
        if (rem <= m.tau) {
            need = std::max(0.0, rem - std::min(p, m.tau));
        } else {
            const double after = rem - m.tau;
            const double whole = std::max(0.0, std::ceil(after * m.invTau) - 1.0);
            need = (m.len - p) + whole * m.len + (after - whole * m.tau);
        }
        const double up = m.lambda > 0 ? rng.exponential(m.lambda) : kInf;
        if (up >= need) {
            t += need;
            break;
        }
        t += up;
        const double x = p + up;
        const double segments = std::floor(x * m.invLen);
        done += segments * m.tau;
        p = std::max(0.0, x - segments * m.len);
        if (p >= m.len) done += m.tau, p -= m.len; // rounding at a segment boundary
        // A down period: the failure, then its restart, which a further failure may interrupt.
        for (;;) {
            if (++events > kMaxEventsPerTrial) return false;
            const Kind& k = m.pick(rng.uniform());
            (k.planned ? out.planned : out.unexpected) += 1;
            if (k.rollback >= 1.0 || (k.rollback > 0 && rng.uniform() < k.rollback)) p = 0;
            if (k.extra > 0) done = std::max(0.0, done - k.extra * m.tau);
            const double hit = rng.exponential(m.lambda);
            if (hit >= k.downtime) {
                t += k.downtime;
                break;
            }
            t += hit;
        }
    }
    out.completion = t;
    out.events = static_cast<double>(events);
    return true;
}

double percentile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double h = (static_cast<double>(v.size()) - 1.0) * q;
    const auto lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

Distribution<double> summarize(const std::vector<double>& v) {
    Distribution<double> d;
    double sum = 0;
    for (double x : v)
        sum += x; // index order: independent of the thread count
    d.mean = sum / static_cast<double>(v.size());
    d.p10 = percentile(v, 0.10), d.p50 = percentile(v, 0.50), d.p90 = percentile(v, 0.90);
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
        auto same = std::find_if(m.kinds.begin(), m.kinds.end(), [&](const Kind& k) {
            return k.downtime == down && k.rollback == c.rollbackFraction &&
                   k.extra == c.extraRollbackIntervals && k.planned == c.planned;
        });
        if (same == m.kinds.end())
            m.kinds.push_back(Kind{rate, down, c.rollbackFraction, c.extraRollbackIntervals, c.planned});
        else
            same->cumulative += rate;
    }
    double cumulative = 0;
    for (auto& k : m.kinds)
        k.cumulative = (cumulative += k.cumulative) / m.lambda;
    if (!m.kinds.empty()) m.kinds.back().cumulative = 1.0;

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

    ziggurat(); // build the tables before the workers start
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
                unexpected[k] = o.unexpected;
                planned[k] = o.planned;
                events[k] = o.events;
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
