// The scenario tools' lean path (cost/evaluate.h evaluateFigures, issue 15 item 3) against the full
// evaluate(): on every shipped reference design and several perturbed input sets, every figure evaluate()
// reports must come out of evaluateFigures bit for bit (compared with ==, no tolerance: both run the same
// stages on the same numbers in the same order), and every figure evaluate() lacks must be absent. Checked
// without a memo, with a cold memo and with a warm one (cost/evaluation_memo.h), and with the base bill of
// materials reused for variations that cannot change it, as sweep, tornado and uncertainty do.
#include "../test_support.h"
#include "catalog.h"
#include "evaluate.h"
#include "evaluation_memo.h"
#include "input_resolver.h"

#include <QtTest>
#include <algorithm>
#include <deque>
#include <filesystem>

using namespace ctwin;

namespace {

/// The shipped reference designs: every data/reference/*.json but the index.
std::vector<std::string> referenceNames() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(test_support::kData + "/reference"))
        if (e.path().extension() == ".json" && e.path().stem() != "index")
            names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

/// An assumption at the low or high end of its shipped range (always a valid override).
cost::InputOverride atEnd(const std::string& key, bool high) {
    const auto& a = test_support::defaults().at(key);
    return cost::InputOverride{"assumptions." + key, high ? a.high : a.low, "test"};
}

/// Perturbed input sets: the base; the sweep's axes; finance; the inputs the memo keys on (reliability
/// options, cooling assumptions); resolved entity fields; one that changes the bill of materials.
std::vector<cost::InputOverrides> perturbations() {
    return {
        {},
        {atEnd("electricity_usd_per_kwh", true), atEnd("utilization", false)},
        {atEnd("wacc", true), atEnd("gpu_hour_price_usd", false), atEnd("tax_rate", true),
         atEnd("horizon_years", false)},
        {atEnd("failure_detection_minutes", true), atEnd("cdu_repair_hours", false),
         atEnd("straggler_loss", true)},
        {atEnd("air_chilled_water_supply_c", false), atEnd("crah_fan_power_fraction", true),
         atEnd("climate_hourly_spread_factor", true), atEnd("compressor_cop_max_factor", false)},
        {cost::InputOverride{"sites.*.electricity_usd_per_kwh", 0.05, "test"},
         cost::InputOverride{"buildings.*.pue_pinned", 1.3, "test"}, atEnd("mfu", false)},
        {atEnd(cost::kBillOfMaterialsAssumptions.front(), true), atEnd("utilization", true)},
    };
}

bool affectsBom(const cost::InputOverrides& o) {
    return std::any_of(o.begin(), o.end(), [](const cost::InputOverride& x) {
        return cost::overrideAffectsBillOfMaterials(x.path);
    });
}

/// Figure keys some designs lack (no training job, no inference service, no sign change), and one no
/// design has: evaluateFigures must report them absent exactly when evaluate() does.
const std::vector<std::string> kSometimesAbsent = {"finance.irr",
                                                   "finance.payback_years",
                                                   "training.time_days",
                                                   "training.cost_per_million_tokens_usd",
                                                   "reliability.job_mtbf_hours",
                                                   "inference.joules_per_token",
                                                   "inference.cost_per_million_output_tokens_usd",
                                                   "no.such_figure"};

void requireSameFigures(const cost::Results& full, const std::vector<std::string>& keys,
                        const std::vector<std::optional<double>>& lean, const std::string& what) {
    QVERIFY2(lean.size() == keys.size(), what.c_str());
    for (size_t i = 0; i < keys.size(); ++i) {
        const auto* f = full.figure(keys[i]);
        const std::string where = what + ": " + keys[i];
        QVERIFY2(f != nullptr ? lean[i].has_value() : !lean[i].has_value(), where.c_str());
        // Bit for bit: the same arithmetic on the same numbers.
        if (f)
            QVERIFY2(*lean[i] == f->value,
                     (where + " " + std::to_string(*lean[i]) + " vs " + std::to_string(f->value)).c_str());
    }
}

} // namespace

class TestFiguresLean : public QObject {
    Q_OBJECT

private slots:
    void leanFiguresEqualFullEvaluation_data() {
        QTest::addColumn<QString>("design");
        const auto names = referenceNames();
        QVERIFY(names.size() >= 6); // the six shipped references at least
        for (const auto& n : names)
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }

