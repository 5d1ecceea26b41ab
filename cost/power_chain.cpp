#include "power_chain.h"

#include "compiled_design.h"
#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;

namespace {

/// Rounding guard: a load of exactly n modules needs n, not n + 1.
constexpr double kCeilEps = 1e-9;

double ceilUnits(double loadW, double ratingW) {
    if (loadW <= 0 || ratingW <= 0) return 0.0;
    return std::ceil(loadW / ratingW - kCeilEps);
}

/// The default chain of a building without feeds (the capex stage's long-standing default: no generator).
const char* const kDefaultChain[] = {"xfmr-mv", "switchgear-lv", "ups-static", "busway-row"};

/// Building of each row: row -> hall -> building.
std::unordered_map<std::string, std::string> buildingByRow(const model::Project& p) {
    std::unordered_map<std::string, std::string> hallBuilding, out;
    for (const auto& h : p.halls)
        hallBuilding[h.id] = h.building;
    for (const auto& row : p.rows)
        if (auto h = hallBuilding.find(row.hall); h != hallBuilding.end()) out[row.id] = h->second;
    return out;
}

} // namespace

// sizePowerChain caps a unit's rating m at one system's share of the load (L, L/2, L/3; moduleRating
// below): small buildings buy small units.
double topologyUnits(const std::string& topology, double loadW, double moduleRatingW) {
    // Schneider Electric WP 75: N+1 adds one module to a parallel system; 2N duplicates the whole system;
    // distributed redundant spreads the load over k systems, each rated at L/(k-1) so that any k-1 carry it
    // (3/2: three systems at 50 %; 4/3: four at 33 %; M. Fluegeman, "2(N+1) and 3N/2 Redundancy",
    // FacilitiesNet 2017).
    const double n = ceilUnits(loadW, moduleRatingW);
    if (n <= 0) return 0.0;
    if (topology == "N") return n;
    if (topology == "N+1") return n + 1;
    if (topology == "3/2") return 3 * ceilUnits(loadW / 2, moduleRatingW);
    if (topology == "4/3") return 4 * ceilUnits(loadW / 3, moduleRatingW);
    return 2 * n; // 2N
}

int topologyPaths(const std::string& topology) {
    return topology == "N" || topology == "N+1" ? 1 : 2;
}

namespace {
/// A unit's rating: the catalog's module_w (the largest unit bought; required of shipped power items), but
/// never more than one system's share of the load, since gear comes in smaller sizes too: a 0.2 MW building
/// buys a 0.2 MW transformer, not a 3 MW one. A hand-made catalog item without module_w is one unit per
/// system.
double moduleRating(const model::CatalogItem& item, const std::string& topology, double loadW) {
    const double system = topology == "3/2" ? loadW / 2 : topology == "4/3" ? loadW / 3 : loadW;
    if (const auto* m = item.find("module_w"); m && m->base > 0)
        return system > 0 ? std::min(m->base, system) : m->base;
    return system;
}
} // namespace

const PowerChainLine* BuildingPowerChain::line(const std::string& componentClass) const {
    for (const auto& l : lines)
        if (l.componentClass == componentClass) return &l;
    return nullptr;
}

