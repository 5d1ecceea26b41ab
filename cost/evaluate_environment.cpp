// Energy, carbon and water: location-based operational carbon from each building's
// annual facility energy and its climate location's grid (data/grid_carbon.json, cost/grid_carbon.h), and
// on-site water from the heat the evaporative plants reject (cost/power_envelope.h); per year and per
// million output tokens of the first inference service.
#include "evaluate_stages.h"
#include "grid_carbon.h"
#include "input_error.h"

#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;

namespace {

/// Embodied carbon, cradle-to-gate: GPUs x the servers' per GPU (host included) and the IT
/// at full load x the building's and its plant's per MW; each spread straight over its asset class's life
/// (the finance stage's IT and facility lives), the convention of the GHG Protocol's amortised
/// capital-goods reporting (Scope 3 category 2 is reported in the year bought; a per-token figure spreads it
/// over the years the asset serves). Network gear and storage are left out (no sourced per-unit figure).
void addEmbodiedCarbon(EvalContext& c) {
    const Results& r = c.r;
    auto& e = c.environment;
    e.embodiedItT = c.bom.gpus * c.a.get("embodied_carbon_kgco2e_per_gpu") / 1e3;
    e.embodiedBuildingT = toMw(r.power.itPeak) * c.a.get("embodied_carbon_tco2e_per_mw_it");
    double itLife = 0, facilityLife = 0;
    for (const auto& ac : r.finance.assetClasses) {
        if (ac.name == "it") itLife = ac.lifeYears;
        if (ac.name == "facility") facilityLife = ac.lifeYears;
    }
    e.embodiedPerYearT = safeDiv(e.embodiedItT, itLife) + safeDiv(e.embodiedBuildingT, facilityLife);
}

} // namespace

void evaluateEnvironment(EvalContext& c) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    auto& e = c.environment;
    // Annual energy: each building's annual-average facility power over a year (SPEC.md §4.2 operating
    // point: utilization and the climate's twelve months); racks outside any building at their IT power.
    const double hours = kHoursPerYear;
    std::shared_ptr<const GridCarbonTable> grid;
    try {
        grid = defaultGridCarbonTable();
    } catch (const model::InputError& err) {
        r.rules.push_back(
            {Severity::Warning, "grid_carbon_file", "", std::string("No carbon figures: ") + err.what()});
    }
    std::set<std::string> sources;
    for (const auto& bp : r.power.buildings) {
        const double kwh = bp.facilityOperating.value() / 1e3 * hours;
        e.energyKwh += kwh;
        const GridCarbon* g = grid && !bp.climateLocation.empty() ? grid->find(bp.climateLocation) : nullptr;
        if (!g) {
            if (kwh > 0 && grid)
                r.rules.push_back({Severity::Warning, "grid_carbon_unknown", bp.buildingId,
                                   "Building " + bp.buildingId + " (site " + bp.siteId + "): " + grid->file +
                                       " has no grid entry for climate location '" + bp.climateLocation +
                                       "'; its energy is left out of the carbon figures"});
            continue;
        }
        e.carbonG += kwh * g->gco2ePerKwh;
        e.coveredKwh += kwh;
        if (sources.size() < 4)
            sources.insert(grid->file + ": " + g->id + ", " + g->region + " " + std::to_string(g->year) +
                           ": " + g->source);
    }
    e.energyKwh += c.orphanIt.value() / 1e3 * hours;
    // On-site generation serves its share of every building's energy at the gas factor.
    if (c.onsiteShare > 0) {
        e.carbonG = e.carbonG * (1.0 - c.onsiteShare) + e.energyKwh * c.onsiteShare * c.gasGco2ePerKwh;
        e.coveredKwh = e.coveredKwh * (1.0 - c.onsiteShare) + e.energyKwh * c.onsiteShare;
        sources.insert(
            "US EPA GHG Emission Factors Hub 2024: natural gas 53.06 kg CO2, 1 g CH4, 0.1 g N2O per "
            "MMBtu (AR5 GWP)");
    }
    e.intensity = safeDiv(e.carbonG, e.coveredKwh); // g/kWh, energy-weighted
    e.carbonSources.assign(sources.begin(), sources.end());
    // The battery's round-trip losses are energy bought too, at the same mix.
    if (const double lossKwh = c.bessLossMwhPerYear * 1e3; lossKwh > 0) {
        e.energyKwh += lossKwh;
        e.carbonG += lossKwh * e.intensity;
        e.coveredKwh += lossKwh;
    }
    addEmbodiedCarbon(c);
    // Water: evaporation and blow-down of the plants that evaporate (cost/power_envelope.h), over the IT
    // energy (The Green Grid, WP #35 'Water Usage Effectiveness', 2011: site water / IT energy).
    // The evaporation follows each building's climate hour by hour (power stage); blow-down keeps the
    // dissolved solids at `cycles` of concentration: make-up = evaporation x cycles / (cycles - 1).
    const double cycles = a.get("cooling_tower_cycles_of_concentration");
    e.waterL = cycles > 1.0 ? c.evaporationKgPerHour * hours * cycles / (cycles - 1.0) : 0.0;
    e.litresPerKwhHeat = safeDiv(e.waterL, c.evaporativeHeatW / 1e3 * hours);
    // The evaporation as a share of the heat at the tower rule's 1,000 Btu/lb (2.326 MJ/kg), to compare
    // with the rule's 0.85.
    e.evaporatedShare = safeDiv(c.evaporationKgPerHour * 2.326, c.evaporativeHeatW / 1e3 * 3.6);
    e.itKwh = r.power.itOperating.value() / 1e3 * hours;
    e.wue = safeDiv(e.waterL, e.itKwh);
    // Per million output tokens of the first service: its facility energy at the operating point (racks at
    // the mean prefill/decode draw at its clock, plus its share of the network and storage, times the annual
    // PUE) over its output tokens.
    if (r.inference.empty() || c.p.inferenceServices.empty() || c.inferenceBusyDrawShare.empty()) return;
    const double gpus = c.p.inferenceServices.front().gpus;
    const double sharedPerGpu = safeDiv((r.power.itOperating - r.power.compute).value(), c.bom.gpus);
    const double itW = gpus * (c.rackLoadWPerGpu * c.inferenceBusyDrawShare.front() + sharedPerGpu);
    const double secondsPerMillion = safeDiv(1e6, r.inference.front().sizing.outputTokensPerSecond);
    e.kwhPerMillionOutput = itW * r.power.pueAnnual * secondsPerMillion / 3.6e6;
    // Embodied per M output tokens: the service's GPUs' share of the embodied carbon a year over the output
    // tokens it makes in a year (tokens/s at the operating point x the hours it runs: utilization x facility
    // availability, the GPU-hours sold).
    const double tokensPerYear = r.inference.front().sizing.outputTokensPerSecond * kHoursPerYear * 3600.0 *
                                 c.utilization * r.power.facilityAvailability;
    e.embodiedPerMillionOutputG =
        safeDiv(e.embodiedPerYearT * 1e6 * safeDiv(gpus, c.bom.gpus) * 1e6, tokensPerYear);
    e.perToken = true;
}

