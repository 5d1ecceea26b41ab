#include "inference.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost {

namespace {

bool positiveFinite(double x) {
    return std::isfinite(x) && x > 0;
}

// Share of a domain's HBM that weights and KV cache may fill; the rest is reserved for activations,
// the runtime's workspace and allocator fragmentation (*estimate*: serving engines such as vLLM default to
// using 90% of GPU memory, `gpu_memory_utilization = 0.9`).
constexpr double kUsableHbmFraction = 0.9;

// Latency of one small-message all-reduce across an NVLink domain (*estimate*: a few microseconds for
// NCCL small-message all-reduce over NVLink/NVSwitch; 5 µs is the order the NCCL tests report on HGX H100).
constexpr double kAllReduceLatencySeconds = 5e-6;

// Bytes per sequence of one tensor-parallel all-reduce during decode: the activations of one token,
// d_model × 2 bytes (*estimate*: d_model = 8192 at BF16, a 70B-class model, gives 16 KiB; ServedModel does
// not carry d_model, and kvHeads·headDim understates it under grouped-query attention).
constexpr double kAllReduceBytesPerSequence = 16.0 * 1024.0;

// Upper bound on the batch sizes a decode curve explores, so a model with no KV cache (or a zero context)
// still yields a finite curve; far beyond any batch a serving engine schedules on one replica.
constexpr double kMaxDecodeBatch = 1 << 20;

// Parameters touched per token. A dense model may leave activeParams at zero; it never exceeds all params.
double activeParamsOf(const ServedModel& m) {
    return m.activeParams > 0 ? std::min(m.activeParams, m.params) : m.params;
}

double weightBytes(const ServedModel& m) {
    return m.params * std::max(0.0, m.weightBytesPerParam);
}

double usableDomainHbm(const AcceleratorSpec& a) {
    return kUsableHbmFraction * a.domainGpus * std::max(0.0, a.hbmCapacity.value());
}

// A replica needs GPUs, compute, memory bandwidth and a model; across more than one GPU it also needs a
// scale-up link for its tensor-parallel all-reduces.
bool replicaUsable(const ServedModel& m, const AcceleratorSpec& a, double efficiency) {
    return a.domainGpus >= 1 && positiveFinite(a.flops.value()) && positiveFinite(a.hbmBandwidth.value()) &&
           positiveFinite(efficiency) && positiveFinite(m.params) &&
           (a.domainGpus == 1 || positiveFinite(a.scaleUpBandwidth.value()));
}

} // namespace

units::Bytes kvBytesPerToken(const ServedModel& m) {
    // K and V, one head_dim vector per KV head per layer (Pope et al., MLSys 2023, §2; grouped-query
    // attention shares each KV head among several query heads, Ainslie et al., EMNLP 2023).
    const double b = 2.0 * m.layers * m.kvHeads * m.headDim * m.kvBytesPerElement;
    return units::bytes(std::max(0.0, b));
}

DecodePoint decodePoint(const ServedModel& m, const AcceleratorSpec& a, double contextTokens, double batch,
                        double efficiency) {
    DecodePoint p;
    p.batch = batch;
    if (!replicaUsable(m, a, efficiency) || !positiveFinite(batch)) return p;

    const double gpus = a.domainGpus;
    const double active = activeParamsOf(m);
    const double context = std::max(0.0, contextTokens);

    // Compute: 2 FLOPs per active parameter per generated token (one multiply-add; Kaplan et al. 2020,
    // §2.1), the replica's tensor-parallel GPUs sharing the work at `efficiency` of dense peak.
    const double compute = 2.0 * active * batch / (gpus * a.flops.value() * efficiency);

    // Memory: every step streams the weights the batch touches once and every sequence's KV cache
    // (Pope et al. 2023, §3). A dense model reads all weights at any batch; an MoE batch touches at most
    // batch × active weights, at most all experts.
    const double weightsRead = std::min(m.params, batch * active) * std::max(0.0, m.weightBytesPerParam);
    const double kvRead = batch * context * kvBytesPerToken(m).value();
    const double memory = (weightsRead + kvRead) / (gpus * a.hbmBandwidth.value());

    // Communication: tensor parallelism (Megatron-LM, Shoeybi et al. 2019, §3) all-reduces the activations
    // twice per layer, after attention and after the MLP. Each costs a fixed latency plus its message over
    // the per-GPU NVLink bandwidth (with in-switch reduction, NVLink SHARP, each GPU moves about one message;
    // a ring would move 2·(G−1)/G of it — within a factor of two). One GPU needs no all-reduce.
    double comm = 0;
    if (a.domainGpus > 1) {
        const double message = batch * kAllReduceBytesPerSequence;
        comm =
            2.0 * std::max(0, m.layers) * (kAllReduceLatencySeconds + message / a.scaleUpBandwidth.value());
    }

    // Roofline (Williams, Waterman & Patterson 2009): compute and memory traffic overlap, the slower one
    // sets the pace; the all-reduces sit on the critical path between layers and do not overlap.
    const double step = std::max(compute, memory) + comm;
    if (!positiveFinite(step)) return p;
    p.stepTime = units::seconds(step);
    p.tokensPerSecondPerUser = 1.0 / step;
    p.tokensPerSecondPerGpu = batch / (step * gpus);
    p.memoryBound = memory > compute;
    return p;
}

