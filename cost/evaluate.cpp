#include "evaluate.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

#include "finance.h"
#include "geometry_rules.h"
#include "input_error.h"

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

std::string fmt(double v, int decimals = 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

/// Replaces NaN/inf (impossible inputs that slipped through) by 0 so no report ever prints NaN.
double finite(double v) { return std::isfinite(v) ? v : 0.0; }
double safeDiv(double a, double b) { return b != 0.0 ? finite(a / b) : 0.0; }

/// Host DRAM a GPU can spill KV cache to: Grace has 480 GB LPDDR5X per CPU serving 2 GPUs in GB200/GB300
/// (NVIDIA GB200 NVL72 datasheet); HGX servers carry ~2 TB per 8 GPUs. 240 GB per GPU, estimate.
constexpr double kHostMemoryPerGpuBytes = 240e9;
/// Tokens per optimizer step: Llama 3 405B trained at up to 16M tokens per batch (Llama 3 paper, §3.4.1).
constexpr double kGlobalBatchTokens = 16e6;

struct RackInfo {
    const model::RackPlacement* rack;
    const CatalogItem* type;
    std::string building;
    std::string site;
};

double precisionFlops(const CatalogItem& accel, const std::string& precision) {
    if (precision == "fp4" && accel.value("fp4_flops") > 0) return accel.value("fp4_flops");
    if ((precision == "fp8" || precision == "fp4") && accel.value("fp8_flops") > 0) return accel.value("fp8_flops");
    return accel.value("bf16_flops");
}

/// Efficiency of the power chain of a building: product of the gear efficiencies of its feeds (averaged
/// over feeds); the default chain when the building has no feed.
double chainEfficiency(const model::Project& p, const model::Catalog& catalog, const std::string& building) {
    double sum = 0;
    int n = 0;
    for (const auto& f : p.powerFeeds) {
        if (f.building != building) continue;
        double eta = 1.0;
        for (const auto& g : f.chain) eta *= catalog.at(g).value("efficiency");
        sum += eta, ++n;
    }
    if (n > 0) return sum / n;
    double eta = 1.0;
    for (const char* g : {"xfmr-mv", "switchgear-lv", "ups-static", "busway-row"})
        if (const auto* item = catalog.find(g)) eta *= item->value("efficiency");
    return eta;
}

void addFigure(Results& r, std::string key, double value, std::string unit, std::string label, std::string formula,
               std::vector<std::pair<std::string, double>> inputs = {}, std::vector<std::string> sources = {}) {
    r.figures.push_back(Figure{std::move(key), finite(value), std::move(unit), std::move(label),
                               Provenance{std::move(formula), std::move(inputs), std::move(sources)}});
}

} // namespace

ReliabilityOptions reliabilityOptionsFor(const model::TrainingJob& job, const AssumptionValues& a) {
    ReliabilityOptions o;
    o.scope = job.restartScope == "parallel_group" ? RestartScope::ParallelGroup
              : job.restartScope == "hot_spare"    ? RestartScope::HotSpare
                                                   : RestartScope::WholeJob;
    o.asyncCheckpoint = job.asyncCheckpoint;
    o.detectionTime = seconds(60.0 * a.get("failure_detection_minutes"));
    o.reschedulingTime = seconds(60.0 * a.get("rescheduling_minutes"));
    o.spareSwapTime = seconds(60.0 * a.get("spare_swap_minutes"));
    o.stragglerLoss = a.get("straggler_loss");
    o.sdcExtraRollbackIntervals = a.get("sdc_extra_rollback_intervals");
    return o;
}

double CapexResult::share(const std::string& category) const {
    auto it = byCategory.find(category);
    return it == byCategory.end() ? 0.0 : safeDiv(it->second.value(), total.value());
}

