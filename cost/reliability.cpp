#include "reliability.h"

#include "reliability_helpers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kSecondsPerDay = 86400.0;

using namespace reliability_detail;

/// Rates derived from a process (see expectedGoodput in the header).
struct ProcessRates {
    double lambda = 0;   // all events, 1/s
    double upShare = 1;  // P_up
    double rollback = 0; // λρ, 1/s
};

ProcessRates processRates(const FailureProcess& p) {
    ProcessRates r;
    for (const auto& c : p.classes)
        r.lambda += c.rate.value();
    if (!(r.lambda > 0)) return r;
    double up = 0, a = 0, b = 0;
    for (const auto& c : p.classes) {
        const double pc = c.rate.value() / r.lambda;
        const double survive = std::exp(-r.lambda * c.downtime.value()); // restart not hit by a failure
        const double keep = 1.0 - std::clamp(c.rollbackFraction, 0.0, 1.0);
        up += pc * survive;
        a += pc * keep * survive;
        b += pc * keep * (1.0 - survive);
    }
    // z = A/(1-B): probability that a down period ends without a rollback. 1-B = 0 only when no class rolls
    // back and every restart is certain to be hit, where z = 1 is the limit.
    const double z = (1.0 - b) > 1e-300 ? std::min(1.0, a / (1.0 - b)) : 1.0;
    r.upShare = up;
    r.rollback = r.lambda * (1.0 - z);
    return r;
}

/// Goodput and its losses, as shares of wall-clock time (sum of losses = 1 - goodput).
struct GoodputParts {
    double goodput = 0, checkpointOverhead = 0, failureLoss = 1, sdcLoss = 0, stragglerLoss = 0;
};

GoodputParts goodputParts(const FailureProcess& p) {
    GoodputParts g;
    const double tau = p.checkpointInterval.value(), delta = p.checkpointWrite.value();
    if (!p.feasible || !(tau > 0) || !std::isfinite(tau) || !(delta >= 0) || !std::isfinite(delta)) return g;
    const double len = tau + delta;
    const ProcessRates r = processRates(p);
    const double x = r.rollback * len;
    // τλρ/(e^(λρL) - 1) = (τ/L)·x/expm1(x); the x -> 0 limit is τ/L (no rollbacks).
    const double rollbackEfficiency = x > 1e-12 ? (x < 700.0 ? x / std::expm1(x) : 0.0) : 1.0;
    const double ckptEfficiency = tau / len;
    const double gCkpt = ckptEfficiency * rollbackEfficiency * r.upShare;
    // Extra rollback: late-detected SDC (sdc) and asynchronous snapshots not yet persisted (lag, a failure
    // loss); together they cannot exceed what the checkpointed run keeps.
    double sdc = 0, lag = 0;
    for (const auto& c : p.classes)
        (c.silentDataCorruption ? sdc : lag) +=
            c.rate.value() * std::max(0.0, c.extraRollbackIntervals) * tau;
    const double extra = std::min(sdc + lag, gCkpt);
    const double scale = sdc + lag > 0 ? extra / (sdc + lag) : 0.0;
    sdc *= scale, lag *= scale;
    const double s = std::clamp(p.stragglerLoss, 0.0, 1.0);
    g.checkpointOverhead = 1.0 - ckptEfficiency;
    g.failureLoss = ckptEfficiency - gCkpt + lag;
    g.sdcLoss = sdc;
    g.stragglerLoss = s * (gCkpt - extra);
    g.goodput = (1.0 - s) * (gCkpt - extra);
    return g;
}

} // namespace

const char* restartScopeName(RestartScope scope) {
    switch (scope) {
    case RestartScope::WholeJob:
        return "whole job";
    case RestartScope::ParallelGroup:
        return "parallel group";
    case RestartScope::HotSpare:
        return "hot spare";
    }
    return "?";
}

