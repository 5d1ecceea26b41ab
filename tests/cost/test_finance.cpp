// Golden tests for cost/finance: every expected figure is worked by hand in the comment beside it (checked
// to 40 digits with Python's decimal module) and compared with the tolerance stated in the column name or
// the check. Money is compared in dollars.
#include "../test_compare.h"
#include "finance.h"

#include <QtTest>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

using namespace ctwin;

namespace {

std::vector<units::Money> dollars(const QList<double>& values) {
    std::vector<units::Money> out;
    for (double v : values)
        out.push_back(v * units::usd);
    return out;
}

QList<double> values(const std::vector<units::Money>& money) {
    QList<double> out;
    for (const auto& m : money)
        out.append(m.value());
    return out;
}

QByteArray describe(const QList<double>& v) {
    QByteArray s = "[";
    for (qsizetype i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + QByteArray::number(v[i], 'g', 17);
    return s + "]";
}

} // namespace

// Element-wise, same length, same tolerance.
#define CTWIN_COMPARE_SCHEDULE(actual, expected, tol)                                                        \
    do {                                                                                                     \
        const QList<double> a_ = (actual);                                                                   \
        const QList<double> e_ = (expected);                                                                 \
        QVERIFY2(a_.size() == e_.size(), QByteArray(describe(a_) + " vs " + describe(e_)).constData());      \
        for (qsizetype i_ = 0; i_ < a_.size(); ++i_)                                                         \
            QVERIFY2(std::abs(a_[i_] - e_[i_]) <= (tol),                                                     \
                     QByteArray("year " + QByteArray::number(i_ + 1) + ": " + describe(a_) + " vs " +        \
                                describe(e_))                                                                \
                         .constData());                                                                      \
    } while (false)

class TestFinance : public QObject {
    Q_OBJECT

private slots:
    void capitalRecoveryFactor_data();
    void capitalRecoveryFactor();
    void straightLineSchedule_data();
    void straightLineSchedule();
    void decliningBalanceSchedule_data();
    void decliningBalanceSchedule();
    void decliningBalanceSumsToCost();
    void netPresentValue_data();
    void netPresentValue();
    void internalRateOfReturn_data();
    void internalRateOfReturn();
    void internalRateOfReturnZeroesNpv();
    void paybackYears_data();
    void paybackYears();
    void breakEvenPrice_data();
    void breakEvenPrice();
    void breakEvenPriceZeroesNpv();
    void breakEvenPriceUndefined();
    void constructionDrawsAndInterest();
    void datedInternalRateOfReturn();
    void badInputsStayFinite();
};

// Tolerance 1e-12 (absolute, on a factor of order 0.1..1): the closed form is exact up to rounding.
void TestFinance::capitalRecoveryFactor_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("years");
    QTest::addColumn<double>("expected");

    // 0.08·1.08^5 / (1.08^5 − 1) = 0.08·1.4693280768 / 0.4693280768 = 0.25045645456683660
    QTest::newRow("8% over 5 years") << 0.08 << 5.0 << 0.2504564545668366;
    // r = 0: capital repaid in equal parts, 1/4
    QTest::newRow("0% over 4 years") << 0.0 << 4.0 << 0.25;
    // 0.1·1.1 / (1.1 − 1) = 1.1: one period repays capital plus one year of interest
    QTest::newRow("10% over 1 year") << 0.1 << 1.0 << 1.1;
    // −0.05·0.95^3 / (0.95^3 − 1) = −0.04286875 / −0.142625 = 0.30056967572304996
    QTest::newRow("-5% over 3 years") << -0.05 << 3.0 << 0.30056967572304996;
    // fractional n: 1.08^2.5 = 1.2121584371690031; 0.08·1.2121584371690031 / 0.2121584371690031
    // = 0.45707668413994244
    QTest::newRow("8% over 2.5 years") << 0.08 << 2.5 << 0.45707668413994244;
    // r = 1e-12, n = 4: series 1/n + r(n+1)/(2n) = 0.25 + 0.625e-12 = 0.250000000000625 (exact rational
    // arithmetic agrees). The textbook form evaluated naively in doubles gives 0.24998, off by 2e-5.
    QTest::newRow("rate 1e-12 over 4 years") << 1e-12 << 4.0 << 0.250000000000625;
    // no payment period: no annuity
    QTest::newRow("0 years") << 0.08 << 0.0 << 0.0;
    QTest::newRow("-3 years") << 0.08 << -3.0 << 0.0;
    QTest::newRow("0% over 0 years") << 0.0 << 0.0 << 0.0;
    // r <= −1: (1+r)^n is zero or undefined; defined as 0 rather than NaN
    QTest::newRow("rate -1") << -1.0 << 5.0 << 0.0;
    QTest::newRow("rate -2") << -2.0 << 2.5 << 0.0;
}

