#include "campus_scene_builder.h"

#include "catalog.h"
#include "evaluate.h"
#include "project.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <sstream>

namespace ctwin::views {

namespace {

bool finite(double v) {
    return std::isfinite(v);
}

/// Plan (x right, y down the floor plan) to world (y up, z up); see Vec3.
Vec3 toWorld(double planX, double planY, double z) {
    return {planX, -planY, z};
}

double catalogValue(const model::CatalogItem* item, const char* field, double fallback) {
    if (!item) return fallback;
    const auto* v = item->find(field);
    return v && finite(v->base) && v->base > 0.0 ? v->base : fallback;
}

std::string quoted(const std::string& s) {
    return "'" + s + "'";
}

/// "a, b, c and 4 more" for notices.
std::string listSome(const std::vector<std::string>& items, std::size_t show = 3) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < show; ++i)
        out += (i ? ", " : "") + quoted(items[i]);
    if (items.size() > show) out += " and " + std::to_string(items.size() - show) + " more";
    return out;
}

void grow(std::array<double, 6>& b, const Vec3& p, bool& any) {
    if (!any) {
        b = {p[0], p[0], p[1], p[1], p[2], p[2]};
        any = true;
        return;
    }
    for (int i = 0; i < 3; ++i) {
        b[2 * i] = std::min(b[2 * i], p[i]);
        b[2 * i + 1] = std::max(b[2 * i + 1], p[i]);
    }
}

} // namespace

CampusSceneBuilder::CampusSceneBuilder(const model::Project& project, const model::Catalog& catalog) {
    for (std::size_t i = 0; i < project.sites.size(); ++i)
        m_siteIndex.emplace(project.sites[i].id, i);
    for (std::size_t i = 0; i < project.buildings.size(); ++i)
        m_buildingIndex.emplace(project.buildings[i].id, i);
    for (std::size_t i = 0; i < project.halls.size(); ++i)
        m_hallIndex.emplace(project.halls[i].id, i);
    for (std::size_t i = 0; i < project.rows.size(); ++i)
        m_rowIndex.emplace(project.rows[i].id, i);
    for (std::size_t i = 0; i < project.racks.size(); ++i)
        m_rackIndex.emplace(project.racks[i].id, i);
    for (std::size_t i = 0; i < project.coolingLoops.size(); ++i) {
        m_loopIndex.emplace(project.coolingLoops[i].id, i);
        const auto& l = project.coolingLoops[i];
        m_loopNames.push_back(l.name.empty() ? l.id : l.name);
    }

    // Site frames: each site's campus keeps its own coordinates; sites after the first are shifted east so
    // their campuses do not overlap. Buildings whose site is unknown form one more campus (key "").
    std::vector<std::string> siteOrder;
    for (const auto& s : project.sites)
        siteOrder.push_back(s.id);
    siteOrder.push_back("");
    for (const auto& b : project.buildings) {
        const std::string key = m_siteIndex.count(b.site) ? b.site : std::string();
        auto& f = m_siteFrames[key];
        const double x0 = b.x.value(), y0 = b.y.value();
        const double x1 = x0 + std::max(0.0, b.width.value()), y1 = y0 + std::max(0.0, b.depth.value());
        if (!finite(x0) || !finite(y0) || !finite(x1) || !finite(y1)) continue;
        if (!f.hasBuildings) f.minX = x0, f.minY = y0, f.maxX = x1, f.maxY = y1;
        f.minX = std::min(f.minX, x0), f.minY = std::min(f.minY, y0);
        f.maxX = std::max(f.maxX, x1), f.maxY = std::max(f.maxY, y1);
        f.hasBuildings = true;
    }
    double nextX = 0.0;
    bool first = true;
    for (const auto& id : siteOrder) {
        auto it = m_siteFrames.find(id);
        if (it == m_siteFrames.end() || !it->second.hasBuildings) continue;
        auto& f = it->second;
        f.offsetX = first ? 0.0 : nextX - f.minX;
        nextX = f.offsetX + f.maxX + kSiteGapM;
        first = false;
    }

    m_hallFrames.resize(project.halls.size());
    for (std::size_t i = 0; i < project.halls.size(); ++i) {
        const auto& h = project.halls[i];
        const auto b = m_buildingIndex.find(h.building);
        if (b == m_buildingIndex.end()) continue;
        const auto& bld = project.buildings[b->second];
        const auto site = m_siteFrames.find(m_siteIndex.count(bld.site) ? bld.site : std::string());
        const double offset = site == m_siteFrames.end() ? 0.0 : site->second.offsetX;
        HallFrame f{offset + bld.x.value() + h.x.value(), bld.y.value() + h.y.value(), true};
        f.ok = finite(f.x) && finite(f.y);
        m_hallFrames[i] = f;
    }

    for (const auto& r : project.racks) {
        if (m_rackTypes.count(r.rackType)) continue;
        m_typeOrder.push_back(r.rackType);
        RackType t;
        const auto* item = catalog.find(r.rackType);
        t.known = item != nullptr;
        t.name = item && !item->name.empty() ? item->name : r.rackType;
        t.width = catalogValue(item, "width_m", 0.6);
        t.depth = catalogValue(item, "depth_m", 1.2);
        t.height = catalogValue(item, "height_m", kDefaultRackHeightM);
        t.loadW = catalogValue(item, "power_load_w", std::numeric_limits<double>::quiet_NaN());
        t.idleW = catalogValue(item, "power_idle_w", t.loadW);
        m_rackTypes.emplace(r.rackType, t);
    }
    for (const auto& l : project.coolingLoops) {
        if (m_cduSizes.count(l.cduType)) continue;
        const auto* item = catalog.find(l.cduType);
        m_cduSizes.emplace(l.cduType, std::make_pair(catalogValue(item, "width_m", 0.8),
                                                     catalogValue(item, "depth_m", 1.2)));
    }
}

