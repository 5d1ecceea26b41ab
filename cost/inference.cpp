#include "inference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ctwin::cost {

namespace {

bool positiveFinite(double x) {
    return std::isfinite(x) && x > 0;
}

// Share of a GPU's HBM that weights and KV cache may fill; the rest is reserved for activations,
// the runtime's workspace and allocator fragmentation (*estimate*: serving engines such as vLLM default to
// using 90% of GPU memory, `gpu_memory_utilization = 0.9`).
constexpr double kUsableHbmFraction = 0.9;

// Latency of one small-message collective across an NVLink domain (*estimate*: a few microseconds for
// NCCL small-message all-reduce over NVLink/NVSwitch; 5 µs is the order the NCCL tests report on HGX H100).
constexpr double kCollectiveLatencySeconds = 5e-6;

// Coefficient of variation of the routed load across one layer's experts without an expert-parallel load
// balancer. From TensorRT-LLM tech blog 4, "Scaling Expert Parallelism in TensorRT-LLM (Part 1)", Table 1
// (DeepSeek-R1 on 32 GB200, EP 32, mean 1,024 routed tokens per rank, no EPLB): the busiest rank receives
// (max − mean)/mean = 1.564 more than the mean. With 8 experts per rank and the normal extreme value
// mean + σ·√(2 ln G) over G = 32 ranks, the per-rank CV is 1.564 / √(2 ln 32) = 0.595 and the per-expert CV
// 0.595 · √8 = 1.68 (a rank's load sums 8 experts). The same table gives 0.109 with EPLB.
constexpr double kExpertLoadCv = 1.68;

// Activations travel between GPUs in BF16 (2 bytes per element), as tensor-parallel all-reduces and MoE
// dispatch/combine do in vLLM/SGLang/TensorRT-LLM by default.
constexpr double kActivationBytes = 2.0;

// d_model when a service names no preset and states no hidden size: 8192, a 70B-class model (the 16 KiB per
// sequence per all-reduce the engine used before presets existed).
constexpr int kFallbackHiddenSize = 8192;

// Upper bound on decode batch sizes, so a model with no KV cache (or a zero context) still yields a finite
// search; far beyond any batch a serving engine schedules on one replica.
constexpr double kMaxDecodeBatch = 1 << 20;

// Parameters touched per token. A dense model may leave activeParams at zero; it never exceeds all params.
double activeParamsOf(const ServedModel& m) {
    return m.activeParams > 0 ? std::min(m.activeParams, m.params) : m.params;
}

double bytesPerParam(const ServedModel& m) {
    return std::max(0.0, m.weightBytesPerParam);
}

// An MoE whose expert counts are known: attention and dense layers (plus shared experts) on every token,
// routed experts on activeExperts/experts of the tokens.
bool knownMoe(const ServedModel& m) {
    return m.experts > 0 && m.activeExperts > 0 && m.activeExperts < m.experts && m.params > activeParamsOf(m);
}

// Split of the parameters into always-active ("dense": attention, dense FFNs, shared experts, embeddings)
// and routed experts. With p = k/E: active = dense + p·experts and total = dense + experts, so
// experts = (total − active) / (1 − p). DeepSeek-V3 (671B, 37B active, 8 of 256): 654.5B routed, 16.5B dense.
struct ParamSplit {
    double dense = 0, routed = 0;
};
ParamSplit paramSplit(const ServedModel& m) {
    if (!knownMoe(m)) return {m.params, 0.0};
    const double p = static_cast<double>(m.activeExperts) / m.experts;
    const double routed = std::min(m.params, (m.params - activeParamsOf(m)) / (1.0 - p));
    return {m.params - routed, routed};
}

// Bytes per parameter of an MoE's always-active part: the higher of the weights' bytes and the bits its
// releases keep there (ServedModel::nonExpertWeightBits); a dense model has no separate part.
double denseBytesPerParam(const ServedModel& m) {
    const double kept = knownMoe(m) && std::isfinite(m.nonExpertWeightBits) ? m.nonExpertWeightBits / 8.0 : 0.0;
    return std::max(bytesPerParam(m), kept);
}

// Dense peak FLOP/s of the always-active part: the peak of its kept precision when that is above the
// weights' (FP8 at 8 bits, BF16 at 16, AcceleratorSpec::fp8Flops / bf16Flops), else the weights' peak.
double densePeak(const ServedModel& m, const AcceleratorSpec& a) {
    if (!(denseBytesPerParam(m) > bytesPerParam(m))) return a.flops.value();
    const double peak = denseBytesPerParam(m) >= 2.0 ? a.bf16Flops.value() : a.fp8Flops.value();
    return peak > 0 ? std::min(peak, a.flops.value()) : a.flops.value();
}

bool dataParallel(const ServedModel& m, AttentionParallel mode) {
    if (!knownMoe(m)) return false;
    return mode != AttentionParallel::Tensor;
}

// How many ways the KV cache is split across a replica's GPUs. Data-parallel attention: each GPU keeps its
// own sequences' KV, G ways. Tensor-parallel attention splits KV by KV head; past kv_heads ranks the heads
// are replicated (vLLM replicates KV heads when TP > num_key_value_heads), and an MLA latent is one head.
double kvShards(const ServedModel& m, int replicaGpus, bool dp) {
    if (dp) return replicaGpus;
    const int heads = m.kvLatentDim > 0 ? 1 : m.kvHeads;
    return heads > 0 ? std::min(replicaGpus, heads) : replicaGpus;
}

// A replica needs GPUs, compute, memory bandwidth, efficiencies and a model; across more than one GPU it
// also needs a scale-up link for its collectives.
bool replicaUsable(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus) {
    return replicaGpus >= 1 && positiveFinite(a.flops.value()) && positiveFinite(a.hbmBandwidth.value()) &&
           positiveFinite(a.computeEfficiency) && positiveFinite(a.hbmEfficiency) && positiveFinite(m.params) &&
           (replicaGpus == 1 || (positiveFinite(a.scaleUpBandwidth.value()) && positiveFinite(a.collectiveEfficiency)));
}

int fullLayers(const ServedModel& m) {
    return std::max(0, m.layers - std::max(0, m.slidingLayers) - std::max(0, m.linearLayers));
}

// Attention width heads × (d_qk + d_v); without heads, 2·d_model (heads × head_dim = d_model in MHA/GQA).
double attentionWidth(const ServedModel& m) {
    if (m.attentionHeads > 0) {
        const double qk = m.qkHeadDim > 0 ? m.qkHeadDim : m.headDim;
        const double v = m.vHeadDim > 0 ? m.vHeadDim : m.headDim;
        return m.attentionHeads * (qk + v);
    }
    return m.hiddenSize > 0 ? 2.0 * m.hiddenSize : 0.0;
}

// Decode attention width under absorbed MLA: heads × (latent + RoPE) for the scores plus heads × latent for
// the value sum (DeepSeek-V2 §2.1.2; FlashMLA); other attention as attentionWidth.
double decodeAttentionWidth(const ServedModel& m) {
    if (m.kvLatentDim > 0 && m.attentionHeads > 0)
        return m.attentionHeads * (2.0 * m.kvLatentDim + std::max(0.0, m.kvRopeDim));
    return attentionWidth(m);
}

double attentionPeak(const AcceleratorSpec& a) {
    return a.attentionFlops.value() > 0 ? a.attentionFlops.value() : a.flops.value();
}

// Engine overhead of one decode iteration (EngineProfile): fixed + per layer + per sequence of the busiest
// scheduler (one per replica, one per GPU under data-parallel attention).
double engineOverhead(const ServedModel& m, const AcceleratorSpec& a, double batch, double schedulers) {
    const EngineProfile& e = a.engine;
    const auto nonNeg = [](double x) { return std::isfinite(x) ? std::max(0.0, x) : 0.0; };
    return nonNeg(e.stepOverheadSeconds) + std::max(0, m.layers) * nonNeg(e.layerOverheadSeconds) +
           batch / std::max(1.0, schedulers) * nonNeg(e.sequenceOverheadSeconds);
}

// Seconds per layer-pair of collectives for `tokens` tokens of one GPU (decode: the batch; prefill: one
// token), without latency: tensor-parallel ring all-reduce moves 2·(G−1)/G of the message per GPU
// (Megatron-LM, Shoeybi et al. 2019, §3); expert-parallel dispatch + combine send each of the GPU's tokens to
// its k experts, (G−1)/G of it off-GPU (DeepSeek-V3 §3.4). Per-direction link at collectiveEfficiency.
double collectiveBytesPerGpu(const ServedModel& m, int replicaGpus, bool dp, double tokensOnReplica) {
    const double g = replicaGpus;
    const double hidden = m.hiddenSize > 0 ? m.hiddenSize : kFallbackHiddenSize;
    return dp ? (tokensOnReplica / g) * m.activeExperts * hidden * kActivationBytes * (g - 1) / g
              : 2.0 * (g - 1) / g * tokensOnReplica * hidden * kActivationBytes;
}

// Active parameters of the routed experts (k of E experts' share of the routed weights); 0 for a dense model.
double routedActiveParams(const ServedModel& m) {
    return knownMoe(m) ? paramSplit(m).routed * static_cast<double>(m.activeExperts) / m.experts : 0.0;
}

double linearStateFlops(const ServedModel& m) {
    // Recurrent (linear-attention / state-space) layer: read-out S·q and the state update touch every
    // state element once each, 2 FLOPs per element per pass (Yang et al., "Gated Delta Networks", ICLR 2025,
    // recurrent form).
    return 4.0 * std::max(0, m.linearLayers) * std::max(0.0, m.linearStateElements);
}

} // namespace

