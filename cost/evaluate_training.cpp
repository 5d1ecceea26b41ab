#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

namespace {
/// Design rules on the job's parallelism and batch: the layout of GPUs into
/// tensor x pipeline x data parallel groups, the batch that feeds every replica, stages against layers.
void addParallelismRules(const model::TrainingJob& job, const TrainingInput& in,
                         std::vector<DesignRule>& rules) {
    const std::string who = "Training job " + job.name;
    // Expert parallelism shards experts within the data-parallel replicas (Megatron-Core convention; the
    // shipped generator checks dp % ep == 0), so the GPU count is tp x pp x dp.
    const double product = double(job.tp) * job.pp * job.dp;
    if (product > job.gpus * (1.0 + 1e-9))
        rules.push_back({Severity::Error, "job_parallelism_exceeds_gpus", job.id,
                         who + ": tp x pp x dp = " + fmt(job.tp) + " x " + fmt(job.pp) + " x " + fmt(job.dp) +
                             " = " + fmt(product) + " GPUs, more than its gpus (" + fmt(job.gpus) + ")"});
    else if (product < job.gpus * (1.0 - 1e-9))
        rules.push_back({Severity::Warning, "job_parallelism_below_gpus", job.id,
                         who + ": tp x pp x dp = " + fmt(product) + " GPUs of its " + fmt(job.gpus) +
                             "; the rest idle (time assumes all gpus compute)"});
    if (job.ep > 1 && job.dp % job.ep != 0)
        rules.push_back({Severity::Error, "job_ep_not_dividing_dp", job.id,
                         who + ": ep " + fmt(job.ep) + " must divide dp " + fmt(job.dp) +
                             " (experts are sharded across data-parallel replicas)"});
    // One microbatch per replica at least: B >= dp x microbatch x sequence.
    const double perStep = double(job.dp) * job.microbatchSequences * in.sequenceLength;
    if (in.globalBatchTokens < perStep * (1.0 - 1e-9))
        rules.push_back({Severity::Error, "job_batch_too_small", job.id,
                         who + ": global_batch_tokens " + fmt(in.globalBatchTokens) +
                             " is smaller than dp x microbatch_sequences x sequence_length = " + fmt(job.dp) +
                             " x " + fmt(job.microbatchSequences) + " x " + fmt(in.sequenceLength) + " = " +
                             fmt(perStep) + ": not every replica gets a microbatch"});
    if (job.layers) {
        if (job.pp > *job.layers)
            rules.push_back({Severity::Error, "job_stages_exceed_layers", job.id,
                             who + ": pp " + fmt(job.pp) + " pipeline stages for " + fmt(*job.layers) +
                                 " layers (field layers): a stage needs at least one layer"});
        else if (double(job.pp) * job.virtualStages > *job.layers)
            rules.push_back({Severity::Error, "job_stages_exceed_layers", job.id,
                             who + ": pp x virtual_stages = " + fmt(double(job.pp) * job.virtualStages) +
                                 " model chunks for " + fmt(*job.layers) +
                                 " layers (field layers): a chunk needs at least one layer"});
    }
}
} // namespace

/// The expert-parallel all-to-all inputs of a mixture-of-experts job, and the rules on
/// its expert layout (EP that exceeds or does not divide the experts; an MoE without the figures).
void addExpertInputs(const model::TrainingJob& job, const CatalogItem* rack, const CatalogItem* acc,
                     const AssumptionValues& a, TrainingInput& in, std::vector<DesignRule>& rules) {
    const std::string who = "Training job " + job.name;
    in.tp = job.tp, in.ep = job.ep;
    const double experts = job.experts.value_or(0.0), k = job.activeExperts.value_or(0.0);
    if (job.experts && job.ep > experts)
        rules.push_back(
            {Severity::Error, "job_ep_exceeds_experts", job.id,
             who + ": ep " + fmt(job.ep) + " exceeds its " + fmt(experts) + " experts (field experts)"});
    else if (job.experts && std::fmod(experts, job.ep) != 0)
        rules.push_back({Severity::Error, "job_ep_not_dividing_experts", job.id,
                         who + ": ep " + fmt(job.ep) + " does not divide its " + fmt(experts) +
                             " experts (field ep): ranks would hold unequal expert shares"});
    if (job.activeExperts && job.experts && k > experts)
        rules.push_back({Severity::Error, "job_active_experts_exceed_experts", job.id,
                         who + ": active_experts " + fmt(k) + " exceeds its " + fmt(experts) + " experts"});
    const bool known = job.experts && job.activeExperts && job.hiddenSize && job.layers;
    if (job.ep > 1 && !known) {
        rules.push_back({Severity::Warning, "job_moe_comm_unknown", job.id,
                         who + ": ep " + fmt(job.ep) +
                             " without experts, active_experts, hidden_size and layers: "
                             "the expert all-to-all is not counted (time is optimistic)"});
        return;
    }
    if (!known) return;
    in.experts = static_cast<int>(experts), in.activeExperts = static_cast<int>(k);
    in.hiddenSize = *job.hiddenSize;
    in.moeLayers =
        *job.layers; // every layer routed (dense first layers are a small share; DeepSeek-V3: 3 of 61)
    // Dispatch in the compute precision (FP8 on DeepSeek-V3), combine in BF16 (DeepSeek-AI 2024, §3.3).
    in.dispatchBytes = job.precision == "bf16" ? 2.0 : 1.0;
    in.combineBytes = 2.0;
    setExpertLinks(in, rack, acc);
    in.expertCommOverlap = a.get("moe_alltoall_overlap");
}

