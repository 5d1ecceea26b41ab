// NetBox interchange (issue 33 items 1-2): export to bulk-import CSV and REST request bodies, import from
// saved REST API list responses, the round trip, and the bad inputs.
//
// The API responses here follow NetBox 4.6's REST serializers (netbox-community/netbox 4.6.8,
// netbox/dcim/api/serializers_/): related objects nested as {"id", "url", "display", "name"/"slug"}, choice
// fields as {"value", "label"}, decimals (latitude, longitude) as strings, list responses as
// {"count", "next", "previous", "results"}. `serve` plays NetBox: it takes the request bodies the export
// wrote, gives each object an id, resolves the nested lookups as NetBox does (a dictionary of attributes) and
// answers list responses, split into pages.
#include "../test_support.h"
#include "design_file.h"
#include "netbox.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace ctwin;
using namespace ctwin::model;
namespace netbox = ctwin::cost::netbox;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

json listResponse(const json& results, long long count) {
    return {{"count", count}, {"next", nullptr}, {"previous", nullptr}, {"results", results}};
}

/// NetBox in miniature: posts the export's request bodies in order and saves the list responses into
/// `folder` (racks in pages of `pageSize` under dcim/racks/).
void serve(const std::string& bodiesText, const fs::path& folder, size_t pageSize) {
    const json bodies = json::parse(bodiesText);
    std::map<std::string, json> tables; // type -> array of objects with ids
    long long nextId = 1;
    // NetBox's nested lookup: the object of `type` whose attributes equal the dictionary's (nested
    // dictionaries compare against the related object).
    std::function<bool(const json&, const json&)> matches = [&](const json& obj, const json& query) {
        for (const auto& [k, v] : query.items()) {
            if (!obj.contains(k)) return false;
            if (v.is_object()) {
                const json& rel = obj[k];
                if (!rel.is_object() || !rel.contains("_full") || !matches(rel["_full"], v)) return false;
            } else if (obj[k] != v) {
                return false;
            }
        }
        return true;
    };
    const std::map<std::string, std::string> typeOfField = {{"site", "dcim/sites"},
                                                            {"parent", "dcim/locations"},
                                                            {"location", "dcim/locations"},
                                                            {"manufacturer", "dcim/manufacturers"},
                                                            {"rack_type", "dcim/rack-types"},
                                                            {"rack", "dcim/racks"},
                                                            {"power_panel", "dcim/power-panels"},
                                                            {"cooling_source", "dcim/cooling-sources"}};
    for (const auto& type : bodies["order"]) {
        for (json obj : bodies[type.get<std::string>()]) {
            for (auto& [field, value] : obj.items()) {
                if (!value.is_object()) continue;
                const auto& candidates = tables[typeOfField.at(field)];
                const auto it = std::find_if(candidates.begin(), candidates.end(),
                                             [&](const json& c) { return matches(c, value); });
                QVERIFY2(it != candidates.end(), ("unresolved " + field + " " + value.dump()).c_str());
                const auto hits = std::count_if(candidates.begin(), candidates.end(),
                                                [&](const json& c) { return matches(c, value); });
                QVERIFY2(hits == 1, ("ambiguous " + field + " " + value.dump()).c_str());
                value = {{"id", (*it)["id"]},
                         {"display", it->value("name", it->value("model", ""))},
                         {"slug", it->value("slug", "")},
                         {"_full", *it}};
            }
            obj["id"] = nextId++;
            // Choice fields come back as {"value", "label"}.
            for (const char* choice : {"status", "type", "supply", "phase", "fluid_type", "max_flow_unit"})
                if (obj.contains(choice) && obj[choice].is_string())
                    obj[choice] = {{"value", obj[choice]}, {"label", obj[choice]}};
            // Decimals come back as strings.
            for (const char* dec : {"latitude", "longitude", "cooling_capacity", "max_flow"})
                if (obj.contains(dec) && obj[dec].is_number())
                    obj[dec] = std::to_string(obj[dec].get<double>());
            tables[type.get<std::string>()].push_back(obj);
        }
    }
    // Drop the helper copies and save.
    for (auto& [type, objs] : tables) {
        for (auto& o : objs)
            for (auto& [k, v] : o.items())
                if (v.is_object()) v.erase("_full");
        const std::string name = type.substr(5); // "dcim/"
        if (name == "racks") {
            for (size_t start = 0, page = 1; start < objs.size(); start += pageSize, ++page) {
                json part = json::array();
                for (size_t i = start; i < std::min(objs.size(), start + pageSize); ++i)
                    part.push_back(objs[i]);
                char file[32];
                std::snprintf(file, sizeof file, "page-%04zu.json", page);
                writeText(folder / "dcim" / "racks" / file,
                          listResponse(part, static_cast<long long>(objs.size())).dump());
            }
        } else {
            writeText(folder / "dcim" / (name + ".json"),
                      listResponse(objs, static_cast<long long>(objs.size())).dump());
        }
    }
}

