// Inference economics (SPEC.md §4.8): KV bytes per token, the decode roofline per scale-up domain, the
// tokens/s/GPU vs tokens/s/user curve, prefill throughput and service sizing with KV offload tiers.
// Hand calculations are in the comments (python3 for the digits); tolerances are stated per check.
#include "../test_compare.h"
#include "inference.h"

#include <QtTest>
#include <cmath>

using namespace ctwin;
using namespace ctwin::cost;

namespace {

// Llama-3-70B-like dense model served in FP8 weights with BF16 KV cache: 80 layers, 8 KV heads (GQA),
// head dim 128 (Meta's published configuration).
ServedModel dense70bFp8() {
    ServedModel m;
    m.params = 7e10;
    m.activeParams = 7e10;
    m.layers = 80;
    m.kvHeads = 8;
    m.headDim = 128;
    m.kvBytesPerElement = 2;
    m.weightBytesPerParam = 1;
    return m;
}

// HGX H100 (REFERENCES.md): 1,979 TF dense FP8, 3.35 TB/s and 80 GB HBM, NVLink 900 GB/s, 8 per domain.
AcceleratorSpec hgxH100() {
    AcceleratorSpec a;
    a.flops = 1979e12 * units::hertz;
    a.hbmBandwidth = units::bytesPerSecond(3.35e12);
    a.hbmCapacity = units::bytes(80e9);
    a.scaleUpBandwidth = units::bytesPerSecond(900e9);
    a.domainGpus = 8;
    a.hostMemoryPerGpu = units::bytes(256e9);
    return a;
}

// A toy with round numbers for hand sizing: one GPU per domain (no all-reduce), 1 PFLOP/s, 1 TB/s,
// 100 GB HBM, 20 GB host DRAM per GPU; a 10B model at 1 byte per weight with 10,000 KV bytes per token
// (2 × 10 layers × 5 KV heads × 100 head dim × 1 byte).
AcceleratorSpec toyGpu() {
    AcceleratorSpec a;
    a.flops = 1e15 * units::hertz;
    a.hbmBandwidth = units::bytesPerSecond(1e12);
    a.hbmCapacity = units::bytes(100e9);
    a.scaleUpBandwidth = units::bytesPerSecond(0); // unused with one GPU per domain
    a.domainGpus = 1;
    a.hostMemoryPerGpu = units::bytes(20e9);
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
           std::isfinite(p.tokensPerSecondPerUser) && std::isfinite(p.tokensPerSecondPerGpu);
}

bool finite(const ServiceSizing& s) {
    return finite(s.decode) && std::isfinite(s.prefillTokensPerSecondPerGpu) &&
           std::isfinite(s.prefillFraction) && std::isfinite(s.prefillGpus) && std::isfinite(s.decodeGpus) &&
           std::isfinite(s.requestsPerSecond) && std::isfinite(s.inputTokensPerSecond) &&
           std::isfinite(s.outputTokensPerSecond) && std::isfinite(s.kvTotal.value()) &&
           std::isfinite(s.kvInHbm.value()) && std::isfinite(s.kvInDram.value()) &&
           std::isfinite(s.kvInNvme.value());
}

} // namespace

class TestInference : public QObject {
    Q_OBJECT
private slots:
    void kvBytesPerTokenLlama70b();
    void decodeMemoryBoundBatch1();
    void decodeComputeBoundLargeBatch();
    void singleGpuHasNoCommunication();
    void moeWeightsReadGrowWithBatch();
    void curveStopsAtHbm();
    void curveEmptyWhenWeightsDoNotFit();
    void curveMonotone_data();
    void curveMonotone();
    void prefillRate();
    void sizeServiceGolden();
    void sizeServiceTargetMissed();
    void sizeServiceKvWithoutNvme();
    void badInputsFinite_data();
    void badInputsFinite();
};

void TestInference::kvBytesPerTokenLlama70b() {
    // 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 B per token (exact).
    QCOMPARE(kvBytesPerToken(dense70bFp8()).value(), 327680.0);
}

