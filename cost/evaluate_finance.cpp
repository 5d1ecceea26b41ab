#include "evaluate_stages.h"
#include "finance.h"
#include "finance_conventions.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

// The IT asset class's useful life (issue 30 item 4: every class's life read from where the user sets it).
// A design or an override that sets assumptions.it_useful_life_years applies it to all IT. Otherwise each
// rack type's own catalog useful_life_years covers its racks and their integration (integration is a
// fraction of the rack capex, capex stage), and the assumption covers the rest (storage). Several lives
// combine into the life whose straight-line charge equals the sum of the parts', L = C / sum(C_i / L_i),
// the capex-weighted harmonic mean (IRS Publication 946 straight line, C_i/L_i per part, summed); a single
// life is kept as is.
double itUsefulLife(EvalContext& c, Money itCapex) {
    const double assumed = c.a.get("it_useful_life_years");
    if (c.inputs.assumptionLevel("it_useful_life_years") != InputLevel::Default) return assumed;
    auto& cat = c.r.capex.byCategory;
    const Money rackCapex = cat["compute"] + cat["scale_up_network"];
    // Integration rides on the rack capex in proportion (cat["integration"] = fraction x rack capex).
    const double withIntegration =
        rackCapex.value() > 0 ? 1.0 + cat["integration"].value() / rackCapex.value() : 1.0;
    double covered = 0.0, chargePerYear = 0.0; // USD of IT with a rack life; sum of C_i / L_i
    bool differs = false;
    for (const auto& line : c.bom.rackLines) {
        const auto* item = c.catalog.find(line.catalogId);
        if (item && item->kind == "network") continue; // priced with the scale-out network (capex stage)
        const auto* life = item ? item->find("useful_life_years") : nullptr;
        if (!life || !(life->base > 0.0) || !std::isfinite(life->base)) continue;
        const double capex = line.quantity * item->value("price_usd") * withIntegration;
        covered += capex;
        chargePerYear += capex / life->base;
        differs = differs || life->base != assumed;
    }
    if (!differs || !(itCapex.value() > 0.0)) return assumed;
    c.itLifeFromRacks = true;
    const double rest = std::max(0.0, itCapex.value() - covered);
    return itCapex.value() / (chargePerYear + rest / assumed);
}

// The GPU-hour price of the design's GPUs (issue 30 item 4: per-design rental prices, sourced per GPU
// generation): each compute rack type's accelerator carries its rental price per GPU-hour in the catalog
// (data/catalog/accelerators.json `rental_usd_per_gpu_hour`, with its basis in the attribute
// `rental_price_basis`); the design's price is their GPU-weighted mean over the rack types,
// P = sum(n_i P_i) / sum(n_i) with n_i the GPUs of rack type i, and so are its low and high (a mix sells at
// the mean of its parts). GPUs whose accelerator has no rental price are priced at the shipped assumption.
// A design or an override that sets assumptions.gpu_hour_price_usd wins (InputResolver::derivedDefault).
// Second: whether any GPU has a catalog price (else the first is the shipped assumption).
std::pair<model::Assumption, bool> catalogGpuHourPrice(const EvalContext& c) {
    const model::Assumption& shipped = c.a.at("gpu_hour_price_usd");
    model::Assumption price = shipped;
    double gpus = 0.0, base = 0.0, low = 0.0, high = 0.0;
    bool anyRental = false;
    std::map<std::string, std::pair<double, const model::CatalogItem*>> byAccelerator; // GPUs, accelerator
    for (const auto& line : c.bom.rackLines) {
        const auto* rack = c.catalog.find(line.catalogId);
        const auto* perRack = rack ? rack->find("gpus") : nullptr;
        if (!perRack || !(perRack->base > 0.0)) continue;
        const double n = line.quantity * perRack->base;
        const std::string acc = rack->attribute("accelerator");
        const auto* item = c.catalog.find(acc);
        const auto* rental = item ? item->find("rental_usd_per_gpu_hour") : nullptr;
        gpus += n;
        anyRental = anyRental || rental;
        base += n * (rental ? rental->base : shipped.base);
        low += n * (rental ? rental->low : shipped.low);
        high += n * (rental ? rental->high : shipped.high);
        auto& entry = byAccelerator[rental ? acc : std::string()];
        entry.first += n;
        entry.second = rental ? item : nullptr;
    }
    if (!(gpus > 0.0) || !anyRental) return {shipped, false};
    price.base = base / gpus, price.low = low / gpus, price.high = high / gpus;
    price.estimate = false;
    if (!c.recordsProvenance()) return {price, true}; // the scenario tools read the value only
    std::string text = "GPU-weighted catalog rental price of the design's GPUs (" +
                       std::string(byAccelerator.size() > 1 ? "mean over rack types" : "one generation") +
                       "): ";
    bool first = true;
    for (const auto& [acc, e] : byAccelerator) {
        text += first ? "" : "; ";
        first = false;
        const auto& [n, item] = e;
        if (!item) {
            text += fmt(n) + " GPUs without a catalog rental price at assumptions.gpu_hour_price_usd " +
                    fmt(shipped.base, 2) + " (" + shipped.source + ")";
            price.estimate = price.estimate || shipped.estimate;
            continue;
        }
        const auto& v = *item->find("rental_usd_per_gpu_hour");
        const std::string basis = item->attribute("rental_price_basis");
        text += fmt(n) + " x " + acc + " " + fmt(v.base, 2) + " USD/GPU-h (" +
                (basis.empty() ? std::string("basis not stated") : basis) + "; " + v.source + ")";
        price.estimate = price.estimate || v.estimate;
    }
    price.source = text;
    return {price, true};
}

