// Shared fixtures of the inference tests (test_inference.cpp, test_serving_model.cpp): hand-sized models and
// accelerators whose figures the tests check by hand. Header-only; each test program includes it once.
#pragma once
#include "inference.h"
#include "catalog.h"

#include <cmath>
#include <map>
#include <string>

namespace ctwin::test_fixtures {

using namespace ctwin::cost;


// Only a per-user target: no co-located prefill, no sessions' bound.
inline DecodeLimits target(double tokensPerSecondPerUser) {
    DecodeLimits l;
    l.targetTokensPerSecondPerUser = tokensPerSecondPerUser;
    return l;
}

// Llama-3-70B-like dense model served in FP8 weights with BF16 KV cache: 80 layers, 64 query heads, 8 KV heads
// (GQA), head dim 128, d_model 8192 (Meta's published configuration).
inline ServedModel dense70bFp8() {
    ServedModel m;
    m.params = 7e10;
    m.activeParams = 7e10;
    m.layers = 80;
    m.kvHeads = 8;
    m.headDim = 128;
    m.kvBytesPerElement = 2;
    m.weightBytesPerParam = 1;
    m.hiddenSize = 8192;
    m.attentionHeads = 64;
    return m;
}

// DeepSeek-V3-like MoE with MLA (arXiv:2412.19437 §4.2): 671B, 37B active, 8 of 256 experts, 61 layers,
// 128 heads of d_qk 192 / d_v 128, latent 512 + RoPE 64 cached in FP8.
inline ServedModel moeMla() {
    ServedModel m;
    m.params = 6.71e11;
    m.activeParams = 3.7e10;
    m.layers = 61;
    m.kvBytesPerElement = 1;
    m.weightBytesPerParam = 1;
    m.hiddenSize = 7168;
    m.attentionHeads = 128;
    m.qkHeadDim = 192;
    m.vHeadDim = 128;
    m.kvLatentDim = 512;
    m.kvRopeDim = 64;
    m.experts = 256;
    m.activeExperts = 8;
    return m;
}

// HGX H100 (REFERENCES.md): 1,979 TF dense FP8, 3.35 TB/s and 80 GB HBM, NVLink 900 GB/s, 8 per domain; the
// catalog's achievable fractions 0.80 (HBM), 0.60 (compute), 0.82 (collectives).
inline AcceleratorSpec hgxH100() {
    AcceleratorSpec a;
    a.flops = 1979e12 * units::hertz;
    a.hbmBandwidth = units::bytesPerSecond(3.35e12);
    a.hbmCapacity = units::bytes(80e9);
    a.scaleUpBandwidth = units::bytesPerSecond(900e9);
    a.domainGpus = 8;
    a.hostMemoryPerGpu = units::bytes(256e9);
    a.hbmEfficiency = 0.8;
    a.computeEfficiency = 0.6;
    a.collectiveEfficiency = 0.82;
    a.scaleOutBandwidth = units::bytesPerSecond(50e9);
    return a;
}

// GB200 NVL72 (REFERENCES.md: 5 PF FP8, 8 TB/s, 186 GB, NVLink 1.8 TB/s, 72 GPUs), catalog fractions 0.80,
// 0.55, 0.82.
inline AcceleratorSpec nvl72() {
    AcceleratorSpec a = hgxH100();
    a.flops = 5e15 * units::hertz;
    a.hbmBandwidth = units::bytesPerSecond(8e12);
    a.hbmCapacity = units::bytes(186e9);
    a.scaleUpBandwidth = units::bytesPerSecond(1.8e12);
    a.domainGpus = 72;
    a.computeEfficiency = 0.55;
    return a;
}

// A toy with round numbers for hand sizing: one GPU per domain (no collective), 1 PFLOP/s, 1 TB/s,
// 100 GB HBM, 20 GB host DRAM and 50 GB/s back-end NIC per GPU, efficiencies 1; a 10B dense model at 1 byte per
// weight with 10,000 KV bytes per token (2 × 10 layers × 4 KV heads × 125 head dim × 1 byte), no heads given
// (attention FLOPs not counted).
inline AcceleratorSpec toyGpu() {
    AcceleratorSpec a;
    a.flops = 1e15 * units::hertz;
    a.hbmBandwidth = units::bytesPerSecond(1e12);
    a.hbmCapacity = units::bytes(100e9);
    a.scaleUpBandwidth = units::bytesPerSecond(0); // unused with one GPU per domain
    a.domainGpus = 1;
    a.hostMemoryPerGpu = units::bytes(20e9);
    a.scaleOutBandwidth = units::bytesPerSecond(50e9);
    return a;
}

inline ServedModel toyModel() {
    ServedModel m;
    m.params = 1e10;
    m.activeParams = 1e10;
    m.layers = 10;
    m.kvHeads = 4;   // 4 × 125 = 5 × 100: the same 10,000 KV bytes per token, and TP 2 and 4 divide the heads
    m.headDim = 125;
    m.kvBytesPerElement = 1;
    m.weightBytesPerParam = 1;
    return m;
}

inline bool finite(const DecodePoint& p) {
    return std::isfinite(p.batch) && std::isfinite(p.stepTime.value()) &&
           std::isfinite(p.tokensPerSecondPerUser) && std::isfinite(p.tokensPerSecondPerGpu) &&
           std::isfinite(p.computeTime.value()) && std::isfinite(p.memoryTime.value()) &&
           std::isfinite(p.commTime.value());
}

inline bool finite(const ServiceSizing& s) {
    return finite(s.decode) && std::isfinite(s.prefillTokensPerSecondPerGpu) &&
           std::isfinite(s.prefillFraction) && std::isfinite(s.prefillGpus) && std::isfinite(s.decodeGpus) &&
           std::isfinite(s.requestsPerSecond) && std::isfinite(s.inputTokensPerSecond) &&
           std::isfinite(s.outputTokensPerSecond) && std::isfinite(s.kvTotal.value()) &&
           std::isfinite(s.kvInHbm.value()) && std::isfinite(s.kvInDram.value()) &&
           std::isfinite(s.kvInNvme.value()) && std::isfinite(s.sessionsServed);
}

// Toy service: 1,000 input and 2,000 output tokens per request, 45 tokens/s/user, 100 GPUs, 10,000 sessions
// of 100,000 tokens, offload to DRAM and to 1 TB of installed NVMe.
inline ServiceDemand toyDemand() {
    ServiceDemand d;
    d.inputTokens = 1000;
    d.outputTokens = 2000;
    d.targetTokensPerSecondPerUser = 45;
    d.gpus = 100;
    d.disaggregated = true;
    d.offloadDram = true;
    d.offloadNvme = true;
    d.nvmeCapacity = units::bytes(1e12);
    return d;
}

inline model::CatalogItem presetItem(const std::string& id, std::map<std::string, double> values,
                              const std::string& attention = "gqa") {
    model::CatalogItem item;
    item.id = id;
    item.name = id;
    item.category = "models";
    item.kind = "llm";
    item.attributes = {{"family", "test"}, {"attention", attention}};
    for (const auto& [k, v] : values)
        item.values[k] = model::CatalogValue{v, v, v, "test", false};
    return item;
}

inline std::map<std::string, double> basePresetValues() {
    return {{"model_params", 27e9}, {"active_params", 27e9}, {"layers", 62}, {"hidden_size", 5376},
            {"kv_heads", 16},       {"head_dim", 128}};
}


} // namespace ctwin::test_fixtures
