#include "design_generator.h"

#include "calendar_date.h"
#include "clos_sizing.h"
#include "design_json.h"
#include "evaluate.h"
#include "input_error.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>

// Layout conventions (carried over from data/reference/generate.py, where the shipped references were first
// laid out; FORMAT.md leaves them to the writer):
//  * A rack's x_m, y_m is the corner of its footprint with the smallest hall coordinates; racks in a row
//  stand
//    side by side along +x at the rack width; rows step along +y at (row depth + aisle) and alternate
//    rotation 0 / 180 degrees so that pairs of rows face each other across a shared aisle (hot/cold aisle
//    containment). Every hall keeps >= 3 m of clear perimeter, so racks are inside the hall even if a reader
//    takes x_m, y_m as the footprint centre. A row's x_m, y_m is the position of its first rack.
//  * A "column" is a block of rows side by side in y; columns are separated by a cross aisle. Each column of
//  a
//    liquid hall is one cooling loop (one CDU group), so a loop failure takes down a contiguous block of
//    racks (the engine's blast radius follows the layout). CDUs stand at the row ends, 0.6 m from the
//    first/last rack.
//  * Halls sit side by side in x inside their building with 6 m corridors, a 6 m wall zone at both ends, an
//    electrical gallery on the -y side and a mechanical gallery on the +y side.
//  * Buildings sit on their site's campus in a grid of at most 3 per row, 40 m apart.
//  * Every rack has an A and a B feed per hall (2N), each sized for the whole hall at the catalog's high rack
//    power, except in single-corded halls.

