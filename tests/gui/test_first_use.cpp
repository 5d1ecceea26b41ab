// What a first-time user trips on (issue 36), and the Assumptions dock's offer for a shadowed assumption
// (issue 30 item 6), as a user meets them (offscreen): a shipped reference opens as an untitled copy and is
// never the target of Save; the unsaved-changes question does not default to Save for it; dialogs start in
// the document's folder with a name from the design's name; a refused paste is shown in view and cleared by
// the next paste; each dashboard tile keeps one meaning; the cost per GPU-hour shows its P50 and which
// ranges skew it; the Row, Storage and Feed forms default to the selected (or viewed) building or site; a
// feed offers itself to the racks that lack one; a shadowed assumption offers to apply its value to the
// entities that shadow it, as one undo step, after which their ranges follow the value they use.
#include "assumptions_panel.h"
#include "data_paths.h"
#include "design_json.h"
#include "evaluate.h"
#include "floor_plan_scene.h"
#include "floor_plan_view.h"
#include "gui/assumptions_dock.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/authoring/authoring_form.h"
#include "gui/document_editor.h"
#include "gui/message_bar.h"
#include "gui/shipped_reference.h"
#include "gui/uncertainty_runner.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "scenarios.h"
#include "test_window.h"
#include "uncertainty_skew.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QCryptographicHash>
#include <QDialog>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <memory>

using ctwin::app::MainWindow;
using ctwin::app::MessageBar;
using ctwin::model::EntityKind;
using ctwin::views::AssumptionsPanel;

namespace {

const QString kRef = QStringLiteral(CTWIN_BUILD_DATA_DIR "/reference");
const QString kSourceRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");

QByteArray hashOf(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

/// The design's name, description and sources with a new name (DocumentEditor::setProjectInfo).
nlohmann::ordered_json infoNamed(const MainWindow& w, const std::string& name) {
    auto info = ctwin::model::projectToJson(w.document().project())["project"];
    info["name"] = name;
    return info;
}

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

QString evalLabelText(MainWindow& w) {
    for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
        if (l->text().contains(QStringLiteral("evaluated in"))) return l->text();
    return {};
}

} // namespace

class TestFirstUse : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;

    MainWindow& w() { return *m_window; }

    void waitForUncertainty() { QTRY_VERIFY_WITH_TIMEOUT(!w().uncertaintyPending(), 60000); }

private slots:
    void initTestCase() { useTestEnvironment(m_tmp.path() + "/autosave"); }

    void init() {
        m_window = makeTestWindow(&m_prompts);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        w().newDesign();
    }

    void cleanup() {
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        m_window.reset();
    }

    // --- safety ----------------------------------------------------------------------------------------

    void shippedReferencesAreRecognised() {
        QVERIFY(ctwin::app::isShippedReference(kRef + "/neocloud-100k-gb200.json"));
        QVERIFY(ctwin::app::isShippedReference(kSourceRef + "/neocloud-100k-gb200.json"));
        QVERIFY(ctwin::app::isShippedReference(kRef + "/../reference/vera-rubin-504.json"));
        const QString own = m_tmp.path() + "/mine.json";
        QVERIFY(QFile::copy(kRef + "/vera-rubin-504.json", own));
        QVERIFY(!ctwin::app::isShippedReference(own));
        QVERIFY(!ctwin::app::isShippedReference(QString()));
    }

