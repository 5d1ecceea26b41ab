#pragma once
#include <optional>
#include <vector>

#include "units.h"

namespace ctwin::cost {

/// Capital recovery factor: the constant yearly payment per dollar of capital over n years at rate r,
/// CRF = r(1+r)^n / ((1+r)^n - 1); 1/n when r = 0 (standard engineering-economics annuity formula,
/// e.g. Newnan, Eschenbach & Lavelle, "Engineering Economic Analysis", (A/P, i, n)). Fractional n allowed.
double capitalRecoveryFactor(double rate, double years);

/// Straight-line depreciation per year for years 1..horizon (zero after the useful life; a fractional
/// last year gets the remainder).
std::vector<units::Money> straightLineSchedule(units::Money cost, double lifeYears, int horizonYears);

/// Declining-balance depreciation at rate factor/life (factor 2 = double-declining), switching to straight
/// line on the remaining book value when that is larger (IRS Publication 946, MACRS method; without
/// conventions), fully depreciated at the end of the life; years 1..horizon.
std::vector<units::Money> decliningBalanceSchedule(units::Money cost, double lifeYears, double factor,
                                                   int horizonYears);

/// Net present value of cash flows cf[t] at the end of year t (cf[0] now) at a yearly discount rate.
units::Money netPresentValue(double rate, const std::vector<units::Money>& cashFlows);

/// Internal rate of return (NPV = 0) over [-0.99, 10], to a bracket of 1e-10, by TOMS Algorithm 748 (a
/// bracketing root search: as safe as bisection, superlinear); nullopt when the flows do not change sign or
/// no root lies in that range.
std::optional<double> internalRateOfReturn(const std::vector<units::Money>& cashFlows);

/// A cash flow at a time in years from the valuation date (negative before it).
struct DatedFlow {
    double years = 0.0;
    units::Money amount{};
};

/// NPV at the valuation date of dated flows: sum_i amount_i · (1+r)^-t_i (present worth with continuous
/// time exponents, as Excel's XNPV on year fractions; Newnan et al., present worth). A flow before the date
/// (t < 0) is compounded forward. Zero when the rate is not > -1.
units::Money datedNetPresentValue(double rate, const std::vector<DatedFlow>& flows);

/// The rate where datedNetPresentValue = 0 (XIRR on year fractions), over [-0.99, 10] to a bracket of
/// 1e-13, by the same root search as internalRateOfReturn; nullopt when the flows do not change sign or no
/// root lies in that range.
std::optional<double> internalRateOfReturnDated(const std::vector<DatedFlow>& flows);

/// The construction draw schedule: the facility capex is drawn in equal monthly amounts
/// over `months`, each at the middle of its month, land is paid when construction starts, and IT and network
/// are paid at delivery (t = 0, the end of construction). Times are in years from delivery (all <= 0), in
/// whole days of a 365-day year (XIRR's actual/365): m months before delivery is -round(365·m/12)/365.
/// A `months` of 0 (or not finite) puts everything at delivery.
std::vector<DatedFlow> constructionDraws(units::Money facility, units::Money land, units::Money atDelivery,
                                         int months);

/// Interest during construction at the rate r: the draws compounded forward to delivery less the draws,
/// sum_i D_i·((1+r)^(-t_i) - 1) (capitalised borrowing cost, IAS 23 / ASC 835-20, at the weighted average
/// cost of capital). With the mid-month draws of constructionDraws, facility F over M months and land L,
/// d(m) = round(365·m/12) days: IDC = (F/M)·sum_{k=1..M} ((1+r)^(d(M - k + 0.5)/365) - 1) +
/// L·((1+r)^(d(M)/365) - 1).
units::Money interestDuringConstruction(double rate, const std::vector<DatedFlow>& draws);

/// Years until the cumulative cash flow turns non-negative, interpolated within the year; nullopt if never.
/// Pass operating cash flows (finance.h PricedYear::operatingFlow): a terminal value at the horizon would
/// make the payback depend on the horizon.
std::optional<double> paybackYears(const std::vector<units::Money>& cashFlows);

/// One year (end of year t >= 1) of a cash flow that depends on the GPU-hour price P:
///   flow(P) = nonRevenue + gpuHours·P - tax(P),  tax(P) = taxRate·max(0, gpuHours·P + taxableBeforeRevenue),
/// i.e. revenue at price P, tax on positive taxable income only (no loss carry-forward; the engine's
/// convention, cost/evaluate_finance.cpp) and everything that does not depend on the price in `nonRevenue`
/// (- opex - replacement capex + salvage + terminal value).
struct PricedYear {
    double gpuHours = 0.0;               ///< GPU-hours sold in the year (after the time to revenue)
    units::Money nonRevenue{};           ///< cash flow before tax other than revenue
    units::Money taxableBeforeRevenue{}; ///< taxable income other than revenue: -(opex + depreciation)
    units::Money terminal{};             ///< the part of nonRevenue that is terminal value (operatingFlow)
    /// The year's cash flow at price P (USD per GPU-hour).
    units::Money flow(double price, double taxRate) const;
    /// flow(P) less the terminal value: the operating cash flow payback is measured on.
    units::Money operatingFlow(double price, double taxRate) const { return flow(price, taxRate) - terminal; }
};

/// Cash flows year 0..H: -initial at t = 0, then years[t-1].flow(price) (end of year t).
std::vector<units::Money> pricedCashFlows(units::Money initial, const std::vector<PricedYear>& years,
                                          double price, double taxRate);

/// The GPU-hour price at which netPresentValue(rate, pricedCashFlows(initial, years, P, taxRate)) = 0.
/// NPV(P) is continuous, non-decreasing (slope sum_t gpuHours_t·(1 - taxRate·[taxed])/(1+r)^t >= 0 for
/// taxRate <= 1) and piecewise affine, with a kink where a year's taxable income crosses zero,
/// P_t = -taxableBeforeRevenue_t / gpuHours_t. So the root is found exactly, without iteration: NPV is
/// evaluated at the (at most H) kinks in increasing order, and the root is interpolated linearly on the one
/// affine piece where NPV changes sign, or extrapolated along the first or last piece: at most H + 1 NPV
/// evaluations of H + 1 terms each. nullopt when NPV does not depend on the price (no GPU-hours sold in the
/// horizon, or taxRate = 1 beyond the last kink), when the rate is not > -1, or the inputs are not finite.
/// The root may be negative (a design whose NPV is positive even when the GPU-hours are given away).
std::optional<double> breakEvenPrice(double rate, double taxRate, units::Money initial,
                                     const std::vector<PricedYear>& years);

} // namespace ctwin::cost
