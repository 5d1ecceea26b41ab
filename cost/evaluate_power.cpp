#include "climate.h"
#include "cooling_plant.h"
#include "evaluate_stages.h"
#include "geodesy.h"
#include "power_chain.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace ctwin::cost::detail {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

/// Share of a rating above which a continuous load draws a Warning: NFPA 70 (National Electrical Code)
/// 2023, 210.20(A) and 215.3: overcurrent devices carry continuous loads (3 h or more) at no more than 80 %
/// of their rating (125 % sizing), and data-centre IT load is continuous.
constexpr double kContinuousLoadShare = 0.8;

/// Feed, row, hall and building loads against their ratings, and the feeds against the topology (issue 30
/// item 1). Loads are at full IT power (racks at load, spares idle), the basis of every rating.
void addDistributionRules(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    const CompiledDesign& cd = *c.compiled;
    auto mw = [](double w) { return fmt(w / 1e6, 2) + " MW"; };
    // Loads as provisioned: oversubscribed compute racks at their cap.
    const std::vector<double> feedLoad = feedDesignLoadsW(p, cd, c.classProvisionedW);
    for (size_t i = 0; i < p.powerFeeds.size(); ++i) {
        const auto& f = p.powerFeeds[i];
        const double load = feedLoad[i], rating = f.capacity.value();
        if (load <= 0) continue;
        const std::string who = "Power feed " + (f.name.empty() ? f.id : f.name) + " (capacity_w): ";
        if (load > rating * (1 + 1e-9))
            r.rules.push_back({Severity::Error, "feed_over_rating", f.id,
                               who + "its racks draw " + mw(load) +
                                   " at full load (each dual-corded rack's whole "
                                   "load, which the feed carries when its partner fails) but it is rated " +
                                   mw(rating) + "; raise capacity_w or move racks to another feed"});
        else if (load > kContinuousLoadShare * rating)
            r.rules.push_back(
                {Severity::Warning, "feed_above_continuous_rating", f.id,
                 who + "its racks draw " + mw(load) + " at full load, " + fmt(100 * load / rating) +
                     " % of its " + mw(rating) +
                     " rating; continuous loads should stay within 80 % (NEC 210.20(A), 215.3)"});
    }
    // Rows: one busway run per path carries the whole row (the catalog busway's module_w is the largest
    // run; absent, no check).
    const std::vector<double> rowLoad = rowDesignLoadsW(p, cd, c.classProvisionedW);
    for (size_t i = 0; i < p.rows.size(); ++i) {
        const std::int32_t h = i < cd.rowHall.size() ? cd.rowHall[i] : CompiledDesign::kNone;
        const std::int32_t b = h != CompiledDesign::kNone && static_cast<size_t>(h) < cd.hallBuilding.size()
                                   ? cd.hallBuilding[static_cast<size_t>(h)]
                                   : CompiledDesign::kNone;
        if (rowLoad[i] <= 0 || b == CompiledDesign::kNone || static_cast<size_t>(b) >= r.power.chains.size())
            continue;
        const auto* busway = r.power.chains[static_cast<size_t>(b)].line("busway");
        const auto* item = busway ? c.catalog.find(busway->catalogId) : nullptr;
        const auto* run = item ? item->find("module_w") : nullptr;
        if (!run || run->base <= 0 || rowLoad[i] <= run->base * (1 + 1e-9)) continue;
        const auto& row = p.rows[i];
        r.rules.push_back({Severity::Warning, "row_over_busway_run", row.id,
                           "Row " + (row.name.empty() ? row.id : row.name) + ": its racks draw " +
                               mw(rowLoad[i]) + " at full load, more than one " + item->id +
                               " run carries (" + mw(run->base) +
                               ", catalog module_w); split the row or feed it from more runs per path"});
    }
    // Halls: the IT load of their racks at full power against the hall's rated critical IT power, where the
    // design states one: over it an Error, above 80 % a Warning (the continuous-load share of the feeds).
    std::vector<double> hallLoad(p.halls.size(), 0.0);
    for (size_t i = 0; i < cd.classes.size() && i < c.classProvisionedW.size(); ++i)
        if (const auto& k = cd.classes[i];
            k.hall != CompiledDesign::kNone && static_cast<size_t>(k.hall) < hallLoad.size())
            hallLoad[static_cast<size_t>(k.hall)] += c.classProvisionedW[i];
    for (size_t i = 0; i < p.halls.size(); ++i) {
        const auto& h = p.halls[i];
        if (!h.powerCapacity || hallLoad[i] <= 0) continue;
        const double rating = h.powerCapacity->value();
        const std::string who = "Data hall " + (h.name.empty() ? h.id : h.name) + " (power_capacity_w): ";
        if (hallLoad[i] > rating * (1 + 1e-9))
            r.rules.push_back({Severity::Error, "hall_over_rating", h.id,
                               who + "its racks draw " + mw(hallLoad[i]) + " at full load but it is rated " +
                                   mw(rating) + "; raise power_capacity_w or move racks to another hall"});
        else if (hallLoad[i] > kContinuousLoadShare * rating)
            r.rules.push_back({Severity::Warning, "hall_above_continuous_rating", h.id,
                               who + "its racks draw " + mw(hallLoad[i]) + " at full load, " +
                                   fmt(100 * hallLoad[i] / rating) + " % of its " + mw(rating) +
                                   " rating; keep continuous load within 80 %"});
    }
    // Topology against the feeds: a redundant topology (2N, 3/2, 4/3) feeds every rack from two systems.
    std::vector<double> singleCorded(p.buildings.size(), 0.0);
    std::vector<int> feeds(p.buildings.size(), 0);
    for (const auto& f : p.powerFeeds)
        if (const std::int32_t b = cd.buildingIndex(f.building); b != CompiledDesign::kNone)
            ++feeds[static_cast<size_t>(b)];
    for (const auto& k : cd.classes)
        if (k.building != CompiledDesign::kNone &&
            (k.feedA == CompiledDesign::kNone) != (k.feedB == CompiledDesign::kNone))
            singleCorded[static_cast<size_t>(k.building)] += k.count;
    for (size_t i = 0; i < p.buildings.size(); ++i) {
        const auto& b = p.buildings[i];
        if (topologyPaths(b.powerTopology) < 2 || feeds[i] == 0) continue;
        const std::string who = "Building " + b.name + " (power_topology " + b.powerTopology + "): ";
        if (feeds[i] < 2)
            r.rules.push_back({Severity::Warning, "topology_feeds_missing", b.id,
                               who + "a redundant topology needs at least two feeds; the building has one"});
        else if (singleCorded[i] > 0)
            r.rules.push_back({Severity::Warning, "racks_single_corded", b.id,
                               who + fmt(singleCorded[i]) +
                                   " racks name only one feed; each rack takes one feed "
                                   "from each system (set feed_a and feed_b)"});
    }
    // Buildings: over their utility capacity (Error), above 80 % of it (Warning), or without one.
    for (const auto& b : p.buildings) {
        const auto& bp = c.perBuilding[b.id];
        if (bp.capacity.value() > 0 && bp.facilityPeak > bp.capacity)
            r.rules.push_back({Severity::Error, "building_over_capacity", b.id,
                               "Building " + b.name + ": facility power at full load " +
                                   fmt(toMw(bp.facilityPeak), 1) + " MW exceeds its " +
                                   fmt(toMw(bp.capacity), 1) + " MW capacity"});
        if (bp.capacity.value() <= 0 && bp.itPeak.value() > 0)
            r.rules.push_back({Severity::Warning, "building_no_capacity", b.id,
                               "Building " + b.name + " has IT load but no power capacity set"});
        if (bp.capacity.value() > 0 && bp.facilityPeak <= bp.capacity &&
            bp.facilityPeak.value() > kContinuousLoadShare * bp.capacity.value())
            r.rules.push_back({Severity::Warning, "building_above_continuous_rating", b.id,
                               "Building " + b.name + " (power_capacity_w): facility power at full load " +
                                   mw(bp.facilityPeak.value()) + " is " +
                                   fmt(100 * bp.facilityPeak.value() / bp.capacity.value()) + " % of its " +
                                   mw(bp.capacity.value()) +
                                   " capacity; continuous loads should stay within 80 %"});
    }
}

