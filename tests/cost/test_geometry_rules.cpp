// Geometry design rules (cost/geometry_rules.h) on small hand-made designs: each rule fires with the entity
// and the overhang or overlap worked by hand, touching is allowed, quarter turns swap the footprint, the
// shipped references are clean, and the grid finds every overlap of a large hall that a brute-force pair
// check finds. Issue 27: racks on one spot are one "stacked" finding, each rule lists 20 findings per hall
// (site, building) and counts the rest exactly without building them, and 30,000 racks on one spot give a
// bounded list.
#include "../test_support.h"
#include "design_json.h"
#include "evaluate.h"
#include "geometry_rules.h"

#include <QtTest>
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <regex>

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

/// A compute rack of the test catalog, `width_m` x `depth_m`.
model::CatalogItem rackItem(std::string id, double width, double depth) {
    auto rack = item(std::move(id), "racks", "compute",
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
                      {"psus", 4},
                      {"useful_life_years", 5}},
                     {{"accelerator", "t-gpu"}});
    rack.values["width_m"] = model::CatalogValue{width, width, width, "test catalog", false};
    rack.values["depth_m"] = model::CatalogValue{depth, depth, depth, "test catalog", false};
    return rack;
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
        rackItem("t-rack", 0.6, 1.2),
        // A rack 2 mm wide: no real rack, but the overlap count must treat slivers as the pair test does.
        rackItem("t-sliver", 0.002, 0.5),
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

ojson rack(const std::string& id, double x, double y, double rotation = 0, const std::string& row = "row",
           const std::string& type = "t-rack") {
    return {{"id", id},
            {"name", id},
            {"row", row},
            {"rack_type", type},
            {"x_m", x},
            {"y_m", y},
            {"rotation_deg", rotation}};
}

/// design() with a second 20 x 10 m hall "Hall 2" at (5, 16) in the same building and its row "row2".
ojson twoHalls() {
    ojson j = design();
    j["halls"].push_back({{"id", "h2"},
                          {"name", "Hall 2"},
                          {"building", "b1"},
                          {"x_m", 5},
                          {"y_m", 16},
                          {"width_m", 20},
                          {"depth_m", 10}});
    j["rows"].push_back({{"id", "row2"}, {"name", "Row 2"}, {"hall", "h2"}, {"x_m", 2}, {"y_m", 4}});
    return j;
}

/// `count` pairs of racks, each pair overlapping by 0.30 m x 1.20 m (a at x, b at x + 0.3) and apart from
/// the others: 15 pairs a row 1.2 m apart (x 0.5 .. 17.3), rows 2 m apart from y = 1. Ids "<tag>a<k>".
void addOverlappingPairs(ojson& j, int count, const std::string& tag, const std::string& row = "row") {
    for (int k = 0; k < count; ++k) {
        const double x = 0.5 + (k % 15) * 1.2, y = 1 + (k / 15) * 2.0;
        j["racks"].push_back(rack(tag + "a" + std::to_string(k), x, y, 0, row));
        j["racks"].push_back(rack(tag + "b" + std::to_string(k), x + 0.3, y, 0, row));
    }
}

/// `count` stacks of `size` racks, each stack apart from the others (the positions of addOverlappingPairs).
void addStacks(ojson& j, int count, int size, const std::string& tag, const std::string& row = "row") {
    for (int k = 0; k < count; ++k)
        for (int m = 0; m < size; ++m)
            j["racks"].push_back(rack(tag + std::to_string(k) + "-" + std::to_string(m), 0.5 + (k % 15) * 1.2,
                                      1 + (k / 15) * 2.0, 0, row));
}

/// The "(M in all)" of a summary line, or 0.
size_t inAll(const std::string& message) {
    std::smatch m;
    return std::regex_search(message, m, std::regex(R"(\((\d+) in all\))")) ? std::stoull(m[1]) : 0;
}

