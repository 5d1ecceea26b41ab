// Design-space exploration (issue 16): the Pareto filter on hand-made points, an exhaustive exploration
// against brute force done here with the plain evaluate() API, constraints, sampling, determinism across
// thread counts, the record serialization that MPI gathers, and the bad inputs of the spec.
#include "../test_support.h"
#include "evaluate.h"
#include "explore.h"
#include "input_error.h"

#include <QtTest>
#include <algorithm>
#include <set>

using namespace ctwin;
using namespace ctwin::cost;
using ojson = nlohmann::ordered_json;

namespace {

const std::string kLlama = test_support::kData + "/reference/llama3-16k-h100.json";

/// A small space on the Llama 3 reference design: the job's restart scope (a field of the design), WACC and
/// the tariff (overrides): 3 x 3 x 2 = 18 points.
ojson smallSpec() {
    return ojson::parse(R"({
      "format": "clustertwin-explore-spec", "spec_version": 1, "name": "small",
      "base": ")" + kLlama +
                        R"(",
      "choices": [
        {"name": "restart", "field": "training_jobs.llama3-405b.restart_scope",
         "values": ["whole_job", "parallel_group", "hot_spare"]},
        {"name": "wacc", "set": "assumptions.wacc", "range": {"min": 0.06, "max": 0.10, "count": 3}},
        {"name": "tariff", "set": "assumptions.electricity_usd_per_kwh", "values": [0.04, 0.09]}
      ],
      "objectives": [{"figure": "training.cost_per_million_tokens_usd", "goal": "minimize"},
                     {"figure": "reliability.goodput", "goal": "maximize"}],
      "report": ["capex.total_usd"]
    })");
}

ExploreSpec parse(const ojson& j) {
    return exploreSpecFromJson(j, "spec.json");
}

Explorer make(const ojson& j) {
    return Explorer(parse(j), test_support::catalog(), test_support::defaults());
}

/// Runs `f` and checks it throws InputError whose message contains `needle`.
template <class F> void expectInputError(F f, const QString& needle) {
    try {
        f();
    } catch (const model::InputError& e) {
        const QString msg = QString::fromStdString(e.what());
        if (!msg.contains(needle)) QFAIL(qPrintable("message '" + msg + "' lacks '" + needle + "'"));
        return;
    }
    QFAIL(qPrintable("no InputError (expected '" + needle + "')"));
}

} // namespace

class TestExplore : public QObject {
    Q_OBJECT
private slots:
    void paretoHandMade() {
        // Both minimized. A(1,5) B(2,2) C(5,1) are the front; D(3,3) is dominated by B; E duplicates B and F
        // duplicates A (duplicates never dominate each other: all kept); G(1,6) ties A on the first
        // objective and is worse on the second (dominated); H(5,1.5) ties C first, worse second.
        const std::vector<std::vector<double>> pts = {{1, 5}, {2, 2}, {5, 1}, {3, 3},
                                                      {2, 2}, {1, 5}, {1, 6}, {5, 1.5}};
        QCOMPARE(paretoFront(pts, {false, false}), (std::vector<size_t>{0, 1, 2, 4, 5}));
        // Second objective maximized: G(1,6) is no worse than every point in both objectives (first 1 is the
        // minimum, second 6 the maximum) and strictly better than each somewhere: the front is G alone.
        QCOMPARE(paretoFront(pts, {false, true}), (std::vector<size_t>{6}));
        // One objective: every point at the minimum (both 1s) is kept.
        QCOMPARE(paretoFront({{3}, {1}, {2}, {1}}, {false}), (std::vector<size_t>{1, 3}));
        QVERIFY(paretoFront({}, {false}).empty());
    }

