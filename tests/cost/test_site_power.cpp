// A site's load against its supply (issue 35 items 2, 3 and 5; cost/evaluate_site_power.cpp): the hour
// classes of the cooling plant (cost/cooling_plant.h), the load duration curves, the grid interconnect and
// its rule. Each expected value is worked by hand beside it; tolerances are stated at each check.
#include "../test_support.h"
#include "cooling_plant.h"
#include "evaluate.h"

#include <QtTest>
#include <algorithm>
#include <cmath>

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

bool near(double a, double b, double tol) {
    return std::abs(a - b) <= tol;
}

const cost::DesignRule* rule(const cost::Results& r, const std::string& id) {
    for (const auto& x : r.rules)
        if (x.rule == id) return &x;
    return nullptr;
}

/// Area under a load duration curve (trapezoids), MWh.
double area(const std::vector<cost::LoadDurationPoint>& c) {
    double a = 0;
    for (size_t i = 1; i < c.size(); ++i)
        a += (c[i].hours - c[i - 1].hours) * (c[i].mw + c[i - 1].mw) / 2;
    return a;
}

} // namespace

class TestSitePower : public QObject {
    Q_OBJECT
private slots:
    // The classes' middle quantiles: Phi(z_k) = (k + 0.5) / 12 (to 1e-12, the bisection's tolerance); z_0 =
    // Phi^-1(1/24) = -1.731664 (tables: Phi(-1.7317) = 0.041666), symmetric about 0.
    void hourClassQuantiles() {
        for (int k = 0; k < cost::kHourClasses; ++k) {
            QVERIFY(near(cost::normalCdf(cost::hourClassZ(k)), (k + 0.5) / cost::kHourClasses, 1e-12));
            QVERIFY(near(cost::hourClassZ(k), -cost::hourClassZ(cost::kHourClasses - 1 - k), 1e-12));
        }
        QVERIFY(near(cost::hourClassZ(0), -1.731664, 1e-6));
    }

    // One dry cooler by hand: supply 30 degC, delta-T 10 K, approach 5 K, economizer COP 25, compressor COP
    // 5 at a 20 K lift, condenser approach 5 K. A month of mean 20 degC, sigma 4 K: class k at 20 + 4 z_k.
    // Compressor share s = clamp((T + 5 - 30) / 10, 0, 1): class 11 (z = 1.731664) is at 26.93 degC, s =
    // 0.192666; the month's compressor COP at the mean lift (20 + 5 - 30 < 1 K: 1 K) is capped at 2 x 5 = 10:
    // 1/COP = (1 - 0.192666) / 25 + 0.192666 / 10 = 0.0515600. Class 0 (13.07 degC): s = 0, 1/25 = 0.04.
    // Only class 11 reaches the band here, so the classes' mean, 0.04 + 0.06 x 0.192666 / 12 = 0.0409633,
    // sits 0.61 % below the month's expectation over the normal, 0.04 + 0.06 x E[s] with E[s] = (G(25) -
    // G(35)) / 10 = 0.0202263: 0.0412136 (Python, math.erfc). That is the discretisation a 12-class year
    // carries at a band edge (tolerance 1e-6 on each value).
    void hourClassesByHand() {
        cost::PlantParameters p;
        p.type = "dry_cooler", p.economizerOnDryBulb = p.condenserOnDryBulb = true;
        p.approachK = 5, p.economizerCop = 25, p.compressorCop = 5, p.ratedLiftK = 20,
        p.condenserApproachK = 5;
        cost::ClimateLocation climate;
        climate.dryBulbC.fill(20.0), climate.wetBulbC.fill(15.0);
        climate.sigmaDryBulbK = climate.sigmaWetBulbK = 4.0;
        climate.designDryBulbC = 35, climate.designWetBulbC = 25;
        const auto perf = cost::plantPerformance(p, 30.0, 10.0, climate, {1.0, 2.0});
        const double s11 = (20 + 4 * cost::hourClassZ(11) + 5 - 30) / 10;
        QVERIFY(near(s11, 0.192666, 1e-6));
        QVERIFY(near(perf.hourInverseCop[6][11], (1 - s11) / 25 + s11 / 10, 1e-12));
        QVERIFY(near(perf.hourInverseCop[6][11], 0.0515600, 1e-7));
        QVERIFY(near(perf.hourInverseCop[0][0], 0.04, 1e-12));
        double mean = 0;
        for (double v : perf.hourInverseCop[3])
            mean += v / cost::kHourClasses;
        QVERIFY(near(mean, 0.0409633, 1e-6));
        QVERIFY(near(perf.months[3].inverseCop, 0.0412136, 1e-6));
    }

