#pragma once
#include <string>
#include <vector>

#include "units.h"

namespace ctwin::cost {

/// The serving engine's costs beyond the roofline and its batch cap (data/catalog/serving_engines.json, one
/// item per engine: vLLM, SGLang, TensorRT-LLM, Dynamo; each value sourced with a range). Zero = none.
struct EngineProfile {
    /// Per decode iteration: scheduling, input preparation, sampling and the host sync that GPU work does
    /// not hide.
    double stepOverheadSeconds = 0;
    /// Per transformer layer per iteration: kernel-launch gaps and small-kernel tails the roofline misses.
    double layerOverheadSeconds = 0;
    /// Per running sequence per iteration and scheduler: host bookkeeping that grows with the batch.
    double sequenceOverheadSeconds = 0;
    /// Sequences one scheduler runs at once (vLLM max_num_seqs, SGLang max_running_requests, TensorRT-LLM
    /// max_batch_size); under data-parallel attention every GPU has its own scheduler. 0 = no cap.
    double maxBatchPerScheduler = 0;
    /// Fraction of peak HBM bandwidth the engine's grouped expert GEMMs sustain while decoding (routed-expert
    /// weight reads of an MoE). 0 = the accelerator's dense decode fraction (AcceleratorSpec::hbmEfficiency).
    double expertGemmHbmEfficiency = 0;
};

/// One scale-up domain's hardware as the roofline sees it (per GPU figures, domain size) and the fractions
/// of its peaks that serving engines reach (data/catalog/accelerators.json, each sourced with a range).
struct AcceleratorSpec {
    units::Frequency flops{};            // dense FLOP/s per GPU at the weights' (native or mapped) precision
    /// Dense FLOP/s the attention kernels run at: FP8 with an FP8 KV cache on FP8 hardware, else BF16
    /// (FlashAttention-3 and TensorRT-LLM's FP8 attention; no FP4 attention kernels ship). 0 = `flops`.
    units::Frequency attentionFlops{};
    /// Dense FP8 and BF16 peaks per GPU, for the parts of a model kept above the weights' precision
    /// (ServedModel::nonExpertWeightBits). 0 = `flops`.
    units::Frequency fp8Flops{}, bf16Flops{};
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
    /// The serving engine running on it.
    EngineProfile engine{};
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
    /// Bits per weight at which an MoE's always-active part (attention projections, dense FFNs, shared
    /// experts, embeddings) is kept when its routed experts are quantized further: FP4 releases quantize the
    /// experts only (nvidia/DeepSeek-R1-FP4; gpt-oss's MXFP4 experts beside BF16 attention). That part is
    /// stored and multiplied at the higher of this and weightBytesPerParam's precision. 0 = as the experts.
    double nonExpertWeightBits = 0;
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

/// Decode attention FLOPs of one token at `contextTokens`: as attentionFlopsPerToken, except that MLA decodes
/// in the absorbed form (DeepSeek-V2 §2.1.2, "absorb W^UK into W^Q and W^UV into W^O"; FlashMLA): every
/// query head scores the (latent + RoPE)-wide cached vector and sums latent-wide values, so a full layer costs
/// 2 · context · heads · (2 · latent + rope) instead of the expanded heads · (d_qk + d_v).
double decodeAttentionFlopsPerToken(const ServedModel& m, double contextTokens);

/// How much more routed work the busiest of `replicaGpus` expert-parallel ranks receives than the mean:
/// 1 + CV/√(experts per rank) · √(2 ln G), the normal extreme over G ranks of a load summed over E/G experts
/// whose per-expert coefficient of variation is measured without a load balancer (TensorRT-LLM tech blog 4,
/// Table 1; cost/inference.cpp kExpertLoadCv). 1 for a dense model or one GPU. DeepSeek-V3 on 8 GPUs: 1.61.
double expertHotRankFactor(const ServedModel& m, int replicaGpus);

/// Mean attention FLOPs per new token of a prefill whose first promptTokens − newTokens are cached
/// (newTokens < 0 = all new): the difference of the two causal totals over the new tokens.
double newTokenAttentionFlops(const ServedModel& m, double promptTokens, double newTokens);

/// Mean attention FLOPs per token of a causal prefill of `promptTokens`: token i attends to i tokens, so a
/// full layer averages context/2 ("halved for causal"); a sliding layer averages W − W²/(2L) when L > W.
double prefillAttentionFlopsPerToken(const ServedModel& m, double promptTokens);

/// How a replica's GPUs share attention. Tensor: heads (and every weight) sharded, two all-reduces per layer
/// (Megatron-LM). Data: each GPU runs attention and the dense layers for its own sequences, routed experts are
/// sharded (expert parallelism) and tokens travel by all-to-all dispatch/combine (DeepSeek-V3 §3.4); only for an
/// MoE with known experts. Auto: Data for such an MoE, Tensor otherwise.
enum class AttentionParallel { Auto, Tensor, Data };

/// Why `replicaGpus` GPUs cannot hold one replica of `m` in `mode` the way serving engines shard it (empty =
/// they can): tensor parallelism must divide the query heads and either divide the KV heads or be a multiple
/// of them (KV heads are then replicated, as vLLM and TensorRT-LLM do); expert parallelism must divide the
/// routed experts (vLLM, SGLang and TensorRT-LLM place whole experts, equally many per rank).
std::string replicaShapeProblem(const ServedModel& m, int replicaGpus, AttentionParallel mode);

/// One decode operating point of one model replica of `replicaGpus` GPUs inside a scale-up domain.
struct DecodePoint {
    double batch = 0;
    int replicaGpus = 0;
    bool dataParallelAttention = false;
    units::Time stepTime{};
    /// Step parts: matrix and attention compute, weight and KV reads, collectives, engine overhead.
    units::Time computeTime{}, memoryTime{}, commTime{}, overheadTime{};
    /// The speed a user sees: 1 / step, stretched by co-located prefill (prefillShare) when it shares the GPUs.
    double tokensPerSecondPerUser = 0;
    /// Decode tokens/s per GPU while decoding (batch / (step × GPUs)); prefill's GPU time is not in it.
    double tokensPerSecondPerGpu = 0;
    /// Share of the replica's GPU time that co-located prefill chunks take (0 when decode runs alone).
    double prefillShare = 0;
    bool memoryBound = false;
};

/// Weight bytes one GPU of a `replicaGpus` replica holds: tensor-parallel attention shards every weight;
/// data-parallel attention keeps attention and dense layers on every GPU and shards the routed experts.
double weightBytesPerGpu(const ServedModel& m, int replicaGpus, AttentionParallel mode = AttentionParallel::Auto);

/// Largest batch whose KV at `peakContext` fits next to the weights in 90% of the replica's HBM (0 when the
/// weights alone do not fit), and no more than the engine admits (EngineProfile::maxBatchPerScheduler per
/// scheduler: one per replica, one per GPU under data-parallel attention).
double maxDecodeBatch(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double peakContext,
                      AttentionParallel mode = AttentionParallel::Auto);

/// Decode step, per operator group (roofline of each kernel, Williams, Waterman & Patterson 2009; summed as in
/// Yuan et al., "LLM Inference Unveiled: Survey and Roofline Model Insights", arXiv:2402.16363, 2024):
/// max(matrix compute, weight reads) + max(attention compute, KV reads) + communication + engine overhead.
/// Matrix compute = 2·A × batch / (G × peak × computeEfficiency); attention compute = attention FLOPs at
/// `contextTokens` × batch / (G × attention peak × computeEfficiency); reads per GPU / (HBM × hbmEfficiency);
/// communication = two collectives per layer (tensor-parallel all-reduce, or expert-parallel dispatch +
/// combine); overhead = step + layers × per-layer + sequences per scheduler × per-sequence (EngineProfile).
DecodePoint decodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                        double batch, AttentionParallel mode = AttentionParallel::Auto);

/// What a decode operating point must respect besides HBM and the engine's cap.
struct DecodeLimits {
    double targetTokensPerSecondPerUser = 0;
    /// Co-located chunked prefill (Agrawal et al., "Sarathi-Serve", OSDI 2024): prefill chunks ride in the
    /// same iterations as decode, so a user's tokens arrive (1 − prefill share) as fast as decode alone runs
    /// (withPrefillInterference). false = decode runs alone (a disaggregated decode pool).
    bool coLocatedPrefill = false;
    double promptTokens = 0;     // per request
    double newPromptTokens = 0;  // not prefix-cached
    double outputTokens = 0;     // per request
    /// Sequences in flight over all decode replicas (sessions × requests in flight per session, Little's law)
    /// and the GPUs they share: a replica of g GPUs decodes at most sequences × g / decodeGpus. 0 = unbounded.
    double sequencesInFlight = 0;
    double decodeGpus = 0;
};

/// GPU-seconds of the replica that one request's co-located prefill costs while the replica decodes `batch`
/// sequences of `outputTokens` each: the new tokens at prefillTokensPerSecondPerGpu, plus, under data-parallel
/// attention, the lockstep stall. Each rank runs its own requests' attention and dense layers, but the expert
/// all-to-all makes every iteration as long as its slowest rank ("the iteration time is dominated by the
/// slowest rank", TensorRT-LLM tech blog 10, "ADP Balance Strategy"), so while one rank computes a prompt's
/// dense part for t₁ seconds the other G − 1 wait. Contexts start at λ = batch / outputTokens per iteration;
/// with Poisson arrivals an iteration that holds a context holds λ / (1 − e^−λ) of them on different ranks,
/// so a context costs max(1, G · (1 − e^−λ) / λ) · t₁ GPU-seconds for its dense part instead of t₁.
/// batch 0 (no decode shares the replica, as in a disaggregated prefill pool): the prompt's own GPU-seconds.
double coLocatedPrefillSeconds(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus,
                               AttentionParallel mode, double promptTokens, double newTokens, double outputTokens,
                               double batch);

/// `p` with co-located prefill interference applied: with P = prefill GPU-seconds per request and O output
/// tokens, the prefill share of GPU time is P / (P + O / p.tokensPerSecondPerGpu) and a user sees
/// (1 − share) / step tokens/s. P = 0 leaves `p` as decode alone.
DecodePoint withPrefillInterference(DecodePoint p, double prefillGpuSecondsPerRequest, double outputTokens);

/// The largest batch that meets the per-user target at this replica size (bisection over whole batches up to
/// maxDecodeBatch and the sessions' cap); if even batch 1 misses it, batch 1 with `meets` false.
DecodePoint bestDecodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                            double peakContext, const DecodeLimits& limits, bool& meets,
                            AttentionParallel mode = AttentionParallel::Auto);