/// The routing of the back-end fabric a job's collectives cross. Of the back-end fabrics
/// serving a building of the job's sites, the one with the lowest collective efficiency (the collective runs
/// at its slowest link); none: the reference's efficiency (no adjustment).
struct JobRouting {
    std::string fabricId, mode = "none";
    double flowsPerPort = 0, endpointsPerLeaf = 0, uplinksPerLeaf = 0;
    double efficiency = 0, alltoall = 0; // DP/PP collectives; expert all-to-all (one flow set per peer)
    bool measured = false;               // the fabric's collective_efficiency replaced the model
    std::vector<SourceRef> sources;
};

JobRouting jobRouting(const EvalContext& c, const model::TrainingJob& job, double remotePeers) {
    const double reference = referenceCollectiveEfficiency();
    JobRouting best;
    best.efficiency = best.alltoall = reference;
    bool found = false;
    const auto siteOf = [&](const std::string& building) {
        const auto b = c.buildings.find(building);
        return b != c.buildings.end() ? b->second->site : std::string();
    };
    const auto servesJob = [&](const model::Fabric& f) {
        if (job.sites.empty()) return true;
        if (f.buildings.empty()) return true;
        for (const auto& b : f.buildings)
            if (std::find(job.sites.begin(), job.sites.end(), siteOf(b)) != job.sites.end()) return true;
        return false;
    };
    for (const auto& f : c.p.fabrics) {
        if (f.role != "backend" || !servesJob(f)) continue;
        const auto bom = std::find_if(c.bom.fabrics.begin(), c.bom.fabrics.end(),
                                      [&](const FabricBom& b) { return b.fabricId == f.id; });
        if (bom == c.bom.fabrics.end() || !(bom->perPlane.leaves > 0)) continue;
        JobRouting r;
        r.fabricId = f.id, r.mode = f.routing;
        r.endpointsPerLeaf = bom->perPlane.endpointLinks / bom->perPlane.leaves;
        r.uplinksPerLeaf = bom->perPlane.leafSpineLinks / bom->perPlane.leaves;
        const Routing routing = f.routing == "adaptive" ? Routing::Adaptive
                                : f.routing == "spray"  ? Routing::Spray
                                                        : Routing::Ecmp;
        double modeEfficiency = 1.0;
        if (routing == Routing::Ecmp) {
            r.flowsPerPort = f.flowsPerPort ? *f.flowsPerPort : c.a.get("collective_flows_per_port");
            if (!f.flowsPerPort) r.sources.push_back(c.source("collective_flows_per_port"));
        } else {
            const char* key =
                routing == Routing::Adaptive ? "adaptive_routing_efficiency" : "packet_spray_efficiency";
            modeEfficiency = c.a.get(key);
            r.sources.push_back(c.source(key));
        }
        if (f.collectiveEfficiency) {
            // A measured bus bandwidth stands for every collective the fabric carries.
            r.efficiency = r.alltoall = *f.collectiveEfficiency, r.measured = true;
        } else {
            r.efficiency = collectiveEfficiency(routing, r.flowsPerPort, r.endpointsPerLeaf, r.uplinksPerLeaf,
                                                modeEfficiency);
            // All-to-all: each port carries one set of flows per remote peer (GShard-style dispatch).
            r.alltoall = collectiveEfficiency(routing, r.flowsPerPort * std::max(1.0, remotePeers),
                                              r.endpointsPerLeaf, r.uplinksPerLeaf, modeEfficiency);
        }
        if (!found || r.efficiency < best.efficiency) best = r, found = true;
    }
    return best;
}