Time checkpointIntervalYoung(Time delta, Time mtbf) {
    const double d = delta.value(), m = mtbf.value();
    if (!(d >= 0) || !std::isfinite(d) || !(m > 0)) return Time{};
    if (std::isinf(m)) return d > 0 ? kInf * second : Time{};
    // Young (1974): T = sqrt(2·δ·M).
    return std::sqrt(2.0 * d * m) * second;
}

Time checkpointIntervalDaly(Time delta, Time mtbf) {
    const double d = delta.value(), m = mtbf.value();
    if (!(d >= 0) || !std::isfinite(d) || !(m > 0)) return Time{};
    if (std::isinf(m)) return d > 0 ? kInf * second : Time{};
    // Daly (2006), higher-order estimate: for δ < 2M,
    // T = sqrt(2δM)·[1 + (1/3)·sqrt(δ/(2M)) + (1/9)·(δ/(2M))] - δ; for δ >= 2M, T = M.
    if (d >= 2.0 * m) return m * second;
    const double ratio = d / (2.0 * m);
    return (std::sqrt(2.0 * d * m) * (1.0 + std::sqrt(ratio) / 3.0 + ratio / 9.0) - d) * second;
}

double checkpointEfficiency(Time interval, Time delta, Time restart, Time mtbf) {
    FailureProcess p;
    p.checkpointInterval = interval;
    p.checkpointWrite = delta;
    const double m = mtbf.value();
    if (!(m > 0) || !(restart.value() >= 0) || !std::isfinite(restart.value())) return 0.0;
    if (std::isfinite(m))
        p.classes.push_back(ProcessClass{"failure", (1.0 / m) * hertz, restart, 1.0, 0.0, false});
    // One class, f = 1: expectedGoodput reduces to Daly's T / (M·e^(R/M)·(e^((T+δ)/M) - 1)).
    return goodputParts(p).goodput;
}

Frequency redundantGroupOutageRate(double n, double r, Frequency unitRate, Time repair) {
    const double lambda = unitRate.value(), rep = repair.value();
    if (!(n > r) || !(lambda > 0) || !std::isfinite(lambda) || !(r >= 0)) return Frequency{};
    if (r == 0) return n * lambda * hertz; // no redundancy: every unit failure stops the group
    if (!(rep > 0) || !std::isfinite(rep)) return Frequency{};
    // Billinton & Allan (1992), ch. 9: P(r down) ≈ C(n, r)(λR)^r; rate to r+1 down = P(r)·(n-r)λ
    // = n!/(r!(n-r-1)!) · λ^(r+1) · R^r.
    double coefficient = 1;
    for (double i = 0; i <= r; ++i)
        coefficient *= (n - i); // n (n-1) ... (n-r)
    for (double i = 2; i <= r; ++i)
        coefficient /= i; // / r!
    return coefficient * std::pow(lambda, r + 1) * std::pow(rep, r) * hertz;
}

double expectedGoodput(const FailureProcess& process) {
    return goodputParts(process).goodput;
}

/// Checkpoint times of a job (Daly's δ, the background persist, the restores from storage and from peers).
struct CheckpointTimes {
    double bytes = 0;       // whole job state, B (0 when invalid)
    double persist = 0;     // full write to storage, s
    double restore = 0;     // read back from storage, s
    double delta = 0;       // time training blocks per checkpoint, s
    double peerRestore = 0; // each GPU's shard from a peer's memory, s (= restore without in-memory restore)
    bool inMemory = false;  // restores come from peers (in-memory restore on an asynchronous snapshot)
};

