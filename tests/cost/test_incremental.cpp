// Incremental evaluation (cost/incremental_evaluator.h, issue 15 item 2): after each committed edit of a
// document the incremental result must equal a full evaluate() of the same project bit for bit: every
// figure (key and value compared exactly) and every design rule (severity, rule, entity, message, in
// order), geometry findings included. The edits are random (fixed seed) on the shipped 100K reference:
// move, turn, retype, change loop, row, feed, spare flag, delete, add, and a training-job field.
#include "../test_support.h"
#include "catalog.h"
#include "document.h"
#include "evaluate.h"
#include "incremental_evaluator.h"
#include "input_error.h"

#include <QtTest>
#include <random>

using namespace ctwin;

namespace {

void requireSame(const cost::Results& inc, const cost::Results& full, const std::string& what) {
    const QByteArray where = QByteArray::fromStdString(what);
    QVERIFY2(inc.figures.size() == full.figures.size(), where);
    for (size_t i = 0; i < full.figures.size(); ++i) {
        QVERIFY2(inc.figures[i].key == full.figures[i].key, where);
        // Bit for bit: the same arithmetic on the same numbers.
        QVERIFY2(inc.figures[i].value == full.figures[i].value, (what + ": " + full.figures[i].key).c_str());
    }
    QVERIFY2(inc.rules.size() == full.rules.size(), where);
    for (size_t i = 0; i < full.rules.size(); ++i) {
        QVERIFY2(inc.rules[i].severity == full.rules[i].severity, where);
        QVERIFY2(inc.rules[i].rule == full.rules[i].rule, where);
        QVERIFY2(inc.rules[i].entity == full.rules[i].entity, where);
        QVERIFY2(inc.rules[i].message == full.rules[i].message,
                 (what + ": " + full.rules[i].message).c_str());
    }
}

size_t countRule(const cost::Results& r, const std::string& rule) {
    size_t n = 0;
    for (const auto& x : r.rules)
        n += x.rule == rule;
    return n;
}

} // namespace

class TestIncremental : public QObject {
    Q_OBJECT
private slots:
    void randomEditsMatchFullEvaluation() {
        const auto& catalog = test_support::catalog();
        const auto& defaults = test_support::defaults();
        auto base = test_support::reference("neocloud-100k-gb200");
        // Two rack types, so a retype can stay within the compiled design's types.
        for (size_t i = 3; i < base.racks.size(); i += 7)
            base.racks[i].rackType = "gb300-nvl72";
        model::Document doc(base, &catalog);
        cost::IncrementalEvaluator ev;
        requireSame(ev.evaluate(doc.project(), catalog, defaults),
                    cost::evaluate(doc.project(), catalog, defaults), "first evaluation");
        QCOMPARE(ev.stats().full, size_t{1});

        std::mt19937 rng(15);
        const auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
        const auto uniform = [&](double lo, double hi) {
            return std::uniform_real_distribution<double>(lo, hi)(rng);
        };
        size_t outside = 0, overlaps = 0, added = 0, applied = 0;
        for (int step = 0; step < 160; ++step) {
            const auto& p = doc.project();
            const int kind = static_cast<int>(pick(12));
            const int edits =
                kind == 0 ? 1 + static_cast<int>(pick(3)) : 1; // some commits move several racks
            std::string label = "step " + std::to_string(step) + " kind " + std::to_string(kind);
            try {
                model::Transaction t(doc, label);
                for (int e = 0; e < edits; ++e) {
                    const auto& r = p.racks[pick(p.racks.size())];
                    switch (kind) {
                    case 0: // move along the row: overlaps the neighbour, or out of the hall
                    case 1:
                        t.setProperty(r.id, "x_m", pick(5) == 0 ? -0.4 : r.x.value() + uniform(-0.9, 0.9));
                        break;
                    case 2: // onto the next row
                        t.setProperty(r.id, "y_m", r.y.value() + uniform(-3.0, 3.0));
                        break;
                    case 3:
                        t.setProperty(r.id, "rotation_deg", pick(2) ? 90.0 : 30.0);
                        break;
                    case 4:
                        t.setProperty(r.id, "rack_type",
                                      r.rackType == "gb200-nvl72" ? "gb300-nvl72" : "gb200-nvl72");
                        break;
                    case 5:
                        t.setProperty(r.id, "cooling_loop", p.coolingLoops[pick(p.coolingLoops.size())].id);
                        break;
                    case 6: // another row, possibly in another hall or building
                        t.setProperty(r.id, "row", p.rows[pick(p.rows.size())].id);
                        break;
                    case 7:
                        t.setProperty(r.id, "feed_b", p.powerFeeds[pick(p.powerFeeds.size())].id);
                        t.setProperty(r.id, "spare", !r.spare);
                        break;
                    case 8:
                        t.remove(r.id);
                        break;
                    case 9: {
                        auto j = nlohmann::ordered_json{{"id", "added-" + std::to_string(added++)},
                                                        {"name", "added"},
                                                        {"row", r.row},
                                                        {"rack_type", r.rackType},
                                                        {"x_m", r.x.value() + 0.3},
                                                        {"y_m", r.y.value()},
                                                        {"rotation_deg", 0.0},
                                                        {"feed_a", r.feedA},
                                                        {"feed_b", r.feedB},
                                                        {"cooling_loop", r.coolingLoop},
                                                        {"spare", false}};
                        t.add(model::EntityKind::RackPlacement, j);
                        break;
                    }
                    case 10:
                        t.setProperty(p.trainingJobs.front().id, "mfu", uniform(0.3, 0.5));
                        break;
                    default:
                        t.setProperty(r.id, "name", "renamed-" + std::to_string(step));
                        break;
                    }
                }
                const auto changes = t.commit();
                ev.noteChange(changes);
            } catch (const model::InputError&) {
                continue; // an edit the document refuses changes nothing
            }
            ++applied;
            // Evaluate after most commits; some bursts of two commits are evaluated once (the GUI debounces).
            if (pick(4) == 0) continue;
            const auto inc = ev.evaluate(doc.project(), catalog, defaults);
            const auto full = cost::evaluate(doc.project(), catalog, defaults);
            requireSame(inc, full, label);
            if (QTest::currentTestFailed()) return; // the first step that differs says enough
            outside += countRule(full, "rack_outside_hall");
            overlaps += countRule(full, "racks_overlap");
        }
        qInfo("%zu commits: %zu full, %zu incremental, %zu reused; %zu outside-hall and %zu overlap findings "
              "seen",
              applied, ev.stats().full, ev.stats().incremental, ev.stats().reused, outside, overlaps);
        // The series exercised the fast paths and the geometry findings, not only the fall-back.
        QVERIFY(applied > 100);
        QVERIFY(ev.stats().incremental > 40);
        QVERIFY(ev.stats().reused > 0);
        QVERIFY(ev.stats().full > 5);
        QVERIFY(outside > 0);
        QVERIFY(overlaps > 0);
    }

