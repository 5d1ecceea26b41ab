// Scenario tools (SPEC.md §4.9): comparison, tornado, sweeps and uncertainty on the reference designs.
// Expected values are either worked by hand in the comment beside the check (linear energy cost, the
// triangular distribution's quantiles) or come from a direct evaluate() of the same variation, which checks
// that the tools' BOM reuse, threading and override folding change nothing. Tolerances are stated per check.
#include "../test_compare.h"
#include "../test_support.h"
#include "catalog.h"
#include "design_json.h"
#include "input_error.h"
#include "scenarios.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <limits>
#include <thread>

using namespace ctwin;

namespace {

const std::vector<std::string> kReferences = {"agentic-inference-gb300", "campus-1gw",   "llama3-16k-h100",
                                              "neocloud-100k-gb200",     "two-site-wan", "vera-rubin-504"};

double figureOf(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    return f ? f->value : std::numeric_limits<double>::quiet_NaN();
}

/// The message of the InputError `f` throws, or "" when it throws none.
template <class F> QString inputErrorOf(F&& f) {
    try {
        f();
    } catch (const model::InputError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

/// A site tariff takes precedence over assumptions.electricity_usd_per_kwh (model/site.h); every reference
/// pins one, so electricity-price scenarios clear it.
/// The design priced at the default electricity assumption: no site tariffs, no design override.
model::Project withoutSiteTariffs(model::Project p) {
    for (auto& s : p.sites)
        s.electricityUsdPerKwh.reset();
    p.assumptions.erase("electricity_usd_per_kwh");
    return p;
}

} // namespace

// `expr` throws InputError whose message contains `needle`.
#define CTWIN_VERIFY_INPUT_ERROR(expr, needle)                                                               \
    do {                                                                                                     \
        const QString m_ = inputErrorOf([&] { (void)(expr); });                                              \
        QVERIFY2(!m_.isEmpty(), "expected an InputError from " #expr);                                       \
        QVERIFY2(m_.contains(QString(needle)),                                                               \
                 qPrintable("message lacks '" + QString(needle) + "': " + m_));                              \
    } while (false)

class TestScenarios : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void figurePreferencesCoverEveryFigure();

    void compareHandDeltas();
    void compareKeepsSharedFiguresOnly();
    void compareSelfHasZeroDeltas();
    void compareExplainsBigDeltas();
    void compareExplainsPueAndTokenCost();
    void compareRejectsBadInputs();

    void tornadoTimeToRevenueOnlyMovesWithItsAssumption();
    void tornadoEnergyIsLinearInElectricityPrice();
    void tornadoMatchesDirectEvaluation_data();
    void tornadoMatchesDirectEvaluation();
    void tornadoMarksUndefinedEnds();
    void tornadoRejectsBadOutputs();

    void sweepElectricityIsAStraightLine();
    void sweepGridIsRowMajorAndMatchesDirectEvaluation();
    void sweepMarksUndefinedFigures();
    void sweepCancelStopsEarly();
    void sweepRejectsBadInputs();

    void uncertaintyMatchesTriangularQuantiles();
    void uncertaintyIsOrderedAndDeterministic();
    void uncertaintyRejectsBadInputs();
    void headlineOutputsFollowTheWorkloads();

private:
    const model::Project& design(const std::string& name) const { return m_designs.at(name); }
    cost::ScenarioInput input(const model::Project& p) const { return {&p, &m_catalog, m_defaults}; }
    /// evaluate() of `p` with assumption values set the way --set does (on the design's assumptions block),
    /// without any scenario machinery: full BOM derivation, one thread.
    /// An entity value (a tornado bar of a value the design sets itself, e.g.
    /// "sites.site-east.electricity_usd_per_kwh" or "training_jobs.llama3-405b.mfu") goes through an
    /// InputResolver override, as `evaluate --set` does.
    cost::Results direct(model::Project p, const std::map<std::string, double>& values) const {
        auto defaults = m_defaults;
        cost::InputOverrides entity;
        for (const auto& [key, v] : values) {
            if (key.find('.') != std::string::npos) {
                entity.push_back({key, v});
                continue;
            }
            // In the design's assumptions block (a copy of the shipped entry when the design has none): a
            // design value, like --set, beats what a catalog item sets for itself (a rack type's
            // useful_life_years beats only the shipped it_useful_life_years; issue 30 item 4).
            if (!p.assumptions.count(key)) p.assumptions[key] = defaults.at(key);
            cost::overrideAssumption(p.assumptions, "assumptions." + key, v);
        }
        return entity.empty() ? cost::evaluate(p, m_catalog, defaults)
                              : cost::evaluate(p, m_catalog, defaults, entity);
    }

    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    std::map<std::string, model::Project> m_designs;
    std::map<std::string, cost::Results> m_results;
};

void TestScenarios::initTestCase() {
    m_catalog = test_support::catalog();
    m_defaults = test_support::defaults();
    for (const auto& name : kReferences) {
        m_designs[name] = test_support::reference(name);
        m_results[name] = cost::evaluate(m_designs[name], m_catalog, m_defaults);
    }
}

// The preference table is the scenario tools' list of figure keys: every figure any reference reports must
// be in it (a new engine figure without a preference fails here), and an invented key must not.
void TestScenarios::figurePreferencesCoverEveryFigure() {
    for (const auto& [name, r] : m_results)
        for (const auto& f : r.figures)
            QVERIFY2(cost::figurePreference(f.key).has_value(), (name + ": " + f.key).c_str());
    QVERIFY(!cost::figurePreference("finance.nonsense_usd").has_value());
    QCOMPARE(*cost::figurePreference("capex.total_usd"), cost::FigurePreference::LowerIsBetter);
    QCOMPARE(*cost::figurePreference("finance.npv_usd"), cost::FigurePreference::HigherIsBetter);
    QCOMPARE(*cost::figurePreference("inventory.switches"), cost::FigurePreference::Neither);
}

// Deltas against the baseline, worked from the designs' own figures: delta = v - v_base and
// % = 100 x delta / |v_base|. E.g. capex: 100 x (capex_llama3 - capex_neocloud) / capex_neocloud.
void TestScenarios::compareHandDeltas() {
    const std::vector<std::string> names = {"neocloud", "llama3", "agentic"};
    const std::vector<cost::Results> rs = {m_results.at("neocloud-100k-gb200"),
                                           m_results.at("llama3-16k-h100"),
                                           m_results.at("agentic-inference-gb300")};
    const auto c = cost::compareDesigns(names, rs, 0);
    QCOMPARE(c.names, names);
    QCOMPARE(c.baseline, size_t(0));
    QVERIFY(!c.rows.empty());
    for (const auto& row : c.rows) {
        QCOMPARE(row.values.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const double v = figureOf(rs[i], row.key), b = figureOf(rs[0], row.key);
            QCOMPARE(row.values[i], v);
            CTWIN_COMPARE_ABS(row.deltaAbsolute[i], v - b, 1e-12 * std::abs(b));
            CTWIN_COMPARE_ABS(row.deltaPercent[i], b != 0 ? 100 * (v - b) / std::abs(b) : 0.0, 1e-9);
            QVERIFY(std::isfinite(row.values[i]) && std::isfinite(row.deltaAbsolute[i]) &&
                    std::isfinite(row.deltaPercent[i]));
        }
    }
    auto rowOf = [&](const std::string& key) -> const cost::ComparisonRow& {
        for (const auto& row : c.rows)
            if (row.key == key) return row;
        throw std::runtime_error("no row " + key);
    };
    // Capex: lower is better, so best = the cheapest design and worst = the dearest.
    const auto& capex = rowOf("capex.total_usd");
    QVERIFY(capex.lowerIsBetter);
    const double capexN = capex.values[0], capexL = capex.values[1], capexA = capex.values[2];
    qInfo("capex: neocloud %.6g, llama3 %.6g (%+.4f%%), agentic %.6g (%+.4f%%)", capexN, capexL,
          100 * (capexL - capexN) / capexN, capexA, 100 * (capexA - capexN) / capexN);
    const auto cheapest = capexL <= capexA && capexL <= capexN ? 1 : capexA <= capexN ? 2 : 0;
    const auto dearest = capexL >= capexA && capexL >= capexN ? 1 : capexA >= capexN ? 2 : 0;
    QCOMPARE(capex.best, cheapest);
    QCOMPARE(capex.worst, dearest);
    // GPUs: higher is better; neocloud's ~100K beats 16K and ~21K.
    const auto& gpus = rowOf("inventory.gpus");
    QVERIFY(!gpus.lowerIsBetter);
    QCOMPARE(gpus.best, 0);
    QCOMPARE(gpus.worst, 1); // 16,384 H100 < 294 x 72 GB300
    // NPV: higher is better.
    QVERIFY(!rowOf("finance.npv_usd").lowerIsBetter);
    // Counts and shares are not ranked.
    QCOMPARE(rowOf("inventory.racks").best, -1);
    QCOMPARE(rowOf("inventory.switches").worst, -1);
    QCOMPARE(rowOf("capex.share.compute").best, -1);
}

// A row needs the figure in every design: neocloud trains, agentic serves, so neither training.* nor
// inference.* rows appear; the rows follow the first design's figure order.
void TestScenarios::compareKeepsSharedFiguresOnly() {
    const auto& n = m_results.at("neocloud-100k-gb200");
    const auto& a = m_results.at("agentic-inference-gb300");
    QVERIFY(n.figure("training.time_days") && !a.figure("training.time_days"));
    QVERIFY(a.figure("inference.joules_per_token") && !n.figure("inference.joules_per_token"));
    const auto c = cost::compareDesigns({"neocloud", "agentic"}, {n, a}, 1);
    QCOMPARE(c.baseline, size_t(1));
    size_t expectedRows = 0;
    for (const auto& f : n.figures)
        expectedRows += a.figure(f.key) != nullptr;
    QCOMPARE(c.rows.size(), expectedRows);
    size_t next = 0;
    for (const auto& row : c.rows) {
        QVERIFY2(row.key.rfind("training.", 0) != 0 && row.key.rfind("inference.", 0) != 0, row.key.c_str());
        while (next < n.figures.size() && n.figures[next].key != row.key)
            ++next;
        QVERIFY2(next < n.figures.size(), ("row out of order: " + row.key).c_str());
        QCOMPARE(row.deltaAbsolute[1], 0.0); // the baseline against itself
    }
}

void TestScenarios::compareSelfHasZeroDeltas() {
    const auto& r = m_results.at("campus-1gw");
    const auto c = cost::compareDesigns({"campus", "campus again"}, {r, r}, 0);
    QCOMPARE(c.rows.size(), r.figures.size());
    for (const auto& row : c.rows) {
        QCOMPARE(row.deltaAbsolute, (std::vector<double>{0.0, 0.0}));
        QCOMPARE(row.deltaPercent, (std::vector<double>{0.0, 0.0}));
        QCOMPARE(row.best, -1);
        QCOMPARE(row.worst, -1);
    }
    QVERIFY(c.explanations.empty());
}

// neocloud (100K GB200) against llama3 (16K H100): capex differs by far more than 10%, and the compute
// category (the racks) moves most, so the capex line names it first.
void TestScenarios::compareExplainsBigDeltas() {
    const auto c = cost::compareDesigns(
        {"neocloud", "llama3"}, {m_results.at("neocloud-100k-gb200"), m_results.at("llama3-16k-h100")}, 0);
    QVERIFY(!c.explanations.empty());
    for (const auto& line : c.explanations)
        qInfo("%s", line.c_str());
    bool capexLine = false;
    for (const auto& line : c.explanations) {
        QVERIFY2(line.rfind("llama3 vs neocloud: ", 0) == 0, line.c_str());
        if (line.find("Capex ") != std::string::npos &&
            line.find("largest moves: compute") != std::string::npos)
            capexLine = true;
    }
    QVERIFY(capexLine);
    // Only headline figures are explained: one line at most per headline key.
    QVERIFY(c.explanations.size() <= 5);
}

// PUE = 1 + (pumps + plant + losses + misc) / IT. neocloud with the site's free-cooling hours pinned to 0
// (no economizer: the dry coolers' air-cooled trim chillers run all year at COP 3, the air side's chillers
// at COP 6) raises the plant's share to [(L + P)/3 + A (1.05/6 + 0.05)] / IT (L liquid heat, P pumps, A air
// heat at the operating point) from the climate-driven base: the explanation names the cooling plant with
// that overhead to 3 decimals. Pinning every building's PUE at 1.5
// zeroes the computed parts, so the move shows as "pinned PUE and other".
// campus-1gw (GB300, 1T MoE) against agentic (GB300, Kimi K2 + Qwen3-Coder): $/M output tokens differ by far
// more than 10%, explained by cost per GPU-hour and output tokens/s per GPU.
void TestScenarios::compareExplainsPueAndTokenCost() {
    const auto& base = design("neocloud-100k-gb200");
    auto chillers = base; // "no economizer"
    // No free cooling: the compressors run all year (the climate would otherwise give the economizer most
    // of the hours).
    for (auto& s : chillers.sites)
        s.freeCoolingHoursPerYear = 0.0;
    auto pinned = base;
    for (auto& b : pinned.buildings)
        b.puePinned = 1.5;
    const auto rc = cost::evaluate(chillers, m_catalog, m_defaults);
    const auto rp = cost::evaluate(pinned, m_catalog, m_defaults);
    const auto c = cost::compareDesigns({"dry coolers", "no economizer", "pinned"},
                                        {m_results.at("neocloud-100k-gb200"), rc, rp}, 0);
    const double it = rc.power.itOperating.value(), pumps = rc.power.pumps.value();
    double liquid = 0;
    for (const auto& l : rc.bom.loops)
        liquid += l.liquidHeat.value();
    const double liquidOp = liquid * it / rc.power.itPeak.value(), air = it - liquidOp;
    const double chillerPlant = (liquidOp + pumps) / 3.0 + air * (1.05 / 6.0 + 0.05);
    const double plantMove = (chillerPlant - m_results.at("neocloud-100k-gb200").power.plant.value()) / it;
    qInfo("plant move %.6f, PUE %.4f -> %.4f", plantMove, m_results.at("neocloud-100k-gb200").power.pue,
          rc.power.pue);
    const std::string expectChiller =
        "no economizer vs dry coolers: PUE " +
        QString::asprintf("%+.1f%%", 100 * (rc.power.pue / m_results.at("neocloud-100k-gb200").power.pue - 1))
            .toStdString();
    bool chillerLine = false, pinnedLine = false;
    for (const auto& line : c.explanations) {
        qInfo("%s", line.c_str());
        if (line.rfind(expectChiller, 0) == 0) {
            QVERIFY2(line.find("overhead per IT watt: cooling plant " +
                               QString::asprintf("%+.3f", plantMove).toStdString()) != std::string::npos,
                     line.c_str());
            chillerLine = true;
        }
        if (line.rfind("pinned vs dry coolers: PUE ", 0) == 0) {
            QVERIFY2(line.find("pinned PUE and other +") != std::string::npos, line.c_str());
            pinnedLine = true;
        }
    }
    QVERIFY(chillerLine);
    QVERIFY(pinnedLine);

    const auto t = cost::compareDesigns(
        {"campus", "agentic"}, {m_results.at("campus-1gw"), m_results.at("agentic-inference-gb300")}, 0);
    bool tokenLine = false;
    for (const auto& line : t.explanations) {
        qInfo("%s", line.c_str());
        if (line.rfind("agentic vs campus: $/M output tokens ", 0) == 0) {
            QVERIFY2(line.find("cost per GPU-hour ") != std::string::npos &&
                         line.find("output tokens/s per GPU ") != std::string::npos,
                     line.c_str());
            tokenLine = true;
        }
    }
    QVERIFY(tokenLine);
}

void TestScenarios::compareRejectsBadInputs() {
    const auto& r = m_results.at("vera-rubin-504");
    CTWIN_VERIFY_INPUT_ERROR(cost::compareDesigns({"one"}, {r}, 0), "designs");
    const std::vector<cost::Results> seven(7, r);
    const std::vector<std::string> sevenNames(7, "x");
    CTWIN_VERIFY_INPUT_ERROR(cost::compareDesigns(sevenNames, seven, 0), "got 7");
    CTWIN_VERIFY_INPUT_ERROR(cost::compareDesigns({"a"}, {r, r}, 0), "names");
    CTWIN_VERIFY_INPUT_ERROR(cost::compareDesigns({"a", "b"}, {r, r}, 2), "baseline");
    // Six is allowed.
    QCOMPARE(cost::compareDesigns(std::vector<std::string>(6, "x"), std::vector<cost::Results>(6, r), 5)
                 .rows.size(),
             r.figures.size());
}

// finance.time_to_revenue_days is the assumption delivery_to_revenue_days itself (cost/evaluate.cpp), so its
// bar runs from low 14 to high 90 (swing 76) and every other assumption leaves it at base 30 (swing 0).
void TestScenarios::tornadoTimeToRevenueOnlyMovesWithItsAssumption() {
    const auto& p = design("neocloud-100k-gb200");
    const auto t = cost::tornado(input(p), "finance.time_to_revenue_days");
    QCOMPARE(t.output, std::string("finance.time_to_revenue_days"));
    QCOMPARE(t.base, 30.0);
    // One bar per input the evaluation reads with low < high: the assumptions it uses (not route_factor,
    // with no link, nor goodput, which the training job's reliability model gives) plus the two entity values
    // this design sets with a range: its job's global_batch_tokens and sequence_length (relative ranges of
    // their assumptions).
    size_t ranged = 0;
    for (const auto& in : m_results.at("neocloud-100k-gb200").inputs)
        ranged += in.path.rfind("assumptions.", 0) == 0 && in.used && in.low < in.high;
    QCOMPARE(t.bars.size(), ranged + 2); // + the job's global_batch_tokens and sequence_length
    // The 45 shipped assumptions all have low < high (issue 30 replaced the two hourly climate spreads with
    // climate_hourly_spread_factor and added insurance_rate_of_capex_per_year and
    // property_tax_rate_of_capex_per_year); neocloud reads all but route_factor (no link), goodput (its
    // job's reliability model), mfu_fp4_ratio (an FP8 job), global_batch_tokens and sequence_length (its job
    // sets both); moe_alltoall_overlap (issue 29) counts: its MoE job has the expert figures.
    // gpu_hour_price_usd counts with the GB200 catalog rental range ($2.64-10.50 around $3.60) in place of
    // the shipped default's (InputResolver::derivedDefault). Issues 29 and 30 added four more that neocloud
    // reads: construction_months, facility_downtime_hours_2n (its buildings are 2N; the other three
    // topologies' hours go unread), collective_flows_per_port (its back-end routes by ECMP; the adaptive and
    // spray efficiencies go unread) and pp_p2p_overlap (its job is pipelined); and software_usd_per_gpu_year
    // (issue 30 item 4: base 0, high $4,500). Issue 35 added the two tower-water assumptions,
    // training_compute_power_draw and training_trough_power_draw (its job's ratio without capping and step
    // swing) and grid_curtailment_hours_per_year (at
    // 0 its depth and event length go unread); power_oversubscription_ratio is a decision without a range,
    // and at 1 the capping curve and clock-bound shares go unread. Issue 34 added the time axis's rental
    // price decay, contract term and cohort price change, which the timeline figures read, and the GPUs'
    // purchase price decline (its GB200 catalog curve, 0-0.25 around 0.13, in place of the shipped range).
    // Issue 35 item 4 added the two embodied-carbon assumptions (environment figures read them); the
    // battery's round-trip efficiency goes unread without ride-through.
    QCOMPARE(ranged, size_t(56));
    QCOMPARE(t.bars.front().assumption, std::string("delivery_to_revenue_days"));
    QCOMPARE(t.bars.front().inputLow, 14.0);
    QCOMPARE(t.bars.front().inputHigh, 90.0);
    QCOMPARE(t.bars.front().outputAtLow, 14.0);
    QCOMPARE(t.bars.front().outputAtHigh, 90.0);
    QCOMPARE(t.bars.front().swing, 76.0);
    for (size_t i = 1; i < t.bars.size(); ++i) {
        QCOMPARE(t.bars[i].swing, 0.0);
        QCOMPARE(t.bars[i].outputAtLow, 30.0);
        QVERIFY(t.bars[i].definedAtLow && t.bars[i].definedAtHigh);
    }
    // Zero swings keep the assumptions' key order (the entity values follow them, in read order).
    for (size_t i = 2; i < ranged; ++i)
        QVERIFY(t.bars[i - 1].assumption < t.bars[i].assumption);
}

// Energy per year = sum over buildings of facility power x 8,766 h x tariff; facility power does not depend
// on the price, so E(p) = E(0.07) x p / 0.07: at low 0.04, E x 4/7; at high 0.10, E x 10/7 (relative 1e-9).
// With the site's own tariff (as the reference ships) the assumption is not used: swing 0.
void TestScenarios::tornadoEnergyIsLinearInElectricityPrice() {
    const auto p = withoutSiteTariffs(design("neocloud-100k-gb200"));
    const auto t = cost::tornado(input(p), "finance.energy_annual_usd");
    const double e = figureOf(cost::evaluate(p, m_catalog, m_defaults), "finance.energy_annual_usd");
    CTWIN_COMPARE_REL(t.base, e, 1e-12);
    const cost::TornadoBar* bar = nullptr;
    for (const auto& b : t.bars) {
        if (b.assumption == "electricity_usd_per_kwh") bar = &b;
        QVERIFY(std::isfinite(b.outputAtLow) && std::isfinite(b.outputAtHigh) && std::isfinite(b.swing));
    }
    QVERIFY(bar);
    QCOMPARE(bar->inputLow, 0.04);
    QCOMPARE(bar->inputHigh, 0.10);
    CTWIN_COMPARE_REL(bar->outputAtLow, e * 0.04 / 0.07, 1e-9);
    CTWIN_COMPARE_REL(bar->outputAtHigh, e * 0.10 / 0.07, 1e-9);
    CTWIN_COMPARE_REL(bar->swing, e * 0.06 / 0.07, 1e-9);
    for (size_t i = 1; i < t.bars.size(); ++i)
        QVERIFY(t.bars[i - 1].swing >= t.bars[i].swing);

    // A site's own tariff takes precedence over the assumption: with it set, the price bar does not move.
    auto pinnedDesign = design("neocloud-100k-gb200");
    for (auto& s : pinnedDesign.sites)
        s.electricityUsdPerKwh = 0.055;
    const auto pinned = cost::tornado(input(pinnedDesign), "finance.energy_annual_usd");
    for (const auto& b : pinned.bars)
        if (b.assumption == "electricity_usd_per_kwh") QCOMPARE(b.swing, 0.0);
}

// Every bar equals a plain evaluate() of the same variation (full BOM derivation, one thread), relative
// 1e-12. llama3 overrides oversubscription_limit (its base 7, range 1-7 come from the design); vera-rubin
// without per-link route factors makes route_factor change the WAN route length, so the tool must
// re-derive the BOM for it.
void TestScenarios::tornadoMatchesDirectEvaluation_data() {
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("mustMove");
    QTest::newRow("llama3 $/GPU-h") << "llama3-16k-h100"
                                    << "finance.cost_per_gpu_hour_usd"
                                    << "utilization";
    QTest::newRow("vera-rubin opex") << "vera-rubin-504"
                                     << "finance.opex_annual_usd"
                                     << "route_factor";
}

void TestScenarios::tornadoMatchesDirectEvaluation() {
    QFETCH(QString, reference);
    QFETCH(QString, output);
    QFETCH(QString, mustMove);
    auto p = design(reference.toStdString());
    for (auto& l : p.links)
        l.routeFactor.reset(); // use assumptions.route_factor
    const std::string key = output.toStdString();
    const auto t = cost::tornado(input(p), key);
    CTWIN_COMPARE_REL(t.base, figureOf(cost::evaluate(p, m_catalog, m_defaults), key), 1e-12);
    bool moved = false;
    for (const auto& b : t.bars) {
        CTWIN_COMPARE_REL(b.outputAtLow, figureOf(direct(p, {{b.assumption, b.inputLow}}), key), 1e-12);
        CTWIN_COMPARE_REL(b.outputAtHigh, figureOf(direct(p, {{b.assumption, b.inputHigh}}), key), 1e-12);
        if (b.assumption == mustMove.toStdString()) moved = b.swing > 0;
        if (b.assumption == "oversubscription_limit" && reference == "llama3-16k-h100") {
            QCOMPARE(b.inputLow, 1.0); // the design's range
            QCOMPARE(b.inputHigh, 7.0);
        }
    }
    QVERIFY2(moved, qPrintable(mustMove + " did not move " + output));
}

// llama3 pays back from its operating cash flows within its 5-year horizon at the base price of $2.5 (4.2
// years; payback leaves the terminal value out, issue 30). The design widens the price range down to $0.5,
// where revenue (0.5 x 15,986 GPUs x 8,766 h x 0.9 ~ $63M a year) hardly exceeds opex (~$51M) and the
// cumulative cash flow never turns non-negative: that end is marked undefined and holds the base value.
void TestScenarios::tornadoMarksUndefinedEnds() {
    auto p = design("llama3-16k-h100");
    p.assumptions["gpu_hour_price_usd"] =
        model::Assumption{2.5, 0.5, 4.0, "USD/GPU-hour", "test: wide range", true};
    const auto t = cost::tornado(input(p), "finance.payback_years");
    const cost::TornadoBar* price = nullptr;
    for (const auto& b : t.bars)
        if (b.assumption == "gpu_hour_price_usd") price = &b;
    QVERIFY(price);
    QVERIFY(!direct(p, {{"gpu_hour_price_usd", 0.5}}).finance.paybackYears.has_value());
    QVERIFY(!price->definedAtLow);
    QCOMPARE(price->outputAtLow, t.base);
    QVERIFY(price->definedAtHigh);
    CTWIN_COMPARE_REL(price->outputAtHigh, *direct(p, {{"gpu_hour_price_usd", 4.0}}).finance.paybackYears,
                      1e-12);
}

void TestScenarios::tornadoRejectsBadOutputs() {
    const auto& p = design("vera-rubin-504");
    CTWIN_VERIFY_INPUT_ERROR(cost::tornado(input(p), "finance.nonsense"), "finance.nonsense");
    CTWIN_VERIFY_INPUT_ERROR(cost::tornado(input(design("llama3-16k-h100")), "inference.joules_per_token"),
                             "no such figure");
}

// Energy cost is linear in the price (see the tornado test): over 0.04..0.10 in 7 steps the slope between
// any two points is the facility energy per year in kWh (USD per USD/kWh), relative 1e-9; cost per GPU-hour
// is TCO (linear in energy) over fixed GPU-hours, so its second differences vanish (1e-9 of the value).
void TestScenarios::sweepElectricityIsAStraightLine() {
    const auto p = withoutSiteTariffs(design("neocloud-100k-gb200"));
    const cost::SweepAxis axis{"assumptions.electricity_usd_per_kwh", 0.04, 0.10, 7};
    std::vector<double> fractions;
    std::vector<std::thread::id> threads;
    const auto s =
        cost::sweep(input(p), {axis}, {"finance.energy_annual_usd", "finance.cost_per_gpu_hour_usd"},
                    [&](double f) { fractions.push_back(f), threads.push_back(std::this_thread::get_id()); });
    QVERIFY(!s.cancelled);
    QCOMPARE(s.values.size(), size_t(2));
    QCOMPARE(s.values[0].size(), size_t(7));
    for (const auto& d : s.defined)
        QCOMPARE(d, std::vector<bool>(7, true));
    const double kwh = units::toKwh(cost::evaluate(p, m_catalog, m_defaults).finance.facilityEnergyAnnual);
    const auto& e = s.values[0];
    for (int i = 1; i < 7; ++i)
        CTWIN_COMPARE_REL((e[i] - e[0]) / (axis.value(i) - axis.value(0)), kwh, 1e-9);
    CTWIN_COMPARE_REL(e[0], kwh * 0.04, 1e-9);
    CTWIN_COMPARE_REL(e[6], kwh * 0.10, 1e-9);
    const auto& c = s.values[1];
    for (int i = 1; i + 1 < 7; ++i)
        CTWIN_COMPARE_ABS(c[i + 1] - 2 * c[i] + c[i - 1], 0.0, 1e-9 * c[i]);
    QVERIFY(c[6] > c[0]);
    // Progress: from the calling thread, non-decreasing, in [0, 1], ending at 1.
    QVERIFY(!fractions.empty());
    for (size_t i = 0; i < fractions.size(); ++i) {
        QVERIFY(fractions[i] >= 0 && fractions[i] <= 1);
        if (i) QVERIFY(fractions[i] >= fractions[i - 1]);
        QVERIFY(threads[i] == std::this_thread::get_id());
    }
    QCOMPARE(fractions.back(), 1.0);
}

// values[k][i0 x steps1 + i1] is the design at (axis0 value i0, axis1 value i1): each point equals a plain
// evaluate() with both assumptions set (relative 1e-12).
void TestScenarios::sweepGridIsRowMajorAndMatchesDirectEvaluation() {
    const auto p = withoutSiteTariffs(design("vera-rubin-504"));
    const std::vector<cost::SweepAxis> axes = {{"assumptions.electricity_usd_per_kwh", 0.04, 0.10, 3},
                                               {"assumptions.utilization", 0.6, 0.9, 4}};
    const std::vector<std::string> outputs = {"finance.cost_per_gpu_hour_usd", "power.it_mw"};
    const auto s = cost::sweep(input(p), axes, outputs);
    QCOMPARE(s.values[0].size(), size_t(12));
    QCOMPARE(axes[1].value(3), 0.9); // last step exactly high
    for (int i0 = 0; i0 < 3; ++i0)
        for (int i1 = 0; i1 < 4; ++i1) {
            const auto r = direct(
                p, {{"electricity_usd_per_kwh", axes[0].value(i0)}, {"utilization", axes[1].value(i1)}});
            for (size_t k = 0; k < outputs.size(); ++k) {
                CTWIN_COMPARE_REL(s.values[k][static_cast<size_t>(i0 * 4 + i1)], figureOf(r, outputs[k]),
                                  1e-12);
                QVERIFY(s.defined[k][static_cast<size_t>(i0 * 4 + i1)]);
            }
        }
    // A BOM assumption on one axis: the tool derives one BOM per step of that axis.
    auto q = p;
    for (auto& l : q.links)
        l.routeFactor.reset();
    const auto w = cost::sweep(input(q), {{"assumptions.route_factor", 1.2, 1.5, 2}, axes[1]},
                               {"finance.opex_annual_usd"});
    for (int i0 = 0; i0 < 2; ++i0)
        for (int i1 = 0; i1 < 4; ++i1)
            CTWIN_COMPARE_REL(
                w.values[0][static_cast<size_t>(i0 * 4 + i1)],
                figureOf(direct(q, {{"route_factor", i0 ? 1.5 : 1.2}, {"utilization", axes[1].value(i1)}}),
                         "finance.opex_annual_usd"),
                1e-12);
    QVERIFY(w.values[0][4] > w.values[0][0]); // longer routes, dearer fiber leases
}

// At a GPU-hour price of 0 there is no revenue and the cumulative cash flow never turns non-negative: payback
// does not exist and that point is marked undefined (value 0); at $10 and $20/GPU-h it is defined and
// shorter at the higher price. (IRR, the figure used before issue 19, now exists even at price 0: the
// terminal value makes the flows change sign.)
void TestScenarios::sweepMarksUndefinedFigures() {
    const auto s = cost::sweep(input(design("llama3-16k-h100")),
                               {{"assumptions.gpu_hour_price_usd", 0, 20, 3}}, {"finance.payback_years"});
    QCOMPARE(s.defined[0], (std::vector<bool>{false, true, true}));
    QCOMPARE(s.values[0][0], 0.0);
    QVERIFY(s.values[0][2] < s.values[0][1]);
}

// Cancelling from the progress callback after the first 2% stops the sweep well before its 2,500 points
// (each thread finishes the evaluation it is in); a flag set beforehand evaluates nothing. Progress is
// reported by the calling thread only, so a helper thread may run on while the caller is descheduled: the
// upper bound leaves room for that (a loaded 2-core machine ran 260 points past a 400-point sweep's 10%)
// and still fails a sweep that ignores the flag.
void TestScenarios::sweepCancelStopsEarly() {
    const auto p = design("llama3-16k-h100");
    const std::vector<cost::SweepAxis> axes = {{"assumptions.electricity_usd_per_kwh", 0.04, 0.10, 50},
                                               {"assumptions.utilization", 0.6, 0.95, 50}};
    std::atomic<bool> cancel{false};
    double last = 0;
    const auto s = cost::sweep(
        input(p), axes, {"finance.cost_per_gpu_hour_usd"},
        [&](double f) {
            last = f;
            if (f >= 0.02) cancel = true;
        },
        &cancel);
    QVERIFY(s.cancelled);
    const auto evaluated = std::count(s.defined[0].begin(), s.defined[0].end(), true);
    QVERIFY2(evaluated >= 50 && evaluated < 1250, qPrintable(QString::number(evaluated)));
    QVERIFY(last < 1.0);
    for (size_t i = 0; i < s.values[0].size(); ++i)
        if (!s.defined[0][i]) QCOMPARE(s.values[0][i], 0.0);

    std::atomic<bool> already{true};
    const auto none = cost::sweep(input(p), axes, {"finance.cost_per_gpu_hour_usd"}, {}, &already);
    QVERIFY(none.cancelled);
    QCOMPARE(std::count(none.defined[0].begin(), none.defined[0].end(), true), 0);
}

void TestScenarios::sweepRejectsBadInputs() {
    const auto in = input(design("llama3-16k-h100"));
    const std::vector<std::string> out = {"finance.cost_per_gpu_hour_usd"};
    using Axis = cost::SweepAxis;
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"assumptions.nope", 0, 1, 3}}, out), "assumptions.nope");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"electricity_usd_per_kwh", 0, 1, 3}}, out),
                             "electricity_usd_per_kwh");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"assumptions.wacc", 0.12, 0.07, 3}}, out),
                             "assumptions.wacc");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"assumptions.wacc", 0.12, 0.07, 3}}, out), "above high");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"assumptions.wacc", 0.07, 0.12, 0}}, out), "steps");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {Axis{"assumptions.wacc", 0.07, 0.12, 1001}}, out), "steps");
    CTWIN_VERIFY_INPUT_ERROR(
        cost::sweep(in, {Axis{"assumptions.wacc", 0.07, 0.12, 1}, Axis{"assumptions.wacc", 0.07, 0.12, 2}},
                    out),
        "both axes");
    const Axis w{"assumptions.wacc", 0.07, 0.12, 2};
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {w, w, w}, out), "axes");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {}, out), "axes");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {w}, {"finance.bogus_usd"}), "finance.bogus_usd");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {w}, {"inference.cost_per_million_output_tokens_usd"}),
                             "no such figure");
    CTWIN_VERIFY_INPUT_ERROR(cost::sweep(in, {w}, {}), "outputs");
    // One step is a single point at low.
    const auto one = cost::sweep(in, {Axis{"assumptions.wacc", 0.07, 0.12, 1}}, out);
    CTWIN_COMPARE_REL(
        one.values[0][0],
        figureOf(direct(design("llama3-16k-h100"), {{"wacc", 0.07}}), "finance.cost_per_gpu_hour_usd"),
        1e-12);
}

