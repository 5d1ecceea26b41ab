#include "evaluate_stages.h"
#include "finance.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

void evaluateFinance(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const BillOfMaterials& bom = r.bom;
    auto& cat = r.capex.byCategory;
    // ---- Finance (SPEC.md §4.5) ----
    auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const int horizon = std::max(0, static_cast<int>(std::lround(a.get("horizon_years"))));
    const double dbFactor = a.get("declining_balance_factor");
    fin.assetClasses = {
        {"it",
         cat["compute"] + cat["scale_up_network"] + cat["storage"] + cat["integration"],
         a.get("it_useful_life_years"),
         {},
         {}},
        {"network",
         cat["scale_out_network"] + cat["optics_cables"] + cat["scale_across"],
         a.get("network_useful_life_years"),
         {},
         {}},
        {"facility",
         cat["power"] + cat["cooling"] + cat["building"],
         a.get("facility_useful_life_years"),
         {},
         {}},
    };
    for (auto& ac : fin.assetClasses) {
        ac.straightLine = straightLineSchedule(ac.capex, ac.lifeYears, horizon);
        ac.decliningBalance = decliningBalanceSchedule(ac.capex, ac.lifeYears, dbFactor, horizon);
        fin.annualizedCapex += capitalRecoveryFactor(wacc, ac.lifeYears) * ac.capex;
        fin.depreciationAnnual += ac.lifeYears > 0 ? ac.capex / ac.lifeYears : ac.capex;
    }
    const Time year = years(1.0);
    for (const auto& bp : r.power.buildings) {
        const Energy e = bp.facilityOperating * year;
        fin.facilityEnergyAnnual += e;
        fin.energyAnnual += bp.tariff * e;
    }
    if (c.orphanIt.value() > 1e-6) {
        fin.facilityEnergyAnnual += c.orphanIt * year;
        fin.energyAnnual += dollarsPerKwh(a.get("electricity_usd_per_kwh")) * (c.orphanIt * year);
    }
    fin.maintenanceAnnual = a.get("maintenance_fraction") * r.capex.total;
    fin.staffAnnual = a.get("staff_usd_per_mw_year") * toMw(r.power.itPeak) * usd;
    for (const auto& l : bom.links)
        fin.wanLeaseAnnual += l.lease * year;
    fin.opexAnnual = fin.energyAnnual + fin.maintenanceAnnual + fin.staffAnnual + fin.wanLeaseAnnual;
    fin.tcoAnnual = fin.annualizedCapex + fin.opexAnnual;
    c.sellableGpus = std::max(0.0, bom.gpus - bom.spareGpus);
    fin.gpuHoursPerYear = c.sellableGpus * kHoursPerYear * c.utilization;
    fin.costPerGpuHour = safeDiv(fin.tcoAnnual.value(), fin.gpuHoursPerYear);
    if (fin.gpuHoursPerYear <= 0)
        r.rules.push_back(
            {Severity::Warning, "no_gpu_hours", p.info.id,
             "No GPU-hours are sold (no GPUs or utilization 0): per-GPU-hour and per-token costs are 0"});
    // Yearly cash flow: revenue from sold GPU-hours, minus opex and tax on (revenue - opex - depreciation).
    const double price = a.get("gpu_hour_price_usd");
    const double taxRate = a.get("tax_rate");
    fin.cashFlows.push_back(-r.capex.total);
    for (int y = 0; y < horizon; ++y) {
        Money dep{};
        for (const auto& ac : fin.assetClasses)
            dep += ac.straightLine[static_cast<size_t>(y)];
        const Money revenue = fin.gpuHoursPerYear * price * usd;
        const Money taxable = revenue - fin.opexAnnual - dep;
        const Money tax = taxable.value() > 0 ? taxRate * taxable : Money{};
        fin.revenue.push_back(revenue);
        fin.opex.push_back(fin.opexAnnual);
        fin.tax.push_back(tax);
        fin.cashFlows.push_back(revenue - fin.opexAnnual - tax);
    }
    fin.npv = netPresentValue(wacc, fin.cashFlows);
    fin.irr = internalRateOfReturn(fin.cashFlows);
    fin.paybackYears = paybackYears(fin.cashFlows);
    // Time to revenue: capacity is paid for (capital cost and opex) from delivery until it earns.
    fin.timeToRevenueDays = a.get("delivery_to_revenue_days");
    fin.burnInCost = fin.timeToRevenueDays / 365.25 * fin.tcoAnnual;
}

