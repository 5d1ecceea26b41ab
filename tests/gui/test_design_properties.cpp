// Issue 11, items 3, 5, 6 and 7 driven as a user drives them (offscreen): the design's own properties in the
// inspector, the Assumptions dock (edit, undo, reset, refused input), Ctrl+Z while typing in a field,
// Ctrl+Shift+S, undo labels in words, fresh names for pasted racks, the inspector header after a rack type
// change, start-up recovery of any autosave left behind, Compare on a design without a workload, geometry
// rules after an inspector edit, and Help (manual, shortcuts table from the actions).
#include "assumptions_panel.h"
#include "design_json.h"
#include "design_properties_form.h"
#include "design_root.h"
#include "design_rules_panel.h"
#include "field_names.h"
#include "gui/analysis_controller.h"
#include "gui/assumptions_dock.h"
#include "gui/autosave.h"
#include "gui/document_editor.h"
#include "gui/help_dialog.h"
#include "inspector_panel.h"
#include "main_window.h"
#include "project_tree.h"
#include "test_window.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <optional>
#include <set>

using ctwin::app::MainWindow;
using ctwin::views::AssumptionsPanel;
using ojson = nlohmann::ordered_json;

namespace {

const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

QString undoText(MainWindow& w, int fromTop = 1) {
    return w.undoStack().text(w.undoStack().index() - fromTop);
}

/// With CTWIN_SCREENSHOT_DIR set, saves what the user sees at this step (for looking at, never compared).
void shot(QWidget* w, const QString& name) {
    const QString dir = qEnvironmentVariable("CTWIN_SCREENSHOT_DIR");
    if (dir.isEmpty()) return;
    QApplication::processEvents();
    w->grab().save(dir + "/" + name + ".png");
}

QStringList rackIds(const MainWindow& w, int n) {
    QStringList ids;
    for (const auto& r : w.document().project().racks) // compute racks, not the rows' network racks
        if (ids.size() < n && r.id.find("-net") == std::string::npos) ids << QString::fromStdString(r.id);
    return ids;
}

} // namespace

