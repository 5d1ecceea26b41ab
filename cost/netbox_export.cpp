#include "atomic_write.h"
#include "csv_cell.h"
#include "input_error.h"
#include "liquid_loop.h"
#include "netbox.h"
#include "netbox_detail.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>
#include <unordered_map>

// The NetBox export (cost/netbox.h): CSV tables and REST request bodies, one object type per step.
namespace ctwin::cost::netbox {

using namespace ctwin::model;
using detail::catalogValue;
using detail::kTagPrefix;

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

// Every exported rack type is a 19-inch, 48 U four-post cabinet unless the catalog says otherwise (NetBox's
// RackWidthChoices are rail-to-rail inches; the catalog has no rail width or total height).
constexpr int kRackWidthInches = 19;
constexpr int kRackUnits = 48;
// The per-rack power feeds NetBox needs: three-phase 415 V AC at NetBox's default 80% maximum utilisation
// (dcim.PowerFeed defaults: voltage 120, amperage 20, max_utilization 80; 415 V is the IEC data-centre
// distribution voltage). Amperage is the smallest whole number that carries the rack's catalog load; a rack
// with no catalog load (a network rack) leaves it to NetBox's default.
constexpr double kFeedVoltage = 415.0;
constexpr double kFeedMaxUtilization = 80.0;

/// A CSV table: a header row of NetBox field names and one row per object, through the one cell writer.
struct Table {
    std::vector<std::string> columns;
    std::vector<std::vector<CsvCell>> rows;
    std::string text() const {
        std::string out = csvLine(std::vector<CsvCell>(columns.begin(), columns.end()));
        for (const auto& r : rows)
            out += csvLine(r);
        return out;
    }
};

CsvCell num(double x) {
    return CsvCell::number(x);
}

/// NetBox's DecimalField(decimal_places=2): capacities in kW and flows in L/min to the hundredth.
double hundredths(double x) {
    return std::round(x * 100) / 100;
}

std::string tagLine(const ojson& fields) {
    return kTagPrefix + fields.dump();
}

/// Names unique within each site: a second use of a name in the same site gets " [slug]".
class SiteNames {
public:
    std::string take(const std::string& site, const std::string& name, const std::string& slug) {
        auto& used = m_used[site];
        if (used.insert(name).second) return name;
        const std::string qualified = name + " [" + slug + "]";
        used.insert(qualified);
        return qualified;
    }

private:
    std::map<std::string, std::set<std::string>> m_used;
};

} // namespace

std::string slugOf(const std::string& id) {
    std::string s = id;
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) c = '-';
    return s.empty() ? std::string("unnamed") : s;
}

namespace {

/// The export, one object type per step; each step fills its CSV table and its request bodies.
class Exporter {
public:
    Exporter(const Project& p, const Catalog& catalog, const std::string& version)
        : m_p(p), m_catalog(catalog), m_cooling(version != "4.6") {
        m_bodies["netbox_version"] = version;
        std::vector<std::string> order = kOrder;
        if (m_cooling) {
            order.insert(order.end(), {"dcim/cooling-sources", "dcim/cooling-feeds"});
            m_rackTypes.columns.insert(m_rackTypes.columns.end() - 1,
                                       {"cooling_capability", "cooling_capacity"});
        }
        m_bodies["order"] = order;
        for (const auto& k : order)
            m_bodies[k] = ojson::array();
    }

