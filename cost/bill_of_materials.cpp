#include "bill_of_materials.h"

#include "compiled_design.h"
#include "evaluate_stages.h"
#include "geodesy.h"
#include "input_error.h"
#include "liquid_loop.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace {

using detail::fmt; // one number format for messages (negative zero as 0), evaluate.cpp

/// Slack for risers, trays and patch panels on top of the straight-line cable run (estimate).
constexpr double kCableSlackM = 5.0;
/// DWDM channels of a 150 GHz-grid 800ZR in the 4.8 THz C band (OIF 800ZR IA: 118.2 GBd, 150 GHz grid).
constexpr double kWanChannelsPerFiberPair = 32.0;

/// Link endpoint look-ups: building and site by id.
struct Layout {
    std::unordered_map<std::string, const model::Building*> buildings;
    std::unordered_map<std::string, const model::Site*> sites;

    explicit Layout(const model::Project& p) {
        for (const auto& b : p.buildings)
            buildings[b.id] = &b;
        for (const auto& s : p.sites)
            sites[s.id] = &s;
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
        auto cheaper = [&](const CatalogItem* a) {
            return !a || item->value("price_usd") < a->value("price_usd");
        };
        if (cheaper(best)) best = item;
        if (media == policy && cheaper(bestPreferred)) bestPreferred = item;
    }
    return bestPreferred ? bestPreferred : best;
}

double rackEndpoints(const CompiledDesign::RackType& rack, const model::Fabric& f) {
    const bool backend = f.role == "backend";
    const double nics =
        backend ? rack.need(rack.backendNics, "backend_nics") : rack.need(rack.frontendNics, "frontend_nics");
    const double bps = backend ? rack.need(rack.backendNicBps, "backend_nic_bit_per_s")
                               : rack.need(rack.frontendNicBps, "frontend_nic_bit_per_s");
    // Each NIC's bandwidth is spread over the planes; endpoint ports per plane at the fabric's port speed.
    return nics * bps / (f.planes * f.portBitPerS);
}

struct Extent {
    double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
    void add(double x, double y) {
        minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y),
        maxY = std::max(maxY, y);
    }
    /// The racks of a class at once (its bounds start as these do: the same as adding them one by one).
    void add(const CompiledDesign::RackClass& c) {
        minX = std::min(minX, c.minX), maxX = std::max(maxX, c.maxX), minY = std::min(minY, c.minY),
        maxY = std::max(maxY, c.maxY);
    }
    double manhattan() const { return maxX >= minX ? (maxX - minX) + (maxY - minY) : 0.0; }
};

/// Leaf placement (model/fabric.h). Top of rack needs room in the rack: a rack type's own leaves, planes x
/// ceil(endpoints per plane / leaf down-ports) x the switch's rack units, must fit its free_rack_units
/// (racks.json; absent: room assumed). An NVL72 rack has none: its leaves go to network racks in the row. So
/// auto is top of rack for a back-end whose racks all have room, end of row otherwise and for front-end and
/// storage networks; top of rack chosen without room is a Warning. Row placements share a row's leaves among
/// its racks: the ToR rule of clos_sizing applied to each row's endpoints at once.
std::string leafPlacement(const model::Fabric& f, const CompiledDesign& cd,
                          const std::vector<std::uint8_t>& scope, const std::vector<double>& typeEndpoints,
                          int leafDown, double switchUnits, std::vector<DesignRule>& rules) {
    std::string crowded; // a rack type in scope without room for its own leaves
    for (const auto& k : cd.classes) {
        const std::int32_t b = k.building;
        const auto t = static_cast<size_t>(k.type);
        if (!crowded.empty() || b == CompiledDesign::kNone || typeEndpoints[t] <= 0 ||
            (!scope.empty() && !scope[static_cast<size_t>(b)]))
            continue;
        const auto* free = cd.types[t].item->find("free_rack_units");
        const double needed = f.planes * std::ceil(typeEndpoints[t] / leafDown) * switchUnits;
        if (free && needed > free->base)
            crowded = cd.types[t].id + " (" + fmt(needed) + " U of leaves, " + fmt(free->base) + " U free)";
    }
    const std::string placement = f.leafPlacement != "auto"                ? f.leafPlacement
                                  : f.role == "backend" && crowded.empty() ? "top_of_rack"
                                                                           : "end_of_row";
    if (placement == "top_of_rack" && !f.railOptimized && !crowded.empty())
        rules.push_back({Severity::Warning, "tor_no_room", f.id,
                         "Fabric " + f.name + " places its leaves top of rack, but rack type " + crowded +
                             " has no room for them: set leaf_placement to end_of_row or middle_of_row and "
                             "put network racks in the rows"});
    return placement;
}