void TestInference::decodeMemoryBoundBatch1() {
    // Dense 70B FP8 on 8 × H100, batch 1, context 4,096, efficiency 0.5:
    // compute = 2 × 7e10 × 1 / (8 × 1979e12 × 0.5) = 1.4e11 / 7.916e15 = 1.76857e-5 s
    // memory  = (7e10 weights + 1 × 4096 × 327,680 = 1.34217728e9 KV) / (8 × 3.35e12)
    //         = 7.134217728e10 / 2.68e13
    //         = 2.662021540e-3 s
    // comm    = 2 × 80 × (5 µs + 16,384 B / 9e11 B/s = 1.820444e-8 s) = 8.029127111e-4 s
    // step    = 2.662021540e-3 + 8.029127111e-4 = 3.464934251e-3 s
    //   -> 288.6057649 tokens/s/user, 288.6 / 8 = 36.07572061 tokens/s/GPU, memory-bound.
    const DecodePoint p = decodePoint(dense70bFp8(), hgxH100(), 4096, 1, 0.5);
    QCOMPARE(p.batch, 1.0);
    QVERIFY(p.memoryBound);
    CTWIN_COMPARE_REL(p.stepTime.value(), 3.4649342514096186e-3, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerUser, 288.6057649126173, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 36.07572061407716, 1e-9);
}

void TestInference::decodeComputeBoundLargeBatch() {
    // Same replica, batch 512, short context 128 (at long context decode stays memory-bound: each sequence
    // reads 1.34 GB of KV for 140 GFLOPs, 104 FLOP/B, below the 0.5 × 1979e12 / 3.35e12 = 295 FLOP/B
    // machine balance):
    // compute = 2 × 7e10 × 512 / 7.916e15 = 9.055078322e-3 s
    // memory  = (7e10 + 512 × 128 × 327,680 = 2.147483648e10) / 2.68e13 = 3.413240167e-3 s
    // comm    = 160 × (5e-6 + 512 × 16,384 / 9e11 = 9.320675556e-6) = 2.291308089e-3 s
    // step    = 9.055078322e-3 + 2.291308089e-3 = 1.134638641e-2 s
    //   -> 88.13378672 tokens/s/user, 512 / (step × 8) = 5640.56235 tokens/s/GPU, compute-bound.
    const DecodePoint p = decodePoint(dense70bFp8(), hgxH100(), 128, 512, 0.5);
    QVERIFY(!p.memoryBound);
    CTWIN_COMPARE_REL(p.stepTime.value(), 1.1346386411273932e-2, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerUser, 88.13378671877292, 1e-9);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 5640.562350001467, 1e-9);
}

void TestInference::singleGpuHasNoCommunication() {
    // Toy on one GPU, context 2,000, batch 256: compute 2 × 1e10 × 256 / 1e15 = 5.12e-3 s;
    // memory (1e10 + 256 × 2000 × 1e4) / 1e12 = 1.512e-2 s; no all-reduce -> step 1.512e-2 s.
    // Tolerance 1e-12 relative.
    const DecodePoint p = decodePoint(toyModel(), toyGpu(), 2000, 256, 1.0);
    CTWIN_COMPARE_REL(p.stepTime.value(), 1.512e-2, 1e-12);
    CTWIN_COMPARE_REL(p.tokensPerSecondPerGpu, 256 / 1.512e-2, 1e-12);
    QVERIFY(p.memoryBound);
}

void TestInference::moeWeightsReadGrowWithBatch() {
    // MoE toy: 100B total, 10B active, zero context (weights only), one GPU at 1 TB/s.
    // Batch 4 touches at most 4 × 10B = 40 GB -> 0.04 s; batch 16 would touch 160 GB but there are only
    // 100 GB of weights -> 0.1 s. Compute at batch 16: 2 × 1e10 × 16 / 1e15 = 3.2e-4 s, below memory.
    ServedModel m = toyModel();
    m.params = 1e11;
    m.activeParams = 1e10;
    CTWIN_COMPARE_REL(decodePoint(m, toyGpu(), 0, 4, 1.0).stepTime.value(), 0.04, 1e-12);
    CTWIN_COMPARE_REL(decodePoint(m, toyGpu(), 0, 16, 1.0).stepTime.value(), 0.1, 1e-12);
}

