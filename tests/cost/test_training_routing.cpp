// Fabric routing and collective efficiency (issue 29 item 4): ECMP as balls into bins, adaptive routing and
// packet spraying, and the data-parallel, pipeline and expert traffic they slow down relative to the MFU
// reference's fabric. Hand calculations in the comments (python3 for the digits); tolerances per check.
#include "../test_compare.h"
#include "../test_support.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "input_resolver.h"
#include "training.h"

#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

using namespace ctwin;
using namespace ctwin::cost;
using ojson = nlohmann::ordered_json;

namespace {

/// Exact E[max load] of k flows hashed uniformly onto m links (multinomial): Σ_t (1 − P(max ≤ t)) with
/// P(max ≤ t) = k!/m^k [x^k] (Σ_{j≤t} x^j/j!)^m, the coefficient by m polynomial products (test only; the
/// engine uses the Poisson approximation).
double exactMaxLoad(int k, int m) {
    double expected = 0;
    for (int t = 0; t < k; ++t) {
        std::vector<double> poly(static_cast<size_t>(k) + 1, 0.0), base(static_cast<size_t>(k) + 1, 0.0);
        poly[0] = 1;
        double fact = 1;
        for (int j = 0; j <= std::min(t, k); ++j) {
            if (j > 0) fact *= j;
            base[static_cast<size_t>(j)] = 1.0 / fact;
        }
        for (int b = 0; b < m; ++b) {
            std::vector<double> next(poly.size(), 0.0);
            for (int i = 0; i <= k; ++i)
                if (poly[static_cast<size_t>(i)] != 0)
                    for (int j = 0; j <= std::min(t, k - i); ++j)
                        next[static_cast<size_t>(i + j)] +=
                            poly[static_cast<size_t>(i)] * base[static_cast<size_t>(j)];
            poly = std::move(next);
        }
        double logScale = -k * std::log(double(m));
        for (int i = 2; i <= k; ++i)
            logScale += std::log(double(i));
        expected += 1.0 - std::exp(logScale) * poly[static_cast<size_t>(k)];
    }
    return expected;
}

/// Llama 3 405B on 16,384 H100 as the reference ran it (Meta 2024, Table 4): TP 8, PP 16, DP 128, 8K
/// sequences, 16M-token batch, 8 virtual stages, hidden 16,384; a 400G NIC per GPU (50 GB/s).
TrainingInput llama3Layout() {
    TrainingInput in;
    in.activeParams = in.modelParams = 4.05e11;
    in.tokens = 1.56e13;
    in.gpus = 16384;
    in.peakFlopsPerGpu = 989e12 * units::hertz;
    in.mfu = 0.40;
    in.goodput = 0.9;
    in.globalBatchTokens = 16e6;
    in.sequenceLength = 8192;
    in.dp = 128, in.pp = 16, in.tp = 8, in.virtualStages = 8;
    in.hiddenSize = 16384;
    in.scaleOutBandwidth = units::bytesPerSecond(50e9);
    in.pipelineP2pOverlap = 0.5;
    in.referenceCollectiveEfficiency = referenceCollectiveEfficiency();
    in.collectiveEfficiency = in.referenceCollectiveEfficiency;
    return in;
}

ojson readReference(const std::string& name) {
    std::ifstream in(test_support::kData + "/reference/" + name + ".json");
    return ojson::parse(in);
}

ojson& fabricJson(ojson& j, const std::string& id) {
    for (auto& f : j["fabrics"])
        if (f["id"] == id) return f;
    throw std::runtime_error("no fabric " + id);
}

cost::Results evaluateJson(const ojson& j) {
    return cost::evaluate(model::projectFromJson(j, "routing.json", &test_support::catalog()),
                          test_support::catalog(), test_support::defaults());
}

double figure(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) throw std::runtime_error("no figure " + key);
    return f->value;
}

} // namespace

class TestTrainingRouting : public QObject {
    Q_OBJECT
private slots:
    void maxLoadHandChecked();
    void poissonApproximationAgainstExact();
    void ecmpEfficiency();
    void adaptiveAndSprayFollowOversubscription();
    void referenceReproducesItself();
    void ecmpSlowsPipelineSends();
    void lastMicrobatchSyncExposesDataParallel();
    void sprayBeatsTheReference();
    void alltoallAtItsEfficiency();
    void designRoutingMovesTime();
    void sensitivityToolsReachIt();
    void badRoutingInputsRefused_data();
    void badRoutingInputsRefused();
};

