#include "geometry_rules.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace ctwin::cost {

namespace {

/// Objects may touch: the floor-plan editor lets racks abut within 1 mm (document_editor.cpp kEps).
constexpr double kTolerance = 1e-3;
/// Names a stack's finding lists before "and N more".
constexpr size_t kStackNamesListed = 5;
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

/// The overlap of two boxes, x by y; they overlap when both exceed kTolerance. Every overlap decision of
/// this file is this arithmetic, so the sweep count below agrees with the pair test to the last bit.
struct Overlap {
    double x, y;
    bool any() const { return x > kTolerance && y > kTolerance; }
};
Overlap overlapOf(const Box& a, const Box& b) {
    return {std::min(a.x1, b.x1) - std::max(a.x0, b.x0), std::min(a.y1, b.y1) - std::max(a.y0, b.y0)};
}

bool sameFootprint(const Box& a, const Box& b) {
    return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

/// Lists the first kGeometryFindingsPerParent findings of one rule under one parent and counts the rest
/// The caller builds a finding only when `list()` says so.
class ParentCap {
public:
    bool list() { return ++m_total <= kGeometryFindingsPerParent; }
    /// All the parent's findings, when they were counted elsewhere.
    void setTotal(size_t n) { m_total = n; }
    bool over() const { return m_total > kGeometryFindingsPerParent; }
    /// The "… and N more" line when the parent had more than it listed; `where` reads "in hall Hall 1".
    void finish(CappedFindings& out, const std::string& rule, const std::string& where,
                const std::string& parentId) const {
        if (!over()) return;
        const size_t more = m_total - kGeometryFindingsPerParent;
        out.more.push_back({{Severity::Error, rule, parentId,
                             "… and " + std::to_string(more) + " more findings of rule " + rule + " " +
                                 where + " (" + std::to_string(m_total) + " in all)"},
                            more});
    }

private:
    size_t m_total = 0;
};

/// Lines of each rule over the whole design: the first kGeometryLinesPerRule, then one line for the rest.
/// A parent's "… and N more" line is one line standing for N findings.
class Findings {
public:
    explicit Findings(std::vector<DesignRule>& out) : m_out(out) {}
    void add(const DesignRule& f, size_t findings) {
        auto& r = m_rules[f.rule];
        r.total += findings;
        if (r.lines < kGeometryLinesPerRule) {
            ++r.lines;
            m_out.push_back(f);
        } else {
            r.unlisted += findings;
        }
    }
    void add(const CappedFindings& c) {
        for (const auto& f : c.listed)
            add(f, 1);
        for (const auto& [f, n] : c.more)
            add(f, n);
    }
    ~Findings() {
        for (const auto& [rule, r] : m_rules)
            if (r.unlisted > 0)
                m_out.push_back({Severity::Error, rule, "",
                                 "… and " + std::to_string(r.unlisted) + " more findings of rule " + rule +
                                     " (" + std::to_string(r.total) + " in all)"});
    }

private:
    struct Rule {
        size_t lines = 0, total = 0, unlisted = 0;
    };
    std::vector<DesignRule>& m_out;
    std::map<std::string, Rule> m_rules;
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
    size_t index; // of the rack (building) in the project
};

/// Counts of boxes at positions below a bound, updated one box at a time (a Fenwick tree).
class RankCounts {
public:
    explicit RankCounts(size_t n) : m_tree(n + 1, 0) {}
    void add(size_t rank) {
        for (size_t i = rank + 1; i < m_tree.size(); i += i & (0 - i))
            ++m_tree[i];
    }
    /// Boxes added with a rank below `rank`.
    size_t below(size_t rank) const {
        size_t n = 0;
        for (size_t i = rank; i > 0; i -= i & (0 - i))
            n += m_tree[i];
        return n;
    }

private:
    std::vector<size_t> m_tree;
};

/// Indices 0..n-1 ordered by key(i).
template <class Key> std::vector<size_t> orderBy(size_t n, Key key) {
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key(a) < key(b); });
    return order;
}

