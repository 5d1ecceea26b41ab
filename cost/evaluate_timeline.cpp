// The time axis (cost/timeline.h): the design's halls become phases energised at their dates,
// the steady-state totals of the earlier stages are split over them, and the monthly timeline gives the
// dated figures (NPV with and without phasing, peak funding, payback month, interest during construction,
// refresh). Runs after the finance stage; its figures are keyed "timeline." and say their basis.
#include "evaluate_stages.h"
#include "timeline.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;

namespace {

/// The month (after the build start) of a date field, or nullopt with an Error rule naming the entity and
/// field; an empty field is the reference delivery.
std::optional<int> phaseMonth(EvalContext& c, const std::optional<model::CalendarDate>& buildStart,
                              const std::string& text, const std::string& entity, const std::string& field,
                              int referenceMonth) {
    if (text.empty()) return referenceMonth;
    const auto date = model::parseCalendarDate(text);
    if (!date) {
        c.r.rules.push_back(
            {Severity::Error, "bad_date", entity,
             field + ": " + model::calendarDateProblem(text) + "; the timeline is not computed"});
        return std::nullopt;
    }
    if (!buildStart) {
        c.r.rules.push_back({Severity::Error, "timeline_undated", entity,
                             field + " is " + text +
                                 " but the design has no project.build_start to count it from: set the build "
                                 "start; the timeline is not computed"});
        return std::nullopt;
    }
    const int month = date->monthIndex() - buildStart->monthIndex();
    if (month < 0) {
        c.r.rules.push_back({Severity::Error, "phase_before_build_start", entity,
                             field + " (" + text + ") lies before project.build_start (" + buildStart->iso() +
                                 "); the timeline is not computed"});
        return std::nullopt;
    }
    return month;
}

/// A data hall's GPU generation: GPU-weighted sums over its rack types' accelerators
/// (data/catalog/accelerators.json rental_usd_per_gpu_hour, rental_price_decay_per_year,
/// price_decline_per_year, price_usd). A GPU whose accelerator lacks a value counts at the shipped
/// assumption of the same meaning.
struct Generation {
    double gpus = 0, rental = 0, decay = 0, decayLow = 0, decayHigh = 0, decline = 0, declineLow = 0,
           declineHigh = 0, gpuCapex = 0;
    void add(const Generation& g) {
        gpus += g.gpus, rental += g.rental, decay += g.decay, decayLow += g.decayLow,
            decayHigh += g.decayHigh;
        decline += g.decline, declineLow += g.declineLow, declineHigh += g.declineHigh,
            gpuCapex += g.gpuCapex;
    }
};

/// The generation sums of each data hall (index as project.halls); in `missing` each accelerator without
/// its own price curve and the field it lacks, in `accelerators` each one the design's GPUs use.
std::vector<Generation> generationsByHall(const EvalContext& c,
                                          std::set<std::pair<std::string, std::string>>& missing,
                                          std::map<std::string, const model::CatalogItem*>& accelerators) {
    const CompiledDesign& cd = *c.compiled;
    const model::Assumption& rental = c.a.at("gpu_hour_price_usd");
    const model::Assumption& decay = c.a.at("gpu_rental_price_decay_per_year");
    const model::Assumption& decline = c.a.at("gpu_price_decline_per_year");
    // One generation per rack type (a few dozen), then a sum over the rack classes.
    std::vector<Generation> perRack(cd.types.size());
    for (std::size_t i = 0; i < cd.types.size(); ++i) {
        const auto& type = cd.types[i];
        if (!type.item || !std::isfinite(type.gpus) || !(type.gpus > 0.0)) continue;
        const std::string acc = type.item->attribute("accelerator");
        const model::CatalogItem* item = c.catalog.find(acc);
        if (item) accelerators.emplace(acc, item);
        const auto value = [&](const char* field, const model::Assumption& fallback, bool curve = true) {
            const model::CatalogValue* v = item ? item->find(field) : nullptr;
            if (!v && curve) missing.emplace(acc.empty() ? type.id : acc, field);
            return v ? std::array{v->base, v->low, v->high}
                     : std::array{fallback.base, fallback.low, fallback.high};
        };
        Generation& g = perRack[i];
        const double n = type.gpus;
        const auto r = value("rental_usd_per_gpu_hour", rental, false);
        const auto d = value("rental_price_decay_per_year", decay);
        const auto p = value("price_decline_per_year", decline);
        const model::CatalogValue* price = item ? item->find("price_usd") : nullptr;
        g = {n,        n * r[0], n * d[0],
             n * d[1], n * d[2], n * p[0],
             n * p[1], n * p[2], price ? n * price->base : 0.0};
    }
    std::vector<Generation> halls(c.p.halls.size());
    for (const auto& cls : cd.classes) {
        if (cls.hall == CompiledDesign::kNone || cls.type == CompiledDesign::kNone) continue;
        Generation g = perRack[static_cast<std::size_t>(cls.type)];
        for (double* x : {&g.gpus, &g.rental, &g.decay, &g.decayLow, &g.decayHigh, &g.decline, &g.declineLow,
                          &g.declineHigh, &g.gpuCapex})
            *x *= cls.count;
        halls[static_cast<std::size_t>(cls.hall)].add(g);
    }
    return halls;
}

/// Which of a hall's generation figures its phase carries: each only while the design-wide value is the
/// catalog's (no design or override sets it), so that a set assumption holds for every phase.
struct GenerationUse {
    bool rentalFactor = false, decay = false, decline = false;
    double designRental = 0; ///< the design's GPU-weighted rental price from the same sums (USD/GPU-h)
    double itCapex = 0;      ///< the design's IT capex (USD), split over the phases by their GPUs
};

/// The phases: each data hall with racks, energised at its own date, else its building's, else the
/// reference delivery; its shares of the design's GPUs and rack power, and its GPU generation.
/// nullopt after an Error rule.
std::optional<std::vector<TimelinePhaseInput>>
phasesOf(EvalContext& c, const std::optional<model::CalendarDate>& buildStart, int referenceMonth, int months,
         const std::vector<Generation>& generations, const GenerationUse& use) {
    const model::Project& p = c.p;
    // GPUs and full-load rack power per hall, summed over the compiled rack classes (a few hundred for
    // thousands of racks; cost/compiled_design.h); racks outside a hall or of an unknown type have rules of
    // their own.
    const CompiledDesign& cd = *c.compiled;
    std::vector<double> gpus(p.halls.size(), 0.0), power(p.halls.size(), 0.0);
    double gpuTotal = 0.0, powerTotal = 0.0;
    for (const auto& cls : cd.classes) {
        if (cls.hall == CompiledDesign::kNone || cls.type == CompiledDesign::kNone) continue;
        const auto& type = cd.types[static_cast<std::size_t>(cls.type)];
        const double g = std::isfinite(type.gpus) ? type.gpus * cls.count : 0.0;
        const double w = std::isfinite(type.powerLoadW) ? type.powerLoadW * cls.count : 0.0;
        gpus[static_cast<std::size_t>(cls.hall)] += g, power[static_cast<std::size_t>(cls.hall)] += w;
        gpuTotal += g, powerTotal += w;
    }
    bool ok = true;
    // Each site's own grid interconnect date, counted like an energisation date.
    std::map<std::string, int> siteGridMonth;
    for (const auto& site : p.sites) {
        if (site.gridInterconnectDate.empty()) continue;
        const auto grid = phaseMonth(c, buildStart, site.gridInterconnectDate, site.id,
                                     "sites." + site.id + ".grid_interconnect_date", referenceMonth);
        ok = ok && grid.has_value();
        if (grid) siteGridMonth[site.id] = *grid;
    }
    std::vector<TimelinePhaseInput> phases;
    for (std::size_t i = 0; i < p.halls.size(); ++i) {
        if (gpus[i] <= 0.0 && power[i] <= 0.0) continue;
        const model::DataHall& hall = p.halls[i];
        const auto b = c.buildings.find(hall.building);
        const model::Building* building = b == c.buildings.end() ? nullptr : b->second;
        std::optional<int> month;
        std::string entity = hall.id, field = "halls." + hall.id + ".energisation_date";
        if (!hall.energisationDate.empty()) {
            month = phaseMonth(c, buildStart, hall.energisationDate, entity, field, referenceMonth);
        } else if (building && !building->energisationDate.empty()) {
            entity = building->id, field = "buildings." + building->id + ".energisation_date";
            month = phaseMonth(c, buildStart, building->energisationDate, entity, field, referenceMonth);
        } else {
            month = referenceMonth;
        }
        if (month && *month >= months) {
            c.r.rules.push_back({Severity::Error, "horizon_shorter_than_build", entity,
                                 field + " falls in month " + std::to_string(*month) +
                                     " of the build, after the horizon ends (construction_months + 12 x "
                                     "horizon_years = " +
                                     std::to_string(months) +
                                     " months): lengthen assumptions.horizon_years; the timeline is not "
                                     "computed"});
            month.reset();
        }
        ok = ok && month.has_value();
        if (!month) continue;
        TimelinePhaseInput ph;
        ph.hall = hall.id;
        ph.building = hall.building;
        ph.energisationMonth = *month;
        if (building) {
            ph.site = building->site;
            if (const auto grid = siteGridMonth.find(building->site); grid != siteGridMonth.end())
                ph.gridMonth = grid->second;
        }
        ph.gpuShare = gpuTotal > 0 ? gpus[i] / gpuTotal : power[i] / powerTotal;
        ph.powerShare = powerTotal > 0 ? power[i] / powerTotal : ph.gpuShare;
        ph.economicRefresh = hall.refreshPolicy == "economic";
        if (const Generation& g = generations[i]; g.gpus > 0.0) {
            if (use.rentalFactor && use.designRental > 0.0)
                ph.rentalPriceFactor = g.rental / g.gpus / use.designRental;
            if (use.decay) ph.rentalDecayPerYear = g.decay / g.gpus;
            if (use.decline) ph.gpuPriceDeclinePerYear = g.decline / g.gpus;
            const double it = use.itCapex * ph.gpuShare;
            ph.gpuCapexShare = it > 0.0 ? std::min(1.0, g.gpuCapex / it) : 0.0;
        }
        phases.push_back(std::move(ph));
    }
    if (!ok) return std::nullopt;
    if (phases.empty()) { // no racks in any hall: the whole design as one phase at the reference delivery
        TimelinePhaseInput ph;
        ph.hall = p.info.id;
        ph.energisationMonth = referenceMonth;
        ph.gpuShare = ph.powerShare = 1.0;
        phases.push_back(std::move(ph));
    }
    return phases;
}

/// The steady-state totals of the finance stage, split by what drives them (cost/timeline.h).
TimelineInputs timelineInputs(EvalContext& c) {
    const AssumptionValues& a = c.a;
    const Results& r = c.r;
    const FinanceResult& fin = r.finance;
    TimelineInputs in;
    in.constructionMonths = fin.constructionMonths;
    in.horizonYears = static_cast<int>(fin.cashFlows.empty() ? 0 : fin.cashFlows.size() - 1);
    in.wacc = a.get("wacc");
    in.taxRate = a.get("tax_rate");
    in.deliveryToRevenueDays = fin.timeToRevenueDays;
    in.rentalDecayPerYear = a.get("gpu_rental_price_decay_per_year");
    in.gpuPriceDeclinePerYear = a.get("gpu_price_decline_per_year");
    in.itPriceChangePerYear = a.get("it_cohort_price_change_per_year");
    in.rentalContractYears = a.get("gpu_rental_contract_years");
    // Bridge power until the grid interconnect: on-site generation at its fuel cost.
    in.gridMonth = static_cast<int>(std::clamp(a.get("grid_interconnect_month"), 0.0, 600.0));
    in.onsiteMw = std::max(0.0, c.onsiteMw);
    for (const auto& sp : c.r.power.sites)
        in.siteOnsiteMw[sp.siteId] = sp.onsiteMw; // each site's plant carries its own halls
    in.fuelUsdPerMwh = c.gasUsdPerKwh * 1e3;
    in.facilityEnergyMwhPerYear = fin.facilityEnergyAnnual.value() / 3.6e9;
    in.energyAnnual = fin.energyAnnual;
    in.land = fin.land;
    Money maintenanceItNet{}, maintenanceFacility{};
    for (const auto& ac : fin.assetClasses) {
        const TimelineAssetLife life{ac.lifeYears, ac.residualFraction};
        if (ac.name == "it") in.itCapex = ac.capex, in.it = life, maintenanceItNet += ac.maintenance;
        if (ac.name == "network")
            in.networkCapex = ac.capex, in.network = life, maintenanceItNet += ac.maintenance;
        if (ac.name == "facility") {
            in.facilityCapex = ac.capex - ac.capitalisedInterest; // the timeline computes its own IDC
            in.facility = life;
            maintenanceFacility += ac.maintenance;
        }
    }
    // Insurance is on the capex less land and property tax on the whole capex (evaluate_finance.cpp), so
    // each splits in proportion to the capex of what drives it.
    const double total = r.capex.total.value();
    const double insured = total - fin.land.value();
    const double itNet = (in.itCapex + in.networkCapex).value();
    const double facility = in.facilityCapex.value();
    const double insurance = fin.insuranceAnnual.value(), property = fin.propertyTaxAnnual.value();
    in.opexGpuDriven = fin.softwareAnnual + maintenanceItNet +
                       (safeDiv(insurance * itNet, insured) + safeDiv(property * itNet, total)) * usd;
    in.opexPowerDriven = fin.energyAnnual + fin.staffAnnual + maintenanceFacility +
                         (safeDiv(insurance * facility, insured) + safeDiv(property * facility, total)) * usd;
    in.opexSiteDriven = fin.wanLeaseAnnual + safeDiv(property * fin.land.value(), total) * usd;
    in.gpuHoursPerYear = fin.gpuHoursPerYear;
    in.gpuHourPrice = fin.gpuHourPrice;
    in.gpus = c.bom.gpus;
    in.itPeakMw = toMw(r.power.itPeak);
    in.facilityPeakMw = toMw(r.power.facilityPeak);
    return in;
}

/// The design-wide value of a generation curve: the GPU-weighted mean of the catalog's
/// per-accelerator values (base, low and high alike), in place of the shipped default unless the design or
/// an override sets it (InputResolver::derivedDefault, as the GPU-hour price). True when the catalog's
/// values hold (the phases then carry their own generation's).
bool designCurve(EvalContext& c, const char* key, const char* field, const Generation& design,
                 double Generation::*base, double Generation::*low, double Generation::*high,
                 const std::map<std::string, const model::CatalogItem*>& accelerators, double& value) {
    if (!(design.gpus > 0.0)) return false;
    model::Assumption derived = c.a.at(key);
    derived.base = design.*base / design.gpus;
    derived.low = design.*low / design.gpus;
    derived.high = design.*high / design.gpus;
    if (c.recordsProvenance()) {
        std::string text = "GPU-weighted mean of the catalog's " + std::string(field) +
                           " over the design's accelerators (data/catalog/accelerators.json):";
        for (const auto& [id, item] : accelerators) {
            const model::CatalogValue* v = item->find(field);
            text += " " + id + " " +
                    (v ? fmt(v->base, 2) + " (" + v->source + ")"
                       : fmt(derived.base, 2) + " (no curve: the shipped assumption)");
            derived.estimate = derived.estimate || !v || v->estimate;
        }
        derived.source = text;
    }
    value = c.inputs.derivedDefault(key, derived);
    return c.inputs.assumptionLevel(key) == InputLevel::Default;
}

} // namespace

