#include "design_replicator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace ctwin::views {

model::Project replicateCampus(const model::Project& base, int copies) {
    model::Project out = base;
    if (copies <= 1 || base.buildings.empty()) return out;
    double minX = std::numeric_limits<double>::infinity(), minY = minX, maxX = -minX, maxY = -minX;
    for (const auto& b : base.buildings) {
        minX = std::min(minX, b.x.value()), minY = std::min(minY, b.y.value());
        maxX = std::max(maxX, b.x.value() + b.width.value()),
        maxY = std::max(maxY, b.y.value() + b.depth.value());
    }
    const double ex = std::max(1.0, maxX - minX) + 40.0, ey = std::max(1.0, maxY - minY) + 40.0;
    // Columns for a roughly 16:10 campus.
    const int cols = std::max(1, static_cast<int>(std::ceil(std::sqrt(copies * 1.6 * ey / ex))));
    out.buildings.clear(), out.halls.clear(), out.powerFeeds.clear(), out.coolingLoops.clear();
    out.rows.clear(), out.racks.clear();
    for (int c = 0; c < copies; ++c) {
        const std::string sfx = c == 0 ? "" : "-c" + std::to_string(c);
        const auto id = [&](const std::string& s) { return s.empty() ? s : s + sfx; };
        const double dx = (c % cols) * ex, dy = (c / cols) * ey;
        for (auto b : base.buildings) {
            b.id = id(b.id), b.name += sfx;
            b.x += units::meters(dx), b.y += units::meters(dy);
            out.buildings.push_back(std::move(b));
        }
        for (auto h : base.halls)
            h.id = id(h.id), h.building = id(h.building), out.halls.push_back(std::move(h));
        for (auto f : base.powerFeeds)
            f.id = id(f.id), f.building = id(f.building), out.powerFeeds.push_back(std::move(f));
        for (auto l : base.coolingLoops)
            l.id = id(l.id), l.hall = id(l.hall), out.coolingLoops.push_back(std::move(l));
        for (auto r : base.rows)
            r.id = id(r.id), r.hall = id(r.hall), out.rows.push_back(std::move(r));
        for (auto r : base.racks) {
            r.id = id(r.id), r.row = id(r.row), r.feedA = id(r.feedA), r.feedB = id(r.feedB);
            r.coolingLoop = id(r.coolingLoop);
            out.racks.push_back(std::move(r));
        }
    }
    for (auto& f : out.fabrics)
        f.buildings.clear(); // [] = all buildings
    return out;
}

} // namespace ctwin::views