/// Plants that reject heat by evaporation: cooling towers, and water-cooled chiller plants (their
/// condenser water goes to towers); dry coolers do not.
bool isEvaporativePlant(const model::CatalogItem& plant) {
    const std::string type = plant.attribute("type");
    return type == "cooling_tower" || type == "chiller";
}

/// A GPU-weighted mean over the serving rack type's working GPUs, a share of its full-load power: the GPUs
/// each inference service books at perService(i), the rest at `rest`; bookings above the type's GPUs scaled
/// down to them (rule gpu_bookings_exceed_capacity reports them). `rest` without services or serving racks.
template <class PerService>
double servingRackShare(const EvalContext& c, size_t services, PerService perService, double rest) {
    if (!c.servingRack || services == 0) return rest;
    const double gpus = workingGpus(c, c.servingRack);
    if (!(gpus > 0)) return rest;
    double booked = 0, weighted = 0;
    for (size_t i = 0; i < c.p.inferenceServices.size() && i < services; ++i) {
        const double g = std::max(0.0, c.p.inferenceServices[i].gpus);
        booked += g;
        weighted += g * perService(i);
    }
    if (booked > gpus) weighted *= gpus / booked, booked = gpus;
    return (weighted + (gpus - booked) * rest) / gpus;
}

/// The serving rack type's mean draw while sold: each service's racks at their prefill/decode mean at the
/// operating point (c.inferenceBusyDrawShare), its unbooked GPUs at `rest`.
double servingRackDrawShare(const EvalContext& c, double rest) {
    return servingRackShare(
        c, c.inferenceBusyDrawShare.size(), [&](size_t i) { return c.inferenceBusyDrawShare[i]; }, rest);
}

/// Mean draw while sold, share of full-load power, of the working compute GPUs no inference service books:
/// the training jobs' GPUs at their step means (TrainingPlan::meanDraw; bookings above these GPUs scaled
/// down to them, rule gpu_bookings_exceed_capacity), the rest at full load (no workload stated: the
/// conservative draw).
double unbookedDrawShare(const EvalContext& c) {
    if (c.p.trainingJobs.empty()) return 1.0;
    const double working = workingGpus(c), serving = c.servingRack ? workingGpus(c, c.servingRack) : 0.0;
    double booked = 0;
    for (const auto& s : c.p.inferenceServices)
        booked += std::max(0.0, s.gpus);
    const double pool = working - std::min(booked, serving);
    if (!(pool > 0)) return 1.0;
    double jobs = 0, weighted = 0;
    for (size_t j = 0; j < c.p.trainingJobs.size(); ++j) {
        const double g = std::max(0.0, c.p.trainingJobs[j].gpus);
        jobs += g;
        weighted += g * c.trainingPlans.at(j).meanDraw;
    }
    if (jobs > pool) weighted *= pool / jobs, jobs = pool;
    return (weighted + (pool - jobs)) / pool;
}

/// The serving rack type's planning basis (power_provisioning_basis): each service's racks at basisShare of
/// their full-clock mean draw (c.inferenceFullClockDraw), unbooked GPUs at `otherBasis`.
double servingRackBasisShare(const EvalContext& c, double otherBasis) {
    if (!(c.provisioningBasis > 0)) return otherBasis;
    return servingRackShare(
        c, c.inferenceFullClockDraw.size(),
        [&](size_t i) { return basisShare(c.provisioningBasis, c.inferenceFullClockDraw[i]); }, otherBasis);
}

/// IT power per building (SPEC.md §4.2): racks by class at idle + (busy draw - idle) x utilization, then
/// the network, storage and WAN gear shared by compute share.
void sumItPower(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    // Rack power at utilization u: idle + (busy - idle)·u (linear server power model, Fan, Weber & Barroso,
    // "Power Provisioning for a Warehouse-sized Computer", ISCA 2007); hot spares idle.
    auto& perBuilding = c.perBuilding;
    for (const auto& b : p.buildings) {
        auto& bp = perBuilding[b.id];
        bp.buildingId = b.id, bp.siteId = b.site, bp.capacity = b.powerCapacity;
    }
    Power computePeak{}, computeOperating{};
    // Per building in one pass over the rack classes (cost/compiled_design.h: racks of one type, building and
    // spare flag draw alike), then into perBuilding.
    std::vector<Power> buildingPeak(p.buildings.size()), buildingOperating(p.buildings.size());
    std::vector<std::uint8_t> buildingHasRacks(p.buildings.size(), 0);
    const CompiledDesign& cd = *c.compiled;
    // Oversubscription (cost/power_envelope.h): working compute racks are provisioned at
    // 1/ratio of their full-load draw and held there by power capping, so their peak is the cap and their
    // average draw cannot exceed it. The ratio's maximum (2) keeps the cap above every catalog rack's idle.
    // Operating draw (one basis for the energy and the per-token figures): the sold share (utilization) of a
    // working compute rack runs its workload's mean draw and the rest idles (Fan, Weber & Barroso's linear
    // model between idle and that draw). The serving rack type's GPUs that the inference services book
    // draw their prefill/decode mix at the operating point (sizeInferenceServices); the training jobs' GPUs
    // their step's mean of compute phase and communication trough (unbookedDrawShare), GPUs no workload
    // books full load.
    const double otherDraw = unbookedDrawShare(c);
    const double servingDraw = servingRackDrawShare(c, otherDraw);
    // Planning basis (power_provisioning_basis): a working compute rack is provisioned at its basis over its
    // domain's ratio; the basis is nameplate, or the peak its workload draws at full clock.
    const double otherBasis =
        basisShare(c.provisioningBasis, c.p.trainingJobs.empty() ? 1.0 : c.trainingFullClockDraw);
    const double servingBasis = servingRackBasisShare(c, otherBasis);
    double busyW = 0, workingLoadW = 0;
    c.classProvisionedW.assign(cd.classes.size(), 0.0);
    for (size_t i = 0; i < cd.classes.size(); ++i) {
        const auto& k = cd.classes[i];
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        const double load = type.need(type.powerLoadW, "power_load_w"),
                     idle = type.need(type.powerIdleW, "power_idle_w");
        const double nameplate = k.count * (k.spare ? idle : load);
        const bool serving = c.servingRack && type.id == c.servingRack->id;
        const double basis = serving ? servingBasis : otherBasis;
        const double peak = k.spare || !type.compute
                                ? nameplate
                                : std::max(k.count * idle, nameplate * basis / c.classRatio[i]);
        const double busy = std::max(idle, load * (serving ? servingDraw : otherDraw));
        const double operating =
            std::min(peak, k.count * (k.spare ? idle : idle + (busy - idle) * c.utilization));
        c.classProvisionedW[i] = peak;
        if (type.compute && !k.spare) busyW += k.count * busy, workingLoadW += k.count * load;
        if (type.compute) c.computeNameplate += nameplate * watt, c.computeProvisioned += peak * watt;
        computePeak += peak * watt;
        computeOperating += operating * watt;
        if (k.building != CompiledDesign::kNone) {
            const auto b = static_cast<size_t>(k.building);
            buildingPeak[b] += peak * watt;
            buildingOperating[b] += operating * watt;
            buildingHasRacks[b] = 1;
        }
    }
    c.computeBusyShare = workingLoadW > 0 ? busyW / workingLoadW : 1.0;
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
}

