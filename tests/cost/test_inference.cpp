// Inference economics (SPEC.md §4.8, issues 17 and 19): KV bytes per sequence for each attention kind, prefill
// attention FLOPs, the decode roofline per replica with achievable efficiencies, the replica-size and batch
// search, disaggregated pools, KV offload bounded by installed tiers, presets, and the bad inputs.
// Hand calculations are in the comments (python3 for the digits); tolerances are stated per check.
#include "../test_compare.h"
#include "../test_support.h"
#include "evaluate.h"
#include "inference.h"
#include "inference_presets.h"
#include "input_error.h"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace ctwin;
using namespace ctwin::cost;

namespace {

// Only a per-user target: no co-located prefill, no sessions' bound.
DecodeLimits target(double tokensPerSecondPerUser) {
    DecodeLimits l;
    l.targetTokensPerSecondPerUser = tokensPerSecondPerUser;
    return l;
}

// Llama-3-70B-like dense model served in FP8 weights with BF16 KV cache: 80 layers, 64 query heads, 8 KV heads
// (GQA), head dim 128, d_model 8192 (Meta's published configuration).
ServedModel dense70bFp8() {
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
ServedModel moeMla() {
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
AcceleratorSpec hgxH100() {
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
AcceleratorSpec nvl72() {
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
// weight with 10,000 KV bytes per token (2 × 10 layers × 5 KV heads × 100 head dim × 1 byte), no heads given
// (attention FLOPs not counted).
AcceleratorSpec toyGpu() {
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

ServedModel toyModel() {
    ServedModel m;
    m.params = 1e10;
    m.activeParams = 1e10;
    m.layers = 10;
    m.kvHeads = 5;
    m.headDim = 100;
    m.kvBytesPerElement = 1;
    m.weightBytesPerParam = 1;
    return m;
}

bool finite(const DecodePoint& p) {
    return std::isfinite(p.batch) && std::isfinite(p.stepTime.value()) &&
           std::isfinite(p.tokensPerSecondPerUser) && std::isfinite(p.tokensPerSecondPerGpu) &&
           std::isfinite(p.computeTime.value()) && std::isfinite(p.memoryTime.value()) &&
           std::isfinite(p.commTime.value());
}

bool finite(const ServiceSizing& s) {
    return finite(s.decode) && std::isfinite(s.prefillTokensPerSecondPerGpu) &&
           std::isfinite(s.prefillFraction) && std::isfinite(s.prefillGpus) && std::isfinite(s.decodeGpus) &&
           std::isfinite(s.requestsPerSecond) && std::isfinite(s.inputTokensPerSecond) &&
           std::isfinite(s.outputTokensPerSecond) && std::isfinite(s.kvTotal.value()) &&
           std::isfinite(s.kvInHbm.value()) && std::isfinite(s.kvInDram.value()) &&
           std::isfinite(s.kvInNvme.value()) && std::isfinite(s.sessionsServed);
}

// Toy service: 1,000 input and 2,000 output tokens per request, 45 tokens/s/user, 100 GPUs, 10,000 sessions
// of 100,000 tokens, offload to DRAM and to 1 TB of installed NVMe.
ServiceDemand toyDemand() {
    ServiceDemand d;
    d.inputTokens = 1000;
    d.outputTokens = 2000;
    d.targetTokensPerSecondPerUser = 45;
    d.gpus = 100;
    d.disaggregated = true;
    d.concurrentSessions = 10000;
    d.sessionContextTokens = 100000;
    d.offloadDram = true;
    d.offloadNvme = true;
    d.nvmeCapacity = units::bytes(1e12);
    return d;
}

model::CatalogItem presetItem(const std::string& id, std::map<std::string, double> values,
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

std::map<std::string, double> basePresetValues() {
    return {{"model_params", 27e9}, {"active_params", 27e9}, {"layers", 62}, {"hidden_size", 5376},
            {"kv_heads", 16},       {"head_dim", 128}};
}

} // namespace

class TestInference : public QObject {
    Q_OBJECT
private slots:
    void kvBytesPerTokenLlama70b();
    void kvBytesPerAttentionKind();
    void prefillAttentionKimiK2();
    void prefillAttentionSlidingWindow();
    void decodeDenseH100();
    void decodeMoeMlaNvl72();
    void kvReplicatedPastKvHeads();
    void singleGpuHasNoCommunication();
    void moeWeightsReadGrowWithBatch();
    void batchSearchFindsWholeBatch();
    void batchBoundByPeakContext();
    void replicaSearchPicksHandOptimum();
    void curveEndsAtLargestFittingBatch();
    void curveEmptyWhenWeightsDoNotFit();
    void curveMonotone_data();
    void curveMonotone();
    void prefillRate();
    void sizeServiceDisaggregated();
    void sizeServiceColocated();
    void disaggregatedPoolsNeedTwoDomains();
    void kvTransferBoundsPrefillPool();
    void kvTiersBoundSessions();
    void badInputsFinite_data();
    void badInputsFinite();
    void presetMapping();
    void catalogRefusesBadArchitecture();
    void referencesUsePresets();
    void statedTensorParallel();
    void tensorParallelLargerThanDomainRefused();
};

void TestInference::kvBytesPerTokenLlama70b() {
    // 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 B per token (exact).
    QCOMPARE(kvBytesPerToken(dense70bFp8()).value(), 327680.0);
    QCOMPARE(kvBytesPerSequence(dense70bFp8(), 1000).value(), 327680000.0);
}

void TestInference::kvBytesPerAttentionKind() {
    // MLA (DeepSeek-V3): (512 latent + 64 RoPE) × 61 layers × 1 byte = 35,136 B per token, whatever the heads.
    QCOMPARE(kvBytesPerToken(moeMla()).value(), 35136.0);
    QCOMPARE(kvBytesPerSequence(moeMla(), 8192).value(), 35136.0 * 8192);
    // Sliding window (Gemma 3 27B): 62 layers, 52 local with window 1,024, 10 global; 2 × 16 KV heads × 128 ×
    // 2 bytes = 8,192 B per layer and token.
    ServedModel gemma;
    gemma.params = gemma.activeParams = 27e9;
    gemma.layers = 62;
    gemma.kvHeads = 16;
    gemma.headDim = 128;
    gemma.slidingLayers = 52;
    gemma.slidingWindow = 1024;
    //   context 32,768: 10 × 32,768 × 8,192 + 52 × 1,024 × 8,192 = 2,684,354,560 + 436,207,616 = 3,120,562,176.
    QCOMPARE(kvBytesPerSequence(gemma, 32768).value(), 3120562176.0);
    //   context 512 (inside the window): 62 × 512 × 8,192 = 260,046,848.
    QCOMPARE(kvBytesPerSequence(gemma, 512).value(), 260046848.0);
    // Linear attention (Qwen3-Next 80B-A3B): 12 full layers × 2 × 2 KV heads × 256 × 2 B = 2,048 B per layer-token
    // plus 36 linear layers × 524,288 state elements × 2 B = 37,748,736 B whatever the context.
    ServedModel next;
    next.params = 8e10;
    next.layers = 48;
    next.kvHeads = 2;
    next.headDim = 256;
    next.linearLayers = 36;
    next.linearStateElements = 524288;
    //   context 100,000: 12 × 100,000 × 2,048 + 37,748,736 = 2,457,600,000 + 37,748,736 = 2,495,348,736.
    QCOMPARE(kvBytesPerSequence(next, 100000).value(), 2495348736.0);
    QCOMPARE(kvBytesPerSequence(next, 0).value(), 37748736.0);
    QCOMPARE(kvBytesPerToken(next).value(), 12 * 2048.0);
}

void TestInference::prefillAttentionKimiK2() {
    // Issue 19 item 7: Kimi K2, 20K-token prompts. 64 heads × (d_qk 192 + d_v 128) = 20,480 attention width;
    // causal mean context 10,000: 2 × 20,480 × 61 layers × 10,000 = 24,985,600,000 FLOPs per token against
    // 2 × 32e9 = 6.4e10 for the weights: +39.04% (exact). The reviewer's ~39% reproduced.
    ServedModel kimi = moeMla();
    kimi.params = 1.04e12;
    kimi.activeParams = 32e9;
    kimi.attentionHeads = 64;
    kimi.experts = 384;
    CTWIN_COMPARE_REL(prefillAttentionFlopsPerToken(kimi, 20000), 24985600000.0, 1e-12);
    CTWIN_COMPARE_REL(prefillAttentionFlopsPerToken(kimi, 20000) / (2 * 32e9), 0.3904, 1e-12);
    // GB300 NVFP4 (15 PF, prefill fraction 0.55): 8.25e15 / (6.4e10 + 2.49856e10) = 92,711.62975 tokens/s/GPU
    // (without attention: 8.25e15 / 6.4e10 = 128,906.25).
    AcceleratorSpec gb300 = nvl72();
    gb300.flops = 15e15 * units::hertz;
    CTWIN_COMPARE_REL(prefillTokensPerSecondPerGpu(kimi, gb300, 20000), 92711.62974683546, 1e-9);
    // Decode at full context 20,000 doubles the per-token attention: 4.99712e10.
    CTWIN_COMPARE_REL(attentionFlopsPerToken(kimi, 20000), 49971200000.0, 1e-12);
}

void TestInference::prefillAttentionSlidingWindow() {
    // Gemma 3 27B: 32 heads × (128 + 128) = 8,192 width; prompt 4,096: global layers average 2,048, local ones
    // (W = 1,024 < L) average W − W²/(2L) = 1,024 − 128 = 896:
    // 2 × 8,192 × (10 × 2,048 + 52 × 896) = 16,384 × 67,072 = 1,098,907,648 FLOPs per token (exact).
    ServedModel gemma;
    gemma.params = gemma.activeParams = 27e9;
    gemma.layers = 62;
    gemma.kvHeads = 16;
    gemma.headDim = 128;
    gemma.attentionHeads = 32;
    gemma.slidingLayers = 52;
    gemma.slidingWindow = 1024;
    QCOMPARE(prefillAttentionFlopsPerToken(gemma, 4096), 1098907648.0);
    // Without heads the width falls back to 2 × d_model; without either, attention is not counted.
    ServedModel noHeads = toyModel();
    QCOMPARE(prefillAttentionFlopsPerToken(noHeads, 4096), 0.0);
    noHeads.hiddenSize = 1000;
    // 2 × 2,000 × 10 layers × 2,048 = 81,920,000.
    QCOMPARE(prefillAttentionFlopsPerToken(noHeads, 4096), 81920000.0);
}

void TestInference::decodeDenseH100() {
    // Dense 70B FP8 on 8 × H100 (TP 8), batch 1, context 4,096:
    // attention 2 × 64 × 256 × 80 × 4,096 = 10,737,418,240 FLOPs per token
    // compute = (1.4e11 + 1.073741824e10) / (8 × 1979e12 × 0.6 = 9.4992e15) = 1.586843e-5 s
    // memory  = (7e10 / 8 = 8.75e9 weights + 4,096 × 327,680 / 8 = 1.6777216e8 KV) / (3.35e12 × 0.8)
    //         = 8.91777216e9 / 2.68e12 = 3.327527e-3 s
    // comm    = 160 × (5 µs + 2 × 7/8 × 8,192 × 2 B = 28,672 B / (450e9 × 0.82 = 3.69e11) = 7.77019e-8 s)
    //         = 8.124323e-4 s
    // step    = 3.327527e-3 + 8.124323e-4 = 4.139959e-3 s -> 241.548 tok/s/user, 30.1935 tok/s/GPU.
    const DecodePoint p = decodePoint(dense70bFp8(), hgxH100(), 8, 4096, 1);
    QVERIFY(p.memoryBound);
    QCOMPARE(p.replicaGpus, 8);
    CTWIN_COMPARE_REL(p.computeTime.value(), 1.586843294593229e-05, 1e-9);
    CTWIN_COMPARE_REL(p.memoryTime.value(), 3.3275269253731344e-3, 1e-9);
    CTWIN_COMPARE_REL(p.commTime.value(), 8.124323035230352e-4, 1e-9);
    CTWIN_COMPARE_REL(p.stepTime.value(), 4.13995922889617e-3, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerUser, 241.54827250958903, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 30.19353406369863, 1e-9);
}

void TestInference::decodeMoeMlaNvl72() {
    // DeepSeek-V3-like MoE on a whole NVL72 replica (EP 72, data-parallel attention), batch 256, context 8,192.
    // Split: routed = (671e9 − 37e9) / (1 − 8/256) = 654.4516e9, dense = 16.5484e9.
    // compute = (7.4e10 + 2 × 40,960 × 61 × 8,192 = 4.0936e10) × 256 / (72 × 5e15 × 0.55) = 1.486046e-4 s
    // experts touched 1 − (31/32)^256 = 0.99970474; weights per GPU 16.5484e9 + 654.4516e9 × 0.99970474 / 72
    //   = 2.5635309e10 B; KV per GPU 256 × 8,192 × 35,136 / 72 = 1.0234102e9 B
    // memory  = 2.6658719e10 / (8e12 × 0.8) = 4.165425e-3 s
    // comm    = 122 × (5 µs + 256/72 × 8 × 7,168 × 2 × 71/72 = 402,116 B / (0.9e12 × 0.82) = 5.448726e-7 s)
    //         = 6.764745e-4 s
    // step    = 4.165425e-3 + 6.764745e-4 = 4.841899e-3 s -> 206.53 tok/s/user, 734.33 tok/s/GPU.
    const DecodePoint p = decodePoint(moeMla(), nvl72(), 72, 8192, 256);
    CTWIN_COMPARE_REL(p.computeTime.value(), 1.486046474860606e-4, 1e-9);
    CTWIN_COMPARE_REL(p.memoryTime.value(), 4.16542488190504e-3, 1e-9);
    CTWIN_COMPARE_REL(p.commTime.value(), 6.764744525410686e-4, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerUser, 206.53052261657467, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 734.3307470811544, 1e-9);
    // The same batch on an 8-GPU replica: every GPU holds 654.45e9 / 8 of experts, memory dominates:
    // (16.5484e9 + 81.8065e9 × 0.99970474 + 256 × 8,192 × 35,136 / 8) / 6.4e12 = 1.680334e-2 s plus comm
    // 122 × (5 µs + 32 × 8 × 7,168 × 2 × 7/8 / 7.38e11) = 1.140859e-3 -> 1,783.3 tok/s/GPU at 55.7 tok/s/user.
    const DecodePoint e8 = decodePoint(moeMla(), nvl72(), 8, 8192, 256);
    CTWIN_COMPARE_REL(e8.tokensPerSecondPerGpu, 1783.3060834435435, 1e-9);
    CTWIN_COMPARE_REL(e8.tokensPerSecondPerUser, 55.72831510761073, 1e-9);
    // Weights per GPU: 16.5484e9 + 654.4516e9 / 72 = 2.5637993e10 B (dense part replicated, experts sharded).
    CTWIN_COMPARE_REL(weightBytesPerGpu(moeMla(), 72), 25637992831.541195, 1e-9);
}

void TestInference::kvReplicatedPastKvHeads() {
    // A dense GQA model with 8 KV heads on TP 72 (NVL72) replicates each KV head 9 times: KV per GPU is
    // batch × context × 327,680 / 8, not / 72. Batch bound at peak context 4,096 with 186 GB GPUs:
    // free = 0.9 × 186e9 − 7e10 / 72 = 1.664278e11 B; × 8 / (4,096 × 327,680) = 991.98 -> 991 sequences.
    QCOMPARE(maxDecodeBatch(dense70bFp8(), nvl72(), 72, 4096), 991.0);
    // With heads split 8 ways the same TP 8 replica holds: (0.9 × 186e9 − 8.75e9) × 8 / 1.34217728e9 = 945.6.
    QCOMPARE(maxDecodeBatch(dense70bFp8(), nvl72(), 8, 4096), 945.0);
}

void TestInference::singleGpuHasNoCommunication() {
    // Toy on one GPU, context 2,000, batch 256: compute 2 × 1e10 × 256 / 1e15 = 5.12e-3 s;
    // memory (1e10 + 256 × 2000 × 1e4) / 1e12 = 1.512e-2 s; no collective -> step 1.512e-2 s.
    // Tolerance 1e-12 relative.
    const DecodePoint p = decodePoint(toyModel(), toyGpu(), 1, 2000, 256);
    CTWIN_COMPARE_REL(p.stepTime.value(), 1.512e-2, 1e-12);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 256 / 1.512e-2, 1e-12);
    QCOMPARE(p.commTime.value(), 0.0);
    QVERIFY(p.memoryBound);
}

void TestInference::moeWeightsReadGrowWithBatch() {
    // MoE without expert counts: 100B total, 10B active, zero context, one GPU at 1 TB/s.
    // Batch 4 touches at most 4 × 10B = 40 GB -> 0.04 s; batch 16 would touch 160 GB but there are only
    // 100 GB of weights -> 0.1 s.
    ServedModel m = toyModel();
    m.params = 1e11;
    m.activeParams = 1e10;
    CTWIN_COMPARE_REL(decodePoint(m, toyGpu(), 1, 0, 4).stepTime.value(), 0.04, 1e-12);
    CTWIN_COMPARE_REL(decodePoint(m, toyGpu(), 1, 0, 16).stepTime.value(), 0.1, 1e-12);
    // With 10 of 100 experts known: routed = (1e11 − 1e10) / 0.9 = 1e11, dense 0 — batch 4 touches
    // 1 − 0.9^4 = 34.39% of them: 3.439e10 B -> 0.03439 s.
    m.experts = 100;
    m.activeExperts = 10;
    CTWIN_COMPARE_REL(decodePoint(m, toyGpu(), 1, 0, 4).stepTime.value(), 0.03439, 1e-9);
}

void TestInference::batchSearchFindsWholeBatch() {
    // Issue 19 item 11: toy on one GPU, average context 2,000: step (1e10 + b × 2e7) / 1e12 = 0.01 + 2e-5·b.
    // 45 tokens/s/user needs step <= 1/45 = 0.0222222 -> b <= 611.1: batch 611 (the power-of-two search stopped at
    // 512). Step 0.02222 s -> 45.0045 tok/s/user, 611 / 0.02222 = 27,497.75 tok/s/GPU.
    bool meets = false;
    const DecodePoint p = bestDecodePoint(toyModel(), toyGpu(), 1, 2000, 3000, target(45), meets);
    QVERIFY(meets);
    QCOMPARE(p.batch, 611.0);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 27497.7497749775, 1e-9);
    // 200 tokens/s/user is beyond batch 1 (0.01002 s -> 99.8): batch 1, not met.
    const DecodePoint slow = bestDecodePoint(toyModel(), toyGpu(), 1, 2000, 3000, target(200), meets);
    QVERIFY(!meets);
    QCOMPARE(slow.batch, 1.0);
}

void TestInference::batchBoundByPeakContext() {
    // KV at the peak context 3,000 (3e7 B per sequence) in 90 − 10 = 80 GB: floor(2,666.7) = 2,666 sequences;
    // the average context 2,000 would have allowed 4,000. No per-user target: the largest batch is chosen.
    QCOMPARE(maxDecodeBatch(toyModel(), toyGpu(), 1, 3000), 2666.0);
    bool meets = false;
    QCOMPARE(bestDecodePoint(toyModel(), toyGpu(), 1, 2000, 3000, target(0), meets).batch, 2666.0);
    QVERIFY(meets);
}

void TestInference::replicaSearchPicksHandOptimum() {
    // Toy dense model in a 4-GPU domain, NVLink 400 GB/s (200 per direction), efficiencies 1, d_model 8,192
    // (fallback), average context 2,000, peak 3,000, target 60 tok/s/user (step <= 1/60 s):
    //   G=1: step 0.01 + 2e-5·b                                  -> b 333,   19,988.0 tok/s/GPU
    //   G=2: memory 0.005 + 1e-5·b, comm 20 × (5e-6 + 1 × b × 16,384 / 2e11) = 1e-4 + 1.6384e-6·b
    //        step 0.0051 + 1.16384e-5·b                         -> b 993,   993 / (2 × 0.0166569) = 29,807.4
    //   G=4: memory 0.0025 + 5e-6·b, comm 20 × (5e-6 + 1.5 × b × 16,384 / 2e11) = 1e-4 + 2.4576e-6·b
    //        step 0.0026 + 7.4576e-6·b                          -> b 1,886, 1,886 / (4 × 0.0166650) = 28,292.8
    // The search picks G = 2 (two replicas per domain).
    AcceleratorSpec a = toyGpu();
    a.domainGpus = 4;
    a.scaleUpBandwidth = units::bytesPerSecond(400e9);
    QCOMPARE(replicaSizes(4), (std::vector<int>{1, 2, 4}));
    QCOMPARE(replicaSizes(72), (std::vector<int>{1, 2, 3, 4, 6, 8, 9, 12, 18, 24, 36, 72}));
    bool meets = false;
    const DecodePoint p = chooseReplica(toyModel(), a, 2000, 3000, target(60), 0, meets);
    QVERIFY(meets);
    QCOMPARE(p.replicaGpus, 2);
    QCOMPARE(p.batch, 993.0);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 29807.4113435733, 1e-9);
    CTWIN_COMPARE_REL(p.commTime.value(), 1.7269312e-3, 1e-9);
    // At 150 tok/s/user only G=4 and G=2 qualify and G=4 wins: b <= (1/150 − 0.0026) / 7.4576e-6 = 545.3.
    const DecodePoint fast = chooseReplica(toyModel(), a, 2000, 3000, target(150), 0, meets);
    QVERIFY(meets);
    QCOMPARE(fast.replicaGpus, 4);
    QCOMPARE(fast.batch, 545.0);
    // 1,000 tok/s/user is out of reach: the fastest point, G=4 batch 1 (step 0.0026074576 s), not met.
    const DecodePoint none = chooseReplica(toyModel(), a, 2000, 3000, target(1000), 0, meets);
    QVERIFY(!meets);
    QCOMPARE(none.replicaGpus, 4);
    CTWIN_COMPARE_REL(none.stepTime.value(), 2.6074576e-3, 1e-9);
}

void TestInference::curveEndsAtLargestFittingBatch() {
    // Toy, peak context 3,000: batches 1, 2, 4, ..., 2,048 and the largest fitting batch 2,666: 13 points.
    const auto toy = decodeCurve(toyModel(), toyGpu(), 1, 2000, 3000);
    QCOMPARE(toy.size(), std::size_t(13));
    QCOMPARE(toy[11].batch, 2048.0);
    QCOMPARE(toy.back().batch, 2666.0);
}

void TestInference::curveEmptyWhenWeightsDoNotFit() {
    // 405B at BF16 = 810 GB > 8 × 72 GB usable on H100: no decode point on any replica size.
    ServedModel m = dense70bFp8();
    m.params = m.activeParams = 4.05e11;
    m.weightBytesPerParam = 2;
    QVERIFY(decodeCurve(m, hgxH100(), 8, 4096, 4096).empty());
    bool meets = true;
    QCOMPARE(chooseReplica(m, hgxH100(), 4096, 4096, target(10), 0, meets).replicaGpus, 0);
    QVERIFY(!meets);
}

void TestInference::curveMonotone_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("dense 70B FP8 on HGX H100, context 4K") << 0;
    QTest::newRow("dense 70B FP8 on HGX H100, context 128") << 1;
    QTest::newRow("MoE 671B/37B MLA on NVL72") << 2;
    QTest::newRow("toy on one GPU") << 3;
}

void TestInference::curveMonotone() {
    QFETCH(int, which);
    ServedModel m = dense70bFp8();
    AcceleratorSpec a = hgxH100();
    double context = 4096;
    int g = 8;
    if (which == 1) context = 128;
    if (which == 2) {
        m = moeMla();
        a = nvl72();
        context = 8192;
        g = 72;
    }
    if (which == 3) {
        m = toyModel();
        a = toyGpu();
        context = 2000;
        g = 1;
    }
    const auto curve = decodeCurve(m, a, g, context, context);
    QVERIFY(curve.size() >= 2);
    for (std::size_t i = 1; i < curve.size(); ++i) {
        QVERIFY(curve[i].batch > curve[i - 1].batch);
        // Tokens/s/GPU never falls and tokens/s/user never rises as the batch grows (step/batch is
        // non-increasing and step non-decreasing in the batch).
        QVERIFY2(curve[i].tokensPerSecondPerGpu >= curve[i - 1].tokensPerSecondPerGpu,
                 qPrintable(QStringLiteral("per GPU falls at batch %1").arg(curve[i].batch)));
        QVERIFY2(curve[i].tokensPerSecondPerUser <= curve[i - 1].tokensPerSecondPerUser,
                 qPrintable(QStringLiteral("per user rises at batch %1").arg(curve[i].batch)));
    }
}

void TestInference::prefillRate() {
    // Dense 70B, prompt 2,000: attention 2 × 16,384 × 80 × 1,000 = 2.62144e9 FLOPs per token;
    // 1979e12 × 0.6 / (1.4e11 + 2.62144e9) = 1.1874e15 / 1.4262144e11 = 8,325.54 tokens/s/GPU (1e-9).
    CTWIN_COMPARE_REL(prefillTokensPerSecondPerGpu(dense70bFp8(), hgxH100(), 2000), 1.1874e15 / 1.4262144e11, 1e-12);
    // MoE: only active parameters count. Toy GPU 1e15 / (2 × 1e10) = 50,000.
    ServedModel moe = toyModel();
    moe.params = 1e11;
    CTWIN_COMPARE_REL(prefillTokensPerSecondPerGpu(moe, toyGpu(), 1000), 50000.0, 1e-12);
}

void TestInference::sizeServiceDisaggregated() {
    // Decode: batch 611 at 27,497.7498 tok/s/GPU (batchSearchFindsWholeBatch) -> 13.748875 requests/s per decode
    // GPU (2,000 output tokens); prefill 50,000 / 1,000 = 50 requests/s per GPU (KV hand-off 1e7 B per request
    // over 50 GB/s = 5,000 requests/s per GPU, not binding). 100 one-GPU domains: max over n of
    // min(50·n, 13.748875·(100 − n)): n = 21 -> 1,050; n = 22 -> min(1,100, 1,072.41) = 1,072.41; n = 23 ->
    // 1,058.66. Pools: 22 prefill, 78 decode GPUs; 1,072.4122 requests/s.
    const ServiceSizing s = sizeService(toyModel(), toyGpu(), toyDemand());
    QVERIFY(s.meetsTarget);
    QVERIFY(s.poolsFit);
    QVERIFY(!s.kvTransferBound);
    QCOMPARE(s.decode.batch, 611.0);
    QCOMPARE(s.prefillGpus, 22.0);
    QCOMPARE(s.decodeGpus, 78.0);
    CTWIN_COMPARE_REL(s.prefillFraction, 0.22, 1e-12);
    CTWIN_COMPARE_REL(s.requestsPerSecond, 78 * 27497.7497749775 / 2000, 1e-9);
    CTWIN_COMPARE_REL(s.outputTokensPerSecond, 78 * 27497.7497749775, 1e-9);
    CTWIN_COMPARE_REL(s.inputTokensPerSecond, 78 * 27497.7497749775 / 2, 1e-9);
    QCOMPARE(s.kvTransferBytesPerRequest, 1e7);
}

void TestInference::sizeServiceColocated() {
    // Co-located: GPU-seconds per request prefill 1,000 / 50,000 = 0.02, decode 2,000 / 27,497.7498 = 0.0727333;
    // 100 GPUs / 0.0927333 = 1,078.36 requests/s, prefill share 0.02 / 0.0927333 = 0.215672.
    ServiceDemand d = toyDemand();
    d.disaggregated = false;
    const ServiceSizing c = sizeService(toyModel(), toyGpu(), d);
    const double decodeSeconds = 2000 / 27497.7497749775;
    CTWIN_COMPARE_REL(c.requestsPerSecond, 100 / (0.02 + decodeSeconds), 1e-9);
    CTWIN_COMPARE_REL(c.prefillFraction, 0.02 / (0.02 + decodeSeconds), 1e-9);
    QVERIFY(c.poolsFit);
}

void TestInference::disaggregatedPoolsNeedTwoDomains() {
    // 100 GPUs in 72-GPU domains: one whole domain, no room for two pools -> nothing served, poolsFit false.
    AcceleratorSpec a = toyGpu();
    a.domainGpus = 72;
    a.scaleUpBandwidth = units::bytesPerSecond(400e9);
    a.collectiveEfficiency = 1;
    const ServiceSizing s = sizeService(toyModel(), a, toyDemand());
    QVERIFY(!s.poolsFit);
    QVERIFY(!s.meetsTarget);
    QCOMPARE(s.requestsPerSecond, 0.0);
    QVERIFY(finite(s));
}

void TestInference::kvTransferBoundsPrefillPool() {
    // Back-end NIC 1e8 B/s per GPU moves 1e8 / 1e7 = 10 prompts' KV per second, below the 50 of prefill
    // compute: min(10·n, 13.748875·(100 − n)) peaks at n = 58 (min(580, 577.45) = 577.45) vs n = 57
    // (min(570, 591.2) = 570): 58 prefill GPUs, 577.45 requests/s.
    AcceleratorSpec a = toyGpu();
    a.scaleOutBandwidth = units::bytesPerSecond(1e8);
    const ServiceSizing s = sizeService(toyModel(), a, toyDemand());
    QVERIFY(s.kvTransferBound);
    QCOMPARE(s.prefillGpus, 58.0);
    CTWIN_COMPARE_REL(s.requestsPerSecond, 42 * 27497.7497749775 / 2000, 1e-9);
}

void TestInference::kvTiersBoundSessions() {
    // Issue 19 item 4: 10,000 sessions × 100,000 tokens × 1e4 B = 1e13 B. HBM: 78 decode replicas × 80 GB =
    // 6.24e12; DRAM 20 GB × 100 GPUs = 2e12; installed NVMe 1e12 (all of it) -> 9.24e12 placed, 7.6e11 left:
    // does not fit; floor(9.24e12 / 1e9 per session) = 9,240 sessions served.
    const ServiceSizing s = sizeService(toyModel(), toyGpu(), toyDemand());
    CTWIN_COMPARE_REL(s.kvTotal.value(), 1e13, 1e-12);
    CTWIN_COMPARE_REL(s.kvInHbm.value(), 6.24e12, 1e-12);
    CTWIN_COMPARE_REL(s.kvInDram.value(), 2e12, 1e-12);
    CTWIN_COMPARE_REL(s.kvInNvme.value(), 1e12, 1e-12);
    QVERIFY(!s.kvFits);
    QCOMPARE(s.sessionsServed, 9240.0);
    // 2 TB of NVMe holds the 1e13 − 8.24e12 = 1.76e12 left after HBM and DRAM: fits, every session served.
    ServiceDemand d = toyDemand();
    d.nvmeCapacity = units::bytes(2e12);
    const ServiceSizing big = sizeService(toyModel(), toyGpu(), d);
    QVERIFY(big.kvFits);
    CTWIN_COMPARE_REL(big.kvInNvme.value(), 1.76e12, 1e-9);
    QCOMPARE(big.sessionsServed, 10000.0);
    // No NVMe tier: 8.24e12 placed -> 8,240 sessions.
    d.offloadNvme = false;
    QCOMPARE(sizeService(toyModel(), toyGpu(), d).sessionsServed, 8240.0);
}

void TestInference::badInputsFinite_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("zero GPUs in the service") << 0;
    QTest::newRow("zero params") << 1;
    QTest::newRow("zero HBM bandwidth") << 2;
    QTest::newRow("zero FLOP/s") << 3;
    QTest::newRow("zero efficiency") << 4;
    QTest::newRow("zero scale-up bandwidth on 8 GPUs") << 5;
    QTest::newRow("zero domain GPUs") << 6;
    QTest::newRow("weights do not fit") << 7;
    QTest::newRow("all defaults") << 8;
}

void TestInference::badInputsFinite() {
    QFETCH(int, which);
    ServedModel m = dense70bFp8();
    AcceleratorSpec a = hgxH100();
    ServiceDemand d = toyDemand();
    switch (which) {
    case 0:
        d.gpus = 0;
        break;
    case 1:
        m.params = m.activeParams = 0;
        break;
    case 2:
        a.hbmBandwidth = units::bytesPerSecond(0);
        break;
    case 3:
        a.flops = 0 * units::hertz;
        break;
    case 4:
        a.computeEfficiency = a.hbmEfficiency = 0;
        break;
    case 5:
        a.scaleUpBandwidth = units::bytesPerSecond(0);
        a.domainGpus = 8;
        m.params = m.activeParams = 4e11; // needs more than one GPU
        break;
    case 6:
        a.domainGpus = 0;
        break;
    case 7:
        a.hbmCapacity = units::bytes(8e9);
        break;
    default:
        m = ServedModel{};
        a = AcceleratorSpec{};
        a.hbmEfficiency = a.computeEfficiency = a.collectiveEfficiency = 0;
        d = ServiceDemand{};
        break;
    }
    QVERIFY(finite(decodePoint(m, a, std::max(1, a.domainGpus), 4096, 1)));
    QVERIFY(finite(decodePoint(m, a, 1, 4096, 0)));
    QVERIFY(std::isfinite(prefillTokensPerSecondPerGpu(m, a, 4096)));
    for (const DecodePoint& q : decodeCurve(m, a, std::max(1, a.domainGpus), 4096, 4096))
        QVERIFY(finite(q));
    const ServiceSizing s = sizeService(m, a, d);
    QVERIFY(finite(s));
    QVERIFY(!s.meetsTarget);
    QCOMPARE(s.requestsPerSecond, 0.0);
    QCOMPARE(s.outputTokensPerSecond, 0.0);
}

void TestInference::presetMapping() {
    const auto& catalog = test_support::catalog();
    model::InferenceService s;
    s.modelParams = 0;
    s.kvBytesPerElement = 1;
    s.weightBytesPerParam = 0.5;
    // Kimi K2 from its preset: MLA latent 512 + RoPE 64 over 61 layers at 1 byte = 35,136 B per token; 384
    // experts, 8 active; 64 heads of 192 / 128.
    const ServedModel k = servedModelOf(s, catalog.find("kimi-k2"), std::nullopt);
    QCOMPARE(k.params, 1.04e12);
    QCOMPARE(k.activeParams, 32.6e9);
    QCOMPARE(kvBytesPerToken(k).value(), 35136.0);
    QCOMPARE(k.experts, 384);
    QCOMPARE(k.activeExperts, 8);
    QCOMPARE(attentionFlopsPerToken(k, 1) / (2 * 61), 64.0 * 320);
    // Stated kv_heads / head_dim override the MLA cache: 2 × 61 × 1 × 288 × 1 = 35,136 (the old encoding), and
    // stated active params win.
    s.kvHeads = 1;
    s.headDim = 288;
    const ServedModel o = servedModelOf(s, catalog.find("kimi-k2"), 32e9);
    QCOMPARE(o.kvLatentDim, 0.0);
    QCOMPARE(kvBytesPerToken(o).value(), 35136.0);
    QCOMPARE(o.activeParams, 32e9);
    // Gemma 3 and Qwen3-Next carry their layer groups.
    const ServedModel g = servedModelOf(model::InferenceService{}, catalog.find("gemma3-27b"), std::nullopt);
    QCOMPARE(g.slidingLayers, 52);
    QCOMPARE(g.slidingWindow, 1024.0);
    QCOMPARE(kvBytesPerSequence(g, 32768).value(), 3120562176.0); // BF16 KV (the service default 2 bytes)
    const ServedModel n = servedModelOf(model::InferenceService{}, catalog.find("qwen3-next-80b-a3b"), std::nullopt);
    QCOMPARE(n.linearLayers, 36);
    QCOMPARE(kvBytesPerSequence(n, 0).value(), 37748736.0);
    // gpt-oss-120b: 18 banded layers of 128, 18 dense; KV 2 × 8 × 64 × 2 B = 2,048 B per layer-token:
    // context 10,000: 18 × 10,000 × 2,048 + 18 × 128 × 2,048 = 368,640,000 + 4,718,592 = 373,358,592.
    const ServedModel gpt = servedModelOf(model::InferenceService{}, catalog.find("gpt-oss-120b"), std::nullopt);
    QCOMPARE(kvBytesPerSequence(gpt, 10000).value(), 373358592.0);
    // No preset: the service's own fields, dense.
    model::InferenceService plain;
    plain.modelParams = 7e10;
    plain.layers = 80;
    plain.kvHeads = 8;
    plain.headDim = 128;
    const ServedModel p = servedModelOf(plain, nullptr, std::nullopt);
    QCOMPARE(p.activeParams, 7e10);
    QCOMPARE(kvBytesPerToken(p).value(), 327680.0);
}

void TestInference::catalogRefusesBadArchitecture() {
    // Unknown architecture key: refused, naming the field.
    auto values = basePresetValues();
    values["sliding_windw"] = 1024;
    try {
        model::checkCatalogItem(presetItem("bad", values), "models.json");
        QFAIL("unknown key accepted");
    } catch (const model::InputError& e) {
        QCOMPARE(e.where().field, std::string("sliding_windw"));
    }
    // A window longer than the context.
    values = basePresetValues();
    values["sliding_window"] = 65536;
    values["sliding_window_layers"] = 52;
    values["context_length"] = 32768;
    try {
        model::checkCatalogItem(presetItem("bad", values), "models.json");
        QFAIL("window longer than context accepted");
    } catch (const model::InputError& e) {
        QCOMPARE(e.where().field, std::string("sliding_window"));
        QVERIFY(std::string(e.what()).find("longer than the context") != std::string::npos);
    }
    // A window without its layers; more grouped layers than layers; linear layers without their state.
    values = basePresetValues();
    values["sliding_window"] = 1024;
    QVERIFY_THROWS_EXCEPTION(model::InputError, model::checkCatalogItem(presetItem("bad", values), "m.json"));
    values["sliding_window_layers"] = 40;
    values["linear_attention_layers"] = 30;
    values["linear_state_elements"] = 1000;
    QVERIFY_THROWS_EXCEPTION(model::InputError, model::checkCatalogItem(presetItem("bad", values), "m.json"));
    values = basePresetValues();
    values["linear_attention_layers"] = 30;
    QVERIFY_THROWS_EXCEPTION(model::InputError, model::checkCatalogItem(presetItem("bad", values), "m.json"));
    // An accelerator efficiency above 1.2 or at 0.
    model::CatalogItem acc = *test_support::catalog().find("h100-sxm");
    acc.values["decode_hbm_efficiency"] = model::CatalogValue{1.5, 1.5, 1.5, "test", false};
    QVERIFY_THROWS_EXCEPTION(model::InputError, model::checkCatalogItem(acc, "accelerators.json"));
    acc.values["decode_hbm_efficiency"] = model::CatalogValue{0, 0, 0, "test", false};
    QVERIFY_THROWS_EXCEPTION(model::InputError, model::checkCatalogItem(acc, "accelerators.json"));
}

void TestInference::referencesUsePresets() {
    // The agentic reference names kimi-k2 and qwen3-coder-480b-a35b; the engine reads the preset architecture:
    // the Kimi service's prefill attention share at 20K prompts is 0.3904 (prefillAttentionKimiK2).
    const auto r = cost::evaluate(test_support::reference("agentic-inference-gb300"), test_support::catalog(),
                                  test_support::defaults());
    QCOMPARE(r.inference.front().serviceId, std::string("kimi-k2"));
    CTWIN_COMPARE_REL(r.inference.front().prefillAttentionShare, 0.3904, 1e-9);
    // Replicas within the 72-GPU domain and a whole number of domains per pool.
    for (const auto& i : r.inference) {
        QVERIFY(i.sizing.decode.replicaGpus >= 1 && 72 % i.sizing.decode.replicaGpus == 0);
        QCOMPARE(std::fmod(i.sizing.prefillGpus, 72.0), 0.0);
        QCOMPARE(std::fmod(i.sizing.decodeGpus, 72.0), 0.0);
        // Output and total tokens per provisioned MW differ by the input tokens; per average MW is higher.
        QVERIFY(i.totalTokensPerSecondPerMw > i.outputTokensPerSecondPerMw);
        QVERIFY(i.outputTokensPerSecondPerAverageMw >= i.outputTokensPerSecondPerMw);
    }
}

void TestInference::statedTensorParallel() {
    // A stated replica size is used as given: toy in a 4-GPU domain at 60 tok/s/user, G = 4 -> batch 1,886
    // (replicaSearchPicksHandOptimum), although G = 2 is better.
    AcceleratorSpec a = toyGpu();
    a.domainGpus = 4;
    a.scaleUpBandwidth = units::bytesPerSecond(400e9);
    bool meets = false;
    const DecodePoint p = chooseReplica(toyModel(), a, 2000, 3000, target(60), 4, meets);
    QCOMPARE(p.replicaGpus, 4);
    QCOMPARE(p.batch, 1886.0);
}

void TestInference::tensorParallelLargerThanDomainRefused() {
    // vera-rubin-504 serves on 72-GPU NVL72 domains: tensor_parallel 144 is refused naming the field; 9 is used.
    auto p = test_support::reference("vera-rubin-504");
    p.inferenceServices.front().tensorParallel = 144;
    try {
        cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QFAIL("TP larger than the domain accepted");
    } catch (const model::InputError& e) {
        QCOMPARE(e.where().field, std::string("tensor_parallel"));
        QCOMPARE(e.where().entityId, std::string("llama-405b"));
    }
    p.inferenceServices.front().tensorParallel = 9;
    const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
    QCOMPARE(r.inference.front().sizing.decode.replicaGpus, 9);
    // An unknown preset is refused naming the field.
    p.inferenceServices.front().model = "no-such-model";
    try {
        cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QFAIL("unknown preset accepted");
    } catch (const model::InputError& e) {
        QCOMPARE(e.where().field, std::string("model"));
    }
}

QTEST_APPLESS_MAIN(TestInference)
#include "test_inference.moc"
