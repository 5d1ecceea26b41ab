#pragma once
#include "evaluate.h"

#include <string>
#include <vector>

namespace ctwin::app {

/// Money for people: "$1,117.6M" from a million up (millions, one decimal), whole grouped dollars from $100
/// ("$68,216"), cents from $1 ("$2.31", "$2.00"), four decimals below $1 ("$0.0234"); "-$248.9M" when
/// negative.
std::string formatMoney(double usd);

/// Money in millions for "$M" table columns, one decimal, grouped: 1117647615 -> "1,117.6".
std::string formatMillions(double usd);

/// A fraction as a percentage with `decimals` decimals: 0.486 -> "48.6%"; more decimals (up to 4) when a
/// non-zero value would round to zero: -0.0003 -> "-0.03%".
std::string formatPercent(double fraction, int decimals = 1);

/// A figure as every report prints it: money (units "USD...") by formatMoney followed by the rest of the unit
/// ("USD/yr" -> "$282.5M/yr", "USD/GPU-h" -> "$2.31/GPU-h"); shares, IRR and goodput as percentages; the
/// rest by cost::formatHuman with its unit ("16,384 GPU", "1.25").
std::string formatFigureValue(const std::string& key, double value, const std::string& unit);
std::string formatFigure(const cost::Figure& figure);

/// The printed value of the figure `key` of `results`, or "n/a" when the evaluation has no such figure.
std::string formatFigureOf(const cost::Results& results, const std::string& key);

/// Display name of a capex category of cost::kCapexCategories, in the words of SPEC.md §4.4.
std::string capexCategoryLabel(const std::string& category);

/// Display name of a group of the analyst capex view (cost::kAnalystCapexCategories).
std::string analystCategoryLabel(const std::string& group);

/// Display name of an annual-cost convention ("economic", "accounting").
std::string tcoConventionLabel(const std::string& convention);

/// Display name of an asset class of cost::FinanceResult ("it" -> "IT equipment").
std::string assetClassLabel(const std::string& assetClass);

/// The capex categories cost::evaluate groups into an asset class (evaluate.cpp, "Finance": it = compute +
/// scale-up network + storage + integration; network = scale-out switches + optics and cables +
/// scale-across; facility = power + cooling + building). Empty for an unknown class.
std::vector<std::string> assetClassCategories(const std::string& assetClass);

/// True when `assetClass.capex` is the sum of its categories in `capex` (to 1e-9 relative): only then may
/// a spreadsheet compute it from the category cells.
bool assetClassMatchesCategories(const cost::AssetClass& assetClass, const cost::CapexResult& capex);

/// The energy bill of one site as the engine computed it: facility energy of its buildings a year and the
/// tariff used, with where that tariff came from (the site's own field, an override or the assumption).
struct SiteEnergy {
    std::string siteId;
    double mwhPerYear = 0;
    double tariffUsdPerKwh = 0;
    double usdPerYear = 0;
    /// The resolved input "sites.<id>.electricity_usd_per_kwh" (nullptr only for a building with no site).
    const cost::ResolvedInput* tariff = nullptr;
    /// "site field", "override", "design assumption", "default assumption".
    std::string basis;
};
/// Energy by site in first-seen building order (cost::evaluate: energy = facility power x 8,766 h x the
/// tariff of the building's site).
std::vector<SiteEnergy> energyBySite(const cost::Results& results);

/// Today's date as YYYY-MM-DD when `date` is empty, else `date`.
std::string reportDate(const std::string& date);

} // namespace ctwin::app
