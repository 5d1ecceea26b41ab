#include "training.h"

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
    const double sustained = in.gpus * peak * in.mfu;
    const double batchTokens = std::max(0.0, in.globalBatchTokens);
    const double stepCompute = 6.0 * in.activeParams * batchTokens / sustained;
    e.stepComputeTime = units::seconds(stepCompute);

    if (in.sites > 1) {
        const double wanBandwidth = in.wanBandwidth.value();
        // Data parallelism across sites with no link between them cannot synchronize gradients at all; an
        // optimizer step without tokens cannot amortize the exchange either.
        if (!positiveFinite(wanBandwidth) || !(stepCompute > 0)) return e;
        const double s = in.sites;
        // Every parameter's gradient is exchanged, not only the active ones: with MoE all experts train.
        // The larger of the two counts is used so a dense model may leave modelParams at zero.
        const double gradientBytes =
            std::max(0.0, in.gradientBytesPerParam) * std::max(in.modelParams, in.activeParams);
        // Ring all-reduce over S sites: each site sends and receives 2·(S−1)/S of the buffer in 2·(S−1)
        // steps, each step paying one one-way latency (Patarasuk & Yuan, JPDC 69(2), 2009). The bandwidth is
        // the slowest inter-site link, which paces every step of the ring.
        const double latency = std::max(0.0, in.wanOneWayLatency.value());
        const double stepWan = gradientBytes * 2.0 * (s - 1.0) / s / wanBandwidth + 2.0 * (s - 1.0) * latency;
        e.stepWanTime = units::seconds(stepWan);
        // The exchange overlaps the step's compute (bucketed gradient all-reduce during the backward pass,
        // Li et al., "PyTorch Distributed", VLDB 2020); only the excess over compute stalls the step.
        e.scaleAcrossSlowdown = std::max(stepCompute, stepWan) / stepCompute;
    }

    // time = 6·N·D / (GPUs × dense peak × MFU × goodput) × slowdown (SPEC.md §4.7).
    e.time = units::seconds(e.flops / (sustained * in.goodput) * e.scaleAcrossSlowdown);
    e.feasible = true;
    return e;
}

} // namespace ctwin::cost
