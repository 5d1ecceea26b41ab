// Power envelope (issue 35 items 1 and 4): oversubscription and power capping (cost/power_envelope.h), the
// location-based grid carbon table (cost/grid_carbon.h) and the energy, carbon and water figures. Expected
// values are worked by hand in the comment beside each check (Python to 1e-12 where marked); tolerances are
// stated at each check.
#include "../test_support.h"
#include "climate.h"
#include "cooling_plant.h"
#include "evaluate.h"
#include "grid_carbon.h"
#include "input_error.h"
#include "power_envelope.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace ctwin;
using ctwin::test_support::catalog;
using ctwin::test_support::defaults;
using ctwin::test_support::reference;

namespace {

double fig(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) qFatal("figure %s missing", key.c_str());
    return f->value;
}

/// A figure's provenance input by name (NaN when absent, which fails every comparison).
double figureInput(const cost::Figure& f, const std::string& name) {
    for (const auto& [key, value] : f.provenance.inputs)
        if (key == name) return value;
    return std::nan("");
}

cost::Results evaluateAt(model::Project p, double ratio) {
    auto a = defaults();
    a.at("power_oversubscription_ratio").base = ratio;
    return cost::evaluate(p, catalog(), a);
}

bool near(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::max(std::abs(b), 1e-300);
}

std::string gridFile(const QTemporaryDir& dir, const std::string& entries) {
    const std::string path = dir.path().toStdString() + "/grid_carbon.json";
    test_support::writeFile(path, R"({"locations": [)" + entries + "]}");
    return path;
}

const std::string kEntry = R"({"id": "x", "grid_region": "R", "year": 2023, "source": "s",
  "gco2e_per_kwh": {"base": 300, "low": 250, "high": 350}})";

} // namespace

class TestPowerEnvelope : public QObject {
    Q_OBJECT
private slots:
    // relativePower = s + (1 - s) f^alpha: s = 0.22, alpha = 3, f = 0.8: 0.22 + 0.78 x 0.512 = 0.61936.
    void powerFrequencyCurve() {
        const cost::PowerFrequencyCurve curve; // shipped bases: s 0.22, alpha 3
        QVERIFY(near(cost::relativePower(curve, 0.8), 0.61936, 1e-12));
        QCOMPARE(cost::relativePower(curve, 1.0), 1.0);
        cost::PowerFrequencyCurve withHost = curve;
        withHost.hostShare = 0.3;
        // rackPower = h + (1 - h) L relp(f) = 0.3 + 0.7 x 0.5 x 0.61936 = 0.516776.
        QVERIFY(near(cost::rackPower(withHost, 0.5, 0.8), 0.516776, 1e-12));
    }

    // One synchronous phase: the llama3 rack (2 x HGX H100: 16 x 700 W of 20,400 W, h = 1 - 11,200/20,400 =
    // 0.4509804), training's compute phase at L = 0.95 of TDP, beta 0.9, ratio 1.2 (cap 0.8333333):
    // GPU share that fits = (0.8333333 - 0.4509804) / (0.5490196 x 0.95) = 0.7330827; f = ((0.7330827 -
    // 0.22) / 0.78)^(1/3) = 0.8696896; stretch = 0.9 / f + 0.1 = 1.1348520 (Python, 1e-9).
    void capPhaseByHand() {
        cost::PowerFrequencyCurve curve;
        curve.hostShare = 1.0 - 11200.0 / 20400.0;
        const auto out = cost::capPhase(0.95, 0.9, 1.0 / 1.2, curve);
        QVERIFY(out.binds());
        QVERIFY(out.reachable);
        QVERIFY(near(out.clock, 0.8696895629, 1e-9));
        QVERIFY(near(out.stretch, 1.1348520189, 1e-9));
        // The rack then draws exactly the cap.
        QVERIFY(near(cost::rackPower(curve, 0.95, out.clock), 1.0 / 1.2, 1e-12));
        // Below the cap nothing changes: 0.4509804 + 0.5490196 x 0.95 = 0.9725490 < 1.
        const auto free = cost::capPhase(0.95, 0.9, 1.0, curve);
        QVERIFY(!free.binds());
        QCOMPARE(free.stretch, 1.0);
        // A cap under the host share cannot be met at any clock: the clock stays at its floor.
        const auto low = cost::capPhase(0.95, 0.9, 0.4, curve);
        QVERIFY(!low.reachable);
        QCOMPARE(low.clock, curve.minClock);
    }

    // Unsynchronized mix: h = 0.3; prefill 40 % of busy time at 0.95 of TDP (beta 0.95), decode 60 % at 0.35
    // (beta 0.3); mean at full clock 0.3 + 0.7 x (0.4 x 0.95 + 0.6 x 0.35) = 0.713. Cap 1/1.8 = 0.5555556:
    // the common clock where the stretch-weighted mean fits is 0.7842474, mix stretch 1.1540604 (Python
    // bisection to 1e-15; tolerance 1e-7 for the engine's 1e-9 bisection).
    void capMixByHand() {
        cost::PowerFrequencyCurve curve;
        curve.hostShare = 0.3;
        const std::vector<cost::PowerPhase> mix = {{0.4, 0.95, 0.95}, {0.6, 0.35, 0.3}};
        QVERIFY(near(cost::mixRackPower(mix, 1.0, curve), 0.713, 1e-12));
        const auto out = cost::capMix(mix, 1.0 / 1.8, curve);
        QVERIFY(out.reachable);
        QVERIFY(near(out.clock, 0.7842473828, 1e-7));
        QVERIFY(near(out.stretch, 1.1540604001, 1e-7));
        QVERIFY(cost::mixRackPower(mix, out.clock, curve) <= 1.0 / 1.8 + 1e-12);
        // A cap above the mean does not bind.
        QVERIFY(!cost::capMix(mix, 0.72, curve).binds());
    }

