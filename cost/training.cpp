#include "training.h"

#include "catalog_item.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost {

namespace {
bool positiveFinite(double x) {
    return std::isfinite(x) && x > 0;
}
bool nonNegativeFinite(double x) {
    return std::isfinite(x) && x >= 0;
}
/// An efficiency in (0, 1]; anything else (0, negative, NaN: an input the loaders refuse) counts as 1.
double efficiencyOrOne(double x) {
    return positiveFinite(x) ? std::min(1.0, x) : 1.0;
}
/// ln t! for a whole t >= 0: the sum of logs below 16, Stirling's series above (Abramowitz & Stegun 6.1.41,
/// ln Γ(t+1) = t ln t − t + ln(2πt)/2 + 1/(12t) − 1/(360t³) + O(t⁻⁵): error below 1e-9 from t = 16).
/// std::lgamma is avoided: glibc's writes the global signgam, a data race under the parallel explore.
double logFactorial(double t) {
    if (t < 16) {
        double sum = 0;
        for (int i = 2; i <= static_cast<int>(t); ++i)
            sum += std::log(static_cast<double>(i));
        return sum;
    }
    constexpr double kTwoPi = 6.283185307179586;
    return t * std::log(t) - t + 0.5 * std::log(kTwoPi * t) + 1.0 / (12.0 * t) - 1.0 / (360.0 * t * t * t);
}
/// When n equal pieces of a transfer taking `transfer` seconds on one link are released `spacing` apart, the
/// last `window` before the step's last backward ends, the link finishes max(X/n, X − (n−1)Δ) − w after it
/// (fluid queue; see the scale-across block of estimateTraining): the step stalls that long, or not at all.
double releaseStall(double transfer, double n, double spacing, double window) {
    return std::max(0.0, std::max(transfer / n, transfer - (n - 1.0) * spacing) - window);
}
} // namespace

double expectedMaxLinkLoad(double flowsPerLink, double links) {
    const double lambda = flowsPerLink;
    if (!positiveFinite(lambda)) return 0.0;
    if (!std::isfinite(links) || links <= 1.0) return lambda; // one link carries every flow
    // E[max] = Σ_{t≥0} P(max > t) = Σ_t (1 − F_λ(t)^links) with independent Poisson(λ) loads (Mitzenmacher &
    // Upfal 2005, §5.4). Below t0 = λ − 12√λ the CDF is under 1e-30 (a normal tail of 12σ), so each of those
    // terms is 1: the sum starts at t0 with F(t0 − 1) taken as 0.
    const double t0 = std::max(0.0, std::floor(lambda - 12.0 * std::sqrt(lambda)));
    double expected = t0;
    double logPmf = -lambda + t0 * std::log(lambda) - logFactorial(t0); // ln P(X = t0)
    double cdf = 0;
    // Bounded: the terms fall below 1e-14 within ~(12 + √(2 ln links) + 3)σ above t0; the limit stops a
    // pathological input (λ ~ 1e12) after 40√λ + 400 steps.
    const double steps = 40.0 * std::sqrt(lambda) + 400.0;
    for (double t = t0; t < t0 + steps; t += 1.0) {
        const double pmf = std::exp(logPmf);
        // Above the mean the remaining terms sum to at most links x P(X > t) < links x pmf x t/(t − λ + 1):
        // stop once that is below 1e-14 (the CDF itself cannot resolve tails below its rounding, 1e-16).
        if (t > lambda + 1.0 && links * pmf * t / (t - lambda) < 1e-14) break;
        cdf = std::min(1.0, cdf + pmf);
        expected += -std::expm1(links * std::log(cdf)); // 1 − F^links, accurate when F is near 1
        logPmf += std::log(lambda) - std::log(t + 1.0);
    }
    return expected;
}