double expertHotRankFactor(const ServedModel& m, int replicaGpus) {
    if (!knownMoe(m) || replicaGpus < 2) return 1.0;
    const double g = replicaGpus;
    const double perRank = std::max(1.0, static_cast<double>(m.experts) / g);
    return 1.0 + kExpertLoadCv / std::sqrt(perRank) * std::sqrt(2.0 * std::log(g));
}

double newTokenAttentionFlops(const ServedModel& m, double promptTokens, double newTokens) {
    const double prompt = std::isfinite(promptTokens) ? std::max(0.0, promptTokens) : 0.0;
    const double fresh = newTokens < 0 || !std::isfinite(newTokens) ? prompt : std::min(newTokens, prompt);
    // Attention of the new tokens only: positions cached..prompt. Total causal attention of L tokens is
    // L × prefillAttentionFlopsPerToken(L), so the new tokens cost the difference of the two totals.
    const double cached = prompt - fresh;
    return fresh > 0 ? (prompt * prefillAttentionFlopsPerToken(m, prompt) -
                        cached * prefillAttentionFlopsPerToken(m, cached)) / fresh
                     : prefillAttentionFlopsPerToken(m, prompt);
}

double kvElementsPerLayerToken(const ServedModel& m) {
    // MLA caches one compressed latent plus a shared decoupled RoPE key per token and layer (DeepSeek-AI,
    // "DeepSeek-V2", arXiv:2405.04434, §2.1.2-2.1.3); GQA/MHA cache a K and a V vector per KV head (Pope et al.,
    // MLSys 2023, §2; Ainslie et al., EMNLP 2023).
    if (m.kvLatentDim > 0) return m.kvLatentDim + std::max(0.0, m.kvRopeDim);
    return 2.0 * std::max(0, m.kvHeads) * std::max(0, m.headDim);
}

