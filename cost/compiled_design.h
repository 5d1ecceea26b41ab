#pragma once
// The compiled design: once per design change, every id is interned to a dense index and
// each rack's catalog entry, row, hall, building, site, cooling loop and feeds are resolved into flat
// arrays, so the engine's per-rack passes (bill of materials, power, reliability footprint) run over
// integers and doubles with no string compares, map look-ups or allocation per rack.
//
// Holds indices into the project's collections and pointers into the catalog, and of the numeric fields
// only the layout's geometry (rack positions: the geometry findings and the rack classes' extents): it
// stays valid for any copy of the project that differs in other numeric fields (InputResolver applies
// overrides to a copy; overrideAffectsCompiledDesign names the fields that invalidate it), and the engine
// reads every other numeric entity field from the project it evaluates. A reference to an id that does
// not exist resolves to kNone for rows, halls and buildings (as the string look-ups it replaces did) and,
// for cooling loops and feeds, to an extra interned id past the real ones so figures keyed by that id keep
// their meaning.

#include "catalog.h"
#include "design_rule.h"
#include "geometry_rules.h"
#include "project.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ctwin::cost {

class CompiledDesign {
public:
    static constexpr std::int32_t kNone = -1;

    /// A rack type's catalog figures read once (NaN when the catalog item lacks the value).
    struct RackType {
        const model::CatalogItem* item = nullptr;
        std::string id;
        bool compute = false;
        double gpus, cpus, servers, psus, backendNics, backendNicBps, frontendNics, frontendNicBps,
            powerLoadW, powerIdleW, liquidFraction, scaleUpDomainGpus, priceUsd;
        /// The figure `key` cached in `cached`, or (absent) the catalog's own value(), which throws the same
        /// InputError the engine raised before it was compiled.
        double need(double cached, const char* key) const;
    };

    /// Racks alike in everything the engine's aggregate passes read: row (so hall,
    /// building and site), rack type, cooling loop, feeds and spare flag. The bill of materials, power per
    /// building, the power path efficiency, the reliability footprint and the rack-type choice of training
    /// and inference sum over classes (count x per-rack figure) instead of walking every rack: a few
    /// hundred classes for 14K racks. Moving or turning a rack leaves its class as it was; only the
    /// class's position extent changes.
    struct RackClass {
        std::int32_t row, type, loop, feedA, feedB; // the key, with spare
        std::uint8_t spare;
        std::int32_t hall, building, site; // of the row (kNone when unresolved)
        double count;                      // racks in the class, >= 1
        /// Bounds of the racks' positions (x_m, y_m): the row extents fabric reach is sized from.
        double minX, maxX, minY, maxY;
    };

    explicit CompiledDesign(const model::Project& p, const model::Catalog& catalog);

    // ---- Per rack (index = position in project.racks) ----
    std::vector<std::int32_t> rackType;             // into types
    std::vector<std::int32_t> rackRow;              // into project.rows, kNone when unresolved
    std::vector<std::int32_t> rackHall;             // into project.halls
    std::vector<std::int32_t> rackBuilding;         // into project.buildings
    std::vector<std::int32_t> rackSite;             // into project.sites
    std::vector<std::int32_t> rackLoop;             // into loopIds, kNone when the rack names no loop
    std::vector<std::int32_t> rackFeedA, rackFeedB; // into feedIds, kNone when empty
    std::vector<std::uint8_t> rackSpare;
    std::vector<std::int32_t> rackClass; // into classes

    // ---- Rack classes, ordered by key (row, type, loop, feedA, feedB, spare) ----
    /// Every class has racks: a patched design lists the same classes as a full compile of its project,
    /// so sums over classes are the same arithmetic in the same order either way.
    std::vector<RackClass> classes;
    /// The racks of class c, ascending: classRacks[classRackStart[c] .. classRackStart[c + 1]).
    std::vector<std::int32_t> classRackStart;
    std::vector<std::uint32_t> classRacks;

    // ---- Rack types: every distinct rack_type, in id order (the bill of materials' line order) ----
    std::vector<RackType> types;