void TestFinance::capitalRecoveryFactor() {
    QFETCH(double, rate);
    QFETCH(double, years);
    QFETCH(double, expected);
    const double crf = cost::capitalRecoveryFactor(rate, years);
    QVERIFY(std::isfinite(crf));
    CTWIN_COMPARE_ABS(crf, expected, 1e-12);
}

// Tolerance 1e-9 dollars per year on $1,000 (rounding only).
void TestFinance::straightLineSchedule_data() {
    QTest::addColumn<double>("cost");
    QTest::addColumn<double>("life");
    QTest::addColumn<int>("horizon");
    QTest::addColumn<QList<double>>("expected");

    // 1000/4 = 250 a year for years 1..4, nothing after the life
    QTest::newRow("$1000 over 4 years, horizon 6")
        << 1000.0 << 4.0 << 6 << QList<double>{250, 250, 250, 250, 0, 0};
    // 1000/2.5 = 400 a year; the half year left gets 0.5·400 = 200
    QTest::newRow("$1000 over 2.5 years") << 1000.0 << 2.5 << 3 << QList<double>{400, 400, 200};
    // horizon shorter than the life: only the first two years of 250
    QTest::newRow("horizon 2 of a 4-year life") << 1000.0 << 4.0 << 2 << QList<double>{250, 250};
    // life 0 or negative: the whole cost in year 1
    QTest::newRow("life 0") << 1000.0 << 0.0 << 3 << QList<double>{1000, 0, 0};
    QTest::newRow("life -2") << 1000.0 << -2.0 << 2 << QList<double>{1000, 0};
    // life shorter than a year: the whole cost in year 1 (0.4 of a year / 0.4)
    QTest::newRow("life 0.4") << 1000.0 << 0.4 << 2 << QList<double>{1000, 0};
    // horizon 0 or negative: nothing to schedule
    QTest::newRow("horizon 0") << 1000.0 << 4.0 << 0 << QList<double>{};
    QTest::newRow("horizon -1") << 1000.0 << 4.0 << -1 << QList<double>{};
    // a credit depreciates as the mirror image: −1000/4
    QTest::newRow("negative cost") << -1000.0 << 4.0 << 4 << QList<double>{-250, -250, -250, -250};
}

void TestFinance::straightLineSchedule() {
    QFETCH(double, cost);
    QFETCH(double, life);
    QFETCH(int, horizon);
    QFETCH(QList<double>, expected);
    CTWIN_COMPARE_SCHEDULE(values(cost::straightLineSchedule(cost * units::usd, life, horizon)), expected,
                           1e-9);
}

