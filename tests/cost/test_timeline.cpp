// The time axis (issue 34; cost/timeline.h): phased draws, interest during construction, monthly cash
// flows, NPV, peak funding, payback, cohort price decay and refresh, and the engine's phases from the
// design's dates. Expected values are worked by hand (or in Python to 1e-12 where marked) in the comment
// beside each check; tolerances are stated at each check.
#include "../test_support.h"
#include "calendar_date.h"
#include "catalog.h"
#include "design_json.h"
#include "evaluate.h"
#include "figure_checks.h"
#include "input_error.h"
#include "timeline.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <numeric>

using namespace ctwin;
using ctwin::test_support::catalog;
using ctwin::test_support::defaults;
using ctwin::test_support::fig;
using ctwin::test_support::near;
using ctwin::test_support::reference;

namespace {

/// One phase energised at month 2 of a 2-month build with a 1-year horizon (14 months): facility 1,200
/// drawn 600 + 600, IT 600 on delivery, 1,200 GPU-hours a year at $1, opex 120 a year; no tax, no decay.
cost::TimelineInputs smallCase() {
    cost::TimelineInputs in;
    in.constructionMonths = 2;
    in.horizonYears = 1;
    in.facilityCapex = 1200 * units::usd;
    in.itCapex = 600 * units::usd;
    in.it = {1.0, 0.0};
    in.network = {5.0, 0.0};
    in.facility = {10.0, 0.0};
    in.opexPowerDriven = 120 * units::usd;
    in.gpuHoursPerYear = 1200;
    in.gpuHourPrice = 1.0;
    in.gpus = 10;
    in.itPeakMw = 2;
    in.facilityPeakMw = 2.5;
    cost::TimelinePhaseInput ph;
    ph.hall = "hall-a";
    ph.energisationMonth = 2;
    ph.gpuShare = ph.powerShare = 1.0;
    in.phases = {ph};
    return in;
}

double sumOf(const cost::Timeline& t, units::Money cost::TimelineMonth::*field) {
    double s = 0;
    for (const auto& m : t.months)
        s += (m.*field).value();
    return s;
}

cost::Results evaluateWith(model::Project p, const std::vector<std::pair<std::string, double>>& set = {}) {
    auto a = defaults();
    for (const auto& [k, v] : set)
        a.at(k).base = v;
    return cost::evaluate(p, catalog(), a);
}

/// The campus reference phased one building per quarter: build start 2027-01, buildings energised from
/// 2028-07 (the reference delivery, 18 construction months) every 3 months.
model::Project phasedCampus() {
    auto p = reference("campus-1gw");
    p.info.buildStart = "2027-01-01";
    for (std::size_t i = 0; i < p.buildings.size(); ++i)
        p.buildings[i].energisationDate =
            model::CalendarDate{2028, 7, 1}.plusMonths(3 * static_cast<int>(i)).iso();
    return p;
}

bool hasRule(const cost::Results& r, const std::string& id, const std::string& text = {}) {
    return std::any_of(r.rules.begin(), r.rules.end(), [&](const cost::DesignRule& d) {
        return d.rule == id && d.message.find(text) != std::string::npos;
    });
}

} // namespace

class TestTimeline : public QObject {
    Q_OBJECT
private slots:
    void datesParseAndRefuse() {
        // ISO 8601 calendar dates, day or month precision; leap years by the Gregorian rule.
        QCOMPARE(model::parseCalendarDate("2027-02-28")->day, 28);
        QVERIFY(model::parseCalendarDate("2028-02-29"));
        QVERIFY(!model::parseCalendarDate("2027-02-29"));
        QVERIFY(!model::parseCalendarDate("2100-02-29")); // a century not divisible by 400
        QVERIFY(model::parseCalendarDate("2000-02-29"));
        QCOMPARE(model::parseCalendarDate("2027-06")->month, 6);
        for (const char* bad :
             {"2027-13-01", "2027-6-01", "27-06-01", "2027/06/01", " 2027-06", "2027-06-01T00:00", "1899-12",
              "2201-01", "June 2027", "2027-00", "2027-06-31", ""})
            QVERIFY2(!model::parseCalendarDate(bad), bad);
        QVERIFY(model::calendarDateProblem("").empty()); // absent
        QVERIFY(QString::fromStdString(model::calendarDateProblem("2027/06")).contains("YYYY-MM-DD"));
        // Month arithmetic: 2027-11 + 3 months = 2028-02; months between dates ignore the day.
        QCOMPARE(model::parseCalendarDate("2027-11-15")->plusMonths(3).iso(), std::string("2028-02-01"));
        QCOMPARE(model::parseCalendarDate("2029-03-31")->monthIndex() -
                     model::parseCalendarDate("2027-01-01")->monthIndex(),
                 26);
        QVERIFY(model::isDateField("energisation_date") && model::isDateField("build_start"));
        QVERIFY(!model::isDateField("date") && !model::isDateField("name"));
    }

