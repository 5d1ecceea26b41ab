#pragma once
#include "scene_source.h"

#include <cstddef>
#include <string>

namespace ctwin::views {

/// What a USDA export wrote (prims by kind), for messages and tests.
struct UsdaExportCounts {
    std::size_t sites = 0, buildings = 0, halls = 0, rows = 0, racks = 0, cdus = 0;
    std::size_t rackAssets = 0, cduAssets = 0;
    /// Racks whose row, hall or building is missing: not exported (the scene's notice says so too).
    std::size_t unplacedRacks = 0;
    std::size_t bytes = 0;
};

/// The campus as OpenUSD ASCII (.usda, "#usda 1.0"), written as text: OpenUSD is not packaged for Debian
/// 12. Placement comes from CampusSceneBuilder, the source of the 3D view and the glTF export, so the three
/// agree. Stage metadata `metersPerUnit = 1`, `upAxis = "Z"`, `defaultPrim = "Campus"`.
///
/// Hierarchy: /Campus (assembly) > site > building > hall > row > rack, and hall > CDU; every prim an Xform
/// with its own translate relative to its parent (metres), buildings and halls with a box child of their
/// real size (Shell, Floor). Racks and CDUs are instanceable prims that reference one asset prim per
/// catalog type under /Campus/Assets (an abstract `class` scope, so the prototypes are not drawn
/// themselves). Asset prims carry the SimReady AIF-Entity attributes the profile defines
/// (aif:core:assetClass, aif:core:width/depth/height in mm, aif:core:weight in kg,
/// aif:spec:nominalCoolingCapacity and aif:spec:powerRating in kW for CDUs; SimReady Foundation AIF 0.1.0,
/// https://nvidia.github.io/simready-foundation/aif-0.1.0/profiles/aif-entity.html); everything else is
/// under `clustertwin:` (SI units, the unit in the name). The engine's figures (`source.results`) go on
/// /Campus as `clustertwin:figure:<key with ':' for '.'>`, per building (IT and facility power, PUE) and per
/// CDU (its loop's heat, capacity and thermal margin). Prim names are UsdPrimNames (the design id is kept
/// in `clustertwin:id`). An empty design is a valid stage with an empty /Campus.
std::string campusUsda(const SceneSource& source, UsdaExportCounts* counts = nullptr);

/// Writes campusUsda() to `path` atomically (model::SaveTemp: a temporary beside it, renamed over it), so a
/// failed export leaves no partial file and the previous one intact. Throws model::InputError naming `path`
/// when it cannot be written.
UsdaExportCounts writeCampusUsda(const SceneSource& source, const std::string& path);

} // namespace ctwin::views
