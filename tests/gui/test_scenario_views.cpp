// The scenario views of issue 7 driven offscreen through the AnalysisController: a comparison of two
// reference designs (deltas hand-checked against evaluate(), best/worst colours, baseline switch, export),
// the tornado against cost::tornado, sweeps against cost::sweep on a worker thread (progress, cancel,
// closing mid-run) and the messages for bad input. No timing asserts: waits are bounded by QTRY timeouts.
#include "comparison_view.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "gui/analysis_controller.h"
#include "heatmap_widget.h"
#include "scenario_format.h"
#include "scenarios.h"
#include "sweep_view.h"
#include "tornado_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <memory>

using ctwin::app::AnalysisController;
using ctwin::views::ComparisonView;
using ctwin::views::SweepView;
using ctwin::views::TornadoView;
namespace fmt = ctwin::views::scenario_format;

namespace {

const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");
const QString kLlama = kRef + "/llama3-16k-h100.json";           // training only, 16K GPUs
const QString kAgentic = kRef + "/agentic-inference-gb300.json"; // inference only
const QString kNeocloud = kRef + "/neocloud-100k-gb200.json";    // 100K GPUs: the long sweep
const QString kGpuHour = QStringLiteral("finance.cost_per_gpu_hour_usd");

double figure(const ctwin::cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    return f ? f->value : std::nan("");
}

bool near(double a, double b, double rel = 1e-9) {
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}

} // namespace

class TestScenarioViews : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    ctwin::model::Catalog m_catalog;
    ctwin::model::AssumptionSet m_defaults;
    ctwin::model::Project m_project;
    QString m_name;
    std::unique_ptr<QTabWidget> m_tabs;
    std::unique_ptr<AnalysisController> m_controller;

    void open(const QString& path) {
        m_project = ctwin::store::loadDesign(path.toStdString(), &m_catalog);
        m_name = QFileInfo(path).fileName();
    }
    ctwin::cost::Results evaluate(const QString& path) const {
        return ctwin::cost::evaluate(ctwin::store::loadDesign(path.toStdString(), &m_catalog), m_catalog,
                                     m_defaults);
    }
    /// Saves a view's picture when CTWIN_SCREENSHOT_DIR is set (for a person to look at, not checked).
    void screenshot(QWidget* w, const char* name) {
        const QByteArray dir = qgetenv("CTWIN_SCREENSHOT_DIR");
        if (dir.isEmpty()) return;
        m_tabs->setCurrentWidget(w);
        QTest::qWait(50);
        QVERIFY(w->grab().save(QString::fromUtf8(dir) + "/scen_" + name + ".png"));
    }

