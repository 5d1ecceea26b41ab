// patchRacks and recompileRacks (cost/compiled_design.h): the compiled design patched for racks edited in
// place. Its own file so the full compile's translation unit keeps its inlining (the
// constructor's per-rack loop is the hot path of every full evaluation).
#include "compiled_design.h"
#include "geometry_rules.h"
#include "power_chain.h"

#include <algorithm>

namespace ctwin::cost {

bool patchRacks(CompiledDesign& design, const model::Project& p, const model::Catalog& catalog,
                const std::vector<std::uint32_t>& racks) {
    constexpr std::int32_t kNone = CompiledDesign::kNone;
    const size_t n = p.racks.size();
    if (design.rackType.size() != n) return false;
    // An id as the compiled design interned it: last entity of that id wins (indexById), kNone when empty.
    const auto find = [](const std::vector<std::string>& ids, const std::string& id, std::int32_t& out) {
        out = CompiledDesign::kNone;
        if (id.empty()) return true;
        for (size_t k = ids.size(); k-- > 0;)
            if (ids[k] == id) return out = static_cast<std::int32_t>(k), true;
        return false; // not interned: a full compile appends it
    };
    CompiledDesign* const cd = &design;
    bool classMoved = false;
    std::vector<std::int32_t> moved; // classes whose racks moved (their position extents)
    for (const std::uint32_t i : racks) {
        if (i >= n) return false;
        const auto& r = p.racks[i];
        std::int32_t type = CompiledDesign::kNone;
        for (size_t t = 0; t < cd->types.size(); ++t)
            if (cd->types[t].id == r.rackType) type = static_cast<std::int32_t>(t);
        if (type == CompiledDesign::kNone) return false;
        std::int32_t row = CompiledDesign::kNone;
        for (size_t k = p.rows.size(); k-- > 0;)
            if (p.rows[k].id == r.row) {
                row = static_cast<std::int32_t>(k);
                break;
            }
        std::int32_t loop, feedA, feedB;
        if (!find(cd->loopIds, r.coolingLoop, loop) || !find(cd->feedIds, r.feedA, feedA) ||
            !find(cd->feedIds, r.feedB, feedB))
            return false;
        // An id no loop or feed has is interned in the order racks first name it: moving a rack onto or off
        // one would change that order, which a full compile sets.
        const auto unknown = [](std::int32_t was, std::int32_t now, size_t real) {
            return was != now && ((was != kNone && static_cast<size_t>(was) >= real) ||
                                  (now != kNone && static_cast<size_t>(now) >= real));
        };
        if (unknown(cd->rackLoop[i], loop, p.coolingLoops.size()) ||
            unknown(cd->rackFeedA[i], feedA, p.powerFeeds.size()) ||
            unknown(cd->rackFeedB[i], feedB, p.powerFeeds.size()))
            return false;
        const std::int32_t hall = row == kNone ? kNone : cd->rowHall[static_cast<size_t>(row)];
        const std::int32_t building = hall == kNone ? kNone : cd->hallBuilding[static_cast<size_t>(hall)];
        const std::int32_t site = building == kNone ? kNone : cd->buildingSite[static_cast<size_t>(building)];
        const std::uint8_t spare = r.spare ? 1 : 0;
        cd->rackType[i] = type, cd->rackRow[i] = row, cd->rackHall[i] = hall, cd->rackBuilding[i] = building;
        cd->rackSite[i] = site, cd->rackLoop[i] = loop, cd->rackFeedA[i] = feedA, cd->rackFeedB[i] = feedB;
        cd->rackSpare[i] = spare;
        const auto& c = cd->classes[static_cast<size_t>(cd->rackClass[i])];
        if (c.row != row || c.type != type || c.loop != loop || c.feedA != feedA || c.feedB != feedB ||
            c.spare != spare)
            classMoved = true;
        else
            moved.push_back(cd->rackClass[i]);
    }
    if (classMoved) {
        // A rack changed class: group again (integers only, no id look-ups), then every rack type must still
        // have a rack (a full compile lists only the types racks use).
        cd->buildClasses(p);
        std::vector<std::uint8_t> used(cd->types.size(), 0);
        for (const auto& c : cd->classes)
            used[static_cast<size_t>(c.type)] = 1;
        if (std::find(used.begin(), used.end(), 0) != used.end()) return false;
        // Type, building and feeds are part of the class: the power path efficiencies (summed over classes,
        // so regrouped racks change their rounding too) follow any class change.
        cd->buildingPathEfficiency = pathEfficiencies(p, catalog, *cd);
    } else {
        // Moved or turned within their classes: only those classes' extents change.
        std::sort(moved.begin(), moved.end());
        moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
        for (const std::int32_t c : moved)
            cd->updateClassExtent(p, static_cast<size_t>(c));
    }
    updateGeometryFindings(cd->geometry, p, catalog, racks, cd->rackHall);
    cd->geometryRules = cd->geometry.rules();
    return true;
}

std::shared_ptr<const CompiledDesign> recompileRacks(const CompiledDesign& before, const model::Project& p,
                                                     const model::Catalog& catalog,
                                                     const std::vector<std::uint32_t>& racks) {
    auto cd = std::make_shared<CompiledDesign>(before);
    if (!patchRacks(*cd, p, catalog, racks)) return nullptr;
    return cd;
}

} // namespace ctwin::cost
