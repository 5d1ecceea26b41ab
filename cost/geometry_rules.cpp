#include "geometry_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string_view>
#include <unordered_map>

namespace ctwin::cost {

namespace {

/// Objects may touch: the floor-plan editor lets racks abut within 1 mm (document_editor.cpp kEps).
constexpr double kTolerance = 1e-3;
/// Findings listed one by one per rule; the rest are counted in one summary line, so a design that is
/// wrong everywhere still gives a readable panel.
constexpr size_t kListedPerRule = 50;
constexpr double kPi = 3.14159265358979323846;

struct Box {
    double x0, y0, x1, y1;
};

std::string metres(double m) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f m", m);
    return buf;
}

template <class E> const std::string& nameOf(const E& e) {
    return e.name.empty() ? e.id : e.name;
}

/// How far a box sticks out of the parent's [0, w] x [0, d], and past which edge. Zero when inside. Plain
/// numbers: this runs for every rack on every evaluation, the words only for a finding.
struct Overhang {
    enum Edge { Left, Right, Top, Bottom };
    double by = 0.0;
    Edge edge = Left;
    double w = 0.0, d = 0.0;
    std::string where() const {
        switch (edge) {
        case Left:
            return "x < 0";
        case Right:
            return "beyond its " + metres(w) + " width";
        case Top:
            return "y < 0";
        case Bottom:
            return "beyond its " + metres(d) + " depth";
        }
        return {};
    }
};

Overhang overhang(const Box& b, double w, double d) {
    Overhang o;
    o.w = w, o.d = d;
    const auto consider = [&](double v, Overhang::Edge edge) {
        if (v > o.by) o.by = v, o.edge = edge;
    };
    consider(-b.x0, Overhang::Left);
    consider(b.x1 - w, Overhang::Right);
    consider(-b.y0, Overhang::Top);
    consider(b.y1 - d, Overhang::Bottom);
    return o;
}

/// A footprint of width x depth at (x, y): quarter turns swap the sides (as the editor does); any other
/// angle takes the bounding box of the rectangle turned about its centre.
[[gnu::always_inline]] inline Box footprint(double x, double y, double w, double d, double rotationDeg) {
    const double quarters = rotationDeg / 90.0;
    const long n = std::lround(quarters);
    if (std::abs(quarters - static_cast<double>(n)) < 1e-9) {
        const bool sideways = ((n % 2) + 2) % 2 == 1;
        return sideways ? Box{x, y, x + d, y + w} : Box{x, y, x + w, y + d};
    }
    const double a = rotationDeg * kPi / 180.0, c = std::abs(std::cos(a)), s = std::abs(std::sin(a));
    const double cx = x + w / 2, cy = y + d / 2, hw = (c * w + s * d) / 2, hd = (s * w + c * d) / 2;
    return Box{cx - hw, cy - hd, cx + hw, cy + hd};
}

/// Lists the first kListedPerRule findings of each rule and counts the rest.
class Findings {
public:
    explicit Findings(std::vector<DesignRule>& out) : m_out(out) {}
    void add(const DesignRule& f) {
        auto& n = m_counts[f.rule];
        if (++n <= kListedPerRule) m_out.push_back(f);
    }
    ~Findings() {
        for (const auto& [rule, n] : m_counts)
            if (n > kListedPerRule)
                m_out.push_back({Severity::Error, rule, "",
                                 "… and " + std::to_string(n - kListedPerRule) + " more findings of rule " +
                                     rule + " (" + std::to_string(n) + " in all)"});
    }

private:
    std::vector<DesignRule>& m_out;
    std::map<std::string, size_t> m_counts;
};

struct Dims {
    double width = 0.0, depth = 0.0;
    bool known = false;
};

/// Catalog width/depth by type id, looked up once per type (racks of one type come in long runs).
class DimsCache {
public:
    explicit DimsCache(const model::Catalog& catalog) : m_catalog(catalog) {}
    const Dims& get(const std::string& type) {
        if (m_last && *m_lastType == type) return *m_last;
        auto [it, inserted] = m_dims.try_emplace(type);
        if (inserted) {
            const auto* item = m_catalog.find(type);
            const auto* w = item ? item->find("width_m") : nullptr;
            const auto* d = item ? item->find("depth_m") : nullptr;
            if (w && d && w->base > 0 && d->base > 0) it->second = Dims{w->base, d->base, true};
        }
        m_lastType = &it->first;
        m_last = &it->second;
        return it->second;
    }

private:
    const model::Catalog& m_catalog;
    std::unordered_map<std::string, Dims> m_dims;
    const std::string* m_lastType = nullptr;
    const Dims* m_last = nullptr;
};

struct Placed {
    Box box;
    size_t rack;
};

/// Pairs of overlapping racks of one hall. A uniform grid with cells of the largest rack side: each rack
/// covers a few cells; a pair is compared in every cell both cover and reported only in the cell holding
/// the lower-left corner of their intersection, so each pair is reported once. Linear for a real layout.
void overlapsInHall(const model::Project& p, const model::DataHall& hall, const std::vector<Placed>& racks,
                    std::vector<DesignRule>& findings) {
    if (racks.size() < 2) return;
    double minX = racks.front().box.x0, minY = racks.front().box.y0, maxX = minX, maxY = minY, cell = 0.1;
    for (const auto& r : racks) {
        minX = std::min(minX, r.box.x0), minY = std::min(minY, r.box.y0);
        maxX = std::max(maxX, r.box.x1), maxY = std::max(maxY, r.box.y1);
        cell = std::max({cell, r.box.x1 - r.box.x0, r.box.y1 - r.box.y0});
    }
    // A rack far away (a typo of 10 km) must not make the grid huge: grow the cells to keep about one
    // cell per rack at most.
    const double area = (maxX - minX + cell) * (maxY - minY + cell);
    const double maxCells = 4.0 * static_cast<double>(racks.size()) + 16.0;
    if (area / (cell * cell) > maxCells) cell = std::sqrt(area / maxCells);
    const auto nx = static_cast<size_t>((maxX - minX) / cell) + 1;
    const auto ny = static_cast<size_t>((maxY - minY) / cell) + 1;
    const auto ix = [&](double x) {
        return std::min(nx - 1, static_cast<size_t>(std::max(0.0, (x - minX) / cell)));
    };
    const auto iy = [&](double y) {
        return std::min(ny - 1, static_cast<size_t>(std::max(0.0, (y - minY) / cell)));
    };
    // Counting sort of (cell, rack) pairs: no hashing, two passes.
    std::vector<size_t> start(nx * ny + 1, 0);
    const auto covered = [&](const Box& b, auto&& visit) {
        for (size_t y = iy(b.y0); y <= iy(b.y1); ++y)
            for (size_t x = ix(b.x0); x <= ix(b.x1); ++x)
                visit(y * nx + x);
    };
    for (const auto& r : racks)
        covered(r.box, [&](size_t c) { ++start[c + 1]; });
    for (size_t c = 1; c < start.size(); ++c)
        start[c] += start[c - 1];
    std::vector<size_t> members(start.back());
    std::vector<size_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < racks.size(); ++i)
        covered(racks[i].box, [&](size_t c) { members[fill[c]++] = i; });
    for (size_t c = 0; c + 1 < start.size(); ++c) {
        for (size_t a = start[c]; a < start[c + 1]; ++a) {
            for (size_t b = a + 1; b < start[c + 1]; ++b) {
                const Box& p1 = racks[members[a]].box;
                const Box& p2 = racks[members[b]].box;
                const double x0 = std::max(p1.x0, p2.x0), y0 = std::max(p1.y0, p2.y0);
                const double ox = std::min(p1.x1, p2.x1) - x0, oy = std::min(p1.y1, p2.y1) - y0;
                if (ox <= kTolerance || oy <= kTolerance) continue;
                if (iy(y0) * nx + ix(x0) != c) continue; // reported in another cell
                const auto& r1 = p.racks[racks[members[a]].rack];
                const auto& r2 = p.racks[racks[members[b]].rack];
                const auto& later = racks[members[a]].rack > racks[members[b]].rack ? r1 : r2;
                findings.push_back({Severity::Error, "racks_overlap", later.id,
                                    "Racks " + nameOf(r1) + " and " + nameOf(r2) + " in hall " +
                                        nameOf(hall) + " overlap by " + metres(ox) + " x " + metres(oy)});
            }
        }
    }
}

