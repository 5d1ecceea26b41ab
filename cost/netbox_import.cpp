#include "input_error.h"
#include "input_file.h"
#include "netbox.h"
#include "netbox_cooling.h"
#include "netbox_detail.h"
#include "netbox_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

// The NetBox import (cost/netbox.h): saved REST API list responses to a design, one object type per step.
namespace ctwin::cost::netbox {

using namespace ctwin::model;
using detail::catalogValue;
using detail::kTagPrefix;
using namespace detail;

namespace fs = std::filesystem;

namespace {

// An imported rack without coordinates: side by side along its row at the catalog footprint (0.6 m when the
// catalog has none), rows 3 m apart (a 1.2 m rack and a 1.8 m aisle) in halls without row coordinates.
constexpr double kDefaultRackWidthM = 0.6;
constexpr double kRowPitchM = 3.0;
// A building or hall NetBox gives no geometry: a footprint to start from, grown to hold its racks
// (growHalls) and logged as a choice (not a sourced figure: NetBox has no floor dimensions). 100 x 60 m,
// 12 m high, about a 6,000 m2 single-storey data centre shell; a 60 x 40 m hall inside it.
constexpr double kBuildingWidthM = 100.0, kBuildingDepthM = 60.0, kBuildingHeightM = 12.0;
constexpr double kHallWidthM = 60.0, kHallDepthM = 40.0;

} // namespace

namespace {
std::map<std::string, std::string> readMapping(const std::string& file) {
    std::map<std::string, std::string> out;
    if (file.empty()) return out;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(readInputFile(file, kMaxSpecFileBytes, "NetBox mapping file"));
    } catch (const nlohmann::json::exception& e) {
        throw InputError(InputLocation{file, "", "", "", ""}, std::string("not valid JSON: ") + e.what());
    }
    if (!j.is_object() || (j.contains("rack_types") && !j["rack_types"].is_object()))
        throw InputError(InputLocation{file, "", "", "", "rack_types"},
                         "expected {\"rack_types\": {\"netbox-slug\": \"catalog-id\"}}");
    const nlohmann::json types = j.value("rack_types", nlohmann::json::object());
    for (const auto& [k, v] : types.items()) {
        if (!v.is_string())
            throw InputError(InputLocation{file, "mapping", k, "", "rack_types"},
                             "the catalog id must be text");
        out[k] = v.get<std::string>();
    }
    return out;
}

} // namespace

namespace {

/// The import, one object type per step, with what the steps share: NetBox ids to ClusterTwin ids, the
/// location tree, and the ids in use.
class Importer {
public:
    Importer(const fs::path& folder, const Catalog& catalog, std::map<std::string, std::string> mapping)
        : m_catalog(catalog), m_mapping(std::move(mapping)), m_sites(readType(folder, "sites", true)),
          m_locations(readType(folder, "locations", false)),
          m_rackTypes(readType(folder, "rack-types", false)), m_racks(readType(folder, "racks", true)),
          m_panels(readType(folder, "power-panels", false)), m_feeds(readType(folder, "power-feeds", false)),
          m_devices(readType(folder, "devices", false)),
          m_deviceTypes(readType(folder, "device-types", false)),
          m_coolingSources(readType(folder, "cooling-sources", false)),
          m_coolingFeeds(readType(folder, "cooling-feeds", false)) {}

    ImportResult run() {
        sites();
        locationTree();
        locations();
        typesOfRacks();
        racks();
        growHalls();
        panels();
        feeds();
        cooling();
        const Project& p = m_out.project;
        if (!m_devices.items.empty())
            log(std::to_string(m_devices.items.size()) +
                " devices read; ClusterTwin models whole racks, so they only chose the catalog rack of racks "
                "without a rack type");
        log("imported " + std::to_string(p.sites.size()) + " sites, " + std::to_string(p.buildings.size()) +
            " buildings, " + std::to_string(p.halls.size()) + " halls, " + std::to_string(p.rows.size()) +
            " rows, " + std::to_string(p.racks.size()) + " racks, " + std::to_string(p.powerFeeds.size()) +
            " feeds, " + std::to_string(p.coolingLoops.size()) + " cooling loops");
        return std::move(m_out);
    }

private:
    struct Loc {
        long long id = -1, parent = -1, site = -1;
        size_t index = 0;
        int depth = -1;
    };