    // The tower's psychrometric balance (cost/power_envelope.h), each figure from the same formulas in
    // Python: W_s(20 degC) = 0.0146606 (ASHRAE Fundamentals 2021 ch. 1 Table 2 lists 0.014758: the Magnus
    // p_ws is 0.25 % low, 1 % tolerance); the air at 32/24 degC holds 0.0154479 kg/kg; at full flow (L/G
    // 1.2, range 5.6 K) it leaves saturated at 30.0585 degC, having evaporated 1.50853 kg per kWh of heat,
    // 0.975 of the heat at 1,000 Btu/lb (Wang's ~5 % sensible when the air enters warmer than the water
    // leaves). Cold air (0/-2 degC) with the fans throttled to hold the design exit: 0.951756 kg/kWh, a share
    // of 0.615 (sensible 38 %); mild air (25/20 degC): 1.23634. A year of flat 25/20 degC hours (spread
    // 0.3 K) gives the mild value: 1.23645.
    void towerEvaporationByHand() {
        QVERIFY(near(cost::saturationHumidityRatio(20.0), 0.014758, 1e-2));
        QVERIFY(near(cost::humidityRatioFromWetBulb(32.0, 24.0), 0.0154479063, 1e-8));
        const double exit = cost::towerExitAirC(32.0, 24.0, 5.6, 1.2);
        QVERIFY(std::abs(exit - 30.0584594263) < 1e-6);
        QVERIFY(near(cost::towerEvaporationKgPerKwh(32.0, 24.0, 5.6, 1.2, -99.0), 1.5085, 1e-4));
        QVERIFY(near(cost::towerEvaporationKgPerKwh(0.0, -2.0, 5.6, 1.2, exit), 0.9517560657, 1e-6));
        QVERIFY(near(cost::towerEvaporationKgPerKwh(25.0, 20.0, 5.6, 1.2, exit), 1.2363419989, 1e-6));
        // The exit floor only throttles: on the design day itself it changes nothing.
        QVERIFY(near(cost::towerEvaporationKgPerKwh(32.0, 24.0, 5.6, 1.2, exit),
                     cost::towerEvaporationKgPerKwh(32.0, 24.0, 5.6, 1.2, -99.0), 1e-9));
        // Hot dry air cools as it saturates: more water than the heat alone evaporates (share > 1).
        QVERIFY(cost::towerEvaporationKgPerKwh(40.0, 21.0, 5.6, 1.2, exit) * 2.326 / 3.6 > 1.0);
        // No range or no air: nothing.
        QCOMPARE(cost::towerEvaporationKgPerKwh(25.0, 20.0, 0.0, 1.2, exit), 0.0);
        QCOMPARE(cost::towerEvaporationKgPerKwh(25.0, 20.0, 5.6, 0.0, exit), 0.0);
        cost::ClimateLocation flat;
        flat.dryBulbC.fill(25.0), flat.wetBulbC.fill(20.0);
        flat.designDryBulbC = 32.0, flat.designWetBulbC = 24.0;
        flat.sigmaDryBulbK = flat.sigmaWetBulbK = 0.3;
        QVERIFY(near(cost::annualTowerEvaporationKgPerKwh(flat, 5.6, 1.2, {}), 1.2364521097, 1e-6));
    }

    // The same design's water in three climates (issue 35 item 4: WUE by climate): llama3-16k-h100 moved to
    // Phoenix, Des Moines and Lulea. Its towers evaporate most of their heat in the desert and least in the
    // subarctic; each building's evaporated share lies between the coldest and the hottest hours' (0.5 and
    // 1.1 at 1,000 Btu/lb), and the water is make-up = evaporated x 5 / 4 per kWh of heat.
    void waterFollowsClimate() {
        std::map<std::string, double> wue, share;
        for (const char* place : {"us-az-phoenix", "us-ia-des-moines", "se-lulea"}) {
            auto p = reference("llama3-16k-h100");
            for (auto& site : p.sites)
                site.climateLocation = place;
            const auto r = cost::evaluate(p, catalog(), defaults());
            wue[place] = fig(r, "environment.wue_l_per_kwh");
            const auto* f = r.figure("environment.water_m3_per_year_onsite");
            QVERIFY(f);
            share[place] = figureInput(*f, "evaporated_share_of_heat");
            QVERIFY2(share[place] > 0.5 && share[place] < 1.1, place);
            QVERIFY(
                near(figureInput(*f, "litres_per_kwh_heat"), share[place] * 3.6 / 2.326 * 5.0 / 4.0, 1e-9));
        }
        QVERIFY(wue["us-az-phoenix"] > 1.1 * wue["us-ia-des-moines"]);
        QVERIFY(wue["us-ia-des-moines"] > 1.05 * wue["se-lulea"]);
        qInfo("WUE L/kWh (share evaporated): Phoenix %.3f (%.3f), Des Moines %.3f (%.3f), Lulea %.3f (%.3f)",
              wue["us-az-phoenix"], share["us-az-phoenix"], wue["us-ia-des-moines"],
              share["us-ia-des-moines"], wue["se-lulea"], share["se-lulea"]);
    }