namespace ctwin::cost {

namespace {

using model::CatalogItem;
using model::InputError;
using model::InputLocation;
using units::meter;
using units::usd;
using units::watt;

const char* const kSpecFile = "generator spec";

// Aisles: 1.2 m for air-cooled halls (hot/cold aisle minimum for 8-GPU servers), 1.8 m for liquid-cooled
// NVL72 halls (room for manifolds and service carts); estimates.
constexpr double kAisleAirM = 1.2;
constexpr double kAisleLiquidM = 1.8;
// Rows are laid out on at least a 1.2 m row depth even where the catalog rack is shallower (1.068 m NVL72).
constexpr double kMinRowDepthM = 1.2;
constexpr double kHallClearM = 3.0; // perimeter walkway
constexpr double kCduGapM = 0.6;    // between a row end and its CDU
constexpr double kAirHandlerZoneM = 2.0;
constexpr const char* kDefaultNetworkRack =
    "network-rack-48u"; // data/catalog/racks.json // fan walls / CRAH units at the row ends of air halls
                        // (estimate)
constexpr double kWalkwayM = 2.4;      // clear walkway in a cross aisle besides the CDUs
constexpr double kBuildingWallM = 6.0; // wall zone at both ends of a building
constexpr double kBuildingCorridorM = 6.0;
// Electrical and mechanical galleries: 14 m deep or 0.2 m per MW of IT in the building, whichever is larger
// (they grow with the gear they hold; estimate).
constexpr double kGalleryM = 14.0;
constexpr double kGalleryMPerMw = 0.2;
constexpr double kCampusGapM = 40.0;
constexpr double kCampusOriginM = 50.0;
constexpr int kBuildingsPerCampusRow = 3;
constexpr double kHallGridM = 0.6; // one floor tile
// CDU design headroom: N CDUs carry at most 90 % of their capacity at base rack power (estimate), and 100 %
// at the catalog's high rack power and liquid fraction.
constexpr double kCduHeadroom = 0.9;
// Facility estimate for building sizing (not the engine's figure): network and optics add 8 % to rack IT
// power (estimate), air heat costs 1/4 W per W in CRAH fans and chilled water (estimate), and misc facility
// load is 2 % (data/assumptions.json misc_facility_fraction). Capacity = estimate x 1.25, rounded up: the
// facility is a continuous load, which stays within 80 % of a rating (NFPA 70 / NEC 215.3, 230.42; the
// engine's building_above_continuous_rating rule).
constexpr double kNetworkOverhead = 1.08;
constexpr double kAirCoolingWPerW = 0.25;
constexpr double kMiscFacility = 0.02;
constexpr double kCapacityMargin = 1.25;
// Floating-point slack of ceilings, as in generate.py's ceil_to.
constexpr double kCeilEps = 1e-9;

double ceilTo(double x, double step) {
    return std::ceil(x / step - kCeilEps) * step;
}
/// Millimetre precision for positions.
double r3(double x) {
    return std::round(x * 1000.0) / 1000.0;
}

[[noreturn]] void fail(const std::string& kind, const std::string& id, const std::string& field,
                       const std::string& problem) {
    throw InputError(InputLocation{kSpecFile, kind, id, "", field}, problem);
}

double cv(const CatalogItem& item, const char* key, bool high = false) {
    const auto* v = item.find(key);
    if (!v)
        throw InputError(InputLocation{"catalog", "catalog item", item.id, item.name, key}, "missing value");
    return high ? v->high : v->base;
}

const CatalogItem& catalogItem(const model::Catalog& catalog, const std::string& id,
                               const std::string& category, const std::string& kind,
                               const std::string& ownerKind, const std::string& ownerId,
                               const std::string& field) {
    const auto* item = catalog.find(id);
    if (!item) fail(ownerKind, ownerId, field, "unknown catalog id '" + id + "'");
    if (item->category != category)
        fail(ownerKind, ownerId, field, "'" + id + "' is a " + item->category + " item, not " + category);
    if (!kind.empty() && item->kind != kind)
        fail(ownerKind, ownerId, field,
             "'" + id + "' is a " + item->kind + " " + category + " item, not " + kind);
    return *item;
}

std::vector<int> evenSplit(int n, int k) {
    std::vector<int> out(k, n / k);
    for (int i = 0; i < n % k; ++i)
        ++out[i];
    return out;
}

/// Indices of `pick` items spread evenly over `total` (deterministic).
std::set<int> spread(int total, int pick) {
    std::set<int> out;
    for (int i = 0; i < pick; ++i)
        out.insert(static_cast<int>(((2LL * i + 1) * total) / (2LL * pick)));
    return out;
}

std::string columnLabel(size_t ci) {
    if (ci < 26) return std::string(1, static_cast<char>('A' + ci));
    return std::string(1, static_cast<char>('A' + ci / 26 - 1)) + static_cast<char>('A' + ci % 26);
}

std::string lower(std::string s) {
    for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string twoDigits(int n) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%02d", n);
    return buf;
}

/// Utility MV transformer, generator on the LV bus, LV switchgear, static UPS, row busway (2N Tier III-style
/// chain; data/FORMAT.md power ids).
std::vector<std::string> standardChain() {
    return {"xfmr-mv", "genset", "switchgear-lv", "ups-static", "busway-row"};
}

double rackLiquidW(const CatalogItem& rack, bool high) {
    return cv(rack, "power_load_w", high) * cv(rack, "liquid_fraction", high);
}

/// CDUs a loop needs: N from base and high liquid heat, then the redundancy. Returns {installed, N}.
std::pair<int, int> cdusNeeded(const CatalogItem& rack, int nRacks, const CatalogItem& cdu,
                               const std::string& redundancy) {
    const double cap = cv(cdu, "capacity_w");
    const double base = nRacks * rackLiquidW(rack, false);
    const double high = nRacks * rackLiquidW(rack, true);
    const int n = std::max({1, static_cast<int>(std::ceil(base / (cap * kCduHeadroom) - kCeilEps)),
                            static_cast<int>(std::ceil(high / cap - kCeilEps))});
    if (redundancy == "N") return {n, n};
    if (redundancy == "2N") return {2 * n, n};
    return {n + 1, n};
}

/// Geometry of one hall.
struct HallPlan {
    const HallSpec* spec = nullptr;
    const CatalogItem* rack = nullptr;
    const CatalogItem* cdu = nullptr;
    const CatalogItem* plant = nullptr;
    const CatalogItem* network = nullptr; // the network rack at each row's start, or none
    double networkW = 0;
    int nRacks = 0;
    double rackW = 0, rowDepth = 0, aisle = 0, pitch = 0, cduW = 0, endZone = 0, marginX = 0, marginY = 0,
           cross = 0;
    std::vector<double> columnLength;
    double width = 0, depth = 0;
};

HallPlan planHall(const HallSpec& h, const model::Catalog& catalog) {
    HallPlan p;
    p.spec = &h;
    p.rack = &catalogItem(catalog, h.rackType, "racks", "", "hall", h.id, "rack_type");
    if (p.rack->kind != "compute" || cv(*p.rack, "gpus") <= 0)
        fail("hall", h.id, "rack_type",
             "'" + h.rackType + "' is a " + p.rack->kind + " rack; halls hold compute racks");
    for (const auto& c : h.columns)
        p.nRacks += std::accumulate(c.begin(), c.end(), 0);
    if (h.spares > p.nRacks)
        fail("hall", h.id, "spares",
             std::to_string(h.spares) + " spares for " + std::to_string(p.nRacks) + " racks");
    p.rackW = cv(*p.rack, "width_m");
    p.rowDepth = std::max(kMinRowDepthM, cv(*p.rack, "depth_m"));
    // Every row starts with a network rack for its end-of-row leaves (front-end networks always place them
    // there, back-ends when the compute racks have no room; cost/bill_of_materials.cpp).
    if (!h.networkRack) {
        if (const auto* item = catalog.find(kDefaultNetworkRack); item && item->kind == "network")
            p.network = item;
    } else if (!h.networkRack->empty()) {
        p.network = &catalogItem(catalog, *h.networkRack, "racks", "network", "hall", h.id, "network_rack");
    }
    if (p.network) {
        p.networkW = cv(*p.network, "width_m");
        p.rowDepth = std::max(p.rowDepth, cv(*p.network, "depth_m"));
    }
    const bool liquid = h.cooling.has_value();
    if (!liquid && cv(*p.rack, "liquid_fraction") > 0)
        fail("hall", h.id, "cooling",
             "rack type '" + h.rackType + "' rejects " +
                 std::to_string(int(cv(*p.rack, "liquid_fraction") * 100)) +
                 " % of its heat to liquid; give the hall liquid cooling");
    p.aisle = liquid ? kAisleLiquidM : kAisleAirM;
    p.pitch = p.rowDepth + p.aisle;
    if (liquid) {
        p.cdu = &catalogItem(catalog, h.cooling->cduType, "cooling", "cdu", "hall", h.id, "cooling.cdu_type");
        p.plant = &catalogItem(catalog, h.cooling->plant, "cooling", "plant", "hall", h.id, "cooling.plant");
        p.cduW = cv(*p.cdu, "width_m");
        p.endZone = kCduGapM + p.cduW;
    }
    // Air halls keep a fan-wall / CRAH gallery at both ends of the rows instead of CDUs.
    p.marginX = kHallClearM + (liquid ? p.endZone : kAirHandlerZoneM);
    p.marginY = kHallClearM;
    p.cross = 2 * p.endZone + (liquid ? kWalkwayM : kHallClearM);
    size_t maxRows = 0;
    double lengths = 0;
    for (const auto& c : h.columns) {
        p.columnLength.push_back(*std::max_element(c.begin(), c.end()) * p.rackW + p.networkW);
        lengths += p.columnLength.back();
        maxRows = std::max(maxRows, c.size());
    }
    p.width = std::ceil(2 * p.marginX + lengths + static_cast<double>(h.columns.size() - 1) * p.cross);
    p.depth = std::ceil(2 * p.marginY + static_cast<double>(maxRows) * p.pitch - p.aisle);
    return p;
}

void addHall(model::Project& proj, const model::Building& b, const HallPlan& h, double x0, double y0) {
    const HallSpec& s = *h.spec;
    model::DataHall hall;
    hall.id = s.id;
    hall.name = s.name;
    hall.building = b.id;
    hall.x = x0 * meter, hall.y = y0 * meter, hall.width = h.width * meter, hall.depth = h.depth * meter;
    hall.grid = kHallGridM * meter;
    proj.halls.push_back(hall);

    // Feeds: each sized for the whole hall at high rack power, or 125 % of base (continuous load within 80 %
    // of the rating, NEC 210.20(A) / 215.3; the engine's feed_above_continuous_rating rule), rounded up.
    const double hi = h.nRacks * cv(*h.rack, "power_load_w", true);
    const double base = h.nRacks * cv(*h.rack, "power_load_w");
    const double step = base > 2e6 ? 0.5e6 : 0.05e6;
    const double cap = ceilTo(std::max(hi, 1.25 * base), step);
    const auto chain = s.chain.empty() ? standardChain() : s.chain;
    auto addFeed = [&](const std::string& suffix, const std::string& label) {
        model::PowerFeed f;
        f.id = s.id + suffix;
        f.name = s.name + label;
        f.building = b.id;
        f.capacity = cap * watt;
        f.chain = chain;
        proj.powerFeeds.push_back(f);
        return f.id;
    };
    const std::string feedA = addFeed("-feed-a", " feed A");
    const std::string feedB = s.singleCorded ? std::string() : addFeed("-feed-b", " feed B");

    const auto spares = spread(h.nRacks, s.spares);
    int ordinal = 0;
    double x = h.marginX;
    for (size_t ci = 0; ci < s.columns.size(); ++ci) {
        const auto& col = s.columns[ci];
        const std::string letter = columnLabel(ci);
        std::string loopId;
        if (s.cooling) {
            const int racks = std::accumulate(col.begin(), col.end(), 0);
            const int nCdu = cdusNeeded(*h.rack, racks, *h.cdu, s.cooling->redundancy).first;
            std::vector<model::Point2> ends;
            for (size_t ri = 0; ri < col.size(); ++ri) {
                const double y = h.marginY + static_cast<double>(ri) * h.pitch;
                ends.push_back({x - kCduGapM - h.cduW, y});                         // west end of the row
                ends.push_back({x + h.networkW + col[ri] * h.rackW + kCduGapM, y}); // east end of the row
            }
            if (nCdu > static_cast<int>(ends.size()))
                fail("hall", s.id, "columns",
                     "column " + letter + " needs " + std::to_string(nCdu) + " CDUs but its " +
                         std::to_string(col.size()) + " rows have only " + std::to_string(ends.size()) +
                         " row-end positions; use shorter rows or more columns");
            model::CoolingLoop loop;
            loopId = s.id + "-loop-" + lower(letter);
            loop.id = loopId;
            loop.name = s.name + " loop " + letter;
            loop.hall = s.id;
            loop.cduType = s.cooling->cduType;
            loop.cduCount = nCdu;
            loop.redundancy = s.cooling->redundancy;
            loop.supplyTempC = s.cooling->supplyTempC;
            loop.deltaT = s.cooling->deltaTK * units::kelvin;
            loop.plant = s.cooling->plant;
            for (int i : spread(static_cast<int>(ends.size()), nCdu))
                loop.cdus.push_back({r3(ends[i].xM), r3(ends[i].yM)});
            proj.coolingLoops.push_back(std::move(loop));
        }
        for (size_t ri = 0; ri < col.size(); ++ri) {
            const double y = h.marginY + static_cast<double>(ri) * h.pitch;
            const double rot = ri % 2 == 0 ? 0.0 : 180.0;
            model::Row row;
            row.id = s.id + "-" + letter + twoDigits(static_cast<int>(ri + 1));
            row.name = s.name + " row " + letter + twoDigits(static_cast<int>(ri + 1));
            row.hall = s.id;
            row.x = r3(x) * meter, row.y = r3(y) * meter;
            row.rotationDeg = rot;
            if (h.network) { // the row's network rack at its west end, air-cooled, on the hall's feeds
                model::RackPlacement r;
                r.id = row.id + "-net";
                r.name = letter + twoDigits(static_cast<int>(ri + 1)) + "-NET";
                r.row = row.id;
                r.rackType = h.network->id;
                r.x = r3(x) * meter, r.y = r3(y) * meter;
                r.rotationDeg = rot;
                r.feedA = feedA;
                r.feedB = feedB;
                proj.racks.push_back(std::move(r));
            }
            for (int k = 0; k < col[ri]; ++k) {
                model::RackPlacement r;
                r.id = row.id + "-" + twoDigits(k + 1);
                r.name = letter + twoDigits(static_cast<int>(ri + 1)) + "-" + twoDigits(k + 1);
                r.row = row.id;
                r.rackType = s.rackType;
                r.x = r3(x + h.networkW + k * h.rackW) * meter, r.y = r3(y) * meter;
                r.rotationDeg = rot;
                r.feedA = feedA;
                r.feedB = feedB;
                r.coolingLoop = loopId;
                r.spare = spares.count(ordinal) > 0;
                proj.racks.push_back(std::move(r));
                ++ordinal;
            }
            proj.rows.push_back(std::move(row));
        }
        x += h.columnLength[ci] + h.cross;
    }
}

void addBuilding(model::Project& proj, const BuildingSpec& bs, const std::string& siteId,
                 const model::Catalog& catalog) {
    std::vector<HallPlan> plans;
    for (const auto& h : bs.halls)
        plans.push_back(planHall(h, catalog));
    double width = 2 * kBuildingWallM, itW = 0, maxDepth = 0;
    for (const auto& h : plans)
        width += h.width, itW += h.nRacks * cv(*h.rack, "power_load_w");
    width += kBuildingCorridorM * static_cast<double>(plans.size() - 1);
    for (const auto& h : plans)
        maxDepth = std::max(maxDepth, h.depth);
    const double gallery = std::max(kGalleryM, std::ceil(kGalleryMPerMw * (itW / 1e6)));

    model::Building b;
    b.id = bs.id;
    b.name = bs.name;
    b.site = siteId;
    b.width = width * meter, b.depth = (2 * gallery + maxDepth) * meter, b.height = bs.heightM * meter;
    // Optional fields only when the spec gives them (absent = derived by the engine).
    if (bs.shellCostUsd) b.shellCost = *bs.shellCostUsd * usd;
    if (bs.puePinned) b.puePinned = *bs.puePinned;
    // Power topology: as given; else single-path N when no hall has a B feed (grid-only resiliency), else 2N
    // (the A/B feeds laid out below, each able to carry the hall).
    const bool allSingle =
        std::all_of(bs.halls.begin(), bs.halls.end(), [](const HallSpec& h) { return h.singleCorded; });
    b.powerTopology = bs.powerTopology ? *bs.powerTopology : allSingle ? "N" : "2N";

    const size_t firstLoop = proj.coolingLoops.size();
    double x = kBuildingWallM;
    for (const auto& h : plans) {
        addHall(proj, b, h, x, gallery);
        x += h.width + kBuildingCorridorM;
    }
    // Facility estimate: IT x 1.08 / chain efficiency + liquid heat / plant COP + air heat / 4 + 2 % misc +
    // CDU pumps (catalog). The lowest COP of the building's plants; the first hall's chain.
    double it = 0, liquid = 0;
    std::map<std::string, int> racksByType;
    std::vector<std::string> typeOrder;
    for (const auto& h : plans) {
        if (!racksByType.count(h.spec->rackType)) typeOrder.push_back(h.spec->rackType);
        racksByType[h.spec->rackType] += h.nRacks;
    }
    for (const auto& t : typeOrder) {
        const auto& rack = catalog.at(t);
        it += racksByType[t] * cv(rack, "power_load_w");
        liquid += racksByType[t] * rackLiquidW(rack, false);
    }
    double cop = 0;
    for (const auto& h : plans)
        if (h.plant) cop = cop > 0 ? std::min(cop, cv(*h.plant, "cop")) : cv(*h.plant, "cop");
    double eff = 1.0;
    for (const auto& c : plans.front().spec->chain.empty() ? standardChain() : plans.front().spec->chain)
        eff *=
            cv(catalogItem(catalog, c, "power", "", "hall", plans.front().spec->id, "chain"), "efficiency");
    const double cooling = (liquid > 0 ? liquid / cop : 0.0) + (it - liquid) * kAirCoolingWPerW;
    double est = it * kNetworkOverhead / eff + cooling + kMiscFacility * it;
    double pumps = 0;
    for (size_t i = firstLoop; i < proj.coolingLoops.size(); ++i)
        pumps += proj.coolingLoops[i].cduCount * cv(catalog.at(proj.coolingLoops[i].cduType), "pump_power_w");
    est += pumps;
    const double step = est > 20e6 ? 5e6 : (est > 2e6 ? 1e6 : 0.25e6);
    b.powerCapacity = (bs.powerCapacityW ? *bs.powerCapacityW : ceilTo(est * kCapacityMargin, step)) * watt;
    proj.buildings.push_back(std::move(b));
}

/// Grid of at most 3 buildings per row per site, 40 m apart, pitched by the largest building of the site.
void placeBuildings(model::Project& proj) {
    std::map<std::string, std::vector<model::Building*>> bySite;
    std::vector<std::string> order;
    for (auto& b : proj.buildings) {
        if (!bySite.count(b.site)) order.push_back(b.site);
        bySite[b.site].push_back(&b);
    }
    for (const auto& s : order) {
        const auto& bs = bySite[s];
        double maxW = 0, maxD = 0;
        for (const auto* b : bs)
            maxW = std::max(maxW, b->width.value()), maxD = std::max(maxD, b->depth.value());
        for (size_t i = 0; i < bs.size(); ++i) {
            bs[i]->x =
                (kCampusOriginM + static_cast<double>(i % kBuildingsPerCampusRow) * (maxW + kCampusGapM)) *
                meter;
            bs[i]->y =
                (kCampusOriginM + static_cast<double>(i / kBuildingsPerCampusRow) * (maxD + kCampusGapM)) *
                meter;
        }
    }
}

/// Compute racks of the fabric's scope (all buildings when the list is empty).
std::vector<const CatalogItem*> racksInScope(const model::Project& proj, const model::Catalog& catalog,
                                             const std::vector<std::string>& scope) {
    std::map<std::string, std::string> hallBuilding, rowBuilding;
    for (const auto& h : proj.halls)
        hallBuilding[h.id] = h.building;
    for (const auto& r : proj.rows)
        rowBuilding[r.id] = hallBuilding[r.hall];
    const std::set<std::string> in(scope.begin(), scope.end());
    std::vector<const CatalogItem*> out;
    for (const auto& r : proj.racks)
        if (in.empty() || in.count(rowBuilding[r.row]))
            if (const auto& item = catalog.at(r.rackType); item.kind == "compute") out.push_back(&item);
    return out;
}

std::vector<const CatalogItem*> switchesBySize(const model::Catalog& catalog) {
    auto sw = catalog.byCategory("switches");
    std::stable_sort(sw.begin(), sw.end(), [](const CatalogItem* a, const CatalogItem* b) {
        return cv(*a, "capacity_bit_per_s") < cv(*b, "capacity_bit_per_s");
    });
    return sw;
}

std::string gbps(double bps) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%gG", bps / 1e9);
    return buf;
}

/// Front-end (north-south, storage, management) network: one port per front-end NIC at the catalog's
/// front-end rate, 3:1 oversubscribed at the leaf (estimate, usual for front-end networks); the smallest
/// switch and fewest tiers that hold the endpoints, with one leaf per rack (ToR), so two tiers also need
/// every leaf on a spine port (racks <= radix). The fabric keeps leaf_placement "auto" (end of row for a
/// front-end), whose per-row leaves are never more than the ToR ones: the check is conservative.
model::Fabric autoFrontend(const FabricSpec& fs, const model::Project& proj, const model::Catalog& catalog) {
    const auto racks = racksInScope(proj, catalog, fs.fabric.buildings);
    if (racks.empty()) fail("fabric", fs.fabric.id, "buildings", "no racks in the fabric's buildings");
    const double rate = cv(*racks.front(), "frontend_nic_bit_per_s");
    double endpoints = 0;
    for (const auto* r : racks)
        endpoints += cv(*r, "frontend_nics");
    const double nRacks = static_cast<double>(racks.size());
    model::Fabric f = fs.fabric;
    if (f.name.empty()) f.name = "Front-end network";
    f.role = "frontend";
    f.portBitPerS = rate;
    f.planes = 1;
    f.railOptimized = false;
    const auto switches = switchesBySize(catalog);
    for (const auto* sw : switches) {
        const int breakout = static_cast<int>(cv(*sw, "port_bit_per_s") / rate);
        if (breakout < 1) continue;
        const double k = cv(*sw, "ports") * breakout;
        f.switchType = sw->id, f.breakout = breakout;
        if (endpoints <= k) {
            f.tiers = 1, f.oversubscription = {};
            return f;
        }
        if (endpoints <= k * k / 2 && nRacks <= k) {
            f.tiers = 2, f.oversubscription = {3.0};
            return f;
        }
    }
    const auto* smallest = switches.empty() ? nullptr : switches.front();
    if (!smallest || cv(*smallest, "port_bit_per_s") < rate)
        fail("fabric", f.id, "switch",
             "no catalog switch has a port as fast as the " + gbps(rate) + " front-end NIC");
    f.switchType = smallest->id;
    f.breakout = static_cast<int>(cv(*smallest, "port_bit_per_s") / rate);
    f.tiers = 3, f.oversubscription = {3.0, 1.0};
    return f;
}

/// Back-end: each NIC's bandwidth split over P planes (multi-plane) at port speed R/P, broken out from the
/// switch port. The fewest tiers that fit (latency, switch count), then the fewest planes, then the largest
/// switch; fit is the engine's own Clos reach check (clos_sizing.h). Rail-optimised leaves above one tier.
model::Fabric autoBackend(const FabricSpec& fs, const model::Project& proj, const model::Catalog& catalog) {
    const auto racks = racksInScope(proj, catalog, fs.fabric.buildings);
    if (racks.empty()) fail("fabric", fs.fabric.id, "buildings", "no racks in the fabric's buildings");
    const double nicRate = cv(*racks.front(), "backend_nic_bit_per_s");
    for (const auto* r : racks)
        if (cv(*r, "backend_nic_bit_per_s") != nicRate)
            fail("fabric", fs.fabric.id, "auto",
                 "racks in scope have different back-end NIC speeds; give this fabric explicitly");
    const double over = fs.oversubscription.value_or(1.0);
    auto switches = switchesBySize(catalog);
    std::reverse(switches.begin(), switches.end());
    const std::vector<int> tierOptions = fs.tiers ? std::vector<int>{*fs.tiers} : std::vector<int>{1, 2, 3};
    const std::vector<int> planeOptions =
        fs.planes ? std::vector<int>{*fs.planes} : std::vector<int>{1, 2, 4, 8};
    double lastEndpoints = 0;
    int lastRadix = 0;
    for (int tiers : tierOptions)
        for (int planes : planeOptions)
            for (const auto* sw : switches) {
                const double port = nicRate / planes;
                const double ratio = cv(*sw, "port_bit_per_s") / port;
                const int breakout = static_cast<int>(std::lround(ratio));
                if (breakout < 1 || breakout > 8 || std::abs(ratio - breakout) > 1e-9) continue;
                ClosInput in;
                in.radix = static_cast<int>(cv(*sw, "ports")) * breakout;
                in.tiers = tiers;
                in.leafOversubscription = tiers == 2 ? over : 1.0;
                in.spineOversubscription = tiers == 3 ? over : 1.0;
                in.topOfRack = tiers == 1;
                for (const auto* r : racks)
                    in.endpointsPerRack.push_back(cv(*r, "backend_nics") * nicRate / (planes * port));
                const auto s = sizeClos(in);
                lastEndpoints = s.endpoints, lastRadix = in.radix;
                if (s.exceedsTierLimit) continue;
                model::Fabric f = fs.fabric;
                f.role = "backend";
                f.switchType = sw->id;
                f.portBitPerS = port;
                f.planes = planes;
                f.tiers = tiers;
                f.breakout = breakout;
                f.oversubscription.clear();
                if (tiers == 2) f.oversubscription = {over};
                if (tiers == 3) f.oversubscription = {1.0, over};
                f.railOptimized = tiers > 1;
                if (f.name.empty())
                    f.name = "Back-end, " + std::to_string(planes) +
                             (planes == 1 ? " plane x " : " planes x ") + gbps(port) + ", " +
                             std::to_string(tiers) + (tiers == 1 ? " tier" : " tiers");
                return f;
            }
    fail("fabric", fs.fabric.id, fs.tiers ? "tiers" : "planes",
         "the back-end's " + std::to_string(static_cast<long long>(lastEndpoints)) +
             " endpoints per plane do not fit " + (fs.tiers ? std::to_string(*fs.tiers) : std::string("3")) +
             " tiers of any catalog switch (radix " + std::to_string(lastRadix) +
             (fs.planes ? "" : " with up to 8 planes") +
             "); allow more tiers or planes, or split the design into several fabrics");
}

model::Project layOut(const DesignSpec& spec, const model::Catalog& catalog) {
    model::Project p;
    p.info = spec.info;
    p.assumptions = spec.assumptions;
    for (const auto& s : spec.sites) {
        p.sites.push_back(s.site);
        for (const auto& b : s.buildings)
            addBuilding(p, b, s.site.id, catalog);
    }
    placeBuildings(p);
    for (const auto& f : spec.fabrics) {
        if (!f.autoSize)
            p.fabrics.push_back(f.fabric);
        else
            p.fabrics.push_back(f.fabric.role == "frontend" ? autoFrontend(f, p, catalog)
                                                            : autoBackend(f, p, catalog));
    }
    for (const auto& s : spec.storage) {
        model::StorageTier t = s.tier;
        if (s.writeBytesPerS) {
            // Capacity whose aggregate write bandwidth (catalog write_bytes_per_s_per_byte x capacity) meets
            // the target, rounded up to whole petabytes.
            const auto& type = catalogItem(catalog, t.type, "storage", "", "storage tier", t.id, "type");
            t.capacity =
                ceilTo(*s.writeBytesPerS / cv(type, "write_bytes_per_s_per_byte"), 1e15) * units::byte;
        }
        p.storageTiers.push_back(std::move(t));
    }
    p.links = spec.links;
    p.trainingJobs = spec.trainingJobs;
    p.inferenceServices = spec.inferenceServices;
    // Ids, references and catalog references of the whole result, passed-through entities included.
    model::validateProject(p, kSpecFile, &catalog);
    return p;
}

// ---- Targets -> explicit layout ----

/// Longest row: 16 racks in air halls (the Llama 3 pod row), 15 in liquid halls (the NVL72 rows of the
/// neocloud reference); shortened when a column's CDUs would not fit its row ends.
constexpr int kMaxRowAir = 16;
constexpr int kMaxRowLiquid = 15;
/// Rows per column (one loop per column): 10, as the 1 GW campus reference's blocks.
constexpr int kRowsPerColumn = 10;
/// Supply temperature by heat rejection: dry coolers run warm water (W40 class, neocloud reference), cooling
/// towers W32 (campus reference), chillers 30 C (two-site reference); ASHRAE TC 9.9 liquid classes.
double supplyTempFor(const std::string& plant) {
    if (plant == "plant-dry-cooler") return 40.0;
    if (plant == "plant-tower") return 32.0;
    return 30.0;
}
/// Checkpoint write target: 25 GB/s per 1,000 GPUs (the neocloud reference's 2.5 TB/s for ~100K GPUs).
constexpr double kCheckpointWriteBytesPerSPerGpu = 25e6;

std::vector<std::vector<int>> hallColumns(int racks, int maxRow) {
    const int rows = (racks + maxRow - 1) / maxRow;
    const int columns = (rows + kRowsPerColumn - 1) / kRowsPerColumn;
    const auto lengths = evenSplit(racks, rows);
    std::vector<std::vector<int>> out(columns);
    for (int i = 0; i < rows; ++i)
        out[i % columns].push_back(lengths[i]);
    return out;
}

std::string cduFor(const model::Catalog& catalog, const CatalogItem& rack, int racksPerColumn) {
    // The CDU that needs the fewest units for a full column; on a tie the smaller (cheaper) one.
    const CatalogItem* best = nullptr;
    int bestN = 0;
    for (const auto* c : catalog.byCategory("cooling")) {
        if (c->kind != "cdu") continue;
        const int n = cdusNeeded(rack, racksPerColumn, *c, "N").second;
        if (!best || n < bestN || (n == bestN && cv(*c, "capacity_w") < cv(*best, "capacity_w")))
            best = c, bestN = n;
    }
    if (!best) fail("target", "", "cooling", "the catalog has no CDU");
    return best->id;
}

struct TargetChecks {
    const CatalogItem* rack = nullptr;
    std::string plant; // "" for air
};

TargetChecks checkTarget(const TargetSpec& t, const model::Catalog& catalog) {
    auto bad = [](const std::string& field, const std::string& problem) {
        fail("target", "", field, problem);
    };
    if (t.gpus && t.itMw) bad("gpus", "give a GPU count or an IT power target, not both");
    if (!t.gpus && !t.itMw) bad("gpus", "give a GPU count (gpus) or an IT power target in MW (it_mw)");
    if (t.gpus && (!std::isfinite(*t.gpus) || *t.gpus <= 0 || *t.gpus > 1e7))
        bad("gpus", "GPU count must be a number from 1 to 10,000,000, not " + std::to_string(*t.gpus));
    if (t.itMw && (!std::isfinite(*t.itMw) || *t.itMw <= 0 || *t.itMw > 1e5))
        bad("it_mw",
            "IT power must be a number of MW above 0 and at most 100,000, not " + std::to_string(*t.itMw));
    TargetChecks c;
    std::string compute;
    for (const auto* r : catalog.byCategory("racks"))
        if (r->kind == "compute") compute += (compute.empty() ? "" : ", ") + r->id;
    if (t.rackType.empty()) bad("rack_type", "a rack type is required (compute rack types: " + compute + ")");
    c.rack = catalog.find(t.rackType);
    if (!c.rack || c.rack->category != "racks")
        bad("rack_type", "unknown rack type '" + t.rackType + "' (compute rack types: " + compute + ")");
    if (c.rack->kind != "compute" || cv(*c.rack, "gpus") <= 0)
        bad("rack_type", "'" + t.rackType + "' is a " + c.rack->kind +
                             " rack without GPUs; choose a compute rack (" + compute + ")");
    static const std::map<std::string, std::string> plants = {{"dry_cooler", "plant-dry-cooler"},
                                                              {"tower", "plant-tower"},
                                                              {"chiller", "plant-chiller"},
                                                              {"air", ""}};
    const auto pl = plants.find(t.cooling);
    if (pl == plants.end())
        bad("cooling", "cooling must be air, dry_cooler, tower or chiller, not '" + t.cooling + "'");
    c.plant = pl->second;
    const double lf = cv(*c.rack, "liquid_fraction");
    if (c.plant.empty() && lf > 0)
        bad("cooling",
            "'" + t.rackType + "' rejects " + std::to_string(int(std::lround(lf * 100))) +
                " % of its heat to liquid and cannot be air-cooled; choose dry_cooler, tower or chiller");
    if (!c.plant.empty() && lf <= 0)
        bad("cooling", "'" + t.rackType + "' is air-cooled (no liquid heat); choose cooling air");
    if (t.buildings && (*t.buildings < 1 || *t.buildings > 100))
        bad("buildings", "buildings must be from 1 to 100");
    if (t.hallsPerBuilding && (*t.hallsPerBuilding < 1 || *t.hallsPerBuilding > 50))
        bad("halls_per_building", "halls per building must be from 1 to 50");
    if (t.spareFraction &&
        (!std::isfinite(*t.spareFraction) || *t.spareFraction < 0 || *t.spareFraction > 0.5))
        bad("spare_fraction", "spare fraction must lie in [0, 0.5]");
    if (!std::isfinite(t.site.latDeg) || std::abs(t.site.latDeg) > 90)
        bad("site.lat_deg", "latitude must lie in [-90, 90]");
    if (!std::isfinite(t.site.lonDeg) || std::abs(t.site.lonDeg) > 180)
        bad("site.lon_deg", "longitude must lie in [-180, 180]");
    if (t.tiers && (*t.tiers < 1 || *t.tiers > 3)) bad("tiers", "tiers must be 1, 2 or 3");
    if (t.planes && (*t.planes < 1 || *t.planes > 16)) bad("planes", "planes must be from 1 to 16");
    if (t.oversubscription &&
        (!std::isfinite(*t.oversubscription) || *t.oversubscription < 1 || *t.oversubscription > 64))
        bad("oversubscription", "oversubscription must be a ratio from 1 to 64");
    return c;
}

DesignSpec planRacks(const DesignSpec& spec, const TargetChecks& c, int sellable, double spareFraction,
                     const model::Catalog& catalog) {
    const TargetSpec& t = *spec.target;
    const int spares = static_cast<int>(std::ceil(sellable * spareFraction - kCeilEps));
    const int total = sellable + spares;
    const HallCounts counts = automaticHalls(t, total, cv(*c.rack, "power_load_w"));
    const int halls = counts.buildings * counts.hallsPerBuilding;
    if (halls > total)
        fail("target", "", "buildings",
             std::to_string(counts.buildings) + " buildings x " + std::to_string(counts.hallsPerBuilding) +
                 " halls = " + std::to_string(halls) + " halls for only " + std::to_string(total) +
                 " racks; every hall needs at least one rack");
    DesignSpec out;
    out.info = spec.info;
    out.assumptions = spec.assumptions;
    out.links = spec.links;
    out.trainingJobs = spec.trainingJobs;
    out.inferenceServices = spec.inferenceServices;
    SiteSpec site;
    site.site = t.site;
    if (site.site.id.empty()) site.site.id = "site-1";
    if (site.site.name.empty()) site.site.name = "Site 1";
    const auto sellSplit = evenSplit(sellable, halls);
    auto spareSplit = evenSplit(spares, halls);
    std::reverse(spareSplit.begin(), spareSplit.end()); // spares go to the halls with fewer sellable racks
    const bool liquid = !c.plant.empty();
    int hi = 0;
    for (int bi = 0; bi < counts.buildings; ++bi) {
        BuildingSpec b;
        b.id = "b" + std::to_string(bi + 1);
        b.name = "Building " + std::to_string(bi + 1);
        for (int k = 0; k < counts.hallsPerBuilding; ++k, ++hi) {
            HallSpec h;
            h.id = b.id + "-h" + std::to_string(k + 1);
            h.name = "B" + std::to_string(bi + 1) + " hall " + std::to_string(k + 1);
            h.rackType = t.rackType;
            h.spares = spareSplit[hi];
            const int n = sellSplit[hi] + spareSplit[hi];
            int maxRow = liquid ? kMaxRowLiquid : kMaxRowAir;
            if (liquid) {
                HallCoolingSpec cool;
                cool.plant = c.plant;
                cool.supplyTempC = supplyTempFor(c.plant);
                // Shorten rows until each column's N+1 CDUs fit its row ends (two per row).
                for (;; --maxRow) {
                    h.columns = hallColumns(n, maxRow);
                    int worst = 0;
                    for (const auto& col : h.columns) {
                        const int racks = std::accumulate(col.begin(), col.end(), 0);
                        cool.cduType = cduFor(catalog, *c.rack, racks);
                        worst = std::max(worst,
                                         cdusNeeded(*c.rack, racks, catalog.at(cool.cduType), "N+1").first -
                                             2 * static_cast<int>(col.size()));
                    }
                    if (worst <= 0 || maxRow == 1) break;
                }
                h.cooling = cool;
            } else {
                h.columns = hallColumns(n, maxRow);
            }
            b.halls.push_back(std::move(h));
        }
        site.buildings.push_back(std::move(b));
    }
    out.sites.push_back(std::move(site));
    FabricSpec be;
    be.autoSize = true;
    be.fabric.id = "be";
    be.fabric.role = "backend";
    be.tiers = t.tiers, be.planes = t.planes, be.oversubscription = t.oversubscription;
    out.fabrics.push_back(be);
    FabricSpec fe;
    fe.autoSize = true;
    fe.fabric.id = "fe";
    fe.fabric.role = "frontend";
    out.fabrics.push_back(fe);
    StorageSpec pfs;
    pfs.tier.id = "pfs";
    pfs.tier.name = "Flash parallel file system (checkpoints)";
    pfs.tier.type = "pfs-flash";
    pfs.tier.building = "b1";
    pfs.writeBytesPerS = total * cv(*c.rack, "gpus") * kCheckpointWriteBytesPerSPerGpu;
    out.storage.push_back(pfs);
    if (out.info.id.empty()) out.info.id = "generated";
    if (out.info.name.empty()) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%d x %s (%.0f GPUs), %d building%s", total, t.rackType.c_str(),
                      total * cv(*c.rack, "gpus"), counts.buildings, counts.buildings == 1 ? "" : "s");
        out.info.name = buf;
    }
    if (out.info.description.empty()) {
        char buf[512];
        std::snprintf(
            buf, sizeof buf,
            "Generated from targets: %s, rack type %s, cooling %s, %d building(s) x %d hall(s); %d sellable "
            "racks + %d hot spares.",
            t.gpus ? (std::to_string(static_cast<long long>(*t.gpus)) + " GPUs").c_str()
                   : (std::to_string(*t.itMw) + " MW of IT").c_str(),
            t.rackType.c_str(), t.cooling.c_str(), counts.buildings, counts.hallsPerBuilding, sellable,
            spares);
        out.info.description = buf;
    }
    return out;
}

} // namespace