void addEnvironmentFigures(EvalContext& c) {
    const Results& r = c.r;
    const auto& e = c.environment;
    addFigure(c, "environment.facility_energy_mwh_per_year", e.energyKwh / 1e3, "MWh/yr",
              "Facility energy per year (annual average power)",
              "sum over buildings of annual-average facility power x 8,766 h (at the utilization and the "
              "climate's twelve months)",
              {{"facility_mw", toMw(r.power.facility)}}, {c.source("utilization")});
    addFigure(
        c, "environment.grid_carbon_gco2e_per_kwh_location_based", e.intensity, "gCO2e/kWh",
        "Carbon intensity of the energy, location-based (grid and on-site generation)",
        "sum(energy x grid factor of the building's climate location, on-site share at the gas factor) / "
        "energy",
        {}, e.carbonSources);
    addFigure(c, "environment.carbon_tco2e_per_year_location_based", e.carbonG / 1e6, "tCO2e/yr",
              "Operational carbon per year, location-based (scope 2)",
              "sum over buildings of annual facility energy x the grid's average factor (GHG Protocol "
              "Scope 2 location-based; PPAs and certificates not counted)",
              {{"covered_energy_mwh", e.coveredKwh / 1e3}}, e.carbonSources);
    addFigure(
        c, "environment.water_m3_per_year_onsite", e.waterL / 1e3, "m3/yr",
        "On-site water per year (cooling)",
        "heat rejected by evaporative plants (heat + plant input, annual mean) x 8,766 h x water evaporated "
        "per kWh x cycles / (cycles - 1); the evaporation per kWh follows each site's climate through its "
        "hour classes (the tower's psychrometric balance: cold dry hours reject more heat sensibly), the "
        "CTI rating point's air without a climate; dry coolers use none",
        {{"evaporative_heat_mw", c.evaporativeHeatW / 1e6},
         {"litres_per_kwh_heat", e.litresPerKwhHeat},
         {"evaporated_share_of_heat", e.evaporatedShare}},
        {c.source("cooling_tower_liquid_gas_ratio"), c.source("cooling_tower_cycles_of_concentration"),
         "ASHRAE Handbook-Fundamentals 2021 ch. 1 (psychrometrics); ASHRAE Handbook-HVAC Systems and "
         "Equipment 2020 ch. 40 (cooling towers)"});
    addFigure(c, "environment.embodied_carbon_tco2e_cradle_to_gate", e.embodiedItT + e.embodiedBuildingT,
              "tCO2e", "Embodied carbon, servers and building (cradle-to-gate, once)",
              "GPUs x embodied kgCO2e per GPU (server, host included) + IT MW at full load x building and "
              "plant tCO2e per MW; network and storage gear not counted",
              {{"servers_t", e.embodiedItT}, {"building_t", e.embodiedBuildingT}},
              {c.source("embodied_carbon_kgco2e_per_gpu"), c.source("embodied_carbon_tco2e_per_mw_it")});
    addFigure(c, "environment.embodied_carbon_tco2e_per_year_amortized", e.embodiedPerYearT, "tCO2e/yr",
              "Embodied carbon per year (amortised straight over the IT and facility lives)",
              "servers' embodied / IT life + building's embodied / facility life",
              {{"servers_t", e.embodiedItT}, {"building_t", e.embodiedBuildingT}},
              {c.source("embodied_carbon_kgco2e_per_gpu"), c.source("embodied_carbon_tco2e_per_mw_it")});
    addFigure(c, "environment.wue_l_per_kwh", e.wue, "L/kWh", "WUE, on-site (annual)",
              "on-site water / IT energy (The Green Grid WP #35)", {{"it_energy_mwh", e.itKwh / 1e3}});
    if (!e.perToken) return;
    addFigure(c, "environment.facility_kwh_per_million_output_tokens", e.kwhPerMillionOutput, "kWh/M tok",
              "Facility energy per M output tokens (first service, at its operating point)",
              "GPUs x (full-load rack power per GPU x mean rack draw over prefill and decode + network and "
              "storage per GPU) x annual PUE / output tokens/s",
              {{"rack_draw_share", c.inferenceBusyDrawShare.front()},
               {"rack_load_w_per_gpu", c.rackLoadWPerGpu},
               {"pue_annual", r.power.pueAnnual}},
              {c.source("inference_prefill_power_draw"), c.source("inference_decode_power_draw")});
    addFigure(c, "environment.carbon_gco2e_per_million_output_tokens_location_based",
              e.kwhPerMillionOutput * e.intensity, "gCO2e/M tok",
              "Carbon per M output tokens, location-based (first service)",
              "facility kWh per M output tokens x location-based grid intensity",
              {{"grid_gco2e_per_kwh", e.intensity}}, e.carbonSources);
    addFigure(c, "environment.carbon_gco2e_per_million_output_tokens_embodied", e.embodiedPerMillionOutputG,
              "gCO2e/M tok", "Embodied carbon per M output tokens, amortised (first service)",
              "embodied carbon a year x service GPUs / all GPUs / (output tokens/s x 8,766 h x 3,600 s x "
              "utilization x facility availability)",
              {{"embodied_t_per_year", e.embodiedPerYearT}, {"utilization", c.utilization}},
              {c.source("embodied_carbon_kgco2e_per_gpu"), c.source("embodied_carbon_tco2e_per_mw_it")});
    addFigure(c, "environment.carbon_gco2e_per_million_output_tokens_operational_plus_embodied",
              e.kwhPerMillionOutput * e.intensity + e.embodiedPerMillionOutputG, "gCO2e/M tok",
              "Carbon per M output tokens, operational (location-based) plus embodied (first service)",
              "location-based operational + amortised embodied, per M output tokens",
              {{"operational_g", e.kwhPerMillionOutput * e.intensity},
               {"embodied_g", e.embodiedPerMillionOutputG}},
              e.carbonSources);
    addFigure(c, "environment.water_l_per_million_output_tokens_onsite",
              safeDiv(e.kwhPerMillionOutput, r.power.pueAnnual) * e.wue, "L/M tok",
              "On-site water per M output tokens (first service)", "IT kWh per M output tokens x WUE",
              {{"wue_l_per_kwh", e.wue}});
}

} // namespace ctwin::cost::detail