    std::vector<ExportFile> run() {
        sites();
        locations();
        rackTypes();
        racks();
        panels();
        feeds();
        std::vector<ExportFile> files = {{"01-manufacturers.csv", m_manufacturers.text()},
                                         {"02-sites.csv", m_sites.text()},
                                         {"03-locations.csv", m_locations.text()},
                                         {"04-rack-types.csv", m_rackTypes.text()},
                                         {"05-racks.csv", m_racks.text()},
                                         {"06-power-panels.csv", m_panels.text()},
                                         {"07-power-feeds.csv", m_feeds.text()}};
        if (m_cooling) {
            coolingSources();
            coolingFeeds();
            files.push_back({"08-cooling-sources.csv", m_coolingSources.text()});
            files.push_back({"09-cooling-feeds.csv", m_coolingFeeds.text()});
        }
        files.push_back({"netbox-request-bodies.json", m_bodies.dump(2) + "\n"});
        return files;
    }

private:
    inline static const std::vector<std::string> kOrder = {
        "dcim/manufacturers", "dcim/sites",        "dcim/locations",  "dcim/rack-types",
        "dcim/racks",         "dcim/power-panels", "dcim/power-feeds"};
    const std::string kMaker = "ClusterTwin catalog", kMakerSlug = "clustertwin-catalog";

    /// Slugs are ids made URL-safe; two ids that become the same slug are told apart by a counter.
    std::string slug(const std::string& id) {
        auto it = m_slugs.find(id);
        if (it != m_slugs.end()) return it->second;
        std::string s = slugOf(id), base = s;
        for (int n = 2; !m_usedSlugs.insert(s).second; ++n)
            s = base + "-" + std::to_string(n);
        return m_slugs[id] = s;
    }
    std::string siteOfRow(const std::string& row) { return m_buildingSite[m_hallBuilding[m_rowHall[row]]]; }

    void sites() {
        for (const auto& s : m_p.sites) {
            m_siteName[s.id] = s.name;
            ojson tag = {{"kind", "site"},
                         {"climate_location", s.climateLocation},
                         {"land_cost_usd", s.landCost.value()}};
            if (s.electricityUsdPerKwh) tag["electricity_usd_per_kwh"] = *s.electricityUsdPerKwh;
            if (s.freeCoolingHoursPerYear) tag["free_cooling_hours_per_year"] = *s.freeCoolingHoursPerYear;
            if (s.gridInterconnectMw) tag["grid_interconnect_mw"] = *s.gridInterconnectMw;
            if (!s.gridInterconnectDate.empty()) tag["grid_interconnect_date"] = s.gridInterconnectDate;
            if (s.powerOversubscriptionRatio)
                tag["power_oversubscription_ratio"] = *s.powerOversubscriptionRatio;
            m_sites.rows.push_back(
                {s.name, slug(s.id), "active", num(s.latDeg), num(s.lonDeg), "", tagLine(tag)});
            m_bodies["dcim/sites"].push_back({{"name", s.name},
                                              {"slug", slug(s.id)},
                                              {"status", "active"},
                                              {"latitude", s.latDeg},
                                              {"longitude", s.lonDeg},
                                              {"comments", tagLine(tag)}});
        }
    }

    void location(const std::string& siteId, const std::string& parentId, const std::string& id,
                  const std::string& name, const char* kind, const ojson& fields) {
        ojson tag = {{"kind", kind}};
        tag.update(fields);
        const std::string unique = m_names.take(siteId, name, slug(id));
        m_locName[id] = unique;
        const std::string parent = parentId.empty() ? std::string() : m_locName[parentId];
        m_locations.rows.push_back(
            {m_siteName[siteId], parent, unique, slug(id), "active", "", tagLine(tag)});
        m_bodies["dcim/locations"].push_back(
            {{"site", {{"slug", slug(siteId)}}},
             {"parent", parentId.empty() ? ojson(nullptr) : ojson{{"slug", slug(parentId)}}},
             {"name", unique},
             {"slug", slug(id)},
             {"status", "active"},
             {"comments", tagLine(tag)}});
    }

