#include "cdu_layout.h"

#include <QRectF>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ctwin::app {

double catalogValue(const model::Catalog& c, const std::string& id, const char* field, double fallback) {
    if (const auto* item = c.find(id))
        if (const auto* v = item->find(field)) return v->base;
    return fallback;
}

std::vector<QPointF> freeCduSpots(const model::Project& p, const model::Catalog& catalog,
                                  const std::string& hall, const std::string& type, int count) {
    const model::DataHall* h = nullptr;
    for (const auto& x : p.halls)
        if (x.id == hall) h = &x;
    std::vector<QPointF> out;
    if (!h) return out;
    const double w = catalogValue(catalog, type, "width_m", 1.2),
                 d = catalogValue(catalog, type, "depth_m", 1.2);
    std::vector<QRectF> taken;
    std::vector<std::string> rows;
    for (const auto& r : p.rows)
        if (r.hall == hall) rows.push_back(r.id);
    for (const auto& r : p.racks)
        if (std::find(rows.begin(), rows.end(), r.row) != rows.end()) {
            const double rw = catalogValue(catalog, r.rackType, "width_m", 0.6);
            const double rd = catalogValue(catalog, r.rackType, "depth_m", 1.2);
            const bool side = static_cast<long>(std::lround(r.rotationDeg / 90.0)) % 2 != 0;
            taken.emplace_back(r.x.value(), r.y.value(), side ? rd : rw, side ? rw : rd);
        }
    for (const auto& l : p.coolingLoops)
        if (l.hall == hall)
            for (const auto& c : l.cdus)
                taken.emplace_back(c.xM, c.yM, catalogValue(catalog, l.cduType, "width_m", 1.2),
                                   catalogValue(catalog, l.cduType, "depth_m", 1.2));
    const double gap = 0.6;
    for (double x = gap; x + w <= h->width.value() && static_cast<int>(out.size()) < count; x += w + gap)
        for (double y = gap; y + d <= h->depth.value() && static_cast<int>(out.size()) < count;
             y += d + gap) {
            const QRectF spot(x, y, w, d);
            const QRectF inner = spot.adjusted(1e-3, 1e-3, -1e-3, -1e-3);
            if (std::none_of(taken.begin(), taken.end(),
                             [&](const QRectF& t) { return t.intersects(inner); })) {
                out.emplace_back(x, y);
                taken.push_back(spot.adjusted(0, 0, 0, 0));
            }
        }
    return out;
}

std::vector<model::Point2> resizedCduLayout(const model::Project& p, const model::Catalog& catalog,
                                            const model::CoolingLoop& loop, int count) {
    std::vector<model::Point2> out(
        loop.cdus.begin(),
        loop.cdus.begin() +
            std::min<std::ptrdiff_t>(std::max(count, 0), static_cast<std::ptrdiff_t>(loop.cdus.size())));
    const int missing = count - static_cast<int>(out.size());
    if (missing <= 0) return out;
    // The loop's installed CDUs are all on the plan already, so the new ones go around them.
    const auto spots = freeCduSpots(p, catalog, loop.hall, loop.cduType, missing);
    if (static_cast<int>(spots.size()) < missing)
        throw std::runtime_error("only " + std::to_string(out.size() + spots.size()) + " of the " +
                                 std::to_string(count) + " CDUs of loop '" +
                                 (loop.name.empty() ? loop.id : loop.name) +
                                 "' fit on the free floor of its hall");
    for (const QPointF& s : spots)
        out.push_back({s.x(), s.y()});
    return out;
}

} // namespace ctwin::app