    // `./dev run` opens build/share/.../neocloud-100k-gb200.json: an untitled copy, Save never writes
    // there, and the unsaved-changes question does not default to Save.
    void referenceOpensAsUntitledCopyAndSaveIsNotTheDefault() {
        const QString ref = kRef + "/vera-rubin-504.json";
        const QByteArray before = hashOf(ref);
        QVERIFY(w().openFile(ref));
        QVERIFY(w().filePath().isEmpty());
        QCOMPARE(w().referenceOrigin(), ref);
        QVERIFY2(w().windowTitle().contains("copy of a shipped reference"), qPrintable(w().windowTitle()));
        QVERIFY2(w().messageBar()->text().contains("reference design shipped"),
                 qPrintable(w().messageBar()->text()));
        QVERIFY(w().messageBar()->buttonTexts().contains("Save as..."));
        QVERIFY(!w().isModified());

        // An edit, then File > New: asked, and Save is not the default answer.
        QVERIFY(w().editor().setProperty({"east-b1"}, "name", "Mine", false).isEmpty());
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Cancel;
        QVERIFY(!w().maybeSave());
        QCOMPARE(m_prompts->saveQuestions, 1);
        QVERIFY(m_prompts->lastSaveIsDefault.has_value() && !*m_prompts->lastSaveIsDefault);

        // Save goes to Save as (it asks where); pointing it at the reference is refused, file untouched.
        m_prompts->savePath = ref;
        QVERIFY(!w().save());
        QVERIFY2(!m_prompts->errors.isEmpty() &&
                     m_prompts->errors.last().contains("shipped with ClusterTwin"),
                 qPrintable(m_prompts->errors.join('\n')));
        QCOMPARE(hashOf(ref), before);
        QVERIFY(!m_prompts->lastSaveSuggested.startsWith(kRef));
        // Saved elsewhere: the user's own file from now on, and Save is the default again.
        m_prompts->savePath = m_tmp.path() + "/rubin-mine.ctwin";
        QVERIFY(w().save());
        QCOMPARE(w().filePath(), m_tmp.path() + "/rubin-mine.ctwin");
        QVERIFY(w().referenceOrigin().isEmpty());
        QVERIFY(w().editor().setProperty({"east-b1"}, "name", "Mine again", false).isEmpty());
        QVERIFY(!w().maybeSave());
        QVERIFY(*m_prompts->lastSaveIsDefault);
        QCOMPARE(hashOf(ref), before);
    }