/// What racks_overlap should count for these footprints (x0, y0, x1, y1), by brute force: one finding per
/// stack (three or more identical footprints), one per overlapping pair of the rest and of stacks' first
/// racks, with the rule's own arithmetic (overlap = least end - greatest start, more than 1 mm both ways).
size_t expectedOverlapFindings(const std::vector<std::array<double, 4>>& boxes) {
    std::vector<size_t> order(boxes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return std::tie(boxes[a], a) < std::tie(boxes[b], b); });
    std::vector<char> hidden(boxes.size(), 0);
    size_t findings = 0;
    for (size_t i = 0, k = 0; i < order.size(); i = k) {
        k = i + 1;
        while (k < order.size() && boxes[order[k]] == boxes[order[i]])
            ++k;
        if (k - i < 3) continue;
        ++findings;
        for (size_t m = i + 1; m < k; ++m)
            hidden[order[m]] = 1;
    }
    for (size_t a = 0; a < boxes.size(); ++a)
        for (size_t b = a + 1; b < boxes.size(); ++b) {
            if (hidden[a] || hidden[b]) continue;
            const double ox = std::min(boxes[a][2], boxes[b][2]) - std::max(boxes[a][0], boxes[b][0]);
            const double oy = std::min(boxes[a][3], boxes[b][3]) - std::max(boxes[a][1], boxes[b][1]);
            findings += ox > 1e-3 && oy > 1e-3;
        }
    return findings;
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
        // 60 racks stacked on one spot were 60 x 59 / 2 = 1,770 pair findings (50 listed and a summary line)
        // before issue 27; now they are one finding that counts them and names the first five.
        ojson j = design();
        for (int i = 0; i < 60; ++i)
            j["racks"].push_back(rack("s" + std::to_string(i), 5, 5));
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].message,
                 std::string("60 racks stacked at x 5.00 m, y 5.00 m in hall Hall 1: s0, s1, s2, "
                             "s3, s4 and 55 more"));
        QCOMPARE(found[0].entity, std::string("s1")); // the later of the first pair, as for a pair
    }

    void gridAgreesWithBruteForce() {
        // 400 racks on a jittered grid in one 40 x 20 m hall, some overlapping: the grid lists the first 20
        // pairs and its count of the rest equals a direct all-pairs test (no two footprints identical).
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
        QVERIFY(brute > 20); // the count of the rest is exercised
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(21));
        QCOMPARE(found.back().message, "… and " + std::to_string(brute - 20) +
                                           " more findings of rule racks_overlap in hall Hall 1 (" +
                                           std::to_string(brute) + " in all)");
        QCOMPARE(found.back().entity, std::string("h"));
    }

    // ---- Issue 27: stacks, caps per hall, bounded findings ----

    void noRacksOrOneRack() {
        ojson j = design();
        QVERIFY(named(rulesOf(j), "racks_overlap").empty());
        j["racks"] = ojson::array({rack("only", 2, 4)});
        QVERIFY(named(rulesOf(j), "racks_overlap").empty());
        // One rack of a stack size alone in a hall, another hall empty: nothing.
        j = twoHalls();
        j["racks"] = ojson::array({rack("one", 2, 4, 0, "row2")});
        QVERIFY(rulesOf(j).empty());
    }

    void touchingOnEdgesAndCornersIsNoOverlap() {
        // Four racks 0.6 x 1.2 m touching along x (2.0-2.6 | 2.6-3.2), along y (4.0-5.2 | 5.2-6.4) and at
        // a corner; a fifth turned 90 degrees (1.2 x 0.6) touching the top pair from above (y 3.4-4.0).
        ojson j = design();
        j["racks"] = ojson::array({rack("a", 2, 4), rack("b", 2.6, 4), rack("c", 2, 5.2), rack("d", 2.6, 5.2),
                                   rack("e", 2, 3.4, 90)});
        QVERIFY(named(rulesOf(j), "racks_overlap").empty());
        // Within the 1 mm tolerance (0.5 mm into b) is still touching; 2 mm into it is an overlap.
        j["racks"][1] = rack("b", 2.5995, 4);
        QVERIFY(named(rulesOf(j), "racks_overlap").empty());
        j["racks"][1] = rack("b", 2.598, 4);
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(1));
        QVERIFY2(found[0].message.find("Racks a and b in hall Hall 1 overlap by 0.00 m x 1.20 m") !=
                     std::string::npos,
                 found[0].message.c_str());
    }

    void stackIsOneFinding() {
        // 12 racks at (3, 4.2), one at (10, 2) apart: one finding naming the count, the spot and five names.
        ojson j = design();
        for (int i = 0; i < 12; ++i)
            j["racks"].push_back(rack("k" + std::to_string(i), 3, 4.2));
        j["racks"].push_back(rack("apart", 10, 2));
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].message,
                 std::string(
                     "12 racks stacked at x 3.00 m, y 4.20 m in hall Hall 1: k0, k1, k2, k3, k4 and 7 more"));
        QCOMPARE(found[0].entity, std::string("k1"));
        // Three is a stack (named in full); two on one spot read as a pair, as before issue 27.
        j["racks"] = ojson::array({rack("x", 3, 4.2), rack("y", 3, 4.2), rack("z", 3, 4.2)});
        QCOMPARE(named(rulesOf(j), "racks_overlap")[0].message,
                 std::string("3 racks stacked at x 3.00 m, y 4.20 m in hall Hall 1: x, y, z"));
        j["racks"] = ojson::array({rack("x", 3, 4.2), rack("y", 3, 4.2)});
        QCOMPARE(named(rulesOf(j), "racks_overlap")[0].message,
                 std::string("Racks x and y in hall Hall 1 overlap by 0.60 m x 1.20 m"));
        // Same spot, one turned 90 degrees: different footprints, so three pairs, not a stack.
        j["racks"] = ojson::array({rack("x", 3, 4.2), rack("y", 3, 4.2), rack("z", 3, 4.2, 90)});
        QCOMPARE(named(rulesOf(j), "racks_overlap").size(), size_t(3));
    }

    void twoStacksInOneHallAndAPairWithOne() {
        // 5 racks at (2, 1) (x 2.0-2.6) and 7 at (10, 5): two stack findings in the order of their first
        // racks. A rack at (2.4, 1.5) overlaps the first stack by 0.20 m x 0.70 m (x 2.4-2.6, y 1.5-2.2):
        // one pair finding with the stack's first rack, not five.
        ojson j = design();
        for (int i = 0; i < 7; ++i)
            j["racks"].push_back(rack("second" + std::to_string(i), 10, 5));
        for (int i = 0; i < 5; ++i)
            j["racks"].push_back(rack("first" + std::to_string(i), 2, 1));
        j["racks"].push_back(rack("lone", 2.4, 1.5));
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(3));
        QCOMPARE(found[0].message,
                 std::string("7 racks stacked at x 10.00 m, y 5.00 m in hall Hall 1: second0, "
                             "second1, second2, second3, second4 and 2 more"));
        QCOMPARE(found[1].message,
                 std::string("5 racks stacked at x 2.00 m, y 1.00 m in hall Hall 1: first0, "
                             "first1, first2, first3, first4"));
        QCOMPARE(found[2].message,
                 std::string("Racks first0 (one of 5 stacked) and lone in hall Hall 1 overlap "
                             "by 0.20 m x 0.70 m"));
        QCOMPARE(found[2].entity, std::string("lone"));
    }

    void overlapsCappedPerHall() {
        // 30 pairs, each overlapping by 0.30 m x 1.20 m and apart from the rest: 30 findings, 20 listed,
        // then "… and 10 more" (30 - 20) with the total, on the hall.
        ojson j = design();
        addOverlappingPairs(j, 30, "p");
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(21));
        for (size_t i = 0; i < 20; ++i)
            QVERIFY2(found[i].message.find("overlap by 0.30 m x 1.20 m") != std::string::npos,
                     found[i].message.c_str());
        QCOMPARE(found[20].message,
                 std::string("… and 10 more findings of rule racks_overlap in hall Hall 1 (30 in all)"));
        QCOMPARE(found[20].entity, std::string("h"));
        // Exactly 20: all listed, no summary line. 21: 20 and "… and 1 more".
        j = design();
        addOverlappingPairs(j, 20, "p");
        QCOMPARE(named(rulesOf(j), "racks_overlap").size(), size_t(20));
        j = design();
        addOverlappingPairs(j, 21, "p");
        const auto one = named(rulesOf(j), "racks_overlap");
        QCOMPARE(one.size(), size_t(21));
        QVERIFY2(one.back().message.find("… and 1 more") == 0, one.back().message.c_str());
    }

    void stacksBeforePairsWithinTheCap() {
        // 18 stacks of 3 (apart from each other) and 4 pairs elsewhere in the hall (y 7-8.2): 22 findings;
        // the 18 stacks, then 2 pairs, then "… and 2 more" (22 - 20).
        ojson j = design();
        addStacks(j, 18, 3, "s");
        for (int k = 0; k < 4; ++k) {
            j["racks"].push_back(rack("pa" + std::to_string(k), 0.5 + k * 1.2, 7));
            j["racks"].push_back(rack("pb" + std::to_string(k), 0.8 + k * 1.2, 7));
        }
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(21));
        for (size_t i = 0; i < 18; ++i)
            QVERIFY2(found[i].message.find("3 racks stacked") == 0, found[i].message.c_str());
        QVERIFY2(found[18].message.find("Racks pa") == 0, found[18].message.c_str());
        QVERIFY2(found[19].message.find("Racks pa") == 0, found[19].message.c_str());
        QCOMPARE(found[20].message,
                 std::string("… and 2 more findings of rule racks_overlap in hall Hall 1 (22 in all)"));
    }

    void stacksInTwoHallsCappedSeparately() {
        // Hall 1: 24 stacks of 3 -> 20 and "… and 4 more"; Hall 2: 22 stacks of 4 -> 20 and "… and 2 more".
        ojson j = twoHalls();
        addStacks(j, 24, 3, "one");
        addStacks(j, 22, 4, "two", "row2");
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(42));
        QCOMPARE(found[0].message.substr(0, 15), std::string("3 racks stacked"));
        QCOMPARE(found[20].message,
                 std::string("… and 4 more findings of rule racks_overlap in hall Hall 1 (24 in all)"));
        QCOMPARE(found[21].message.substr(0, 15), std::string("4 racks stacked"));
        QVERIFY(found[21].message.find("in hall Hall 2") != std::string::npos);
        QCOMPARE(found[41].message,
                 std::string("… and 2 more findings of rule racks_overlap in hall Hall 2 (22 in all)"));
        QCOMPARE(found[41].entity, std::string("h2"));
    }

    void linesPerRuleCappedOverTheDesign() {
        // Three halls with 25 overlapping pairs each: Hall 1 and Hall 2 take 21 lines each (42); Hall 3 lists
        // its first 8 pairs (50 lines); its other 12 pairs and the 5 of its own summary are unlisted:
        // "… and 17 more findings of rule racks_overlap (75 in all)".
        ojson j = twoHalls();
        j["buildings"][0]["depth_m"] = 60;
        j["halls"].push_back({{"id", "h3"},
                              {"name", "Hall 3"},
                              {"building", "b1"},
                              {"x_m", 5},
                              {"y_m", 30},
                              {"width_m", 20},
                              {"depth_m", 10}});
        j["rows"].push_back({{"id", "row3"}, {"name", "Row 3"}, {"hall", "h3"}, {"x_m", 2}, {"y_m", 4}});
        addOverlappingPairs(j, 25, "one");
        addOverlappingPairs(j, 25, "two", "row2");
        addOverlappingPairs(j, 25, "three", "row3");
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(51));
        QCOMPARE(found[20].message,
                 std::string("… and 5 more findings of rule racks_overlap in hall Hall 1 (25 in all)"));
        QVERIFY2(found[49].message.find("Racks threea7 and threeb7 in hall Hall 3") == 0,
                 found[49].message.c_str());
        QCOMPARE(found[50].message, std::string("… and 17 more findings of rule racks_overlap (75 in all)"));
    }

    void thirtyThousandStackedIsOneFinding() {
        // An import without positions: 30,000 racks at one spot. One finding (not 449,985,000 pairs).
        ojson j = design();
        auto& racks = j["racks"];
        for (int i = 0; i < 30000; ++i)
            racks.push_back(rack("r" + std::to_string(i), 3, 4.2));
        const auto rules = rulesOf(j);
        QCOMPARE(rules.size(), size_t(1));
        QCOMPARE(
            rules[0].message,
            std::string("30000 racks stacked at x 3.00 m, y 4.20 m in hall Hall 1: r0, r1, r2, r3, r4 and "
                        "29995 more"));
    }

    void thirtyThousandSqueezedAreCountedNotListed() {
        // A unit slip: 30,000 racks 0.01 mm apart (x 5.0 to 5.3): distinct footprints, every pair overlapping
        // (by at least 0.30 m x 1.20 m). 30,000 x 29,999 / 2 = 449,985,000 pairs: 20 listed, the rest
        // counted, not built.
        ojson j = design();
        auto& racks = j["racks"];
        for (int i = 0; i < 30000; ++i)
            racks.push_back(rack("r" + std::to_string(i), 5 + i * 1e-5, 4));
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(21));
        QCOMPARE(found.back().message,
                 std::string("… and 449984980 more findings of rule racks_overlap in hall "
                             "Hall 1 (449985000 in all)"));
    }

    void countAgreesWithBruteForceWhenDense() {
        // Racks dropped on a 0.5 mm or 1 mm lattice in a patch of about 1 x 2 m (so edges touch exactly, or
        // overlap by the 1 mm tolerance give or take a rounding), some turned 90 degrees, some 2 mm slivers,
        // every tenth on a rack already placed (stacks): the stacks plus the pairs of distinct footprints,
        // counted by the sweep, equal a brute-force test of every pair.
        struct Lattice {
            unsigned seed;
            double step, x0, y0;
            unsigned nx, ny;
        };
        for (const Lattice& l :
             {Lattice{1, 0.0005, 2, 2, 2000, 4000}, Lattice{7, 0.0005, 2, 2, 2000, 4000},
              Lattice{99, 0.001, 13.7, 5.3, 700, 1400}, Lattice{2024, 0.001, 2.1, 0.3, 700, 1400},
              Lattice{5, 0.001, 17.9, 7.7, 500, 900}}) {
            unsigned seed = l.seed;
            auto next = [&](unsigned n) { return (seed = seed * 1103515245u + 12345u) / 65536 % n; };
            ojson j = design();
            std::vector<std::array<double, 4>> boxes;
            const int n = 200 + static_cast<int>(next(200));
            for (int i = 0; i < n; ++i) {
                std::string type = "t-rack";
                double x = l.x0 + next(l.nx) * l.step, y = l.y0 + next(l.ny) * l.step, rot = 0;
                std::array<double, 4> box{x, y, x + 0.6, y + 1.2};
                if (i > 0 && next(10) == 0) { // onto an earlier rack (its position, type and turn)
                    const unsigned k = next(static_cast<unsigned>(i));
                    const auto& r = j["racks"][k];
                    x = r["x_m"], y = r["y_m"], rot = r["rotation_deg"], type = r["rack_type"];
                    box = boxes[k];
                } else if (next(8) == 0) {
                    rot = 90, box = {x, y, x + 1.2, y + 0.6};
                } else if (next(10) == 0) {
                    type = "t-sliver", box = {x, y, x + 0.002, y + 0.5};
                }
                j["racks"].push_back(rack("d" + std::to_string(i), x, y, rot, "row", type));
                boxes.push_back(box);
            }
            const size_t expected = expectedOverlapFindings(boxes);
            const auto found = named(rulesOf(j), "racks_overlap");
            QVERIFY(expected > 20);
            QCOMPARE(found.size(), size_t(21));
            QCOMPARE(inAll(found.back().message), expected);
        }
    }

    void countAgreesOnTheToleranceBoundary() {
        // Two clusters of 40 racks 0.5 mm apart, the second 0.59 m to 0.61 m after the first (k = 0..39 and
        // 1180..1219 steps): the pairs between them overlap by 11 mm down to touching, 1 mm give or take a
        // rounding among them. Along x at x = 5 and x = 17.9 (y = 1), along y at y = 5 (x = 10), where
        // x1 - x0 <= 1 mm and x1 <= x0 + 1 mm round differently: the count follows the pair test's
        // subtraction.
        ojson j = design();
        std::vector<std::array<double, 4>> boxes;
        const auto add = [&](double x, double y) {
            j["racks"].push_back(rack("t" + std::to_string(boxes.size()), x, y));
            boxes.push_back({x, y, x + 0.6, y + 1.2});
        };
        for (const double base : {5.0, 17.9})
            for (const int first : {0, 1180})
                for (int k = first; k < first + 40; ++k)
                    add(base + k * 0.0005, 1);
        for (const int first : {0, 2380})
            for (int k = first; k < first + 40; ++k)
                add(10, 5 + k * 0.0005);
        const size_t expected = expectedOverlapFindings(boxes);
        const auto found = named(rulesOf(j), "racks_overlap");
        QCOMPARE(found.size(), size_t(21));
        QCOMPARE(inAll(found.back().message), expected);
    }

    void otherRulesCappedPerParent() {
        // 25 racks sticking out of Hall 1 (x = 19.8, 0.40 m past its 20 m width): 20 and "… and 5 more".
        ojson j = design();
        for (int i = 0; i < 25; ++i)
            j["racks"].push_back(rack("out" + std::to_string(i), 19.8, 0.3 * i));
        auto found = named(rulesOf(j), "rack_outside_hall");
        QCOMPARE(found.size(), size_t(21));
        QVERIFY2(found[0].message.find("by 0.40 m") != std::string::npos, found[0].message.c_str());
        QCOMPARE(found[20].message,
                 std::string("… and 5 more findings of rule rack_outside_hall in hall Hall 1 (25 in all)"));
        // 23 CDUs of one loop past the hall's depth: 20 and "… and 3 more".
        j = design();
        j["cooling_loops"][0]["cdus"] = ojson::array();
        for (int i = 0; i < 23; ++i)
            j["cooling_loops"][0]["cdus"].push_back({{"x_m", 0.8 * i}, {"y_m", 9.5}});
        j["cooling_loops"][0]["cdu_count"] = 23;
        found = named(rulesOf(j), "cdu_outside_hall");
        QCOMPARE(found.size(), size_t(21));
        QCOMPARE(found[20].message,
                 std::string("… and 3 more findings of rule cdu_outside_hall in hall Hall 1 (23 in all)"));
        // Four identical buildings on one site: one stack finding, on the second.
        j = design();
        for (int i = 2; i <= 4; ++i)
            j["buildings"].push_back({{"id", "b" + std::to_string(i)},
                                      {"name", "B" + std::to_string(i)},
                                      {"site", "s"},
                                      {"power_capacity_w", 1e6},
                                      {"x_m", 0},
                                      {"y_m", 0},
                                      {"width_m", 40},
                                      {"depth_m", 30}});
        found = named(rulesOf(j), "buildings_overlap");
        QCOMPARE(found.size(), size_t(1));
        QCOMPARE(found[0].message,
                 std::string("4 buildings stacked at x 0.00 m, y 0.00 m on site s: B1, B2, B3, B4"));
        QCOMPARE(found[0].entity, std::string("b2"));
    }

    void updateAgreesWithFullCompile() {
        // The incremental update (one rack moved onto a stack, one into another hall, one out of a stack)
        // gives what a full compile gives, caps and stacks included.
        ojson j = twoHalls();
        addStacks(j, 22, 3, "s");
        addOverlappingPairs(j, 5, "p", "row2");
        model::Project p = model::projectFromJson(j, "test", &testCatalog());
        auto g = cost::geometryFindings(p, testCatalog());
        const std::vector<std::uint32_t> moved{0, 5, 70};
        p.racks[0].x = units::meters(0.5 + 1.2); // out of stack 0, onto stack 1
        p.racks[5].y = units::meters(7.5);       // out of stack 1, alone
        p.racks[70].row = "row";                 // from Hall 2 into Hall 1
        const auto full = cost::geometryFindings(p, testCatalog());
        cost::updateGeometryFindings(g, p, testCatalog(), moved, full.rackHall);
        const auto a = g.rules(), b = full.rules();
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].message, b[i].message);
            QCOMPARE(a[i].entity, b[i].entity);
        }
        QVERIFY(std::any_of(b.begin(), b.end(),
                            [](const auto& r) { return r.message.find("4 racks stacked") == 0; }));
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
