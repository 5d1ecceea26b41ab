#pragma once
#include <vector>

#include "units.h"

namespace ctwin::cost {

/// One scale-up domain's hardware as the roofline sees it (per GPU figures, domain size).
struct AcceleratorSpec {
    units::Frequency flops{};            // dense FLOP/s per GPU at the serving precision
    units::DataRate hbmBandwidth{};      // per GPU
    units::Bytes hbmCapacity{};          // per GPU
    units::DataRate scaleUpBandwidth{};  // per GPU (NVLink)
    int domainGpus = 8;                  // GPUs in one NVLink domain (8 HGX, 72 NVL72)
    units::Bytes hostMemoryPerGpu{};     // CPU DRAM reachable per GPU (KV offload tier)
};

/// The served model as the roofline sees it.
struct ServedModel {
    double params = 0;
    double activeParams = 0;
    int layers = 0;
    int kvHeads = 0;
    int headDim = 0;
    double kvBytesPerElement = 2;
    double weightBytesPerParam = 1;
};

/// KV cache per token = 2 (K and V) × layers × kv_heads × head_dim × bytes per element (SPEC.md §4.8;
/// Pope et al., "Efficiently Scaling Transformer Inference", MLSys 2023, §2).
units::Bytes kvBytesPerToken(const ServedModel& m);

/// One decode operating point of a model replica spread over one scale-up domain.
struct DecodePoint {
    double batch = 0;
    units::Time stepTime{};
    double tokensPerSecondPerUser = 0;
    double tokensPerSecondPerGpu = 0;
    bool memoryBound = false;
};

/// Decode step time = max(compute, (weights read + KV read) / HBM bandwidth) + communication (SPEC.md §4.8,
/// roofline after Williams, Waterman & Patterson, CACM 52(4), 2009). Compute = 2·A·batch FLOPs over the
/// domain at `efficiency` of peak; weights read = min(all weights, batch × active weights) (an MoE batch
/// touches more experts as it grows); KV read = batch × context × KV bytes per token; communication = two
/// all-reduces per layer over NVLink with a fixed per-collective latency.
DecodePoint decodePoint(const ServedModel& m, const AcceleratorSpec& a, double contextTokens, double batch,
                        double efficiency);

/// The tokens/s/GPU vs tokens/s/user curve over batch sizes 1, 2, 4, ... while weights + KV fit in the
/// domain's HBM.
std::vector<DecodePoint> decodeCurve(const ServedModel& m, const AcceleratorSpec& a, double contextTokens,
                                     double efficiency);

/// Prefill is compute-bound: 2·A FLOPs per input token at `efficiency` of peak, per GPU.
double prefillTokensPerSecondPerGpu(const ServedModel& m, const AcceleratorSpec& a, double efficiency);

/// A service's workload mix and the fleet that serves it.
struct ServiceDemand {
    double inputTokens = 0;   // per request
    double outputTokens = 0;  // per request
    double targetTokensPerSecondPerUser = 0;
    double gpus = 0;
    bool disaggregated = false;
    double concurrentSessions = 0;
    double sessionContextTokens = 0;
    bool offloadDram = false;
    bool offloadNvme = false;
};

struct ServiceSizing {
    DecodePoint decode;              // operating point meeting the per-user target (or the best one)
    bool meetsTarget = false;
    double prefillTokensPerSecondPerGpu = 0;
    double prefillFraction = 0;      // GPU-time share of prefill (pool split when disaggregated)
    double prefillGpus = 0, decodeGpus = 0;
    double requestsPerSecond = 0;
    double inputTokensPerSecond = 0, outputTokensPerSecond = 0;
    // Long agent sessions: KV bytes kept and where they live.
    units::Bytes kvTotal{}, kvInHbm{}, kvInDram{}, kvInNvme{};
    bool kvFits = true;
};

/// Sizes a service: the decode operating point at the target tokens/s/user, the prefill/decode split by
/// GPU-time (disaggregated pools get that split; co-located GPUs time-share in the same ratio), request
/// throughput, and KV placement over HBM -> host DRAM -> NVMe for the concurrent sessions.
ServiceSizing sizeService(const ServedModel& m, const AcceleratorSpec& a, const ServiceDemand& d, double efficiency);

} // namespace ctwin::cost
