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
    void reviewerTwoSiteCase();
    void pipelineBubble1F1B();
    void recomputationFactors();
    void expertAllToAll();
    void fractionalMicrobatchesRoundUp();
    void pipelineBubbleInterleavedMatchesReference();
    void pipelinedWanOverlapsLastMicrobatch();
    void batchBelowOneMicrobatch();
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
    // Only the backward pass (2/3 of the step, one microbatch, no pipeline) can hide the exchange:
    //   window 2/3 × 5.998601807 = 3.999067872 s; stall 8.11078 - 3.999067872 = 4.111712128 s.
    // Slowdown: (5.998601807 + 4.111712128) / 5.998601807 = 1.685445085 (was max(C, W)/C = 1.352).
    // Time: 75.21395013 days × 1.685445085 = 126.7689826 days.
    TrainingInput in = llama3_405b();
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    in.wanOneWayLatency = units::seconds(1.1e6 * 4.9e-9);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(in.wanOneWayLatency.value(), 5.39e-3, 1e-12);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 5.998601807381, 1e-9);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 8.11078, 1e-9);
    CTWIN_COMPARE_REL(e.wanOverlapWindow.value(), 2.0 / 3.0 * 5.998601807381, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 1.6854450854452674, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 126.76898260543837, 1e-9);
}

void TestTraining::twoSitesWanHidden() {
    // Same link at 1 TB/s: WAN per step 0.81 s + 10.78 ms = 0.82078 s < 3.9991 s backward, fully hidden:
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
    // Backward-only overlap (window 3.999067872 s): slowdown (5.998601807 + 12.18234 - 3.999067872) /
    //   5.998601807 = 2.364196590; time 75.21395013 × 2.364196590 = 177.8205644 days.
    TrainingInput in = llama3_405b();
    in.sites = 4;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    in.wanOneWayLatency = units::seconds(5.39e-3);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 12.18234, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 2.364196589669136, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 177.82056439556186, 1e-9);
}

void TestTraining::moeGradientsUseAllParams() {
    // MoE: 37B active, 671B total (DeepSeek-V3-like). FLOPs use active params, WAN gradients use all.
    // 6 × 3.7e10 × 1.48e13 = 3.2856e24 FLOPs.
    // Step compute on 2,048 GPUs × 989e12 × 0.4 = 8.101888e17 FLOP/s: 6 × 3.7e10 × 16e6 = 3.552e18 FLOPs
    //   -> 4.384163296 s.
    // WAN (2 sites, 1e11 B/s, zero latency): 2 B × 6.71e11 × 1 / 1e11 = 13.42 s
    //   -> slowdown (4.384163296 + 13.42 - 2/3 × 4.384163296) / 4.384163296 = 1/3 + 13.42 / 4.384163296
    //   = 3.394350703 (backward-only overlap).
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
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 1.0 / 3.0 + 13.42 / stepCompute, 1e-12);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 3.394350703, 1e-9);
}

void TestTraining::reviewerTwoSiteCase() {
    // Issue 19 item 2, the reviewer's two-site case (two-site-wan reference before this change): 2T MoE,
    // 200B active, 69,120 GB200 at 5e15 FP8, MFU 0.40, 16M-token batch, 2 sites over 160 Tb/s = 2e13 B/s,
    // 1,100 km (5.39 ms one way). No pipeline term (one microbatch per replica, as the reviewer computed).
    //   C = 6 × 2e11 × 16e6 / (69,120 × 5e15 × 0.4) = 1.92e19 / 1.3824e20 = 0.138888889 s
    //   W = 2 B × 2e12 × 2·1/2 / 2e13 + 2 × 5.39e-3 = 0.2 + 0.01078 = 0.21078 s
    //   old max(C, W)/C = 1.517616 (the reported 1.52)
    //   backward-only: (C + W - 2/3 C)/C = 1/3 + W/C = 1.850949333 (the reviewer's 1.85)
    //   no overlap: 1 + W/C = 2.517616 (the reviewer's 2.52)
    TrainingInput in;
    in.activeParams = 2e11;
    in.modelParams = 2e12;
    in.tokens = 4e13;
    in.gpus = 69120;
    in.peakFlopsPerGpu = 5e15 * units::hertz;
    in.mfu = 0.4;
    in.globalBatchTokens = 16e6;
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(160e12 / 8);
    in.wanOneWayLatency = units::seconds(1.1e6 * 4.9e-9);
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 0.1388888888888889, 1e-12);
    CTWIN_COMPARE_REL(e.stepWanTime.value(), 0.21078, 1e-12);
    CTWIN_COMPARE_REL(e.stepWanTime.value() / e.stepComputeTime.value(), 1.517616, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 1.8509493333333338, 1e-9);
    // Within the reviewer's rounding (1.85, 2 significant decimals).
    QVERIFY(std::abs(e.scaleAcrossSlowdown - 1.85) < 0.005);
}