void TestTrainingRouting::maxLoadHandChecked() {
    // 2 flows on 2 uplinks, exact: both on one link (p = 1/2, max 2) or split (p = 1/2, max 1): E = 1.5.
    CTWIN_COMPARE_REL(exactMaxLoad(2, 2), 1.5, 1e-12);
    // Poisson approximation, λ = 1, m = 2: Σ_t (1 − F(t)²) = 0.864665 + 0.458659 + 0.154154 + 0.037616 +
    // 0.007307 + 0.001188 + 0.000166 + ... = 1.5237776 (python3); 1.6% above the exact 1.5.
    CTWIN_COMPARE_REL(expectedMaxLinkLoad(1.0, 2.0), 1.5237776118, 1e-8);
    // One link carries every flow: E[max] = λ.
    QCOMPARE(expectedMaxLinkLoad(7.0, 1.0), 7.0);
    QCOMPARE(expectedMaxLinkLoad(0.0, 16.0), 0.0);
    // Reference: 16 Poisson(16) loads, E[max] = 23.4329079779 (python3, same sum).
    CTWIN_COMPARE_REL(expectedMaxLinkLoad(16.0, 16.0), 23.4329079779, 1e-8);
    // A large λ starts the sum near the mean (t0 = λ − 12√λ) and stays finite and above λ.
    const double big = expectedMaxLinkLoad(1e6, 64.0);
    QVERIFY(std::isfinite(big) && big > 1e6 && big < 1e6 + 10 * 1e3);
}

void TestTrainingRouting::poissonApproximationAgainstExact() {
    // Stated approximation (training.h): within 3% of the exact multinomial value for these sizes, within
    // 0.1% from 4 flows per link. Exact values (python3): (4,4) 2.125, (32,32) 3.5329, (64,16) 7.8804,
    // (256,16) 23.4364.
    CTWIN_COMPARE_REL(exactMaxLoad(4, 4), 2.125, 1e-9);
    const int cases[][2] = {{2, 2}, {4, 4}, {8, 4}, {32, 32}, {64, 16}, {128, 32}, {256, 16}};
    for (const auto& c : cases) {
        const double exact = exactMaxLoad(c[0], c[1]);
        const double approx = expectedMaxLinkLoad(double(c[0]) / c[1], c[1]);
        const double tolerance = double(c[0]) / c[1] >= 4 ? 0.001 : 0.03;
        QVERIFY2(
            std::abs(approx / exact - 1) <= tolerance,
            qPrintable(
                QStringLiteral("k=%1 m=%2 exact %3 approx %4").arg(c[0]).arg(c[1]).arg(exact).arg(approx)));
    }
}

void TestTrainingRouting::ecmpEfficiency() {
    // MFU reference (Llama 3 §3.3.1): 16 flows per GPU, 16 GPUs per ToR, 1:1: 16 / 23.4329 = 0.6828004452.
    CTWIN_COMPARE_REL(referenceCollectiveEfficiency(), 0.6828004452, 1e-8);
    // One flow per port, 32 ports over 32 uplinks: 1 / E[max of 32 Poisson(1)] = 1 / 3.5224 = 0.2838975649.
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Ecmp, 1, 32, 32, 1), 0.2838975649, 1e-8);
    // Meta's "up to 40%" (Gangidi et al., SIGCOMM 2024) for E-ECMP with QP scaling over baseline ECMP: from 4
    // to 16 flows on the reference leaf the model gives 0.6828 / 0.5080455 = 1.344 (1.30-1.45 stated band);
    // from 1 to 16 it gives 2.09, more than reported: the model is pessimistic for very few flows.
    const double four = collectiveEfficiency(Routing::Ecmp, 4, 16, 16, 1);
    CTWIN_COMPARE_REL(four, 0.5080455218, 1e-8);
    const double gain = referenceCollectiveEfficiency() / four;
    QVERIFY2(gain > 1.30 && gain < 1.45, qPrintable(QString::number(gain)));
    // Meta's interim fix, twice the ToR uplinks (1:2): one flow per GPU, λ = 0.5 over 32 uplinks,
    // E[max] = 2.3830637 -> 1 / 2.3831 = 0.4196278914; with 16 flows λ = 8 over 32, E[max] < 16: 1.
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Ecmp, 1, 16, 32, 1), 0.4196278914, 1e-8);
    QCOMPARE(collectiveEfficiency(Routing::Ecmp, 16, 16, 32, 1), 1.0);
    // More uplinks per leaf hash worse: rail-pooled 256 x 256 at 16 flows 0.5631554160.
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Ecmp, 16, 256, 256, 1), 0.5631554160, 1e-8);
    // One tier (no uplinks): nothing to hash.
    QCOMPARE(collectiveEfficiency(Routing::Ecmp, 1, 64, 0, 1), 1.0);
}