    void monthlyCashFlowsByHand() {
        // wacc 0: NPV is the plain sum. Capex 1,800 (draws 600 in months 0 and 1, IT 600 in month 2);
        // revenue 100 and opex 10 in each of months 2..13; terminal: the facility's book after 12 of its
        // 120 months, 1,200 x 0.9 = 1,080 (IT fully depreciated after its 12 months, not replaced: its
        // replacement would fall at month 14, the end). NPV = -1,800 + 12 x 90 + 1,080 = 360 (exact).
        const auto t = cost::computeTimeline(smallCase());
        QVERIFY(t.rules.empty());
        QCOMPARE(int(t.months.size()), 14);
        QCOMPARE(t.months[0].facilityCapex.value(), 600.0);
        QCOMPARE(t.months[1].facilityCapex.value(), 600.0);
        QCOMPARE(t.months[2].itCapex.value(), 600.0);
        QCOMPARE(t.months[2].revenue.value(), 100.0);
        QCOMPARE(t.months[2].opex.value(), 10.0);
        QCOMPARE(t.months[1].revenue.value(), 0.0);
        QVERIFY(near(t.months[13].terminalValue.value(), 1080.0, 1e-12));
        QVERIFY(near(t.npv.value(), 360.0, 1e-12));
        // Cumulative cash without the terminal value: -600, -1,200, -1,710 (month 2: -600 + 90), then +90 a
        // month to -720 at month 13: the peak funding is 1,710 in month 2 and there is no payback.
        QVERIFY(near(t.peakFunding.value(), 1710.0, 1e-12));
        QCOMPARE(t.peakFundingMonth, 2);
        QVERIFY(!t.paybackMonth);
        QVERIFY(near(t.months[13].cumulative.value(), -720.0, 1e-12));
        // Depreciation: facility 10 and IT 50 a month from month 2: 12 x 60 = 720 over the timeline.
        QVERIFY(near(sumOf(t, &cost::TimelineMonth::depreciation), 720.0, 1e-12));
        // Rates: energised from month 2.
        QCOMPARE(t.months[1].energisedItMw, 0.0);
        QCOMPARE(t.months[2].energisedItMw, 2.0);
        QCOMPARE(t.months[2].energisedFacilityMw, 2.5);
        QCOMPARE(t.months[5].gpusEarning, 10.0);
        QCOMPARE(t.firstEnergisationMonth, 2);
        QCOMPARE(t.fullEnergisationMonth, 2);
    }

    void interestAndDiscountingByHand() {
        // wacc 10%: IDC = 600 x (1.1^(1.5/12) - 1) + 600 x (1.1^(0.5/12) - 1) = 9.578506514415741 (Python);
        // the facility depreciates IDC included, so the terminal is 0.9 x (1,200 + IDC) =
        // 1,088.6206558629742; NPV at month 2 of the draws (t = 0.5, 1.5), IT (t = 2), 12 x +90 at month ends
        // and the terminal at t = 14, each x 1.1^(-(t - 2)/12): 206.12053981895951 (Python). Tolerance 1e-9
        // relative.
        auto in = smallCase();
        in.wacc = 0.1;
        const auto t = cost::computeTimeline(in);
        QVERIFY(near(t.interestDuringConstruction.value(), 9.578506514415741, 1e-9));
        QVERIFY(near(t.months[13].terminalValue.value(), 1088.6206558629742, 1e-9));
        QVERIFY(near(t.npv.value(), 206.12053981895951, 1e-9));
        // The XIRR of a positive-NPV series at 10% lies above 10%.
        QVERIFY(t.irr && *t.irr > 0.1);
    }

    void taxByYear() {
        // Tax 25% on each 12-month year's positive taxable income. Year 1 (months 0..11): revenue 10 x 100,
        // opex 10 x 10, depreciation 10 x 60: 1,000 - 100 - 600 = 300 -> 75 in month 11. Year 2 (months 12,
        // 13, the last partial year): 200 - 20 - 120 = 60 -> 15 in month 13.
        auto in = smallCase();
        in.taxRate = 0.25;
        const auto t = cost::computeTimeline(in);
        QVERIFY(near(t.months[11].tax.value(), 75.0, 1e-12));
        QVERIFY(near(t.months[13].tax.value(), 15.0, 1e-12));
        QVERIFY(near(sumOf(t, &cost::TimelineMonth::tax), 90.0, 1e-12));
    }

