#include "evaluate_stages.h"
#include "power_chain.h"

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
    const BillOfMaterials& bom = r.bom;
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
    for (const auto& ri : c.racks) {
        const double load = ri.type->value("power_load_w"), idle = ri.type->value("power_idle_w");
        const double peak = ri.rack->spare ? idle : load;
        const double operating = ri.rack->spare ? idle : idle + (load - idle) * c.utilization;
        computePeak += peak * watt;
        computeOperating += operating * watt;
        if (auto it = perBuilding.find(ri.building); it != perBuilding.end()) {
            it->second.itPeak += peak * watt;
            it->second.itOperating += operating * watt;
        }
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

    std::unordered_map<std::string, Power> pumpsByBuilding;
    std::unordered_map<std::string, std::string> plantByBuilding;
    for (size_t i = 0; i < p.coolingLoops.size() && i < bom.loops.size(); ++i) {
        const auto& loop = p.coolingLoops[i];
        std::string b;
        if (auto h = c.halls.find(loop.hall); h != c.halls.end()) b = h->second->building;
        pumpsByBuilding[b] += bom.loops[i].pumpPower;
        if (!plantByBuilding.count(b)) plantByBuilding[b] = loop.plant;
    }
    const double misc = a.get("misc_facility_fraction");
    const auto* economizer = catalog.find("plant-dry-cooler");
    Money& plantCapex = c.plantCapex;
    for (const auto& b : p.buildings) {
        auto& bp = perBuilding[b.id];
        const std::string plantId = plantByBuilding.count(b.id) ? plantByBuilding[b.id] : "plant-chiller";
        const auto* plant = catalog.find(plantId);
        const double cop = plant ? plant->value("cop") : 0.0;
        // Water-side economizer (free cooling): in the hours the outdoor air is cold enough, a chiller
        // plant's compressors stop and the heat leaves through the dry coolers/towers alone (ASHRAE 90.1-2019
        // §6.5.1.2; Barroso, Hölzle & Ranganathan, "The Datacenter as a Computer", 3rd ed. 2019, §5.4 "free
        // cooling"). Annual-average plant power = heat x ((1 - f)/COP_chiller + f/COP_dry_cooler) with f the
        // site's free-cooling hours / 8,766 h. Plants without compressors (dry cooler, tower) run the same
        // all year. Peak power and plant sizing stay at the compressor COP (the hottest hour).
        double freeShare = 0.0;
        if (auto s = sitesById.find(b.site);
            s != sitesById.end() && plant && plant->attribute("type") == "chiller")
            freeShare = std::clamp(s->second->freeCoolingHoursPerYear / kHoursPerYear, 0.0, 1.0);
        const double freeCop = economizer ? economizer->value("cop") : 0.0;
        // Losses follow the chain in each rack's path (its A and B feeds' gear), cost/power_chain.cpp.
        const double eta = pathEfficiency(p, catalog, b.id);
        auto facilityAt = [&](Power it, double loadScale, double freeCoolingShare, Power& pumps,
                              Power& plantPower, Power& losses, Power& miscP) {
            pumps = pumpsByBuilding[b.id] * loadScale;
            // Plant electric power = heat rejected / COP; all IT power ends up as heat, plus pump work.
            const double inverseCop = (cop > 0 ? (1.0 - freeCoolingShare) / cop : 0.0) +
                                      (freeCop > 0 && cop > 0 ? freeCoolingShare / freeCop : 0.0);
            plantPower = inverseCop * (it + pumps);
            // Distribution losses through the feed chain: P_in = P_it / η.
            losses = eta > 0 ? it / eta - it : Power{};
            miscP = misc * it;
            return it + pumps + plantPower + losses + miscP;
        };
        Power pumps, plantPower, losses, miscP;
        const double loadScale = safeDiv(bp.itOperating.value(), bp.itPeak.value());
        bp.facilityPeak = facilityAt(bp.itPeak, 1.0, 0.0, pumps, plantPower, losses, miscP);
        // The plant is sized for the heat at full load.
        if (plant) plantCapex += plant->value("capex_usd_per_w") * (bp.itPeak + pumps).value() * usd;
        bp.facilityOperating =
            facilityAt(bp.itOperating, loadScale, freeShare, pumps, plantPower, losses, miscP);
        if (const auto pinned = inputs.buildingPuePinned(b)) {
            bp.facilityPeak = *pinned * bp.itPeak;
            bp.facilityOperating = *pinned * bp.itOperating;
        } else {
            r.power.pumps += pumps, r.power.plant += plantPower, r.power.losses += losses,
                r.power.misc += miscP;
        }
        bp.pue = bp.itOperating.value() > 0 ? bp.facilityOperating.value() / bp.itOperating.value() : 1.0;
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
}

void addPowerFigures(EvalContext& c) {
    Results& r = c.r;
    const BillOfMaterials& bom = r.bom;
    addFigure(r, "inventory.gpus", bom.gpus, "GPU", "GPUs", "sum over racks of catalog gpus per rack type",
              {{"racks", bom.racks}});
    addFigure(r, "inventory.racks", bom.racks, "rack", "Racks", "count of rack placements");
    addFigure(r, "inventory.sites", bom.sites, "site", "Sites", "count of sites");
    addFigure(r, "inventory.buildings", bom.buildings, "building", "Buildings", "count of buildings");
    addFigure(
        r, "inventory.switches", bom.switches, "switch", "Switches",
        "Clos sizing per fabric and plane: leaves ceil(E/d1), spines from uplinks, cores from spine uplinks");
    addFigure(r, "inventory.transceivers", bom.transceivers, "module", "Transceivers",
              "two per optical link (NIC side at endpoint speed, switch side at port speed), media by reach");
    addFigure(r, "inventory.cdus", bom.cdus, "CDU", "CDUs", "installed CDUs over all cooling loops");
    addFigure(r, "power.it_mw", toMw(r.power.itOperating), "MW", "IT power",
              "= power.it_total_mw (kept): racks at idle + (load - idle) x utilization, plus network "
              "(switches, switch-side optics), storage, WAN",
              {{"utilization", c.utilization}}, {c.source("utilization")});
    addFigure(r, "power.it_peak_mw", toMw(r.power.itPeak), "MW", "IT power at full load",
              "= power.it_total_peak_mw (kept): racks at load, spares idle, plus network, storage, WAN");
    // Two definitions of IT power (issue 13 item 6): architects size a site on the compute IT load (the
    // racks: GPUs, CPUs, NICs and their optics, scale-up trays), while the energy bill and PUE's
    // denominator take every IT device (The Green Grid WP #49: IT equipment energy includes network and
    // storage). power.it_mw / it_peak_mw stay equal to the total.
    addFigure(r, "power.it_compute_mw", toMw(r.power.compute), "MW", "Compute IT power",
              "racks at idle + (load - idle) x utilization, spares idle; no network, storage or WAN",
              {{"utilization", c.utilization}});
    addFigure(r, "power.it_compute_peak_mw", toMw(r.power.computePeak), "MW", "Compute IT power at full load",
              "racks at load, spares idle; no network, storage or WAN (the generator's it_mw target)");
    addFigure(r, "power.it_total_mw", toMw(r.power.itOperating), "MW", "Total IT power",
              "compute IT + network + storage + WAN",
              {{"compute_mw", toMw(r.power.compute)},
               {"network_mw", toMw(r.power.network)},
               {"storage_mw", toMw(r.power.storage)},
               {"wan_mw", toMw(r.power.wan)}});
    addFigure(r, "power.it_total_peak_mw", toMw(r.power.itPeak), "MW", "Total IT power at full load",
              "compute IT at full load + network + storage + WAN");
    addFigure(r, "power.network_mw", toMw(r.power.network), "MW", "Network power",
              "switches + switch-side optics of every fabric (NIC-side optics draw from the compute trays)");
    addFigure(r, "power.facility_mw", toMw(r.power.facility), "MW", "Facility power",
              "IT + pumps + plant (heat / COP) + distribution losses (IT/eta - IT) + misc",
              {{"pumps_mw", toMw(r.power.pumps)},
               {"plant_mw", toMw(r.power.plant)},
               {"losses_mw", toMw(r.power.losses)}},
              {c.source("misc_facility_fraction")});
    addFigure(r, "power.pue", r.power.pue, "", "PUE", "facility power / IT power (computed)",
              {{"facility_mw", toMw(r.power.facility)}, {"it_mw", toMw(r.power.itOperating)}});
}

} // namespace ctwin::cost::detail
