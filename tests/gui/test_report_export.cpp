// The dashboard's uncertainty (P10/P50/P90 of the headline figures, computed off the UI thread after every
// edit) and File > Export report from the desktop app (PDF, XLSX, JSON, CSV), driven offscreen.
#include "data_paths.h"
#include "design_json.h"
#include "gui/document_editor.h"
#include "gui/uncertainty_runner.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "scenarios.h"
#include "test_window.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <memory>

using ctwin::app::MainWindow;
using ctwin::app::ReportFormat;
using ctwin::app::UncertaintyRunner;
using namespace ctwin;

namespace {

const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");
constexpr int kWaitMs = 60000; // a generous bound for 300 evaluations on a loaded CI machine

/// The numbers in a tile's range line "P10–P90 $2.71/GPU-h – $3.30/GPU-h" (display rounding included).
QList<double> numbersIn(const QString& text) {
    QList<double> out;
    static const QRegularExpression number(QStringLiteral("[0-9]+(?:\\.[0-9]+)?"));
    auto it = number.globalMatch(text);
    while (it.hasNext())
        out << it.next().captured().toDouble();
    return out;
}

} // namespace

class TestReportExport : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;
    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;

    MainWindow& window() { return *m_window; }

    /// cost::uncertainty straight from the engine on the window's current design, as the runner computes it.
    std::map<std::string, cost::Percentiles> direct() {
        const cost::ScenarioInput in{&window().document().project(), &m_catalog, m_defaults};
        return cost::uncertainty(in, cost::headlineOutputs(window().lastResults()),
                                 UncertaintyRunner::kSamples, UncertaintyRunner::kSeed);
    }

    void waitForUncertainty() {
        QTRY_VERIFY_WITH_TIMEOUT(!window().uncertaintyPending(), kWaitMs);
        QVERIFY(!window().evaluationPending());
    }

