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

/// Internal rate of return (NPV = 0) by bisection over (-0.99, 10); nullopt when the flows do not change
/// sign or no root lies in that range.
std::optional<double> internalRateOfReturn(const std::vector<units::Money>& cashFlows);

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
