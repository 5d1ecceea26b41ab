#include "format_number.h"
#include "liquid_loop.h"
#include "netbox.h"
#include "netbox_cooling.h"
#include "netbox_detail.h"

#include <algorithm>
#include <cmath>
#include <map>

// The import's cooling step (cost/netbox_cooling.h): NetBox 4.7 cooling sources and feeds to loops.
namespace ctwin::cost::netbox::detail {

using namespace ctwin::model;

CoolingLoop coolingLoopFromTag(const nlohmann::json& lj, const std::string& hall) {
    CoolingLoop c;
    c.id = tagText(lj, "id"), c.name = tagText(lj, "name"), c.hall = hall;
    c.cduType = tagText(lj, "cdu_type"), c.cduCount = static_cast<int>(tagNum(lj, "cdu_count", 0));
    c.redundancy = tagText(lj, "redundancy", c.redundancy);
    c.supplyTempC = tagNum(lj, "supply_temp_c", c.supplyTempC);
    c.deltaT = tagNum(lj, "delta_t_k", c.deltaT.value()) * units::kelvin;
    c.plant = tagText(lj, "plant");
    if (const auto cd = lj.find("cdus"); cd != lj.end() && cd->is_array())
        for (const auto& pt : *cd)
            if (pt.is_array() && pt.size() == 2 && pt[0].is_number() && pt[1].is_number())
                c.cdus.push_back(Point2{pt[0].get<double>(), pt[1].get<double>()});
    return c;
}

namespace {

bool isAirSource(const std::string& type) {
    return type == "crac" || type == "crah";
}
/// The catalog plant type a liquid NetBox source type stands for (netbox_detail.h); nullptr for another.
const char* plantTypeOf(const std::string& sourceType) {
    for (const auto& t : kSourcePlantTypes)
        if (sourceType == t.netbox) return t.plant;
    return nullptr;
}

struct Source {
    long long nbId = -1, site = -1;
    std::string hall, name, type, fluid;
    double capacityKw = 0;
    nlohmann::json tag;
    std::vector<size_t> racks; // indices in project.racks its feeds reach, in feed order
    size_t airFeeds = 0;
};

class CoolingImporter {
public:
    CoolingImporter(const Objects& sources, const Objects& feeds, CoolingImportContext& c)
        : m_sourceObjects(sources), m_feedObjects(feeds), m_c(c) {
        for (const auto& r : c.project.rows)
            m_rowHall[r.id] = r.hall;
    }

    void run() {
        readSources();
        readFeeds();
        for (auto& s : m_sources)
            loopsOf(s);
        const auto count = [](size_t n, const char* what) { return std::to_string(n) + " " + what; };
        if (m_noRack)
            m_c.log.push_back(count(m_noRack, "cooling feeds") +
                              " name no rack (a CDU or a room): ClusterTwin's loops serve racks; left out");
        if (m_fedTwice)
            m_c.log.push_back(count(m_fedTwice, "racks") + " fed by a second cooling source (first: " +
                              m_fedTwiceExample + "); each stays on the loop of its first feed");
        if (m_underRated)
            m_c.log.push_back(count(m_underRated, "cooling feeds") +
                              " rated below their rack's liquid heat (first: " + m_underRatedExample + ")");
    }

private:
    double liquidHeatW(size_t rack) const {
        return rackLiquidHeatW(m_c.catalog.find(m_c.project.racks[rack].rackType));
    }
    std::string hallOfRack(size_t rack) const { return m_rowHall.at(m_c.project.racks[rack].row); }
    std::string who(const Source& s) const {
        return "cooling source " + s.name + " (NetBox id " + std::to_string(s.nbId) + ")";
    }

