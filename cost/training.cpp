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
} // namespace

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
    if (in.experts > 1 && in.activeExperts > 0 && in.ep > 1 && positiveFinite(in.hiddenSize) &&
        positiveFinite(in.moeLayers)) {
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
        const double up = in.scaleUpBandwidth.value(), out = in.scaleOutBandwidth.value();
        const double upTime = inDomain > 0 ? (up > 0 ? bytes * inDomain / up : 0.0) : 0.0;
        const double outTime = inDomain < 1 ? (out > 0 ? bytes * (1.0 - inDomain) / out : 0.0) : 0.0;
        const double comm = std::max(upTime, outTime);
        if (std::isfinite(comm) && comm > 0) {
            e.stepExpertCommTime = units::seconds(comm);
            const double exposed = comm * (1.0 - std::clamp(in.expertCommOverlap, 0.0, 1.0));
            e.stepExpertExposedTime = units::seconds(exposed);
            busyCompute += exposed;
        }
    }

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
    e.stepTime = e.stepPipelineTime;

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
        // earlier microbatches only accumulate. t_b: one microbatch's backward on one stage, the backward
        // share (4N of 6N FLOPs, Kaplan et al. 2020) of its busy compute.
        const double tb = std::clamp(in.backwardShare, 0.0, 1.0) * busyCompute / m;
        // Gradients become final in n pieces of G/n, one per model chunk (per-chunk, Megatron-Core's
        // overlap_grad_reduce) or pipeline rank (per-stage), as the last microbatch's backward runs through
        // the p·v chunks from the last layers to the first, t_b/v each (Narayanan et al. 2021, fig. 4): chunk
        // pieces are t_b/v apart; a rank's piece is final only with its first chunk, so the p rank pieces are
        // t_b/v apart too and carry v chunks each. Each piece streams during its own last backward w = t_b/v.
        // One WAN link serves them in order (fluid queue): it finishes at max_k(−kΔ − w + (k+1)·X/n) =
        // max(X/n, X − (n−1)Δ) − w after the step's last backward, X the transfer time; the latencies follow.
        // Last-microbatch sync: n = 1, w = t_b.
        double n = 1, spacing = 0, window = tb;
        if (in.wanSync == WanSync::PerStage) {
            n = p, spacing = tb / v, window = tb / v;
        } else if (in.wanSync == WanSync::PerChunk) {
            n = p * v, spacing = tb / v, window = tb / v;
        }
        const double finish = std::max(transfer / n, transfer - (n - 1.0) * spacing) - window;
        const double stall = std::max(0.0, finish + (stepWan - transfer));
        e.wanOverlapWindow = units::seconds(std::max(0.0, stepWan - stall));
        e.stepTime = units::seconds(stepPipeline + stall);
        e.scaleAcrossSlowdown = e.stepTime.value() / stepPipeline;
    }
    // End-to-end MFU: busy MFU × (1 - bubble) / slowdown.
    // The exposed all-to-all stretches every step by the same factor.
    const double expert = busyFlops > 0 ? busyCompute / busyFlops : 1.0;
    e.expertSlowdown = expert;
    e.effectiveMfu =
        in.mfu / recompute / expert / (1.0 - refBubble) * (1.0 - e.pipelineBubble) / e.scaleAcrossSlowdown;

    // time = 6·N·D / (GPUs × dense peak × MFU × goodput) × (1 - b_ref)/(1 - b) × slowdown (SPEC.md §4.7).
    e.time = units::seconds(e.flops / (sustained * in.goodput) * expert * (1.0 - refBubble) /
                            (1.0 - e.pipelineBubble) * e.scaleAcrossSlowdown);
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
