#pragma once
#include "catalog.h"
#include "design_rule.h"
#include "project.h"

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

/// The geometry rules alone (tests).
std::vector<DesignRule> geometryRules(const model::Project& project, const model::Catalog& catalog);

} // namespace ctwin::cost