    void readSources() {
        for (size_t i = 0; i < m_sourceObjects.items.size(); ++i) {
            const auto& o = m_sourceObjects.items[i];
            const std::string& file = m_sourceObjects.files[i];
            Source s;
            s.nbId = idOf(o, file, "cooling source");
            const auto [site, loc] = m_c.placeOf(o, file, "cooling source");
            s.site = site;
            s.hall = loc >= 0 ? m_c.hallOfLocation(loc) : std::string();
            s.name = text(o, "name");
            if (s.name.empty()) throw InputError(at(file, "cooling source", o, "name"), "missing");
            s.type = choiceOf(o, "type");
            if (!plantTypeOf(s.type) && !isAirSource(s.type))
                throw InputError(at(file, "cooling source", o, "type"),
                                 "'" + s.type +
                                     "' is not a NetBox cooling source type (chiller, cooling-tower, "
                                     "dry-cooler, crac, crah)");
            s.capacityKw = numberOf(o, "cooling_capacity", 0.0);
            if (!std::isfinite(s.capacityKw) || s.capacityKw < 0)
                throw InputError(at(file, "cooling source", o, "cooling_capacity"),
                                 "not a non-negative number of kW");
            s.fluid = choiceOf(o, "fluid_type");
            s.tag = tagOf(o, file, "cooling source");
            if (!m_index.emplace(s.nbId, m_sources.size()).second)
                throw InputError(at(file, "cooling source", o, "id"), "the id is used twice");
            m_sources.push_back(std::move(s));
        }
    }

    void readFeeds() {
        std::unordered_map<size_t, size_t> fedBy; // rack index -> source index
        for (size_t i = 0; i < m_feedObjects.items.size(); ++i) {
            const auto& o = m_feedObjects.items[i];
            const std::string& file = m_feedObjects.files[i];
            const auto src = m_index.find(refOf(o, "cooling_source", file, "cooling feed"));
            if (src == m_index.end())
                throw InputError(at(file, "cooling feed", o, "cooling_source"),
                                 "refers to a cooling source that is not in the files");
            Source& s = m_sources[src->second];
            const long long rack = refOf(o, "rack", file, "cooling feed");
            if (rack < 0) {
                ++m_noRack;
                continue;
            }
            if (!m_c.netboxRacks.count(rack))
                throw InputError(at(file, "cooling feed", o, "rack"),
                                 "refers to a rack that is not in the files");
            if (m_c.rackSite.at(rack) != s.site)
                throw InputError(at(file, "cooling feed", o, "rack"),
                                 "the rack is in another site than its cooling source " + s.name);
            const auto ri = m_c.rackIndex.find(rack);
            if (ri == m_c.rackIndex.end()) continue; // a rack left out (its type maps to nothing)
            if (isAirSource(s.type)) {
                ++s.airFeeds;
                continue;
            }
            const auto [it, fresh] = fedBy.emplace(ri->second, src->second);
            if (!fresh) {
                if (it->second != src->second && m_fedTwice++ == 0)
                    m_fedTwiceExample = "rack " + m_c.project.racks[ri->second].name + " by " + s.name;
                continue;
            }
            s.racks.push_back(ri->second);
            const double ratedKw = numberOf(o, "cooling_capacity", -1.0);
            const double heatKw = liquidHeatW(ri->second) / 1000.0;
            if (ratedKw >= 0 && ratedKw < heatKw * (1 - 1e-9) && m_underRated++ == 0)
                m_underRatedExample = text(o, "name") + ": " + formatNumber(ratedKw) + " kW for rack " +
                                      m_c.project.racks[ri->second].name + "'s " + formatNumber(heatKw) +
                                      " kW";
        }
    }

    /// The loop id `base`, or base-2, base-3, ... when it is taken.
    std::string claimId(const std::string& base) {
        std::string id = base;
        for (int n = 2; !m_c.ids.insert(id).second; ++n)
            id = base + "-" + std::to_string(n);
        return id;
    }