    // File > New after New from target: the generated design is unsaved work, so File > New asks.
    void generatedDesignIsUnsavedWork() {
        QVERIFY(!w().isModified()); // the starter of File > New
        QString problem = "no wizard";
        QTimer::singleShot(0, [&] {
            auto* wizard = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!wizard) return;
            for (auto* b : wizard->findChildren<QPushButton*>())
                if (b->text().remove('&') == QLatin1String("OK") && b->isEnabled()) {
                    problem.clear();
                    b->click();
                    return;
                }
            problem = "OK not enabled";
            wizard->reject();
        });
        QVERIFY(w().newFromTarget());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(w().isModified());
        m_prompts->saveChoice = ScriptedPrompts::SaveChoice::Cancel;
        QVERIFY(!w().maybeSave());
        QCOMPARE(m_prompts->saveQuestions, 1);
        QVERIFY(*m_prompts->lastSaveIsDefault); // not a reference: KiCad's and QGIS's default
    }

    void refusedPasteIsShownInViewAndClearedByTheNextPaste() {
        // The starter hall with one rack, room around it.
        QString rack;
        QVERIFY(w().editor().placeRack("gb200-nvl72", "b1-h1", QPointF(6.0, 6.0), &rack).isEmpty());
        QApplication::clipboard()->setText(QStringLiteral("not a rack"));
        QAction* paste = nullptr;
        for (QAction* a : w().findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Paste racks")) paste = a;
        QVERIFY(paste);
        const std::string before = dump(w());
        paste->trigger();
        QCOMPARE(dump(w()), before);
        QVERIFY2(w().messageBar()->text().contains("Nothing pasted"), qPrintable(w().messageBar()->text()));
        QCOMPARE(w().messageBar()->level(), MessageBar::Level::Warning);
        // A rack copied and pasted: the refusal goes, the status bar says what happened.
        w().select({rack});
        for (QAction* a : w().findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Copy racks")) a->trigger();
        paste->trigger();
        QVERIFY2(w().messageBar()->text().isEmpty(), qPrintable(w().messageBar()->text()));
        QVERIFY2(w().statusBar()->currentMessage().startsWith("Pasted"),
                 qPrintable(w().statusBar()->currentMessage()));
        QVERIFY(dump(w()) != before);
    }

    void leftBehindAutosavesAreShownInView() {
        // No autosave left: nothing shown.
        w().noteLeftBehindAutosaves();
        QVERIFY(w().messageBar()->text().isEmpty());
    }

    // --- dialogs ---------------------------------------------------------------------------------------

    void dialogsStartInTheDocumentFolderWithTheDesignName() {
        // Untitled: the name, not the id ("untitled").
        QVERIFY(w().editor().setProjectInfo(infoNamed(w(), "Abilene phase 1")).isEmpty());
        m_prompts->savePath.clear(); // cancel every dialog
        QVERIFY(!w().saveAs());
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).fileName(), QStringLiteral("Abilene phase 1.ctwin"));
        QVERIFY(!w().exportJson());
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).fileName(), QStringLiteral("Abilene phase 1.json"));
        QVERIFY(!w().exportReport());
        QCOMPARE(QFileInfo(m_prompts->lastReportSuggested).fileName(),
                 QStringLiteral("Abilene phase 1 report.pdf"));
        // Saved in a folder of its own: every dialog starts there.
        const QString folder = m_tmp.path() + "/projects/abilene";
        QVERIFY(QDir().mkpath(folder));
        m_prompts->savePath = folder + "/phase1.ctwin";
        QVERIFY(w().saveAs());
        m_prompts->savePath.clear();
        QVERIFY(!w().exportJson());
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).absolutePath(), folder);
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).fileName(), QStringLiteral("phase1.json"));
        QVERIFY(!w().exportReport());
        QCOMPARE(QFileInfo(m_prompts->lastReportSuggested).absolutePath(), folder);
        QVERIFY(!w().saveAs());
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).absolutePath(), folder);
        // A name with a path separator stays one file name.
        QVERIFY(w().editor().setProjectInfo(infoNamed(w(), "A/B test: 2 sites")).isEmpty());
        w().newDesign();
        QVERIFY(w().editor().setProjectInfo(infoNamed(w(), "A/B test: 2 sites")).isEmpty());
        QVERIFY(!w().exportJson());
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).fileName(),
                 QStringLiteral("A-B test- 2 sites.json"));
        // Untitled after a saved file: the folder last used, never the shipped reference folder.
        QCOMPARE(QFileInfo(m_prompts->lastSaveSuggested).absolutePath(), folder);
    }

    // --- dashboard -------------------------------------------------------------------------------------

    void eachTileKeepsOneMeaning() {
        auto* d = w().dashboard();
        // The starter of File > New: no GPUs, no job, no service.
        w().evaluateNow();
        QCOMPARE(d->tile("cost_per_gpu_hour")->value(), QStringLiteral("—"));
        QCOMPARE(d->tile("goodput")->value(), QStringLiteral("—"));
        QVERIFY(d->tile("goodput")->toolTip().contains("training job"));
        QCOMPARE(d->tile("cost_per_m_training_tokens")->value(), QStringLiteral("—"));
        QCOMPARE(d->tile("cost_per_m_output_tokens")->value(), QStringLiteral("—"));
        QVERIFY(!evalLabelText(w()).contains("1 errors"));
        // Training only: the training tile has its figure, the serving tile stays "—".
        QVERIFY(w().openFile(kRef + "/llama3-16k-h100.json"));
        w().evaluateNow();
        const QString training = d->tile("cost_per_m_training_tokens")->value();
        QVERIFY2(training.startsWith("$"), qPrintable(training));
        QCOMPARE(d->tile("cost_per_m_output_tokens")->value(), QStringLiteral("—"));
        QVERIFY(d->tile("goodput")->value() != QStringLiteral("—"));
        // A service: the serving tile, never the training one switching its meaning.
        QVERIFY(w().openFile(kRef + "/agentic-inference-gb300.json"));
        w().evaluateNow();
        QVERIFY2(d->tile("cost_per_m_output_tokens")->value().startsWith("$"),
                 qPrintable(d->tile("cost_per_m_output_tokens")->value()));
        const auto* job = w().lastResults().figure("training.cost_per_million_tokens_usd");
        QCOMPARE(d->tile("cost_per_m_training_tokens")->value() == QStringLiteral("—"), job == nullptr);
        // Counts read as English.
        const QString label = evalLabelText(w());
        QVERIFY2(!label.contains(QRegularExpression("\\b1 (errors|warnings|racks)\\b")), qPrintable(label));
    }

    // The skew arithmetic on hand-made tornado bars (triangular law, piecewise-linear response).
    void skewDriversFollowTheRangesAndSwings() {
        ctwin::cost::Tornado t;
        t.base = 10.0;
        // Lopsided upward: low 0, base 1, high 4, slope 1 => E[x] - base = (0 + 1 + 4)/3 - 1 = 2/3.
        ctwin::cost::TornadoBar up;
        up.path = "assumptions.a";
        up.inputLow = 0, up.inputHigh = 4, up.outputAtLow = 9, up.outputAtHigh = 13;
        // Symmetric and linear: no shift.
        ctwin::cost::TornadoBar even;
        even.path = "assumptions.b";
        even.inputLow = 0, even.inputHigh = 4, even.outputAtLow = 8, even.outputAtHigh = 12;
        // Symmetric range on a curved response (1/x-like: the low end moves the figure more).
        ctwin::cost::TornadoBar curved;
        curved.path = "sites.s-1.electricity_usd_per_kwh";
        curved.inputLow = 1, curved.inputHigh = 3, curved.outputAtLow = 20, curved.outputAtHigh = 6.67;
        t.bars = {up, even, curved};
        std::vector<ctwin::cost::ResolvedInput> inputs(3);
        inputs[0].path = "assumptions.a", inputs[0].value = 1;
        inputs[1].path = "assumptions.b", inputs[1].value = 2;
        inputs[2].path = "sites.s-1.electricity_usd_per_kwh", inputs[2].value = 2;
        const auto drivers = ctwin::views::skewDrivers(t, inputs);
        QCOMPARE(drivers.size(), size_t(3));
        // curved: (1 x 10 + 1 x -3.33) / (3 x 2) = 1.111; up: (1 x -1 + 3 x 3) / 12 = 0.667; even: 0.
        QCOMPARE(drivers[0].path, std::string("sites.s-1.electricity_usd_per_kwh"));
        QVERIFY(std::abs(drivers[0].shift - (10.0 - 3.33) / 6.0) < 1e-9);
        QVERIFY(std::abs(drivers[1].shift - 2.0 / 3.0) < 1e-12);
        QVERIFY(std::abs(drivers[2].shift) < 1e-12);
        QVERIFY2(drivers[0].label.contains("s-1"), qPrintable(drivers[0].label));
        const auto main = ctwin::views::mainSkewDrivers(drivers, +1.0);
        QCOMPARE(main.size(), size_t(2)); // the two that push up; the even one none
        QVERIFY(ctwin::views::mainSkewDrivers(drivers, -1.0).empty());
    }

    // On a reference, the sum of the drivers' shifts (the first-order shift of the mean) agrees in sign
    // and roughly in size with the Monte Carlo's own mean - base, and the tile names the drivers.
    void dashboardShowsP50AndWhatSkewsIt() {
        QVERIFY(w().openFile(kRef + "/neocloud-100k-gb200.json"));
        waitForUncertainty();
        const auto& pct = w().uncertainty().last().at("finance.cost_per_gpu_hour_usd");
        const double base = w().lastResults().figure("finance.cost_per_gpu_hour_usd")->value;
        double sum = 0;
        for (const auto& d : w().uncertainty().lastSkew())
            sum += d.shift;
        const double meanShift = pct.mean - base;
        qInfo("base %.4f P10 %.4f P50 %.4f P90 %.4f mean %.4f; sum of shifts %.4f", base, pct.p10, pct.p50,
              pct.p90, pct.mean, sum);
        QVERIFY(!w().uncertainty().lastSkew().empty());
        QVERIFY2(std::abs(meanShift) > 0.01 * base, "the reference's base sits apart from its distribution");
        QVERIFY2((sum > 0) == (meanShift > 0), "the drivers push the way the distribution lies");
        QVERIFY2(std::abs(sum) > 0.5 * std::abs(meanShift) && std::abs(sum) < 2.0 * std::abs(meanShift),
                 "first-order shifts account for the gap within a factor of 2");
        auto* tile = w().dashboard()->tile("cost_per_gpu_hour");
        QVERIFY2(tile->range().startsWith("P50 $"), qPrintable(tile->range()));
        const QString skew = w().dashboard()->skewText();
        QVERIFY2(skew.contains("skewed by the ranges of"), qPrintable(skew));
        const auto main = ctwin::views::mainSkewDrivers(w().uncertainty().lastSkew(), pct.p50 - base);
        QVERIFY(!main.empty());
        QVERIFY2(skew.contains(main.front().label), qPrintable(skew));
        QVERIFY2(tile->range().contains("skewed by " + main.front().label), qPrintable(tile->range()));
        QVERIFY(w().dashboard()->uncertaintyText().contains("Cost per GPU-hour: base"));
        if (const QString dir = qEnvironmentVariable("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QApplication::processEvents();
            w().grab().save(dir + "/dashboard-uncertainty.png"); // for looking at, never compared
        }
    }

    // --- forms -----------------------------------------------------------------------------------------

    void formsDefaultToTheSelectedOrViewedBuildingAndSite() {
        QVERIFY(w().openFile(kRef + "/two-site-wan.json"));
        auto& authoring = w().authoring();
        const auto formWith = [&](EntityKind kind, const QStringList& selection) {
            w().select(selection);
            return authoring.makeForm(kind);
        };
        // The second site selected: its building and hall, not the design's first.
        for (const QStringList& sel : {QStringList{"site-atl"}, QStringList{"atl-b1"}}) {
            QCOMPARE(formWith(EntityKind::Row, sel)->text("hall"), QStringLiteral("atl-h1"));
            QCOMPARE(formWith(EntityKind::StorageTier, sel)->text("building"), QStringLiteral("atl-b1"));
            QCOMPARE(formWith(EntityKind::PowerFeed, sel)->text("building"), QStringLiteral("atl-b1"));
        }
        QCOMPARE(formWith(EntityKind::Row, {"atl-h2"})->text("hall"), QStringLiteral("atl-h2"));
        // Nothing selected: the hall in view on the plan.
        w().select({});
        // Zoomed in on Atlanta's second hall, as a user looks at it before Insert > Row.
        w().floorView()->zoomBy(8.0);
        w().floorView()->reveal(w().floorScene()->entityRect("atl-h2"));
        QCoreApplication::processEvents();
        QCOMPARE(authoring.makeForm(EntityKind::Row)->text("hall"), QStringLiteral("atl-h2"));
        QCOMPARE(authoring.makeForm(EntityKind::PowerFeed)->text("building"), QStringLiteral("atl-b1"));
    }

    // A row made before its feeds: the first feed offers itself as feed A of those racks (the default),
    // the second as feed B.
    void feedOffersItselfToRacksWithoutOne() {
        QVERIFY(w().editor().remove({"b1-feed-a", "b1-feed-b"}).isEmpty());
        {
            auto row = w().authoring().makeForm(EntityKind::Row);
            auto* type = qobject_cast<QComboBox*>(row->editor("fill_rack_type"));
            QVERIFY(type);
            type->setCurrentIndex(type->findData(QStringLiteral("gb200-nvl72")));
            QVERIFY(type->currentIndex() > 0);
            row->accept();
            QVERIFY2(row->result() == QDialog::Accepted, qPrintable(row->errorText()));
        }
        const auto& racks = w().document().project().racks;
        QVERIFY(!racks.empty());
        for (const auto& r : racks)
            QVERIFY(r.feedA.empty() && r.feedB.empty());
        const int undo = w().undoStack().index();
        for (const char* side : {"feed_a", "feed_b"}) {
            w().select({});
            auto feed = w().authoring().makeForm(EntityKind::PowerFeed);
            QVERIFY2(feed->text("assign") == QStringLiteral("unfed:") + side,
                     qPrintable(feed->text("assign")));
            feed->accept();
            QVERIFY2(feed->result() == QDialog::Accepted, qPrintable(feed->errorText()));
            const std::string id = feed->createdId().toStdString();
            for (const auto& r : w().document().project().racks)
                QCOMPARE(std::string(side) == "feed_a" ? r.feedA : r.feedB, id);
        }
        QCOMPARE(w().undoStack().index(), undo + 2); // one step each
    }

    // --- assumptions -----------------------------------------------------------------------------------

    // Every site of vera-rubin-504 sets its tariff: a new base is refused naming them, with the offer to
    // apply it to them; taken, it is one undo step, the sites follow the assumption, and their sensitivity
    // ranges follow the value they now use.
    void shadowedAssumptionOffersToApplyToTheEntities() {
        QVERIFY(w().openFile(kRef + "/vera-rubin-504.json"));
        AssumptionsPanel* panel = w().assumptionsDock().panel();
        const std::string before = dump(w());
        const int commands = w().undoStack().count();
        panel->editCell("electricity_usd_per_kwh", AssumptionsPanel::Base, "0.09");
        QVERIFY(panel->errorVisible());
        QVERIFY(panel->offerButton()->isVisible());
        QVERIFY2(panel->offerButton()->text().startsWith("Apply to those"),
                 qPrintable(panel->offerButton()->text()));
        QCOMPARE(dump(w()), before);
        panel->offerButton()->click();
        QVERIFY(!panel->errorVisible());
        QCOMPARE(w().undoStack().count(), commands + 1);
        const auto& p = w().document().project();
        for (const auto& s : p.sites)
            QVERIFY2(!s.electricityUsdPerKwh.has_value(), s.id.c_str());
        QCOMPARE(p.assumptions.at("electricity_usd_per_kwh").base, 0.09);
        w().evaluateNow();
        // Each site now reads 0.09 and is ranged like the assumption it follows.
        const auto& a = p.assumptions.at("electricity_usd_per_kwh");
        bool sawSite = false;
        for (const auto& in : w().lastResults().inputs)
            if (in.path.rfind("sites.", 0) == 0 && in.path.ends_with(".electricity_usd_per_kwh")) {
                sawSite = true;
                QCOMPARE(in.value, 0.09);
                QCOMPARE(in.low, a.low);
                QCOMPARE(in.high, a.high);
            }
        QVERIFY(sawSite);
        const auto t = ctwin::cost::tornado(
            ctwin::cost::ScenarioInput{&p, w().document().catalog(), ctwin::app::loadDefaultAssumptions()},
            "finance.cost_per_gpu_hour_usd");
        bool ranged = false;
        for (const auto& bar : t.bars)
            if (bar.path == "assumptions.electricity_usd_per_kwh")
                ranged = bar.inputLow == a.low && bar.inputHigh == a.high && bar.swing > 0;
        QVERIFY2(ranged, "the tariff's range now moves the cost per GPU-hour");
        // One undo brings the sites' own tariffs and the old assumption back.
        w().undoStack().undo();
        QCOMPARE(dump(w()), before);
    }
};

QTEST_MAIN(TestFirstUse)
#include "test_first_use.moc"
