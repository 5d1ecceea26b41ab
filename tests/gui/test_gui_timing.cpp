// Timing harness (prints, never asserts on time; STYLE.md "Benchmarks ... never assert on time"): on the
// 100K-GPU reference, how long from an edit to the window painted with the re-evaluated figures (each loop
// ends with a synchronous repaint, so a paint is counted in its own edit, issue 32), how long a
// floor-plan edit takes to reach the scene, and how long opening the design takes; on the 14,180-rack
// campus and the 1 GW campus, a rack move, a rack retype and a WACC change against SPEC.md §7's one frame
// (edit -> dashboard < 16 ms on 14,000 racks, issue 15); authoring actions on the 1 GW campus (issue 11).
#include "data_paths.h"
#include "design_json.h"
#include "floor_plan_scene.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/authoring/authoring_form.h"
#include "gui/document_editor.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "project_tree.h"
#include "scene/design_replicator.h"
#include "test_window.h"
#include "vtk_bridge/campus_view.h"
#include "vtk_bridge/vtk_render_widget.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
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

/// The window every timing case drives: 1600 x 1000, autosave under `dir`, unsaved changes discarded at
/// the end.
std::unique_ptr<MainWindow> timingWindow(const QString& dir) {
    useTestEnvironment(dir + "/autosave");
    ScriptedPrompts* prompts = nullptr;
    auto window = makeTestWindow(&prompts, QSize(1600, 1000));
    prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
    return window;
}

/// Median wall and GUI-thread CPU time of `edits` runs of one edit, each from the call that commits it to
/// the dashboard showing the re-evaluated figures (the window evaluates on the next event-loop turn).
struct EditTiming {
    double wallMs = 0.0;
    double cpuMs = 0.0;
    double evaluationMs = 0.0; // of which the window's evaluateNow (engine, dashboard, rules, inspector)
};
} // namespace

class TestGuiTiming : public QObject {
    Q_OBJECT

private slots:
    /// Edit -> dashboard painted on the screen, before and after the 3D tab has been shown once (issue 36):
    /// a QOpenGLWidget in the window made Qt compose every later repaint of the whole window through OpenGL
    /// (10.5 ms against 1.7 ms per edit on software GL, last measured with one); the native child window the
    /// 3D view uses now does not. Needs an X server with OpenGL (xvfb-run); skipped on the offscreen
    /// platform.
    void repaintAfterThe3dTabWasShown() {
        if (QGuiApplication::platformName() == QLatin1String("offscreen"))
            QSKIP("the 3D tab needs OpenGL windows: run under xvfb-run with QT_QPA_PLATFORM=xcb");
        QTemporaryDir tmp;
        const auto window = timingWindow(tmp.path());
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/neocloud-100k-gb200.json")));
        const auto& p = w.document().project();
        const auto editAndPaint = [&] {
            std::vector<double> ms;
            QElapsedTimer t;
            for (int i = 0; i < 20; ++i) {
                t.start();
                if (!w.editor()
                         .setProperty({QString::fromStdString(p.sites[0].id)}, "electricity_usd_per_kwh",
                                      0.05 + 0.01 * (i % 2 ? 1 : 3), false)
                         .isEmpty())
                    return -1.0; // refused: the caller fails
                while (w.evaluationPending())
                    QCoreApplication::processEvents();
                w.repaint(); // paint and flush the whole window now
                ms.push_back(t.nsecsElapsed() / 1e6);
            }
            return median(ms);
        };
        const double before = editAndPaint();
        QVERIFY(before >= 0);
        auto* campus = w.showCampus();
        QVERIFY(campus);
        QTRY_VERIFY(campus->renderWidget()->framesRendered() > 0);
        w.tabs()->setCurrentIndex(0); // back to the floor plan
        QCoreApplication::processEvents();
        const double after = editAndPaint();
        QVERIFY(after >= 0);
        std::printf("\nEdit -> dashboard -> whole window repainted (median of 20, neocloud-100k-gb200):\n");
        std::printf("  before the 3D tab was shown: %.1f ms\n  after it was shown once:     %.1f ms\n",
                    before, after);
        std::fflush(stdout);
        w.undoStack().clear();
    }

    void editToDashboardOn100kReference() {
        QTemporaryDir tmp;
        const auto window = timingWindow(tmp.path());
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
            w.repaint(); // to the paint (issue 32): the edit's repaint counts here, not in the next edit
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
        std::printf("  edit -> dashboard painted (median of 20):          %.1f ms\n",
                    median(editToDashboard));
        std::printf("    of which evaluate + dashboard/rules/figures:     %.1f ms\n", median(evaluateOnly));
        std::printf("  floor-plan nudge -> model + scene (median of 20):  %.1f ms\n", median(planEdit));
        std::fflush(stdout);
        w.undoStack().clear();
    }