/// Sites whose climate location is unknown (Error) or whose nearest location is far (Warning).
void addClimateSiteRules(EvalContext& c, const ClimateTable& table) {
    Results& r = c.r;
    for (const auto& s : c.p.sites)
        if (!s.climateLocation.empty() && !table.find(s.climateLocation))
            r.rules.push_back({Severity::Error, "climate_location_unknown", s.id,
                               "Site " + s.name + ": climate_location '" + s.climateLocation +
                                   "' is not in " + table.file + "; the nearest location is used"});
    // A nearest location far away is another climate (Johannesburg's nearest may lie in another continent):
    // say so rather than use it silently. Sites that pin their free-cooling hours do not use it for the year.
    for (const auto& s : c.p.sites) {
        if (!s.climateLocation.empty() || s.freeCoolingHoursPerYear) continue;
        const ClimateLocation* near = table.nearest(s.latDeg, s.lonDeg);
        if (!near) continue;
        const double km = geodesicDistance(s.latDeg, s.lonDeg, near->latDeg, near->lonDeg).value() / 1e3;
        if (km > kClimateNearestMaxKm)
            r.rules.push_back({Severity::Warning, "climate_location_far", s.id,
                               "Site " + s.name + " (lat_deg, lon_deg): the nearest climate location, " +
                                   near->name + ", is " + fmt(km) + " km away (over " +
                                   fmt(kClimateNearestMaxKm) +
                                   " km); its PUE and plant follow that climate: set climate_location, or "
                                   "free_cooling_hours_per_year, or add the place to " +
                                   table.file});
    }
}

/// The assumptions the cooling plan reads (cost/evaluation_memo.h).
CoolingPlanKey coolingPlanKey(const AssumptionValues& a) {
    return {a.get("air_chilled_water_supply_c"), a.get("air_chilled_water_delta_t_k"),
            a.get("crah_fan_power_fraction"),    a.get("climate_hourly_spread_factor"),
            a.get("compressor_cop_max_factor"),  a.get("cooling_tower_liquid_gas_ratio")};
}

/// A wet tower's range (hot - cold water, K): a water-cooled chiller plant's towers carry its condenser
/// water, customarily 85 -> 95 degF (AHRI Standard 550/590 rates chillers at 85 degF entering condenser
/// water and 3.0 gpm/ton, a range of 9.4-10 degF with the compressor heat), 5.6 K; a tower on a liquid loop
/// carries the loop's facility water at its delta-T.
double towerRangeK(const model::CatalogItem& plant, double loopDeltaTK) {
    return plant.attribute("type") == "chiller" ? 5.6 : loopDeltaTK;
}

/// annualTowerEvaporationKgPerKwh per (climate, range), computed once for all the buildings that share them
/// (a campus's buildings share a site's climate and a few loop delta-Ts). Without a climate (a building
/// with no site) the tower runs at the CTI rating point's air, 78 degF (25.6 degC) wet-bulb (CTI STD-201:
/// 95/85/78 degF), with 95 degF (35 degC) dry-bulb, at full flow: as plants without a climate run at their
/// rated COP (cooling_plant.h ratedPerformance).
struct TowerWaterCache {
    std::vector<std::tuple<const ClimateLocation*, double, double>> entries;
    double get(const ClimateLocation* climate, double rangeK, double liquidGasRatio,
               const ClimateOptions& options) {
        for (const auto& [cl, r, kg] : entries)
            if (cl == climate && r == rangeK) return kg;
        const double kg = climate ? annualTowerEvaporationKgPerKwh(*climate, rangeK, liquidGasRatio, options)
                                  : towerEvaporationKgPerKwh(35.0, 25.6, rangeK, liquidGasRatio, -100.0);
        entries.emplace_back(climate, rangeK, kg);
        return kg;
    }
};

/// The water a building's wet towers evaporate per kWh of heat, in its climate (BuildingCoolingPlan).
void planTowerWater(BuildingCoolingPlan& plan, const std::vector<LoopLoad>& loops, const CoolingPlanKey& key,
                    const ClimateOptions& options, TowerWaterCache& cache) {
    double heat = 0, kg = 0;
    for (const auto& l : loops) {
        if (!l.plant || !isEvaporativePlant(*l.plant)) continue;
        const double w = l.liquidHeatW + l.pumpW;
        heat += w;
        kg += w * cache.get(plan.climate, towerRangeK(*l.plant, l.deltaTK), key.towerLiquidGasRatio, options);
    }
    plan.liquidTowerKgPerKwh = heat > 0 ? kg / heat : 0.0;
    if (plan.airPlantItem && isEvaporativePlant(*plan.airPlantItem))
        plan.airTowerKgPerKwh = cache.get(plan.climate, towerRangeK(*plan.airPlantItem, key.airDeltaTK),
                                          key.towerLiquidGasRatio, options);
}

