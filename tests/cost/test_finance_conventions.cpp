// Golden tests for the two annual-cost conventions, the asset-class cash-flow plan (replacement at end of
// life, residual and terminal value, land, time to revenue), the GPU-level capex split and the analyst view
// (issues 13 items 1 and 4, 19 item 1). Every expected value is worked by hand in the comment beside it
// (Python floats) and compared with the tolerance stated in the check. Money is compared in dollars.
#include <QtTest>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "../test_support.h"
#include "catalog.h"
#include "design_json.h"
#include "evaluate.h"
#include "finance.h"
#include "finance_conventions.h"
#include "input_error.h"

using namespace ctwin;
using ojson = nlohmann::ordered_json;
using test_support::kData;

namespace {

QList<double> values(const std::vector<units::Money>& money) {
    QList<double> out;
    for (const auto& m : money)
        out.append(m.value());
    return out;
}

double fig(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) qFatal("missing figure %s", key.c_str());
    return f->value;
}

bool near(double a, double b, double tol) {
    return std::abs(a - b) <= tol;
}

#define CTWIN_NEAR(actual, expected, tol)                                                                    \
    QVERIFY2(near((actual), (expected), (tol)),                                                              \
             qPrintable(QString("%1 = %2, expected %3 +- %4")                                                \
                            .arg(#actual)                                                                    \
                            .arg((actual), 0, 'f', 6)                                                        \
                            .arg((expected), 0, 'f', 6)                                                      \
                            .arg((tol))))

} // namespace

class TestFinanceConventions : public QObject {
    Q_OBJECT

    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;

    model::Project llama3() const {
        return model::loadProjectJson(kData + "/reference/llama3-16k-h100.json", &m_catalog);
    }

private slots:
    void initTestCase() {
        m_catalog = model::loadCatalogDirectory(kData + "/catalog");
        m_defaults = model::loadAssumptionsFile(kData + "/assumptions.json");
    }

    // ---- Pure functions ----

    // Cost 1000, residual 10 %, life 2.5 years, horizon 6: basis 900, 360 a year. Vintages [0, 2.5],
    // [2.5, 5], [5, 7.5]: every year takes 360 (year 3: 0.5 x 360 of each of the first two). Replacements at
    // 2.5 (booked in year 3, end-of-period) and 5.0 (year 5; 5 < 6), each selling the old vintage for 100.
    // Book at 6: the third vintage served 1 of 2.5 years: 1000 - 0.4 x 900 = 640. Tolerance 1e-9.
    void planReplacesAtEndOfLife() {
        const auto p = cost::planAssetClass(1000.0 * units::usd, 0.1, 2.5, 6);
        const QList<double> dep = values(p.depreciation);
        QCOMPARE(dep.size(), 6);
        for (double d : dep)
            CTWIN_NEAR(d, 360.0, 1e-9);
        QCOMPARE(values(p.replacement), QList<double>({0, 0, 1000, 0, 1000, 0}));
        QCOMPARE(values(p.salvage), QList<double>({0, 0, 100, 0, 100, 0}));
        QCOMPARE(p.replacementTimes.size(), size_t(2));
        CTWIN_NEAR(p.bookValueAtHorizon.value(), 640.0, 1e-9);
    }

    // Life 5.5 (IT) over 5 years: no replacement; book 1000 - 5/5.5 x 900 = 181.8181818...; life 5 over 5
    // years ends on the horizon: not replaced, book = residual 100; an infinite life (land) keeps its cost.
    void planAtAndBeforeTheHorizon() {
        auto p = cost::planAssetClass(1000.0 * units::usd, 0.1, 5.5, 5);
        CTWIN_NEAR(p.bookValueAtHorizon.value(), 181.81818181818181, 1e-9);
        QVERIFY(p.replacementTimes.empty());
        CTWIN_NEAR(p.depreciation[4].value(), 900.0 / 5.5, 1e-9); // 163.6363... a year
        p = cost::planAssetClass(1000.0 * units::usd, 0.1, 5.0, 5);
        CTWIN_NEAR(p.bookValueAtHorizon.value(), 100.0, 1e-9);
        QVERIFY(p.replacementTimes.empty());
        p = cost::planAssetClass(1000.0 * units::usd, 0.0, std::numeric_limits<double>::infinity(), 5);
        CTWIN_NEAR(p.bookValueAtHorizon.value(), 1000.0, 0.0);
        for (const auto& d : p.depreciation)
            QCOMPARE(d.value(), 0.0);
        // Zero life: the basis is written off in year 1 and never replaced (no endless loop).
        p = cost::planAssetClass(1000.0 * units::usd, 0.1, 0.0, 5);
        CTWIN_NEAR(p.depreciation[0].value(), 900.0, 1e-9);
        CTWIN_NEAR(p.bookValueAtHorizon.value(), 100.0, 1e-9);
    }

