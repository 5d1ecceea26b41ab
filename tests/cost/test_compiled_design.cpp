// The compiled design (cost/compiled_design.h, issue 15 items 1 and 3): ids resolved to indices, the
// staged paths that reuse it, and which overrides invalidate it. Figures are compared with a full
// evaluation of the same inputs, exactly (the staged path runs the same arithmetic on the same numbers);
// the golden files of test_golden guard the figures themselves.
#include "../test_support.h"
#include "catalog.h"
#include "compiled_design.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "input_resolver.h"

#include <QtTest>
#include <algorithm>
#include <map>
#include <random>
#include <tuple>

using namespace ctwin;

namespace {

const model::Project& neocloud() {
    static const model::Project p = test_support::reference("neocloud-100k-gb200");
    return p;
}

/// Every figure of `a` and `b` equal (same keys, same values, exactly).
void requireSameFigures(const cost::Results& a, const cost::Results& b) {
    QCOMPARE(a.figures.size(), b.figures.size());
    for (size_t i = 0; i < a.figures.size(); ++i) {
        QCOMPARE(a.figures[i].key, b.figures[i].key);
        QCOMPARE(a.figures[i].value, b.figures[i].value);
    }
    QCOMPARE(a.rules.size(), b.rules.size());
    for (size_t i = 0; i < a.rules.size(); ++i)
        QCOMPARE(a.rules[i].message, b.rules[i].message);
}

/// The rack classes of `cd` against a recount rack by rack of `p` (independent of the grouping code) and
/// against a full compile of `p`: same classes, same order, same racks, counts and position bounds.
void requireClassesMatch(const cost::CompiledDesign& cd, const model::Project& p, const std::string& what) {
    const QByteArray where = QByteArray::fromStdString(what);
    using Key = std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t, std::int32_t, int>;
    struct Tally {
        double count = 0, minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
    };
    std::map<Key, Tally> recount;
    for (size_t i = 0; i < p.racks.size(); ++i) {
        auto& t = recount[{cd.rackRow[i], cd.rackType[i], cd.rackLoop[i], cd.rackFeedA[i], cd.rackFeedB[i],
                           cd.rackSpare[i]}];
        t.count += 1;
        t.minX = std::min(t.minX, p.racks[i].x.value()), t.maxX = std::max(t.maxX, p.racks[i].x.value());
        t.minY = std::min(t.minY, p.racks[i].y.value()), t.maxY = std::max(t.maxY, p.racks[i].y.value());
    }
    QVERIFY2(cd.classes.size() == recount.size(), where);
    auto expected = recount.begin(); // std::map: in key order, as the classes are
    for (size_t c = 0; c < cd.classes.size(); ++c, ++expected) {
        const auto& k = cd.classes[c];
        QVERIFY2(Key(k.row, k.type, k.loop, k.feedA, k.feedB, k.spare) == expected->first, where);
        QVERIFY2(k.count == expected->second.count, where);
        QVERIFY2(k.minX == expected->second.minX && k.maxX == expected->second.maxX, where);
        QVERIFY2(k.minY == expected->second.minY && k.maxY == expected->second.maxY, where);
        // Hall, building and site follow the row.
        const auto row = static_cast<size_t>(k.row);
        QVERIFY2(k.hall == (k.row == cost::CompiledDesign::kNone ? k.row : cd.rowHall[row]), where);
        QVERIFY2(k.building == (k.hall == cost::CompiledDesign::kNone
                                    ? k.hall
                                    : cd.hallBuilding[static_cast<size_t>(k.hall)]),
                 where);
        // Its racks, ascending, each naming this class.
        const auto begin = static_cast<size_t>(cd.classRackStart[c]),
                   end = static_cast<size_t>(cd.classRackStart[c + 1]);
        QVERIFY2(static_cast<double>(end - begin) == k.count, where);
        for (size_t j = begin; j < end; ++j) {
            QVERIFY2(cd.rackClass[cd.classRacks[j]] == static_cast<std::int32_t>(c), where);
            if (j > begin) QVERIFY2(cd.classRacks[j - 1] < cd.classRacks[j], where);
        }
    }
    // A full compile of the same project: the same arrays.
    const cost::CompiledDesign full(p, test_support::catalog());
    QVERIFY2(full.rackClass == cd.rackClass, where);
    QVERIFY2(full.classRackStart == cd.classRackStart, where);
    QVERIFY2(full.classRacks == cd.classRacks, where);
    QVERIFY2(full.rackRow == cd.rackRow && full.rackType == cd.rackType && full.rackLoop == cd.rackLoop,
             where);
    QVERIFY2(full.rackFeedA == cd.rackFeedA && full.rackFeedB == cd.rackFeedB &&
                 full.rackSpare == cd.rackSpare,
             where);
    QVERIFY2(full.buildingPathEfficiency == cd.buildingPathEfficiency, where);
}

} // namespace