/// Each building's cooling plan (climate, air-side plant, loop plants) for the assumptions in `key`.
std::shared_ptr<const std::vector<BuildingCoolingPlan>>
planBuildingCooling(EvalContext& c, const std::shared_ptr<const ClimateTable>& climateTable,
                    const std::unordered_map<std::string, std::vector<LoopLoad>>& loopsByBuilding,
                    const CoolingPlanKey& key) {
    const model::Project& p = c.p;
    const auto& sitesById = c.sites;
    const ClimateOptions climateOptions{key.spreadFactor, key.copMaxFactor};
    const double airSupplyC = key.airSupplyC, airDeltaT = key.airDeltaTK, crahFraction = key.crahFanFraction;
    // Each building's plants (climate, air-side plant, loop plants), a function of the design, the bill of
    // materials, the climate table and the assumptions read above: computed here, or once per distinct set
    // of those assumptions across a scenario tool's variations (cost/evaluation_memo.h).
    auto planCooling = [&] {
        std::vector<BuildingCoolingPlan> plans(p.buildings.size());
        // The air side's chilled-water plant: plant-chiller; a catalog without it (built in code) uses the
        // building's first loop plant.
        const auto* chillerItem = c.catalog.find("plant-chiller");
        // The climate of each site, looked up once for all its buildings (the nearest location is a scan of
        // the whole table).
        std::vector<std::optional<const ClimateLocation*>> siteClimate(p.sites.size());
        TowerWaterCache towerCache;
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
            planTowerWater(plan, buildingLoops, key, climateOptions, towerCache);
        }
        return plans;
    };
    if (c.memo) return c.memo->coolingPlan(c.bom, climateTable, key, planCooling);
    return std::make_shared<const std::vector<BuildingCoolingPlan>>(planCooling());
}

/// Samples of a year in the load duration curve: 12 months x kHourClasses.
constexpr size_t kHourSamples = 12 * static_cast<size_t>(kHourClasses);

/// A building's facility power in each hour class (index month x kHourClasses + class) on one IT basis
/// (`itW`, plant heat scale `scale`), from its facility power computed in full on the annual average and on
/// the design day. Between those two the facility power is taken as linear in the plant's: the secant
/// through the two points, exact at both. What it leaves out is the curvature of the part-load losses over a
/// plant swing of a few per cent of the facility (square law, Schneider WP 113), well under 0.1 % of the
/// facility power; it spares the power chain's look-ups in 288 evaluations per building.
std::vector<double> hourClassFacilityW(const BuildingCooling& cooling, double itW, double scale,
                                       Power facilityAnnual, Power facilityDesign) {
    const double plantAnnual = cooling.plantPowerW(itW, scale, PlantCondition::annual());
    const double plantDesign = cooling.plantPowerW(itW, scale, PlantCondition::designDay());
    const double dPlant = plantDesign - plantAnnual;
    const double slope =
        std::abs(dPlant) > 1e-9 ? (facilityDesign.value() - facilityAnnual.value()) / dPlant : 1.0;
    std::vector<double> out(kHourSamples);
    for (int m = 0; m < 12; ++m)
        for (int k = 0; k < kHourClasses; ++k)
            out[static_cast<size_t>(m * kHourClasses + k)] =
                facilityAnnual.value() +
                (cooling.plantPowerW(itW, scale, PlantCondition::hour(m, k)) - plantAnnual) * slope;
    return out;
}

/// A building's load duration samples: at the operating point and at full load as
/// provisioned, from `facilityAt(IT, load scale, condition)` (its power chain's facility power) on the annual
/// average and the design day. A pinned PUE has no weather: flat.
template <class FacilityAt>
void fillLoadDuration(BuildingPower& bp, const BuildingCooling& cooling, double loadScale, double heatScale,
                      bool pinned, FacilityAt&& facilityAt) {
    if (pinned) {
        bp.facilityOperatingDesignDay = bp.facilityOperating;
        bp.hourFacilityOperatingW.assign(kHourSamples, bp.facilityOperating.value());
        bp.hourFacilityFullLoadW.assign(kHourSamples, bp.facilityPeak.value());
        return;
    }
    bp.facilityOperatingDesignDay = facilityAt(bp.itOperating, loadScale, PlantCondition::designDay());
    bp.hourFacilityOperatingW = hourClassFacilityW(cooling, bp.itOperating.value(), loadScale * heatScale,
                                                   bp.facilityOperating, bp.facilityOperatingDesignDay);
    bp.hourFacilityFullLoadW =
        hourClassFacilityW(cooling, bp.itPeak.value(), heatScale,
                           facilityAt(bp.itPeak, 1.0, PlantCondition::annual()), bp.facilityPeak);
}

/// The design's totals from the buildings: racks outside any building (orphans, flagged) still draw power;
/// annual and peak PUE.
void sumFacilityPower(EvalContext& c) {
    Results& r = c.r;
    for (auto& [_, bp] : c.perBuilding)
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
    r.power.puePeak =
        r.power.itPeak.value() > 0 ? r.power.facilityPeak.value() / r.power.itPeak.value() : 1.0;
    // Facility availability weighted by each building's IT at full load (the GPUs an outage idles).
    double weight = 0.0, weighted = 0.0;
    for (const auto& bp : r.power.buildings)
        weight += bp.itPeak.value(), weighted += bp.itPeak.value() * bp.availability;
    r.power.facilityAvailability = weight > 0.0 ? weighted / weight : 1.0;
}

/// Natural gas, stationary combustion: 53.06 kg CO2, 1.0 g CH4 and 0.10 g N2O per MMBtu (US EPA, GHG
/// Emission Factors Hub, 2024, table 1), with IPCC AR5 100-year GWPs (CH4 28, N2O 265): 53.1145 kg
/// CO2e/MMBtu.
constexpr double kNaturalGasKgCo2ePerMmbtu = 53.06 + 1.0e-3 * 28 + 0.10e-3 * 265;

/// On-site gas generation as permanent base-load supply: it serves up to its MW of the
/// facility's annual-average power; fuel = heat rate x fuel price per kWh generated, emissions = heat rate x
/// the gas factor. Sized beyond the facility's peak it is a Warning (bought but idle).
void addOnsiteGeneration(EvalContext& c) {
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    c.onsiteMw = a.get("onsite_generation_mw");
    if (!(c.onsiteMw > 0)) return;
    const double served = std::min(c.onsiteMw * 1e6, r.power.facility.value());
    c.onsiteShare = safeDiv(served, r.power.facility.value());
    c.onsiteCapexUsd = c.onsiteMw * 1e3 * a.get("onsite_generation_capex_usd_per_kw");
    const double heatRate = a.get("onsite_generation_heat_rate_btu_per_kwh"); // Btu/kWh
    c.gasUsdPerKwh = heatRate / 1e6 * a.get("fuel_price_usd_per_mmbtu");
    c.gasGco2ePerKwh = heatRate / 1e6 * kNaturalGasKgCo2ePerMmbtu * 1e3;
    if (c.onsiteMw > toMw(r.power.facilityPeak) * (1 + 1e-9))
        r.rules.push_back({Severity::Warning, "onsite_generation_oversized",
                           "assumptions.onsite_generation_mw",
                           "On-site generation (onsite_generation_mw) of " + fmt(c.onsiteMw, 1) +
                               " MW exceeds the facility's peak of " + fmt(toMw(r.power.facilityPeak), 1) +
                               " MW: the rest is bought but never runs"});
}

