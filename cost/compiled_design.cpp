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

} // namespace

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
    feedIsB.assign(feedIds.size(), 0);
    for (const std::int32_t b : rackFeedB)
        if (b != kNone) feedIsB[static_cast<size_t>(b)] = 1;
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