CheckpointTimes checkpointTimes(const ReliabilityInput& in, double n, const std::string& who,
                                std::vector<DesignRule>& rules, bool& feasible) {
    CheckpointTimes t;
    double bytes = in.checkpointBytes.value();
    if (!std::isfinite(bytes) || bytes < 0) {
        addRule(rules, Severity::Error, "checkpoint_size_invalid", in.jobId,
                who + ": checkpoint size must be a non-negative number of bytes");
        bytes = 0;
    }
    // The job's aggregate path to storage: the tier's bandwidth, capped by N × the per-GPU link.
    const double perGpu = in.perGpuStorageBandwidth.value();
    const double cap = std::isfinite(perGpu) && perGpu > 0 ? n * perGpu : kInf;
    const double writeBw = std::min(in.storageWriteBandwidth.value(), cap);
    const double readBw = std::min(in.storageReadBandwidth.value(), cap);
    double persist = 0, restore = 0, delta = 0;
    if (bytes > 0 && feasible) {
        if (!(writeBw > 0) || !std::isfinite(writeBw)) {
            addRule(rules, Severity::Error, "checkpoint_no_bandwidth", in.jobId,
                    who + ": zero storage write bandwidth, checkpoints cannot be written");
            feasible = false;
        } else {
            persist = bytes / writeBw;
        }
        if (!(readBw > 0) || !std::isfinite(readBw)) {
            addRule(rules, Severity::Error, "restore_no_bandwidth", in.jobId,
                    who + ": zero storage read bandwidth, checkpoints cannot be restored");
            feasible = false;
        } else {
            restore = bytes / readBw;
        }
        delta = persist;
        if (in.asyncCheckpoint) {
            // Asynchronous: training blocks only for the device-to-host copy of each GPU's share of the
            // state.
            const double host = in.hostCopyBandwidthPerGpu.value();
            if (!(host > 0) || !std::isfinite(host)) {
                addRule(rules, Severity::Error, "checkpoint_no_host_copy", in.jobId,
                        who + ": asynchronous checkpoints need a device-to-host bandwidth above zero");
                feasible = false;
            } else {
                delta = bytes / n / host;
            }
        }
    }
    // In-memory restore (GEMINI, Wang et al., SOSP 2023): each GPU pulls its own shard of the state from a
    // peer host's memory, paced by the slower of the host-to-device copy and its back-end NIC.
    const bool inMemory = in.inMemoryRestore && in.asyncCheckpoint;
    double peerRestore = restore;
    t.inMemory = inMemory;
    if (inMemory && bytes > 0 && feasible) {
        const double host = in.hostCopyBandwidthPerGpu.value(), nic = in.backendBandwidthPerGpu.value();
        const double peerBw = std::min(host, std::isfinite(nic) && nic > 0 ? nic : host);
        if (peerBw > 0 && std::isfinite(peerBw))
            peerRestore = bytes / n / peerBw;
        else
            addRule(rules, Severity::Warning, "peer_restore_no_bandwidth", in.jobId,
                    who + ": in-memory restore has no peer bandwidth; restores come from storage");
    }
    t.bytes = bytes, t.persist = persist, t.restore = restore, t.delta = delta, t.peerRestore = peerRestore;
    return t;
}

