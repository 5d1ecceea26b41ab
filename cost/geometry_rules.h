#pragma once
#include "catalog.h"
#include "design_rule.h"
#include "project.h"

#include <cstdint>
#include <vector>

namespace ctwin::cost {

/// Geometry design rules (issue 11, item 5): a rack outside its hall, a hall outside its building, buildings
/// overlapping on one site, racks overlapping, a CDU outside its hall. Each rule names the entity and says
/// by how much, so that a value the inspector accepts never silently puts an object outside its parent.
///
/// Footprints follow the floor-plan editor (app/gui/document_editor.cpp): a rack occupies its catalog
/// width x depth from its position (x_m, y_m) in the hall, width and depth swapped when it is turned a
/// quarter (90 or 270 degrees); any other angle uses the bounding box of the rectangle turned about its
/// centre. A CDU occupies its catalog width x depth from its position. Objects may touch (1 mm tolerance).
///
/// Linear in racks: overlaps are found with a uniform grid per hall (cells of the largest rack side), so a
/// rack is only compared with racks in the cells it covers.
void appendGeometryRules(const model::Project& project, const model::Catalog& catalog,
                         std::vector<DesignRule>& rules);

/// The findings of appendGeometryRules kept per part, uncapped, so an edit of a few racks recomputes only
/// the halls they leave and enter (issue 15 item 2, cost/incremental_evaluator.h). `rules()` lists them
/// exactly as appendGeometryRules does: it is how appendGeometryRules builds its list.
struct GeometryFindings {
    std::vector<DesignRule> layout;                                // buildings_overlap, hall_outside_building
    std::vector<std::pair<std::uint32_t, DesignRule>> rackOutside; // rack_outside_hall, by rack index
    std::vector<std::int32_t> rackHall; // per rack: the hall it is placed in, -1 when not placed
    std::vector<std::vector<std::uint32_t>> hallRacks; // per hall: its placed racks, ascending
    std::vector<std::vector<DesignRule>> hallOverlaps; // per hall: racks_overlap
    std::vector<DesignRule> cduOutside;                // cdu_outside_hall
    /// The capped, ordered list (the first findings of each rule, then one summary line per rule).
    std::vector<DesignRule> rules() const;
};

GeometryFindings geometryFindings(const model::Project& project, const model::Catalog& catalog);

/// Updates `g` after racks `racks` of `project` changed in place (position, rotation, type, row, name, id;
/// the rack count, halls, rows and buildings unchanged): their outside-hall findings and the overlaps of
/// every hall they were or are placed in. `rowHall` gives each rack's hall as the layout resolves it now
/// (CompiledDesign::rackHall, -1 when none).
void updateGeometryFindings(GeometryFindings& g, const model::Project& project, const model::Catalog& catalog,
                            const std::vector<std::uint32_t>& racks,
                            const std::vector<std::int32_t>& rackHall);

/// The geometry rules alone (tests).
std::vector<DesignRule> geometryRules(const model::Project& project, const model::Catalog& catalog);

} // namespace ctwin::cost