units::Bytes kvBytesPerSequence(const ServedModel& m, double contextTokens) {
    const double ctx = std::isfinite(contextTokens) ? std::max(0.0, contextTokens) : 0.0;
    const double window = m.slidingWindow > 0 ? std::min(ctx, m.slidingWindow) : ctx;
    const double perLayerToken = kvElementsPerLayerToken(m);
    // Local (sliding-window) layers keep only the last W tokens (Gemma Team, "Gemma 3 Technical Report",
    // arXiv:2503.19786, §2.1); recurrent layers keep a state whose size does not grow with the context.
    const double elements = fullLayers(m) * ctx * perLayerToken +
                            std::max(0, m.slidingLayers) * window * perLayerToken +
                            std::max(0, m.linearLayers) * std::max(0.0, m.linearStateElements);
    return units::bytes(std::max(0.0, elements * m.kvBytesPerElement));
}

units::Bytes kvBytesPerToken(const ServedModel& m) {
    const double b = (fullLayers(m) + std::max(0, m.slidingLayers)) * kvElementsPerLayerToken(m) *
                     m.kvBytesPerElement;
    return units::bytes(std::max(0.0, b));
}

double attentionFlopsPerToken(const ServedModel& m, double contextTokens) {
    // Per head: QKᵀ costs 2·context·d_qk, softmax(·)V costs 2·context·d_v (Kaplan et al. 2020, Table 1,
    // "2·n_layer·n_ctx·d_attn" per term).
    const double ctx = std::isfinite(contextTokens) ? std::max(0.0, contextTokens) : 0.0;
    const double local = m.slidingWindow > 0 ? std::min(ctx, m.slidingWindow) : ctx;
    return 2.0 * attentionWidth(m) * (fullLayers(m) * ctx + std::max(0, m.slidingLayers) * local) +
           linearStateFlops(m);
}

double decodeAttentionFlopsPerToken(const ServedModel& m, double contextTokens) {
    const double ctx = std::isfinite(contextTokens) ? std::max(0.0, contextTokens) : 0.0;
    const double local = m.slidingWindow > 0 ? std::min(ctx, m.slidingWindow) : ctx;
    return 2.0 * decodeAttentionWidth(m) * (fullLayers(m) * ctx + std::max(0, m.slidingLayers) * local) +
           linearStateFlops(m);
}

double prefillAttentionFlopsPerToken(const ServedModel& m, double promptTokens) {
    const double L = std::isfinite(promptTokens) ? std::max(0.0, promptTokens) : 0.0;
    // Causal mask: token i attends to i tokens, mean L/2 (the "halved for causal" of Kaplan et al. 2020 §2.1
    // and of FlashAttention's FLOP counts). A window W < L: mean of min(i, W) = W − W²/(2L).
    const double W = m.slidingWindow;
    const double local = (W > 0 && L > W) ? W - W * W / (2.0 * L) : L / 2.0;
    return 2.0 * attentionWidth(m) * (fullLayers(m) * (L / 2.0) + std::max(0, m.slidingLayers) * local) +
           linearStateFlops(m);
}

double weightBytesPerGpu(const ServedModel& m, int replicaGpus, AttentionParallel mode) {
    if (replicaGpus < 1) return 0;
    const ParamSplit s = paramSplit(m);
    if (dataParallel(m, mode)) return s.dense * denseBytesPerParam(m) + s.routed / replicaGpus * bytesPerParam(m);
    return (s.dense * denseBytesPerParam(m) + s.routed * bytesPerParam(m)) / replicaGpus;
}