    /// Three everyday edits on the 14K-rack campus (ten copies of the neocloud reference, 14,180 racks) and
    /// on the 1 GW campus (5,000 racks): a rack moved on the plan (the drag's drop), a rack retyped in the
    /// inspector, the WACC changed in the assumptions dock. Each is timed from the call that commits the
    /// edit until the dashboard has shown the re-evaluated figures.
    void editToDashboardOnCampuses() {
        QTemporaryDir tmp;
        const auto window = timingWindow(tmp.path());
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/neocloud-100k-gb200.json")));
        const QString campus14k = tmp.path() + "/campus-14k.json";
        ctwin::model::writeTextFileAtomic(campus14k.toStdString(),
                                          ctwin::model::dumpJson(ctwin::model::projectToJson(
                                              ctwin::views::replicateCampus(w.document().project(), 10))));
        const std::pair<QString, const char*> designs[] = {
            {campus14k, "14K-rack campus (10 x neocloud-100k-gb200)"},
            {QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/campus-1gw.json"), "campus-1gw"}};
        constexpr int kEdits = 20;
        for (const auto& [path, name] : designs) {
            QVERIFY(w.openFile(path));
            QCoreApplication::processEvents();
            const auto& p = w.document().project();
            // A rack in the middle of the design; its row and hall.
            const auto& rack = p.racks[p.racks.size() / 2];
            const QString rackId = QString::fromStdString(rack.id);
            QString hall;
            for (const auto& r : p.rows)
                if (r.id == rack.row) hall = QString::fromStdString(r.hall);
            const QString type = QString::fromStdString(rack.rackType);
            const QString otherType =
                type == "gb200-nvl72" ? QStringLiteral("gb300-nvl72") : QStringLiteral("gb200-nvl72");
            // `figure`: a figure the edit changes (one rack of 14,000 moves no dashboard tile's rounded
            // text).
            const auto figure = [&](const char* key) {
                const auto* f = w.lastResults().figure(key);
                return f ? f->value : std::nan("");
            };
            const auto timeEdit = [&](const std::function<QString(int)>& edit, const char* key) {
                std::vector<double> wall, cpu, evaluation;
                for (int i = 0; i < kEdits; ++i) {
                    const int updates = w.dashboard()->updateCount();
                    const double before = key ? figure(key) : 0.0;
                    QElapsedTimer t;
                    t.start();
                    const double cpu0 = threadCpuMs();
                    const QString error = edit(i);
                    while (w.evaluationPending())
                        QCoreApplication::processEvents();
                    w.repaint(); // to the paint (issue 32)
                    wall.push_back(t.nsecsElapsed() / 1e6);
                    cpu.push_back(threadCpuMs() - cpu0);
                    evaluation.push_back(w.lastEvaluationMs());
                    if (!error.isEmpty()) qWarning("%s", qPrintable(error));
                    if (!error.isEmpty() || w.dashboard()->updateCount() <= updates ||
                        (key && !(figure(key) != before)))
                        return EditTiming{-1.0, -1.0, -1.0};
                }
                return EditTiming{median(wall), median(cpu), median(evaluation)};
            };
            const double x = rack.x.value(), y = rack.y.value();
            // Into the aisle and back (rows stand a rack depth plus a 1.2 m aisle apart).
            const EditTiming move = timeEdit(
                [&](int i) {
                    return w.editor().move(
                        {ctwin::views::FloorMove{rackId, hall, QPointF(x, i % 2 ? y : y - 0.6)}});
                },
                nullptr);
            const EditTiming retype = timeEdit(
                [&](int i) {
                    return w.editor().setProperty({rackId}, "rack_type",
                                                  (i % 2 ? type : otherType).toStdString(), false);
                },
                "power.it_mw");
            const EditTiming waccEdit = timeEdit(
                [&](int i) {
                    return w.editor().setAssumption(
                        "wacc",
                        ctwin::model::Assumption{i % 2 ? 0.08 : 0.10, 0.07, 0.12, "1/year", "timing", false});
                },
                "finance.cost_per_gpu_hour_usd");
            std::printf("\nEdit -> dashboard painted on %s (%zu racks), median of %d:\n", name,
                        p.racks.size(), kEdits);
            for (const auto& [what, e] : {std::pair{"move a rack", move}, std::pair{"retype a rack", retype},
                                          std::pair{"change WACC", waccEdit}})
                std::printf("  %-14s %6.1f ms, GUI thread CPU %5.1f ms (evaluation %4.1f ms)%s\n", what,
                            e.wallMs, e.cpuMs, e.evaluationMs,
                            e.wallMs < 0 ? "  (FAILED: the edit was refused or the dashboard did not update)"
                                         : "");
            std::fflush(stdout);
            QVERIFY(move.wallMs >= 0 && retype.wallMs >= 0 && waccEdit.wallMs >= 0);
            w.undoStack().clear();
        }
    }

    /// Each authoring action (an Insert form's OK, rename, delete, undo) on the 1 GW campus reference, from
    /// the user's OK to the dashboard showing the re-evaluated design.
    void authoringActionsOn1GwCampus() {
        using ctwin::model::EntityKind;
        QTemporaryDir tmp;
        const auto window = timingWindow(tmp.path());
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/campus-1gw.json")));
        QCoreApplication::processEvents();
        const auto& p = w.document().project();
        std::printf("\nAuthoring on campus-1gw (%zu racks): OK -> dashboard painted\n", p.racks.size());
        QElapsedTimer t;
        const auto settle = [&] {
            while (w.evaluationPending())
                QCoreApplication::processEvents();
            w.repaint(); // to the paint (issue 32)
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
