#pragma once
#include "units.h"

namespace ctwin::model {
struct CatalogItem;
}

namespace ctwin::cost {

/// When a data-parallel gradient exchange across sites may start.
enum class WanSync {
    LastMicrobatch, // the whole gradient after the step's last backward (one window of one microbatch)
    PerStage,       // each pipeline stage's gradients when that stage's last backward ends
    PerChunk,       // each model chunk's gradients when its last backward ends (Megatron-Core default)
};

/// How a fabric spreads flows over its equal-cost paths.
enum class Routing {
    Ecmp,     // static hash of each flow's header onto one uplink (RoCE E-ECMP hashes the QP as well)
    Adaptive, // the switch picks the least-loaded uplink per flowlet or packet (InfiniBand AR, Spectrum-X)
    Spray,    // per-packet spraying over every path, reordered at the NIC (Ultra Ethernet, REPS)
};

/// Expected maximum load of `links` links when flows are hashed onto them at random, `flowsPerLink` per
/// link on average (balls into bins). Stated approximation: the loads as independent Poisson(λ) variables
/// (Mitzenmacher & Upfal, "Probability and Computing", 2005, §5.4, the Poisson approximation of balls and
/// bins; Raab & Steger, "Balls into Bins — A Simple and Tight Analysis", RANDOM 1998, for its asymptotics),
/// E[max] = Σ_{t≥0} (1 − F_λ(t)^links), F_λ the Poisson CDF. Within 3% of the exact multinomial value for
/// 2-64 links and within 0.1% from 4 flows per link (tests/cost/test_training_routing.cpp).
double expectedMaxLinkLoad(double flowsPerLink, double links);

/// Collective bus-bandwidth efficiency of a leaf's uplinks: achieved cross-leaf bandwidth per endpoint port
/// over its line rate, for `endpointsPerLeaf` ports each with `flowsPerPort` concurrent equal flows over
/// `uplinksPerLeaf` uplinks of the same speed. A synchronous collective step ends with its slowest flow; a
/// flow on the leaf's hottest uplink gets 1 / L_max of it, so (flows at line rate ask 1/f each):
/// - ECMP: min(1, f / E[L_max]) with λ = f·d/u flows per uplink over u uplinks (expectedMaxLinkLoad). For a
///   non-blocking leaf this is λ / E[max], the balls-into-bins imbalance; under-subscribed uplinks (Meta's
///   2x RTSW uplinks) lower it, oversubscribed ones raise it.
/// - adaptive and spray: `modeEfficiency` x min(1, u/d) (the load spread evenly, at the mode's measured
///   efficiency).
/// One switch tier (no uplinks) or no endpoints: 1, there is nothing to hash. Only the leaf→spine stage is
/// counted; the spine→core stage of a 3-tier fabric hashes again (left out: most collective traffic of a
/// job placed pod by pod stays in its pod).
double collectiveEfficiency(Routing routing, double flowsPerPort, double endpointsPerLeaf,
                            double uplinksPerLeaf, double modeEfficiency);

/// The MFU reference's collective efficiency: Llama 3 405B's RoCE fabric (Meta, "The Llama 3 Herd of
/// Models", 2024, §3.3.1): E-ECMP with the collective library opening 16 flows between two GPUs, 16 GPUs
/// under each ToR with full bisection bandwidth in a pod (1:1): collectiveEfficiency(Ecmp, 16, 16, 16) =
/// 16 / E[max of 16 Poisson(16)] = 0.683.
double referenceCollectiveEfficiency();

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
    double globalBatchTokens = 16e6;   // tokens per optimizer step (B)
    // Pipeline schedule. The defaults (one replica, one stage, one microbatch) give the
    // step of a model that fits one GPU group with no pipeline.
    double sequenceLength = 0;         // L, tokens; <= 0: one microbatch per replica
    double dp = 1;                     // data-parallel replicas
    int pp = 1;                        // pipeline stages
    int microbatchSequences = 1;       // sequences per microbatch
    int virtualStages = 1;             // model chunks per pipeline rank (1 = 1F1B, > 1 interleaved)
    /// Pipeline bubble already inside `mfu` (a published MFU is measured end to end on a pipelined run);
    /// the job's own bubble replaces it (assumptions.mfu_pipeline_bubble).
    double mfuPipelineBubble = 0;
    /// Share of a microbatch's compute in the backward pass: 4N of 6N FLOPs per token (Kaplan et al. 2020).
    double backwardShare = 2.0 / 3.0;
    /// Activation recomputation: hardware FLOPs per model FLOP relative to the MFU
    /// reference (recomputationTimeFactor). 1: the reference's selective recomputation.
    double recomputeFactor = 1.0;
    /// When the cross-site gradient exchange may start (WanSync); per chunk as Megatron-Core ships it.
    WanSync wanSync = WanSync::PerChunk;
    // ---- Mixture of experts; experts <= 1 or ep <= 1: no all-to-all ----
    int experts = 0, activeExperts = 0; // routed experts per MoE layer, selected per token (top-k)
    double hiddenSize = 0;              // h, elements per token activation
    double moeLayers = 0;               // layers with routed experts
    int tp = 1, ep = 1;
    /// Bytes per activation element sent forward (dispatch) and back (combine); gradients go in BF16.
    double dispatchBytes = 2, combineBytes = 2;
    double scaleUpDomainGpus = 0;        // GPUs one NVLink domain joins
    units::DataRate scaleUpBandwidth{};  // per GPU, per direction, achieved
    units::DataRate scaleOutBandwidth{}; // per GPU back-end NIC, achieved
    double expertCommOverlap = 0;        // share of the all-to-all hidden behind compute (0..1)
    // ---- Back-end routing; the defaults (both efficiencies 1) change nothing ----
    /// Collective bus-bandwidth efficiency of the job's back-end fabric for its data-parallel and pipeline
    /// traffic (collectiveEfficiency) and that of the MFU reference's fabric: the MFU already contains the
    /// reference's communication at its efficiency, so only the difference is charged.
    double collectiveEfficiency = 1, referenceCollectiveEfficiency = 1;
    /// The same for the expert all-to-all's scale-out part (more flows per port: one per remote peer). The
    /// MFU reference is dense, so this one is absolute.
    double alltoallEfficiency = 1;
    double gradientReduceBytesPerParam = 2; // BF16 gradients reduced over the data-parallel group
    double pipelineActivationBytes = 2;     // BF16 activations and their gradients between stages
    double pipelineP2pOverlap = 0;          // share of the stage-to-stage sends hidden behind compute (0..1)
};

