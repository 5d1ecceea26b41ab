// Golden guard for the engine's speed work (issue 15 items 1-3, 6): every shipped reference design
// (data/reference/*.json) is evaluated and its `evaluate --json` output (every figure and every design rule)
// is compared with tests/cost/golden/<name>.json, captured with the engine as it was before the compiled
// design and staged scenario evaluation landed (commit d55226c). The scenario tools are guarded the same
// way on the 100K reference: a tornado over every ranged input, a 2-D sweep with a design-dependent axis
// (sites.*.latitude_deg changes the WAN routes of no link here but is a BOM input) and a 200-sample
// uncertainty run.
//
// Tolerance: 1e-9 relative (absolute 1e-9 near zero) on every number; strings and rule order exactly.
// The engine sums the same terms in possibly different orders after the rewrite, which moves results by a
// few ulps (~1e-16 relative), far inside 1e-9.
//
// To recapture (only when a change of the numbers is intended and reviewed): CTWIN_WRITE_GOLDEN=1
// test_golden writes the files in the source tree.
#include "../test_support.h"
#include "catalog.h"
#include "design_json.h"
#include "evaluate.h"
#include "results_json.h"
#include "scenarios.h"

#include <QtTest>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace ctwin;
using Json = nlohmann::ordered_json;