    // The two-class example at r = 8 %: IT $1,000, life 5, residual 10 %; facility $3,000, life 15,
    // residual 0.
    //   economic:   IT  900 x CRF(8 %, 5) + 100 x 0.08 = 900 x 0.2504564545668364 + 8 = 233.41080911015277
    //               fac 3000 x CRF(8 %, 15) = 3000 x 0.11682954493601999 = 350.48863480806
    //               total 583.89944391821
    //   accounting: IT 900 / 5 = 180; facility 3000 / 15 = 200; total 380.
    // Land $500: economic 500 x 0.08 = 40 (perpetuity), accounting 0. Tolerance 1e-9.
    void twoClassConventions() {
        const double inf = std::numeric_limits<double>::infinity();
        const double eIt = cost::economicCapitalCharge(1000.0 * units::usd, 0.1, 0.08, 5).value();
        const double eFac = cost::economicCapitalCharge(3000.0 * units::usd, 0.0, 0.08, 15).value();
        CTWIN_NEAR(eIt, 233.41080911015277, 1e-9);
        CTWIN_NEAR(eFac, 350.48863480806, 1e-9);
        CTWIN_NEAR(eIt + eFac, 583.89944391821, 1e-9);
        const double aIt = cost::straightLineCharge(1000.0 * units::usd, 0.1, 5).value();
        const double aFac = cost::straightLineCharge(3000.0 * units::usd, 0.0, 15).value();
        CTWIN_NEAR(aIt + aFac, 380.0, 1e-9);
        CTWIN_NEAR(cost::economicCapitalCharge(500.0 * units::usd, 1.0, 0.08, inf).value(), 40.0, 1e-9);
        QCOMPARE(cost::straightLineCharge(500.0 * units::usd, 1.0, inf).value(), 0.0);
        // Residual = capex: the economic charge is the return forgone on it only, C x r = 80.
        CTWIN_NEAR(cost::economicCapitalCharge(1000.0 * units::usd, 1.0, 0.08, 5).value(), 80.0, 1e-9);
    }

    // 30 days to revenue: year 1 earns 1 - 30/365.25 = 0.917864476386037; later years 1. Tolerance 1e-12.
    void timeToRevenueIsProRata() {
        CTWIN_NEAR(cost::earningFraction(1, 30 / 365.25), 0.917864476386037, 1e-12);
        QCOMPARE(cost::earningFraction(2, 30 / 365.25), 1.0);
        QCOMPARE(cost::earningFraction(1, 0.0), 1.0);
        CTWIN_NEAR(cost::earningFraction(2, 1.5), 0.5, 1e-12); // 18 months: half of year 2
        QCOMPARE(cost::earningFraction(1, 1.5), 0.0);
    }