    void rangeLevelsAndEmptyRanges() {
        const auto a = rangeLevels(0.06, 0.12, 0.02, std::nullopt, "f", "c");
        // 0.06, 0.08, 0.10, 0.12 (0.12 within 1e-9 of a step), rounded to 12 digits: 0.06 + 2 x 0.02 is 0.1.
        QCOMPARE(a, (std::vector<double>{0.06, 0.08, 0.1, 0.12}));
        QCOMPARE(rangeLevels(1, 3, std::nullopt, 5, "f", "c"), (std::vector<double>{1, 1.5, 2, 2.5, 3}));
        QCOMPARE(rangeLevels(2, 2, std::nullopt, 1, "f", "c"), (std::vector<double>{2}));
        expectInputError([] { rangeLevels(3, 1, 1.0, std::nullopt, "f", "c"); }, "empty range");
        expectInputError([] { rangeLevels(1, 3, std::nullopt, 0, "f", "c"); }, "count must be at least 1");
        expectInputError([] { rangeLevels(1, 3, 0.0, std::nullopt, "f", "c"); }, "must be > 0");
        auto j = smallSpec();
        j["choices"][1]["range"] = {{"min", 0.1}, {"max", 0.05}, {"step", 0.01}};
        expectInputError([&] { parse(j); }, "empty range");
    }

    /// Every point evaluated here with the plain evaluate() API (no layout or BOM cache) and filtered by hand
    /// gives the explorer's counts and Pareto set, with bit-identical figures.
    void exhaustiveEqualsBruteForce() {
        auto j = smallSpec();
        // A constraint that cuts the space: the median cost per GPU-hour of the brute force below.
        const auto base = model::loadProjectJson(kLlama, &test_support::catalog());
        const char* scopes[] = {"whole_job", "parallel_group", "hot_spare"};
        const double waccs[] = {0.06, 0.08, 0.10}, tariffs[] = {0.04, 0.09};
        struct Point {
            std::uint64_t index;
            double cost, goodput, capex, gpuHour;
        };
        std::vector<Point> brute;
        for (int s = 0; s < 3; ++s)
            for (int w = 0; w < 3; ++w)
                for (int t = 0; t < 2; ++t) {
                    model::Project p = base;
                    p.trainingJobs[0].restartScope = scopes[s];
                    const auto r =
                        evaluate(p, test_support::catalog(), test_support::defaults(),
                                 InputOverrides{{"assumptions.wacc", waccs[w], "t"},
                                                {"assumptions.electricity_usd_per_kwh", tariffs[t], "t"}});
                    QVERIFY(!r.hasErrors());
                    // Index: restart most significant (radix 6), then wacc (radix 2), then tariff.
                    brute.push_back({static_cast<std::uint64_t>(s * 6 + w * 2 + t),
                                     r.figure("training.cost_per_million_tokens_usd")->value,
                                     r.figure("reliability.goodput")->value,
                                     r.figure("capex.total_usd")->value,
                                     r.figure("finance.cost_per_gpu_hour_usd")->value});
                }
        std::vector<double> hours;
        for (const auto& b : brute)
            hours.push_back(b.gpuHour);
        std::sort(hours.begin(), hours.end());
        const double cap = hours[hours.size() / 2];
        j["constraints"] = ojson::array(
            {{{"name", "gpu-hour cap"}, {"figure", "finance.cost_per_gpu_hour_usd"}, {"max", cap}}});

        const Explorer x = make(j);
        QCOMPARE(x.spacePoints(), std::uint64_t{18});
        const auto plan = x.plan(1);
        QCOMPARE(plan.size(), size_t{18});
        const auto result = x.finish(x.run(plan, 2), 1);

        // Brute-force constraint and Pareto (O(n^2) dominance, written independently of paretoFront).
        std::vector<Point> feasible;
        for (const auto& b : brute)
            if (b.gpuHour <= cap) feasible.push_back(b);
        std::vector<Point> front;
        for (const auto& a : feasible) {
            bool dominated = false;
            for (const auto& b : feasible)
                if (b.cost <= a.cost && b.goodput >= a.goodput && (b.cost < a.cost || b.goodput > a.goodput))
                    dominated = true;
            if (!dominated) front.push_back(a);
        }
        QCOMPARE(result.evaluated, std::uint64_t{18});
        QCOMPARE(result.feasible, std::uint64_t(feasible.size()));
        QCOMPARE(result.rejected.at("constraint: gpu-hour cap"), std::uint64_t(18 - feasible.size()));
        QVERIFY(feasible.size() >= 9 && feasible.size() < 18); // the median cap removes some, keeps half
        QCOMPARE(result.pareto.size(), front.size());
        QVERIFY(!front.empty());
        for (size_t i = 0; i < front.size(); ++i) {
            const auto& p = result.pareto[i];
            QCOMPARE(p.index, front[i].index);
            // Keys: objectives, then the constraint's figure, then the report.
            QCOMPARE(result.figureKeys,
                     (std::vector<std::string>{"training.cost_per_million_tokens_usd", "reliability.goodput",
                                               "finance.cost_per_gpu_hour_usd", "capex.total_usd"}));
            QCOMPARE(p.values[0], front[i].cost); // bit-identical: the cached BOM changes nothing
            QCOMPARE(p.values[1], front[i].goodput);
            QCOMPARE(p.values[2], front[i].gpuHour);
            QCOMPARE(p.values[3], front[i].capex);
        }
        // The choices of a point come back by name.
        const auto c = x.choicesOf(front[0].index);
        QCOMPARE(c["restart"].get<std::string>(), std::string(scopes[front[0].index / 6]));
        QCOMPARE(c["wacc"].get<double>(), waccs[(front[0].index / 2) % 3]);
    }