class TestCompiledDesign : public QObject {
    Q_OBJECT
private slots:
    /// Indices follow the references: rack -> row -> hall -> building -> site, loop and feeds.
    void resolvesReferences() {
        const auto& p = neocloud();
        const cost::CompiledDesign cd(p, test_support::catalog());
        QCOMPARE(cd.rackType.size(), p.racks.size());
        for (size_t i = 0; i < p.racks.size(); i += 97) {
            const auto& r = p.racks[i];
            const auto row = static_cast<size_t>(cd.rackRow[i]);
            QCOMPARE(p.rows[row].id, r.row);
            const auto hall = static_cast<size_t>(cd.rackHall[i]);
            QCOMPARE(p.halls[hall].id, p.rows[row].hall);
            const auto building = static_cast<size_t>(cd.rackBuilding[i]);
            QCOMPARE(p.buildings[building].id, p.halls[hall].building);
            QCOMPARE(p.sites[static_cast<size_t>(cd.rackSite[i])].id, p.buildings[building].site);
            QCOMPARE(cd.types[static_cast<size_t>(cd.rackType[i])].id, r.rackType);
            if (!r.coolingLoop.empty())
                QCOMPARE(cd.loopIds[static_cast<size_t>(cd.rackLoop[i])], r.coolingLoop);
            if (!r.feedA.empty()) QCOMPARE(cd.feedIds[static_cast<size_t>(cd.rackFeedA[i])], r.feedA);
            QCOMPARE(cd.rackSpare[i] != 0, r.spare);
        }
        // The GB200 NVL72 rack's catalog figures, read once: 72 GPUs (data/catalog/racks.json).
        QCOMPARE(cd.types.front().gpus, 72.0);
    }

    /// A reference to an id nothing has: rows resolve to none (the rack is an orphan, as before), a loop id
    /// is interned past the real loops so its heat still has a slot.
    void danglingReferences() {
        auto p = neocloud();
        p.racks[0].row = "no-such-row";
        p.racks[1].coolingLoop = "no-such-loop";
        const cost::CompiledDesign cd(p, test_support::catalog());
        QCOMPARE(cd.rackRow[0], cost::CompiledDesign::kNone);
        QCOMPARE(cd.rackBuilding[0], cost::CompiledDesign::kNone);
        QCOMPARE(cd.loopIds.size(), p.coolingLoops.size() + 1);
        QCOMPARE(cd.loopIds.back(), std::string("no-such-loop"));
        const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        bool orphan = false;
        for (const auto& rule : r.rules)
            orphan = orphan || (rule.rule == "orphan_rack" && rule.entity == p.racks[0].id);
        QVERIFY(orphan);
    }

    /// Racks grouped into classes: on the shipped reference, a few per row (spares apart) for 1,418 racks.
    void rackClasses() {
        const auto& p = neocloud();
        const cost::CompiledDesign cd(p, test_support::catalog());
        requireClassesMatch(cd, p, "compiled");
        QVERIFY(cd.classes.size() >= p.rows.size());
        QVERIFY(cd.classes.size() < p.racks.size() / 4);
    }