    // ---- The engine on the Llama 3 reference ----
    //
    // Capex categories (evaluate --json, after the power-chain topology and end-of-row front end of issues 13
    // and 19): compute 542,720,000, scale_up 20,480,000, scale_out 64,350,000, optics 22,489,200, storage
    // 5,000,000, power 104,700,000, cooling 47,335,100, building 114,503,975 (of which land 8,000,000),
    // integration 16,896,000; total 938,474,275.
    // Classes: IT = 542.72 + 20.48 + 5 + 16.896 = 585,096,000 (life 5.5, residual 10 %, support 4 %);
    // network = 64.35 + 22.4892 = 86,839,200 (life 6, residual 5 %, support 6 %);
    // facility = 104.7 + 47.3351 + 114.503975 - 8 = 258,539,075 (life 15, residual 0, maintenance 2 %).
    // WACC 9 %.
    //   economic:   IT 526,586,400 x CRF(9 %, 5.5) + 58,509,600 x 0.09 = 130,816,747.3
    //               network 82,497,240 x CRF(9 %, 6) + 4,341,960 x 0.09 = 18,781,043.3
    //               facility 258,539,075 x CRF(9 %, 15) = 32,074,068.8; land 8,000,000 x 0.09 = 720,000
    //               capex charge 182,391,859.3
    //   accounting: 526,586,400/5.5 + 82,497,240/6 + 258,539,075/15 = 95,742,981.8 + 13,749,540.0 +
    //               17,235,938.3 = 126,728,460.2
    //   maintenance 23,403,840 + 5,210,352 + 5,170,781.5 = 33,784,973.5
    //   opex = energy 14,734,270.4 + maintenance 33,784,973.5 + staff 2,366,755.0 = 50,885,998.9
    //   economic TCO 233,277,858.3 -> / (16,384 x 8,766 x 0.85 = 122,078,822.4 GPU-h) = $1.910879/GPU-h
    //   accounting TCO 177,614,459.1 -> $1.454916/GPU-h
    void llama3Conventions() {
        const auto r = cost::evaluate(llama3(), m_catalog, m_defaults);
        CTWIN_NEAR(fig(r, "finance.economic.annual_by_class.it.capex_charge_usd"), 130816747.3, 1.0);
        CTWIN_NEAR(fig(r, "finance.economic.annual_by_class.network.capex_charge_usd"), 18781043.3, 1.0);
        CTWIN_NEAR(fig(r, "finance.economic.annual_by_class.facility.capex_charge_usd"), 32074068.8, 1.0);
        CTWIN_NEAR(fig(r, "finance.economic.annual_by_class.land.capex_charge_usd"), 720000.0, 1e-3);
        CTWIN_NEAR(fig(r, "finance.accounting.annual_by_class.land.capex_charge_usd"), 0.0, 0.0);
        CTWIN_NEAR(fig(r, "finance.accounting.capex_charge_usd"), 126728460.2, 1.0);
        CTWIN_NEAR(fig(r, "finance.accounting.annual_by_class.it.maintenance_usd"), 23403840.0, 1e-3);
        CTWIN_NEAR(fig(r, "finance.economic.annual_by_class.network.maintenance_usd"), 5210352.0, 1e-3);
        CTWIN_NEAR(fig(r, "finance.maintenance_annual_usd"), 33784973.5, 1.0);
        CTWIN_NEAR(fig(r, "finance.economic.tco_annual_usd"), 233277858.3, 1.0);
        CTWIN_NEAR(fig(r, "finance.accounting.tco_annual_usd"), 177614459.1, 1.0);
        CTWIN_NEAR(fig(r, "finance.economic.cost_per_gpu_hour_usd"), 1.910879, 1e-6);
        CTWIN_NEAR(fig(r, "finance.accounting.cost_per_gpu_hour_usd"), 1.454916, 1e-6);
        // Default headline: economic.
        QCOMPARE(r.finance.convention, std::string("economic"));
        QCOMPARE(fig(r, "finance.tco_annual_usd"), fig(r, "finance.economic.tco_annual_usd"));
        QCOMPARE(fig(r, "finance.cost_per_gpu_hour_usd"), fig(r, "finance.economic.cost_per_gpu_hour_usd"));
        QCOMPARE(fig(r, "finance.annualized_capex_usd"), fig(r, "finance.economic.capex_charge_usd"));
        QCOMPARE(fig(r, "finance.depreciation_annual_usd"), fig(r, "finance.accounting.capex_charge_usd"));
    }