namespace {

/// The checkpoint interval (Young and Daly on the MTBF of rollback events, or the job's pinned one), at
/// least the minimum and, with asynchronous checkpoints, the background persist time; sets the result's
/// interval figures and the process's interval.
double chooseCheckpointInterval(ReliabilityResult& r, const ReliabilityInput& in, double delta, double persist,
                                bool feasible, const std::string& who) {
    auto& rules = r.rules;
    const ProcessRates rates = processRates(r.process);
    const double rollbackMtbf = rates.rollback > 0 ? 1.0 / rates.rollback : kInf;
    r.rollbackMtbf = rollbackMtbf * second;
    r.checkpointIntervalYoung = checkpointIntervalYoung(delta * second, r.rollbackMtbf);
    r.checkpointIntervalDaly = checkpointIntervalDaly(delta * second, r.rollbackMtbf);
    double tau = r.checkpointIntervalDaly.value();
    const double pinned = in.checkpointInterval.value();
    if (pinned != 0) {
        if (std::isfinite(pinned) && pinned > 0)
            tau = pinned;
        else
            addRule(rules, Severity::Error, "checkpoint_interval_invalid", in.jobId,
                    who + ": a pinned checkpoint interval must be a positive time; Daly's optimum is used");
    }
    const double floor = std::max(kMinCheckpointIntervalSeconds, in.asyncCheckpoint ? persist : 0.0);
    if (in.asyncCheckpoint && tau < persist && feasible)
        addRule(rules, Severity::Info, "checkpoint_interval_raised", in.jobId,
                who + ": the checkpoint interval is raised to " + fmt(persist, 1) +
                    " s so each background write finishes before the next snapshot");
    tau = std::clamp(std::isfinite(tau) ? tau : kMaxCheckpointIntervalSeconds, floor,
                     std::max(floor, kMaxCheckpointIntervalSeconds));
    r.checkpointInterval = tau * second;
    r.process.checkpointInterval = r.checkpointInterval;
    return tau;
}

/// Per class: first-order loss per event N·R_c + f_c·N·(T+δ)/2 (+ N·k_c·T for SDC); the exact failure loss
/// is split over classes in proportion to λ_c·(R_c + f_c·(T+δ)/2), the SDC loss in proportion to λ_c·k_c.
/// processIndex: per result class, its index in the process (-1: it does not interrupt the job).
void splitLossesOverClasses(ReliabilityResult& r, const std::vector<int>& processIndex, const GoodputParts& g,
                            double tau, double delta, double n) {
    const double len = tau + delta;
    double weightSum = 0, sdcWeightSum = 0;
    // A class's persist lag (non-SDC extra rollback) is part of its failure loss.
    const auto lagOf = [&](const ProcessClass& pc) {
        return pc.silentDataCorruption ? 0.0 : pc.extraRollbackIntervals * tau;
    };
    const auto sdcOf = [](const ProcessClass& pc) {
        return pc.silentDataCorruption ? pc.extraRollbackIntervals : 0.0;
    };
    for (const auto& pc : r.process.classes) {
        weightSum += pc.rate.value() * (pc.downtime.value() + pc.rollbackFraction * len / 2.0 + lagOf(pc));
        sdcWeightSum += pc.rate.value() * sdcOf(pc);
    }
    for (size_t i = 0; i < r.classes.size(); ++i) {
        if (processIndex[i] < 0) continue;
        const auto& pc = r.process.classes[static_cast<size_t>(processIndex[i])];
        auto& ci = r.classes[i];
        const double perEvent = pc.downtime.value() + pc.rollbackFraction * len / 2.0 + lagOf(pc);
        ci.lostGpuHoursPerEvent = n * (perEvent + sdcOf(pc) * tau) / kSecondsPerHour;
        const double w = pc.rate.value() * perEvent, ws = pc.rate.value() * sdcOf(pc);
        ci.lostGpuHoursPerDay = n * 24.0 *
                                ((weightSum > 0 ? g.failureLoss * w / weightSum : 0.0) +
                                 (sdcWeightSum > 0 ? g.sdcLoss * ws / sdcWeightSum : 0.0));
    }
}

} // namespace

