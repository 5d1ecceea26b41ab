#include "bill_of_materials.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <set>
#include <unordered_map>

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

/// Water properties at 25 °C (IAPWS-95 via NIST Chemistry WebBook): c_p = 4,181 J/(kg·K), ρ = 997.0 kg/m³.
constexpr double kWaterCp = 4181.0;
constexpr double kWaterDensity = 997.0;
/// Slack for risers, trays and patch panels on top of the straight-line cable run (estimate).
constexpr double kCableSlackM = 5.0;
/// DWDM channels of a 150 GHz-grid 800ZR in the 4.8 THz C band (OIF 800ZR IA: 118.2 GBd, 150 GHz grid).
constexpr double kWanChannelsPerFiberPair = 32.0;

/// Layout look-ups: rack -> row -> hall -> building -> site.
struct Layout {
    std::unordered_map<std::string, const model::Row*> rows;
    std::unordered_map<std::string, const model::DataHall*> halls;
    std::unordered_map<std::string, const model::Building*> buildings;
    std::unordered_map<std::string, const model::Site*> sites;

    explicit Layout(const model::Project& p) {
        for (const auto& r : p.rows) rows[r.id] = &r;
        for (const auto& h : p.halls) halls[h.id] = &h;
        for (const auto& b : p.buildings) buildings[b.id] = &b;
        for (const auto& s : p.sites) sites[s.id] = &s;
    }
    const model::DataHall* hallOf(const model::RackPlacement& r) const {
        auto row = rows.find(r.row);
        if (row == rows.end()) return nullptr;
        auto hall = halls.find(row->second->hall);
        return hall == halls.end() ? nullptr : hall->second;
    }
    const model::Building* buildingOf(const model::RackPlacement& r) const {
        const auto* hall = hallOf(r);
        if (!hall) return nullptr;
        auto b = buildings.find(hall->building);
        return b == buildings.end() ? nullptr : b->second;
    }
};

/// Picks the cheapest optic or cable of a line rate that reaches `distanceM`; the policy prefers its
/// media (LPO, CPO) when one of them reaches.
const CatalogItem* pickMedia(const model::Catalog& catalog, double bitPerS, double distanceM,
                             const std::string& policy) {
    const CatalogItem* best = nullptr;
    const CatalogItem* bestPreferred = nullptr;
    for (const auto* item : catalog.byCategory("optics")) {
        if (std::abs(item->value("bit_per_s") - bitPerS) > 0.01 * bitPerS) continue;
        if (item->value("reach_m") < distanceM) continue;
        const std::string media = item->attribute("media");
        if ((media == "lpo" || media == "cpo") && media != policy) continue; // special media only by policy
        auto cheaper = [&](const CatalogItem* a) { return !a || item->value("price_usd") < a->value("price_usd"); };
        if (cheaper(best)) best = item;
        if (media == policy && cheaper(bestPreferred)) bestPreferred = item;
    }
    return bestPreferred ? bestPreferred : best;
}

double rackEndpoints(const CatalogItem& rack, const model::Fabric& f) {
    const bool backend = f.role == "backend";
    const double nics = rack.value(backend ? "backend_nics" : "frontend_nics");
    const double bps = rack.value(backend ? "backend_nic_bit_per_s" : "frontend_nic_bit_per_s");
    // Each NIC's bandwidth is spread over the planes; endpoint ports per plane at the fabric's port speed.
    return nics * bps / (f.planes * f.portBitPerS);
}

struct Extent {
    double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
    void add(double x, double y) {
        minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y), maxY = std::max(maxY, y);
    }
    double manhattan() const { return maxX >= minX ? (maxX - minX) + (maxY - minY) : 0.0; }
};