    // One basis for operating power (issue 35): the agentic reference's 288 working GB300 racks are all
    // booked by its two services (15,552 + 5,184 = 20,736 GPUs), so while sold they draw the services'
    // GPU-weighted prefill/decode mix, h + (1 - h) x (pf x 0.95 + (1 - pf) x 0.35) of full load (h the
    // rack's host share, pf each service's prefill share of GPU time), not full load; unsold they idle, the
    // 6 spares idle, the 32 network racks run at idle + (load - idle) x u as before. Hand-built from the
    // catalog and each service's prefill share; the facility energy per M output tokens (the first
    // service's GPUs at its own draw) is then the same basis as the energy bill.
    void operatingPowerFollowsTheWorkload() {
        const auto p = reference("agentic-inference-gb300");
        const auto r = cost::evaluate(p, catalog(), defaults());
        const auto& cat = catalog();
        const auto* rack = cat.find("gb300-nvl72");
        const auto* net = cat.find("network-rack-48u");
        QVERIFY(rack && net);
        const auto* acc = cat.find(rack->attribute("accelerator"));
        QVERIFY(acc);
        const double load = rack->value("power_load_w"), idle = rack->value("power_idle_w");
        const double h = 1.0 - rack->value("gpus") * acc->value("tdp_w") / load;
        QCOMPARE(r.inference.size(), size_t(2));
        double drawn = 0, booked = 0;
        for (size_t i = 0; i < 2; ++i) {
            const double pf = r.inference[i].sizing.prefillFraction;
            const double d = h + (1.0 - h) * (pf * 0.95 + (1.0 - pf) * 0.35);
            drawn += p.inferenceServices[i].gpus * d;
            booked += p.inferenceServices[i].gpus;
        }
        QCOMPARE(booked, 20736.0);
        const double busyShare = drawn / booked;
        QVERIFY2(busyShare > 0.5 && busyShare < 0.8, qPrintable(QString::number(busyShare)));
        const double u = defaults().at("utilization").base;
        const double netLoad = net->value("power_load_w"), netIdle = net->value("power_idle_w");
        const double expectedW = 288 * (idle + (std::max(idle, load * busyShare) - idle) * u) + 6 * idle +
                                 32 * (netIdle + (netLoad - netIdle) * u);
        QVERIFY(near(fig(r, "power.it_compute_mw"), expectedW / 1e6, 1e-9));
        const auto* f = r.figure("power.it_compute_mw");
        QVERIFY(f);
        QVERIFY(near(figureInput(*f, "busy_draw_share_of_load"), busyShare, 1e-12));
        // The same design with no services: every sold rack at full load, as a capacity rental.
        auto bare = p;
        bare.inferenceServices.clear();
        const auto b = cost::evaluate(bare, catalog(), defaults());
        QVERIFY(near(
            fig(b, "power.it_compute_mw"),
            (288 * (idle + (load - idle) * u) + 6 * idle + 32 * (netIdle + (netLoad - netIdle) * u)) / 1e6,
            1e-9));
        QVERIFY(fig(r, "power.facility_mw") < fig(b, "power.facility_mw"));
        // The provisioned peak does not move: the racks are provisioned for full load.
        QVERIFY(near(fig(r, "power.facility_peak_mw"), fig(b, "power.facility_peak_mw"), 1e-12));
    }

    // llama3-16k-h100 (1,024 racks of 20,400 W, no spares, one site in Iowa): at ratio 1.2 the provisioned
    // compute peak is 20.8896 MW / 1.2 = 17.408 MW, the nameplate stays 20.8896 MW, and the job's compute
    // phase runs at the clock of capPhaseByHand, so MFU falls by 1.1348520 and the busy step stretches by as
    // much; capex and cost per GPU-hour fall (smaller chain, shell and plant sized on the provisioned peak).
    void oversubscribedTraining() {
        const auto p = reference("llama3-16k-h100");
        const auto base = evaluateAt(p, 1.0), over = evaluateAt(p, 1.2);
        QVERIFY(near(fig(base, "power.it_compute_peak_mw"), 20.8896, 1e-12));
        QVERIFY(near(fig(over, "power.it_compute_nameplate_mw"), 20.8896, 1e-12));
        QVERIFY(near(fig(over, "power.it_compute_peak_mw"), 17.408, 1e-12));
        QCOMPARE(fig(base, "training.capping_clock"), 1.0);
        QVERIFY(near(fig(over, "training.capping_clock"), 0.8696895629, 1e-9));
        QVERIFY(near(fig(over, "training.capping_slowdown"), 1.1348520189, 1e-9));
        // 1,024 racks / facility peak.
        QVERIFY(near(fig(over, "power.compute_racks_per_provisioned_mw"),
                     1024.0 / fig(over, "power.facility_peak_mw"), 1e-12));
        QVERIFY(fig(over, "capex.total_usd") < fig(base, "capex.total_usd"));
        QVERIFY(fig(over, "training.time_days") > fig(base, "training.time_days") * 1.05);
        // Racks draw no more than their cap on average either.
        QVERIFY(fig(over, "power.it_compute_mw") <= 17.408 + 1e-9);
    }

    // agentic-inference-gb300: serving racks are decode-heavy, so the cap binds late (POLCA's headroom).
    // GB300 NVL72: 72 x 1,400 W of 145,000 W, h = 0.3048276. Up to ratio 1.5 nothing is lost; at 2.0 the
    // clock falls and throughput drops by a few per cent while tokens per provisioned MW keep rising.
    void oversubscribedInference() {
        const auto p = reference("agentic-inference-gb300");
        const auto base = evaluateAt(p, 1.0), mid = evaluateAt(p, 1.5), high = evaluateAt(p, 2.0);
        QCOMPARE(fig(mid, "inference.capping_clock"), 1.0);
        QCOMPARE(fig(mid, "inference.capping_throughput_loss"), 0.0);
        // Same tokens, provisioned MW / 1.5 on the compute share: per provisioned MW rises by 30-50 %.
        const double gain = fig(mid, "inference.output_tokens_per_s_per_mw") /
                            fig(base, "inference.output_tokens_per_s_per_mw");
        QVERIFY2(gain > 1.3 && gain < 1.5, qPrintable(QString::number(gain)));
        QVERIFY(fig(high, "inference.capping_clock") < 0.9);
        const double loss = fig(high, "inference.capping_throughput_loss");
        QVERIFY2(loss > 0.0 && loss < 0.1, qPrintable(QString::number(loss)));
        QVERIFY(fig(high, "inference.output_tokens_per_s_per_mw") >
                fig(mid, "inference.output_tokens_per_s_per_mw"));
        // The per-user target still holds at the capped clock (the service is sized again).
        QVERIFY(fig(high, "inference.tokens_per_second_per_user") >= 50.0 - 1e-6);
    }