ReliabilityResult analyzeReliability(const ReliabilityInput& in) {
    ReliabilityResult r;
    r.rules = in.rules;
    r.jobId = in.jobId;
    r.rateSet = in.rateSet;
    auto& rules = r.rules;
    const std::string who = "Training job " + (in.jobName.empty() ? in.jobId : in.jobName);
    const double n = std::isfinite(in.jobGpus) && in.jobGpus > 0 ? in.jobGpus : 0.0;
    r.jobGpus = n;
    bool feasible = n > 0;
    if (!feasible)
        addRule(rules, Severity::Error, "job_no_gpus", in.jobId,
                who + " has no GPUs: reliability cannot be estimated");

    auto timeOrZero = [&](Time t, const char* what) {
        if (std::isfinite(t.value()) && t.value() >= 0) return t.value();
        addRule(rules, Severity::Error, "reliability_time_invalid", in.jobId,
                who + ": " + what + " must be a non-negative time; zero is used");
        return 0.0;
    };
    const double detection = timeOrZero(in.detectionTime, "detection time");
    const double rescheduling = timeOrZero(in.reschedulingTime, "rescheduling time");
    const double swap = timeOrZero(in.spareSwapTime, "spare swap time");

    // ---- Checkpoint write, persist and restore times ----
    const CheckpointTimes ct = checkpointTimes(in, n, who, rules, feasible);
    const double persist = ct.persist, restore = ct.restore, delta = ct.delta, peerRestore = ct.peerRestore;
    const bool inMemory = ct.inMemory;
    // Which restarts read storage: all of them without peer replicas; with them, only hardware events
    // wider than one scale-up domain or server (they may take the replica's host too).
    const double peerSurvives = std::isfinite(in.peerSurvivesGpus) ? std::max(0.0, in.peerSurvivesGpus) : 0.0;
    auto fromStorage = [&](const FailureClass& c, double affected) {
        return !inMemory || (c.hardware && affected > peerSurvives + 1e-9);
    };
    r.checkpointWrite = delta * second;
    r.checkpointPersist = persist * second;
    r.restoreTime = restore * second;
    r.peerRestoreTime = peerRestore * second;
    const double restart = detection + rescheduling + restore;
    r.restartTime = restart * second;

    double straggler = in.stragglerLoss;
    if (!std::isfinite(straggler) || straggler < 0 || straggler >= 1) {
        addRule(rules, Severity::Error, "straggler_loss_invalid", in.jobId,
                who + ": straggler loss " + fmtRate(straggler) + " must lie in [0, 1); zero is used");
        straggler = 0;
    }
    double sdcExtra = in.sdcExtraRollbackIntervals;
    if (!std::isfinite(sdcExtra) || sdcExtra < 0) {
        addRule(rules, Severity::Error, "sdc_rollback_invalid", in.jobId,
                who + ": SDC extra rollback must be a non-negative number of intervals; zero is used");
        sdcExtra = 0;
    }
    const double group = std::clamp(std::isfinite(in.groupGpus) ? in.groupGpus : 1.0, 1.0, std::max(1.0, n));
    const double spares = std::isfinite(in.spareGpus) ? std::max(0.0, in.spareGpus) : 0.0;
    if (in.scope == RestartScope::HotSpare && spares <= 0)
        addRule(rules, Severity::Warning, "no_hot_spares", in.jobId,
                who + ": hot-spare restart chosen but there are no spare racks; restarts reschedule");

    // ---- Classes: rates, blast radius, restart time and rollback per restart scope ----
    FailureProcess& proc = r.process;
    proc.jobId = in.jobId;
    proc.jobName = in.jobName;
    proc.jobGpus = n;
    std::vector<int> processIndex; // per ClassImpact, index into proc.classes or -1
    std::vector<size_t>
        asyncStorageRestores; // proc.classes that restore an asynchronous snapshot from storage
    double unexpected = 0, planned = 0;
    for (const auto& c : in.classes) {
        const double rate = c.ratePerUnit.value(), units = c.units;
        if (!std::isfinite(rate) || rate < 0 || !std::isfinite(units) || units < 0) {
            addRule(rules, Severity::Error, "failure_rate_invalid", c.id,
                    "Failure class " + c.name + ": rate " + fmtRate(rate * kSecondsPerHour) + " per hour × " +
                        fmtRate(units) + " units is not a non-negative number; the class is ignored");
            continue;
        }
        const double events = rate * units; // per second
        ClassImpact ci;
        ci.id = c.id, ci.name = c.name, ci.unit = c.unit;
        ci.units = units;
        ci.eventsPerDay = events * kSecondsPerDay;
        ci.gpusAffected = std::isfinite(c.gpusAffected) ? std::clamp(c.gpusAffected, 0.0, n) : n;
        ci.interruptsJob = c.interruptsJob;
        ci.planned = c.planned;
        int index = -1;
        if (c.interruptsJob && events > 0 && feasible) {
            ProcessClass pc;
            pc.id = c.id;
            pc.rate = events * hertz;
            pc.planned = c.planned;
            const bool storage = fromStorage(c, ci.gpusAffected);
            const double restoreC = storage ? restore : peerRestore;
            if (c.planned) {
                // Planned: the job checkpoints on purpose and stops; no detection, no lost work. With peer
                // replicas the drained nodes' state already sits on other hosts: no storage write.
                pc.downtime = ((inMemory ? 0.0 : persist) + rescheduling + restoreC) * second;
                pc.rollbackFraction = 0;
            } else {
                const bool spareFits = in.scope == RestartScope::HotSpare && c.hardware && spares > 0 &&
                                       ci.gpusAffected <= spares;
                pc.downtime = (detection + (spareFits ? swap : rescheduling) + restoreC) * second;
                // An asynchronous snapshot is durable on storage only `persist` after it is taken: a restart
                // from storage finds the previous one with probability persist/τ and loses τ more, i.e.
                // persist/τ extra intervals on average (added once τ is known, below).
                if (in.asyncCheckpoint && storage) asyncStorageRestores.push_back(proc.classes.size());
                if (in.scope == RestartScope::ParallelGroup && !c.jobWide) {
                    const double touched = std::ceil(std::max(ci.gpusAffected, 1.0) / group - 1e-9) * group;
                    pc.rollbackFraction = std::min(1.0, touched / n);
                }
                pc.extraRollbackIntervals = c.silentDataCorruption ? sdcExtra : 0.0;
                pc.silentDataCorruption = c.silentDataCorruption;
            }
            ci.rollbackGpus = pc.rollbackFraction * n;
            ci.downtime = pc.downtime;
            index = static_cast<int>(proc.classes.size());
            proc.classes.push_back(pc);
            (c.planned ? planned : unexpected) += events;
        }
        processIndex.push_back(index);
        r.classes.push_back(ci);
    }
    r.interruptionsPerDay = unexpected * kSecondsPerDay;
    r.plannedPerDay = planned * kSecondsPerDay;
    r.jobMtbf = (unexpected > 0 ? 1.0 / unexpected : kInf) * second;

    const double tau = chooseCheckpointInterval(r, in, delta, persist, feasible, who);
    if (tau > 0)
        for (const size_t i : asyncStorageRestores)
            // Only the GPUs that roll back lose the older snapshot's extra work (restart scope).
            proc.classes[i].extraRollbackIntervals += persist / tau * proc.classes[i].rollbackFraction;
    proc.checkpointWrite = r.checkpointWrite;
    proc.stragglerLoss = straggler;
    proc.feasible = feasible;

    // ---- Goodput and losses ----
    const GoodputParts g = goodputParts(proc);
    r.goodput = g.goodput;
    r.checkpointOverhead = g.checkpointOverhead;
    r.failureLoss = g.failureLoss;
    r.sdcLoss = g.sdcLoss;
    r.stragglerLoss = g.stragglerLoss;
    r.lostGpuHoursPerDay = n * 24.0 * (1.0 - r.goodput);

    splitLossesOverClasses(r, processIndex, g, tau, delta, n);
    return r;
}

void applyFacilityAvailability(ReliabilityResult& r, double availability) {
    const double a = std::isnan(availability) ? 1.0 : std::clamp(availability, 0.0, 1.0);
    r.facilityAvailability = a;
    r.facilityLoss = r.goodput * (1.0 - a);
    r.goodput *= a;
    r.lostGpuHoursPerDay = r.jobGpus * 24.0 * (1.0 - r.goodput);
}

} // namespace ctwin::cost