BuildingPowerChain sizePowerChain(const model::Project& p, const model::Catalog& catalog,
                                  const model::Building& building, Power criticalLoad, Power facilityPeak) {
    BuildingPowerChain chain;
    chain.buildingId = building.id;
    chain.topology = building.powerTopology;
    chain.facilityPeak = facilityPeak;
    chain.criticalLoad = criticalLoad;

    std::vector<const model::PowerFeed*> feeds;
    for (const auto& f : p.powerFeeds)
        if (f.building == building.id) feeds.push_back(&f);
    // Classes present, first catalog item of each kind along the feeds' chains, in chain order.
    std::vector<const model::CatalogItem*> items;
    auto addItem = [&](const model::CatalogItem* item) {
        if (!item) return;
        for (const auto* it : items)
            if (it->kind == item->kind) return;
        items.push_back(item);
    };
    if (feeds.empty()) {
        for (const char* id : kDefaultChain)
            addItem(catalog.find(id));
    } else {
        for (const auto* f : feeds)
            for (const auto& id : f->chain)
                addItem(catalog.find(id));
    }

    const double critical = chain.criticalLoad.value();
    for (const auto* item : items) {
        PowerChainLine l;
        l.componentClass = item->kind;
        l.catalogId = item->id;
        l.usdPerW = item->value("capex_usd_per_w");
        const double eta = item->value("efficiency");
        l.fullLoadLoss = eta > 0 && eta <= 1 ? 1.0 / eta - 1.0 : 0.0;
        auto fraction = [&](const char* key) {
            const auto* v = item->find(key);
            return v && std::isfinite(v->base) ? std::clamp(v->base, 0.0, l.fullLoadLoss) : 0.0;
        };
        l.noLoadLoss = fraction("no_load_loss_fraction");
        l.squareLawLoss = std::min(fraction("square_law_loss_fraction"), l.fullLoadLoss - l.noLoadLoss);
        l.upstream = item->kind == "transformer" || item->kind == "switchgear";
        if (item->kind == "busway") {
            // Busway runs per feed (each path to the rows has its own), at the feed's capacity.
            l.sizedOn = chain.criticalLoad;
            if (feeds.empty()) {
                l.units = topologyPaths(chain.topology);
                l.installed = l.units * chain.criticalLoad;
            } else {
                l.units = static_cast<double>(feeds.size());
                for (const auto* f : feeds)
                    l.installed += f->capacity;
            }
            l.unitsForLoad = feeds.empty() ? 1.0 : static_cast<double>(std::max<size_t>(1, feeds.size() / 2));
            l.unitRating = l.units > 0 ? l.installed / l.units : Power{};
        } else if (item->kind == "generator") {
            // Generators carry the whole facility in an outage (IT, cooling, losses): sized on the facility
            // peak with one redundant set (N+1), the plant the Uptime Tier III/IV topology requires of
            // engine generators; an N topology has none redundant.
            const double rating = moduleRating(*item, "N", facilityPeak.value());
            l.sizedOn = facilityPeak;
            l.unitsForLoad = ceilUnits(facilityPeak.value(), rating);
            l.units = l.unitsForLoad > 0 && chain.topology != "N" ? l.unitsForLoad + 1 : l.unitsForLoad;
            l.unitRating = rating * watt;
            l.installed = l.units * l.unitRating;
        } else {
            // Transformers and switchgear carry everything the building draws (IT, plant, pumps, misc and
            // the losses below them): sized on the facility peak; the UPS on the critical load.
            const double load = l.upstream ? facilityPeak.value() : critical;
            const double rating = moduleRating(*item, chain.topology, load);
            l.sizedOn = (l.upstream ? facilityPeak.value() : critical) * watt;
            l.unitsForLoad = ceilUnits(load, rating);
            l.units = topologyUnits(chain.topology, load, rating);
            l.unitRating = rating * watt;
            l.installed = l.units * l.unitRating;
        }
        l.cost = l.usdPerW * l.installed.value() * usd;
        chain.cost += l.cost;
        chain.lines.push_back(l);
    }
    return chain;
}

double classLossW(const PowerChainLine& line, double throughW) {
    const double installed = line.installed.value();
    if (installed <= 0 || throughW <= 0) return 0.0;
    const double x = throughW / installed;
    const double proportional = line.fullLoadLoss - line.noLoadLoss - line.squareLawLoss;
    return installed * (line.noLoadLoss + proportional * x + line.squareLawLoss * x * x);
}

