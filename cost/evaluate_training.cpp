#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

namespace {
/// Tokens per optimizer step: Llama 3 405B trained at up to 16M tokens per batch (Llama 3 paper, §3.4.1).
constexpr double kGlobalBatchTokens = 16e6;
} // namespace

void evaluateTraining(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = r.bom;
    // ---- Training economics (SPEC.md §4.7) ----
    auto acceleratorFor = [&](const std::set<std::string>& sites) -> const CatalogItem* {
        std::map<std::string, double> gpusByType;
        for (const auto& ri : c.racks)
            if (ri.type->kind == "compute" && (sites.empty() || sites.count(ri.site)))
                gpusByType[ri.type->attribute("accelerator")] += ri.type->value("gpus");
        const CatalogItem* best = nullptr;
        double most = 0;
        for (const auto& [acc, n] : gpusByType)
            if (n > most) most = n, best = catalog.find(acc);
        return best;
    };
    for (const auto& job : p.trainingJobs) {
        TrainingResult tr;
        tr.jobId = job.id;
        // Reliability (SPEC.md §4.6): failures of the job's footprint, checkpointing, restart scope.
        tr.reliability =
            analyzeReliability(reliabilityInputFor(p, catalog, bom, job, reliabilityOptionsFor(job, a)));
        r.rules.insert(r.rules.end(), tr.reliability.rules.begin(), tr.reliability.rules.end());
        const std::set<std::string> sites(job.sites.begin(), job.sites.end());
        const auto* acc = acceleratorFor(sites);
        TrainingInput in;
        in.activeParams = inputs.jobActiveParams(job);
        in.modelParams = job.modelParams;
        in.tokens = job.tokens;
        in.gpus = job.gpus;
        in.peakFlopsPerGpu = (acc ? precisionFlops(*acc, job.precision) : 0.0) * hertz;
        in.mfu = inputs.jobMfu(job);
        in.goodput = tr.reliability.goodput;
        in.sites = std::max<int>(1, static_cast<int>(job.sites.size()));
        in.globalBatchTokens = kGlobalBatchTokens;
        if (in.sites > 1) {
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
                r.rules.push_back({Severity::Error, "job_no_wan", job.id,
                                   "Training job " + job.name + " spans " + std::to_string(in.sites) +
                                       " sites but no scale-across link joins them"});
        }
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
        if (tr.estimate.feasible && tr.estimate.scaleAcrossSlowdown > 1.0 + 1e-9)
            r.rules.push_back({Severity::Warning, "wan_step_budget", job.id,
                               "Training job " + job.name +
                                   ": the WAN gradient exchange stalls each step by " +
                                   fmt((tr.estimate.scaleAcrossSlowdown - 1) * 100, 1) + "%"});
        tr.runCost = toHours(tr.estimate.time) * job.gpus * r.finance.costPerGpuHour * usd;
        tr.costPerMillionTokens = safeDiv(tr.runCost.value(), job.tokens / 1e6);
        r.training.push_back(tr);
    }

    if (!r.training.empty()) r.goodput = r.training.front().reliability.goodput;
}

void addTrainingFigures(EvalContext& c) {
    Results& r = c.r;
    if (!r.training.empty()) {
        const auto& rel = r.training.front().reliability;
        const std::vector<std::string> relSources = {"catalog failures (Llama 3 calibration, Meta 2024)",
                                                     c.source("failure_detection_minutes"),
                                                     c.source("rescheduling_minutes")};
        addFigure(r, "reliability.goodput", rel.goodput, "", "Goodput",
                  "1 - checkpoint overhead - failure loss (Daly 2006 with per-class restart and rollback) - "
                  "SDC - stragglers",
                  {{"checkpoint_overhead", rel.checkpointOverhead},
                   {"failure_loss", rel.failureLoss},
                   {"sdc_loss", rel.sdcLoss},
                   {"straggler_loss", rel.stragglerLoss}},
                  relSources);
        addFigure(r, "reliability.interruptions_per_day", rel.interruptionsPerDay, "1/d",
                  "Interruptions per day", "sum over failure classes of units x rate x 24 h",
                  {{"job_gpus", rel.jobGpus}}, relSources);
        addFigure(r, "reliability.job_mtbf_hours", finite(toHours(rel.jobMtbf)), "h", "Job MTBF",
                  "24 / interruptions per day");
        addFigure(r, "reliability.checkpoint_interval_minutes", rel.checkpointInterval.value() / 60.0, "min",
                  "Checkpoint interval", "Daly (2006) optimum from the write time and the rollback MTBF",
                  {{"young_minutes", finite(rel.checkpointIntervalYoung.value() / 60.0)},
                   {"daly_minutes", finite(rel.checkpointIntervalDaly.value() / 60.0)}});
        addFigure(r, "reliability.checkpoint_write_seconds", rel.checkpointWrite.value(), "s",
                  "Checkpoint write",
                  "state bytes / min(aggregate storage bandwidth, GPUs x per-GPU link) (blocking part)");
        addFigure(r, "reliability.lost_gpu_hours_per_day", rel.lostGpuHoursPerDay, "GPU-h/d",
                  "Lost GPU-hours per day", "GPUs x 24 h x (1 - goodput)");
    } else {
        addFigure(r, "reliability.goodput", r.goodput, "", "Goodput", "assumption (no training job to model)",
                  {}, {c.source("goodput")});
    }
    if (!r.training.empty()) {
        const auto& t = r.training.front();
        addFigure(r, "training.time_days", toDays(t.estimate.time), "d", "Time to train",
                  "6·N·D / (GPUs x peak x MFU x goodput) x scale-across slowdown",
                  {{"flops", t.estimate.flops}, {"slowdown", t.estimate.scaleAcrossSlowdown}},
                  {c.source("mfu"), c.source("goodput")});
        addFigure(r, "training.run_cost_usd", t.runCost.value(), "USD", "Run cost",
                  "hours x GPUs x cost per GPU-hour");
        addFigure(r, "training.cost_per_million_tokens_usd", t.costPerMillionTokens, "USD/M tok",
                  "$/M training tokens", "run cost / (tokens / 1e6)");
    }
}

} // namespace ctwin::cost::detail