void TestTrainingRouting::adaptiveAndSprayFollowOversubscription() {
    // Adaptive at 0.92, non-blocking: 0.92; 2:1 (32 down, 16 up): 0.92 x 0.5 = 0.46.
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Adaptive, 16, 32, 32, 0.92), 0.92, 1e-12);
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Adaptive, 16, 32, 16, 0.92), 0.46, 1e-12);
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Spray, 1, 64, 64, 0.97), 0.97, 1e-12);
    // Under-subscribed uplinks cannot lift a port above its line rate.
    CTWIN_COMPARE_REL(collectiveEfficiency(Routing::Spray, 1, 16, 32, 0.97), 0.97, 1e-12);
    // An efficiency outside (0, 1] (refused by the loaders) never yields a speed-up above line rate.
    QCOMPARE(collectiveEfficiency(Routing::Spray, 1, 16, 16, 1.5), 1.0);
}

void TestTrainingRouting::referenceReproducesItself() {
    // At the reference's efficiency the routing changes nothing, whatever the job's traffic.
    TrainingInput plain = llama3Layout();
    plain.collectiveEfficiency = plain.referenceCollectiveEfficiency = 1; // the header's defaults
    const TrainingEstimate a = estimateTraining(plain);
    const TrainingEstimate b = estimateTraining(llama3Layout());
    QCOMPARE(b.routingSlowdown, 1.0);
    QCOMPARE(b.stepRoutingDelta.value(), 0.0);
    QCOMPARE(a.time.value(), b.time.value());
    QCOMPARE(a.effectiveMfu, b.effectiveMfu);
}

void TestTrainingRouting::ecmpSlowsPipelineSends() {
    // Plain ECMP, one flow per port on a 32 x 32 leaf (0.2838975649) against the reference 0.6828004452.
    TrainingInput in = llama3Layout();
    in.collectiveEfficiency = collectiveEfficiency(Routing::Ecmp, 1, 32, 32, 1);
    const TrainingEstimate e = estimateTraining(in);
    // busy = 6 x 4.05e11 x 16e6 / (16384 x 989e12 x 0.40) = 5.9986018074 s; m = ceil(16e6 / (128 x 8192))
    // = 16; bubble 15 / (8 x 16 + 15) = 0.1048951049; pipelined step 5.9986 / 0.895105 = 6.7015629567 s.
    CTWIN_COMPARE_REL(e.stepPipelineTime.value(), 6.7015629567, 1e-9);
    // Pipeline sends: 2 x 16 x 8 x (8192 x 16384 x 2 B / 8) / 50e9 = 0.1717986918 s at line rate.
    CTWIN_COMPARE_REL(e.stepPipelineCommTime.value(), 0.1717986918, 1e-9);
    // Data parallel: 2 B x 4.05e11 / 128 x 2 x 127/128 / 50e9 = 0.2511474609 s; per-chunk release (n = 128
    // pieces t_b/8 = 0.03124 s apart, t_b = 2/3 x 5.9986 / 16 = 0.2499417 s) hides it at both efficiencies.
    CTWIN_COMPARE_REL(e.stepDataParallelCommTime.value(), 0.2511474609, 1e-9);
    // Delta = 0.5 x 0.1718 x (1/0.28390 - 1/0.68280) = 0.1767671525 s; slowdown 6.87833 / 6.70156 =
    // 1.0263770039 (2.6% on time to train).
    CTWIN_COMPARE_REL(e.stepRoutingDelta.value(), 0.1767671525, 1e-8);
    CTWIN_COMPARE_REL(e.routingSlowdown, 1.0263770039, 1e-9);
    const TrainingEstimate ref = estimateTraining(llama3Layout());
    CTWIN_COMPARE_REL(e.time.value() / ref.time.value(), 1.0263770039, 1e-9);
    CTWIN_COMPARE_REL(ref.effectiveMfu / e.effectiveMfu, 1.0263770039, 1e-9);
}