    /// A loop's fields as netbox_cooling.h's coolingLoopFromTag reads them.
    static ojson loopFields(const CoolingLoop& l) {
        ojson cdus = ojson::array();
        for (const auto& c : l.cdus)
            cdus.push_back({c.xM, c.yM});
        return {{"id", l.id},
                {"name", l.name},
                {"cdu_type", l.cduType},
                {"cdu_count", l.cduCount},
                {"redundancy", l.redundancy},
                {"supply_temp_c", l.supplyTempC},
                {"delta_t_k", l.deltaT.value()},
                {"plant", l.plant},
                {"cdus", cdus}};
    }
    ojson coolingLoopsOf(const std::string& hall) const {
        ojson loops = ojson::array();
        for (const auto& l : m_p.coolingLoops)
            if (l.hall == hall) loops.push_back(loopFields(l));
        return loops;
    }

    void locations() {
        for (const auto& b : m_p.buildings) {
            m_buildingSite[b.id] = b.site;
            ojson tag = {{"power_capacity_w", b.powerCapacity.value()},
                         {"x_m", b.x.value()},
                         {"y_m", b.y.value()},
                         {"width_m", b.width.value()},
                         {"depth_m", b.depth.value()},
                         {"height_m", b.height.value()},
                         {"power_topology", b.powerTopology},
                         {"energisation_date", b.energisationDate}};
            if (b.shellCost) tag["shell_cost_usd"] = b.shellCost->value();
            if (b.puePinned) tag["pue_pinned"] = *b.puePinned;
            if (b.powerOversubscriptionRatio)
                tag["power_oversubscription_ratio"] = *b.powerOversubscriptionRatio;
            location(b.site, "", b.id, b.name, "building", tag);
        }
        for (const auto& h : m_p.halls) {
            m_hallBuilding[h.id] = h.building;
            ojson tag = {{"x_m", h.x.value()},
                         {"y_m", h.y.value()},
                         {"width_m", h.width.value()},
                         {"depth_m", h.depth.value()},
                         {"grid_m", h.grid.value()},
                         {"energisation_date", h.energisationDate},
                         {"refresh_policy", h.refreshPolicy}};
            // NetBox 4.6 has no cooling objects: the hall's loops ride on its line.
            if (!m_cooling) tag["cooling_loops"] = coolingLoopsOf(h.id);
            if (h.powerCapacity) tag["power_capacity_w"] = h.powerCapacity->value();
            if (h.powerOversubscriptionRatio)
                tag["power_oversubscription_ratio"] = *h.powerOversubscriptionRatio;
            location(m_buildingSite[h.building], h.building, h.id, h.name, "hall", tag);
        }
        for (const auto& r : m_p.rows) {
            m_rowHall[r.id] = r.hall;
            location(m_buildingSite[m_hallBuilding[r.hall]], r.hall, r.id, r.name, "row",
                     {{"x_m", r.x.value()}, {"y_m", r.y.value()}, {"rotation_deg", r.rotationDeg}});
        }
    }