void TestTraining::recomputationFactors() {
    // Korthikanti et al. 2023, 175B (96 layers, s = 2,048): h = sqrt(175e9 / (12 × 96)) = 12,325.17,
    // ε = 2048 / (18h + 3·2048) = 0.0089825747; none 1/(1+ε) = 0.99109739, full (4/3)/(1+ε) = 1.32146319.
    CTWIN_COMPARE_REL(recomputationTimeFactor(Recomputation::Selective, 175e9, 96, 2048), 1.0, 1e-15);
    CTWIN_COMPARE_REL(recomputationTimeFactor(Recomputation::None, 175e9, 96, 2048), 0.9910973936733608,
                      1e-12);
    CTWIN_COMPARE_REL(recomputationTimeFactor(Recomputation::Full, 175e9, 96, 2048), 1.321463191564481,
                      1e-12);
    // Unknown layers: ε = 0, full is exactly 4/3 (8N of 6N FLOPs per token).
    CTWIN_COMPARE_REL(recomputationTimeFactor(Recomputation::Full, 175e9, 0, 2048), 4.0 / 3.0, 1e-15);
    // Through the estimate: full recomputation on the Llama 3 case takes 4/3 the time and its end-to-end
    // MFU is 0.40 × 3/4 = 0.30 (model FLOPs, PaLM convention).
    TrainingInput in = llama3_405b();
    const TrainingEstimate base = estimateTraining(in);
    in.recomputeFactor = recomputationTimeFactor(Recomputation::Full, in.activeParams, 0, 8192);
    const TrainingEstimate full = estimateTraining(in);
    CTWIN_COMPARE_REL(full.time.value(), base.time.value() * 4.0 / 3.0, 1e-12);
    CTWIN_COMPARE_REL(full.effectiveMfu, 0.30, 1e-12);
    QCOMPARE(full.recomputeFactor, 4.0 / 3.0);
}

void TestTraining::expertAllToAll() {
    // Issue 29 item 2, DeepSeek-V3-like: 256 experts, top-8, h 7,168, 61 layers, FP8 dispatch (1 B) and
    // BF16 combine (2 B), EP 32, TP 1, PP 4, DP 64 on 256 GPUs, B = 62,914,560 tokens.
    //   bytes per token-layer = (1 + 2 + 4) x 8 x 7,168 x 31/32 = 388,864
    //   per GPU per step = B/64 x 61/4 x 388,864 = 5.82960021504e12 B; EP 32 inside a 72-GPU domain:
    //   NVLink at 720 GB/s per direction -> 8.096666965 s; half hidden (overlap 0.5) -> 4.048 s exposed.
    //   busy compute = 6 x 37e9 x B / (256 x 5e15 x 0.3) = 36.37248 s -> slowdown 1.1113021021.
    TrainingInput in;
    in.activeParams = 37e9, in.modelParams = 671e9, in.tokens = 1e12, in.gpus = 256;
    in.peakFlopsPerGpu = 5e15 * units::hertz;
    in.mfu = 0.3;
    in.globalBatchTokens = 62914560, in.sequenceLength = 4096, in.dp = 64, in.pp = 4, in.virtualStages = 4;
    const TrainingEstimate dense = estimateTraining(in);
    in.experts = 256, in.activeExperts = 8, in.hiddenSize = 7168, in.moeLayers = 61, in.tp = 1, in.ep = 32;
    in.dispatchBytes = 1, in.combineBytes = 2;
    in.scaleUpDomainGpus = 72;
    in.scaleUpBandwidth = units::bytesPerSecond(720e9);
    in.scaleOutBandwidth = units::bytesPerSecond(100e9);
    in.expertCommOverlap = 0.5;
    const TrainingEstimate moe = estimateTraining(in);
    CTWIN_COMPARE_REL(moe.stepExpertCommTime.value(), 8.096666965333334, 1e-12);
    CTWIN_COMPARE_REL(moe.stepExpertExposedTime.value(), 8.096666965333334 / 2, 1e-12);
    QCOMPARE(moe.expertScaleOutShare, 0.0);
    CTWIN_COMPARE_REL(moe.expertSlowdown, 1.1113021021021021, 1e-12);
    CTWIN_COMPARE_REL(moe.time.value(), dense.time.value() * 1.1113021021021021, 1e-12);
    // EP moves the figure: EP 64 with TP 2 spans 128 GPUs, 72/128 of the peers on NVLink, 56/128 over a
    // 100 GB/s NIC: bytes = B/128 x 61/4 x (7 x 8 x 7,168 x 63/64) = 2.96181301248e12, NVLink part 2.3139 s,
    // NIC part 12.9579319296 s (the slower path sets the time).
    in.tp = 2, in.ep = 64;
    const TrainingEstimate wide = estimateTraining(in);
    CTWIN_COMPARE_REL(wide.expertScaleOutShare, 56.0 / 128.0, 1e-12);
    CTWIN_COMPARE_REL(wide.stepExpertCommTime.value(), 12.9579319296, 1e-9);
    // No expert parallelism, no all-to-all.
    in.ep = 1;
    QCOMPARE(estimateTraining(in).stepExpertCommTime.value(), 0.0);
}