    // Cash flows (issue 19 item 1), horizon 5, tax 21 %, price $2.50:
    //   revenue year 1 = 0.917864476386037 x 122,078,822.4 x 2.5 = 280,129,536.0 (305,197,056 less the 30 days
    //   to revenue: 25,067,520 less); later years 305,197,056.
    //   depreciation 126,728,460.2 a year (no class reaches its end of life by year 5).
    //   tax year 1 = 0.21 x (280,129,536.0 - 50,885,998.9 - 126,728,460.2) = 21,528,166.2; later
    //   0.21 x 127,582,597.0 = 26,792,345.4.
    //   terminal value at 5 = books: IT 585,096,000 x (1 - 5/5.5 x 0.9) = 106,381,090.9, network
    //   86,839,200 x (1 - 5/6 x 0.95) = 18,091,500.0, facility 258,539,075 x (1 - 5/15) = 172,359,383.3,
    //   plus land 8,000,000 = 304,831,974.2.
    //   flows: -938,474,275; 207,715,370.9; 227,518,711.7 (x3); 227,518,711.7 + 304,831,974.2 = 532,350,686.0
    //   NPV at 9 % = 126,445,834.5; IRR 13.3658 % (bisection in Python). Before issue 19 (and the power-chain
    //   and cooling changes): NPV -245,717,242.9, IRR 0.095 %.
    void llama3CashFlows() {
        const auto r = cost::evaluate(llama3(), m_catalog, m_defaults);
        const auto& f = r.finance;
        QCOMPARE(f.cashFlows.size(), size_t(6));
        CTWIN_NEAR(f.revenue[0].value(), 280129536.0, 1.0);
        CTWIN_NEAR(f.revenue[1].value(), 305197056.0, 1.0);
        CTWIN_NEAR(f.cashFlows[1].value(), 207715370.9, 1.0);
        CTWIN_NEAR(f.cashFlows[3].value(), 227518711.7, 1.0);
        CTWIN_NEAR(f.cashFlows[5].value(), 532350686.0, 1.0);
        CTWIN_NEAR(fig(r, "finance.terminal_value_usd"), 304831974.2, 1.0);
        CTWIN_NEAR(fig(r, "finance.replacement_capex_usd"), 0.0, 0.0);
        CTWIN_NEAR(fig(r, "finance.npv_usd"), 126445834.5, 2.0);
        QVERIFY(f.irr);
        CTWIN_NEAR(*f.irr, 0.133658, 1e-6);
    }

    // The case (old conventions: a single 4 % maintenance, no residual values, revenue from day 0) with
    // only the terminal value switched on: zero residuals, 0 days to revenue, legacy maintenance 4 % of capex
    // less land (0.04 x 930,474,275 = 37,218,971.0). Depreciation 585,096,000/5.5 + 86,839,200/6 +
    // 258,539,075/15 = 106,381,090.9 + 14,473,200.0 + 17,235,938.3 = 138,090,229.2; opex = energy
    // 14,734,270.4 + 37,218,971.0 + staff 2,366,755.0 = 54,319,996.4; tax 0.21 x (305,197,056 - 54,319,996.4 -
    // 138,090,229.2) = 23,685,234.4; flow 227,191,825.2 a year; terminal = 585,096,000 x 0.5/5.5 +
    // 86,839,200 x 1/6 + 258,539,075 x 10/15 + 8,000,000 = 53,190,545.5 + 14,473,200.0 + 172,359,383.3 +
    // 8,000,000 = 248,023,128.8 (book value plus land at cost). NPV at 9 % = 106,420,710.8 (Python). On the
    // design before the power-chain and cooling changes this case gave -21,589,399 against the issue's
    // "NPV ~ -$27M with the residual book value".
    void llama3IssueCaseWithOnlyTerminalValue() {
        auto p = llama3();
        p.assumptions["maintenance_fraction"] = model::Assumption{0.04, 0.02, 0.08, "1/year", "test", true};
        const auto r = cost::evaluate(p, m_catalog, m_defaults,
                                      cost::InputOverrides{{"assumptions.it_residual_fraction", 0.0, "test"},
                                                           {"assumptions.network_residual_fraction", 0.0, "test"},
                                                           {"assumptions.delivery_to_revenue_days", 0.0, "test"}});
        CTWIN_NEAR(fig(r, "finance.terminal_value_usd"), 248023128.8, 1.0);
        CTWIN_NEAR(r.finance.cashFlows[1].value(), 227191825.2, 1.0);
        CTWIN_NEAR(fig(r, "finance.npv_usd"), 106420710.8, 2.0);
        // The legacy single fraction overrides all three, and says so.
        CTWIN_NEAR(fig(r, "finance.maintenance_annual_usd"), 37218971.0, 1.0);
        bool said = false;
        for (const auto& rule : r.rules)
            said = said || rule.rule == "legacy_maintenance_fraction";
        QVERIFY(said);
    }

