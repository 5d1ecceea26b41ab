// Power-chain redundancy topology (cost/power_chain.h, issue 13 item 2) and the two IT power definitions
// (issue 13 item 6). Unit counts and $/W are worked by hand on a small catalog of round figures; the shipped
// references are checked for the properties the issue asks for (an A/B design buys one N+1 generator plant,
// not two; total IT = compute + network + storage + WAN).
#include "../test_compare.h"
#include "../test_support.h"
#include "compiled_design.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"
#include "power_chain.h"
#include "results_json.h"

#include <QtTest>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

using namespace ctwin;
using ojson = nlohmann::ordered_json;

namespace {

model::CatalogItem item(std::string id, std::string category, std::string kind,
                        std::initializer_list<std::pair<const char*, double>> values,
                        std::map<std::string, std::string> attributes = {}) {
    model::CatalogItem it;
    it.id = std::move(id), it.name = it.id, it.category = std::move(category), it.kind = std::move(kind);
    it.attributes = std::move(attributes);
    for (const auto& [k, v] : values)
        it.values[k] = model::CatalogValue{v, v, v, "test catalog", false};
    return it;
}

/// The shipped chain's efficiencies and $/W, module ratings 3 MW (transformer, switchgear, genset) and
/// 1.5 MW (UPS); a 1 MW rack so rack power weights are round.
const model::Catalog& testCatalog() {
    static const model::Catalog c({
        item("x", "power", "transformer",
             {{"efficiency", 0.99}, {"capex_usd_per_w", 0.3}, {"module_w", 3e6}}),
        item("s", "power", "switchgear",
             {{"efficiency", 0.998}, {"capex_usd_per_w", 0.45}, {"module_w", 3e6}}),
        item("u", "power", "ups", {{"efficiency", 0.96}, {"capex_usd_per_w", 0.75}, {"module_w", 1.5e6}}),
        item("b", "power", "busway", {{"efficiency", 0.995}, {"capex_usd_per_w", 0.2}}),
        item("g", "power", "generator", {{"efficiency", 1.0}, {"capex_usd_per_w", 0.7}, {"module_w", 3e6}}),
        item("t-rack", "racks", "compute",
             {{"gpus", 8},
              {"cpus", 2},
              {"servers", 1},
              {"backend_nics", 8},
              {"backend_nic_bit_per_s", 4e11},
              {"frontend_nics", 1},
              {"frontend_nic_bit_per_s", 1e11},
              {"scale_up_domain_gpus", 8},
              {"power_load_w", 1e6},
              {"power_idle_w", 2e5},
              {"liquid_fraction", 0},
              {"price_usd", 300000},
              {"scale_up_network_price_usd", 0},
              {"weight_kg", 1000},
              {"width_m", 0.6},
              {"depth_m", 1.2},
              {"psus", 4},
              {"useful_life_years", 5}}),
    });
    return c;
}

/// Building b1 with feeds A and B of 10 MW each (chain transformer, generator, switchgear, UPS, busway) and a
/// rack taking A and B; facility peak given as 12 MW.
model::Project abDesign(const std::string& topology) {
    model::Project p;
    model::Building b;
    b.id = "b1", b.name = "B1", b.powerTopology = topology;
    p.buildings.push_back(b);
    for (const char* id : {"fa", "fb"}) {
        model::PowerFeed f;
        f.id = id, f.name = id, f.building = "b1", f.capacity = 10e6 * units::watt;
        f.chain = {"x", "g", "s", "u", "b"};
        p.powerFeeds.push_back(f);
    }
    model::DataHall h;
    h.id = "h", h.building = "b1";
    p.halls.push_back(h);
    model::Row row;
    row.id = "row", row.hall = "h";
    p.rows.push_back(row);
    model::RackPlacement r;
    r.id = "r1", r.row = "row", r.rackType = "t-rack", r.feedA = "fa", r.feedB = "fb";
    p.racks.push_back(r);
    return p;
}

double unitsOf(const cost::BuildingPowerChain& c, const char* cls) {
    const auto* l = c.line(cls);
    return l ? l->units : -1;
}

ojson readJson(const std::string& path) {
    std::ifstream in(path);
    return ojson::parse(in);
}

} // namespace