private slots:
    void initTestCase() {
        qputenv("CTWIN_DATA_DIR", CTWIN_BUILD_DATA_DIR);
        m_catalog = ctwin::app::loadDefaultCatalog();
        m_defaults = ctwin::app::loadDefaultAssumptions();
    }

    void init() {
        open(kLlama);
        m_tabs = std::make_unique<QTabWidget>();
        m_tabs->resize(1400, 900);
        m_tabs->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_tabs.get()));
        m_controller = std::make_unique<AnalysisController>(
            m_tabs.get(), m_catalog, m_defaults,
            [this]() -> const ctwin::model::Project& { return m_project; }, [this] { return m_name; },
            [this](QWidget* w, const QString& title) { m_tabs->setCurrentIndex(m_tabs->addTab(w, title)); });
    }

    void cleanup() {
        m_controller.reset();
        m_tabs.reset(); // deletes the views; a running sweep is cancelled and joined
    }

    void menuHasTheThreeTools() {
        QMenu menu;
        m_controller->populateMenu(&menu);
        QStringList texts;
        for (auto* a : menu.actions())
            texts << a->text().remove('&');
        QCOMPARE(texts, (QStringList{"Compare designs…", "Sensitivity (tornado)…", "Parameter sweep…"}));
        QCOMPARE(menu.actions().at(0)->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+C")));
        QCOMPARE(menu.actions().at(1)->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+T")));
        QCOMPARE(menu.actions().at(2)->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+P")));
        // The dialog offers the reference designs first.
        QCOMPARE(AnalysisController::referenceDesigns().size(), 6);
    }

    void comparisonShowsDeltasAgainstTheBaseline() {
        QString error;
        ComparisonView* view = m_controller->compareWith({kAgentic}, &error);
        QVERIFY2(view, qPrintable(error));
        QCOMPARE(m_tabs->count(), 1);
        const auto& cmp = view->comparison();
        QCOMPARE(cmp.names.size(), size_t(2));
        QCOMPARE(cmp.baseline, size_t(0));
        QCOMPARE(view->baselineCombo()->count(), 2);

        // The same comparison from the engine directly: every row in the table, in order.
        const auto llama = evaluate(kLlama), agentic = evaluate(kAgentic);
        const auto expected = ctwin::cost::compareDesigns(cmp.names, {llama, agentic}, 0);
        QCOMPARE(view->table()->rowCount(), static_cast<int>(expected.rows.size()));
        QCOMPARE(cmp.rows.size(), expected.rows.size());

        // Hand check of one row: $/GPU-hour of the agentic fleet minus that of the Llama cluster (baseline).
        const double a = figure(llama, kGpuHour.toStdString()), b = figure(agentic, kGpuHour.toStdString());
        QVERIFY(std::isfinite(a) && std::isfinite(b) && a != b);
        const int row = view->rowOf(kGpuHour.toStdString());
        QVERIFY(row >= 0);
        auto* t = view->table();
        QVERIFY(near(t->item(row, view->valueColumn(0))->data(ComparisonView::kValueRole).toDouble(), a));
        QVERIFY(near(t->item(row, view->valueColumn(1))->data(ComparisonView::kValueRole).toDouble(), b));
        QVERIFY(near(t->item(row, view->deltaColumn(1))->data(ComparisonView::kValueRole).toDouble(), b - a));
        const double pct = 100.0 * (b - a) / std::abs(a);
        QVERIFY(near(t->item(row, view->percentColumn(1))->data(ComparisonView::kValueRole).toDouble(), pct));
        QCOMPARE(t->item(row, view->percentColumn(1))->text(), fmt::percentDelta(pct));
        QCOMPARE(view->deltaColumn(0), -1); // the baseline has no delta columns
        QVERIFY(t->horizontalHeaderItem(view->valueColumn(0))->text().contains("baseline"));

        // Lower cost per GPU-hour is better: the cheaper design is green, the dearer red.
        const size_t cheaper = a < b ? 0 : 1, dearer = 1 - cheaper;
        QCOMPARE(t->item(row, view->valueColumn(cheaper))->background().color(), ComparisonView::kBestColor);
        QCOMPARE(t->item(row, view->valueColumn(dearer))->background().color(), ComparisonView::kWorstColor);
        // A "neither" row (a count) is not coloured.
        const int racks = view->rowOf("inventory.racks");
        if (racks >= 0) QCOMPARE(t->item(racks, view->valueColumn(0))->background().style(), Qt::NoBrush);

        // Charts: capex stacked per design, one bar per design for $/GPU-hour, token costs of both workloads.
        QVERIFY(!view->capexChart()->series().isEmpty());
        auto* gpuBars = qobject_cast<QAbstractBarSeries*>(view->gpuHourChart()->series().value(0));
        QVERIFY(gpuBars && gpuBars->count() == 1);
        QVERIFY(near(gpuBars->barSets().front()->at(0), a) && near(gpuBars->barSets().front()->at(1), b));
        auto* tokenBars = qobject_cast<QAbstractBarSeries*>(view->tokenChart()->series().value(0));
        QVERIFY(tokenBars && tokenBars->count() >= 2); // training (Llama) and inference (agentic)
        QVERIFY(!view->explanationsLabel()->text().isEmpty());
        screenshot(view, "comparison");
    }

    void baselineSwitchRecomputes() {
        QString error;
        ComparisonView* view = m_controller->compareWith({kAgentic}, &error);
        QVERIFY2(view, qPrintable(error));
        const int row = view->rowOf(kGpuHour.toStdString());
        const double a = view->comparison().rows[static_cast<size_t>(row)].values[0];
        const double b = view->comparison().rows[static_cast<size_t>(row)].values[1];
        emit view->baselineCombo()->activated(1);
        QCOMPARE(view->comparison().baseline, size_t(1));
        QCOMPARE(view->baselineCombo()->currentIndex(), 1);
        QCOMPARE(view->deltaColumn(1), -1);
        auto* t = view->table();
        QVERIFY(t->horizontalHeaderItem(view->valueColumn(1))->text().contains("baseline"));
        QVERIFY(near(t->item(row, view->deltaColumn(0))->data(ComparisonView::kValueRole).toDouble(), a - b));
        QVERIFY(near(t->item(row, view->percentColumn(0))->data(ComparisonView::kValueRole).toDouble(),
                     100.0 * (a - b) / std::abs(b)));
    }

    void comparisonExports() {
        ComparisonView* view = m_controller->compareWith({kAgentic, kRef + "/vera-rubin-504.json"});
        QVERIFY(view);
        QCOMPARE(view->comparison().names.size(), size_t(3));
        const QString json = m_tmp.filePath("cmp.json");
        QString error;
        QVERIFY2(m_controller->exportComparison(view, json, &error), qPrintable(error));
        QFile f(json);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("Agentic"));
        const QString xlsx = m_tmp.filePath("cmp.xlsx");
        QVERIFY2(m_controller->exportComparison(view, xlsx, &error), qPrintable(error));
        QVERIFY(QFileInfo(xlsx).size() > 0);
        // The comparison's chart as PNG and SVG: the three designs' names are in the SVG's text.
        const QString charts = m_tmp.filePath("cmp-charts");
        QVERIFY2(m_controller->exportComparison(view, charts, &error, ctwin::app::ReportFormat::Charts),
                 qPrintable(error));
        QFile svg(charts + "/capex_by_category.svg");
        QVERIFY(svg.open(QIODevice::ReadOnly));
        const QByteArray text = svg.readAll();
        for (const auto& name : view->comparison().names)
            QVERIFY2(text.contains(QByteArray::fromStdString(name).left(12)), name.c_str());
        QVERIFY(QFileInfo(charts + "/capex_by_category.png").size() > 1000);
        QVERIFY(!m_controller->exportComparison(view, "/nonexistent-dir/x/cmp.json", &error));
        QVERIFY(!error.isEmpty());
    }

    void comparisonFollowsTheOpenDesignOnRecompute() {
        QString error;
        ComparisonView* view = m_controller->compareWith({kAgentic}, &error);
        QVERIFY2(view, qPrintable(error));
        QSignalSpy refresh(view, &ComparisonView::refreshRequested);
        view->refreshButton()->click();
        QCOMPARE(refresh.count(), 1); // the button asks; the controller answers (no edit yet: same table)
        // An edit of the open design: a utilization of 0.5 instead of the default (an override). The
        // recomputed $/GPU-hour of design 1 is the engine's for the edited design; design 2 is unchanged.
        auto assumption = m_defaults.at("utilization");
        assumption.base = 0.5;
        m_project.assumptions["utilization"] = assumption;
        QVERIFY2(m_controller->refreshComparison(view, &error), qPrintable(error));
        const auto edited = ctwin::cost::evaluate(m_project, m_catalog, m_defaults);
        const auto agentic = evaluate(kAgentic);
        const int row = view->rowOf(kGpuHour.toStdString());
        auto value = [&](size_t design) {
            return view->table()
                ->item(row, view->valueColumn(design))
                ->data(ComparisonView::kValueRole)
                .toDouble();
        };
        QVERIFY(near(value(0), figure(edited, kGpuHour.toStdString())));
        QVERIFY(near(value(1), figure(agentic, kGpuHour.toStdString())));
        QVERIFY(!near(value(0), figure(evaluate(kLlama), kGpuHour.toStdString())));
        // The open design may not become one of the others, nor lose its workload: refused, view unchanged.
        const double before = value(0);
        m_project = ctwin::store::loadDesign(kAgentic.toStdString(), &m_catalog);
        QVERIFY(!m_controller->refreshComparison(view, &error));
        QVERIFY2(error.contains("same as"), qPrintable(error));
        open(kLlama);
        m_project.trainingJobs.clear();
        m_project.inferenceServices.clear();
        QVERIFY(!m_controller->refreshComparison(view, &error));
        QVERIFY2(error.contains("no workload"), qPrintable(error));
        QCOMPARE(value(0), before);
    }

    void comparisonRefusesBadInput() {
        QString error;
        // The open design itself, by content (opened from the same file).
        QVERIFY(!m_controller->compareWith({kLlama}, &error));
        QVERIFY2(error.contains("same design"), qPrintable(error));
        // ... and by path, when the owner names the open design by its path.
        m_name = kLlama;
        m_project.info.name += " (edited)"; // differs in content now: only the path gives it away
        QVERIFY(!m_controller->compareWith({kLlama}, &error));
        QVERIFY2(error.contains("open design itself"), qPrintable(error));
        open(kLlama);
        // Twice the same file.
        QVERIFY(!m_controller->compareWith({kAgentic, kRef + "/../reference/agentic-inference-gb300.json"},
                                           &error));
        QVERIFY2(error.contains("twice"), qPrintable(error));
        // Unreadable and missing files.
        const QString junk = m_tmp.filePath("junk.json");
        QFile j(junk);
        QVERIFY(j.open(QIODevice::WriteOnly));
        j.write("{ this is not json");
        j.close();
        QVERIFY(!m_controller->compareWith({junk}, &error));
        QVERIFY2(error.contains("could not be opened") && error.contains("junk.json"), qPrintable(error));
        QVERIFY(!m_controller->compareWith({m_tmp.filePath("missing.ctwin")}, &error));
        QVERIFY2(error.contains("could not be opened"), qPrintable(error));
        // A design without a workload.
        QFile src(kRef + "/vera-rubin-504.json");
        QVERIFY(src.open(QIODevice::ReadOnly));
        QJsonObject o = QJsonDocument::fromJson(src.readAll()).object();
        o["training_jobs"] = QJsonArray();
        o["inference_services"] = QJsonArray();
        const QString idle = m_tmp.filePath("idle.json");
        QFile out(idle);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(o).toJson());
        out.close();
        QVERIFY(!m_controller->compareWith({idle}, &error));
        QVERIFY2(error.contains("no workload"), qPrintable(error));
        // None at all.
        QVERIFY(!m_controller->compareWith({}, &error));
        QCOMPARE(m_tabs->count(), 0); // nothing opened for any of them
    }

    void tornadoMatchesTheEngine() {
        QString error;
        TornadoView* view = m_controller->openTornado(kGpuHour.toStdString(), &error);
        QVERIFY2(view, qPrintable(error));
        const auto expected = ctwin::cost::tornado(
            ctwin::cost::ScenarioInput{&m_project, &m_catalog, m_defaults}, kGpuHour.toStdString());
        const auto& t = view->tornado();
        QCOMPARE(t.output, kGpuHour.toStdString());
        QVERIFY(near(t.base, expected.base));
        QCOMPARE(t.bars.size(), expected.bars.size());
        QVERIFY(t.bars.size() > 3);
        QCOMPARE(view->table()->rowCount(), static_cast<int>(t.bars.size()));
        for (size_t i = 0; i < t.bars.size(); ++i) {
            QCOMPARE(t.bars[i].assumption, expected.bars[i].assumption);
            if (i > 0) QVERIFY(t.bars[i - 1].swing >= t.bars[i].swing); // widest first
            const int r = static_cast<int>(i);
            QCOMPARE(view->table()->item(r, 0)->data(Qt::UserRole).toString().toStdString(),
                     t.bars[i].assumption);
            QVERIFY(near(view->table()->item(r, 3)->data(TornadoView::kValueRole).toDouble(),
                         expected.bars[i].outputAtLow));
            QVERIFY(near(view->table()->item(r, 4)->data(TornadoView::kValueRole).toDouble(),
                         expected.bars[i].outputAtHigh));
        }
        // The chart draws the widest swings, the widest on top (last category), bars relative to the base.
        auto* series = view->series();
        QCOMPARE(series->count(), 2);
        const int shown = std::min<int>(TornadoView::kChartBars, static_cast<int>(t.bars.size()));
        QCOMPARE(series->barSets()[0]->count(), shown);
        QVERIFY(near(series->barSets()[0]->at(shown - 1), t.bars[0].outputAtLow - t.base));
        QVERIFY(near(series->barSets()[1]->at(shown - 1), t.bars[0].outputAtHigh - t.base));
        auto* categories = qobject_cast<QBarCategoryAxis*>(view->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(categories);
        QVERIFY(categories->categories().last().startsWith(fmt::assumptionLabel(t.bars[0].assumption)));
        screenshot(view, "tornado");

        // Another output from the combo: recomputed by the controller.
        const int pue = view->outputCombo()->findData(QStringLiteral("power.pue"));
        QVERIFY(pue >= 0);
        view->outputCombo()->setCurrentIndex(pue);
        emit view->outputCombo()->activated(pue);
        QCOMPARE(view->tornado().output, std::string("power.pue"));
        QVERIFY(view->table()->rowCount() > 0);

        // An output this training-only design lacks: the engine's message, no view.
        QVERIFY(!m_controller->openTornado("inference.cost_per_million_output_tokens_usd", &error));
        QVERIFY2(error.contains("no such figure"), qPrintable(error));
    }

    // Issue 12: on a design whose sites all set their own tariff the electricity assumption is read by
    // nothing, so the sweep view does not offer it; its first axis is every site's tariff (sites.*), the
    // same override path as `sweep --vary`, and a value outside the field's bounds is refused inline.
    void sweepOffersWhatTheEvaluationReads() {
        const auto wan = ctwin::store::loadDesign((kRef + "/two-site-wan.json").toStdString(), &m_catalog);
        SweepView view;
        view.setSource([&]() -> const ctwin::model::Project& { return wan; }, m_catalog, m_defaults);
        QCOMPARE(view.axisKey(0)->currentData().toString(),
                 QStringLiteral("sites.*.electricity_usd_per_kwh"));
        QVERIFY(view.axisKey(0)->findData(QStringLiteral("assumptions.electricity_usd_per_kwh")) < 0);
        QVERIFY(view.axisKey(0)->findData(QStringLiteral("sites.site-wi.electricity_usd_per_kwh")) >= 0);
        // sites.* spans the lowest low (0.07 x 0.04/0.07 = 0.04) to the highest high (0.08 x 0.10/0.07).
        QCOMPARE(view.axisLow(0)->text(), fmt::inputValue(0.07 * 0.04 / 0.07));
        QCOMPARE(view.axisHigh(0)->text(), fmt::inputValue(0.08 * 0.10 / 0.07));
        QVERIFY(view.setAxis(0, "sites.*.electricity_usd_per_kwh", 0.05, 20.0, 3));
        QVERIFY(view.setAxis(1, "", 0, 0, 0));
        QVERIFY(!view.run());
        QVERIFY2(view.message().contains("outside the accepted range [0, 10]"), qPrintable(view.message()));
    }

    void sweep2dMatchesTheEngine() {
        SweepView* view = m_controller->openSweep();
        QVERIFY(view);
        // Defaults: electricity x utilization, prefilled from their ranges.
        QCOMPARE(view->axisKey(0)->currentData().toString(),
                 QStringLiteral("assumptions.electricity_usd_per_kwh"));
        QCOMPARE(view->axisKey(1)->currentData().toString(), QStringLiteral("assumptions.utilization"));
        QCOMPARE(view->axisLow(0)->text(), fmt::inputValue(m_defaults.at("electricity_usd_per_kwh").low));
        QCOMPARE(view->axisHigh(1)->text(), fmt::inputValue(m_defaults.at("utilization").high));

        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 3));
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.9, 4));
        QVERIFY(view->setOutput(kGpuHour.toStdString()));
        QVERIFY2(view->run(), qPrintable(view->message()));
        QCOMPARE(view->state(), SweepView::State::Running);
        QVERIFY(!view->runButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(view->state() != SweepView::State::Running, 120000);
        QVERIFY2(view->state() == SweepView::State::Finished, qPrintable(view->message()));
        QVERIFY(view->runButton()->isEnabled());
        QCOMPARE(view->progressBar()->value(), view->progressBar()->maximum());

        const auto expected =
            ctwin::cost::sweep(ctwin::cost::ScenarioInput{&m_project, &m_catalog, m_defaults},
                               {{"assumptions.electricity_usd_per_kwh", 0.04, 0.10, 3},
                                {"assumptions.utilization", 0.6, 0.9, 4}},
                               {kGpuHour.toStdString()});
        auto* t = view->table();
        QCOMPARE(t->rowCount(), 3);
        QCOMPARE(t->columnCount(), 4);
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 4; ++j) {
                const size_t k = static_cast<size_t>(i * 4 + j);
                QVERIFY(expected.defined[0][k]);
                QVERIFY2(near(t->item(i, j)->data(SweepView::kValueRole).toDouble(), expected.values[0][k]),
                         qPrintable(QStringLiteral("%1,%2").arg(i).arg(j)));
            }
        // Electricity is a cost: $/GPU-hour rises along axis 0 at every utilization.
        QVERIFY(expected.values[0][8] > expected.values[0][0]);
        QCOMPARE(view->heatmap()->rows(), 3);
        QCOMPARE(view->heatmap()->columns(), 4);
        QVERIFY(view->heatmap()->isVisible());
        screenshot(view, "sweep2d");
    }

    void sweep1dDrawsALine() {
        SweepView* view = m_controller->openSweep();
        QVERIFY(view->setAxis(0, "assumptions.wacc", 0.07, 0.12, 6));
        QVERIFY(view->setAxis(1, "", 0, 0, 0));
        QVERIFY(view->setOutput(kGpuHour.toStdString()));
        QVERIFY2(view->run(), qPrintable(view->message()));
        QTRY_VERIFY_WITH_TIMEOUT(view->state() != SweepView::State::Running, 120000);
        QCOMPARE(view->state(), SweepView::State::Finished);
        QCOMPARE(view->table()->rowCount(), 6);
        QCOMPARE(view->table()->columnCount(), 2);
        auto* line = qobject_cast<QLineSeries*>(view->lineChart()->series().value(0));
        QVERIFY(line);
        QCOMPARE(line->count(), 6);
        QVERIFY(line->at(5).y() > line->at(0).y()); // dearer capital, dearer GPU-hour
        screenshot(view, "sweep1d");
    }

    void sweepCancelKeepsTheViewUsable() {
        open(kNeocloud);
        SweepView* view = m_controller->openSweep();
        // The largest grid (100,000 points, over a second at full speed on 2 cores): the sweep must still be
        // running when the test cancels it. 40,000 points once finished first on a loaded machine.
        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 400));
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.95, 250));
        QVERIFY(view->setOutput(kGpuHour.toStdString()));
        // The UI thread keeps running while the worker evaluates: a timer ticks and progress arrives.
        int ticks = 0;
        QTimer timer;
        connect(&timer, &QTimer::timeout, [&] { ++ticks; });
        timer.start(10);
        QVERIFY2(view->run(), qPrintable(view->message()));
        QTRY_VERIFY_WITH_TIMEOUT(view->progressUpdates() >= 2, 60000);
        QVERIFY(ticks > 0);
        QCOMPARE(view->state(), SweepView::State::Running);
        // Meanwhile the document may change: the worker has its own copy.
        m_project.info.name = "changed while sweeping";
        view->cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(view->state() != SweepView::State::Running, 60000);
        QCOMPARE(view->state(), SweepView::State::Cancelled);
        QVERIFY(view->result().cancelled);
        QVERIFY2(view->message().contains("Cancelled"), qPrintable(view->message()));
        QVERIFY(view->runButton()->isEnabled());
        QVERIFY(!view->cancelButton()->isEnabled());
        screenshot(view, "sweep_cancelled");

        // Still usable: a small sweep runs to the end.
        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 2));
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.95, 2));
        QVERIFY2(view->run(), qPrintable(view->message()));
        QTRY_VERIFY_WITH_TIMEOUT(view->state() != SweepView::State::Running, 120000);
        QCOMPARE(view->state(), SweepView::State::Finished);
        QCOMPARE(view->table()->rowCount(), 2);
    }

    void closingARunningSweepCancelsIt() {
        open(kNeocloud);
        SweepView* view = m_controller->openSweep();
        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 400)); // still running
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.95, 250));               // when closed
        QVERIFY(view->run());
        QTRY_VERIFY_WITH_TIMEOUT(view->progressUpdates() >= 1, 60000);
        QPointer<SweepView> guard(view);
        delete view; // cancels and joins; the queued progress posts die with it
        QVERIFY(guard.isNull());
        QTest::qWait(50); // let any stray queued call surface (it must not)
        QCOMPARE(m_tabs->count(), 0);
    }

    void sweepRefusesBadInput() {
        SweepView* view = m_controller->openSweep();
        // Reversed range.
        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.10, 0.04, 5));
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains("above high"), qPrintable(view->message()));
        QCOMPARE(view->state(), SweepView::State::Idle);
        // The same assumption on both axes.
        QVERIFY(view->setAxis(0, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 5));
        QVERIFY(view->setAxis(1, "assumptions.electricity_usd_per_kwh", 0.04, 0.10, 5));
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains("different"), qPrintable(view->message()));
        // Steps out of range, and a range that is not a number.
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.9, 0));
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains("steps"), qPrintable(view->message()));
        view->axisSteps(1)->setValue(5000);
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains("steps"), qPrintable(view->message()));
        // 1,000 x 1,000 steps are each allowed, but 1,000,000 points exceed the documented grid limit of
        // 100,000 (data/FORMAT.md §6, cost::kMaxSweepPoints): refused before anything runs.
        view->axisSteps(0)->setValue(1000);
        view->axisSteps(1)->setValue(1000);
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains(QLocale().toString(1000000ULL) + " points") &&
                     view->message().contains(QLocale().toString(100000ULL)),
                 qPrintable(view->message()));
        QCOMPARE(view->state(), SweepView::State::Idle);
        view->axisSteps(0)->setValue(5);
        view->axisSteps(1)->setValue(3);
        view->axisLow(1)->setText("abc");
        QVERIFY(!view->run());
        QVERIFY2(view->message().contains("two numbers"), qPrintable(view->message()));
        QCOMPARE(view->state(), SweepView::State::Idle);
        // An unknown assumption is not offered.
        QVERIFY(!view->setAxis(0, "assumptions.no_such_thing", 0, 1, 2));

        // The engine's own refusal (an output this training-only design lacks) comes back as its text.
        ctwin::cost::Figure missing;
        missing.key = "inference.cost_per_million_output_tokens_usd";
        missing.label = "Cost per M output tokens";
        missing.unit = "USD/M tokens";
        view->setOutputs({missing}, missing.key);
        QVERIFY(view->setAxis(1, "assumptions.utilization", 0.6, 0.9, 3));
        QVERIFY(view->run());
        QTRY_VERIFY_WITH_TIMEOUT(view->state() != SweepView::State::Running, 60000);
        QCOMPARE(view->state(), SweepView::State::Failed);
        QVERIFY2(view->message().contains("no such figure"), qPrintable(view->message()));
        QVERIFY(view->runButton()->isEnabled());
    }
};

QTEST_MAIN(TestScenarioViews)
#include "test_scenario_views.moc"