    void loopsOf(const Source& s) {
        if (isAirSource(s.type)) {
            m_c.log.push_back(
                who(s) + ": a " + s.type +
                " is room air cooling, which the engine counts per hall from the racks' air heat; "
                "left out with its " +
                std::to_string(s.airFeeds) + " rack feeds");
            return;
        }
        std::vector<std::string> halls;
        if (!s.hall.empty()) halls.push_back(s.hall);
        std::map<std::string, std::vector<size_t>> racksIn;
        double heatW = 0;
        for (size_t r : s.racks) {
            const std::string h = hallOfRack(r);
            if (std::find(halls.begin(), halls.end(), h) == halls.end()) halls.push_back(h);
            racksIn[h].push_back(r);
            heatW += liquidHeatW(r);
        }
        if (halls.empty()) {
            m_c.log.push_back(who(s) + ": in no hall and feeding no rack; left out");
            return;
        }
        if (s.capacityKw > 0 && heatW > s.capacityKw * 1000 * (1 + 1e-9))
            m_c.log.push_back(who(s) + ": rated " + formatNumber(s.capacityKw) + " kW, below its racks' " +
                              formatNumber(heatW / 1000) + " kW of liquid heat");
        if (s.fluid == "dielectric" || s.fluid == "refrigerant")
            m_c.log.push_back(who(s) + ": fluid " + s.fluid +
                              " is not modelled; its loop is sized for water (liquid_loop.h)");
        if (!s.tag.empty()) {
            // A ClusterTwin export: the loop it carries, in the hall of its location.
            CoolingLoop l = coolingLoopFromTag(s.tag, halls.front());
            if (l.id.empty() || !m_c.ids.insert(l.id).second)
                throw InputError(at(m_sourceObjects.files[m_index.at(s.nbId)], "cooling source",
                                    m_sourceObjects.items[m_index.at(s.nbId)], "comments"),
                                 "a cooling loop without a unique id");
            join(s.racks, l.id);
            m_c.project.coolingLoops.push_back(std::move(l));
            return;
        }
        for (const auto& h : halls)
            sizedLoop(s, h, racksIn[h], halls.size() > 1);
    }

    void join(const std::vector<size_t>& racks, const std::string& loop) {
        for (size_t r : racks)
            m_c.project.racks[r].coolingLoop = loop;
    }

    /// A loop for a plain NetBox source in one hall, sized by liquid_loop.h's rules (N+1).
    void sizedLoop(const Source& s, const std::string& hall, const std::vector<size_t>& racks, bool perHall) {
        CoolingLoop l;
        l.hall = hall;
        l.redundancy = "N+1";
        double heatW = 0;
        for (size_t r : racks)
            heatW += liquidHeatW(r);
        const bool fromRating = heatW <= 0 && hall == s.hall && s.capacityKw > 0;
        if (fromRating) heatW = s.capacityKw * 1000;
        // The catalog CDU of least total price for this load.
        double bestPrice = 0;
        for (const CatalogItem* c : m_c.catalog.byCategory("cooling")) {
            const double cap = catalogValue(c, "capacity_w", 0);
            if (c->kind != "cdu" || cap <= 0) continue;
            const double n = std::max(1.0, requiredCdus(heatW, cap, l.redundancy));
            const double price = n * catalogValue(c, "price_usd", 0);
            if (l.cduType.empty() || price < bestPrice)
                l.cduType = c->id, l.cduCount = static_cast<int>(n), bestPrice = price;
        }
        if (l.cduType.empty()) {
            m_c.log.push_back(who(s) + ": the catalog has no CDU; left out");
            return;
        }
        for (const CatalogItem* c : m_c.catalog.byCategory("cooling"))
            if (c->kind == "plant" && c->attribute("type") == plantTypeOf(s.type)) {
                l.plant = c->id;
                break;
            }
        l.id = claimId("cooling-" + std::to_string(s.nbId) + (perHall ? "-" + hall : std::string()));
        l.name = perHall ? s.name + " (" + hall + ")" : s.name;
        join(racks, l.id);
        m_c.log.push_back(
            who(s) + ": loop " + l.id + " in hall " + hall + ", " + std::to_string(racks.size()) +
            " racks, " + formatNumber(heatW / 1000) + " kW of liquid heat" +
            (fromRating ? " (no racks fed: the source's rated capacity)" : "") + "; " +
            std::to_string(l.cduCount) + " x " + l.cduType + " (N+1), plant " +
            (l.plant.empty() ? std::string("none") : l.plant) + ", supply " + formatNumber(l.supplyTempC) +
            " C, rise " + formatNumber(l.deltaT.value()) + " K (defaults)");
        m_c.project.coolingLoops.push_back(std::move(l));
    }

    const Objects& m_sourceObjects;
    const Objects& m_feedObjects;
    CoolingImportContext& m_c;
    std::vector<Source> m_sources;
    std::unordered_map<long long, size_t> m_index; // NetBox source id -> index in m_sources
    std::unordered_map<std::string, std::string> m_rowHall;
    size_t m_noRack = 0, m_fedTwice = 0, m_underRated = 0;
    std::string m_fedTwiceExample, m_underRatedExample;
};

} // namespace

void importCooling(const Objects& sources, const Objects& feeds, CoolingImportContext& context) {
    CoolingImporter(sources, feeds, context).run();
}

} // namespace ctwin::cost::netbox::detail
