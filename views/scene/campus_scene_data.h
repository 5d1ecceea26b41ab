#pragma once
#include "color_metric.h"
#include "color_ramp.h"
#include "rgb.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace ctwin::views {

/// World coordinates of the 3D scenes, metres: x = plan x (east), y = -plan y (plan y grows "down" the
/// floor plan, so the top view matches the 2D editor), z up. Each site's campus is shifted along x so that
/// several sites sit side by side.
using Vec3 = std::array<double, 3>;

/// One placed rack, as the campus scene draws and picks it.
struct RackInstance {
    std::string id;
    std::string name;
    std::string rackType;
    std::string rowId;
    std::string coolingLoop;
    /// Centre of the rack's footprint at floor level.
    Vec3 base{};
    /// Rotation about +z in world degrees (the plan's clockwise rotation, negated by the y flip).
    double rotationDeg = 0.0;
    /// Footprint and height of the rack type (m).
    double width = 0.6, depth = 1.2, height = 2.2;
    /// The colouring metric's value (kW, %) or category index; NaN = no data.
    double value = std::numeric_limits<double>::quiet_NaN();
    Rgb color = ColorRamp::kNoData;
    /// Which glyph set (one per rack type) and where in it; only meaningful when placed.
    std::size_t group = 0;
    std::size_t indexInGroup = 0;
    /// Index of its hall in the design's halls (the scene draws each hall's racks as one mesh); only
    /// meaningful when placed.
    std::size_t hall = 0;
    /// False when its row, hall or building cannot be found: counted in a notice, not drawn.
    bool placed = true;
    /// A hot spare (powered at idle).
    bool spare = false;
};

/// All placed racks of one rack type: drawn by one instanced glyph mapper.
struct RackGroup {
    std::string rackType;
    double width = 0.6, depth = 1.2, height = 2.2;
    /// Indices into CampusSceneData::racks, in glyph order.
    std::vector<std::size_t> racks;
};

/// An axis-aligned box in world coordinates: site grounds, building shells, hall floors.
struct BoxShape {
    std::string id;
    std::string name;
    Vec3 min{};
    Vec3 size{};
};

struct CduInstance {
    std::string loopId;
    Vec3 base{};
    double width = 0.8, depth = 1.2, height = 2.0;
};

/// A cooling pipe run: from a CDU of the loop to the first rack it serves in a row, then along the row.
struct TubePath {
    std::string loopId;
    std::string rowId;
    std::vector<Vec3> points;
    Rgb color;
};

struct SceneLabel {
    std::string text;
    Vec3 position{};
};

struct LegendCategory {
    std::string label;
    Rgb color;
};

/// What the scalar bar shows: a continuous ramp or categories (same colours as the racks).
struct Legend {
    std::string title;
    bool categorical = false;
    std::vector<ColorRamp::Stop> stops;
    std::vector<LegendCategory> categories;
};

/// Racks of halls not yet energised at the Timeline's date cursor: a flat grey, darker than no-data.
inline constexpr Rgb kDimmedRack{0x5a, 0x5e, 0x66};

/// The campus as plain data: what CampusSceneBuilder computes and CampusScene turns into VTK actors.
/// Tests check it without rendering.
struct CampusSceneData {
    ColorMetric metric = ColorMetric::PowerDensity;
    std::vector<BoxShape> grounds;
    std::vector<BoxShape> buildings;
    std::vector<BoxShape> halls;
    std::vector<RackInstance> racks;
    std::vector<RackGroup> rackGroups;
    std::vector<CduInstance> cdus;
    std::vector<TubePath> tubes;
    std::vector<SceneLabel> labels;
    Legend legend;
    /// Problems the view shows in a visible notice (bad or missing geometry, missing results).
    std::vector<std::string> notices;
    /// xmin, xmax, ymin, ymax, zmin, zmax of everything drawn.
    std::array<double, 6> bounds{0, 100, -100, 0, 0, 20};
    /// Thermal margin (%) per cooling loop id, from the last results; empty without results.
    std::unordered_map<std::string, double> loopMargins;
    bool hasResults = false;
    /// Rack id -> index into racks.
    std::unordered_map<std::string, std::size_t> rackIndex;
    /// Halls (indices into the design's halls) not yet energised at the Timeline's date cursor (issue 34
    /// item 5): their racks are drawn in kDimmedRack whatever the metric.
    std::vector<bool> dimmedHalls;

    const RackInstance* findRack(const std::string& id) const {
        const auto it = rackIndex.find(id);
        return it == rackIndex.end() ? nullptr : &racks[it->second];
    }
    std::size_t placedRackCount() const {
        std::size_t n = 0;
        for (const auto& r : racks)
            n += r.placed ? 1 : 0;
        return n;
    }
};

} // namespace ctwin::views
