// Geometry design rules (cost/geometry_rules.h) on small hand-made designs: each rule fires with the entity
// and the overhang or overlap worked by hand, touching is allowed, quarter turns swap the footprint, the
// shipped references are clean, and the grid finds every overlap of a large hall that a brute-force pair
// check finds.
#include "../test_support.h"
#include "design_json.h"
#include "evaluate.h"
#include "geometry_rules.h"

#include <QtTest>
#include <algorithm>
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

/// A 0.6 m x 1.2 m rack and a 1.0 m x 0.8 m CDU: round sizes for the hand calculations below.
const model::Catalog& testCatalog() {
    static const model::Catalog c({
        item("t-gpu", "accelerators", "gpu",
             {{"bf16_flops", 1e15},
              {"fp8_flops", 2e15},
              {"fp4_flops", 0},
              {"hbm_bytes", 1e11},
              {"hbm_bandwidth_bytes_per_s", 4e12},
              {"scale_up_bandwidth_bytes_per_s", 9e11},
              {"tdp_w", 1000},
              {"price_usd", 25000}},
             {{"vendor", "test"}}),
        item("t-rack", "racks", "compute",
             {{"gpus", 8},
              {"cpus", 2},
              {"servers", 1},
              {"backend_nics", 8},
              {"backend_nic_bit_per_s", 4e11},
              {"frontend_nics", 1},
              {"frontend_nic_bit_per_s", 1e11},
              {"scale_up_domain_gpus", 8},
              {"power_load_w", 10000},
              {"power_idle_w", 2000},
              {"liquid_fraction", 0.5},
              {"price_usd", 300000},
              {"scale_up_network_price_usd", 30000},
              {"weight_kg", 1000},
              {"width_m", 0.6},
              {"depth_m", 1.2},
              {"psus", 4},
              {"useful_life_years", 5}},
             {{"accelerator", "t-gpu"}}),
        item("t-cdu", "cooling", "cdu",
             {{"capacity_w", 100000},
              {"pump_power_w", 1000},
              {"price_usd", 50000},
              {"width_m", 1.0},
              {"depth_m", 0.8}}),
        item("t-plant", "cooling", "plant", {{"cop", 5}, {"capex_usd_per_w", 1}}, {{"type", "chiller"}}),
    });
    return c;
}

/// One site with a 40 x 30 m building holding a 20 x 10 m hall at (5, 5), a loop with one CDU and a row.
ojson design() {
    return ojson::parse(R"({
      "format": "clustertwin-design", "schema_version": 1, "project": {"id": "g", "name": "Geometry"},
      "sites": [{"id": "s", "name": "S"}],
      "buildings": [{"id": "b1", "name": "B1", "site": "s", "power_capacity_w": 1e6, "x_m": 0, "y_m": 0,
                     "width_m": 40, "depth_m": 30}],
      "halls": [{"id": "h", "name": "Hall 1", "building": "b1", "x_m": 5, "y_m": 5, "width_m": 20, "depth_m": 10}],
      "cooling_loops": [{"id": "l", "name": "Loop", "hall": "h", "cdu_type": "t-cdu", "cdu_count": 1,
                         "redundancy": "N", "plant": "t-plant", "cdus": [{"x_m": 1, "y_m": 1}]}],
      "rows": [{"id": "row", "name": "Row 1", "hall": "h", "x_m": 2, "y_m": 4}], "racks": []})");
}

ojson rack(const std::string& id, double x, double y, double rotation = 0) {
    return {{"id", id},
            {"name", id},
            {"row", "row"},
            {"rack_type", "t-rack"},
            {"x_m", x},
            {"y_m", y},
            {"rotation_deg", rotation}};
}

std::vector<cost::DesignRule> rulesOf(const ojson& j) {
    return cost::geometryRules(model::projectFromJson(j, "test", &testCatalog()), testCatalog());
}

std::vector<cost::DesignRule> named(const std::vector<cost::DesignRule>& rules, const std::string& rule) {
    std::vector<cost::DesignRule> out;
    std::copy_if(rules.begin(), rules.end(), std::back_inserter(out),
                 [&](const auto& r) { return r.rule == rule; });
    return out;
}

} // namespace

class TestGeometryRules : public QObject {
    Q_OBJECT
private slots:
    void cleanDesignHasNoFindings() {
        ojson j = design();
        // Touching side by side.
        j["racks"] = ojson::array({rack("a", 2, 4), rack("b", 2.6, 4), rack("c", 3.2, 4)});
        QVERIFY(rulesOf(j).empty());
    }