    // Horizon 7: IT (5.5 years) and network (6 years) reach their end of life inside the horizon; both are
    // replaced in year 6 (5.5 -> end of year 6, end-of-period; 6.0 -> year 6): replacement 585,096,000 +
    // 86,839,200 = 671,935,200, selling the old vintages for 58,509,600 + 4,341,960 = 62,851,560.
    // Flow year 6 = 227,518,711.7 - 671,935,200 + 62,851,560 = -381,564,928.3. Terminal at 7: IT vintage 2
    // (from 5.5) 585,096,000 x (1 - 1.5/5.5 x 0.9) = 441,481,527.3; network vintage 2 (from 6)
    // 86,839,200 x (1 - 1/6 x 0.95) = 73,089,660.0; facility 258,539,075 x 8/15 = 137,887,506.7; land
    // 8,000,000; total 660,458,694.0. Year 7 flow 227,518,711.7 + 660,458,694.0 = 887,977,405.7 (years 6 and 7
    // depreciate each vintage for its service time in the year, so their tax equals the other years').
    // NPV 186,565,316.6 (Python, the same flows).
    void llama3ReplacementInsideLongerHorizon() {
        const auto r = cost::evaluate(llama3(), m_catalog, m_defaults,
                                      cost::InputOverrides{{"assumptions.horizon_years", 7.0, "test"}});
        QCOMPARE(r.finance.cashFlows.size(), size_t(8));
        CTWIN_NEAR(r.finance.replacementCapex[5].value(), 671935200.0, 1e-3);
        CTWIN_NEAR(r.finance.salvage[5].value(), 62851560.0, 1e-3);
        CTWIN_NEAR(r.finance.cashFlows[6].value(), -381564928.3, 1.0);
        CTWIN_NEAR(fig(r, "finance.terminal_value_usd"), 660458693.9, 1.0);
        CTWIN_NEAR(fig(r, "finance.npv_usd"), 186565316.6, 2.0);
    }

    // project.tco_convention = "accounting": the headline and everything downstream follow. Training run cost
    // = hours x GPUs x cost per GPU-hour, so it scales by 1.454916 / 1.910879 = 0.761385.
    void accountingHeadlineFlowsDownstream() {
        auto p = llama3();
        const auto econ = cost::evaluate(p, m_catalog, m_defaults);
        p.info.tcoConvention = "accounting";
        const auto acct = cost::evaluate(p, m_catalog, m_defaults);
        QCOMPARE(acct.finance.convention, std::string("accounting"));
        QCOMPARE(fig(acct, "finance.tco_annual_usd"), fig(acct, "finance.accounting.tco_annual_usd"));
        CTWIN_NEAR(fig(acct, "finance.cost_per_gpu_hour_usd"), 1.454916, 1e-6);
        QVERIFY(!econ.training.empty());
        CTWIN_NEAR(acct.training.front().runCost.value() / econ.training.front().runCost.value(),
                   1.454916 / 1.910879, 1e-6);
        // Both views are reported whatever the headline.
        QCOMPARE(fig(acct, "finance.economic.tco_annual_usd"), fig(econ, "finance.economic.tco_annual_usd"));
    }

    // ---- Capex: GPU-level split and analyst view (issue 13 item 4) ----
    // Llama 3: 1,024 racks x 16 H100 x $27,500 = 450,560,000; cpus_hosts = compute 542,720,000 - 450,560,000
    // = 92,160,000 (1,024 x (550,000 - 20,000 - 440,000) = 1,024 x 90,000). Analyst view: networking =
    // 20,480,000 + 64,350,000 + 22,489,200 + 0 = 107,319,200; shell = 114,503,975 - 8,000,000 =
    // 106,503,975; other = 16,896,000 + 8,000,000 = 24,896,000. Exact (integers in doubles).
    void capexSplitAndAnalystView() {
        const auto r = cost::evaluate(llama3(), m_catalog, m_defaults);
        QCOMPARE(fig(r, "capex.compute_breakdown.gpus"), 450560000.0);
        QCOMPARE(fig(r, "capex.compute_breakdown.cpus_hosts"), 92160000.0);
        QCOMPARE(fig(r, "capex.by_category_usd.compute"), 542720000.0);
        QCOMPARE(fig(r, "capex.analyst_view.gpus"), 450560000.0);
        QCOMPARE(fig(r, "capex.analyst_view.other_it"), 92160000.0);
        QCOMPARE(fig(r, "capex.analyst_view.networking"), 107319200.0);
        QCOMPARE(fig(r, "capex.analyst_view.shell"), 106503975.0);
        QCOMPARE(fig(r, "capex.analyst_view.other"), 24896000.0);
        QCOMPARE(fig(r, "capex.total_usd"), 938474275.0);
    }