    void log(std::string line) { m_out.log.push_back(std::move(line)); }
    Project& project() { return m_out.project; }

    /// Ids become ClusterTwin ids: each once.
    void claim(const std::string& id, const std::string& file, const char* kind, const nlohmann::json& o) {
        if (!m_ids.insert(id).second)
            throw InputError(at(file, kind, o, "slug"), "slug '" + id + "' is used twice");
    }

    /// The object's site and location (-1 = none), both checked against the files.
    std::pair<long long, long long> placeOf(const nlohmann::json& o, const std::string& file,
                                            const char* kind) {
        const long long site = refOf(o, "site", file, kind);
        if (!m_siteId.count(site))
            throw InputError(at(file, kind, o, "site"), "refers to a site that is not in the files");
        const long long loc = refOf(o, "location", file, kind);
        if (loc >= 0 && !m_locs.count(loc))
            throw InputError(at(file, kind, o, "location"), "refers to a location that is not in the files");
        if (loc >= 0 && m_locs.at(loc).site != site)
            throw InputError(at(file, kind, o, "location"), "the location belongs to another site");
        return {site, loc};
    }

    long long ancestorAt(long long id, int depth) const {
        while (m_locs.at(id).depth > depth)
            id = m_locs.at(id).parent;
        return id;
    }

    void sites() {
        for (size_t i = 0; i < m_sites.items.size(); ++i) {
            const auto& o = m_sites.items[i];
            const std::string& file = m_sites.files[i];
            Site s;
            s.id = text(o, "slug");
            if (s.id.empty()) throw InputError(at(file, "site", o, "slug"), "missing");
            claim(s.id, file, "site", o);
            s.name = text(o, "name");
            s.latDeg = numberOf(o, "latitude", 0.0);
            s.lonDeg = numberOf(o, "longitude", 0.0);
            const auto tag = tagOf(o, file, "site");
            s.climateLocation = tagText(tag, "climate_location");
            s.landCost = tagNum(tag, "land_cost_usd", 0.0) * units::usd;
            if (tag.contains("electricity_usd_per_kwh"))
                s.electricityUsdPerKwh = tagNum(tag, "electricity_usd_per_kwh", 0.0);
            if (tag.contains("free_cooling_hours_per_year"))
                s.freeCoolingHoursPerYear = tagNum(tag, "free_cooling_hours_per_year", 0.0);
            if (tag.contains("grid_interconnect_mw"))
                s.gridInterconnectMw = tagNum(tag, "grid_interconnect_mw", 0.0);
            s.gridInterconnectDate = tagText(tag, "grid_interconnect_date");
            if (tag.contains("power_oversubscription_ratio"))
                s.powerOversubscriptionRatio = tagNum(tag, "power_oversubscription_ratio", 1.0);
            m_siteId[idOf(o, file, "site")] = s.id;
            project().sites.push_back(std::move(s));
        }
    }

    /// Every location's site, parent and depth (parents need not come first in saved pages).
    void locationTree() {
        for (size_t i = 0; i < m_locations.items.size(); ++i) {
            const auto& o = m_locations.items[i];
            const std::string& file = m_locations.files[i];
            const long long site = refOf(o, "site", file, "location");
            if (!m_siteId.count(site))
                throw InputError(at(file, "location", o, "site"),
                                 "refers to a site that is not in the files");
            const long long id = idOf(o, file, "location");
            m_locs[id] = Loc{id, refOf(o, "parent", file, "location"), site, i};
        }
        for (auto& [id, l] : m_locs) {
            int depth = 0;
            for (long long cur = l.parent; cur >= 0; ++depth) {
                const auto& o = m_locations.items[l.index];
                const auto it = m_locs.find(cur);
                if (it == m_locs.end())
                    throw InputError(at(m_locations.files[l.index], "location", o, "parent"),
                                     "refers to a location that is not in the files");
                if (depth > 64)
                    throw InputError(at(m_locations.files[l.index], "location", o, "parent"),
                                     "the parents form a loop");
                cur = it->second.parent;
            }
            l.depth = depth;
        }
    }

