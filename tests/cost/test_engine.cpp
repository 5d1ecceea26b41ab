// The engine end to end: golden hand-checked figures on a small design with a fixed test catalog, Clos
// sizing against known limits, the Llama 3 reference's fabric counts, and property tests.
#include "../test_support.h"
#include "catalog.h"
#include "clos_sizing.h"
#include "design_json.h"
#include "evaluate.h"
#include "results_json.h"

#include <QtTest>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace ctwin;
using ojson = nlohmann::ordered_json;

namespace {

using test_support::kData;

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

/// Round numbers so every golden figure can be worked by hand.
model::Catalog testCatalog() {
    return model::Catalog({
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
              {"width_m", 0.6},
              {"depth_m", 1.2}}),
        item("t-plant", "cooling", "plant", {{"cop", 5}, {"capex_usd_per_w", 1}}, {{"type", "chiller"}}),
        item("t-ups", "power", "ups", {{"efficiency", 0.95}, {"capex_usd_per_w", 0.5}}),
    });
}

model::AssumptionSet testAssumptions() {
    model::AssumptionSet a;
    auto set = [&](const char* k, double v) { a[k] = model::Assumption{v, v, v, "", "test", false}; };
    set("electricity_usd_per_kwh", 0.10), set("wacc", 0.08), set("tax_rate", 0),
        set("it_useful_life_years", 5);
    set("network_useful_life_years", 5), set("facility_useful_life_years", 20), set("utilization", 0.5);
    set("mfu", 0.4), set("goodput", 0.9), set("maintenance_fraction", 0.01), set("staff_usd_per_mw_year", 0);
    set("horizon_years", 5), set("building_shell_usd_per_w", 2), set("integration_fraction", 0.1);
    set("route_factor", 1.3), set("gpu_hour_price_usd", 2);
    set("delivery_to_revenue_days", 30);
    set("misc_facility_fraction", 0.02), set("declining_balance_factor", 2), set("spare_fraction_target", 0);
    set("oversubscription_limit", 1), set("failure_detection_minutes", 5), set("rescheduling_minutes", 5);
    set("spare_swap_minutes", 1), set("straggler_loss", 0.01), set("sdc_extra_rollback_intervals", 1);
    // Cooling plant (cost/cooling_plant.h): t-plant has no climate values, so it runs at its fixed COP 5.
    set("climate_hourly_spread_factor", 1), set("compressor_cop_max_factor", 2);
    set("crah_fan_power_fraction", 0.05), set("air_chilled_water_supply_c", 18),
        set("air_chilled_water_delta_t_k", 6);
    set("global_batch_tokens", 16777216), set("sequence_length", 8192), set("mfu_pipeline_bubble", 0);
    set("mfu_fp8_ratio", 0.685), set("mfu_fp4_ratio", 0.45), set("cdu_repair_hours", 24);
    set("moe_alltoall_overlap", 0.5);
    // No residual values, so the golden annual figures keep their capital recovery on the full capex; the
    // legacy maintenance_fraction above overrides the per-class maintenance fractions (all three 1 %).
    set("it_residual_fraction", 0), set("network_residual_fraction", 0), set("facility_residual_fraction", 0);
    // Insurance 0.2 % of capex less land and property tax 1 % of capex a year (issue 30 item 4), round
    // numbers for the golden figures.
    set("insurance_rate_of_capex_per_year", 0.002), set("property_tax_rate_of_capex_per_year", 0.01);
    // No construction period and no facility downtime (issue 30), so the golden figures keep their capex at
    // t = 0 and every hour sold.
    set("construction_months", 0), set("facility_downtime_hours_n", 0),
        set("facility_downtime_hours_n_plus_1", 0);
    set("facility_downtime_hours_distributed_redundant", 0), set("facility_downtime_hours_2n", 0);
    // Fabric routing and pipeline overlap (issue 29 item 4) at their data/assumptions.json base values.
    set("collective_flows_per_port", 16), set("adaptive_routing_efficiency", 0.92);
    set("packet_spray_efficiency", 0.97), set("pp_p2p_overlap", 0.5);
    set("software_usd_per_gpu_year", 0); // no software licences (issue 30 item 4)
    // Power envelope (issue 35): provisioned for nameplate (no capping); the shipped profile, curve and
    // tower-water bases.
    set("power_oversubscription_ratio", 1), set("power_provisioning_basis", 0),
    set("gpu_power_clock_invariant_share", 0.22), set("gpu_power_clock_exponent", 3);
    set("training_compute_power_draw", 0.95), set("training_compute_clock_bound_share", 0.9);
    set("inference_prefill_power_draw", 0.95), set("inference_prefill_clock_bound_share", 0.95);
    set("inference_decode_power_draw", 0.35), set("inference_decode_clock_bound_share", 0.3);
    set("cooling_tower_cycles_of_concentration", 5);
    set("cooling_tower_liquid_gas_ratio", 1.2);
    set("grid_curtailment_hours_per_year", 0), set("grid_curtailment_depth", 0.5),
        set("grid_curtailment_event_hours", 2); // firm grid service
    set("onsite_generation_mw", 0), set("onsite_generation_capex_usd_per_kw", 1800),
        set("onsite_generation_heat_rate_btu_per_kwh", 8500),
        set("fuel_price_usd_per_mmbtu", 3.5); // grid only
    set("training_trough_power_draw", 0.3), set("grid_ramp_limit_mw_per_min", 0),
        set("bess_ride_through_hours", 0);
    set("bess_capex_usd_per_kwh", 250), set("bess_capex_usd_per_kw", 150); // no battery
    set("bess_round_trip_efficiency", 0.85);
    // Embodied carbon (issue 35 item 4): environment figures only, not the golden's.
    set("embodied_carbon_kgco2e_per_gpu", 475), set("embodied_carbon_tco2e_per_mw_it", 1000);
    // The time axis (issue 34): a cohort's rental price falls 20 % a year, its GPUs' price 8 %; IT prices
    // hold.
    set("gpu_rental_price_decay_per_year", 0.2), set("it_cohort_price_change_per_year", 0),
        set("gpu_price_decline_per_year", 0.08), set("grid_interconnect_month", 0),
        set("model_licence_revenue_share", 0), set("gpu_rental_contract_years", 2);
    return a;
}

