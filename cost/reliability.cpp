#include "reliability.h"

#include "compiled_design.h"

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

std::string fmt(double v, int decimals = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

std::string fmtRate(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

/// A catalog figure when present and finite, else `fallback`.
double valueOr(const CatalogItem& item, const std::string& field, double fallback) {
    const auto* v = item.find(field);
    return v && std::isfinite(v->base) ? v->base : fallback;
}

/// GPUs per node of the fleet a per-server rate was calibrated on (failures.json attribute node_gpus);
/// 0 when absent or not a positive number.
double calibrationGpus(const CatalogItem& item) {
    const std::string text = item.attribute("node_gpus");
    if (text.empty()) return 0;
    char* end = nullptr;
    const double g = std::strtod(text.c_str(), &end);
    return end && *end == '\0' && std::isfinite(g) && g > 0 ? g : 0;
}

void addRule(std::vector<DesignRule>& rules, Severity s, std::string rule, std::string entity,
             std::string message) {
    for (const auto& r : rules)
        if (r.rule == rule && r.entity == entity) return; // one finding per rule and entity
    rules.push_back({s, std::move(rule), std::move(entity), std::move(message)});
}

/// Building look-ups for link endpoints.
struct Layout {
    std::unordered_map<std::string, const model::Building*> buildings;

    explicit Layout(const model::Project& p) {
        for (const auto& b : p.buildings)
            buildings[b.id] = &b;
    }
    /// Site of a link endpoint (a site id or a building id).
    std::string siteOfEndpoint(const std::string& id) const {
        if (auto b = buildings.find(id); b != buildings.end()) return b->second->site;
        return id;
    }
};

/// A units-weighted mean of blast radii.
struct Radius {
    double units = 0, weighted = 0, largest = 0;
    void add(double u, double radius) {
        units += u, weighted += u * radius;
        if (u > 0) largest = std::max(largest, radius);
    }
    double mean() const { return units > 0 ? weighted / units : 0.0; }
};

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

/// A job's per-node failure rate (issue 13 item 5) and its unit (issue 29 item 6): the failure_rate_preset
/// of the catalog, else node_failure_rate_per_day with node_failure_rate_gpus; rules for either without its
/// unit. Sets `rateSet` to say which rate counts.
struct NodeRate {
    double perHour = -1; // < 0: no per-node rate
    /// Per-node rates are calibrated on a node of a stated GPU count (RSC and Llama 3: 8-GPU HGX servers).
    /// Another form factor (an NVL72 tray holds 4 GPUs) is scaled by GPU count, not by its own server
    /// count: node-equivalents = job GPUs / calibration GPUs. 0: counted per server of the design.
    double gpus = 0;
};

NodeRate resolveNodeRate(const model::TrainingJob& job, const model::Catalog& catalog, const std::string& who,
                         std::vector<DesignRule>& rules, std::string& rateSet) {
    NodeRate r;
    if (!job.failureRatePreset.empty()) {
        const auto* preset = catalog.find(job.failureRatePreset);
        if (!preset || preset->category != "failures" || preset->kind != "node_rate")
            addRule(rules, Severity::Error, "failure_preset_invalid", job.id,
                    who + ": failure_rate_preset '" + job.failureRatePreset +
                        "' is not a failure-rate preset (catalog failures of kind node_rate); catalog classes used");
        else if (const double g = calibrationGpus(*preset); !(g > 0))
            addRule(rules, Severity::Error, "failure_preset_no_unit", job.id,
                    who + ": failure_rate_preset '" + preset->id +
                        "' has no node_gpus attribute (GPUs per node " +
                        "its rate counts); catalog classes used");
        else {
            r.perHour = valueOr(*preset, "rate_per_hour", -1.0);
            r.gpus = g;
            rateSet = "preset " + preset->id + " (" + preset->name + "), " + fmtRate(r.perHour) +
                         " per " + fmt(g) + "-GPU node-hour";
        }
    }
    if (job.nodeFailureRateGpus && !job.nodeFailureRatePerDay)
        addRule(rules, Severity::Warning, "node_failure_rate_gpus_unused", job.id,
                who + ": node_failure_rate_gpus " + fmt(*job.nodeFailureRateGpus) +
                    " is the unit of node_failure_rate_per_day, which is empty; it has no effect");
    if (job.nodeFailureRatePerDay) {
        if (!job.nodeFailureRateGpus || !(*job.nodeFailureRateGpus > 0)) {
            addRule(rules, Severity::Error, "node_failure_rate_no_unit", job.id,
                    who + ": node_failure_rate_per_day " + fmtRate(*job.nodeFailureRatePerDay) +
                        " needs node_failure_rate_gpus (GPUs per node the rate counts, e.g. 8 for an HGX "
                        "server); the rate is ignored");
        } else {
            r.perHour = *job.nodeFailureRatePerDay / 24.0;
            r.gpus = *job.nodeFailureRateGpus;
            rateSet = "job node_failure_rate_per_day " + fmtRate(*job.nodeFailureRatePerDay) + " per " +
                         fmt(r.gpus) + "-GPU node";
        }
    }
    return r;
}

namespace {

/// The job's footprint (SPEC.md §4.6): the non-spare compute racks of its sites (empty list = every site),
/// summed by rack class (cost/compiled_design.h: its racks share type, building, site, loop, feeds and spare
/// flag, so each sum takes count x the per-rack figure); per building, loop and feed index, read out in id
/// order by the callers.
struct JobFootprint {
    double siteGpus = 0, siteServers = 0, siteNics = 0, spareGpus = 0, frontendBytesPerS = 0,
           backendBytesPerS = 0;
    Radius gpuRadius, serverRadius, nicRadius;
    std::vector<double> jobBuildingGpus; // non-spare GPUs of the job's sites by building
    std::vector<double> allBuildingGpus; // every compute GPU (spares too) by building
    std::vector<std::uint8_t> jobBuildingSeen, allBuildingSeen;
    std::vector<double> loopGpus; // non-spare GPUs of the job's sites by cooling loop
    std::vector<std::uint8_t> loopSeen;
    std::vector<double> feedGpus, feedSingleGpus;
    std::vector<std::uint8_t> feedSeen, feedSingleSeen;
};

/// Per rack type: GPUs, servers, blast radii and NIC figures, read from the catalog once.
struct TypeFigures {
    double g, servers, serverGpus, domain, nics, frontendBytesPerS, backendBytesPerS;
};

TypeFigures typeFiguresOf(const CatalogItem& item) {
    TypeFigures tf{};
    tf.g = valueOr(item, "gpus", 0.0);
    tf.servers = valueOr(item, "servers", 0.0);
    tf.serverGpus = tf.servers > 0 ? tf.g / tf.servers : tf.g;
    // A GPU fault takes down its NVLink domain when the domain spans trays (NVL72: 72 GPUs), else its
    // server (HGX: 8 GPUs): the tensor-parallel group cannot run with a member missing.
    tf.domain = std::max(tf.serverGpus, valueOr(item, "scale_up_domain_gpus", tf.serverGpus));
    tf.nics = valueOr(item, "backend_nics", tf.g);
    tf.frontendBytesPerS =
        valueOr(item, "frontend_nics", 0.0) * valueOr(item, "frontend_nic_bit_per_s", 0.0) / 8.0;
    tf.backendBytesPerS = tf.nics * valueOr(item, "backend_nic_bit_per_s", 0.0) / 8.0;
    return tf;
}

JobFootprint jobFootprint(const model::Project& p, const CompiledDesign& cd,
                          const std::set<std::string>& sites) {
    JobFootprint fp;
    std::vector<std::uint8_t> siteIn(p.sites.size(), 0);
    for (size_t s = 0; s < p.sites.size(); ++s)
        siteIn[s] = sites.count(p.sites[s].id) ? 1 : 0;
    const size_t nb = p.buildings.size(), nl = cd.loopIds.size(), nf = cd.feedIds.size();
    fp.jobBuildingGpus.assign(nb, 0.0), fp.allBuildingGpus.assign(nb, 0.0);
    fp.jobBuildingSeen.assign(nb, 0), fp.allBuildingSeen.assign(nb, 0);
    fp.loopGpus.assign(nl, 0.0), fp.loopSeen.assign(nl, 0);
    fp.feedGpus.assign(nf, 0.0), fp.feedSingleGpus.assign(nf, 0.0);
    fp.feedSeen.assign(nf, 0), fp.feedSingleSeen.assign(nf, 0);
    std::vector<TypeFigures> typeFigures;
    typeFigures.reserve(cd.types.size());
    for (const auto& t : cd.types)
        typeFigures.push_back(typeFiguresOf(*t.item));
    for (const auto& k : cd.classes) {
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        const std::int32_t building = k.building;
        if (!type.compute || building == CompiledDesign::kNone) continue;
        const auto& tf = typeFigures[static_cast<size_t>(k.type)];
        if (!(tf.g > 0)) continue;
        const double racks = k.count, g = racks * tf.g;
        const auto b = static_cast<size_t>(building);
        fp.allBuildingGpus[b] += g, fp.allBuildingSeen[b] = 1;
        const std::int32_t site = k.site;
        if (!sites.empty() && (site == CompiledDesign::kNone || !siteIn[static_cast<size_t>(site)])) continue;
        if (k.spare) {
            fp.spareGpus += g;
            continue;
        }
        fp.siteGpus += g, fp.siteServers += racks * tf.servers, fp.siteNics += racks * tf.nics;
        fp.gpuRadius.add(g, tf.domain);
        fp.serverRadius.add(racks * tf.servers, tf.serverGpus);
        fp.nicRadius.add(racks * tf.nics, tf.serverGpus);
        fp.frontendBytesPerS += racks * tf.frontendBytesPerS;
        fp.backendBytesPerS += racks * tf.backendBytesPerS;
        fp.jobBuildingGpus[b] += g, fp.jobBuildingSeen[b] = 1;
        if (const std::int32_t loop = k.loop; loop != CompiledDesign::kNone)
            fp.loopGpus[static_cast<size_t>(loop)] += g, fp.loopSeen[static_cast<size_t>(loop)] = 1;
        // A rack on one feed (or twice the same feed) goes down with it; A/B racks ride through on the other.
        const std::int32_t fa = k.feedA, fb = k.feedB;
        const bool singleFed = (fa == CompiledDesign::kNone) != (fb == CompiledDesign::kNone) || fa == fb;
        for (int side = 0; side < 2; ++side) {
            const std::int32_t feed = side == 0 ? fa : fb;
            if (feed == CompiledDesign::kNone || (side == 1 && fb == fa)) continue;
            const auto f = static_cast<size_t>(feed);
            fp.feedGpus[f] += g, fp.feedSeen[f] = 1;
            if (singleFed) fp.feedSingleGpus[f] += g, fp.feedSingleSeen[f] = 1;
        }
    }
    return fp;
}

/// The job's share of the back-end switches and optics and their blast radius.
struct SwitchFootprint {
    double switchUnits = 0, opticUnits = 0;
    Radius switchRadius;
};

/// Back-end switches: the calibration population (Llama 3: 1,024 ToR + ~128 spine/aggregation back-end
/// switches, data/catalog/failures.json). Front-end switches are not counted, for the same reason. Each
/// back-end fabric counts the job's share of its GPUs (`share` of the job's sites' GPUs in its buildings).
SwitchFootprint backendSwitches(const model::Project& p, const BillOfMaterials& bom, const CompiledDesign& cd,
                                const JobFootprint& fp, double share) {
    SwitchFootprint sw;
    for (const auto& fb : bom.fabrics) {
        if (fb.role != "backend" || fb.switches <= 0) continue;
        const model::Fabric* fabric = nullptr;
        for (const auto& f : p.fabrics)
            if (f.id == fb.fabricId) fabric = &f;
        if (!fabric) continue;
        const std::set<std::string> scope(fabric->buildings.begin(), fabric->buildings.end());
        double fabricGpus = 0, jobGpusHere = 0;
        for (const std::int32_t bi : cd.buildingsById) {
            const auto b = static_cast<size_t>(bi);
            if (!fp.allBuildingSeen[b] || !(scope.empty() || scope.count(p.buildings[b].id))) continue;
            fabricGpus += fp.allBuildingGpus[b];
        }
        for (const std::int32_t bi : cd.buildingsById) {
            const auto b = static_cast<size_t>(bi);
            if (!fp.jobBuildingSeen[b] || !(scope.empty() || scope.count(p.buildings[b].id))) continue;
            jobGpusHere += share * fp.jobBuildingGpus[b];
        }
        if (fabricGpus <= 0 || jobGpusHere <= 0) continue;
        const double fraction = jobGpusHere / fabricGpus;
        sw.switchUnits += fb.switches * fraction;
        sw.opticUnits += fb.transceivers * fraction;
        // A leaf takes down the GPUs whose NIC ports it terminates: the rack for a top-of-rack leaf, leafDown
        // endpoints of one rail for a rail-optimized leaf. Per plane, fabric GPUs / leaves. A spine or core
        // failure is rerouted by ECMP and assumed no wider.
        const double perLeaf = fb.perPlane.leaves > 0 ? fabricGpus / fb.perPlane.leaves : fabricGpus;
        sw.switchRadius.add(fb.switches * fraction, perLeaf);
    }
    return sw;
}

/// One cooling loop of the footprint: the job's share, its CDUs, how many may be down at once, its GPUs.
struct LoopFootprint {
    double share, cdus, tolerated, gpus;
};

/// Cooling loops (issue 19 item 10): the catalog rate is per CDU. A loop stops only when more CDUs are down
/// at once than its redundancy covers: r = installed - needed for the liquid heat (N+1: 1, 2N: N), at the
/// k-out-of-n rate of redundantGroupOutageRate with the CDU repair time. Single CDU failures that the
/// redundancy absorbs are counted apart and do not interrupt the job. `cduUnits` = the job's share of the
/// loops' CDUs.
std::vector<LoopFootprint> cduLoopsOf(const model::Project& p, const model::Catalog& catalog,
                                      const BillOfMaterials& bom, const CompiledDesign& cd,
                                      const JobFootprint& fp, double share, double jobGpus,
                                      double& cduUnits) {
    std::vector<LoopFootprint> cduLoops;
    cduUnits = 0;
    // By id, read once (was a scan of the loop bills and of the design's loops per loop: loops^2 string
    // compares per evaluation, a fifth of a 14K-rack evaluation with 160 loops): the last loop bill with
    // the id, and the CDU capacity of the last design loop with the id whose CDU has a capacity (the
    // former scans kept the last match too).
    std::unordered_map<std::string_view, const LoopBom*> loopBill;
    loopBill.reserve(bom.loops.size());
    for (const auto& lb : bom.loops)
        loopBill[lb.loopId] = &lb;
    std::unordered_map<std::string_view, double> cduCapacity;
    cduCapacity.reserve(p.coolingLoops.size());
    for (const auto& loop : p.coolingLoops) {
        const auto* cdu = catalog.find(loop.cduType);
        const double cap = cdu ? valueOr(*cdu, "capacity_w", 0.0) : 0.0;
        if (cap > 0) cduCapacity[loop.id] = cap;
    }
    for (const std::int32_t li : cd.loopsById) {
        if (!fp.loopSeen[static_cast<size_t>(li)]) continue;
        const std::string& loopId = cd.loopIds[static_cast<size_t>(li)];
        const double g = fp.loopGpus[static_cast<size_t>(li)];
        double cdus = 0, needed = 0;
        if (const auto lb = loopBill.find(loopId); lb != loopBill.end()) {
            cdus = lb->second->cdusInstalled;
            if (const auto cap = cduCapacity.find(loopId); cap != cduCapacity.end())
                needed = std::ceil(lb->second->liquidHeat.value() / cap->second - 1e-9);
        }
        cduLoops.push_back({share, cdus, std::max(0.0, cdus - std::max(1.0, needed)), std::min(jobGpus, g)});
        cduUnits += cdus * share;
    }
    return cduLoops;
}

/// Power feeds: a single feed loss only interrupts racks without a second feed (A/B redundancy).
struct FeedFootprint {
    double unitsInterrupting = 0, unitsRedundant = 0;
    Radius radius;
};

FeedFootprint feedsOf(const CompiledDesign& cd, const JobFootprint& fp, double share, double jobGpus) {
    FeedFootprint feeds;
    for (const std::int32_t fi : cd.feedsById) {
        const auto f = static_cast<size_t>(fi);
        if (!fp.feedSeen[f]) continue;
        if (fp.feedSingleSeen[f] && fp.feedSingleGpus[f] > 0) {
            feeds.unitsInterrupting += share;
            feeds.radius.add(share, std::min(jobGpus, fp.feedSingleGpus[f]));
        } else {
            feeds.unitsRedundant += share;
        }
    }
    return feeds;
}

/// The job's per-class failure-rate overrides (failure_rate_classes with failure_rates_per_hour), by catalog
/// id; rules for unpaired entries and classes the catalog lacks.
std::map<std::string, double> classOverridesOf(const model::TrainingJob& job, const model::Catalog& catalog,
                                               const std::string& who, std::vector<DesignRule>& rules) {
    std::map<std::string, double> classOverrides;
    if (job.failureRateClasses.size() != job.failureRatesPerHour.size())
        addRule(rules, Severity::Error, "failure_overrides_unpaired", job.id,
                who + ": failure_rate_classes (" + fmt(double(job.failureRateClasses.size())) +
                    ") and failure_rates_per_hour (" + fmt(double(job.failureRatesPerHour.size())) +
                    ") must pair one rate with each class; unpaired entries are ignored");
    for (size_t i = 0; i < job.failureRateClasses.size() && i < job.failureRatesPerHour.size(); ++i) {
        const auto* item = catalog.find(job.failureRateClasses[i]);
        if (!item || item->category != "failures" || item->kind != "component") {
            addRule(rules, Severity::Error, "failure_override_unknown_class", job.id,
                    who + ": failure_rate_classes names '" + job.failureRateClasses[i] +
                        "', not a failure class of the catalog; ignored");
            continue;
        }
        classOverrides[item->id] = job.failureRatesPerHour[i];
    }
    return classOverrides;
}

/// What each failure unit counts over the job's footprint (failure classes' `unit` attribute).
struct FailureFootprint {
    double jobGpus = 0, share = 0, wanKm = 0;
    const JobFootprint* fp = nullptr;
    SwitchFootprint switches;
    std::vector<LoopFootprint> cduLoops;
    double cduUnits = 0;
    FeedFootprint feeds;
};

} // namespace

namespace {

/// Units and blast radius of one failure class over the footprint, by its unit (gpu, server, nic, switch,
/// optic, cdu, power_feed, wan_km, job_per_gpu). CDUs and feeds also add the failures their redundancy
/// absorbs as classes that do not interrupt the job. False: the class is not counted (optics folded into
/// switch cables, an unknown unit with its rule).
bool placeClass(ReliabilityInput& in, FailureClass& c, const CatalogItem& item, const FailureFootprint& f,
                const ReliabilityOptions& opt, const std::function<double(double)>& serverUnits) {
    const JobFootprint& fp = *f.fp;
    const double n = f.jobGpus;
    const std::string& unit = c.unit;
    if (unit == "gpu") {
        c.units = n, c.gpusAffected = fp.gpuRadius.mean();
    } else if (unit == "server") {
        c.calibrationGpus = calibrationGpus(item);
        c.units = serverUnits(c.calibrationGpus), c.gpusAffected = fp.serverRadius.mean();
    } else if (unit == "nic") {
        c.units = f.share * fp.siteNics, c.gpusAffected = fp.nicRadius.mean();
    } else if (unit == "switch") {
        c.units = f.switches.switchUnits, c.gpusAffected = f.switches.switchRadius.mean();
    } else if (unit == "optic") {
        if (!opt.includeOpticFailures) return false; // folded into fail-switch-cable (see ReliabilityOptions)
        c.units = f.switches.opticUnits, c.gpusAffected = fp.nicRadius.mean();
    } else if (unit == "cdu") {
        if (f.cduUnits > 0) {
            FailureClass single = c;
            single.name += " (each CDU; interrupts only beyond the loop's redundancy)";
            single.units = f.cduUnits;
            single.interruptsJob = false;
            in.classes.push_back(single);
        }
        // One unit per loop of the footprint at the mean loop-outage rate: units x rate = Σ share x λ_loop.
        double loopUnits = 0, loopRate = 0;
        Radius cduRadius;
        for (const auto& l : f.cduLoops) {
            const double rate =
                redundantGroupOutageRate(l.cdus, l.tolerated, c.ratePerUnit, opt.cduRepairTime).value();
            loopUnits += l.share, loopRate += l.share * rate;
            cduRadius.add(l.share * rate, l.gpus);
        }
        c.name = "Cooling loop outage (more CDUs down than its redundancy)";
        c.units = loopUnits;
        c.ratePerUnit = (loopUnits > 0 ? loopRate / loopUnits : 0.0) * hertz;
        c.gpusAffected = cduRadius.mean();
    } else if (unit == "power_feed") {
        if (f.feeds.unitsRedundant > 0) {
            FailureClass redundant = c;
            redundant.name += " (A/B racks: rides through on the other feed)";
            redundant.units = f.feeds.unitsRedundant;
            redundant.interruptsJob = false;
            in.classes.push_back(redundant);
        }
        c.name += " (single-fed racks)";
        c.units = f.feeds.unitsInterrupting, c.gpusAffected = f.feeds.radius.mean();
    } else if (unit == "wan_km") {
        c.units = f.wanKm, c.gpusAffected = n, c.jobWide = true, c.hardware = false;
    } else if (unit == "job_per_gpu") {
        c.units = n, c.gpusAffected = n, c.jobWide = true, c.hardware = false;
    } else {
        addRule(in.rules, Severity::Warning, "failure_unit_unknown", item.id,
                "Failure class " + item.name + " has unit '" + unit + "', which the engine does not count");
        return false;
    }
    return true;
}

/// The failure classes of the job (issue 13 item 5): a per-node preset or rate replaces the classes counted
/// on nodes and the job's GPUs, the job's overrides replace single classes' rates, the rest come from the
/// catalog; each placed on the footprint (placeClass).
void addFailureClasses(ReliabilityInput& in, const model::TrainingJob& job, const model::Catalog& catalog,
                       const ReliabilityOptions& opt, const FailureFootprint& f, const std::string& who) {
    auto& rules = in.rules;
    const double n = f.jobGpus;
    const auto failures = catalog.byCategory("failures");
    if (failures.empty())
        addRule(rules, Severity::Warning, "failure_catalog_empty", job.id,
                "The catalog has no failure classes: " + who + " is modelled without failures");
    in.rateSet = "catalog classes (Llama 3 405B calibration, Meta 2024; per-server classes count job GPUs / "
                 "the calibration node's GPUs)";
    const NodeRate nodeRate = resolveNodeRate(job, catalog, who, rules, in.rateSet);
    const double nodeRatePerHour = nodeRate.perHour, nodeRateGpus = nodeRate.gpus;
    const std::map<std::string, double> classOverrides = classOverridesOf(job, catalog, who, rules);
    if (!classOverrides.empty())
        in.rateSet += " + " + fmt(double(classOverrides.size())) + " class override(s) of the job";
    // Classes a per-node rate replaces: everything counted on nodes and the job's GPUs (what a fleet's
    // per-node-day failure log attributes to nodes); facility classes keep their own rates.
    auto replacedByNodeRate = [&](const CatalogItem& item) {
        const std::string u = item.attribute("unit");
        return nodeRatePerHour >= 0 && item.attribute("planned") != "true" &&
               (u == "gpu" || u == "server" || u == "nic" || u == "switch" || u == "optic" || u == "job_per_gpu");
    };
    // Units of a per-server rate: node-equivalents of the calibration node by GPU count, or the design's
    // servers when the rate names no node size.
    const double siteServers = f.share * f.fp->siteServers;
    const std::function<double(double)> serverUnits = [&](double perNodeGpus) {
        return perNodeGpus > 0 ? n / perNodeGpus : siteServers;
    };
    if (nodeRatePerHour >= 0 && siteServers > 0) {
        FailureClass node;
        node.id = job.nodeFailureRatePerDay ? "node-rate" : job.failureRatePreset;
        node.name = "Node failure (per-node rate)";
        node.unit = "server";
        node.units = serverUnits(nodeRateGpus);
        node.calibrationGpus = nodeRateGpus;
        in.rateSet += ": " + fmt(n) + " GPUs / " + fmt(nodeRateGpus) + " = " + fmt(node.units, 1) +
                      " node-equivalents (scaled by GPU count)";
        node.ratePerUnit = perHour(nodeRatePerHour);
        // A node fault takes down its scale-up domain (NVL72) or server, as a GPU fault does.
        node.gpusAffected = std::min(f.fp->gpuRadius.mean(), n);
        if (node.ratePerUnit.value() > 0) in.classes.push_back(node);
    }
    for (const auto* item : failures) {
        if (item->kind != "component") continue; // presets (kind node_rate) are not classes
        if (replacedByNodeRate(*item) && !classOverrides.count(item->id)) continue;
        const auto* rate = item->find("rate_per_hour");
        const auto overridden = classOverrides.find(item->id);
        const double ratePerHour = overridden != classOverrides.end() ? overridden->second
                                   : rate                            ? rate->base
                                                                     : std::numeric_limits<double>::quiet_NaN();
        if (!std::isfinite(ratePerHour) || ratePerHour < 0) {
            addRule(rules, Severity::Error, "failure_rate_invalid", item->id,
                    "Failure class " + item->name + ": rate_per_hour " +
                        (rate ? fmtRate(ratePerHour) : "missing") +
                        " must be a non-negative number; the class is ignored");
            continue;
        }
        if (ratePerHour == 0) {
            addRule(rules, Severity::Warning, "failure_rate_zero", item->id,
                    "Failure class " + item->name + " has a zero rate: it never fails in this model");
            continue;
        }
        FailureClass c;
        c.id = item->id;
        c.name = item->name;
        c.unit = item->attribute("unit");
        c.ratePerUnit = perHour(ratePerHour);
        c.planned = item->attribute("planned") == "true";
        c.silentDataCorruption =
            item->id == "fail-sdc" || item->attribute("root_cause") == "Silent data corruption";
        if (!placeClass(in, c, *item, f, opt, serverUnits)) continue;
        // Corrupted gradients spread to every replica through the all-reduce: an SDC rolls back the job.
        if (c.silentDataCorruption) c.jobWide = true;
        c.gpusAffected = std::min(c.gpusAffected, n);
        if (c.units > 0) in.classes.push_back(c);
    }
}

/// Checkpoint state bytes, the storage tiers' bandwidth (the job's tier, else the tiers of its buildings)
/// and the per-GPU path to them, with the rules on each.
void setCheckpointPath(ReliabilityInput& in, const model::Project& p, const model::Catalog& catalog,
                       const model::TrainingJob& job, const ReliabilityOptions& opt, const CompiledDesign& cd,
                       const JobFootprint& fp, const std::string& who) {
    auto& rules = in.rules;
    in.checkpointBytes = job.checkpointBytesPerParam * job.modelParams * byte;
    std::vector<const model::StorageTier*> tiers;
    for (const auto& t : p.storageTiers)
        if (t.id == job.storageTier) tiers.push_back(&t);
    if (tiers.empty()) {
        for (const auto& t : p.storageTiers)
            if ([&] {
                    const std::int32_t b = cd.buildingIndex(t.building);
                    return b != CompiledDesign::kNone && fp.jobBuildingSeen[static_cast<size_t>(b)];
                }() ||
                (job.sites.empty() && !t.building.empty()))
                tiers.push_back(&t);
        if (!tiers.empty())
            addRule(rules, Severity::Warning, "checkpoint_tier_implicit", job.id,
                    who + " names no storage tier; checkpoints use the tiers of its buildings");
    }
    for (const auto* t : tiers) {
        const auto* type = catalog.find(t->type);
        const double write =
            type ? t->capacity.value() * valueOr(*type, "write_bytes_per_s_per_byte", 0.0) : 0.0;
        const double read =
            type ? t->capacity.value() * valueOr(*type, "read_bytes_per_s_per_byte", 0.0) : 0.0;
        if (!(write > 0))
            addRule(rules, Severity::Error, "checkpoint_no_bandwidth", t->id,
                    "Storage tier " + t->name + " has zero write bandwidth (capacity " +
                        fmt(t->capacity.value() / 1e12, 1) + " TB): " + who + " cannot write checkpoints");
        in.storageWriteBandwidth += std::max(0.0, write) * byte / second;
        in.storageReadBandwidth += std::max(0.0, read) * byte / second;
    }
    if (tiers.empty() && in.checkpointBytes.value() > 0)
        addRule(rules, Severity::Error, "checkpoint_no_storage", job.id,
                who + " has no storage tier to write checkpoints to");
    // Storage traffic rides the front-end NICs: the rack's front-end bandwidth shared by its GPUs.
    in.perGpuStorageBandwidth = (fp.siteGpus > 0 ? fp.frontendBytesPerS / fp.siteGpus : 0.0) * byte / second;
    in.backendBandwidthPerGpu = (fp.siteGpus > 0 ? fp.backendBytesPerS / fp.siteGpus : 0.0) * byte / second;
    in.peerSurvivesGpus = fp.gpuRadius.largest;
    if (opt.inMemoryRestore && !opt.asyncCheckpoint)
        addRule(rules, Severity::Error, "in_memory_restore_needs_async", job.id,
                who + ": in_memory_restore replicates the asynchronous snapshot in peers' memory; set "
                      "async_checkpoint too (restores come from storage meanwhile)");
    if (fp.siteGpus > 0 && fp.frontendBytesPerS <= 0)
        addRule(rules, Severity::Error, "checkpoint_no_frontend", job.id,
                who + ": its racks have no front-end NIC bandwidth to reach storage");
}

} // namespace

ReliabilityInput reliabilityInputFor(const model::Project& p, const model::Catalog& catalog,
                                     const BillOfMaterials& bom, const model::TrainingJob& job,
                                     const ReliabilityOptions& opt) {
    ReliabilityInput in;
    in.jobId = job.id;
    in.jobName = job.name;
    in.jobGpus = job.gpus;
    in.scope = opt.scope;
    in.asyncCheckpoint = opt.asyncCheckpoint;
    in.inMemoryRestore = opt.inMemoryRestore;
    in.checkpointInterval = opt.checkpointInterval;
    in.detectionTime = opt.detectionTime;
    in.reschedulingTime = opt.reschedulingTime;
    in.spareSwapTime = opt.spareSwapTime;
    in.hostCopyBandwidthPerGpu = opt.hostCopyBandwidthPerGpu;
    in.stragglerLoss = opt.stragglerLoss;
    in.sdcExtraRollbackIntervals = opt.sdcExtraRollbackIntervals;
    auto& rules = in.rules;
    const std::string who = "Training job " + job.name;
    const double n = std::isfinite(job.gpus) ? job.gpus : 0.0;
    if (!(n > 0))
        addRule(rules, Severity::Error, "job_no_gpus", job.id,
                who + " has no GPUs: reliability cannot be estimated");

    // ---- Footprint: the non-spare compute racks of the job's sites (empty list = every site) ----
    const std::set<std::string> sites(job.sites.begin(), job.sites.end());
    // The racks come resolved to indices (cost/compiled_design.h): the bill of materials carries the
    // compiled design; a bill of materials built by hand (tests) gets one here.
    std::shared_ptr<const CompiledDesign> own;
    if (!bom.compiled) own = compileDesign(p, catalog);
    const CompiledDesign& cd = bom.compiled ? *bom.compiled : *own;
    const JobFootprint fp = jobFootprint(p, cd, sites);
    in.spareGpus = fp.spareGpus;
    if (fp.siteGpus <= 0 && n > 0)
        addRule(rules, Severity::Error, "job_no_racks", job.id,
                who + ": its sites hold no compute racks (spares aside); hardware failures cannot be placed");
    else if (n > fp.siteGpus)
        addRule(rules, Severity::Error, "job_exceeds_sites", job.id,
                who + " needs " + fmt(n) + " GPUs; its sites hold " + fmt(fp.siteGpus) +
                    " (hot spares aside). Reliability figures extrapolate the footprint");
    // The job's share of its sites. Counts scale with it, assuming the job packs onto whole servers, racks,
    // loops and feeds (its footprint is that fraction of each population).
    FailureFootprint f;
    f.jobGpus = n;
    f.share = fp.siteGpus > 0 ? n / fp.siteGpus : 0.0;
    f.fp = &fp;
    f.switches = backendSwitches(p, bom, cd, fp, f.share);
    f.cduLoops = cduLoopsOf(p, catalog, bom, cd, fp, f.share, n, f.cduUnits);
    f.feeds = feedsOf(cd, fp, f.share, n);
    // WAN: route length of the links joining two of the job's sites; a cut stops data parallelism across
    // them.
    if (job.sites.size() > 1) {
        const Layout layout(p);
        for (size_t i = 0; i < p.links.size() && i < bom.links.size(); ++i) {
            const auto a = layout.siteOfEndpoint(p.links[i].from), b = layout.siteOfEndpoint(p.links[i].to);
            if (a != b && sites.count(a) && sites.count(b)) f.wanKm += bom.links[i].routeLength.value() / 1e3;
        }
    }
    addFailureClasses(in, job, catalog, opt, f, who);
    setCheckpointPath(in, p, catalog, job, opt, cd, fp, who);

    // Restart group: one data-parallel replica (tp·pp GPUs; with expert parallelism folded into data
    // parallelism, the ep replicas that share experts restart together).
    in.groupGpus = std::clamp(double(job.tp) * job.pp * job.ep, 1.0, std::max(1.0, n));
    if (opt.scope == RestartScope::HotSpare && fp.spareGpus <= 0)
        addRule(rules, Severity::Warning, "no_hot_spares", job.id,
                who + ": hot-spare restart chosen but its sites have no spare racks; restarts reschedule");
    return in;
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