    // Oversubscription per power domain (issue 35 item 1): a rack is capped by the tightest domain above
    // it. On llama3-16k-h100 (one site, one building, halls b1-h1..h3): every building at 1.2 over a design
    // at 1.0 is the design at 1.2, figure for figure; a hall below the design's ratio changes nothing (the
    // design's is tighter); hall b1-h3 alone at 1.2 takes its compute racks' nameplate x (1 - 1/1.2) off the
    // provisioned compute peak, and the synchronous job, paced by its most capped domain, runs at the
    // capped clock of the whole design at 1.2 (0.8696895629, capPhaseByHand).
    void domainRatiosNest() {
        const auto p = reference("llama3-16k-h100");
        const auto design12 = evaluateAt(p, 1.2), design10 = evaluateAt(p, 1.0);
        auto buildings = p;
        for (auto& b : buildings.buildings)
            b.powerOversubscriptionRatio = 1.2;
        const auto b12 = evaluateAt(buildings, 1.0);
        for (const char* key :
             {"power.it_compute_peak_mw", "power.facility_peak_mw", "training.capping_clock",
              "training.time_days", "finance.cost_per_gpu_hour_usd"})
            QVERIFY2(near(fig(b12, key), fig(design12, key), 1e-12), key);
        auto looser = p;
        for (auto& h : looser.halls)
            h.powerOversubscriptionRatio = 1.1;
        QVERIFY(near(fig(evaluateAt(looser, 1.2), "power.it_compute_peak_mw"),
                     fig(design12, "power.it_compute_peak_mw"), 1e-12));
        // Hall b1-h3 alone.
        auto one = p;
        std::set<std::string> rowsOfH3;
        for (auto& h : one.halls)
            if (h.id == "b1-h3") h.powerOversubscriptionRatio = 1.2;
        for (const auto& row : one.rows)
            if (row.hall == "b1-h3") rowsOfH3.insert(row.id);
        double h3Nameplate = 0;
        for (const auto& rack : one.racks) {
            const auto* type = catalog().find(rack.rackType);
            const bool compute = type && type->find("gpus") && type->value("gpus") > 0;
            if (!rack.spare && rowsOfH3.count(rack.row) && compute)
                h3Nameplate += type->value("power_load_w");
        }
        QVERIFY(h3Nameplate > 0);
        const auto h3 = evaluateAt(one, 1.0);
        QVERIFY(near(fig(h3, "power.it_compute_peak_mw"),
                     fig(design10, "power.it_compute_peak_mw") - h3Nameplate * (1.0 - 1.0 / 1.2) / 1e6,
                     1e-12));
        QVERIFY(near(fig(h3, "training.capping_clock"), 0.8696895629, 1e-9));
        QCOMPARE(fig(design10, "training.capping_clock"), 1.0);
        // A power feed is a domain too: the first feed at 1.2 caps every working compute rack that names it
        // as its A or its B feed (the tighter of a rack's two paths holds), and only those.
        auto fed = p;
        QVERIFY(!fed.powerFeeds.empty());
        fed.powerFeeds.front().powerOversubscriptionRatio = 1.2;
        const std::string feed = fed.powerFeeds.front().id;
        double feedNameplate = 0;
        int onA = 0, onB = 0;
        for (const auto& rack : fed.racks) {
            const auto* type = catalog().find(rack.rackType);
            const bool compute = type && type->find("gpus") && type->value("gpus") > 0;
            if (rack.spare || !compute || (rack.feedA != feed && rack.feedB != feed)) continue;
            feedNameplate += type->value("power_load_w");
            onA += rack.feedA == feed, onB += rack.feedB == feed;
        }
        QVERIFY(feedNameplate > 0 && onA > 0);
        QVERIFY(feedNameplate < 20.8896e6); // not the whole design
        QVERIFY(near(fig(evaluateAt(fed, 1.0), "power.it_compute_peak_mw"),
                     fig(design10, "power.it_compute_peak_mw") - feedNameplate * (1.0 - 1.0 / 1.2) / 1e6,
                     1e-12));
    }

    // The planning basis (power_provisioning_basis): observed (1) provisions each working compute rack at the
    // peak its workload draws at full clock. llama3-16k-h100's racks all run its training job, so its
    // compute peak is the nameplate 20.8896 MW x the compute phase's rack draw
    // (training.ratio_without_capping's input), and at ratio 1 nothing is capped; on the agentic reference
    // every GB300 rack is booked, so its provisioned compute is the nameplate x the services' GPU-weighted
    // full-clock mix, and at ratio 1.2 on that basis the first service's cap is its own mix / 1.2, which
    // binds. Half the basis (0.5) is the blend.
    void observedPlanningBasis() {
        auto observed = defaults();
        observed.at("power_provisioning_basis").base = 1.0;
        const auto llama = cost::evaluate(reference("llama3-16k-h100"), catalog(), observed);
        const auto* f = llama.figure("training.ratio_without_capping");
        QVERIFY(f);
        const double draw = figureInput(*f, "rack_draw_share");
        QVERIFY(draw > 0.9 && draw < 1.0);
        QVERIFY(near(f->value, 1.0, 1e-12));
        QVERIFY(near(fig(llama, "power.it_compute_peak_mw"), 20.8896 * draw, 1e-12));
        QCOMPARE(fig(llama, "training.capping_clock"), 1.0);
        auto half = observed;
        half.at("power_provisioning_basis").base = 0.5;
        QVERIFY(near(
            fig(cost::evaluate(reference("llama3-16k-h100"), catalog(), half), "power.it_compute_peak_mw"),
            20.8896 * (0.5 + 0.5 * draw), 1e-12));

        const auto p = reference("agentic-inference-gb300");
        const auto r = cost::evaluate(p, catalog(), observed);
        const auto& cat = catalog();
        const auto* rack = cat.find("gb300-nvl72");
        const auto* acc = cat.find(rack->attribute("accelerator"));
        const double load = rack->value("power_load_w"), idle = rack->value("power_idle_w");
        const double h = 1.0 - rack->value("gpus") * acc->value("tdp_w") / load;
        double planned = 0;
        for (size_t i = 0; i < 2; ++i) {
            const double pf = r.inference[i].sizing.prefillFraction;
            planned += p.inferenceServices[i].gpus * (h + (1.0 - h) * (pf * 0.95 + (1.0 - pf) * 0.35));
        }
        const double basis = planned / 20736.0;
        const auto* net = cat.find("network-rack-48u");
        const double expected =
            288 * std::max(idle, load * basis) + 6 * idle + 32 * net->value("power_load_w");
        QVERIFY(near(fig(r, "power.it_compute_peak_mw"), expected / 1e6, 1e-9));
        QCOMPARE(fig(r, "inference.capping_clock"), 1.0);
        observed.at("power_oversubscription_ratio").base = 1.2;
        const auto capped = cost::evaluate(p, catalog(), observed);
        QVERIFY(fig(capped, "inference.capping_clock") < 1.0);
        QVERIFY(near(fig(capped, "inference.ratio_without_capping"), 1.0, 1e-12));
    }