    /// Depth 0: building; 1: hall; 2: row; deeper levels fold into their row.
    void locations() {
        std::vector<const Loc*> ordered;
        for (const auto& [id, l] : m_locs)
            ordered.push_back(&l);
        std::sort(ordered.begin(), ordered.end(), [](const Loc* a, const Loc* b) {
            return a->depth != b->depth ? a->depth < b->depth : a->index < b->index;
        });
        for (const Loc* l : ordered) {
            const auto& o = m_locations.items[l->index];
            const std::string& file = m_locations.files[l->index];
            const std::string slug = text(o, "slug");
            if (slug.empty()) throw InputError(at(file, "location", o, "slug"), "missing");
            if (l->depth > 2) {
                m_entity[l->id] = m_entity.at(ancestorAt(l->id, 2));
                log("location " + text(o, "name") + ": below a row, its racks join row " + m_entity[l->id]);
                continue;
            }
            claim(slug, file, "location", o);
            m_entity[l->id] = slug;
            const auto tag = tagOf(o, file, "location");
            const std::string name = plainName(text(o, "name"), slug);
            if (l->depth == 0)
                building(slug, name, m_siteId.at(l->site), tag);
            else if (l->depth == 1)
                hall(slug, name, m_entity.at(l->parent), tag, file, o);
            else
                row(slug, name, m_entity.at(l->parent), tag);
        }
    }

    void building(const std::string& id, const std::string& name, const std::string& site,
                  const nlohmann::json& tag) {
        Building b;
        b.id = id, b.name = name, b.site = site;
        b.powerCapacity = tagNum(tag, "power_capacity_w", 0.0) * units::watt;
        b.x = tagNum(tag, "x_m", 0.0) * units::meter, b.y = tagNum(tag, "y_m", 0.0) * units::meter;
        b.width = tagNum(tag, "width_m", kBuildingWidthM) * units::meter,
        b.depth = tagNum(tag, "depth_m", kBuildingDepthM) * units::meter;
        b.height = tagNum(tag, "height_m", kBuildingHeightM) * units::meter;
        b.powerTopology = tagText(tag, "power_topology", b.powerTopology);
        b.energisationDate = tagText(tag, "energisation_date");
        if (tag.contains("shell_cost_usd")) b.shellCost = tagNum(tag, "shell_cost_usd", 0.0) * units::usd;
        if (tag.contains("pue_pinned")) b.puePinned = tagNum(tag, "pue_pinned", 0.0);
        if (tag.contains("power_oversubscription_ratio"))
            b.powerOversubscriptionRatio = tagNum(tag, "power_oversubscription_ratio", 1.0);
        if (tag.empty()) log("building " + b.id + ": no ClusterTwin geometry; 100 x 60 m at the origin");
        project().buildings.push_back(std::move(b));
    }