/// Activation recomputation modes (Korthikanti et al., "Reducing Activation Recomputation in Large
/// Transformer Models", MLSys 2023).
enum class Recomputation { None, Selective, Full };

/// Hardware FLOPs over those of selective recomputation, the convention of the MFU assumption (Megatron's
/// default with sequence parallelism; Llama 3 does not publish its setting). Per layer and microbatch of
/// B sequences of s tokens, hidden h (Korthikanti et al. 2023, §5 and Eq. 8): model FLOPs
/// 72·B·s·h²·(1 + s/(6h)); selective adds the attention core's forward 4·B·s²·h, a share
/// ε = s / (18h + 3s) of the model FLOPs; full recomputation adds the whole forward, +1/3 (HFU/MFU = 4/3).
/// Factor: none 1/(1+ε), selective 1, full (4/3)/(1+ε). h is taken from h = sqrt(N / (12·L)) (N
/// parameters per token, L layers; Kaplan et al. 2020, §2.1: N ≈ 12·L·h²); unknown layers give ε = 0.
double recomputationTimeFactor(Recomputation mode, double activeParams, double layers, double sequenceLength);

struct TrainingEstimate {
    double flops = 0;                 // 6·N·D
    units::Time stepComputeTime{};    // one optimizer step at full speed, with the exposed expert all-to-all
    units::Time stepWanTime{};        // inter-site gradient exchange per step
    double microbatches = 1; // m: whole microbatches per replica per step, ceil(B / (L·dp·microbatch))
    bool microbatchesDivide = true;   // B / (L·dp·microbatch) is a whole number (frameworks require it)
    double pipelineBubble = 0;        // share of the pipelined step the stages idle, (p-1)/(v·m + p-1)
    units::Time stepPipelineTime{};   // busy compute / (1 - bubble)
    units::Time wanOverlapWindow{};   // part of the gradient exchange hidden behind compute (stepWan - stall)
    units::Time stepTime{};           // pipelined step + WAN stall
    double scaleAcrossSlowdown = 1;   // stepTime / stepPipelineTime, >= 1
    double recomputeFactor = 1;       // hardware over selective-recomputation FLOPs (TrainingInput)
    units::Time stepExpertCommTime{}; // expert-parallel all-to-all per GPU per step (before overlap)
    units::Time stepExpertExposedTime{}; // its part not hidden behind compute, added to the busy step
    double expertScaleOutShare = 0;      // share of all-to-all peers outside the scale-up domain
    double expertSlowdown = 1;           // (busy compute + exposed all-to-all) / busy compute
    /// Data-parallel gradient exchange and pipeline sends per GPU per step over the back-end NIC at line
    /// rate (before the routing efficiency and overlap).
    units::Time stepDataParallelCommTime{}, stepPipelineCommTime{};
    /// Exposed communication at the job's efficiency minus at the reference's (negative: better routing).
    units::Time stepRoutingDelta{};
    double routingSlowdown = 1; // (pipelined step + routing delta) / pipelined step
    /// The efficiencies applied (TrainingInput, 1 when not a number in (0, 1]).
    double collectiveEfficiency = 1, referenceCollectiveEfficiency = 1, alltoallEfficiency = 1;
    double effectiveMfu = 0; // end-to-end MFU: busy MFU x (1 - bubble) / routing and scale-across slowdowns
    /// Share of the step's wall time the GPUs run its FLOPs (busy compute without the exposed all-to-all /
    /// step time); the rest (pipeline bubble, exposed all-to-all, routing and WAN stalls) is communication
    /// trough. The busy compute still holds the MFU reference's own exposed communication, so the share is
    /// an upper bound (issue 35: the power stage draws the compute phase for it, the trough for the rest).
    double computeShare = 1;
    units::Time time{};               // wall-clock time to train
    bool feasible = false;            // false when inputs make the run impossible (no GPUs, zero MFU)
};