class TestPowerChain : public QObject {
    Q_OBJECT
private slots:
    void topologyUnitsByHand() {
        // L = 10 MW on 1.5 MW modules: N = ceil(6.67) = 7; N+1 = 8; 2N = 14;
        // 3/2: three systems of L/2 = 5 MW -> ceil(3.33) = 4 each -> 12; 4/3: four of 3.33 MW -> 3 each
        // -> 12.
        QCOMPARE(cost::topologyUnits("N", 10e6, 1.5e6), 7.0);
        QCOMPARE(cost::topologyUnits("N+1", 10e6, 1.5e6), 8.0);
        QCOMPARE(cost::topologyUnits("2N", 10e6, 1.5e6), 14.0);
        QCOMPARE(cost::topologyUnits("3/2", 10e6, 1.5e6), 12.0);
        QCOMPARE(cost::topologyUnits("4/3", 10e6, 1.5e6), 12.0);
        // Exactly 2 modules of load needs 2, not 3; 3/2 of 3 MW on 1.5 MW: 3 x ceil(1.5/1.5) = 3.
        QCOMPARE(cost::topologyUnits("N", 3e6, 1.5e6), 2.0);
        QCOMPARE(cost::topologyUnits("3/2", 3e6, 1.5e6), 3.0);
        QCOMPARE(cost::topologyUnits("2N", 0.0, 1.5e6), 0.0);
        QCOMPARE(cost::topologyPaths("N+1"), 1);
        QCOMPARE(cost::topologyPaths("3/2"), 2);
    }

    void eachTopologyCountsAndDollarsPerWatt_data() {
        QTest::addColumn<QString>("topology");
        QTest::addColumn<double>("xfmr");
        QTest::addColumn<double>("ups");
        QTest::addColumn<double>("gens");
        QTest::addColumn<double>("costUsd");
        // Critical load L = 10 MW (IT + pumps, given); facility peak F = 12 MW.
        // Transformers / switchgear carry the facility: on 3 MW, n = ceil(12/3) = 4. UPS on 1.5 MW: n = 7.
        // Generators: ceil(12/3) = 4, + 1 (N+1) = 5 unless the topology is N.
        // Busway: 2 runs (one per feed), 20 MW x $0.2 = $4.0M in every topology.
        // Cost = units x rating x $/W per class:
        //  N:   4x3x0.3 + 4x3x0.45 + 7x1.5x0.75 + 4x3x0.7 + 4.0 = 3.6 + 5.4 + 7.875 + 8.4 + 4.0  = 29.275 M
        //  N+1: 5x3x0.3 + 5x3x0.45 + 8x1.5x0.75 + 5x3x0.7 + 4.0 = 4.5 + 6.75 + 9.0 + 10.5 + 4.0 = 34.75 M
        //  2N:  8x3x0.3 + 8x3x0.45 + 14x1.5x0.75 + 10.5 + 4.0   = 7.2 + 10.8 + 15.75 + 10.5 + 4  = 48.25 M
        //  3/2: transformers 3 x ceil(6/3) = 6, UPS 3 x ceil(5/1.5) = 12:
        //       6x3x0.3 + 6x3x0.45 + 12x1.5x0.75 + 10.5 + 4.0 = 5.4 + 8.1 + 13.5 + 10.5 + 4.0   = 41.5 M
        //  4/3: transformers 4 x ceil(4/3) = 8, UPS 4 x ceil(3.33/1.5) = 12:
        //       8x3x0.3 + 8x3x0.45 + 12x1.5x0.75 + 10.5 + 4.0 = 7.2 + 10.8 + 13.5 + 10.5 + 4.0  = 46.0 M
        QTest::newRow("N") << "N" << 4.0 << 7.0 << 4.0 << 29.275e6;
        QTest::newRow("N+1") << "N+1" << 5.0 << 8.0 << 5.0 << 34.75e6;
        QTest::newRow("2N") << "2N" << 8.0 << 14.0 << 5.0 << 48.25e6;
        QTest::newRow("3/2") << "3/2" << 6.0 << 12.0 << 5.0 << 41.5e6;
        QTest::newRow("4/3") << "4/3" << 8.0 << 12.0 << 5.0 << 46.0e6;
    }
    void eachTopologyCountsAndDollarsPerWatt() {
        QFETCH(QString, topology);
        QFETCH(double, xfmr);
        QFETCH(double, ups);
        QFETCH(double, gens);
        QFETCH(double, costUsd);
        const auto p = abDesign(topology.toStdString());
        const auto c =
            cost::sizePowerChain(p, testCatalog(), p.buildings[0], 10e6 * units::watt, 12e6 * units::watt);
        QCOMPARE(c.topology, topology.toStdString());
        CTWIN_COMPARE_REL(c.criticalLoad.value(), 10e6, 1e-12);
        QCOMPARE(unitsOf(c, "transformer"), xfmr);
        QCOMPARE(unitsOf(c, "switchgear"), xfmr); // same 3 MW rating, same rule
        QCOMPARE(unitsOf(c, "ups"), ups);
        QCOMPARE(unitsOf(c, "generator"), gens);
        QCOMPARE(unitsOf(c, "busway"), 2.0);
        QCOMPARE(c.line("ups")->unitsForLoad, 7.0);
        QCOMPARE(c.line("generator")->unitsForLoad, 4.0);
        CTWIN_COMPARE_REL(c.cost.value(), costUsd, 1e-12);
        // $/W of critical load, e.g. 2N: 48.25 M / 10 MW = $4.825/W.
        CTWIN_COMPARE_REL(c.cost.value() / c.criticalLoad.value(), costUsd / 10e6, 1e-12);
        // The chain lists its classes in the feeds' order.
        QCOMPARE(c.lines.front().componentClass, std::string("transformer"));
        QCOMPARE(c.lines[1].componentClass, std::string("generator"));
    }

