#include "finance_conventions.h"

#include "finance.h"
#include "input_error.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace ctwin::cost {

namespace {

// A life shorter than this is treated like a zero life (written off in year 1, never replaced): it bounds
// the number of replacements inside any horizon and keeps a typo (0.0001 years) from looping for ages.
constexpr double kShortestReplacedLife = 1.0 / 12.0;

// The end-of-period booking year of an event at time t > 0: the year y with y - 1 < t <= y. A tolerance of
// 1e-9 years keeps 2 × 2.5 = 5.000000000000001 in year 5.
int bookingYear(double t) {
    return std::max(1, static_cast<int>(std::ceil(t - 1e-9)));
}

} // namespace

AssetPlan planAssetClass(units::Money cost, double residualFraction, double lifeYears, int horizonYears) {
    AssetPlan plan;
    if (horizonYears <= 0) {
        plan.bookValueAtHorizon = cost;
        return plan;
    }
    const auto h = static_cast<std::size_t>(horizonYears);
    plan.depreciation.assign(h, units::Money{});
    plan.replacement.assign(h, units::Money{});
    plan.salvage.assign(h, units::Money{});
    const double residual = std::isfinite(residualFraction) ? residualFraction : 0.0;
    const units::Money salvage = residual * cost;
    const units::Money base = cost - salvage; // depreciable basis (IRS Publication 946: cost less salvage)
    if (std::isinf(lifeYears) && lifeYears > 0) { // land: never depreciated, never replaced
        plan.bookValueAtHorizon = cost;
        return plan;
    }
    if (!(lifeYears >= kShortestReplacedLife)) { // zero, negative, NaN or a few days: written off at once
        plan.depreciation[0] = base;
        plan.bookValueAtHorizon = salvage;
        return plan;
    }
    const auto horizon = static_cast<double>(horizonYears);
    // Vintages start at 0, L, 2L, ... while the start lies before the horizon.
    double start = 0.0;
    for (int k = 0;; ++k) {
        start = k * lifeYears;
        const double end = start + lifeYears;
        // Straight line (C - S)/L per year of service: year y gets the overlap of [y-1, y] with [start, end].
        for (int y = 1; y <= horizonYears; ++y) {
            const double overlap = std::min<double>(y, end) - std::max<double>(y - 1, start);
            if (overlap > 0) plan.depreciation[static_cast<std::size_t>(y - 1)] += overlap / lifeYears * base;
        }
        if (!(end < horizon - 1e-9)) break; // this vintage serves to the horizon (or ends exactly on it)
        // End of life inside the horizon: sell the vintage at its residual value and buy the next one.
        const auto y = static_cast<std::size_t>(bookingYear(end) - 1);
        plan.replacement[y] += cost;
        plan.salvage[y] += salvage;
        plan.replacementTimes.push_back(end);
    }
    // Book value of the vintage in service at the horizon: cost less (H - start)/L of the basis.
    const double used = std::clamp((horizon - start) / lifeYears, 0.0, 1.0);
    plan.bookValueAtHorizon = cost - used * base;
    return plan;
}

std::vector<units::Money> decliningBalancePlan(units::Money cost, double residualFraction, double lifeYears,
                                               double factor, int horizonYears) {
    const double residual = std::isfinite(residualFraction) ? residualFraction : 0.0;
    const units::Money base = cost - residual * cost; // depreciable basis, as planAssetClass
    if (horizonYears <= 0) return {};
    if (!(lifeYears >= kShortestReplacedLife) || std::isinf(lifeYears))
        return decliningBalanceSchedule(base, lifeYears, factor, horizonYears); // never replaced
    const auto h = static_cast<std::size_t>(horizonYears);
    std::vector<units::Money> out(h, units::Money{});
    // One vintage's schedule by year of its life (IRS Publication 946, declining balance switching to
    // straight line); every vintage has the same cost, so the same schedule.
    const int lifeYearsCeil = static_cast<int>(std::ceil(lifeYears - 1e-9));
    const std::vector<units::Money> byLifeYear =
        decliningBalanceSchedule(base, lifeYears, factor, lifeYearsCeil);
    // The vintages' starts: t = 0 and every replacement of the same plan (one rule for when a vintage is
    // replaced).
    std::vector<double> starts = {0.0};
    const AssetPlan plan = planAssetClass(cost, residual, lifeYears, horizonYears);
    starts.insert(starts.end(), plan.replacementTimes.begin(), plan.replacementTimes.end());
    for (const double s : starts)
        for (int j = 1; j <= lifeYearsCeil; ++j) {
            const double from = s + (j - 1), to = s + std::min<double>(j, lifeYears);
            if (!(to > from)) continue;
            const auto amount = byLifeYear[static_cast<std::size_t>(j - 1)];
            for (int y = std::max(1, static_cast<int>(std::floor(from)) + 1); y <= horizonYears && y - 1 < to;
                 ++y) {
                const double overlap = std::min<double>(y, to) - std::max<double>(y - 1, from);
                if (overlap > 0) out[static_cast<std::size_t>(y - 1)] += overlap / (to - from) * amount;
            }
        }
    return out;
}

