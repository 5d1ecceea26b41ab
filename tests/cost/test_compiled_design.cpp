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