void sizeFabric(const model::Project& p, const model::Catalog& catalog, const AssumptionValues& a,
                const Layout& layout, const model::Fabric& f, BillOfMaterials& bom, std::vector<DesignRule>& rules) {
    FabricBom fb;
    fb.fabricId = f.id;
    fb.role = f.role;
    fb.planes = f.planes;
    const auto* sw = catalog.find(f.switchType);
    if (!sw) return; // validated on load
    const std::set<std::string> scope(f.buildings.begin(), f.buildings.end());

    ClosInput in;
    in.tiers = f.tiers;
    in.topOfRack = !f.railOptimized;
    // Leaf placement (model/fabric.h): auto = ToR for a back-end, end of row otherwise. Row placements share
    // a row's leaves among its racks: the ToR rule of clos_sizing applied to each row's endpoints at once.
    const std::string placement =
        f.leafPlacement != "auto" ? f.leafPlacement : f.role == "backend" ? "top_of_rack" : "end_of_row";
    const bool perRow = !f.railOptimized && placement != "top_of_rack";
    std::map<std::string, double> endpointsByRow;
    if (!f.oversubscription.empty()) in.leafOversubscription = f.oversubscription[0];
    if (f.oversubscription.size() > 1) in.spineOversubscription = f.oversubscription[1];
    const double switchPortBps = sw->value("port_bit_per_s");
    in.radix = static_cast<int>(sw->value("ports")) * f.breakout;
    if (f.portBitPerS * f.breakout > switchPortBps * 1.0001)
        rules.push_back({Severity::Error, "fabric_breakout", f.id,
                         "Fabric " + f.name + ": " + fmt(f.portBitPerS / 1e9) + "G x breakout " +
                             std::to_string(f.breakout) + " exceeds the " + fmt(switchPortBps / 1e9) +
                             "G switch port of " + sw->name});

    std::set<const model::DataHall*> halls;
    std::set<const model::Building*> buildings;
    std::unordered_map<std::string, Extent> rowExtent;
    std::map<double, double> nicPortsBySpeed; // physical NIC ports in scope by line rate
    for (const auto& r : p.racks) {
        const auto* b = layout.buildingOf(r);
        if (!b || (!scope.empty() && !scope.count(b->id))) continue;
        const auto* type = catalog.find(r.rackType);
        if (!type || type->kind != "compute") continue;
        const double e = rackEndpoints(*type, f);
        if (e <= 0) continue;
        if (perRow)
            endpointsByRow[r.row] += e;
        else
            in.endpointsPerRack.push_back(e);
        const bool backend = f.role == "backend";
        nicPortsBySpeed[type->value(backend ? "backend_nic_bit_per_s" : "frontend_nic_bit_per_s")] +=
            type->value(backend ? "backend_nics" : "frontend_nics");
        halls.insert(layout.hallOf(r));
        buildings.insert(b);
        rowExtent[r.row].add(r.x.value(), r.y.value());
    }
    for (const auto& [_, e] : endpointsByRow)
        in.endpointsPerRack.push_back(e);
    fb.perPlane = sizeClos(in);
    const auto& s = fb.perPlane;
    if (s.endpoints <= 0) {
        rules.push_back({Severity::Warning, "fabric_empty", f.id, "Fabric " + f.name + " has no endpoints in its scope"});
        bom.fabrics.push_back(std::move(fb));
        return;
    }
    if (s.exceedsTierLimit)
        rules.push_back({Severity::Error, "fabric_tier_limit", f.id,
                         "Fabric " + f.name + ": " + fmt(s.endpoints) + " endpoints on " + fmt(s.leaves) +
                             (in.topOfRack ? (perRow ? " row" : " top-of-rack") : "") +
                             " leaves per plane exceed what " +
                             std::to_string(f.tiers) + " tiers reach at radix " + std::to_string(in.radix) + " (" +
                             fmt(s.maxEndpoints) + " endpoints on full leaves); add a tier, planes or a larger switch"});
    const double limit = a.get("oversubscription_limit");
    // Front-end and storage networks are oversubscribed by design; the target applies to the back-end.
    for (size_t i = 0; i < f.oversubscription.size() && f.role == "backend"; ++i)
        if (f.oversubscription[i] > limit)
            rules.push_back({Severity::Warning, "oversubscription", f.id,
                             "Fabric " + f.name + ": oversubscription 1:" + fmt(f.oversubscription[i], 1) +
                                 " at tier boundary " + std::to_string(i + 1) + " is above the target 1:" +
                                 fmt(limit, 1)});

    // Reach from the physical layout: rack, row, hall, building, campus.
    double rowSpan = 0, hallSpan = 0, buildingSpan = 0, campusSpan = 0;
    for (const auto& [_, ext] : rowExtent) rowSpan = std::max(rowSpan, ext.manhattan());
    for (const auto* h : halls) hallSpan = std::max(hallSpan, (h->width + h->depth).value() / 2.0);
    for (const auto* b : buildings) buildingSpan = std::max(buildingSpan, (b->width + b->depth).value());
    for (const auto* b1 : buildings)
        for (const auto* b2 : buildings) {
            const double cx = (b1->x + b1->width / 2.0 - b2->x - b2->width / 2.0).value();
            const double cy = (b1->y + b1->depth / 2.0 - b2->y - b2->depth / 2.0).value();
            campusSpan = std::max(campusSpan, std::abs(cx) + std::abs(cy) + buildingSpan);
        }
    const double fabricSpan = buildings.size() > 1 ? campusSpan : halls.size() > 1 ? buildingSpan : hallSpan;
    // In-rack cable run from a tray to a top-of-rack switch (NVL72 and 42U racks are ~2.2-2.4 m tall); a
    // middle-of-row leaf reaches half the row, an end-of-row leaf the whole row, plus slack. Rail-optimised
    // leaves keep the middle-of-row reach unless the placement says end of row.
    if (f.railOptimized)
        fb.endpointReachM = (placement == "end_of_row" ? rowSpan : rowSpan / 2.0) + kCableSlackM;
    else if (placement == "middle_of_row")
        fb.endpointReachM = rowSpan / 2.0 + kCableSlackM;
    else if (placement == "end_of_row")
        fb.endpointReachM = rowSpan + kCableSlackM;
    else
        fb.endpointReachM = 2.5;
    if (f.tiers == 2) fb.leafSpineReachM = fabricSpan + kCableSlackM;
    if (f.tiers == 3) {
        fb.leafSpineReachM = hallSpan + kCableSlackM;
        fb.spineCoreReachM = fabricSpan + kCableSlackM;
    }

    auto addLinks = [&](const char* what, double count, double linkBps, double reach, bool bothEnds,
                        bool hostPowered = false) {
        if (count <= 0) return;
        const auto* media = pickMedia(catalog, linkBps, reach, f.opticsPolicy);
        if (!media) {
            rules.push_back({Severity::Error, "no_media", f.id,
                             "Fabric " + f.name + ": no optic or cable in the catalog carries " + fmt(linkBps / 1e9) +
                                 "G over " + fmt(reach) + " m (" + what + ")"});
            return;
        }
        const bool cable = media->kind == "cable";
        // A cable is one item per link; an optical link needs a transceiver at each end.
        const double qty = cable ? count : (bothEnds ? 2.0 : 1.0) * count;
        fb.lines.push_back(BomLine{media->id, std::string(what) + " (" + fmt(reach) + " m)", qty,
                                   media->value("price_usd") * usd, media->value("power_w") * watt, hostPowered});
        (cable ? fb.cables : fb.transceivers) += qty;
    };
    // Endpoint links: a breakout cable per switch port when copper reaches; otherwise a transceiver per
    // physical NIC port (at the NIC's speed, feeding all planes) and one per switch port (breakout inside).
    const double switchEndpointPorts = f.planes * std::ceil(s.endpointLinks / f.breakout);
    const auto* endpointMedia = pickMedia(catalog, switchPortBps, fb.endpointReachM, f.opticsPolicy);
    if (endpointMedia && endpointMedia->kind == "cable") {
        addLinks("endpoint breakout cables", switchEndpointPorts, switchPortBps, fb.endpointReachM, false);
    } else {
        // NIC-side modules plug into the NIC's OSFP cage and draw from the compute tray, whose power the
        // rack's catalog power_load_w already holds (issue 19 item 12): priced here, powered there.
        for (const auto& [bps, ports] : nicPortsBySpeed)
            addLinks("NIC-side optics", ports, bps, fb.endpointReachM, false, /*hostPowered=*/true);
        addLinks("leaf-side optics", switchEndpointPorts, switchPortBps, fb.endpointReachM, false);
    }
    addLinks("leaf-spine links", f.planes * std::ceil(s.leafSpineLinks / f.breakout), switchPortBps, fb.leafSpineReachM, true);
    addLinks("spine-core links", f.planes * std::ceil(s.spineCoreLinks / f.breakout), switchPortBps, fb.spineCoreReachM, true);

    fb.switches = f.planes * s.switches();
    fb.lines.insert(fb.lines.begin(), BomLine{sw->id, "switches", fb.switches, sw->value("price_usd") * usd,
                                             sw->value("power_w") * watt});
    for (const auto& l : fb.lines) {
        if (!l.hostPowered) fb.power += l.quantity * l.unitPower;
        (l.catalogId == sw->id ? fb.switchCost : fb.opticsCost) += l.cost();
    }
    bom.switches += fb.switches;
    bom.transceivers += fb.transceivers;
    bom.cables += fb.cables;
    bom.fabrics.push_back(std::move(fb));
}