/// The number of overlapping pairs among `boxes`, without visiting the pairs: 30,000 footprints
/// overlapping one another are 450 million pairs. Two boxes miss each other when one ends before the other
/// starts along x, or along y, so
///     overlapping = all pairs - apart along x - apart along y + apart along both
/// (inclusion-exclusion). "a ends before b starts" is `a.x1 - b.x0 <= kTolerance`, the very subtraction of
/// the pair test (overlapOf takes the least of the four end-minus-start differences, and floating-point
/// subtraction is monotone), so the count equals what testing every pair would find. For boxes wider and
/// deeper than 3 mm at most one of the two orders holds, so each pair apart along an axis is counted once:
/// for every box b, the boxes a ending before b starts are a prefix of the boxes sorted by their end. Pairs
/// apart both ways are counted with a sweep over x ends and a Fenwick tree over y ends and starts. Boxes
/// 1-3 mm wide or deep (a catalog error, never a real rack) are tested pair by pair against the rest.
/// O(n log n).
size_t countOverlappingPairs(const std::vector<Box>& boxes) {
    std::vector<Box> wide, thin;
    for (const Box& b : boxes) {
        const double w = b.x1 - b.x0, d = b.y1 - b.y0;
        if (w <= kTolerance || d <= kTolerance) continue; // overlaps nothing: an overlap is at most its width
        (w > 3 * kTolerance && d > 3 * kTolerance ? wide : thin).push_back(b);
    }
    size_t count = 0;
    for (size_t i = 0; i < thin.size(); ++i) {
        for (size_t j = i + 1; j < thin.size(); ++j)
            count += overlapOf(thin[i], thin[j]).any();
        for (const Box& w : wide)
            count += overlapOf(thin[i], w).any();
    }
    const size_t n = wide.size();
    if (n < 2) return count;
    const auto byX1 = orderBy(n, [&](size_t i) { return wide[i].x1; });
    const auto byY1 = orderBy(n, [&](size_t i) { return wide[i].y1; });
    const auto byY0 = orderBy(n, [&](size_t i) { return wide[i].y0; });
    std::vector<double> x1(n), y1(n), y0(n);
    std::vector<size_t> rankY1(n), rankY0(n);
    for (size_t r = 0; r < n; ++r) {
        x1[r] = wide[byX1[r]].x1, y1[r] = wide[byY1[r]].y1, y0[r] = wide[byY0[r]].y0;
        rankY1[byY1[r]] = r, rankY0[byY0[r]] = r;
    }
    // For each box b: how many boxes end before it starts along x (they come first in x1 order), along y
    // (first in y1 order), and how many start after it ends along y (last in y0 order, from rank `above`).
    struct Bounds {
        size_t left, below, above;
    };
    std::vector<Bounds> bounds(n);
    size_t apartX = 0, apartY = 0;
    for (size_t b = 0; b < n; ++b) {
        const Box& bb = wide[b];
        const auto left =
            std::partition_point(x1.begin(), x1.end(), [&](double e) { return e - bb.x0 <= kTolerance; });
        const auto below =
            std::partition_point(y1.begin(), y1.end(), [&](double e) { return e - bb.y0 <= kTolerance; });
        const auto above =
            std::partition_point(y0.begin(), y0.end(), [&](double s) { return bb.y1 - s > kTolerance; });
        bounds[b] = {static_cast<size_t>(left - x1.begin()), static_cast<size_t>(below - y1.begin()),
                     static_cast<size_t>(above - y0.begin())};
        apartX += bounds[b].left;
        apartY += bounds[b].below;
    }
    // Apart both ways: sweep the boxes b by how many end before them along x, adding those boxes a (in x1
    // order) to the y counts; a is then below b or above b, never both.
    const auto byLeft = orderBy(n, [&](size_t b) { return bounds[b].left; });
    RankCounts endsY(n), startsY(n);
    size_t added = 0, apartBoth = 0;
    for (const size_t b : byLeft) {
        for (; added < bounds[b].left; ++added) {
            endsY.add(rankY1[byX1[added]]);
            startsY.add(rankY0[byX1[added]]);
        }
        apartBoth += endsY.below(bounds[b].below) + (added - startsY.below(bounds[b].above));
    }
    return count + n * (n - 1) / 2 - apartX - apartY + apartBoth;
}

/// Objects on one identical footprint (kGeometryMinStack or more), reported as one finding.
struct Stack {
    size_t count = 0;
    std::vector<size_t> first; // positions of its first kStackNamesListed members, ascending
};