    // The agentic reference (one site, Ashburn): the curves start at the design day, fall, and carry the
    // year's energy.
    void loadDurationCurves() {
        const auto p = reference("agentic-inference-gb300");
        const auto r = cost::evaluate(p, catalog(), defaults());
        QCOMPARE(r.power.sites.size(), size_t(1));
        const auto& s = r.power.sites.front();
        QCOMPARE(s.siteId, std::string("site-va"));
        // One site holds every building: its peak is the design's (exact sums of the same terms, 1e-9 MW).
        QVERIFY(near(s.facilityPeak.value() / 1e6, fig(r, "power.facility_peak_mw"), 1e-9));
        QVERIFY(near(s.fullLoad.front().mw, fig(r, "power.facility_peak_mw"), 1e-9));
        QCOMPARE(s.fullLoad.size(), size_t(12 * cost::kHourClasses + 2));
        QVERIFY(near(s.fullLoad.back().hours, 8760.0, 1e-9));
        for (const auto* c : {&s.fullLoad, &s.operating})
            for (size_t i = 1; i < c->size(); ++i) {
                QVERIFY((*c)[i].mw <= (*c)[i - 1].mw + 1e-12);
                QVERIFY((*c)[i].hours >= (*c)[i - 1].hours);
            }
        // The area under the operating curve over 8,760 h is the annual-average facility power: the hour
        // classes' discretisation and the secant between the annual and design-day points leave < 0.5 %.
        QVERIFY(std::abs(area(s.operating) / 8760.0 / fig(r, "power.facility_mw") - 1) < 5e-3);
        // The weather moves the plant only: the curve spans less than the peak PUE over the annual PUE.
        const double spread = s.operating.front().mw / s.operating.back().mw;
        QVERIFY(spread > 1.0 && spread < fig(r, "power.pue_peak") / fig(r, "power.pue_annual") * 1.05);
        // Load factor: annual average over the design-day peak, exactly the two figures' ratio.
        QVERIFY(near(fig(r, "power.load_factor_annual"),
                     fig(r, "power.facility_mw") / fig(r, "power.facility_peak_mw"), 1e-12));
        // The reference states a 60 MW interconnect: 60 - 52.175 MW = 7.825 MW of headroom (tolerance 1e-9).
        QVERIFY(near(fig(r, "power.interconnect_headroom_mw_design_day"),
                     60.0 - fig(r, "power.facility_peak_mw"), 1e-9));
        QVERIFY(near(fig(r, "power.interconnect_headroom_mw_design_day"), 7.825, 1e-3));
    }

    // The interconnect: 5 MW above the peak leaves 5 MW of headroom; 5 MW below is an Error naming the site
    // and the field; 10 MW of on-site generation (one site: all of it) closes that gap to +5; capping the
    // racks (oversubscription 1.25) lowers the peak under the interconnect.
    void interconnect() {
        auto p = reference("agentic-inference-gb300");
        const auto base = cost::evaluate(p, catalog(), defaults());
        const double peak = fig(base, "power.facility_peak_mw");
        p.sites.front().gridInterconnectMw = peak + 5;
        const auto fits = cost::evaluate(p, catalog(), defaults());
        QVERIFY(near(fig(fits, "power.interconnect_headroom_mw_design_day"), 5.0, 1e-9));
        QVERIFY(!rule(fits, "site_interconnect_exceeded"));
        p.sites.front().gridInterconnectMw = peak - 5;
        const auto shortR = cost::evaluate(p, catalog(), defaults());
        QVERIFY(near(fig(shortR, "power.interconnect_headroom_mw_design_day"), -5.0, 1e-9));
        const auto* e = rule(shortR, "site_interconnect_exceeded");
        QVERIFY(e);
        QCOMPARE(e->severity, cost::Severity::Error);
        QCOMPARE(e->entity, std::string("site-va"));
        QVERIFY(e->message.find("grid_interconnect_mw") != std::string::npos);
        auto a = defaults();
        a.at("onsite_generation_mw").base = 10;
        const auto gas = cost::evaluate(p, catalog(), a);
        QVERIFY(near(fig(gas, "power.interconnect_headroom_mw_design_day"), 5.0, 1e-9));
        QVERIFY(!rule(gas, "site_interconnect_exceeded"));
        QVERIFY(near(gas.power.sites.front().onsiteMw, 10.0, 1e-12));
        auto capped = defaults();
        capped.at("power_oversubscription_ratio").base = 1.25;
        const auto cap = cost::evaluate(p, catalog(), capped);
        QVERIFY(fig(cap, "power.facility_peak_mw") < peak - 5);
        QVERIFY(!rule(cap, "site_interconnect_exceeded"));
    }

    // Two sites (two-site-wan): each site's peak is its buildings', and they sum to the design's; the
    // on-site generation splits by the sites' shares of the peak.
    void twoSites() {
        const auto p = reference("two-site-wan");
        auto a = defaults();
        a.at("onsite_generation_mw").base = 12;
        const auto r = cost::evaluate(p, catalog(), a);
        QCOMPARE(r.power.sites.size(), size_t(2));
        double peak = 0, onsite = 0;
        for (const auto& s : r.power.sites) {
            double own = 0;
            for (const auto& b : r.power.buildings)
                if (b.siteId == s.siteId) own += b.facilityPeak.value() / 1e6;
            QVERIFY(near(s.facilityPeak.value() / 1e6, own, 1e-9));
            QVERIFY(near(s.onsiteMw, 12.0 * own / fig(r, "power.facility_peak_mw"), 1e-9));
            peak += own, onsite += s.onsiteMw;
        }
        QVERIFY(near(peak, fig(r, "power.facility_peak_mw"), 1e-6));
        QVERIFY(near(onsite, 12.0, 1e-9));
    }
};

QTEST_GUILESS_MAIN(TestSitePower)
#include "test_site_power.moc"