    void transformersCarryTheFacilityUpsTheCriticalLoad() {
        // Critical 6 MW, facility 9 MW, 2N: UPS 2 x ceil(6/1.5) = 8; transformers and switchgear on the
        // facility: 2 x ceil(9/3) = 6 (on the critical load alone it would be 4: the plant rides on them
        // too).
        const auto p = abDesign("2N");
        const auto c =
            cost::sizePowerChain(p, testCatalog(), p.buildings[0], 6e6 * units::watt, 9e6 * units::watt);
        CTWIN_COMPARE_REL(c.criticalLoad.value(), 6e6, 1e-12);
        QCOMPARE(unitsOf(c, "ups"), 8.0);
        QCOMPARE(unitsOf(c, "transformer"), 6.0);
        QCOMPARE(unitsOf(c, "switchgear"), 6.0);
        CTWIN_COMPARE_REL(c.line("transformer")->sizedOn.value(), 9e6, 1e-12);
        CTWIN_COMPARE_REL(c.line("ups")->sizedOn.value(), 6e6, 1e-12);
        QVERIFY(c.line("transformer")->upstream && c.line("switchgear")->upstream &&
                !c.line("ups")->upstream);
        // Busway: two runs at the feeds' 10 + 10 MW, $4.0M.
        CTWIN_COMPARE_REL(c.line("busway")->installed.value(), 20e6, 1e-12);
        CTWIN_COMPARE_REL(c.line("busway")->cost.value(), 4.0e6, 1e-12);
    }

    void smallBuildingsBuySmallUnits() {
        // Critical 0.2 MW, facility 0.3 MW: units are capped at the system's load, so 2N buys two 0.3 MW
        // transformers ($0.3/W x 0.6 MW = $180k), not two 3 MW ones ($1.8M); UPS 2 x 0.2 MW; generators
        // ceil(0.3/0.3) + 1 = 2 of 0.3 MW. 3/2: three systems of 0.1 MW: 3 UPS of 0.1 MW.
        auto p = abDesign("2N");
        for (auto& f : p.powerFeeds)
            f.capacity = 0.2e6 * units::watt;
        auto c =
            cost::sizePowerChain(p, testCatalog(), p.buildings[0], 0.2e6 * units::watt, 0.3e6 * units::watt);
        QCOMPARE(unitsOf(c, "transformer"), 2.0);
        CTWIN_COMPARE_REL(c.line("transformer")->installed.value(), 0.6e6, 1e-12);
        CTWIN_COMPARE_REL(c.line("transformer")->cost.value(), 180e3, 1e-12);
        QCOMPARE(unitsOf(c, "ups"), 2.0);
        QCOMPARE(unitsOf(c, "generator"), 2.0);
        CTWIN_COMPARE_REL(c.line("generator")->installed.value(), 0.6e6, 1e-12);
        p.buildings[0].powerTopology = "3/2";
        c = cost::sizePowerChain(p, testCatalog(), p.buildings[0], 0.2e6 * units::watt, 0.3e6 * units::watt);
        QCOMPARE(unitsOf(c, "ups"), 3.0);
        CTWIN_COMPARE_REL(c.line("ups")->installed.value(), 0.3e6, 1e-12);
    }