namespace {
/// The rack type a job runs on: of the accelerator with the most GPUs in its sites (all sites when empty),
/// the rack type with the most of them (its scale-up domain and NICs carry the expert all-to-all).
const CatalogItem* trainingRackFor(const EvalContext& c, const std::set<std::string>& sites) {
    const model::Project& p = c.p;
    // GPUs per rack type over the job's sites (compiled indices; whole numbers, so the sums are exact
    // in any order), then by accelerator.
    const CompiledDesign& cd = *c.compiled;
    std::vector<std::uint8_t> siteIn(p.sites.size(), 0);
    for (size_t s = 0; s < p.sites.size(); ++s)
        siteIn[s] = sites.count(p.sites[s].id) ? 1 : 0;
    std::vector<double> typeGpus(cd.types.size(), 0.0);
    std::vector<std::uint8_t> typeSeen(cd.types.size(), 0);
    for (const auto& k : cd.classes) // by rack class (cost/compiled_design.h)
        if (const auto t = static_cast<size_t>(k.type);
            cd.types[t].compute &&
            (sites.empty() || (k.site != CompiledDesign::kNone && siteIn[static_cast<size_t>(k.site)])))
            typeGpus[t] += k.count * cd.types[t].need(cd.types[t].gpus, "gpus"), typeSeen[t] = 1;
    std::map<std::string, double> gpusByAccelerator;
    for (size_t t = 0; t < cd.types.size(); ++t)
        if (typeSeen[t]) gpusByAccelerator[cd.types[t].item->attribute("accelerator")] += typeGpus[t];
    std::string accelerator;
    double most = 0;
    for (const auto& [acc, n] : gpusByAccelerator)
        if (n > most) most = n, accelerator = acc;
    const CatalogItem* best = nullptr;
    most = 0;
    for (size_t t = 0; t < cd.types.size(); ++t)
        if (typeSeen[t] && cd.types[t].item->attribute("accelerator") == accelerator && typeGpus[t] > most)
            most = typeGpus[t], best = cd.types[t].item;
    return best;
}

/// A job spanning sites: the slowest scale-across link joining two of its sites and the largest one-way
/// latency (an Error when no link joins them).
void setScaleAcrossLinks(const EvalContext& c, const model::TrainingJob& job,
                         const std::set<std::string>& sites, TrainingInput& in,
                         std::vector<DesignRule>& rules) {
    const model::Project& p = c.p;
    const BillOfMaterials& bom = c.bom;
    double slowest = 0;
    Time latency{};
    for (size_t i = 0; i < p.links.size() && i < bom.links.size(); ++i) {
        const auto& l = p.links[i];
        auto siteOfEndpoint = [&](const std::string& id) {
            if (auto b = c.buildings.find(id); b != c.buildings.end()) return b->second->site;
            return id;
        };
        if (!sites.count(siteOfEndpoint(l.from)) || !sites.count(siteOfEndpoint(l.to))) continue;
        if (slowest == 0 || l.capacityBitPerS < slowest) slowest = l.capacityBitPerS;
        latency = std::max(latency, bom.links[i].oneWayLatency);
    }
    in.wanBandwidth = bitsPerSecond(slowest);
    in.wanOneWayLatency = latency;
    if (slowest <= 0)
        rules.push_back({Severity::Error, "job_no_wan", job.id,
                         "Training job " + job.name + " spans " + std::to_string(in.sites) +
                             " sites but no scale-across link joins them"});
}

/// A training job's rack draws, share of full-load power: the compute phase
/// (training_compute_power_draw at the job's capped clock), the communication trough
/// (training_trough_power_draw at full clock), and their mean weighted by the step's computeShare. A
/// synchronous job swings between the two every step (Choukse et al., "Power Stabilization for AI Training
/// Datacenters", arXiv 2508.14318, 2025); the energy meter sees the mean, the battery the swing
/// (sizeBattery).
void trainingStepDraws(const EvalContext& c, size_t job, EvalContext::TrainingPlan& plan) {
    plan.computeDraw =
        rackPower(c.powerCurve, c.a.get("training_compute_power_draw"), c.trainingCaps.at(job).clock);
    plan.troughDraw = rackPower(c.powerCurve, c.a.get("training_trough_power_draw"), 1.0);
    const double share = plan.step.computeShare;
    plan.meanDraw = share * plan.computeDraw + (1.0 - share) * plan.troughDraw;
}

} // namespace