    // Inference replicas are independent: on the agentic reference (halls b1-h1 and b1-h2, 144 GB300 racks
    // each) with hall b1-h2 alone at 2.0, the service's output tokens/s is half the uncapped fleet's plus
    // half the fleet's capped at 2.0 (each evaluated whole), its operating point the capped hall's, and its
    // racks' mean draw the mean of the two.
    void domainRatiosSplitServing() {
        const auto p = reference("agentic-inference-gb300");
        const auto at10 = evaluateAt(p, 1.0), at20 = evaluateAt(p, 2.0);
        auto split = p;
        for (auto& h : split.halls)
            if (h.id == "b1-h2") h.powerOversubscriptionRatio = 2.0;
        const auto r = evaluateAt(split, 1.0);
        const double out10 = at10.inference[0].sizing.outputTokensPerSecond,
                     out20 = at20.inference[0].sizing.outputTokensPerSecond;
        QVERIFY(out20 < out10);
        QVERIFY(near(r.inference[0].sizing.outputTokensPerSecond, 0.5 * out10 + 0.5 * out20, 1e-12));
        QVERIFY(near(r.inference[0].sizing.requestsPerSecond,
                     0.5 * at10.inference[0].sizing.requestsPerSecond +
                         0.5 * at20.inference[0].sizing.requestsPerSecond,
                     1e-12));
        QCOMPARE(fig(r, "inference.capping_clock"), fig(at20, "inference.capping_clock"));
        QCOMPARE(r.inference[0].sizing.decode.batch, at20.inference[0].sizing.decode.batch);
        // Provisioned compute: one hall at full load, the other at half.
        QVERIFY(near(fig(r, "power.it_compute_peak_mw"),
                     0.5 * (fig(at10, "power.it_compute_peak_mw") + fig(at20, "power.it_compute_peak_mw")),
                     1e-9));
    }

    // Flexible interconnect (issue 35 item 2) on llama3-16k-h100, 44 curtailment hours a year (0.5 % of the
    // year) at the shipped depth 0.5 and 2 h events: GPU-hours fall by 44 x 0.5 / 8,766 = 0.25098 %, so the
    // cost per GPU-hour rises by 1 / 0.9974903 (the TCO is unchanged); the training job stops for all 44 h
    // and restarts 22 times, and its goodput falls by exactly its grid availability.
    void curtailment() {
        const auto p = reference("llama3-16k-h100");
        auto a = defaults();
        const auto firm = cost::evaluate(p, catalog(), a);
        a.at("grid_curtailment_hours_per_year").base = 44;
        const auto flex = cost::evaluate(p, catalog(), a);
        QCOMPARE(fig(firm, "power.grid_availability"), 1.0);
        QVERIFY(near(fig(flex, "power.grid_availability"), 1.0 - 44 * 0.5 / 8766.0, 1e-12));
        QVERIFY(near(fig(flex, "finance.cost_per_gpu_hour_usd"),
                     fig(firm, "finance.cost_per_gpu_hour_usd") / (1.0 - 44 * 0.5 / 8766.0), 1e-9));
        const double training = fig(flex, "training.grid_availability");
        // Lost hours = 44 + 22 restarts of a few minutes each: between 44 h and 44 + 22 h.
        QVERIFY(training < 1.0 - 44 / 8766.0 && training > 1.0 - 66 / 8766.0);
        QVERIFY(near(fig(flex, "reliability.goodput"), fig(firm, "reliability.goodput") * training, 1e-12));
    }

    // On-site gas generation (issue 35 item 3) on agentic-inference-gb300 (Ashburn, eGRID SRVC 284 g/kWh):
    // 20 MW serves 20 / facility MW of the energy; fuel = that energy x 8,500 Btu/kWh x $3.5/MMBtu = $0.02975
    // per kWh; capex + 20,000 kW x $1,800 = $36M in power; its emissions 8,500e-6 MMBtu/kWh x 53.1145 kg
    // CO2e/MMBtu (EPA 2024, AR5) = 451.473 g/kWh, blended with the grid's by energy share.
    void onsiteGeneration() {
        const auto p = reference("agentic-inference-gb300");
        auto a = defaults();
        const auto grid = cost::evaluate(p, catalog(), a);
        a.at("onsite_generation_mw").base = 20;
        const auto gas = cost::evaluate(p, catalog(), a);
        const double share = 20.0 / fig(gas, "power.facility_mw");
        QVERIFY(near(fig(gas, "power.onsite_generation_share"), share, 1e-12));
        QVERIFY(near(fig(gas, "finance.onsite_fuel_annual_usd"),
                     fig(gas, "environment.facility_energy_mwh_per_year") * 1e3 * share * 0.02975, 1e-9));
        QVERIFY(near(fig(gas, "capex.total_usd") - fig(grid, "capex.total_usd"), 36e6, 1e-9));
        QVERIFY(near(fig(gas, "environment.grid_carbon_gco2e_per_kwh_location_based"),
                     284.0 * (1 - share) + 451.473 * share, 1e-6));
        // 60 MW is more than the facility's peak: a Warning, and the share stops at 1.
        a.at("onsite_generation_mw").base = 60;
        const auto over = cost::evaluate(p, catalog(), a);
        QCOMPARE(fig(over, "power.onsite_generation_share"), 1.0);
        QVERIFY(std::any_of(over.rules.begin(), over.rules.end(),
                            [](const auto& r) { return r.rule == "onsite_generation_oversized"; }));
    }

