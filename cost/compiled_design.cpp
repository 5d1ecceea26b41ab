#include "compiled_design.h"

#include "geometry_rules.h"
#include "power_chain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace ctwin::cost {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double valueOrNaN(const model::CatalogItem& item, const char* key) {
    const auto* v = item.find(key);
    return v ? v->base : kNaN;
}

/// id -> index, the last entity of an id winning (as the engine's former id -> pointer maps did).
template <class C> std::unordered_map<std::string, std::int32_t> indexById(const C& entities) {
    std::unordered_map<std::string, std::int32_t> out;
    out.reserve(entities.size());
    for (size_t i = 0; i < entities.size(); ++i)
        out[entities[i].id] = static_cast<std::int32_t>(i);
    return out;
}

std::int32_t lookup(const std::unordered_map<std::string, std::int32_t>& index, const std::string& id) {
    auto it = index.find(id);
    return it == index.end() ? CompiledDesign::kNone : it->second;
}

/// Indices 0..n-1 ordered by name(i) (stable, so equal ids keep their order).
template <class Name> std::vector<std::int32_t> orderBy(size_t n, Name name) {
    std::vector<std::int32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t a, std::int32_t b) { return name(a) < name(b); });
    return order;
}

/// Interns `id` into `ids` (real entities first, unknown names appended once).
std::int32_t intern(std::unordered_map<std::string, std::int32_t>& index, std::vector<std::string>& ids,
                    const std::string& id) {
    if (id.empty()) return CompiledDesign::kNone;
    auto [it, added] = index.try_emplace(id, static_cast<std::int32_t>(ids.size()));
    if (added) ids.push_back(id);
    return it->second;
}

/// A rack class's key (CompiledDesign::RackClass), ordered field by field.
struct ClassKey {
    std::int32_t row, type, loop, feedA, feedB;
    std::uint8_t spare;
    bool operator==(const ClassKey&) const = default;
    auto operator<=>(const ClassKey&) const = default;
};

ClassKey keyOf(const CompiledDesign::RackClass& c) {
    return {c.row, c.type, c.loop, c.feedA, c.feedB, c.spare};
}

} // namespace

void CompiledDesign::buildClasses(const model::Project& p) {
    const size_t n = rackType.size();
    // Classes in order of first appearance, then sorted by key so the list does not depend on rack order
    // (a patched design and a full compile of its project list the same classes).
    std::vector<RackClass> found;
    // The classes of each row (slot 0: racks on no row) chained through nextInRow: a row holds a few.
    std::vector<std::int32_t> rowFirst(rowHall.size() + 1, kNone), nextInRow;
    rackClass.resize(n);
    ClassKey last{};
    std::int32_t lastClass = kNone;
    for (size_t i = 0; i < n; ++i) {
        const ClassKey k{rackRow[i], rackType[i], rackLoop[i], rackFeedA[i], rackFeedB[i], rackSpare[i]};
        if (lastClass == kNone || !(k == last)) { // racks mostly repeat their neighbour's class
            auto& first = rowFirst[static_cast<size_t>(k.row + 1)];
            std::int32_t c = first;
            while (c != kNone && !(keyOf(found[static_cast<size_t>(c)]) == k))
                c = nextInRow[static_cast<size_t>(c)];
            if (c == kNone) {
                c = static_cast<std::int32_t>(found.size());
                nextInRow.push_back(first);
                first = c;
                const std::int32_t hall = k.row == kNone ? kNone : rowHall[static_cast<size_t>(k.row)];
                const std::int32_t building = hall == kNone ? kNone : hallBuilding[static_cast<size_t>(hall)];
                const std::int32_t site =
                    building == kNone ? kNone : buildingSite[static_cast<size_t>(building)];
                // Empty bounds as bill_of_materials' Extent starts them, so merged bounds come out the same.
                found.push_back(RackClass{k.row, k.type, k.loop, k.feedA, k.feedB, k.spare, hall, building,
                                          site, 0.0, 1e300, -1e300, 1e300, -1e300});
            }
            last = k, lastClass = c;
        }
        rackClass[i] = lastClass;
        auto& c = found[static_cast<size_t>(lastClass)];
        c.count += 1;
        const double x = p.racks[i].x.value(), y = p.racks[i].y.value();
        c.minX = std::min(c.minX, x), c.maxX = std::max(c.maxX, x), c.minY = std::min(c.minY, y),
        c.maxY = std::max(c.maxY, y);
    }
    // Keys are distinct: any sort gives the one order.
    std::vector<std::pair<ClassKey, std::int32_t>> order(found.size());
    for (size_t c = 0; c < found.size(); ++c)
        order[c] = {keyOf(found[c]), static_cast<std::int32_t>(c)};
    std::sort(order.begin(), order.end());
    std::vector<std::int32_t> renumber(found.size());
    classes.clear();
    classes.reserve(found.size());
    for (const auto& [key, c] : order) {
        renumber[static_cast<size_t>(c)] = static_cast<std::int32_t>(classes.size());
        classes.push_back(found[static_cast<size_t>(c)]);
    }
    // Racks by class (counting sort, ascending rack index within a class).
    classRackStart.assign(classes.size() + 1, 0);
    for (auto& c : rackClass) {
        c = renumber[static_cast<size_t>(c)];
        ++classRackStart[static_cast<size_t>(c) + 1];
    }
    for (size_t c = 0; c < classes.size(); ++c)
        classRackStart[c + 1] += classRackStart[c];
    classRacks.resize(n);
    std::vector<std::int32_t> next(classRackStart.begin(), classRackStart.end() - 1);
    for (size_t i = 0; i < n; ++i)
        classRacks[static_cast<size_t>(next[static_cast<size_t>(rackClass[i])]++)] =
            static_cast<std::uint32_t>(i);
}

