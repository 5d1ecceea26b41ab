#pragma once
#include "units.h"

namespace ctwin::cost {

/// What a pre-training time estimate needs (SPEC.md §4.7).
struct TrainingInput {
    double activeParams = 0;   // N: parameters active per token (MoE: active, dense: all)
    double modelParams = 0;    // all parameters (gradient volume for data parallelism)
    double tokens = 0;         // D
    double gpus = 0;
    units::Frequency peakFlopsPerGpu{}; // dense FLOP/s at the job's precision
    double mfu = 0;            // model FLOPs utilization
    double goodput = 1;        // effective training time ratio (reliability)
    // Scale-across: data parallelism spanning sites.
    int sites = 1;
    units::DataRate wanBandwidth{}; // slowest inter-site link available to the job
    units::Time wanOneWayLatency{};
    double gradientBytesPerParam = 2;  // bf16 gradients
    double globalBatchTokens = 16e6;   // tokens per optimizer step
};

struct TrainingEstimate {
    double flops = 0;                 // 6·N·D
    units::Time stepComputeTime{};    // one optimizer step at full speed
    units::Time stepWanTime{};        // inter-site gradient exchange per step
    double scaleAcrossSlowdown = 1;   // >= 1
    units::Time time{};               // wall-clock time to train
    bool feasible = false;            // false when inputs make the run impossible (no GPUs, zero MFU)
};

/// Training FLOPs = 6·N·D (Kaplan et al., "Scaling Laws for Neural Language Models", 2020, §2.1: forward
/// 2N + backward 4N per token; REFERENCES.md: Llama 3 405B 3.8e25 ≈ 6 × 405B × 15.6T).
double trainingFlops(double activeParams, double tokens);

/// time = 6·N·D / (GPUs × dense peak × MFU × goodput) (SPEC.md §4.7) times the scale-across slowdown:
/// when data parallelism spans S sites, each step exchanges 2·(S-1)/S of the gradient bytes over the WAN
/// (ring all-reduce volume, Patarasuk & Yuan, J. Parallel Distrib. Comput. 69(2), 2009) plus 2(S-1)
/// one-way latencies; the exchange overlaps the step's compute, only the excess stalls it.
TrainingEstimate estimateTraining(const TrainingInput& in);

} // namespace ctwin::cost
