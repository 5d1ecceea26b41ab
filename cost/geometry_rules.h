#pragma once
#include "catalog.h"
#include "design_rule.h"
#include "project.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ctwin::cost {

/// Findings of one geometry rule listed one by one under one parent (the racks of a hall, the CDUs of a
/// hall, the halls of a building, the buildings of a site); the rest of that parent's findings of the rule
/// are counted, never built, and reported in one "… and N more" line (issue 27: 4,000 racks stacked on
/// one spot built 8 million overlap messages, 34 s and 1.9 GB per evaluation, on every edit). README, limits.
inline constexpr std::size_t kGeometryFindingsPerParent = 20;
/// Lines of one geometry rule over the whole design (findings and the parents' "… and N more" lines) before
/// one last line counts the rest, so a design that is wrong in every hall still gives a readable panel.
inline constexpr std::size_t kGeometryLinesPerRule = 50;
/// Objects on one identical footprint from this many on are a stack: one finding naming the count and the
/// first few, not a finding per pair. Two read as a pair like any other overlap.
inline constexpr std::size_t kGeometryMinStack = 3;

/// Geometry design rules: a rack outside its hall, a hall outside its building, buildings
/// overlapping on one site, racks overlapping, a CDU outside its hall. Each rule names the entity and says
/// by how much, so that a value the inspector accepts never silently puts an object outside its parent.
///
/// Footprints follow the floor-plan editor (app/gui/document_editor.cpp): a rack occupies its catalog
/// width x depth from its position (x_m, y_m) in the hall, width and depth swapped when it is turned a
/// quarter (90 or 270 degrees); any other angle uses the bounding box of the rectangle turned about its
/// centre. A CDU occupies its catalog width x depth from its position. Objects may touch (1 mm tolerance).
///
/// Overlaps (racks of a hall, buildings of a site) are found with a uniform grid (cells of the largest
/// side), so an object is only compared with objects in the cells it covers; identical footprints are
/// grouped into stacks first, and once a parent's first findings are listed the remaining overlapping
/// pairs are counted by a sweep in O(n log n) instead of being enumerated. No input makes the
/// check quadratic in the number of objects stacked or overlapping on one spot.
void appendGeometryRules(const model::Project& project, const model::Catalog& catalog,
                         std::vector<DesignRule>& rules);

/// One rule's findings, capped per parent: the first kGeometryFindingsPerParent of each parent,
/// built, and for each parent with more, its "… and N more" line with N.
struct CappedFindings {
    std::vector<DesignRule> listed;
    std::vector<std::pair<DesignRule, std::size_t>> more;
};

/// The findings of appendGeometryRules kept per part, so an edit of a few racks recomputes only the halls
/// they leave and enter (cost/incremental_evaluator.h). `rules()` lists them exactly as
/// appendGeometryRules does: it is how appendGeometryRules builds its list.
struct GeometryFindings {
    CappedFindings buildingsOverlap;    // buildings_overlap, per site
    CappedFindings hallsOutside;        // hall_outside_building, per building
    std::vector<std::int32_t> rackHall; // per rack: the hall it is placed in, -1 when not placed
    std::vector<std::vector<std::uint32_t>> hallRacks; // per hall: its placed racks, ascending
    std::vector<CappedFindings> racksOutside;          // per hall: rack_outside_hall
    std::vector<CappedFindings> racksOverlap;          // per hall: racks_overlap
    CappedFindings cdusOutside;                        // cdu_outside_hall, per hall
    /// The ordered list: per rule, the parents' findings and "… and N more" lines up to
    /// kGeometryLinesPerRule, then one line counting the rest.
    std::vector<DesignRule> rules() const;
};

GeometryFindings geometryFindings(const model::Project& project, const model::Catalog& catalog);

/// Updates `g` after racks `racks` of `project` changed in place (position, rotation, type, row, name, id;
/// the rack count, halls, rows and buildings unchanged): the outside-hall findings and the overlaps of
/// every hall they were or are placed in. `rowHall` gives each rack's hall as the layout resolves it now
/// (CompiledDesign::rackHall, -1 when none).
void updateGeometryFindings(GeometryFindings& g, const model::Project& project, const model::Catalog& catalog,
                            const std::vector<std::uint32_t>& racks,
                            const std::vector<std::int32_t>& rackHall);

/// The geometry rules alone (tests).
std::vector<DesignRule> geometryRules(const model::Project& project, const model::Catalog& catalog);

} // namespace ctwin::cost