    void rackOutsideHall() {
        // Hall 20 m wide: a 0.6 m rack at x = 19.8 ends at 20.4, 0.40 m past the wall.
        ojson j = design();
        j["racks"] = ojson::array({rack("r-east", 19.8, 4)});
        auto found = named(rulesOf(j), "rack_outside_hall");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].entity, std::string("r-east"));
        QCOMPARE(found[0].severity, cost::Severity::Error);
        QVERIFY2(found[0].message.find("by 0.40 m") != std::string::npos, found[0].message.c_str());
        QVERIFY(found[0].message.find("Hall 1") != std::string::npos);
        QVERIFY(found[0].message.find("20.00 m width") != std::string::npos);
        // Negative y: 0.25 m past the y = 0 wall.
        j["racks"] = ojson::array({rack("r-north", 2, -0.25)});
        found = named(rulesOf(j), "rack_outside_hall");
        QCOMPARE(found.size(), size_t(1));
        QVERIFY2(found[0].message.find("by 0.25 m (y < 0)") != std::string::npos, found[0].message.c_str());
    }

    void quarterTurnSwapsFootprint() {
        // At x = 19.0 a rack facing forward spans 19.0-19.6 (inside); turned 90 degrees it spans 1.2 m,
        // 19.0-20.2, 0.20 m past the 20 m wall. At 270 degrees the same; at 180 it is inside again.
        ojson j = design();
        j["racks"] = ojson::array({rack("r", 19.0, 4, 0)});
        QVERIFY(named(rulesOf(j), "rack_outside_hall").empty());
        for (double rot : {90.0, 270.0}) {
            j["racks"] = ojson::array({rack("r", 19.0, 4, rot)});
            const auto found = named(rulesOf(j), "rack_outside_hall");
            QCOMPARE(found.size(), size_t(1));
            QVERIFY2(found[0].message.find("by 0.20 m") != std::string::npos, found[0].message.c_str());
        }
        j["racks"] = ojson::array({rack("r", 19.0, 4, 180)});
        QVERIFY(named(rulesOf(j), "rack_outside_hall").empty());
    }

    void racksOverlap() {
        // a spans x 2.0-2.6, b 2.3-2.9 on the same y: overlap 0.30 m x 1.20 m, reported once, on the later
        // rack.
        ojson j = design();
        j["racks"] = ojson::array({rack("a", 2, 4), rack("b", 2.3, 4), rack("c", 10, 4)});
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].entity, std::string("b"));
        QVERIFY2(found[0].message.find("overlap by 0.30 m x 1.20 m") != std::string::npos,
                 found[0].message.c_str());
        // Rotated: c turned 90 degrees at (2.2, 3.5) covers x 2.2-3.4, y 3.5-4.1: it overlaps a
        // (x 2.2-2.6 = 0.40, y 4.0-4.1 = 0.10) and b (x 2.3-2.9 = 0.60, y 0.10).
        j["racks"][2] = rack("c", 2.2, 3.5, 90);
        QCOMPARE(named(rulesOf(j), "racks_overlap").size(), size_t(3));
        // Racks in different halls never overlap each other, whatever their coordinates.
    }

    void hallOutsideBuilding() {
        // Building 40 x 30; a hall 20 x 10 at (25, 5) ends at x = 45: 5.00 m out.
        ojson j = design();
        j["halls"][0]["x_m"] = 25;
        const auto found = named(rulesOf(j), "hall_outside_building");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].entity, std::string("h"));
        QVERIFY2(found[0].message.find("by 5.00 m (beyond its 40.00 m width)") != std::string::npos,
                 found[0].message.c_str());
    }

    void buildingsOverlapOnOneSite() {
        // B1 0-40 x 0-30; B2 at (35, 20) 20 x 20 overlaps it by 5 x 10 m. B3 on another site at the same
        // spot does not count.
        ojson j = design();
        j["sites"].push_back({{"id", "s2"}, {"name", "S2"}});
        j["buildings"].push_back({{"id", "b2"},
                                  {"name", "B2"},
                                  {"site", "s"},
                                  {"power_capacity_w", 1e6},
                                  {"x_m", 35},
                                  {"y_m", 20},
                                  {"width_m", 20},
                                  {"depth_m", 20}});
        j["buildings"].push_back({{"id", "b3"},
                                  {"name", "B3"},
                                  {"site", "s2"},
                                  {"power_capacity_w", 1e6},
                                  {"x_m", 0},
                                  {"y_m", 0},
                                  {"width_m", 40},
                                  {"depth_m", 30}});
        const auto found = named(rulesOf(j), "buildings_overlap");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].entity, std::string("b2"));
        QVERIFY2(found[0].message.find("overlap by 5.00 m x 10.00 m") != std::string::npos,
                 found[0].message.c_str());
        // Side by side (touching at x = 40) is fine.
        j["buildings"][1]["x_m"] = 40;
        QVERIFY(named(rulesOf(j), "buildings_overlap").empty());
    }

    void cduOutsideHall() {
        // CDU 1.0 x 0.8 at (1, 9.5) in a 10 m deep hall ends at y = 10.3: 0.30 m out.
        ojson j = design();
        j["cooling_loops"][0]["cdus"] = {{{"x_m", 1}, {"y_m", 1}}, {{"x_m", 1}, {"y_m", 9.5}}};
        j["cooling_loops"][0]["cdu_count"] = 2;
        const auto found = named(rulesOf(j), "cdu_outside_hall");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].entity, std::string("l"));
        QVERIFY2(found[0].message.find("CDU 2 of loop Loop") != std::string::npos, found[0].message.c_str());
        QVERIFY(found[0].message.find("by 0.30 m (beyond its 10.00 m depth)") != std::string::npos);
    }

    void evaluateReportsThem() {
        // The engine's rule list carries the geometry rules (what the design-rule panel shows).
        ojson j = design();
        j["racks"] = ojson::array({rack("r-east", 19.8, 4)});
        const auto p = model::projectFromJson(j, "test", &testCatalog());
        model::AssumptionSet none;
        for (const auto& [k, v] : test_support::defaults())
            none[k] = v;
        const auto r = cost::evaluate(p, testCatalog(), none);
        QVERIFY(std::any_of(r.rules.begin(), r.rules.end(), [](const auto& x) {
            return x.rule == "rack_outside_hall" && x.entity == "r-east";
        }));
    }

    void manyFindingsAreSummarised() {
        // 60 racks stacked on one spot: 60 x 59 / 2 = 1,770 overlapping pairs; 50 listed, one summary line.
        ojson j = design();
        for (int i = 0; i < 60; ++i)
            j["racks"].push_back(rack("s" + std::to_string(i), 5, 5));
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(51));
        QVERIFY2(found.back().message.find("1720 more") != std::string::npos, found.back().message.c_str());
        QVERIFY(found.back().message.find("1770 in all") != std::string::npos);
    }

    void gridAgreesWithBruteForce() {
        // 400 racks on a jittered grid in one 20 x 10 m hall, some overlapping: the grid reports exactly the
        // pairs a direct all-pairs test finds.
        ojson j = design();
        j["halls"][0]["width_m"] = 40;
        unsigned seed = 12345;
        auto next = [&] { return (seed = seed * 1103515245u + 12345u) / 65536 % 1000 / 1000.0; };
        std::vector<std::array<double, 4>> boxes;
        for (int i = 0; i < 400; ++i) {
            const double x = (i % 40) * 0.6 + next() * 0.4, y = (i / 40) * 1.25 + next() * 0.3;
            const double rot = next() < 0.1 ? 90 : 0;
            j["racks"].push_back(rack("q" + std::to_string(i), x, y, rot));
            boxes.push_back(rot == 90 ? std::array<double, 4>{x, y, x + 1.2, y + 0.6}
                                      : std::array<double, 4>{x, y, x + 0.6, y + 1.2});
        }
        j["halls"][0]["depth_m"] = 20;
        size_t brute = 0;
        for (size_t a = 0; a < boxes.size(); ++a)
            for (size_t b = a + 1; b < boxes.size(); ++b) {
                const double ox = std::min(boxes[a][2], boxes[b][2]) - std::max(boxes[a][0], boxes[b][0]);
                const double oy = std::min(boxes[a][3], boxes[b][3]) - std::max(boxes[a][1], boxes[b][1]);
                brute += ox > 1e-3 && oy > 1e-3;
            }
        QVERIFY(brute > 0);
        const auto found = named(rulesOf(j), "racks_overlap");
        const size_t listed = std::min<size_t>(brute, 50);
        QCOMPARE(found.size(), brute > 50 ? listed + 1 : listed);
        if (brute > 50)
            QVERIFY2(found.back().message.find(std::to_string(brute) + " in all") != std::string::npos,
                     found.back().message.c_str());
    }

    void shippedReferencesHaveNoGeometryErrors() {
        for (const char* name : {"llama3-16k-h100", "neocloud-100k-gb200", "campus-1gw", "two-site-wan",
                                 "vera-rubin-504", "agentic-inference-gb300"}) {
            const auto p = test_support::reference(name);
            const auto rules = cost::geometryRules(p, test_support::catalog());
            QVERIFY2(rules.empty(),
                     (std::string(name) + ": " + (rules.empty() ? "" : rules.front().message)).c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestGeometryRules)
#include "test_geometry_rules.moc"