std::vector<DecodePoint> decodeCurve(const ServedModel& m, const AcceleratorSpec& a, double contextTokens,
                                     double efficiency) {
    std::vector<DecodePoint> curve;
    if (!replicaUsable(m, a, efficiency)) return curve;
    const double capacity = usableDomainHbm(a);
    const double weights = weightBytes(m);
    const double kvPerSequence = std::max(0.0, contextTokens) * kvBytesPerToken(m).value();
    // Empty when the weights alone do not fit: the model needs a larger scale-up domain (callers flag it).
    for (double batch = 1; batch <= kMaxDecodeBatch && weights + batch * kvPerSequence <= capacity;
         batch *= 2)
        curve.push_back(decodePoint(m, a, contextTokens, batch, efficiency));
    return curve;
}

double prefillTokensPerSecondPerGpu(const ServedModel& m, const AcceleratorSpec& a, double efficiency) {
    // Prefill processes many tokens per weight read and is compute-bound: 2·A FLOPs per input token
    // (Kaplan et al. 2020, §2.1). Attention's context-dependent FLOPs (≈ 2·layers·context·d_model per token)
    // are not charged, so long prompts are optimistic.
    const double active = activeParamsOf(m);
    if (!positiveFinite(active) || !positiveFinite(a.flops.value()) || !positiveFinite(efficiency)) return 0;
    return a.flops.value() * efficiency / (2.0 * active);
}

ServiceSizing sizeService(const ServedModel& m, const AcceleratorSpec& a, const ServiceDemand& d,
                          double efficiency) {
    ServiceSizing s;
    const double kvPerToken = kvBytesPerToken(m).value();
    const double gpus = std::isfinite(d.gpus) ? std::max(0.0, d.gpus) : 0.0;
    const double inputTokens = std::max(0.0, d.inputTokens);
    const double outputTokens = std::max(0.0, d.outputTokens);

    s.prefillTokensPerSecondPerGpu = prefillTokensPerSecondPerGpu(m, a, efficiency);

    // Decode attends, on average over a generation, to the prompt plus half the output.
    const double decodeContext = inputTokens + outputTokens / 2.0;
    const std::vector<DecodePoint> curve = decodeCurve(m, a, decodeContext, efficiency);

    // Operating point: the largest batch that still meets the per-user target (tokens/s/user falls and
    // tokens/s/GPU rises with batch along the curve); failing that, the fastest point, batch 1.
    if (!curve.empty() && gpus > 0) {
        s.decode = curve.front();
        for (const DecodePoint& p : curve) {
            if (p.tokensPerSecondPerUser >= d.targetTokensPerSecondPerUser && p.tokensPerSecondPerGpu > 0) {
                s.decode = p;
                s.meetsTarget = true;
            }
        }
    }

    // GPU-seconds per request in each phase. The fleet splits by GPU-time: disaggregated prefill and decode
    // pools (Zhong et al., "DistServe", OSDI 2024; Patel et al., "Splitwise", ISCA 2024) in this ratio;
    // co-located GPUs time-share in the same ratio. Co-located decode also suffers prefill interference
    // (stalled decode steps while a prompt is processed), which this model does not charge.
    const double prefillSeconds =
        s.prefillTokensPerSecondPerGpu > 0 ? inputTokens / s.prefillTokensPerSecondPerGpu : 0.0;
    const double decodeSeconds =
        s.decode.tokensPerSecondPerGpu > 0 ? outputTokens / s.decode.tokensPerSecondPerGpu : 0.0;
    const double requestSeconds = prefillSeconds + decodeSeconds;
    const bool served = gpus > 0 && s.decode.tokensPerSecondPerGpu > 0 &&
                        s.prefillTokensPerSecondPerGpu > 0 && requestSeconds > 0;
    if (served) {
        s.prefillFraction = prefillSeconds / requestSeconds;
        s.prefillGpus = gpus * s.prefillFraction;
        s.decodeGpus = gpus - s.prefillGpus;
        s.requestsPerSecond = gpus / requestSeconds;
        s.inputTokensPerSecond = s.requestsPerSecond * inputTokens;
        s.outputTokensPerSecond = s.requestsPerSecond * outputTokens;
    } else {
        s.meetsTarget = false;
    }

    // Long agent sessions keep their KV cache between turns. It fills the HBM the decode replicas leave
    // after weights, then host DRAM, then NVMe (tiering as in NVIDIA Dynamo's KV block manager and
    // LMCache). Only whole decode replicas hold KV; the epsilon absorbs rounding in the GPU split.
    const double kvTotal =
        std::max(0.0, d.concurrentSessions) * std::max(0.0, d.sessionContextTokens) * kvPerToken;
    s.kvTotal = units::bytes(kvTotal);
    double left = kvTotal;
    if (a.domainGpus >= 1 && s.decodeGpus > 0) {
        const double replicas = std::floor(s.decodeGpus / a.domainGpus + 1e-9);
        const double hbmFree = replicas * std::max(0.0, usableDomainHbm(a) - weightBytes(m));
        const double inHbm = std::min(left, hbmFree);
        s.kvInHbm = units::bytes(inHbm);
        left -= inHbm;
    }
    if (d.offloadDram && left > 0) {
        const double dram = std::max(0.0, a.hostMemoryPerGpu.value()) * gpus;
        const double inDram = std::min(left, dram);
        s.kvInDram = units::bytes(inDram);
        left -= inDram;
    }
    if (d.offloadNvme && left > 0) {
        s.kvInNvme = units::bytes(left);
        left = 0;
    }
    s.kvFits = !(left > 0);
    return s;
}

} // namespace ctwin::cost
