#pragma once
#include "project.h"

namespace ctwin::views {

/// Copies the buildings of a design (with their halls, feeds, loops, rows and racks; ids suffixed
/// "-c<n>") side by side on a grid until there are `copies` of them: e.g. ten copies of the 1,418-rack
/// neocloud reference give a 14,180-rack, 1M-GPU campus for stress tests and benchmarks. Sites,
/// fabrics and workloads stay as they are.
model::Project replicateCampus(const model::Project& base, int copies);

} // namespace ctwin::views
