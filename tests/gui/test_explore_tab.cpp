// The Explore tab (issue 16 item 4) offscreen: a run on a worker thread equals the engine's exploration
// (Pareto table and scatter), the open design is marked, hovering names a point's choices, "Open as design"
// writes the point's design and hands it to the window, cancel stops a run, and a bad spec is reported
// inline. No timing asserts: waits are bounded by QTRY timeouts.
#include "data_paths.h"
#include "design_file.h"
#include "explore.h"
#include "gui/explore_tab.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using ctwin::app::ExploreTab;
using namespace ctwin;

namespace {

const QString kData = QStringLiteral(CTWIN_SOURCE_DATA_DIR);

/// The Llama 3 reference: restart scope x WACC x tariff (3 x 3 x 2 = 18 points), or a large sampled space.
QString writeSpec(const QTemporaryDir& dir, const QString& name, const QString& tail) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return {};
    f.write(QStringLiteral(R"({"format": "clustertwin-explore-spec", "spec_version": 1, "name": "gui test",
      "base": "%1/reference/llama3-16k-h100.json",
      "choices": [
        {"name": "restart", "field": "training_jobs.*.restart_scope", "values": ["whole_job", "parallel_group", "hot_spare"]},
        {"name": "wacc", "set": "assumptions.wacc", "values": [0.06, 0.08, 0.10]},
        {"name": "tariff", "set": "assumptions.electricity_usd_per_kwh", "values": [0.04, 0.09]}
      ],
      "objectives": [{"figure": "training.cost_per_million_tokens_usd", "goal": "minimize"},
                     {"figure": "reliability.goodput", "goal": "maximize"}],
      "report": ["finance.cost_per_gpu_hour_usd"]%2})")
                .arg(kData, tail)
                .toUtf8());
    return path;
}

} // namespace

class TestExploreTab : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    model::Catalog m_catalog = app::loadDefaultCatalog();
    model::AssumptionSet m_defaults = app::loadDefaultAssumptions();
    model::Project m_project =
        store::loadDesign((kData + "/reference/llama3-16k-h100.json").toStdString(), &m_catalog);