HallCounts automaticHalls(const TargetSpec& t, int racks, double rackLoadW) {
    const auto ceilDiv = [](int a, int b) { return (a + b - 1) / b; };
    HallCounts out;
    if (t.buildings && t.hallsPerBuilding) return {*t.buildings, *t.hallsPerBuilding};
    // Halls the racks need: by rack load (kAutoHallMaxLoadW) and by floor space (kAutoHallMaxRacks).
    const int byLoad = static_cast<int>(std::ceil(racks * rackLoadW / kAutoHallMaxLoadW - kCeilEps));
    const int halls = std::max({1, byLoad, ceilDiv(racks, kAutoHallMaxRacks)});
    if (t.buildings) {
        out.buildings = *t.buildings;
        out.hallsPerBuilding = std::min(50, ceilDiv(halls, out.buildings));
    } else if (t.hallsPerBuilding) {
        out.hallsPerBuilding = *t.hallsPerBuilding;
        out.buildings = std::min(100, ceilDiv(halls, out.hallsPerBuilding));
    } else {
        out.buildings = std::min(100, ceilDiv(halls, kAutoHallsPerBuilding));
        out.hallsPerBuilding = std::min(50, ceilDiv(halls, out.buildings));
    }
    // Never more halls than racks (a hall needs one); a given count that asks for that is refused later.
    while (!t.hallsPerBuilding && out.hallsPerBuilding > 1 && out.buildings * out.hallsPerBuilding > racks)
        --out.hallsPerBuilding;
    while (!t.buildings && out.buildings > 1 && out.buildings * out.hallsPerBuilding > racks)
        --out.buildings;
    return out;
}