namespace {

// tests/cost/golden beside tests/data (which need not exist: the path is taken apart lexically).
const std::string kGoldenDir =
    (std::filesystem::path(CTWIN_TEST_DATA_DIR).parent_path() / "cost" / "golden").string();

bool writeMode() {
    const char* v = std::getenv("CTWIN_WRITE_GOLDEN");
    return v && std::string(v) == "1";
}

std::vector<std::string> referenceNames() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(test_support::kData + "/reference")) {
        const auto path = e.path();
        if (path.extension() != ".json" || path.stem() == "index") continue;
        names.push_back(path.stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

/// Every difference between `expected` and `actual` beyond the tolerance, as "path: expected vs actual".
void compare(const Json& expected, const Json& actual, const std::string& path,
             std::vector<std::string>& diffs) {
    if (diffs.size() > 20) return;
    if (expected.is_number() && actual.is_number()) {
        const double e = expected.get<double>(), a = actual.get<double>();
        const double tol = 1e-9 * std::max(1.0, std::max(std::abs(e), std::abs(a)));
        if (!(std::abs(e - a) <= tol))
            diffs.push_back(path + ": " + expected.dump() + " vs " + actual.dump());
        return;
    }
    if (expected.type() != actual.type()) {
        diffs.push_back(path + ": type " + expected.type_name() + " vs " + actual.type_name());
        return;
    }
    if (expected.is_object()) {
        if (expected.size() != actual.size())
            diffs.push_back(path + ": " + std::to_string(expected.size()) + " keys vs " +
                            std::to_string(actual.size()));
        auto ia = actual.begin();
        for (auto ie = expected.begin(); ie != expected.end() && ia != actual.end(); ++ie, ++ia) {
            if (ie.key() != ia.key()) {
                diffs.push_back(path + ": key " + ie.key() + " vs " + ia.key());
                return;
            }
            compare(ie.value(), ia.value(), path + "." + ie.key(), diffs);
        }
        return;
    }
    if (expected.is_array()) {
        if (expected.size() != actual.size())
            diffs.push_back(path + ": " + std::to_string(expected.size()) + " items vs " +
                            std::to_string(actual.size()));
        for (size_t i = 0; i < std::min(expected.size(), actual.size()); ++i)
            compare(expected[i], actual[i], path + "[" + std::to_string(i) + "]", diffs);
        return;
    }
    if (expected != actual) diffs.push_back(path + ": " + expected.dump() + " vs " + actual.dump());
}

void checkGolden(const std::string& name, const Json& actual) {
    const std::string file = kGoldenDir + "/" + name + ".json";
    if (writeMode()) {
        std::filesystem::create_directories(kGoldenDir);
        std::ofstream(file) << actual.dump(1) << "\n";
        return;
    }
    std::ifstream in(file);
    QVERIFY2(in.good(), qPrintable(QString::fromStdString("missing golden file " + file)));
    const Json expected = Json::parse(in);
    std::vector<std::string> diffs;
    compare(expected, actual, name, diffs);
    std::string all;
    for (const auto& d : diffs)
        all += "\n  " + d;
    QVERIFY2(diffs.empty(),
             qPrintable(QString::fromStdString(name + " differs from its golden figures:" + all)));
}

const model::Project& neocloud() {
    static const model::Project p = test_support::reference("neocloud-100k-gb200");
    return p;
}

} // namespace

class TestGolden : public QObject {
    Q_OBJECT
private slots:
    void references_data() {
        QTest::addColumn<QString>("name");
        const auto names = referenceNames();
        QVERIFY(names.size() >= 6);
        for (const auto& n : names)
            QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }
    /// evaluate --json of each reference: every figure and every rule.
    void references() {
        QFETCH(QString, name);
        const auto p = test_support::reference(name.toStdString());
        const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        checkGolden(name.toStdString(), cost::resultsToJson(r));
    }

    /// The 1M-GPU / 13,876-rack benchmark layout's cousin: evaluate with overrides of a BOM input and of a
    /// tail input, which take the full and the staged path.
    void overrides() {
        const auto& p = neocloud();
        Json out;
        const cost::InputOverrides bomInput = {{"assumptions.oversubscription_limit", 1.5, "test"}};
        const cost::InputOverrides tailInput = {{"assumptions.utilization", 0.7, "test"}};
        out["bom_input"] = cost::resultsToJson(
            cost::evaluate(p, test_support::catalog(), test_support::defaults(), bomInput));
        out["tail_input"] = cost::resultsToJson(
            cost::evaluate(p, test_support::catalog(), test_support::defaults(), tailInput));
        checkGolden("neocloud-100k-gb200.overrides", out);
    }

    void tornado() {
        const cost::ScenarioInput in{&neocloud(), &test_support::catalog(), test_support::defaults()};
        const auto t = cost::tornado(in, "finance.cost_per_gpu_hour_usd");
        Json out;
        out["base"] = t.base;
        for (const auto& b : t.bars)
            out["bars"].push_back({{"path", b.path},
                                   {"low", b.inputLow},
                                   {"high", b.inputHigh},
                                   {"at_low", b.outputAtLow},
                                   {"at_high", b.outputAtHigh},
                                   {"defined", b.definedAtLow && b.definedAtHigh}});
        checkGolden("neocloud-100k-gb200.tornado", out);
    }

    /// Axis 0 reads only the assumption-dependent tail; axis 1 (a cooling loop's delta T) changes the BOM,
    /// so the sweep derives a BOM per step of it. A second sweep has two tail axes.
    void sweep() {
        const cost::ScenarioInput in{&neocloud(), &test_support::catalog(), test_support::defaults()};
        Json out;
        const std::vector<std::string> outputs = {"finance.cost_per_gpu_hour_usd", "power.pue",
                                                  "reliability.goodput", "inventory.cdus"};
        const auto loop = neocloud().coolingLoops.front().id;
        const auto mixed = cost::sweep(
            in, {{"assumptions.wacc", 0.06, 0.12, 4}, {"cooling_loops." + loop + ".delta_t_k", 8, 14, 3}},
            outputs);
        const auto tail = cost::sweep(in,
                                      {{"assumptions.utilization", 0.6, 0.95, 5},
                                       {"assumptions.staff_usd_per_mw_year", 50000, 150000, 3}},
                                      outputs);
        for (const auto* s : {&mixed, &tail}) {
            Json j;
            for (size_t k = 0; k < s->outputs.size(); ++k)
                j[s->outputs[k]] = s->values[k];
            out.push_back(j);
        }
        checkGolden("neocloud-100k-gb200.sweep", out);
    }

    void uncertainty() {
        const cost::ScenarioInput in{&neocloud(), &test_support::catalog(), test_support::defaults()};
        const auto u = cost::uncertainty(in, {"finance.cost_per_gpu_hour_usd", "finance.npv_usd"}, 200, 7);
        Json out;
        for (const auto& [k, p] : u)
            out[k] = {{"p10", p.p10}, {"p50", p.p50}, {"p90", p.p90}, {"mean", p.mean}, {"count", p.count}};
        checkGolden("neocloud-100k-gb200.uncertainty", out);
    }
};

QTEST_APPLESS_MAIN(TestGolden)
#include "test_golden.moc"