double maxDecodeBatch(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double peakContext,
                      AttentionParallel mode) {
    if (replicaGpus < 1) return 0;
    const double free =
        kUsableHbmFraction * std::max(0.0, a.hbmCapacity.value()) - weightBytesPerGpu(m, replicaGpus, mode);
    if (!(free > 0)) return 0;
    const bool dp = dataParallel(m, mode);
    // The engine's cap: one scheduler per replica, one per GPU under data-parallel attention.
    const double cap = a.engine.maxBatchPerScheduler >= 1
                           ? std::floor(a.engine.maxBatchPerScheduler) * (dp ? replicaGpus : 1)
                           : kMaxDecodeBatch;
    const double kvSeq = kvBytesPerSequence(m, peakContext).value();
    if (!(kvSeq > 0)) return std::min(cap, kMaxDecodeBatch);
    // Per GPU each sequence holds kvSeq / shards bytes.
    return std::min({cap, kMaxDecodeBatch, std::floor(free * kvShards(m, replicaGpus, dp) / kvSeq)});
}

std::string replicaShapeProblem(const ServedModel& m, int replicaGpus, AttentionParallel mode) {
    const std::string g = std::to_string(replicaGpus);
    if (replicaGpus < 1) return "a replica needs at least one GPU";
    if (replicaGpus == 1) return {};
    if (dataParallel(m, mode)) {
        if (m.experts % replicaGpus != 0)
            return "expert parallelism " + g + " does not divide the " + std::to_string(m.experts) +
                   " routed experts";
        return {};
    }
    if (m.attentionHeads > 0 && m.attentionHeads % replicaGpus != 0)
        return "tensor parallelism " + g + " does not divide the " + std::to_string(m.attentionHeads) +
               " attention heads";
    if (m.kvLatentDim <= 0 && m.kvHeads > 0 && m.kvHeads % replicaGpus != 0 && replicaGpus % m.kvHeads != 0)
        return "tensor parallelism " + g + " neither divides the " + std::to_string(m.kvHeads) +
               " KV heads nor is a multiple of them";
    return {};
}

DecodePoint decodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                        double batch, AttentionParallel mode) {
    DecodePoint p;
    p.batch = batch;
    p.replicaGpus = replicaGpus;
    const bool dp = dataParallel(m, mode);
    p.dataParallelAttention = dp;
    if (!replicaUsable(m, a, replicaGpus) || !positiveFinite(batch)) return p;

    const double g = replicaGpus;
    const double active = activeParamsOf(m);
    const double context = std::isfinite(contextTokens) ? std::max(0.0, contextTokens) : 0.0;

    // Matrix compute: 2 FLOPs per active parameter per token (Kaplan et al. 2020, §2.1), shared by the
    // replica's GPUs at computeEfficiency of dense peak at the weights' precision. Attention compute runs at
    // the attention kernels' precision (AcceleratorSpec::attentionFlops), absorbed for MLA.
    const double eff = a.computeEfficiency;
    // Expert parallelism waits for its busiest rank: the routed experts' compute and the dispatch/combine
    // bytes scale by expertHotRankFactor (1 without expert parallelism).
    const double hot = dp ? expertHotRankFactor(m, replicaGpus) : 1.0;
    const double routedActive = routedActiveParams(m);
    // The always-active part runs at its kept precision's peak (densePeak), the routed experts at the weights'.
    const double matrixCompute =
        2.0 * ((active - routedActive) / densePeak(m, a) + routedActive * hot / a.flops.value()) * batch / (g * eff);
    const double attentionCompute = decodeAttentionFlopsPerToken(m, context) * batch / (g * attentionPeak(a) * eff);

    // Memory per GPU: the weights the batch touches, read once per step, and every sequence's KV (Pope et
    // al. 2023, §3). An MoE with known experts reads the routed experts the batch selects: with E experts,
    // k per token, a batch of b touches 1 − (1 − k/E)^b of them in expectation (uniform routing); its dense
    // part is read by every GPU under data-parallel attention, sharded under tensor parallelism. Otherwise a
    // dense model reads all weights, an MoE at most b × active.
    double weightsRead = 0, routedBytes = 0;
    if (knownMoe(m)) {
        const ParamSplit s = paramSplit(m);
        const double touched = 1.0 - std::pow(1.0 - static_cast<double>(m.activeExperts) / m.experts, batch);
        routedBytes = s.routed * touched / g * bytesPerParam(m);
        weightsRead = (dp ? s.dense : s.dense / g) * denseBytesPerParam(m) + routedBytes;
    } else {
        weightsRead = std::min(m.params, batch * active) * bytesPerParam(m) / g;
    }
    const double kvRead = batch * kvBytesPerSequence(m, context).value() / kvShards(m, replicaGpus, dp);
    const double hbm = a.hbmBandwidth.value() * a.hbmEfficiency;
    // Routed experts are read by grouped GEMMs, which sustain less of the peak than dense GEMMs at decode
    // batch sizes (EngineProfile::expertGemmHbmEfficiency); their bytes are timed at that rate.
    const double expertEff = a.engine.expertGemmHbmEfficiency > 0 && std::isfinite(a.engine.expertGemmHbmEfficiency)
                                 ? std::min(1.0, a.engine.expertGemmHbmEfficiency)
                                 : a.hbmEfficiency;
    const double weightSeconds = (weightsRead - routedBytes) / hbm +
                                 (routedBytes > 0 && expertEff > 0
                                      ? routedBytes / (a.hbmBandwidth.value() * expertEff)
                                      : routedBytes / hbm);

    // Communication, two collectives per layer over the per-direction NVLink bandwidth (NVIDIA quotes both
    // directions together) at collectiveEfficiency (NCCL bus bandwidth / link rate: ~370 of 450 GB/s on
    // H100 for ring algorithms, NVIDIA/nccl-tests issue #212), each with a small-message latency
    // (collectiveBytesPerGpu says what moves).
    double comm = 0;
    if (replicaGpus > 1) {
        const double link = a.scaleUpBandwidth.value() / 2.0 * a.collectiveEfficiency;
        comm = 2.0 * std::max(0, m.layers) *
               (kCollectiveLatencySeconds + hot * collectiveBytesPerGpu(m, replicaGpus, dp, batch) / link);
    }

    // Per operator group the slower of compute and memory sets the pace (roofline, Williams, Waterman &
    // Patterson 2009): the weight GEMMs and the attention kernels are separate kernels, so their times add
    // (Yuan et al. 2024, LLM-Viewer); the collectives sit between layers and do not overlap; the engine's
    // host overhead is added per iteration (EngineProfile).
    const double compute = matrixCompute + attentionCompute;
    const double memory = weightSeconds + kvRead / hbm;
    const double overhead = engineOverhead(m, a, batch, dp ? g : 1.0);
    const double step =
        std::max(matrixCompute, weightSeconds) + std::max(attentionCompute, kvRead / hbm) + comm + overhead;
    if (!positiveFinite(step)) return p;
    p.stepTime = units::seconds(step);
    p.computeTime = units::seconds(compute);
    p.memoryTime = units::seconds(memory);
    p.commTime = units::seconds(comm);
    p.overheadTime = units::seconds(overhead);
    p.tokensPerSecondPerUser = 1.0 / step;
    p.tokensPerSecondPerGpu = batch / (step * g);
    p.memoryBound = memory > compute;
    return p;
}

