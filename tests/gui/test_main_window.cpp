// The desktop app driven as a user drives it (offscreen): opening designs, placing and moving racks on the
// floor plan, undo/redo round trips on the serialized document, inspector edits reaching the dashboard,
// rejected values, the unsaved-changes prompt and unreadable files.
#include "catalog_palette.h"
#include "comparison_view.h"
#include "data_paths.h"
#include "design_json.h"
#include "design_properties_form.h"
#include "floor_plan_scene.h"
#include "floor_plan_view.h"
#include "gui/analysis_controller.h"
#include "gui/app_settings.h"
#include "gui/document_editor.h"
#include "inspector_panel.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "phase_gantt.h"
#include "power_view.h"
#include "rack_item.h"
#include "sweep_view.h"
#include "test_window.h"
#include "timeline.h"
#include "timeline_view.h"
#include "tornado_view.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QFile>
#include <QGraphicsView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <memory>

using ctwin::app::MainWindow;
using ojson = nlohmann::ordered_json;

namespace {

const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

QStringList referenceFiles() {
    QFile f(kRef + "/index.json");
    if (!f.open(QIODevice::ReadOnly)) return {};
    QStringList out;
    for (const auto& v : QJsonDocument::fromJson(f.readAll()).array())
        out << kRef + "/" + v.toObject()["file"].toString();
    return out;
}

/// Sends a drag of a catalog item from the palette onto the floor plan at a scene position.
void dropCatalogItem(ctwin::views::FloorPlanView* view, const QString& catalogId, const QPointF& scenePos) {
    QMimeData mime;
    mime.setData(ctwin::views::CatalogPalette::kMimeType, catalogId.toUtf8());
    const QPoint at = view->mapFromScene(scenePos);
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &enter);
    QDragMoveEvent move(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &move);
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(view->viewport(), &drop);
}

void mouse(QWidget* viewport, QEvent::Type type, QPoint at, Qt::MouseButtons buttons,
           Qt::KeyboardModifiers mods = {}) {
    const QPointF global = viewport->mapToGlobal(at);
    QMouseEvent e(type, at, global, type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons, mods);
    QCoreApplication::sendEvent(viewport, &e);
}