/// Replica sizes searched: the divisors of the scale-up domain (so a domain holds whole replicas).
std::vector<int> replicaSizes(int domainGpus);

/// The replica size (or `statedGpus` when > 0), attention mode (both are tried for an MoE with known experts;
/// shapes replicaShapeProblem refuses are skipped) and batch with the most tokens/s/GPU that meet the
/// per-user target; when none meets it, the fastest point per user. `meets` tells which.
DecodePoint chooseReplica(const ServedModel& m, const AcceleratorSpec& a, double contextTokens, double peakContext,
                          const DecodeLimits& limits, int statedGpus, bool& meets);

/// The tokens/s/GPU vs tokens/s/user curve of one replica size over batches 1, 2, 4, ... and the largest
/// batch that fits.
std::vector<DecodePoint> decodeCurve(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus,
                                     double contextTokens, double peakContext,
                                     AttentionParallel mode = AttentionParallel::Auto);

/// Prefill tokens/s per GPU of a replica of `replicaGpus` GPUs computing the `newTokens` of a
/// `promptTokens` prompt whose first promptTokens − newTokens are prefix-cached (newTokens < 0 = all new).
/// Per token: compute = (2·A + causal attention over the new positions) / (G × peak × computeEfficiency),
/// attention at the attention peak; communication = the same two collectives per layer as decode, per token.
/// Compute and communication overlap (chunked pipelining as in NanoFlow, Zhu et al. OSDI 2025, and
/// TensorRT-LLM's overlapped all-reduce), so the slower sets the pace: max(compute, communication).
double prefillTokensPerSecondPerGpu(const ServedModel& m, const AcceleratorSpec& a, double promptTokens,
                                    int replicaGpus = 1, AttentionParallel mode = AttentionParallel::Auto,
                                    double newTokens = -1);