/// Each training job's step before its reliability: the inputs estimateTraining needs
/// other than the goodput, its parallelism, expert and scale-across rules, and its step at goodput 1 (the
/// step does not depend on the goodput, only the time to train does). First of the workload stages, after
/// readPowerEnvelope (each job's cap stretches its busy compute): the power stage charges the step's compute
/// phase and troughs (TrainingEstimate::computeShare).
void planTrainingSteps(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = c.bom;
    c.trainingPlans.assign(p.trainingJobs.size(), {});
    for (const auto& job : p.trainingJobs) {
        const size_t jobIndex = static_cast<size_t>(&job - p.trainingJobs.data());
        EvalContext::TrainingPlan& plan = c.trainingPlans[jobIndex];
        TrainingInput& in = plan.input;
        const std::set<std::string> sites(job.sites.begin(), job.sites.end());
        const auto* rack =
            c.memo ? c.memo->trainingRack(bom, jobIndex, [&] { return trainingRackFor(c, sites); })
                   : trainingRackFor(c, sites);
        const auto* acc = rack ? catalog.find(rack->attribute("accelerator")) : nullptr;
        in.activeParams = inputs.jobActiveParams(job);
        in.modelParams = job.modelParams;
        in.tokens = job.tokens;
        in.gpus = job.gpus;
        in.peakFlopsPerGpu = (acc ? precisionFlops(*acc, job.precision) : 0.0) * hertz;
        // The MFU follows the precision whose peak is applied (fp4 falls back to fp8 or bf16 peaks).
        const std::string peakPrecision = !acc ? job.precision
                                          : in.peakFlopsPerGpu.value() == acc->value("bf16_flops") ? "bf16"
                                          : in.peakFlopsPerGpu.value() == acc->value("fp8_flops")  ? "fp8"
                                                                                                   : "fp4";
        // Power capping (cost/power_envelope.h) stretches the busy compute at the job's own cap
        // (readPowerEnvelope: its sites' most oversubscribed domain): the same FLOPs at a lower clock.
        in.mfu = inputs.jobMfu(job, peakPrecision) / c.trainingCaps.at(jobIndex).stretch;
        in.goodput = 1.0; // evaluateTraining sets the job's
        in.sites = std::max<int>(1, static_cast<int>(job.sites.size()));
        // Global batch and pipeline schedule: tokens per step, sequence length and the
        // job's parallelism give the microbatches per replica and the pipeline bubble.
        in.globalBatchTokens = inputs.jobGlobalBatchTokens(job);
        in.sequenceLength = inputs.jobSequenceLength(job);
        in.dp = job.dp;
        in.pp = job.pp;
        in.microbatchSequences = job.microbatchSequences;
        in.virtualStages = job.virtualStages;
        in.mfuPipelineBubble = a.get("mfu_pipeline_bubble");
        const Recomputation recompute = job.recomputation == "full"   ? Recomputation::Full
                                        : job.recomputation == "none" ? Recomputation::None
                                                                      : Recomputation::Selective;
        in.recomputeFactor =
            recomputationTimeFactor(recompute, in.activeParams, job.layers.value_or(0.0), in.sequenceLength);
        in.wanSync = job.wanSync == "last_microbatch" ? WanSync::LastMicrobatch
                     : job.wanSync == "per_stage"     ? WanSync::PerStage
                                                      : WanSync::PerChunk;
        addExpertInputs(job, rack, acc, a, in, plan.rules);
        addParallelismRules(job, in, plan.rules);
        // Back-end routing: the NIC carries the data-parallel and pipeline traffic at the
        // fabric's collective efficiency, relative to the MFU reference's fabric.
        setExpertLinks(in, rack, acc);
        if (!(in.hiddenSize > 0)) {
            // Pipeline activations need the hidden size: the job's, else N ≈ 12·L·h² (Kaplan et al. 2020).
            if (job.hiddenSize)
                in.hiddenSize = *job.hiddenSize;
            else if (job.layers && *job.layers > 0)
                in.hiddenSize = std::sqrt(in.activeParams / (12.0 * *job.layers));
        }
        {
            const double group = double(std::max(1, job.tp)) * std::max(1, job.ep);
            const double inDomain =
                std::clamp(in.scaleUpDomainGpus > 0 ? in.scaleUpDomainGpus / group : 0.0, 0.0, 1.0);
            const JobRouting routing = jobRouting(c, job, (job.ep - 1.0) * (1.0 - inDomain));
            in.collectiveEfficiency = routing.efficiency;
            in.alltoallEfficiency = routing.alltoall;
            in.referenceCollectiveEfficiency = referenceCollectiveEfficiency();
            if (job.pp > 1 && in.hiddenSize > 0) in.pipelineP2pOverlap = a.get("pp_p2p_overlap");
        }
        if (in.sites > 1) setScaleAcrossLinks(c, job, sites, in, plan.rules);
        plan.step = estimateTraining(in);
        trainingStepDraws(c, jobIndex, plan);
    }
}