    /// One rack type per catalog rack type in use, under one manufacturer (the catalog names no vendor).
    void rackTypes() {
        m_manufacturers.rows.push_back({kMaker, kMakerSlug, "Rack types of the ClusterTwin catalog"});
        m_bodies["dcim/manufacturers"].push_back({{"name", kMaker}, {"slug", kMakerSlug}});
        std::set<std::string> done;
        for (const auto& r : m_p.racks) {
            if (!done.insert(r.rackType).second) continue;
            const CatalogItem* item = m_catalog.find(r.rackType);
            const std::string model = item ? item->name : r.rackType;
            const double widthMm = catalogValue(item, "width_m", 0) * 1000,
                         depthMm = catalogValue(item, "depth_m", 0) * 1000;
            const double weight = catalogValue(item, "weight_kg", 0);
            const auto optional = [](double x) { return x > 0 ? num(std::round(x)) : CsvCell(""); };
            std::vector<CsvCell> row = {kMaker,
                                        model,
                                        slugOf(r.rackType),
                                        "4-post-cabinet",
                                        num(kRackWidthInches),
                                        num(kRackUnits),
                                        optional(widthMm),
                                        optional(depthMm),
                                        widthMm > 0 || depthMm > 0 ? "mm" : "",
                                        optional(weight),
                                        weight > 0 ? "kg" : ""};
            ojson body = {{"manufacturer", {{"slug", kMakerSlug}}},
                          {"model", model},
                          {"slug", slugOf(r.rackType)},
                          {"form_factor", "4-post-cabinet"},
                          {"width", kRackWidthInches},
                          {"u_height", kRackUnits},
                          {"description", "catalog id " + r.rackType}};
            if (widthMm > 0) body["outer_width"] = std::round(widthMm);
            if (depthMm > 0) body["outer_depth"] = std::round(depthMm);
            if (widthMm > 0 || depthMm > 0) body["outer_unit"] = "mm";
            if (weight > 0) body["weight"] = weight, body["weight_unit"] = "kg";
            if (m_cooling) {
                // NetBox 4.7 RackCoolingCapabilityChoices from the catalog's liquid share; the capacity (kW)
                // is the rack's rated load, the heat it is built to remove. Racks copy both from their type.
                const double liquid = catalogValue(item, "liquid_fraction", 0);
                const char* capability = liquid <= 0 ? "air-only" : liquid >= 1 ? "liquid-only" : "hybrid";
                const double kw = hundredths(catalogValue(item, "power_load_w", 0) / 1000);
                row.insert(row.end(), {capability, kw > 0 ? num(kw) : CsvCell("")});
                body["cooling_capability"] = capability;
                if (kw > 0) body["cooling_capacity"] = kw;
            }
            row.push_back("catalog id " + r.rackType);
            m_rackTypes.rows.push_back(std::move(row));
            m_bodies["dcim/rack-types"].push_back(body);
        }
    }

    void racks() {
        for (const auto& r : m_p.racks) {
            const std::string siteId = siteOfRow(r.row);
            const std::string name = m_names.take(siteId + "/racks", r.name, slug(r.id));
            m_rackName[r.id] = name;
            const CatalogItem* item = m_catalog.find(r.rackType);
            ojson tag = {{"kind", "rack"},
                         {"x_m", r.x.value()},
                         {"y_m", r.y.value()},
                         {"rotation_deg", r.rotationDeg},
                         {"spare", r.spare}};
            // From NetBox 4.7 the rack's cooling feed names its loop.
            if (!m_cooling) tag["cooling_loop"] = r.coolingLoop;
            m_racks.rows.push_back({m_siteName[siteId], m_locName[r.row], name, r.id, "active",
                                    item ? item->name : r.rackType, tagLine(tag)});
            m_bodies["dcim/racks"].push_back({{"site", {{"slug", slug(siteId)}}},
                                              {"location", {{"slug", slug(r.row)}}},
                                              {"name", name},
                                              {"facility_id", r.id},
                                              {"status", "active"},
                                              {"rack_type", {{"slug", slugOf(r.rackType)}}},
                                              {"comments", tagLine(tag)}});
        }
    }

    /// One power panel per ClusterTwin power feed.
    void panels() {
        for (const auto& f : m_p.powerFeeds) {
            const std::string siteId = m_buildingSite[f.building];
            const std::string name = m_names.take(siteId + "/panels", f.name, slug(f.id));
            m_panelName[f.id] = name;
            ojson tag = {
                {"kind", "power_feed"}, {"id", f.id}, {"capacity_w", f.capacity.value()}, {"chain", f.chain}};
            if (f.powerOversubscriptionRatio)
                tag["power_oversubscription_ratio"] = *f.powerOversubscriptionRatio;
            m_panels.rows.push_back({m_siteName[siteId], m_locName[f.building], name, "", tagLine(tag)});
            m_bodies["dcim/power-panels"].push_back({{"site", {{"slug", slug(siteId)}}},
                                                     {"location", {{"slug", slug(f.building)}}},
                                                     {"name", name},
                                                     {"comments", tagLine(tag)}});
        }
    }