// Tolerance 1e-9 dollars per year on $1,000 (rounding only).
void TestFinance::decliningBalanceSchedule_data() {
    QTest::addColumn<double>("cost");
    QTest::addColumn<double>("life");
    QTest::addColumn<double>("factor");
    QTest::addColumn<int>("horizon");
    QTest::addColumn<QList<double>>("expected");

    // Double-declining, life 5: rate 2/5 = 0.4; each year max(0.4·book, book/remaining life).
    //   year 1: book 1000, DB 400,  SL 1000/5 = 200 -> 400, book 600
    //   year 2: book  600, DB 240,  SL  600/4 = 150 -> 240, book 360
    //   year 3: book  360, DB 144,  SL  360/3 = 120 -> 144, book 216
    //   year 4: book  216, DB 86.4, SL  216/2 = 108 -> 108 (switch to straight line), book 108
    //   year 5: last year of the life, the remaining 108; year 6: nothing left
    QTest::newRow("200% DB, life 5, horizon 6")
        << 1000.0 << 5.0 << 2.0 << 6 << QList<double>{400, 240, 144, 108, 108, 0};
    // horizon inside the life: the first three years only
    QTest::newRow("200% DB, life 5, horizon 3") << 1000.0 << 5.0 << 2.0 << 3 << QList<double>{400, 240, 144};
    // 150% DB, life 10: rate 0.15; DB while 0.15·book > book/remaining life:
    //   150, 127.5, 108.375, 92.11875 (book 1000·0.85^4 = 522.00625 after year 4);
    //   year 5: DB 78.30 < SL 522.00625/6 = 87.001041666... -> straight line for the last six years
    {
        const double sl = 1000.0 * std::pow(0.85, 4) / 6.0; // 87.00104166666666
        QTest::newRow("150% DB, life 10")
            << 1000.0 << 10.0 << 1.5 << 11
            << QList<double>{150, 127.5, 108.375, 92.11875, sl, sl, sl, sl, sl, sl, 0};
    }
    // fractional life 2.5, 200%: rate 0.8
    //   year 1: DB 800 vs SL 1000/2.5 = 400 -> 800, book 200
    //   year 2: DB 160 vs SL 200/1.5 = 133.3 -> 160, book 40
    //   year 3: the last half year, the remaining 40
    QTest::newRow("200% DB, life 2.5") << 1000.0 << 2.5 << 2.0 << 4 << QList<double>{800, 160, 40, 0};
    // factor 1 at life 4: DB 0.25·book never beats book/remaining, so it is straight line throughout
    QTest::newRow("100% DB is straight line")
        << 1000.0 << 4.0 << 1.0 << 4 << QList<double>{250, 250, 250, 250};
    // factor 10 at life 5: rate capped at 100%, the whole cost in year 1
    QTest::newRow("rate above 100%") << 1000.0 << 5.0 << 10.0 << 3 << QList<double>{1000, 0, 0};
    // factor 0 or negative: no declining-balance leg, straight line
    QTest::newRow("factor 0") << 1000.0 << 4.0 << 0.0 << 4 << QList<double>{250, 250, 250, 250};
    QTest::newRow("factor -2") << 1000.0 << 4.0 << -2.0 << 4 << QList<double>{250, 250, 250, 250};
    // life 0: whole cost in year 1; horizon 0: empty
    QTest::newRow("life 0") << 1000.0 << 0.0 << 2.0 << 3 << QList<double>{1000, 0, 0};
    QTest::newRow("horizon 0") << 1000.0 << 5.0 << 2.0 << 0 << QList<double>{};
    // a credit mirrors the $1000 schedule
    QTest::newRow("negative cost") << -1000.0 << 5.0 << 2.0 << 5
                                   << QList<double>{-400, -240, -144, -108, -108};
}

void TestFinance::decliningBalanceSchedule() {
    QFETCH(double, cost);
    QFETCH(double, life);
    QFETCH(double, factor);
    QFETCH(int, horizon);
    QFETCH(QList<double>, expected);
    CTWIN_COMPARE_SCHEDULE(values(cost::decliningBalanceSchedule(cost * units::usd, life, factor, horizon)),
                           expected, 1e-9);
}

// When the horizon covers the life the schedule sums to the cost (tolerance 1e-9 on $1,000), and no year
// is negative, for a spread of lives and factors including fractional lives.
void TestFinance::decliningBalanceSumsToCost() {
    for (double life : {0.5, 1.0, 2.5, 3.0, 5.0, 7.0, 7.5, 10.0, 15.0, 20.0, 39.0}) {
        for (double factor : {1.0, 1.25, 1.5, 2.0, 3.0}) {
            const int horizon = static_cast<int>(std::ceil(life)) + 2;
            const auto schedule = cost::decliningBalanceSchedule(1000.0 * units::usd, life, factor, horizon);
            QCOMPARE(static_cast<int>(schedule.size()), horizon);
            double sum = 0.0;
            for (const auto& d : schedule) {
                QVERIFY(std::isfinite(d.value()));
                QVERIFY2(d.value() >= 0.0,
                         qPrintable(QStringLiteral("life %1 factor %2").arg(life).arg(factor)));
                sum += d.value();
            }
            CTWIN_COMPARE_ABS(sum, 1000.0, 1e-9);
            // nothing after the life
            for (int y = static_cast<int>(std::ceil(life)); y < horizon; ++y)
                QCOMPARE(schedule[static_cast<std::size_t>(y)].value(), 0.0);
        }
    }
}

