#include "evaluate_stages.h"
#include "power_chain.h"

#include "climate.h"
#include "cooling_plant.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

void evaluatePower(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = c.bom;
    // ---- Power (SPEC.md §4.2) ----
    // Rack power at utilization u: idle + (load - idle)·u (linear server power model, Fan, Weber & Barroso,
    // "Power Provisioning for a Warehouse-sized Computer", ISCA 2007); hot spares idle.
    auto& perBuilding = c.perBuilding;
    for (const auto& b : p.buildings) {
        auto& bp = perBuilding[b.id];
        bp.buildingId = b.id, bp.siteId = b.site, bp.capacity = b.powerCapacity;
    }
    const auto& sitesById = c.sites;
    Power computePeak{}, computeOperating{};
    // Per building in one pass over the rack classes (cost/compiled_design.h: racks of one type, building and
    // spare flag draw alike), then into perBuilding.
    std::vector<Power> buildingPeak(p.buildings.size()), buildingOperating(p.buildings.size());
    std::vector<std::uint8_t> buildingHasRacks(p.buildings.size(), 0);
    const CompiledDesign& cd = *c.compiled;
    for (const auto& k : cd.classes) {
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        const double load = type.need(type.powerLoadW, "power_load_w"),
                     idle = type.need(type.powerIdleW, "power_idle_w");
        const double peak = k.count * (k.spare ? idle : load);
        const double operating = k.count * (k.spare ? idle : idle + (load - idle) * c.utilization);
        computePeak += peak * watt;
        computeOperating += operating * watt;
        if (k.building != CompiledDesign::kNone) {
            const auto b = static_cast<size_t>(k.building);
            buildingPeak[b] += peak * watt;
            buildingOperating[b] += operating * watt;
            buildingHasRacks[b] = 1;
        }
    }
    for (size_t b = 0; b < p.buildings.size(); ++b)
        if (buildingHasRacks[b]) {
            auto& bp = perBuilding[p.buildings[b].id];
            bp.itPeak += buildingPeak[b];
            bp.itOperating += buildingOperating[b];
        }
    for (const auto& f : bom.fabrics)
        r.power.network += f.power;
    for (const auto& l : bom.links)
        r.power.wan += l.power;
    r.power.storage = bom.storagePower;
    r.power.compute = computeOperating;
    r.power.computePeak = computePeak;
    // Network, storage and WAN gear run near-constant power; shared across buildings by compute share.
    const Power shared = r.power.network + r.power.storage + r.power.wan;
    r.power.itPeak = computePeak + shared;
    r.power.itOperating = computeOperating + shared;
    for (auto& [_, bp] : perBuilding) {
        const double w = safeDiv(bp.itPeak.value(), computePeak.value());
        bp.itPeak += w * shared;
        bp.itOperating += w * shared;
    }

    // ---- Heat rejection (cost/cooling_plant.h; issue 13 item 3, issue 19 item 8) ----
    // Each loop's liquid heat and pump work go to its own plant at its supply temperature; the rest of the
    // building's IT heat (air share of the racks, network, storage, WAN) to CRAH fans and the air-side
    // chilled-water plant (plant-chiller at air_chilled_water_supply_c). Plants run on the climate of the
    // building's site (data/climate.json), unless the site pins free_cooling_hours_per_year.
    std::unordered_map<std::string, Power> pumpsByBuilding;
    std::unordered_map<std::string, std::vector<LoopLoad>> loopsByBuilding;
    for (size_t i = 0; i < p.coolingLoops.size() && i < bom.loops.size(); ++i) {
        const auto& loop = p.coolingLoops[i];
        std::string b;
        if (auto h = c.halls.find(loop.hall); h != c.halls.end()) b = h->second->building;
        pumpsByBuilding[b] += bom.loops[i].pumpPower;
        loopsByBuilding[b].push_back(LoopLoad{catalog.find(loop.plant), loop.supplyTempC, loop.deltaT.value(),
                                              bom.loops[i].liquidHeat.value(), bom.loops[i].pumpPower.value()});
    }
    const auto climateTable = defaultClimateTable();
    for (const auto& s : p.sites)
        if (!s.climateLocation.empty() && !climateTable->find(s.climateLocation))
            r.rules.push_back({Severity::Error, "climate_location_unknown", s.id,
                               "Site " + s.name + ": climate_location '" + s.climateLocation + "' is not in " +
                                   climateTable->file + "; the nearest location is used"});
    const ClimateOptions climateOptions{a.get("climate_hourly_sd_dry_bulb_k"), a.get("climate_hourly_sd_wet_bulb_k"),
                                        a.get("compressor_cop_max_factor")};
    const double airSupplyC = a.get("air_chilled_water_supply_c"), airDeltaT = a.get("air_chilled_water_delta_t_k");
    const double crahFraction = a.get("crah_fan_power_fraction");
    const double misc = a.get("misc_facility_fraction");
    // Each building's plants (climate, air-side plant, loop plants), a function of the design, the bill of
    // materials, the climate table and the assumptions read above: computed here, or once per distinct set
    // of those assumptions across a scenario tool's variations (cost/evaluation_memo.h).
    auto planCooling = [&] {
        std::vector<BuildingCoolingPlan> plans(p.buildings.size());
        // The air side's chilled-water plant: plant-chiller; a catalog without it (built in code) uses the
        // building's first loop plant.
        const auto* chillerItem = catalog.find("plant-chiller");
        // The climate of each site, looked up once for all its buildings (the nearest location is a scan of
        // the whole table).
        std::vector<std::optional<const ClimateLocation*>> siteClimate(p.sites.size());
        for (size_t bi = 0; bi < p.buildings.size(); ++bi) {
            const auto& b = p.buildings[bi];
            auto& plan = plans[bi];
            const model::Site* site = nullptr;
            if (auto s = sitesById.find(b.site); s != sitesById.end()) site = s->second;
            if (site) {
                auto& climate = siteClimate[static_cast<size_t>(site - p.sites.data())];
                if (!climate) {
                    climate = climateLocationFor(*site, *climateTable);
                    if (!*climate) climate = climateTable->nearest(site->latDeg, site->lonDeg);
                }
                plan.climate = *climate;
            }
            const double* hoursOverride =
                site && site->freeCoolingHoursPerYear ? &*site->freeCoolingHoursPerYear : nullptr;
            static const std::vector<LoopLoad> kNoLoops;
            const auto loops = loopsByBuilding.find(b.id);
            const std::vector<LoopLoad>& buildingLoops =
                loops != loopsByBuilding.end() ? loops->second : kNoLoops;
            plan.airPlantItem = chillerItem;
            if (!plan.airPlantItem && !buildingLoops.empty()) plan.airPlantItem = buildingLoops.front().plant;
            const PlantParameters airPlant =
                plan.airPlantItem ? plantParameters(*plan.airPlantItem) : PlantParameters{};
            plan.cooling = buildingCooling(buildingLoops, airPlant, airSupplyC, airDeltaT, crahFraction,
                                           plan.climate, climateOptions, hoursOverride);
        }
        return plans;
    };
    std::shared_ptr<const std::vector<BuildingCoolingPlan>> coolingPlans;
    if (c.memo) {
        const CoolingPlanKey key{airSupplyC,
                                 airDeltaT,
                                 crahFraction,
                                 climateOptions.sigmaDryBulbK,
                                 climateOptions.sigmaWetBulbK,
                                 climateOptions.copMaxFactor};
        coolingPlans = c.memo->coolingPlan(c.bom, climateTable, key, planCooling);
    } else {
        coolingPlans = std::make_shared<const std::vector<BuildingCoolingPlan>>(planCooling());
    }
    Money& plantCapex = c.plantCapex;
    // Losses follow the chain in each rack's path (its A and B feeds' gear), cost/power_chain.cpp: every
    // building's path efficiency in one pass over the racks.
    const std::vector<double>& buildingEta = c.compiled->buildingPathEfficiency;
    double economizerHeat = 0, economizerHoursHeat = 0;
    for (const auto& b : p.buildings) {
        auto& bp = perBuilding[b.id];
        const BuildingCoolingPlan& plan = (*coolingPlans)[static_cast<size_t>(&b - p.buildings.data())];
        const ClimateLocation* climate = plan.climate;
        const model::CatalogItem* airPlantItem = plan.airPlantItem;
        const BuildingCooling& cooling = plan.cooling;
        // Losses follow the chain in each rack's path (its A and B feeds' gear), cost/power_chain.cpp.
        const double eta = buildingEta[&b - p.buildings.data()];
        auto facilityAt = [&](Power it, double loadScale, bool designDay, Power& pumps,
                              Power& plantPower, Power& losses, Power& miscP) {
            pumps = pumpsByBuilding[b.id] * loadScale;
            // Plant electric power: liquid heat + pump work over the loop plants' COP, air heat over the
            // air-side plant's plus CRAH fans (BuildingCooling::plantPowerW); all IT power ends up as heat.
            plantPower = cooling.plantPowerW(it.value(), loadScale, designDay) * watt;
            // Distribution losses through the feed chain: P_in = P_it / η.
            losses = eta > 0 ? it / eta - it : Power{};
            miscP = misc * it;
            return it + pumps + plantPower + losses + miscP;
        };
        Power pumps, plantPower, losses, miscP;
        const double loadScale = safeDiv(bp.itOperating.value(), bp.itPeak.value());
        // Peak: full load on the design day (ASHRAE 0.4%); operating: the annual average of the 12 months.
        bp.facilityPeak = facilityAt(bp.itPeak, 1.0, true, pumps, plantPower, losses, miscP);
        // The plants are sized for the heat at full load: each loop's plant for its liquid heat and pumps,
        // the air-side chilled-water plant for the air heat.
        plantCapex += cooling.plantCapexUsd * usd;
        if (airPlantItem)
            plantCapex += airPlantItem->value("capex_usd_per_w") * cooling.airHeatW(bp.itPeak.value(), 1.0) * usd;
        bp.facilityOperating = facilityAt(bp.itOperating, loadScale, false, pumps, plantPower, losses, miscP);
        {
            const double air = cooling.airHeatW(bp.itOperating.value(), loadScale);
            const double fans = crahFraction * air;
            bp.crahFans = fans * watt;
            bp.plantAir = (air + fans) * cooling.air.annualInverseCop * watt;
            bp.plantLiquid = plantPower - bp.plantAir - bp.crahFans;
            bp.climateLocation = climate ? climate->id : "";
            bp.economizerHoursLiquid = cooling.liquidEconomizerHours;
            bp.economizerHoursAir = cooling.air.economizerHours;
            const double liquid = (cooling.liquidHeatW + cooling.pumpW) * loadScale;
            economizerHeat += liquid + air;
            economizerHoursHeat += liquid * cooling.liquidEconomizerHours + air * cooling.air.economizerHours;
        }
        if (const auto pinned = inputs.buildingPuePinned(b)) {
            bp.facilityPeak = *pinned * bp.itPeak;
            bp.facilityOperating = *pinned * bp.itOperating;
        } else {
            r.power.pumps += pumps, r.power.plant += plantPower, r.power.losses += losses,
                r.power.misc += miscP;
            r.power.plantLiquid += bp.plantLiquid, r.power.plantAir += bp.plantAir, r.power.crahFans += bp.crahFans;
        }
        bp.pue = bp.itOperating.value() > 0 ? bp.facilityOperating.value() / bp.itOperating.value() : 1.0;
        bp.puePeak = bp.itPeak.value() > 0 ? bp.facilityPeak.value() / bp.itPeak.value() : 1.0;
        r.power.facility += bp.facilityOperating;
        r.power.facilityPeak += bp.facilityPeak;
        // The site's tariff, else the assumption (InputResolver records which).
        if (auto s = sitesById.find(b.site); s != sitesById.end())
            bp.tariff = inputs.siteTariff(*s->second);
        else
            bp.tariff = dollarsPerKwh(a.get("electricity_usd_per_kwh"));
        if (bp.capacity.value() > 0 && bp.facilityPeak > bp.capacity)
            r.rules.push_back({Severity::Error, "building_over_capacity", b.id,
                               "Building " + b.name + ": facility power at full load " +
                                   fmt(toMw(bp.facilityPeak), 1) + " MW exceeds its " +
                                   fmt(toMw(bp.capacity), 1) + " MW capacity"});
        if (bp.capacity.value() <= 0 && bp.itPeak.value() > 0)
            r.rules.push_back({Severity::Warning, "building_no_capacity", b.id,
                               "Building " + b.name + " has IT load but no power capacity set"});
    }
    for (auto& [_, bp] : perBuilding)
        r.power.buildings.push_back(bp);
    // Racks outside any building (orphans, flagged) still draw power.
    c.orphanIt = r.power.itOperating - [&] {
        Power s{};
        for (const auto& bp : r.power.buildings)
            s += bp.itOperating;
        return s;
    }();
    if (c.orphanIt.value() > 1e-6) r.power.facility += c.orphanIt;
    r.power.pue =
        r.power.itOperating.value() > 0 ? r.power.facility.value() / r.power.itOperating.value() : 1.0;
    // Annual PUE (energy) is the headline `pue`; peak PUE (design day, full load) sizes capacity.
    r.power.pueAnnual = r.power.pue;
    r.power.puePeak = r.power.itPeak.value() > 0 ? r.power.facilityPeak.value() / r.power.itPeak.value() : 1.0;
    r.power.economizerHours = safeDiv(economizerHoursHeat, economizerHeat);
}