/// The horizon in whole years: the loaders, --set, sweeps and the GUI refuse anything
/// else (assumptionValueProblem, data/assumptions.json `whole`). A library caller that hands the engine a
/// fraction or a non-positive horizon anyway gets an Error and 0 (no cash flows), never a silently rounded
/// horizon.
int checkedHorizonYears(EvalContext& c) {
    const double horizonValue = c.a.get("horizon_years");
    const bool horizonValid = std::isfinite(horizonValue) && horizonValue >= 1.0 &&
                              horizonValue == std::floor(horizonValue) && horizonValue <= 1000.0;
    if (!horizonValid)
        c.r.rules.push_back(
            {Severity::Error, "horizon_not_whole_years", c.p.info.id,
             "assumptions.horizon_years (" + fmt(horizonValue, 3) +
                 ") must be a whole number of years, at least 1: the yearly cash flows, NPV, IRR, "
                 "payback and break-even price are not computed"});
    return horizonValid ? static_cast<int>(horizonValue) : 0;
}

/// The construction period in whole months (data/assumptions.json `whole`; the loaders, --set and the
/// Assumptions dock refuse a fraction and a period longer than the horizon, validateScheduleAssumptions).
/// A library caller that passes one anyway gets an Error rule; the schedule is still priced.
int checkedConstructionMonths(EvalContext& c, int horizonYears) {
    const double months = c.a.get("construction_months");
    const bool valid =
        std::isfinite(months) && months >= 0.0 && months == std::floor(months) && months <= 1200;
    if (!valid || (horizonYears > 0 && months > 12.0 * horizonYears))
        c.r.rules.push_back({Severity::Error, "construction_longer_than_horizon", c.p.info.id,
                             "assumptions.construction_months (" + fmt(months, 1) +
                                 ") must be a whole number of months, no longer than the horizon (" +
                                 fmt(12.0 * horizonYears, 0) + " months)"});
    return valid ? static_cast<int>(months) : 0;
}