void TestInference::curveStopsAtHbm() {
    // 8 × 80 GB × 0.9 = 576 GB usable; weights 70 GB; each sequence at context 4,096 holds
    // 4096 × 327,680 = 1.342 GB of KV -> at most (576 − 70) / 1.342 = 377 sequences: batches 1 … 256,
    // nine points.
    const auto curve = decodeCurve(dense70bFp8(), hgxH100(), 4096, 0.5);
    QCOMPARE(curve.size(), std::size_t(9));
    QCOMPARE(curve.front().batch, 1.0);
    QCOMPARE(curve.back().batch, 256.0);
    // Toy: (90 GB − 10 GB) / (2000 × 1e4 B) = 4,000 sequences -> batches 1 … 2,048, twelve points.
    const auto toy = decodeCurve(toyModel(), toyGpu(), 2000, 1.0);
    QCOMPARE(toy.size(), std::size_t(12));
    QCOMPARE(toy.back().batch, 2048.0);
    // Context 10,000 -> 1e8 B per sequence; 80 GB holds 800 sequences, so the last power of two is 512
    // (1,024 × 1e8 = 102.4 GB does not fit).
    const auto edge = decodeCurve(toyModel(), toyGpu(), 10000, 1.0);
    QCOMPARE(edge.back().batch, 512.0);
}

void TestInference::curveEmptyWhenWeightsDoNotFit() {
    // 405B at BF16 = 810 GB > 576 GB usable on 8 × H100: no decode point; the caller flags the domain.
    ServedModel m = dense70bFp8();
    m.params = m.activeParams = 4.05e11;
    m.weightBytesPerParam = 2;
    QVERIFY(decodeCurve(m, hgxH100(), 4096, 0.5).empty());
}

void TestInference::curveMonotone_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("dense 70B FP8 on HGX H100, context 4K") << 0;
    QTest::newRow("dense 70B FP8 on HGX H100, context 128") << 1;
    QTest::newRow("MoE 671B/37B FP8 on NVL72") << 2;
    QTest::newRow("toy on one GPU") << 3;
}

void TestInference::curveMonotone() {
    QFETCH(int, which);
    ServedModel m = dense70bFp8();
    AcceleratorSpec a = hgxH100();
    double context = 4096;
    if (which == 1) context = 128;
    if (which == 2) {
        // DeepSeek-V3-like sizes (MLA's compressed KV approximated as one 576-wide head per layer) on a
        // GB200 NVL72 domain (REFERENCES.md: 5 PF FP8, 8 TB/s, 186 GB, NVLink 1.8 TB/s, 72 GPUs).
        m.params = 6.71e11;
        m.activeParams = 3.7e10;
        m.layers = 61;
        m.kvHeads = 1;
        m.headDim = 576;
        a.flops = 5e15 * units::hertz;
        a.hbmBandwidth = units::bytesPerSecond(8e12);
        a.hbmCapacity = units::bytes(186e9);
        a.scaleUpBandwidth = units::bytesPerSecond(1.8e12);
        a.domainGpus = 72;
        context = 8192;
    }
    if (which == 3) {
        m = toyModel();
        a = toyGpu();
        context = 2000;
    }
    const auto curve = decodeCurve(m, a, context, 0.5);
    QVERIFY(curve.size() >= 2);
    for (std::size_t i = 1; i < curve.size(); ++i) {
        QCOMPARE(curve[i].batch, 2 * curve[i - 1].batch);
        // Tokens/s/GPU never falls and tokens/s/user never rises as the batch grows (exact property of the
        // formula: step/batch is non-increasing and step is non-decreasing in batch).
        QVERIFY2(curve[i].tokensPerSecondPerGpu >= curve[i - 1].tokensPerSecondPerGpu,
                 qPrintable(QStringLiteral("per GPU falls at batch %1").arg(curve[i].batch)));
        QVERIFY2(curve[i].tokensPerSecondPerUser <= curve[i - 1].tokensPerSecondPerUser,
                 qPrintable(QStringLiteral("per user rises at batch %1").arg(curve[i].batch)));
    }
}

