// Training economics (SPEC.md §4.7): 6·N·D FLOPs, time on a fleet, and the scale-across slowdown.
// Hand calculations are in the comments (python3 for the digits); tolerances are stated per check.
#include "../test_compare.h"
#include "training.h"

#include <QtTest>
#include <cmath>

using namespace ctwin;
using namespace ctwin::cost;

namespace {

// Llama 3 405B pre-training (Meta, "The Llama 3 Herd of Models", 2024; REFERENCES.md): 405B dense
// parameters, 15.6T tokens, 16,384 H100 at 989 TF dense BF16, MFU 0.40 (inside the reported 38–43%),
// goodput 0.9 (assumed for the test), 16M-token global batch (the header's default).
TrainingInput llama3_405b() {
    TrainingInput in;
    in.activeParams = 4.05e11;
    in.modelParams = 4.05e11;
    in.tokens = 1.56e13;
    in.gpus = 16384;
    in.peakFlopsPerGpu = 989e12 * units::hertz;
    in.mfu = 0.40;
    in.goodput = 0.9;
    in.globalBatchTokens = 16e6;
    in.gradientBytesPerParam = 2;
    return in;
}

bool finite(const TrainingEstimate& e) {
    return std::isfinite(e.flops) && std::isfinite(e.stepComputeTime.value()) &&
           std::isfinite(e.stepWanTime.value()) && std::isfinite(e.scaleAcrossSlowdown) &&
           std::isfinite(e.time.value());
}

} // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    void flopsLlama3();
    void timeLlama3SingleSite();
    void twoSitesWanBound();
    void twoSitesWanHidden();
    void fourSites();
    void moeGradientsUseAllParams();
    void zeroWanBandwidthInfeasible();
    void badInputsFinite_data();
    void badInputsFinite();
};

void TestTraining::flopsLlama3() {
    // 6 × 4.05e11 × 1.56e13 = 3.7908e25 FLOPs (exact product; tolerance 1e-12 relative).
    CTWIN_COMPARE_REL(trainingFlops(4.05e11, 1.56e13), 3.7908e25, 1e-12);
    // REFERENCES.md quotes 3.8e25 for Llama 3 405B: within 1%.
    CTWIN_COMPARE_REL(trainingFlops(4.05e11, 1.56e13), 3.8e25, 0.01);
}

void TestTraining::timeLlama3SingleSite() {
    const TrainingEstimate e = estimateTraining(llama3_405b());
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.flops, 3.7908e25, 1e-12);
    // Step: 6 × 4.05e11 × 16e6 / (16384 × 989e12 × 0.40) = 3.888e19 / 6.4815e18 = 5.998601807 s.
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 5.998601807381, 1e-9);
    // Time: 3.7908e25 / (16384 × 989e12 × 0.40 × 0.9) = 6,498,485.291 s = 75.21395013 days.
    CTWIN_COMPARE_REL(e.time.value(), 6498485.291329626, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 75.21395013113, 1e-9);
    QCOMPARE(e.scaleAcrossSlowdown, 1.0);
    QCOMPARE(e.stepWanTime.value(), 0.0);
}

void TestTraining::twoSitesWanBound() {
    // Two sites 1,100 km of fiber apart joined by 100 GB/s (800 Gb/s) for the job.
    // Latency: 1.1e6 m × 4.9e-9 s/m = 5.39 ms one way (REFERENCES.md: 4.9 µs per km).
    // WAN per step: 2 B × 4.05e11 × 2·(2−1)/2 / 1e11 B/s = 8.1 s, plus 2·(2−1) × 5.39 ms = 10.78 ms
    //   -> 8.11078 s.
    // Slowdown: max(5.998601807, 8.11078) / 5.998601807 = 1.352111752.
    // Time: 75.21395013 days × 1.352111752 = 101.6976659 days.
    TrainingInput in = llama3_405b();
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    in.wanOneWayLatency = units::seconds(1.1e6 * 4.9e-9);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(in.wanOneWayLatency.value(), 5.39e-3, 1e-12);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 5.998601807381, 1e-9);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 8.11078, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 1.352111752111934, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 101.6976658950617, 1e-9);
}