double collectiveEfficiency(Routing routing, double flowsPerPort, double endpointsPerLeaf,
                            double uplinksPerLeaf, double modeEfficiency) {
    if (!positiveFinite(endpointsPerLeaf) || !positiveFinite(uplinksPerLeaf)) return 1.0;
    // Uplink bandwidth over the downlink bandwidth it serves: ports of one speed (the Clos sizing counts
    // uplinks in endpoint ports), so u/d = 1/oversubscription.
    const double upOverDown = uplinksPerLeaf / endpointsPerLeaf;
    if (routing != Routing::Ecmp) return efficiencyOrOne(modeEfficiency) * std::min(1.0, upOverDown);
    const double f = positiveFinite(flowsPerPort) ? flowsPerPort : 1.0;
    // Each of the d·f flows asks 1/f of a port; the hottest of the u uplinks carries L_max of them and gives
    // each 1/L_max: the step runs at min(1, f / E[L_max]) of line rate (E[L_max] for λ = d·f/u per uplink).
    const double lmax = expectedMaxLinkLoad(f / upOverDown, uplinksPerLeaf);
    return lmax > 0 ? std::min(1.0, f / lmax) : 1.0;
}

double referenceCollectiveEfficiency() {
    // Meta 2024 (Llama 3), §3.3.1: 16 flows between two GPUs hashed by E-ECMP; 16 GPUs per ToR; 1:1 in a pod.
    return collectiveEfficiency(Routing::Ecmp, 16.0, 16.0, 16.0, 1.0);
}

double trainingFlops(double activeParams, double tokens) {
    // Kaplan et al. 2020, §2.1: C ≈ 6·N·D (forward 2N, backward 4N FLOPs per token; attention and embedding
    // terms neglected, they are small next to 6N at today's model widths).
    return 6.0 * activeParams * tokens;
}

double recomputationTimeFactor(Recomputation mode, double activeParams, double layers,
                               double sequenceLength) {
    // Korthikanti et al. 2023, §5: selective recomputation re-runs the attention core (QKᵀ and softmax·V,
    // 4·B·s²·h FLOPs per layer) against 72·B·s·h²·(1 + s/(6h)) model FLOPs: ε = s / (18h + 3s).
    double eps = 0;
    if (std::isfinite(activeParams) && activeParams > 0 && std::isfinite(layers) && layers > 0 &&
        std::isfinite(sequenceLength) && sequenceLength > 0) {
        const double h = std::sqrt(activeParams / (12.0 * layers)); // N ≈ 12·L·h² (Kaplan et al. 2020)
        eps = sequenceLength / (18.0 * h + 3.0 * sequenceLength);
    }
    switch (mode) {
    case Recomputation::None:
        return 1.0 / (1.0 + eps);
    case Recomputation::Selective:
        return 1.0;
    case Recomputation::Full:
        return (4.0 / 3.0) / (1.0 + eps); // a second forward pass: 8N of 6N per token (HFU/MFU = 4/3)
    }
    return 1.0;
}

namespace {

/// Seconds of expert-parallel all-to-all (dispatch + combine) a step cannot hide behind compute; fills the
/// estimate's expert communication figures. 0 without expert parallelism.
double expertAllToAll(const TrainingInput& in, double batchTokens, TrainingEstimate& e) {
    if (!(in.experts > 1 && in.activeExperts > 0 && in.ep > 1 && positiveFinite(in.hiddenSize) &&
          positiveFinite(in.moeLayers)))
        return 0.0;
    const double ep = in.ep, tp = std::max(1, in.tp), pp = std::max(1, in.pp), dp = std::max(1.0, in.dp);
    const double k = std::min(in.activeExperts, in.experts);
    const double bytesPerTokenLayer =
        (std::max(0.0, in.dispatchBytes) + std::max(0.0, in.combineBytes) + 4.0) * k * in.hiddenSize *
        (ep - 1.0) / ep;
    const double bytes = batchTokens / (dp * tp) * (in.moeLayers / pp) * bytesPerTokenLayer;
    // Peers in the domain: the tp·ep group up to the domain's size; the others over scale-out.
    const double group = tp * ep;
    const double inDomain =
        std::clamp(in.scaleUpDomainGpus > 0 ? in.scaleUpDomainGpus / group : 0.0, 0.0, 1.0);
    e.expertScaleOutShare = 1.0 - inDomain;
    const double up = in.scaleUpBandwidth.value();
    const double out = in.scaleOutBandwidth.value() * efficiencyOrOne(in.alltoallEfficiency);
    const double upTime = inDomain > 0 ? (up > 0 ? bytes * inDomain / up : 0.0) : 0.0;
    const double outTime = inDomain < 1 ? (out > 0 ? bytes * (1.0 - inDomain) / out : 0.0) : 0.0;
    const double comm = std::max(upTime, outTime);
    if (std::isfinite(comm) && comm > 0) {
        e.stepExpertCommTime = units::seconds(comm);
        const double exposed = comm * (1.0 - std::clamp(in.expertCommOverlap, 0.0, 1.0));
        e.stepExpertExposedTime = units::seconds(exposed);
        return exposed;
    }
    return 0.0;
}

} // namespace