/// Yearly cash flows over the horizon from the depreciation of each year, and what follows from them: NPV,
/// IRR, payback on operating flows and the break-even price.
void evaluateCashFlows(EvalContext& c, const std::vector<Money>& depreciation) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const size_t h = depreciation.size();
    // Yearly cash flow (end of year y): revenue from sold GPU-hours (pro rata after the time to revenue),
    // minus opex and tax on (revenue - opex - depreciation), minus replacement capex at end of life, plus the
    // residual value of the retired vintages, plus at the horizon the terminal value: the book value of every
    // asset class and the land at cost. Retired and terminal assets change hands at book value, so there is
    // no gain or loss to tax.
    // The price of the design's GPUs from the catalog unless the design or an override sets one
    // (catalogGpuHourPrice above).
    const auto [derivedPrice, catalogPriced] = catalogGpuHourPrice(c);
    fin.gpuHourPriceFromCatalog =
        catalogPriced && c.inputs.assumptionLevel("gpu_hour_price_usd") == InputLevel::Default;
    fin.gpuHourPrice = catalogPriced ? c.inputs.derivedDefault("gpu_hour_price_usd", derivedPrice)
                                     : a.get("gpu_hour_price_usd");
    if (fin.gpuHourPriceFromCatalog) fin.gpuHourPriceSource = derivedPrice.source;
    const double price = fin.gpuHourPrice;
    const double taxRate = a.get("tax_rate");
    fin.timeToRevenueDays = a.get("delivery_to_revenue_days");
    const double delayYears = fin.timeToRevenueDays / 365.25;
    if (h > 0) {
        fin.terminalValue[h - 1] = fin.land;
        for (const auto& ac : fin.assetClasses)
            fin.terminalValue[h - 1] += ac.bookValueAtHorizon;
    }
    // Each year's flow as a function of the price (finance.h PricedYear), so the NPV, the payback and the
    // break-even price are computed from one definition of the cash flow.
    std::vector<PricedYear> priced(h);
    for (size_t y = 0; y < h; ++y) {
        PricedYear& py = priced[y];
        py.gpuHours = earningFraction(static_cast<int>(y) + 1, delayYears) * fin.gpuHoursPerYear;
        py.nonRevenue = -fin.opexAnnual - fin.replacementCapex[y] + fin.salvage[y] + fin.terminalValue[y];
        py.taxableBeforeRevenue = -(fin.opexAnnual + depreciation[y]);
        py.terminal = fin.terminalValue[y];
        const Money revenue = py.gpuHours * price * usd;
        const Money taxable = revenue + py.taxableBeforeRevenue;
        fin.revenue.push_back(revenue);
        fin.opex.push_back(fin.opexAnnual);
        fin.tax.push_back(taxable.value() > 0 ? taxRate * taxable : Money{});
    }
    // Valued at delivery (the end of construction): the construction draws compounded forward to it at the
    // WACC are capex + interest during construction (finance.h interestDuringConstruction).
    const Money initial = r.capex.total + fin.interestDuringConstruction;
    fin.cashFlows = pricedCashFlows(initial, priced, price, taxRate);
    fin.npv = netPresentValue(wacc, fin.cashFlows);
    // The IRR feeds only its figure: evaluateFigures skips the root search unless finance.irr is asked for.
    // It is the rate of the money as it moves: the construction draws on their dates (not compounded at
    // the WACC) and the yearly flows after delivery (XIRR on year fractions, finance.h).
    if (c.wants("finance.irr")) {
        std::vector<DatedFlow> dated;
        dated.reserve(fin.drawYears.size() + h);
        for (size_t i = 0; i < fin.drawYears.size(); ++i)
            dated.push_back({fin.drawYears[i], -fin.drawAmounts[i]});
        for (size_t y = 1; y < fin.cashFlows.size(); ++y)
            dated.push_back({static_cast<double>(y), fin.cashFlows[y]});
        fin.irr = internalRateOfReturnDated(dated);
    }
    // Payback on operating cash flows: the terminal value at the horizon (book value and
    // land) is not cash the operation has earned, and counting it made the payback move with the horizon.
    // Replacement capex and the residual value of the vintages it retires stay: they fall inside the horizon
    // and do not depend on it.
    std::vector<Money> operating(fin.cashFlows.begin(), fin.cashFlows.end());
    for (size_t y = 0; y < h; ++y)
        operating[y + 1] -= priced[y].terminal;
    fin.paybackYears = paybackYears(operating);
    // Break-even price: the price that brings this NPV to zero; exact (NPV is piecewise
    // affine in the price, finance.h breakEvenPrice), at most H + 1 NPV evaluations.
    if (h > 0 && c.wants("finance.break_even_gpu_hour_usd"))
        fin.breakEvenGpuHour = breakEvenPrice(wacc, taxRate, initial, priced);
    c.financeInitial = initial;
    c.wacc = wacc;
    c.taxRate = taxRate;
    c.pricedYears = std::move(priced);
}

/// Maintenance provenance: the legacy single fraction when the design sets it, else the class's own.
SourceRef maintenanceSourceOf(const EvalContext& c, const std::string& cls) {
    return EvalContext::source(c.a.contains("maintenance_fraction") ? std::string("maintenance_fraction")
                                                                    : cls + "_maintenance_fraction");
}