// Tolerance 1e-9 dollars on flows of order $100.
void TestFinance::netPresentValue_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<QList<double>>("flows");
    QTest::addColumn<double>("expected");

    // −100 + 60/1.1 + 60/1.21 = −100 + 54.545454... + 49.586776... = 4.1322314049586777
    QTest::newRow("[-100, 60, 60] at 10%") << 0.10 << QList<double>{-100, 60, 60} << 4.1322314049586777;
    // undiscounted: −100 + 60 + 60 = 20
    QTest::newRow("[-100, 60, 60] at 0%") << 0.0 << QList<double>{-100, 60, 60} << 20.0;
    // a negative rate above −1 inflates later flows: −100 + 60/0.95 + 60/0.9025
    // = −100 + 63.157894... + 66.481994... = 29.639889196675900
    QTest::newRow("[-100, 60, 60] at -5%") << -0.05 << QList<double>{-100, 60, 60} << 29.6398891966759;
    // cf[0] is not discounted
    QTest::newRow("single flow") << 0.10 << QList<double>{-100} << -100.0;
    QTest::newRow("no flows") << 0.10 << QList<double>{} << 0.0;
    // rate <= −1 has no discount factor: defined as 0
    QTest::newRow("rate -1") << -1.0 << QList<double>{-100, 60, 60} << 0.0;
    QTest::newRow("rate -3") << -3.0 << QList<double>{-100, 60, 60} << 0.0;
}

void TestFinance::netPresentValue() {
    QFETCH(double, rate);
    QFETCH(QList<double>, flows);
    QFETCH(double, expected);
    const double npv = cost::netPresentValue(rate, dollars(flows)).value();
    QVERIFY(std::isfinite(npv));
    CTWIN_COMPARE_ABS(npv, expected, 1e-9);
}

// Tolerance 1e-9 on the rate: bisection stops when the bracket is narrower than 1e-10.
void TestFinance::internalRateOfReturn_data() {
    QTest::addColumn<QList<double>>("flows");
    QTest::addColumn<bool>("hasRoot");
    QTest::addColumn<double>("expected");

    // −100 + 60x + 60x² = 0 with x = 1/(1+r): x = (−60 + √27600)/120 = 0.884433..., r = 1/x − 1
    // = 0.13066238629180749 (13.066%)
    QTest::newRow("[-100, 60, 60]") << QList<double>{-100, 60, 60} << true << 0.13066238629180749;
    // −100 + 110/(1+r) = 0 -> r = 10%
    QTest::newRow("[-100, 110]") << QList<double>{-100, 110} << true << 0.10;
    // a root below zero: 40x² + 50x − 100 = 0, x = (−50 + √18500)/80 = 1.075184..., r = −0.069926474563227833
    QTest::newRow("[-100, 50, 40], negative IRR")
        << QList<double>{-100, 50, 40} << true << -0.069926474563227833;
    // money back exactly: −100 + 100 = 0 at r = 0
    QTest::newRow("[-100, 100]") << QList<double>{-100, 100} << true << 0.0;
    // flows that do not change sign have no IRR
    QTest::newRow("all negative") << QList<double>{-100, -10, -10} << false << 0.0;
    QTest::newRow("all positive") << QList<double>{100, 10, 10} << false << 0.0;
    QTest::newRow("all zero") << QList<double>{0, 0, 0} << false << 0.0;
    QTest::newRow("no flows") << QList<double>{} << false << 0.0;
    // a root above the bracket: −1 + 20/(1+r) = 0 at r = 19 > 10
    QTest::newRow("IRR 1900% outside the bracket") << QList<double>{-1, 20} << false << 0.0;
}