DesignSpec planTarget(const DesignSpec& spec, const model::Catalog& catalog,
                      const model::AssumptionSet& defaults) {
    if (!spec.target) return spec;
    const TargetSpec& t = *spec.target;
    const auto c = checkTarget(t, catalog);
    const auto merged = model::mergeAssumptions(defaults, spec.assumptions);
    const auto sf = merged.find("spare_fraction_target");
    const double spareFraction =
        t.spareFraction ? *t.spareFraction : (sf != merged.end() ? sf->second.base : 0.0);
    const double gpr = cv(*c.rack, "gpus");
    if (t.gpus)
        return planRacks(spec, c, static_cast<int>(std::ceil(*t.gpus / gpr - kCeilEps)), spareFraction,
                         catalog);

    // IT power: the target is the compute IT load (power.computePeak: racks at load, spares idle), the load
    // architects size a site on; network, storage and WAN come on top and are reported as
    // power.it_total_peak_mw. Spares' idle power changes with the rack count, so evaluate and adjust
    // (each step moves by the observed IT power per sellable rack) until within half a rack of the target, or
    // until a rack count comes back (the target lies between two counts: keep the closer, within one rack).
    const double target = *t.itMw * 1e6;
    const double load = cv(*c.rack, "power_load_w");
    int n = std::max(1, static_cast<int>(std::lround(target / load)));
    DesignSpec best;
    double bestErr = 1e300;
    std::set<int> tried;
    for (int iter = 0; iter < 12 && tried.insert(n).second; ++iter) {
        DesignSpec plan = planRacks(spec, c, n, spareFraction, catalog);
        const double it = evaluate(layOut(plan, catalog), catalog, defaults).power.computePeak.value();
        if (std::abs(it - target) < bestErr) bestErr = std::abs(it - target), best = plan;
        if (std::abs(it - target) <= load / 2) break;
        n = std::max(1, n + static_cast<int>(std::lround((target - it) / (it / n))));
    }
    return best;
}