/// Both conventions (economic, accounting) with their capex charge and maintenance by asset class (issue 13
/// item 1).
void addConventionFigures(EvalContext& c, const SourceRef& itLifeSource) {
    const auto& fin = c.r.finance;
    const double wacc = c.a.get("wacc");
    auto maintenanceSource = [&](const std::string& cls) { return maintenanceSourceOf(c, cls); };
    for (const auto& [name, view] : {std::pair<std::string, const TcoView*>{"economic", &fin.economic},
                                     {"accounting", &fin.accounting}}) {
        // Every key below starts with this prefix: evaluateFigures skips the convention unless one is asked.
        if (!c.wantsPrefix("finance." + name + ".")) continue;
        const bool econ = name == "economic";
        const std::string label = econ ? "Economic" : "Accounting";
        const std::string charge =
            econ ? "(capex - residual) x CRF(wacc, life) + residual x wacc" : "(capex - residual) / life";
        addFigure(c, "finance." + name + ".tco_annual_usd", view->tcoAnnual.value(), "USD/yr",
                  label + " TCO per year", "capex charge (" + charge + ") + opex");
        addFigure(c, "finance." + name + ".cost_per_gpu_hour_usd", view->costPerGpuHour, "USD/GPU-h",
                  label + " cost per GPU-hour", label + " TCO per year / GPU-hours sold per year");
        addFigure(c, "finance." + name + ".capex_charge_usd", view->capexCharge.value(), "USD/yr",
                  label + " capex charge", "sum over asset classes and land of " + charge);
        for (const auto& ac : fin.assetClasses) {
            const std::string k = "finance." + name + ".annual_by_class." + ac.name;
            addFigure(c, k + ".capex_charge_usd", (econ ? ac.economicCharge : ac.accountingCharge).value(),
                      "USD/yr", label + " capex charge, " + ac.name, charge,
                      {{"capex_usd", ac.capex.value()},
                       {"life_years", ac.lifeYears},
                       {"residual_fraction", ac.residualFraction}},
                      {ac.name == "it" ? itLifeSource : c.source(ac.name + "_useful_life_years"),
                       c.source(ac.name + "_residual_fraction")});
            addFigure(c, k + ".maintenance_usd", ac.maintenance.value(), "USD/yr",
                      label + " maintenance, " + ac.name, "capex x maintenance fraction",
                      {{"maintenance_fraction", ac.maintenanceFraction}}, {maintenanceSource(ac.name)});
        }
        const std::string k = "finance." + name + ".annual_by_class.land";
        addFigure(c, k + ".capex_charge_usd", econ ? (wacc * fin.land).value() : 0.0, "USD/yr",
                  label + " capex charge, land",
                  econ ? "land x wacc (return forgone; land is not consumed)" : "land is not depreciated",
                  {{"land_usd", fin.land.value()}});
        addFigure(c, k + ".maintenance_usd", 0.0, "USD/yr", label + " maintenance, land", "none");
    }
}

} // namespace

/// Each asset class's schedules over the horizon (straight-line and declining-balance depreciation,
/// replacements, salvage, book value at the horizon), its capital charge in both views and its maintenance;
/// the yearly depreciation summed over the classes.
std::vector<Money> planAssetClasses(EvalContext& c, int horizon, double wacc, double dbFactor) {
    auto& fin = c.r.finance;
    const auto h = static_cast<size_t>(horizon);
    fin.replacementCapex.assign(h, Money{});
    fin.salvage.assign(h, Money{});
    fin.terminalValue.assign(h, Money{});
    std::vector<Money> depreciation(h, Money{});
    for (auto& ac : fin.assetClasses) {
        const AssetPlan plan = planAssetClass(ac.capex, ac.residualFraction, ac.lifeYears, horizon);
        ac.straightLine = plan.depreciation;
        ac.replacement = plan.replacement;
        ac.salvage = plan.salvage;
        ac.bookValueAtHorizon = plan.bookValueAtHorizon;
        // Every vintage on its own declining-balance schedule, replacements included.
        ac.decliningBalance =
            decliningBalancePlan(ac.capex, ac.residualFraction, ac.lifeYears, dbFactor, horizon);
        ac.economicCharge = economicCapitalCharge(ac.capex, ac.residualFraction, wacc, ac.lifeYears);
        ac.accountingCharge = straightLineCharge(ac.capex, ac.residualFraction, ac.lifeYears);
        // Maintenance is on the equipment and building, not on the interest capitalised with them.
        ac.maintenance = ac.maintenanceFraction * (ac.capex - ac.capitalisedInterest);
        fin.economic.capexCharge += ac.economicCharge;
        fin.accounting.capexCharge += ac.accountingCharge;
        fin.maintenanceAnnual += ac.maintenance;
        for (size_t y = 0; y < h; ++y) {
            depreciation[y] += plan.depreciation[y];
            fin.replacementCapex[y] += plan.replacement[y];
            fin.salvage[y] += plan.salvage[y];
        }
    }
    return depreciation;
}

/// The facility's energy a year and what it costs: each building's operating power at its tariff, IT
/// outside any building at the design's tariff, and the on-site generation's share at its
/// fuel cost instead of the tariff.
void annualEnergy(EvalContext& c) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    auto& fin = r.finance;
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
    // The battery's round-trip losses are bought like the rest, at the mean tariff.
    if (c.bessLossMwhPerYear > 0) {
        const Energy loss = megawattHours(c.bessLossMwhPerYear);
        fin.energyAnnual += fin.energyAnnual * safeDiv(loss.value(), fin.facilityEnergyAnnual.value());
        fin.facilityEnergyAnnual += loss;
    }
    // On-site generation serves its share of the energy at the fuel cost instead of the
    // tariff.
    if (c.onsiteShare > 0) {
        const double gasKwh = fin.facilityEnergyAnnual.value() / 3.6e6 * c.onsiteShare;
        c.onsiteFuelAnnualUsd = gasKwh * c.gasUsdPerKwh;
        fin.energyAnnual = fin.energyAnnual * (1.0 - c.onsiteShare) + c.onsiteFuelAnnualUsd * usd;
    }
}