/// Each row's leaves of a row-placed fabric: planes x ceil(row endpoints / leaf down-ports), as sizeClos
/// counts them, with their rack units and power, for the row's network racks (checkNetworkRacks).
void addRowLeaves(const model::Fabric& f, const model::CatalogItem& sw, const ClosSizing& s,
                  const std::vector<double>& endpointsByRow, const std::vector<std::uint8_t>& rowUsed,
                  BillOfMaterials& bom) {
    for (size_t row = 0; row < rowUsed.size(); ++row)
        if (rowUsed[row]) {
            auto& rn = bom.rowNetwork[row];
            const double leaves = f.planes * std::ceil(endpointsByRow[row] / s.leafDown);
            rn.leaves += leaves;
            rn.leafUnits += leaves * sw.value("rack_units");
            rn.leafPowerW += leaves * sw.value("power_w");
        }
}

/// Link reaches from the physical layout (rack, row, hall, building, campus): the endpoint reach by leaf
/// placement, leaf-spine and spine-core by the fabric's span.
void setReaches(FabricBom& fb, const model::Fabric& f, const std::string& placement,
                const std::vector<Extent>& rowExtent, const std::vector<const model::DataHall*>& halls,
                const std::vector<const model::Building*>& buildings) {
    double rowSpan = 0, hallSpan = 0, buildingSpan = 0, campusSpan = 0;
    for (const auto& ext : rowExtent)
        rowSpan = std::max(rowSpan, ext.manhattan());
    for (const auto* h : halls)
        hallSpan = std::max(hallSpan, (h->width + h->depth).value() / 2.0);
    for (const auto* b : buildings)
        buildingSpan = std::max(buildingSpan, (b->width + b->depth).value());
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
}

/// A fabric beyond what its tiers reach at its radix (Error), and back-end tier boundaries above the
/// oversubscription target (Warning: front-end and storage networks are oversubscribed by design).
void addSizingRules(const model::Fabric& f, const ClosInput& in, const ClosSizing& s, bool perRow,
                    double limit, std::vector<DesignRule>& rules) {
    if (s.exceedsTierLimit)
        rules.push_back(
            {Severity::Error, "fabric_tier_limit", f.id,
             "Fabric " + f.name + ": " + fmt(s.endpoints) + " endpoints on " + fmt(s.leaves) +
                 (in.topOfRack ? (perRow ? " row" : " top-of-rack") : "") + " leaves per plane exceed what " +
                 std::to_string(f.tiers) + " tiers reach at radix " + std::to_string(in.radix) + " (" +
                 fmt(s.maxEndpoints) + " endpoints on full leaves); add a tier, planes or a larger switch"});
    for (size_t i = 0; i < f.oversubscription.size() && f.role == "backend"; ++i)
        if (f.oversubscription[i] > limit)
            rules.push_back({Severity::Warning, "oversubscription", f.id,
                             "Fabric " + f.name + ": oversubscription 1:" + fmt(f.oversubscription[i], 1) +
                                 " at tier boundary " + std::to_string(i + 1) +
                                 " is above the target 1:" + fmt(limit, 1)});
}