// finance.time_to_revenue_days is delivery_to_revenue_days, drawn from triangular(a = 14, c = 30, b = 90).
// Its quantiles (F(c) = 16/76 = 0.2105): P10 = a + sqrt(0.1 (b-a)(c-a)) = 14 + sqrt(121.6) = 25.0272;
// P50 = b - sqrt(0.5 (b-a)(b-c)) = 90 - sqrt(2280) = 42.2508; P90 = b - sqrt(0.1 (b-a)(b-c)) = 90 - sqrt(456)
// = 68.6459; mean (a+b+c)/3 = 44.6667. With 20,000 samples the sampling s.d. is sqrt(p(1-p)/n)/f(x_p):
// P10 0.117, P50 0.169, P90 0.227, mean sigma/sqrt(n) = 16.36/141.4 = 0.116; tolerances are ~4 s.d.
void TestScenarios::uncertaintyMatchesTriangularQuantiles() {
    const auto r =
        cost::uncertainty(input(design("vera-rubin-504")), {"finance.time_to_revenue_days"}, 20000, 7);
    const auto& p = r.at("finance.time_to_revenue_days");
    qInfo("time to revenue: P10 %.4f P50 %.4f P90 %.4f mean %.4f", p.p10, p.p50, p.p90, p.mean);
    QCOMPARE(p.count, 20000);
    CTWIN_COMPARE_ABS(p.p10, 14 + std::sqrt(121.6), 0.5);
    CTWIN_COMPARE_ABS(p.p50, 90 - std::sqrt(2280.0), 0.7);
    CTWIN_COMPARE_ABS(p.p90, 90 - std::sqrt(456.0), 0.9);
    CTWIN_COMPARE_ABS(p.mean, (14 + 30 + 90) / 3.0, 0.5);
}