double CompiledDesign::classPeakW(const RackClass& k) const {
    const auto& type = types[static_cast<size_t>(k.type)];
    return k.count * (k.spare ? type.need(type.powerIdleW, "power_idle_w")
                              : type.need(type.powerLoadW, "power_load_w"));
}

void CompiledDesign::updateClassExtent(const model::Project& p, size_t c) {
    auto& k = classes[c];
    k.minX = 1e300, k.maxX = -1e300, k.minY = 1e300, k.maxY = -1e300;
    for (auto j = classRackStart[c]; j < classRackStart[c + 1]; ++j) {
        const auto& r = p.racks[classRacks[static_cast<size_t>(j)]];
        const double x = r.x.value(), y = r.y.value();
        k.minX = std::min(k.minX, x), k.maxX = std::max(k.maxX, x), k.minY = std::min(k.minY, y),
        k.maxY = std::max(k.maxY, y);
    }
}

double CompiledDesign::RackType::need(double cached, const char* key) const {
    return std::isnan(cached) && item ? item->value(key) : cached;
}

CompiledDesign::CompiledDesign(const model::Project& p, const model::Catalog& catalog) {
    const auto rowIndex = indexById(p.rows), hallIndex = indexById(p.halls),
               buildingIdx = indexById(p.buildings), siteIdx = indexById(p.sites);
    auto loopIndex = indexById(p.coolingLoops), feedIndex = indexById(p.powerFeeds);
    for (const auto& l : p.coolingLoops)
        loopIds.push_back(l.id);
    for (const auto& f : p.powerFeeds)
        feedIds.push_back(f.id);

    rowHall.reserve(p.rows.size());
    for (const auto& r : p.rows)
        rowHall.push_back(lookup(hallIndex, r.hall));
    for (const auto& h : p.halls)
        hallBuilding.push_back(lookup(buildingIdx, h.building));
    for (const auto& b : p.buildings)
        buildingSite.push_back(lookup(siteIdx, b.site));
    for (const auto& l : p.coolingLoops)
        loopHall.push_back(lookup(hallIndex, l.hall));

    // Rack types in id order; catalog.at throws the loader's error for a type the catalog lacks. Racks
    // mostly repeat their neighbour's type, row, loop and feeds: compare with it before hashing.
    std::vector<std::string> typeIds;
    {
        std::unordered_map<std::string, bool> seen;
        const std::string* last = nullptr;
        for (const auto& r : p.racks) {
            if (last && *last == r.rackType) continue;
            last = &r.rackType;
            if (seen.emplace(r.rackType, true).second) typeIds.push_back(r.rackType);
        }
    }
    std::sort(typeIds.begin(), typeIds.end());
    std::unordered_map<std::string, std::int32_t> typeIndex;
    for (const auto& id : typeIds) {
        RackType t;
        t.item = &catalog.at(id);
        t.id = id;
        t.compute = t.item->kind == "compute";
        const auto& it = *t.item;
        t.gpus = valueOrNaN(it, "gpus"), t.cpus = valueOrNaN(it, "cpus"),
        t.servers = valueOrNaN(it, "servers");
        t.psus = valueOrNaN(it, "psus");
        t.backendNics = valueOrNaN(it, "backend_nics"),
        t.backendNicBps = valueOrNaN(it, "backend_nic_bit_per_s");
        t.frontendNics = valueOrNaN(it, "frontend_nics"),
        t.frontendNicBps = valueOrNaN(it, "frontend_nic_bit_per_s");
        t.powerLoadW = valueOrNaN(it, "power_load_w"), t.powerIdleW = valueOrNaN(it, "power_idle_w");
        t.liquidFraction = valueOrNaN(it, "liquid_fraction");
        t.scaleUpDomainGpus = valueOrNaN(it, "scale_up_domain_gpus");
        t.priceUsd = valueOrNaN(it, "price_usd");
        // A network rack holds switches, not servers: none of the compute figures apply.
        if (it.kind == "network")
            t.gpus = t.cpus = t.servers = t.psus = t.backendNics = t.backendNicBps = t.frontendNics =
                t.frontendNicBps = t.scaleUpDomainGpus = 0.0;
        typeIndex[id] = static_cast<std::int32_t>(types.size());
        types.push_back(std::move(t));
    }

    const size_t n = p.racks.size();
    rackType.resize(n), rackRow.resize(n), rackHall.resize(n), rackBuilding.resize(n), rackSite.resize(n);
    rackLoop.resize(n), rackFeedA.resize(n), rackFeedB.resize(n), rackSpare.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const auto& r = p.racks[i];
        const model::RackPlacement* prev = i > 0 ? &p.racks[i - 1] : nullptr;
        rackType[i] = prev && prev->rackType == r.rackType ? rackType[i - 1] : typeIndex.at(r.rackType);
        if (prev && prev->row == r.row) {
            rackRow[i] = rackRow[i - 1], rackHall[i] = rackHall[i - 1], rackBuilding[i] = rackBuilding[i - 1];
            rackSite[i] = rackSite[i - 1];
        } else {
            const std::int32_t row = lookup(rowIndex, r.row);
            const std::int32_t hall = row == kNone ? kNone : rowHall[static_cast<size_t>(row)];
            const std::int32_t building = hall == kNone ? kNone : hallBuilding[static_cast<size_t>(hall)];
            rackRow[i] = row, rackHall[i] = hall, rackBuilding[i] = building;
            rackSite[i] = building == kNone ? kNone : buildingSite[static_cast<size_t>(building)];
        }
        rackLoop[i] = prev && prev->coolingLoop == r.coolingLoop ? rackLoop[i - 1]
                                                                 : intern(loopIndex, loopIds, r.coolingLoop);
        rackFeedA[i] =
            prev && prev->feedA == r.feedA ? rackFeedA[i - 1] : intern(feedIndex, feedIds, r.feedA);
        rackFeedB[i] =
            prev && prev->feedB == r.feedB ? rackFeedB[i - 1] : intern(feedIndex, feedIds, r.feedB);
        rackSpare[i] = r.spare ? 1 : 0;
    }
    buildClasses(p);
    geometry = geometryFindings(p, catalog);
    geometryRules = geometry.rules();

    rowsById =
        orderBy(p.rows.size(), [&](std::int32_t i) -> const std::string& { return p.rows[size_t(i)].id; });
    buildingsById = orderBy(p.buildings.size(),
                            [&](std::int32_t i) -> const std::string& { return p.buildings[size_t(i)].id; });
    loopsById =
        orderBy(loopIds.size(), [&](std::int32_t i) -> const std::string& { return loopIds[size_t(i)]; });
    feedsById =
        orderBy(feedIds.size(), [&](std::int32_t i) -> const std::string& { return feedIds[size_t(i)]; });

    for (const auto& f : p.fabrics) {
        std::vector<std::uint8_t> scope;
        if (!f.buildings.empty()) {
            scope.assign(p.buildings.size(), 0);
            for (const auto& b : f.buildings)
                // Every building of that id is in scope (the former set of ids matched them all).
                for (size_t i = 0; i < p.buildings.size(); ++i)
                    if (p.buildings[i].id == b) scope[i] = 1;
        }
        fabricScope.push_back(std::move(scope));
    }

    for (const auto& [id, i] : buildingIdx)
        m_buildingIndex.emplace_back(id, i);
    for (const auto& [id, i] : siteIdx)
        m_siteIndex.emplace_back(id, i);
    std::sort(m_buildingIndex.begin(), m_buildingIndex.end());
    std::sort(m_siteIndex.begin(), m_siteIndex.end());
    // Last: it reads the arrays above and buildingIndex().
    buildingPathEfficiency = pathEfficiencies(p, catalog, *this);
}

namespace {
std::int32_t find(const std::vector<std::pair<std::string, std::int32_t>>& sorted, const std::string& id) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), id,
                               [](const auto& e, const std::string& key) { return e.first < key; });
    return it != sorted.end() && it->first == id ? it->second : CompiledDesign::kNone;
}
} // namespace

std::int32_t CompiledDesign::buildingIndex(const std::string& id) const {
    return find(m_buildingIndex, id);
}
std::int32_t CompiledDesign::siteIndex(const std::string& id) const {
    return find(m_siteIndex, id);
}

std::shared_ptr<const CompiledDesign> compileDesign(const model::Project& p, const model::Catalog& catalog) {
    return std::make_shared<const CompiledDesign>(p, catalog);
}

bool overrideAffectsCompiledDesign(const std::string& path) {
    if (path.rfind("assumptions.", 0) == 0) return false;
    const std::string collection = path.substr(0, path.find('.'));
    return collection == "racks" || collection == "rows" || collection == "halls" ||
           collection == "buildings" || collection == "cooling_loops";
}

} // namespace ctwin::cost