void addFinanceFigures(EvalContext& c) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const double price = a.get("gpu_hour_price_usd");
    // The tariff of each site that draws power, with its provenance (site field, override or assumption).
    std::vector<std::string> tariffSources;
    {
        std::set<std::string> seenSites;
        for (const auto& bp : r.power.buildings)
            if (seenSites.insert(bp.siteId).second)
                if (const auto* t = r.input("sites." + bp.siteId + ".electricity_usd_per_kwh"))
                    tariffSources.push_back("site " + bp.siteId + ": " + t->describe() + "; " + t->source);
        if (c.orphanIt.value() > 1e-6 || tariffSources.empty())
            tariffSources.push_back(c.source("electricity_usd_per_kwh"));
    }
    addFigure(r, "finance.annualized_capex_usd", fin.annualizedCapex.value(), "USD/yr", "Annualized capex",
              "sum over asset classes of capex x CRF(wacc, life)", {{"wacc", wacc}},
              {c.source("wacc"), c.source("it_useful_life_years"), c.source("network_useful_life_years"),
               c.source("facility_useful_life_years")});
    addFigure(r, "finance.depreciation_annual_usd", fin.depreciationAnnual.value(), "USD/yr", "Depreciation",
              "straight line: sum of capex / useful life per asset class");
    addFigure(r, "finance.energy_annual_usd", fin.energyAnnual.value(), "USD/yr", "Energy",
              "facility power x 8,766 h x tariff of the building's site",
              {{"facility_mwh", toKwh(fin.facilityEnergyAnnual) / 1e3}}, tariffSources);
    addFigure(r, "finance.opex_annual_usd", fin.opexAnnual.value(), "USD/yr", "Opex",
              "energy + maintenance + staff + WAN leases",
              {{"maintenance_usd", fin.maintenanceAnnual.value()},
               {"staff_usd", fin.staffAnnual.value()},
               {"wan_lease_usd", fin.wanLeaseAnnual.value()}},
              {c.source("maintenance_fraction"), c.source("staff_usd_per_mw_year")});
    addFigure(r, "finance.tco_annual_usd", fin.tcoAnnual.value(), "USD/yr", "TCO per year",
              "annualized capex + opex");
    addFigure(r, "finance.cost_per_gpu_hour_usd", fin.costPerGpuHour, "USD/GPU-h", "Cost per GPU-hour",
              "TCO per year / (sellable GPUs x 8,766 h x utilization)",
              {{"gpu_hours_per_year", fin.gpuHoursPerYear}}, {c.source("utilization")});
    addFigure(r, "finance.npv_usd", fin.npv.value(), "USD", "NPV", "discounted yearly cash flows at WACC",
              {{"gpu_hour_price_usd", price}}, {c.source("gpu_hour_price_usd"), c.source("tax_rate")});
    // IRR and payback exist only when the cash flows allow them; absent rather than a fake number.
    if (fin.irr) addFigure(r, "finance.irr", *fin.irr, "", "IRR", "rate where NPV = 0 (bisection)");
    if (fin.paybackYears)
        addFigure(r, "finance.payback_years", *fin.paybackYears, "yr", "Payback",
                  "years until cumulative cash flow >= 0");
    addFigure(r, "finance.time_to_revenue_days", fin.timeToRevenueDays, "d", "Time to revenue",
              "delivery to paying workload", {}, {c.source("delivery_to_revenue_days")});
    addFigure(r, "finance.burn_in_cost_usd", fin.burnInCost.value(), "USD", "Burn-in cost",
              "time to revenue / 365.25 x TCO per year");
}

} // namespace ctwin::cost::detail