/// The battery. A synchronous training job swings its racks between the compute phase
/// (at its capped clock) and the communication trough every step (arXiv 2508.14318): swing = job GPUs x
/// full-load rack power per GPU x (rack draw in compute - rack draw in the trough). A utility ramp limit R
/// (MW/min) lets the grid follow at R only, so the battery takes the step and hands it to the grid over
/// swing / R minutes: power = swing, energy = swing^2 / (2 R) per step (the triangle under the ramp). To
/// ride through curtailment it carries the shed load (depth x average facility MW) for its hours of each
/// event. Capex = MWh x $/kWh + MW x $/kW.
void sizeBattery(EvalContext& c) {
    const AssumptionValues& a = c.a;
    const model::Project& p = c.p;
    Results& r = c.r;
    if (!p.trainingJobs.empty()) {
        // The first job's draws in its compute phase and trough (planTrainingSteps, trainingStepDraws).
        const double compute = c.trainingPlans.front().computeDraw;
        const double trough = c.trainingPlans.front().troughDraw;
        const double jobW = p.trainingJobs.front().gpus * c.rackLoadWPerGpu;
        c.trainingSwingMw = jobW * std::max(0.0, compute - trough) / 1e6;
        // A crash stops the whole job at once, from the compute phase to idle: the larger swing, and the one
        // no schedule can soften (Meta, 'The Llama 3 Herd of Models', 2024, section 3.3.4: fluctuations "on
        // the order of tens of megawatts" on its 16K-GPU cluster, start-up and shutdown included).
        c.trainingStopSwingMw = jobW * std::max(0.0, compute - c.rackIdleShare) / 1e6;
    }
    const double ramp = a.get("grid_ramp_limit_mw_per_min");
    // Read only when the battery gives energy back (an unread input is not varied by the scenario tools).
    const auto lossPerMwh = [&] {
        return 1.0 / std::clamp(a.get("bess_round_trip_efficiency"), 0.5, 1.0) - 1.0;
    };
    if (ramp > 0 && c.trainingSwingMw > 0) {
        const double swing = std::max(c.trainingSwingMw, c.trainingStopSwingMw);
        c.bessPowerMw = swing;
        c.bessEnergyMwh = swing * swing / (2.0 * ramp) / 60.0;
        // Cycling (steps of seconds, far faster than any ramp limit): the grid holds the step's mean and the
        // battery gives (compute - mean) for the compute share f of each step and takes (mean - trough)
        // back for the rest: swing x f x (1 - f) MW discharged on average while the job runs (the sold
        // share of the year, utilization; failures' idle hours not taken off: an upper bound by 1 -
        // goodput), bought again at 1 / round-trip efficiency.
        const double f = c.trainingPlans.front().step.computeShare;
        c.bessCycledMwhPerYear = c.trainingSwingMw * f * (1.0 - f) * kHoursPerYear * c.utilization;
        c.bessLossMwhPerYear += c.bessCycledMwhPerYear * lossPerMwh();
    }
    if (c.curtailmentHours > 0 && c.curtailmentDepth > 0) {
        const double ride = a.get("bess_ride_through_hours");
        if (ride > 0) {
            const double shedMw = c.curtailmentDepth * toMw(r.power.facility);
            const double hours = std::min(ride, c.curtailmentEventHours);
            c.curtailmentCovered = safeDiv(hours, c.curtailmentEventHours);
            c.bessPowerMw = std::max(c.bessPowerMw, shedMw);
            c.bessEnergyMwh += shedMw * hours;
            // Round-trip losses: the energy given back in each event is bought again at 1 / efficiency,
            // (1 / RTE - 1) x shed MW x hours carried x events a year (curtailment hours / event hours).
            c.bessLossMwhPerYear +=
                shedMw * hours * safeDiv(c.curtailmentHours, c.curtailmentEventHours) * lossPerMwh();
            c.gridAvailability = std::clamp(1.0 - c.curtailmentHours * c.curtailmentDepth *
                                                      (1.0 - c.curtailmentCovered) / kHoursPerYear,
                                            0.0, 1.0);
        }
    }
    if (c.bessPowerMw > 0)
        c.bessCapexUsd = c.bessEnergyMwh * 1e3 * a.get("bess_capex_usd_per_kwh") +
                         c.bessPowerMw * 1e3 * a.get("bess_capex_usd_per_kw");
}

/// Heat a building rejects through evaporative plants and the water they evaporate, annual means.
struct EvaporativeLoad {
    double heatW = 0, kgPerHour = 0;
};

/// Annual mean heat (W) a building rejects through evaporative plants (towers, and a water-cooled chiller
/// plant's towers): each such loop's heat and pump work with its share of the plant's electric input, and the
/// air side's heat and fans when its plant evaporates (cost/power_envelope.h water model); and the water
/// that heat evaporates at the plan's kg/kWh (planTowerWater). `scale` is the loops' load share
/// (utilization x provisioned / nameplate).
EvaporativeLoad evaporativeLoad(const BuildingCoolingPlan& plan,
                                const std::unordered_map<std::string, std::vector<LoopLoad>>& loopsByBuilding,
                                const std::string& building, double airAndFansW, double scale) {
    const BuildingCooling& cooling = plan.cooling;
    double liquid = 0.0;
    if (auto l = loopsByBuilding.find(building); l != loopsByBuilding.end())
        for (const auto& loop : l->second)
            if (loop.plant && isEvaporativePlant(*loop.plant)) liquid += loop.liquidHeatW + loop.pumpW;
    const double liquidInput = safeDiv(cooling.liquidPlantAnnualW, cooling.liquidHeatW + cooling.pumpW);
    const double liquidHeat = liquid * scale * (1.0 + liquidInput);
    const double airHeat = plan.airPlantItem && isEvaporativePlant(*plan.airPlantItem)
                               ? airAndFansW * (1.0 + cooling.air.annualInverseCop)
                               : 0.0;
    return {liquidHeat + airHeat,
            (liquidHeat * plan.liquidTowerKgPerKwh + airHeat * plan.airTowerKgPerKwh) / 1e3};
}

/// Each cooling loop's plant load (liquid heat and pump work at full load) and pump power, by the building
/// of its hall ("" for a loop outside any).
void collectLoopLoads(const EvalContext& c, std::unordered_map<std::string, Power>& pumpsByBuilding,
                      std::unordered_map<std::string, std::vector<LoopLoad>>& loopsByBuilding) {
    const model::Project& p = c.p;
    for (size_t i = 0; i < p.coolingLoops.size() && i < c.bom.loops.size(); ++i) {
        const auto& loop = p.coolingLoops[i];
        std::string b;
        if (auto h = c.halls.find(loop.hall); h != c.halls.end()) b = h->second->building;
        pumpsByBuilding[b] += c.bom.loops[i].pumpPower;
        loopsByBuilding[b].push_back(LoopLoad{c.catalog.find(loop.plant), loop.supplyTempC,
                                              loop.deltaT.value(), c.bom.loops[i].liquidHeat.value(),
                                              c.bom.loops[i].pumpPower.value()});
    }
}