model::Project generateDesign(const DesignSpec& spec, const model::Catalog& catalog,
                              const model::AssumptionSet& defaults) {
    model::Project p = layOut(spec.target ? planTarget(spec, catalog, defaults) : spec, catalog);
    // A phased build: the buildings energise one interval apart, in the order they were laid out.
    if (spec.phasing)
        if (const auto first = model::parseCalendarDate(spec.phasing->firstEnergisation))
            for (std::size_t i = 0; i < p.buildings.size(); ++i)
                p.buildings[i].energisationDate =
                    first->plusMonths(spec.phasing->intervalMonths * static_cast<int>(i)).iso();
    return p;
}

GeneratedSummary summarize(const model::Project& project, const model::Catalog& catalog,
                           const model::AssumptionSet& defaults) {
    GeneratedSummary s;
    for (const auto& r : project.racks) {
        const auto* t = catalog.find(r.rackType);
        if (t && t->kind == "network") {
            ++s.networkRacks;
            continue;
        }
        ++s.racks;
        s.spareRacks += r.spare ? 1 : 0;
        if (const auto* g = t ? t->find("gpus") : nullptr) s.gpus += g->base;
    }
    s.buildings = static_cast<int>(project.buildings.size());
    s.halls = static_cast<int>(project.halls.size());
    for (const auto& l : project.coolingLoops)
        s.coolingUnits += l.cduCount;
    const auto r = evaluate(project, catalog, defaults);
    s.itPeakMw = r.power.itPeak.value() / 1e6;
    s.itComputePeakMw = r.power.computePeak.value() / 1e6;
    return s;
}

} // namespace ctwin::cost