    void priceDecayAndDelay() {
        // A cohort's price falls with its age at the mid-month: month 2 (age 0.5 month) at 20%/yr:
        // 100 x 0.8^(0.5/12) = 99.07454415104576 (Python). 15.21875 days to revenue = half a month
        // (365.25/12 = 30.4375 days): month 2 earns half its hours.
        auto in = smallCase();
        in.rentalDecayPerYear = 0.2;
        auto t = cost::computeTimeline(in);
        QVERIFY(near(t.months[2].revenue.value(), 99.07454415104576, 1e-12));
        QVERIFY(near(t.months[2].meanGpuHourPrice, 0.9907454415104576, 1e-12));
        // On 1-year contracts the price holds for the first contract (months 2..13) and falls by the
        // year's 20 % at the renewal in month 14: 100 x 0.8 = 80 (exact to 1e-12).
        in.horizonYears = 2;
        in.it = {5.0, 0.0}; // no refresh within the 2 years
        in.rentalContractYears = 1;
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[2].revenue.value(), 100.0, 1e-12));
        QVERIFY(near(t.months[13].revenue.value(), 100.0, 1e-12));
        QVERIFY(near(t.months[14].revenue.value(), 80.0, 1e-12));
        in.horizonYears = 1;
        in.it = {1.0, 0.0};
        in.rentalContractYears = 0;
        in.rentalDecayPerYear = 0;
        in.deliveryToRevenueDays = 365.25 / 24.0;
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[2].revenue.value(), 50.0, 1e-12));
        QVERIFY(near(t.months[2].gpusEarning, 5.0, 1e-12));
        QVERIFY(near(t.months[3].revenue.value(), 100.0, 1e-12));
    }

    void fixedLifeRefreshAtTheYearsPrice() {
        // IT life 1 year, horizon 3 years: the cohort delivered in month 2 is replaced in months 14 and 26.
        // The price moves +10% a year from the reference delivery (month 2): 600 x 1.1 = 660 in month 14,
        // 600 x 1.21 = 726 in month 26. Retired at the end of its life, a cohort changes hands at its
        // residual (0 here). With 15.21875 days to revenue the replacement month earns half.
        auto in = smallCase();
        in.horizonYears = 3;
        in.itPriceChangePerYear = 0.1;
        in.deliveryToRevenueDays = 365.25 / 24.0;
        const auto t = cost::computeTimeline(in);
        QCOMPARE(t.phases.size(), std::size_t(1));
        QCOMPARE(t.phases[0].itRefreshMonths, (std::vector<int>{14, 26}));
        QVERIFY(near(t.months[14].replacementCapex.value(), 660.0, 1e-12));
        QVERIFY(near(t.months[26].replacementCapex.value(), 726.0, 1e-12));
        QVERIFY(near(t.months[14].revenue.value(), 50.0, 1e-12));
        QCOMPARE(t.months[14].salvage.value(), 0.0);
    }

    void economicRefresh() {
        // refreshAge: R0 1,000 a year, C 2,000, wacc 10%, life 5: CRF = 0.1 / (1 - 1.1^-5) = 0.263797;
        // x = 2,000 x 0.263797 / 1,000 = 0.527595; a = ln(1 - x) / ln(0.8) = 3.360699983213564 (Python).
        QVERIFY(near(*cost::refreshAge(1000, 2000, 0.1, 5, 0.2), 3.360699983213564, 1e-12));
        QVERIFY(!cost::refreshAge(1000, 4000, 0.1, 5, 0.2)); // C x CRF = 1,055 > R0: never pays
        QVERIFY(!cost::refreshAge(1000, 2000, 0.1, 5, 0.0)); // no decay: never pays
        // In the timeline the economic hall is replaced in the first month whose age reaches it: R0 1,200,
        // C 600, wacc 0, life 1 (CRF 1): 600 = 1,200 (1 - 0.4^a) at d = 60%, a = ln 0.5 / ln 0.4 =
        // 0.7564707973660301 years (Python) = 9.08 months: replaced at age 10, month 2 + 10.
        auto in = smallCase();
        in.horizonYears = 3;
        in.rentalDecayPerYear = 0.6;
        in.it = {1.0, 0.0};
        in.phases[0].economicRefresh = true;
        auto t = cost::computeTimeline(in);
        QCOMPARE(t.phases[0].itRefreshMonths.front(), 12);
        QVERIFY(t.economicRefreshAgeYears && near(*t.economicRefreshAgeYears, 0.7564707973660301, 1e-12));
        // Life 2 years halves the capital charge (CRF 0.5): 300 = 1,200 (1 - 0.4^a), a = ln 0.75 / ln 0.4 =
        // 3.77 months: replaced at age 4, month 6, before its accounting life ends. It sells at its market
        // value, 600 x 0.4^(4/12) = 442.0837798 (Python), below its book value (600 less 4 of 24 months,
        // 500): the 57.9162202 shortfall is a loss deducted in that month beside the 25 of depreciation.
        in.it = {2.0, 0.0};
        t = cost::computeTimeline(in);
        QCOMPARE(t.phases[0].itRefreshMonths.front(), 6);
        QVERIFY(near(t.months[6].salvage.value(), 600 * std::pow(0.4, 4.0 / 12.0), 1e-12));
        QVERIFY(
            near(t.months[6].depreciation.value(), 25 + 10 + (500 - 600 * std::pow(0.4, 4.0 / 12.0)), 1e-12));
    }

    void generationPricesAreMarketPricesAtADate() {
        // Issue 34 item 2. One hall delivered in month 8, six months after the reference delivery (month 2):
        // its GPUs (half its IT capex) cost the catalog price x (1 - 0.1)^0.5, the rest of its IT the catalog
        // price (no IT price change): 600 x (0.5 + 0.5 x 0.9^0.5) = 584.6049894151541 (Python). Its GPU-hours
        // sell at its generation's price (1.5 x the design's) decayed from the reference to mid-month 8:
        // 100 x 1.5 x 0.8^(6.5/12) = 132.92244933692552.
        auto in = smallCase();
        in.phases[0].energisationMonth = 8;
        in.phases[0].rentalPriceFactor = 1.5;
        in.phases[0].rentalDecayPerYear = 0.2;
        in.phases[0].gpuPriceDeclinePerYear = 0.1;
        in.phases[0].gpuCapexShare = 0.5;
        auto t = cost::computeTimeline(in);
        QVERIFY(near(t.months[8].itCapex.value(), 584.6049894151541, 1e-12));
        QVERIFY(near(t.months[8].revenue.value(), 132.92244933692552, 1e-12));
        // A phase's own curve wins over the design's; without one it takes the design's (the inputs).
        in.rentalDecayPerYear = 0.5;
        in.gpuPriceDeclinePerYear = 0.5;
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[8].revenue.value(), 132.92244933692552, 1e-12));
        in.phases[0].rentalDecayPerYear.reset();
        in.phases[0].gpuPriceDeclinePerYear.reset();
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[8].revenue.value(), 150 * std::pow(0.5, 6.5 / 12), 1e-12));
        QVERIFY(near(t.months[8].itCapex.value(), 300 + 300 * std::pow(0.5, 0.5), 1e-12));
        // Delivered before the reference (month 0 of a 2-month build), it earns more than the catalog price:
        // 100 x 0.8^(-1.5/12) = 102.82855942978897.
        in = smallCase();
        in.rentalDecayPerYear = 0.2;
        in.phases[0].energisationMonth = 0;
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[0].revenue.value(), 102.82855942978897, 1e-12));
        // Two halls of different generations in the same month run apart: half at 0.8 a year, half at 0.7:
        // 50 x 0.8^(0.5/12) + 50 x 0.7^(0.5/12) = 98.79969359596842.
        in = smallCase();
        in.phases[0].gpuShare = in.phases[0].powerShare = 0.5;
        in.phases[0].rentalDecayPerYear = 0.2;
        auto other = in.phases[0];
        other.hall = "hall-b";
        other.rentalDecayPerYear = 0.3;
        in.phases.push_back(other);
        t = cost::computeTimeline(in);
        QVERIFY(near(t.months[2].revenue.value(), 98.79969359596842, 1e-12));
        // The economic refresh of a late cohort counts its generation's age from the reference: with the
        // economicRefresh case's figures (replace at 9.08 months of decay) the hall delivered in month 8 is
        // replaced in month 12 (10 months after the reference), as the one delivered in month 2 is.
        in = smallCase();
        in.horizonYears = 3;
        in.rentalDecayPerYear = 0.6;
        in.phases[0].economicRefresh = true;
        in.phases[0].energisationMonth = 8;
        t = cost::computeTimeline(in);
        QCOMPARE(t.phases[0].itRefreshMonths.front(), 12);
        // The successor decays from its own installation: the next refresh comes 10 months later.
        QCOMPARE(t.phases[0].itRefreshMonths.at(1), 22);
    }

    void generationCurvesFromTheCatalog() {
        // The campus reference (GB300, Blackwell Ultra) phased one building per quarter: each phase carries
        // its accelerator's catalog curve (rental decay 0.14, purchase price decline 0.13 a year), and the
        // design-wide assumptions report the GPU-weighted catalog values in place of the shipped defaults.
        auto p = phasedCampus();
        auto r = evaluateWith(p);
        QVERIFY(r.timeline);
        const auto& gb300 = catalog().at("gb300");
        for (const auto& ph : r.timeline->phases) {
            QVERIFY(ph.input.rentalDecayPerYear && ph.input.gpuPriceDeclinePerYear);
            QCOMPARE(*ph.input.rentalDecayPerYear, gb300.value("rental_price_decay_per_year"));
            QCOMPARE(*ph.input.gpuPriceDeclinePerYear, gb300.value("price_decline_per_year"));
            QVERIFY(near(ph.input.rentalPriceFactor, 1.0, 1e-12)); // one generation
            QVERIFY(ph.input.gpuCapexShare > 0.3 && ph.input.gpuCapexShare < 1.0);
        }
        const auto input = [&](const cost::Results& res, const std::string& key) {
            for (const auto& in : res.inputs)
                if (in.path == "assumptions." + key) return in;
            return cost::ResolvedInput{};
        };
        const auto decay = input(r, "gpu_rental_price_decay_per_year");
        QCOMPARE(decay.value, 0.14);
        QCOMPARE(decay.low, 0.0);
        QCOMPARE(decay.high, 0.49);
        QVERIFY2(decay.source.find("gb300") != std::string::npos, decay.source.c_str());
        QCOMPARE(input(r, "gpu_price_decline_per_year").value, 0.13);
        // Halls after the reference buy their GPUs for less: against the same plan at a decline of 0, the
        // first cohorts' capex is lower by sum over phases of IT x GPU share x its GPUs' part of IT x
        // (1 - 0.87^(months after the reference / 12)).
        auto flatPlan = p;
        flatPlan.assumptions["gpu_price_decline_per_year"] =
            model::Assumption{0, 0, 0, "1/year", "test", true};
        const auto flat = evaluateWith(flatPlan);
        double it = 0, expected = 0;
        for (const auto& ac : r.finance.assetClasses)
            if (ac.name == "it") it = ac.capex.value();
        for (const auto& ph : r.timeline->phases)
            expected +=
                it * ph.input.gpuShare * ph.input.gpuCapexShare *
                (1 - std::pow(0.87, (ph.input.energisationMonth - r.timeline->referenceMonth) / 12.0));
        QVERIFY(expected > 0);
        QVERIFY(near(sumOf(*flat.timeline, &cost::TimelineMonth::itCapex) -
                         sumOf(*r.timeline, &cost::TimelineMonth::itCapex),
                     expected, 1e-9));
        // A design that sets the decay holds it for every phase.
        p.assumptions["gpu_rental_price_decay_per_year"] =
            model::Assumption{0.3, 0.1, 0.5, "1/year", "test", true};
        r = evaluateWith(p);
        for (const auto& ph : r.timeline->phases)
            QVERIFY(!ph.input.rentalDecayPerYear && ph.input.gpuPriceDeclinePerYear);
        QCOMPARE(input(r, "gpu_rental_price_decay_per_year").value, 0.3);
        // An accelerator without its own curve: a Warning naming it and the field, the shipped value used.
        p.assumptions.erase("gpu_rental_price_decay_per_year");
        auto items = catalog().items();
        for (auto& item : items)
            if (item.id == "gb300") item.values.erase("rental_price_decay_per_year");
        const model::Catalog bare(items);
        r = cost::evaluate(p, bare, defaults());
        QVERIFY(hasRule(r, "cohort_without_price_curve", "rental_price_decay_per_year"));
        QVERIFY(r.timeline);
        QCOMPARE(*r.timeline->phases.front().input.rentalDecayPerYear,
                 defaults().at("gpu_rental_price_decay_per_year").base);
        // The catalog refuses a curve outside [0, 0.9], naming item and field.
        auto bad = catalog().at("gb300");
        bad.values["price_decline_per_year"] = model::CatalogValue{0.5, 0.2, 0.95, "test", true};
        try {
            model::checkCatalogItem(bad, "accelerators.json");
            QFAIL("a decline of 95 % a year was accepted");
        } catch (const model::InputError& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains("gb300") && m.contains("price_decline_per_year"), e.what());
        }
    }

    void phasedEnergisationAndBadPhases() {
        // Two halls: one at month 2, one at month 8 with a 2-month build: the second's draws fall in months
        // 6 and 7; both halves of IT arrive on their own dates.
        auto in = smallCase();
        in.horizonYears = 2;
        in.phases[0].gpuShare = in.phases[0].powerShare = 0.5;
        auto second = in.phases[0];
        second.hall = "hall-b";
        second.energisationMonth = 8;
        in.phases.push_back(second);
        auto t = cost::computeTimeline(in);
        QCOMPARE(t.months[0].facilityCapex.value(), 300.0);
        QCOMPARE(t.months[6].facilityCapex.value(), 300.0);
        QCOMPARE(t.months[8].itCapex.value(), 300.0);
        QCOMPARE(t.months[5].energisedItMw, 1.0);
        QCOMPARE(t.months[8].energisedItMw, 2.0);
        QCOMPARE(t.fullEnergisationMonth, 8);
        QVERIFY(near(sumOf(t, &cost::TimelineMonth::facilityCapex) + sumOf(t, &cost::TimelineMonth::itCapex),
                     1800.0, 1e-12));
        // A phase outside the timeline: an Error, no months.
        in.phases[1].energisationMonth = 40;
        t = cost::computeTimeline(in);
        QVERIFY(t.months.empty());
        QCOMPARE(t.rules.front().rule, std::string("phase_outside_timeline"));
        QCOMPARE(t.rules.front().entity, std::string("hall-b"));
    }

    void engineConservesTheSteadyState() {
        // On the campus reference phased one building per quarter from 2027-01: the months sum to the
        // steady state's capex (price change 0), and once every hall is energised the month's MW, GPUs and
        // opex are the steady state's (relative 1e-9).
        auto p = phasedCampus();
        // The GPUs' purchase price held (the catalog's GB300 curve is generationCurvesFromTheCatalog's).
        p.assumptions["gpu_price_decline_per_year"] = model::Assumption{0, 0, 0, "1/year", "test", true};
        const auto r = evaluateWith(p);
        QVERIFY(r.timeline);
        const auto& t = *r.timeline;
        QVERIFY(near(sumOf(t, &cost::TimelineMonth::facilityCapex) + sumOf(t, &cost::TimelineMonth::itCapex),
                     r.capex.total.value(), 1e-9));
        const auto& steady = t.months[static_cast<std::size_t>(t.fullEnergisationMonth + 1)];
        QVERIFY(near(steady.energisedItMw, r.power.itPeak.value() / 1e6, 1e-9));
        QVERIFY(near(steady.gpusInstalled, r.bom.gpus, 1e-9));
        QVERIFY(near(steady.opex.value(), r.finance.opexAnnual.value() / 12, 1e-9));
        QCOMPARE(t.firstEnergisationMonth, 18);
        QCOMPARE(t.fullEnergisationMonth, 18 + 3 * (static_cast<int>(p.buildings.size()) - 1));
        QCOMPARE(fig(r, "timeline.full_energisation_month"), double(t.fullEnergisationMonth));
        // Phasing delays a positive-NPV plan (no rental price decay) and so lowers its NPV.
        auto held = p;
        held.assumptions["gpu_rental_price_decay_per_year"] =
            model::Assumption{0, 0, 0, "1/year", "test", true};
        const auto flat = evaluateWith(held);
        QVERIFY(fig(flat, "timeline.npv_without_phasing_usd") > 0);
        QVERIFY(fig(flat, "timeline.npv_usd") < fig(flat, "timeline.npv_without_phasing_usd"));
        QVERIFY(fig(r, "timeline.peak_funding_usd") > 0);
        QVERIFY(fig(r, "timeline.interest_during_construction_usd") > 0);
        // Without dates the timeline's unphased NPV is its NPV.
        auto undated = reference("campus-1gw");
        for (auto& b : undated.buildings)
            b.energisationDate.clear();
        const auto plain = evaluateWith(undated);
        QVERIFY(near(fig(plain, "timeline.npv_usd"), fig(plain, "timeline.npv_without_phasing_usd"), 1e-12));
    }

    void servingRateFollowsTheGpusEarning() {
        // The agentic reference dated from 2027-01 (delivered at month 18): its services' steady-state output
        // tokens/s on the GPUs earning each month: none before the delivery, the earning share in the month
        // the days to revenue end, all of it once every GPU earns.
        auto p = reference("agentic-inference-gb300");
        p.info.buildStart = "2027-01-01";
        const auto r = evaluateWith(p);
        QVERIFY(r.timeline && !r.inference.empty());
        double steady = 0;
        for (const auto& ir : r.inference)
            steady += ir.sizing.outputTokensPerSecond;
        QVERIFY(steady > 0);
        const auto& ms = r.timeline->months;
        const auto ref = static_cast<std::size_t>(r.timeline->referenceMonth);
        QCOMPARE(ms[ref - 1].outputTokensPerS, 0.0);
        for (std::size_t m = ref; m < ref + 4; ++m)
            QVERIFY(near(ms[m].outputTokensPerS, steady * ms[m].gpusEarning / r.bom.gpus, 1e-12));
        QVERIFY(ms[ref].outputTokensPerS < steady);
        QVERIFY(near(ms[ref + 3].outputTokensPerS, steady, 1e-12));
    }

    void bridgePowerUntilTheGrid() {
        // Issue 35 item 3. smallCase's hall (2.5 MW facility peak) energises in month 2; the grid arrives in
        // month 5 and 1 MW of on-site generation bridges: months 2-4 are powered 1 / 2.5 = 0.4, so they sell
        // 100 x 0.4 = 40 of GPU-hour revenue (no decay, no delay), 4 of 10 GPUs earn, and 3 x 100 x 0.6 = 180
        // GPU-hours wait for the grid. Energy is 60 of the 120 a year of power-driven opex; the facility uses
        // 12 MWh a year: a bridge month pays 120/12 - 60/12 + 1 MWh x 0.4 x $30 = 17 (fuel 12 a month, 36 in
        // all). From month 5 the grid: revenue 100, opex 10.
        auto in = smallCase();
        in.gridMonth = 5;
        in.onsiteMw = 1.0;
        in.fuelUsdPerMwh = 30.0;
        in.facilityEnergyMwhPerYear = 12.0;
        in.energyAnnual = 60.0 * units::usd;
        const auto t = cost::computeTimeline(in);
        for (int m : {2, 3, 4}) {
            QVERIFY(near(t.months[m].revenue.value(), 40.0, 1e-12));
            QVERIFY(near(t.months[m].gpusEarning, 4.0, 1e-12));
            QVERIFY(near(t.months[m].opex.value(), 17.0, 1e-12));
            QVERIFY(near(t.months[m].powered, 0.4, 1e-12));
        }
        QVERIFY(near(t.months[5].revenue.value(), 100.0, 1e-12));
        QVERIFY(near(t.months[5].opex.value(), 10.0, 1e-12));
        QCOMPARE(t.bridgeMonths, 3);
        QVERIFY(near(t.gpuHoursWaitingForGrid, 180.0, 1e-12));
        QVERIFY(near(t.bridgeFuel.value(), 36.0, 1e-12));
        // Enough on-site generation: nothing waits; none: every GPU-hour before the grid waits.
        in.onsiteMw = 5.0;
        QCOMPARE(cost::computeTimeline(in).gpuHoursWaitingForGrid, 0.0);
        in.onsiteMw = 0.0;
        QVERIFY(near(cost::computeTimeline(in).gpuHoursWaitingForGrid, 300.0, 1e-12));

        // On the phased campus with the grid 6 months after the first hall (month 24) and no on-site
        // generation: a Warning naming the assumption, the figures, and a lower NPV than with the grid there.
        auto p = phasedCampus();
        const auto gridFirst = evaluateWith(p);
        p.assumptions["grid_interconnect_month"] = model::Assumption{24, 24, 24, "months after the build start", "test", false};
        const auto late = evaluateWith(p);
        QVERIFY(hasRule(late, "halls_wait_for_grid", "grid_interconnect_month = 24"));
        QCOMPARE(fig(late, "timeline.bridge_months"), 6.0);
        QVERIFY(fig(late, "timeline.gpu_hours_waiting_for_grid") > 0);
        QCOMPARE(fig(late, "timeline.bridge_fuel_usd"), 0.0);
        QVERIFY(fig(late, "timeline.npv_usd") < fig(gridFirst, "timeline.npv_usd"));
        QVERIFY(!gridFirst.figure("timeline.bridge_months"));
        // 1 GW of on-site generation bridges every hall: nothing waits, the fuel is paid instead.
        p.assumptions["onsite_generation_mw"] = model::Assumption{1000, 1000, 1000, "MW", "test", false};
        const auto bridged = evaluateWith(p);
        QCOMPARE(fig(bridged, "timeline.gpu_hours_waiting_for_grid"), 0.0);
        QVERIFY(fig(bridged, "timeline.bridge_fuel_usd") > 0);
        QVERIFY(!hasRule(bridged, "halls_wait_for_grid"));
    }

    // Issue 35 item 2: each site its own interconnect date and its own share of the on-site generation.
    // smallCase's hall split in two halves on sites a and b (1.25 MW of facility peak each), 0.5 MW of
    // on-site generation at each; a's grid in month 3, b's in month 6. While bridging each half is powered
    // 0.5 / 1.25 = 0.4. Revenue: month 2 both bridge, 2 x 50 x 0.4 = 40; month 3 a on the grid, 50 + 20 =
    // 70; month 6 both, 100. Waiting GPU-hours: a 1 month x 50 x 0.6 = 30, b 4 months x 50 x 0.6 = 120, 150
    // in all; months on bridge power: 2 to 5, 4. One pool (no per-site shares) with both at month 6 and 1 MW
    // powers both halves 1 / 2.5 = 0.4 too: 4 x 100 x 0.6 = 240 waiting.
    void perSiteGridDates() {
        auto in = smallCase();
        in.onsiteMw = 1.0;
        auto a = in.phases.front();
        a.gpuShare = a.powerShare = 0.5;
        auto b = a;
        a.hall = "hall-a", a.site = "a", a.gridMonth = 3;
        b.hall = "hall-b", b.site = "b", b.gridMonth = 6;
        in.phases = {a, b};
        in.siteOnsiteMw = {{"a", 0.5}, {"b", 0.5}};
        const auto t = cost::computeTimeline(in);
        QVERIFY(near(t.months[2].revenue.value(), 40.0, 1e-12));
        QVERIFY(near(t.months[3].revenue.value(), 70.0, 1e-12));
        QVERIFY(near(t.months[5].revenue.value(), 70.0, 1e-12));
        QVERIFY(near(t.months[6].revenue.value(), 100.0, 1e-12));
        QVERIFY(near(t.gpuHoursWaitingForGrid, 150.0, 1e-12));
        QCOMPARE(t.bridgeMonths, 4);
        in.siteOnsiteMw.clear();
        in.phases[0].gridMonth = 6;
        QVERIFY(near(cost::computeTimeline(in).gpuHoursWaitingForGrid, 240.0, 1e-12));

        // In a design: two-site-wan with a build start, its second site's grid dated a year after its halls
        // energise (no on-site generation): the Warning, 12 months on bridge power; a date that is not one
        // is an Error naming the site and the field, and the timeline is not computed.
        auto p = reference("two-site-wan");
        p.info.buildStart = "2027-01-01";
        const auto& second = p.sites.back();
        p.sites.back().gridInterconnectDate = "2029-07-01"; // month 30; its halls energise at month 18
        const auto late = evaluateWith(p);
        QVERIFY(hasRule(late, "halls_wait_for_grid", "grid_interconnect_date"));
        QCOMPARE(fig(late, "timeline.bridge_months"), 12.0);
        p.sites.back().gridInterconnectDate = "2029-13-01";
        const auto bad = evaluateWith(p);
        QVERIFY(hasRule(bad, "bad_date", "sites." + second.id + ".grid_interconnect_date"));
        QVERIFY(!bad.timeline);
    }

    void badDatesInTheDesign() {
        auto p = reference("llama3-16k-h100");
        // Energisation without a build start, before it, after the horizon: Errors naming entity and field;
        // the timeline is not computed and the steady state still is.
        p.buildings.front().energisationDate = "2028-01";
        auto r = evaluateWith(p);
        QVERIFY(hasRule(r, "timeline_undated", "buildings." + p.buildings.front().id + ".energisation_date"));
        QVERIFY(!r.timeline && r.figure("finance.npv_usd"));
        p.info.buildStart = "2028-06-01";
        r = evaluateWith(p);
        QVERIFY(hasRule(r, "phase_before_build_start", "2028-06-01"));
        p.info.buildStart = "1990-01";
        r = evaluateWith(p);
        QVERIFY(hasRule(r, "horizon_shorter_than_build", "horizon_years"));
        // A library caller's bad text reaches the engine as an Error, not a crash.
        p.halls.front().energisationDate = "next spring";
        r = evaluateWith(p);
        QVERIFY(hasRule(r, "bad_date", "halls." + p.halls.front().id + ".energisation_date"));
        // The loader refuses a bad date with file, entity and field.
        QTemporaryDir dir;
        const std::string path = dir.filePath("bad.json").toStdString();
        auto good = reference("llama3-16k-h100");
        good.halls.front().energisationDate = "2027-13-01";
        std::ofstream(path) << model::projectToJson(good).dump();
        try {
            model::loadProjectJson(path, &catalog());
            QFAIL("a bad date loaded");
        } catch (const model::InputError& e) {
            const QString m = QString::fromUtf8(e.what());
            QVERIFY2(m.contains("bad.json") && m.contains("energisation_date") &&
                         m.contains(good.halls.front().id.c_str()),
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestTimeline)
#include "test_timeline.moc"