/// The finding of a rack that sticks out of its hall by `o` (built only for such a rack: this check runs
/// for every rack on every compile).
DesignRule rackOutside(const model::RackPlacement& r, const model::DataHall& hall, const Overhang& o) {
    return {Severity::Error, "rack_outside_hall", r.id,
            "Rack " + nameOf(r) + " sticks out of hall " + nameOf(hall) + " by " + metres(o.by) + " (" +
                o.where() + ")"};
}

} // namespace

GeometryFindings geometryFindings(const model::Project& p, const model::Catalog& catalog) {
    GeometryFindings g;

    std::unordered_map<std::string_view, size_t> buildingAt, hallAt, rowHall;
    for (size_t i = 0; i < p.buildings.size(); ++i)
        buildingAt.emplace(p.buildings[i].id, i);
    for (size_t i = 0; i < p.halls.size(); ++i)
        hallAt.emplace(p.halls[i].id, i);
    for (const auto& r : p.rows)
        if (const auto h = hallAt.find(r.hall); h != hallAt.end()) rowHall.emplace(r.id, h->second);

    // Buildings overlapping on one site (a site holds a handful of buildings: pairs are cheap).
    for (size_t i = 0; i < p.buildings.size(); ++i) {
        const auto& a = p.buildings[i];
        const Box ba{a.x.value(), a.y.value(), a.x.value() + a.width.value(), a.y.value() + a.depth.value()};
        for (size_t j = i + 1; j < p.buildings.size(); ++j) {
            const auto& b = p.buildings[j];
            if (b.site != a.site) continue;
            const Box bb{b.x.value(), b.y.value(), b.x.value() + b.width.value(),
                         b.y.value() + b.depth.value()};
            const double ox = std::min(ba.x1, bb.x1) - std::max(ba.x0, bb.x0);
            const double oy = std::min(ba.y1, bb.y1) - std::max(ba.y0, bb.y0);
            if (ox > kTolerance && oy > kTolerance)
                g.layout.push_back({Severity::Error, "buildings_overlap", b.id,
                                    "Buildings " + nameOf(a) + " and " + nameOf(b) + " on site " + a.site +
                                        " overlap by " + metres(ox) + " x " + metres(oy)});
        }
    }

    // Halls inside their buildings.
    for (const auto& h : p.halls) {
        const auto b = buildingAt.find(h.building);
        if (b == buildingAt.end()) continue; // a dangling reference is the loader's error
        const auto& bld = p.buildings[b->second];
        const Box box{h.x.value(), h.y.value(), h.x.value() + h.width.value(), h.y.value() + h.depth.value()};
        const Overhang o = overhang(box, bld.width.value(), bld.depth.value());
        if (o.by > kTolerance)
            g.layout.push_back({Severity::Error, "hall_outside_building", h.id,
                                "Hall " + nameOf(h) + " sticks out of building " + nameOf(bld) + " by " +
                                    metres(o.by) + " (" + o.where() + ")"});
    }

    // Racks inside their halls; collect footprints per hall for the overlap check.
    DimsCache dims(catalog);
    std::vector<std::vector<Placed>> perHall(p.halls.size());
    g.rackHall.assign(p.racks.size(), -1);
    g.hallRacks.resize(p.halls.size());
    g.hallOverlaps.resize(p.halls.size());
    const std::string* lastRow = nullptr;
    size_t lastHall = 0;
    bool lastKnown = false;
    for (size_t i = 0; i < p.racks.size(); ++i) {
        const auto& r = p.racks[i];
        if (!lastRow || *lastRow != r.row) { // racks of one row come together: one lookup per row
            const auto h = rowHall.find(r.row);
            lastKnown = h != rowHall.end();
            lastHall = lastKnown ? h->second : 0;
            lastRow = &r.row;
        }
        if (!lastKnown) continue;
        const Dims& d = dims.get(r.rackType);
        if (!d.known) continue; // an unknown rack type is the loader's error
        const Box box = footprint(r.x.value(), r.y.value(), d.width, d.depth, r.rotationDeg);
        const auto& hall = p.halls[lastHall];
        const Overhang o = overhang(box, hall.width.value(), hall.depth.value());
        if (o.by > kTolerance)
            g.rackOutside.emplace_back(static_cast<std::uint32_t>(i), rackOutside(r, hall, o));
        perHall[lastHall].push_back({box, i});
        g.rackHall[i] = static_cast<std::int32_t>(lastHall);
        g.hallRacks[lastHall].push_back(static_cast<std::uint32_t>(i));
    }
    for (size_t h = 0; h < p.halls.size(); ++h)
        overlapsInHall(p, p.halls[h], perHall[h], g.hallOverlaps[h]);

    // CDUs inside their halls.
    for (const auto& l : p.coolingLoops) {
        const auto h = hallAt.find(l.hall);
        if (h == hallAt.end()) continue;
        const auto& hall = p.halls[h->second];
        const Dims& d = dims.get(l.cduType);
        if (!d.known) continue;
        for (size_t i = 0; i < l.cdus.size(); ++i) {
            const Box box{l.cdus[i].xM, l.cdus[i].yM, l.cdus[i].xM + d.width, l.cdus[i].yM + d.depth};
            const Overhang o = overhang(box, hall.width.value(), hall.depth.value());
            if (o.by > kTolerance)
                g.cduOutside.push_back({Severity::Error, "cdu_outside_hall", l.id,
                                        "CDU " + std::to_string(i + 1) + " of loop " + nameOf(l) +
                                            " sticks out of hall " + nameOf(hall) + " by " + metres(o.by) +
                                            " (" + o.where() + ")"});
        }
    }
    return g;
}