void evaluateFinance(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    auto& cat = r.capex.byCategory;
    // ---- Finance (SPEC.md §4.5) ----
    auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const int horizon = checkedHorizonYears(c);
    const double dbFactor = a.get("declining_balance_factor");
    // Asset classes. Land is split out of "building": it is not
    // depreciated (IRS Publication 946, "What Property Cannot Be Depreciated") and comes back at cost at the
    // horizon, so the facility class depreciates power, cooling and the building less land.
    for (const auto& s : p.sites)
        fin.land += s.landCost;
    fin.land = std::clamp(fin.land, Money{}, cat["building"]);
    // Maintenance by asset class: IT hardware support, network support, facility maintenance (fractions of
    // the class's capex a year, data/assumptions.json). A design that still sets the single legacy
    // `maintenance_fraction` keeps it as an explicit override of all three (data/FORMAT.md §2).
    const bool legacyMaintenance = a.contains("maintenance_fraction");
    auto maintenanceOf = [&](const char* key) {
        return legacyMaintenance ? a.get("maintenance_fraction") : a.get(key);
    };
    auto assetClass = [](std::string name, Money capex, double life, double residual, double maintenance) {
        AssetClass ac;
        ac.name = std::move(name);
        ac.capex = capex;
        ac.lifeYears = life;
        ac.residualFraction = residual;
        ac.maintenanceFraction = maintenance;
        return ac;
    };
    const Money itCapex = cat["compute"] + cat["scale_up_network"] + cat["storage"] + cat["integration"];
    const Money facilityCapex = cat["power"] + cat["cooling"] + cat["building"] - fin.land;
    // Construction schedule: facility drawn monthly, land at the start, IT and network on
    // delivery; the interest on the draws until delivery at the WACC is capitalised into the facility class
    // (IAS 23 / ASC 835-20: borrowing costs of a qualifying asset are part of its cost), so it is
    // depreciated and charged like the building it paid for.
    fin.constructionMonths = checkedConstructionMonths(c, horizon);
    {
        const auto draws = constructionDraws(
            facilityCapex, fin.land, r.capex.total - facilityCapex - fin.land, fin.constructionMonths);
        fin.interestDuringConstruction = interestDuringConstruction(wacc, draws);
        fin.drawYears.clear(), fin.drawAmounts.clear();
        for (const auto& d : draws)
            fin.drawYears.push_back(d.years), fin.drawAmounts.push_back(d.amount);
    }
    c.itLifeFromRacks = false;
    const double itLife = itUsefulLife(c, itCapex);
    fin.assetClasses = {
        assetClass("it", itCapex, itLife, a.get("it_residual_fraction"),
                   maintenanceOf("it_maintenance_fraction")),
        assetClass("network", cat["scale_out_network"] + cat["optics_cables"] + cat["scale_across"],
                   a.get("network_useful_life_years"), a.get("network_residual_fraction"),
                   maintenanceOf("network_maintenance_fraction")),
        assetClass("facility", facilityCapex + fin.interestDuringConstruction,
                   a.get("facility_useful_life_years"), a.get("facility_residual_fraction"),
                   maintenanceOf("facility_maintenance_fraction")),
    };
    for (auto& ac : fin.assetClasses)
        if (ac.name == "facility") ac.capitalisedInterest = fin.interestDuringConstruction;
    if (legacyMaintenance)
        r.rules.push_back({Severity::Info, "legacy_maintenance_fraction", p.info.id,
                           "assumptions.maintenance_fraction (" +
                               fmt(a.get("maintenance_fraction") * 100, 1) +
                               "%) overrides the IT, network and facility maintenance fractions"});
    const std::vector<Money> depreciation = planAssetClasses(c, horizon, wacc, dbFactor);
    // Land: the return forgone on it in the economic view (C·wacc, the perpetuity limit of capital
    // recovery); nothing in the accounting view, where land is not depreciated.
    fin.economic.capexCharge += wacc * fin.land;
    fin.annualizedCapex = fin.economic.capexCharge;
    fin.depreciationAnnual = fin.accounting.capexCharge;
    const Time year = years(1.0);
    annualEnergy(c);
    fin.staffAnnual = a.get("staff_usd_per_mw_year") * toMw(r.power.itPeak) * usd;
    for (const auto& l : bom.links)
        fin.wanLeaseAnnual += l.lease * year;
    // Insurance and property tax, yearly fractions of capex (data/assumptions.json, with
    // sources). Insurance covers what can burn: the capex less land (property insurance is written on the
    // replacement cost of buildings and contents, land excluded). Property tax is levied on the real
    // property, land included, and on the tangible personal property (servers, network, plant) where the
    // state taxes it (Tax Foundation, "State Taxation of Data Centers", Dec 2025), so on the whole capex.
    // Replacements are like for like (finance_conventions.h AssetPlan), so the insured and taxed value, and
    // both lines, are the same every year.
    fin.insuranceAnnual = a.get("insurance_rate_of_capex_per_year") * (r.capex.total - fin.land);
    fin.propertyTaxAnnual = a.get("property_tax_rate_of_capex_per_year") * r.capex.total;
    // Software licences are sold per installed GPU (NVIDIA AI Enterprise licenses each GPU, spares
    // included), so every GPU of the bill counts, not only the sellable ones.
    fin.softwareAnnual = a.get("software_usd_per_gpu_year") * bom.gpus * usd;
    fin.opexAnnual = fin.energyAnnual + fin.maintenanceAnnual + fin.staffAnnual + fin.wanLeaseAnnual +
                     fin.insuranceAnnual + fin.propertyTaxAnnual + fin.softwareAnnual;
    c.sellableGpus = std::max(0.0, bom.gpus - bom.spareGpus);
    // GPU-hours sold: sellable GPUs x hours x utilization x facility availability (issue 30 item 1: an
    // outage of the building's power topology idles its GPUs; Uptime Tier figures, evaluate_power.cpp).
    // Curtailment under a flexible interconnect removes its share too.
    fin.gpuHoursPerYear =
        c.sellableGpus * kHoursPerYear * c.utilization * r.power.facilityAvailability * c.gridAvailability;
    for (TcoView* v : {&fin.economic, &fin.accounting}) {
        v->tcoAnnual = v->capexCharge + fin.opexAnnual;
        v->costPerGpuHour = safeDiv(v->tcoAnnual.value(), fin.gpuHoursPerYear);
    }
    // The headline (project.tco_convention) feeds every cost per unit downstream (training run cost, $/M
    // tokens).
    fin.convention = p.info.tcoConvention == "accounting" ? "accounting" : "economic";
    const TcoView& headline = fin.convention == "accounting" ? fin.accounting : fin.economic;
    fin.tcoAnnual = headline.tcoAnnual;
    fin.costPerGpuHour = headline.costPerGpuHour;
    if (fin.gpuHoursPerYear <= 0)
        r.rules.push_back(
            {Severity::Warning, "no_gpu_hours", p.info.id,
             "No GPU-hours are sold (no GPUs or utilization 0): per-GPU-hour and per-token costs are 0"});
    evaluateCashFlows(c, depreciation);
    // Time to revenue: capacity is paid for (capital cost and opex) from delivery until it earns.
    fin.burnInCost = fin.timeToRevenueDays / 365.25 * fin.tcoAnnual;
}

