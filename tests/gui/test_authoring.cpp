// Authoring a whole design in the desktop app as a user does it (offscreen): from File > New, every entity
// kind through its Insert form (filled as a user fills it, then OK), rename in place, delete with its
// confirmation, undo to the start and redo to the end, save and reopen, evaluate, compare with a shipped
// reference; and each form refusing bad input inline with the design unchanged and the typing kept.
#include "cdu_item.h"
#include "data_paths.h"
#include "design_json.h"
#include "evaluate.h"
#include "floor_item.h"
#include "floor_plan_scene.h"
#include "floor_plan_view.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/authoring/authoring_form.h"
#include "gui/document_editor.h"
#include "main_window.h"
#include "metric_tile.h"
#include "metrics_dashboard.h"
#include "outline_item.h"
#include "project_tree.h"
#include "scenarios.h"
#include "test_window.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QTreeWidgetItem>
#include <QUndoStack>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>

using ctwin::app::AuthoringForm;
using ctwin::app::MainWindow;
using ctwin::model::EntityKind;

namespace {

std::string dump(const MainWindow& w) {
    return ctwin::model::dumpJson(ctwin::model::projectToJson(w.document().project()));
}

/// Values typed into a form: a line edit's text, a drop-down's stored value, a list's ticked values
/// (comma-separated) or a check box ("true"/"false"), whichever editor the key has.
using Values = std::vector<std::pair<QString, QString>>;

void fill(AuthoringForm& form, const Values& values) {
    for (const auto& [key, value] : values) {
        if (form.setText(key, value) || form.setChoice(key, value) || form.setChecked(key, value == "true"))
            continue;
        QVERIFY2(form.setPicked(key, value.isEmpty() ? QStringList() : value.split(',')), qPrintable(key));
    }
}

/// With CTWIN_AUTHORING_SHOTS=<folder>, saves what the user sees at this step (for looking at it).
void shot(QWidget* widget, const char* name) {
    const QString dir = qEnvironmentVariable("CTWIN_AUTHORING_SHOTS");
    if (dir.isEmpty()) return;
    widget->show();
    QCoreApplication::processEvents();
    widget->grab().save(dir + "/" + name + ".png");
}

/// The tree as text (depth, id, name, details per item, in order): the tree after a run of in-place edits
/// must equal a tree built from scratch for the same project.
QString treeText(const QTreeWidgetItem* it, int depth = 0) {
    QString out = QStringLiteral("%1%2|%3|%4\n")
                      .arg(QString(depth, QLatin1Char(' ')), it->data(0, Qt::UserRole).toString(),
                           it->text(0), it->text(1));
    for (int i = 0; i < it->childCount(); ++i)
        out += treeText(it->child(i), depth + 1);
    return out;
}
QString treeText(const ctwin::views::ProjectTree& tree) {
    QString out;
    for (int i = 0; i < tree.topLevelItemCount(); ++i)
        out += treeText(tree.topLevelItem(i));
    return out;
}

/// The plan as text (every item's entity id, kind, scene rectangle, label or title, row labels, hall and
/// colour, sorted): the same comparison.
QString planText(const ctwin::views::FloorPlanScene& scene) {
    QStringList lines;
    for (const QGraphicsItem* item : scene.items()) {
        const QRectF r = item->sceneBoundingRect();
        QString id, text;
        if (const auto* f = dynamic_cast<const ctwin::views::FloorItem*>(item)) {
            id = f->entityId();
            text = QStringLiteral("%1 in %2 %3").arg(f->label(), f->hallId(), f->brushColor().name());
        } else if (const auto* o = dynamic_cast<const ctwin::views::OutlineItem*>(item)) {
            id = o->entityId();
            text = QStringLiteral("\"%1\" %2 grid %3").arg(o->title(), o->fill().name()).arg(o->grid());
            for (const auto& row : o->rowLabels())
                text += QStringLiteral(" [%1 %2,%3]").arg(row.text).arg(row.at.x()).arg(row.at.y());
        }
        lines << QStringLiteral("%1 %2 %3 %4 %5 %6 %7")
                     .arg(id)
                     .arg(item->type())
                     .arg(r.x(), 0, 'f', 3)
                     .arg(r.y(), 0, 'f', 3)
                     .arg(r.width(), 0, 'f', 3)
                     .arg(r.height(), 0, 'f', 3)
                     .arg(text);
    }
    lines.sort();
    return lines.join(QLatin1Char('\n'));
}

/// The tree and the plan after in-place updates equal views built anew from the project.
void checkViewsMatchRebuild(MainWindow& w) {
    ctwin::views::ProjectTree fresh;
    fresh.showProject(w.document().project());
    QCOMPARE(treeText(*w.projectTree()), treeText(fresh));
    const auto catalog = ctwin::app::loadDefaultCatalog();
    ctwin::views::FloorPlanScene freshPlan(catalog);
    freshPlan.showProject(w.document().project());
    QCOMPARE(planText(*w.floorScene()), planText(freshPlan));
    QCOMPARE(w.floorScene()->sceneRect(), freshPlan.sceneRect());
}

int cduItemsOf(const MainWindow& w, const QString& loop) {
    int n = 0;
    for (auto* item : w.floorScene()->items())
        if (auto* cdu = qgraphicsitem_cast<ctwin::views::CduItem*>(item)) n += cdu->loopId() == loop;
    return n;
}

} // namespace