    void independentOfThreadsAndSplit() {
        const Explorer x = make(smallSpec());
        const auto plan = x.plan(1);
        const auto one = x.run(plan, 1);
        const auto two = x.run(plan, 2);
        // As MPI splits it: two halves evaluated apart, gathered through the byte form.
        const std::vector<std::uint64_t> lo(plan.begin(), plan.begin() + 7), hi(plan.begin() + 7, plan.end());
        auto gathered = exploreRecordsFromBytes(exploreRecordsToBytes(x.run(hi, 1)));
        const auto first = exploreRecordsFromBytes(exploreRecordsToBytes(x.run(lo, 2)));
        gathered.insert(gathered.end(), first.begin(), first.end());
        const auto a = exploreResultToJson(x.finish(one, 1), x).dump();
        QCOMPARE(exploreResultToJson(x.finish(two, 1), x).dump(), a);
        QCOMPARE(exploreResultToJson(x.finish(gathered, 1), x).dump(), a);
        QCOMPARE(one.size(), two.size());
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(one[i].index, two[i].index);
            QCOMPARE(one[i].values, two[i].values);
        }
    }

    void latinHypercubeSampling() {
        // 40 levels and 40 samples: a Latin hypercube puts exactly one sample in each level of each choice.
        auto j = smallSpec();
        j["choices"] = ojson::array({{{"name", "wacc"},
                                      {"set", "assumptions.wacc"},
                                      {"range", {{"min", 0.05}, {"max", 0.129}, {"count", 40}}}},
                                     {{"name", "tariff"},
                                      {"set", "assumptions.electricity_usd_per_kwh"},
                                      {"range", {{"min", 0.03}, {"max", 0.108}, {"count", 40}}}}});
        j["search"] = {{"method", "latin_hypercube"}, {"points", 40}, {"seed", 7}};
        const Explorer x = make(j);
        QCOMPARE(x.spacePoints(), std::uint64_t{1600});
        const auto plan = x.plan(7);
        QCOMPARE(plan.size(), size_t{40}); // no two samples share a level of the first choice: all distinct
        std::set<size_t> first, second;
        for (auto i : plan) {
            first.insert(x.levelsOf(i)[0]);
            second.insert(x.levelsOf(i)[1]);
        }
        QCOMPARE(first.size(), size_t{40});
        QCOMPARE(second.size(), size_t{40});
        QCOMPARE(x.plan(7), plan);  // seeded: the same sample again
        QVERIFY(x.plan(8) != plan); // another seed, another sample
        // Random sampling of 30 points from 1,600: seeded, distinct, within the space.
        j["search"] = {{"method", "random"}, {"points", 30}, {"seed", 3}};
        const Explorer y = make(j);
        const auto r = y.plan(3);
        QVERIFY(r.size() <= 30 && r.size() >= 25);
        QCOMPARE(y.plan(3), r);
        for (auto i : r)
            QVERIFY(i < 1600);
    }

    void constraintsAndNothingFeasible() {
        // Goodput >= 2 is impossible: the message names the constraint that removed the last points.
        auto j = smallSpec();
        j["constraints"] =
            ojson::array({{{"name", "cheap"}, {"figure", "capex.total_usd"}, {"max", 1e15}},
                          {{"name", "minimum goodput"}, {"figure", "reliability.goodput"}, {"min", 2.0}}});
        const Explorer x = make(j);
        expectInputError(
            [&] { x.finish(x.run(x.plan(1), 2), 1); },
            "constraint 'minimum goodput' (reliability.goodput >= 2) removed the last 18 point(s)");
        // Contradictory bounds on one figure are refused when the spec is read.
        j["constraints"] = ojson::array({{{"name", "lo"}, {"figure", "reliability.goodput"}, {"min", 0.9}},
                                         {{"name", "hi"}, {"figure", "reliability.goodput"}, {"max", 0.5}}});
        expectInputError([&] { parse(j); }, "contradictory constraints: 'lo'");
        // A constraint on a figure the engine does not have.
        j["constraints"] = ojson::array({{{"name", "band"}, {"figure", "assumptions_free"}, {"min", 0.0}}});
        expectInputError([&] { make(j); }, "unknown figure key 'assumptions_free'");
    }

    void badInputs() {
        auto j = smallSpec();
        j["choices"][1]["set"] = "assumptions.no_such_key";
        expectInputError([&] { make(j); }, "no_such_key");
        j = smallSpec();
        j["choices"][0]["field"] = "training_jobs.no-such-job.restart_scope";
        expectInputError([&] { make(j); }, "no element 'no-such-job'");
        j = smallSpec();
        j["choices"][0]["values"] = ojson::array({"whole_job", "sometimes"});
        expectInputError([&] { make(j); }, "level sometimes");
        j = smallSpec();
        j["choices"][0] = {
            {"name", "rack"}, {"field", "racks.*.rack_type"}, {"values", {"hgx-h100-2srv", "gb999"}}};
        expectInputError([&] { make(j); }, "unknown catalog id 'gb999'");
        j = smallSpec();
        j["choices"][0]["bogus"] = 1;
        expectInputError([&] { parse(j); }, "unknown key");
        j = smallSpec();
        j["objectives"][0]["figure"] = "training.cost_per_token";
        expectInputError([&] { make(j); }, "known training keys: ");
        j = smallSpec();
        j["choices"][1]["range"] = {{"min", 0.05}, {"max", 0.15}, {"count", 10000}};
        j["choices"][2]["range"] = {{"min", 0.01}, {"max", 0.2}, {"count", 100}};
        j["choices"][2].erase("values");
        expectInputError([&] { make(j).plan(1); }, "above the exhaustive maximum of 100000");
        j["search"] = {{"method", "exhaustive"}, {"max_exhaustive", 10}};
        j["choices"] = smallSpec()["choices"];
        expectInputError([&] { make(j).plan(1); },
                         "the space has 18 points, above the exhaustive maximum of 10");
    }
};

QTEST_APPLESS_MAIN(TestExplore)
#include "test_explore.moc"
