// The design generator (cost/design_generator.h): the six shipped references regenerate from their specs,
// GPU and IT-power targets are met, generated designs validate and evaluate without error rules, and
// impossible targets are refused with messages that say why.
#include "../test_support.h"
#include "design_generator.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <sstream>

using namespace ctwin;
using test_support::catalog;
using test_support::defaults;
using test_support::kData;

namespace {

const char* const kReferences[] = {"llama3-16k-h100", "neocloud-100k-gb200",     "campus-1gw",
                                   "two-site-wan",    "agentic-inference-gb300", "vera-rubin-504"};

cost::DesignSpec target(double gpus, const std::string& rack, const std::string& cooling, int buildings = 1,
                        int halls = 1) {
    cost::TargetSpec t;
    t.gpus = gpus;
    t.rackType = rack;
    t.cooling = cooling;
    t.buildings = buildings;
    t.hallsPerBuilding = halls;
    t.site.name = "Test site";
    cost::DesignSpec s;
    s.target = t;
    return s;
}

model::Project generate(const cost::DesignSpec& s) {
    return cost::generateDesign(s, catalog(), defaults());
}

/// The message of the InputError `f` throws ("" when it throws none).
std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const model::InputError& e) {
        return e.what();
    }
    return {};
}

/// Racks of a catalog kind ("compute", or "network": the generator's one per row, issue 36).
std::size_t racksOfKind(const model::Project& p, const std::string& kind) {
    return static_cast<std::size_t>(std::count_if(p.racks.begin(), p.racks.end(), [&](const auto& r) {
        return test_support::catalog().at(r.rackType).kind == kind;
    }));
}

int spares(const model::Project& p) {
    int n = 0;
    for (const auto& r : p.racks)
        n += r.spare ? 1 : 0;
    return n;
}

/// First line where two texts differ, with its neighbourhood, for a readable failure.
std::string firstDifference(const std::string& a, const std::string& b) {
    std::istringstream sa(a), sb(b);
    std::string la, lb;
    for (int line = 1;; ++line) {
        const bool ea = !std::getline(sa, la), eb = !std::getline(sb, lb);
        if (ea && eb) return {};
        if (ea != eb || la != lb)
            return "line " + std::to_string(line) + ":\n  generated: " + (ea ? "<end>" : la) +
                   "\n  shipped:   " + (eb ? "<end>" : lb);
    }
}

} // namespace