/// One site at $0.10/kWh, one 1 MW building, four t-racks on one N+1 loop of two CDUs and one feed.
ojson smallDesign(int racks = 4) {
    ojson j = ojson::parse(R"({
      "format": "clustertwin-design", "schema_version": 1, "project": {"id": "p", "name": "Golden small"},
      "sites": [{"id": "s", "name": "S", "electricity_usd_per_kwh": 0.10}],
      "buildings": [{"id": "b", "name": "B", "site": "s", "power_capacity_w": 1e6, "width_m": 50, "depth_m": 50,
                     "power_topology": "N"}],
      "halls": [{"id": "h", "name": "H", "building": "b", "width_m": 20, "depth_m": 20}],
      "power_feeds": [{"id": "f", "name": "F", "building": "b", "capacity_w": 1e5, "chain": ["t-ups"]}],
      "cooling_loops": [{"id": "l", "name": "L", "hall": "h", "cdu_type": "t-cdu", "cdu_count": 2,
                         "redundancy": "N+1", "delta_t_k": 10, "plant": "t-plant"}],
      "rows": [{"id": "row", "name": "Row", "hall": "h"}], "racks": []})");
    for (int i = 0; i < racks; ++i)
        j["racks"].push_back({{"id", "r" + std::to_string(i)},
                              {"name", "R" + std::to_string(i)},
                              {"row", "row"},
                              {"rack_type", "t-rack"},
                              {"x_m", 0.6 * i},
                              {"feed_a", "f"},
                              {"cooling_loop", "l"}});
    return j;
}