void evaluateTraining(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const BillOfMaterials& bom = c.bom;
    // ---- Training economics (SPEC.md §4.7) ----
    for (const auto& job : p.trainingJobs) {
        const size_t jobIndex = static_cast<size_t>(&job - p.trainingJobs.data());
        TrainingResult tr;
        tr.jobId = job.id;
        // Reliability (SPEC.md §4.6): failures of the job's footprint, checkpointing, restart scope. A
        // function of the design, the bill of materials and the options: a scenario tool's memo computes it
        // once per distinct options (cost/evaluation_memo.h).
        const ReliabilityOptions options = reliabilityOptionsFor(job, a);
        auto analyze = [&] { return analyzeReliability(reliabilityInputFor(p, catalog, bom, job, options)); };
        tr.reliability = c.memo ? *c.memo->reliability(bom, jobIndex, options, analyze) : analyze();
        // Site-caused facility downtime of the buildings' power topologies.
        // A flexible interconnect's curtailment: a synchronous job cannot run on part of
        // its GPUs, so it checkpoints ahead of each event (the utility gives notice), stops for the event
        // whatever its depth, and restarts after it (detection + rescheduling + restore, restartTime).
        double gridAvailability = 1.0;
        if (c.curtailmentHours > 0 && c.curtailmentDepth > 0) {
            const double events = safeDiv(c.curtailmentHours, c.curtailmentEventHours);
            // The part of each event a battery carries (bess_ride_through_hours) does not stop the job.
            const double uncovered = 1.0 - c.curtailmentCovered;
            const double lost =
                uncovered * (c.curtailmentHours + events * tr.reliability.restartTime.value() / 3600.0);
            gridAvailability = std::clamp(1.0 - lost / kHoursPerYear, 0.0, 1.0);
        }
        if (jobIndex == 0) c.trainingGridAvailability = gridAvailability;
        applyFacilityAvailability(tr.reliability, r.power.facilityAvailability * gridAvailability);
        r.rules.insert(r.rules.end(), tr.reliability.rules.begin(), tr.reliability.rules.end());
        const EvalContext::TrainingPlan& plan = c.trainingPlans.at(jobIndex);
        r.rules.insert(r.rules.end(), plan.rules.begin(), plan.rules.end());
        TrainingInput in = plan.input;
        in.goodput = tr.reliability.goodput;
        tr.estimate = estimateTraining(in);
        if (job.gpus > c.sellableGpus)
            r.rules.push_back({Severity::Error, "job_too_large", job.id,
                               "Training job " + job.name + " needs " + fmt(job.gpus) +
                                   " GPUs; the cluster sells " + fmt(c.sellableGpus)});
        if (!tr.estimate.feasible && tr.reliability.goodput <= 0)
            r.rules.push_back(
                {Severity::Error, "job_no_progress", job.id,
                 "Training job " + job.name + " makes no progress: failures and restarts use all its time"});
        else if (!tr.estimate.feasible)
            r.rules.push_back(
                {Severity::Error, "job_infeasible", job.id,
                 "Training job " + job.name + " cannot be estimated (no GPUs, no accelerator or zero MFU)"});
        // Narayanan et al. (SC 2021) keep the bubble small with m >> p; a quarter of the step idle is far
        // beyond the ~5-10% of the published runs (assumptions.mfu_pipeline_bubble).
        if (tr.estimate.feasible && tr.estimate.pipelineBubble > 0.25)
            r.rules.push_back(
                {Severity::Warning, "pipeline_bubble_large", job.id,
                 "Training job " + job.name + ": the pipeline idles " +
                     fmt(tr.estimate.pipelineBubble * 100, 1) + "% of each step (" + fmt(job.pp) +
                     " stages, " + fmt(tr.estimate.microbatches, 1) +
                     " microbatches per replica); raise global_batch_tokens, use an interleaved "
                     "schedule (virtual_stages) or fewer stages"});
        if (tr.estimate.feasible && !tr.estimate.microbatchesDivide)
            r.rules.push_back(
                {Severity::Warning, "job_microbatches_fractional", job.id,
                 "Training job " + job.name + ": global_batch_tokens " + fmt(in.globalBatchTokens) +
                     " is not a whole number of microbatches per replica (dp x microbatch_sequences "
                     "x sequence_length = " +
                     fmt(double(job.dp) * job.microbatchSequences * in.sequenceLength) +
                     "); frameworks require it, the engine counts " + fmt(tr.estimate.microbatches) +
                     " pipeline slots"});
        if (tr.estimate.feasible && tr.estimate.scaleAcrossSlowdown > 1.0 + 1e-9)
            r.rules.push_back({Severity::Warning, "wan_step_budget", job.id,
                               "Training job " + job.name +
                                   ": the WAN gradient exchange stalls each step by " +
                                   fmt((tr.estimate.scaleAcrossSlowdown - 1) * 100, 1) + "%"});
        // The GPU-hour cost is per GPU-hour sold, i.e. per hour the facility is up (evaluate_finance.cpp);
        // the wall-clock time includes the facility's downtime, which is not sold, hence x availability.
        tr.runCost = toHours(tr.estimate.time) * job.gpus * r.finance.costPerGpuHour *
                     r.power.facilityAvailability * usd;
        tr.costPerMillionTokens = safeDiv(tr.runCost.value(), job.tokens / 1e6);
        r.training.push_back(tr);
    }

    if (!r.training.empty()) r.goodput = r.training.front().reliability.goodput;
}

void addCapacityBookingRule(EvalContext& c) {
    const model::Project& p = c.p;
    double booked = 0;
    std::string who;
    const auto claim = [&](const std::string& kind, const std::string& name, double gpus) {
        if (!(gpus > 0) || !std::isfinite(gpus)) return;
        booked += gpus;
        who += (who.empty() ? "" : ", ") + kind + " " + name + " " + fmt(gpus);
    };
    for (const auto& job : p.trainingJobs)
        claim("training job", job.name, job.gpus);
    for (const auto& s : p.inferenceServices)
        claim("inference service", s.name, s.gpus);
    if (booked > c.sellableGpus * (1.0 + 1e-9))
        c.r.rules.push_back({Severity::Error, "gpu_bookings_exceed_capacity", p.info.id,
                             "GPU bookings: " + fmt(booked) + " GPUs claimed (" + who +
                                 ") but the design sells " + fmt(c.sellableGpus) +
                                 " (hot spares aside); lower a job's or a service's gpus"});
}