    void lossesFollowTheRacksPaths() {
        // Feed A: transformer, switchgear, UPS, busway: eta_A = 0.99 x 0.998 x 0.96 x 0.995 = 0.943756704.
        // Feed B without UPS: eta_B = 0.99 x 0.998 x 0.995 = 0.9830799.
        auto p = abDesign("2N");
        p.powerFeeds[0].chain = {"x", "s", "u", "b"};
        p.powerFeeds[1].chain = {"x", "s", "b"};
        // Dual-corded: half through each: eta = 1 / (0.5/eta_A + 0.5/eta_B) = 0.963017045.
        CTWIN_COMPARE_REL(cost::pathEfficiency(p, testCatalog(), "b1"), 0.963017045, 1e-8);
        // Plus a single-corded rack of the same power on A: eta = 2 / (0.5/eta_A + 0.5/eta_B + 1/eta_A)
        // = 0.9532896.
        auto single = p.racks[0];
        single.id = "r2", single.feedB.clear();
        p.racks.push_back(single);
        CTWIN_COMPARE_REL(cost::pathEfficiency(p, testCatalog(), "b1"), 0.9532896, 1e-8);
        // The generator is standby, not in the path: adding it changes nothing (efficiency 1 anyway, and
        // the chain product is what the path sees).
        p.powerFeeds[0].chain = {"x", "g", "s", "u", "b"};
        CTWIN_COMPARE_REL(cost::pathEfficiency(p, testCatalog(), "b1"), 0.9532896, 1e-8);
    }

    void buildingWithoutFeedsTakesTheDefaultChain() {
        // No feeds: the shipped default chain (xfmr-mv, switchgear-lv, ups-static, busway-row), L = peak IT.
        model::Project p;
        model::Building b;
        b.id = "b1", b.powerTopology = "N+1";
        p.buildings.push_back(b);
        const auto& cat = test_support::catalog();
        const auto c = cost::sizePowerChain(p, cat, b, 4.5e6 * units::watt, 6e6 * units::watt);
        // UPS 1.5 MW modules: ceil(4.5/1.5) = 3, + 1 = 4. No generator in the default chain.
        QCOMPARE(unitsOf(c, "ups"), 4.0);
        QCOMPARE(unitsOf(c, "generator"), -1.0);
        // Busway: N+1 is one path: 1 run at 4.5 MW.
        QCOMPARE(unitsOf(c, "busway"), 1.0);
        CTWIN_COMPARE_REL(c.line("busway")->installed.value(), 4.5e6, 1e-12);
    }

