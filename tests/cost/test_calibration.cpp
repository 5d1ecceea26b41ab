// Calibration to measured serving runs (issue 17 item 5): the point predictor against hand calculations, the
// fit recovering known factors from points the engine itself generated, the CSV and vLLM/SGLang JSON readers
// with their bad inputs, and the catalog overlay that carries the result.
#include "../test_support.h"
#include "calibration.h"
#include "catalog_overlay.h"
#include "input_error.h"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace ctwin;
using namespace ctwin::cost;

namespace {

const model::CatalogItem& item(const char* id) {
    return test_support::catalog().at(id);
}

MeasuredPoint point(const char* model, int gpus, double in, double out, const char* precision = "fp8") {
    MeasuredPoint p;
    p.model = model;
    p.accelerator = "h100-sxm";
    p.precision = precision;
    p.replicaGpus = gpus;
    p.inputTokens = in;
    p.outputTokens = out;
    p.origin = "synthetic";
    return p;
}

/// Points the engine produces at factors `f`: for each setting, the tokens/s/user of a decode batch and the
/// tokens/s/GPU the co-located service reaches there (predictPoint at those factors).
std::vector<MeasuredPoint> synthetic(const EfficiencyFactors& f) {
    const auto& acc = item("h100-sxm");
    const auto& preset = item("llama3-70b");
    std::vector<MeasuredPoint> pts;
    const std::vector<std::tuple<int, double, double>> settings = {
        {8, 1024, 1024}, {4, 1024, 1024}, {2, 1024, 256}, {8, 8192, 256}, {4, 4096, 512}};
    for (const auto& [g, in, out] : settings)
        for (double b : {1.0, 8.0, 64.0, 256.0, 512.0}) {
            MeasuredPoint p = point("llama3-70b", g, in, out);
            const ServedModel m = servedModelForPoint(preset, p);
            AcceleratorSpec a = acceleratorSpecOf(acc, "fp8");
            a.hbmEfficiency = f.hbm, a.computeEfficiency = f.compute, a.collectiveEfficiency = f.collective;
            if (b > maxDecodeBatch(m, a, g, in + out)) continue;
            // The engine's own point at batch b (co-located prefill interference included), then the
            // concurrency forgotten, as a measurement that states only its speeds.
            p.concurrency = b;
            p.tokensPerSecondPerUser = 1; // only feeds the mismatch at a stated concurrency
            const PointPrediction at = predictPoint(m, a, p);
            p.concurrency = 0;
            p.tokensPerSecondPerUser = at.tokensPerSecondPerUser;
            p.tokensPerSecondPerGpu = at.tokensPerSecondPerGpu;
            pts.push_back(p);
        }
    return pts;
}

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const model::InputError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

class TestCalibration : public QObject {
    Q_OBJECT
private slots:
    void predictMemoryBoundBatchOne();
    void predictComputeBoundBatch();
    void prefillSharesTheGpu();
    void concurrencySetsTheBatch();
    void fitRecoversFactorsFromConcurrencyPoints();
    void fitRecoversKnownFactors();
    void fitLeavesUnidentifiedFactor();
    void csvReads();
    void csvBadInputs();
    void vllmJsonReads();
    void jsonBadInputs();
    void overlayAppliesAndChecks();
};

void TestCalibration::predictMemoryBoundBatchOne() {
    // Llama-3-8B BF16 on one H100 at the catalog factors (HBM 0.80, compute 0.60), no prompt, 2 output
    // tokens: decode context = 0 + 2/2 = 1 token. Batch 1 reads the weights 8.03e9 x 2 B = 16.06e9 B plus KV
    // 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B: memory = 16,060,131,072 / (3.35e12 x 0.8) = 5.99259
    // ms; compute = (2 x 8.03e9 + 524,288) / (989e12 x 0.6) = 27.1 us; one GPU, no collectives. Step 5.99259
    // ms, so 166.873 tok/s/user and, without prefill, 166.873 tok/s/GPU.
    const auto& acc = item("h100-sxm");
    MeasuredPoint p = point("llama3-8b", 1, 0, 2, "bf16");
    p.tokensPerSecondPerUser = 1.0 / (16'060'131'072.0 / (3.35e12 * 0.8));
    const ServedModel m = servedModelForPoint(item("llama3-8b"), p);
    QCOMPARE(m.weightBytesPerParam, 2.0);
    const auto r = predictPoint(m, acceleratorSpecOf(acc, "bf16"), p);
    QVERIFY(std::abs(p.tokensPerSecondPerUser - 166.873) < 1e-3);
    QVERIFY2(std::abs(r.batch - 1.0) < 1e-6, std::to_string(r.batch).c_str());
    QVERIFY(std::abs(r.tokensPerSecondPerGpu - 166.873) < 1e-3);
    QVERIFY(!r.outOfReach);
    // Faster than batch 1 can go: clamped to batch 1, out of reach, the mismatch is log(166.873 / 200).
    p.tokensPerSecondPerUser = 200;
    const auto fast = predictPoint(m, acceleratorSpecOf(acc, "bf16"), p);
    QVERIFY(fast.outOfReach);
    QVERIFY(std::abs(fast.batch - 1.0) < 1e-12);
    QVERIFY(std::abs(fast.userMismatch - std::log(166.873 / 200)) < 1e-5);
}

void TestCalibration::predictComputeBoundBatch() {
    // Same setting at 100 tok/s/user = a 10 ms step. Per operator (issue 28): the GEMMs are compute-bound,
    // 2 x 8.03e9 x b / (989e12 x 0.6) = 2.706437e-5·b (weights 16.06e9 / 2.68e12 = 6.0 ms is less at that
    // batch); attention is memory-bound, KV 131,072 B / 2.68e12 = 4.8907e-8·b (its 524,288 FLOPs take
    // 8.8e-10·b). b = 0.01 / 2.711328e-5 = 368.823; tokens/s/GPU = 368.823 / 0.01 s = 36,882.3.
    const auto& acc = item("h100-sxm");
    MeasuredPoint p = point("llama3-8b", 1, 0, 2, "bf16");
    p.tokensPerSecondPerUser = 100;
    const auto r = predictPoint(servedModelForPoint(item("llama3-8b"), p), acceleratorSpecOf(acc, "bf16"), p);
    QVERIFY2(std::abs(r.batch - 368.823) < 1e-3, std::to_string(r.batch).c_str());
    QVERIFY(std::abs(r.tokensPerSecondPerGpu - 36'882.3) < 0.1);
    QVERIFY(std::abs(r.tokensPerSecondPerUser - 100) < 1e-6);
}

void TestCalibration::prefillSharesTheGpu() {
    // Add a 1,000-token prompt to the batch-1 case. Prefill per GPU = 989e12 x 0.6 / (2 x 8.03e9 + causal
    // attention); causal attention per token over 1,000 tokens = 32 layers x 2 x 500 x 32 heads x 256 =
    // 262,144,000 FLOPs, so prefill = 5.934e14 / 16,322,144,000 = 36,355.3 tok/s. The decode step now reads
    // the KV of 1,001 tokens: (16.06e9 + 1,001 x 131,072) / 2.68e12 = 6.04154 ms. Per request a GPU spends
    // 1000 / 36,355.3 = 27.506 ms prefilling and 2 x 6.04154 = 12.083 ms decoding: 2 / 39.589 ms = 50.519
    // tok/s/GPU.
    const auto& acc = item("h100-sxm");
    MeasuredPoint p = point("llama3-8b", 1, 1000, 2, "bf16");
    const double step = (16.06e9 + 1001 * 131072.0) / 2.68e12;
    p.tokensPerSecondPerUser = 1 / step;
    const auto r = predictPoint(servedModelForPoint(item("llama3-8b"), p), acceleratorSpecOf(acc, "bf16"), p);
    QVERIFY(std::abs(r.batch - 1) < 1e-6);
    QVERIFY2(std::abs(r.tokensPerSecondPerGpu - 50.519) < 0.01,
             std::to_string(r.tokensPerSecondPerGpu).c_str());
}

void TestCalibration::concurrencySetsTheBatch() {
    // The batch-1 case with a stated concurrency of 1 and a measured 150 tok/s/user: the batch is 1 (not
    // matched to the rate), the model's 166.873 tok/s/user gives userMismatch = log(166.873 / 150) =
    // 0.106594, and tokens/s/GPU is the model's 166.873 at that batch.
    const auto& acc = item("h100-sxm");
    MeasuredPoint p = point("llama3-8b", 1, 0, 2, "bf16");
    p.concurrency = 1;
    p.tokensPerSecondPerUser = 150;
    const ServedModel m = servedModelForPoint(item("llama3-8b"), p);
    auto r = predictPoint(m, acceleratorSpecOf(acc, "bf16"), p);
    QCOMPARE(r.batch, 1.0);
    QVERIFY(std::abs(r.userMismatch - 0.106594) < 1e-5);
    QVERIFY(std::abs(r.tokensPerSecondPerGpu - 166.873) < 1e-3);
    QVERIFY(!r.outOfReach);
    // More requests in flight than the KV fits: (0.9 x 80e9 − 16.06e9) / (131,072 B x 2 tokens) = 213,394
    // sequences; a concurrency of 1e6 is clamped there and flagged.
    p.concurrency = 1e6;
    r = predictPoint(m, acceleratorSpecOf(acc, "bf16"), p);
    QCOMPARE(r.batch, 213'394.0);
    QVERIFY(r.outOfReach);
}

void TestCalibration::fitRecoversFactorsFromConcurrencyPoints() {
    // The synthetic points with their batch stated as the concurrency: the fit uses both residuals at that
    // batch and must return the factors to 1e-3.
    const EfficiencyFactors truth{0.68, 0.70, 0.75};
    auto pts = synthetic(truth);
    const auto& preset = item("llama3-70b");
    for (auto& p : pts) {
        // Recover each point's batch from its tokens/s/user (the generator's b), as a benchmark would state
        // it.
        const ServedModel m = servedModelForPoint(preset, p);
        AcceleratorSpec a = acceleratorSpecOf(item("h100-sxm"), "fp8");
        a.hbmEfficiency = truth.hbm, a.computeEfficiency = truth.compute,
        a.collectiveEfficiency = truth.collective;
        p.concurrency = std::round(predictPoint(m, a, p).batch);
    }
    const auto r = calibrateAccelerator(item("h100-sxm"), preset, pts);
    const auto got = r.after.array(), want = truth.array();
    for (int k = 0; k < 3; ++k)
        QVERIFY2(std::abs(got[k] - want[k]) < 1e-3,
                 (std::string(kFactorFields[k]) + " fitted " + std::to_string(got[k])).c_str());
    QVERIFY(r.rmsRelativeErrorAfter < 1e-3);
}

void TestCalibration::fitRecoversKnownFactors() {
    // Points generated by the engine at factors inside the catalog box but away from the base (0.80, 0.60,
    // 0.82): the fit must return them to 1e-3 and the RMS error must fall from the base's to ~0.
    const EfficiencyFactors truth{0.72, 0.52, 0.93};
    const auto pts = synthetic(truth);
    QVERIFY(pts.size() >= 15);
    const auto r = calibrateAccelerator(item("h100-sxm"), item("llama3-70b"), pts);
    QVERIFY(r.identified[0] && r.identified[1] && r.identified[2]);
    const auto got = r.after.array(), want = truth.array();
    for (int k = 0; k < 3; ++k)
        QVERIFY2(std::abs(got[k] - want[k]) < 1e-3,
                 (std::string(kFactorFields[k]) + " fitted " + std::to_string(got[k])).c_str());
    QVERIFY(r.rmsRelativeErrorBefore > 0.05);
    QVERIFY(r.rmsRelativeErrorAfter < 1e-4);
    QCOMPARE(r.outOfReachAfter, 0);
    QCOMPARE(r.before.hbm, 0.8); // the catalog base
}

void TestCalibration::fitLeavesUnidentifiedFactor() {
    // Single-GPU replicas have no collectives: scale_up_collective_efficiency is not identified and keeps its
    // catalog value 0.82; the two others are recovered (Llama-3-8B FP8 on one H100).
    const auto& acc = item("h100-sxm");
    const auto& preset = item("llama3-8b");
    std::vector<MeasuredPoint> pts;
    for (double in : {128.0, 2048.0})
        for (double b : {1.0, 16.0, 64.0, 256.0}) {
            MeasuredPoint p = point("llama3-8b", 1, in, 512);
            const ServedModel m = servedModelForPoint(preset, p);
            AcceleratorSpec a = acceleratorSpecOf(acc, "fp8");
            a.hbmEfficiency = 0.7, a.computeEfficiency = 0.5;
            if (b > maxDecodeBatch(m, a, 1, in + 512)) continue;
            p.tokensPerSecondPerUser = decodePoint(m, a, 1, in + 256, b).tokensPerSecondPerUser;
            p.tokensPerSecondPerGpu = predictPoint(m, a, p).tokensPerSecondPerGpu;
            pts.push_back(p);
        }
    QVERIFY(pts.size() >= 6);
    const auto r = calibrateAccelerator(acc, preset, pts);
    QVERIFY(!r.identified[2]);
    QCOMPARE(r.after.collective, 0.82);
    QVERIFY2(std::abs(r.after.hbm - 0.7) < 1e-3,
             (std::to_string(r.after.hbm) + " " + std::to_string(r.after.compute) + " rms " +
              std::to_string(r.rmsRelativeErrorAfter) + " it " + std::to_string(r.iterations))
                 .c_str());
    QVERIFY(std::abs(r.after.compute - 0.5) < 1e-3);
    // The overlay carries only the identified factors, with their catalog range and source.
    const auto ov =
        calibrationOverlay(acc, r, CalibrationSource{"/x/runs.csv", "2026-12-03", "llama3-8b", 8});
    const auto& values = ov["items"][0]["values"];
    QVERIFY(values.contains("decode_hbm_efficiency") && !values.contains("scale_up_collective_efficiency"));
    const std::string source = values["decode_hbm_efficiency"]["source"];
    QVERIFY2(source.find("runs.csv") != std::string::npos && source.find("2026-12-03") != std::string::npos &&
                 source.find("8 measured") != std::string::npos,
             source.c_str());
    QCOMPARE(values["decode_hbm_efficiency"]["low"].get<double>(), 0.65);
}

void TestCalibration::csvReads() {
    const std::string text = "# H100 runs\n"
                             "model,accelerator,precision,input_tokens,output_tokens,replica_gpus,"
                             "tokens_per_s_per_user,tokens_per_s_per_gpu,label\n"
                             "llama3-70b, h100-sxm, fp8, 1024, 1024, 8, 45.5, 310.25, conc 64\n"
                             "\n"
                             "llama3-70b,h100-sxm,bf16,2048,128,4,30,200,\n";
    const auto pts = parseMeasuredPointsCsv(text, "runs.csv");
    QCOMPARE(pts.size(), size_t(2));
    QCOMPARE(pts[0].replicaGpus, 8);
    QCOMPARE(pts[0].tokensPerSecondPerGpu, 310.25);
    QCOMPARE(pts[0].origin, std::string("runs.csv:3 conc 64"));
    QCOMPARE(pts[1].precision, std::string("bf16"));
    QCOMPARE(pts[1].origin, std::string("runs.csv:5"));
    // model/accelerator columns may be left to the command line.
    PointDefaults d;
    d.model = "llama3-8b", d.accelerator = "b200";
    const auto q = parseMeasuredPointsCsv(
        "input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,tokens_per_s_per_gpu\n1,2,1,3,4\n",
        "r.csv", d);
    QCOMPARE(q[0].model, std::string("llama3-8b"));
    QCOMPARE(q[0].accelerator, std::string("b200"));
    // A spreadsheet's "CSV UTF-8" (RFC 4180): a byte-order mark, CRLF line ends, quoted fields holding a
    // comma, a doubled quote and a line break; the record that spans two lines is named by its first.
    const auto sheet = parseMeasuredPointsCsv(
        "\xEF\xBB\xBFmodel,accelerator,input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,"
        "tokens_per_s_per_gpu,label\r\n"
        "\"llama3-70b\",h100-sxm,1024,1024,8,45.5,\"310.25\",\"conc 64, \"\"warm\"\"\nrun 2\"\r\n"
        "llama3-70b,h100-sxm,2048,128,4,30,200,plain\r\n",
        "sheet.csv");
    QCOMPARE(sheet.size(), size_t(2));
    QCOMPARE(sheet[0].tokensPerSecondPerGpu, 310.25);
    QCOMPARE(sheet[0].origin, std::string("sheet.csv:2 conc 64, \"warm\"\nrun 2"));
    QCOMPARE(sheet[1].origin, std::string("sheet.csv:4 plain"));
}

void TestCalibration::csvBadInputs() {
    const std::string head =
        "model,accelerator,input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,"
        "tokens_per_s_per_gpu\n";
    const auto bad = [&](const std::string& rows) {
        return errorOf([&] { parseMeasuredPointsCsv(head + rows, "m.csv"); });
    };
    auto e = bad("llama3-70b,h100-sxm,1024,1024,8,40,0\n");
    QVERIFY2(e.find("m.csv: measured point 'line 2': field 'tokens_per_s_per_gpu'") != std::string::npos &&
                 e.find("> 0") != std::string::npos,
             e.c_str());
    e = bad("llama3-70b,h100-sxm,1024,1024,8,-5,300\n");
    QVERIFY2(e.find("field 'tokens_per_s_per_user'") != std::string::npos, e.c_str());
    e = bad("llama3-70b,h100-sxm,1024,1024,8,40\n"); // a field short
    QVERIFY2(e.find("line 2") != std::string::npos &&
                 e.find("field 'tokens_per_s_per_gpu'") != std::string::npos &&
                 e.find("6 fields") != std::string::npos,
             e.c_str());
    e = bad("llama3-70b,h100-sxm,1024,abc,8,40,300\n");
    QVERIFY2(e.find("field 'output_tokens'") != std::string::npos &&
                 e.find("'abc' is not a number") != std::string::npos,
             e.c_str());
    e = bad("llama3-70b,h100-sxm,1024,1024,2.5,40,300\n");
    QVERIFY2(e.find("field 'replica_gpus'") != std::string::npos, e.c_str());
    e = bad("");
    QVERIFY2(e.find("m.csv") != std::string::npos && e.find("no measured point") != std::string::npos,
             e.c_str());
    e = errorOf([] { parseMeasuredPointsCsv("", "m.csv"); });
    QVERIFY2(e.find("empty file") != std::string::npos, e.c_str());
    e = errorOf([] { parseMeasuredPointsCsv("input_tokens,output_tokens,replica_gpu\n", "m.csv"); });
    QVERIFY2(e.find("unknown column 'replica_gpu'") != std::string::npos, e.c_str());
    // Quotes that RFC 4180 does not allow: an unclosed quoted field (named by the line it opens on), text
    // after a closing quote, a quote inside an unquoted field.
    e = errorOf([&] { parseMeasuredPointsCsv(head + "\"llama3-70b,h100-sxm,1,1,1,1,1\n", "m.csv"); });
    QVERIFY2(e.find("quoted field is not closed") != std::string::npos &&
                 e.find("line 2") != std::string::npos,
             e.c_str());
    e = errorOf([&] { parseMeasuredPointsCsv(head + "\"llama3\"-70b,h100-sxm,1,1,1,1,1\n", "m.csv"); });
    QVERIFY2(e.find("text after a closing quote") != std::string::npos, e.c_str());
    e = errorOf([&] { parseMeasuredPointsCsv(head + "llama3-70b,h1\"00,1,1,1,1,1\n", "m.csv"); });
    QVERIFY2(e.find("a quote inside an unquoted field") != std::string::npos &&
                 e.find("line 2") != std::string::npos,
             e.c_str());
}

void TestCalibration::vllmJsonReads() {
    // A benchmark_serving.py --save-result record (fields as vLLM writes them, lists trimmed) with
    // --metadata tensor_parallel_size=8: 2,400 output tok/s over 8 GPUs = 300 tok/s/GPU; mean TPOT 25 ms =
    // 40 tok/s/user; 102,400 input / 100 requests = 1,024 tokens.
    const std::string text =
        R"({"date": "20250101-120000", "backend": "vllm", "model_id": "meta-llama/Llama-3.3-70B",
        "num_prompts": 100, "max_concurrency": 64, "duration": 42.7, "completed": 100,
        "total_input_tokens": 102400, "total_output_tokens": 102400, "request_throughput": 2.34,
        "output_throughput": 2400.0, "total_token_throughput": 4800.0, "mean_ttft_ms": 512.0,
        "mean_tpot_ms": 25.0, "median_tpot_ms": 24.1, "mean_itl_ms": 25.2, "tensor_parallel_size": "8"})";
    PointDefaults d;
    d.model = "llama3-70b", d.accelerator = "h100-sxm", d.precision = "fp8";
    auto pts = parseMeasuredPointsJson(text, "run.json", d);
    QCOMPARE(pts.size(), size_t(1));
    QCOMPARE(pts[0].tokensPerSecondPerGpu, 300.0);
    QCOMPARE(pts[0].tokensPerSecondPerUser, 40.0);
    QCOMPARE(pts[0].inputTokens, 1024.0);
    QCOMPARE(pts[0].replicaGpus, 8);
    QCOMPARE(pts[0].concurrency, 64.0); // max_concurrency 64 on one 8-GPU replica
    // Two replicas of TP=4 on the same 8 GPUs: --gpus 8 from the command line divides by 8, not 4.
    d.gpus = 8;
    const std::string lines = "{\"completed\":10,\"total_input_tokens\":1000,\"total_output_tokens\":2000,"
                              "\"output_throughput\":800,\"mean_tpot_ms\":50,\"replica_gpus\":4}\n"
                              "{\"completed\":10,\"total_input_tokens\":1000,\"total_output_tokens\":2000,"
                              "\"output_throughput\":1600,\"mean_tpot_ms\":80,\"replica_gpus\":4,"
                              "\"max_concurrency\":32}\n";
    pts = parseMeasuredPointsJson(lines, "sglang.jsonl", d);
    QCOMPARE(pts.size(), size_t(2));
    QCOMPARE(pts[1].tokensPerSecondPerGpu, 200.0);
    QCOMPARE(pts[1].outputTokens, 200.0);
    QCOMPARE(pts[1].origin, std::string("sglang.jsonl[2]"));
    QCOMPARE(pts[0].concurrency, 0.0);
    QCOMPARE(pts[1].concurrency, 16.0); // 32 in flight over two TP=4 replicas
}

void TestCalibration::jsonBadInputs() {
    PointDefaults d;
    d.model = "llama3-70b", d.accelerator = "h100-sxm", d.replicaGpus = 8;
    auto e = errorOf([&] {
        parseMeasuredPointsJson(R"({"completed":1,"total_input_tokens":1,"total_output_tokens":1,)"
                                R"("output_throughput":-3,"mean_tpot_ms":20})",
                                "r.json", d);
    });
    QVERIFY2(e.find("r.json: benchmark result 'record 1': field 'output_throughput'") != std::string::npos,
             e.c_str());
    e = errorOf([&] { parseMeasuredPointsJson(R"({"completed":1})", "r.json", d); });
    QVERIFY2(e.find("field 'total_input_tokens'") != std::string::npos &&
                 e.find("missing") != std::string::npos,
             e.c_str());
    e = errorOf([&] { parseMeasuredPointsJson("{\"a\":1}\n{oops\n", "r.jsonl", d); });
    QVERIFY2(e.find("r.jsonl") != std::string::npos && e.find("line 2") != std::string::npos, e.c_str());
    d.replicaGpus = 0;
    e = errorOf([&] {
        parseMeasuredPointsJson(R"({"completed":1,"total_input_tokens":1,"total_output_tokens":1,)"
                                R"("output_throughput":3,"mean_tpot_ms":20})",
                                "r.json", d);
    });
    QVERIFY2(e.find("field 'replica_gpus'") != std::string::npos, e.c_str());
}

void TestCalibration::overlayAppliesAndChecks() {
    const auto& cat = test_support::catalog();
    nlohmann::json ov = {
        {"format", kCatalogOverlayFormat},
        {"items",
         {{{"id", "h100-sxm"},
           {"values", {{"decode_hbm_efficiency", {{"base", 0.7}, {"source", "my runs"}}}}}}}}};
    const auto c = applyCatalogOverlay(cat, ov, "ov.json");
    QCOMPARE(c.at("h100-sxm").find("decode_hbm_efficiency")->base, 0.7);
    QCOMPARE(c.at("h100-sxm").find("decode_hbm_efficiency")->low, 0.65); // the item's range stays
    QCOMPARE(c.at("h100-sxm").find("decode_hbm_efficiency")->source, std::string("my runs"));
    QCOMPARE(c.items().size(), cat.items().size());
    auto bad = ov;
    bad["items"][0]["id"] = "h999";
    auto e = errorOf([&] { applyCatalogOverlay(cat, bad, "ov.json"); });
    QVERIFY2(e.find("ov.json: catalog item 'h999'") != std::string::npos, e.c_str());
    bad = ov;
    bad["items"][0]["values"]["decode_hbm_efficency"] = bad["items"][0]["values"]["decode_hbm_efficiency"];
    e = errorOf([&] { applyCatalogOverlay(cat, bad, "ov.json"); });
    QVERIFY2(e.find("field 'decode_hbm_efficency'") != std::string::npos, e.c_str());
    bad = ov;
    bad["items"][0]["values"]["decode_hbm_efficiency"]["base"] = 0.95; // above the item's high 0.90
    e = errorOf([&] { applyCatalogOverlay(cat, bad, "ov.json"); });
    QVERIFY2(e.find("field 'decode_hbm_efficiency'") != std::string::npos &&
                 e.find("low <= base <= high") != std::string::npos,
             e.c_str());
    bad = ov;
    bad["format"] = "clustertwin-design";
    e = errorOf([&] { applyCatalogOverlay(cat, bad, "ov.json"); });
    QVERIFY2(e.find("field 'format'") != std::string::npos, e.c_str());
    // What calibrate writes applies back onto the catalog.
    const auto r = calibrateAccelerator(item("h100-sxm"), item("llama3-70b"), synthetic({0.72, 0.52, 0.93}));
    const auto written =
        calibrationOverlay(item("h100-sxm"), r, CalibrationSource{"p.csv", "2026-12-03", "llama3-70b", 20});
    const auto c2 = applyCatalogOverlay(cat, nlohmann::json::parse(written.dump()), "written.json");
    QVERIFY(std::abs(c2.at("h100-sxm").value("prefill_compute_efficiency") - 0.52) < 1e-3);
}

QTEST_APPLESS_MAIN(TestCalibration)
#include "test_calibration.moc"