    // Every shipped reference: the split sums to compute and the analyst view to the total (relative 1e-12).
    void analystViewSumsToTotalOnEveryReference() {
        for (const char* name : {"llama3-16k-h100", "neocloud-100k-gb200", "campus-1gw", "two-site-wan",
                                 "vera-rubin-504", "agentic-inference-gb300"}) {
            const auto p =
                model::loadProjectJson(kData + "/reference/" + name + ".json", &m_catalog);
            const auto r = cost::evaluate(p, m_catalog, m_defaults);
            double view = 0;
            for (const auto& k : cost::kAnalystCapexCategories)
                view += fig(r, "capex.analyst_view." + k);
            const double total = fig(r, "capex.total_usd");
            QVERIFY2(std::abs(view - total) <= 1e-12 * total, name);
            const double split = fig(r, "capex.compute_breakdown.gpus") + fig(r, "capex.compute_breakdown.cpus_hosts");
            QVERIFY2(std::abs(split - fig(r, "capex.by_category_usd.compute")) <= 1e-12 * total, name);
            QVERIFY2(fig(r, "capex.compute_breakdown.gpus") > 0, name);
            QVERIFY2(fig(r, "capex.compute_breakdown.cpus_hosts") >= 0, name);
            // The conventions' class charges add up to their capex charge.
            for (const char* conv : {"economic", "accounting"}) {
                double sum = 0;
                for (const char* cls : {"it", "network", "facility", "land"})
                    sum += fig(r, std::string("finance.") + conv + ".annual_by_class." + cls + ".capex_charge_usd");
                QVERIFY2(std::abs(sum - fig(r, std::string("finance.") + conv + ".capex_charge_usd")) <=
                             1e-9 * total,
                         name);
            }
        }
    }

    // ---- Bad input: exit 3 (InputError) naming the field ----
    void badFractionsAreRefused_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::newRow("negative IT support") << "it_maintenance_fraction" << -0.01;
        QTest::newRow("facility maintenance above 1") << "facility_maintenance_fraction" << 1.5;
        QTest::newRow("residual above capex") << "it_residual_fraction" << 1.2;
        QTest::newRow("negative residual") << "network_residual_fraction" << -0.1;
        QTest::newRow("legacy maintenance above 1") << "maintenance_fraction" << 2.0;
    }
    void badFractionsAreRefused() {
        QFETCH(QString, key);
        QFETCH(double, value);
        const std::string k = key.toStdString();
        // In the design's assumptions block.
        auto p = llama3();
        p.assumptions[k] = model::Assumption{value, std::min(value, 0.0), std::max(value, 1.0), "", "test", true};
        try {
            (void)cost::evaluate(p, m_catalog, m_defaults);
            QFAIL("accepted");
        } catch (const model::InputError& e) {
            QCOMPARE(e.where().entityId, k);
            QCOMPARE(e.where().field, std::string("base"));
            QVERIFY2(std::string(e.what()).find(k) != std::string::npos, e.what());
        }
        // As an override (--set), for the keys data/assumptions.json has.
        if (k == "maintenance_fraction") return;
        try {
            (void)cost::evaluate(llama3(), m_catalog, m_defaults,
                                 cost::InputOverrides{{"assumptions." + k, value, "--set"}});
            QFAIL("accepted");
        } catch (const model::InputError& e) {
            // The override path names the assumption (cost/input_resolver.cpp: "--set assumptions.KEY").
            QVERIFY2(std::string(e.what()).find(k) != std::string::npos, e.what());
        }
    }

    void unknownConventionIsRefused() {
        ojson j = ojson::parse(model::dumpJson(model::projectToJson(llama3())));
        QCOMPARE(j["project"]["tco_convention"].get<std::string>(), std::string("economic"));
        j["project"]["tco_convention"] = "cash";
        try {
            (void)model::projectFromJson(j, "bad.json", &m_catalog);
            QFAIL("accepted");
        } catch (const model::InputError& e) {
            QCOMPARE(e.where().field, std::string("tco_convention"));
            QCOMPARE(e.where().file, std::string("bad.json"));
        }
        // A design without the field (older files) loads with the default.
        j["project"].erase("tco_convention");
        QCOMPARE(model::projectFromJson(j, "old.json", &m_catalog).info.tcoConvention, std::string("economic"));
    }
};

QTEST_APPLESS_MAIN(TestFinanceConventions)
#include "test_finance_conventions.moc"