void addPowerFigures(EvalContext& c) {
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    addFigure(c, "inventory.gpus", bom.gpus, "GPU", "GPUs", "sum over racks of catalog gpus per rack type",
              {{"racks", bom.racks}});
    addFigure(c, "inventory.racks", bom.racks, "rack", "Racks", "count of rack placements");
    addFigure(c, "inventory.sites", bom.sites, "site", "Sites", "count of sites");
    addFigure(c, "inventory.buildings", bom.buildings, "building", "Buildings", "count of buildings");
    addFigure(
        c, "inventory.switches", bom.switches, "switch", "Switches",
        "Clos sizing per fabric and plane: leaves ceil(E/d1), spines from uplinks, cores from spine uplinks");
    addFigure(c, "inventory.transceivers", bom.transceivers, "module", "Transceivers",
              "two per optical link (NIC side at endpoint speed, switch side at port speed), media by reach");
    addFigure(c, "inventory.cdus", bom.cdus, "CDU", "CDUs", "installed CDUs over all cooling loops");
    addFigure(c, "power.it_mw", toMw(r.power.itOperating), "MW", "IT power",
              "= power.it_total_mw (kept): racks at idle + (load - idle) x utilization, plus network "
              "(switches, switch-side optics), storage, WAN",
              {{"utilization", c.utilization}}, {c.source("utilization")});
    addFigure(c, "power.it_peak_mw", toMw(r.power.itPeak), "MW", "IT power at full load",
              "= power.it_total_peak_mw (kept): racks at load, spares idle, plus network, storage, WAN");
    // Two definitions of IT power (issue 13 item 6): architects size a site on the compute IT load (the
    // racks: GPUs, CPUs, NICs and their optics, scale-up trays), while the energy bill and PUE's
    // denominator take every IT device (The Green Grid WP #49: IT equipment energy includes network and
    // storage). power.it_mw / it_peak_mw stay equal to the total.
    addFigure(c, "power.it_compute_mw", toMw(r.power.compute), "MW", "Compute IT power",
              "racks at idle + (load - idle) x utilization, spares idle; no network, storage or WAN",
              {{"utilization", c.utilization}});
    addFigure(c, "power.it_compute_peak_mw", toMw(r.power.computePeak), "MW", "Compute IT power at full load",
              "racks at load, spares idle; no network, storage or WAN (the generator's it_mw target)");
    addFigure(c, "power.it_total_mw", toMw(r.power.itOperating), "MW", "Total IT power",
              "compute IT + network + storage + WAN",
              {{"compute_mw", toMw(r.power.compute)},
               {"network_mw", toMw(r.power.network)},
               {"storage_mw", toMw(r.power.storage)},
               {"wan_mw", toMw(r.power.wan)}});
    addFigure(c, "power.it_total_peak_mw", toMw(r.power.itPeak), "MW", "Total IT power at full load",
              "compute IT at full load + network + storage + WAN");
    addFigure(c, "power.network_mw", toMw(r.power.network), "MW", "Network power",
              "switches + switch-side optics of every fabric (NIC-side optics draw from the compute trays)");
    addFigure(c, "power.facility_mw", toMw(r.power.facility), "MW", "Facility power",
              "IT + pumps + plant (heat / COP) + distribution losses (IT/eta - IT) + misc",
              {{"pumps_mw", toMw(r.power.pumps)},
               {"plant_mw", toMw(r.power.plant)},
               {"losses_mw", toMw(r.power.losses)}},
              {c.source("misc_facility_fraction")});
    addFigure(c, "power.pue", r.power.pue, "", "PUE", "facility power / IT power (computed)",
              {{"facility_mw", toMw(r.power.facility)}, {"it_mw", toMw(r.power.itOperating)}});
    // Climate-driven plant (cost/cooling_plant.h): annual PUE (energy; equals power.pue) and peak PUE
    // (design day at full load; capacity: building_over_capacity and facility peak use it).
    addFigure(c, "power.pue_annual", r.power.pueAnnual, "", "PUE (annual)",
              "annual-average facility power / IT power: plants at the hour-weighted mean of 12 monthly COPs "
              "(typical-year climate); equals power.pue",
              {{"facility_mw", toMw(r.power.facility)}, {"it_mw", toMw(r.power.itOperating)}},
              {"data/climate.json (NOAA / WMO 1991-2020 normals)", c.source("climate_hourly_sd_dry_bulb_k")});
    addFigure(c, "power.pue_peak", r.power.puePeak, "", "PUE (peak, design day)",
              "facility power / IT power at full load on the ASHRAE 0.4% design day (dry-bulb for dry coolers, "
              "wet-bulb for towers and water-side economizers)",
              {{"facility_peak_mw", toMw(r.power.facilityPeak)}, {"it_peak_mw", toMw(r.power.itPeak)}},
              {"ASHRAE Handbook-Fundamentals 2021 ch. 14 climatic design conditions (data/climate.json)"});
    addFigure(c, "power.facility_peak_mw", toMw(r.power.facilityPeak), "MW", "Facility power at peak",
              "IT at full load + pumps + plant on the design day + losses + misc (sizes buildings)");
    addFigure(c, "power.plant_liquid_mw", toMw(r.power.plantLiquid), "MW", "Liquid-loop plant power",
              "sum over loops of (liquid heat + pump work) x annual 1/COP of the loop's plant");
    addFigure(c, "power.plant_air_mw", toMw(r.power.plantAir), "MW", "Air-side chilled-water plant power",
              "(air heat + CRAH fan heat) x annual 1/COP of plant-chiller at air_chilled_water_supply_c",
              {}, {c.source("air_chilled_water_supply_c")});
    addFigure(c, "power.crah_fans_mw", toMw(r.power.crahFans), "MW", "CRAH fan power",
              "air heat (IT not carried by liquid loops) x crah_fan_power_fraction", {},
              {c.source("crah_fan_power_fraction")});
    addFigure(c, "cooling.economizer_hours", r.power.economizerHours, "h/yr", "Economizer hours",
              "full-economizer hours a year (compressors off), weighted by the heat of each plant",
              {}, {c.source("climate_hourly_sd_wet_bulb_k")});
}

} // namespace ctwin::cost::detail
