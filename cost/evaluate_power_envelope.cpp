// The power envelope's inputs (cost/power_envelope.h), read before serving is sized and before the
// power stage: each rack class's oversubscription ratio over its power domains, the racks' host share and
// power-frequency curve, curtailment, and each training job's compute phase under its cap.
#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost::detail {

using namespace ctwin::units;

namespace {

/// The working compute racks' host share, 1 - sum(GPUs x accelerator tdp_w) / sum(power_load_w): their CPUs,
/// NICs, fans and switch trays, which power capping leaves alone (c.powerCurve.hostShare); and their
/// full-load power per GPU (c.rackLoadWPerGpu).
void setRackPowerShares(EvalContext& c) {
    const CompiledDesign& cd = *c.compiled;
    double gpuW = 0.0, rackW = 0.0, gpus = 0.0, loadW = 0.0, idleW = 0.0;
    for (const auto& k : cd.classes) {
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        if (k.spare || !type.compute) continue;
        const double n = k.count * type.need(type.gpus, "gpus"),
                     w = k.count * type.need(type.powerLoadW, "power_load_w");
        gpus += n, loadW += w, idleW += k.count * type.need(type.powerIdleW, "power_idle_w");
        const auto* rack = c.catalog.find(type.id);
        const auto* acc = rack ? c.catalog.find(rack->attribute("accelerator")) : nullptr;
        if (!acc) continue;
        gpuW += n * acc->value("tdp_w");
        rackW += w;
    }
    c.powerCurve.hostShare = rackW > 0.0 ? std::clamp(1.0 - gpuW / rackW, 0.0, 1.0) : 0.0;
    c.rackLoadWPerGpu = safeDiv(loadW, gpus);
    c.rackIdleShare = safeDiv(idleW, loadW);
}

/// Each rack class's oversubscription ratio (per power domain): the largest of the
/// design's (assumptions.power_oversubscription_ratio) and its site's, building's, hall's and A and B
/// feeds' power_oversubscription_ratio. Budgets nest: a hall provisioned below its racks' draw caps them
/// whatever its building allows, and a building's budget caps every hall in it, so the tightest domain above
/// a rack sets its cap. A ratio outside [1, 2] (the loaders refuse it) is clamped.
void setDomainRatios(EvalContext& c) {
    const CompiledDesign& cd = *c.compiled;
    const model::Project& p = c.p;
    c.classRatio.assign(cd.classes.size(), c.oversubscription);
    c.maxRatio = c.oversubscription;
    auto tighten = [](double& ratio, const std::optional<double>& domain) {
        if (domain && std::isfinite(*domain)) ratio = std::max(ratio, std::clamp(*domain, 1.0, 2.0));
    };
    for (size_t i = 0; i < cd.classes.size(); ++i) {
        const auto& k = cd.classes[i];
        double ratio = c.oversubscription;
        if (k.site != CompiledDesign::kNone)
            tighten(ratio, p.sites[static_cast<size_t>(k.site)].powerOversubscriptionRatio);
        if (k.building != CompiledDesign::kNone)
            tighten(ratio, p.buildings[static_cast<size_t>(k.building)].powerOversubscriptionRatio);
        if (k.hall != CompiledDesign::kNone)
            tighten(ratio, p.halls[static_cast<size_t>(k.hall)].powerOversubscriptionRatio);
        // The rack's A and B feeds (feedIds lists project.powerFeeds first; an id no feed has adds none).
        for (const std::int32_t f : {k.feedA, k.feedB})
            if (f != CompiledDesign::kNone && static_cast<size_t>(f) < p.powerFeeds.size())
                tighten(ratio, p.powerFeeds[static_cast<size_t>(f)].powerOversubscriptionRatio);
        c.classRatio[i] = ratio;
        if (!k.spare && cd.types[static_cast<size_t>(k.type)].compute)
            c.maxRatio = std::max(c.maxRatio, ratio);
    }
}

/// A synchronous training job's ratio: the largest over the working compute racks of its sites (all sites
/// when it names none): the most capped domain paces every step.
double jobRatio(const EvalContext& c, const model::TrainingJob& job) {
    const CompiledDesign& cd = *c.compiled;
    double ratio = c.oversubscription;
    for (size_t i = 0; i < cd.classes.size(); ++i) {
        const auto& k = cd.classes[i];
        if (k.spare || !cd.types[static_cast<size_t>(k.type)].compute) continue;
        if (!job.sites.empty() && (k.site == CompiledDesign::kNone ||
                                   std::find(job.sites.begin(), job.sites.end(),
                                             c.p.sites[static_cast<size_t>(k.site)].id) == job.sites.end()))
            continue;
        ratio = std::max(ratio, c.classRatio[i]);
    }
    return ratio;
}

} // namespace