std::string errorOf(const std::function<void()>& f, InputLocation* where = nullptr) {
    try {
        f();
    } catch (const InputError& e) {
        if (where) *where = e.where();
        return e.what();
    }
    return {};
}

} // namespace

class TestNetBox : public QObject {
    Q_OBJECT
private slots:
    void exportFilesInDependencyOrder();
    void roundTripKeepsMappedFields();
    void importPlainNetBox();
    void badInputs();
};

void TestNetBox::exportFilesInDependencyOrder() {
    const Project p = test_support::reference("two-site-wan");
    const auto files = netbox::exportNetBox(p, test_support::catalog());
    QCOMPARE(files.size(), size_t(10));
    QCOMPARE(files[0].name, std::string("01-manufacturers.csv"));
    QCOMPARE(files[6].name, std::string("07-power-feeds.csv"));
    QCOMPARE(files[7].name, std::string("08-cooling-sources.csv"));
    QCOMPARE(files[8].name, std::string("09-cooling-feeds.csv"));
    // NetBox's own column names (dcim/forms/bulk_import.py), one line per object plus the header.
    QVERIFY(files[1].text.rfind("name,slug,status,latitude,longitude,description,comments\n", 0) == 0);
    QVERIFY(files[4].text.rfind("site,location,name,facility_id,status,rack_type,comments\n", 0) == 0);
    const auto lines = [](const std::string& t) {
        return static_cast<size_t>(std::count(t.begin(), t.end(), '\n'));
    };
    QCOMPARE(lines(files[1].text), p.sites.size() + 1);
    QCOMPARE(lines(files[2].text), p.buildings.size() + p.halls.size() + p.rows.size() + 1);
    QCOMPARE(lines(files[4].text), p.racks.size() + 1);
    QCOMPARE(lines(files[5].text), p.powerFeeds.size() + 1);
    // Comments carry JSON with commas and quotes: quoted as RFC 4180 ("" inside).
    QVERIFY(files[1].text.find(",\"clustertwin: {\"\"kind\"\":\"\"site\"\"") != std::string::npos);
    // A rack's feed amperage carries its catalog load at 415 V three-phase and 80% utilisation:
    // load / (√3 × 415 × 0.8), rounded up to whole amperes.
    const auto compute = std::find_if(p.racks.begin(), p.racks.end(), [](const RackPlacement& r) {
        return test_support::catalog().find(r.rackType)->kind == "compute" && !r.feedA.empty();
    });
    QVERIFY(compute != p.racks.end());
    const double load = test_support::catalog().find(compute->rackType)->value("power_load_w");
    const double amps = std::ceil(load / (std::sqrt(3.0) * 415.0 * 0.8));
    QVERIFY(files[6].text.find(",three-phase,415," + std::to_string(static_cast<int>(amps)) + ",80\n") !=
            std::string::npos);
    // NetBox 4.7 cooling (netbox_cooling.h's field names): one source per loop, rated at its installed
    // CDUs' nameplate (two-site-wan: 9 x cdu-2mw = 18,000 kW, a chiller plant), and one feed per rack on a
    // loop. A GB200 NVL72 rack: 132 kW x 0.85 liquid = 112.2 kW; the flow that carries it at a 10 K rise,
    // 112,200 / (4,181 x 10 x 997) m3/s = 161.50 L/min.
    QVERIFY(files[7].text.rfind(
                "site,location,name,type,status,fluid_type,cooling_capacity,description,comments\n", 0) == 0);
    QCOMPARE(lines(files[7].text), p.coolingLoops.size() + 1);
    QVERIFY(files[7].text.find(",chiller,active,water,18000,") != std::string::npos);
    QVERIFY(files[8].text.rfind(
                "site,cooling_source,location,rack,name,status,cooling_capacity,max_flow,max_flow_unit\n",
                0) == 0);
    const auto onLoop = std::count_if(p.racks.begin(), p.racks.end(),
                                      [](const RackPlacement& r) { return !r.coolingLoop.empty(); });
    QVERIFY(onLoop > 0);
    QCOMPARE(lines(files[8].text), static_cast<size_t>(onLoop) + 1);
    QVERIFY(files[8].text.find(",active,112.2,161.5,lpm\n") != std::string::npos);
    // Rack types carry NetBox 4.7's cooling capability and capacity (the rated load, kW).
    QVERIFY(files[3].text.find(",hybrid,132,catalog id gb200-nvl72\n") != std::string::npos);
    const json bodies = json::parse(files[9].text);
    QCOMPARE(bodies["order"].size(), size_t(9));
    QCOMPARE(bodies["netbox_version"], json("4.7"));
    QCOMPARE(bodies["dcim/cooling-feeds"][0]["max_flow_unit"], json("lpm"));
    // NetBox 4.6 has no cooling objects: 8 files, and each hall's loops ride on its clustertwin line.
    const auto old = netbox::exportNetBox(p, test_support::catalog(), "4.6");
    QCOMPARE(old.size(), size_t(8));
    QCOMPARE(json::parse(old.back().text)["order"].size(), size_t(7));
    QVERIFY(old[2].text.find("cooling_loops") != std::string::npos);
    QVERIFY(old[3].text.find("hybrid") == std::string::npos);
    QVERIFY(files[2].text.find("cooling_loops") == std::string::npos);
    QVERIFY(errorOf([&] { netbox::exportNetBox(p, test_support::catalog(), "3.7"); }).find("4.6 or 4.7") !=
            std::string::npos);
    QCOMPARE(netbox::slugOf("b1/h 2"), std::string("b1-h-2"));
}