DecodePoint withPrefillInterference(DecodePoint p, double prefillGpuSecondsPerRequest, double outputTokens) {
    if (!(prefillGpuSecondsPerRequest > 0) || !std::isfinite(prefillGpuSecondsPerRequest) ||
        !(p.tokensPerSecondPerGpu > 0) || !(outputTokens > 0) || !(p.stepTime.value() > 0))
        return p;
    const double decodeSeconds = outputTokens / p.tokensPerSecondPerGpu;
    p.prefillShare = prefillGpuSecondsPerRequest / (prefillGpuSecondsPerRequest + decodeSeconds);
    p.tokensPerSecondPerUser = (1.0 - p.prefillShare) / p.stepTime.value();
    return p;
}

double coLocatedPrefillSeconds(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus,
                               AttentionParallel mode, double promptTokens, double newTokens, double outputTokens,
                               double batch) {
    if (!(newTokens > 0) || !std::isfinite(newTokens)) return 0;
    const double rate = prefillTokensPerSecondPerGpu(m, a, promptTokens, replicaGpus, mode, newTokens);
    if (!(rate > 0)) return 0;
    const double own = newTokens / rate;
    if (!dataParallel(m, mode) || replicaGpus < 2 || !(outputTokens > 0) || !(batch > 0)) return own;
    // The prompt's dense part on its own rank: every parameter but the routed experts' active share, plus the
    // causal attention over the new tokens (as prefillTokensPerSecondPerGpu).
    const double denseActive = std::max(0.0, activeParamsOf(m) - routedActiveParams(m));
    const double t1 = newTokens * (2.0 * denseActive / densePeak(m, a) +
                                   newTokenAttentionFlops(m, promptTokens, newTokens) / attentionPeak(a)) /
                      a.computeEfficiency;
    const double lambda = batch / outputTokens;
    const double spread = lambda > 1e-9 ? -std::expm1(-lambda) / lambda : 1.0;
    const double stalled = std::max(1.0, replicaGpus * spread) * t1;
    return std::isfinite(stalled) ? own + (stalled - t1) : own;
}