void TestScenarios::uncertaintyIsOrderedAndDeterministic() {
    const auto in = input(design("neocloud-100k-gb200"));
    const std::vector<std::string> out = {"finance.cost_per_gpu_hour_usd", "finance.energy_annual_usd",
                                          "training.cost_per_million_tokens_usd", "finance.irr"};
    const auto a = cost::uncertainty(in, out, 200, 42);
    const auto b = cost::uncertainty(in, out, 200, 42);
    const auto c = cost::uncertainty(in, out, 200, 43);
    QCOMPARE(a.size(), out.size());
    for (const auto& key : out) {
        const auto& x = a.at(key);
        qInfo("%s: P10 %.6g P50 %.6g P90 %.6g mean %.6g (%d)", key.c_str(), x.p10, x.p50, x.p90, x.mean,
              x.count);
        QVERIFY(std::isfinite(x.p10) && std::isfinite(x.p50) && std::isfinite(x.p90) &&
                std::isfinite(x.mean));
        QVERIFY(x.p10 <= x.p50 && x.p50 <= x.p90);
        QVERIFY(x.p10 < x.p90);         // the assumptions do move these figures
        QCOMPARE(b.at(key).p10, x.p10); // identical, not merely close
        QCOMPARE(b.at(key).p50, x.p50);
        QCOMPARE(b.at(key).p90, x.p90);
        QCOMPARE(b.at(key).mean, x.mean);
        QVERIFY(c.at(key).p50 != x.p50);
    }
    QCOMPARE(a.at("finance.cost_per_gpu_hour_usd").count, 200);
    // One sample: every percentile is that sample.
    const auto one =
        cost::uncertainty(in, {"finance.cost_per_gpu_hour_usd"}, 1, 1).at("finance.cost_per_gpu_hour_usd");
    QCOMPARE(one.p10, one.p90);
    QCOMPARE(one.mean, one.p50);
    // A run cancelled before it starts returns nothing (the dashboard then waits for the next run).
    const std::atomic<bool> stop{true};
    QVERIFY(cost::uncertainty(in, out, 200, 42, &stop).empty());
    const std::atomic<bool> go{false};
    QCOMPARE(cost::uncertainty(in, out, 200, 42, &go).at("finance.cost_per_gpu_hour_usd").p50,
             a.at("finance.cost_per_gpu_hour_usd").p50);
}