std::optional<CampusSceneBuilder::HallFrame>
CampusSceneBuilder::hallFrameOfRow(const model::Project& project, const std::string& rowId) const {
    const auto row = m_rowIndex.find(rowId);
    if (row == m_rowIndex.end() || row->second >= project.rows.size()) return std::nullopt;
    const auto hall = m_hallIndex.find(project.rows[row->second].hall);
    if (hall == m_hallIndex.end() || !m_hallFrames[hall->second].ok) return std::nullopt;
    return m_hallFrames[hall->second];
}

void CampusSceneBuilder::placeRack(const model::Project& project, const model::RackPlacement& rack,
                                   RackInstance& out) const {
    out.id = rack.id;
    out.name = rack.name;
    out.rackType = rack.rackType;
    out.rowId = rack.row;
    out.coolingLoop = rack.coolingLoop;
    out.spare = rack.spare;
    const auto type = m_rackTypes.find(rack.rackType);
    if (type != m_rackTypes.end()) {
        out.width = type->second.width, out.depth = type->second.depth, out.height = type->second.height;
    }
    const auto frame = hallFrameOfRow(project, rack.row);
    const double x = rack.x.value(), y = rack.y.value();
    out.placed = frame.has_value() && finite(x) && finite(y) && finite(rack.rotationDeg);
    if (!out.placed) return;
    out.hall = m_hallIndex.at(project.rows[m_rowIndex.at(rack.row)].hall);
    // Rack positions are the centre of the footprint within the hall (data/FORMAT.md §3).
    out.base = toWorld(frame->x + x, frame->y + y, 0.0);
    out.rotationDeg = -rack.rotationDeg;
}

void CampusSceneBuilder::setResults(CampusSceneData& data, const cost::Results* results) {
    data.loopMargins.clear();
    data.hasResults = results != nullptr;
    if (!results) return;
    for (const auto& l : results->bom.loops) {
        const double cap = l.installedCapacity.value(), heat = l.liquidHeat.value();
        // Headroom of the loop with its redundant CDUs out, in % of that capacity (the engine's
        // installedCapacity already excludes the redundant units); no capacity but some heat = overloaded.
        double m = cap > 0.0 ? (cap - heat) / cap * 100.0 : (heat > 0.0 ? -100.0 : 100.0);
        if (!finite(m)) m = -100.0;
        data.loopMargins[l.loopId] = m;
    }
}