void TestTraining::fractionalMicrobatchesRoundUp() {
    // 62,914,560 tokens / (1,360 × 4,096) = 11.294 microbatches: not whole; 12 pipeline slots,
    // bubble (18-1)/(4 × 12 + 17) = 17/65 = 0.261538462 with PP 18, v = 4.
    TrainingInput in = llama3_405b();
    in.globalBatchTokens = 62914560;
    in.sequenceLength = 4096;
    in.dp = 1360;
    in.pp = 18;
    in.virtualStages = 4;
    const TrainingEstimate e = estimateTraining(in);
    QCOMPARE(e.microbatches, 12.0);
    QVERIFY(!e.microbatchesDivide);
    CTWIN_COMPARE_REL(e.pipelineBubble, 17.0 / 65.0, 1e-12);
    in.globalBatchTokens = 1360.0 * 16 * 4096; // 16 whole microbatches
    const TrainingEstimate w = estimateTraining(in);
    QCOMPARE(w.microbatches, 16.0);
    QVERIFY(w.microbatchesDivide);
}

void TestTraining::pipelineBubble1F1B() {
    // Llama 3 405B layout (Meta 2024, Table 4): PP 16, DP 128, 8,192-token sequences, 16,777,216-token
    // batch (2,048 sequences), one sequence per microbatch: m = 2,048 / 128 = 16 microbatches per replica.
    // Plain 1F1B (v = 1), MFU taken as bubble-free (reference bubble 0):
    //   bubble (16-1)/(16+16-1) = 15/31 = 0.483870968
    //   time = 3.7908e25 / (16384 × 989e12 × 0.40 × 0.9) / (1 - 15/31) = 75.21395013 × 31/16
    //        = 145.7270284 days.
    TrainingInput in = llama3_405b();
    in.globalBatchTokens = 16777216;
    in.sequenceLength = 8192;
    in.dp = 128;
    in.pp = 16;
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    QCOMPARE(e.microbatches, 16.0);
    CTWIN_COMPARE_REL(e.pipelineBubble, 15.0 / 31.0, 1e-12);
    CTWIN_COMPARE_REL(units::toDays(e.time), 145.72702837906425, 1e-9);
    // End-to-end MFU: 0.40 × 16/31 = 0.206451613.
    CTWIN_COMPARE_REL(e.effectiveMfu, 0.4 * 16.0 / 31.0, 1e-12);
}

void TestTraining::pipelineBubbleInterleavedMatchesReference() {
    // Same layout, interleaved with v = 8 chunks per rank: bubble 15/(8×16 + 15) = 15/143 = 0.104895105.
    // With the MFU measured on that very layout (reference bubble 15/143), the time is the plain
    // 6·N·D / (GPUs × peak × MFU × goodput) = 75.21395013 days and the end-to-end MFU is the input 0.40.
    TrainingInput in = llama3_405b();
    in.globalBatchTokens = 16777216;
    in.sequenceLength = 8192;
    in.dp = 128;
    in.pp = 16;
    in.virtualStages = 8;
    in.mfuPipelineBubble = 15.0 / 143.0;
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.pipelineBubble, 15.0 / 143.0, 1e-12);
    CTWIN_COMPARE_REL(units::toDays(e.time), 75.21395013112993, 1e-9);
    CTWIN_COMPARE_REL(e.effectiveMfu, 0.4, 1e-12);
}