/// The overlaps among the objects of one parent (racks of a hall, buildings of a site).
struct Overlaps {
    std::vector<Stack> stacks; // by first member
    std::vector<std::pair<size_t, size_t>>
        pairs;            // the first overlapping pairs (positions, a < b), grid order
    size_t pairCount = 0; // every overlapping pair, a stack standing as its first
};

/// Overlaps among `items` by a uniform grid with cells of the largest side: each object covers a few cells;
/// a pair is compared in every cell both cover and reported only in the cell holding the lower-left corner
/// of their intersection, so each pair is reported once. Linear for a real layout.
///
/// The grid alone is quadratic when many objects share a spot (an import without positions, a
/// paste, a script bug). Identical footprints are grouped per cell (they cover the same cells) into a stack
/// whose first member alone stands in pairs; pairs are tested only until kGeometryFindingsPerParent are
/// found, and the rest counted by countOverlappingPairs. So 30,000 racks on one spot are one stack found in
/// O(n log n), and 30,000 racks squeezed into a metre give their first pairs and an exact count.
Overlaps findOverlaps(const std::vector<Placed>& items) {
    Overlaps out;
    const size_t count = items.size();
    if (count < 2) return out;
    double minX = items.front().box.x0, minY = items.front().box.y0, maxX = minX, maxY = minY, cell = 0.1;
    for (const auto& r : items) {
        minX = std::min(minX, r.box.x0), minY = std::min(minY, r.box.y0);
        maxX = std::max(maxX, r.box.x1), maxY = std::max(maxY, r.box.y1);
        cell = std::max({cell, r.box.x1 - r.box.x0, r.box.y1 - r.box.y0});
    }
    // An object far away (a typo of 10 km) must not make the grid huge: grow the cells to keep about one
    // cell per object at most.
    const double area = (maxX - minX + cell) * (maxY - minY + cell);
    const double maxCells = 4.0 * static_cast<double>(count) + 16.0;
    if (area / (cell * cell) > maxCells) cell = std::sqrt(area / maxCells);
    const auto nx = static_cast<size_t>((maxX - minX) / cell) + 1;
    const auto ny = static_cast<size_t>((maxY - minY) / cell) + 1;
    const auto ix = [&](double x) {
        return std::min(nx - 1, static_cast<size_t>(std::max(0.0, (x - minX) / cell)));
    };
    const auto iy = [&](double y) {
        return std::min(ny - 1, static_cast<size_t>(std::max(0.0, (y - minY) / cell)));
    };
    // Counting sort of (cell, object) pairs: no hashing, two passes.
    std::vector<size_t> start(nx * ny + 1, 0);
    const auto covered = [&](const Box& b, auto&& visit) {
        for (size_t y = iy(b.y0); y <= iy(b.y1); ++y)
            for (size_t x = ix(b.x0); x <= ix(b.x1); ++x)
                visit(y * nx + x);
    };
    for (const auto& r : items)
        covered(r.box, [&](size_t c) { ++start[c + 1]; });
    for (size_t c = 1; c < start.size(); ++c)
        start[c] += start[c - 1];
    std::vector<size_t> members(start.back());
    std::vector<size_t> fill(start.begin(), start.end() - 1);
    for (size_t i = 0; i < count; ++i)
        covered(items[i].box, [&](size_t c) { members[fill[c]++] = i; });

    std::vector<char> hidden(count, 0); // a stack's member after its first: stands in no pair
    std::vector<size_t> sorted, shown;
    // Whether some footprint is in the cell kGeometryMinStack times: a few comparisons in a cell of a real
    // layout (a handful of racks, none identical), where sorting would cost more than the pair test.
    const auto mayStack = [&](const size_t* m, size_t n) {
        if (n < kGeometryMinStack) return false;
        if (n > 16) return true;
        for (size_t a = 0; a + kGeometryMinStack <= n; ++a) {
            size_t same = 1;
            for (size_t b = a + 1; b < n; ++b)
                same += sameFootprint(items[m[a]].box, items[m[b]].box);
            if (same >= kGeometryMinStack) return true;
        }
        return false;
    };
    bool listing = true;
    for (size_t c = 0; c + 1 < start.size(); ++c) {
        const size_t* cellMembers = members.data() + start[c];
        const size_t inCell = start[c + 1] - start[c];
        const size_t* tested = cellMembers; // the members that stand in pairs
        size_t testedCount = inCell;
        if (mayStack(cellMembers, inCell)) {
            // Stacks: identical footprints side by side once sorted. Identical boxes cover the same cells,
            // so a stack is whole in each of them; it is reported in the cell of its lower-left corner.
            sorted.assign(cellMembers, cellMembers + inCell);
            std::sort(sorted.begin(), sorted.end(), [&](size_t a, size_t b) {
                const Box &p = items[a].box, &q = items[b].box;
                return std::tie(p.x0, p.y0, p.x1, p.y1, a) < std::tie(q.x0, q.y0, q.x1, q.y1, b);
            });
            for (size_t i = 0, j = 0; i < sorted.size(); i = j) {
                const Box& b = items[sorted[i]].box;
                j = i + 1;
                while (j < sorted.size() && sameFootprint(items[sorted[j]].box, b))
                    ++j;
                if (j - i < kGeometryMinStack) continue;
                for (size_t k = i + 1; k < j; ++k)
                    hidden[sorted[k]] = 1;
                if (iy(b.y0) * nx + ix(b.x0) == c)
                    out.stacks.push_back(
                        {j - i,
                         std::vector<size_t>(sorted.begin() + static_cast<std::ptrdiff_t>(i),
                                             sorted.begin() + static_cast<std::ptrdiff_t>(
                                                                  i + std::min(j - i, kStackNamesListed)))});
            }
            shown.clear();
            for (size_t k = 0; k < inCell; ++k)
                if (!hidden[cellMembers[k]]) shown.push_back(cellMembers[k]);
            tested = shown.data(), testedCount = shown.size();
        }
        if (!listing) continue; // only stacks are still looked for
        for (size_t a = 0; a < testedCount && listing; ++a) {
            for (size_t b = a + 1; b < testedCount; ++b) {
                const Box& p1 = items[tested[a]].box;
                const Box& p2 = items[tested[b]].box;
                if (!overlapOf(p1, p2).any()) continue;
                const double x0 = std::max(p1.x0, p2.x0), y0 = std::max(p1.y0, p2.y0);
                if (iy(y0) * nx + ix(x0) != c) continue; // reported in another cell
                out.pairs.emplace_back(tested[a], tested[b]);
                if (out.pairs.size() == kGeometryFindingsPerParent) {
                    listing = false;
                    break;
                }
            }
        }
    }
    std::sort(out.stacks.begin(), out.stacks.end(),
              [](const Stack& a, const Stack& b) { return a.first.front() < b.first.front(); });
    if (listing) {
        out.pairCount = out.pairs.size(); // every pair was tested
    } else {
        std::vector<Box> boxes;
        for (size_t i = 0; i < count; ++i)
            if (!hidden[i]) boxes.push_back(items[i].box);
        out.pairCount = countOverlappingPairs(boxes);
    }
    return out;
}