/// Training FLOPs = 6·N·D (Kaplan et al., "Scaling Laws for Neural Language Models", 2020, §2.1: forward
/// 2N + backward 4N per token; REFERENCES.md: Llama 3 405B 3.8e25 ≈ 6 × 405B × 15.6T).
double trainingFlops(double activeParams, double tokens);

/// time = 6·N·D / (GPUs × dense peak × MFU × goodput) (SPEC.md §4.7), corrected for the job's pipeline
/// bubble, times the scale-across slowdown.
/// - Pipeline bubble (Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters
///   Using Megatron-LM", SC 2021, §2.2): with p stages, m microbatches per replica and v model chunks per
///   rank the stages idle (p-1)/(v·m + p-1) of the step (1F1B: v = 1). The MFU input already contains the
///   bubble of the run it was measured on (mfuPipelineBubble), so time scales by (1-b_ref)/(1-b).
/// - Scale-across: when data parallelism spans S sites, each step exchanges 2·(S-1)/S of the gradient
///   bytes over the WAN (ring all-reduce volume, Patarasuk & Yuan, J. Parallel Distrib. Comput. 69(2),
///   2009) plus 2(S-1) one-way latencies. The exchange can only overlap the backward pass of the last
///   microbatch (gradients of earlier microbatches are still being accumulated; Li et al., "PyTorch
///   Distributed", VLDB 2020, §3.2.3-3.2.4 on bucketing during backward and no_sync accumulation), i.e.
///   backwardShare x busy compute / m; the rest stalls the step.
/// - Mixture of experts: each token's activation goes to its k experts and back, forward (dispatch in the
///   compute precision, combine in BF16) and backward (BF16 both ways): (d + c + 4)·k·h bytes per token per
///   MoE layer, of which (ep-1)/ep leave the rank (Lepikhin et al., "GShard", 2020, §2; DeepSeek-AI,
///   "DeepSeek-V3 Technical Report", 2024, §3.2.2 and §3.3: FP8 dispatch, BF16 combine). A GPU carries
///   B/(dp·tp) tokens (sequence parallel) through moeLayers/pp layers per step. Peers inside the scale-up
///   domain (tp·ep GPUs, up to the domain) are reached over NVLink, the rest over the back-end NIC; the
///   slower path sets the time. The part not overlapped (expertCommOverlap) lengthens the busy step. The
///   back-end path runs at alltoallEfficiency of the NIC.
/// - Routing: per GPU and step, the data-parallel gradient exchange (ring all-reduce,
///   2·(d−1)/d of its gradient shard, d = dp / sites replicas in its site, shard = (active + (all − active)
///   / ep) / (tp·pp) parameters; Patarasuk & Yuan 2009) is released piece by piece through the cooldown as
///   the WAN exchange (wanSync) and stalls the step by max(0, max(X/n, X − (n−1)Δ) − w); the pipeline
///   sends 2·m·v messages of microbatch × sequence × hidden / tp activations (forward activations and
///   backward gradients, split over the TP ranks; Narayanan et al. 2021, §4.1), of which
///   1 − pipelineP2pOverlap is exposed. Both at NIC rate × efficiency; the step pays the exposed time at
///   the job's efficiency minus that at the reference's (routingSlowdown).
TrainingEstimate estimateTraining(const TrainingInput& in);

/// The links an expert all-to-all uses, from the catalog: the rack type's scale-up domain
/// (scale_up_domain_gpus, else GPUs per server, else 8) and back-end NIC bandwidth per GPU; the accelerator's
/// NVLink bandwidth per direction at its collective efficiency. A null item leaves its fields unchanged.
void setExpertLinks(TrainingInput& in, const model::CatalogItem* rack, const model::CatalogItem* accelerator);

} // namespace ctwin::cost