double fig(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) qFatal("missing figure %s", key.c_str());
    return f->value;
}

void allFinite(const ojson& j) {
    if (j.is_number()) QVERIFY(std::isfinite(j.get<double>()));
    if (j.is_structured())
        for (const auto& e : j)
            allFinite(e);
}

} // namespace

class TestEngine : public QObject {
    Q_OBJECT
private slots:
    void closLimits() {
        // Non-blocking 2 tiers, radix 64: leaves have 32 down / 32 up; 2,048 endpoints = k²/2 on 64 leaves,
        // 64 x 32 = 2,048 uplinks on 2,048 / 64 = 32 spines.
        cost::ClosInput in;
        in.radix = 64, in.tiers = 2, in.topOfRack = false;
        in.endpointsPerRack = {2048};
        auto s = cost::sizeClos(in);
        QCOMPARE(s.leaves, 64.0);
        QCOMPARE(s.spines, 32.0);
        QCOMPARE(s.maxEndpoints, 2048.0);
        QVERIFY(!s.exceedsTierLimit);
        in.endpointsPerRack = {2049}; // one more endpoint needs a 65th leaf: beyond the spine radix
        QVERIFY(cost::sizeClos(in).exceedsTierLimit);
        // 3 tiers, radix 64, non-blocking: k³/4 = 65,536 endpoints.
        in.tiers = 3;
        in.endpointsPerRack = {65536};
        s = cost::sizeClos(in);
        QCOMPARE(s.maxEndpoints, 65536.0);
        QCOMPARE(s.leaves, 2048.0); // 65,536 / 32
        QCOMPARE(s.spines, 2048.0); // 65,536 uplinks / 32 down ports
        QCOMPARE(s.cores, 1024.0);  // 2,048 x 32 up / 64
        QVERIFY(!s.exceedsTierLimit);
        in.endpointsPerRack = {65537};
        QVERIFY(cost::sizeClos(in).exceedsTierLimit);
    }

    /// Endpoint groups (e, n) size exactly as n entries of e in endpointsPerRack (the bill of materials
    /// passes top-of-rack racks by rack type). ToR, radix 64, 1:1: a 72-endpoint rack needs ceil(72 / 32)
    /// = 3 leaves with 32 + 32 + 8 endpoints, so 32 + 32 + 8 = 72 uplinks; 10 such racks and 5 of 20
    /// endpoints (1 leaf, 20 uplinks each): 35 leaves, 820 leaf-spine links.
    void closEndpointGroups() {
        for (const int tiers : {1, 2, 3})
            for (const bool tor : {true, false}) {
                cost::ClosInput perRack;
                perRack.radix = 64, perRack.tiers = tiers, perRack.topOfRack = tor;
                perRack.leafOversubscription = 1.0, perRack.spineOversubscription = 3.0;
                cost::ClosInput grouped = perRack, mixed = perRack;
                perRack.endpointsPerRack.assign(10, 72.0);
                perRack.endpointsPerRack.insert(perRack.endpointsPerRack.end(), 5, 20.0);
                perRack.endpointsPerRack.push_back(0.0); // an empty group is no leaf
                grouped.endpointGroups = {{72.0, 10.0}, {20.0, 5.0}, {0.0, 3.0}};
                mixed.endpointsPerRack.assign(4, 72.0);
                mixed.endpointGroups = {{20.0, 5.0}, {72.0, 6.0}};
                const auto a = cost::sizeClos(perRack), b = cost::sizeClos(grouped),
                           c = cost::sizeClos(mixed);
                for (const auto* s : {&b, &c}) {
                    QCOMPARE(s->endpoints, a.endpoints);
                    QCOMPARE(s->leaves, a.leaves);
                    QCOMPARE(s->leafSpineLinks, a.leafSpineLinks);
                    QCOMPARE(s->spines, a.spines);
                    QCOMPARE(s->spineCoreLinks, a.spineCoreLinks);
                    QCOMPARE(s->cores, a.cores);
                    QCOMPARE(s->exceedsTierLimit, a.exceedsTierLimit);
                }
                QCOMPARE(a.endpoints, 820.0);
                if (tiers == 2 && tor) {
                    QCOMPARE(a.leaves, 35.0);
                    QCOMPARE(a.leafSpineLinks, 820.0);
                }
            }
    }