units::Money economicCapitalCharge(units::Money cost, double residualFraction, double rate, double lifeYears) {
    const units::Money salvage = residualFraction * cost;
    if (std::isinf(lifeYears) && lifeYears > 0) return rate * cost; // perpetuity: the return forgone
    // EUAC = (P - S)(A/P, r, n) + S·r (Newnan et al.); capitalRecoveryFactor returns 0 for a non-positive
    // life, where the whole basis is charged in one year instead.
    const double crf = lifeYears > 0 ? capitalRecoveryFactor(rate, lifeYears) : 1.0;
    return crf * (cost - salvage) + rate * salvage;
}

units::Money straightLineCharge(units::Money cost, double residualFraction, double lifeYears) {
    const units::Money base = cost - residualFraction * cost;
    if (std::isinf(lifeYears) && lifeYears > 0) return units::Money{}; // land is not depreciated
    return lifeYears > 0 ? base / lifeYears : base;
}

double earningFraction(int year, double delayYears) {
    const double delay = std::isfinite(delayYears) ? std::max(0.0, delayYears) : 0.0;
    return std::clamp(static_cast<double>(year) - delay, 0.0, 1.0);
}

void validateFinanceAssumptions(const model::AssumptionSet& merged, const std::string& origin) {
    for (const auto& key : kFinanceFractionAssumptions) {
        const auto it = merged.find(key);
        if (it == merged.end()) continue;
        const double v = it->second.base;
        if (std::isfinite(v) && v >= 0.0 && v <= 1.0) continue;
        const bool residual = key.find("residual") != std::string::npos;
        throw model::InputError(
            model::InputLocation{origin, "assumption", key, "", "base"},
            (residual ? std::string("a residual value must lie between 0 and the capex (fraction 0..1)")
                      : std::string("a maintenance fraction must lie between 0 and 1 of the capex a year")) +
                ", found " + std::to_string(v));
    }
}

std::string scheduleAssumptionProblem(const model::AssumptionSet& merged, const std::string& key,
                                      double value) {
    if (key != "construction_months" && key != "horizon_years") return {};
    auto current = [&](const char* k) {
        const auto it = merged.find(k);
        return it == merged.end() ? std::numeric_limits<double>::quiet_NaN() : it->second.base;
    };
    const double months = key == "construction_months" ? value : current("construction_months");
    const double horizon = key == "horizon_years" ? value : current("horizon_years");
    // Not finite, out of range or a horizon that is not a whole number of years: assumptionValueProblem
    // and the horizon's own checks (horizon_not_whole_years) report those.
    if (!std::isfinite(months) || !std::isfinite(horizon) || horizon < 1.0 || horizon != std::floor(horizon))
        return {};
    if (!(months > 12.0 * horizon)) return {};
    auto whole = [](double v) { return std::to_string(static_cast<long long>(std::llround(v))); };
    return "a construction period of " + whole(months) +
           " months is longer than the horizon (horizon_years " + whole(horizon) + " = " +
           whole(12.0 * horizon) +
           " months): the cash flows start at delivery, so shorten the build (construction_months) or "
           "lengthen the horizon (horizon_years)";
}

void validateScheduleAssumptions(const model::AssumptionSet& merged, const model::AssumptionSet& changed,
                                 const std::string& origin) {
    // Name the input that was changed (an override of the horizon names horizon_years), else the build.
    const bool horizonChanged = changed.count("horizon_years") && !changed.count("construction_months");
    const std::string key = horizonChanged ? "horizon_years" : "construction_months";
    const std::string other = horizonChanged ? "construction_months" : "horizon_years";
    auto find = [&](const std::string& k) -> const model::Assumption* {
        if (const auto it = changed.find(k); it != changed.end()) return &it->second;
        if (const auto it = merged.find(k); it != merged.end()) return &it->second;
        return nullptr;
    };
    const auto* mine = find(key);
    const auto* theirs = find(other);
    if (!mine || !theirs) return;
    // scheduleAssumptionProblem reads the other key from the set it is given: a one-entry set holds it.
    const model::AssumptionSet context{{other, *theirs}};
    if (const std::string problem = scheduleAssumptionProblem(context, key, mine->base); !problem.empty())
        throw model::InputError(model::InputLocation{origin, "assumption", key, "", "base"}, problem);
}

} // namespace ctwin::cost
