// Timing harness (prints, never asserts on time; STYLE.md "Benchmarks ... never assert on time"): on the
// 100K-GPU reference, how long from an edit to the dashboard showing the re-evaluated figures, how long a
// floor-plan edit takes to reach the scene, and how long opening the design takes.
#include "data_paths.h"
#include "floor_plan_scene.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/authoring/authoring_form.h"
#include "gui/document_editor.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "project_tree.h"
#include "test_window.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

using ctwin::app::MainWindow;

namespace {
/// CPU time of this (the GUI) thread in ms: what an action costs the app itself, whatever else the machine
/// is running (wall time on a loaded machine counts other processes' time slices too).
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

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

    /// Each authoring action (an Insert form's OK, rename, delete, undo) on the 1 GW campus reference, from
    /// the user's OK to the dashboard showing the re-evaluated design.
    void authoringActionsOn1GwCampus() {
        using ctwin::model::EntityKind;
        QTemporaryDir tmp;
        useTestEnvironment(tmp.path() + "/autosave");
        ScriptedPrompts* prompts = nullptr;
        const auto window = makeTestWindow(&prompts, QSize(1600, 1000));
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/campus-1gw.json")));
        QCoreApplication::processEvents();
        const auto& p = w.document().project();
        std::printf("\nAuthoring on campus-1gw (%zu racks): OK -> dashboard updated\n", p.racks.size());
        QElapsedTimer t;
        const auto settle = [&] {
            while (w.evaluationPending())
                QCoreApplication::processEvents();
        };
        QString building, hall;
        const std::pair<EntityKind, const char*> steps[] = {
            {EntityKind::Site, "site"},
            {EntityKind::Building, "building"},
            {EntityKind::DataHall, "data hall"},
            {EntityKind::CoolingLoop, "cooling loop"},
            {EntityKind::PowerFeed, "power feed"},
            {EntityKind::Row, "row filled with racks"},
            {EntityKind::Fabric, "fabric"},
            {EntityKind::StorageTier, "storage tier"},
            {EntityKind::ScaleAcrossLink, "scale-across link"},
            {EntityKind::TrainingJob, "training job"},
            {EntityKind::InferenceService, "inference service"}};
        for (const auto& [kind, what] : steps) {
            w.select(kind == EntityKind::DataHall || kind == EntityKind::PowerFeed ? QStringList{building}
                     : kind == EntityKind::CoolingLoop || kind == EntityKind::Row  ? QStringList{hall}
                                                                                   : QStringList{});
            QElapsedTimer build;
            build.start();
            auto form = w.authoring().makeForm(kind);
            const double buildMs = build.nsecsElapsed() / 1e6;
            form->setText("name", QStringLiteral("Timed %1").arg(what));
            if (kind == EntityKind::Row) form->setChoice("fill_rack_type", "gb200-nvl72");
            if (kind == EntityKind::Fabric) { // over the new building's row, as the two-site reference's
                form->setPicked("buildings", {building});
                form->setChoice("switch", "sw-102t");
                form->setText("port_bit_per_s", "200");
                form->setText("planes", "4");
                form->setText("breakout", "4");
            }
            const int updates = w.dashboard()->updateCount();
            t.restart();
            const double cpu0 = threadCpuMs();
            form->accept();
            settle();
            const double ms = t.nsecsElapsed() / 1e6, cpuMs = threadCpuMs() - cpu0;
            QVERIFY2(form->result() == QDialog::Accepted, qPrintable(form->errorText()));
            QVERIFY(w.dashboard()->updateCount() > updates);
            if (kind == EntityKind::Building) building = form->createdId();
            if (kind == EntityKind::DataHall) hall = form->createdId();
            std::printf(
                "  add %-22s %7.1f ms, GUI thread CPU %5.1f ms  (form built in %.1f ms; evaluation %.1f "
                "ms)\n",
                what, ms, cpuMs, buildMs, w.lastEvaluationMs());
        }
        // Where a structural edit's time goes: the tree and the plan rebuild wholesale on adds and removes.
        t.restart();
        w.projectTree()->showProject(p);
        const double treeMs = t.nsecsElapsed() / 1e6;
        t.restart();
        w.floorScene()->showProject(p);
        const double planMs = t.nsecsElapsed() / 1e6;
        std::printf("  of which: project tree rebuild %.1f ms, floor plan rebuild %.1f ms\n", treeMs, planMs);
        const auto timed = [&](const char* what, const std::function<void()>& action) {
            t.restart();
            const double cpu0 = threadCpuMs();
            action();
            settle();
            std::printf("  %-26s %7.1f ms, GUI thread CPU %5.1f ms\n", what, t.nsecsElapsed() / 1e6,
                        threadCpuMs() - cpu0);
        };
        timed("rename", [&] { QVERIFY(w.authoring().rename(hall, "Renamed hall").isEmpty()); });
        timed("delete hall (+rows, racks, loop)",
              [&] { QVERIFY(w.authoring().deleteWithConfirmation({hall})); });
        timed("undo that delete", [&] { w.undoStack().undo(); });
        // A shipped hall of the campus (250 racks, 20 rows, 2 loops) deleted and put back.
        const QString shipped = QString::fromStdString(p.halls[1].id);
        timed("delete a shipped hall", [&] { QVERIFY(w.authoring().deleteWithConfirmation({shipped})); });
        timed("undo that delete", [&] { w.undoStack().undo(); });
        std::fflush(stdout);
        w.undoStack().clear();
    }
};

QTEST_MAIN(TestGuiTiming)
#include "test_gui_timing.moc"