    void llama3ReferenceFabric() {
        // Llama 3 RoCE cluster (REFERENCES.md): 1,024 racks x 16 GPUs at 400G, one ToR per rack, 51.2T
        // switches as 128 x 400G (breakout 2), 1:1 into the spine, 1:7 at aggregation. Leaves: 1,024 ToRs
        // with 16 down and 16 up each -> 16,384 leaf-spine links. Spine at 1:7: d2 = floor(128 x 7/8) = 112
        // down, 16 up -> ceil(16,384 / 112) = 147 spines. Spine-core links: ceil(16,384 / 7) = 2,341 ->
        // ceil(2,341 / 128) = 19 cores. Total 1,190 per plane.
        const auto& catalog = test_support::catalog();
        const auto p = test_support::reference("llama3-16k-h100");
        const auto r = cost::evaluate(p, catalog, test_support::defaults());
        QCOMPARE(fig(r, "inventory.gpus"), 16384.0);
        const auto& backend = r.bom.fabrics.front();
        QCOMPARE(backend.role, std::string("backend"));
        QCOMPARE(backend.perPlane.leaves, 1024.0);
        QCOMPARE(backend.perPlane.leafSpineLinks, 16384.0);
        QCOMPARE(backend.perPlane.spines, 147.0);
        QCOMPARE(backend.perPlane.spineCoreLinks, 2341.0);
        QCOMPARE(backend.perPlane.cores, 19.0);
        QCOMPARE(backend.switches, 1190.0);
        QVERIFY(!backend.perPlane.exceedsTierLimit);
    }