    /// An edit the compiled design cannot patch falls back to a full compile: a rack type no rack had.
    void newRackTypeFallsBack() {
        const auto& catalog = test_support::catalog();
        model::Document doc(test_support::reference("neocloud-100k-gb200"), &catalog);
        cost::IncrementalEvaluator ev;
        ev.evaluate(doc.project(), catalog, test_support::defaults());
        model::Transaction t(doc, "retype");
        t.setProperty(doc.project().racks[10].id, "rack_type", "gb300-nvl72");
        const auto inc = ev.apply(t.commit(), doc.project(), catalog, test_support::defaults());
        QCOMPARE(ev.stats().full, size_t{2});
        QCOMPARE(ev.stats().incremental, size_t{0});
        requireSame(inc, cost::evaluate(doc.project(), catalog, test_support::defaults()), "new type");
    }

    /// With no Results or caller holding the compiled design, it is patched in place (no copy of its
    /// arrays); Results still held keep the design they were evaluated on, as it was.
    void inPlaceOnlyWhenSoleOwner() {
        const auto& catalog = test_support::catalog();
        model::Document doc(test_support::reference("neocloud-100k-gb200"), &catalog);
        cost::IncrementalEvaluator ev;
        ev.evaluate(doc.project(), catalog, test_support::defaults()); // its Results dropped at once
        const cost::CompiledDesign* first = ev.compiled().get();
        const auto move = [&](size_t rack, double dx) {
            model::Transaction t(doc, "move");
            t.setProperty(doc.project().racks[rack].id, "x_m", doc.project().racks[rack].x.value() + dx);
            return t.commit();
        };
        auto held = ev.apply(move(30, 0.25), doc.project(), catalog, test_support::defaults());
        QCOMPARE(ev.compiled().get(), first); // patched in place
        requireSame(held, cost::evaluate(doc.project(), catalog, test_support::defaults()), "in place");
        // `held` keeps the design: the next edit is made on a copy, and `held`'s design still equals a full
        // compile of the project it was evaluated on.
        const model::Project heldProject = doc.project();
        const auto next = ev.apply(move(30, 40.0), doc.project(), catalog, test_support::defaults());
        QVERIFY(ev.compiled().get() != first);
        QCOMPARE(held.bom.compiled.get(), first);
        const cost::CompiledDesign again(heldProject, catalog);
        QCOMPARE(held.bom.compiled->classes.size(), again.classes.size());
        for (size_t c = 0; c < again.classes.size(); ++c) {
            QCOMPARE(held.bom.compiled->classes[c].minX, again.classes[c].minX);
            QCOMPARE(held.bom.compiled->classes[c].maxX, again.classes[c].maxX);
        }
        QCOMPARE(held.bom.compiled->geometryRules.size(), again.geometryRules.size());
        requireSame(next, cost::evaluate(doc.project(), catalog, test_support::defaults()), "copy");
        QCOMPARE(ev.stats().incremental, size_t{2});
    }

    /// A move is patched, not compiled again, and a rack moved out of its hall is flagged.
    void moveIsIncremental() {
        const auto& catalog = test_support::catalog();
        model::Document doc(test_support::reference("neocloud-100k-gb200"), &catalog);
        cost::IncrementalEvaluator ev;
        const auto before = ev.evaluate(doc.project(), catalog, test_support::defaults());
        QCOMPARE(countRule(before, "rack_outside_hall"), size_t{0});
        const auto compiledBefore = ev.compiled();
        model::Transaction t(doc, "move");
        t.setProperty(doc.project().racks[20].id, "x_m", -2.0);
        const auto inc = ev.apply(t.commit(), doc.project(), catalog, test_support::defaults());
        QCOMPARE(ev.stats().incremental, size_t{1});
        QVERIFY(ev.compiled() != compiledBefore);
        QCOMPARE(countRule(inc, "rack_outside_hall"), size_t{1});
        requireSame(inc, cost::evaluate(doc.project(), catalog, test_support::defaults()), "move out");
    }
};

QTEST_APPLESS_MAIN(TestIncremental)
#include "test_incremental.moc"
