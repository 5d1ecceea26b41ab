#include "finance.h"

#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>

namespace ctwin::cost {

namespace {

// Depreciation schedules are linear in the cost, so they are computed as fractions of one dollar and scaled
// at the end: a negative cost (a salvage credit, say) mirrors the positive schedule instead of tripping the
// "never below zero" caps, and rounding does not depend on the magnitude of the cost.
std::vector<units::Money> scaled(const std::vector<double>& fractions, units::Money cost) {
    std::vector<units::Money> out;
    out.reserve(fractions.size());
    for (double f : fractions)
        out.push_back(f * cost);
    return out;
}

// A life that is zero, negative or not a number writes the whole cost off in year 1: there is nothing to
// spread it over. (An infinite life is the opposite case: the schedule stays all zeros.)
bool writeOffAtOnce(double lifeYears) {
    return !(lifeYears > 0.0);
}

bool hasBothSigns(const std::vector<units::Money>& cashFlows) {
    bool positive = false;
    bool negative = false;
    for (const auto& cf : cashFlows) {
        positive = positive || cf.value() > 0.0;
        negative = negative || cf.value() < 0.0;
    }
    return positive && negative;
}

bool allFinite(const std::vector<units::Money>& cashFlows) {
    return std::all_of(cashFlows.begin(), cashFlows.end(),
                       [](const units::Money& cf) { return std::isfinite(cf.value()); });
}

// The sign of NPV(rate) without overflow. Multiplying NPV by the positive number (1+r)^T does not change its
// sign, so for r >= 0 sum cf[t]·(1+r)^-t and for -1 < r < 0 sum cf[t]·(1+r)^(T-t) are used: in both forms
// every discount factor lies in (0, 1], so long series at r = -0.99 or r = 10 stay finite.
/// NPV times a positive factor that keeps every term finite: (1+r)^(shift - t) with shift the earliest time
/// for r >= 0 and the latest below, so no power overflows; its sign, and so its root, is the NPV's.
template <class Flows, class Time, class Amount>
double scaledNpv(double rate, const Flows& flows, Time time, Amount amount, double tMin, double tMax) {
    const double growth = 1.0 + rate;
    double sum = 0.0;
    for (const auto& f : flows)
        sum += amount(f) * std::pow(growth, (rate >= 0.0 ? tMin : tMax) - time(f));
    return sum;
}

/// The rate in [-0.99, 10] where `value` changes sign, found by TOMS Algorithm 748 (Alefeld, Potra & Shi,
/// ACM TOMS 21(3), 1995; boost::math::tools::toms748_solve): a bracketing method, so it keeps bisection's
/// guarantee (a continuous function that changes sign over the bracket has a root inside it) and converges
/// superlinearly; it stops when the bracket is narrower than `width` and returns its middle. nullopt when
/// the ends have the same sign (or a value is not finite). With several sign changes in the flows there
/// may be several IRRs; this returns one of those inside the bracket.
std::optional<double> rateWhereZero(const std::function<double(double)>& value, double width) {
    const double lo = -0.99, hi = 10.0;
    const double fLo = value(lo), fHi = value(hi);
    if (!std::isfinite(fLo) || !std::isfinite(fHi)) return std::nullopt;
    if (fLo == 0.0) return lo;
    if (fHi == 0.0) return hi;
    if ((fLo > 0.0) == (fHi > 0.0)) return std::nullopt;
    std::uintmax_t iterations = 200; // far above what a bracket of 10.99 narrowed to 1e-13 needs
    const auto [a, b] = boost::math::tools::toms748_solve(
        value, lo, hi, fLo, fHi, [width](double x, double y) { return std::abs(y - x) <= width; },
        iterations);
    return 0.5 * (a + b);
}

} // namespace

double capitalRecoveryFactor(double rate, double years) {
    // No payment period (or a NaN): no annuity, rather than a division by zero. An infinite n is allowed and
    // gives the perpetuity limit, r for r > 0 and 0 otherwise.
    if (!(years > 0.0) || !std::isfinite(rate)) return 0.0;
    // (A/P, 0, n) = 1/n: the limit of the formula as r -> 0, i.e. capital repaid in equal parts.
    if (rate == 0.0) return 1.0 / years;
    // At r <= -1 the money is destroyed within a period and (1+r)^n is zero or undefined; there is no
    // annuity to speak of.
    if (rate <= -1.0) return 0.0;
    // (A/P, r, n) = r(1+r)^n / ((1+r)^n - 1) = r / (1 - (1+r)^-n) (Newnan et al., "Engineering Economic
    // Analysis"). (1+r)^-n - 1 is evaluated as expm1(-n·log1p(r)) so that rates close to zero keep their
    // precision instead of cancelling to 0/0; the same form is exact for fractional n and for -1 < r < 0.
    return -rate / std::expm1(-years * std::log1p(rate));
}

std::vector<units::Money> straightLineSchedule(units::Money cost, double lifeYears, int horizonYears) {
    if (horizonYears <= 0) return {};
    std::vector<double> fractions(static_cast<std::size_t>(horizonYears), 0.0);
    if (writeOffAtOnce(lifeYears)) {
        fractions[0] = 1.0;
    } else if (std::isfinite(lifeYears)) {
        // Straight line: cost/life per year (IRS Publication 946, "Straight Line Method"). Year y (1-based)
        // covers the part of [y-1, y] that lies inside the life, so a fractional last year gets the
        // remainder and years after the life get nothing.
        for (int y = 1; y <= horizonYears; ++y) {
            const double inLife = std::clamp(lifeYears - (y - 1), 0.0, 1.0);
            if (inLife <= 0.0) break;
            fractions[static_cast<std::size_t>(y - 1)] = inLife / lifeYears;
        }
    }
    return scaled(fractions, cost);
}

std::vector<units::Money> decliningBalanceSchedule(units::Money cost, double lifeYears, double factor,
                                                   int horizonYears) {
    if (horizonYears <= 0) return {};
    std::vector<double> fractions(static_cast<std::size_t>(horizonYears), 0.0);
    if (writeOffAtOnce(lifeYears)) {
        fractions[0] = 1.0;
        return scaled(fractions, cost);
    }
    if (!std::isfinite(lifeYears)) return scaled(fractions, cost);

    // Declining balance at factor/life of the book value each year (IRS Publication 946, "Declining
    // Balance Method"; factor 2 = 200% DB). A rate above 100% cannot take more than the book value, and a
    // non-positive or NaN factor leaves only the straight-line leg.
    const double rate = std::isnan(factor) ? 0.0 : std::clamp(factor / lifeYears, 0.0, 1.0);
    double book = 1.0;
    for (int y = 1; y <= horizonYears && book > 0.0; ++y) {
        const double remainingLife = lifeYears - (y - 1);
        double depreciation = 0.0;
        if (remainingLife <= 1.0) {
            // The last (possibly fractional) year of the life: write off what is left, so the schedule sums
            // to the cost.
            depreciation = book;
        } else {
            // Switch to straight line on the remaining book over the remaining life as soon as that gives an
            // equal or larger deduction, as the MACRS 200% and 150% DB tables do (IRS Publication 946).
            depreciation = std::max(book * rate, book / remainingLife);
        }
        depreciation = std::min(depreciation, book); // never below a zero book value
        fractions[static_cast<std::size_t>(y - 1)] = depreciation;
        book -= depreciation;
    }
    return scaled(fractions, cost);
}

units::Money netPresentValue(double rate, const std::vector<units::Money>& cashFlows) {
    // Outside r > -1 the discount factor 1/(1+r)^t is infinite or undefined; the header promises a Money, so
    // an invalid rate yields zero rather than a NaN that would poison every total downstream.
    if (!(rate > -1.0)) return 0.0 * units::usd;
    // NPV = sum_t cf[t] / (1+r)^t, end-of-year flows, cf[0] undiscounted (Newnan et al., present worth).
    units::Money npv = 0.0 * units::usd;
    for (std::size_t t = 0; t < cashFlows.size(); ++t)
        npv += cashFlows[t] * std::pow(1.0 + rate, -static_cast<double>(t));
    return npv;
}

std::optional<double> internalRateOfReturn(const std::vector<units::Money>& cashFlows) {
    // An IRR needs money going both ways; all-zero or one-signed flows have no root (or every rate is one).
    if (!hasBothSigns(cashFlows) || !allFinite(cashFlows)) return std::nullopt;
    // End-of-year flows at t = 0, 1, ..., n-1.
    std::size_t t = 0;
    std::vector<std::pair<double, double>> flows;
    flows.reserve(cashFlows.size());
    for (const auto& c : cashFlows)
        flows.emplace_back(static_cast<double>(t++), c.value());
    const double last = flows.back().first;
    return rateWhereZero(
        [&](double rate) {
            return scaledNpv(
                rate, flows, [](const auto& f) { return f.first; }, [](const auto& f) { return f.second; },
                0.0, last);
        },
        1e-10);
}

units::Money datedNetPresentValue(double rate, const std::vector<DatedFlow>& flows) {
    if (!(rate > -1.0)) return 0.0 * units::usd;
    units::Money npv = 0.0 * units::usd;
    for (const auto& f : flows)
        npv += f.amount * std::pow(1.0 + rate, -f.years);
    return npv;
}

std::optional<double> internalRateOfReturnDated(const std::vector<DatedFlow>& flows) {
    bool positive = false, negative = false, finite = true;
    for (const auto& f : flows) {
        positive = positive || f.amount.value() > 0.0;
        negative = negative || f.amount.value() < 0.0;
        finite = finite && std::isfinite(f.amount.value()) && std::isfinite(f.years);
    }
    if (!positive || !negative || !finite) return std::nullopt;
    // sum a_i (1+r)^-t_i without overflow (scaledNpv): multiplied by the positive (1+r)^t_min for r >= 0
    // every factor (1+r)^(t_min - t_i) lies in (0, 1], and multiplied by (1+r)^t_max for r < 0 every factor
    // (1+r)^(t_max - t_i) does too.
    double tMin = flows.front().years, tMax = flows.front().years;
    for (const auto& f : flows)
        tMin = std::min(tMin, f.years), tMax = std::max(tMax, f.years);
    return rateWhereZero(
        [&](double rate) {
            return scaledNpv(
                rate, flows, [](const DatedFlow& f) { return f.years; },
                [](const DatedFlow& f) { return f.amount.value(); }, tMin, tMax);
        },
        1e-13);
}

std::vector<DatedFlow> constructionDraws(units::Money facility, units::Money land, units::Money atDelivery,
                                         int months) {
    std::vector<DatedFlow> draws;
    if (months <= 0) {
        draws.push_back({0.0, facility + land + atDelivery});
        return draws;
    }
    draws.reserve(static_cast<std::size_t>(months) + 2);
    // Dates in whole days before delivery, a year of 365 days: the actual/365 convention of XIRR (Excel,
    // LibreOffice), so the finance report's XIRR over these dates recalculates to the engine's IRR. A month
    // is 365/12 days, rounded to the day.
    const auto monthsBefore = [](double m) { return -std::round(m * 365.0 / 12.0) / 365.0; };
    draws.push_back({monthsBefore(months), land}); // land is bought when construction starts
    // Equal monthly draws, each at the middle of its month (a level draw schedule; the construction loan's
    // usual monthly draw, SPEC.md §4.10 "capex drawn monthly").
    const units::Money perMonth = facility / static_cast<double>(months);
    for (int k = 1; k <= months; ++k)
        draws.push_back({monthsBefore(months - k + 0.5), perMonth});
    draws.push_back({0.0, atDelivery}); // IT and network: paid on delivery
    return draws;
}

units::Money interestDuringConstruction(double rate, const std::vector<DatedFlow>& draws) {
    if (!(rate > -1.0) || !std::isfinite(rate)) return units::Money{};
    units::Money idc{};
    for (const auto& d : draws)
        idc += d.amount * std::expm1(-d.years * std::log1p(rate)); // D·((1+r)^(-t) - 1), exact near r = 0
    return idc;
}

std::optional<double> paybackYears(const std::vector<units::Money>& cashFlows) {
    if (cashFlows.empty() || !allFinite(cashFlows)) return std::nullopt;
    // Simple (undiscounted) payback: the first time the running sum of the flows reaches zero. Flows arrive
    // at year ends; within the crossing year the inflow is taken as uniform, hence the linear interpolation
    // (t-1) + deficit / cf[t] (Newnan et al., payback period).
    double cumulative = cashFlows[0].value();
    if (cumulative >= 0.0) return 0.0;
    for (std::size_t t = 1; t < cashFlows.size(); ++t) {
        const double flow = cashFlows[t].value();
        const double deficit = -cumulative;
        cumulative += flow;
        // cumulative was negative and now is not, so flow > 0 and the fraction lies in (0, 1].
        if (cumulative >= 0.0) return static_cast<double>(t - 1) + std::min(1.0, deficit / flow);
    }
    return std::nullopt;
}

units::Money PricedYear::flow(double price, double taxRate) const {
    // Revenue at the price; tax only on positive taxable income (revenue - opex - depreciation), as the
    // engine's yearly cash flow (cost/evaluate_finance.cpp).
    const units::Money revenue = gpuHours * price * units::usd;
    const units::Money taxable = revenue + taxableBeforeRevenue;
    const units::Money tax = taxable.value() > 0.0 ? taxRate * taxable : units::Money{};
    return nonRevenue + revenue - tax;
}

std::vector<units::Money> pricedCashFlows(units::Money initial, const std::vector<PricedYear>& years,
                                          double price, double taxRate) {
    std::vector<units::Money> out;
    out.reserve(years.size() + 1);
    out.push_back(-initial);
    for (const auto& y : years)
        out.push_back(y.flow(price, taxRate));
    return out;
}

std::optional<double> breakEvenPrice(double rate, double taxRate, units::Money initial,
                                     const std::vector<PricedYear>& years) {
    if (!(rate > -1.0) || !std::isfinite(rate) || !std::isfinite(taxRate) || !std::isfinite(initial.value()))
        return std::nullopt;
    // The kinks of NPV(P): where a year's taxable income gpuHours·P + taxableBeforeRevenue crosses zero. A
    // year that sells nothing has no kink and no slope; negative GPU-hours would make NPV(P) non-monotone.
    std::vector<double> kinks;
    for (const auto& y : years) {
        if (!std::isfinite(y.gpuHours) || !std::isfinite(y.nonRevenue.value()) ||
            !std::isfinite(y.taxableBeforeRevenue.value()) || y.gpuHours < 0.0)
            return std::nullopt;
        if (y.gpuHours > 0.0) kinks.push_back(-y.taxableBeforeRevenue.value() / y.gpuHours);
    }
    if (kinks.empty()) return std::nullopt; // NPV does not depend on the price
    std::sort(kinks.begin(), kinks.end());
    kinks.erase(std::unique(kinks.begin(), kinks.end()), kinks.end());
    auto npvAt = [&](double price) {
        return netPresentValue(rate, pricedCashFlows(initial, years, price, taxRate)).value();
    };
    // dNPV/dP on the affine piece below the first kink (no year taxed) or above the last (every selling
    // year taxed): sum_t gpuHours_t·(1 - taxRate·[taxed]) / (1+r)^t.
    auto slope = [&](bool taxed) {
        double s = 0.0;
        for (std::size_t t = 0; t < years.size(); ++t)
            s += years[t].gpuHours * (taxed ? 1.0 - taxRate : 1.0) *
                 std::pow(1.0 + rate, -static_cast<double>(t + 1));
        return s;
    };
    double previousPrice = kinks.front();
    double previousNpv = npvAt(previousPrice);
    if (previousNpv >= 0.0) {
        // The root lies at or below the first kink, where no year pays tax.
        const double s = slope(false);
        return s > 0.0 ? std::optional<double>(previousPrice - previousNpv / s) : std::nullopt;
    }
    for (std::size_t i = 1; i < kinks.size(); ++i) {
        const double v = npvAt(kinks[i]);
        if (v >= 0.0) // NPV is affine on [kinks[i-1], kinks[i]]: linear interpolation is exact there
            return previousPrice + (0.0 - previousNpv) * (kinks[i] - previousPrice) / (v - previousNpv);
        previousPrice = kinks[i];
        previousNpv = v;
    }
    // Above the last kink every selling year pays tax; with taxRate >= 1 the price no longer helps.
    const double s = slope(true);
    return s > 0.0 ? std::optional<double>(previousPrice - previousNpv / s) : std::nullopt;
}

} // namespace ctwin::cost