    void goldenSmallDesign() {
        const auto catalog = testCatalog();
        const auto p = model::projectFromJson(smallDesign(), "golden.json", &catalog);
        const auto r = cost::evaluate(p, catalog, testAssumptions());
        const double tol = 1e-9;
        auto near = [&](const char* key, double expected, double relTol) {
            const double v = fig(r, key);
            QVERIFY2(std::abs(v - expected) <= relTol * std::max(1.0, std::abs(expected)),
                     (std::string(key) + " = " + std::to_string(v) + ", expected " + std::to_string(expected))
                         .c_str());
        };
        near("inventory.gpus", 32, tol);
        near("inventory.cdus", 2, tol);
        // IT at 50% utilization: 4 x (2,000 + 8,000 x 0.5) = 24,000 W.
        near("power.it_mw", 0.024, tol);
        // Pumps: 1,000 W x 20 kW / 100 kW = 200 W at full load, x 24/40 = 120 W operating.
        // Plant (issue 19 item 8): the loop takes the liquid half, 4 x 10 kW x 0.5 x 24/40 = 12,000 W, plus
        // pumps: (12,000 + 120) / COP 5 = 2,424 W; the other 12,000 W go to air: CRAH fans 5% = 600 W and
        // the air-side plant (the catalog has no plant-chiller: the loop's t-plant, fixed COP 5)
        // (12,000 + 600) / 5 = 2,520 W; plant = 5,544 W. Losses: 24,000/0.95 - 24,000 = 1,263.158 W, plus
        // the pumps ride on the UPS (issue 30): 120 x (1/0.95 - 1) = 6.316 W (t-ups has no loss fractions, so
        // no part-load term, and no upstream gear). Misc: 480 W. Facility = 31,413.474 W; PUE =
        // 31,413.474 / 24,000 = 1.3088947.
        near("power.facility_mw", 0.031413473684210527, 1e-12);
        near("power.pue", 1.3088947368421053, 1e-12);
        near("power.pue_annual", 1.3088947368421053, 1e-12);
        near("power.crah_fans_mw", 600e-6, 1e-12);
        // Loop flow: Q = 4 x 10 kW x 0.5 = 20 kW; 20,000 / (4,181 x 10 x 997) m³/s = 28.7876 L/min.
        QVERIFY(std::abs(r.bom.loops.front().flow.value() * 60000 - 28.78763053091348) < 1e-9);
        // Capex: compute 4 x 270k = 1,080,000; scale-up 4 x 30k = 120,000; power (one feed, topology N, the
        // UPS without a module rating is one unit of the critical load, IT 40 kW + pumps 200 W at full load,
        // not the feed's 100 kW rating) 0.5 $/W x 40.2 kW = 20,100;
        // building 2 $/W x 40 kW = 80,000; cooling 2 x 50k + 1 $/W x (20,000 + 200) W liquid + 1 $/W x
        // 20,000 W air = 140,200;
        // integration 10% x 1,200,000 = 120,000; total 1,560,300.
        near("capex.by_category_usd.compute", 1080000, tol);
        near("capex.by_category_usd.scale_up_network", 120000, tol);
        near("capex.by_category_usd.power", 20100, tol);
        near("capex.by_category_usd.building", 80000, tol);
        near("capex.by_category_usd.cooling", 140200, tol);
        near("capex.by_category_usd.integration", 120000, tol);
        near("capex.total_usd", 1560300, tol);
        near("capex.per_gpu_usd", 1560300.0 / 32, tol);
        near("capex.per_mw_usd", 1560300.0 / 0.04, tol);
        // Annualized: 1,320,000 x CRF(8%, 5) 0.2504565 + 240,300 x CRF(8%, 20) 0.1018522 = 355,077.61.
        near("finance.annualized_capex_usd", 355077.60580842715, 1e-12);
        // Depreciation: 1,320,000 / 5 + 240,300 / 20 = 276,015.
        near("finance.depreciation_annual_usd", 276015, tol);
        // Energy: 31,413.474 W x 8,766 h = 275,370.5 kWh x $0.10 = 27,537.05; + maintenance 1% x capex
        // 15,603; + insurance 0.2 % x (capex - land 0) = 3,120.6; + property tax 1 % x capex = 15,603.
        // Opex = 27,537.051 + 15,603 + 3,120.6 + 15,603 = 61,863.651.
        near("finance.energy_annual_usd", 27537.051031578943, 1e-12);
        near("finance.insurance_annual_usd", 3120.6, 1e-12);
        near("finance.property_tax_annual_usd", 15603, 1e-12);
        near("finance.opex_annual_usd", 61863.65103157894, 1e-12);
        // TCO = 355,077.606 + 61,863.651 = 416,941.257.
        near("finance.tco_annual_usd", 416941.2568400061, 1e-12);
        // GPU-hours: 32 x 8,766 x 0.5 = 140,256; $/GPU-h = 416,941.26 / 140,256 = 2.9727160.
        near("finance.cost_per_gpu_hour_usd", 416941.2568400061 / 140256, 1e-12);
        // t-gpu has no catalog rental price: the revenue uses assumptions.gpu_hour_price_usd ($2).
        near("finance.gpu_hour_price_usd", 2, 1e-12);
        QVERIFY(!r.finance.gpuHourPriceFromCatalog);
        QVERIFY2(!r.hasErrors(), r.rules.empty() ? "" : r.rules.front().message.c_str());
    }