    void hall(const std::string& id, const std::string& name, const std::string& building,
              const nlohmann::json& tag, const std::string& file, const nlohmann::json& o) {
        DataHall h;
        h.id = id, h.name = name, h.building = building;
        h.x = tagNum(tag, "x_m", 0.0) * units::meter, h.y = tagNum(tag, "y_m", 0.0) * units::meter;
        h.width = tagNum(tag, "width_m", kHallWidthM) * units::meter,
        h.depth = tagNum(tag, "depth_m", kHallDepthM) * units::meter;
        h.grid = tagNum(tag, "grid_m", 0.6) * units::meter;
        if (tag.contains("power_capacity_w"))
            h.powerCapacity = tagNum(tag, "power_capacity_w", 0.0) * units::watt;
        h.energisationDate = tagText(tag, "energisation_date");
        h.refreshPolicy = tagText(tag, "refresh_policy", h.refreshPolicy);
        if (tag.contains("power_oversubscription_ratio"))
            h.powerOversubscriptionRatio = tagNum(tag, "power_oversubscription_ratio", 1.0);
        if (const auto it = tag.find("cooling_loops"); it != tag.end() && it->is_array())
            for (const auto& lj : *it)
                if (lj.is_object()) coolingLoop(lj, h.id, file, o);
        if (tag.empty()) log("hall " + h.id + ": no ClusterTwin geometry; 60 x 40 m at the building origin");
        project().halls.push_back(std::move(h));
    }

    void coolingLoop(const nlohmann::json& lj, const std::string& hall, const std::string& file,
                     const nlohmann::json& o) {
        CoolingLoop c = coolingLoopFromTag(lj, hall);
        if (c.id.empty() || !m_ids.insert(c.id).second)
            throw InputError(at(file, "location", o, "comments"), "a cooling loop without a unique id");
        project().coolingLoops.push_back(std::move(c));
    }

    void row(const std::string& id, const std::string& name, const std::string& hall,
             const nlohmann::json& tag) {
        Row r;
        r.id = id, r.name = name, r.hall = hall;
        const int n = m_rowsInHall[hall]++;
        r.x = tagNum(tag, "x_m", 1.0) * units::meter;
        r.y = tagNum(tag, "y_m", 1.0 + n * kRowPitchM) * units::meter;
        r.rotationDeg = tagNum(tag, "rotation_deg", 0.0);
        project().rows.push_back(std::move(r));
    }

    /// Rack-type and device-type slugs by NetBox id, and the device types found in each rack.
    void typesOfRacks() {
        for (size_t i = 0; i < m_rackTypes.items.size(); ++i)
            m_rackTypeSlug[idOf(m_rackTypes.items[i], m_rackTypes.files[i], "rack type")] =
                text(m_rackTypes.items[i], "slug");
        std::unordered_map<long long, std::string> deviceTypeSlug;
        for (size_t i = 0; i < m_deviceTypes.items.size(); ++i)
            deviceTypeSlug[idOf(m_deviceTypes.items[i], m_deviceTypes.files[i], "device type")] =
                text(m_deviceTypes.items[i], "slug");
        for (size_t i = 0; i < m_devices.items.size(); ++i) {
            const auto& d = m_devices.items[i];
            const long long rack = refOf(d, "rack", m_devices.files[i], "device");
            const long long type = refOf(d, "device_type", m_devices.files[i], "device");
            if (rack >= 0 && type >= 0)
                m_deviceTypesInRack[rack].push_back(
                    deviceTypeSlug.count(type) ? deviceTypeSlug[type] : text(d["device_type"], "slug"));
        }
    }

    /// The catalog rack a NetBox slug names: through the mapping file, else the same id.
    std::string catalogRack(const std::string& slug) const {
        const auto m = m_mapping.find(slug);
        const std::string id = m != m_mapping.end() ? m->second : slug;
        const CatalogItem* item = m_catalog.find(id);
        return item && item->category == "racks" ? id : std::string();
    }