void TestFinance::internalRateOfReturn() {
    QFETCH(QList<double>, flows);
    QFETCH(bool, hasRoot);
    QFETCH(double, expected);
    const std::optional<double> irr = cost::internalRateOfReturn(dollars(flows));
    QCOMPARE(irr.has_value(), hasRoot);
    if (!irr) return;
    QVERIFY(std::isfinite(*irr));
    CTWIN_COMPARE_ABS(*irr, expected, 1e-9);
}

// NPV at the returned IRR is zero to within the bisection width times dNPV/dr (|dNPV/dr| < 1000·T here):
// checked at 1e-6 dollars. A 40-year series exercises the ends of the bracket without overflow.
void TestFinance::internalRateOfReturnZeroesNpv() {
    std::vector<units::Money> flows{-1000.0 * units::usd};
    for (int t = 1; t <= 40; ++t)
        flows.push_back(75.0 * units::usd);
    const auto irr = cost::internalRateOfReturn(flows);
    QVERIFY(irr.has_value());
    QVERIFY(*irr > 0.0 && *irr < 0.075); // below the 7.5% coupon because the principal is never returned
    CTWIN_COMPARE_ABS(cost::netPresentValue(*irr, flows).value(), 0.0, 1e-6);

    // 400 years at the low end of the bracket: (1/0.01)^400 overflows a double if evaluated naively.
    std::vector<units::Money> longFlows{-1000.0 * units::usd};
    for (int t = 1; t <= 400; ++t)
        longFlows.push_back(1.0 * units::usd);
    const auto longIrr = cost::internalRateOfReturn(longFlows);
    QVERIFY(longIrr.has_value());
    QVERIFY(std::isfinite(*longIrr));
    // 400 undiscounted dollars do not repay 1000: the rate is negative.
    QVERIFY(*longIrr < 0.0 && *longIrr > -0.99);
    CTWIN_COMPARE_ABS(cost::netPresentValue(*longIrr, longFlows).value(), 0.0, 1e-5);
}

// Tolerance 1e-12 years.
void TestFinance::paybackYears_data() {
    QTest::addColumn<QList<double>>("flows");
    QTest::addColumn<bool>("paysBack");
    QTest::addColumn<double>("expected");

    // cumulative −100, −70, −40, +20: crosses in year 3, 40 of its 60 needed -> 2 + 40/60 = 2.6666...
    QTest::newRow("[-100, 30, 30, 60]") << QList<double>{-100, 30, 30, 60} << true << 2.0 + 40.0 / 60.0;
    // cumulative −100, 0: exactly at the end of year 1
    QTest::newRow("[-100, 100]") << QList<double>{-100, 100} << true << 1.0;
    // cumulative −100, −40, +20: 1 + 40/60
    QTest::newRow("[-100, 60, 60]") << QList<double>{-100, 60, 60} << true << 1.0 + 40.0 / 60.0;
    // nothing to pay back
    QTest::newRow("cf[0] positive") << QList<double>{50, -10} << true << 0.0;
    QTest::newRow("cf[0] zero") << QList<double>{0, 10} << true << 0.0;
    // never recovered
    QTest::newRow("[-100, 30, 30]") << QList<double>{-100, 30, 30} << false << 0.0;
    QTest::newRow("all negative") << QList<double>{-100, -10, -10} << false << 0.0;
    QTest::newRow("no flows") << QList<double>{} << false << 0.0;
}

void TestFinance::paybackYears() {
    QFETCH(QList<double>, flows);
    QFETCH(bool, paysBack);
    QFETCH(double, expected);
    const std::optional<double> payback = cost::paybackYears(dollars(flows));
    QCOMPARE(payback.has_value(), paysBack);
    if (!payback) return;
    QVERIFY(std::isfinite(*payback));
    CTWIN_COMPARE_ABS(*payback, expected, 1e-12);
}

namespace {
cost::PricedYear pricedYear(double gpuHours, double nonRevenue, double taxableBeforeRevenue) {
    cost::PricedYear y;
    y.gpuHours = gpuHours;
    y.nonRevenue = nonRevenue * units::usd;
    y.taxableBeforeRevenue = taxableBeforeRevenue * units::usd;
    return y;
}
} // namespace