/// A service's workload mix and the fleet that serves it.
struct ServiceDemand {
    double inputTokens = 0;   // per request (the whole prompt)
    double outputTokens = 0;  // per request
    /// Share of the prompt's tokens found in the prefix cache (earlier turns of the session); prefill
    /// computes only the rest.
    double prefixCacheHitRate = 0;
    double targetTokensPerSecondPerUser = 0;
    double gpus = 0;
    bool disaggregated = false;
    int tensorParallel = 0;   // stated replica size; 0 = searched
    /// Sessions open at once; each has at most one request in flight (an agent waits for its answer), so
    /// they bound the sequences decoding at once. 0 = unbounded.
    double concurrentSessions = 0;
    /// Context a session carries between turns; decode attends to max(prompt, session context).
    double sessionContextTokens = 0;
    bool offloadDram = false;
    bool offloadNvme = false;
    units::Bytes nvmeCapacity{}; // installed NVMe the service may fill with KV
};

struct ServiceSizing {
    DecodePoint decode;              // operating point meeting the per-user target (or the best one)
    bool meetsTarget = false;
    double prefillTokensPerSecondPerGpu = 0; // new (uncached) prompt tokens/s per GPU
    double prefillGpuSecondsPerRequest = 0;  // GPU-seconds one request's prefill takes
    double prefillFraction = 0;      // GPU share of prefill (pool split when disaggregated, GPU-time otherwise)
    double prefillGpus = 0, decodeGpus = 0;
    double requestsPerSecond = 0;
    double inputTokensPerSecond = 0, outputTokensPerSecond = 0;
    // Disaggregated pools: whole scale-up domains each; false when fewer than two domains are given.
    bool poolsFit = true;
    double kvTransferBytesPerRequest = 0; // prefill -> decode hand-off over the scale-out fabric
    bool kvTransferBound = false;         // the hand-off, not prefill compute, limits the prefill pool
    // Long agent sessions: KV bytes kept and where they live.
    /// kvTotal = running batch KV + parked sessions' KV; kvRunning is in HBM by construction.
    units::Bytes kvTotal{}, kvRunning{}, kvInHbm{}, kvInDram{}, kvInNvme{};
    double sequencesDecoding = 0;    // over all decode replicas at the operating point
    bool kvFits = true;
    double sessionsServed = 0;       // sessions whose KV fits in HBM + the offload tiers
};

/// Sizes a service: the decode replica and operating point at the target tokens/s/user; the prefill rate;
/// co-located GPUs split by GPU-time, disaggregated ones into whole-domain prefill and decode pools (the
/// split with the most requests/s, the prefill pool also bounded by the KV hand-off over the scale-out
/// NICs); request throughput; and KV placement over HBM -> host DRAM -> installed NVMe.
ServiceSizing sizeService(const ServedModel& m, const AcceleratorSpec& a, const ServiceDemand& d);

} // namespace ctwin::cost
