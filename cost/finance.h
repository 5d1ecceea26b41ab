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
std::optional<double> paybackYears(const std::vector<units::Money>& cashFlows);

} // namespace ctwin::cost