ChainLosses chainLosses(const BuildingPowerChain& chain, double itW, double pathEta, double pumpsW,
                        double nonItW) {
    ChainLosses out;
    out.itPathW = pathEta > 0 && itW > 0 ? itW / pathEta - itW : 0.0;
    // The non-IT load through the upstream classes at their full-load loss (1/prod eta - 1).
    double upstreamInverse = 1.0;
    for (const auto& l : chain.lines)
        if (l.upstream) upstreamInverse *= 1.0 + l.fullLoadLoss;
    out.nonItW = std::max(0.0, nonItW) * (upstreamInverse - 1.0);
    // The pumps ride on the UPS too (the critical load): its full-load loss on them.
    if (const auto* ups = chain.line("ups")) out.nonItW += std::max(0.0, pumpsW) * ups->fullLoadLoss;
    // Part-load correction per class: loss(P) - l P, the full-load part of which the two terms above hold.
    const double downstream = itW + std::max(0.0, pumpsW);
    double belowUpstream = itW + std::max(0.0, nonItW) + out.itPathW + out.nonItW;
    for (const auto& l : chain.lines) {
        if (l.componentClass == "generator") continue; // standby: no current in normal operation
        double through = l.upstream ? belowUpstream : l.componentClass == "ups" ? downstream : itW;
        if (through <= 0 || l.installed.value() <= 0) continue;
        out.partLoadW += classLossW(l, through) - l.fullLoadLoss * through;
    }
    return out;
}

namespace {
/// The nameplate draw of every class (CompiledDesign::classPeakW).
std::vector<double> classPeaksW(const CompiledDesign& cd) {
    std::vector<double> w(cd.classes.size());
    for (size_t i = 0; i < cd.classes.size(); ++i)
        w[i] = cd.classPeakW(cd.classes[i]);
    return w;
}
} // namespace

std::vector<double> feedDesignLoadsW(const model::Project& p, const CompiledDesign& cd) {
    return detail::feedDesignLoadsW(p, cd, classPeaksW(cd));
}

std::vector<double> rowDesignLoadsW(const model::Project& p, const CompiledDesign& cd) {
    return detail::rowDesignLoadsW(p, cd, classPeaksW(cd));
}

std::vector<double> detail::feedDesignLoadsW(const model::Project& p, const CompiledDesign& cd,
                                             const std::vector<double>& classW) {
    std::vector<double> load(p.powerFeeds.size(), 0.0);
    for (size_t i = 0; i < cd.classes.size() && i < classW.size(); ++i) {
        const auto& k = cd.classes[i];
        const double w = classW[i];
        for (const std::int32_t f : {k.feedA, k.feedB})
            if (f != CompiledDesign::kNone && static_cast<size_t>(f) < load.size())
                load[static_cast<size_t>(f)] += w;
        // A rack naming the same feed twice is counted once.
        if (k.feedA == k.feedB && k.feedA != CompiledDesign::kNone &&
            static_cast<size_t>(k.feedA) < load.size())
            load[static_cast<size_t>(k.feedA)] -= w;
    }
    return load;
}

std::vector<double> detail::rowDesignLoadsW(const model::Project& p, const CompiledDesign& cd,
                                            const std::vector<double>& classW) {
    std::vector<double> load(p.rows.size(), 0.0);
    for (size_t i = 0; i < cd.classes.size() && i < classW.size(); ++i) {
        const auto& k = cd.classes[i];
        if (k.row == CompiledDesign::kNone || static_cast<size_t>(k.row) >= load.size()) continue;
        load[static_cast<size_t>(k.row)] += classW[i];
    }
    return load;
}

double pathEfficiency(const model::Project& p, const model::Catalog& catalog, const std::string& buildingId) {
    auto chainEta = [&](const std::vector<std::string>& ids) {
        double eta = 1.0;
        for (const auto& g : ids)
            if (const auto* item = catalog.find(g)) eta *= item->value("efficiency");
        return eta;
    };
    std::unordered_map<std::string, double> etaByFeed;
    double meanInverse = 0;
    for (const auto& f : p.powerFeeds)
        if (f.building == buildingId) {
            etaByFeed[f.id] = chainEta(f.chain);
            meanInverse += 1.0 / std::max(etaByFeed[f.id], 1e-6);
        }
    if (etaByFeed.empty()) {
        double eta = 1.0;
        for (const char* g : kDefaultChain)
            if (const auto* item = catalog.find(g)) eta *= item->value("efficiency");
        return eta;
    }
    meanInverse /= static_cast<double>(etaByFeed.size());
    // P_in = sum over racks of P_rack x sum over its feeds of share / eta_feed.
    double it = 0, in = 0;
    const auto rowBuilding = buildingByRow(p);
    for (const auto& r : p.racks) {
        const auto rb = rowBuilding.find(r.row);
        if (rb == rowBuilding.end() || rb->second != buildingId) continue;
        const auto* type = catalog.find(r.rackType);
        const double w = type ? type->value("power_load_w") : 0.0;
        if (w <= 0) continue;
        const auto a = etaByFeed.find(r.feedA), b = etaByFeed.find(r.feedB);
        const bool hasA = a != etaByFeed.end(), hasB = b != etaByFeed.end();
        double inverse = meanInverse;
        if (hasA && hasB)
            inverse = 0.5 / a->second + 0.5 / b->second;
        else if (hasA || hasB)
            inverse = 1.0 / (hasA ? a->second : b->second);
        it += w, in += w * inverse;
    }
    return in > 0 ? it / in : 1.0 / meanInverse;
}