void sizeLoops(const model::Project& p, const model::Catalog& catalog, const Layout& layout, BillOfMaterials& bom,
               std::vector<DesignRule>& rules) {
    std::unordered_map<std::string, Power> heat;
    for (const auto& r : p.racks) {
        const auto* type = catalog.find(r.rackType);
        if (!type) continue;
        const double liquid = type->value("liquid_fraction");
        if (r.coolingLoop.empty()) {
            if (liquid > 0)
                rules.push_back({Severity::Error, "rack_without_loop", r.id,
                                 "Rack " + r.name + " (" + type->name + ") rejects " + fmt(liquid * 100) +
                                     "% of its heat to liquid but is on no cooling loop"});
            continue;
        }
        heat[r.coolingLoop] += type->value("power_load_w") * liquid * watt;
        const auto* hall = layout.hallOf(r);
        for (const auto& loop : p.coolingLoops)
            if (loop.id == r.coolingLoop && hall && loop.hall != hall->id)
                rules.push_back({Severity::Warning, "loop_other_hall", r.id,
                                 "Rack " + r.name + " is served by loop " + loop.name + " in another hall"});
    }
    for (const auto& loop : p.coolingLoops) {
        const auto* cdu = catalog.find(loop.cduType);
        if (!cdu) continue;
        LoopBom lb;
        lb.loopId = loop.id;
        lb.liquidHeat = heat[loop.id];
        const double cap = cdu->value("capacity_w");
        const double installed = loop.cduCount;
        // Units that may fail with the loop still at capacity: N+1 one, 2N half (Uptime Institute tiers).
        const double redundant = loop.redundancy == "N" ? 0.0 : loop.redundancy == "N+1" ? 1.0 : std::floor(installed / 2);
        const double needed = std::ceil(lb.liquidHeat.value() / cap - 1e-9);
        lb.cdusRequired = loop.redundancy == "2N" ? 2 * needed : needed + (loop.redundancy == "N+1" ? 1 : 0);
        lb.cdusInstalled = installed;
        lb.installedCapacity = std::max(0.0, installed - redundant) * cap * watt;
        // ṁ = Q / (c_p·ΔT); volume flow = ṁ / ρ.
        lb.flow = VolumeFlow::from_value(lb.liquidHeat.value() / (kWaterCp * loop.deltaT.value() * kWaterDensity));
        // Pumps run in proportion to the heat they move (equivalent full-load units).
        lb.pumpPower = cdu->value("pump_power_w") * lb.liquidHeat.value() / cap * watt;
        if (lb.liquidHeat > lb.installedCapacity)
            rules.push_back({Severity::Error, "loop_over_capacity", loop.id,
                             "Cooling loop " + loop.name + ": " + fmt(toKw(lb.liquidHeat)) + " kW of liquid heat exceeds " +
                                 fmt(toKw(lb.installedCapacity)) + " kW of " + loop.redundancy + " CDU capacity (" +
                                 fmt(installed) + " installed, " + fmt(lb.cdusRequired) + " required)"});
        bom.cdus += installed;
        bom.loops.push_back(lb);
    }
}