void TestNetBox::roundTripKeepsMappedFields() {
    for (const auto& [name, version] : {std::pair{"two-site-wan", "4.7"}, std::pair{"two-site-wan", "4.6"},
                                        std::pair{"llama3-16k-h100", "4.7"}}) {
        Project p = test_support::reference(name);
        // Per-domain oversubscription ratios (issue 35) ride in the tags of sites and locations.
        p.sites.front().powerOversubscriptionRatio = 1.1;
        p.buildings.front().powerOversubscriptionRatio = 1.2;
        p.halls.front().powerOversubscriptionRatio = 1.3;
        if (!p.powerFeeds.empty()) p.powerFeeds.front().powerOversubscriptionRatio = 1.4;
        QTemporaryDir dir;
        const auto files = netbox::exportNetBox(p, test_support::catalog(), version);
        netbox::writeNetBoxExport(dir.filePath("export").toStdString(), files);
        QVERIFY(fs::exists(dir.filePath("export/netbox-request-bodies.json").toStdString()));
        serve(files.back().text, dir.filePath("api").toStdString(), 97);
        if (QTest::currentTestFailed()) return;
        const auto r = netbox::importNetBoxFolder(dir.filePath("api").toStdString(), test_support::catalog());
        const Project& q = r.project;
        QCOMPARE(q.sites.size(), p.sites.size());
        for (size_t i = 0; i < p.sites.size(); ++i) {
            QCOMPARE(q.sites[i].id, p.sites[i].id);
            QCOMPARE(q.sites[i].name, p.sites[i].name);
            QVERIFY(std::abs(q.sites[i].latDeg - p.sites[i].latDeg) < 1e-6);
            QVERIFY(std::abs(q.sites[i].lonDeg - p.sites[i].lonDeg) < 1e-6);
            QCOMPARE(q.sites[i].climateLocation, p.sites[i].climateLocation);
            QCOMPARE(q.sites[i].electricityUsdPerKwh, p.sites[i].electricityUsdPerKwh);
            QCOMPARE(q.sites[i].landCost.value(), p.sites[i].landCost.value());
            QCOMPARE(q.sites[i].powerOversubscriptionRatio, p.sites[i].powerOversubscriptionRatio);
        }
        QCOMPARE(q.buildings.size(), p.buildings.size());
        for (size_t i = 0; i < p.buildings.size(); ++i) {
            const auto &a = p.buildings[i], &b = q.buildings[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.site, a.site);
            QCOMPARE(b.powerCapacity.value(), a.powerCapacity.value());
            QCOMPARE(b.width.value(), a.width.value());
            QCOMPARE(b.powerTopology, a.powerTopology);
            QCOMPARE(b.energisationDate, a.energisationDate);
            QCOMPARE(b.powerOversubscriptionRatio, a.powerOversubscriptionRatio);
        }
        QCOMPARE(q.halls.size(), p.halls.size());
        for (size_t i = 0; i < p.halls.size(); ++i) {
            QCOMPARE(q.halls[i].id, p.halls[i].id);
            QCOMPARE(q.halls[i].building, p.halls[i].building);
            QCOMPARE(q.halls[i].x.value(), p.halls[i].x.value());
            QCOMPARE(q.halls[i].depth.value(), p.halls[i].depth.value());
            QCOMPARE(q.halls[i].refreshPolicy, p.halls[i].refreshPolicy);
            QCOMPARE(q.halls[i].powerOversubscriptionRatio, p.halls[i].powerOversubscriptionRatio);
        }
        QCOMPARE(q.coolingLoops.size(), p.coolingLoops.size());
        for (size_t i = 0; i < p.coolingLoops.size(); ++i) {
            QCOMPARE(q.coolingLoops[i].id, p.coolingLoops[i].id);
            QCOMPARE(q.coolingLoops[i].name, p.coolingLoops[i].name);
            QCOMPARE(q.coolingLoops[i].hall, p.coolingLoops[i].hall);
            QCOMPARE(q.coolingLoops[i].cduType, p.coolingLoops[i].cduType);
            QCOMPARE(q.coolingLoops[i].cduCount, p.coolingLoops[i].cduCount);
            QCOMPARE(q.coolingLoops[i].redundancy, p.coolingLoops[i].redundancy);
            QCOMPARE(q.coolingLoops[i].supplyTempC, p.coolingLoops[i].supplyTempC);
            QCOMPARE(q.coolingLoops[i].plant, p.coolingLoops[i].plant);
            QCOMPARE(q.coolingLoops[i].cdus, p.coolingLoops[i].cdus);
            QCOMPARE(q.coolingLoops[i].deltaT.value(), p.coolingLoops[i].deltaT.value());
        }
        QCOMPARE(q.rows.size(), p.rows.size());
        for (size_t i = 0; i < p.rows.size(); ++i) {
            QCOMPARE(q.rows[i].id, p.rows[i].id);
            QCOMPARE(q.rows[i].name, p.rows[i].name);
            QCOMPARE(q.rows[i].hall, p.rows[i].hall);
            QCOMPARE(q.rows[i].rotationDeg, p.rows[i].rotationDeg);
        }
        QCOMPARE(q.racks.size(), p.racks.size());
        for (size_t i = 0; i < p.racks.size(); ++i) {
            const auto &a = p.racks[i], &b = q.racks[i];
            QCOMPARE(b.id, a.id);
            QCOMPARE(b.name, a.name);
            QCOMPARE(b.row, a.row);
            QCOMPARE(b.rackType, a.rackType);
            QCOMPARE(b.x.value(), a.x.value());
            QCOMPARE(b.y.value(), a.y.value());
            QCOMPARE(b.feedA, a.feedA);
            QCOMPARE(b.feedB, a.feedB);
            QCOMPARE(b.coolingLoop, a.coolingLoop);
            QCOMPARE(b.spare, a.spare);
        }
        QCOMPARE(q.powerFeeds.size(), p.powerFeeds.size());
        for (size_t i = 0; i < p.powerFeeds.size(); ++i) {
            QCOMPARE(q.powerFeeds[i].id, p.powerFeeds[i].id);
            QCOMPARE(q.powerFeeds[i].building, p.powerFeeds[i].building);
            QCOMPARE(q.powerFeeds[i].capacity.value(), p.powerFeeds[i].capacity.value());
            QCOMPARE(q.powerFeeds[i].chain, p.powerFeeds[i].chain);
            QCOMPARE(q.powerFeeds[i].powerOversubscriptionRatio, p.powerFeeds[i].powerOversubscriptionRatio);
        }
        QVERIFY(!r.log.empty()); // the summary line
    }
}