DecodePoint bestDecodePoint(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus, double contextTokens,
                            double peakContext, const DecodeLimits& limits, bool& meets, AttentionParallel mode) {
    meets = false;
    double most = maxDecodeBatch(m, a, replicaGpus, peakContext, mode);
    // Sessions bound the sequences a replica can have in flight (DecodeLimits::sequencesInFlight).
    if (limits.sequencesInFlight > 0 && limits.decodeGpus > 0)
        most = std::min(most, std::max(1.0, std::floor(limits.sequencesInFlight * replicaGpus / limits.decodeGpus)));
    if (!replicaUsable(m, a, replicaGpus) || most < 1) return DecodePoint{0, replicaGpus, dataParallel(m, mode)};
    const auto at = [&](double batch) {
        const double prefillSeconds =
            limits.coLocatedPrefill ? coLocatedPrefillSeconds(m, a, replicaGpus, mode, limits.promptTokens,
                                                              limits.newPromptTokens, limits.outputTokens, batch)
                                    : 0.0;
        return withPrefillInterference(decodePoint(m, a, replicaGpus, contextTokens, batch, mode), prefillSeconds,
                                       limits.outputTokens);
    };
    // Tokens/s/user falls and tokens/s/GPU rises with the batch (step/batch is non-increasing, step
    // non-decreasing, so the prefill share grows with the batch too), so the largest batch meeting the target
    // is the best one: bisection over whole batches.
    const auto ok = [&](const DecodePoint& p) {
        return p.tokensPerSecondPerGpu > 0 && p.tokensPerSecondPerUser >= limits.targetTokensPerSecondPerUser;
    };
    DecodePoint lo = at(1);
    if (!ok(lo)) return lo;
    meets = true;
    DecodePoint hiPoint = at(most);
    if (ok(hiPoint)) return hiPoint;
    double l = 1, h = most;
    while (h - l > 1) {
        const double mid = std::floor((l + h) / 2);
        DecodePoint p = at(mid);
        if (ok(p)) {
            l = mid;
            lo = p;
        } else {
            h = mid;
        }
    }
    return lo;
}

std::vector<int> replicaSizes(int domainGpus) {
    std::vector<int> out;
    for (int g = 1; g <= domainGpus; ++g)
        if (domainGpus % g == 0) out.push_back(g);
    return out;
}

DecodePoint chooseReplica(const ServedModel& m, const AcceleratorSpec& a, double contextTokens, double peakContext,
                          const DecodeLimits& limits, int statedGpus, bool& meets) {
    meets = false;
    const std::vector<int> sizes = statedGpus > 0 ? std::vector<int>{statedGpus} : replicaSizes(a.domainGpus);
    DecodePoint bestMeeting, fastest;
    bool anyMeeting = false;
    const std::vector<AttentionParallel> modes =
        knownMoe(m) ? std::vector<AttentionParallel>{AttentionParallel::Data, AttentionParallel::Tensor}
                    : std::vector<AttentionParallel>{AttentionParallel::Tensor};
    for (int g : sizes)
        for (AttentionParallel mode : modes) {
            if (g == 1 && mode == AttentionParallel::Tensor && modes.size() > 1) continue; // same as Data
            if (!replicaShapeProblem(m, g, mode).empty()) continue; // no engine shards the model this way
            bool ok = false;
            const DecodePoint p = bestDecodePoint(m, a, g, contextTokens, peakContext, limits, ok, mode);
            if (!(p.tokensPerSecondPerGpu > 0)) continue;
            if (ok && (!anyMeeting || p.tokensPerSecondPerGpu > bestMeeting.tokensPerSecondPerGpu)) {
                bestMeeting = p;
                anyMeeting = true;
            }
            if (p.tokensPerSecondPerUser > fastest.tokensPerSecondPerUser) fastest = p;
        }
    meets = anyMeeting;
    return anyMeeting ? bestMeeting : fastest;
}

std::vector<DecodePoint> decodeCurve(const ServedModel& m, const AcceleratorSpec& a, int replicaGpus,
                                     double contextTokens, double peakContext, AttentionParallel mode) {
    std::vector<DecodePoint> curve;
    if (!replicaUsable(m, a, replicaGpus)) return curve;
    const double most = maxDecodeBatch(m, a, replicaGpus, peakContext, mode);
    // Empty when the weights alone do not fit: the model needs a larger replica (callers flag it).
    for (double batch = 1; batch < most; batch *= 2)
        curve.push_back(decodePoint(m, a, replicaGpus, contextTokens, batch, mode));
    if (most >= 1) curve.push_back(decodePoint(m, a, replicaGpus, contextTokens, most, mode));
    return curve;
}