/// The power envelope's inputs (cost/power_envelope.h): the racks' host share, curtailment under
/// a flexible interconnect, training's full-clock draw, and, when the racks are oversubscribed, the capping
/// curve and the training job's compute phase under the cap.
void readPowerEnvelope(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    c.oversubscription = std::max(1.0, a.get("power_oversubscription_ratio"));
    c.provisioningBasis = std::clamp(a.get("power_provisioning_basis"), 0.0, 1.0);
    setDomainRatios(c);
    setRackPowerShares(c);
    // Flexible interconnect: in curtailment hours the site sheds `depth` of its load, so
    // that share of those hours' GPU-hours is lost (an inference fleet sheds load pro rata).
    c.curtailmentHours = a.get("grid_curtailment_hours_per_year");
    if (c.curtailmentHours > 0) {
        c.curtailmentDepth = a.get("grid_curtailment_depth");
        c.curtailmentEventHours = a.get("grid_curtailment_event_hours");
    }
    c.gridAvailability = std::clamp(1.0 - c.curtailmentHours * c.curtailmentDepth / kHoursPerYear, 0.0, 1.0);
    if (!p.trainingJobs.empty())
        c.trainingFullClockDraw = rackPower(c.powerCurve, a.get("training_compute_power_draw"), 1.0);
    // A training step's compute phase under the cap: the job swings in step, so the phase itself must fit.
    // The cap is the racks' planning basis over the ratio: nameplate, or the compute phase's own draw
    // (power_provisioning_basis). The curve is read only when a cap may bind (not at ratio 1 on nameplate).
    c.trainingRatios.assign(p.trainingJobs.size(), 1.0);
    c.trainingCaps.assign(p.trainingJobs.size(), CapOutcome{});
    if (c.maxRatio > 1.0 || c.provisioningBasis > 0.0) {
        c.powerCurve.clockInvariantShare = a.get("gpu_power_clock_invariant_share");
        c.powerCurve.exponent = a.get("gpu_power_clock_exponent");
        for (size_t j = 0; j < p.trainingJobs.size(); ++j) {
            const auto& job = p.trainingJobs[j];
            const double ratio = c.trainingRatios[j] = jobRatio(c, job);
            const double cap = basisShare(c.provisioningBasis, c.trainingFullClockDraw) / ratio;
            if (!(cap < 1.0)) continue;
            c.trainingCaps[j] = capPhase(a.get("training_compute_power_draw"),
                                         a.get("training_compute_clock_bound_share"), cap, c.powerCurve);
            if (!c.trainingCaps[j].reachable)
                r.rules.push_back({Severity::Error, "power_cap_unreachable", job.id,
                                   "Training job " + job.name + ": at power_oversubscription_ratio " +
                                       fmt(ratio, 2) + " (its most oversubscribed domain) the racks' cap (" +
                                       fmt(100.0 * cap) +
                                       " % of full load) is below their compute-phase draw at the lowest SM "
                                       "clock; lower the ratio"});
        }
    }
    if (!c.trainingCaps.empty()) c.trainingCap = c.trainingCaps.front();
}

} // namespace ctwin::cost::detail