    /// The three-term loss model (Schneider WP 113) worked by hand: a 2N UPS of 2 x 1.5 MW carrying 1.2 MW.
    void partLoadLossesByHand() {
        cost::PowerChainLine ups;
        ups.componentClass = "ups";
        ups.installed = 3e6 * units::watt;
        ups.fullLoadLoss = 1.0 / 0.96 - 1.0; // 0.0416667
        ups.noLoadLoss = 0.006, ups.squareLawLoss = 0.01;
        // x = 0.4: 3 MW x (0.006 + 0.0256667 x 0.4 + 0.01 x 0.16) = 3 MW x 0.0178667 = 53,600 W.
        CTWIN_COMPARE_REL(cost::classLossW(ups, 1.2e6), 53600.0, 1e-9);
        // Full load of the installed rating: the catalog efficiency, 3 MW x 0.0416667 = 125,000 W.
        CTWIN_COMPARE_REL(cost::classLossW(ups, 3e6), 125000.0, 1e-9);
        QCOMPARE(cost::classLossW(ups, 0.0), 0.0);
        // Its part-load correction against the full-load loss (l P = 50,000 W) is P (1 - x)(f0/x - f2) =
        // 1.2 MW x 0.6 x (0.015 - 0.01) = 3,600 W; chainLosses of a chain of this UPS alone, IT 1.2 MW, path
        // efficiency 0.96, no other load: IT path 50,000 W + correction 3,600 W.
        cost::BuildingPowerChain chain;
        chain.lines.push_back(ups);
        const auto l = cost::chainLosses(chain, 1.2e6, 0.96, 0.0, 0.0);
        CTWIN_COMPARE_REL(l.itPathW, 50000.0, 1e-9);
        CTWIN_COMPARE_REL(l.partLoadW, 3600.0, 1e-9);
        QCOMPARE(l.nonItW, 0.0);
        // Upstream transformer (eta 0.99, no-load 0.002, square-law 0.008) of 3 MW installed: 0.5 MW of plant
        // and misc passes it at its full-load loss, 0.5 MW x 0.0101010 = 5,050.5 W; pumps 0.1 MW add the
        // UPS's 0.1 MW x 0.0416667 = 4,166.7 W. The transformer carries IT + nonIt + the losses below it:
        // 1.2 + 0.5 + 0.05 + 0.0092172 = 1.7592172 MW, x = 0.5864057: correction
        // P (1 - x)(0.002/x - 0.008) = 1.7592172e6 x 0.4135943 x (0.0034106 - 0.008) = -3,340.0 W.
        cost::PowerChainLine xfmr;
        xfmr.componentClass = "transformer", xfmr.upstream = true;
        xfmr.installed = 3e6 * units::watt;
        xfmr.fullLoadLoss = 1.0 / 0.99 - 1.0;
        xfmr.noLoadLoss = 0.002, xfmr.squareLawLoss = 0.008;
        chain.lines.insert(chain.lines.begin(), xfmr);
        const auto m = cost::chainLosses(chain, 1.2e6, 0.96, 0.1e6, 0.5e6);
        CTWIN_COMPARE_REL(m.nonItW, 0.5e6 * (1.0 / 0.99 - 1.0) + 0.1e6 * (1.0 / 0.96 - 1.0), 1e-9);
        const double through = 1.2e6 + 0.5e6 + 50000.0 + m.nonItW, x = through / 3e6;
        const double upsThrough = 1.3e6, xu = upsThrough / 3e6;
        CTWIN_COMPARE_REL(
            m.partLoadW,
            through * (1 - x) * (0.002 / x - 0.008) + upsThrough * (1 - xu) * (0.006 / xu - 0.01), 1e-9);
        CTWIN_COMPARE_REL(through * (1 - x) * (0.002 / x - 0.008), -3340.0, 2e-3);
        // Without loss fractions (constant efficiency) the correction vanishes.
        for (auto& line : chain.lines)
            line.noLoadLoss = line.squareLawLoss = 0;
        QVERIFY(std::abs(cost::chainLosses(chain, 1.2e6, 0.96, 0.1e6, 0.5e6).partLoadW) < 1e-6);
    }

    /// Feed labels do not size the gear (issue 30 item 1): the same racks on feed A only, or on A and B,
    /// buy the same chain; the single-corded racks draw a rule in a 2N building.
    void feedLabelsDoNotSizeTheGear() {
        auto p = test_support::reference("two-site-wan");
        const auto base = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        for (auto& r : p.racks)
            r.feedB.clear();
        const auto onlyA = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        CTWIN_COMPARE_REL(onlyA.capex.byCategory.at("power").value(),
                          base.capex.byCategory.at("power").value(), 1e-12);
        const bool single = std::any_of(onlyA.rules.begin(), onlyA.rules.end(), [](const auto& r) {
            return r.rule == "racks_single_corded" && r.entity == "wi-b1";
        });
        QVERIFY(single);
        QVERIFY(std::none_of(base.rules.begin(), base.rules.end(),
                             [](const auto& r) { return r.rule == "racks_single_corded"; }));
    }