    void doublingRacksDoublesGpuCapex() {
        const auto catalog = testCatalog();
        const auto r4 = cost::evaluate(model::projectFromJson(smallDesign(4), "a.json", &catalog), catalog,
                                       testAssumptions());
        const auto r8 = cost::evaluate(model::projectFromJson(smallDesign(8), "b.json", &catalog), catalog,
                                       testAssumptions());
        QCOMPARE(fig(r8, "capex.by_category_usd.compute"), 2 * fig(r4, "capex.by_category_usd.compute"));
        QCOMPARE(fig(r8, "inventory.gpus"), 2 * fig(r4, "inventory.gpus"));
    }

    void sharesSumToOneAndEverythingIsFinite_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"llama3-16k-h100", "neocloud-100k-gb200", "campus-1gw", "two-site-wan",
                              "agentic-inference-gb300", "vera-rubin-504"})
            QTest::newRow(f) << QString::fromStdString(kData + "/reference/" + f + ".json");
    }
    void sharesSumToOneAndEverythingIsFinite() {
        QFETCH(QString, file);
        const auto& catalog = test_support::catalog();
        const auto p = model::loadProjectJson(file.toStdString(), &catalog);
        const auto r = cost::evaluate(p, catalog, test_support::defaults());
        double sum = 0;
        for (const auto& c : cost::kCapexCategories)
            sum += r.capex.share(c);
        QVERIFY(std::abs(sum - 1.0) < 1e-12);
        allFinite(cost::resultsToJson(r));
        QVERIFY(fig(r, "power.pue") > 1.0 && fig(r, "power.pue") < 2.0);
        QVERIFY(fig(r, "finance.cost_per_gpu_hour_usd") > 0);
        for (const auto& rule : r.rules)
            QVERIFY2(rule.severity != cost::Severity::Error,
                     (file.toStdString() + ": " + rule.message).c_str());
    }

    void zeroUtilizationIsFinite() {
        const auto catalog = testCatalog();
        auto a = testAssumptions();
        a["utilization"].base = 0;
        const auto r = cost::evaluate(model::projectFromJson(smallDesign(), "z.json", &catalog), catalog, a);
        allFinite(cost::resultsToJson(r));
        QCOMPARE(fig(r, "finance.cost_per_gpu_hour_usd"), 0.0);
        QVERIFY(!r.rules.empty());
    }

    void infeasibleDesignsGiveRulesNotNaN() {
        const auto catalog = testCatalog();
        auto expectRule = [&](const ojson& design, model::AssumptionSet a, const std::string& ruleId) {
            const auto r = cost::evaluate(model::projectFromJson(design, "bad.json", &catalog), catalog, a);
            allFinite(cost::resultsToJson(r));
            const bool found =
                std::any_of(r.rules.begin(), r.rules.end(), [&](const auto& x) { return x.rule == ruleId; });
            QVERIFY2(found, ruleId.c_str());
        };
        expectRule(smallDesign(0), testAssumptions(), "no_gpus");
        auto a = testAssumptions();
        a["utilization"].base = 1.5;
        expectRule(smallDesign(), a, "utilization_range");
        auto overloaded = smallDesign(24); // 24 x 5 kW liquid = 120 kW > 100 kW with one CDU held redundant
        expectRule(overloaded, testAssumptions(), "loop_over_capacity");
        auto link = smallDesign();
        link["sites"].push_back({{"id", "s2"}, {"name", "S2"}});
        link["links"] = ojson::array(
            {{{"id", "w"}, {"name", "W"}, {"from", "s"}, {"to", "s2"}, {"capacity_bit_per_s", 1e12}}});
        expectRule(link, testAssumptions(), "link_zero_length");
        auto job = smallDesign();
        job["training_jobs"] = ojson::array(
            {{{"id", "j"}, {"name", "J"}, {"model_params", 1e9}, {"tokens", 1e12}, {"gpus", 64}}});
        expectRule(job, testAssumptions(), "job_too_large");
    }
};

QTEST_APPLESS_MAIN(TestEngine)
#include "test_engine.moc"