// Break-even price (issue 30 item 4), tolerance 1e-9 USD/GPU-h (the solution is exact up to rounding).
void TestFinance::breakEvenPrice_data() {
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("taxRate");
    QTest::addColumn<double>("initial");
    QTest::addColumn<QList<double>>("gpuHours");
    QTest::addColumn<double>("expected");
    // No tax, 10 %, two years of 100 GPU-h and 50 of opex: NPV = -1000 + (100 P - 50)(1/1.1 + 1/1.21), and
    // 1/1.1 + 1/1.21 = 2.1/1.21, so 100 P - 50 = 1000 x 1.21 / 2.1 = 576.190476190476 -> P
    // = 6.26190476190476.
    QTest::newRow("untaxed, 10 %") << 0.10 << 0.0 << 1000.0 << QList<double>{100, 100} << 6.261904761904762;
    // Tax 50 %, rate 0, two years of 10 GPU-h, depreciation 50 a year: kink at P = 5, where NPV = -150 +
    // 2 x 50 = -50 < 0; above it NPV = -150 + 2 (10 P - 0.5 (10 P - 50)) = -100 + 10 P -> P = 10.
    QTest::newRow("taxed above the kink") << 0.0 << 0.5 << 150.0 << QList<double>{10, 10} << 10.0;
    // Year 1 half sold (time to revenue): kinks at 50/5 = 10 and 50/10 = 5. NPV(5) = -100 + 25 + 50 = -25,
    // NPV(10) = -100 + 50 + 75 = 25; between them only year 2 is taxed: NPV = -75 + 10 P -> P = 7.5.
    QTest::newRow("root between two kinks") << 0.0 << 0.5 << 100.0 << QList<double>{5, 10} << 7.5;
    // NPV is already positive at the first kink (initial 10): below it nothing is taxed and the slope is 20,
    // NPV(5) = -10 + 2 x 50 = 90 -> P = 5 - 90/20 = 0.5.
    QTest::newRow("below the first kink") << 0.0 << 0.5 << 10.0 << QList<double>{10, 10} << 0.5;
}

void TestFinance::breakEvenPrice() {
    QFETCH(double, rate);
    QFETCH(double, taxRate);
    QFETCH(double, initial);
    QFETCH(QList<double>, gpuHours);
    QFETCH(double, expected);
    std::vector<cost::PricedYear> years;
    const bool opexCase = QByteArray(QTest::currentDataTag()) == "untaxed, 10 %";
    for (double g : gpuHours)
        years.push_back(opexCase ? pricedYear(g, -50, -50) : pricedYear(g, 0, -50));
    const auto p = cost::breakEvenPrice(rate, taxRate, initial * units::usd, years);
    QVERIFY(p.has_value());
    CTWIN_COMPARE_ABS(*p, expected, 1e-9);
}

// Whatever the kinks, NPV at the break-even price is zero (tolerance 1e-6 USD on flows of order 1e3..1e9):
// the engine's flows (revenue after a time to revenue, replacements, a terminal value in the last year).
void TestFinance::breakEvenPriceZeroesNpv() {
    std::vector<cost::PricedYear> years;
    for (int t = 1; t <= 7; ++t) {
        auto y = pricedYear(t == 1 ? 0.4e6 : 1e6, -3e5 - (t == 6 ? 4e6 : 0.0), -3e5 - 8e5 * (t % 3));
        if (t == 7) y.nonRevenue += 2e6 * units::usd, y.terminal = 2e6 * units::usd;
        years.push_back(y);
    }
    for (double rate : {0.0, 0.05, 0.09, 0.3})
        for (double tax : {0.0, 0.21, 0.6}) {
            const auto p = cost::breakEvenPrice(rate, tax, 9e6 * units::usd, years);
            QVERIFY(p.has_value());
            const double npv =
                cost::netPresentValue(rate, cost::pricedCashFlows(9e6 * units::usd, years, *p, tax)).value();
            CTWIN_COMPARE_ABS(npv, 0.0, 1e-6);
            // A cent more makes it positive, a cent less negative (NPV rises with the price).
            QVERIFY(
                cost::netPresentValue(rate, cost::pricedCashFlows(9e6 * units::usd, years, *p + 0.01, tax))
                    .value() > 0);
            QVERIFY(
                cost::netPresentValue(rate, cost::pricedCashFlows(9e6 * units::usd, years, *p - 0.01, tax))
                    .value() < 0);
        }
    // The operating flow leaves the terminal value out.
    CTWIN_COMPARE_ABS((years[6].flow(2.0, 0.21) - years[6].operatingFlow(2.0, 0.21)).value(), 2e6, 1e-9);
}