    /// Containers for racks placed above row level, created on demand and logged.
    std::string siteBuilding(const std::string& siteId) {
        const std::string id = siteId + "-imported-building";
        if (m_ids.insert(id).second) {
            Building b;
            b.id = id, b.name = "Imported", b.site = siteId;
            b.width = kBuildingWidthM * units::meter, b.depth = kBuildingDepthM * units::meter,
            b.height = kBuildingHeightM * units::meter;
            project().buildings.push_back(b);
            log("site " + siteId + ": racks without a location go to building " + id);
        }
        return id;
    }
    std::string hallFor(const std::string& buildingId) {
        const std::string id = buildingId + "-imported-hall";
        if (m_ids.insert(id).second) {
            DataHall h;
            h.id = id, h.name = "Imported", h.building = buildingId;
            h.width = kHallWidthM * units::meter, h.depth = kHallDepthM * units::meter;
            project().halls.push_back(h);
            log("building " + buildingId + ": racks outside any hall go to hall " + id);
        }
        return id;
    }
    std::string rowFor(const std::string& hallId) {
        const std::string id = hallId + "-imported-row";
        if (m_ids.insert(id).second) {
            Row r;
            r.id = id, r.name = "Imported", r.hall = hallId;
            const int n = m_rowsInHall[hallId]++;
            r.x = 1.0 * units::meter, r.y = (1.0 + n * kRowPitchM) * units::meter;
            project().rows.push_back(r);
            log("hall " + hallId + ": racks outside any row go to row " + id);
        }
        return id;
    }
    std::string rowOf(long long site, long long loc) {
        if (loc < 0) return rowFor(hallFor(siteBuilding(m_siteId.at(site))));
        const int depth = m_locs.at(loc).depth;
        return depth == 0   ? rowFor(hallFor(m_entity.at(loc)))
               : depth == 1 ? rowFor(m_entity.at(loc))
                            : m_entity.at(loc);
    }

    /// The catalog rack of a NetBox rack: its rack type, else its devices' types; empty (and logged) for
    /// none.
    std::string rackTypeOf(const nlohmann::json& o, const std::string& file, long long nbId) {
        std::string type, seen;
        if (const long long rt = refOf(o, "rack_type", file, "rack"); rt >= 0) {
            seen = m_rackTypeSlug.count(rt) ? m_rackTypeSlug[rt] : text(o["rack_type"], "slug");
            type = catalogRack(seen);
        }
        if (type.empty())
            for (const auto& s : m_deviceTypesInRack[nbId]) {
                if (!(type = catalogRack(s)).empty()) break;
                if (seen.empty()) seen = s;
            }
        if (type.empty())
            log("rack " + text(o, "name") + " (NetBox id " + std::to_string(nbId) + "): type '" +
                (seen.empty() ? std::string("none") : seen) +
                "' maps to no catalog rack; left out (add it to the mapping file)");
        return type;
    }

    void racks() {
        Project& p = project();
        for (size_t i = 0; i < m_racks.items.size(); ++i) {
            const auto& o = m_racks.items[i];
            const std::string& file = m_racks.files[i];
            const long long nbId = idOf(o, file, "rack");
            m_netboxRacks.insert(nbId);
            const auto [site, loc] = placeOf(o, file, "rack");
            m_rackSite[nbId] = site;
            const std::string row = rowOf(site, loc);
            const std::string type = rackTypeOf(o, file, nbId);
            if (type.empty()) continue;
            RackPlacement r;
            r.id = text(o, "facility_id");
            if (r.id.empty() || m_ids.count(r.id)) r.id = "rack-" + std::to_string(nbId);
            claim(r.id, file, "rack", o);
            const auto tag = tagOf(o, file, "rack");
            r.name = plainName(text(o, "name"), slugOf(r.id));
            r.row = row, r.rackType = type;
            if (tag.contains("x_m") && tag.contains("y_m")) {
                r.x = tagNum(tag, "x_m", 0.0) * units::meter, r.y = tagNum(tag, "y_m", 0.0) * units::meter;
            } else {
                // Side by side along the row from its start (hall coordinates, as racks and rows are stored).
                const double width = catalogValue(m_catalog.find(type), "width_m", kDefaultRackWidthM);
                const auto rowIt =
                    std::find_if(p.rows.begin(), p.rows.end(), [&](const Row& x) { return x.id == row; });
                r.x = rowIt->x + m_nextX[row] * units::meter, r.y = rowIt->y;
                m_nextX[row] += width;
                m_grow[rowIt->hall] = std::max(m_grow[rowIt->hall], r.x.value() + width);
            }
            r.rotationDeg = tagNum(tag, "rotation_deg", 0.0);
            r.spare = tag.value("spare", false);
            r.coolingLoop = tagText(tag, "cooling_loop");
            m_rackIndex[nbId] = p.racks.size();
            p.racks.push_back(std::move(r));
        }
        if (!m_nextX.empty())
            log(std::to_string(m_nextX.size()) +
                " rows had racks without ClusterTwin coordinates; placed side by side from the row's start");
    }