double CampusSceneBuilder::metricValue(const RackInstance& rack, const CampusSceneData& data) const {
    constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
    switch (data.metric) {
    case ColorMetric::PowerDensity: {
        const auto t = m_rackTypes.find(rack.rackType);
        if (t == m_rackTypes.end()) return kNaN;
        // A hot spare is installed and powered at idle (RackPlacement::spare).
        return (rack.spare ? t->second.idleW : t->second.loadW) / 1e3;
    }
    case ColorMetric::ThermalMargin: {
        const auto m = data.loopMargins.find(rack.coolingLoop);
        return m == data.loopMargins.end() ? kNaN : m->second;
    }
    case ColorMetric::RackType: {
        const auto it = std::find(m_typeOrder.begin(), m_typeOrder.end(), rack.rackType);
        return it == m_typeOrder.end() ? kNaN : static_cast<double>(it - m_typeOrder.begin());
    }
    case ColorMetric::CoolingLoop:
        break;
    }
    const auto l = m_loopIndex.find(rack.coolingLoop);
    return l == m_loopIndex.end() ? kNaN : static_cast<double>(l->second);
}

namespace {
bool dimmed(const CampusSceneData& data, const RackInstance& r) {
    return r.hall < data.dimmedHalls.size() && data.dimmedHalls[r.hall];
}
} // namespace

bool CampusSceneBuilder::recolour(CampusSceneData& data, const std::vector<std::size_t>* only) const {
    const bool all = recolourByMetric(data, only);
    if (std::find(data.dimmedHalls.begin(), data.dimmedHalls.end(), true) == data.dimmedHalls.end())
        return all;
    if (all || !only) {
        for (auto& r : data.racks)
            if (dimmed(data, r)) r.color = kDimmedRack;
    } else {
        for (std::size_t i : *only)
            if (dimmed(data, data.racks[i])) data.racks[i].color = kDimmedRack;
    }
    return all;
}

bool CampusSceneBuilder::recolourByMetric(CampusSceneData& data, const std::vector<std::size_t>* only) const {
    const ColorMetric metric = data.metric;
    const auto& margins = data.loopMargins;
    const auto colourOf = [metric](const ColorRamp& ramp, double v) {
        if (!colorMetricIsCategorical(metric)) return ramp.at(v);
        return std::isnan(v) ? ColorRamp::kNoData : ColorRamp::categorical(static_cast<std::size_t>(v));
    };

    if (only && !colorMetricIsCategorical(metric) && data.legend.stops.empty()) only = nullptr;
    if (only && metric == ColorMetric::PowerDensity) {
        // A value outside the legend's range means a new range: recolour everything.
        const double lo = data.legend.stops.front().value, hi = data.legend.stops.back().value;
        for (std::size_t i : *only) {
            const double v = metricValue(data.racks[i], data);
            if (!std::isnan(v) && (v < lo || v > hi)) only = nullptr;
            if (!only) break;
        }
    }
    if (only) {
        const ColorRamp ramp(data.legend.stops);
        for (std::size_t i : *only) {
            auto& r = data.racks[i];
            r.value = metricValue(r, data);
            r.color = colourOf(ramp, r.value);
        }
        return false;
    }

    // Everything: values, the legend, then colours.
    for (auto& r : data.racks)
        r.value = metricValue(r, data);
    Legend legend;
    legend.title = colorMetricTitle(metric);
    bool anyNoData = false;
    for (const auto& r : data.racks)
        anyNoData = anyNoData || (r.placed && std::isnan(r.value));
    switch (metric) {
    case ColorMetric::PowerDensity: {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const auto& r : data.racks)
            if (r.placed && !std::isnan(r.value)) lo = std::min(lo, r.value), hi = std::max(hi, r.value);
        if (!(hi >= lo)) lo = 0.0, hi = 1.0;
        if (hi - lo < 1e-9) lo = std::min(0.0, lo), hi = std::max(hi, lo + 1.0);
        legend.stops = ColorRamp::viridis(lo, hi).stops();
        break;
    }
    case ColorMetric::ThermalMargin:
        legend.stops = ColorRamp::thermalMargin().stops();
        break;
    case ColorMetric::RackType:
        for (std::size_t i = 0; i < m_typeOrder.size(); ++i)
            legend.categories.push_back({m_rackTypes.at(m_typeOrder[i]).name, ColorRamp::categorical(i)});
        break;
    case ColorMetric::CoolingLoop: {
        const std::size_t n = m_loopNames.size();
        for (std::size_t i = 0; i < n && i < ColorRamp::kCategoricalCount; ++i)
            legend.categories.push_back({m_loopNames[i], ColorRamp::categorical(i)});
        if (n > ColorRamp::kCategoricalCount)
            legend.title += " (" + std::to_string(n) + " loops, colours repeat)";
        break;
    }
    }
    if (anyNoData && colorMetricIsCategorical(metric))
        legend.categories.push_back(
            {metric == ColorMetric::CoolingLoop ? "air-cooled" : "unknown", ColorRamp::kNoData});
    data.legend = std::move(legend);
    static const std::string kNeedsResults =
        "Thermal margin needs an evaluation of the design; racks are drawn grey.";
    std::erase(data.notices, kNeedsResults);
    if (metric == ColorMetric::ThermalMargin && !data.hasResults) data.notices.push_back(kNeedsResults);
    const ColorRamp ramp(data.legend.stops);
    for (auto& r : data.racks)
        r.color = colourOf(ramp, r.value);

    // Pipes follow the loop colour for loop metrics, else water blue.
    for (auto& t : data.tubes) {
        Rgb c = Rgb::fromHex(0x8fb8de);
        if (metric == ColorMetric::ThermalMargin && data.hasResults) {
            const auto m = margins.find(t.loopId);
            c = m == margins.end() ? ColorRamp::kNoData : ramp.at(m->second);
        } else if (metric == ColorMetric::CoolingLoop) {
            const auto l = m_loopIndex.find(t.loopId);
            c = l == m_loopIndex.end() ? ColorRamp::kNoData : ColorRamp::categorical(l->second);
        }
        t.color = c;
    }
    return true;
}