void TestTraining::twoSitesWanHidden() {
    // Same link at 1 TB/s: WAN per step 0.81 s + 10.78 ms = 0.82078 s < 5.9986 s compute, fully hidden:
    // slowdown exactly 1 and the time equals the single-site time.
    TrainingInput in = llama3_405b();
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(1e12);
    in.wanOneWayLatency = units::seconds(1.1e6 * 4.9e-9);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 0.82078, 1e-9);
    QCOMPARE(e.scaleAcrossSlowdown, 1.0);
    CTWIN_COMPARE_REL(e.time.value(), 6498485.291329626, 1e-9);
}

void TestTraining::fourSites() {
    // Four sites, 100 GB/s slowest link, 5.39 ms one way:
    // WAN per step: 8.1e11 B × 2·3/4 / 1e11 = 12.15 s, plus 2·3 × 5.39 ms = 32.34 ms -> 12.18234 s.
    // Slowdown: 12.18234 / 5.998601807 = 2.030863256; time 75.21395013 × 2.030863256 = 152.7492477 days.
    TrainingInput in = llama3_405b();
    in.sites = 4;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    in.wanOneWayLatency = units::seconds(5.39e-3);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 12.18234, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 2.0308632563358, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 152.7492476851852, 1e-9);
}

void TestTraining::moeGradientsUseAllParams() {
    // MoE: 37B active, 671B total (DeepSeek-V3-like). FLOPs use active params, WAN gradients use all.
    // 6 × 3.7e10 × 1.48e13 = 3.2856e24 FLOPs.
    // Step compute on 2,048 GPUs × 989e12 × 0.4 = 8.101888e17 FLOP/s: 6 × 3.7e10 × 16e6 = 3.552e18 FLOPs
    //   -> 4.384163296 s.
    // WAN (2 sites, 1e11 B/s, zero latency): 2 B × 6.71e11 × 1 / 1e11 = 13.42 s
    //   -> slowdown 13.42 / 4.384163296 = 3.061017369.
    TrainingInput in;
    in.activeParams = 3.7e10;
    in.modelParams = 6.71e11;
    in.tokens = 1.48e13;
    in.gpus = 2048;
    in.peakFlopsPerGpu = 989e12 * units::hertz;
    in.mfu = 0.4;
    in.goodput = 1;
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.flops, 3.2856e24, 1e-12);
    const double stepCompute = 6 * 3.7e10 * 16e6 / (2048 * 989e12 * 0.4);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), stepCompute, 1e-12);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 4.384163296, 1e-9);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 13.42, 1e-12);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 13.42 / stepCompute, 1e-12);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 3.061017369, 1e-9);
}

void TestTraining::zeroWanBandwidthInfeasible() {
    TrainingInput in = llama3_405b();
    in.sites = 2; // but no link
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(!e.feasible);
    QVERIFY(finite(e));
}

void TestTraining::badInputsFinite_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("zero gpus") << 0;
    QTest::newRow("zero peak") << 1;
    QTest::newRow("zero mfu") << 2;
    QTest::newRow("zero goodput") << 3;
    QTest::newRow("negative gpus") << 4;
    QTest::newRow("negative mfu") << 5;
    QTest::newRow("zero sites") << 6;
    QTest::newRow("all defaults") << 7;
}

void TestTraining::badInputsFinite() {
    QFETCH(int, which);
    TrainingInput in = llama3_405b();
    switch (which) {
    case 0:
        in.gpus = 0;
        break;
    case 1:
        in.peakFlopsPerGpu = 0 * units::hertz;
        break;
    case 2:
        in.mfu = 0;
        break;
    case 3:
        in.goodput = 0;
        break;
    case 4:
        in.gpus = -8;
        break;
    case 5:
        in.mfu = -0.4;
        break;
    case 6:
        in.sites = 0;
        break;
    default:
        in = TrainingInput{};
        break;
    }
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(!e.feasible);
    QVERIFY(finite(e));
    QCOMPARE(e.time.value(), 0.0);
    QCOMPARE(e.stepComputeTime.value(), 0.0);
}

QTEST_APPLESS_MAIN(TestTraining)
#include "test_training.moc"
