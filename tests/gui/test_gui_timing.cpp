// Timing harness (prints, never asserts on time; STYLE.md "Benchmarks ... never assert on time"): on the
// 100K-GPU reference, how long from an edit to the dashboard showing the re-evaluated figures, how long a
// floor-plan edit takes to reach the scene, and how long opening the design takes.
#include "data_paths.h"
#include "floor_plan_scene.h"
#include "gui/document_editor.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "test_window.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <vector>

using ctwin::app::MainWindow;

namespace {
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}
} // namespace

class TestGuiTiming : public QObject {
    Q_OBJECT

private slots:
    void editToDashboardOn100kReference() {
        QTemporaryDir tmp;
        useTestEnvironment(tmp.path() + "/autosave");
        ScriptedPrompts* prompts = nullptr;
        const auto window = makeTestWindow(&prompts, QSize(1600, 1000));
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QElapsedTimer t;
        t.start();
        QVERIFY(w.openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/neocloud-100k-gb200.json")));
        QCoreApplication::processEvents();
        const double openMs = t.nsecsElapsed() / 1e6;
        const auto& p = w.document().project();

        std::vector<double> editToDashboard, evaluateOnly, planEdit;
        for (int i = 0; i < 20; ++i) {
            const QString before = w.dashboard()->tile("cost_per_gpu_hour")->value();
            t.restart();
            // An inspector-style edit: the site's tariff (changes $/GPU-hour).
            QVERIFY(w.editor()
                        .setProperty({QString::fromStdString(p.sites[0].id)}, "electricity_usd_per_kwh",
                                     0.05 + 0.01 * (i % 2 ? 1 : 3), false)
                        .isEmpty());
            // The window coalesces the change and evaluates on the next event-loop turn.
            while (w.evaluationPending())
                QCoreApplication::processEvents();
            editToDashboard.push_back(t.nsecsElapsed() / 1e6);
            evaluateOnly.push_back(w.lastEvaluationMs());
            QVERIFY(w.dashboard()->tile("cost_per_gpu_hour")->value() != before);

            t.restart();
            QVERIFY(w.editor()
                        .nudge({QString::fromStdString(p.racks[100].id)}, QPointF(0, i % 2 ? 0.6 : -0.6))
                        .isEmpty());
            planEdit.push_back(t.nsecsElapsed() / 1e6);
            QTRY_VERIFY_WITH_TIMEOUT(!w.evaluationPending(), 5000);
        }
        std::printf("\nGUI timing on neocloud-100k-gb200 (%zu racks, %d rack items):\n", p.racks.size(),
                    w.floorScene()->rackItemCount());
        std::printf("  open design (load + tree + plan + first evaluation): %.0f ms\n", openMs);
        std::printf("  edit -> dashboard updated (median of 20):          %.1f ms\n",
                    median(editToDashboard));
        std::printf("    of which evaluate + dashboard/rules/figures:     %.1f ms\n", median(evaluateOnly));
        std::printf("  floor-plan nudge -> model + scene (median of 20):  %.1f ms\n", median(planEdit));
        std::fflush(stdout);
        w.undoStack().clear();
    }
};

QTEST_MAIN(TestGuiTiming)
#include "test_gui_timing.moc"