void CampusSceneBuilder::rebuildTubes(CampusSceneData& data) const {
    // For each (loop, row): the racks the loop serves in that row, projected on the row's run direction.
    struct Run {
        std::vector<std::size_t> racks;
    };
    std::map<std::pair<std::string, std::string>, Run> runs;
    for (std::size_t i = 0; i < data.racks.size(); ++i) {
        const auto& r = data.racks[i];
        if (!r.placed || r.coolingLoop.empty() || !m_loopIndex.count(r.coolingLoop)) continue;
        runs[{r.coolingLoop, r.rowId}].racks.push_back(i);
    }
    std::unordered_map<std::string, std::vector<Vec3>> cdusOfLoop;
    for (const auto& c : data.cdus)
        cdusOfLoop[c.loopId].push_back({c.base[0], c.base[1], c.height});
    std::vector<TubePath> tubes;
    for (const auto& [key, run] : runs) {
        const auto& first = data.racks[run.racks.front()];
        const double a = first.rotationDeg * std::numbers::pi / 180.0;
        const double ux = std::cos(a), uy = std::sin(a);
        double lo = std::numeric_limits<double>::infinity(), hi = -lo, zTop = 0.0;
        Vec3 loP{}, hiP{};
        for (std::size_t i : run.racks) {
            const auto& r = data.racks[i];
            const double s = r.base[0] * ux + r.base[1] * uy;
            if (s < lo) lo = s, loP = r.base;
            if (s > hi) hi = s, hiP = r.base;
            zTop = std::max(zTop, r.height);
        }
        // Overhead pipe 0.35 m above the tallest rack of the run.
        const double z = zTop + 0.35;
        Vec3 a0{loP[0], loP[1], z}, a1{hiP[0], hiP[1], z};
        TubePath t;
        t.loopId = key.first;
        t.rowId = key.second;
        const auto cdus = cdusOfLoop.find(key.first);
        if (cdus != cdusOfLoop.end() && !cdus->second.empty()) {
            // Feed from the CDU nearest to either end of the run.
            double best = std::numeric_limits<double>::infinity();
            Vec3 cdu{};
            bool feedLo = true;
            for (const auto& c : cdus->second) {
                for (int end = 0; end < 2; ++end) {
                    const Vec3& e = end == 0 ? a0 : a1;
                    const double d = std::hypot(c[0] - e[0], c[1] - e[1]);
                    if (d < best) best = d, cdu = c, feedLo = end == 0;
                }
            }
            t.points.push_back(cdu);
            t.points.push_back({cdu[0], cdu[1], z});
            if (!feedLo) std::swap(a0, a1);
        }
        t.points.push_back(a0);
        t.points.push_back(a1);
        // Drop repeated points: a tube needs distinct consecutive points.
        std::vector<Vec3> clean;
        for (const auto& p : t.points)
            if (clean.empty() || std::hypot(std::hypot(p[0] - clean.back()[0], p[1] - clean.back()[1]),
                                            p[2] - clean.back()[2]) > 1e-3)
                clean.push_back(p);
        if (clean.size() < 2) {
            // A single rack with no CDU: a short riser above it so the loop still shows.
            clean = {{a0[0], a0[1], zTop}, {a0[0], a0[1], z + 0.3}};
        }
        t.points = std::move(clean);
        t.color = Rgb::fromHex(0x8fb8de);
        tubes.push_back(std::move(t));
    }
    // Keep colours of existing tubes (same loop) so a geometry refresh does not need a recolour.
    std::unordered_map<std::string, Rgb> colours;
    for (const auto& t : data.tubes)
        colours[t.loopId] = t.color;
    for (auto& t : tubes)
        if (const auto c = colours.find(t.loopId); c != colours.end()) t.color = c->second;
    data.tubes = std::move(tubes);
}