    /// Per rack one NetBox power feed per side, from the panel of the rack's feed A (primary) and B
    /// (redundant).
    void feeds() {
        for (const auto& r : m_p.racks) {
            const std::string siteId = siteOfRow(r.row);
            // Amperage to carry the rack's load on one three-phase feed: P / (√3 · V · utilisation). No
            // catalog load (a network rack's switches are counted elsewhere): NetBox's default amperage.
            const double load = catalogValue(m_catalog.find(r.rackType), "power_load_w", 0);
            const double amps =
                std::ceil(load / (std::sqrt(3.0) * kFeedVoltage * kFeedMaxUtilization / 100.0));
            for (const auto& [feed, type, side] :
                 {std::tuple{r.feedA, "primary", "A"}, std::tuple{r.feedB, "redundant", "B"}}) {
                if (feed.empty() || !m_panelName.count(feed)) continue;
                const std::string name = m_rackName[r.id] + " " + side;
                m_feeds.rows.push_back({m_siteName[siteId], m_panelName[feed], m_locName[r.row],
                                        m_rackName[r.id], name, "active", type, "ac", "three-phase",
                                        num(kFeedVoltage), amps > 0 ? num(amps) : CsvCell(""),
                                        num(kFeedMaxUtilization)});
                // The panel is named within its site: NetBox resolves {"name", "site": {"slug"}} as one
                // lookup.
                ojson body = {
                    {"power_panel", {{"name", m_panelName[feed]}, {"site", {{"slug", slug(siteId)}}}}},
                    {"rack", {{"facility_id", r.id}}},
                    {"name", name},
                    {"status", "active"},
                    {"type", type},
                    {"supply", "ac"},
                    {"phase", "three-phase"},
                    {"voltage", kFeedVoltage},
                    {"max_utilization", kFeedMaxUtilization}};
                if (amps > 0) body["amperage"] = amps;
                m_bodies["dcim/power-feeds"].push_back(body);
            }
        }
    }

    /// One NetBox 4.7 cooling source per loop, in its hall: its type from the loop's plant, its capacity
    /// the installed CDUs' nameplate (count × capacity_w), the loop's own fields on its line.
    void coolingSources() {
        for (const auto& l : m_p.coolingLoops) {
            const std::string siteId = m_buildingSite[m_hallBuilding[l.hall]];
            const std::string name =
                m_names.take(siteId + "/cooling", l.name.empty() ? l.id : l.name, slug(l.id));
            m_sourceName[l.id] = name;
            const CatalogItem* plant = m_catalog.find(l.plant);
            const std::string plantType = plant ? plant->attribute("type") : std::string();
            const char* type =
                "chiller"; // NetBox requires a type; a loop without a plant is taken as chilled
            for (const auto& t : detail::kSourcePlantTypes)
                if (plantType == t.plant) type = t.netbox;
            const double kw =
                hundredths(l.cduCount * catalogValue(m_catalog.find(l.cduType), "capacity_w", 0) / 1000);
            ojson tag = {{"kind", "cooling_loop"}};
            tag.update(loopFields(l));
            m_coolingSources.rows.push_back({m_siteName[siteId], m_locName[l.hall], name, type, "active",
                                             "water", kw > 0 ? num(kw) : CsvCell(""), "", tagLine(tag)});
            ojson body = {{"site", {{"slug", slug(siteId)}}},
                          {"location", {{"slug", slug(l.hall)}}},
                          {"name", name},
                          {"type", type},
                          {"status", "active"},
                          {"fluid_type", "water"},
                          {"comments", tagLine(tag)}};
            if (kw > 0) body["cooling_capacity"] = kw;
            m_bodies["dcim/cooling-sources"].push_back(body);
        }
    }