    // Battery (issue 35 item 3) on llama3-16k-h100: 16,384 job GPUs x 1,275 W of rack per GPU (20,400 / 16)
    // swing between the compute phase (h + (1 - h) x 0.95 = 0.9725490, h = 0.4509804) and the trough (h +
    // (1 - h) x 0.3 = 0.6156863): 16,384 x 1,275 x 0.3568627 = 7.45472 MW each step; a crash drops the job to
    // idle (6,120 / 20,400 = 0.3): 20,889,600 W x 0.6725490 = 14.04928 MW (Meta's "tens of MW" at 16K GPUs
    // with the facility's overhead). A 5 MW/min ramp limit sizes on the larger: energy = 14.04928^2 /
    // (2 x 5) / 60 = 0.3289704 MWh, capex 328.9704 kWh x $250 + 14,049.28 kW x $150 = $2,189,635. Riding
    // through 1 h of each 2 h curtailment event (44 h a year, depth 0.5) halves the GPU-hours lost.
    void battery() {
        const auto p = reference("llama3-16k-h100");
        auto a = defaults();
        const auto none = cost::evaluate(p, catalog(), a);
        QVERIFY(near(fig(none, "power.training_swing_mw"), 7.45472, 1e-9));
        const double stop = 20889600.0 * (0.95 * 11200.0 / 20400.0 + 1.0 - 11200.0 / 20400.0 - 0.3) / 1e6;
        QVERIFY(near(stop, 14.04928, 1e-8));
        QVERIFY(near(fig(none, "power.training_stop_swing_mw"), stop, 1e-12));
        QCOMPARE(fig(none, "power.bess_power_mw"), 0.0);
        a.at("grid_ramp_limit_mw_per_min").base = 5;
        const auto ramp = cost::evaluate(p, catalog(), a);
        QVERIFY(near(fig(ramp, "power.bess_power_mw"), stop, 1e-12));
        QVERIFY(near(fig(ramp, "power.bess_energy_mwh"), stop * stop / 10.0 / 60.0, 1e-12));
        QVERIFY(near(fig(ramp, "capex.total_usd") - fig(none, "capex.total_usd"),
                     stop * stop / 600.0 * 1e3 * 250 + stop * 1e3 * 150, 1e-6));
        QVERIFY(near(stop * stop / 600.0 * 1e3 * 250 + stop * 1e3 * 150, 2189634.6119, 1e-9));
        a.at("grid_ramp_limit_mw_per_min").base = 0;
        a.at("grid_curtailment_hours_per_year").base = 44;
        const auto shed = cost::evaluate(p, catalog(), a);
        a.at("bess_ride_through_hours").base = 1;
        const auto ride = cost::evaluate(p, catalog(), a);
        QVERIFY(near(1.0 - fig(ride, "power.grid_availability"),
                     0.5 * (1.0 - fig(shed, "power.grid_availability")), 1e-12));
        // Power = the shed load (depth x average facility MW), energy = that for the 1 h carried.
        QVERIFY(near(fig(ride, "power.bess_power_mw"), 0.5 * fig(ride, "power.facility_mw"), 1e-12));
        QVERIFY(near(fig(ride, "power.bess_energy_mwh"), 0.5 * fig(ride, "power.facility_mw"), 1e-12));
        QVERIFY(near(1.0 - fig(ride, "training.grid_availability"),
                     0.5 * (1.0 - fig(shed, "training.grid_availability")), 1e-12));
    }

    // Battery round-trip losses (issue 35 item 3), llama3 with 44 h of curtailment a year in 2 h events at
    // depth 0.5, the battery riding through 1 h of each: it gives back shed MW x 1 h in each of the 22 events
    // and buys it again at 1 / 0.85: loss = 0.5 x facility MW x 22 x (1 / 0.85 - 1) = facility MW x
    // 1.9411765 MWh a year, added to the energy bought (tolerance 1e-9 relative).
    void batteryRoundTripLosses() {
        const auto p = reference("llama3-16k-h100");
        auto a = defaults();
        a.at("grid_curtailment_hours_per_year").base = 44;
        const auto shed = cost::evaluate(p, catalog(), a);
        QVERIFY(!shed.figure("power.bess_losses_mwh_per_year"));
        a.at("bess_ride_through_hours").base = 1;
        const auto ride = cost::evaluate(p, catalog(), a);
        const double loss = fig(ride, "power.facility_mw") * 0.5 * 22 * (1 / 0.85 - 1);
        QVERIFY(near(0.5 * 22 * (1 / 0.85 - 1), 1.9411765, 1e-7));
        QVERIFY(near(fig(ride, "power.bess_losses_mwh_per_year"), loss, 1e-9));
        QVERIFY(near(fig(ride, "environment.facility_energy_mwh_per_year") -
                         fig(shed, "environment.facility_energy_mwh_per_year"),
                     loss, 1e-6));
        QVERIFY(fig(ride, "finance.energy_annual_usd") > fig(shed, "finance.energy_annual_usd"));
    }