/// The stack whose first member is at `position`, if any (stacks are ordered by first member).
const Stack* stackOf(const Overlaps& o, size_t position) {
    const auto it = std::lower_bound(o.stacks.begin(), o.stacks.end(), position,
                                     [](const Stack& s, size_t p) { return s.first.front() < p; });
    return it != o.stacks.end() && it->first.front() == position ? &*it : nullptr;
}

/// Lists one parent's overlaps: its stacks first, then its pairs, kGeometryFindingsPerParent in all, then
/// one line counting the rest. `nameAt(position)` names an object, `stackLine(stack, names)` words a
/// stack's finding and `pairLine(a, b, nameA, nameB, overlap)` a pair's (a before b).
template <class NameAt, class StackLine, class PairLine>
void listOverlaps(const Overlaps& o, const std::vector<Placed>& items, CappedFindings& out,
                  const std::string& rule, const std::string& where, const std::string& parentId,
                  NameAt nameAt, StackLine stackLine, PairLine pairLine) {
    ParentCap cap;
    for (const Stack& s : o.stacks) {
        if (!cap.list()) break;
        std::string names;
        for (const size_t m : s.first)
            names += (names.empty() ? "" : ", ") + nameAt(m);
        if (s.count > s.first.size()) names += " and " + std::to_string(s.count - s.first.size()) + " more";
        out.listed.push_back(stackLine(s, names));
    }
    const auto named = [&](size_t position) {
        const Stack* s = stackOf(o, position);
        return s ? nameAt(position) + " (one of " + std::to_string(s->count) + " stacked)" : nameAt(position);
    };
    for (const auto& [a, b] : o.pairs) {
        if (!cap.list()) break;
        out.listed.push_back(pairLine(a, b, named(a), named(b), overlapOf(items[a].box, items[b].box)));
    }
    // o.pairs holds every pair up to the cap, so the listed ones are the first min(total, cap) findings.
    cap.setTotal(o.stacks.size() + o.pairCount);
    cap.finish(out, rule, where, parentId);
}