void TestInference::prefillRate() {
    // 1979e12 × 0.5 / (2 × 7e10) = 9.895e14 / 1.4e11 = 7,067.857143 tokens/s/GPU (tolerance 1e-12).
    CTWIN_COMPARE_REL(prefillTokensPerSecondPerGpu(dense70bFp8(), hgxH100(), 0.5), 7067.857142857143, 1e-12);
    // MoE: only active parameters count. Toy GPU 1e15 / (2 × 1e10) = 50,000.
    ServedModel moe = toyModel();
    moe.params = 1e11;
    CTWIN_COMPARE_REL(prefillTokensPerSecondPerGpu(moe, toyGpu(), 1.0), 50000.0, 1e-12);
}

namespace {
// Toy service: 1,000 input and 2,000 output tokens per request, 50 tokens/s/user target, 100 GPUs.
ServiceDemand toyDemand() {
    ServiceDemand d;
    d.inputTokens = 1000;
    d.outputTokens = 2000;
    d.targetTokensPerSecondPerUser = 50;
    d.gpus = 100;
    d.disaggregated = true;
    d.concurrentSessions = 10000;
    d.sessionContextTokens = 100000;
    d.offloadDram = true;
    d.offloadNvme = true;
    return d;
}
} // namespace

void TestInference::sizeServiceGolden() {
    // Decode context = 1000 + 2000 / 2 = 2,000 tokens -> 2e7 KV bytes per sequence.
    // Step at batch b (one GPU, memory-bound): (1e10 + b × 2e7) / 1e12 = 0.01 + 2e-5·b s.
    //   batch 256: 0.01512 s -> 66.14 tokens/s/user >= 50; batch 512: 0.02024 s -> 49.41 < 50.
    //   Operating point batch 256: 256 / 0.01512 = 16,931.21693 tokens/s/GPU.
    // Prefill: 1e15 / 2e10 = 50,000 tokens/s/GPU.
    // GPU-seconds per request: prefill 1000 / 50,000 = 0.02; decode 2000 / 16,931.21693 = 0.118125;
    //   total 0.138125 -> prefill fraction 0.02 / 0.138125 = 0.1447963801.
    // 100 GPUs: prefill 14.47963801, decode 85.52036199; 100 / 0.138125 = 723.9819005 requests/s,
    //   723,981.9005 input and 1,447,963.801 output tokens/s.
    // KV: 10,000 sessions × 100,000 tokens × 1e4 B = 1e13 B. HBM: floor(85.52) = 85 replicas × (90 − 10) GB
    //   = 6.8e12 B; DRAM: 20 GB × 100 GPUs = 2e12 B; NVMe: the remaining 1.2e12 B; fits.
    // Tolerance 1e-9 relative (rounding only).
    const ServiceSizing s = sizeService(toyModel(), toyGpu(), toyDemand(), 1.0);
    QVERIFY(s.meetsTarget);
    QCOMPARE(s.decode.batch, 256.0);
    CTWIN_COMPARE_REL(s.decode.tokensPerSecondPerUser, 66.13756613756614, 1e-9);
    CTWIN_COMPARE_REL(s.decode.tokensPerSecondPerGpu, 16931.21693121693, 1e-9);
    CTWIN_COMPARE_REL(s.prefillTokensPerSecondPerGpu, 50000.0, 1e-9);
    CTWIN_COMPARE_REL(s.prefillFraction, 0.14479638009049775, 1e-9);
    CTWIN_COMPARE_REL(s.prefillGpus, 14.479638009049776, 1e-9);
    CTWIN_COMPARE_REL(s.decodeGpus, 85.52036199095022, 1e-9);
    CTWIN_COMPARE_REL(s.requestsPerSecond, 723.9819004524887, 1e-9);
    CTWIN_COMPARE_REL(s.inputTokensPerSecond, 723981.9004524887, 1e-9);
    CTWIN_COMPARE_REL(s.outputTokensPerSecond, 1447963.8009049774, 1e-9);
    CTWIN_COMPARE_REL(s.kvTotal.value(), 1e13, 1e-12);
    CTWIN_COMPARE_REL(s.kvInHbm.value(), 6.8e12, 1e-9);
    CTWIN_COMPARE_REL(s.kvInDram.value(), 2e12, 1e-9);
    CTWIN_COMPARE_REL(s.kvInNvme.value(), 1.2e12, 1e-9);
    QVERIFY(s.kvFits);

    // Co-located serving splits GPU-time in the same ratio (prefill interference is not charged).
    ServiceDemand colocated = toyDemand();
    colocated.disaggregated = false;
    const ServiceSizing c = sizeService(toyModel(), toyGpu(), colocated, 1.0);
    CTWIN_COMPARE_REL(c.requestsPerSecond, s.requestsPerSecond, 1e-12);
    CTWIN_COMPARE_REL(c.prefillFraction, s.prefillFraction, 1e-12);
}