double prefillTokensPerSecondPerGpu(const ServedModel& m, const AcceleratorSpec& a, double promptTokens,
                                    int replicaGpus, AttentionParallel mode, double newTokens) {
    // Prefill processes many tokens per weight read and is compute-bound: 2·A FLOPs per input token
    // (Kaplan et al. 2020, §2.1) plus causal attention over the prompt.
    const double active = activeParamsOf(m);
    if (!positiveFinite(active) || !positiveFinite(a.flops.value()) || !positiveFinite(a.computeEfficiency) ||
        replicaGpus < 1)
        return 0;
    const double attention = newTokenAttentionFlops(m, promptTokens, newTokens);
    const double g = replicaGpus;
    const double eff = a.computeEfficiency;
    // Per token of the replica: compute shared by its GPUs; collectives per token as in decode (no latency
    // term: prefill moves whole chunks). Overlapped, the slower sets the pace.
    const double routed = routedActiveParams(m);
    const double compute =
        (2.0 * ((active - routed) / densePeak(m, a) + routed / a.flops.value()) + attention / attentionPeak(a)) /
        (eff * g);
    double comm = 0;
    if (replicaGpus > 1 && positiveFinite(a.scaleUpBandwidth.value()) && positiveFinite(a.collectiveEfficiency)) {
        const double link = a.scaleUpBandwidth.value() / 2.0 * a.collectiveEfficiency;
        // Time per replica token: every GPU moves its bytes for that token at once (under data-parallel
        // attention its 1/G share of the token, which collectiveBytesPerGpu already divides out).
        comm = 2.0 * std::max(0, m.layers) * collectiveBytesPerGpu(m, replicaGpus, dataParallel(m, mode), 1.0) /
               link;
    }
    const double perToken = std::max(compute, comm);
    return perToken > 0 ? 1.0 / (perToken * g) : 0.0;
}