// No price brings NPV to zero: nothing sold in the horizon, a tax rate of 100 % above every kink, an invalid
// rate or non-finite or negative inputs give nullopt, never a NaN price.
void TestFinance::breakEvenPriceUndefined() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const auto usd = units::usd;
    QVERIFY(!cost::breakEvenPrice(0.1, 0.21, 1000.0 * usd, {pricedYear(0, -5, -5), pricedYear(0, -5, -5)}));
    QVERIFY(!cost::breakEvenPrice(0.1, 0.21, 1000.0 * usd, {}));
    // Tax 100 %, kink at 0: above it every dollar of revenue is taxed away; NPV stays -1000.
    QVERIFY(!cost::breakEvenPrice(0.0, 1.0, 1000.0 * usd, {pricedYear(1, 0, 0)}));
    for (double rate : {-1.0, -2.0, nan})
        QVERIFY(!cost::breakEvenPrice(rate, 0.21, 1000.0 * usd, {pricedYear(10, 0, -5)}));
    QVERIFY(!cost::breakEvenPrice(0.1, nan, 1000.0 * usd, {pricedYear(10, 0, -5)}));
    QVERIFY(!cost::breakEvenPrice(0.1, 0.21, nan * usd, {pricedYear(10, 0, -5)}));
    QVERIFY(!cost::breakEvenPrice(0.1, 0.21, 1000.0 * usd, {pricedYear(nan, 0, -5)}));
    QVERIFY(!cost::breakEvenPrice(0.1, 0.21, 1000.0 * usd, {pricedYear(-10, 0, -5)}));
}

// Nonsense inputs must never produce NaN or infinity (they would poison every total downstream).
void TestFinance::badInputsStayFinite() {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<units::Money> flows = dollars({-100, 60, 60});

    for (double rate : {-0.99, -0.5, -1.0, -1.5, 0.0, 1e-300, 10.0, nan, inf, -inf}) {
        for (double years : {-1.0, 0.0, 1e-6, 0.5, 1.0, 30.0, 1000.0, nan, inf}) {
            const double crf = cost::capitalRecoveryFactor(rate, years);
            QVERIFY2(std::isfinite(crf),
                     qPrintable(QStringLiteral("CRF(%1, %2) = %3").arg(rate).arg(years).arg(crf)));
            QVERIFY(crf >= 0.0);
        }
        QVERIFY(std::isfinite(cost::netPresentValue(rate, flows).value()));
    }

    for (double life : {-1.0, 0.0, 1e-9, 0.5, 3.0, 1e9, nan, inf}) {
        for (double factor : {-1.0, 0.0, 1.5, 2.0, 1e9, nan, inf}) {
            for (int horizon : {-1, 0, 1, 5}) {
                const auto sl = cost::straightLineSchedule(1000.0 * units::usd, life, horizon);
                const auto db = cost::decliningBalanceSchedule(1000.0 * units::usd, life, factor, horizon);
                QCOMPARE(static_cast<int>(sl.size()), std::max(horizon, 0));
                QCOMPARE(static_cast<int>(db.size()), std::max(horizon, 0));
                for (const auto& d : sl)
                    QVERIFY(std::isfinite(d.value()) && d.value() >= 0.0);
                for (const auto& d : db)
                    QVERIFY(std::isfinite(d.value()) && d.value() >= 0.0);
            }
        }
    }

    // Non-finite flows give no IRR and no payback rather than a NaN rate.
    QVERIFY(!cost::internalRateOfReturn(dollars({-100, nan, 60})).has_value());
    QVERIFY(!cost::paybackYears(dollars({-100, inf})).has_value());
}