void TestInference::sizeServiceTargetMissed() {
    // 200 tokens/s/user is beyond even batch 1 (step 0.01002 s -> 99.80 tokens/s/user): the batch-1 point
    // is reported with meetsTarget = false, and throughput follows from it:
    // decode 2000 / 99.80039920 = 20.04 GPU-s, prefill 0.02 -> 100 / 20.06 = 4.985044865 requests/s.
    ServiceDemand d = toyDemand();
    d.targetTokensPerSecondPerUser = 200;
    const ServiceSizing s = sizeService(toyModel(), toyGpu(), d, 1.0);
    QVERIFY(!s.meetsTarget);
    QCOMPARE(s.decode.batch, 1.0);
    CTWIN_COMPARE_REL(s.decode.tokensPerSecondPerUser, 99.80039920159682, 1e-9);
    CTWIN_COMPARE_REL(s.requestsPerSecond, 100.0 / 20.06, 1e-9);
}

void TestInference::sizeServiceKvWithoutNvme() {
    // Without NVMe the last 1.2e12 B has nowhere to go: kvFits = false, nothing placed on NVMe.
    ServiceDemand d = toyDemand();
    d.offloadNvme = false;
    const ServiceSizing s = sizeService(toyModel(), toyGpu(), d, 1.0);
    QVERIFY(!s.kvFits);
    QCOMPARE(s.kvInNvme.value(), 0.0);
    CTWIN_COMPARE_REL(s.kvInHbm.value() + s.kvInDram.value(), 8.8e12, 1e-9);
    // Without DRAM either, only HBM holds KV.
    d.offloadDram = false;
    const ServiceSizing h = sizeService(toyModel(), toyGpu(), d, 1.0);
    QVERIFY(!h.kvFits);
    QCOMPARE(h.kvInDram.value(), 0.0);
    CTWIN_COMPARE_REL(h.kvInHbm.value(), 6.8e12, 1e-9);
    // Few sessions fit in HBM alone: 100 × 100,000 × 1e4 = 1e11 B.
    d.concurrentSessions = 100;
    const ServiceSizing few = sizeService(toyModel(), toyGpu(), d, 1.0);
    QVERIFY(few.kvFits);
    CTWIN_COMPARE_REL(few.kvInHbm.value(), 1e11, 1e-12);
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
    double efficiency = 0.5;
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
        efficiency = 0;
        break;
    case 5:
        a.scaleUpBandwidth = units::bytesPerSecond(0);
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
        d = ServiceDemand{};
        efficiency = 0;
        break;
    }
    const DecodePoint p = decodePoint(m, a, 4096, 1, efficiency);
    QVERIFY(finite(p));
    QVERIFY(finite(decodePoint(m, a, 4096, 0, efficiency)));
    QVERIFY(std::isfinite(prefillTokensPerSecondPerGpu(m, a, efficiency)));
    for (const DecodePoint& q : decodeCurve(m, a, 4096, efficiency))
        QVERIFY(finite(q));
    const ServiceSizing s = sizeService(m, a, d, efficiency);
    QVERIFY(finite(s));
    QVERIFY(!s.meetsTarget);
    QCOMPARE(s.requestsPerSecond, 0.0);
    QCOMPARE(s.outputTokensPerSecond, 0.0);
}

QTEST_APPLESS_MAIN(TestInference)
#include "test_inference.moc"