void sizeFabric(const model::Project& p, const model::Catalog& catalog, const AssumptionValues& a,
                const CompiledDesign& cd, size_t fabricIndex, BillOfMaterials& bom,
                std::vector<DesignRule>& rules) {
    const model::Fabric& f = p.fabrics[fabricIndex];
    FabricBom fb;
    fb.fabricId = f.id;
    fb.role = f.role;
    fb.planes = f.planes;
    const auto* sw = catalog.find(f.switchType);
    if (!sw) return; // validated on load
    const std::vector<std::uint8_t>& scope = cd.fabricScope[fabricIndex];

    ClosInput in;
    in.tiers = f.tiers;
    in.topOfRack = !f.railOptimized;
    if (!f.oversubscription.empty()) in.leafOversubscription = f.oversubscription[0];
    if (f.oversubscription.size() > 1) in.spineOversubscription = f.oversubscription[1];
    const double switchPortBps = sw->value("port_bit_per_s");
    in.radix = static_cast<int>(sw->value("ports")) * f.breakout;
    const bool backend = f.role == "backend";
    std::vector<double> typeEndpoints(cd.types.size(), 0.0), typeRacks(cd.types.size(), 0.0);
    for (size_t t = 0; t < cd.types.size(); ++t)
        if (cd.types[t].compute) typeEndpoints[t] = rackEndpoints(cd.types[t], f);
    const double switchUnits = sw->value("rack_units");
    const std::string placement =
        leafPlacement(f, cd, scope, typeEndpoints, leafDownPorts(in.radix, f.tiers, in.leafOversubscription),
                      switchUnits, rules);
    const bool perRow = !f.railOptimized && placement != "top_of_rack";
    std::vector<double> endpointsByRow(perRow ? p.rows.size() : 0, 0.0);
    std::vector<std::uint8_t> rowUsed(perRow ? p.rows.size() : 0, 0);
    if (f.portBitPerS * f.breakout > switchPortBps * 1.0001)
        rules.push_back({Severity::Error, "fabric_breakout", f.id,
                         "Fabric " + f.name + ": " + fmt(f.portBitPerS / 1e9) + "G x breakout " +
                             std::to_string(f.breakout) + " exceeds the " + fmt(switchPortBps / 1e9) +
                             "G switch port of " + sw->name});

    // Per rack class (cost/compiled_design.h): its building in scope, a compute type with endpoints on this
    // fabric. Endpoints and NIC ports per rack type are read once (cd.types, above).
    std::vector<std::uint8_t> hallUsed(p.halls.size(), 0), buildingUsed(p.buildings.size(), 0);
    std::vector<Extent> rowExtent(p.rows.size());
    for (const auto& k : cd.classes) {
        const std::int32_t b = k.building;
        if (b == CompiledDesign::kNone || (!scope.empty() && !scope[static_cast<size_t>(b)])) continue;
        const auto t = static_cast<size_t>(k.type);
        if (!cd.types[t].compute) continue;
        const double e = typeEndpoints[t];
        if (e <= 0) continue;
        const auto row = static_cast<size_t>(k.row); // resolved: the class has a building
        if (perRow) endpointsByRow[row] += k.count * e, rowUsed[row] = 1;
        typeRacks[t] += k.count;
        hallUsed[static_cast<size_t>(k.hall)] = 1;
        buildingUsed[static_cast<size_t>(b)] = 1;
        rowExtent[row].add(k);
    }
    // Top-of-rack or pooled leaves: one group per rack, the racks of a type alike.
    if (!perRow)
        for (size_t t = 0; t < cd.types.size(); ++t)
            if (typeRacks[t] > 0) in.endpointGroups.emplace_back(typeEndpoints[t], typeRacks[t]);
    std::map<double, double> nicPortsBySpeed; // physical NIC ports in scope by line rate (whole numbers)
    for (size_t t = 0; t < cd.types.size(); ++t)
        if (typeRacks[t] > 0) {
            const auto& type = cd.types[t];
            nicPortsBySpeed[backend ? type.need(type.backendNicBps, "backend_nic_bit_per_s")
                                    : type.need(type.frontendNicBps, "frontend_nic_bit_per_s")] +=
                typeRacks[t] * (backend ? type.need(type.backendNics, "backend_nics")
                                        : type.need(type.frontendNics, "frontend_nics"));
        }
    // Rows in id order (as the former map by row id gave them to the Clos sizing).
    if (perRow)
        for (const std::int32_t row : cd.rowsById)
            if (rowUsed[static_cast<size_t>(row)])
                in.endpointsPerRack.push_back(endpointsByRow[static_cast<size_t>(row)]);
    std::vector<const model::DataHall*> halls;
    std::vector<const model::Building*> buildings;
    for (size_t h = 0; h < p.halls.size(); ++h)
        if (hallUsed[h]) halls.push_back(&p.halls[h]);
    for (size_t b = 0; b < p.buildings.size(); ++b)
        if (buildingUsed[b]) buildings.push_back(&p.buildings[b]);
    fb.perPlane = sizeClos(in);
    const auto& s = fb.perPlane;
    if (s.endpoints <= 0) {
        rules.push_back(
            {Severity::Warning, "fabric_empty", f.id, "Fabric " + f.name + " has no endpoints in its scope"});
        bom.fabrics.push_back(std::move(fb));
        return;
    }
    if (perRow) addRowLeaves(f, *sw, s, endpointsByRow, rowUsed, bom);
    addSizingRules(f, in, s, perRow, a.get("oversubscription_limit"), rules);

    setReaches(fb, f, placement, rowExtent, halls, buildings);

    auto addLinks = [&](const char* what, double count, double linkBps, double reach, bool bothEnds,
                        bool hostPowered = false) {
        if (count <= 0) return;
        const auto* media = pickMedia(catalog, linkBps, reach, f.opticsPolicy);
        if (!media) {
            rules.push_back({Severity::Error, "no_media", f.id,
                             "Fabric " + f.name + ": no optic or cable in the catalog carries " +
                                 fmt(linkBps / 1e9) + "G over " + fmt(reach) + " m (" + what + ")"});
            return;
        }
        const bool cable = media->kind == "cable";
        // A cable is one item per link; an optical link needs a transceiver at each end.
        const double qty = cable ? count : (bothEnds ? 2.0 : 1.0) * count;
        fb.lines.push_back(BomLine{media->id, std::string(what) + " (" + fmt(reach) + " m)", qty,
                                   media->value("price_usd") * usd, media->value("power_w") * watt,
                                   hostPowered});
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
        // rack's catalog power_load_w already holds: priced here, powered there.
        for (const auto& [bps, ports] : nicPortsBySpeed)
            addLinks("NIC-side optics", ports, bps, fb.endpointReachM, false, /*hostPowered=*/true);
        addLinks("leaf-side optics", switchEndpointPorts, switchPortBps, fb.endpointReachM, false);
    }
    addLinks("leaf-spine links", f.planes * std::ceil(s.leafSpineLinks / f.breakout), switchPortBps,
             fb.leafSpineReachM, true);
    addLinks("spine-core links", f.planes * std::ceil(s.spineCoreLinks / f.breakout), switchPortBps,
             fb.spineCoreReachM, true);

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

/// Network racks: the racks of kind "network" in each row hold the leaves that row-placed
/// fabrics put there (sizeFabric's rowNetwork). A row whose leaves fill more rack units or draw more than
/// its network racks hold is an Error; halls whose rows place leaves in no network rack get one Warning each
/// (the leaves then take no floor space). The leaves' power stays in power.network_mw (the rack itself draws
/// nothing of its own, racks.json), so it is counted once.
void checkNetworkRacks(const model::Project& p, const CompiledDesign& cd, BillOfMaterials& bom,
                       std::vector<DesignRule>& rules) {
    for (const auto& k : cd.classes) {
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        if (type.item->kind != "network" || k.row == CompiledDesign::kNone) continue;
        auto& rn = bom.rowNetwork[static_cast<size_t>(k.row)];
        rn.networkRacks += k.count;
        rn.rackUnits += k.count * type.item->value("rack_units");
        rn.capacityW += k.count * type.item->value("power_capacity_w");
        bom.networkRacks += k.count;
    }
    struct Homeless {
        double rows = 0, leaves = 0, units = 0, watts = 0;
    };
    std::map<std::string, Homeless> homeless; // by hall id, in id order
    for (size_t row = 0; row < bom.rowNetwork.size(); ++row) {
        const auto& rn = bom.rowNetwork[row];
        const model::Row& r = p.rows[row];
        if (rn.leaves > 0 && rn.networkRacks == 0) {
            auto& h = homeless[r.hall];
            h.rows += 1, h.leaves += rn.leaves, h.units += rn.leafUnits, h.watts += rn.leafPowerW;
        } else if (rn.leaves > 0 && (rn.leafUnits > rn.rackUnits || rn.leafPowerW > rn.capacityW)) {
            rules.push_back({Severity::Error, "network_rack_full", r.id,
                             "Row " + (r.name.empty() ? r.id : r.name) + ": its " + fmt(rn.leaves) +
                                 " leaf switches need " + fmt(rn.leafUnits) + " U and " +
                                 fmt(rn.leafPowerW / 1e3, 1) + " kW; its " + fmt(rn.networkRacks) +
                                 " network rack(s) hold " + fmt(rn.rackUnits) + " U and " +
                                 fmt(rn.capacityW / 1e3, 1) + " kW: add a network rack to the row"});
        } else if (rn.leaves == 0 && rn.networkRacks > 0) {
            rules.push_back(
                {Severity::Info, "network_rack_empty", r.id,
                 "Row " + (r.name.empty() ? r.id : r.name) +
                     " has a network rack but no fabric places leaves in it (they are top of rack "
                     "or rail-optimized); its floor space and price are counted"});
        }
    }
    for (const auto& [hall, h] : homeless)
        rules.push_back({Severity::Warning, "leaves_without_network_rack", hall,
                         "Hall " + hall + ": " + fmt(h.rows) + " row(s) place " + fmt(h.leaves) +
                             " leaf switches (" + fmt(h.units) + " U, " + fmt(h.watts / 1e3, 1) +
                             " kW) in no network rack, so they take no floor space: add a network rack to "
                             "each row (Row form, or the catalog's network rack)"});
}

void sizeLoops(const model::Project& p, const model::Catalog& catalog, const CompiledDesign& cd,
               BillOfMaterials& bom, std::vector<DesignRule>& rules) {
    // Liquid heat per loop in one pass over the rack classes (loop and hall resolved to indices).
    std::vector<Power> heat(cd.loopIds.size());
    // A liquid-cooled rack on no loop, or on another hall's loop, is named rack by rack (below).
    const auto withoutLoop = [](double liquid, std::int32_t loop) {
        return loop == CompiledDesign::kNone && liquid > 0;
    };
    const auto otherHall = [&](std::int32_t loop, std::int32_t hall) {
        return loop != CompiledDesign::kNone && hall != CompiledDesign::kNone &&
               static_cast<size_t>(loop) < p.coolingLoops.size() &&
               cd.loopHall[static_cast<size_t>(loop)] != hall;
    };
    bool flagged = false;
    for (const auto& k : cd.classes) {
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        const double liquid = type.need(type.liquidFraction, "liquid_fraction");
        flagged = flagged || withoutLoop(liquid, k.loop) || otherHall(k.loop, k.hall);
        if (k.loop == CompiledDesign::kNone) continue;
        heat[static_cast<size_t>(k.loop)] +=
            type.need(type.powerLoadW, "power_load_w") * liquid * k.count * watt;
    }
    if (flagged)
        for (size_t i = 0; i < p.racks.size(); ++i) {
            const auto& type = cd.types[static_cast<size_t>(cd.rackType[i])];
            const double liquid = type.need(type.liquidFraction, "liquid_fraction");
            const std::int32_t loop = cd.rackLoop[i];
            const auto& r = p.racks[i];
            if (withoutLoop(liquid, loop))
                rules.push_back({Severity::Error, "rack_without_loop", r.id,
                                 "Rack " + r.name + " (" + type.item->name + ") rejects " +
                                     fmt(liquid * 100) +
                                     "% of its heat to liquid but is on no cooling loop"});
            else if (otherHall(loop, cd.rackHall[i]))
                rules.push_back({Severity::Warning, "loop_other_hall", r.id,
                                 "Rack " + r.name + " is served by loop " +
                                     p.coolingLoops[static_cast<size_t>(loop)].name + " in another hall"});
        }
    for (size_t li = 0; li < p.coolingLoops.size(); ++li) {
        const auto& loop = p.coolingLoops[li];
        const auto* cdu = catalog.find(loop.cduType);
        if (!cdu) continue;
        LoopBom lb;
        lb.loopId = loop.id;
        lb.liquidHeat = heat[li];
        const double cap = cdu->value("capacity_w");
        const double installed = loop.cduCount;
        // Units that may fail with the loop still at capacity: N+1 one, 2N half (Uptime Institute tiers).
        const double redundant = loop.redundancy == "N"     ? 0.0
                                 : loop.redundancy == "N+1" ? 1.0
                                                            : std::floor(installed / 2);
        lb.cdusRequired = requiredCdus(lb.liquidHeat.value(), cap, loop.redundancy);
        lb.cdusInstalled = installed;
        lb.installedCapacity = std::max(0.0, installed - redundant) * cap * watt;
        // ṁ = Q / (c_p·ΔT); volume flow = ṁ / ρ.
        lb.flow = VolumeFlow::from_value(coolantFlowM3PerS(lb.liquidHeat.value(), loop.deltaT.value()));
        // Pumps run in proportion to the heat they move (equivalent full-load units).
        lb.pumpPower = cdu->value("pump_power_w") * lb.liquidHeat.value() / cap * watt;
        if (lb.liquidHeat > lb.installedCapacity)
            rules.push_back({Severity::Error, "loop_over_capacity", loop.id,
                             "Cooling loop " + loop.name + ": " + fmt(toKw(lb.liquidHeat)) +
                                 " kW of liquid heat exceeds " + fmt(toKw(lb.installedCapacity)) + " kW of " +
                                 loop.redundancy + " CDU capacity (" + fmt(installed) + " installed, " +
                                 fmt(lb.cdusRequired) + " required)"});
        bom.cdus += installed;
        bom.loops.push_back(lb);
    }
}

/// The first wan item of `kind` ("amplifier", "line_terminal"); null when the catalog has none.
const CatalogItem* wanItemOfKind(const model::Catalog& catalog, const std::string& kind) {
    for (const auto* item : catalog.byCategory("wan"))
        if (item->kind == kind) return item;
    return nullptr;
}

/// Sizes one link's line system on `w` (its routeLength and capacity set) from the optic, the amplifier and
/// the line terminal (either may be null: none in the catalog). Returns the reach the regeneration is sized
/// on (0 when the optic has none).
///
/// Reach: an optic's reach_m is one span with terminal amplification only (OIF 800ZR IA:
/// "single-span, amplified DWDM links of 80-120 km"); its amplified_reach_m is the OSNR-limited reach
/// through inline amplifiers, after which the wavelength must be regenerated optical-electrical-optical.
/// Without an amplifier in the catalog, or an optic without amplified_reach_m, the reach is reach_m.
///   segments     = ceil(L / reach)                 (regenerate every reach; >= 1)
///   regen sites  = segments - 1
///   spans / seg  = ceil((L / segments) / spacing)  when L / segments > reach_m, else 1 (one span)
///   amplifiers   = fiber pairs x segments x (spans / seg - 1)  (inline sites between spans)
///   terminals    = 2 x fiber pairs x segments      (each segment is a line system with two ends)
///   optics       = 2 x wavelengths x segments      (one at each end of each wavelength in each segment;
///                                                    a regenerator is the back-to-back pair at a site)
/// The relative slack 1e-4 (as the former link_reach check) keeps a route exactly at a reach in one segment.
double sizeLineSystem(const CatalogItem& optic, const CatalogItem* amp, const CatalogItem* terminal,
                      WanBom& w) {
    constexpr double kSlack = 1e-4;
    const double length = std::max(0.0, w.routeLength.value());
    const double single = optic.value("reach_m");
    const auto* amplifiedValue = optic.find("amplified_reach_m");
    // An amplified reach shorter than one span is refused on load (model/catalog.cpp checkWanOptic);
    // max() keeps a hand-built catalog consistent too.
    const double reach = amp && amplifiedValue ? std::max(single, amplifiedValue->base) : single;
    if (reach <= 0) return 0.0;
    const double segments = std::max(1.0, std::ceil(length / reach - kSlack));
    const double segment = length / segments;
    const double spacing = amp ? amp->value("spacing_m") : 0.0;
    const double spans =
        amp && spacing > 0 && segment > single * (1 + kSlack) ? std::ceil(segment / spacing - kSlack) : 1.0;
    // Wavelengths on fiber pairs: ceil(capacity / line rate), 32 per fiber pair (kWanChannelsPerFiberPair).
    w.wavelengths = std::ceil(w.capacityBitPerS / optic.value("bit_per_s") - 1e-9);
    w.fiberPairs = std::ceil(w.wavelengths / kWanChannelsPerFiberPair);
    w.segmentLength = segment * meter;
    w.regenSites = w.fiberPairs > 0 ? segments - 1 : 0.0;
    w.regenerators = w.wavelengths * w.regenSites;
    w.optics = 2.0 * w.wavelengths * segments;
    w.amplifiers = w.fiberPairs * segments * std::max(0.0, spans - 1);
    w.lineTerminals = terminal ? 2.0 * w.fiberPairs * segments : 0.0;
    w.capex = w.optics * optic.value("price_usd") * usd;
    w.power = w.optics * optic.value("power_w") * watt;
    if (amp) {
        w.capex += w.amplifiers * amp->value("price_usd") * usd;
        w.power += w.amplifiers * amp->value("power_w") * watt;
    }
    if (terminal) {
        w.capex += w.lineTerminals * terminal->value("price_usd") * usd;
        w.power += w.lineTerminals * terminal->value("power_w") * watt;
    }
    return reach;
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
    const auto* amp = wanItemOfKind(catalog, "amplifier");
    const auto* terminal = wanItemOfKind(catalog, "line_terminal");
    for (const auto& l : p.links) {
        WanBom w;
        w.linkId = l.id;
        w.capacityBitPerS = l.capacityBitPerS;
        const std::string label = "Link " + l.name + " (" + l.id + ")";
        const auto* s1 = siteOf(l.from);
        const auto* s2 = siteOf(l.to);
        // Surveyed length, else the geodesic x route factor (the link's, else the assumption's). The rule
        // keeps its historical id (great circle: the geodesic is the ellipsoid's great circle).
        const units::Length greatCircle =
            s1 && s2 ? geodesicDistance(s1->latDeg, s1->lonDeg, s2->latDeg, s2->lonDeg) : units::Length{};
        w.routeLength = inputs.linkRouteLength(l, greatCircle);
        // A fiber route joins the two ends over the Earth's surface, so it is never shorter than the
        // geodesic distance between them on the WGS84 ellipsoid (cost/geodesy.h). The 1e-6
        // relative slack absorbs rounding of a length written as geodesic x 1.0.
        if (greatCircle.value() > 0 && w.routeLength.value() > 0 &&
            w.routeLength < greatCircle * (1.0 - 1e-6))
            rules.push_back({Severity::Error, "link_route_shorter_than_great_circle", l.id,
                             "Link " + l.name + " (" + l.id + "): route_length_m " +
                                 fmt(w.routeLength.value() / 1e3, 1) +
                                 " km is shorter than the geodesic distance " +
                                 fmt(greatCircle.value() / 1e3, 1) + " km between " + s1->name + " and " +
                                 s2->name + " (WGS84 ellipsoid); a fiber route cannot be shorter"});
        if (w.routeLength.value() <= 0) {
            rules.push_back(
                {Severity::Error, "link_zero_length", l.id,
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
            rules.push_back(
                {Severity::Error, "link_zero_capacity", l.id, "Link " + l.name + " has zero capacity"});
        const auto* optic = l.optic.empty() ? nullptr : catalog.find(l.optic);
        // What the link's optic cannot size (bad input): none, not an optic, no line rate or reach.
        const char* missing = nullptr;
        if (optic && optic->kind == "optic")
            for (const char* field : {"bit_per_s", "reach_m", "price_usd", "power_w"})
                if (!missing && !optic->find(field)) missing = field;
        if (l.optic.empty()) {
            if (l.capacityBitPerS > 0)
                rules.push_back({Severity::Warning, "link_no_optic", l.id,
                                 label + ": no optic, so no transponders, amplifiers or line terminals are "
                                         "counted; set its optic to a wan optic"});
        } else if (!optic || optic->kind != "optic") {
            rules.push_back({Severity::Error, "link_optic_kind", l.id,
                             label + ": optic '" + l.optic + "' is " +
                                 (optic ? "a wan " + optic->kind + ", not an optic" : "not in the catalog")});
        } else if (missing || optic->value("bit_per_s") <= 0 || optic->value("reach_m") <= 0) {
            // No reach: nothing to regenerate on, so the route exceeds what the optic reaches (Error, not the
            // Warning of a regenerated link). A missing line rate, price or power cannot size it either.
            const std::string field = missing                          ? missing
                                      : optic->value("bit_per_s") <= 0 ? "bit_per_s"
                                                                       : "reach_m";
            rules.push_back(
                {Severity::Error, field == "reach_m" ? "link_reach_exceeded" : "link_optic_incomplete", l.id,
                 label + ": optic " + l.optic + (missing ? " has no " + field : " has " + field + " 0") +
                     " in the catalog, so the " + fmt(w.routeLength.value() / 1e3) +
                     " km link cannot be sized"});
        } else if (l.capacityBitPerS > 0) {
            const double reach = sizeLineSystem(*optic, amp, terminal, w);
            const bool amplified = amp && optic->find("amplified_reach_m");
            if (w.regenSites > 0) {
                // Regeneration is always allowed (a design choice: the link is charged for it and warned,
                // never silently accepted); a longer-reach optic avoids it.
                const std::string field = amplified ? "amplified_reach_m" : "reach_m";
                const std::string why = amplified ? " amplified reach (" + field + ")"
                                        : amp
                                            ? " reach (reach_m; it has no amplified_reach_m)"
                                            : " unamplified reach (reach_m; no wan amplifier in the catalog)";
                rules.push_back({Severity::Warning, amplified ? "link_regenerated" : "link_reach", l.id,
                                 label + ": " + fmt(w.routeLength.value() / 1e3) + " km route exceeds the " +
                                     fmt(reach / 1e3) + " km" + why + " of " + l.optic + "; charged for " +
                                     fmt(w.regenSites) + " regeneration site" +
                                     (w.regenSites == 1 ? "" : "s") + " (" + fmt(w.regenerators) +
                                     " back-to-back transponder pairs, every " +
                                     fmt(w.segmentLength.value() / 1e3, 1) +
                                     " km); an optic whose amplified_reach_m covers the route avoids them"});
            }
        }
        w.lease =
            w.fiberPairs * l.fiberLeaseUsdPerMYear * w.routeLength.value() * usd / (kSecondsPerYear * second);
        bom.links.push_back(w);
    }
}

} // namespace

BillOfMaterials deriveBillOfMaterials(const model::Catalog& catalog, const InputResolver& inputs) {
    return deriveBillOfMaterials(catalog, inputs, nullptr);
}

BillOfMaterials deriveBillOfMaterials(const model::Catalog& catalog, const InputResolver& inputs,
                                      std::shared_ptr<const CompiledDesign> compiled) {
    const model::Project& p = inputs.project();
    const AssumptionValues& a = inputs.assumptions();
    BillOfMaterials bom;
    auto& rules = bom.rules;
    const Layout layout(p);
    bom.compiled = compiled ? std::move(compiled) : compileDesign(p, catalog);
    const CompiledDesign& cd = *bom.compiled;
    bom.sites = static_cast<double>(p.sites.size());
    bom.buildings = static_cast<double>(p.buildings.size());
    bom.halls = static_cast<double>(p.halls.size());
    // Counts from the rack classes (cost/compiled_design.h); racks without a feed or a building are named
    // rack by rack, in rack order.
    std::vector<double> counts(cd.types.size(), 0.0);
    bool orphans = false;
    for (const auto& k : cd.classes) {
        counts[static_cast<size_t>(k.type)] += k.count;
        if (k.spare) bom.spareRacks += k.count;
        orphans = orphans || (k.feedA == CompiledDesign::kNone && k.feedB == CompiledDesign::kNone) ||
                  k.building == CompiledDesign::kNone;
    }
    if (orphans)
        for (size_t i = 0; i < p.racks.size(); ++i) {
            const auto& r = p.racks[i];
            if (r.feedA.empty() && r.feedB.empty())
                rules.push_back(
                    {Severity::Warning, "orphan_rack", r.id, "Rack " + r.name + " has no power feed"});
            if (cd.rackBuilding[i] == CompiledDesign::kNone)
                rules.push_back({Severity::Error, "orphan_rack", r.id,
                                 "Rack " + r.name + " is not in a hall of a building"});
        }
    for (size_t ti = 0; ti < cd.types.size(); ++ti) {
        const auto& typeId = cd.types[ti].id;
        const double n = counts[ti];
        const auto& t = *cd.types[ti].item;
        bom.racks += n;
        bom.racksByType[typeId] = n;
        bom.rackLines.push_back(
            BomLine{typeId, t.name, n, t.value("price_usd") * usd, t.value("power_load_w") * watt});
        if (t.kind != "compute") continue;
        bom.computeRacks += n;
        bom.gpus += n * t.value("gpus");
        bom.cpus += n * t.value("cpus");
        bom.servers += n * t.value("servers");
        bom.backendNics += n * t.value("backend_nics");
        bom.frontendNics += n * t.value("frontend_nics");
        bom.psus += n * t.value("psus");
    }
    for (const auto& k : cd.classes)
        if (k.spare) {
            const auto& t = cd.types[static_cast<size_t>(k.type)];
            bom.spareGpus += k.count * t.need(t.gpus, "gpus");
        }
    if (bom.gpus <= 0)
        rules.push_back(
            {Severity::Error, "no_gpus", p.info.id, "The design has no GPUs: place compute racks"});

    bom.rowNetwork.assign(p.rows.size(), BillOfMaterials::RowNetwork{});
    for (size_t f = 0; f < p.fabrics.size(); ++f)
        sizeFabric(p, catalog, a, cd, f, bom, rules);
    checkNetworkRacks(p, cd, bom, rules);
    sizeLoops(p, catalog, cd, bom, rules);
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