void evaluateTimeline(EvalContext& c) {
    if (!c.wantsPrefix("timeline.")) return;
    Results& r = c.r;
    if (r.finance.cashFlows.empty()) return; // no horizon: the finance stage said why
    std::optional<model::CalendarDate> buildStart;
    if (!c.p.info.buildStart.empty()) {
        buildStart = model::parseCalendarDate(c.p.info.buildStart);
        if (!buildStart) {
            r.rules.push_back({Severity::Error, "bad_date", c.p.info.id,
                               "project.build_start: " + model::calendarDateProblem(c.p.info.buildStart) +
                                   "; the timeline is not computed"});
            return;
        }
    }
    TimelineInputs in = timelineInputs(c);
    in.buildStart = buildStart;
    const int months = in.constructionMonths + 12 * in.horizonYears;
    // Each hall's GPU generation: its rental price, rental decay and purchase price decline.
    std::set<std::pair<std::string, std::string>> missing; // (accelerator, field)
    std::map<std::string, const model::CatalogItem*> accelerators;
    const std::vector<Generation> generations = generationsByHall(c, missing, accelerators);
    Generation design;
    for (const auto& g : generations)
        design.add(g);
    GenerationUse use;
    use.decay = designCurve(c, "gpu_rental_price_decay_per_year", "rental_price_decay_per_year", design,
                            &Generation::decay, &Generation::decayLow, &Generation::decayHigh, accelerators,
                            in.rentalDecayPerYear);
    use.decline = designCurve(c, "gpu_price_decline_per_year", "price_decline_per_year", design,
                              &Generation::decline, &Generation::declineLow, &Generation::declineHigh,
                              accelerators, in.gpuPriceDeclinePerYear);
    use.rentalFactor = r.finance.gpuHourPriceFromCatalog;
    use.designRental = design.gpus > 0.0 ? design.rental / design.gpus : 0.0;
    use.itCapex = in.itCapex.value();
    for (const auto& [acc, field] : missing)
        if ((field == "rental_price_decay_per_year" && use.decay) ||
            (field == "price_decline_per_year" && use.decline))
            r.rules.push_back(
                {Severity::Warning, "cohort_without_price_curve", acc,
                 "Accelerator " + acc + " has no " + field +
                     " in the catalog: its cohorts' prices move at the shipped assumptions." +
                     (field == "price_decline_per_year" ? std::string("gpu_price_decline_per_year")
                                                        : std::string("gpu_rental_price_decay_per_year")) +
                     "; give the accelerator its own curve (data/FORMAT.md §1)"});
    auto phases = phasesOf(c, buildStart, in.constructionMonths, months, generations, use);
    if (!phases) return;
    // Without phasing: every phase at the reference delivery, the steady state's schedule on monthly flows.
    if (c.wants("timeline.npv_without_phasing_usd")) {
        in.phases = *phases;
        in.computeIrr = false; // only its NPV is reported
        for (auto& ph : in.phases)
            ph.energisationMonth = in.constructionMonths;
        const Timeline unphased = computeTimeline(in);
        if (!unphased.months.empty()) c.timelineNpvWithoutPhasing = unphased.npv.value();
    }
    // Selling tokens: the same phases with the priced services' GPUs at their token
    // revenue per GPU-hour (cost/evaluate_token_economics.cpp), which falls with age like the rental price.
    if (c.tokenBlendedGpuHourPrice && c.wants("timeline.npv_token_revenue_usd")) {
        TimelineInputs tokens = in;
        tokens.phases = *phases;
        tokens.computeIrr = false;
        tokens.gpuHourPrice = *c.tokenBlendedGpuHourPrice;
        const Timeline sold = computeTimeline(tokens);
        if (!sold.months.empty()) c.timelineNpvTokenRevenue = sold.npv.value();
    }
    in.phases = std::move(*phases);
    in.computeIrr = c.wants("timeline.irr");
    auto timeline = std::make_shared<Timeline>(computeTimeline(in));
    // The month's serving rate: every service's steady-state output tokens/s on the GPUs earning that month
    // (a service grows with the GPUs energised, its tokens per GPU as in the steady state).
    double outputTokens = 0.0;
    for (const auto& ir : r.inference)
        outputTokens += ir.sizing.outputTokensPerSecond;
    if (outputTokens > 0.0 && in.gpus > 0.0)
        for (auto& m : timeline->months)
            m.outputTokensPerS = outputTokens * m.gpusEarning / in.gpus;
    for (const auto& rule : timeline->rules)
        r.rules.push_back(rule);
    if (timeline->months.empty()) return;
    if (timeline->gpuHoursWaitingForGrid > 0)
        r.rules.push_back(
            {Severity::Warning, "halls_wait_for_grid", c.p.info.id,
             "Halls energised before their site's grid interconnect (sites.<id>.grid_interconnect_date, "
             "else assumptions.grid_interconnect_month = " +
                 std::to_string(in.gridMonth) + ") run on their site's share of " + fmt(in.onsiteMw, 1) +
                 " MW of on-site generation (onsite_generation_mw): " +
                 fmt(timeline->gpuHoursWaitingForGrid / 1e6, 2) +
                 " M GPU-hours wait for the grid, unsold; bridge with more on-site MW or energise later"});
    for (const auto& ph : timeline->phases) {
        const int drawn = ph.input.energisationMonth;
        if (drawn < in.constructionMonths && ph.input.powerShare > 0)
            r.rules.push_back(
                {Severity::Warning, "construction_compressed", ph.input.hall,
                 "Hall " + ph.input.hall + " is energised " + std::to_string(drawn) +
                     " months after the build start, sooner than assumptions.construction_months (" +
                     std::to_string(in.constructionMonths) + "): its facility capex is drawn over " +
                     std::to_string(drawn) + " months"});
    }
    r.timeline = std::move(timeline);
}

