#pragma once
#include <vector>

#include "units.h"

namespace ctwin::cost {

/// One scale-up domain's hardware as the roofline sees it (per GPU figures, domain size) and the fractions
/// of its peaks that serving engines reach (data/catalog/accelerators.json, each sourced with a range).
struct AcceleratorSpec {
    units::Frequency flops{};            // dense FLOP/s per GPU at the serving precision
    units::DataRate hbmBandwidth{};      // per GPU
    units::Bytes hbmCapacity{};          // per GPU
    units::DataRate scaleUpBandwidth{};  // per GPU (NVLink), both directions together as NVIDIA quotes it
    int domainGpus = 8;                  // GPUs in one NVLink domain (8 HGX, 72 NVL72)
    units::Bytes hostMemoryPerGpu{};     // CPU DRAM reachable per GPU (KV offload tier)
    /// Fraction of peak HBM bandwidth that decode kernels (weight GEMVs/GEMMs, paged KV reads) sustain.
    double hbmEfficiency = 1.0;
    /// Fraction of dense peak FLOP/s reached by prefill and by compute-bound decode.
    double computeEfficiency = 1.0;
    /// NCCL bus bandwidth over the per-direction link peak (nccl-tests PERFORMANCE.md definition).
    double collectiveEfficiency = 1.0;
    /// Scale-out (back-end NIC) bandwidth per GPU, for the KV hand-off between disaggregated pools.
    units::DataRate scaleOutBandwidth{};
};

/// The served model as the roofline sees it. Layer groups: `slidingLayers` attend to the last
/// `slidingWindow` tokens only, `linearLayers` keep a constant recurrent state, the rest attend to the full
/// context. A full or sliding layer caches 2·kv_heads·head_dim elements per token (GQA/MHA), or
/// kvLatentDim + kvRopeDim under multi-head latent attention (MLA, kvLatentDim > 0).
struct ServedModel {
    double params = 0;
    double activeParams = 0;
    int layers = 0;
    int kvHeads = 0;
    int headDim = 0;
    double kvBytesPerElement = 2;
    double weightBytesPerParam = 1;
    // Architecture beyond the KV formula (0 = unknown / not used).
    int hiddenSize = 0;
    int attentionHeads = 0;     // query heads
    double qkHeadDim = 0;       // query/key width per head (0 = headDim)
    double vHeadDim = 0;        // value width per head (0 = headDim)
    double kvLatentDim = 0;     // MLA compressed KV width
    double kvRopeDim = 0;       // MLA decoupled RoPE key width
    int slidingLayers = 0;
    double slidingWindow = 0;   // tokens
    int linearLayers = 0;
    double linearStateElements = 0; // recurrent state per linear layer per sequence
    int experts = 0;            // routed experts per MoE layer
    int activeExperts = 0;      // selected per token
};

/// KV cache elements of one token in one full or sliding layer.
double kvElementsPerLayerToken(const ServedModel& m);

/// KV cache (and recurrent state) bytes one sequence holds at `contextTokens`: full layers × context,
/// sliding layers × min(context, window), linear layers × their constant state (SPEC.md §4.8; Pope et al.,
/// MLSys 2023, §2; DeepSeek-V2 §2.1 for MLA; Gemma 3 report §2 for local layers).
units::Bytes kvBytesPerSequence(const ServedModel& m, double contextTokens);

/// KV bytes per token of a context short enough for every window: 2 × (full + sliding layers) × kv_heads ×
/// head_dim × bytes (GQA) or (latent + RoPE) × layers × bytes (MLA); linear layers hold no per-token KV.
units::Bytes kvBytesPerToken(const ServedModel& m);

/// Attention FLOPs of one token attending to `contextTokens` earlier tokens: per full layer
/// 2 · context · heads · (d_qk + d_v) (QKᵀ and the weighted sum of V), sliding layers at min(context,
/// window), linear layers 4 · state elements (state read-out and update). 0 when the heads are unknown.
double attentionFlopsPerToken(const ServedModel& m, double contextTokens);

/// Mean attention FLOPs per token of a causal prefill of `promptTokens`: token i attends to i tokens, so a
/// full layer averages context/2 ("halved for causal"); a sliding layer averages W − W²/(2L) when L > W.
double prefillAttentionFlopsPerToken(const ServedModel& m, double promptTokens);

/// How a replica's GPUs share attention. Tensor: heads (and every weight) sharded, two all-reduces per layer
/// (Megatron-LM). Data: each GPU runs attention and the dense layers for its own sequences, routed experts are
/// sharded (expert parallelism) and tokens travel by all-to-all dispatch/combine (DeepSeek-V3 §3.4); only for an
/// MoE with known experts. Auto: Data for such an MoE, Tensor otherwise.
enum class AttentionParallel { Auto, Tensor, Data };

/// One decode operating point of one model replica of `replicaGpus` GPUs inside a scale-up domain.
struct DecodePoint {
    double batch = 0;
    int replicaGpus = 0;
    bool dataParallelAttention = false;
    units::Time stepTime{};
    units::Time computeTime{}, memoryTime{}, commTime{};
    double tokensPerSecondPerUser = 0;
    double tokensPerSecondPerGpu = 0;
    bool memoryBound = false;
};

/// Weight bytes one GPU of a `replicaGpus` replica holds: tensor-parallel attention shards every weight;
/// data-parallel attention keeps attention and dense layers on every GPU and shards the routed experts.
double weightBytesPerGpu(const ServedModel& m, int replicaGpus, AttentionParallel mode = AttentionParallel::Auto);

/// Largest batch whose KV at `peakContext` fits next to the weights in 90% of the replica's HBM (0 when the
/// weights alone do not fit).
double maxDecodeBatch(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double peakContext,
                      AttentionParallel mode = AttentionParallel::Auto);

/// Decode step = max(compute, memory) + communication (roofline, Williams, Waterman & Patterson 2009):
/// compute = (2·A + attention FLOPs) × batch / (G × peak × computeEfficiency); memory = (weights the batch
/// touches + KV read at `contextTokens`) per GPU / (HBM × hbmEfficiency); communication = two collectives per
/// layer (tensor-parallel all-reduce for a dense model, expert-parallel dispatch + combine for an MoE).
DecodePoint decodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                        double batch, AttentionParallel mode = AttentionParallel::Auto);