std::vector<DesignRule> GeometryFindings::rules() const {
    std::vector<DesignRule> out;
    {
        Findings findings(out);
        for (const auto& f : layout)
            findings.add(f);
        for (const auto& [rack, f] : rackOutside)
            findings.add(f);
        for (const auto& hall : hallOverlaps)
            for (const auto& f : hall)
                findings.add(f);
        for (const auto& f : cduOutside)
            findings.add(f);
    } // the summaries are added when `findings` goes
    return out;
}

void updateGeometryFindings(GeometryFindings& g, const model::Project& p, const model::Catalog& catalog,
                            const std::vector<std::uint32_t>& racks,
                            const std::vector<std::int32_t>& rackHall) {
    DimsCache dims(catalog);
    std::vector<std::int32_t> halls; // every hall a changed rack left or entered
    for (const std::uint32_t i : racks) {
        const auto& r = p.racks[i];
        const std::int32_t before = g.rackHall[i];
        std::int32_t after = rackHall[i];
        const Dims& d = dims.get(r.rackType);
        if (!d.known) after = -1;
        // Its outside-hall finding, kept in rack order.
        auto at = std::lower_bound(g.rackOutside.begin(), g.rackOutside.end(), i,
                                   [](const auto& e, std::uint32_t k) { return e.first < k; });
        if (at != g.rackOutside.end() && at->first == i) at = g.rackOutside.erase(at);
        if (after >= 0) {
            const auto& hall = p.halls[static_cast<size_t>(after)];
            const Box box = footprint(r.x.value(), r.y.value(), d.width, d.depth, r.rotationDeg);
            const Overhang o = overhang(box, hall.width.value(), hall.depth.value());
            if (o.by > kTolerance) g.rackOutside.emplace(at, i, rackOutside(r, hall, o));
        }
        if (before != after) {
            if (before >= 0) {
                auto& list = g.hallRacks[static_cast<size_t>(before)];
                list.erase(std::lower_bound(list.begin(), list.end(), i));
            }
            if (after >= 0) {
                auto& list = g.hallRacks[static_cast<size_t>(after)];
                list.insert(std::lower_bound(list.begin(), list.end(), i), i);
            }
            g.rackHall[i] = after;
        }
        if (before >= 0) halls.push_back(before);
        if (after >= 0) halls.push_back(after);
    }
    std::sort(halls.begin(), halls.end());
    halls.erase(std::unique(halls.begin(), halls.end()), halls.end());
    std::vector<Placed> placed;
    for (const std::int32_t h : halls) {
        const auto hi = static_cast<size_t>(h);
        placed.clear();
        placed.reserve(g.hallRacks[hi].size());
        for (const std::uint32_t i : g.hallRacks[hi]) {
            const auto& r = p.racks[i];
            const Dims& d = dims.get(r.rackType);
            placed.push_back({footprint(r.x.value(), r.y.value(), d.width, d.depth, r.rotationDeg), i});
        }
        g.hallOverlaps[hi].clear();
        overlapsInHall(p, p.halls[hi], placed, g.hallOverlaps[hi]);
    }
}

void appendGeometryRules(const model::Project& p, const model::Catalog& catalog,
                         std::vector<DesignRule>& rules) {
    auto found = geometryFindings(p, catalog).rules();
    rules.insert(rules.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
}

std::vector<DesignRule> geometryRules(const model::Project& project, const model::Catalog& catalog) {
    return geometryFindings(project, catalog).rules();
}

} // namespace ctwin::cost