    /// Per rack on a loop one cooling feed (supply and return): its capacity the rack's liquid heat at its
    /// catalog load, its flow what carries that heat at the loop's rise (liquid_loop.h), in L/min.
    void coolingFeeds() {
        std::unordered_map<std::string, const CoolingLoop*> loops;
        for (const auto& l : m_p.coolingLoops)
            loops[l.id] = &l;
        for (const auto& r : m_p.racks) {
            const auto loop = loops.find(r.coolingLoop);
            if (loop == loops.end()) continue;
            const std::string siteId = siteOfRow(r.row);
            const CatalogItem* item = m_catalog.find(r.rackType);
            const double heatW = detail::rackLiquidHeatW(item);
            const double kw = hundredths(heatW / 1000);
            const double lpm = hundredths(coolantFlowM3PerS(heatW, loop->second->deltaT.value()) * 60000);
            const std::string& source = m_sourceName[r.coolingLoop];
            m_coolingFeeds.rows.push_back({m_siteName[siteId], source, m_locName[r.row], m_rackName[r.id],
                                           m_rackName[r.id], "active", kw > 0 ? num(kw) : CsvCell(""),
                                           lpm > 0 ? num(lpm) : CsvCell(""), lpm > 0 ? "lpm" : ""});
            ojson body = {{"cooling_source", {{"name", source}, {"site", {{"slug", slug(siteId)}}}}},
                          {"rack", {{"facility_id", r.id}}},
                          {"name", m_rackName[r.id]},
                          {"status", "active"}};
            if (kw > 0) body["cooling_capacity"] = kw;
            if (lpm > 0) body["max_flow"] = lpm, body["max_flow_unit"] = "lpm";
            m_bodies["dcim/cooling-feeds"].push_back(body);
        }
    }

    const Project& m_p;
    const Catalog& m_catalog;
    const bool m_cooling; // NetBox 4.7 and later: cooling sources and feeds
    ojson m_bodies;
    std::unordered_map<std::string, std::string> m_siteName, m_buildingSite, m_hallBuilding, m_rowHall,
        m_locName, m_rackName, m_panelName, m_sourceName, m_slugs;
    std::set<std::string> m_usedSlugs;
    SiteNames m_names;
    Table m_manufacturers{{"name", "slug", "description"}, {}};
    Table m_sites{{"name", "slug", "status", "latitude", "longitude", "description", "comments"}, {}};
    Table m_locations{{"site", "parent", "name", "slug", "status", "description", "comments"}, {}};
    Table m_rackTypes{{"manufacturer", "model", "slug", "form_factor", "width", "u_height", "outer_width",
                       "outer_depth", "outer_unit", "weight", "weight_unit", "description"},
                      {}};
    Table m_racks{{"site", "location", "name", "facility_id", "status", "rack_type", "comments"}, {}};
    Table m_panels{{"site", "location", "name", "description", "comments"}, {}};
    Table m_feeds{{"site", "power_panel", "location", "rack", "name", "status", "type", "supply", "phase",
                   "voltage", "amperage", "max_utilization"},
                  {}};
    Table m_coolingSources{{"site", "location", "name", "type", "status", "fluid_type", "cooling_capacity",
                            "description", "comments"},
                           {}};
    Table m_coolingFeeds{{"site", "cooling_source", "location", "rack", "name", "status", "cooling_capacity",
                          "max_flow", "max_flow_unit"},
                         {}};
};

} // namespace

std::vector<ExportFile> exportNetBox(const Project& p, const Catalog& catalog,
                                     const std::string& netboxVersion) {
    if (!isSupportedNetBoxVersion(netboxVersion))
        throw InputError(InputLocation{"", "export", "", "", "netbox_version"},
                         "NetBox '" + netboxVersion +
                             "' is not a release the export writes for (4.6 or 4.7)");
    return Exporter(p, catalog, netboxVersion).run();
}

void writeNetBoxExport(const std::string& folder, const std::vector<ExportFile>& files) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder))
        throw InputError(InputLocation{folder, "", "", "", ""},
                         "cannot create the export folder" + (ec ? ": " + ec.message() : std::string()));
    for (const auto& f : files)
        writeFileAtomic((fs::path(folder) / f.name).string(), f.text);
}

} // namespace ctwin::cost::netbox