    /// Halls (and their buildings) that placed racks outgrow are widened to hold them, with a 2 m aisle.
    void growHalls() {
        Project& p = project();
        for (auto& h : p.halls) {
            const auto g = m_grow.find(h.id);
            if (g == m_grow.end()) continue;
            double deepest = 0;
            for (const auto& r : p.rows)
                if (r.hall == h.id) deepest = std::max(deepest, r.y.value() + kRowPitchM);
            h.width = std::max(h.width.value(), g->second + 2.0) * units::meter;
            h.depth = std::max(h.depth.value(), deepest) * units::meter;
            for (auto& b : p.buildings)
                if (b.id == h.building) {
                    b.width = std::max(b.width.value(), h.x.value() + h.width.value() + 2.0) * units::meter;
                    b.depth = std::max(b.depth.value(), h.y.value() + h.depth.value() + 2.0) * units::meter;
                }
        }
    }

    /// Power panels become ClusterTwin power feeds (capacity and chain from their clustertwin line).
    void panels() {
        for (size_t i = 0; i < m_panels.items.size(); ++i) {
            const auto& o = m_panels.items[i];
            const std::string& file = m_panels.files[i];
            const auto [site, loc] = placeOf(o, file, "power panel");
            const auto tag = tagOf(o, file, "power panel");
            PowerFeed f;
            f.id = tagText(tag, "id", "panel-" + std::to_string(idOf(o, file, "power panel")));
            claim(f.id, file, "power panel", o);
            f.name = plainName(text(o, "name"), slugOf(f.id));
            f.building = loc >= 0 ? m_entity.at(ancestorAt(loc, 0)) : siteBuilding(m_siteId.at(site));
            f.capacity = tagNum(tag, "capacity_w", 0.0) * units::watt;
            if (const auto it = tag.find("chain"); it != tag.end() && it->is_array())
                for (const auto& c : *it)
                    if (c.is_string()) f.chain.push_back(c.get<std::string>());
            if (tag.contains("power_oversubscription_ratio"))
                f.powerOversubscriptionRatio = tagNum(tag, "power_oversubscription_ratio", 1.0);
            m_feedIndex[idOf(o, file, "power panel")] = project().powerFeeds.size();
            project().powerFeeds.push_back(std::move(f));
        }
    }

    /// NetBox power feeds: a panel without a capacity takes the sum of its feeds' available power (voltage ×
    /// amperage × √3 for three-phase × maximum utilisation, NetBox's PowerFeed.available_power); a rack's
    /// primary feed names its feed A, its redundant one feed B.
    void feeds() {
        std::set<size_t> sized;
        for (size_t i = 0; i < m_feeds.items.size(); ++i) {
            const auto& o = m_feeds.items[i];
            const std::string& file = m_feeds.files[i];
            const long long panel = refOf(o, "power_panel", file, "power feed");
            if (!m_feedIndex.count(panel))
                throw InputError(at(file, "power feed", o, "power_panel"),
                                 "refers to a power panel that is not in the files");
            PowerFeed& f = project().powerFeeds[m_feedIndex[panel]];
            if (!(f.capacity.value() > 0) || sized.count(m_feedIndex[panel])) {
                const std::string phase = choiceOf(o, "phase");
                const double available = numberOf(o, "voltage", 0) * numberOf(o, "amperage", 0) *
                                         (phase == "three-phase" ? std::sqrt(3.0) : 1.0) *
                                         numberOf(o, "max_utilization", 80) / 100.0;
                f.capacity += std::max(0.0, available) * units::watt;
                if (sized.insert(m_feedIndex[panel]).second)
                    log("power panel " + f.name +
                        ": no ClusterTwin capacity; the sum of its feeds' available power");
            }
            const long long rack = refOf(o, "rack", file, "power feed");
            if (rack < 0) continue;
            if (!m_rackIndex.count(rack)) {
                if (!m_netboxRacks.count(rack))
                    throw InputError(at(file, "power feed", o, "rack"),
                                     "refers to a rack that is not in the files");
                continue; // a rack left out above
            }
            RackPlacement& r = project().racks[m_rackIndex[rack]];
            const bool redundant = choiceOf(o, "type") == "redundant";
            // Both cords from one panel are one power path in ClusterTwin (a feed is a path, feed_b must
            // differ).
            if ((redundant ? r.feedA : r.feedB) == f.id) {
                log("rack " + r.name + ": feeds " + text(o, "name") +
                    " and its other side both come from panel " + f.name +
                    "; one power path, so the rack is single-corded");
                continue;
            }
            (redundant ? r.feedB : r.feedA) = f.id;
        }
    }