    /// A data hall with a rated critical IT power (issue 30 item 1): its racks at full load over it are an
    /// Error naming the hall and power_capacity_w, above 80 % a Warning, unrated no rule. Hand check on
    /// two-site-wan's first hall: its racks' peak is the sum over its racks of power_load_w (sellable) and
    /// power_idle_w (hot spares), from the catalog rack type.
    void hallOverloadRules() {
        auto p = test_support::reference("two-site-wan");
        const auto& hall = p.halls.front();
        double load = 0;
        int racks = 0;
        std::map<std::string, std::string> rowHall;
        for (const auto& row : p.rows)
            rowHall[row.id] = row.hall;
        for (const auto& r : p.racks) {
            if (rowHall[r.row] != hall.id) continue;
            const auto* t = test_support::catalog().find(r.rackType);
            QVERIFY(t);
            load += r.spare ? t->value("power_idle_w") : t->value("power_load_w");
            ++racks;
        }
        QVERIFY(racks > 0 && load > 0);
        auto rule = [&](const cost::Results& r, const std::string& name) {
            return std::find_if(r.rules.begin(), r.rules.end(),
                                [&](const auto& x) { return x.rule == name && x.entity == hall.id; });
        };
        const auto unrated = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(rule(unrated, "hall_over_rating") == unrated.rules.end());
        QVERIFY(rule(unrated, "hall_above_continuous_rating") == unrated.rules.end());
        p.halls.front().powerCapacity = 0.5 * load * units::watt;
        auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        auto it = rule(r, "hall_over_rating");
        QVERIFY(it != r.rules.end());
        QCOMPARE(it->severity, cost::Severity::Error);
        QVERIFY2(it->message.find("power_capacity_w") != std::string::npos, it->message.c_str());
        // The message states the load by hand: load / 1e6 MW to two decimals.
        char mw[32];
        std::snprintf(mw, sizeof mw, "%.2f MW", load / 1e6);
        QVERIFY2(it->message.find(mw) != std::string::npos, (it->message + " lacks " + mw).c_str());
        p.halls.front().powerCapacity = 1.1 * load * units::watt; // 91 %
        r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(rule(r, "hall_over_rating") == r.rules.end());
        it = rule(r, "hall_above_continuous_rating");
        QVERIFY(it != r.rules.end());
        QCOMPARE(it->severity, cost::Severity::Warning);
        p.halls.front().powerCapacity = 2.0 * load * units::watt; // 50 %
        r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(rule(r, "hall_above_continuous_rating") == r.rules.end());
    }

    /// A feed over its rating is an Error naming the feed and capacity_w; above 80 % a Warning (NEC).
    void feedOverloadRules() {
        auto p = test_support::reference("two-site-wan");
        const auto base = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(std::none_of(base.rules.begin(), base.rules.end(),
                             [](const auto& r) { return r.rule == "feed_over_rating"; }));
        // The design load on a feed: every rack on it at full load.
        auto cd = cost::CompiledDesign(p, test_support::catalog());
        const auto loads = cost::feedDesignLoadsW(p, cd);
        size_t f = 0;
        while (f < loads.size() && loads[f] <= 0)
            ++f;
        QVERIFY(f < loads.size());
        auto find = [&](const cost::Results& r, const std::string& rule) {
            return std::find_if(r.rules.begin(), r.rules.end(), [&](const auto& x) {
                return x.rule == rule && x.entity == p.powerFeeds[f].id;
            });
        };
        for (const double rating : {0.0, 0.5 * loads[f]}) {
            p.powerFeeds[f].capacity = rating * units::watt;
            const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
            const auto it = find(r, "feed_over_rating");
            QVERIFY(it != r.rules.end());
            QCOMPARE(it->severity, cost::Severity::Error);
            QVERIFY2(it->message.find("capacity_w") != std::string::npos, it->message.c_str());
        }
        p.powerFeeds[f].capacity = 1.1 * loads[f] * units::watt; // 91 %
        auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(find(r, "feed_over_rating") == r.rules.end());
        QVERIFY(find(r, "feed_above_continuous_rating") != r.rules.end());
        p.powerFeeds[f].capacity = 1.3 * loads[f] * units::watt; // 77 %
        r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QVERIFY(find(r, "feed_above_continuous_rating") == r.rules.end());
    }