    // ---- Other collections ----
    std::vector<std::int32_t> rowHall;      // per project.rows
    std::vector<std::int32_t> hallBuilding; // per project.halls
    std::vector<std::int32_t> buildingSite; // per project.buildings
    std::vector<std::int32_t> loopHall;     // per project.coolingLoops
    /// Cooling loop ids: project.coolingLoops first, then ids racks name that no loop has.
    std::vector<std::string> loopIds;
    /// Feed ids: project.powerFeeds first, then ids racks name that no feed has.
    std::vector<std::string> feedIds;
    /// Orders (permutations) by id, for results that were summed in id order.
    std::vector<std::int32_t> rowsById, buildingsById, loopsById, feedsById;

    /// The layout findings of cost/geometry_rules.h (outside parents, overlaps): they depend on the
    /// design's geometry and catalog footprints only, so they are derived with it.
    std::vector<DesignRule> geometryRules;
    /// The same findings per part (geometryFindings), kept so an edit of a few racks updates them.
    GeometryFindings geometry;

    /// pathEfficiency of each building (cost/power_chain.h): feed chains and rack power are catalog and
    /// reference data, so it is derived with the design.
    std::vector<double> buildingPathEfficiency;

    /// Per fabric (project.fabrics): 1 for each building in its scope; empty = every building.
    std::vector<std::vector<std::uint8_t>> fabricScope;

    /// The building index of an id, kNone when absent.
    std::int32_t buildingIndex(const std::string& id) const;
    /// Peak power of rack class k, W: its racks at full load (power_load_w), hot spares idle (power_idle_w).
    double classPeakW(const RackClass& k) const;
    std::int32_t siteIndex(const std::string& id) const;

    /// Groups the racks into classes (classes, rackClass, classRackStart, classRacks) from the per-rack
    /// arrays and `p`'s rack positions.
    void buildClasses(const model::Project& p);
    /// Recomputes the position extent of class `c` from its racks' positions in `p`.
    void updateClassExtent(const model::Project& p, size_t c);

private:
    std::vector<std::pair<std::string, std::int32_t>> m_buildingIndex, m_siteIndex; // sorted by id
};

/// Compiles `p` (shared so a bill of materials and the scenario tools can carry it across evaluations).
std::shared_ptr<const CompiledDesign> compileDesign(const model::Project& p, const model::Catalog& catalog);

/// `before` with racks `racks` of `p` re-resolved after an edit in place: position,
/// rotation, name, id, type, row, cooling loop, feeds, spare flag; every other collection as compiled.
/// The per-rack arrays and the geometry findings of the halls involved are updated; a rack that keeps its
/// class updates that class's position bounds only, one that changes class (type, row, loop, feed, spare
/// flag) groups the classes again and with them the B-feed marks and building path efficiencies, so the
/// result equals a full compile of `p`. Returns null when the edit needs a full
/// compile: a rack type, cooling loop or feed id the compiled design has not interned, a rack type no rack
/// uses any more, or a rack count that differs.
std::shared_ptr<const CompiledDesign> recompileRacks(const CompiledDesign& before, const model::Project& p,
                                                     const model::Catalog& catalog,
                                                     const std::vector<std::uint32_t>& racks);

/// recompileRacks applied to `cd` itself, for a compiled design nothing else holds (no copy of the
/// arrays). False when the edit needs a full compile; `cd` is then partly patched and must be dropped.
bool patchRacks(CompiledDesign& cd, const model::Project& p, const model::Catalog& catalog,
                const std::vector<std::uint32_t>& racks);

/// True when an override of `path` (InputResolver grammar) may change the compiled design, so one compiled
/// before cannot be reused: entity fields of the layout the geometry findings read (racks, rows, halls,
/// buildings, cooling loops). Assumptions and every other entity field never change it: overrides set
/// numbers, and the compiled design holds references, catalog figures and geometry findings only.
bool overrideAffectsCompiledDesign(const std::string& path);

} // namespace ctwin::cost