/// A building's tariff (its site's, else the assumption; InputResolver records which) and its facility
/// availability from its power topology's downtime hours.
void setTariffAndAvailability(const EvalContext& c, const model::Building& b, BuildingPower& bp) {
    if (auto s = c.sites.find(b.site); s != c.sites.end())
        bp.tariff = c.inputs.siteTariff(*s->second);
    else
        bp.tariff = dollarsPerKwh(c.a.get("electricity_usd_per_kwh"));
    bp.downtimeHours = c.a.get(downtimeAssumptionOf(b.powerTopology));
    bp.availability = std::clamp(1.0 - bp.downtimeHours / kHoursPerYear, 0.0, 1.0);
}

} // namespace

const char* downtimeAssumptionOf(const std::string& powerTopology) {
    // Uptime Institute Tier mapping (data/assumptions.json facility_downtime_hours_*): a single path with N
    // components is Tier I, with redundant components Tier II; distributed redundant (any N of N+1
    // systems, concurrently maintainable) Tier III; two active paths (fault tolerant) Tier IV.
    if (powerTopology == "N") return "facility_downtime_hours_n";
    if (powerTopology == "N+1") return "facility_downtime_hours_n_plus_1";
    if (powerTopology == "3/2" || powerTopology == "4/3")
        return "facility_downtime_hours_distributed_redundant";
    return "facility_downtime_hours_2n";
}

void evaluatePower(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const model::Catalog& catalog = c.catalog;
    const InputResolver& inputs = c.inputs;
    const BillOfMaterials& bom = c.bom;
    sumItPower(c);
    auto& perBuilding = c.perBuilding;

    // ---- Heat rejection (cost/cooling_plant.h) ----
    // Each loop's liquid heat and pump work go to its own plant at its supply temperature; the rest of the
    // building's IT heat (air share of the racks, network, storage, WAN) to CRAH fans and the air-side
    // chilled-water plant (plant-chiller at air_chilled_water_supply_c). Plants run on the climate of the
    // building's site (data/climate.json), unless the site pins free_cooling_hours_per_year.
    std::unordered_map<std::string, Power> pumpsByBuilding;
    std::unordered_map<std::string, std::vector<LoopLoad>> loopsByBuilding;
    collectLoopLoads(c, pumpsByBuilding, loopsByBuilding);
    const auto climateTable = defaultClimateTable();
    addClimateSiteRules(c, *climateTable);
    const CoolingPlanKey coolingKey = coolingPlanKey(a);
    const double crahFraction = coolingKey.crahFanFraction, misc = a.get("misc_facility_fraction");
    const auto coolingPlans = planBuildingCooling(c, climateTable, loopsByBuilding, coolingKey);
    Money& plantCapex = c.plantCapex;
    // The loops' liquid heat (bill of materials) is the racks' at nameplate; capped racks reject at most
    // their provisioned draw, so the loop plants are sized and run on heat x provisioned / nameplate (1
    // without oversubscription).
    const double heatScale = c.computeNameplate.value() > 0
                                 ? std::min(1.0, c.computeProvisioned.value() / c.computeNameplate.value())
                                 : 1.0;
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
        // Facility power at one operating point. Without a chain (the first pass, which sizes it) the losses
        // are the IT path's at full-load efficiency; with the building's chain, chainLosses adds the plant's
        // losses through the upstream gear and the part-load correction (cost/power_chain.h).
        auto facilityAt = [&](Power it, double loadScale, const PlantCondition& at,
                              const BuildingPowerChain* chain, Power& pumps, Power& plantPower, Power& losses,
                              Power& miscP) {
            pumps = pumpsByBuilding[b.id] * loadScale;
            // Plant electric power: liquid heat + pump work over the loop plants' COP, air heat over the
            // air-side plant's plus CRAH fans (BuildingCooling::plantPowerW); all IT power ends up as heat.
            plantPower = cooling.plantPowerW(it.value(), loadScale * heatScale, at) * watt;
            miscP = misc * it;
            if (chain)
                losses =
                    chainLosses(*chain, it.value(), eta, pumps.value(), (pumps + plantPower + miscP).value())
                        .total() *
                    watt;
            else
                // Distribution losses through the feed chain: P_in = P_it / η.
                losses = eta > 0 ? it / eta - it : Power{};
            return it + pumps + plantPower + losses + miscP;
        };
        Power pumps, plantPower, losses, miscP;
        const double loadScale = safeDiv(bp.itOperating.value(), bp.itPeak.value());
        // Peak: full load on the design day (ASHRAE 0.4%); operating: the annual average of the 12 months.
        const PlantCondition designDay = PlantCondition::designDay(), annual = PlantCondition::annual();
        bp.facilityPeak = facilityAt(bp.itPeak, 1.0, designDay, nullptr, pumps, plantPower, losses, miscP);
        const auto pinned = inputs.buildingPuePinned(b);
        if (pinned) bp.facilityPeak = *pinned * bp.itPeak;
        // The building's power chain, sized on its loads: the UPS on the
        // IT peak and the pumps, transformers, switchgear and generators on the facility peak. That peak
        // includes the chain's own losses, so the chain is sized twice: on the first pass's peak (IT path
        // losses only), then on the peak with that chain's losses (the plant's upstream losses and part load,
        // under 1 % of the facility); a third sizing would move the peak by the change in losses between two
        // chains of the same classes, which is below a unit's rounding. A scenario tool's memo sizes it once
        // per distinct first-pass peaks (cost/evaluation_memo.h).
        {
            const Power critical = bp.itPeak + pumps;
            auto size = [&] {
                auto first = sizePowerChain(p, catalog, b, critical, bp.facilityPeak);
                if (pinned) return first;
                Power pu, pl, lo, mi;
                return sizePowerChain(p, catalog, b, critical,
                                      facilityAt(bp.itPeak, 1.0, designDay, &first, pu, pl, lo, mi));
            };
            if (c.memo)
                r.power.chains.push_back(*c.memo->powerChain(
                    bom, static_cast<size_t>(&b - p.buildings.data()), bp.itPeak, bp.facilityPeak, size));
            else
                r.power.chains.push_back(size());
        }
        const BuildingPowerChain* chain = pinned ? nullptr : &r.power.chains.back();
        if (chain)
            bp.facilityPeak = facilityAt(bp.itPeak, 1.0, designDay, chain, pumps, plantPower, losses, miscP);
        // The plants are sized for the heat at full load: each loop's plant for its liquid heat and pumps,
        // the air-side chilled-water plant for the air heat.
        plantCapex += cooling.plantCapexUsd * heatScale * usd;
        r.power.trimCompressor += cooling.trimCompressorW * heatScale * watt;
        if (airPlantItem)
            plantCapex +=
                airPlantItem->value("capex_usd_per_w") * cooling.airHeatW(bp.itPeak.value(), heatScale) * usd;
        bp.facilityOperating =
            facilityAt(bp.itOperating, loadScale, annual, chain, pumps, plantPower, losses, miscP);
        {
            const double air = cooling.airHeatW(bp.itOperating.value(), loadScale * heatScale);
            const double fans = crahFraction * air;
            bp.crahFans = fans * watt;
            bp.plantAir = (air + fans) * cooling.air.annualInverseCop * watt;
            bp.plantLiquid = plantPower - bp.plantAir - bp.crahFans;
            bp.climateLocation = climate ? climate->id : "";
            bp.economizerHoursLiquid = cooling.liquidEconomizerHours;
            bp.economizerHoursAir = cooling.air.economizerHours;
            const double liquid = (cooling.liquidHeatW + cooling.pumpW) * loadScale * heatScale;
            economizerHeat += liquid + air;
            const EvaporativeLoad evaporative =
                evaporativeLoad(plan, loopsByBuilding, b.id, air + fans, loadScale * heatScale);
            c.evaporativeHeatW += evaporative.heatW;
            c.evaporationKgPerHour += evaporative.kgPerHour;
            economizerHoursHeat += liquid * cooling.liquidEconomizerHours + air * cooling.air.economizerHours;
        }
        if (pinned) {
            bp.facilityPeak = *pinned * bp.itPeak;
            bp.facilityOperating = *pinned * bp.itOperating;
        } else {
            r.power.pumps += pumps, r.power.plant += plantPower, r.power.losses += losses,
                r.power.misc += miscP;
            r.power.plantLiquid += bp.plantLiquid, r.power.plantAir += bp.plantAir,
                r.power.crahFans += bp.crahFans;
        }
        // Load duration: the facility's hour classes (fillLoadDuration).
        fillLoadDuration(bp, cooling, loadScale, heatScale, pinned.has_value(),
                         [&](Power it, double scale, const PlantCondition& at) {
                             Power pu, pl, lo, mi;
                             return facilityAt(it, scale, at, chain, pu, pl, lo, mi);
                         });
        bp.pue = bp.itOperating.value() > 0 ? bp.facilityOperating.value() / bp.itOperating.value() : 1.0;
        bp.puePeak = bp.itPeak.value() > 0 ? bp.facilityPeak.value() / bp.itPeak.value() : 1.0;
        r.power.facility += bp.facilityOperating;
        r.power.facilityPeak += bp.facilityPeak;
        setTariffAndAvailability(c, b, bp);
    }
    sumFacilityPower(c);
    addOnsiteGeneration(c);
    sizeBattery(c);
    evaluateSitePower(c);
    r.power.economizerHours = safeDiv(economizerHoursHeat, economizerHeat);
    addDistributionRules(c);
}