TrainingEstimate estimateTraining(const TrainingInput& in) {
    TrainingEstimate e; // times zero, slowdown 1, feasible false
    const double peak = in.peakFlopsPerGpu.value();
    // An impossible run reports feasible = false with finite zero times rather than NaN or infinity, so
    // the dashboards and sweeps that read it never have to special-case non-finite numbers.
    if (!positiveFinite(in.gpus) || !positiveFinite(peak) || !positiveFinite(in.mfu) ||
        !positiveFinite(in.goodput) || !nonNegativeFinite(in.activeParams) || !nonNegativeFinite(in.tokens) ||
        in.sites < 1)
        return e;
    e.flops = trainingFlops(in.activeParams, in.tokens);

    // Sustained model FLOP/s of the whole job: GPUs × dense peak × MFU (SPEC.md §4.7; MFU as defined by
    // Chowdhery et al., "PaLM", 2022, appendix B). Goodput is applied to wall-clock time below, not to the
    // step, because failures and restarts stall whole steps rather than slowing each one.
    // Recomputation changes hardware FLOPs, not model FLOPs: the sustained model FLOP/s falls by its factor.
    const double recompute = positiveFinite(in.recomputeFactor) ? in.recomputeFactor : 1.0;
    const double sustained = in.gpus * peak * in.mfu / recompute;
    e.recomputeFactor = recompute;
    const double batchTokens = std::max(0.0, in.globalBatchTokens);
    // The MFU input is an end-to-end figure that already lost mfuPipelineBubble of its time to the bubble;
    // the stages' busy compute per step is that much shorter (busy MFU = MFU / (1 - b_ref)).
    const double refBubble = std::clamp(in.mfuPipelineBubble, 0.0, 0.99);
    double busyCompute = 6.0 * in.activeParams * batchTokens / sustained * (1.0 - refBubble);
    const double busyFlops = busyCompute;
    // Expert-parallel all-to-all (see the header): the MFU reference is a dense run, so it is all extra.
    busyCompute += expertAllToAll(in, batchTokens, e);

    // Microbatches per data-parallel replica: m = B / (L · dp · sequences per microbatch). Below one the
    // batch cannot feed every replica (a design rule); the step is then estimated with one microbatch.
    const double perMicrobatch = std::max(1.0, in.dp) * std::max(1, in.microbatchSequences) * in.sequenceLength;
    // Frameworks split the batch into whole microbatches (Megatron-LM requires global batch divisible by
    // microbatch x dp); a remainder still occupies a whole pipeline slot, so m is rounded up.
    const double exact = positiveFinite(perMicrobatch) ? batchTokens / perMicrobatch : 1.0;
    const double m = std::max(1.0, std::ceil(exact - 1e-9 * std::max(1.0, exact)));
    e.microbatches = m;
    // (Below one microbatch the job_batch_too_small rule speaks instead.)
    e.microbatchesDivide = exact < 1.0 || std::abs(exact - std::round(exact)) <= 1e-9 * exact;
    // Narayanan et al. (SC 2021), §2.2.1-2.2.2: bubble time (p-1)·t per step against m·t (1F1B), (p-1)·t/v
    // with v interleaved chunks per rank; as a share of the step, (p-1)/(v·m + p-1).
    const double p = std::max(1, in.pp), v = std::max(1, in.virtualStages);
    e.pipelineBubble = (p - 1.0) / (v * m + p - 1.0);
    const double stepPipeline = busyCompute / (1.0 - e.pipelineBubble);
    e.stepComputeTime = units::seconds(busyCompute);
    e.stepPipelineTime = units::seconds(stepPipeline);

    // Gradient release through the cooldown (the data-parallel and cross-site exchanges below). t_b: one
    // microbatch's backward on one stage, the backward share (4N of 6N FLOPs, Kaplan et al. 2020) of its
    // busy compute. Gradients become final in n pieces of G/n, one per model chunk (per-chunk,
    // Megatron-Core's overlap_grad_reduce) or pipeline rank (per-stage), as the last microbatch's backward
    // runs through the p·v chunks from the last layers to the first, t_b/v each (Narayanan et al. 2021, fig.
    // 4): chunk pieces are t_b/v apart; a rank's piece is final only with its first chunk, so the p rank
    // pieces are t_b/v apart too and carry v chunks each. Each piece streams during its own last backward w =
    // t_b/v. Last-microbatch sync: n = 1, w = t_b.
    const double tb = std::clamp(in.backwardShare, 0.0, 1.0) * busyCompute / m;
    double n = 1, spacing = 0, window = tb;
    if (in.wanSync == WanSync::PerStage) {
        n = p, spacing = tb / v, window = tb / v;
    } else if (in.wanSync == WanSync::PerChunk) {
        n = p * v, spacing = tb / v, window = tb / v;
    }

    // Routing: the data-parallel and pipeline traffic over the back-end NIC.
    const double nic = in.scaleOutBandwidth.value();
    if (positiveFinite(nic)) {
        // Ring all-reduce within the site: 2·(d−1)/d of the GPU's gradient shard (Patarasuk & Yuan 2009);
        // expert weights are sharded ep ways, the rest (attention, shared layers) only by tp·pp.
        const double d = std::max(1.0, std::max(1.0, in.dp) / std::max(1, in.sites));
        const double shard =
            (in.activeParams + std::max(0.0, in.modelParams - in.activeParams) / std::max(1, in.ep)) /
            (std::max(1, in.tp) * p);
        e.stepDataParallelCommTime =
            units::seconds(std::max(0.0, in.gradientReduceBytesPerParam) * shard * 2.0 * (d - 1.0) / d / nic);
        // Stage to stage: each rank sends one activation forward and one gradient back per microbatch and
        // model chunk, microbatch x sequence x hidden elements split over the tp ranks (Narayanan et al.
        // 2021, §4.1, scatter/gather; the same share with sequence parallelism).
        if (p > 1 && positiveFinite(in.hiddenSize) && positiveFinite(in.sequenceLength))
            e.stepPipelineCommTime = units::seconds(
                2.0 * m * v * std::max(1, in.microbatchSequences) * in.sequenceLength * in.hiddenSize *
                std::max(0.0, in.pipelineActivationBytes) / std::max(1, in.tp) / nic);
    }
    const double eJob = efficiencyOrOne(in.collectiveEfficiency);
    const double eRef = efficiencyOrOne(in.referenceCollectiveEfficiency);
    e.collectiveEfficiency = eJob, e.referenceCollectiveEfficiency = eRef;
    e.alltoallEfficiency = efficiencyOrOne(in.alltoallEfficiency);
    const double ppExposed =
        (1.0 - std::clamp(in.pipelineP2pOverlap, 0.0, 1.0)) * e.stepPipelineCommTime.value();
    const auto exposedAt = [&](double eff) {
        return releaseStall(e.stepDataParallelCommTime.value() / eff, n, spacing, window) + ppExposed / eff;
    };
    // The MFU holds the reference's exposure at its efficiency: the job pays (or gains) the difference. A job
    // on better routing than the reference is faster, never faster than its busy compute.
    const double delta = eJob == eRef ? 0.0 : exposedAt(eJob) - exposedAt(eRef);
    const double stepRouted = std::max(busyCompute, stepPipeline + delta);
    e.stepRoutingDelta = units::seconds(stepRouted - stepPipeline);
    e.routingSlowdown = stepRouted / stepPipeline;
    e.stepTime = units::seconds(stepRouted);

    if (in.sites > 1) {
        const double wanBandwidth = in.wanBandwidth.value();
        // Data parallelism across sites with no link between them cannot synchronize gradients at all; an
        // optimizer step without tokens cannot amortize the exchange either.
        if (!positiveFinite(wanBandwidth) || !(busyCompute > 0)) return e;
        const double s = in.sites;
        // Every parameter's gradient is exchanged, not only the active ones: with MoE all experts train.
        // The larger of the two counts is used so a dense model may leave modelParams at zero.
        const double gradientBytes =
            std::max(0.0, in.gradientBytesPerParam) * std::max(in.modelParams, in.activeParams);
        // Ring all-reduce over S sites: each site sends and receives 2·(S−1)/S of the buffer in 2·(S−1)
        // steps, each step paying one one-way latency (Patarasuk & Yuan, JPDC 69(2), 2009). The bandwidth is
        // the slowest inter-site link, which paces every step of the ring.
        const double latency = std::max(0.0, in.wanOneWayLatency.value());
        const double transfer = gradientBytes * 2.0 * (s - 1.0) / s / wanBandwidth;
        const double stepWan = transfer + 2.0 * (s - 1.0) * latency;
        e.stepWanTime = units::seconds(stepWan);
        // Bucketed all-reduce overlaps the backward pass that produces the gradients (Li et al., VLDB 2020);
        // earlier microbatches only accumulate. The pieces (n, spacing, window above) share one WAN link in
        // order (fluid queue): it finishes at max_k(−kΔ − w + (k+1)·X/n) = max(X/n, X − (n−1)Δ) − w after the
        // step's last backward, X the transfer time; the latencies follow.
        const double finish = std::max(transfer / n, transfer - (n - 1.0) * spacing) - window;
        const double stall = std::max(0.0, finish + (stepWan - transfer));
        e.wanOverlapWindow = units::seconds(std::max(0.0, stepWan - stall));
        e.stepTime = units::seconds(stepRouted + stall);
        e.scaleAcrossSlowdown = e.stepTime.value() / stepRouted;
    }
    // End-to-end MFU: busy MFU × (1 - bubble) / slowdown.
    // The exposed all-to-all stretches every step by the same factor.
    const double expert = busyFlops > 0 ? busyCompute / busyFlops : 1.0;
    e.expertSlowdown = expert;
    e.effectiveMfu = in.mfu / recompute / expert / (1.0 - refBubble) * (1.0 - e.pipelineBubble) /
                     e.routingSlowdown / e.scaleAcrossSlowdown;
    // The compute phase's share of the step (TrainingEstimate::computeShare): everything else waits.
    e.computeShare = e.stepTime.value() > 0 ? std::clamp(busyFlops / e.stepTime.value(), 0.0, 1.0) : 1.0;

    // time = 6·N·D / (GPUs × dense peak × MFU × goodput) × (1 - b_ref)/(1 - b) × slowdowns (SPEC.md §4.7).
    e.time = units::seconds(e.flops / (sustained * in.goodput) * expert * (1.0 - refBubble) /
                            (1.0 - e.pipelineBubble) * e.routingSlowdown * e.scaleAcrossSlowdown);
    e.feasible = true;
    return e;
}