void TestTrainingRouting::lastMicrobatchSyncExposesDataParallel() {
    // Gradients sent only after the last microbatch (n = 1, window t_b = 0.2499417 s): the DP exchange
    // stalls 0.25115/0.28390 - 0.24994 = 0.63469 s at ECMP against 0.25115/0.68280 - 0.24994 = 0.11788 s at
    // the reference; with the pipeline part (0.17677): delta 0.6935885678 s, slowdown 1.1034965384.
    TrainingInput in = llama3Layout();
    in.wanSync = WanSync::LastMicrobatch;
    in.collectiveEfficiency = collectiveEfficiency(Routing::Ecmp, 1, 32, 32, 1);
    const TrainingEstimate e = estimateTraining(in);
    CTWIN_COMPARE_REL(e.stepRoutingDelta.value(), 0.6935885678, 1e-8);
    CTWIN_COMPARE_REL(e.routingSlowdown, 1.1034965384, 1e-9);
}

void TestTrainingRouting::sprayBeatsTheReference() {
    // Spraying at 0.97: delta 0.5 x 0.1718 x (1/0.97 - 1/0.68280) = -0.0372484400 s, slowdown 0.9944418279.
    TrainingInput in = llama3Layout();
    in.collectiveEfficiency = 0.97;
    const TrainingEstimate e = estimateTraining(in);
    CTWIN_COMPARE_REL(e.stepRoutingDelta.value(), -0.0372484400, 1e-7);
    CTWIN_COMPARE_REL(e.routingSlowdown, 0.9944418279, 1e-9);
}

void TestTrainingRouting::alltoallAtItsEfficiency() {
    // The expert all-to-all's scale-out part runs at the NIC x alltoallEfficiency: with every peer outside
    // the domain (domain 0), halving the efficiency doubles the all-to-all time.
    TrainingInput in = llama3Layout();
    in.pp = 1, in.virtualStages = 1, in.dp = 2048, in.tp = 8;
    in.experts = 64, in.activeExperts = 2, in.ep = 8, in.moeLayers = 126;
    in.scaleUpDomainGpus = 0;
    const TrainingEstimate full = estimateTraining(in);
    in.alltoallEfficiency = 0.5;
    const TrainingEstimate half = estimateTraining(in);
    QVERIFY(full.stepExpertCommTime.value() > 0);
    CTWIN_COMPARE_REL(half.stepExpertCommTime.value(), 2 * full.stepExpertCommTime.value(), 1e-12);
}

void TestTrainingRouting::designRoutingMovesTime() {
    // neocloud: rail-optimised back-end "be", 2 planes of 200G (one 400G ConnectX-7 per GPU), sw-102t with
    // breakout 4 (radix 512, 256 down and 256 up at 1:1), 102,096 endpoint ports a plane on 399 leaves:
    // d = u = 102,096 / 399 = 255.8797 per leaf. ECMP at the default 16 flows: 16 / E[max of 255.8797
    // Poisson(16)] = 0.5631700521 (python3, the same sum).
    auto j = readReference("neocloud-100k-gb200");
    const auto base = evaluateJson(j);
    CTWIN_COMPARE_REL(figure(base, "training.collective_efficiency"), 0.5631700521, 1e-8);
    CTWIN_COMPARE_REL(base.figure("training.collective_efficiency")->provenance.inputs[1].second,
                      102096.0 / 399.0, 1e-9);
    // Spraying: 0.97 (packet_spray_efficiency) on a non-blocking leaf; faster than ECMP.
    fabricJson(j, "be")["routing"] = "spray";
    const auto spray = evaluateJson(j);
    CTWIN_COMPARE_REL(figure(spray, "training.collective_efficiency"), 0.97, 1e-9);
    QVERIFY(figure(spray, "training.time_days") < figure(base, "training.time_days"));
    QVERIFY(figure(spray, "training.routing_slowdown") < 1.0);
    // A measured efficiency replaces the model.
    fabricJson(j, "be")["collective_efficiency"] = 0.5;
    const auto measured = evaluateJson(j);
    QCOMPARE(figure(measured, "training.collective_efficiency"), 0.5);
    QVERIFY(figure(measured, "training.time_days") > figure(base, "training.time_days"));
    // Fewer flows on ECMP slow it further (one flow per port: 1 / E[max of 255.8797 Poisson(1)] =
    // 0.2098037186).
    fabricJson(j, "be").erase("collective_efficiency");
    fabricJson(j, "be")["routing"] = "ecmp";
    fabricJson(j, "be")["flows_per_port"] = 1;
    const auto oneFlow = evaluateJson(j);
    CTWIN_COMPARE_REL(figure(oneFlow, "training.collective_efficiency"), 0.2098037186, 1e-8);
    QVERIFY(figure(oneFlow, "training.time_days") > figure(base, "training.time_days"));
}