namespace {

/// The battery's power, energy and round-trip losses (sizeBattery).
void addBatteryFigures(EvalContext& c) {
    addFigure(c, "power.bess_power_mw", c.bessPowerMw, "MW", "Battery power",
              "max(the larger training swing (step or stop) when a ramp limit is set, curtailment depth x "
              "average facility MW when it rides through)",
              {}, {c.source("grid_ramp_limit_mw_per_min"), c.source("bess_ride_through_hours")});
    addFigure(c, "power.bess_energy_mwh", c.bessEnergyMwh, "MWh", "Battery energy",
              "larger swing^2 / (2 x ramp limit) + shed MW x ride-through hours per event",
              {{"swing_mw", c.trainingSwingMw}, {"curtailment_covered", c.curtailmentCovered}});
    if (c.bessLossMwhPerYear > 0)
        addFigure(c, "power.bess_losses_mwh_per_year", c.bessLossMwhPerYear, "MWh/yr",
                  "Battery round-trip losses a year (training step smoothing and curtailment ride-through)",
                  "(1 / round-trip efficiency - 1) x (step swing x compute share x (1 - compute share) x "
                  "8,766 h x utilization, when a ramp limit is set + shed MW x hours carried per event x "
                  "events a year); bought as facility energy",
                  {{"events_per_year", safeDiv(c.curtailmentHours, c.curtailmentEventHours)},
                   {"step_cycled_mwh_per_year", c.bessCycledMwhPerYear}},
                  {c.source("bess_round_trip_efficiency"), c.source("bess_ride_through_hours"),
                   c.source("grid_ramp_limit_mw_per_min")});
}

} // namespace

namespace {
/// The bill of materials' counts (SPEC.md §4.1).
void addInventoryFigures(EvalContext& c) {
    const BillOfMaterials& bom = c.bom;
    addFigure(c, "inventory.gpus", bom.gpus, "GPU", "GPUs", "sum over racks of catalog gpus per rack type",
              {{"racks", bom.racks}});
    addFigure(c, "inventory.racks", bom.racks, "rack", "Racks",
              "count of rack placements, compute and network racks");
    addFigure(c, "inventory.network_racks", bom.networkRacks, "rack", "Network racks",
              "racks of kind network (row leaves, patching, PDUs; data/catalog/racks.json)");
    addFigure(c, "inventory.sites", bom.sites, "site", "Sites", "count of sites");
    addFigure(c, "inventory.buildings", bom.buildings, "building", "Buildings", "count of buildings");
    addFigure(
        c, "inventory.switches", bom.switches, "switch", "Switches",
        "Clos sizing per fabric and plane: leaves ceil(E/d1), spines from uplinks, cores from spine uplinks");
    addFigure(c, "inventory.transceivers", bom.transceivers, "module", "Transceivers",
              "two per optical link (NIC side at endpoint speed, switch side at port speed), media by reach");
    addFigure(c, "inventory.cdus", bom.cdus, "CDU", "CDUs", "installed CDUs over all cooling loops");
}
} // namespace