/// Presses on `from`, drags in steps to `to` and releases, as a user's mouse drag.
void dragOnPlan(ctwin::views::FloorPlanView* view, const QPointF& fromScene, const QPointF& toScene) {
    QWidget* vp = view->viewport();
    const QPoint a = view->mapFromScene(fromScene), b = view->mapFromScene(toScene);
    mouse(vp, QEvent::MouseButtonPress, a, Qt::LeftButton);
    for (int i = 1; i <= 5; ++i)
        mouse(vp, QEvent::MouseMove, a + (b - a) * i / 5, Qt::LeftButton);
    mouse(vp, QEvent::MouseButtonRelease, b, Qt::NoButton);
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;

    MainWindow& window() { return *m_window; }

private slots:
    void initTestCase() { useTestEnvironment(m_tmp.path() + "/autosave"); }

    void init() {
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void cleanup() {
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
    }

    void opensEveryReferenceDesign() {
        const QStringList files = referenceFiles();
        QCOMPARE(files.size(), 6);
        for (const QString& f : files) {
            QVERIFY2(window().openFile(f), qPrintable(f));
            QVERIFY2(m_prompts->errors.isEmpty(), qPrintable(m_prompts->errors.join('\n')));
            QCOMPARE(window().floorScene()->rackItemCount(),
                     static_cast<int>(window().document().project().racks.size()));
            const QString gpus = window().dashboard()->tile("gpus")->value();
            QVERIFY2(gpus != QStringLiteral("—") && !gpus.isEmpty(), qPrintable(f));
            QVERIFY(!window().isModified());
            // A shipped reference opens as an untitled copy (issue 36), titled by the design's name.
            QVERIFY(window().filePath().isEmpty());
            QCOMPARE(window().referenceOrigin(), f);
            QVERIFY2(window().windowTitle().contains(QStringLiteral("copy of a shipped reference")),
                     qPrintable(window().windowTitle()));
        }
    }

    void placesMovesAndFillsRacksOnThePlan() {
        window().newDesign();
        auto* view = window().floorView();
        auto* scene = window().floorScene();
        view->fitAll();
        QCOMPARE(window().document().project().racks.size(), size_t(0));
        // Drop a GB200 NVL72 from the palette 10.1 m x 6.2 m into the hall: it snaps to the 0.6 m grid.
        const QPointF hallOrigin = scene->hallOrigin("b1-h1");
        dropCatalogItem(view, "gb200-nvl72", hallOrigin + QPointF(10.1, 6.2));
        const auto& racks = window().document().project().racks;
        QCOMPARE(racks.size(), size_t(1));
        const ctwin::model::RackPlacement r = racks.front(); // a copy: later adds reallocate the vector
        QCOMPARE(r.rackType, std::string("gb200-nvl72"));
        QVERIFY2(std::abs(r.x.value() - 10.2) < 1e-9 && std::abs(r.y.value() - 6.0) < 1e-9,
                 qPrintable(QStringLiteral("%1, %2").arg(r.x.value()).arg(r.y.value())));
        QCOMPARE(r.feedA, std::string("b1-feed-a"));
        QCOMPARE(r.coolingLoop, std::string("b1-h1-loop")); // liquid-cooled rack joins the hall's loop
        QCOMPARE(window().undoStack().count(), 1);
        QCOMPARE(window().selection(), QStringList{QString::fromStdString(r.id)});
        const std::string id = r.id;

        // A second rack dropped beside it lines up with the same row.
        dropCatalogItem(view, "gb200-nvl72", hallOrigin + QPointF(12.0, 6.5));
        QCOMPARE(racks.size(), size_t(2));
        QCOMPARE(racks[1].row, racks[0].row);
        QCOMPARE(racks[1].y.value(), racks[0].y.value());
        // Dropping onto an occupied spot is rejected and changes nothing.
        const std::string before = dump(window());
        dropCatalogItem(view, "gb200-nvl72", hallOrigin + QPointF(10.3, 6.4));
        QCOMPARE(dump(window()), before);

        // Drag the first rack 3 m down (mouse on the plan): one undo entry, snapped to the grid.
        view->reveal(scene->entityRect("b1-h1"));
        window().select({QString::fromStdString(id)});
        const QRectF rr = scene->entityRect(QString::fromStdString(id));
        const int undoBefore = window().undoStack().count();
        dragOnPlan(view, rr.center(), rr.center() + QPointF(0.1, 3.05));
        QCOMPARE(window().undoStack().count(), undoBefore + 1);
        // 3.05 m down snaps to 5 grid steps (3.0 m); 0.1 m across snaps to none.
        QVERIFY2(
            std::abs(racks.front().y.value() - (r.y.value() + 3.0)) < 1e-6 &&
                std::abs(racks.front().x.value() - r.x.value()) < 1e-6,
            qPrintable(QStringLiteral("%1, %2").arg(racks.front().x.value()).arg(racks.front().y.value())));
        window().undoStack().undo();
        QCOMPARE(dump(window()), before);
        window().undoStack().redo();

        // Rubber-band selection of both racks, then delete.
        window().undoStack().undo(); // back to both racks in one row
        scene->clearSelection();
        const QRectF both = scene->entityRect(QString::fromStdString(racks[0].id)) |
                            scene->entityRect(QString::fromStdString(racks[1].id));
        QWidget* vp = view->viewport();
        const QPoint a = view->mapFromScene(both.topLeft() - QPointF(0.4, 0.4));
        const QPoint b = view->mapFromScene(both.bottomRight() + QPointF(0.4, 0.4));
        mouse(vp, QEvent::MouseButtonPress, a, Qt::LeftButton);
        for (int i = 1; i <= 4; ++i)
            mouse(vp, QEvent::MouseMove, a + (b - a) * i / 4, Qt::LeftButton);
        mouse(vp, QEvent::MouseButtonRelease, b, Qt::NoButton);
        QCOMPARE(window().selection().size(), 2);

        // Fill the row from the selected racks to the wall.
        QString fillError;
        int added = 0;
        fillError = window().editor().fillRow(QString::fromStdString(racks[0].row), {}, &added);
        QVERIFY2(fillError.isEmpty(), qPrintable(fillError));
        QVERIFY2(added > 10, qPrintable(QString::number(added)));
        const size_t filled = window().document().project().racks.size();
        // The row ends inside the 30 m hall.
        for (const auto& rack : window().document().project().racks)
            QVERIFY(rack.x.value() + 0.6 <= 30.0 + 1e-6);
        QCOMPARE(window().editor().fillRow(QString::fromStdString(racks[0].row)).isEmpty(),
                 false); // full now
        window().undoStack().undo();
        QCOMPARE(window().document().project().racks.size(), size_t(2));
        window().undoStack().redo();
        QCOMPARE(window().document().project().racks.size(), filled);
    }

    void undoRedoRoundTripsCompareTheDocument() {
        QVERIFY(window().openFile(kRef + "/neocloud-100k-gb200.json"));
        auto& ed = window().editor();
        auto& stack = window().undoStack();
        const std::string s0 = dump(window());
        const auto& p = window().document().project();
        const QString rack = QString::fromStdString(p.racks[5].id);
        const QString hall = QString::fromStdString(p.halls[1].id);
        std::vector<std::string> states{s0};
        auto step = [&](const QString& error) {
            QVERIFY2(error.isEmpty(), qPrintable(error));
            states.push_back(dump(window()));
            QVERIFY(states.back() != states[states.size() - 2]);
        };
        step(ed.setProperty({rack}, "spare", true));
        step(ed.rotate({rack}, 90));
        step(ed.setProperty({"b1"}, "power_capacity_w", 70e6));
        // Free floor: the first hall's perimeter zone (racks keep >= 3 m from the walls).
        QString placed;
        step(ed.placeRack("gb300-nvl72", hall, QPointF(0.6, 0.6), &placed));
        step(ed.nudge({placed}, QPointF(0.6, 0)));
        step(ed.placeCdu("cdu-2mw", hall, QPointF(3.0, 0.5)));
        step(ed.paste(ed.copy({placed}), hall, QPointF(0.6, 19.8)));
        step(ed.remove({QString::fromStdString(p.rows[0].id)})); // a row with its racks
        step(
            ed.remove({QString::fromStdString(p.coolingLoops[3].id)})); // racks lose the loop, not themselves
        step(ed.remove({hall}));                                        // hall, rows, racks, loops
        QCOMPARE(stack.count(), static_cast<int>(states.size()) - 1);
        for (int i = static_cast<int>(states.size()) - 2; i >= 0; --i) {
            stack.undo();
            QVERIFY2(dump(window()) == states[static_cast<size_t>(i)],
                     qPrintable(QStringLiteral("undo to state %1").arg(i)));
        }
        for (size_t i = 1; i < states.size(); ++i) {
            stack.redo();
            QVERIFY2(dump(window()) == states[i], qPrintable(QStringLiteral("redo to state %1").arg(i)));
        }
        QCOMPARE(window().floorScene()->rackItemCount(), static_cast<int>(p.racks.size()));
    }

    void nudgesMergeIntoOneUndoEntry() {
        QVERIFY(window().openFile(kRef + "/vera-rubin-504.json"));
        const auto& p = window().document().project();
        const QString rack = QString::fromStdString(p.racks[0].id);
        const std::string s0 = dump(window());
        const double x0 = p.racks[0].x.value();
        for (int i = 0; i < 3; ++i)
            QVERIFY(window().editor().nudge({rack}, QPointF(0, -0.6)).isEmpty());
        QCOMPARE(window().undoStack().count(), 1);
        QVERIFY(std::abs(p.racks[0].x.value() - x0) < 1e-9);
        // Nudging back to the start makes the merged entry a no-op, which disappears.
        for (int i = 0; i < 3; ++i)
            QVERIFY(window().editor().nudge({rack}, QPointF(0, 0.6)).isEmpty());
        QCOMPARE(dump(window()), s0);
        QCOMPARE(window().undoStack().count(), 0);
    }

    void inspectorEditsUpdateTheDashboard() {
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        const auto& p = window().document().project();
        const QString gpusBefore = window().dashboard()->tile("gpus")->value();
        // Select a whole row and change its rack type in the inspector (as a user picks from the combo).
        QStringList row;
        for (const auto& r : p.racks)
            if (r.row == p.racks.front().row) row << QString::fromStdString(r.id);
        window().select(row);
        auto* combo = qobject_cast<QComboBox*>(window().inspector()->editor("rack_type"));
        QVERIFY(combo);
        const int b200 = combo->findData(QStringLiteral("hgx-b200-4srv"));
        QVERIFY(b200 >= 0);
        const int updates = window().dashboard()->updateCount();
        combo->setCurrentIndex(b200);
        emit combo->activated(b200);
        QTRY_VERIFY(window().dashboard()->updateCount() > updates);
        QVERIFY(!window().evaluationPending());
        QVERIFY2(window().dashboard()->tile("gpus")->value() != gpusBefore, qPrintable(gpusBefore));
        QCOMPARE(p.racks.front().rackType, std::string("hgx-b200-4srv"));
        QVERIFY(window().isModified());
        QVERIFY(window().windowTitle().contains("*"));

        // A number typed in display units (MW) arrives in SI.
        window().select({QString::fromStdString(p.buildings.front().id)});
        auto* power = qobject_cast<QLineEdit*>(window().inspector()->editor("power_capacity_w"));
        QVERIFY(power);
        power->setText("31.5");
        power->setModified(true);
        emit power->editingFinished();
        QCOMPARE(p.buildings.front().powerCapacity.value(), 31.5e6);
        QVERIFY(!window().inspector()->errorVisible());

        // Rejected values leave an inline message and the model unchanged.
        const std::string before = dump(window());
        const int entries = window().undoStack().count();
        for (const char* bad : {"-5", "lots", "1e30"}) {
            power = qobject_cast<QLineEdit*>(window().inspector()->editor("power_capacity_w"));
            power->setText(bad);
            power->setModified(true);
            emit power->editingFinished();
            QVERIFY2(window().inspector()->errorVisible(), bad);
            QVERIFY2(!window().inspector()->errorText().isEmpty(), bad);
            QCOMPARE(dump(window()), before);
            QCOMPARE(window().undoStack().count(), entries);
        }
        QVERIFY(window().inspector()->errorText().contains("power_capacity_w") ||
                window().inspector()->errorText().contains("Power capacity"));
    }

    // Issue 12: an absent optional field shows the value the engine used and where it came from; typing a
    // value overrides it, emptying the field goes back to the default (null), both undoable.
    // Issue 35: the serving tile's second line gives carbon and water per M output tokens (the engine's
    // figures, with their bases in the tooltip), and keeps it when the uncertainty line is cleared.
    void servingTileShowsCarbonAndWater() {
        QVERIFY(window().openFile(kRef + "/agentic-inference-gb300.json"));
        QTRY_VERIFY(!window().evaluationPending());
        auto* tile = window().dashboard()->tile("tokens_per_mw");
        const auto& r = window().lastResults();
        const auto* carbon = r.figure("environment.carbon_gco2e_per_million_output_tokens_location_based");
        QVERIFY(carbon);
        QVERIFY2(tile->range().contains(QString::number(carbon->value, 'f', 1) + " gCO₂e"),
                 qPrintable(tile->range()));
        window().dashboard()->clearUncertainty(QStringLiteral("test"));
        QVERIFY(tile->range().contains(QStringLiteral("L water per M output tokens")));
        // Without a service the line is empty.
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        QTRY_VERIFY(!window().evaluationPending());
        QVERIFY(window().dashboard()->tile("tokens_per_mw")->range().isEmpty());
    }

    // Issue 34: the Timeline tab follows the design's dates; dates are edited in the inspector and the
    // design properties, bad ones refused inline, every edit undoable.
    // The Power tab (issue 35 item 5) on the agentic reference (one site, a 60 MW interconnect): its two load
    // duration curves and the interconnect as a level, with the headroom; an interconnect typed below the
    // peak shows the shortfall and the Error rule; undo restores the 60 MW.
    void powerTabShowsLoadAgainstSupply() {
        QVERIFY(window().openFile(kRef + "/agentic-inference-gb300.json"));
        QTRY_VERIFY(!window().evaluationPending());
        auto* view = window().showPower();
        QCOMPARE(view->chart()->series().size(), 3); // full load as provisioned, operating point, interconnect
        QCOMPARE(view->chart()->series().at(2)->name(), QStringLiteral("Grid interconnect"));
        QVERIFY2(view->summaryLabel()->text().contains("grid interconnect 60.0 MW") &&
                     view->summaryLabel()->text().contains("headroom"),
                 qPrintable(view->summaryLabel()->text()));
        if (const QByteArray dir = qgetenv("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(100); // the chart lays out its axes and legend on the next paint
            QVERIFY(window().grab().save(QString::fromUtf8(dir) + "/main_window_power.png"));
        }
        const double peak = window().lastResults().figure("power.facility_peak_mw")->value;
        auto& ed = window().editor();
        QVERIFY(ed.setProperty({"site-va"}, "grid_interconnect_mw", std::floor(peak) - 5).isEmpty());
        QTRY_VERIFY(!window().evaluationPending());
        view = window().showPower();
        QVERIFY2(view->summaryLabel()->text().contains("short by"), qPrintable(view->summaryLabel()->text()));
        const auto& rules = window().lastResults().rules;
        QVERIFY(std::any_of(rules.begin(), rules.end(),
                            [](const auto& r) { return r.rule == "site_interconnect_exceeded"; }));
        window().undoStack().undo();
        QTRY_VERIFY(!window().evaluationPending());
        QCOMPARE(*window().document().project().sites.front().gridInterconnectMw, 60.0);
    }

    void timelineTabFollowsTheDates() {
        QVERIFY(window().openFile(kRef + "/two-site-wan.json"));
        QTRY_VERIFY(!window().evaluationPending());
        auto* view = window().showTimeline();
        const auto& r0 = window().lastResults();
        QVERIFY(r0.timeline);
        QVERIFY2(view->summaryLabel()->text().contains("NPV") &&
                     view->summaryLabel()->text().contains("undated"),
                 qPrintable(view->summaryLabel()->text()));
        QCOMPARE(view->phaseTable()->rowCount(), static_cast<int>(r0.timeline->phases.size()));
        QCOMPARE(view->chart()->series().size(), 5); // MW, GPUs, cash, peak funding, date cursor
        // The build start in the design properties, then a building a year later than the others.
        auto* form = window().inspector()->designForm();
        form->buildStartEdit()->setText("2027-01-01");
        form->buildStartEdit()->setModified(true);
        form->commitPending();
        QCOMPARE(window().document().project().info.buildStart, std::string("2027-01-01"));
        QCOMPARE(window().undoStack().text(window().undoStack().index() - 1),
                 QStringLiteral("Set the build start to 2027-01-01"));
        const auto building = window().document().project().buildings.back().id;
        window().select({QString::fromStdString(building)});
        auto* date = qobject_cast<QLineEdit*>(window().inspector()->editor("energisation_date"));
        QVERIFY(date);
        date->setText("2029-13-01"); // not a month: refused inline, nothing changes
        date->setModified(true);
        QMetaObject::invokeMethod(date, "editingFinished");
        QVERIFY2(window().inspector()->errorText().contains("YYYY-MM-DD"),
                 qPrintable(window().inspector()->errorText()));
        QVERIFY(window().document().project().buildings.back().energisationDate.empty());
        date->setText("2029-07-01");
        date->setModified(true);
        QMetaObject::invokeMethod(date, "editingFinished");
        QCOMPARE(window().document().project().buildings.back().energisationDate, std::string("2029-07-01"));
        QTRY_VERIFY(!window().evaluationPending());
        view = window().showTimeline();
        const auto& r = window().lastResults();
        QVERIFY(r.timeline);
        QCOMPARE(r.timeline->fullEnergisationMonth, 30); // 2029-07 is month 30 after 2027-01
        QVERIFY(r.figure("timeline.npv_usd")->value != r.figure("timeline.npv_without_phasing_usd")->value);
        QVERIFY2(view->summaryLabel()->text().contains("2029-07"), qPrintable(view->summaryLabel()->text()));
        // The date cursor (issue 34 item 5): at the end every hall is energised; a year before the last
        // building energises (2028-07, month 18), that building's halls are greyed on the floor plan, with
        // their month; back at the end, none.
        QVERIFY(view->dateCursor()->isEnabled());
        QCOMPARE(view->dateCursor()->value(), view->dateCursor()->maximum());
        QVERIFY(view->unenergisedHalls().isEmpty());
        QVERIFY(window().floorScene()->unenergisedHalls().isEmpty());
        view->dateCursor()->setValue(18);
        QStringList lateHalls;
        for (const auto& h : window().document().project().halls)
            if (h.building == building) lateHalls << QString::fromStdString(h.id);
        QVERIFY(!lateHalls.isEmpty());
        for (const auto& h : lateHalls) {
            QVERIFY2(window().floorScene()->unenergisedHalls().contains(h), qPrintable(h));
            QCOMPARE(window().floorScene()->unenergisedHalls().value(h), QStringLiteral("2029-07"));
        }
        QCOMPARE(window().floorScene()->unenergisedHalls().size(), lateHalls.size());
        QVERIFY2(view->dateCursorLabel()->text().startsWith("2028-07"),
                 qPrintable(view->dateCursorLabel()->text()));
        if (const QString dir = qEnvironmentVariable("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QApplication::processEvents();
            window().grab().save(dir + "/timeline-tab.png"); // for looking at, never compared
            window().tabs()->setCurrentIndex(0);             // the floor plan
            QApplication::processEvents();
            window().grab().save(dir + "/timeline-cursor-floor-plan.png");
            window().showCampus();
            QTest::qWait(1500);
            window().grab().save(dir + "/timeline-cursor-3d.png");
            view = window().showTimeline();
        }
        view->dateCursor()->setValue(view->dateCursor()->maximum());
        QVERIFY(window().floorScene()->unenergisedHalls().isEmpty());
        // The Gantt (issue 34 item 5): one row per phase. Dragging the first hall's bars a year to the right
        // gives that hall its own energisation date, one undoable edit; Right moves it one more month.
        auto* gantt = view->gantt();
        QCOMPARE(gantt->rows().size(), r.timeline->phases.size());
        QVERIFY(gantt->width() > 200);
        const auto row0 = gantt->rows().front();
        const int e0 = row0.energisationMonth;
        const QPoint press(int(gantt->xOfMonth(e0 + 1)), gantt->rowCentreY(0));
        const QPoint drop(int(gantt->xOfMonth(e0 + 13)), gantt->rowCentreY(0));
        QTest::mousePress(gantt, Qt::LeftButton, {}, press);
        QMouseEvent move(QEvent::MouseMove, QPointF(drop), gantt->mapToGlobal(QPointF(drop)), Qt::NoButton,
                         Qt::LeftButton, {});
        QCoreApplication::sendEvent(gantt, &move);
        QVERIFY(gantt->dragPreview() && gantt->dragPreview()->second == e0 + 12);
        QTest::mouseRelease(gantt, Qt::LeftButton, {}, drop);
        const auto hallDate = [&] {
            for (const auto& h : window().document().project().halls)
                if (QString::fromStdString(h.id) == row0.hall) return h.energisationDate;
            return std::string("(no hall)");
        };
        const std::string moved = r.timeline->dateOf(e0 + 12)->iso();
        QCOMPARE(hallDate(), moved);
        QTRY_VERIFY(!window().evaluationPending());
        view = window().showTimeline();
        QCOMPARE(view->gantt()->rows().front().hall, row0.hall);
        QCOMPARE(view->gantt()->rows().front().energisationMonth, e0 + 12);
        QTest::mouseClick(view->gantt(), Qt::LeftButton, {}, QPoint(4, view->gantt()->rowCentreY(0)));
        QCOMPARE(view->gantt()->selectedRow(), 0);
        QTest::keyClick(view->gantt(), Qt::Key_Right);
        QCOMPARE(hallDate(), r.timeline->dateOf(e0 + 13)->iso());
        window().undoStack().undo(); // the key
        QCOMPARE(hallDate(), moved);
        window().undoStack().undo(); // the drag
        QVERIFY(hallDate().empty());
        // Undo both edits: the timeline is undated again.
        window().undoStack().undo();
        window().undoStack().undo();
        QTRY_VERIFY(!window().evaluationPending());
        QVERIFY(window().document().project().info.buildStart.empty());
    }

    void inspectorShowsDefaultsOfAbsentFields() {
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        const auto& p = window().document().project();
        QVERIFY(!p.sites.front().electricityUsdPerKwh.has_value());
        window().select({QString::fromStdString(p.sites.front().id)});
        QTRY_VERIFY(!window().evaluationPending());
        auto* tariff = qobject_cast<QLineEdit*>(window().inspector()->editor("electricity_usd_per_kwh"));
        QVERIFY(tariff);
        QCOMPARE(tariff->text(), QString());
        // The Llama 3 design sets 0.065 $/kWh in its assumptions block.
        QVERIFY2(tariff->placeholderText().startsWith("default (0.065") &&
                     tariff->placeholderText().endsWith("from the design's assumptions)"),
                 qPrintable(tariff->placeholderText()));
        tariff->setText("0.05");
        tariff->setModified(true);
        emit tariff->editingFinished();
        QCOMPARE(p.sites.front().electricityUsdPerKwh.value_or(-1), 0.05);
        tariff = qobject_cast<QLineEdit*>(window().inspector()->editor("electricity_usd_per_kwh"));
        tariff->setText("");
        tariff->setModified(true);
        emit tariff->editingFinished();
        QVERIFY(!p.sites.front().electricityUsdPerKwh.has_value());
        window().undoStack().undo();
        QCOMPARE(p.sites.front().electricityUsdPerKwh.value_or(-1), 0.05);
    }

    void asksBeforeClosingUnsavedWork() {
        const QString path = m_tmp.path() + "/prompt.ctwin";
        window().newDesign();
        QVERIFY(window().saveAs(path));
        QVERIFY(!window().isModified());
        QVERIFY(window().editor().placeRack("gb200-nvl72", "b1-h1", QPointF(6, 6)).isEmpty());
        QVERIFY(window().isModified());
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Cancel;
        QVERIFY(!window().close());
        QCOMPARE(m_prompts->saveQuestions, 1);
        QVERIFY(window().isVisible());
        // Opening another design asks too; cancelling keeps the edit.
        QVERIFY(!window().openWithPrompt(kRef + "/vera-rubin-504.json"));
        QCOMPARE(window().document().project().racks.size(), size_t(1));
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Save;
        QVERIFY(window().close());
        QCOMPARE(m_prompts->saveQuestions, 3);
        // What was saved is what was on screen.
        MainWindow again(ctwin::app::loadDefaultCatalog(), ctwin::app::loadDefaultAssumptions());
        QVERIFY(again.openFile(path));
        QCOMPARE(again.document().project().racks.size(), size_t(1));
        QCOMPARE(dump(again), dump(window()));
    }

    void unreadableFilesShowTheReason() {
        window().newDesign();
        const std::string before = dump(window());
        const struct {
            const char* name;
            QByteArray content;
            const char* expect;
        } cases[] = {{"garbage.json", "{ this is not json", "garbage.json"},
                     {"wrong.json",
                      R"({"format":"clustertwin-design","schema_version":1,"racks":[{"id":5}]})",
                      "wrong.json"},
                     {"garbage.ctwin", QByteArray(4096, 'x'), "garbage.ctwin"}};
        for (const auto& c : cases) {
            const QString path = m_tmp.path() + "/" + c.name;
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(c.content);
            f.close();
            m_prompts->errors.clear();
            QVERIFY(!window().openFile(path));
            QCOMPARE(m_prompts->errors.size(), 1);
            QVERIFY2(m_prompts->errors.front().contains(c.expect), qPrintable(m_prompts->errors.front()));
            QCOMPARE(dump(window()), before);
        }
        m_prompts->errors.clear();
        QVERIFY(!window().openFile(m_tmp.path() + "/missing.json"));
        QCOMPARE(m_prompts->errors.size(), 1);
    }

    void saveAsCtwinAndJsonRoundTrip() {
        QVERIFY(window().openFile(kRef + "/two-site-wan.json"));
        const std::string s0 = dump(window());
        QVERIFY(window().saveAs(m_tmp.path() + "/copy.ctwin"));
        QVERIFY(window().exportJson(m_tmp.path() + "/copy.json"));
        QCOMPARE(window().filePath(), m_tmp.path() + "/copy.ctwin");
        for (const char* f : {"/copy.ctwin", "/copy.json"}) {
            QVERIFY(window().openFile(m_tmp.path() + f));
            QCOMPARE(dump(window()), s0);
        }
    }

    void capexPieGroupsTheSmallCategories() {
        // neocloud-100k-gb200: the capex by category from the engine; categories under 2.5% of the total
        // share one "Other" slice, the rest keep their own, and the slices add up to the capex total.
        QVERIFY(window().openFile(kRef + "/neocloud-100k-gb200.json"));
        window().evaluateNow();
        const auto& r = window().lastResults();
        const double total = r.figure("capex.total_usd")->value;
        double small = 0;
        int smallCount = 0, bigCount = 0;
        for (const auto& cat : ctwin::cost::kCapexCategories) {
            const auto* f = r.figure("capex.by_category_usd." + cat);
            if (!f || f->value <= 0) continue;
            if (f->value < ctwin::views::MetricsDashboard::kPieGroupShare * total) {
                small += f->value;
                ++smallCount;
            } else {
                ++bigCount;
            }
        }
        QVERIFY2(smallCount >= 2 && bigCount >= 3, "the reference should have both kinds");
        const auto slices = window().dashboard()->pieSlices();
        QCOMPARE(slices.size(), bigCount + 1);
        QVERIFY(slices.back().first.startsWith(QLatin1String("Other")));
        QVERIFY(std::abs(slices.back().second - small) <= 1e-9 * total);
        double sum = 0;
        for (const auto& [label, value] : slices)
            sum += value;
        QVERIFY(std::abs(sum - total) <= 1e-9 * total); // relative 1e-9: the same numbers, re-added
    }

    void chartsFollowTheTheme() {
        // Dark theme: the dashboard's and an analysis tab's charts take the palette's window colour and
        // text colour; back to light, the open tab follows (PaletteChange) without being recomputed.
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        QString error;
        auto* tornado = window().analysis().openTornado("finance.cost_per_gpu_hour_usd", &error);
        QVERIFY2(tornado, qPrintable(error));
        QChart* chart = tornado->findChild<QChartView*>()->chart();
        QList<QChart*> charts{chart};
        for (auto* view : window().dashboard()->findChildren<QChartView*>())
            charts << view->chart();
        QCOMPARE(charts.size(), 3); // tornado, capex pie, waterfall

        const ctwin::app::AppSettings original = ctwin::app::AppSettings::load();
        auto withTheme = [&](ctwin::app::AppSettings::Theme theme) {
            ctwin::app::AppSettings s = original;
            s.theme = theme;
            window().applySettings(s);
        };
        auto check = [&](bool dark) {
            const QPalette palette = QApplication::palette();
            QCOMPARE(palette.color(QPalette::Window).lightnessF() < 0.5, dark);
            for (QChart* c : charts) {
                QVERIFY2(c->backgroundBrush().color() == palette.color(QPalette::Window),
                         qPrintable(c->title()));
                for (QAbstractAxis* axis : c->axes())
                    QCOMPARE(axis->labelsColor(), palette.color(QPalette::WindowText));
            }
        };
        withTheme(ctwin::app::AppSettings::Theme::Dark);
        QCoreApplication::processEvents();
        check(true);
        if (const QByteArray dir = qgetenv("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QVERIFY(window().grab().save(QString::fromUtf8(dir) + "/main_window_dark_tornado.png"));
            QWidget* before = window().tabs()->currentWidget();
            window().showTimeline(); // the Gantt and its chart in the dark palette, for looking at
            QCoreApplication::processEvents();
            QVERIFY(window().grab().save(QString::fromUtf8(dir) + "/main_window_dark_timeline.png"));
            window().tabs()->setCurrentWidget(before);
        }
        withTheme(ctwin::app::AppSettings::Theme::Light);
        QCoreApplication::processEvents();
        check(false);
        window().applySettings(original);
    }

    void compareDialogPicksDesigns() {
        // Analysis > Compare designs…: the dialog lists the reference designs; Compare is enabled for 1 to 5
        // checked designs; checking two and pressing Compare opens a comparison of three.
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        QAction* compare = nullptr;
        for (QAction* a : window().menuBar()->actions())
            if (a->text().remove('&') == QLatin1String("Analysis"))
                for (QAction* item : a->menu()->actions())
                    if (item->text().remove('&').startsWith(QLatin1String("Compare"))) compare = item;
        QVERIFY(compare);
        bool seen = false;
        QString problem;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dialog) {
                problem = "no modal dialog";
                return;
            }
            seen = true;
            auto* list = dialog->findChild<QListWidget*>();
            auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
            if (!list || list->count() != 6) {
                problem = "expected the 6 reference designs";
                dialog->reject();
                return;
            }
            if (ok->isEnabled()) problem = "Compare enabled with nothing checked";
            for (int i = 0; i < list->count(); ++i)
                list->item(i)->setCheckState(Qt::Checked);
            if (ok->isEnabled()) problem = "Compare enabled with 6 checked";
            for (int i = 0; i < list->count(); ++i) {
                const QString path = list->item(i)->data(Qt::UserRole).toString();
                const bool wanted =
                    path.endsWith("vera-rubin-504.json") || path.endsWith("two-site-wan.json");
                list->item(i)->setCheckState(wanted ? Qt::Checked : Qt::Unchecked);
            }
            if (!ok->isEnabled()) problem = "Compare disabled with 2 checked";
            ok->click();
        });
        const int before = window().tabs()->count();
        compare->trigger();
        QVERIFY(seen);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QCOMPARE(window().tabs()->count(), before + 1);
        auto* view = qobject_cast<ctwin::views::ComparisonView*>(window().tabs()->currentWidget());
        QVERIFY(view);
        QCOMPARE(view->comparison().names.size(), size_t(3));
    }

    void analysisToolsOpenAsClosableTabs() {
        QVERIFY(window().openFile(kRef + "/llama3-16k-h100.json"));
        QMenu* analysis = nullptr;
        for (QAction* a : window().menuBar()->actions())
            if (a->text().remove('&') == QLatin1String("Analysis")) analysis = a->menu();
        QVERIFY(analysis);
        // Three tools, design-space exploration (issue 16), calibration (issue 17), a separator, close tab.
        QCOMPARE(analysis->actions().size(), 7);
        QCOMPARE(analysis->actions().at(3)->text().remove('&'), QStringLiteral("Design-space exploration…"));
        QCOMPARE(analysis->actions().at(4)->text().remove('&'),
                 QStringLiteral("Calibrate to measured serving runs..."));

        QTabWidget* tabs = window().tabs();
        const int fixed = tabs->count();
        QCOMPARE(fixed, 6); // floor plan, figures, 3D campus, site map, timeline, power
        QString error;
        QPointer<ctwin::views::TornadoView> tornado =
            window().analysis().openTornado("finance.cost_per_gpu_hour_usd", &error);
        QVERIFY2(tornado, qPrintable(error));
        QPointer<ctwin::views::ComparisonView> comparison =
            window().analysis().compareWith({kRef + "/vera-rubin-504.json"}, &error);
        QVERIFY2(comparison, qPrintable(error));
        QPointer<ctwin::views::SweepView> sweep = window().analysis().openSweep(&error);
        QVERIFY2(sweep, qPrintable(error));
        QCOMPARE(tabs->count(), fixed + 3);
        QCOMPARE(tabs->currentWidget(), sweep.data());
        // Pictures of the window on each analysis tab when CTWIN_SCREENSHOT_DIR is set (to look at).
        if (const QByteArray dir = qgetenv("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            const std::pair<QWidget*, const char*> shots[] = {{tornado, "tornado"},
                                                              {comparison, "comparison"}};
            for (const auto& [w, name] : shots) {
                tabs->setCurrentWidget(w);
                QTest::qWait(50);
                QVERIFY(window().grab().save(QString::fromUtf8(dir) + "/main_window_" + name + ".png"));
            }
        }

        // Only the analysis tabs carry a close button, and only they close.
        for (int i = 0; i < tabs->count(); ++i)
            QCOMPARE(tabs->tabBar()->tabButton(i, QTabBar::RightSide) != nullptr, i >= fixed);
        emit tabs->tabCloseRequested(0);
        QCOMPARE(tabs->count(), fixed + 3);
        emit tabs->tabCloseRequested(tabs->indexOf(tornado));
        QCOMPARE(tabs->count(), fixed + 2);
        QTRY_VERIFY(tornado.isNull());
        QVERIFY(comparison);
        // Close analysis tab (Ctrl+W) closes the current analysis tab and leaves the design tabs alone.
        QAction* closeTab = analysis->actions().back();
        tabs->setCurrentWidget(comparison);
        closeTab->trigger();
        QCOMPARE(tabs->count(), fixed + 1);
        QTRY_VERIFY(comparison.isNull());
        tabs->setCurrentIndex(0);
        closeTab->trigger();
        QCOMPARE(tabs->count(), fixed + 1);

        // Closing the window just after starting a sweep: the view cancels and joins its worker (which
        // works on copies), the controller goes before the catalog it reads.
        QVERIFY2(sweep->run(), qPrintable(sweep->message()));
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
        QVERIFY(sweep.isNull());
        m_window = makeTestWindow(&m_prompts); // for cleanup()
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
