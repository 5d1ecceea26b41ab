// Finance report generation for the 100K-GPU reference (neocloud-100k-gb200) against the scenario brief's
// bar: a report in under 3 s; and PDF + XLSX of the 14K-rack campus (ten copies of the neocloud reference,
// 14,180 racks, as bench_campus builds it) against issue 15's bar of 1.5 s. Each format is timed on its own,
// from a finished evaluation, tornado and uncertainty (those have their own benchmarks in bench_scenarios),
// then the whole File > Export path: evaluate, $/GPU-hour tornado, 300-sample P10/P50/P90 and the PDF. Files
// go to a scratch folder that is removed afterwards. Like every benchmark here it reports and never asserts.
#include "../test_support.h"
#include "report/finance_report.h"
#include "scenarios.h"
#include "scene/design_replicator.h"

#include <QGuiApplication>
#include <benchmark/benchmark.h>
#include <filesystem>
#include <string>
#include <unistd.h>

using namespace ctwin;

namespace {
using test_support::catalog;
using test_support::defaults;

const model::Project& design() {
    static const model::Project p = test_support::reference("neocloud-100k-gb200");
    return p;
}

/// The 14K-rack campus: ten copies of the neocloud reference's buildings side by side (14,180 racks).
const model::Project& campus() {
    static const model::Project p = views::replicateCampus(design(), 10);
    return p;
}

const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        // One folder per process: two runs at once (e.g. one under callgrind) must not remove each other's.
        auto d =
            std::filesystem::temp_directory_path() / ("ctwin-bench-report-" + std::to_string(::getpid()));
        std::filesystem::create_directories(d);
        return d;
    }();
    return dir;
}

/// The report of the design as the GUI exports it: tornado of $/GPU-hour and P10/P50/P90 of the headline
/// figures from 300 samples (the dashboard's count), seed 1.
struct Prepared {
    cost::Results results;
    app::ReportInput input;
};

Prepared prepare(const model::Project& project = design()) {
    Prepared out;
    out.results = cost::evaluate(project, catalog(), defaults());
    const cost::ScenarioInput in{&project, &catalog(), defaults()};
    out.input.project = &project;
    out.input.assumptions = model::mergeAssumptions(defaults(), project.assumptions);
    out.input.tornado = cost::tornado(in, "finance.cost_per_gpu_hour_usd");
    out.input.uncertainty = cost::uncertainty(in, cost::headlineOutputs(out.results), 300, 1);
    out.input.date = "2026-12-02";
    return out;
}

void writeFormat(benchmark::State& state, app::ReportFormat format, const char* name) {
    Prepared p = prepare();
    p.input.results = &p.results;
    const std::string path = (scratch() / name).string();
    for (auto _ : state)
        app::writeReport(p.input, format, path);
    // Bytes written: the file, or the CSV folder's files.
    std::error_code ec;
    double bytes = 0;
    if (std::filesystem::is_directory(path, ec)) {
        for (const auto& e : std::filesystem::directory_iterator(path, ec))
            bytes += static_cast<double>(e.file_size(ec));
    } else {
        bytes = static_cast<double>(std::filesystem::file_size(path, ec));
    }
    state.counters["bytes"] = bytes;
}

void BM_ReportPdf100k(benchmark::State& state) {
    writeFormat(state, app::ReportFormat::Pdf, "report.pdf");
}
void BM_ReportXlsx100k(benchmark::State& state) {
    writeFormat(state, app::ReportFormat::Xlsx, "report.xlsx");
}
void BM_ReportCsv100k(benchmark::State& state) {
    writeFormat(state, app::ReportFormat::Csv, "report-csv");
}
void BM_ReportJson100k(benchmark::State& state) {
    writeFormat(state, app::ReportFormat::Json, "report.json");
}
BENCHMARK(BM_ReportPdf100k)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReportXlsx100k)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReportCsv100k)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ReportJson100k)->Unit(benchmark::kMillisecond)->UseRealTime();

/// From the design to the PDF, including the scenario runs that feed it.
void BM_ExportPdfFromDesign100k(benchmark::State& state) {
    const std::string path = (scratch() / "export.pdf").string();
    for (auto _ : state) {
        Prepared p = prepare();
        p.input.results = &p.results;
        app::writeReport(p.input, app::ReportFormat::Pdf, path);
    }
}
BENCHMARK(BM_ExportPdfFromDesign100k)->Unit(benchmark::kMillisecond)->UseRealTime();

/// Issue 15: PDF + XLSX of the 14K-rack campus from a finished evaluation, tornado and uncertainty (what
/// File > Export writes once the dashboard has them); the goal is < 1.5 s for both files.
void BM_ReportPdfXlsxCampus14k(benchmark::State& state) {
    Prepared p = prepare(campus());
    p.input.results = &p.results;
    const std::string pdf = (scratch() / "campus.pdf").string(), xlsx = (scratch() / "campus.xlsx").string();
    for (auto _ : state) {
        app::writeReport(p.input, app::ReportFormat::Pdf, pdf);
        app::writeReport(p.input, app::ReportFormat::Xlsx, xlsx);
    }
    std::error_code ec;
    state.counters["racks"] = static_cast<double>(campus().racks.size());
    state.counters["rules"] = static_cast<double>(p.results.rules.size());
    state.counters["pdf_bytes"] = static_cast<double>(std::filesystem::file_size(pdf, ec));
    state.counters["xlsx_bytes"] = static_cast<double>(std::filesystem::file_size(xlsx, ec));
}
BENCHMARK(BM_ReportPdfXlsxCampus14k)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The same two files from the design: evaluate, tornado, 300-sample uncertainty, PDF, XLSX.
void BM_ExportPdfXlsxFromDesignCampus14k(benchmark::State& state) {
    const std::string pdf = (scratch() / "campus-export.pdf").string(),
                      xlsx = (scratch() / "campus-export.xlsx").string();
    for (auto _ : state) {
        Prepared p = prepare(campus());
        p.input.results = &p.results;
        app::writeReport(p.input, app::ReportFormat::Pdf, pdf);
        app::writeReport(p.input, app::ReportFormat::Xlsx, xlsx);
    }
}
BENCHMARK(BM_ExportPdfXlsxFromDesignCampus14k)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char** argv) {
    // The PDF writer paints with Qt and needs a QGuiApplication; offscreen unless a platform is chosen.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::error_code ec;
    std::filesystem::remove_all(scratch(), ec);
    return 0;
}