class TestAuthoring : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    std::unique_ptr<MainWindow> m_window;
    ScriptedPrompts* m_prompts = nullptr;

    MainWindow& w() { return *m_window; }

    /// The Insert form of a kind with `selection` selected (as a user selects before Insert).
    std::unique_ptr<AuthoringForm> form(EntityKind kind, const QStringList& selection = {}) {
        w().select(selection);
        return w().authoring().makeForm(kind);
    }

    /// Fills the form, presses OK; the new entity's id, after checking it is one more undo entry and the
    /// dashboard was refreshed by the evaluation that followed.
    QString add(EntityKind kind, const QStringList& selection, const Values& values) {
        auto f = form(kind, selection);
        fill(*f, values);
        // CTWIN_SCREENSHOT_DIR: each kind's form as a newcomer sees it, filled.
        if (const QString dir = qEnvironmentVariable("CTWIN_SCREENSHOT_DIR"); !dir.isEmpty())
            f->grab().save(dir + "/form-" + QString::number(static_cast<int>(kind)) + ".png");
        const int undoBefore = w().undoStack().index();
        const int updates = w().dashboard()->updateCount();
        f->accept();
        if (f->result() != QDialog::Accepted || f->errorVisible()) {
            qWarning("refused: %s", qPrintable(f->errorText()));
            return {};
        }
        if (w().undoStack().index() != undoBefore + 1) {
            qWarning("expected one undo entry, got %d", w().undoStack().index() - undoBefore);
            return {};
        }
        w().evaluateNow();
        if (w().dashboard()->updateCount() <= updates) return {};
        return f->createdId();
    }

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

    void insertMenuAndToolbarListEveryKind() {
        QMenu* insert = nullptr;
        for (QAction* a : w().menuBar()->actions())
            if (a->text() == QStringLiteral("&Insert")) insert = a->menu();
        QVERIFY(insert);
        QStringList texts;
        for (QAction* a : insert->actions())
            if (!a->isSeparator()) texts << a->text();
        QCOMPARE(texts, (QStringList{"Site...", "Building...", "Data hall...", "Row...", "Power feed...",
                                     "Cooling loop...", "Fabric...", "Storage tier...",
                                     "Scale-across link...", "Training job...", "Inference service...",
                                     "Draw &building on the plan", "Draw data &hall on the plan"}));
        // The starter has one site: a link needs a second place.
        QVERIFY(!w().authoring().insertAction(EntityKind::ScaleAcrossLink)->isEnabled());
        QVERIFY(w().authoring().insertAction(EntityKind::Site)->isEnabled());
        // A hall's context menu offers what goes in a hall.
        QMenu menu;
        w().authoring().addContextActions(&menu, {"b1-h1"});
        QStringList offered;
        for (QAction* a : menu.actions())
            offered << a->text();
        QVERIFY2(offered.contains("Add row...") && offered.contains("Add cooling loop...") &&
                     offered.contains("Rename"),
                 qPrintable(offered.join('|')));
    }

    void buildsATwoSiteDesignUndoesAndReopens() {
        const std::string starter = dump(w());
        QCOMPARE(w().undoStack().count(), 0);
        const auto& p = w().document().project();

        // Site 1 (the starter's) renamed in place in the tree (F2) and placed through the inspector path.
        QTreeWidgetItem* siteItem = w().projectTree()->itemForId("site-1");
        QVERIFY(siteItem);
        siteItem->setText(0, "Abilene");
        QTRY_COMPARE(QString::fromStdString(p.sites[0].name), QStringLiteral("Abilene"));
        QVERIFY(w().editor().setProperty({"site-1"}, "lat_deg", 32.4487, false).isEmpty());
        QVERIFY(w().editor().setProperty({"site-1"}, "lon_deg", -99.7331, false).isEmpty());

        // Site 2 from the shipped list of places.
        {
            auto f = form(EntityKind::Site);
            auto* places = qobject_cast<QComboBox*>(f->editor("place"));
            QVERIFY(places && places->count() > 10);
            places->setCurrentIndex(places->findText("Mount Pleasant", Qt::MatchStartsWith));
            QCOMPARE(f->text("lat_deg"), QStringLiteral("42.7000"));
            QCOMPARE(f->text("name"), QStringLiteral("Mount Pleasant"));
            f->setText("electricity_usd_per_kwh", "0.065");
            shot(f.get(), "01-site-form");
            f->accept();
            QCOMPARE(f->result(), int(QDialog::Accepted));
        }
        QCOMPARE(p.sites.size(), size_t(2));
        const QString site2 = QString::fromStdString(p.sites[1].id);
        QCOMPARE(p.sites[1].latDeg, 42.7);
        QCOMPARE(p.sites[1].electricityUsdPerKwh.value_or(-1.0), 0.065);

        const QString b2 = add(EntityKind::Building, {site2},
                               {{"name", "Mount Pleasant 1"}, {"power_capacity_w", "40"}, {"depth_m", "60"}});
        QVERIFY(!b2.isEmpty());
        QCOMPARE(p.buildings.size(), size_t(2));
        QCOMPARE(QString::fromStdString(p.buildings[1].site), site2);
        QCOMPARE(p.buildings[1].powerCapacity.value(), 40e6);

        const QString feedA = add(EntityKind::PowerFeed, {b2}, {{"capacity_w", "30"}});
        const QString feedB = add(EntityKind::PowerFeed, {b2}, {{"capacity_w", "30"}});
        QVERIFY(!feedA.isEmpty() && !feedB.isEmpty());
        QCOMPARE(QString::fromStdString(p.powerFeeds[2].name), QStringLiteral("Mount Pleasant 1 feed A"));
        QCOMPARE(QString::fromStdString(p.powerFeeds[3].name), QStringLiteral("Mount Pleasant 1 feed B"));
        QCOMPARE(p.powerFeeds[3].chain.size(), size_t(4)); // utility path without the generator

        const QString hall2 = add(EntityKind::DataHall, {b2}, {{"width_m", "19.2"}});
        const QString hall3 = add(EntityKind::DataHall, {b2}, {{"width_m", "19.2"}});
        QVERIFY(!hall2.isEmpty() && !hall3.isEmpty());
        QCOMPARE(p.halls.size(), size_t(3));
        QCOMPARE(p.halls[2].y.value(), 30.0); // below hall 2 (6 + 20 + 4 m)
        QCOMPARE(QString::fromStdString(p.halls[2].name), QStringLiteral("Hall 3"));

        // Loops of 6 x 2 MW CDUs, N+1 (5 carry the 78 racks' liquid heat, 8.75 MW; one is the spare).
        QStringList loops;
        for (const QString& hall : {hall2, hall3}) {
            const QString loop = add(EntityKind::CoolingLoop, {hall},
                                     {{"cdu_type", "cdu-2mw"},
                                      {"cdu_count", "6"},
                                      {"redundancy", "N+1"},
                                      {"plant", "plant-dry-cooler"}});
            QVERIFY(!loop.isEmpty());
            loops << loop;
            QCOMPARE(cduItemsOf(w(), loop), 6); // the plan draws exactly cdu_count CDUs
        }
        QCOMPARE(p.coolingLoops.back().cdus.size(), size_t(6));
        {
            // Editing cdu_count in the inspector adds or removes CDUs on the plan; kept ones stay put.
            const auto before = p.coolingLoops.back().cdus;
            QVERIFY(w().editor().setProperty({loops[1]}, "cdu_count", 8, false).isEmpty());
            QCOMPARE(cduItemsOf(w(), loops[1]), 8);
            QVERIFY(std::equal(before.begin(), before.end(), p.coolingLoops.back().cdus.begin()));
            QVERIFY(w().editor().setProperty({loops[1]}, "cdu_count", 4, false).isEmpty());
            QCOMPARE(cduItemsOf(w(), loops[1]), 4);
            QVERIFY(std::equal(before.begin(), before.begin() + 4, p.coolingLoops.back().cdus.begin()));
            // More CDUs than the free floor holds: refused, nothing changes.
            const QString refused = w().editor().setProperty({loops[1]}, "cdu_count", 1000, false);
            QVERIFY2(refused.contains("fit on the free floor"), qPrintable(refused));
            QCOMPARE(p.coolingLoops.back().cduCount, 4);
            w().undoStack().undo();
            w().undoStack().undo();
            QCOMPARE(cduItemsOf(w(), loops[1]), 6);
            QVERIFY(p.coolingLoops.back().cdus == before);
        }

        // Three rows per hall filled with GB200 NVL72 (26 racks from x = 3.6 m to the 19.2 m wall), without
        // the form's network rack (rowFormPutsANetworkRackFirst has it).
        for (const QString& hall : {hall2, hall3})
            for (int i = 0; i < 3; ++i)
                QVERIFY(!add(EntityKind::Row, {hall},
                             {{"fill_rack_type", "gb200-nvl72"}, {"network_rack_type", ""}})
                             .isEmpty());
        QCOMPARE(p.racks.size(), size_t(156));
        {
            auto f = form(EntityKind::CoolingLoop, {hall2});
            shot(f.get(), "02-cooling-loop-form");
        }
        for (const auto& r : p.racks) {
            QCOMPARE(QString::fromStdString(r.feedA), feedA);
            QCOMPARE(QString::fromStdString(r.feedB), feedB);
            QVERIFY(loops.contains(QString::fromStdString(r.coolingLoop)));
        }
        QCOMPARE(w().lastResults().bom.gpus, 156.0 * 72);
        QVERIFY2(w().dashboard()->tile("gpus")->value().startsWith("11,232 GPU"),
                 qPrintable(w().dashboard()->tile("gpus")->value()));

        // A 2-tier back-end fabric over building 2, previewed before OK: 4 planes of 200G endpoint ports on
        // 102.4T switches with 800G ports broken out 4 ways (radix 512), as in the two-site reference.
        {
            auto f = form(EntityKind::Fabric);
            fill(*f, {{"buildings", b2},
                      {"switch", "sw-102t"},
                      {"port_bit_per_s", "200"},
                      {"planes", "4"},
                      {"breakout", "4"},
                      {"tiers", "2"},
                      {"oversubscription", "1"}});
            QTest::qWait(200); // the preview waits for a pause in typing
            const QString preview = f->findChild<QLabel*>("preview")->text();
            QVERIFY2(preview.contains("switches") && preview.contains("transceivers"), qPrintable(preview));
            QVERIFY2(!preview.contains("#c0392b"), qPrintable(preview)); // no error finding
            shot(f.get(), "03-fabric-form-preview");
            f->accept();
            QVERIFY2(f->result() == QDialog::Accepted, qPrintable(f->errorText()));
        }
        w().evaluateNow();
        QCOMPARE(p.fabrics.size(), size_t(1));
        QCOMPARE(p.fabrics[0].tiers, 2);
        QVERIFY(w().lastResults().bom.switches > 0);

        const QString storage =
            add(EntityKind::StorageTier, {b2}, {{"type", "pfs-flash"}, {"capacity_bytes", "5000"}});
        QVERIFY(!storage.isEmpty());
        QCOMPARE(p.storageTiers[0].capacity.value(), 5e15);

        const QString link = add(
            EntityKind::ScaleAcrossLink, {},
            {{"from", "site-1"}, {"to", site2}, {"capacity_bit_per_s", "12800"}, {"route_factor", "1.4"}});
        QVERIFY(!link.isEmpty());
        QCOMPARE(p.links[0].capacityBitPerS, 12.8e12);

        // 9,216 GPUs train (TP 8 x DP 1,152), 2,016 serve.
        QVERIFY(!add(EntityKind::TrainingJob, {},
                     {{"model_params", "405"},
                      {"active_params", "405"},
                      {"tokens", "15"},
                      {"gpus", "9216"},
                      {"tp", "8"},
                      {"pp", "1"},
                      {"dp", "1152"},
                      {"storage_tier", storage}})
                     .isEmpty());
        QCOMPARE(p.trainingJobs[0].modelParams, 405e9);
        // The service form defaults to the GPUs nobody has booked (issue 29 item 8): 11,232 - 9,216 = 2,016.
        QVERIFY(!add(EntityKind::InferenceService, {}, {}).isEmpty());
        QCOMPARE(p.inferenceServices[0].gpus, 2016.0);
        QCOMPARE(p.inferenceServices[0].layers, 80);

        // Evaluated: finite figures, no error rules, a token cost on the dashboard.
        const auto& results = w().lastResults();
        for (const auto& f : results.figures)
            QVERIFY2(std::isfinite(f.value), f.key.c_str());
        QStringList errors;
        for (const auto& r : results.rules)
            if (r.severity == ctwin::cost::Severity::Error) errors << QString::fromStdString(r.message);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
        QVERIFY(w().dashboard()->tile("cost_per_m_training_tokens")->value() != QStringLiteral("—"));
        QVERIFY(w().dashboard()->tile("cost_per_m_output_tokens")->value() != QStringLiteral("—"));
        const QString fullCost = w().dashboard()->tile("cost_per_gpu_hour")->value();
        w().select({hall2});
        w().floorView()->fitAll();
        shot(&w(), "04-window-authored-design");

        // Save; undo everything back to File > New, redo everything back.
        checkViewsMatchRebuild(w());
        const std::string full = dump(w());
        const QString path = m_tmp.path() + "/two-site.ctwin";
        QVERIFY(w().saveAs(path));
        const int steps = w().undoStack().count();
        QCOMPARE(steps, 22); // rename, 2 inspector edits, 19 forms
        while (w().undoStack().canUndo())
            w().undoStack().undo();
        w().evaluateNow();
        QCOMPARE(dump(w()), starter);
        QVERIFY2(w().dashboard()->tile("gpus")->value().startsWith("0 GPU"),
                 qPrintable(w().dashboard()->tile("gpus")->value()));
        QCOMPARE(cduItemsOf(w(), loops[0]), 0);
        checkViewsMatchRebuild(w());
        while (w().undoStack().canRedo())
            w().undoStack().redo();
        w().evaluateNow();
        QCOMPARE(dump(w()), full);
        QCOMPARE(w().dashboard()->tile("cost_per_gpu_hour")->value(), fullCost);
        QCOMPARE(cduItemsOf(w(), loops[1]), 6);
        checkViewsMatchRebuild(w());

        // Reopen: the same design, the same figures.
        QVERIFY(w().openFile(path));
        QCOMPARE(dump(w()), full);
        QCOMPARE(w().dashboard()->tile("cost_per_gpu_hour")->value(), fullCost);

        // Compared with the shipped two-site reference.
        const auto catalog = ctwin::app::loadDefaultCatalog();
        const auto defaults = ctwin::app::loadDefaultAssumptions();
        const auto reference =
            ctwin::model::loadProjectJson(CTWIN_SOURCE_DATA_DIR "/reference/two-site-wan.json", &catalog);
        const auto cmp =
            ctwin::cost::compareDesigns({"authored", "two-site-wan"},
                                        {ctwin::cost::evaluate(w().document().project(), catalog, defaults),
                                         ctwin::cost::evaluate(reference, catalog, defaults)},
                                        1);
        QVERIFY(!cmp.rows.empty());
        bool gpuRow = false;
        for (const auto& row : cmp.rows)
            if (row.key == "inventory.gpus") {
                gpuRow = true;
                QCOMPARE(row.values[0], 11232.0);
            }
        QVERIFY(gpuRow);
    }

    /// The Row form's default network rack (issue 36) stands at the row's start, the compute racks follow
    /// from its far side, one undo entry takes both away; its rows' end-of-row leaves then have a home, so
    /// the leaves_without_network_rack warning of the starter's hall goes.
    void rowFormPutsANetworkRackFirst() {
        const auto& p = w().document().project();
        const auto before = p.racks.size();
        const int undoBefore = w().undoStack().index();
        const QString row = add(EntityKind::Row, {"b1-h1"}, {{"fill_rack_type", "gb200-nvl72"}});
        QVERIFY(!row.isEmpty());
        std::vector<const std::decay_t<decltype(p.racks.front())>*> mine;
        for (const auto& r : p.racks)
            if (QString::fromStdString(r.row) == row) mine.push_back(&r);
        QVERIFY(mine.size() > 2);
        QCOMPARE(mine.front()->rackType, std::string("network-rack-48u"));
        for (std::size_t i = 1; i < mine.size(); ++i) {
            QCOMPARE(mine[i]->rackType, std::string("gb200-nvl72"));
            QVERIFY(mine[i]->x.value() >= mine.front()->x.value() + 0.8 - 1e-9);
        }
        const auto& rules = w().lastResults().rules;
        QVERIFY(std::none_of(rules.begin(), rules.end(), [&](const auto& d) {
            return d.rule == "leaves_without_network_rack" || d.rule == "network_rack_full";
        }));
        w().undoStack().undo();
        QCOMPARE(w().undoStack().index(), undoBefore);
        QCOMPARE(p.racks.size(), before);
    }

    void deleteSaysWhatGoesWithIt() {
        auto& a = w().authoring();
        // The starter's only building: asked first, with the warning.
        const QString last = a.deletionQuestion({"b1"});
        QVERIFY2(last.startsWith("Delete Building 1 and its 1 data hall, 2 power feeds and 1 cooling loop?"),
                 qPrintable(last));
        QVERIFY2(last.contains("without a building"), qPrintable(last));
        // Fill a row, then delete the hall: declined leaves everything, accepted removes it in one undo
        // entry.
        QVERIFY(!add(EntityKind::Row, {"b1-h1"}, {{"fill_rack_type", "gb200-nvl72"}}).isEmpty());
        const auto racks = w().document().project().racks.size();
        QVERIFY(racks > 20);
        const QString question = a.deletionQuestion({"b1-h1"});
        QCOMPARE(question,
                 QStringLiteral("Delete Hall 1 and its 1 row, %1 racks and 1 cooling loop?").arg(racks));
        const std::string before = dump(w());
        m_prompts->confirmAnswer = false;
        QVERIFY(!a.deleteWithConfirmation({"b1-h1"}));
        QCOMPARE(dump(w()), before);
        m_prompts->confirmAnswer = true;
        const int undoBefore = w().undoStack().count();
        QVERIFY(a.deleteWithConfirmation({"b1-h1"}));
        QCOMPARE(m_prompts->confirmations.size(), 2);
        QVERIFY(w().document().project().halls.empty());
        QVERIFY(w().document().project().racks.empty());
        QCOMPARE(w().undoStack().count(), undoBefore + 1);
        w().undoStack().undo();
        QCOMPARE(dump(w()), before);
        // Racks alone go without a question (the plan's everyday Delete).
        QVERIFY(a.deletionQuestion({QString::fromStdString(w().document().project().racks[0].id)}).isEmpty());

        // A site that a link references: the link goes with it, and the question says so.
        QVERIFY(!add(EntityKind::Site, {}, {{"name", "Luleå"}, {"lat_deg", "65.58"}, {"lon_deg", "22.15"}})
                     .isEmpty());
        const QString site2 = QString::fromStdString(w().document().project().sites[1].id);
        QVERIFY(!add(EntityKind::ScaleAcrossLink, {}, {{"from", "site-1"}, {"to", site2}}).isEmpty());
        const QString withLink = a.deletionQuestion({site2});
        QVERIFY2(withLink.contains("Link 1") && withLink.contains("1 scale-across link"),
                 qPrintable(withLink));
        QVERIFY(a.deleteWithConfirmation({site2}));
        QVERIFY(w().document().project().links.empty());
        QCOMPARE(w().document().project().sites.size(), size_t(1));
    }

    /// The plan and the tree update in place (adds, removes, renames, moves, undo, redo; only what changed
    /// is touched) and must still equal views built anew from the project after every step, on the 1 GW
    /// campus (5,000 racks): item count, positions, labels, colours, tree order and texts.
    void inPlaceUpdatesEqualAFreshBuildOn1GwCampus() {
        QVERIFY(w().openFile(QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference/campus-1gw.json")));
        const auto& p = w().document().project();
        const std::string opened = dump(w());
        const QString site = QString::fromStdString(p.sites[0].id);
        const QString oldHall = QString::fromStdString(p.halls[1].id);
        int steps = 0;
        const auto step = [&](const char* what) {
            ++steps;
            checkViewsMatchRebuild(w());
            if (QTest::currentTestFailed()) qWarning("views differ from a fresh build after: %s", what);
        };
        step("open");
        const QString building = add(EntityKind::Building, {site}, {{"name", "Annex"}});
        QVERIFY(!building.isEmpty());
        step("add building");
        const QString hall = add(EntityKind::DataHall, {building}, {{"width_m", "19.2"}});
        QVERIFY(!hall.isEmpty());
        step("add hall");
        const QString loop =
            add(EntityKind::CoolingLoop, {hall},
                {{"cdu_type", "cdu-2mw"}, {"cdu_count", "4"}, {"plant", "plant-dry-cooler"}});
        QVERIFY(!loop.isEmpty());
        step("add loop");
        for (int i = 0; i < 2; ++i)
            QVERIFY(!add(EntityKind::Row, {hall}, {{"fill_rack_type", "gb200-nvl72"}}).isEmpty());
        step("add rows filled with racks");
        const QString row = QString::fromStdString(p.rows.back().id);
        const QString rack = QString::fromStdString(p.racks.back().id);
        QVERIFY(w().authoring().rename(hall, "Annex hall").isEmpty());
        QVERIFY(w().authoring().rename(row, "Annex row B").isEmpty());
        QVERIFY(w().authoring().rename(rack, "Annex rack").isEmpty());
        QVERIFY(w().authoring().rename(building, "Annex building").isEmpty());
        QVERIFY(w().authoring().rename(site, "Campus").isEmpty());
        QCOMPARE(w().projectTree()->itemForId(hall)->text(0), QStringLiteral("Annex hall"));
        step("renames");
        QVERIFY(w().editor().setProperty({hall}, "x_m", 2.0, false).isEmpty()); // its racks and CDUs follow
        QVERIFY(w().editor().setProperty({loop}, "cdu_count", 6, false).isEmpty());
        step("move hall, more CDUs");
        QVERIFY(w().authoring().deleteWithConfirmation({oldHall})); // with its rows, racks and loop
        QVERIFY(!w().document().index().find(oldHall.toStdString()));
        step("delete a shipped hall");
        w().undoStack().undo();
        step("undo the delete");
        w().undoStack().redo();
        step("redo the delete");
        w().undoStack().undo();
        QVERIFY(w().authoring().deleteWithConfirmation({rack, row}));
        step("delete a row and a rack");
        QVERIFY(w().authoring().deleteWithConfirmation({building}));
        QVERIFY(!w().document().index().find(hall.toStdString()));
        step("delete the new building");
        while (w().undoStack().canUndo())
            w().undoStack().undo();
        QCOMPARE(dump(w()), opened);
        step("undo everything");
        while (w().undoStack().canRedo())
            w().undoStack().redo();
        step("redo everything");
        QVERIFY(steps >= 14);
    }

    void drawsHallsAndBuildingsOnThePlan() {
        using DK = ctwin::views::FloorPlanScene::DrawKind;
        auto* scene = w().floorScene();
        const QRectF b1 = scene->entityRect("b1"); // 42 x 32 m; Hall 1 takes x 6..36, y 6..26
        // A hall drawn in the free strip right of Hall 1: building frame x 37..41, y 2..30.
        const QRectF drawn(b1.topLeft() + QPointF(37, 2), QSizeF(4, 28));
        QString error;
        auto preset = w().drawnRectanglePreset(DK::Hall, drawn, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(preset.value("building"), QStringLiteral("b1"));
        QCOMPARE(preset.value("x_m"), QStringLiteral("37.0"));
        QCOMPARE(preset.value("y_m"), QStringLiteral("2.0"));
        QCOMPARE(preset.value("width_m"), QStringLiteral("4.0"));
        QCOMPARE(preset.value("depth_m"), QStringLiteral("28.0"));
        // Outside every building: no form, a reason.
        QVERIFY(w().drawnRectanglePreset(DK::Hall, drawn.translated(-200, 0), &error).isEmpty());
        QVERIFY2(error.contains("inside a building"), qPrintable(error));
        // A building drawn beside Building 1 lands on Site 1's campus at x = 60 m.
        error.clear();
        preset = w().drawnRectanglePreset(DK::Building, QRectF(b1.topLeft() + QPointF(60, 0), QSizeF(40, 30)),
                                          &error);
        QCOMPARE(preset.value("site"), QStringLiteral("site-1"));
        QCOMPARE(preset.value("x_m"), QStringLiteral("60.0"));
        QCOMPARE(preset.value("width_m"), QStringLiteral("40.0"));

        // The whole gesture: Insert > Draw data hall, a drag on the plan, OK on the form it opens.
        auto* action = w().findChild<QAction*>(QStringLiteral("drawHallAction"));
        QVERIFY(action);
        action->trigger();
        QCOMPARE(scene->drawing(), DK::Hall);
        QTimer accept;
        accept.setInterval(20);
        QObject::connect(&accept, &QTimer::timeout, [&] {
            if (auto* form = qobject_cast<QDialog*>(QApplication::activeModalWidget())) form->accept();
        });
        accept.start();
        auto* view = w().floorView();
        const QPoint from = view->mapFromScene(drawn.topLeft()), to = view->mapFromScene(drawn.bottomRight());
        QTest::mousePress(view->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(view->viewport(), to);
        QTest::mouseRelease(view->viewport(), Qt::LeftButton, {}, to);
        accept.stop();
        const auto& halls = w().document().project().halls;
        QCOMPARE(halls.size(), size_t(2));
        QCOMPARE(QString::fromStdString(halls[1].building), QStringLiteral("b1"));
        // One pixel of the fitted view is well under 0.3 m; the preset rounds to 0.1 m.
        QVERIFY2(std::abs(halls[1].x.value() - 37.0) < 0.3 && std::abs(halls[1].depth.value() - 28.0) < 0.6,
                 qPrintable(QStringLiteral("%1 %2").arg(halls[1].x.value()).arg(halls[1].depth.value())));
        QCOMPARE(scene->drawing(), DK::None);
        QCOMPARE(view->dragMode(), QGraphicsView::RubberBandDrag); // the selection band is back
        QVERIFY(w().selection().contains(QString::fromStdString(halls[1].id)));
        w().undoStack().undo();
        QCOMPARE(w().document().project().halls.size(), size_t(1));
        // Escape cancels drawing.
        action->trigger();
        QTest::keyClick(view->viewport(), Qt::Key_Escape);
        QCOMPARE(scene->drawing(), DK::None);
    }

    void renameInPlaceRefusesEmpty() {
        auto* tree = w().projectTree();
        tree->itemForId("b1-h1")->setText(0, "Hall North");
        QTRY_COMPARE(QString::fromStdString(w().document().project().halls[0].name),
                     QStringLiteral("Hall North"));
        QCOMPARE(w().undoStack().count(), 1);
        const std::string before = dump(w());
        tree->itemForId("b1-h1")->setText(0, "  ");
        QTRY_COMPARE(tree->itemForId("b1-h1")->text(0), QStringLiteral("Hall North")); // the old name back
        QCOMPARE(dump(w()), before);
        QCOMPARE(w().undoStack().count(), 1);
    }

    // --- refused input, one form at a time: the message is inline, the design and the typing stay ---

    void refuses_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("selection");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("message");
        const auto row = [](const char* name, EntityKind k, QStringList sel, const char* key,
                            const char* typed, const char* message) {
            QTest::newRow(name) << static_cast<int>(k) << sel << QString(key) << QString(typed)
                                << QString(message);
        };
        row("site latitude above 90", EntityKind::Site, {}, "lat_deg", "95", "Latitude: 95 is outside");
        row("site latitude not a number", EntityKind::Site, {}, "lat_deg", "north",
            "'north' is not a number");
        row("site longitude NaN", EntityKind::Site, {}, "lon_deg", "nan", "'nan' is not a number");
        row("site negative tariff", EntityKind::Site, {}, "electricity_usd_per_kwh", "-0.1", "is outside");
        row("building negative width", EntityKind::Building, {}, "width_m", "-5", "Width: -5 is outside");
        row("building overlapping", EntityKind::Building, {}, "x_m", "0", "overlaps Building 1");
        row("hall wider than its building", EntityKind::DataHall, {"b1"}, "width_m", "60",
            "does not fit inside");
        row("row outside its hall", EntityKind::Row, {"b1-h1"}, "y_m", "25", "starts outside Hall 1");
        row("feed negative capacity", EntityKind::PowerFeed, {"b1"}, "capacity_w", "-1", "is outside");
        row("loop fractional CDU count", EntityKind::CoolingLoop, {"b1-h1"}, "cdu_count", "2.5",
            "'2.5' is not a whole number");
        row("loop N+1 with one CDU", EntityKind::CoolingLoop, {"b1-h1"}, "cdu_count", "1",
            "N+1 needs at least 2");
        row("fabric four tiers", EntityKind::Fabric, {}, "tiers", "4", "Tiers: 4 is outside");
        row("fabric ratios for the wrong tiers", EntityKind::Fabric, {}, "oversubscription", "1, 1",
            "2 tiers have 1 tier boundaries");
        row("fabric negative planes", EntityKind::Fabric, {}, "planes", "-2", "Planes: -2 is outside");
        row("storage negative capacity", EntityKind::StorageTier, {"b1"}, "capacity_bytes", "-3",
            "is outside");
        row("training NaN parameters", EntityKind::TrainingJob, {}, "model_params", "NaN", "not a number");
        row("training more active than total", EntityKind::TrainingJob, {}, "active_params", "900",
            "cannot exceed");
        row("inference negative layers", EntityKind::InferenceService, {}, "layers", "-1",
            "Layers: -1 is outside");
        row("training zero microbatch", EntityKind::TrainingJob, {}, "microbatch_sequences", "0",
            "Microbatch sequences: 0 is outside");
        row("training negative global batch", EntityKind::TrainingJob, {}, "global_batch_tokens", "-4",
            "Global batch tokens: -4 is outside");
        row("training NaN node failure rate", EntityKind::TrainingJob, {}, "node_failure_rate_per_day", "nan",
            "not a number");
        row("inference negative token price", EntityKind::InferenceService, {},
            "price_usd_per_m_output_tokens", "-1", "is outside");
        row("inference licence share above 1", EntityKind::InferenceService, {}, "licence_revenue_share",
            "1.5", "is outside");
        row("inference fractional tensor parallel", EntityKind::InferenceService, {}, "tensor_parallel",
            "2.5", "'2.5' is not a whole number");
    }

    void refuses() {
        QFETCH(int, kind);
        QFETCH(QStringList, selection);
        QFETCH(QString, key);
        QFETCH(QString, typed);
        QFETCH(QString, message);
        const std::string before = dump(w());
        const int undo = w().undoStack().count();
        auto f = form(static_cast<EntityKind>(kind), selection);
        QVERIFY(f->setText(key, typed));
        f->setText("name", "Typed by the user");
        f->accept();
        QCOMPARE(f->result(), int(QDialog::Rejected)); // still open, not accepted
        QVERIFY(f->errorVisible());
        QVERIFY2(f->errorText().contains(message), qPrintable(f->errorText()));
        QVERIFY2(f->errorText().endsWith("Nothing was added."), qPrintable(f->errorText()));
        QCOMPARE(dump(w()), before);
        QCOMPARE(w().undoStack().count(), undo);
        QCOMPARE(f->text(key), typed); // nothing typed is lost
        QCOMPARE(f->text("name"), QStringLiteral("Typed by the user"));
        if (key == "lat_deg" && typed == "95") shot(f.get(), "05-site-form-refused");
    }

    void refusesALinkFromASiteToItself() {
        QVERIFY(!add(EntityKind::Site, {}, {{"name", "Second"}}).isEmpty());
        const std::string before = dump(w());
        auto f = form(EntityKind::ScaleAcrossLink);
        QVERIFY(f->setChoice("from", "site-1"));
        QVERIFY(f->setChoice("to", "site-1"));
        f->accept();
        QVERIFY2(f->errorText().contains("two different places"), qPrintable(f->errorText()));
        QCOMPARE(dump(w()), before);
        QCOMPARE(f->text("to"), QStringLiteral("site-1"));
    }

    /// Edits of existing entities go through the same shape checks as a loaded file: a rack's feed_b set
    /// to its feed_a and a link's 'to' set to its 'from' are refused with the loader's message, and the
    /// design and the undo stack are unchanged. (Ids are not editable in the app.)
    void editsRefuseWhatTheLoaderRefuses() {
        QVERIFY(!add(EntityKind::Row, {"b1-h1"}, {{"fill_rack_type", "gb200-nvl72"}}).isEmpty());
        QVERIFY(!add(EntityKind::Site, {}, {{"name", "Second"}}).isEmpty());
        const auto& p = w().document().project();
        const QString site2 = QString::fromStdString(p.sites[1].id);
        const QString link = add(EntityKind::ScaleAcrossLink, {}, {{"from", "site-1"}, {"to", site2}});
        QVERIFY(!link.isEmpty());
        const QString rack = QString::fromStdString(p.racks[0].id);
        const std::string feedA = p.racks[0].feedA;
        QVERIFY(!feedA.empty() && !p.racks[0].feedB.empty() && feedA != p.racks[0].feedB);
        const std::string before = dump(w());
        const int undo = w().undoStack().count();
        const QString sameFeed = w().editor().setProperty({rack}, "feed_b", feedA, false);
        QVERIFY2(sameFeed.contains("feed_b") && sameFeed.contains("must be a different power feed"),
                 qPrintable(sameFeed));
        const QString toItself = w().editor().setProperty({link}, "to", "site-1", false);
        QVERIFY2(toItself.contains("joins two different sites or buildings"), qPrintable(toItself));
        // A design not yet saved has no file name: the message starts with the entity.
        QVERIFY2(sameFeed.startsWith("rack '" + rack + "'"), qPrintable(sameFeed));
        QCOMPARE(dump(w()), before);
        QCOMPARE(w().undoStack().count(), undo);
    }

    void refusesAFabricBeyondItsTierLimit() {
        // 44 GB200 racks (3,168 back-end endpoints) cannot hang off one tier of radix-64 switches.
        QVERIFY(!add(EntityKind::Row, {"b1-h1"}, {{"fill_rack_type", "gb200-nvl72"}}).isEmpty());
        const std::string before = dump(w());
        auto f = form(EntityKind::Fabric);
        fill(*f, {{"switch", "sw-51t"}, {"port_bit_per_s", "800"}, {"tiers", "1"}, {"oversubscription", ""}});
        f->accept();
        QVERIFY2(f->errorText().contains("exceed what 1 tiers reach at radix 64"),
                 qPrintable(f->errorText()));
        QCOMPARE(dump(w()), before);
    }

    void workloadFormsWithoutModelPresets() {
        // The catalog may have no `models` category: the forms still work with typed figures.
        const bool presets = !ctwin::app::loadDefaultCatalog().byCategory("models").empty();
        auto f = form(EntityKind::InferenceService);
        QCOMPARE(f->editor("model") != nullptr, presets); // the service stores its preset
        QCOMPARE(f->text("layers"), QStringLiteral("80"));
        QCOMPARE(form(EntityKind::TrainingJob)->editor("model_preset") != nullptr, presets);
    }

    void trainingFormOffersPresetsAndTheScheduleFields() {
        if (ctwin::app::loadDefaultCatalog().byCategory("models").empty()) QSKIP("no model presets");
        QVERIFY(!add(EntityKind::Row, {"b1-h1"}, {{"fill_rack_type", "gb200-nvl72"}}).isEmpty());
        auto f = form(EntityKind::TrainingJob);
        // DeepSeek-V3 (catalog models.json): 671B parameters, 37B active, 61 layers.
        QVERIFY(f->setChoice("model_preset", "deepseek-v3"));
        QCOMPARE(f->text("model_params"), QStringLiteral("671"));
        QCOMPARE(f->text("active_params"), QStringLiteral("37"));
        QCOMPARE(f->text("layers"), QStringLiteral("61"));
        QCOMPARE(f->text("name"), QStringLiteral("DeepSeek-V3 (671B, 37B active)"));
        fill(*f, {{"tp", "4"},
                  {"pp", "1"},
                  {"ep", "8"},
                  {"dp", "1"},
                  {"gpus", "72"},
                  {"global_batch_tokens", "16"}, // M tokens
                  {"sequence_length", "4096"},
                  {"microbatch_sequences", "2"},
                  {"virtual_stages", "1"},
                  {"failure_rate_preset", "rates-rsc1"},
                  {"node_failure_rate_per_day", ""}});
        f->accept();
        QVERIFY2(!f->errorVisible(), qPrintable(f->errorText()));
        const auto& j = w().document().project().trainingJobs.back();
        QCOMPARE(j.modelParams, 671e9);
        QCOMPARE(*j.activeParams, 37e9);
        QCOMPARE(*j.layers, 61.0);
        QCOMPARE(*j.globalBatchTokens, 16e6);
        QCOMPARE(*j.sequenceLength, 4096.0);
        QCOMPARE(j.microbatchSequences, 2);
        QCOMPARE(j.failureRatePreset, std::string("rates-rsc1"));
        QVERIFY(!j.nodeFailureRatePerDay);
        // Only node-rate presets are offered for the job's failure rate (not the component classes).
        auto g = form(EntityKind::TrainingJob);
        QVERIFY(!g->setChoice("failure_rate_preset", "fail-gpu"));
        shot(g.get(), "07-training-form");
    }

    void inferenceFormStoresItsModelPreset() {
        if (ctwin::app::loadDefaultCatalog().byCategory("models").empty()) QSKIP("no model presets");
        auto f = form(EntityKind::InferenceService);
        // Kimi K2: 1.04T parameters, 32.6B active; its MLA cache comes from the preset, so the typed
        // layers, KV heads and head dim go to 0 (= the preset's).
        QVERIFY(f->setChoice("model", "kimi-k2"));
        QCOMPARE(f->text("model_params"), QStringLiteral("1040"));
        QCOMPARE(f->text("active_params"), QStringLiteral("32.6"));
        for (const char* k : {"layers", "kv_heads", "head_dim"})
            QCOMPARE(f->text(k), QStringLiteral("0"));
        fill(*f, {{"gpus", "72"}, {"tensor_parallel", "8"}, {"precision", "fp4"}});
        // Token prices (issue 34 item 4): a typed output price is the service's own; the others stay empty
        // (the preset's market prices).
        QVERIFY(f->setText("price_usd_per_m_output_tokens", "3.2"));
        shot(f.get(), "08-inference-form");
        f->accept();
        QVERIFY2(!f->errorVisible(), qPrintable(f->errorText()));
        const auto& s = w().document().project().inferenceServices.back();
        QCOMPARE(s.model, std::string("kimi-k2"));
        QCOMPARE(s.modelParams, 1040e9);
        QCOMPARE(s.layers, 0);
        QCOMPARE(s.tensorParallel, 8);
        QCOMPARE(s.precision, std::string("fp4"));
        QCOMPARE(s.priceOutputUsdPerMTokens.value_or(-1), 3.2);
        QVERIFY(!s.priceInputUsdPerMTokens && !s.priceCachedInputUsdPerMTokens && !s.licenceRevenueShare);
        // Without a preset, zero layers are refused and the design stays as it is.
        const std::string before = dump(w());
        auto g = form(EntityKind::InferenceService);
        QVERIFY(g->setText("layers", "0"));
        g->accept();
        QVERIFY2(g->errorText().contains("type the model's layers"), qPrintable(g->errorText()));
        QCOMPARE(dump(w()), before);
    }
};

QTEST_MAIN(TestAuthoring)
#include "test_authoring.moc"