void addPowerFigures(EvalContext& c) {
    Results& r = c.r;
    const BillOfMaterials& bom = c.bom;
    addInventoryFigures(c);
    addFigure(c, "power.it_mw", toMw(r.power.itOperating), "MW", "IT power",
              "= power.it_total_mw (kept), annual average: racks at idle + (busy draw - idle) x "
              "utilization (busy: the inference services' racks at their prefill/decode mix, training and "
              "unbooked GPUs at load), plus network (switches, switch-side optics), storage, WAN",
              {{"utilization", c.utilization}, {"busy_draw_share_of_load", c.computeBusyShare}},
              {c.source("utilization"), c.source("inference_prefill_power_draw"),
               c.source("inference_decode_power_draw")});
    addFigure(c, "power.it_peak_mw", toMw(r.power.itPeak), "MW", "IT power at full load (provisioned)",
              "= power.it_total_peak_mw (kept): racks at their planning basis / their domain's "
              "oversubscription ratio, spares idle, plus network, storage, WAN");
    // Two definitions of IT power: architects size a site on the compute IT load (the
    // racks: GPUs, CPUs, NICs and their optics, scale-up trays), while the energy bill and PUE's
    // denominator take every IT device (The Green Grid WP #49: IT equipment energy includes network and
    // storage). power.it_mw / it_peak_mw stay equal to the total.
    addFigure(c, "power.it_compute_mw", toMw(r.power.compute), "MW", "Compute IT power",
              "annual average: racks at idle + (busy draw - idle) x utilization (busy: the inference "
              "services' racks at their prefill/decode mix, training and unbooked GPUs at load), spares "
              "idle; no network, storage or WAN",
              {{"utilization", c.utilization}, {"busy_draw_share_of_load", c.computeBusyShare}});
    addFigure(
        c, "power.it_compute_peak_mw", toMw(r.power.computePeak), "MW",
        "Compute IT power at full load (provisioned)",
        "racks at their planning basis (load, or their workload's observed peak draw) / their domain's "
        "oversubscription ratio, spares idle; no network, storage or WAN (the generator's it_mw target)",
        {{"oversubscription_ratio", c.oversubscription},
         {"largest_domain_ratio", c.maxRatio},
         {"provisioning_basis", c.provisioningBasis}},
        {c.source("power_oversubscription_ratio"), c.source("power_provisioning_basis")});
    // Provisioned vs nameplate: the racks' full-load draw, and how many fit a megawatt
    // of the facility's provisioned peak.
    addFigure(c, "power.grid_availability", c.gridAvailability, "",
              "Share of GPU-hours the grid leaves (flexible interconnect, annual)",
              "1 - curtailment hours x depth / 8,766 h (1 = firm service)",
              {{"curtailment_hours", c.curtailmentHours}, {"depth", c.curtailmentDepth}},
              {c.source("grid_curtailment_hours_per_year"), c.source("grid_curtailment_depth")});
    if (!c.p.trainingJobs.empty())
        addFigure(
            c, "power.training_swing_mw", c.trainingSwingMw, "MW",
            "Training step power swing (IT, first job)",
            "job GPUs x full-load rack power per GPU x (rack draw in the compute phase at its clock - in "
            "the communication trough)",
            {{"job_gpus", c.p.trainingJobs.front().gpus}, {"rack_load_w_per_gpu", c.rackLoadWPerGpu}},
            {c.source("training_compute_power_draw"), c.source("training_trough_power_draw")});
    if (!c.p.trainingJobs.empty())
        addFigure(
            c, "power.training_stop_swing_mw", c.trainingStopSwingMw, "MW",
            "Training stop power swing (IT, first job: a crash, compute phase to idle)",
            "job GPUs x full-load rack power per GPU x (rack draw in the compute phase - idle / full load)",
            {{"idle_share", c.rackIdleShare}},
            {"Meta, 'The Llama 3 Herd of Models', 2024, section 3.3.4 (tens of MW on 16K GPUs)"});
    addBatteryFigures(c);
    addSitePowerFigures(c);
    addFigure(c, "power.onsite_generation_share", c.onsiteShare, "",
              "Share of facility energy from on-site generation (annual)",
              "min(on-site MW, annual-average facility MW) / annual-average facility MW",
              {{"onsite_mw", c.onsiteMw}, {"facility_mw", toMw(r.power.facility)}},
              {c.source("onsite_generation_mw")});
    addFigure(c, "power.it_compute_nameplate_mw", toMw(c.computeNameplate), "MW",
              "Compute IT power at full load (nameplate, not oversubscribed)",
              "racks at power_load_w, spares idle; provisioned = nameplate / each domain's oversubscription "
              "ratio");
    addFigure(c, "power.compute_racks_per_provisioned_mw",
              safeDiv(bom.computeRacks, toMw(r.power.facilityPeak)), "rack/MW",
              "Compute racks per provisioned facility MW",
              "compute racks / facility power at peak (design day, racks at their provisioned full load)",
              {{"compute_racks", bom.computeRacks}, {"facility_peak_mw", toMw(r.power.facilityPeak)}});
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
              "IT + pumps + plant (heat / COP) + misc + distribution losses: the IT path at full-load "
              "efficiency (IT/eta - IT), the plant, pumps and misc through the upstream gear, and each gear "
              "class's part-load correction (no-load and square-law losses, Schneider WP 113)",
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
              {"data/climate.json (NOAA / WMO 1991-2020 normals)", c.source("climate_hourly_spread_factor")});
    {
        // Availability per topology, with the assumptions the buildings read.
        std::vector<SourceRef> sources;
        std::set<std::string> keys;
        double hours = 0.0, weight = 0.0;
        for (size_t i = 0; i < r.power.buildings.size(); ++i) {
            const auto& bp = r.power.buildings[i];
            hours += bp.itPeak.value() * bp.downtimeHours, weight += bp.itPeak.value();
        }
        for (const auto& b : c.p.buildings)
            if (keys.insert(downtimeAssumptionOf(b.powerTopology)).second)
                sources.push_back(c.source(downtimeAssumptionOf(b.powerTopology)));
        addFigure(c, "power.facility_availability", r.power.facilityAvailability, "",
                  "Facility availability (annual, by power topology)",
                  "IT-weighted over buildings of 1 - site-caused downtime hours / 8,766 h, the hours by the "
                  "building's power_topology (Uptime Institute Tier figures: N Tier I, N+1 Tier II, 3/2 and "
                  "4/3 Tier III, 2N Tier IV); scales the GPU-hours sold and training goodput",
                  {{"downtime_hours_per_year", weight > 0 ? hours / weight : 0.0}}, sources);
    }
    addFigure(
        c, "power.pue_peak", r.power.puePeak, "", "PUE (peak, design day)",
        "facility power / IT power at full load on the ASHRAE 0.4% design day (dry-bulb for dry coolers, "
        "wet-bulb for towers and water-side economizers)",
        {{"facility_peak_mw", toMw(r.power.facilityPeak)}, {"it_peak_mw", toMw(r.power.itPeak)}},
        {"ASHRAE Handbook-Fundamentals 2021 ch. 14 climatic design conditions (data/climate.json)"});
    addFigure(c, "power.facility_peak_mw", toMw(r.power.facilityPeak), "MW", "Facility power at peak",
              "IT at full load + pumps + plant on the design day + losses + misc (sizes buildings)");
    addFigure(c, "power.plant_liquid_mw", toMw(r.power.plantLiquid), "MW", "Liquid-loop plant power",
              "sum over loops of (liquid heat + pump work) x annual 1/COP of the loop's plant");
    addFigure(c, "power.plant_air_mw", toMw(r.power.plantAir), "MW", "Air-side chilled-water plant power",
              "(air heat + CRAH fan heat) x annual 1/COP of plant-chiller at air_chilled_water_supply_c", {},
              {c.source("air_chilled_water_supply_c")});
    addFigure(c, "power.crah_fans_mw", toMw(r.power.crahFans), "MW", "CRAH fan power",
              "air heat (IT not carried by liquid loops) x crah_fan_power_fraction", {},
              {c.source("crah_fan_power_fraction")});
    addFigure(c, "cooling.economizer_hours", r.power.economizerHours, "h/yr", "Economizer hours",
              "full-economizer hours a year (compressors off), weighted by the heat of each plant", {},
              {c.source("climate_hourly_spread_factor")});
    addFigure(c, "cooling.trim_compressor_mw", toMw(r.power.trimCompressor), "MW", "Trim compressor capacity",
              "sum over dry-cooler and tower loops of (liquid heat + pumps) at full load x the design-day "
              "compressor share; priced at the plant's trim_compressor_capex_usd_per_w");
}

} // namespace ctwin::cost::detail