void addTimelineFigures(EvalContext& c) {
    if (!c.r.timeline) return;
    const Timeline& t = *c.r.timeline;
    const std::string at = "valued at the reference delivery (build start + construction_months)";
    addFigure(
        c, "timeline.npv_usd", t.npv.value(), "USD", "NPV, phased timeline",
        "sum of the monthly cash flows (phased draws, IT on delivery at its GPU generation's price of that "
        "month, revenue at the generation's rental price decayed from the reference delivery, opex, yearly "
        "tax, refresh, terminal value) x (1 + wacc)^(-(t - reference)/12); " +
            at,
        {{"phases", static_cast<double>(t.phases.size())}},
        {c.source("wacc"), c.source("gpu_rental_price_decay_per_year"),
         c.source("gpu_price_decline_per_year"), c.source("gpu_rental_contract_years"),
         c.source("it_cohort_price_change_per_year"), c.source("construction_months")});
    if (c.timelineNpvWithoutPhasing)
        addFigure(c, "timeline.npv_without_phasing_usd", *c.timelineNpvWithoutPhasing, "USD",
                  "NPV, timeline without phasing",
                  "timeline.npv_usd with every hall energised at the reference delivery; " + at, {},
                  {c.source("construction_months")});
    if (c.timelineNpvTokenRevenue)
        addFigure(c, "timeline.npv_token_revenue_usd", *c.timelineNpvTokenRevenue, "USD",
                  "NPV, phased timeline, selling tokens",
                  "timeline.npv_usd with the priced inference services' GPUs earning their token revenue per "
                  "GPU-hour (inference.token_revenue_per_gpu_hour_usd, net of licence) instead of the rental "
                  "price, falling with its GPU generation's rental price decay "
                  "(gpu_rental_price_decay_per_year); " +
                      at,
                  {{"blended_usd_per_gpu_hour", c.tokenBlendedGpuHourPrice.value_or(0.0)}},
                  {c.source("gpu_rental_price_decay_per_year"), c.source("model_licence_revenue_share")});
    if (t.irr)
        addFigure(c, "timeline.irr", *t.irr, "", "IRR, phased timeline",
                  "XIRR of the monthly cash flows on year fractions (months / 12)");
    addFigure(c, "timeline.peak_funding_usd", t.peakFunding.value(), "USD", "Peak funding need",
              "max over months of -(cumulative cash flow without terminal value)",
              {{"month", static_cast<double>(t.peakFundingMonth)}});
    addFigure(c, "timeline.peak_funding_month", t.peakFundingMonth, "months", "Month of peak funding",
              "months after the build start");
    if (t.paybackMonth)
        addFigure(c, "timeline.payback_month", *t.paybackMonth, "months", "Payback month",
                  "first month after the build start in which the cumulative cash flow (no terminal value) "
                  "is back at or above 0");
    addFigure(c, "timeline.interest_during_construction_usd", t.interestDuringConstruction.value(), "USD",
              "Interest during construction, phased",
              "sum over phases of each facility draw x ((1 + wacc)^((energisation - t)/12) - 1), land to the "
              "first energisation",
              {}, {c.source("wacc")});
    const bool siteDates = std::any_of(c.p.sites.begin(), c.p.sites.end(),
                                       [](const model::Site& s) { return !s.gridInterconnectDate.empty(); });
    if (c.a.get("grid_interconnect_month") > 0 || siteDates) {
        addFigure(c, "timeline.bridge_months", t.bridgeMonths, "months", "Months on bridge power",
                  "months with an energised hall before its site's grid interconnect (the site's "
                  "grid_interconnect_date, else assumptions.grid_interconnect_month)",
                  {}, {c.source("grid_interconnect_month")});
        addFigure(
            c, "timeline.bridge_fuel_usd", t.bridgeFuel.value(), "USD", "Bridge power fuel",
            "sum over months before the interconnect of each hall's facility energy x powered share x heat "
            "rate x fuel price (its grid energy removed)",
            {{"onsite_mw", c.onsiteMw}},
            {c.source("onsite_generation_mw"), c.source("onsite_generation_heat_rate_btu_per_kwh"),
             c.source("fuel_price_usd_per_mmbtu")});
        addFigure(
            c, "timeline.gpu_hours_waiting_for_grid", t.gpuHoursWaitingForGrid, "GPU-h",
            "GPU-hours waiting for the grid",
            "sum over months before the interconnect of the GPU-hours a hall would sell x (1 - on-site MW / "
            "energised facility peak MW, at most 1): unpowered, unsold",
            {}, {c.source("grid_interconnect_month"), c.source("onsite_generation_mw")});
    }
    addFigure(c, "timeline.first_energisation_month", t.firstEnergisationMonth, "months",
              "First energisation", "months after the build start");
    addFigure(c, "timeline.full_energisation_month", t.fullEnergisationMonth, "months", "Full energisation",
              "months after the build start when the last hall is energised");
    if (t.economicRefreshAgeYears)
        addFigure(c, "timeline.economic_refresh_age_years", *t.economicRefreshAgeYears, "yr",
                  "Economic refresh age",
                  "ln(1 - C x CRF(wacc, IT life) / R0) / ln(1 - d): the cohort age at which a new cohort's "
                  "extra margin pays its capital charge (cost/timeline.h refreshAge)",
                  {}, {c.source("gpu_rental_price_decay_per_year"), c.source("wacc")});
    int firstRefresh = -1;
    for (const auto& ph : t.phases)
        if (!ph.itRefreshMonths.empty() && (firstRefresh < 0 || ph.itRefreshMonths.front() < firstRefresh))
            firstRefresh = ph.itRefreshMonths.front();
    if (firstRefresh >= 0)
        addFigure(
            c, "timeline.first_it_refresh_month", firstRefresh, "months", "First GPU refresh",
            "months after the build start when the first cohort is replaced (its hall's refresh_policy)");
}

} // namespace ctwin::cost::detail