namespace {
/// The first job under the power envelope: its capped clock and slowdown, the grid's share of
/// its time, and the largest ratio at which its cap does not bind.
void addTrainingEnvelopeFigures(EvalContext& c) {
    addFigure(
        c, "training.capping_clock", c.trainingCap.clock, "",
        "SM clock under the power cap (training)",
        "highest clock f with h + (1 - h) x L x (s + (1 - s) f^alpha) <= planning basis / oversubscription "
        "ratio (L the compute phase's GPU draw, h the racks' host share); 1 = the cap does not bind",
        {{"oversubscription_ratio",
          c.trainingRatios.empty() ? c.oversubscription : c.trainingRatios[0]},
         {"host_share", c.powerCurve.hostShare}},
        {c.source("power_oversubscription_ratio"), c.source("training_compute_power_draw"),
         c.source("gpu_power_clock_invariant_share"), c.source("gpu_power_clock_exponent")});
    addFigure(
        c, "training.grid_availability", c.trainingGridAvailability, "",
        "Share of time curtailment leaves the job (flexible interconnect)",
        "1 - (curtailment hours + events x restart time) / 8,766 h, events = hours / event length; "
        "in the goodput with the facility availability",
        {{"curtailment_hours", c.curtailmentHours}, {"event_hours", c.curtailmentEventHours}},
        {c.source("grid_curtailment_hours_per_year"), c.source("grid_curtailment_event_hours")});
    addFigure(
        c, "training.ratio_without_capping",
        safeDiv(basisShare(c.provisioningBasis, c.trainingFullClockDraw), c.trainingFullClockDraw),
        "", "Largest oversubscription ratio with no capping (training, on its planning basis)",
        "planning basis / (h + (1 - h) x compute-phase GPU draw), h the racks' host share; the "
        "basis is 1 (nameplate) or that draw (observed, power_provisioning_basis)",
        {{"rack_draw_share", c.trainingFullClockDraw},
         {"host_share", c.powerCurve.hostShare},
         {"provisioning_basis", c.provisioningBasis}},
        {c.source("training_compute_power_draw")});
    addFigure(
        c, "training.capping_slowdown", c.trainingCap.stretch, "",
        "Power-capping slowdown of compute",
        "beta / f + (1 - beta) at the capped clock f, beta the compute phase's clock-bound share "
        "(1 = no loss); divides the MFU",
        {{"clock", c.trainingCap.clock}}, {c.source("training_compute_clock_bound_share")});
    if (c.trainingPlans.empty()) return;
    const EvalContext::TrainingPlan& plan = c.trainingPlans.front();
    addFigure(
        c, "training.step_compute_share", plan.step.computeShare, "",
        "Compute phase's share of a training step (first job)",
        "busy compute (its FLOPs at the busy MFU, capped) / step time; the rest (pipeline bubble, exposed "
        "all-to-all, routing and WAN stalls) is communication trough",
        {{"step_seconds", plan.step.stepTime.value()}, {"pipeline_bubble", plan.step.pipelineBubble}},
        {c.source("mfu"), c.source("mfu_pipeline_bubble")});
    addFigure(c, "training.rack_mean_draw_share", plan.meanDraw, "",
              "Training racks' mean draw over a step, share of full load (first job, while running)",
              "compute share x rack draw in the compute phase (at the capped clock) + (1 - compute share) x "
              "rack draw in the trough; the energy the power stage charges for the job's racks",
              {{"compute_share", plan.step.computeShare}, {"host_share", c.powerCurve.hostShare}},
              {c.source("training_compute_power_draw"), c.source("training_trough_power_draw")});
}

/// The first job's reliability figures (SPEC.md §4.6), or the goodput assumption without a job.
void addReliabilityFigures(EvalContext& c) {
    Results& r = c.r;
    if (!r.training.empty()) {
        const auto& rel = r.training.front().reliability;
        const std::vector<SourceRef> relSources = {"failure rates: " + rel.rateSet,
                                                   c.source("failure_detection_minutes"),
                                                   c.source("rescheduling_minutes")};
        addFigure(c, "reliability.goodput", rel.goodput, "", "Goodput",
                  "1 - checkpoint overhead - failure loss (Daly 2006 with per-class restart and rollback) - "
                  "SDC - stragglers - facility downtime (x power.facility_availability)",
                  {{"checkpoint_overhead", rel.checkpointOverhead},
                   {"failure_loss", rel.failureLoss},
                   {"sdc_loss", rel.sdcLoss},
                   {"straggler_loss", rel.stragglerLoss},
                   {"facility_loss", rel.facilityLoss}},
                  relSources);
        addFigure(
            c, "reliability.interruptions_per_day", rel.interruptionsPerDay, "1/d", "Interruptions per day",
            "sum over failure classes of units x rate x 24 h; per-server and per-node rates count job GPUs / "
            "the calibration node's GPUs (node_gpus) node-equivalents",
            {{"job_gpus", rel.jobGpus}}, relSources);
        addFigure(c, "reliability.job_mtbf_hours", finite(toHours(rel.jobMtbf)), "h", "Job MTBF",
                  "24 / interruptions per day");
        addFigure(c, "reliability.checkpoint_interval_minutes", rel.checkpointInterval.value() / 60.0, "min",
                  "Checkpoint interval", "Daly (2006) optimum from the write time and the rollback MTBF",
                  {{"young_minutes", finite(rel.checkpointIntervalYoung.value() / 60.0)},
                   {"daly_minutes", finite(rel.checkpointIntervalDaly.value() / 60.0)}});
        addFigure(c, "reliability.checkpoint_write_seconds", rel.checkpointWrite.value(), "s",
                  "Checkpoint write",
                  "state bytes / min(aggregate storage bandwidth, GPUs x per-GPU link) (blocking part)");
        addFigure(c, "reliability.lost_gpu_hours_per_day", rel.lostGpuHoursPerDay, "GPU-h/d",
                  "Lost GPU-hours per day", "GPUs x 24 h x (1 - goodput)");
    } else {
        addFigure(c, "reliability.goodput", r.goodput, "", "Goodput", "assumption (no training job to model)",
                  {}, {c.source("goodput")});
    }
}
} // namespace