    /// Patched in place after random edits, moves within a class and edits that change a rack's class
    /// (retype, another row, hall or building, loop, feed, spare flag): the classes equal a recount and a
    /// full compile after every edit. The copying recompileRacks leaves the design it copies as it was.
    void patchedClassesMatchRecount() {
        const auto& catalog = test_support::catalog();
        auto p = neocloud();
        for (size_t i = 3; i < p.racks.size(); i += 7) // two rack types, so a retype stays within them
            p.racks[i].rackType = "gb300-nvl72";
        cost::CompiledDesign cd(p, catalog);
        std::mt19937 rng(7);
        const auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
        size_t patched = 0, classChanges = 0;
        for (int step = 0; step < 120; ++step) {
            std::vector<std::uint32_t> racks;
            const int kind = static_cast<int>(pick(8));
            for (int e = 0; e < (kind == 0 ? 3 : 1); ++e) {
                const auto i = static_cast<std::uint32_t>(pick(p.racks.size()));
                auto& r = p.racks[i];
                racks.push_back(i);
                switch (kind) {
                case 0: // several racks moved: the class bounds follow
                case 1:
                    r.x = units::meters(r.x.value() + std::uniform_real_distribution<double>(-3.0, 3.0)(rng));
                    r.y = units::meters(r.y.value() + std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
                    break;
                case 2:
                    r.rackType = r.rackType == "gb200-nvl72" ? "gb300-nvl72" : "gb200-nvl72";
                    break;
                case 3:
                    r.row = p.rows[pick(p.rows.size())].id;
                    break;
                case 4:
                    r.coolingLoop = p.coolingLoops[pick(p.coolingLoops.size())].id;
                    break;
                case 5:
                    r.feedA = p.powerFeeds[pick(p.powerFeeds.size())].id;
                    break;
                case 6:
                    r.spare = !r.spare;
                    break;
                default:
                    r.rotationDeg = 90.0;
                    break;
                }
            }
            std::sort(racks.begin(), racks.end());
            racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
            const std::string what = "step " + std::to_string(step) + " kind " + std::to_string(kind);
            const auto classesBefore = cd.classes.size();
            const auto rackClassBefore = cd.rackClass;
            if (step % 10 == 0) {
                // The copying form: `cd` stays as it was, the copy is patched.
                const auto copy = cost::recompileRacks(cd, p, catalog, racks);
                QVERIFY2(copy, what.c_str());
                QVERIFY2(cd.rackClass == rackClassBefore && cd.classes.size() == classesBefore, what.c_str());
                cd = *copy;
            } else {
                QVERIFY2(cost::patchRacks(cd, p, catalog, racks), what.c_str());
            }
            ++patched;
            classChanges += cd.rackClass != rackClassBefore || cd.classes.size() != classesBefore;
            requireClassesMatch(cd, p, what);
            if (QTest::currentTestFailed()) return;
        }
        QCOMPARE(patched, size_t{120});
        QVERIFY(classChanges > 20); // the series changed classes, not only bounds
    }

    /// Racks that are named one by one (no feed, no building, a liquid-cooled rack on no loop or on another
    /// hall's loop) are still found rack by rack, in rack order, though the sums run over classes.
    void perRackFindings() {
        auto p = neocloud();
        std::string otherHallLoop;
        for (const auto& l : p.coolingLoops)
            if (l.hall != p.coolingLoops.front().hall) otherHallLoop = l.id;
        QVERIFY(!otherHallLoop.empty());
        const std::string firstHallLoop = p.coolingLoops.front().id;
        std::vector<size_t> noFeed, noBuilding, noLoop, otherHall;
        for (size_t i = 5; i < p.racks.size(); i += 211)
            noFeed.push_back(i), p.racks[i].feedA.clear(), p.racks[i].feedB.clear();
        for (size_t i = 17; i < p.racks.size(); i += 307)
            noBuilding.push_back(i), p.racks[i].row = "no-such-row";
        for (size_t i = 29; i < p.racks.size(); i += 401)
            noLoop.push_back(i), p.racks[i].coolingLoop.clear();
        // Racks of the first loop's hall put on a loop of another hall.
        for (size_t i = 0, n = 0; i < p.racks.size() && n < 3; ++i)
            if (p.racks[i].coolingLoop == firstHallLoop && p.racks[i].row != "no-such-row" && i % 3 == 0)
                otherHall.push_back(i), p.racks[i].coolingLoop = otherHallLoop, ++n;
        QCOMPARE(otherHall.size(), size_t{3});
        const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        const auto found = [&](const std::string& rule, const std::string& text) {
            std::vector<std::string> out;
            for (const auto& x : r.rules)
                if (x.rule == rule && x.message.find(text) != std::string::npos) out.push_back(x.entity);
            return out;
        };
        const auto ids = [&](const std::vector<size_t>& racks) {
            std::vector<std::string> out;
            for (const size_t i : racks)
                out.push_back(p.racks[i].id);
            return out;
        };
        QCOMPARE(found("orphan_rack", "no power feed"), ids(noFeed));
        QCOMPARE(found("orphan_rack", "not in a hall"), ids(noBuilding));
        QCOMPARE(found("rack_without_loop", "no cooling loop"), ids(noLoop));
        QCOMPARE(found("loop_other_hall", "another hall"), ids(otherHall));
        // And none of them on the reference as shipped.
        const auto clean = cost::evaluate(neocloud(), test_support::catalog(), test_support::defaults());
        for (const auto& x : clean.rules)
            QVERIFY(x.rule != "orphan_rack" && x.rule != "rack_without_loop" && x.rule != "loop_other_hall");
    }

    /// A rack type the catalog lacks: the same InputError the engine's catalog look-up always raised.
    void unknownRackType() {
        auto p = neocloud();
        p.racks[5].rackType = "no-such-rack";
        QVERIFY_THROWS_EXCEPTION(model::InputError, cost::CompiledDesign(p, test_support::catalog()));
        QVERIFY_THROWS_EXCEPTION(model::InputError,
                                 cost::evaluate(p, test_support::catalog(), test_support::defaults()));
    }

    /// Which overrides invalidate a compiled design: layout entities do, assumptions and the rest do not.
    void invalidatingOverrides() {
        QVERIFY(!cost::overrideAffectsCompiledDesign("assumptions.route_factor"));
        QVERIFY(!cost::overrideAffectsCompiledDesign("assumptions.utilization"));
        QVERIFY(!cost::overrideAffectsCompiledDesign("sites.site-a.latitude_deg"));
        QVERIFY(!cost::overrideAffectsCompiledDesign("links.wan.capacity_bit_per_s"));
        QVERIFY(!cost::overrideAffectsCompiledDesign("training_jobs.job.gpus"));
        QVERIFY(cost::overrideAffectsCompiledDesign("racks.r1.x_m"));
        QVERIFY(cost::overrideAffectsCompiledDesign("halls.h1.width_m"));
        QVERIFY(cost::overrideAffectsCompiledDesign("buildings.b1.width_m"));
        QVERIFY(cost::overrideAffectsCompiledDesign("cooling_loops.l1.delta_t_k"));
    }

    /// The staged path: a bill of materials derived again (route factor and oversubscription target are
    /// BOM inputs) on the base's compiled design gives exactly the full evaluation.
    void reusedCompiledDesignMatchesFullPath() {
        const auto& p = neocloud();
        const auto base = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(base.bom.compiled);
        const cost::InputOverrides o = {{"assumptions.route_factor", 1.6, "test"},
                                        {"assumptions.oversubscription_limit", 1.0, "test"}};
        const cost::InputResolver staged(p, test_support::defaults(), o),
            full(p, test_support::defaults(), o);
        const auto a = cost::evaluate(staged, test_support::catalog(), nullptr, base.bom.compiled);
        const auto b = cost::evaluate(full, test_support::catalog());
        QCOMPARE(a.bom.compiled.get(), base.bom.compiled.get()); // reused, not compiled again
        QVERIFY(b.bom.compiled.get() != base.bom.compiled.get());
        requireSameFigures(a, b);
    }

    /// A layout override takes the full path: a rack moved 500 m out of its hall is found outside it, which
    /// a reused compiled design (geometry findings of the base) would miss.
    void layoutOverrideRecompiles() {
        const auto& p = neocloud();
        const auto base = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        const std::string rack = p.racks[3].id;
        const cost::InputOverrides o = {{"racks." + rack + ".x_m", 500.0, "test"}};
        const auto moved = cost::evaluate(p, test_support::catalog(), test_support::defaults(), o);
        auto outside = [&](const cost::Results& r) {
            for (const auto& rule : r.rules)
                if (rule.rule == "rack_outside_hall" && rule.entity == rack) return true;
            return false;
        };
        QVERIFY(!outside(base));
        QVERIFY(outside(moved));
        QVERIFY(cost::overrideAffectsCompiledDesign(o.front().path));
    }
};

QTEST_APPLESS_MAIN(TestCompiledDesign)
#include "test_compiled_design.moc"