// Construction (issue 30 item 4): facility $1,200 drawn over 12 months at mid-month, land $100 at the
// start, $500 of IT on delivery, r = 10 %. Dates in whole days of a 365-day year (XIRR's actual/365), m
// months before delivery = round(365 m / 12) days: land at 365 days (t = -1), 100 a month at
// round(365 (12.5 - k) / 12) = 350, 319, 289, 259, 228, 198, 167, 137, 106, 76, 46, 15 days, IT at 0.
// IDC = 100 x sum_k (1.1^(d_k/365) - 1) + 100 x 0.1 = 69.044044843689909903 (Python decimal, 40 digits).
// Tolerance 1e-9. No construction: one draw at delivery and no interest; r = 0: no interest.
void TestFinance::constructionDrawsAndInterest() {
    const auto draws =
        cost::constructionDraws(1200.0 * units::usd, 100.0 * units::usd, 500.0 * units::usd, 12);
    QCOMPARE(draws.size(), size_t(14));
    QCOMPARE(draws.front().years, -1.0);
    QCOMPARE(draws.front().amount.value(), 100.0);
    QCOMPARE(draws[1].years, -350.0 / 365.0);
    QCOMPARE(draws[12].years, -15.0 / 365.0);
    QCOMPARE(draws.back().years, 0.0);
    QCOMPARE(draws.back().amount.value(), 500.0);
    double total = 0;
    for (const auto& d : draws)
        total += d.amount.value();
    QVERIFY(std::abs(total - 1800.0) < 1e-9); // the draws are the capex, nothing more
    QVERIFY(std::abs(cost::interestDuringConstruction(0.10, draws).value() - 69.044044843689909903) < 1e-9);
    QCOMPARE(cost::interestDuringConstruction(0.0, draws).value(), 0.0);
    const auto none = cost::constructionDraws(1200.0 * units::usd, 100.0 * units::usd, 500.0 * units::usd, 0);
    QCOMPARE(none.size(), size_t(1));
    QCOMPARE(none.front().amount.value(), 1800.0);
    QCOMPARE(cost::interestDuringConstruction(0.10, none).value(), 0.0);
    // A rate of -1 or NaN: no interest rather than a NaN.
    QCOMPARE(cost::interestDuringConstruction(-1.0, draws).value(), 0.0);
    QCOMPARE(cost::interestDuringConstruction(std::nan(""), draws).value(), 0.0);
}

// XIRR on year fractions: -1,000 at t = -1 and +1,210 at t = +1 is 10 % exactly (1,000 x 1.1^2 = 1,210);
// -1,000 at -0.5 and +1,100 at +0.5 is 10 % too (one year apart). Its NPV at the root is zero, and at 10 %
// the dated NPV of the first pair is -1,000 x 1.1 + 1,210 / 1.1 = 0. One-signed flows have no IRR.
// Tolerance 1e-9 on the rate (bisection stops at 1e-10).
void TestFinance::datedInternalRateOfReturn() {
    using F = cost::DatedFlow;
    auto irr = cost::internalRateOfReturnDated({F{-1.0, -1000.0 * units::usd}, F{1.0, 1210.0 * units::usd}});
    QVERIFY(irr);
    QVERIFY(std::abs(*irr - 0.10) < 1e-9);
    QVERIFY(std::abs(
                cost::datedNetPresentValue(0.10, {F{-1.0, -1000.0 * units::usd}, F{1.0, 1210.0 * units::usd}})
                    .value()) < 1e-9);
    irr = cost::internalRateOfReturnDated({F{-0.5, -1000.0 * units::usd}, F{0.5, 1100.0 * units::usd}});
    QVERIFY(irr);
    QVERIFY(std::abs(*irr - 0.10) < 1e-9);
    QVERIFY(!cost::internalRateOfReturnDated({F{-1.0, 1000.0 * units::usd}, F{1.0, 1210.0 * units::usd}}));
    QVERIFY(!cost::internalRateOfReturnDated({}));
    QVERIFY(!cost::internalRateOfReturnDated(
        {F{-1.0, -1000.0 * units::usd}, F{std::nan(""), 1210.0 * units::usd}}));
}

QTEST_APPLESS_MAIN(TestFinance)
#include "test_finance.moc"