    /// PUE follows utilization and topology (issue 30 item 1): lower utilization raises the electrical losses
    /// per watt of IT (no-load losses); a 2N chain runs each UPS side at <= 50 %, where its no-load loss
    /// weighs more, while its transformers and switchgear, also at half load, lose less to I^2 R. llama3
    /// (one building, 23.7 MW critical): the UPS loses more in 2N, and the total moves by the sum of the
    /// classes' changes (the three-term curves of data/catalog/power.json), so PUE is no longer the same
    /// for every topology.
    void pueFollowsUtilizationAndTopology() {
        auto p = test_support::reference("llama3-16k-h100");
        auto a = test_support::defaults();
        const auto full = cost::evaluate(p, test_support::catalog(), a);
        a["utilization"].base = 0.3;
        const auto light = cost::evaluate(p, test_support::catalog(), a);
        const double lossShareFull = full.power.losses.value() / full.power.itOperating.value();
        const double lossShareLight = light.power.losses.value() / light.power.itOperating.value();
        QVERIFY2(lossShareLight > lossShareFull,
                 (std::to_string(lossShareLight) + " vs " + std::to_string(lossShareFull)).c_str());
        auto upsLoss = [](const cost::Results& r) {
            const auto* ups = r.power.chains.front().line("ups");
            return cost::classLossW(*ups, r.power.itOperating.value() + r.power.pumps.value());
        };
        for (auto& b : p.buildings)
            b.powerTopology = "N";
        const auto n = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        for (auto& b : p.buildings)
            b.powerTopology = "2N";
        const auto twoN = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        qInfo("llama3 losses: N %.1f kW (UPS %.1f kW, PUE %.5f), 2N %.1f kW (UPS %.1f kW, PUE %.5f)",
              n.power.losses.value() / 1e3, upsLoss(n) / 1e3, n.power.pue, twoN.power.losses.value() / 1e3,
              upsLoss(twoN) / 1e3, twoN.power.pue);
        // The UPS: N 16 x 1.5 MW at x ~ 0.9, 2N 32 x 1.5 MW at x ~ 0.45: the no-load term doubles.
        QVERIFY(upsLoss(twoN) > upsLoss(n) * 1.03);
        QVERIFY(std::abs(twoN.power.pue - n.power.pue) > 1e-5);
    }

    /// The shipped catalog's module ratings and $/W (data/catalog/power.json) are the ones the hand
    /// calculations in this file and the note use.
    void shippedCatalogValues() {
        const auto& cat = test_support::catalog();
        QCOMPARE(cat.at("xfmr-mv").value("module_w"), 3e6);
        QCOMPARE(cat.at("switchgear-lv").value("module_w"), 3e6);
        QCOMPARE(cat.at("ups-static").value("module_w"), 1.5e6);
        QCOMPARE(cat.at("genset").value("module_w"), 3e6);
        QCOMPARE(cat.at("xfmr-mv").value("capex_usd_per_w"), 0.3);
        QCOMPARE(cat.at("switchgear-lv").value("capex_usd_per_w"), 0.45);
        QCOMPARE(cat.at("ups-static").value("capex_usd_per_w"), 0.75);
        QCOMPARE(cat.at("busway-row").value("capex_usd_per_w"), 0.2);
        QCOMPARE(cat.at("genset").value("capex_usd_per_w"), 0.7);
    }

    /// two-site-wan: Wisconsin is 2N with generators, Atlanta single-corded without UPS or generators (N).
    /// The A/B design buys one N+1 generator plant on the facility peak, not a generator set per feed, and
    /// the power capex is the sum of the chains.
    void twoSiteReferenceChains() {
        const auto p = test_support::reference("two-site-wan");
        const auto r = cost::evaluate(p, test_support::catalog(), test_support::defaults());
        QCOMPARE(r.power.chains.size(), size_t(2));
        double sum = 0;
        for (const auto& c : r.power.chains) {
            sum += c.cost.value();
            const auto bp = std::find_if(r.power.buildings.begin(), r.power.buildings.end(),
                                         [&](const auto& b) { return b.buildingId == c.buildingId; });
            QVERIFY(bp != r.power.buildings.end());
            if (c.buildingId == "wi-b1") {
                QCOMPARE(c.topology, std::string("2N"));
                const auto* g = c.line("generator");
                QVERIFY(g);
                // ceil(facility peak / 3 MW) + 1.
                QCOMPARE(g->units, std::ceil(bp->facilityPeak.value() / 3e6 - 1e-9) + 1);
                // Sized on the facility peak with the chain's losses (the second sizing pass): within the
                // change of losses between the two passes' chains.
                CTWIN_COMPARE_REL(g->sizedOn.value(), bp->facilityPeak.value(), 1e-4);
                // 2N: UPS = 2 x ceil(L / 1.5 MW), L = the building's IT peak plus its pumps (the loads, not
                // the feeds' ratings).
                const double critical = c.criticalLoad.value();
                QVERIFY(critical >= bp->itPeak.value() && critical < 1.05 * bp->itPeak.value());
                QCOMPARE(c.line("ups")->units, 2 * std::ceil(critical / 1.5e6 - 1e-9));
                // Transformers on the facility peak too.
                CTWIN_COMPARE_REL(c.line("transformer")->sizedOn.value(), bp->facilityPeak.value(), 1e-4);
                QCOMPARE(c.line("busway")->units, 4.0); // A and B in each of 2 halls
            } else {
                QCOMPARE(c.buildingId, std::string("atl-b1"));
                QCOMPARE(c.topology, std::string("N"));
                QVERIFY(!c.line("ups") && !c.line("generator"));
                QCOMPARE(c.line("transformer")->units,
                         std::ceil(c.line("transformer")->sizedOn.value() / 3e6 - 1e-9));
            }
        }
        CTWIN_COMPARE_REL(r.capex.byCategory.at("power").value(), sum, 1e-12);
        // The JSON export lists the chains and the unit counts.
        const auto j = cost::resultsToJson(r);
        QCOMPARE(j["power"]["chains"].size(), size_t(2));
        QCOMPARE(j["power"]["chains"][0]["topology"].get<std::string>(), std::string("2N"));
        double gens = 0;
        for (const auto& c : r.power.chains)
            if (const auto* g = c.line("generator")) gens += g->units;
        QCOMPARE(j["inventory"]["power"]["generators"].get<double>(), gens);
    }