/// Insurance, property tax and software licences, each a figure with its basis.
static void addOpexLineFigures(EvalContext& c) {
    const AssumptionValues& a = c.a;
    const Results& r = c.r;
    const auto& fin = r.finance;
    addFigure(c, "finance.insurance_annual_usd", fin.insuranceAnnual.value(), "USD/yr", "Insurance",
              "(capex - land) x insurance rate per year (property insurance on the replacement cost; land is "
              "not insured)",
              {{"insured_value_usd", (r.capex.total - fin.land).value()},
               {"rate_per_year", a.get("insurance_rate_of_capex_per_year")}},
              {c.source("insurance_rate_of_capex_per_year")});
    addFigure(
        c, "finance.property_tax_annual_usd", fin.propertyTaxAnnual.value(), "USD/yr", "Property tax",
        "capex (land included) x property tax rate per year (real and tangible personal property, after "
        "typical abatements)",
        {{"taxed_value_usd", r.capex.total.value()},
         {"rate_per_year", a.get("property_tax_rate_of_capex_per_year")}},
        {c.source("property_tax_rate_of_capex_per_year")});
    addFigure(c, "finance.software_annual_usd", fin.softwareAnnual.value(), "USD/yr", "Software licences",
              "installed GPUs (spares included) x software licences per GPU per year",
              {{"gpus", r.bom.gpus}, {"usd_per_gpu_year", a.get("software_usd_per_gpu_year")}},
              {c.source("software_usd_per_gpu_year")});
}