void setExpertLinks(TrainingInput& in, const model::CatalogItem* rack, const model::CatalogItem* acc) {
    if (rack) {
        in.scaleUpDomainGpus = rack->find("scale_up_domain_gpus") ? rack->value("scale_up_domain_gpus")
                               : rack->find("gpus") && rack->find("servers") && rack->value("servers") > 0
                                   ? rack->value("gpus") / rack->value("servers")
                                   : 8.0; // an HGX server's NVLink domain when the rack says neither
        const double nic =
            rack->find("backend_nic_bit_per_s") ? rack->value("backend_nic_bit_per_s") / 8.0 : 0.0;
        const double nics = rack->find("backend_nics") ? rack->value("backend_nics") : 0.0;
        const double gpus = rack->find("gpus") ? rack->value("gpus") : 0.0;
        in.scaleOutBandwidth = units::bytesPerSecond(gpus > 0 && nics > 0 ? nic * nics / gpus : nic);
    }
    // NVLink per direction (NVIDIA quotes both directions together) at the collective efficiency, as the
    // serving model (cost/inference.cpp).
    if (acc && acc->find("scale_up_bandwidth_bytes_per_s"))
        in.scaleUpBandwidth = units::bytesPerSecond(acc->value("scale_up_bandwidth_bytes_per_s") / 2.0 *
                                                    (acc->find("scale_up_collective_efficiency")
                                                         ? acc->value("scale_up_collective_efficiency")
                                                         : 1.0));
}

} // namespace ctwin::cost