void TestScenarios::headlineOutputsFollowTheWorkloads() {
    // Training-only reference: $/GPU-hour, TCO and $/M training tokens; no inference figure.
    const auto training = cost::headlineOutputs(m_results.at("llama3-16k-h100"));
    QCOMPARE(training, (std::vector<std::string>{"finance.cost_per_gpu_hour_usd", "finance.tco_annual_usd",
                                                 "training.cost_per_million_tokens_usd"}));
    const auto serving = cost::headlineOutputs(m_results.at("agentic-inference-gb300"));
    QCOMPARE(serving, (std::vector<std::string>{"finance.cost_per_gpu_hour_usd", "finance.tco_annual_usd",
                                                "inference.cost_per_million_output_tokens_usd"}));
}

void TestScenarios::uncertaintyRejectsBadInputs() {
    const auto in = input(design("vera-rubin-504"));
    CTWIN_VERIFY_INPUT_ERROR(cost::uncertainty(in, {"power.pue"}, 0, 1), "samples");
    CTWIN_VERIFY_INPUT_ERROR(cost::uncertainty(in, {"power.pue"}, 100001, 1), "samples");
    CTWIN_VERIFY_INPUT_ERROR(cost::uncertainty(in, {"power.puee"}, 10, 1), "power.puee");
    CTWIN_VERIFY_INPUT_ERROR(
        cost::uncertainty(input(design("llama3-16k-h100")), {"inference.joules_per_token"}, 10, 1),
        "no such figure");
}

QTEST_APPLESS_MAIN(TestScenarios)
#include "test_scenarios.moc"