private slots:
    void initTestCase() {
        useTestEnvironment(m_tmp.path() + "/autosave");
        m_catalog = app::loadDefaultCatalog();
        m_defaults = app::loadDefaultAssumptions();
    }

    void init() {
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() {
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
    }

    void dashboardShowsTheUncertaintyOfTheCurrentDesign() {
        QVERIFY(window().openFile(kRef + "/vera-rubin-504.json"));
        waitForUncertainty();
        const auto expected = direct();
        const auto& shown = window().uncertainty().last();
        QCOMPARE(shown.size(), expected.size());
        for (const auto& [key, p] : expected) {
            // Same draws (samples, seed) on a copy of the same design: identical, not merely close.
            QCOMPARE(shown.at(key).p10, p.p10);
            QCOMPARE(shown.at(key).p50, p.p50);
            QCOMPARE(shown.at(key).p90, p.p90);
            QVERIFY(p.p10 < p.p90);
        }
        // The tile prints P10 and P90 of $/GPU-hour to display precision (2 decimals: 1 % is ample).
        auto* tile = window().dashboard()->tile("cost_per_gpu_hour");
        // P50 beside the base, then P10–P90.
        QVERIFY2(tile->range().startsWith(QStringLiteral("P50")), qPrintable(tile->range()));
        QVERIFY(!tile->rangeStale());
        const QList<double> n = numbersIn(tile->range().section(QLatin1Char('\n'), 0, 0));
        QVERIFY2(n.size() >= 6, qPrintable(tile->range())); // 50, the P50, 10, 90, then the two values
        const auto& gpuHour = expected.at("finance.cost_per_gpu_hour_usd");
        QVERIFY2(std::abs(n[1] - gpuHour.p50) <= 0.01 * gpuHour.p50, qPrintable(tile->range()));
        QVERIFY2(std::abs(n[4] - gpuHour.p10) <= 0.01 * gpuHour.p10, qPrintable(tile->range()));
        QVERIFY2(std::abs(n[5] - gpuHour.p90) <= 0.01 * gpuHour.p90, qPrintable(tile->range()));
        // Each token tile carries the range of its own figure (training tokens, output tokens).
        QVERIFY(!window().dashboard()->tile("cost_per_m_training_tokens")->range().isEmpty());
        QVERIFY(!window().dashboard()->tile("cost_per_m_output_tokens")->range().isEmpty());
        QVERIFY(window().dashboard()->tile("pue")->range().isEmpty());
        QVERIFY(window().dashboard()->uncertaintyText().contains("TCO/yr"));
    }

    void anEditGreysTheRangeUntilItsOwnRunArrives() {
        QVERIFY(window().openFile(kRef + "/vera-rubin-504.json"));
        waitForUncertainty();
        const double before = window().uncertainty().last().at("finance.cost_per_gpu_hour_usd").p50;
        const auto& p = window().document().project();
        // Several quick edits of the site tariff: only the last state is sampled and shown.
        for (double tariff : {0.20, 0.05, 0.15, 0.18}) {
            QVERIFY(window()
                        .editor()
                        .setProperty({QString::fromStdString(p.sites[0].id)}, "electricity_usd_per_kwh",
                                     tariff, false)
                        .isEmpty());
            window().evaluateNow();
            QVERIFY(window().uncertaintyPending());
            QVERIFY(window().dashboard()->tile("cost_per_gpu_hour")->rangeStale());
        }
        waitForUncertainty();
        QVERIFY(!window().dashboard()->tile("cost_per_gpu_hour")->rangeStale());
        const auto expected = direct();
        const double after = window().uncertainty().last().at("finance.cost_per_gpu_hour_usd").p50;
        QCOMPARE(after, expected.at("finance.cost_per_gpu_hour_usd").p50);
        QVERIFY2(after > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
        // Undo back to the opened design: the ranges return to the first values.
        while (window().undoStack().canUndo())
            window().undoStack().undo();
        window().evaluateNow();
        waitForUncertainty();
        QCOMPARE(window().uncertainty().last().at("finance.cost_per_gpu_hour_usd").p50, before);
    }

    void exportsEveryReportFormat() {
        QVERIFY(window().openFile(kRef + "/agentic-inference-gb300.json"));
        waitForUncertainty();
        const QString dir = m_tmp.path() + "/reports";
        QVERIFY(QDir().mkpath(dir));
        for (const char* name : {"design.pdf", "design.xlsx", "design.json"}) {
            QVERIFY2(window().exportReport(dir + "/" + name), qPrintable(m_prompts->errors.join("\n")));
            QVERIFY2(QFileInfo(dir + "/" + name).size() > 1000, name);
        }
        QFile pdf(dir + "/design.pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.read(5) == "%PDF-");
        QFile xlsx(dir + "/design.xlsx");
        QVERIFY(xlsx.open(QIODevice::ReadOnly));
        QVERIFY(xlsx.read(2) == "PK"); // a zip of XML

        // The JSON report carries the figures and the very P10/P50/P90 the dashboard shows.
        const auto j = model::readJsonFile((dir + "/design.json").toStdString());
        const auto& report = j.at("report");
        const std::string key = "inference.cost_per_million_output_tokens_usd";
        const auto& shown = window().uncertainty().last().at(key);
        QCOMPARE(report.at("uncertainty").at(key).at("p50").get<double>(), shown.p50);
        QCOMPARE(report.at("uncertainty").at(key).at("p90").get<double>(), shown.p90);
        QCOMPARE(report.at("sensitivity").at("output").get<std::string>(),
                 std::string("finance.cost_per_gpu_hour_usd"));
        QVERIFY(report.at("sensitivity").at("bars").size() >= 10);

        // Any other name is a folder of CSV tables; its summary matches the evaluated figures.
        QVERIFY(window().exportReport(dir + "/tables"));
        QFile summary(dir + "/tables/summary.csv");
        QVERIFY(summary.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(summary.readAll());
        const auto* gpus = window().lastResults().figure("inventory.gpus");
        QVERIFY(gpus);
        QVERIFY2(csv.contains(QStringLiteral("inventory.gpus,%1,").arg(gpus->value)),
                 qPrintable(csv.left(400)));

        // Through the prompt: the path the user picks; cancelling writes nothing.
        m_prompts->reportPath = dir + "/picked.pdf";
        QVERIFY(window().exportReport());
        QVERIFY(QFileInfo::exists(dir + "/picked.pdf"));
        // The charts: picked as a format in the dialog (the name says nothing), or asked for directly.
        m_prompts->reportPath = dir + "/picked-charts";
        m_prompts->reportFormat = ReportFormat::Charts;
        QVERIFY(window().exportReport());
        QVERIFY(QFileInfo(dir + "/picked-charts/capex_by_category.svg").size() > 1000);
        QVERIFY(QFileInfo(dir + "/picked-charts/sensitivity.png").size() > 1000);
        m_prompts->reportFormat.reset();
        QVERIFY(window().exportReport(dir + "/charts", ReportFormat::Charts));
        QVERIFY(QFileInfo(dir + "/charts/cash_flow.png").size() > 1000);
        m_prompts->reportPath.clear();
        QVERIFY(!window().exportReport());
        QVERIFY(m_prompts->errors.isEmpty());
    }

    void anUnwritablePathShowsTheReasonAndLeavesNothing() {
        QVERIFY(window().openFile(kRef + "/vera-rubin-504.json"));
        const QString missing = m_tmp.path() + "/no-such-folder/report.pdf";
        QVERIFY(!window().exportReport(missing));
        QCOMPARE(m_prompts->errors.size(), 1);
        QVERIFY2(m_prompts->errors.front().contains("Export report") &&
                     m_prompts->errors.front().contains(missing),
                 qPrintable(m_prompts->errors.front()));
        QVERIFY(!QFileInfo::exists(missing));
        // The target exists and cannot be replaced (a folder of that name): the writer's temporary file must
        // not be left behind next to it (works as root too, unlike permission bits).
        const QString parent = m_tmp.path() + "/occupied";
        QVERIFY(QDir().mkpath(parent + "/report.xlsx"));
        QVERIFY(!window().exportReport(parent + "/report.xlsx"));
        QCOMPARE(m_prompts->errors.size(), 2);
        QCOMPARE(QDir(parent).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{"report.xlsx"});
        QVERIFY(QFileInfo(parent + "/report.xlsx").isDir());
    }

    void aDesignWithoutGpusStillExports() {
        window().newDesign(); // the starter design: an empty hall, no racks, no workload
        window().evaluateNow();
        const QString path = m_tmp.path() + "/empty.json";
        QVERIFY2(window().exportReport(path), qPrintable(m_prompts->errors.join("\n")));
        const auto j = model::readJsonFile(path.toStdString());
        QVERIFY(j.contains("report"));
        QCOMPARE(j.at("inventory").at("gpus").get<double>(), 0.0);
    }
};

QTEST_MAIN(TestReportExport)
#include "test_report_export.moc"