    // A training step's troughs (issue 35 item 1): llama3-16k-h100 (16 stages, 8 chunks per rank, 16
    // microbatches) idles its pipeline 15 / 143 of each step, the same as the MFU reference, with no expert
    // all-to-all and no routing or WAN stall, so the compute phase is 128 / 143 = 0.8951048951 of the step.
    // Its racks (20,400 W, 8 x 1,400 W of GPUs at TDP: host share h = 9,200 / 20,400) draw h + (1 - h) x 0.95
    // in the compute phase and h + (1 - h) x 0.3 in the trough: mean 0.9351158645 of full load (Python,
    // 1e-12). Every GPU runs the job, so the energy follows that mean: a trough at 0.5 instead of 0.3 adds
    // 1,024 racks x 20,400 W x utilization 0.85 x (1 - f) x (1 - h) x 0.2 = 0.2045135664 MW of compute
    // (1e-9). With a 5 MW/min ramp limit the battery gives back swing x f x (1 - f) on average while the job
    // runs and buys it again at 1 / 0.85: (1 / 0.85 - 1) x 7.45472 MW x f (1 - f) x 8,766 h x 0.85 =
    // 920.3504205 MWh a year (1e-9), and the compute phase and stop swings are unchanged.
    void trainingStepTroughs() {
        const auto p = reference("llama3-16k-h100");
        auto a = defaults();
        const auto base = cost::evaluate(p, catalog(), a);
        const double f = 128.0 / 143.0;
        QVERIFY(near(fig(base, "training.step_compute_share"), f, 1e-12));
        QVERIFY(near(fig(base, "training.rack_mean_draw_share"), 0.9351158645276294, 1e-12));
        const auto* compute = base.figure("power.it_compute_mw");
        QVERIFY(compute);
        QVERIFY(near(figureInput(*compute, "busy_draw_share_of_load"), 0.9351158645276294, 1e-12));
        a.at("training_trough_power_draw").base = 0.5;
        const auto shallow = cost::evaluate(p, catalog(), a);
        QVERIFY(near(fig(shallow, "power.it_compute_mw") - fig(base, "power.it_compute_mw"),
                     0.2045135664335665, 1e-9));
        a.at("training_trough_power_draw").base = 0.3;
        a.at("grid_ramp_limit_mw_per_min").base = 5;
        const auto ramp = cost::evaluate(p, catalog(), a);
        QVERIFY(near(fig(ramp, "power.bess_losses_mwh_per_year"), 920.3504205467261, 1e-9));
        QVERIFY(near(fig(ramp, "power.training_swing_mw"), 7.45472, 1e-9));
        QVERIFY(near(fig(ramp, "environment.facility_energy_mwh_per_year") -
                         fig(base, "environment.facility_energy_mwh_per_year"),
                     920.3504205467261, 1e-6));
    }

    // Embodied carbon (issue 35 item 4) on the agentic reference: 21,168 GPUs x 475 kg = 10,054.8 t of
    // servers; 44.449412 MW of IT at full load x 1,000 t/MW = 44,449.412 t of building and plant; 54,504.212
    // t once. A year: 10,054.8 / 5.5 (IT life) + 44,449.412 / 15 (facility life) = 1,828.145 + 2,963.294 =
    // 4,791.440 t. Per M output tokens: that x the service's share of the GPUs over its output tokens a year
    // (tokens/s x 8,766 h x 3,600 s x utilization x availability). Tolerances 1e-9 relative.
    void embodiedCarbon() {
        const auto p = reference("agentic-inference-gb300");
        const auto r = cost::evaluate(p, catalog(), defaults());
        QCOMPARE(fig(r, "inventory.gpus"), 21168.0);
        const double building = fig(r, "power.it_peak_mw") * 1000;
        QVERIFY(near(fig(r, "environment.embodied_carbon_tco2e_cradle_to_gate"), 10054.8 + building, 1e-9));
        QVERIFY(near(fig(r, "environment.embodied_carbon_tco2e_cradle_to_gate"), 54504.212, 1e-6));
        const double perYear = 10054.8 / 5.5 + building / 15;
        QVERIFY(near(fig(r, "environment.embodied_carbon_tco2e_per_year_amortized"), perYear, 1e-9));
        QVERIFY(near(perYear, 4791.440, 1e-6));
        const double tokensPerYear = r.inference.front().sizing.outputTokensPerSecond * 8766 * 3600 *
                                     defaults().at("utilization").base * fig(r, "power.facility_availability");
        const double share = p.inferenceServices.front().gpus / 21168.0;
        QVERIFY(near(fig(r, "environment.carbon_gco2e_per_million_output_tokens_embodied"),
                     perYear * 1e12 * share / tokensPerYear, 1e-9));
        QVERIFY(near(fig(r, "environment.carbon_gco2e_per_million_output_tokens_operational_plus_embodied"),
                     fig(r, "environment.carbon_gco2e_per_million_output_tokens_location_based") +
                         fig(r, "environment.carbon_gco2e_per_million_output_tokens_embodied"),
                     1e-12));
    }