void TestTraining::pipelinedWanOverlapsLastMicrobatch() {
    // The interleaved Llama 3 layout above across two sites at 1e11 B/s, 5.39 ms: W = 8.11078 s.
    //   busy compute C = 6 × 4.05e11 × 16,777,216 / (16384 × 989e12 × 0.4) × (1 - 15/143) = 5.630200740 s
    //   pipelined step = C / (1 - 15/143) = 6.289989889 s
    //   window = 2/3 × C / 16 = 0.234591697 s (backward of the last of 16 microbatches)
    //   slowdown = (6.289989889 + 8.11078 - 0.234591697) / 6.289989889 = 2.252178214
    TrainingInput in = llama3_405b();
    in.globalBatchTokens = 16777216;
    in.sequenceLength = 8192;
    in.dp = 128;
    in.pp = 16;
    in.virtualStages = 8;
    in.mfuPipelineBubble = 15.0 / 143.0;
    in.sites = 2;
    in.wanBandwidth = units::bytesPerSecond(1e11);
    in.wanOneWayLatency = units::seconds(5.39e-3);
    in.wanSync = WanSync::LastMicrobatch;
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    CTWIN_COMPARE_REL(e.stepComputeTime.value(), 5.630200739604177, 1e-9);
    CTWIN_COMPARE_REL(e.stepPipelineTime.value(), 6.2899898887765415, 1e-9);
    CTWIN_COMPARE_REL(e.wanOverlapWindow.value(), 0.2345916974835074, 1e-9);
    CTWIN_COMPARE_REL(e.scaleAcrossSlowdown, 2.2521782136041684, 1e-9);
    CTWIN_COMPARE_REL(units::toDays(e.time), 75.21395013112993 * 2.2521782136041684, 1e-9);

    // Issue 29 item 5, the same case with staggered releases: X = 8.11078 - 2 × 5.39e-3 = 8.1 s transfer,
    // t_b = 0.234591697 s, v = 8.
    //   per stage: n = 16, Δ = w = t_b/8: stall = max(X/16, X - 15 Δ) - w + 0.01078 = 8.1 - 2 t_b + 0.01078
    //              = 7.641596605 s -> slowdown (6.289989889 + 7.641596605) / 6.289989889 = 2.214882176
    //   per chunk: n = 128, Δ = w = t_b/8: stall = 8.1 - 16 t_b + 0.01078 = 4.357312840 s -> 1.692737654
    in.wanSync = WanSync::PerStage;
    const TrainingEstimate stage = estimateTraining(in);
    CTWIN_COMPARE_REL(stage.stepTime.value() - stage.stepPipelineTime.value(),
                      8.1 - 2 * 0.2345916974835074 + 0.01078, 1e-9);
    in.wanSync = WanSync::PerChunk;
    const TrainingEstimate chunk = estimateTraining(in);
    CTWIN_COMPARE_REL(chunk.stepTime.value() - chunk.stepPipelineTime.value(), 4.357312840263881, 1e-9);
    CTWIN_COMPARE_REL(chunk.scaleAcrossSlowdown, 1.692737654163609, 1e-9);
    // A fast link: the last piece alone sets the stall, X/n - w (+ latency) and nothing below zero.
    in.wanBandwidth = units::bytesPerSecond(1e14); // X = 0.0081 s: 0.0081/128 - 0.0293 < 0 -> stall 0
    QCOMPARE(estimateTraining(in).scaleAcrossSlowdown, 1.0);
}

void TestTraining::batchBelowOneMicrobatch() {
    // 16,777,216 tokens / 8,192 = 2,048 sequences over DP 4,096: half a sequence per replica. The engine
    // estimates one microbatch (m clamped to 1; the evaluation raises job_batch_too_small):
    //   bubble (16-1)/(1+16-1) = 15/16.
    TrainingInput in = llama3_405b();
    in.globalBatchTokens = 16777216;
    in.sequenceLength = 8192;
    in.dp = 4096;
    in.pp = 16;
    const TrainingEstimate e = estimateTraining(in);
    QVERIFY(e.feasible);
    QCOMPARE(e.microbatches, 1.0);
    CTWIN_COMPARE_REL(e.pipelineBubble, 15.0 / 16.0, 1e-12);
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