private slots:
    void runMatchesEngineAndOpensADesign() {
        QStringList opened;
        ExploreTab tab(
            m_catalog, m_defaults, [this]() -> const model::Project& { return m_project; },
            [&](const QString& p) {
                opened << p;
                return true;
            });
        tab.resize(1200, 800);
        const QString spec = writeSpec(m_dir, "small.json", "");
        tab.setSpec(spec);
        QVERIFY(tab.run());
        QVERIFY(!tab.runButton()->isEnabled());
        QVERIFY(!tab.run()); // one run at a time
        QTRY_VERIFY_WITH_TIMEOUT(tab.state() != ExploreTab::State::Running, 120000);
        QVERIFY2(tab.state() == ExploreTab::State::Finished, qPrintable(tab.message()));
        QCOMPARE(tab.progressBar()->value(), 1000);

        // The same exploration straight from the engine.
        const cost::Explorer x(cost::loadExploreSpec(spec.toStdString()), m_catalog, m_defaults);
        const auto expected = x.finish(x.run(x.plan(1), 1), 1);
        QCOMPARE(tab.result()->pareto.size(), expected.pareto.size());
        QCOMPARE(tab.paretoTable()->rowCount(), static_cast<int>(expected.pareto.size()));
        QCOMPARE(tab.feasibleSeries()->count(), static_cast<int>(expected.feasible));
        QCOMPARE(tab.paretoSeries()->count(), static_cast<int>(expected.pareto.size()));
        // Default axes: the first two objectives; the scatter holds their values.
        const auto& first = expected.pareto.front();
        QCOMPARE(tab.paretoSeries()->at(0), QPointF(first.values[0], first.values[1]));
        QCOMPARE(tab.paretoTable()->item(0, 0)->text(), QString::number(first.index));
        // The open design (the reference as shipped: whole-job restarts, shipped WACC and its tariff) is
        // marked.
        QCOMPARE(tab.currentSeries()->count(), 1);
        // Hovering a Pareto point names its choices.
        const QString tip = tab.pointText(first.values[0], first.values[1]);
        QVERIFY2(tip.contains(QStringLiteral("Point %1 (Pareto)").arg(first.index)), qPrintable(tip));
        QVERIFY(tip.contains("restart = ") && tip.contains("wacc = ") && tip.contains("tariff = "));
        // Other axes.
        QVERIFY(tab.setAxes("finance.cost_per_gpu_hour_usd", "training.cost_per_million_tokens_usd"));
        QCOMPARE(tab.paretoSeries()->at(0), QPointF(first.values[2], first.values[0]));
        QVERIFY(!tab.setAxes("no.such", "training.cost_per_million_tokens_usd"));

        // For the notes: CTWIN_SCREENSHOT_DIR=dir saves what the tab shows.
        if (qEnvironmentVariableIsSet("CTWIN_SCREENSHOT_DIR"))
            tab.grab().save(qEnvironmentVariable("CTWIN_SCREENSHOT_DIR") + "/explore_tab.png");
        // Open as design: the point's layout and assumption levels, handed to the window.
        const QString out = m_dir.filePath("point.json");
        QVERIFY2(tab.openAsDesign(0, out), qPrintable(tab.message()));
        QCOMPARE(opened, QStringList{out});
        const auto design = store::loadDesign(out.toStdString(), &m_catalog);
        const auto choices = x.choicesOf(first.index);
        QCOMPARE(design.trainingJobs.front().restartScope, choices["restart"].get<std::string>());
        QCOMPARE(design.assumptions.at("wacc").base, choices["wacc"].get<double>());
        QVERIFY(!tab.openAsDesign(99, out));
    }

    void cancelAndBadSpec() {
        ExploreTab tab(m_catalog, m_defaults, [this]() -> const model::Project& { return m_project; }, {});
        // 3 x 3 x 2 layouts x 10,000 sampled override points would take minutes: cancel it.
        const QString big =
            writeSpec(m_dir, "big.json", R"(, "search": {"method": "random", "points": 5000, "seed": 2})");
        QFile f(big);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QByteArray text = f.readAll();
        text.replace(R"("values": [0.06, 0.08, 0.10])",
                     R"("range": {"min": 0.05, "max": 0.15, "count": 1000})");
        f.resize(0);
        f.write(text);
        f.close();
        tab.setSpec(big);
        QVERIFY(tab.run());
        QTRY_VERIFY_WITH_TIMEOUT(tab.progressBar()->value() > 0, 120000);
        tab.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(tab.state() != ExploreTab::State::Running, 120000);
        QCOMPARE(tab.state(), ExploreTab::State::Cancelled);
        QVERIFY(tab.runButton()->isEnabled());

        const QString bad = writeSpec(m_dir, "bad.json", "");
        QFile b(bad);
        QVERIFY(b.open(QIODevice::ReadWrite));
        QByteArray t = b.readAll();
        t.replace("assumptions.wacc", "assumptions.no_such_assumption");
        b.resize(0);
        b.write(t);
        b.close();
        tab.setSpec(bad);
        QVERIFY(tab.run());
        QTRY_VERIFY_WITH_TIMEOUT(tab.state() != ExploreTab::State::Running, 120000);
        QCOMPARE(tab.state(), ExploreTab::State::Failed);
        QVERIFY2(tab.message().contains("no_such_assumption"), qPrintable(tab.message()));
    }

    void closingMidRun() {
        auto tab = std::make_unique<ExploreTab>(
            m_catalog, m_defaults, [this]() -> const model::Project& { return m_project; }, nullptr);
        tab->setSpec(writeSpec(m_dir, "close.json", ""));
        QVERIFY(tab->run());
        tab.reset(); // cancels and joins the worker; its queued results are dropped with the tab
        QTest::qWait(50);
    }
};

QTEST_MAIN(TestExploreTab)
#include "test_explore_tab.moc"
