#pragma once
// Annual-cost conventions and the asset-class cash-flow plan.
//
// Two conventions turn capex into a yearly charge; both add the same opex:
//  - economic:   capital recovery at the discount rate over the class's life, net of its residual value,
//                (C - S)·(A/P, r, L) + S·r  (equivalent annual cost with salvage; Newnan, Eschenbach &
//                Lavelle, "Engineering Economic Analysis", EUAC = (P - S)(A/P, i, n) + S·i);
//  - accounting: straight-line depreciation to the residual value, (C - S) / L (IRS Publication 946,
//                "Straight Line Method": the basis less salvage value, divided by the useful life).
// Land is not depreciated (IRS Publication 946, "What Property Cannot Be Depreciated": land); its economic
// charge is the return forgone on it, C·r (the perpetuity limit of the formula above with S = C).
#include <string>
#include <vector>

#include "assumption.h"
#include "units.h"

namespace ctwin::cost {

/// The yearly schedule of one asset class over a horizon, with like-for-like replacement at end of life.
///
/// Convention for lives and events (end-of-period convention, as the NPV of finance.h): the class is
/// bought at t = 0; a vintage bought at s serves until s + L, is then sold for its residual value S and
/// replaced at the same price C (no price decline assumed). Every event inside year y, i.e. at a time t with
/// y - 1 < t <= y, is booked at the end of year y (Newnan et al., end-of-period cash-flow convention), so a
/// 5.5-year IT life puts its replacement and the sale of the old vintage in year 6. Depreciation follows the
/// assets' service time exactly: year y takes the part of [y-1, y] inside each vintage's life, at (C - S)/L
/// per year. A vintage that ends exactly at the horizon is not replaced.
struct AssetPlan {
    std::vector<units::Money> depreciation; ///< years 1..H, straight line to residual, every vintage
    std::vector<units::Money> replacement;  ///< years 1..H, capex of the replacements booked in year y
    std::vector<units::Money> salvage;      ///< years 1..H, residual value of the vintages retired in year y
    std::vector<double> replacementTimes;   ///< years after t = 0 at which a vintage is replaced
    units::Money bookValueAtHorizon{};      ///< cost less accumulated depreciation of the vintage in service
};

/// The plan of an asset class of cost C, residual value `residualFraction`·C at the end of a life of
/// `lifeYears`, over `horizonYears`. A life that is zero, negative or NaN writes C - S off in year 1 and is
/// never replaced; an infinite life (land) is never depreciated and keeps its cost as book value.
AssetPlan planAssetClass(units::Money cost, double residualFraction, double lifeYears, int horizonYears);

/// Declining-balance depreciation (decliningBalanceSchedule of finance.h: rate factor/L on the book value,
/// switching to straight line, C - S written off by the end of the life) of every vintage of
/// planAssetClass, like its straight line: the first bought at t = 0 and each replacement at its end of
/// life, each on its own schedule from its own start. Year j of a vintage's life covers [s + j - 1,
/// s + min(j, L)] and its deduction is spread over the calendar years that interval overlaps in proportion
/// to the overlap (service time, as the straight line), so a 2.5-year life puts half of the second
/// vintage's first-year deduction in year 3 and half in year 4. Lives that planAssetClass writes off at once
/// (zero, NaN, under a month) or never depreciates (infinite) give decliningBalanceSchedule's single vintage.
/// Years 1..horizonYears.
std::vector<units::Money> decliningBalancePlan(units::Money cost, double residualFraction, double lifeYears,
                                               double factor, int horizonYears);

/// Economic yearly capital charge (C - S)·CRF(r, L) + S·r (see the top of this file). An infinite life
/// gives C·r for any S (the asset is never consumed); a non-positive life charges C - S + S·r once a year.
units::Money economicCapitalCharge(units::Money cost, double residualFraction, double rate, double lifeYears);

/// Accounting yearly charge: straight line (C - S)/L; zero for an infinite life (land), C - S for a
/// non-positive life.
units::Money straightLineCharge(units::Money cost, double residualFraction, double lifeYears);

/// The fraction of year y (1-based) in which capacity earns revenue when revenue starts `delayYears` after
/// t = 0 (time to revenue, pro rata within the year): clamp(y - delay, 0, 1).
double earningFraction(int year, double delayYears);

/// The names of the two conventions, in report order; the first is the default headline.
inline const std::vector<std::string> kTcoConventions = {"economic", "accounting"};

/// The assumptions of the conventions that must be fractions in [0, 1]: the three maintenance fractions, the
/// three residual fractions and the legacy `maintenance_fraction` when a design still sets it.
inline const std::vector<std::string> kFinanceFractionAssumptions = {
    "it_maintenance_fraction",   "network_maintenance_fraction", "facility_maintenance_fraction",
    "it_residual_fraction",      "network_residual_fraction",    "facility_residual_fraction",
    "maintenance_fraction"};

/// Throws model::InputError naming the assumption and its field ("base") when one of
/// kFinanceFractionAssumptions present in `merged` lies outside [0, 1] or is not finite: a maintenance
/// fraction below zero or above one, a residual value below zero or above the capex. `origin` names where
/// the merged set came from (file or option) for the message.
void validateFinanceAssumptions(const model::AssumptionSet& merged, const std::string& origin);

/// The problem with giving `key` the base `value` in `merged` when it is construction_months or
/// horizon_years and the construction period would be longer than the horizon (construction_months >
/// 12 x horizon_years); empty otherwise (other keys, or no problem). The Assumptions dock asks this before
/// it applies an edit, as assumptionValueProblem.
std::string scheduleAssumptionProblem(const model::AssumptionSet& merged, const std::string& key,
                                      double value);

/// Throws model::InputError naming `construction_months` (field "base") when the construction period is
/// longer than the horizon (construction_months > 12 x horizon_years; scheduleAssumptionProblem), or
/// `horizon_years` when `changed` shortens the horizon. Values in `changed` (an override set) win over
/// `merged`; either key may be absent (nothing to check).
void validateScheduleAssumptions(const model::AssumptionSet& merged, const model::AssumptionSet& changed,
                                 const std::string& origin);

} // namespace ctwin::cost
