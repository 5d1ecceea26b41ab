#pragma once
// Where new CDUs go on a hall's floor: shared by the cooling-loop form (a new loop's CDUs) and the
// editor (a loop whose cdu_count is edited gains or loses CDUs so the plan draws exactly cdu_count).
#include "catalog.h"
#include "project.h"

#include <QPointF>
#include <string>
#include <vector>

namespace ctwin::app {

/// The base value of a catalog item's field, or `fallback` when the item or the field is missing (sizes of
/// CDUs and racks on the plan).
double catalogValue(const model::Catalog& c, const std::string& id, const char* field, double fallback);

/// Free spots for `count` CDUs of `type` in a hall: columns from the left wall inwards, each filled top to
/// bottom, 0.6 m apart, skipping racks and the CDUs already there. Fewer than `count` when the hall is full.
std::vector<QPointF> freeCduSpots(const model::Project& p, const model::Catalog& catalog,
                                  const std::string& hall, const std::string& type, int count);

/// The CDU positions of `loop` with `count` CDUs: the first min(count, installed) keep their place (so a
/// user's arrangement survives), the rest go to free spots. Throws std::runtime_error when they do not fit.
std::vector<model::Point2> resizedCduLayout(const model::Project& p, const model::Catalog& catalog,
                                            const model::CoolingLoop& loop, int count);

} // namespace ctwin::app