void TestNetBox::importPlainNetBox() {
    // A NetBox ClusterTwin never wrote: one site, a building location with one hall below it (no rows), two
    // racks in the hall (one with a rack type the mapping file names, one whose devices say what it is), one
    // rack of an unknown type, one power panel with three-phase feeds and no ClusterTwin line.
    QTemporaryDir dir;
    const fs::path f = dir.path().toStdString();
    const json site = {{"id", 1},
                       {"url", "http://nb/api/dcim/sites/1/"},
                       {"display", "Austin"},
                       {"name", "Austin"},
                       {"slug", "austin"},
                       {"status", {{"value", "active"}, {"label", "Active"}}},
                       {"latitude", "30.267200"},
                       {"longitude", "-97.743100"},
                       {"comments", ""}};
    writeText(f / "dcim/sites.json", listResponse(json::array({site}), 1).dump());
    const json siteRef = {{"id", 1},
                          {"url", "http://nb/api/dcim/sites/1/"},
                          {"display", "Austin"},
                          {"name", "Austin"},
                          {"slug", "austin"}};
    const json locs = json::array({{{"id", 10},
                                    {"name", "DC1"},
                                    {"slug", "dc1"},
                                    {"site", siteRef},
                                    {"parent", nullptr},
                                    {"_depth", 0}},
                                   {{"id", 11},
                                    {"name", "Hall A"},
                                    {"slug", "dc1-hall-a"},
                                    {"site", siteRef},
                                    {"parent", {{"id", 10}, {"name", "DC1"}, {"slug", "dc1"}, {"_depth", 0}}},
                                    {"_depth", 1}}});
    writeText(f / "dcim/locations.json", listResponse(locs, 2).dump());
    writeText(f / "dcim/rack-types.json",
              listResponse(json::array({{{"id", 5}, {"model", "Oberon"}, {"slug", "nv-oberon-gb200"}},
                                        {{"id", 6}, {"model", "Mystery"}, {"slug", "mystery-42u"}}}),
                           2)
                  .dump());
    const json hallRef = {{"id", 11}, {"name", "Hall A"}, {"slug", "dc1-hall-a"}, {"_depth", 1}};
    const json racks =
        json::array({{{"id", 100},
                      {"name", "R01"},
                      {"facility_id", nullptr},
                      {"site", siteRef},
                      {"location", hallRef},
                      {"rack_type", {{"id", 5}, {"model", "Oberon"}, {"slug", "nv-oberon-gb200"}}},
                      {"u_height", 48}},
                     {{"id", 101},
                      {"name", "R02"},
                      {"facility_id", ""},
                      {"site", siteRef},
                      {"location", hallRef},
                      {"rack_type", nullptr},
                      {"u_height", 48}},
                     {{"id", 102},
                      {"name", "R03"},
                      {"site", siteRef},
                      {"location", hallRef},
                      {"rack_type", {{"id", 6}, {"model", "Mystery"}, {"slug", "mystery-42u"}}}}});
    writeText(f / "dcim/racks/1.json", listResponse(json::array({racks[0], racks[1]}), 3).dump());
    writeText(f / "dcim/racks/2.json", listResponse(json::array({racks[2]}), 3).dump());
    writeText(
        f / "dcim/device-types.json",
        listResponse(json::array({{{"id", 7}, {"model", "HGX B200"}, {"slug", "hgx-b200-4srv"}}}), 1).dump());
    writeText(f / "dcim/devices.json",
              listResponse(json::array({{{"id", 900},
                                         {"name", "gpu-1"},
                                         {"device_type", {{"id", 7}, {"slug", "hgx-b200-4srv"}}},
                                         {"rack", {{"id", 101}, {"name", "R02"}}},
                                         {"position", 10}}}),
                           1)
                  .dump());
    writeText(f / "dcim/power-panels.json",
              listResponse(
                  json::array({{{"id", 30}, {"name", "PP-1"}, {"site", siteRef}, {"location", hallRef}}}), 1)
                  .dump());
    const auto feed = [&](int id, int rack, const char* type) {
        return json{{"id", id},
                    {"name", "F" + std::to_string(id)},
                    {"power_panel", {{"id", 30}, {"name", "PP-1"}}},
                    {"rack", {{"id", rack}}},
                    {"type", {{"value", type}, {"label", type}}},
                    {"supply", {{"value", "ac"}}},
                    {"phase", {{"value", "three-phase"}, {"label", "Three-phase"}}},
                    {"voltage", 415},
                    {"amperage", 32},
                    {"max_utilization", 80}};
    };
    writeText(
        f / "dcim/power-feeds.json",
        listResponse(
            json::array({feed(40, 100, "primary"), feed(41, 100, "redundant"), feed(42, 102, "primary")}), 3)
            .dump());
    // NetBox 4.7 cooling (d7f79bd's serializers): a chiller in Hall A feeding R01 (its feed rated 50 kW,
    // below the rack's liquid heat), R02, R03 (left out with its rack) and a CDU (no rack); a CRAH in the
    // hall feeding R02; a dry cooler at the site level feeding nothing.
    const auto source = [&](int id, const char* name, const char* type, const json& location,
                            const json& capacity) {
        return json{{"id", id},
                    {"name", name},
                    {"site", siteRef},
                    {"location", location},
                    {"type", {{"value", type}, {"label", type}}},
                    {"status", {{"value", "active"}, {"label", "Active"}}},
                    {"fluid_type", {{"value", "water-glycol"}, {"label", "Water/glycol"}}},
                    {"cooling_capacity", capacity},
                    {"comments", ""}};
    };
    writeText(f / "dcim/cooling-sources.json",
              listResponse(json::array({source(60, "CH-1", "chiller", hallRef, "300.00"),
                                        source(61, "CRAH-1", "crah", hallRef, "150.00"),
                                        source(62, "DC-1", "dry-cooler", nullptr, nullptr)}),
                           3)
                  .dump());
    const auto coolingFeed = [&](int id, int src, const json& rack, const json& capacity) {
        return json{{"id", id},
                    {"name", "CF" + std::to_string(id)},
                    {"cooling_source", {{"id", src}, {"display", "source"}}},
                    {"rack", rack.is_null() ? json(nullptr) : json{{"id", rack}, {"name", "rack"}}},
                    {"status", {{"value", "active"}, {"label", "Active"}}},
                    {"cooling_capacity", capacity},
                    {"max_flow", "72.00"},
                    {"max_flow_unit", {{"value", "lpm"}, {"label", "Liters per minute (L/min)"}}}};
    };
    writeText(f / "dcim/cooling-feeds.json",
              listResponse(json::array({coolingFeed(70, 60, 100, "50.00"), coolingFeed(71, 60, 101, nullptr),
                                        coolingFeed(72, 60, 102, nullptr), coolingFeed(73, 61, 101, nullptr),
                                        coolingFeed(74, 60, nullptr, nullptr)}),
                           5)
                  .dump());
    const std::string mapping = (f / "map.json").string();
    writeText(mapping, R"({"rack_types": {"nv-oberon-gb200": "gb200-nvl72"}})");

    const auto r = netbox::importNetBoxFolder(f.string(), test_support::catalog(), mapping);
    const Project& p = r.project;
    QCOMPARE(p.sites.size(), size_t(1));
    QVERIFY(std::abs(p.sites[0].latDeg - 30.2672) < 1e-9);
    QCOMPARE(p.buildings.size(), size_t(1));
    QCOMPARE(p.buildings[0].id, std::string("dc1"));
    QCOMPARE(p.halls.size(), size_t(1));
    QCOMPARE(p.halls[0].building, std::string("dc1"));
    // Racks directly in the hall: one row for them; R03's type maps to nothing and is left out.
    QCOMPARE(p.rows.size(), size_t(1));
    QCOMPARE(p.racks.size(), size_t(2));
    QCOMPARE(p.racks[0].rackType, std::string("gb200-nvl72"));
    QCOMPARE(p.racks[0].id, std::string("rack-100"));
    QCOMPARE(p.racks[1].rackType, std::string("hgx-b200-4srv")); // from its device
    // Side by side from the row start (x 1 m): the second rack at 1 m + the first one's catalog width.
    const double w = test_support::catalog().find("gb200-nvl72")->value("width_m");
    QCOMPARE(p.racks[0].x.value(), 1.0);
    QCOMPARE(p.racks[1].x.value(), 1.0 + w);
    // Both of R01's feeds come from PP-1: one power path, so feed B stays empty (and the log says why).
    QCOMPARE(p.racks[0].feedA, std::string("panel-30"));
    QCOMPARE(p.racks[0].feedB, std::string());
    // Panel capacity: three feeds of 415 V × 32 A × √3 × 0.8 = 18,402.6 W each (NetBox's available power).
    QCOMPARE(p.powerFeeds.size(), size_t(1));
    QVERIFY(std::abs(p.powerFeeds[0].capacity.value() - 3 * 415.0 * 32 * std::sqrt(3.0) * 0.8) < 1e-6);
    QCOMPARE(p.powerFeeds[0].building, std::string("dc1"));
    const auto logged = [&](const std::string& s) {
        return std::any_of(r.log.begin(), r.log.end(),
                           [&](const std::string& l) { return l.find(s) != std::string::npos; });
    };
    QVERIFY(logged("rack R03 (NetBox id 102): type 'mystery-42u' maps to no catalog rack"));
    QVERIFY(logged("power panel PP-1: no ClusterTwin capacity"));
    QVERIFY(logged("rack R01: feeds F41 and its other side both come from panel PP-1"));
    // The chiller becomes one loop in Hall A for R01 and R02. Its load is their liquid heat: R01's GB200
    // NVL72 132 kW x 0.85 = 112.2 kW, R02's air-cooled HGX B200 0; N+1 needs 1 + 1 CDUs: 2 x cdu-1mw
    // ($400K) is cheaper than 2 x cdu-2mw ($700K).
    QCOMPARE(p.coolingLoops.size(), size_t(1));
    const CoolingLoop& loop = p.coolingLoops[0];
    QCOMPARE(loop.id, std::string("cooling-60"));
    QCOMPARE(loop.name, std::string("CH-1"));
    QCOMPARE(loop.hall, std::string("dc1-hall-a"));
    QCOMPARE(loop.cduType, std::string("cdu-1mw"));
    QCOMPARE(loop.cduCount, 2);
    QCOMPARE(loop.redundancy, std::string("N+1"));
    QCOMPARE(loop.plant, std::string("plant-chiller"));
    QCOMPARE(p.racks[0].coolingLoop, std::string("cooling-60"));
    QCOMPARE(p.racks[1].coolingLoop, std::string("cooling-60"));
    QVERIFY(
        logged("cooling source CH-1 (NetBox id 60): loop cooling-60 in hall dc1-hall-a, 2 racks, 112.2 kW "
               "of liquid heat; 2 x cdu-1mw (N+1), plant plant-chiller"));
    QVERIFY(logged("cooling source CRAH-1 (NetBox id 61): a crah is room air cooling"));
    QVERIFY(logged("left out with its 1 rack feeds"));
    QVERIFY(logged("cooling source DC-1 (NetBox id 62): in no hall and feeding no rack; left out"));
    QVERIFY(logged("1 cooling feeds name no rack"));
    QVERIFY(logged("1 cooling feeds rated below their rack's liquid heat (first: CF70: 50 kW for rack R01's "
                   "112.2 kW)"));
    // The same mapping saved beside the responses is used when no file is named (the GUI's import).
    fs::copy_file(mapping, f / "netbox-mapping.json");
    const auto beside = netbox::importNetBoxFolder(f.string(), test_support::catalog());
    QCOMPARE(beside.project.racks.size(), size_t(2));
    QCOMPARE(beside.project.racks[0].rackType, std::string("gb200-nvl72"));
    QVERIFY(beside.log.front().find("netbox-mapping.json") != std::string::npos);
    fs::remove(f / "netbox-mapping.json");
    // The imported design saves and loads as an ordinary design.
    const std::string out = (f / "imported.json").string();
    store::saveDesign(p, out);
    QCOMPARE(store::loadDesign(out, &test_support::catalog()).racks.size(), size_t(2));
}