CampusSceneData CampusSceneBuilder::build(const SceneSource& source, ColorMetric metric) const {
    const model::Project& p = source.project;
    CampusSceneData d;
    d.metric = metric;
    bool any = false;
    std::array<double, 6> bounds{};

    // Site grounds (20 m margin around the buildings) and, with several sites, their names.
    const bool manySites = m_siteFrames.size() > 1 || p.sites.size() > 1;
    for (const auto& [id, f] : m_siteFrames) {
        if (!f.hasBuildings) continue;
        constexpr double kMargin = 20.0;
        BoxShape g;
        g.id = id;
        const auto s = m_siteIndex.find(id);
        g.name = s == m_siteIndex.end() ? "(no site)"
                                        : (p.sites[s->second].name.empty() ? id : p.sites[s->second].name);
        g.min = toWorld(f.offsetX + f.minX - kMargin, f.maxY + kMargin, -0.05);
        g.size = {f.maxX - f.minX + 2 * kMargin, f.maxY - f.minY + 2 * kMargin, 0.05};
        if (manySites)
            d.labels.push_back({g.name, toWorld(f.offsetX + (f.minX + f.maxX) / 2, f.minY - kMargin, 30.0)});
        d.grounds.push_back(std::move(g));
    }
    std::sort(d.grounds.begin(), d.grounds.end(),
              [](const BoxShape& a, const BoxShape& b) { return a.min[0] < b.min[0]; });
    for (const auto& g : d.grounds) {
        grow(bounds, g.min, any);
        grow(bounds, {g.min[0] + g.size[0], g.min[1] + g.size[1], g.min[2] + g.size[2]}, any);
    }

    std::vector<std::string> flatBuildings, flatHalls, unknownTypes;
    for (const auto& b : p.buildings) {
        const auto s = m_siteFrames.find(m_siteIndex.count(b.site) ? b.site : std::string());
        const double offset = s == m_siteFrames.end() ? 0.0 : s->second.offsetX;
        const double w = b.width.value(), dep = b.depth.value(), h = b.height.value();
        if (!finite(b.x.value()) || !finite(b.y.value()) || !(w > 0.0) || !(dep > 0.0) || !finite(w) ||
            !finite(dep)) {
            flatBuildings.push_back(b.name.empty() ? b.id : b.name);
            continue;
        }
        BoxShape box;
        box.id = b.id;
        box.name = b.name.empty() ? b.id : b.name;
        // The footprint's plan corner (x, y) is its north-west corner; in world y it is the max.
        box.min = toWorld(offset + b.x.value(), b.y.value() + dep, 0.0);
        box.size = {w, dep, h > 0.0 && finite(h) ? h : 10.0};
        grow(bounds, box.min, any);
        grow(bounds, {box.min[0] + w, box.min[1] + dep, box.size[2]}, any);
        d.labels.push_back({box.name, {box.min[0] + w / 2, box.min[1] + dep / 2, box.size[2] + 4.0}});
        d.buildings.push_back(std::move(box));
    }
    for (std::size_t i = 0; i < p.halls.size(); ++i) {
        const auto& h = p.halls[i];
        const auto& f = m_hallFrames[i];
        const double w = h.width.value(), dep = h.depth.value();
        if (!f.ok || !(w > 0.0) || !(dep > 0.0) || !finite(w) || !finite(dep)) {
            flatHalls.push_back(h.name.empty() ? h.id : h.name);
            continue;
        }
        BoxShape box;
        box.id = h.id;
        box.name = h.name.empty() ? h.id : h.name;
        box.min = toWorld(f.x, f.y + dep, 0.0);
        box.size = {w, dep, 0.05};
        grow(bounds, box.min, any);
        grow(bounds, {box.min[0] + w, box.min[1] + dep, 0.05}, any);
        d.halls.push_back(std::move(box));
    }

    // Racks, grouped by type (one instanced glyph set per type).
    std::unordered_map<std::string, std::size_t> groupOfType;
    std::size_t unplaced = 0;
    d.racks.resize(p.racks.size());
    for (std::size_t i = 0; i < p.racks.size(); ++i) {
        auto& r = d.racks[i];
        placeRack(p, p.racks[i], r);
        d.rackIndex.emplace(r.id, i);
        if (!r.placed) {
            ++unplaced;
            continue;
        }
        auto g = groupOfType.find(r.rackType);
        if (g == groupOfType.end()) {
            g = groupOfType.emplace(r.rackType, d.rackGroups.size()).first;
            d.rackGroups.push_back({r.rackType, r.width, r.depth, r.height, {}});
        }
        r.group = g->second;
        r.indexInGroup = d.rackGroups[g->second].racks.size();
        d.rackGroups[g->second].racks.push_back(i);
        grow(bounds, r.base, any);
        grow(bounds, {r.base[0], r.base[1], r.height}, any);
    }
    for (const auto& [id, t] : m_rackTypes)
        if (!t.known) unknownTypes.push_back(id);

    // Racks stacked on one spot usually mean the positions were never set.
    std::size_t stacked = 0;
    {
        std::set<std::array<long long, 2>> seen;
        for (const auto& r : d.racks) {
            if (!r.placed) continue;
            const std::array<long long, 2> key{std::llround(r.base[0] * 100.0),
                                               std::llround(r.base[1] * 100.0)};
            if (!seen.insert(key).second) ++stacked;
        }
    }

    // CDUs of each loop, in its hall's frame.
    for (const auto& l : p.coolingLoops) {
        const auto h = m_hallIndex.find(l.hall);
        if (h == m_hallIndex.end() || !m_hallFrames[h->second].ok) continue;
        const auto& f = m_hallFrames[h->second];
        const auto size = m_cduSizes.find(l.cduType);
        for (const auto& c : l.cdus) {
            if (!finite(c.xM) || !finite(c.yM)) continue;
            CduInstance cdu;
            cdu.loopId = l.id;
            cdu.base = toWorld(f.x + c.xM, f.y + c.yM, 0.0);
            if (size != m_cduSizes.end()) cdu.width = size->second.first, cdu.depth = size->second.second;
            cdu.height = kCduHeightM;
            grow(bounds, cdu.base, any);
            d.cdus.push_back(cdu);
        }
    }
    rebuildTubes(d);
    setResults(d, source.results);
    recolour(d, nullptr);

    if (any) d.bounds = bounds;
    // Notices: what could not be drawn, and why.
    if (!any) d.notices.push_back("Nothing to draw: the design has no buildings, halls or placed racks.");
    if (unplaced)
        d.notices.push_back(std::to_string(unplaced) +
                            " rack(s) not drawn: their row, hall or building is missing.");
    if (stacked)
        d.notices.push_back(
            std::to_string(stacked) +
            " rack(s) share a position with another rack (positions missing?); drawn stacked.");
    if (!flatBuildings.empty())
        d.notices.push_back(
            "Building(s) without a footprint (zero width or depth): " + listSome(flatBuildings) + ".");
    if (!flatHalls.empty())
        d.notices.push_back("Hall(s) without a floor size: " + listSome(flatHalls) +
                            "; only their racks are drawn.");
    if (!unknownTypes.empty())
        d.notices.push_back(
            "Rack type(s) not in the catalog, drawn grey at a default size: " + listSome(unknownTypes) + ".");
    return d;
}

bool CampusSceneBuilder::updateRack(CampusSceneData& data, const model::Project& project,
                                    const std::string& rackId) const {
    const auto inData = data.rackIndex.find(rackId);
    const auto inProject = m_rackIndex.find(rackId);
    if (inData == data.rackIndex.end() || inProject == m_rackIndex.end() ||
        inProject->second >= project.racks.size())
        return false;
    const auto& rack = project.racks[inProject->second];
    if (rack.id != rackId) return false;
    RackInstance& r = data.racks[inData->second];
    const bool wasPlaced = r.placed;
    const std::string oldType = r.rackType;
    RackInstance next = r;
    placeRack(project, rack, next);
    // A new type means another glyph set, and (un)placing changes the glyph count: rebuild.
    if (next.rackType != oldType || next.placed != wasPlaced) return false;
    next.group = r.group;
    next.indexInGroup = r.indexInGroup;
    r = std::move(next);
    return true;
}

} // namespace ctwin::views