class TestDesignProperties : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { useTestEnvironment(m_tmp.path() + "/autosave"); }

    void init() {
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->openFile(kRef + "/vera-rubin-504.json"));
    }

    void cleanup() {
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
    }

    void designRootShowsAndEditsItsProperties() {
        MainWindow& w = *m_window;
        const std::string before = dump(w);
        // Selecting the tree's top item shows the design, not "Nothing selected".
        auto* root = w.projectTree()->itemForId(ctwin::views::kDesignRootId);
        QVERIFY(root);
        w.projectTree()->setCurrentItem(root);
        QCOMPARE(w.selection(), QStringList{ctwin::views::kDesignRootId});
        auto* form = w.inspector()->designForm();
        QVERIFY(!form->isHidden());
        const auto& info = w.document().project().info;
        QCOMPARE(form->nameEdit()->text(), QString::fromStdString(info.name));
        QCOMPARE(form->sourcesEdit()->toPlainText().count('\n') + 1, static_cast<int>(info.sources.size()));
        // Rename: one undoable command with a label in words; the tree's top item follows.
        form->nameEdit()->setFocus();
        form->nameEdit()->selectAll();
        QTest::keyClicks(form->nameEdit(), "Rubin pilot");
        QTest::keyClick(form->nameEdit(), Qt::Key_Return);
        QCOMPARE(w.document().project().info.name, std::string("Rubin pilot"));
        QCOMPARE(undoText(w), QStringLiteral("Rename design to Rubin pilot"));
        QCOMPARE(w.projectTree()->itemForId(ctwin::views::kDesignRootId)->text(0),
                 QStringLiteral("Rubin pilot"));
        QCOMPARE(w.selection(), QStringList{ctwin::views::kDesignRootId}); // still shown after the edit
        shot(&w, "design-properties");
        // Sources, one per line, commit when the field is left (commitPending stands for the focus loss).
        form->sourcesEdit()->setPlainText("Paper A\n\n  Datasheet B  ");
        form->commitPending();
        QCOMPARE(w.document().project().info.sources, (std::vector<std::string>{"Paper A", "Datasheet B"}));
        QCOMPARE(undoText(w), QStringLiteral("Edit the sources of Rubin pilot"));
        form->descriptionEdit()->setPlainText("A 504-rack pilot");
        form->commitPending();
        QCOMPARE(w.document().project().info.description, std::string("A 504-rack pilot"));
        // Undo all three: the document is what it was, byte for byte.
        for (int i = 0; i < 3; ++i)
            w.undoStack().undo();
        QCOMPARE(dump(w), before);
        QCOMPARE(form->nameEdit()->text(), QString::fromStdString(info.name));
    }

    void assumptionsPanelEditsUndoesAndResets() {
        MainWindow& w = *m_window;
        AssumptionsPanel* panel = w.assumptionsDock().panel();
        // Every shipped assumption is listed with base, low, high, unit and source.
        const auto defaults = ctwin::app::loadDefaultAssumptions();
        QVERIFY(panel->table()->rowCount() >= static_cast<int>(defaults.size()));
        const int row = panel->rowOf("wacc");
        QVERIFY(row >= 0);
        QCOMPARE(panel->table()->item(row, AssumptionsPanel::Name)->text(), QStringLiteral("WACC"));
        QCOMPARE(panel->table()->item(row, AssumptionsPanel::Base)->text(), QStringLiteral("0.09"));
        QCOMPARE(panel->table()->item(row, AssumptionsPanel::Unit)->text(), QStringLiteral("1/year"));
        QVERIFY(!panel->table()->item(row, AssumptionsPanel::Source)->text().isEmpty());
        QVERIFY(!panel->isOverridden("wacc"));
        w.evaluateNow();
        const double costBefore = w.lastResults().figure("finance.cost_per_gpu_hour_usd")->value;

        // Edit the cell as a user does: the table item changes, the app commits one command.
        const int commands = w.undoStack().count();
        panel->table()->item(row, AssumptionsPanel::Base)->setText("0.11");
        QVERIFY(!panel->errorVisible());
        QCOMPARE(w.undoStack().count(), commands + 1);
        QCOMPARE(undoText(w), QStringLiteral("Set WACC to 11%/yr"));
        // The words come from the assumption's unit (data/assumptions.json): rates and fractions as percent,
        // prices with their currency, ratios as plain numbers.
        QCOMPARE(ctwin::views::describeAssumptionValue(0.85, "fraction"), QStringLiteral("85%"));
        QCOMPARE(ctwin::views::describeAssumptionValue(0.04, "1/year (fraction of IT capex per year)"),
                 QStringLiteral("4%/yr"));
        QCOMPARE(ctwin::views::describeAssumptionValue(0.065, "USD/kWh"), QStringLiteral("$0.065/kWh"));
        QCOMPARE(ctwin::views::describeAssumptionValue(1.2, "ratio"), QStringLiteral("1.2"));
        QCOMPARE(ctwin::views::describeAssumptionValue(5, "years"), QStringLiteral("5 years"));
        QCOMPARE(ctwin::views::describeAssumptionValue(27, "degC"), QStringLiteral("27 °C"));
        QVERIFY(panel->isOverridden("wacc"));
        QCOMPARE(w.document().project().assumptions.at("wacc").base, 0.11);
        QCOMPARE(w.document().project().assumptions.at("wacc").low, 0.07); // the rest of the range kept
        QVERIFY(panel->table()->item(row, AssumptionsPanel::Name)->text().startsWith(QStringLiteral("●")));
        QVERIFY(panel->table()->item(row, AssumptionsPanel::Base)->font().bold());
        w.assumptionsDock().dock()->raise();
        panel->table()->selectRow(row);
        shot(&w, "assumptions-override");
        w.evaluateNow();
        // A higher cost of capital raises the annualized capex, so the cost per GPU-hour goes up.
        QVERIFY(w.lastResults().figure("finance.cost_per_gpu_hour_usd")->value > costBefore);

        // Widening the range is labelled with it.
        QVERIFY(panel->editCell("wacc", AssumptionsPanel::High, "0.15"));
        QCOMPARE(undoText(w), QStringLiteral("Set WACC to 11%/yr (range 7%/yr to 15%/yr)"));

        // Undo twice: no override left, the cell shows the shipped value again.
        w.undoStack().undo();
        w.undoStack().undo();
        QVERIFY(!panel->isOverridden("wacc"));
        QCOMPARE(panel->table()->item(panel->rowOf("wacc"), AssumptionsPanel::Base)->text(),
                 QStringLiteral("0.09"));
        w.undoStack().redo();
        QVERIFY(panel->isOverridden("wacc"));

        // Reset to the shipped default from the button, undoable too.
        panel->table()->selectRow(panel->rowOf("wacc"));
        QVERIFY(panel->resetButton()->isEnabled());
        QTest::mouseClick(panel->resetButton(), Qt::LeftButton);
        QVERIFY(!panel->isOverridden("wacc"));
        QCOMPARE(undoText(w), QStringLiteral("Reset WACC to the shipped default"));
        QVERIFY(w.document().project().assumptions.count("wacc") == 0);
        QVERIFY(!panel->resetButton()->isEnabled());
        w.undoStack().undo();
        QCOMPARE(w.document().project().assumptions.at("wacc").base, 0.11);
    }

    void assumptionsPanelRefusesBadInput() {
        MainWindow& w = *m_window;
        AssumptionsPanel* panel = w.assumptionsDock().panel();
        const std::string before = dump(w);
        const int commands = w.undoStack().count();
        struct Case {
            const char* key;
            AssumptionsPanel::Column column;
            const char* text;
            const char* message;
        };
        const Case cases[] = {
            {"wacc", AssumptionsPanel::Base, "abc", "'abc' is not a number"},
            {"wacc", AssumptionsPanel::Base, "nan", "not a finite number"},
            {"wacc", AssumptionsPanel::High, "inf", "not a finite number"},
            {"wacc", AssumptionsPanel::Low, "0.2", "must satisfy low <= base <= high"},     // low above base
            {"wacc", AssumptionsPanel::Base, "9", "outside 0 to 0.5"},                      // 9 for 0.09
            {"utilization", AssumptionsPanel::Base, "1.2", "outside 0.01 to 1"},            // not a fraction
            {"electricity_usd_per_kwh", AssumptionsPanel::Base, "-0.05", "outside 0 to 1"}, // negative
            {"horizon_years", AssumptionsPanel::High, "200", "outside 1 to 30"},
        };
        for (const Case& c : cases) {
            const int row = panel->rowOf(c.key);
            const QString shown = panel->table()->item(row, c.column)->text();
            // As typed into the cell: refused inline, the cell shows the stored value again.
            panel->table()->item(row, c.column)->setText(c.text);
            QVERIFY2(panel->errorVisible(), c.text);
            QVERIFY2(panel->errorText().contains(QString::fromLatin1(c.message)),
                     qPrintable(panel->errorText()));
            QVERIFY2(panel->errorText().contains("The design is unchanged"), qPrintable(panel->errorText()));
            QCOMPARE(panel->table()->item(panel->rowOf(c.key), c.column)->text(), shown);
            if (QString::fromLatin1(c.text) == "0.2") {
                w.assumptionsDock().dock()->raise();
                shot(&w, "assumptions-refused");
            }
        }
        QCOMPARE(w.undoStack().count(), commands);
        QCOMPARE(dump(w), before);
        // A good value afterwards clears the message.
        QVERIFY(panel->editCell("wacc", AssumptionsPanel::Base, "0.1"));
        QVERIFY(!panel->errorVisible());
    }

    // Issue 30 item 6: every site of vera-rubin-504 sets its own tariff, so a new design-wide base price is
    // read by nothing: refused inline naming the sites' values, as the CLI's --set refuses it (exit 3); the
    // range (low, high), which scales those sites' sensitivity ranges, stays editable.
    void shadowedAssumptionBaseIsRefusedNamingTheEntities() {
        MainWindow& w = *m_window;
        AssumptionsPanel* panel = w.assumptionsDock().panel();
        const std::string before = dump(w);
        const int commands = w.undoStack().count();
        panel->editCell("electricity_usd_per_kwh", AssumptionsPanel::Base, "0.09");
        QVERIFY(panel->errorVisible());
        QVERIFY2(panel->errorText().contains("Not applied"), qPrintable(panel->errorText()));
        QVERIFY2(panel->errorText().contains("sites.site-east.electricity_usd_per_kwh"),
                 qPrintable(panel->errorText()));
        QVERIFY2(panel->errorText().contains("The design is unchanged"), qPrintable(panel->errorText()));
        QCOMPARE(w.undoStack().count(), commands);
        QCOMPARE(dump(w), before);
        w.assumptionsDock().dock()->raise();
        shot(&w, "assumptions-shadowed");
        // An assumption the design reads is still edited as before.
        QVERIFY(panel->editCell("wacc", AssumptionsPanel::Base, "0.1"));
        QVERIFY(!panel->errorVisible());
        QVERIFY(panel->editCell("electricity_usd_per_kwh", AssumptionsPanel::Low, "0.03"));
    }

    void ctrlZInAFieldCommitsThenUndoes() {
        MainWindow& w = *m_window;
        const auto& site = w.document().project().sites.front();
        const QString siteId = QString::fromStdString(site.id);
        // The starter site has no tariff of its own (absent: the assumption applies).
        const std::optional<double> tariff = site.electricityUsdPerKwh;
        w.select({siteId});
        auto* line = qobject_cast<QLineEdit*>(w.inspector()->editor("electricity_usd_per_kwh"));
        QVERIFY(line);
        QApplication::setActiveWindow(&w);
        const QString shownBefore = line->text();
        line->setFocus();
        line->selectAll();
        QTest::keyClicks(line, "0.065");
        const int commands = w.undoStack().count();
        QTest::keyClick(line, Qt::Key_Z, Qt::ControlModifier);
        // The typed value became one command, which was then undone: redo brings it back.
        QCOMPARE(w.undoStack().count(), commands + 1);
        QCOMPARE(w.undoStack().index(), commands);
        QVERIFY(w.document().project().sites.front().electricityUsdPerKwh == tariff);
        QCOMPARE(w.undoStack().redoText(), QStringLiteral("Set electricity price of %1 to $0.065/kWh")
                                               .arg(QString::fromStdString(site.name)));
        QCOMPARE(line->text(), shownBefore);
        // Ctrl+Shift+Z in the field redoes.
        QTest::keyClick(line, Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w.document().project().sites.front().electricityUsdPerKwh.value_or(-1.0), 0.065);
        // With nothing typed, Ctrl+Z in the field undoes the last design edit.
        QTest::keyClick(line, Qt::Key_Z, Qt::ControlModifier);
        QVERIFY(w.document().project().sites.front().electricityUsdPerKwh == tariff);
        QCOMPARE(w.undoStack().count(), commands + 1);
    }

    void ctrlShiftSIsSaveAs() {
        MainWindow& w = *m_window;
        const QString path = m_tmp.path() + "/saved-as.ctwin";
        m_prompts->savePath = path;
        QApplication::setActiveWindow(&w);
        QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(QFile::exists(path));
        QCOMPARE(w.filePath(), path);
        // The shortcuts table is read from the actions: Save as is listed with its keys.
        bool listed = false;
        for (const auto& row : ctwin::app::shortcutRows(&w))
            listed = listed ||
                     (row.action == QStringLiteral("Save as...") &&
                      row.keys ==
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S).toString(QKeySequence::NativeText));
        QVERIFY(listed);
    }

    void undoLabelsReadAsWords() {
        MainWindow& w = *m_window;
        w.newDesign(); // Site 1, Building 1, an empty 30 x 20 m Hall 1
        auto& e = w.editor();
        QVERIFY(e.setProperty({"site-1"}, "electricity_usd_per_kwh", 0.065, false).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Set electricity price of Site 1 to $0.065/kWh"));
        QVERIFY(e.setProperty({"b1"}, "power_capacity_w", 15e6, false).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Set power capacity of Building 1 to 15 MW"));
        QString first;
        QVERIFY(e.placeRack("gb200-nvl72", "b1-h1", QPointF(4, 4), &first).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Place NVIDIA GB200 NVL72 rack"));
        int added = 0;
        const QString row = QString::fromStdString(w.document().project().racks.front().row);
        QVERIFY(e.fillRow(row, {}, &added).isEmpty());
        QVERIFY(added >= 12);
        QCOMPARE(undoText(w), QStringLiteral("Fill Row 1"));
        // Move 12 racks off the row line into free floor.
        QVERIFY(e.nudge(rackIds(w, 12), QPointF(0, 3.0)).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Move 12 racks"));
        QVERIFY(e.rotate(rackIds(w, 3), 180).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Rotate 3 racks"));
        QVERIFY(e.setProperty(rackIds(w, 2), "spare", true, false).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Set spare of 2 racks to yes"));
        QVERIFY(e.remove({"b1-h1"}).isEmpty());
        QCOMPARE(undoText(w), QStringLiteral("Delete Hall 1"));
        // The history dock shows the same words (QUndoView lists the stack's texts): no internal keys.
        for (int i = 0; i < w.undoStack().count(); ++i)
            QVERIFY2(!w.undoStack().text(i).contains('_'), qPrintable(w.undoStack().text(i)));
    }

    void pastedRacksGetFreshNames() {
        MainWindow& w = *m_window;
        w.newDesign();
        QString a, b;
        QVERIFY(w.editor().placeRack("gb200-nvl72", "b1-h1", QPointF(4, 4), &a).isEmpty());
        QVERIFY(w.editor().placeRack("gb200-nvl72", "b1-h1", QPointF(4.6, 4), &b).isEmpty());
        const ojson clip = w.editor().copy({a, b});
        QVERIFY(!clip.is_null());
        QStringList added;
        const QString error = w.editor().paste(clip, "b1-h1", QPointF(4, 10), &added);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(added.size(), 2);
        QCOMPARE(undoText(w), QStringLiteral("Paste 2 racks"));
        std::set<std::string> names;
        for (const auto& r : w.document().project().racks)
            QVERIFY2(names.insert(r.name).second, r.name.c_str()); // every rack name in the design is unique
        QCOMPARE(names.size(), size_t(4));
        for (const QString& id : added)
            QVERIFY2(!id.contains("copy") && id != a && id != b, qPrintable(id));
        // Pasting the same clipboard again still gives new names.
        QVERIFY(w.editor().paste(clip, "b1-h1", QPointF(4, 14), &added).isEmpty());
        names.clear();
        for (const auto& r : w.document().project().racks)
            QVERIFY2(names.insert(r.name).second, r.name.c_str());
    }

    void inspectorHeaderFollowsRackType() {
        MainWindow& w = *m_window;
        const QString rack = rackIds(w, 1).front();
        w.select({rack});
        const auto summary = w.inspector()->findChildren<QLabel*>();
        QString before;
        for (auto* l : summary)
            if (l->text().contains("GPUs,")) before = l->text();
        QVERIFY2(before.contains("Vera Rubin"), qPrintable(before));
        // Change the type to an NVL144 (same footprint family) through the inspector's intent.
        emit w.inspector()->editRequested({rack}, "rack_type", "\"vr-nvl144\"");
        QString after;
        for (auto* l : w.inspector()->findChildren<QLabel*>())
            if (l->text().contains("GPUs,")) after = l->text();
        QVERIFY2(after != before && after.contains("144"), qPrintable(after));
    }

    void inspectorValueOutsideTheHallIsFlaggedAtOnce() {
        MainWindow& w = *m_window;
        const QString rack = rackIds(w, 1).front();
        const auto& p = w.document().project();
        const auto rackOf = [&]() -> const auto& {
            return *std::find_if(p.racks.begin(), p.racks.end(),
                                 [&](const auto& r) { return QString::fromStdString(r.id) == rack; });
        };
        std::string row = rackOf().row, hallId;
        for (const auto& r : p.rows)
            if (r.id == row) hallId = r.hall;
        double width = 0;
        for (const auto& h : p.halls)
            if (h.id == hallId) width = h.width.value();
        // An x the field accepts (a length) but beyond the wall: the engine's rule names the rack.
        emit w.inspector()->editRequested({rack}, "x_m", QString::number(width + 2.0));
        QCOMPARE(rackOf().x.value(), width + 2.0);
        w.evaluateNow();
        bool flagged = false;
        for (const auto& r : w.lastResults().rules)
            flagged = flagged || (r.rule == "rack_outside_hall" && QString::fromStdString(r.entity) == rack);
        QVERIFY(flagged);
        shot(&w, "geometry-rule");
    }

    void startupOffersAnyAutosaveLeftBehind() {
        m_window.reset();
        // A saved design with unsaved changes in an autosave of a process that is gone (pid 999999).
        const QString design = m_tmp.path() + "/left-behind.json";
        QFile::remove(design);
        QVERIFY(QFile::copy(kRef + "/vera-rubin-504.json", design));
        QTest::qWait(20);
        const QString autosave = ctwin::app::Autosave::autosavePathFor(design);
        ojson j = ctwin::model::projectToJson(ctwin::model::loadProjectJson(design.toStdString()));
        j["project"]["name"] = "Recovered work";
        QFile f(autosave);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(j.dump()));
        f.close();
        QFile meta(autosave + ".meta");
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(QJsonDocument(QJsonObject{{"path", QFileInfo(design).absoluteFilePath()}, {"pid", 999999}})
                       .toJson());
        meta.close();
        QVERIFY(!ctwin::app::Autosave::leftBehind().isEmpty());

        // Start-up without a file: offered, restored, unsaved, and Save goes to the original file.
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(m_window->offerStartupRecovery());
        QCOMPARE(m_prompts->restoreQuestions, 1);
        QCOMPARE(m_window->document().project().info.name, std::string("Recovered work"));
        QVERIFY(m_window->isModified());
        QCOMPARE(QFileInfo(m_window->filePath()).absoluteFilePath(), QFileInfo(design).absoluteFilePath());
        QVERIFY(!QFile::exists(autosave));
        QVERIFY(m_window->save());
        QCOMPARE(ctwin::model::loadProjectJson(design.toStdString()).info.name,
                 std::string("Recovered work"));
        // Nothing is left to offer.
        QVERIFY(!m_window->offerStartupRecovery());
        QVERIFY(m_window->openFile(kRef + "/vera-rubin-504.json"));
    }

    void compareSaysWhenThereIsNoWorkloadAndOffersOne() {
        MainWindow& w = *m_window;
        w.newDesign();
        auto& analysis = w.analysis();
        QString asked;
        bool answer = false;
        analysis.setWorkloadQuestion([&](const QString& q) {
            asked = q;
            return answer;
        });
        // Declined: nothing compared, nothing added, and the question said why up front.
        QVERIFY(!analysis.ensureWorkload());
        QVERIFY(asked.contains("no workload"));
        QVERIFY(!w.document().project().hasWorkload());
        // Without GPUs there is nothing to put a job on: the reason, and nothing added.
        const QString noGpus = w.editor().addDefaultTrainingJob();
        QVERIFY2(noGpus.contains("no GPUs"), qPrintable(noGpus));
        QVERIFY(!w.document().project().hasWorkload());
        // With racks, accepted: a default training job on all GPUs, one undoable command, then Compare
        // proceeds.
        answer = true;
        QString rack;
        QVERIFY(w.editor().placeRack("gb200-nvl72", "b1-h1", QPointF(4, 4), &rack).isEmpty());
        QVERIFY(analysis.ensureWorkload());
        QVERIFY(w.document().project().hasWorkload());
        const auto& job = w.document().project().trainingJobs.front();
        QCOMPARE(job.gpus, 72.0);
        QCOMPARE(job.tp * job.dp, 72);
        QCOMPARE(undoText(w), QStringLiteral("Add a default training job"));
        QString error;
        QVERIFY2(analysis.compareWith({kRef + "/vera-rubin-504.json"}, &error), qPrintable(error));
        w.undoStack().undo();
        QVERIFY(!w.document().project().hasWorkload());
    }

    void helpShowsTheManualAndTheShortcuts() {
        MainWindow& w = *m_window;
        const QString manual = ctwin::app::manualMarkdown();
        for (const char* section :
             {"## 1. Getting started", "## 2. What a design is made of", "### Cooling loop",
              "## 3. The figures", "Cost per GPU-hour", "## 4. Assumptions", "## 6. Keyboard shortcuts"})
            QVERIFY2(manual.contains(QString::fromUtf8(section)), section);
        QAction* manualAction = nullptr;
        QAction* shortcutsAction = nullptr;
        for (QAction* top : w.menuBar()->actions())
            if (top->menu())
                for (QAction* a : top->menu()->actions()) {
                    if (a->text() == QStringLiteral("&Manual")) manualAction = a;
                    if (a->text() == QStringLiteral("&Keyboard shortcuts")) shortcutsAction = a;
                }
        QVERIFY(manualAction && shortcutsAction);
        manualAction->trigger();
        auto* browser = w.findChild<QTextBrowser*>("manualBrowser");
        QVERIFY(browser);
        shot(browser->window(), "manual");
        QVERIFY(browser->toPlainText().contains("Getting started"));
        shortcutsAction->trigger();
        auto* table = w.findChild<QTableWidget*>("shortcutsTable");
        QVERIFY(table);
        shot(table->window(), "shortcuts");
        // One row per action with a shortcut, e.g. Undo and the Analysis tools.
        const auto rows = ctwin::app::shortcutRows(&w);
        QCOMPARE(table->rowCount(), static_cast<int>(rows.size()));
        QStringList actions;
        for (const auto& r : rows)
            actions << r.where + "/" + r.action;
        for (const char* a : {"Edit/Undo", "File/Save", "Analysis/Compare designs...", "Help/Manual"})
            QVERIFY2(std::any_of(actions.begin(), actions.end(),
                                 [&](const QString& s) { return s.startsWith(a); }),
                     qPrintable(actions.join(", ")));
    }

private:
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;
};

QTEST_MAIN(TestDesignProperties)
#include "test_design_properties.moc"