void TestNetBox::badInputs() {
    const auto& catalog = test_support::catalog();
    QTemporaryDir dir;
    const fs::path f = dir.path().toStdString();
    InputLocation where;
    // Not a folder; no sites.
    QVERIFY(errorOf([&] {
                netbox::importNetBoxFolder((f / "nope").string(), catalog);
            }).find("not a folder") != std::string::npos);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where).find("missing") !=
            std::string::npos);
    QVERIFY(where.file.find("sites.json") != std::string::npos);
    // Malformed and truncated JSON.
    writeText(f / "dcim/sites.json", R"({"count": 1, "results": [{"id": 1, "slug": "a")");
    QVERIFY(
        errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where).find("not valid JSON") !=
        std::string::npos);
    // Not a list response.
    writeText(f / "dcim/sites.json", R"([{"id": 1}])");
    QVERIFY(errorOf([&] {
                netbox::importNetBoxFolder(f.string(), catalog);
            }).find("not a NetBox list response") != std::string::npos);
    // Duplicate slugs.
    writeText(
        f / "dcim/sites.json",
        R"({"count": 2, "results": [{"id": 1, "name": "A", "slug": "a"}, {"id": 2, "name": "B", "slug": "a"}]})");
    writeText(f / "dcim/racks.json", R"({"count": 0, "results": []})");
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where).find("used twice") !=
            std::string::npos);
    QCOMPARE(where.entityId, std::string("2"));
    QCOMPARE(where.field, std::string("slug"));
    // A rack in a site that is not in the files; a missing page (count disagrees).
    writeText(f / "dcim/sites.json", R"({"count": 1, "results": [{"id": 1, "name": "A", "slug": "a"}]})");
    writeText(f / "dcim/racks.json",
              R"({"count": 1, "results": [{"id": 5, "name": "R1", "site": {"id": 9}, "rack_type": null}]})");
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where)
                .find("site that is not in the files") != std::string::npos);
    QCOMPARE(where.entityName, std::string("R1"));
    QCOMPARE(where.field, std::string("site"));
    writeText(f / "dcim/racks.json",
              R"({"count": 2, "results": [{"id": 5, "name": "R1", "site": {"id": 1}}]})");
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }).find("a page is missing") !=
            std::string::npos);
    // A location loop; a bad mapping file; a broken clustertwin line.
    writeText(f / "dcim/racks.json", R"({"count": 0, "results": []})");
    writeText(f / "dcim/locations.json",
              R"({"count": 2, "results": [{"id": 1, "slug": "x", "site": {"id": 1}, "parent": {"id": 2}},
                                          {"id": 2, "slug": "y", "site": {"id": 1}, "parent": {"id": 1}}]})");
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }).find("loop") !=
            std::string::npos);
    fs::remove(f / "dcim/locations.json");
    writeText(f / "map.json", R"({"rack_types": {"a": 3}})");
    QVERIFY(errorOf([&] {
                netbox::importNetBoxFolder(f.string(), catalog, (f / "map.json").string());
            }).find("must be text") != std::string::npos);
    writeText(
        f / "dcim/sites.json",
        R"({"count": 1, "results": [{"id": 1, "name": "A", "slug": "a", "comments": "clustertwin: {oops"}]})");
    QVERIFY(
        errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where).find("not a JSON object") !=
        std::string::npos);
    QCOMPARE(where.field, std::string("comments"));
    // Cooling (NetBox 4.7): a feed from a source that is not in the files, a rack in another site than its
    // source, a type NetBox does not have, a negative capacity.
    writeText(f / "dcim/sites.json", R"({"count": 2, "results": [{"id": 1, "name": "A", "slug": "a"},
                                                                 {"id": 2, "name": "B", "slug": "b"}]})");
    writeText(f / "dcim/racks.json",
              R"({"count": 1, "results": [{"id": 5, "name": "R1", "site": {"id": 1}, "rack_type": null}]})");
    const auto sources = [&](const std::string& type, const std::string& capacity, int site) {
        writeText(f / "dcim/cooling-sources.json",
                  R"({"count": 1, "results": [{"id": 8, "name": "CH", "site": {"id": )" +
                      std::to_string(site) + R"(}, "type": {"value": ")" + type +
                      R"("}, "cooling_capacity": )" + capacity + "}]}");
    };
    const auto feedFrom = [&](int source) {
        writeText(f / "dcim/cooling-feeds.json",
                  R"({"count": 1, "results": [{"id": 9, "name": "CF", "cooling_source": {"id": )" +
                      std::to_string(source) + R"(}, "rack": {"id": 5}}]})");
    };
    sources("chiller", "\"100.00\"", 2);
    feedFrom(7);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where)
                .find("cooling source that is not in the files") != std::string::npos);
    QCOMPARE(where.entityKind, std::string("cooling feed"));
    QCOMPARE(where.field, std::string("cooling_source"));
    feedFrom(8);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where)
                .find("another site than its cooling source CH") != std::string::npos);
    QCOMPARE(where.field, std::string("rack"));
    sources("heat-pump", "null", 1);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where)
                .find("'heat-pump' is not a NetBox cooling source type") != std::string::npos);
    QCOMPARE(where.entityName, std::string("CH"));
    QCOMPARE(where.field, std::string("type"));
    sources("chiller", "-5", 1);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }, &where).find("non-negative") !=
            std::string::npos);
    QCOMPARE(where.field, std::string("cooling_capacity"));
    sources("chiller", "\"nan\"", 1);
    QVERIFY(errorOf([&] { netbox::importNetBoxFolder(f.string(), catalog); }).find("non-negative") !=
            std::string::npos);
    // An export folder that cannot be written: a file stands where the folder should be.
    writeText(f / "blocker", "x");
    const auto files = netbox::exportNetBox(test_support::reference("two-site-wan"), catalog);
    QVERIFY(!errorOf([&] { netbox::writeNetBoxExport((f / "blocker").string(), files); }).empty());
}

QTEST_APPLESS_MAIN(TestNetBox)
#include "test_netbox.moc"