const Figure* Results::figure(const std::string& key) const {
    for (const auto& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

bool Results::hasErrors() const {
    return std::any_of(rules.begin(), rules.end(), [](const DesignRule& r) { return r.severity == Severity::Error; });
}

const ResolvedInput* Results::input(const std::string& path) const {
    for (const auto& i : inputs)
        if (i.path == path) return &i;
    return nullptr;
}

Results evaluate(const model::Project& p, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                 const BillOfMaterials* bom) {
    const InputResolver inputs(p, defaults);
    return evaluate(inputs, catalog, bom);
}

Results evaluate(const model::Project& p, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                 const InputOverrides& overrides) {
    const InputResolver inputs(p, defaults, overrides);
    Results r = evaluate(inputs, catalog);
    inputs.requireOverridesUsed();
    return r;
}

Results evaluate(const InputResolver& inputs, const model::Catalog& catalog,
                 const BillOfMaterials* cachedBom) {
    Results r;
    // Every input comes through the resolver (SPEC.md §4 "Input resolution"): p is the design with
    // overrides of plain fields applied, a the effective assumptions, and fields that fall back to an
    // assumption are asked of `inputs`.
    const model::Project& p = inputs.project();
    const AssumptionValues& a = inputs.assumptions();
    r.bom = cachedBom ? *cachedBom : deriveBillOfMaterials(catalog, inputs);
    r.rules = r.bom.rules;
    const auto& bom = r.bom;

    const double utilization = a.get("utilization");
    if (utilization < 0 || utilization > 1)
        r.rules.push_back({Severity::Error, "utilization_range", "assumptions.utilization",
                           "Utilization " + fmt(utilization, 2) + " must lie in [0, 1]; results use it clamped"});
    const double u = std::clamp(utilization, 0.0, 1.0);
    // With a training job, goodput comes from its reliability model; the assumption is read only without one.
    if (p.trainingJobs.empty()) r.goodput = std::clamp(a.get("goodput"), 0.0, 1.0);

    // ---- Layout look-ups ----
    std::unordered_map<std::string, const model::Row*> rows;
    std::unordered_map<std::string, const model::DataHall*> halls;
    std::unordered_map<std::string, const model::Building*> buildings;
    for (const auto& x : p.rows) rows[x.id] = &x;
    for (const auto& x : p.halls) halls[x.id] = &x;
    for (const auto& x : p.buildings) buildings[x.id] = &x;
    std::vector<RackInfo> racks;
    racks.reserve(p.racks.size());
    for (const auto& rk : p.racks) {
        RackInfo info{&rk, &catalog.at(rk.rackType), {}, {}};
        if (auto row = rows.find(rk.row); row != rows.end())
            if (auto h = halls.find(row->second->hall); h != halls.end())
                if (auto b = buildings.find(h->second->building); b != buildings.end())
                    info.building = b->second->id, info.site = b->second->site;
        racks.push_back(info);
    }

    // ---- Power (SPEC.md §4.2) ----
    // Rack power at utilization u: idle + (load - idle)·u (linear server power model, Fan, Weber & Barroso,
    // "Power Provisioning for a Warehouse-sized Computer", ISCA 2007); hot spares idle.
    std::map<std::string, BuildingPower> perBuilding;
    for (const auto& b : p.buildings) {
        auto& bp = perBuilding[b.id];
        bp.buildingId = b.id, bp.siteId = b.site, bp.capacity = b.powerCapacity;
    }
    std::unordered_map<std::string, const model::Site*> sitesById;
    for (const auto& s : p.sites)
        sitesById[s.id] = &s;
    Power computePeak{}, computeOperating{};
    for (const auto& ri : racks) {
        const double load = ri.type->value("power_load_w"), idle = ri.type->value("power_idle_w");
        const double peak = ri.rack->spare ? idle : load;
        const double operating = ri.rack->spare ? idle : idle + (load - idle) * u;
        computePeak += peak * watt;
        computeOperating += operating * watt;
        if (auto it = perBuilding.find(ri.building); it != perBuilding.end()) {
            it->second.itPeak += peak * watt;
            it->second.itOperating += operating * watt;
        }
    }
    for (const auto& f : bom.fabrics) r.power.network += f.power;
    for (const auto& l : bom.links) r.power.wan += l.power;
    r.power.storage = bom.storagePower;
    r.power.compute = computeOperating;
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
        if (auto h = halls.find(loop.hall); h != halls.end()) b = h->second->building;
        pumpsByBuilding[b] += bom.loops[i].pumpPower;
        if (!plantByBuilding.count(b)) plantByBuilding[b] = loop.plant;
    }
    const double misc = a.get("misc_facility_fraction");
    const auto* economizer = catalog.find("plant-dry-cooler");
    Money plantCapex{};
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
        const double eta = chainEfficiency(p, catalog, b.id);
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
            r.power.pumps += pumps, r.power.plant += plantPower, r.power.losses += losses, r.power.misc += miscP;
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
                               "Building " + b.name + ": facility power at full load " + fmt(toMw(bp.facilityPeak), 1) +
                                   " MW exceeds its " + fmt(toMw(bp.capacity), 1) + " MW capacity"});
        if (bp.capacity.value() <= 0 && bp.itPeak.value() > 0)
            r.rules.push_back({Severity::Warning, "building_no_capacity", b.id,
                               "Building " + b.name + " has IT load but no power capacity set"});
    }
    for (auto& [_, bp] : perBuilding) r.power.buildings.push_back(bp);
    // Racks outside any building (orphans, flagged) still draw power.
    const Power orphanIt = r.power.itOperating - [&] {
        Power s{};
        for (const auto& bp : r.power.buildings) s += bp.itOperating;
        return s;
    }();
    if (orphanIt.value() > 1e-6) r.power.facility += orphanIt;
    r.power.pue = r.power.itOperating.value() > 0 ? r.power.facility.value() / r.power.itOperating.value() : 1.0;

    // ---- Capex (SPEC.md §4.4) ----
    auto& cat = r.capex.byCategory;
    for (const auto& c : kCapexCategories) cat[c] = Money{};
    for (const auto& line : bom.rackLines) {
        const auto& t = catalog.at(line.catalogId);
        const double scaleUp = t.kind == "compute" ? t.value("scale_up_network_price_usd") : 0.0;
        cat["compute"] += line.quantity * (t.value("price_usd") - scaleUp) * usd;
        cat["scale_up_network"] += line.quantity * scaleUp * usd;
    }
    for (const auto& f : bom.fabrics) cat["scale_out_network"] += f.switchCost, cat["optics_cables"] += f.opticsCost;
    cat["storage"] = bom.storageCost;
    for (const auto& b : p.buildings) {
        bool hasFeed = false;
        for (const auto& f : p.powerFeeds) {
            if (f.building != b.id) continue;
            hasFeed = true;
            for (const auto& g : f.chain) cat["power"] += catalog.at(g).value("capex_usd_per_w") * f.capacity.value() * usd;
        }
        if (!hasFeed) // default A/B chain sized for the building's peak IT (2N: two full paths)
            for (const char* g : {"xfmr-mv", "switchgear-lv", "ups-static", "busway-row"})
                if (const auto* item = catalog.find(g))
                    cat["power"] += 2.0 * item->value("capex_usd_per_w") * perBuilding[b.id].itPeak.value() * usd;
        cat["building"] += inputs.buildingShellCost(b, perBuilding[b.id].itPeak);
    }
    for (const auto& s : p.sites) cat["building"] += s.landCost;
    for (size_t i = 0; i < p.coolingLoops.size() && i < bom.loops.size(); ++i)
        if (const auto* cdu = catalog.find(p.coolingLoops[i].cduType))
            cat["cooling"] += bom.loops[i].cdusInstalled * cdu->value("price_usd") * usd;
    cat["cooling"] += plantCapex;
    for (const auto& l : bom.links) cat["scale_across"] += l.capex;
    cat["integration"] = a.get("integration_fraction") * (cat["compute"] + cat["scale_up_network"]);
    for (const auto& [_, v] : cat) r.capex.total += v;
    r.capex.perGpu = bom.gpus > 0 ? r.capex.total / bom.gpus : Money{};
    r.capex.perMw = r.power.itPeak.value() > 0 ? r.capex.total / toMw(r.power.itPeak) : Money{};

    // ---- Finance (SPEC.md §4.5) ----
    auto& fin = r.finance;
    const double wacc = a.get("wacc");
    const int horizon = std::max(0, static_cast<int>(std::lround(a.get("horizon_years"))));
    const double dbFactor = a.get("declining_balance_factor");
    fin.assetClasses = {
        {"it", cat["compute"] + cat["scale_up_network"] + cat["storage"] + cat["integration"], a.get("it_useful_life_years"), {}, {}},
        {"network", cat["scale_out_network"] + cat["optics_cables"] + cat["scale_across"], a.get("network_useful_life_years"), {}, {}},
        {"facility", cat["power"] + cat["cooling"] + cat["building"], a.get("facility_useful_life_years"), {}, {}},
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
    if (orphanIt.value() > 1e-6) {
        fin.facilityEnergyAnnual += orphanIt * year;
        fin.energyAnnual += dollarsPerKwh(a.get("electricity_usd_per_kwh")) * (orphanIt * year);
    }
    fin.maintenanceAnnual = a.get("maintenance_fraction") * r.capex.total;
    fin.staffAnnual = a.get("staff_usd_per_mw_year") * toMw(r.power.itPeak) * usd;
    for (const auto& l : bom.links) fin.wanLeaseAnnual += l.lease * year;
    fin.opexAnnual = fin.energyAnnual + fin.maintenanceAnnual + fin.staffAnnual + fin.wanLeaseAnnual;
    fin.tcoAnnual = fin.annualizedCapex + fin.opexAnnual;
    const double sellableGpus = std::max(0.0, bom.gpus - bom.spareGpus);
    fin.gpuHoursPerYear = sellableGpus * kHoursPerYear * u;
    fin.costPerGpuHour = safeDiv(fin.tcoAnnual.value(), fin.gpuHoursPerYear);
    if (fin.gpuHoursPerYear <= 0)
        r.rules.push_back({Severity::Warning, "no_gpu_hours", p.info.id,
                           "No GPU-hours are sold (no GPUs or utilization 0): per-GPU-hour and per-token costs are 0"});
    // Yearly cash flow: revenue from sold GPU-hours, minus opex and tax on (revenue - opex - depreciation).
    const double price = a.get("gpu_hour_price_usd");
    const double taxRate = a.get("tax_rate");
    fin.cashFlows.push_back(-r.capex.total);
    for (int y = 0; y < horizon; ++y) {
        Money dep{};
        for (const auto& ac : fin.assetClasses) dep += ac.straightLine[static_cast<size_t>(y)];
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

    // ---- Training economics (SPEC.md §4.7) ----
    auto acceleratorFor = [&](const std::set<std::string>& sites) -> const CatalogItem* {
        std::map<std::string, double> gpusByType;
        for (const auto& ri : racks)
            if (ri.type->kind == "compute" && (sites.empty() || sites.count(ri.site)))
                gpusByType[ri.type->attribute("accelerator")] += ri.type->value("gpus");
        const CatalogItem* best = nullptr;
        double most = 0;
        for (const auto& [acc, n] : gpusByType)
            if (n > most) most = n, best = catalog.find(acc);
        return best;
    };
    auto rackTypeFor = [&]() -> const CatalogItem* {
        std::map<std::string, double> n;
        for (const auto& ri : racks)
            if (ri.type->kind == "compute") n[ri.type->id] += ri.type->value("gpus");
        const CatalogItem* best = nullptr;
        double most = 0;
        for (const auto& [id, c] : n)
            if (c > most) most = c, best = catalog.find(id);
        return best;
    };
    const double facilityPerGpu = safeDiv(r.power.facility.value(), bom.gpus);
    for (const auto& job : p.trainingJobs) {
        TrainingResult tr;
        tr.jobId = job.id;
        // Reliability (SPEC.md §4.6): failures of the job's footprint, checkpointing, restart scope.
        tr.reliability = analyzeReliability(reliabilityInputFor(p, catalog, bom, job, reliabilityOptionsFor(job, a)));
        r.rules.insert(r.rules.end(), tr.reliability.rules.begin(), tr.reliability.rules.end());
        const std::set<std::string> sites(job.sites.begin(), job.sites.end());
        const auto* acc = acceleratorFor(sites);
        TrainingInput in;
        in.activeParams = inputs.jobActiveParams(job);
        in.modelParams = job.modelParams;
        in.tokens = job.tokens;
        in.gpus = job.gpus;
        in.peakFlopsPerGpu = (acc ? precisionFlops(*acc, job.precision) : 0.0) * hertz;
        in.mfu = inputs.jobMfu(job);
        in.goodput = tr.reliability.goodput;
        in.sites = std::max<int>(1, static_cast<int>(job.sites.size()));
        in.globalBatchTokens = kGlobalBatchTokens;
        if (in.sites > 1) {
            double slowest = 0;
            Time latency{};
            for (size_t i = 0; i < p.links.size() && i < bom.links.size(); ++i) {
                const auto& l = p.links[i];
                auto siteOfEndpoint = [&](const std::string& id) {
                    if (auto b = buildings.find(id); b != buildings.end()) return b->second->site;
                    return id;
                };
                if (!sites.count(siteOfEndpoint(l.from)) || !sites.count(siteOfEndpoint(l.to))) continue;
                if (slowest == 0 || l.capacityBitPerS < slowest) slowest = l.capacityBitPerS;
                latency = std::max(latency, bom.links[i].oneWayLatency);
            }
            in.wanBandwidth = bitsPerSecond(slowest);
            in.wanOneWayLatency = latency;
            if (slowest <= 0)
                r.rules.push_back({Severity::Error, "job_no_wan", job.id,
                                   "Training job " + job.name + " spans " + std::to_string(in.sites) +
                                       " sites but no scale-across link joins them"});
        }
        tr.estimate = estimateTraining(in);
        if (job.gpus > sellableGpus)
            r.rules.push_back({Severity::Error, "job_too_large", job.id,
                               "Training job " + job.name + " needs " + fmt(job.gpus) + " GPUs; the cluster sells " +
                                   fmt(sellableGpus)});
        if (!tr.estimate.feasible && tr.reliability.goodput <= 0)
            r.rules.push_back({Severity::Error, "job_no_progress", job.id,
                               "Training job " + job.name + " makes no progress: failures and restarts use all its time"});
        else if (!tr.estimate.feasible)
            r.rules.push_back({Severity::Error, "job_infeasible", job.id,
                               "Training job " + job.name + " cannot be estimated (no GPUs, no accelerator or zero MFU)"});
        if (tr.estimate.feasible && tr.estimate.scaleAcrossSlowdown > 1.0 + 1e-9)
            r.rules.push_back({Severity::Warning, "wan_step_budget", job.id,
                               "Training job " + job.name + ": the WAN gradient exchange stalls each step by " +
                                   fmt((tr.estimate.scaleAcrossSlowdown - 1) * 100, 1) + "%"});
        tr.runCost = toHours(tr.estimate.time) * job.gpus * fin.costPerGpuHour * usd;
        tr.costPerMillionTokens = safeDiv(tr.runCost.value(), job.tokens / 1e6);
        r.training.push_back(tr);
    }

    // ---- Inference economics (SPEC.md §4.8) ----
    const auto* servingRack = rackTypeFor();
    for (const auto& s : p.inferenceServices) {
        InferenceResult ir;
        ir.serviceId = s.id;
        const auto* acc = servingRack ? catalog.find(servingRack->attribute("accelerator")) : nullptr;
        AcceleratorSpec spec;
        if (acc) {
            spec.flops = precisionFlops(*acc, s.precision) * hertz;
            spec.hbmBandwidth = bytesPerSecond(acc->value("hbm_bandwidth_bytes_per_s"));
            spec.hbmCapacity = bytes(acc->value("hbm_bytes"));
            spec.scaleUpBandwidth = bytesPerSecond(acc->value("scale_up_bandwidth_bytes_per_s"));
            spec.domainGpus = static_cast<int>(servingRack->value("scale_up_domain_gpus"));
            spec.hostMemoryPerGpu = bytes(kHostMemoryPerGpuBytes);
        }
        const ServedModel m{
            s.modelParams,       inputs.serviceActiveParams(s), s.layers, s.kvHeads, s.headDim,
            s.kvBytesPerElement, s.weightBytesPerParam};
        ServiceDemand d;
        d.inputTokens = s.inputTokens;
        d.outputTokens = s.outputTokens;
        d.targetTokensPerSecondPerUser = s.targetTokensPerSPerUser;
        d.gpus = s.gpus;
        d.disaggregated = s.disaggregated;
        d.concurrentSessions = s.concurrentSessions;
        d.sessionContextTokens = s.sessionContextTokens;
        d.offloadDram = std::find(s.kvOffload.begin(), s.kvOffload.end(), "dram") != s.kvOffload.end();
        d.offloadNvme = std::find(s.kvOffload.begin(), s.kvOffload.end(), "nvme") != s.kvOffload.end();
        const double eff = a.get("mfu");
        ir.sizing = sizeService(m, spec, d, eff);
        ir.curve = decodeCurve(m, spec, s.inputTokens + s.outputTokens / 2.0, eff);
        if (ir.curve.empty())
            r.rules.push_back({Severity::Error, "model_does_not_fit", s.id,
                               "Inference service " + s.name + ": the weights do not fit in one scale-up domain's HBM"});
        else if (!ir.sizing.meetsTarget)
            r.rules.push_back({Severity::Warning, "tokens_per_user_target", s.id,
                               "Inference service " + s.name + " cannot reach " + fmt(s.targetTokensPerSPerUser) +
                                   " tokens/s per user on this hardware"});
        if (!ir.sizing.kvFits)
            r.rules.push_back({Severity::Warning, "kv_does_not_fit", s.id,
                               "Inference service " + s.name + ": KV cache of the concurrent sessions exceeds HBM and the offload tiers"});
        if (s.gpus > sellableGpus)
            r.rules.push_back({Severity::Error, "service_too_large", s.id,
                               "Inference service " + s.name + " needs " + fmt(s.gpus) + " GPUs; the cluster sells " +
                                   fmt(sellableGpus)});
        const double costPerSecond = s.gpus * fin.costPerGpuHour / 3600.0;
        const double servicePowerW = s.gpus * facilityPerGpu;
        ir.tokensPerSecondPerMw = safeDiv(ir.sizing.outputTokensPerSecond, servicePowerW / 1e6);
        // GPU time splits between prefill (input tokens) and decode (output tokens); each pays its share.
        ir.costPerMillionInputTokens = safeDiv(costPerSecond * ir.sizing.prefillFraction, ir.sizing.inputTokensPerSecond) * 1e6;
        ir.costPerMillionOutputTokens =
            safeDiv(costPerSecond * (1 - ir.sizing.prefillFraction), ir.sizing.outputTokensPerSecond) * 1e6;
        ir.joulesPerToken = safeDiv(servicePowerW, ir.sizing.outputTokensPerSecond);
        r.inference.push_back(std::move(ir));
    }

    if (!r.training.empty()) r.goodput = r.training.front().reliability.goodput;

    // ---- Design rules that need the whole picture (SPEC.md §4.10) ----
    const double spareTarget = a.get("spare_fraction_target");
    if (bom.computeRacks > 0 && bom.spareRacks < std::floor(spareTarget * bom.computeRacks))
        r.rules.push_back({Severity::Warning, "missing_spares", p.info.id,
                           "Hot spares: " + fmt(bom.spareRacks) + " spare racks, below the target of " +
                               fmt(spareTarget * 100, 1) + "% of " + fmt(bom.computeRacks) + " compute racks"});

    appendGeometryRules(p, catalog, r.rules); // cost/geometry_rules.h: outside parents, overlaps
    // Every input is resolved by now: record the values used and where they came from.
    r.inputs = inputs.inputs();

    // ---- Figures with provenance ----
    const auto src = [&](const std::string& key) { return a.source(key); };
    // The tariff of each site that draws power, with its provenance (site field, override or assumption).
    std::vector<std::string> tariffSources;
    {
        std::set<std::string> seenSites;
        for (const auto& bp : r.power.buildings)
            if (seenSites.insert(bp.siteId).second)
                if (const auto* t = r.input("sites." + bp.siteId + ".electricity_usd_per_kwh"))
                    tariffSources.push_back("site " + bp.siteId + ": " + t->describe() + "; " + t->source);
        if (orphanIt.value() > 1e-6 || tariffSources.empty())
            tariffSources.push_back(src("electricity_usd_per_kwh"));
    }
    addFigure(r, "inventory.gpus", bom.gpus, "GPU", "GPUs", "sum over racks of catalog gpus per rack type",
              {{"racks", bom.racks}});
    addFigure(r, "inventory.racks", bom.racks, "rack", "Racks", "count of rack placements");
    addFigure(r, "inventory.sites", bom.sites, "site", "Sites", "count of sites");
    addFigure(r, "inventory.buildings", bom.buildings, "building", "Buildings", "count of buildings");
    addFigure(r, "inventory.switches", bom.switches, "switch", "Switches",
              "Clos sizing per fabric and plane: leaves ceil(E/d1), spines from uplinks, cores from spine uplinks");
    addFigure(r, "inventory.transceivers", bom.transceivers, "module", "Transceivers",
              "two per optical link (NIC side at endpoint speed, switch side at port speed), media by reach");
    addFigure(r, "inventory.cdus", bom.cdus, "CDU", "CDUs", "installed CDUs over all cooling loops");
    addFigure(r, "power.it_mw", toMw(r.power.itOperating), "MW", "IT power",
              "racks at idle + (load - idle) x utilization, plus network, optics, storage, WAN",
              {{"utilization", u}}, {src("utilization")});
    addFigure(r, "power.it_peak_mw", toMw(r.power.itPeak), "MW", "IT power at full load", "racks at load, spares idle");
    addFigure(r, "power.facility_mw", toMw(r.power.facility), "MW", "Facility power",
              "IT + pumps + plant (heat / COP) + distribution losses (IT/eta - IT) + misc",
              {{"pumps_mw", toMw(r.power.pumps)}, {"plant_mw", toMw(r.power.plant)}, {"losses_mw", toMw(r.power.losses)}},
              {src("misc_facility_fraction")});
    addFigure(r, "power.pue", r.power.pue, "", "PUE", "facility power / IT power (computed)",
              {{"facility_mw", toMw(r.power.facility)}, {"it_mw", toMw(r.power.itOperating)}});
    addFigure(r, "capex.total_usd", r.capex.total.value(), "USD", "Capex", "sum of the ten capex categories");
    addFigure(r, "capex.per_gpu_usd", r.capex.perGpu.value(), "USD", "Capex per GPU", "capex / GPUs",
              {{"gpus", bom.gpus}});
    addFigure(r, "capex.per_mw_usd", r.capex.perMw.value(), "USD", "Capex per MW", "capex / peak IT MW",
              {{"it_peak_mw", toMw(r.power.itPeak)}});
    for (const auto& c : kCapexCategories)
        addFigure(r, "capex.by_category_usd." + c, cat[c].value(), "USD", c, "BOM lines of category " + c);
    for (const auto& c : kCapexCategories)
        addFigure(r, "capex.share." + c, r.capex.share(c), "", c + " share", "category / total");
    addFigure(r, "finance.annualized_capex_usd", fin.annualizedCapex.value(), "USD/yr", "Annualized capex",
              "sum over asset classes of capex x CRF(wacc, life)", {{"wacc", wacc}},
              {src("wacc"), src("it_useful_life_years"), src("network_useful_life_years"), src("facility_useful_life_years")});
    addFigure(r, "finance.depreciation_annual_usd", fin.depreciationAnnual.value(), "USD/yr", "Depreciation",
              "straight line: sum of capex / useful life per asset class");
    addFigure(r, "finance.energy_annual_usd", fin.energyAnnual.value(), "USD/yr", "Energy",
              "facility power x 8,766 h x tariff of the building's site",
              {{"facility_mwh", toKwh(fin.facilityEnergyAnnual) / 1e3}}, tariffSources);
    addFigure(r, "finance.opex_annual_usd", fin.opexAnnual.value(), "USD/yr", "Opex",
              "energy + maintenance + staff + WAN leases",
              {{"maintenance_usd", fin.maintenanceAnnual.value()}, {"staff_usd", fin.staffAnnual.value()},
               {"wan_lease_usd", fin.wanLeaseAnnual.value()}},
              {src("maintenance_fraction"), src("staff_usd_per_mw_year")});
    addFigure(r, "finance.tco_annual_usd", fin.tcoAnnual.value(), "USD/yr", "TCO per year", "annualized capex + opex");
    addFigure(r, "finance.cost_per_gpu_hour_usd", fin.costPerGpuHour, "USD/GPU-h", "Cost per GPU-hour",
              "TCO per year / (sellable GPUs x 8,766 h x utilization)",
              {{"gpu_hours_per_year", fin.gpuHoursPerYear}}, {src("utilization")});
    addFigure(r, "finance.npv_usd", fin.npv.value(), "USD", "NPV", "discounted yearly cash flows at WACC",
              {{"gpu_hour_price_usd", price}}, {src("gpu_hour_price_usd"), src("tax_rate")});
    // IRR and payback exist only when the cash flows allow them; absent rather than a fake number.
    if (fin.irr) addFigure(r, "finance.irr", *fin.irr, "", "IRR", "rate where NPV = 0 (bisection)");
    if (fin.paybackYears)
        addFigure(r, "finance.payback_years", *fin.paybackYears, "yr", "Payback", "years until cumulative cash flow >= 0");
    addFigure(r, "finance.time_to_revenue_days", fin.timeToRevenueDays, "d", "Time to revenue",
              "delivery to paying workload", {}, {src("delivery_to_revenue_days")});
    addFigure(r, "finance.burn_in_cost_usd", fin.burnInCost.value(), "USD", "Burn-in cost",
              "time to revenue / 365.25 x TCO per year");
    if (!r.training.empty()) {
        const auto& rel = r.training.front().reliability;
        const std::vector<std::string> relSources = {"catalog failures (Llama 3 calibration, Meta 2024)",
                                                     src("failure_detection_minutes"), src("rescheduling_minutes")};
        addFigure(r, "reliability.goodput", rel.goodput, "", "Goodput",
                  "1 - checkpoint overhead - failure loss (Daly 2006 with per-class restart and rollback) - SDC - stragglers",
                  {{"checkpoint_overhead", rel.checkpointOverhead}, {"failure_loss", rel.failureLoss},
                   {"sdc_loss", rel.sdcLoss}, {"straggler_loss", rel.stragglerLoss}},
                  relSources);
        addFigure(r, "reliability.interruptions_per_day", rel.interruptionsPerDay, "1/d", "Interruptions per day",
                  "sum over failure classes of units x rate x 24 h", {{"job_gpus", rel.jobGpus}}, relSources);
        addFigure(r, "reliability.job_mtbf_hours", finite(toHours(rel.jobMtbf)), "h", "Job MTBF",
                  "24 / interruptions per day");
        addFigure(r, "reliability.checkpoint_interval_minutes", rel.checkpointInterval.value() / 60.0, "min",
                  "Checkpoint interval", "Daly (2006) optimum from the write time and the rollback MTBF",
                  {{"young_minutes", finite(rel.checkpointIntervalYoung.value() / 60.0)},
                   {"daly_minutes", finite(rel.checkpointIntervalDaly.value() / 60.0)}});
        addFigure(r, "reliability.checkpoint_write_seconds", rel.checkpointWrite.value(), "s", "Checkpoint write",
                  "state bytes / min(aggregate storage bandwidth, GPUs x per-GPU link) (blocking part)");
        addFigure(r, "reliability.lost_gpu_hours_per_day", rel.lostGpuHoursPerDay, "GPU-h/d", "Lost GPU-hours per day",
                  "GPUs x 24 h x (1 - goodput)");
    } else {
        addFigure(r, "reliability.goodput", r.goodput, "", "Goodput", "assumption (no training job to model)", {},
                  {src("goodput")});
    }
    if (!r.training.empty()) {
        const auto& t = r.training.front();
        addFigure(r, "training.time_days", toDays(t.estimate.time), "d", "Time to train",
                  "6·N·D / (GPUs x peak x MFU x goodput) x scale-across slowdown",
                  {{"flops", t.estimate.flops}, {"slowdown", t.estimate.scaleAcrossSlowdown}}, {src("mfu"), src("goodput")});
        addFigure(r, "training.run_cost_usd", t.runCost.value(), "USD", "Run cost", "hours x GPUs x cost per GPU-hour");
        addFigure(r, "training.cost_per_million_tokens_usd", t.costPerMillionTokens, "USD/M tok",
                  "$/M training tokens", "run cost / (tokens / 1e6)");
    }
    if (!r.inference.empty()) {
        const auto& i = r.inference.front();
        addFigure(r, "inference.tokens_per_second_per_gpu", safeDiv(i.sizing.outputTokensPerSecond, p.inferenceServices.front().gpus),
                  "tok/s/GPU", "Output tokens/s per GPU", "requests/s x output tokens / GPUs");
        addFigure(r, "inference.tokens_per_second_per_user", i.sizing.decode.tokensPerSecondPerUser, "tok/s",
                  "Tokens/s per user", "1 / decode step time at the operating batch",
                  {{"batch", i.sizing.decode.batch}});
        addFigure(r, "inference.tokens_per_second_per_mw", i.tokensPerSecondPerMw, "tok/s/MW", "Tokens/s per MW",
                  "output tokens/s / (GPUs x facility power per GPU)");
        addFigure(r, "inference.cost_per_million_input_tokens_usd", i.costPerMillionInputTokens, "USD/M tok",
                  "$/M input tokens", "GPU cost x prefill share / input tokens/s");
        addFigure(r, "inference.cost_per_million_output_tokens_usd", i.costPerMillionOutputTokens, "USD/M tok",
                  "$/M output tokens", "GPU cost x decode share / output tokens/s");
        addFigure(r, "inference.joules_per_token", i.joulesPerToken, "J/tok", "Joules per output token",
                  "facility power of the service / output tokens/s");
    }
    return r;
}

} // namespace ctwin::cost