ServiceSizing sizeService(const ServedModel& m, const AcceleratorSpec& a, const ServiceDemand& d) {
    ServiceSizing s;
    const auto nonNeg = [](double x) { return std::isfinite(x) ? std::max(0.0, x) : 0.0; };
    const double gpus = nonNeg(d.gpus);
    const double inputTokens = nonNeg(d.inputTokens);
    const double outputTokens = nonNeg(d.outputTokens);
    const double hit = std::clamp(nonNeg(d.prefixCacheHitRate), 0.0, 1.0);
    const double newTokens = inputTokens * (1.0 - hit);
    const double sessions = nonNeg(d.concurrentSessions);
    const double sessionContext = nonNeg(d.sessionContextTokens);

    // Decode attends, on average over a generation, to the context (the prompt, or the session's context
    // when longer) plus half the output; the KV that must fit is the peak, context plus the whole output.
    const double context = std::max(inputTokens, sessionContext);
    const double decodeContext = context + outputTokens / 2.0;
    const double peakContext = context + outputTokens;
    DecodeLimits limits;
    limits.targetTokensPerSecondPerUser = d.targetTokensPerSecondPerUser;
    limits.coLocatedPrefill = !d.disaggregated;
    limits.promptTokens = inputTokens;
    limits.newPromptTokens = newTokens;
    limits.outputTokens = outputTokens;
    // Each session has at most one request in flight (DecodeLimits): they bound the decoding sequences over
    // the decode GPUs (all GPUs co-located; a first guess of all but one domain for disaggregated pools,
    // refined once the pools are split).
    const int dom = std::max(1, a.domainGpus);
    limits.sequencesInFlight = sessions;
    limits.decodeGpus = d.disaggregated ? std::max<double>(dom, gpus - dom) : gpus;
    if (gpus > 0)
        s.decode = chooseReplica(m, a, decodeContext, peakContext, limits, d.tensorParallel, s.meetsTarget);

    const int g = s.decode.replicaGpus;
    const AttentionParallel mode =
        s.decode.dataParallelAttention ? AttentionParallel::Data : AttentionParallel::Tensor;
    // Prefill runs on replicas of the decode shape (co-located: the same replicas; disaggregated: the same
    // engine configuration in the prefill pool).
    s.prefillTokensPerSecondPerGpu =
        prefillTokensPerSecondPerGpu(m, a, inputTokens, std::max(1, g), mode, newTokens);
    // Co-located, a request's prefill also holds the other data-parallel ranks (coLocatedPrefillSeconds);
    // a disaggregated prefill pool fills every rank with prompts.
    s.prefillGpuSecondsPerRequest = coLocatedPrefillSeconds(m, a, std::max(1, g), mode, inputTokens, newTokens,
                                                            outputTokens, d.disaggregated ? 0.0 : s.decode.batch);

    bool served = false;
    const auto split = [&]() {
        const bool rates = s.decode.tokensPerSecondPerGpu > 0 && outputTokens > 0 &&
                           (newTokens <= 0 || s.prefillTokensPerSecondPerGpu > 0);
        served = false;
        if (d.disaggregated) {
            // Separate prefill and decode pools (Zhong et al., "DistServe", OSDI 2024; Patel et al., "Splitwise",
            // ISCA 2024), each of whole scale-up domains. The prompt's KV moves to the decode pool over the
            // scale-out NICs, which bound the prefill pool's request rate too.
            const double domains = std::floor(gpus / dom + 1e-9);
            s.poolsFit = domains >= 2;
            s.kvTransferBytesPerRequest = kvBytesPerSequence(m, inputTokens).value();
            if (!(rates && s.poolsFit)) return;
            const double inf = std::numeric_limits<double>::infinity();
            const double prefillCompute = s.prefillGpuSecondsPerRequest > 0 ? 1.0 / s.prefillGpuSecondsPerRequest : inf;
            const double transfer = (a.scaleOutBandwidth.value() > 0 && s.kvTransferBytesPerRequest > 0)
                                        ? a.scaleOutBandwidth.value() / s.kvTransferBytesPerRequest
                                        : inf;
            const double perPrefillGpu = std::min(prefillCompute, transfer);
            s.kvTransferBound = transfer < prefillCompute;
            const double perDecodeGpu = s.decode.tokensPerSecondPerGpu / outputTokens;
            double best = -1, bestPrefill = 1;
            for (double np = 1; np < domains; ++np) {
                const double r = std::min(np * dom * perPrefillGpu, (domains - np) * dom * perDecodeGpu);
                if (r > best) best = r, bestPrefill = np;
            }
            if (std::isfinite(best) && best > 0) {
                served = true;
                s.prefillGpus = bestPrefill * dom;
                s.decodeGpus = (domains - bestPrefill) * dom;
                s.prefillFraction = s.prefillGpus / (s.prefillGpus + s.decodeGpus);
                s.requestsPerSecond = best;
            }
        } else if (rates && gpus > 0) {
            // Co-located GPUs time-share prefill and decode in the ratio of their GPU-seconds per request; the
            // decode point already carries that share as interference on the user's speed (bestDecodePoint).
            const double decodeSeconds = outputTokens / s.decode.tokensPerSecondPerGpu;
            const double requestSeconds = s.prefillGpuSecondsPerRequest + decodeSeconds;
            served = requestSeconds > 0;
            if (served) {
                s.prefillFraction = s.prefillGpuSecondsPerRequest / requestSeconds;
                s.prefillGpus = gpus * s.prefillFraction;
                s.decodeGpus = gpus - s.prefillGpus;
                s.requestsPerSecond = gpus / requestSeconds;
            }
        }
    };
    split();
    // Disaggregated: once the pools are known, the sessions' bound applies to the real decode pool.
    if (d.disaggregated && served && sessions > 0 && s.decodeGpus > 0 && s.decodeGpus != limits.decodeGpus) {
        limits.decodeGpus = s.decodeGpus;
        s.decode = chooseReplica(m, a, decodeContext, peakContext, limits, d.tensorParallel, s.meetsTarget);
        split();
    }
    if (served) {
        s.inputTokensPerSecond = s.requestsPerSecond * inputTokens;
        s.outputTokensPerSecond = s.requestsPerSecond * outputTokens;
    } else {
        s.meetsTarget = false;
        s.prefillFraction = s.prefillGpus = s.decodeGpus = s.requestsPerSecond = 0;
    }

    // KV in HBM: the running batch of every decode replica (at its peak context) first; the HBM left after
    // weights and running KV on every replica, whichever mode, then parks the sessions not decoding, then
    // host DRAM, then the installed NVMe (tiering as in NVIDIA Dynamo's KV block manager and LMCache); what
    // does not fit caps the sessions served. The epsilon absorbs rounding in the split.
    const double perSession = kvBytesPerSequence(m, sessionContext).value();
    double running = 0, runningBytes = 0, hbmFree = 0;
    if (g >= 1 && gpus > 0) {
        const double replicas = std::floor(gpus / g + 1e-9);
        const double decodeReplicas = std::floor((d.disaggregated ? s.decodeGpus : gpus) / g + 1e-9);
        running = served ? s.decode.batch * decodeReplicas : 0.0;
        runningBytes = running * kvBytesPerSequence(m, peakContext).value();
        const double freePerGpu = std::max(
            0.0, kUsableHbmFraction * std::max(0.0, a.hbmCapacity.value()) - weightBytesPerGpu(m, g, mode));
        hbmFree = std::max(0.0, replicas * freePerGpu * kvShards(m, g, s.decode.dataParallelAttention) - runningBytes);
    }
    s.sequencesDecoding = running;
    s.kvRunning = units::bytes(runningBytes);
    const double parked = std::max(0.0, sessions - running);
    double left = parked * perSession;
    s.kvTotal = units::bytes(runningBytes + left);
    const double inHbm = std::min(left, hbmFree);
    s.kvInHbm = units::bytes(runningBytes + inHbm);
    left -= inHbm;
    if (d.offloadDram && left > 0) {
        const double inDram = std::min(left, std::max(0.0, a.hostMemoryPerGpu.value()) * gpus);
        s.kvInDram = units::bytes(inDram);
        left -= inDram;
    }
    if (d.offloadNvme && left > 0) {
        const double inNvme = std::min(left, std::max(0.0, d.nvmeCapacity.value()));
        s.kvInNvme = units::bytes(inNvme);
        left -= inNvme;
    }
    s.kvFits = !(left > 0);
    s.sessionsServed = s.kvFits ? sessions
                                : std::min(sessions, running + (perSession > 0 ? std::floor((parked * perSession - left) / perSession) : parked));
    return s;
}

} // namespace ctwin::cost