void addTrainingFigures(EvalContext& c) {
    Results& r = c.r;
    addReliabilityFigures(c);
    if (!r.training.empty()) {
        const auto& t = r.training.front();
        addFigure(c, "training.time_days", toDays(t.estimate.time), "d", "Time to train",
                  "6·N·D x recomputation factor x expert slowdown / (GPUs x peak x MFU x goodput) x "
                  "(1 - reference bubble) / (1 - pipeline bubble) x routing slowdown x scale-across slowdown",
                  {{"flops", t.estimate.flops},
                   {"recomputation_factor", t.estimate.recomputeFactor},
                   {"routing_slowdown", t.estimate.routingSlowdown},
                   {"slowdown", t.estimate.scaleAcrossSlowdown},
                   {"pipeline_bubble", t.estimate.pipelineBubble}},
                  {c.source("mfu"), c.source("goodput")});
        addFigure(c, "training.pipeline_bubble", t.estimate.pipelineBubble, "", "Pipeline bubble",
                  "(pp - 1) / (virtual_stages x m + pp - 1), m = global batch / (dp x microbatch x sequence)",
                  {{"microbatches_per_replica", t.estimate.microbatches}},
                  {"Narayanan et al., 'Efficient Large-Scale Language Model Training on GPU Clusters Using "
                   "Megatron-LM', SC 2021, section 2.2",
                   c.source("global_batch_tokens"), c.source("sequence_length")});
        addFigure(
            c, "training.scale_across_slowdown", t.estimate.scaleAcrossSlowdown, "", "Scale-across slowdown",
            "(pipelined step + stall) / pipelined step; stall = max(X/n, X - (n-1)Δ) - w + latencies, the "
            "gradient released in n pieces (per chunk: pp x virtual_stages, per stage: pp) Δ apart through "
            "the cooldown, each streamed during its last backward w (wan_sync)",
            {{"step_wan_seconds", t.estimate.stepWanTime.value()},
             {"overlap_window_seconds", t.estimate.wanOverlapWindow.value()},
             {"step_seconds", t.estimate.stepTime.value()}},
            {"Patarasuk & Yuan, JPDC 69(2), 2009 (ring all-reduce)",
             "Li et al., 'PyTorch Distributed', VLDB 2020 (overlap during backward)"});
        addFigure(
            c, "training.mfu_effective", t.estimate.effectiveMfu, "", "End-to-end MFU",
            "MFU / power-capping stretch / recomputation factor / expert slowdown / (1 - reference bubble) "
            "x (1 - pipeline bubble) / routing slowdown / scale-across slowdown",
            {{"recomputation_factor", t.estimate.recomputeFactor},
             {"expert_slowdown", t.estimate.expertSlowdown}},
            {c.source("mfu"), c.source("mfu_pipeline_bubble"),
             "Korthikanti et al., 'Reducing Activation Recomputation in Large Transformer Models', MLSys "
             "2023, section 5 (selective recomputation is the MFU assumption's convention)"});
        addTrainingEnvelopeFigures(c);
        addFigure(
            c, "training.expert_slowdown", t.estimate.expertSlowdown, "", "Expert all-to-all slowdown",
            "(busy compute + (1 - overlap) x all-to-all) / busy compute; all-to-all = B/(dp x tp) x "
            "layers/pp x "
            "(dispatch + combine + 4 B) x k x h x (ep-1)/ep over NVLink inside the scale-up domain, the "
            "back-end NIC beyond it",
            {{"step_alltoall_seconds", t.estimate.stepExpertCommTime.value()},
             {"step_exposed_seconds", t.estimate.stepExpertExposedTime.value()},
             {"scale_out_share", t.estimate.expertScaleOutShare}},
            {c.source("moe_alltoall_overlap"), "DeepSeek-AI, 'DeepSeek-V3 Technical Report', 2024, sections "
                                               "3.2-3.3 (dispatch/combine volume)"});
        {
            // The job's back-end routing (its details recomputed for the provenance).
            const auto& job = c.p.trainingJobs.front();
            const JobRouting routing = jobRouting(c, job, (job.ep - 1.0) * t.estimate.expertScaleOutShare);
            std::vector<SourceRef> sources = {
                "Meta, 'The Llama 3 Herd of Models', 2024, section 3.3.1 (the MFU reference's fabric: E-ECMP "
                "over 16 flows between two GPUs, 16 GPUs per ToR, 1:1 in a pod)",
                "Gangidi et al., 'RDMA over Ethernet for Distributed AI Training at Meta Scale', SIGCOMM "
                "2024 "
                "(ECMP's low flow entropy; E-ECMP with QP scaling up to 40% faster AllReduce)",
                "Mitzenmacher & Upfal, 'Probability and Computing', 2005, section 5.4 (balls into bins, "
                "Poisson approximation)"};
            sources.insert(sources.end(), routing.sources.begin(), routing.sources.end());
            const std::string fabric =
                routing.fabricId.empty() ? std::string("no back-end fabric serves the job: the reference's")
                                         : "back-end fabric " + routing.fabricId + " (" + routing.mode + ")";
            addFigure(c, "training.collective_efficiency", t.estimate.collectiveEfficiency, "",
                      "Collective efficiency (routing)",
                      fabric + (routing.measured
                                    ? ": its measured collective_efficiency"
                                    : ": ECMP min(1, f / E[max uplink load]), λ = f x d / u flows per "
                                      "uplink over the leaf's u uplinks (balls into bins, Poisson "
                                      "approximation); adaptive and spray: the mode's efficiency x "
                                      "min(1, u / d)"),
                      {{"flows_per_port", routing.flowsPerPort},
                       {"endpoints_per_leaf", routing.endpointsPerLeaf},
                       {"uplinks_per_leaf", routing.uplinksPerLeaf},
                       {"reference_efficiency", t.estimate.referenceCollectiveEfficiency},
                       {"alltoall_efficiency", t.estimate.alltoallEfficiency}},
                      sources);
            addFigure(c, "training.routing_slowdown", t.estimate.routingSlowdown, "", "Routing slowdown",
                      "(pipelined step + exposed data-parallel and pipeline communication at the collective "
                      "efficiency - the same at the reference's) / pipelined step; exposed: the gradient "
                      "release stall (wan_sync) and (1 - pp_p2p_overlap) of the stage-to-stage sends",
                      {{"step_dp_comm_seconds", t.estimate.stepDataParallelCommTime.value()},
                       {"step_pp_comm_seconds", t.estimate.stepPipelineCommTime.value()},
                       {"step_routing_delta_seconds", t.estimate.stepRoutingDelta.value()}},
                      {c.source("pp_p2p_overlap"),
                       "Narayanan et al., SC 2021, section 4.1 (pipeline sends split over the TP ranks)",
                       "Patarasuk & Yuan, JPDC 69(2), 2009 (ring all-reduce volume)"});
        }
        addFigure(c, "training.run_cost_usd", t.runCost.value(), "USD", "Run cost",
                  "hours x GPUs x cost per GPU-hour");
        addFigure(c, "training.cost_per_million_tokens_usd", t.costPerMillionTokens, "USD/M tok",
                  "$/M training tokens", "run cost / (tokens / 1e6)");
        // training.* is the first job (the design's headline job); training.fleet.* adds every job.
        const model::Project& p = c.p;
        double gpus = 0, cost = 0, tokens = 0, goodGpus = 0, gpuDays = 0;
        for (size_t i = 0; i < r.training.size() && i < p.trainingJobs.size(); ++i) {
            const auto& job = p.trainingJobs[i];
            const auto& tr = r.training[i];
            gpus += job.gpus, cost += tr.runCost.value(), tokens += job.tokens;
            goodGpus += job.gpus * tr.reliability.goodput;
            gpuDays += job.gpus * toDays(tr.estimate.time);
        }
        addFigure(c, "training.fleet.gpus", gpus, "GPUs", "GPUs booked by training (all jobs)",
                  "sum of the jobs' gpus", {{"jobs", static_cast<double>(r.training.size())}});
        addFigure(c, "training.fleet.run_cost_usd", cost, "USD", "Training run cost (all jobs)",
                  "sum of hours x GPUs x cost per GPU-hour over the jobs");
        addFigure(c, "training.fleet.gpu_days", gpuDays, "GPU-d", "Training GPU-days (all jobs)",
                  "sum of GPUs x time to train over the jobs");
        addFigure(c, "training.fleet.cost_per_million_tokens_usd", safeDiv(cost, tokens / 1e6), "USD/M tok",
                  "$/M training tokens (all jobs)", "sum of run costs / (sum of tokens / 1e6)");
        addFigure(c, "training.fleet.goodput", safeDiv(goodGpus, gpus), "",
                  "Goodput, GPU-weighted (all jobs)", "sum of GPUs x goodput / sum of GPUs");
    }
}

} // namespace ctwin::cost::detail