void sizeLinks(const model::Project& p, const model::Catalog& catalog, const InputResolver& inputs,
               const Layout& layout, BillOfMaterials& bom, std::vector<DesignRule>& rules) {
    auto siteOf = [&](const std::string& id) -> const model::Site* {
        if (auto s = layout.sites.find(id); s != layout.sites.end()) return s->second;
        if (auto b = layout.buildings.find(id); b != layout.buildings.end()) {
            auto s = layout.sites.find(b->second->site);
            return s == layout.sites.end() ? nullptr : s->second;
        }
        return nullptr;
    };
    const auto* amp = catalog.find("wan-amp");
    for (const auto& l : p.links) {
        WanBom w;
        w.linkId = l.id;
        w.capacityBitPerS = l.capacityBitPerS;
        const auto* s1 = siteOf(l.from);
        const auto* s2 = siteOf(l.to);
        // Surveyed length, else great-circle x route factor (the link's, else the assumption's).
        const units::Length greatCircle =
            s1 && s2 ? greatCircleDistance(s1->latDeg, s1->lonDeg, s2->latDeg, s2->lonDeg) : units::Length{};
        w.routeLength = inputs.linkRouteLength(l, greatCircle);
        // A fiber route joins the two ends over the Earth's surface, so it is never shorter than the
        // great-circle (haversine) distance between them (issue 13 item 7). The 1e-6 relative slack absorbs
        // rounding of a length written as great circle x 1.0.
        if (greatCircle.value() > 0 && w.routeLength.value() > 0 &&
            w.routeLength < greatCircle * (1.0 - 1e-6))
            rules.push_back({Severity::Error, "link_route_shorter_than_great_circle", l.id,
                             "Link " + l.name + " (" + l.id + "): route_length_m " +
                                 fmt(w.routeLength.value() / 1e3, 1) +
                                 " km is shorter than the great-circle distance " +
                                 fmt(greatCircle.value() / 1e3, 1) + " km between " + s1->name + " and " +
                                 s2->name + " (haversine); a fiber route cannot be shorter"});
        if (w.routeLength.value() <= 0) {
            rules.push_back({Severity::Error, "link_zero_length", l.id,
                             "Link " + l.name + " has zero route length (same coordinates and no route_length_m)"});
        }
        w.oneWayLatency = w.routeLength.value() * kFiberDelaySecondsPerMeter * second;
        const auto budget = inputs.linkLatencyBudget(l);
        if (budget && w.oneWayLatency > *budget)
            rules.push_back({Severity::Warning, "link_latency_budget", l.id,
                             "Link " + l.name + ": one-way latency " + fmt(w.oneWayLatency.value() * 1e3, 2) +
                                 " ms over " + fmt(w.routeLength.value() / 1e3) +
                                 " km exceeds its budget of " + fmt(budget->value() * 1e3, 2) + " ms"});
        if (l.capacityBitPerS <= 0)
            rules.push_back({Severity::Error, "link_zero_capacity", l.id, "Link " + l.name + " has zero capacity"});
        const auto* optic = catalog.find(l.optic);
        if (optic && l.capacityBitPerS > 0) {
            const double channels = std::ceil(l.capacityBitPerS / optic->value("bit_per_s") - 1e-9);
            w.fiberPairs = std::ceil(channels / kWanChannelsPerFiberPair);
            w.optics = 2.0 * channels; // one coherent pluggable at each end of each wavelength
            if (amp) w.amplifiers = w.fiberPairs * std::floor(w.routeLength.value() / amp->value("spacing_m"));
            w.capex = w.optics * optic->value("price_usd") * usd + (amp ? w.amplifiers * amp->value("price_usd") * usd : Money{});
            w.power = w.optics * optic->value("power_w") * watt + (amp ? w.amplifiers * amp->value("power_w") * watt : Power{});
            if (w.routeLength.value() > optic->value("reach_m") * 1.0001 && !amp)
                rules.push_back({Severity::Warning, "link_reach", l.id,
                                 "Link " + l.name + " is longer than the optic's unamplified reach"});
        }
        w.lease = w.fiberPairs * l.fiberLeaseUsdPerMYear * w.routeLength.value() * usd / (kSecondsPerYear * second);
        bom.links.push_back(w);
    }
}

} // namespace

