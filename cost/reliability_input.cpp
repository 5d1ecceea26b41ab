// The reliability model's input from a design (SPEC.md §4.6): the job's footprint over its sites' racks,
// its failure classes with their units and blast radii, and its checkpoint path; analyzeReliability
// (reliability.cpp) turns it into goodput.
#include "compiled_design.h"
#include "reliability.h"
#include "reliability_helpers.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

using namespace reliability_detail;

/// GPUs per node of the fleet a per-server rate was calibrated on (failures.json attribute node_gpus);
/// 0 when absent or not a positive number.
double calibrationGpus(const CatalogItem& item) {
    const std::string text = item.attribute("node_gpus");
    if (text.empty()) return 0;
    char* end = nullptr;
    const double g = std::strtod(text.c_str(), &end);
    return end && *end == '\0' && std::isfinite(g) && g > 0 ? g : 0;
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

/// A job's per-node failure rate and its unit: the failure_rate_preset
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
                        "' is not a failure-rate preset (catalog failures of kind node_rate); catalog "
                        "classes used");
        else if (const double g = calibrationGpus(*preset); !(g > 0))
            addRule(rules, Severity::Error, "failure_preset_no_unit", job.id,
                    who + ": failure_rate_preset '" + preset->id +
                        "' has no node_gpus attribute (GPUs per node " +
                        "its rate counts); catalog classes used");
        else {
            r.perHour = valueOr(*preset, "rate_per_hour", -1.0);
            r.gpus = g;
            rateSet = "preset " + preset->id + " (" + preset->name + "), " + fmtRate(r.perHour) + " per " +
                      fmt(g) + "-GPU node-hour";
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

/// Cooling loops: the catalog rate is per CDU. A loop stops only when more CDUs are down
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

/// The failure classes of the job: a per-node preset or rate replaces the classes counted
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
               (u == "gpu" || u == "server" || u == "nic" || u == "switch" || u == "optic" ||
                u == "job_per_gpu");
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
                                   : rate                             ? rate->base
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

} // namespace ctwin::cost