void addFinanceFigures(EvalContext& c) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const double price = fin.gpuHourPrice;
    // The price's provenance: the catalog prices of the design's GPUs, or the assumption the design or an
    // override sets.
    const SourceRef priceSource = fin.gpuHourPriceFromCatalog
                                      ? SourceRef("GPU-hour price: " + fin.gpuHourPriceSource)
                                      : c.source("gpu_hour_price_usd");
    auto maintenanceSource = [&](const std::string& cls) { return maintenanceSourceOf(c, cls); };
    const std::vector<SourceRef> maintenanceSources = {maintenanceSource("it"), maintenanceSource("network"),
                                                       maintenanceSource("facility"),
                                                       c.source("staff_usd_per_mw_year")};
    // The tariff of each site that draws power, with its provenance (site field, override or assumption);
    // provenance only, so evaluateFigures skips it.
    std::vector<SourceRef> tariffSources;
    if (c.recordsProvenance()) {
        std::set<std::string> seenSites;
        for (const auto& bp : r.power.buildings)
            if (seenSites.insert(bp.siteId).second)
                if (const auto* t = r.input("sites." + bp.siteId + ".electricity_usd_per_kwh"))
                    tariffSources.push_back("site " + bp.siteId + ": " + t->describe() + "; " + t->source);
        if (c.orphanIt.value() > 1e-6 || tariffSources.empty())
            tariffSources.push_back(c.source("electricity_usd_per_kwh"));
    }
    const SourceRef itLifeSource =
        c.itLifeFromRacks
            ? SourceRef("IT life: each rack type's useful_life_years (catalog) for its racks and "
                        "integration, assumptions.it_useful_life_years for the rest; combined as "
                        "capex / sum(capex_i / life_i)")
            : c.source("it_useful_life_years");
    addFigure(
        c, "finance.annualized_capex_usd", fin.annualizedCapex.value(), "USD/yr", "Annualized capex",
        "sum over asset classes of (capex - residual) x CRF(wacc, life) + residual x wacc, plus land x wacc",
        {{"wacc", wacc}, {"land_usd", fin.land.value()}},
        {c.source("wacc"), itLifeSource, c.source("network_useful_life_years"),
         c.source("facility_useful_life_years")});
    addFigure(c, "finance.depreciation_annual_usd", fin.depreciationAnnual.value(), "USD/yr", "Depreciation",
              "straight line: sum of (capex - residual) / useful life per asset class; land not depreciated");
    addFigure(c, "finance.onsite_fuel_annual_usd", c.onsiteFuelAnnualUsd, "USD/yr",
              "On-site generation fuel (in energy)",
              "facility energy x on-site share x heat rate x fuel price",
              {{"onsite_share", c.onsiteShare}, {"usd_per_kwh", c.gasUsdPerKwh}},
              {c.source("onsite_generation_heat_rate_btu_per_kwh"), c.source("fuel_price_usd_per_mmbtu")});
    addFigure(c, "finance.energy_annual_usd", fin.energyAnnual.value(), "USD/yr", "Energy",
              "facility power x 8,766 h x tariff of the building's site",
              {{"facility_mwh", toKwh(fin.facilityEnergyAnnual) / 1e3}}, tariffSources);
    addFigure(c, "finance.opex_annual_usd", fin.opexAnnual.value(), "USD/yr", "Opex",
              "energy + maintenance + staff + WAN leases + insurance + property tax + software licences",
              {{"maintenance_usd", fin.maintenanceAnnual.value()},
               {"staff_usd", fin.staffAnnual.value()},
               {"wan_lease_usd", fin.wanLeaseAnnual.value()},
               {"insurance_usd", fin.insuranceAnnual.value()},
               {"property_tax_usd", fin.propertyTaxAnnual.value()},
               {"software_usd", fin.softwareAnnual.value()}},
              maintenanceSources);
    addOpexLineFigures(c);
    addFigure(c, "finance.maintenance_annual_usd", fin.maintenanceAnnual.value(), "USD/yr", "Maintenance",
              "sum over asset classes of capex x maintenance fraction", {}, maintenanceSources);
    const bool accounting = fin.convention == "accounting";
    addFigure(c, "finance.tco_annual_usd", fin.tcoAnnual.value(), "USD/yr", "TCO per year",
              std::string(accounting ? "accounting" : "economic") + " convention (project.tco_convention): " +
                  (accounting ? "straight-line depreciation" : "annualized capex") + " + opex",
              {{"headline_is_accounting", accounting ? 1.0 : 0.0}});
    addFigure(c, "finance.cost_per_gpu_hour_usd", fin.costPerGpuHour, "USD/GPU-h", "Cost per GPU-hour",
              "TCO per year / (sellable GPUs x 8,766 h x utilization x facility availability)",
              {{"gpu_hours_per_year", fin.gpuHoursPerYear},
               {"facility_availability", r.power.facilityAvailability}},
              {c.source("utilization")});
    addConventionFigures(c, itLifeSource);
    // The cash-flow figures need a valid horizon (rule horizon_not_whole_years otherwise).
    const bool flows = fin.cashFlows.size() > 1;
    if (flows)
        addFigure(
            c, "finance.npv_usd", fin.npv.value(), "USD", "NPV (steady state)",
            "valued at delivery (end of construction): -(capex + interest during construction) + discounted "
            "yearly cash flows at WACC: revenue (pro rata after the time to revenue) - opex - tax "
            "- replacement capex + residual values + terminal value at the horizon",
            {{"gpu_hour_price_usd", price},
             {"interest_during_construction_usd", fin.interestDuringConstruction.value()}},
            {priceSource, c.source("tax_rate"), c.source("construction_months")});
    // The price the revenue uses, with its basis: the catalog rental price of the design's
    // GPUs (GPU-weighted over the rack types) unless the design or an override sets one.
    if (flows)
        addFigure(
            c, "finance.gpu_hour_price_usd", price, "USD/GPU-h", "GPU-hour price sold",
            fin.gpuHourPriceFromCatalog
                ? "GPU-weighted mean of the catalog rental price (rental_usd_per_gpu_hour) of each rack "
                  "type's accelerator"
                : "assumptions.gpu_hour_price_usd (set by the design or an override)",
            {{"from_catalog", fin.gpuHourPriceFromCatalog ? 1.0 : 0.0}}, {priceSource});
    // The price at which that NPV is zero, beside the capital-recovery cost per GPU-hour:
    // it is after tax and waits for the time to revenue, and its capital comes back partly as terminal value
    // at book at the horizon, so it differs from the pre-tax economic charge.
    if (flows && fin.breakEvenGpuHour)
        addFigure(
            c, "finance.break_even_gpu_hour_usd", *fin.breakEvenGpuHour, "USD/GPU-h",
            "Break-even GPU-hour price (NPV = 0 at WACC, after tax)",
            "the GPU-hour price at which finance.npv_usd = 0: the same yearly cash flows (tax on positive "
            "taxable income, revenue after the time to revenue, replacements, terminal value at book), "
            "solved exactly on NPV's affine piece between the prices where a year's taxable income "
            "crosses zero",
            {{"wacc", wacc},
             {"tax_rate", a.get("tax_rate")},
             {"time_to_revenue_days", fin.timeToRevenueDays},
             {"economic_cost_per_gpu_hour_usd", fin.economic.costPerGpuHour}},
            {c.source("wacc"), c.source("tax_rate"), c.source("delivery_to_revenue_days")});
    // IRR and payback exist only when the cash flows allow them; absent rather than a fake number.
    if (flows && fin.irr)
        addFigure(c, "finance.irr", *fin.irr, "", "IRR (steady state)",
                  "rate where the NPV of the money as it moves is 0 (XIRR on year fractions, TOMS 748 root "
                  "search): "
                  "construction draws on their dates, then the yearly cash flows after delivery");
    addFigure(c, "finance.construction_months", fin.constructionMonths, "months", "Construction period",
              "groundbreaking to delivery: facility capex drawn in equal monthly amounts (mid-month), land "
              "paid at the start, IT and network on delivery",
              {}, {c.source("construction_months")});
    addFigure(c, "finance.interest_during_construction_usd", fin.interestDuringConstruction.value(), "USD",
              "Interest during construction (capitalised, at delivery)",
              "sum over draws of draw x ((1 + wacc)^(years before delivery) - 1): facility/M per month at "
              "mid-month over M months, land at the start; capitalised into the facility class (IAS 23)",
              {{"wacc", wacc}, {"months", static_cast<double>(fin.constructionMonths)}},
              {c.source("construction_months"), c.source("wacc")});
    addFigure(c, "finance.capex_with_idc_usd", (r.capex.total + fin.interestDuringConstruction).value(),
              "USD", "Capex with interest during construction (at delivery)",
              "capex + interest during construction: the initial outflow of the cash flows at delivery");
    if (flows && fin.paybackYears)
        addFigure(c, "finance.payback_years", *fin.paybackYears, "yr", "Payback (steady state)",
                  "years after delivery until the cumulative operating cash flow (-(capex + interest during "
                  "construction), then revenue - opex - tax - replacement capex + residual values of retired "
                  "vintages; no terminal value) >= 0, interpolated within the year");
    Money replacement{}, salvage{}, terminal{};
    for (size_t y = 0; y < fin.replacementCapex.size(); ++y)
        replacement += fin.replacementCapex[y], salvage += fin.salvage[y], terminal += fin.terminalValue[y];
    addFigure(c, "finance.replacement_capex_usd", replacement.value(), "USD", "Replacement capex",
              "capex of each asset class replaced at end of life inside the horizon (undiscounted)");
    addFigure(c, "finance.salvage_usd", salvage.value(), "USD", "Residual value of retired assets",
              "residual fraction x capex of each replaced vintage (undiscounted)");
    addFigure(c, "finance.terminal_value_usd", terminal.value(), "USD", "Terminal value",
              "book value of every asset class at the horizon + land at cost",
              {{"land_usd", fin.land.value()}});
    addFigure(c, "finance.time_to_revenue_days", fin.timeToRevenueDays, "d", "Time to revenue",
              "delivery to paying workload", {}, {c.source("delivery_to_revenue_days")});
    addFigure(c, "finance.burn_in_cost_usd", fin.burnInCost.value(), "USD", "Burn-in cost",
              "time to revenue / 365.25 x TCO per year");
}

} // namespace ctwin::cost::detail