    /// NetBox 4.7 cooling sources and feeds (netbox_cooling.h).
    void cooling() {
        CoolingImportContext c{m_catalog,
                               project(),
                               m_out.log,
                               m_ids,
                               [this](const nlohmann::json& o, const std::string& file, const char* kind) {
                                   return placeOf(o, file, kind);
                               },
                               [this](long long loc) {
                                   return m_locs.at(loc).depth == 0 ? std::string()
                                                                    : m_entity.at(ancestorAt(loc, 1));
                               },
                               m_rackIndex,
                               m_netboxRacks,
                               m_rackSite};
        importCooling(m_coolingSources, m_coolingFeeds, c);
    }

    const Catalog& m_catalog;
    const std::map<std::string, std::string> m_mapping;
    const Objects m_sites, m_locations, m_rackTypes, m_racks, m_panels, m_feeds, m_devices, m_deviceTypes,
        m_coolingSources, m_coolingFeeds;
    ImportResult m_out;
    std::set<std::string> m_ids;
    std::unordered_map<long long, std::string> m_siteId; // NetBox site id -> site id
    std::unordered_map<long long, Loc> m_locs;
    std::unordered_map<long long, std::string> m_entity; // NetBox location id -> building / hall / row id
    std::unordered_map<std::string, int> m_rowsInHall;
    std::unordered_map<long long, std::string> m_rackTypeSlug;
    std::unordered_map<long long, std::vector<std::string>> m_deviceTypesInRack;
    std::set<long long> m_netboxRacks;                 // every rack id in the files, mapped or not
    std::unordered_map<long long, long long> m_rackSite; // NetBox rack id -> NetBox site id
    std::unordered_map<long long, size_t> m_rackIndex; // NetBox rack id -> index in project().racks
    std::unordered_map<std::string, double> m_nextX;   // row id -> next free x along the row (m)
    std::unordered_map<std::string, double> m_grow;    // hall id -> furthest x a placed rack reaches (m)
    std::unordered_map<long long, size_t> m_feedIndex; // NetBox panel id -> index in project().powerFeeds
};

} // namespace

ImportResult importNetBoxFolder(const std::string& folderName, const Catalog& catalog,
                                const std::string& mappingFile) {
    const fs::path folder(folderName);
    if (!fs::is_directory(folder))
        throw InputError(InputLocation{folderName, "", "", "", ""},
                         "not a folder of saved NetBox API responses");
    // Without a mapping file named, one saved beside the responses (the GUI import has no file prompt).
    const fs::path beside = folder / "netbox-mapping.json";
    std::error_code ec;
    const bool useBeside = mappingFile.empty() && fs::is_regular_file(beside, ec);
    ImportResult r = Importer(folder, catalog, readMapping(useBeside ? beside.string() : mappingFile)).run();
    if (useBeside) r.log.insert(r.log.begin(), "rack types mapped through " + beside.string());
    return r;
}

} // namespace ctwin::cost::netbox