    void leanFiguresEqualFullEvaluation() {
        QFETCH(QString, design);
        const model::Project p = test_support::reference(design.toStdString());
        const auto& catalog = test_support::catalog();
        const auto& defaults = test_support::defaults();
        cost::EvaluationMemo memo(p, catalog);
        std::deque<cost::Results> fulls; // alive while the memo is: it keys on their bills' addresses
        const auto sets = perturbations();
        for (size_t s = 0; s < sets.size(); ++s) {
            const cost::InputResolver resolver(p, defaults, sets[s]);
            fulls.push_back(cost::evaluate(resolver, catalog));
        }
        // Twice through the sets with one memo: cold (entries made) and warm (every stage result a hit).
        for (int pass = 0; pass < 2; ++pass)
            for (size_t s = 0; s < sets.size(); ++s) {
                const cost::Results& full = fulls[s];
                std::vector<std::string> keys;
                for (const auto& f : full.figures)
                    keys.push_back(f.key);
                keys.insert(keys.end(), kSometimesAbsent.begin(), kSometimesAbsent.end());
                const std::string what =
                    design.toStdString() + " set " + std::to_string(s) + " pass " + std::to_string(pass);
                {
                    const cost::InputResolver resolver(p, defaults, sets[s]);
                    requireSameFigures(full, keys, cost::evaluateFigures(resolver, catalog, full.bom, keys),
                                       what + " (no memo)");
                }
                {
                    // As the scenario tools resolve: values only, no provenance record.
                    cost::InputResolver resolver(p, defaults, sets[s]);
                    resolver.resolveValuesOnly();
                    QVERIFY(memo.covers(resolver.project(), catalog, full.bom) ==
                            (&resolver.project() == &p)); // a design the resolver copied gets no memo
                    requireSameFigures(full, keys,
                                       cost::evaluateFigures(resolver, catalog, full.bom, keys, &memo),
                                       what + " (memo, own bill)");
                }
                if (!affectsBom(sets[s])) {
                    // The scenario tools' reuse: the base bill of materials for every such variation.
                    cost::InputResolver resolver(p, defaults, sets[s]);
                    resolver.resolveValuesOnly();
                    requireSameFigures(
                        full, keys, cost::evaluateFigures(resolver, catalog, fulls.front().bom, keys, &memo),
                        what + " (memo, base bill)");
                }
            }
    }

    // One key at a time, as a sweep or tornado of a single output asks: evaluateFigures skips work that feeds
    // only figures nobody asked for (whole figure groups, the IRR), so each key must still come out alone.
    void eachFigureAloneEqualsFullEvaluation_data() { leanFiguresEqualFullEvaluation_data(); }
    void eachFigureAloneEqualsFullEvaluation() {
        QFETCH(QString, design);
        const model::Project p = test_support::reference(design.toStdString());
        const auto& catalog = test_support::catalog();
        cost::EvaluationMemo memo(p, catalog);
        const auto sets = perturbations();
        for (size_t s : {size_t(0), size_t(2)}) {
            const cost::Results full = cost::evaluate(p, catalog, test_support::defaults(), sets[s]);
            std::vector<std::string> keys;
            for (const auto& f : full.figures)
                keys.push_back(f.key);
            keys.insert(keys.end(), kSometimesAbsent.begin(), kSometimesAbsent.end());
            for (const auto& key : keys) {
                cost::InputResolver resolver(p, test_support::defaults(), sets[s]);
                resolver.resolveValuesOnly();
                requireSameFigures(full, {key},
                                   cost::evaluateFigures(resolver, catalog, full.bom, {key}, &memo),
                                   design.toStdString() + " set " + std::to_string(s) + " alone");
            }
        }
    }

    void memoCoversOnlyItsDesign() {
        const model::Project p = test_support::reference("llama3-16k-h100");
        const model::Project copy = p;
        const auto& catalog = test_support::catalog();
        const cost::Results base = cost::evaluate(p, catalog, test_support::defaults());
        cost::EvaluationMemo memo(p, catalog);
        QVERIFY(memo.covers(p, catalog, base.bom));
        QVERIFY(!memo.covers(copy, catalog, base.bom));
        cost::BillOfMaterials uncompiled = base.bom;
        uncompiled.compiled.reset();
        QVERIFY(!memo.covers(p, catalog, uncompiled));
    }
};

QTEST_APPLESS_MAIN(TestFiguresLean)
#include "test_figures_lean.moc"