std::vector<double> pathEfficiencies(const model::Project& p, const model::Catalog& catalog,
                                     const CompiledDesign& cd) {
    // The same sums as pathEfficiency, every building at once: feeds and racks resolved to indices.
    const size_t nb = p.buildings.size(), nf = p.powerFeeds.size();
    std::vector<double> feedEta(nf, 1.0), meanInverse(nb, 0.0), feeds(nb, 0.0), it(nb, 0.0), in(nb, 0.0);
    std::vector<std::int32_t> feedBuilding(nf, CompiledDesign::kNone);
    for (size_t f = 0; f < nf; ++f) {
        const auto& feed = p.powerFeeds[f];
        for (const auto& g : feed.chain)
            if (const auto* item = catalog.find(g)) feedEta[f] *= item->value("efficiency");
        const std::int32_t b = cd.buildingIndex(feed.building);
        feedBuilding[f] = b;
        if (b == CompiledDesign::kNone) continue;
        meanInverse[static_cast<size_t>(b)] += 1.0 / std::max(feedEta[f], 1e-6);
        feeds[static_cast<size_t>(b)] += 1;
    }
    for (size_t b = 0; b < nb; ++b)
        if (feeds[b] > 0) meanInverse[b] /= feeds[b];
    // By rack class (cost/compiled_design.h): its racks share type, building and feeds.
    for (const auto& k : cd.classes) {
        const std::int32_t b = k.building;
        if (b == CompiledDesign::kNone) continue;
        const auto& type = cd.types[static_cast<size_t>(k.type)];
        const double w = k.count * type.need(type.powerLoadW, "power_load_w");
        if (w <= 0) continue;
        // A feed of this building (an unknown or another building's feed counts as none).
        auto feedOf = [&](std::int32_t f) {
            return f != CompiledDesign::kNone && static_cast<size_t>(f) < nf &&
                           feedBuilding[static_cast<size_t>(f)] == b
                       ? f
                       : CompiledDesign::kNone;
        };
        const std::int32_t fa = feedOf(k.feedA), fb = feedOf(k.feedB);
        const auto bi = static_cast<size_t>(b);
        double inverse = meanInverse[bi];
        if (fa != CompiledDesign::kNone && fb != CompiledDesign::kNone)
            inverse = 0.5 / feedEta[static_cast<size_t>(fa)] + 0.5 / feedEta[static_cast<size_t>(fb)];
        else if (fa != CompiledDesign::kNone || fb != CompiledDesign::kNone)
            inverse = 1.0 / feedEta[static_cast<size_t>(fa != CompiledDesign::kNone ? fa : fb)];
        it[bi] += w, in[bi] += w * inverse;
    }
    std::vector<double> out(nb);
    for (size_t b = 0; b < nb; ++b) {
        if (feeds[b] == 0) {
            double eta = 1.0;
            for (const char* g : kDefaultChain)
                if (const auto* item = catalog.find(g)) eta *= item->value("efficiency");
            out[b] = eta;
        } else {
            out[b] = in[b] > 0 ? it[b] / in[b] : 1.0 / meanInverse[b];
        }
    }
    return out;
}

} // namespace ctwin::cost