/// One hall's rack findings, from its placed racks (ascending): those sticking out of it and the overlaps.
/// The full compile and the update of a few racks both call this, so they agree by construction.
void hallFindings(const model::Project& p, const model::DataHall& hall, const std::vector<Placed>& racks,
                  CappedFindings& outside, CappedFindings& overlaps) {
    outside = {}, overlaps = {};
    const std::string where = "in hall " + nameOf(hall);
    ParentCap cap;
    for (const auto& r : racks) {
        const Overhang o = overhang(r.box, hall.width.value(), hall.depth.value());
        if (o.by <= kTolerance || !cap.list()) continue;
        const auto& rack = p.racks[r.index];
        outside.listed.push_back({Severity::Error, "rack_outside_hall", rack.id,
                                  "Rack " + nameOf(rack) + " sticks out of hall " + nameOf(hall) + " by " +
                                      metres(o.by) + " (" + o.where() + ")"});
    }
    cap.finish(outside, "rack_outside_hall", where, hall.id);

    const Overlaps o = findOverlaps(racks);
    const auto rackAt = [&](size_t position) -> const model::RackPlacement& {
        return p.racks[racks[position].index];
    };
    listOverlaps(
        o, racks, overlaps, "racks_overlap", where, hall.id,
        [&](size_t position) { return nameOf(rackAt(position)); },
        [&](const Stack& s, const std::string& names) {
            // On the second rack: the later of the first pair, as a pair's finding would be.
            const Box& b = racks[s.first.front()].box;
            return DesignRule{Severity::Error, "racks_overlap", rackAt(s.first[1]).id,
                              std::to_string(s.count) + " racks stacked at x " + metres(b.x0) + ", y " +
                                  metres(b.y0) + " in hall " + nameOf(hall) + ": " + names};
        },
        [&](size_t a, size_t b, const std::string& nameA, const std::string& nameB, const Overlap& by) {
            // Reported on the later rack (the one more likely just added or moved).
            return DesignRule{Severity::Error, "racks_overlap", rackAt(std::max(a, b)).id,
                              "Racks " + nameA + " and " + nameB + " " + where + " overlap by " +
                                  metres(by.x) + " x " + metres(by.y)};
        });
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

    // Buildings overlapping on one site, per site in the order of their first building.
    std::vector<std::vector<Placed>> siteBuildings;
    std::unordered_map<std::string_view, size_t> siteAt;
    for (size_t i = 0; i < p.buildings.size(); ++i) {
        const auto& b = p.buildings[i];
        const auto [it, added] = siteAt.try_emplace(b.site, siteBuildings.size());
        if (added) siteBuildings.emplace_back();
        siteBuildings[it->second].push_back(
            {Box{b.x.value(), b.y.value(), b.x.value() + b.width.value(), b.y.value() + b.depth.value()}, i});
    }
    for (const auto& buildings : siteBuildings) {
        Overlaps o = findOverlaps(buildings);
        // The pairs in building order, as they were listed before the grid (a handful per site).
        std::sort(o.pairs.begin(), o.pairs.end());
        const std::string& site = p.buildings[buildings.front().index].site;
        const auto buildingAtPosition = [&](size_t position) -> const model::Building& {
            return p.buildings[buildings[position].index];
        };
        listOverlaps(
            o, buildings, g.buildingsOverlap, "buildings_overlap", "on site " + site, site,
            [&](size_t position) { return nameOf(buildingAtPosition(position)); },
            [&](const Stack& s, const std::string& names) {
                const Box& b = buildings[s.first.front()].box;
                return DesignRule{Severity::Error, "buildings_overlap", buildingAtPosition(s.first[1]).id,
                                  std::to_string(s.count) + " buildings stacked at x " + metres(b.x0) +
                                      ", y " + metres(b.y0) + " on site " + site + ": " + names};
            },
            [&](size_t, size_t b, const std::string& nameA, const std::string& nameB, const Overlap& by) {
                return DesignRule{Severity::Error, "buildings_overlap", buildingAtPosition(b).id,
                                  "Buildings " + nameA + " and " + nameB + " on site " + site +
                                      " overlap by " + metres(by.x) + " x " + metres(by.y)};
            });
    }

    // Halls inside their buildings, capped per building.
    std::vector<ParentCap> hallsOfBuilding(p.buildings.size());
    for (const auto& h : p.halls) {
        const auto b = buildingAt.find(h.building);
        if (b == buildingAt.end()) continue; // a dangling reference is the loader's error
        const auto& bld = p.buildings[b->second];
        const Box box{h.x.value(), h.y.value(), h.x.value() + h.width.value(), h.y.value() + h.depth.value()};
        const Overhang o = overhang(box, bld.width.value(), bld.depth.value());
        if (o.by > kTolerance && hallsOfBuilding[b->second].list())
            g.hallsOutside.listed.push_back({Severity::Error, "hall_outside_building", h.id,
                                             "Hall " + nameOf(h) + " sticks out of building " + nameOf(bld) +
                                                 " by " + metres(o.by) + " (" + o.where() + ")"});
    }
    for (size_t b = 0; b < p.buildings.size(); ++b)
        if (hallsOfBuilding[b].over())
            hallsOfBuilding[b].finish(g.hallsOutside, "hall_outside_building",
                                      "in building " + nameOf(p.buildings[b]), p.buildings[b].id);

    // Racks: footprints per hall for the outside and overlap checks.
    DimsCache dims(catalog);
    std::vector<std::vector<Placed>> perHall(p.halls.size());
    g.rackHall.assign(p.racks.size(), -1);
    g.hallRacks.resize(p.halls.size());
    g.racksOutside.resize(p.halls.size());
    g.racksOverlap.resize(p.halls.size());
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
        perHall[lastHall].push_back(
            {footprint(r.x.value(), r.y.value(), d.width, d.depth, r.rotationDeg), i});
        g.rackHall[i] = static_cast<std::int32_t>(lastHall);
        g.hallRacks[lastHall].push_back(static_cast<std::uint32_t>(i));
    }
    for (size_t h = 0; h < p.halls.size(); ++h)
        hallFindings(p, p.halls[h], perHall[h], g.racksOutside[h], g.racksOverlap[h]);

    // CDUs inside their halls, capped per hall.
    std::vector<ParentCap> cdusOfHall(p.halls.size());
    for (const auto& l : p.coolingLoops) {
        const auto h = hallAt.find(l.hall);
        if (h == hallAt.end()) continue;
        const auto& hall = p.halls[h->second];
        const Dims& d = dims.get(l.cduType);
        if (!d.known) continue;
        for (size_t i = 0; i < l.cdus.size(); ++i) {
            const Box box{l.cdus[i].xM, l.cdus[i].yM, l.cdus[i].xM + d.width, l.cdus[i].yM + d.depth};
            const Overhang o = overhang(box, hall.width.value(), hall.depth.value());
            if (o.by > kTolerance && cdusOfHall[h->second].list())
                g.cdusOutside.listed.push_back({Severity::Error, "cdu_outside_hall", l.id,
                                                "CDU " + std::to_string(i + 1) + " of loop " + nameOf(l) +
                                                    " sticks out of hall " + nameOf(hall) + " by " +
                                                    metres(o.by) + " (" + o.where() + ")"});
        }
    }
    for (size_t h = 0; h < p.halls.size(); ++h)
        if (cdusOfHall[h].over())
            cdusOfHall[h].finish(g.cdusOutside, "cdu_outside_hall", "in hall " + nameOf(p.halls[h]),
                                 p.halls[h].id);
    return g;
}

std::vector<DesignRule> GeometryFindings::rules() const {
    std::vector<DesignRule> out;
    {
        Findings findings(out);
        findings.add(buildingsOverlap);
        findings.add(hallsOutside);
        for (const auto& hall : racksOutside)
            findings.add(hall);
        for (const auto& hall : racksOverlap)
            findings.add(hall);
        findings.add(cdusOutside);
    } // the last lines are added when `findings` goes
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
        if (!dims.get(r.rackType).known) after = -1;
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
        hallFindings(p, p.halls[hi], placed, g.racksOutside[hi], g.racksOverlap[hi]);
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