    // Carbon = energy x the location's grid factor: llama3's site (41.65 N, 93.47 W) takes the nearest
    // climate location, Des Moines (eGRID MROW, 428 g/kWh in data/grid_carbon.json). Water per M tokens = IT
    // kWh per M tokens x WUE.
    void carbonAndWater() {
        const auto r = cost::evaluate(reference("llama3-16k-h100"), catalog(), defaults());
        const auto* g = cost::defaultGridCarbonTable()->find("us-ia-des-moines");
        QVERIFY(g);
        QCOMPARE(g->gco2ePerKwh, 428.0);
        QVERIFY(near(fig(r, "environment.grid_carbon_gco2e_per_kwh_location_based"), 428.0, 1e-12));
        // MWh x 1,000 kWh x 428 g / 1e6 g per t.
        QVERIFY(near(fig(r, "environment.carbon_tco2e_per_year_location_based"),
                     fig(r, "environment.facility_energy_mwh_per_year") * 1e3 * 428.0 / 1e6, 1e-12));
        // Energy = facility MW x 8,766 h.
        QVERIFY(near(fig(r, "environment.facility_energy_mwh_per_year"), fig(r, "power.facility_mw") * 8766.0,
                     1e-12));
        // An air-cooled hall on the chilled-water (tower) plant: WUE = water per kWh of heat x heat (IT, CRAH
        // fans and plant input) / IT, so above the water per kWh of heat and below 1.25 times it.
        const double wue = fig(r, "environment.wue_l_per_kwh");
        const double perHeat =
            figureInput(*r.figure("environment.water_m3_per_year_onsite"), "litres_per_kwh_heat");
        QVERIFY2(wue > perHeat && wue < 1.25 * perHeat, qPrintable(QString::number(wue)));

        const auto s = cost::evaluate(reference("agentic-inference-gb300"), catalog(), defaults());
        const double kwh = fig(s, "environment.facility_kwh_per_million_output_tokens");
        QVERIFY(kwh > 0);
        QVERIFY(near(fig(s, "environment.carbon_gco2e_per_million_output_tokens_location_based"),
                     kwh * fig(s, "environment.grid_carbon_gco2e_per_kwh_location_based"), 1e-12));
        QVERIFY(near(fig(s, "environment.water_l_per_million_output_tokens_onsite"),
                     kwh / fig(s, "power.pue") * fig(s, "environment.wue_l_per_kwh"), 1e-12));
    }

    // The shipped curve against measured capping (data/validation/power_capping.json: NVIDIA's paired MLPerf
    // Inference v4.0 DGX H100 MaxP/MaxQ runs, and the H200 decode bound of Ma et al. 2026). GPU power caps,
    // so no host share; compute-bound points (BERT, and the LLM runs, which run at large batch at their power
    // limit) take prefill's shipped draw and clock-bound share, decode points decode's. Within +-10 % of the
    // measured throughput share, except the one named gap: Llama-2-70B Server (+10.9 %), a latency-bound
    // scenario whose capped run loses more than its Offline twin (0.761 against 0.805); the curve has no
    // latency bound (a likely cause, not checked in the logs).
    void capsAgainstMeasurements() {
        const auto doc =
            nlohmann::json::parse(std::ifstream(test_support::kData + "/validation/power_capping.json"));
        const auto& a = defaults();
        const cost::PowerFrequencyCurve curve{0.0, a.at("gpu_power_clock_invariant_share").base,
                                              a.at("gpu_power_clock_exponent").base};
        const std::set<std::string> knownGaps = {"mlperf40-h100-llama2-70b-server-maxq450"};
        int checked = 0;
        double sumSq = 0;
        for (const auto& pt : doc.at("points")) {
            if (!pt.at("cap_fraction_of_tdp").is_number()) continue;
            const bool decode = pt.at("workload") == "decode";
            const double draw =
                a.at(decode ? "inference_decode_power_draw" : "inference_prefill_power_draw").base;
            const double beta =
                a.at(decode ? "inference_decode_clock_bound_share" : "inference_prefill_clock_bound_share")
                    .base;
            const auto out = cost::capPhase(draw, beta, pt.at("cap_fraction_of_tdp").get<double>(), curve);
            const double predicted = 1.0 / out.stretch, measured = pt.at("throughput_fraction").get<double>();
            const double error = predicted / measured - 1.0;
            const std::string id = pt.at("id");
            qInfo("%-45s measured %.4f model %.4f (%+.1f %%)", id.c_str(), measured, predicted, 100 * error);
            sumSq += error * error, ++checked;
            if (knownGaps.count(id)) {
                QVERIFY2(std::abs(error) > 0.10, ("known gap closed: " + id).c_str());
                continue;
            }
            QVERIFY2(std::abs(error) <= 0.10, id.c_str());
        }
        QVERIFY(checked >= 7);
        qInfo("RMS %.1f %% over %d points", 100 * std::sqrt(sumSq / checked), checked);
    }

    // The shipped table covers every climate location.
    void gridTableCoversClimate() {
        const auto grid = cost::defaultGridCarbonTable();
        const auto climate = cost::loadClimateFile(test_support::kData + "/climate.json");
        for (const auto& l : climate.locations)
            QVERIFY2(grid->find(l.id), l.id.c_str());
    }

    // Bad grid files: each refusal names the file, the entry and the field.
    void badGridFiles() {
        QTemporaryDir dir;
        auto err = [&](const std::string& entries) {
            return test_support::inputErrorOf([&] { cost::loadGridCarbonFile(gridFile(dir, entries)); });
        };
        QVERIFY(err(kEntry + "," + kEntry).find("duplicate id") != std::string::npos);
        std::string lowAbove = kEntry;
        lowAbove.replace(lowAbove.find("\"low\": 250"), 10, "\"low\": 400");
        QVERIFY(err(lowAbove).find("gco2e_per_kwh") != std::string::npos);
        std::string oldYear = kEntry;
        oldYear.replace(oldYear.find("2023"), 4, "1800");
        QVERIFY(err(oldYear).find("year") != std::string::npos);
        std::string noSource = kEntry;
        noSource.replace(noSource.find("\"source\": \"s\""), 13, "\"source\": \"\"");
        QVERIFY(err(noSource).find("source") != std::string::npos);
        QVERIFY(err("1").find("object") != std::string::npos);
        QVERIFY(test_support::inputErrorOf([&] {
                    cost::loadGridCarbonFile(dir.path().toStdString() + "/none.json");
                }).find("none.json") != std::string::npos);
        QCOMPARE(cost::loadGridCarbonFile(gridFile(dir, kEntry)).entries.size(), size_t{1});
    }
};

QTEST_GUILESS_MAIN(TestPowerEnvelope)
#include "test_power_envelope.moc"
