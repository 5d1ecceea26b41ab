#pragma once
#include "campus_scene_data.h"
#include "color_metric.h"
#include "scene_source.h"

#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace ctwin::model {
struct RackPlacement;
}

namespace ctwin::views {

/// Turns a design into CampusSceneData: world placement of sites, buildings, halls, racks, CDUs and
/// cooling pipes, rack colours for a metric, labels and notices. No VTK, no Qt: plain data that tests check.
///
/// The builder keeps the design's frames (id -> index maps, site offsets, rack-type sizes and power) so
/// that one modified rack can be re-placed and re-coloured without rebuilding everything. It holds no
/// pointers into the design: pass the same (unchanged-structure) design to every call, and build a new
/// builder after a structural change or a change of sites, buildings, halls, rows or loops.
class CampusSceneBuilder {
public:
    CampusSceneBuilder(const model::Project& project, const model::Catalog& catalog);

    /// The whole scene for one colouring metric.
    CampusSceneData build(const SceneSource& source, ColorMetric metric) const;

    /// Re-places one rack in `data` from the design's current values (position, rotation, row). Returns
    /// false when the rack must move to another glyph set (its type changed) or cannot be found: rebuild.
    bool updateRack(CampusSceneData& data, const model::Project& project, const std::string& rackId) const;

    /// Takes the loop thermal margins from engine results (null: no results).
    static void setResults(CampusSceneData& data, const cost::Results* results);

    /// Recomputes metric values and colours for data.metric. With `only`, recolours just those racks
    /// unless the continuous range has to grow, in which case every rack is recoloured. Returns true when
    /// every rack was recoloured (the caller then refreshes the whole colour array and the legend).
    /// Racks of data.dimmedHalls take the dimmed grey after the metric's colour.
    bool recolour(CampusSceneData& data, const std::vector<std::size_t>* only = nullptr) const;

    /// Rebuilds the cooling pipes from the current rack placement (cheap; after racks moved or changed loop).
    void rebuildTubes(CampusSceneData& data) const;

    /// Assumed rack height when the catalog gives none: 48U at 44.45 mm per U (EIA-310) plus plinth and
    /// top cover, about 2.2 m.
    static constexpr double kDefaultRackHeightM = 2.2;
    /// Assumed CDU cabinet height (estimate: floor-standing 1-2 MW CDUs are about 2 m tall).
    static constexpr double kCduHeightM = 2.0;
    /// Gap between the campuses of different sites when they are laid side by side (m).
    static constexpr double kSiteGapM = 120.0;

private:
    bool recolourByMetric(CampusSceneData& data, const std::vector<std::size_t>* only) const;
    struct RackType {
        std::string name;
        double width = 0.6, depth = 1.2, height = kDefaultRackHeightM;
        double loadW = std::numeric_limits<double>::quiet_NaN();
        double idleW = std::numeric_limits<double>::quiet_NaN();
        bool known = false;
    };
    struct HallFrame {
        double x = 0.0, y = 0.0; // plan origin of the hall after the site offset
        bool ok = false;
    };

    std::optional<HallFrame> hallFrameOfRow(const model::Project& project, const std::string& rowId) const;
    void placeRack(const model::Project& project, const model::RackPlacement& rack, RackInstance& out) const;
    double metricValue(const RackInstance& rack, const CampusSceneData& data) const;

    std::unordered_map<std::string, std::size_t> m_siteIndex, m_buildingIndex, m_hallIndex, m_rowIndex,
        m_rackIndex, m_loopIndex;
    struct SiteFrame {
        double offsetX = 0.0;
        double minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0; // plan bounds of its buildings
        bool hasBuildings = false;
    };
    std::unordered_map<std::string, SiteFrame> m_siteFrames;
    std::vector<HallFrame> m_hallFrames;
    std::unordered_map<std::string, RackType> m_rackTypes;
    std::unordered_map<std::string, std::pair<double, double>> m_cduSizes; // cdu type -> width, depth
    std::vector<std::string> m_typeOrder; // rack types in order of first use (categorical index)
    std::vector<std::string> m_loopNames; // in design order (categorical index)
};

} // namespace ctwin::views