    /// A topology not in the list is refused on load, naming the file, the building and the field.
    void unknownTopologyIsRefused() {
        auto j = readJson(test_support::kData + "/reference/two-site-wan.json");
        j["buildings"][0]["power_topology"] = "3N";
        try {
            model::projectFromJson(j, "bad-topology.json", &test_support::catalog());
            QFAIL("an unknown power_topology loaded");
        } catch (const model::InputError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("bad-topology.json") != std::string::npos, m.c_str());
            QVERIFY2(m.find("wi-b1") != std::string::npos, m.c_str());
            QVERIFY2(m.find("power_topology") != std::string::npos, m.c_str());
        }
        // Every listed topology loads.
        for (const auto& t : cost::kPowerTopologies) {
            j["buildings"][0]["power_topology"] = t;
            QCOMPARE(
                model::projectFromJson(j, "ok.json", &test_support::catalog()).buildings[0].powerTopology, t);
        }
        // Absent: the documented default 2N.
        j["buildings"][0].erase("power_topology");
        QCOMPARE(model::projectFromJson(j, "ok.json", &test_support::catalog()).buildings[0].powerTopology,
                 std::string("2N"));
    }

    /// Issue 13 item 6: compute IT (racks only) and total IT (plus network, storage, WAN) both reported;
    /// power.it_mw stays the total. llama3: 1,024 hgx-h100-2srv racks, all sellable, and 64 network racks.
    void itComputeAndTotal() {
        const auto p = test_support::reference("llama3-16k-h100");
        const auto& cat = test_support::catalog();
        const auto r = cost::evaluate(p, cat, test_support::defaults());
        const auto& rack = cat.at("hgx-h100-2srv");
        double peak = 0;
        for (const auto& rp : p.racks)
            if (rp.rackType == rack.id)
                peak += rp.spare ? rack.value("power_idle_w") : rack.value("power_load_w");
        // Compute peak = sum of rack load (spares idle); its 64 network racks draw nothing of their own
        // (their leaves are in power.network_mw).
        CTWIN_COMPARE_REL(r.figure("power.it_compute_peak_mw")->value, peak / 1e6, 1e-12);
        CTWIN_COMPARE_REL(
            r.figure("power.it_total_peak_mw")->value,
            (peak + r.power.network.value() + r.power.storage.value() + r.power.wan.value()) / 1e6, 1e-12);
        CTWIN_COMPARE_REL(r.figure("power.it_total_mw")->value,
                          r.figure("power.it_compute_mw")->value + r.figure("power.network_mw")->value +
                              (r.power.storage + r.power.wan).value() / 1e6,
                          1e-12);
        QCOMPARE(r.figure("power.it_mw")->value, r.figure("power.it_total_mw")->value);
        QCOMPARE(r.figure("power.it_peak_mw")->value, r.figure("power.it_total_peak_mw")->value);
        QVERIFY(r.figure("power.network_mw")->value > 0);
        QVERIFY(r.figure("power.it_mw")->provenance.formula.find("it_total_mw") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestPowerChain)
#include "test_power_chain.moc"