class TestGenerator : public QObject {
    Q_OBJECT

private slots:
    void referencesRegenerateFromTheirSpecs_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : kReferences)
            QTest::newRow(n) << QString(n);
    }
    /// Exact layout equality: the generated design serializes to the same JSON as the shipped file (both
    /// through the same writer), so every figure evaluate() derives from them is equal too.
    void referencesRegenerateFromTheirSpecs() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        const auto spec = cost::loadDesignSpec(kData + "/reference/specs/" + n + ".json");
        QVERIFY(!spec.target);
        const auto generated = model::dumpJson(model::projectToJson(generate(spec)));
        const auto shipped = model::dumpJson(model::projectToJson(test_support::reference(n)));
        const auto diff = firstDifference(generated, shipped);
        QVERIFY2(diff.empty(), diff.c_str());
    }

    void gpuTargetRoundsUpToWholeRacks() {
        // 100,000 GPUs of GB200 NVL72 (72 per rack): ceil(100000 / 72) = 1,389 sellable racks = 100,008 GPUs;
        // hot spares ceil(1389 x 0.02 spare_fraction_target) = ceil(27.78) = 28; 1,417 racks, 102,024 GPUs.
        const auto p = generate(target(100000, "gb200-nvl72", "dry_cooler", 4, 2));
        QCOMPARE(racksOfKind(p, "compute"), size_t(1417));
        QCOMPARE(spares(p), 28);
        // One network rack at the start of every row, on the row's feeds, air-cooled, before its first rack.
        QCOMPARE(racksOfKind(p, "network"), p.rows.size());
        for (const auto& r : p.racks)
            if (r.id.size() > 4 && r.id.compare(r.id.size() - 4, 4, "-net") == 0) {
                QCOMPARE(r.rackType, std::string("network-rack-48u"));
                QVERIFY(!r.feedA.empty() && r.coolingLoop.empty() && !r.spare);
            }
        QCOMPARE(p.buildings.size(), size_t(4));
        QCOMPARE(p.halls.size(), size_t(8));
        // An exact multiple is hit exactly: 1,440 GPUs = 20 racks, plus ceil(20 x 0.02) = 1 spare.
        const auto q = generate(target(1440, "gb200-nvl72", "tower"));
        QCOMPARE(racksOfKind(q, "compute"), size_t(21));
        QCOMPARE(spares(q), 1);
        // A spare fraction of 0 gives no spares: 16,384 H100 = 1,024 racks of 16, air-cooled.
        auto s = target(16384, "hgx-h100-2srv", "air", 1, 3);
        s.target->spareFraction = 0.0;
        const auto h = generate(s);
        QCOMPARE(racksOfKind(h, "compute"), size_t(1024));

        QCOMPARE(spares(h), 0);
        QVERIFY(h.coolingLoops.empty());
        for (const auto& r : h.racks)
            QVERIFY(!r.feedA.empty() && !r.feedB.empty() && r.coolingLoop.empty());
    }

    /// A hall's network_rack: "" leaves the network racks out; an id that is not a network rack is refused
    /// naming the hall and the field; the default sits at every row's start and shifts the row's racks by
    /// its width (0.8 m).
    void networkRackPerHall() {
        auto spec = cost::loadDesignSpec(kData + "/reference/specs/vera-rubin-504.json");
        const auto withRacks = generate(spec);
        QCOMPARE(racksOfKind(withRacks, "network"), withRacks.rows.size());
        for (const auto& row : withRacks.rows) {
            double first = 1e300, net = 1e300;
            for (const auto& r : withRacks.racks)
                if (r.row == row.id) {
                    if (test_support::catalog().at(r.rackType).kind == "network")
                        net = r.x.value();
                    else
                        first = std::min(first, r.x.value());
                }
            QVERIFY(std::abs(first - net - 0.8) < 1e-9);
        }
        for (auto& site : spec.sites)
            for (auto& b : site.buildings)
                for (auto& hall : b.halls)
                    hall.networkRack = "";
        QCOMPARE(racksOfKind(generate(spec), "network"), size_t(0));
        spec.sites.front().buildings.front().halls.front().networkRack = "gb200-nvl72";
        try {
            generate(spec);
            QFAIL("a compute rack was accepted as the network rack");
        } catch (const model::InputError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("network_rack") != std::string::npos &&
                         m.find(spec.sites.front().buildings.front().halls.front().id) != std::string::npos,
                     m.c_str());
        }
    }

    void backEndFitsTheSwitchRadix() {
        // 102,024 GPUs x one 400G ConnectX-7 NIC (data/catalog/racks.json gb200-nvl72): one 400G plane on
        // 102.4T switches (radix 256) reaches 256^2/2 = 32,768 endpoints in 2 tiers, too few; 2 planes x 200G
        // (radix 512): 131,072 >= 102,024. Fewest tiers first, then fewest planes: 2 planes, 2 tiers (the
        // neocloud reference's shape).
        const auto p = generate(target(100000, "gb200-nvl72", "dry_cooler", 4, 2));
        QCOMPARE(p.fabrics.size(), size_t(2));
        const auto& be = p.fabrics[0];
        QCOMPARE(be.role, std::string("backend"));
        QCOMPARE(be.planes, 2);
        QCOMPARE(be.tiers, 2);
        QCOMPARE(be.breakout, 4);
        QCOMPARE(be.portBitPerS, 2e11);
        QCOMPARE(be.oversubscription, std::vector<double>{1.0});
        // Forcing 3 tiers with 1:4 at the top: [1, 4], one 400G plane (3 tiers of radix 256 reach 4,194,304).
        auto s = target(100000, "gb200-nvl72", "dry_cooler", 4, 2);
        s.target->tiers = 3;
        s.target->oversubscription = 4.0;
        const auto q = generate(s);
        QCOMPARE(q.fabrics[0].tiers, 3);
        QCOMPARE(q.fabrics[0].planes, 1);
        QCOMPARE(q.fabrics[0].oversubscription, (std::vector<double>{1.0, 4.0}));
        // Vera Rubin's 1.6T NIC exceeds an 800G switch port: the fewest planes is 2 x 800G, breakout 1.
        const auto v = generate(target(504, "vr-nvl72", "chiller"));
        QCOMPARE(v.fabrics[0].planes, 2);
        QCOMPARE(v.fabrics[0].breakout, 1);
    }

    void itPowerTargetWithinOneRack_data() {
        QTest::addColumn<QString>("rack");
        QTest::addColumn<QString>("cooling");
        QTest::addColumn<double>("mw");
        QTest::newRow("gb300 50 MW tower") << "gb300-nvl72"
                                           << "tower" << 50.0;
        QTest::newRow("h100 10 MW air") << "hgx-h100-2srv"
                                        << "air" << 10.0;
        QTest::newRow("gb200 150 MW dry") << "gb200-nvl72"
                                          << "dry_cooler" << 150.0;
        QTest::newRow("vr 1.5 MW chiller") << "vr-nvl72"
                                           << "chiller" << 1.5;
    }
    /// The evaluated peak compute IT power (power.computePeak: racks at load, spares idle; issue 13 item 6)
    /// lies within one rack's load power of the target; the total adds network and storage on top.
    void itPowerTargetWithinOneRack() {
        QFETCH(QString, rack);
        QFETCH(QString, cooling);
        QFETCH(double, mw);
        cost::TargetSpec t;
        t.itMw = mw;
        t.rackType = rack.toStdString();
        t.cooling = cooling.toStdString();
        cost::DesignSpec s;
        s.target = t;
        const auto p = generate(s);
        const auto r = cost::evaluate(p, catalog(), defaults());
        const double it = r.power.computePeak.value();
        QVERIFY(r.power.itPeak > r.power.computePeak);
        const double rackW = catalog().at(t.rackType).value("power_load_w");
        QVERIFY2(std::abs(it - mw * 1e6) <= rackW,
                 qPrintable(QString("IT %1 MW for a %2 MW target").arg(it / 1e6).arg(mw)));
    }

    void generatedDesignsValidateAndEvaluateWithoutErrors_data() {
        QTest::addColumn<QString>("rack");
        QTest::addColumn<QString>("cooling");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<int>("buildings");
        QTest::addColumn<int>("halls");
        QTest::newRow("h100 air 16K") << "hgx-h100-2srv"
                                      << "air" << 16384.0 << 1 << 3;
        QTest::newRow("b200 air 4K") << "hgx-b200-4srv"
                                     << "air" << 4096.0 << 2 << 1;
        QTest::newRow("gb200 100K") << "gb200-nvl72"
                                    << "dry_cooler" << 100000.0 << 4 << 2;
        QTest::newRow("gb300 tower 1 hall") << "gb300-nvl72"
                                            << "tower" << 20000.0 << 1 << 1;
        QTest::newRow("vr-nvl144 chiller") << "vr-nvl144"
                                           << "chiller" << 10000.0 << 2 << 2;
        QTest::newRow("one rack") << "vr-nvl72"
                                  << "dry_cooler" << 1.0 << 1 << 1;
    }
    void generatedDesignsValidateAndEvaluateWithoutErrors() {
        QFETCH(QString, rack);
        QFETCH(QString, cooling);
        QFETCH(double, gpus);
        QFETCH(int, buildings);
        QFETCH(int, halls);
        const auto p = generate(target(gpus, rack.toStdString(), cooling.toStdString(), buildings, halls));
        // Round trip through the loader (types, bounds, ids, references, catalog ids).
        const auto j = model::projectToJson(p);
        const auto back = model::projectFromJson(j, "generated", &catalog());
        QCOMPARE(model::dumpJson(model::projectToJson(back)), model::dumpJson(j));
        const auto r = cost::evaluate(p, catalog(), defaults());
        for (const auto& rule : r.rules)
            QVERIFY2(rule.severity != cost::Severity::Error, rule.message.c_str());
        QVERIFY(std::isfinite(r.capex.total.value()) && r.capex.total.value() > 0);
        // Every loop's CDUs have positions, and every building holds its facility power.
        for (const auto& l : p.coolingLoops)
            QCOMPARE(int(l.cdus.size()), l.cduCount);
        for (const auto& b : r.power.buildings)
            QVERIFY(b.facilityPeak.value() <= b.capacity.value());
    }

    void buildingsAndHallsFollowTheTargetByDefault_data() {
        QTest::addColumn<QString>("rack");
        QTest::addColumn<QString>("cooling");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<int>("givenBuildings"); // 0 = not given
        QTest::addColumn<int>("givenHalls");
        QTest::addColumn<int>("buildings");
        QTest::addColumn<int>("halls");
        // 100,000 GB200: 1,389 + 28 spares = 1,417 racks x 132 kW = 187.04 MW / 36.25 MW = 5.16 -> 6 halls
        // (by racks 1,417 / 384 = 3.7 -> 4); 6 halls / 4 per building -> 2 buildings of 3.
        QTest::newRow("100K GB200") << "gb200-nvl72"
                                    << "dry_cooler" << 100000.0 << 0 << 0 << 2 << 6;
        // 16,384 H100 on 16-GPU racks: 1,024 + ceil(20.48) = 21 spares = 1,045 racks x 20.4 kW = 21.3 MW
        // -> 1 hall by load, 1,045 / 384 = 2.72 -> 3 halls by racks: one building of 3 halls (the shipped
        // llama3-16k-h100 layout).
        QTest::newRow("16K H100 air") << "hgx-h100-2srv"
                                      << "air" << 16384.0 << 0 << 0 << 1 << 3;
        // 360,000 GB300: 5,000 + 100 spares = 5,100 racks x 145 kW = 739.5 MW / 36.25 = 20.4 -> 21 halls;
        // ceil(21 / 4) = 6 buildings of ceil(21 / 6) = 4 halls.
        QTest::newRow("1 GW GB300") << "gb300-nvl72"
                                    << "tower" << 360000.0 << 0 << 0 << 6 << 24;
        // 720 GB200 = 10 + 1 spare racks: one hall.
        QTest::newRow("small") << "gb200-nvl72"
                               << "tower" << 720.0 << 0 << 0 << 1 << 1;
        // Buildings given (3): the 6 halls spread as 2 per building.
        QTest::newRow("buildings given") << "gb200-nvl72"
                                         << "dry_cooler" << 100000.0 << 3 << 0 << 3 << 6;
        // Halls per building given (1): 6 buildings of 1 hall.
        QTest::newRow("halls given") << "gb200-nvl72"
                                     << "dry_cooler" << 100000.0 << 0 << 1 << 6 << 6;
    }
    void buildingsAndHallsFollowTheTargetByDefault() {
        QFETCH(QString, rack);
        QFETCH(QString, cooling);
        QFETCH(double, gpus);
        QFETCH(int, givenBuildings);
        QFETCH(int, givenHalls);
        QFETCH(int, buildings);
        QFETCH(int, halls);
        auto spec = target(gpus, rack.toStdString(), cooling.toStdString());
        spec.target->buildings.reset();
        spec.target->hallsPerBuilding.reset();
        if (givenBuildings) spec.target->buildings = givenBuildings;
        if (givenHalls) spec.target->hallsPerBuilding = givenHalls;
        const auto p = generate(spec);
        QCOMPARE(int(p.buildings.size()), buildings);
        QCOMPARE(int(p.halls.size()), halls);
        // The limits hold in every hall: rack count and rack load.
        std::map<std::string, int> perHall;
        std::map<std::string, std::string> hallOfRow;
        for (const auto& r : p.rows)
            hallOfRow[r.id] = r.hall;
        for (const auto& r : p.racks)
            ++perHall[hallOfRow[r.row]];
        const double load = catalog().at(rack.toStdString()).value("power_load_w");
        for (const auto& [h, n] : perHall) {
            QVERIFY2(n <= cost::kAutoHallMaxRacks || givenBuildings || givenHalls, h.c_str());
            QVERIFY2(n * load <= cost::kAutoHallMaxLoadW || givenBuildings || givenHalls, h.c_str());
        }
        const auto r = cost::evaluate(p, catalog(), defaults());
        for (const auto& rule : r.rules)
            QVERIFY2(rule.severity != cost::Severity::Error, rule.message.c_str());
    }

    void refusesImpossibleTargets() {
        const auto bad = [](cost::DesignSpec s) { return refusal([&] { generate(s); }); };
        QVERIFY(bad(target(0, "gb200-nvl72", "tower")).find("GPU count") != std::string::npos);
        QVERIFY(bad(target(-72, "gb200-nvl72", "tower")).find("GPU count") != std::string::npos);
        QVERIFY(bad(target(std::nan(""), "gb200-nvl72", "tower")).find("GPU count") != std::string::npos);
        QVERIFY(bad(target(INFINITY, "gb200-nvl72", "tower")).find("GPU count") != std::string::npos);
        QVERIFY(bad(target(1000, "nope", "tower")).find("unknown rack type 'nope'") != std::string::npos);
        QVERIFY(bad(target(1000, "sw-51t", "tower")).find("unknown rack type 'sw-51t'") != std::string::npos);
        QVERIFY(bad(target(1000, "", "tower")).find("rack type is required") != std::string::npos);
        QVERIFY(bad(target(1000, "gb200-nvl72", "air")).find("cannot be air-cooled") != std::string::npos);
        QVERIFY(bad(target(1000, "hgx-h100-2srv", "tower")).find("choose cooling air") != std::string::npos);
        QVERIFY(bad(target(1000, "gb200-nvl72", "water")).find("cooling must be") != std::string::npos);
        // 144 GPUs = 2 racks + 1 spare = 3 racks for 4 halls.
        QVERIFY(bad(target(144, "gb200-nvl72", "tower", 4, 1)).find("4 halls for only 3 racks") !=
                std::string::npos);
        QVERIFY(bad(target(1000, "gb200-nvl72", "tower", 0, 1)).find("buildings must be") !=
                std::string::npos);
        QVERIFY(bad(target(1000, "gb200-nvl72", "tower", 1, -2)).find("halls per building") !=
                std::string::npos);
        auto both = target(1000, "gb200-nvl72", "tower");
        both.target->itMw = 5;
        QVERIFY(bad(both).find("not both") != std::string::npos);
        auto none = target(1000, "gb200-nvl72", "tower");
        none.target->gpus.reset();
        QVERIFY(bad(none).find("give a GPU count") != std::string::npos);
        auto mw = none;
        mw.target->itMw = std::nan("");
        QVERIFY(bad(mw).find("IT power") != std::string::npos);
        auto lat = target(1000, "gb200-nvl72", "tower");
        lat.target->site.latDeg = 95;
        QVERIFY(bad(lat).find("latitude") != std::string::npos);
        // One tier cannot hold 100K GPUs on any catalog switch, whatever the planes.
        auto flat = target(100000, "gb200-nvl72", "tower", 4, 2);
        flat.target->tiers = 1;
        QVERIFY(bad(flat).find("do not fit 1 tiers") != std::string::npos);
        // A rack type of the racks category without GPUs (a network rack) is not a compute rack.
        auto items = catalog().items();
        auto net = catalog().at("gb200-nvl72");
        net.id = "net-rack", net.kind = "network", net.values["gpus"].base = 0;
        items.push_back(net);
        const model::Catalog withNetwork(items);
        const auto msg = refusal(
            [&] { cost::generateDesign(target(1000, "net-rack", "tower"), withNetwork, defaults()); });
        QVERIFY2(msg.find("network rack without GPUs") != std::string::npos, msg.c_str());
    }

    void specErrorsNameTheKey() {
        const auto parse = [](const char* text) {
            return refusal([&] { cost::designSpecFromJson(nlohmann::ordered_json::parse(text), "s.json"); });
        };
        QVERIFY(parse(R"({"format":"x","spec_version":1})").find("'format'") != std::string::npos);
        QVERIFY(
            parse(
                R"({"format":"clustertwin-generator-spec","spec_version":1,"target":{"gpus":8,"rack":"a"}})")
                .find("'rack'") != std::string::npos);
        QVERIFY(parse(R"({"format":"clustertwin-generator-spec","spec_version":1})").find("give a target") !=
                std::string::npos);
        QVERIFY(
            parse(R"({"format":"clustertwin-generator-spec","spec_version":1,"sites":[{"id":"s","name":"S",
            "buildings":[{"id":"b","halls":[{"id":"h","rack_type":"gb200-nvl72","columns":[[0]]}]}]}]})")
                .find("row lengths") != std::string::npos);
        // A liquid rack in an air hall of an explicit layout.
        const auto s =
            cost::designSpecFromJson(nlohmann::ordered_json::parse(R"({"format":"clustertwin-generator-spec",
            "spec_version":1,"sites":[{"id":"s","name":"S","buildings":[{"id":"b","halls":[{"id":"h",
            "rack_type":"gb200-nvl72","columns":[[4]]}]}]}]})"),
                                     "s.json");
        QVERIFY(refusal([&] { generate(s); }).find("give the hall liquid cooling") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestGenerator)
#include "test_generator.moc"