void TestTrainingRouting::sensitivityToolsReachIt() {
    // The tornado, sweeps and --set reach the routing through the assumptions (collective_flows_per_port
    // for ECMP fabrics without their own flows) and the fabric's numeric fields (override paths).
    const auto p = test_support::reference("neocloud-100k-gb200");
    const auto base = cost::evaluate(p, test_support::catalog(), test_support::defaults());
    {
        const cost::InputResolver in(p, test_support::defaults(),
                                     {{"assumptions.collective_flows_per_port", 1}});
        const auto r = cost::evaluate(in, test_support::catalog());
        CTWIN_COMPARE_REL(figure(r, "training.collective_efficiency"), 0.2098037186, 1e-8);
        QVERIFY(figure(r, "training.time_days") > figure(base, "training.time_days"));
        QVERIFY(in.assumptions().wasRead("collective_flows_per_port"));
    }
    {
        const cost::InputResolver in(p, test_support::defaults(),
                                     {{"fabrics.be.collective_efficiency", 0.9}});
        const auto r = cost::evaluate(in, test_support::catalog());
        QCOMPARE(figure(r, "training.collective_efficiency"), 0.9);
        QVERIFY(figure(r, "training.time_days") < figure(base, "training.time_days"));
    }
    // A value outside (0, 1] is refused by --set as by the loader, naming the path.
    try {
        const cost::InputResolver in(p, test_support::defaults(), {{"fabrics.be.collective_efficiency", 0}});
        QFAIL("collective_efficiency 0 accepted as an override");
    } catch (const model::InputError& e) {
        QVERIFY2(std::string(e.what()).find("collective_efficiency") != std::string::npos, e.what());
    }
}

void TestTrainingRouting::badRoutingInputsRefused_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value"); // JSON text
    QTest::newRow("unknown routing") << "routing"
                                     << "\"magic\"";
    QTest::newRow("flows 0") << "flows_per_port"
                             << "0";
    QTest::newRow("efficiency 0") << "collective_efficiency"
                                  << "0";
    QTest::newRow("efficiency above 1") << "collective_efficiency"
                                        << "1.2";
    QTest::newRow("efficiency negative") << "collective_efficiency"
                                         << "-0.5";
}

void TestTrainingRouting::badRoutingInputsRefused() {
    QFETCH(QString, field);
    QFETCH(QString, value);
    auto j = readReference("neocloud-100k-gb200");
    fabricJson(j, "be")[field.toStdString()] = ojson::parse(value.toStdString());
    try {
        model::projectFromJson(j, "bad-routing.json", &test_support::catalog());
        QFAIL("a bad routing input loaded");
    } catch (const model::InputError& e) {
        // The message names the file, the entity and the field.
        const std::string m = e.what();
        QVERIFY2(m.find("bad-routing.json") != std::string::npos, m.c_str());
        QVERIFY2(m.find("be") != std::string::npos, m.c_str());
        QVERIFY2(m.find(field.toStdString()) != std::string::npos, m.c_str());
    }
}

QTEST_APPLESS_MAIN(TestTrainingRouting)
#include "test_training_routing.moc"