/// The largest batch that meets `targetTokensPerSecondPerUser` at this replica size (bisection over whole
/// batches up to maxDecodeBatch); if even batch 1 misses it, batch 1 with `meets` false.
DecodePoint bestDecodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                            double peakContext, double targetTokensPerSecondPerUser, bool& meets,
                            AttentionParallel mode = AttentionParallel::Auto);

/// Replica sizes searched: the divisors of the scale-up domain (so a domain holds whole replicas).
std::vector<int> replicaSizes(int domainGpus);

/// The replica size (or `statedGpus` when > 0), attention mode (both are tried for an MoE with known experts)
/// and batch with the most tokens/s/GPU that meet the per-user target; when none meets it, the fastest point
/// per user. `meets` tells which.
DecodePoint chooseReplica(const ServedModel& m, const AcceleratorSpec& a, double contextTokens, double peakContext,
                          double targetTokensPerSecondPerUser, int statedGpus, bool& meets);

/// The tokens/s/GPU vs tokens/s/user curve of one replica size over batches 1, 2, 4, ... and the largest
/// batch that fits.
std::vector<DecodePoint> decodeCurve(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus,
                                     double contextTokens, double peakContext,
                                     AttentionParallel mode = AttentionParallel::Auto);

/// Prefill is compute-bound: (2·A + causal attention FLOPs at `promptTokens`) per input token at
/// computeEfficiency of peak, per GPU.
double prefillTokensPerSecondPerGpu(const ServedModel& m, const AcceleratorSpec& a, double promptTokens);

/// A service's workload mix and the fleet that serves it.
struct ServiceDemand {
    double inputTokens = 0;   // per request
    double outputTokens = 0;  // per request
    double targetTokensPerSecondPerUser = 0;
    double gpus = 0;
    bool disaggregated = false;
    int tensorParallel = 0;   // stated replica size; 0 = searched
    double concurrentSessions = 0;
    double sessionContextTokens = 0;
    bool offloadDram = false;
    bool offloadNvme = false;
    units::Bytes nvmeCapacity{}; // installed NVMe the service may fill with KV
};

struct ServiceSizing {
    DecodePoint decode;              // operating point meeting the per-user target (or the best one)
    bool meetsTarget = false;
    double prefillTokensPerSecondPerGpu = 0;
    double prefillFraction = 0;      // GPU share of prefill (pool split when disaggregated, GPU-time otherwise)
    double prefillGpus = 0, decodeGpus = 0;
    double requestsPerSecond = 0;
    double inputTokensPerSecond = 0, outputTokensPerSecond = 0;
    // Disaggregated pools: whole scale-up domains each; false when fewer than two domains are given.
    bool poolsFit = true;
    double kvTransferBytesPerRequest = 0; // prefill -> decode hand-off over the scale-out fabric
    bool kvTransferBound = false;         // the hand-off, not prefill compute, limits the prefill pool
    // Long agent sessions: KV bytes kept and where they live.
    units::Bytes kvTotal{}, kvInHbm{}, kvInDram{}, kvInNvme{};
    bool kvFits = true;
    double sessionsServed = 0;       // sessions whose KV fits in HBM + the offload tiers
};

/// Sizes a service: the decode replica and operating point at the target tokens/s/user; the prefill rate;
/// co-located GPUs split by GPU-time, disaggregated ones into whole-domain prefill and decode pools (the
/// split with the most requests/s, the prefill pool also bounded by the KV hand-off over the scale-out
/// NICs); request throughput; and KV placement over HBM -> host DRAM -> installed NVMe.
ServiceSizing sizeService(const ServedModel& m, const AcceleratorSpec& a, const ServiceDemand& d);

} // namespace ctwin::cost