Length greatCircleDistance(double lat1Deg, double lon1Deg, double lat2Deg, double lon2Deg) {
    constexpr double kEarthRadiusM = 6371008.8;
    const double toRad = std::numbers::pi / 180.0;
    const double dLat = (lat2Deg - lat1Deg) * toRad, dLon = (lon2Deg - lon1Deg) * toRad;
    const double h = std::sin(dLat / 2) * std::sin(dLat / 2) +
                     std::cos(lat1Deg * toRad) * std::cos(lat2Deg * toRad) * std::sin(dLon / 2) * std::sin(dLon / 2);
    return 2.0 * kEarthRadiusM * std::asin(std::min(1.0, std::sqrt(h))) * meter;
}

BillOfMaterials deriveBillOfMaterials(const model::Catalog& catalog, const InputResolver& inputs) {
    const model::Project& p = inputs.project();
    const AssumptionValues& a = inputs.assumptions();
    BillOfMaterials bom;
    auto& rules = bom.rules;
    const Layout layout(p);
    bom.sites = static_cast<double>(p.sites.size());
    bom.buildings = static_cast<double>(p.buildings.size());
    bom.halls = static_cast<double>(p.halls.size());
    std::map<std::string, double> counts;
    for (const auto& r : p.racks) {
        ++counts[r.rackType];
        if (r.feedA.empty() && r.feedB.empty())
            rules.push_back({Severity::Warning, "orphan_rack", r.id, "Rack " + r.name + " has no power feed"});
        if (!layout.buildingOf(r))
            rules.push_back({Severity::Error, "orphan_rack", r.id, "Rack " + r.name + " is not in a hall of a building"});
    }
    for (const auto& r : p.racks)
        if (r.spare) ++bom.spareRacks;
    for (const auto& [typeId, n] : counts) {
        const auto& t = catalog.at(typeId);
        bom.racks += n;
        bom.racksByType[typeId] = n;
        bom.rackLines.push_back(BomLine{typeId, t.name, n, t.value("price_usd") * usd, t.value("power_load_w") * watt});
        if (t.kind != "compute") continue;
        bom.computeRacks += n;
        bom.gpus += n * t.value("gpus");
        bom.cpus += n * t.value("cpus");
        bom.servers += n * t.value("servers");
        bom.backendNics += n * t.value("backend_nics");
        bom.frontendNics += n * t.value("frontend_nics");
        bom.psus += n * t.value("psus");
    }
    for (const auto& r : p.racks)
        if (r.spare) bom.spareGpus += catalog.at(r.rackType).value("gpus");
    if (bom.gpus <= 0)
        rules.push_back({Severity::Error, "no_gpus", p.info.id, "The design has no GPUs: place compute racks"});

    for (const auto& f : p.fabrics) sizeFabric(p, catalog, a, layout, f, bom, rules);
    sizeLoops(p, catalog, layout, bom, rules);
    sizeLinks(p, catalog, inputs, layout, bom, rules);

    for (const auto& t : p.storageTiers) {
        const auto& item = catalog.at(t.type);
        const double bytes = t.capacity.value();
        bom.storageCapacity += t.capacity;
        bom.storageWriteBandwidth += bytes * item.value("write_bytes_per_s_per_byte") * byte / second;
        bom.storageCost += bytes * item.value("cost_usd_per_byte") * usd;
        bom.storagePower += bytes * item.value("power_w_per_byte") * watt;
    }
    return bom;
}

} // namespace ctwin::cost
