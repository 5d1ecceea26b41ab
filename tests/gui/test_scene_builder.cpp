// Campus and site-map scene builders as plain data (no window, no GL): counts of glyphs, pipes and labels,
// colours for known inputs, placement, bad input, incremental updates, glTF export, CLI render usage errors.
#include "catalog.h"
#include "design_file.h"
#include "design_json.h"
#include "document.h"
#include "evaluate.h"
#include "geodesy.h"
#include "render_command.h"
#include "scene/campus_scene.h"
#include "scene/campus_scene_builder.h"
#include "scene/color_ramp.h"
#include "scene/design_replicator.h"
#include "scene/gltf_export.h"
#include "scene/rack_mesh.h"
#include "scene/site_map_builder.h"
#include "scene/site_map_scene.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <vtkActor.h>
#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkMapper.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPropCollection.h>
#include <vtkRenderer.h>
#include <vtkUnsignedCharArray.h>

using namespace ctwin;
using views::ColorMetric;
using views::ColorRamp;
using views::Rgb;

namespace {

const std::string kData = CTWIN_SOURCE_DATA_DIR;

const model::Catalog& catalog() {
    static const model::Catalog c = model::loadCatalogDirectory(kData + "/catalog");
    return c;
}

const model::AssumptionSet& assumptions() {
    static const model::AssumptionSet a = model::loadAssumptionsFile(kData + "/assumptions.json");
    return a;
}

model::Project reference(const std::string& name) {
    return store::loadDesign(kData + "/reference/" + name + ".json", &catalog());
}

model::CatalogItem item(std::string id, std::string category, std::string kind,
                        std::initializer_list<std::pair<const char*, double>> values) {
    model::CatalogItem it;
    it.id = std::move(id), it.name = it.id + " name", it.category = std::move(category),
    it.kind = std::move(kind);
    for (const auto& [k, v] : values)
        it.values[k] = model::CatalogValue{v, v, v, "test", false};
    return it;
}

/// Two rack types with round figures: A 100 kW at load / 30 kW idle, 0.6 x 1.2 m; B 50 kW, 0.8 x 1.0 m.
model::Catalog smallCatalog() {
    return model::Catalog(
        {item("t-a", "racks", "compute",
              {{"power_load_w", 100000}, {"power_idle_w", 30000}, {"width_m", 0.6}, {"depth_m", 1.2}}),
         item("t-b", "racks", "compute",
              {{"power_load_w", 50000}, {"power_idle_w", 10000}, {"width_m", 0.8}, {"depth_m", 1.0}}),
         item("t-cdu", "cooling", "cdu", {{"capacity_w", 1e6}, {"width_m", 1.0}, {"depth_m", 1.5}})});
}

/// One site, one building at (100, 50) 60 x 40 m, one hall at (10, 20) in it, one row, loops L1 (CDU at
/// (1, 1)) and L2; racks r1 (A, L1) at (2, 3), r2 (A, L1, spare) at (2.6, 3), r3 (B, no loop) at (5, 8)
/// rotated 90 degrees.
model::Project smallProject() {
    model::Project p;
    model::Site site;
    site.id = "s1", site.name = "Site one", site.latDeg = 40.0, site.lonDeg = -80.0;
    site.electricityUsdPerKwh = 0, site.freeCoolingHoursPerYear = 0;
    p.sites.push_back(site);
    model::Building b;
    b.id = "b1", b.name = "Bldg", b.site = "s1";
    b.x = units::meters(100), b.y = units::meters(50), b.width = units::meters(60),
    b.depth = units::meters(40);
    b.height = units::meters(12);
    p.buildings.push_back(b);
    model::DataHall h;
    h.id = "h1", h.name = "Hall", h.building = "b1";
    h.x = units::meters(10), h.y = units::meters(20), h.width = units::meters(30),
    h.depth = units::meters(15);
    p.halls.push_back(h);
    model::CoolingLoop l1, l2;
    l1.id = "L1", l1.name = "Loop one", l1.hall = "h1", l1.cduType = "t-cdu", l1.cdus = {{1.0, 1.0}};
    l2.id = "L2", l2.name = "Loop two", l2.hall = "h1", l2.cduType = "t-cdu";
    p.coolingLoops = {l1, l2};
    model::Row row;
    row.id = "row1", row.name = "Row", row.hall = "h1";
    p.rows.push_back(row);
    const auto rack = [](std::string id, std::string type, double x, double y, std::string loop, bool spare,
                         double rot) {
        model::RackPlacement r;
        r.id = id, r.name = id, r.row = "row1", r.rackType = std::move(type), r.coolingLoop = std::move(loop);
        r.x = units::meters(x), r.y = units::meters(y), r.spare = spare, r.rotationDeg = rot;
        return r;
    };
    p.racks = {rack("r1", "t-a", 2.0, 3.0, "L1", false, 0), rack("r2", "t-a", 2.6, 3.0, "L1", true, 0),
               rack("r3", "t-b", 5.0, 8.0, "", false, 90)};
    return p;
}

/// Where and in what colour the campus scene draws a rack, read back from the rack mesh (RackBatch): the
/// corners of its run's faces, its share of the run found from the texture coordinate of its colour texel
/// (the run's coordinate goes from its start end to its finish end over its racks' texels), and that
/// texel's colour in the colour texture. `centre` is the middle of the rack's box, `top` its highest
/// corner; `inRun` says the rack's texel lies within its run's texture span.
struct DrawnRack {
    double centre[3] = {0, 0, 0};
    double top = -1e300;
    Rgb colour;
    bool inRun = false;
};
DrawnRack rackBox(const views::CampusScene& scene, const std::string& id) {
    DrawnRack d;
    const auto range = scene.rackCells(id);
    const auto texel = scene.rackTexel(id);
    vtkPolyData* mesh = scene.rackBatch();
    auto* tcoords = mesh->GetPointData()->GetTCoords();
    if (!range || !texel || !tcoords) return d;
    std::set<vtkIdType> corners;
    for (vtkIdType c = range->first; c < range->first + range->second; ++c) {
        vtkIdType n = 0;
        const vtkIdType* ids = nullptr;
        mesh->GetCellPoints(c, n, ids);
        corners.insert(ids, ids + n);
    }
    const double w = views::RackBatch::kTextureWidth;
    double u0 = 1e300, u1 = -1e300;
    for (vtkIdType k : corners)
        u0 = std::min(u0, tcoords->GetComponent(k, 0) * w),
        u1 = std::max(u1, tcoords->GetComponent(k, 0) * w);
    d.inRun = (*texel)[0] >= u0 - 1e-3 && (*texel)[0] + 1 <= u1 + 1e-3;
    // Centre of the run's start and finish ends, then the rack's texel centre's share along the run.
    double start[3] = {0, 0, 0}, finish[3] = {0, 0, 0};
    for (vtkIdType k : corners) {
        double p[3];
        mesh->GetPoint(k, p);
        const bool atStart = std::abs(tcoords->GetComponent(k, 0) * w - u0) < 1e-3;
        for (int i = 0; i < 3; ++i)
            (atStart ? start : finish)[i] += p[i] / 4.0;
        d.top = std::max(d.top, p[2]);
    }
    const double t = u1 > u0 ? ((*texel)[0] + 0.5 - u0) / (u1 - u0) : 0.5;
    for (int i = 0; i < 3; ++i)
        d.centre[i] = start[i] + t * (finish[i] - start[i]);
    const auto* c =
        static_cast<const unsigned char*>(scene.rackColours()->GetScalarPointer((*texel)[0], (*texel)[1], 0));
    d.colour = Rgb{c[0], c[1], c[2]};
    return d;
}

bool near(double a, double b, double tol = 1e-9) {
    return std::abs(a - b) <= tol;
}

} // namespace

class TestSceneBuilder : public QObject {
    Q_OBJECT

private slots:
    void colourRampInterpolatesBetweenStops() {
        const auto v = ColorRamp::viridis(0.0, 4.0);
        QCOMPARE(v.at(0.0), Rgb::fromHex(0x440154));
        QCOMPARE(v.at(1.0), Rgb::fromHex(0x3b528b));
        QCOMPARE(v.at(4.0), Rgb::fromHex(0xfde725));
        QCOMPARE(v.at(-1.0), Rgb::fromHex(0x440154)); // clamped
        QCOMPARE(v.at(std::nan("")), ColorRamp::kNoData);
        // Halfway from 0x440154 to 0x3b528b: (0x44+0x3b)/2 = 63.5 -> 64, (0x01+0x52)/2 = 41.5 -> 42, ...
        QCOMPARE(v.at(0.5), (Rgb{64, 42, 112}));
        QCOMPARE(ColorRamp::thermalMargin().at(10.0), Rgb::fromHex(0xfee08b));
        QCOMPARE(ColorRamp::categorical(0), Rgb::fromHex(0x4e79a7));
        QCOMPARE(ColorRamp::categorical(10), ColorRamp::categorical(0));
    }

    void placesRacksInWorldCoordinates() {
        const auto p = smallProject();
        const auto c = smallCatalog();
        const auto d = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::PowerDensity);
        // Plan (x, y) of r1 = building (100, 50) + hall (10, 20) + rack (2, 3) = (112, 73); world y = -73.
        const auto* r1 = d.findRack("r1");
        QVERIFY(r1 && r1->placed);
        QVERIFY(near(r1->base[0], 112.0) && near(r1->base[1], -73.0) && near(r1->base[2], 0.0));
        QVERIFY(near(r1->width, 0.6) && near(r1->depth, 1.2) &&
                near(r1->height, views::CampusSceneBuilder::kDefaultRackHeightM));
        // Plan rotation 90 degrees (clockwise on the y-down plan) is -90 degrees about +z in the world.
        QVERIFY(near(d.findRack("r3")->rotationDeg, -90.0));
        QCOMPARE(d.rackGroups.size(), std::size_t{2});
        QCOMPARE(d.rackGroups[0].racks.size(), std::size_t{2}); // t-a: r1, r2
        QCOMPARE(d.buildings.size(), std::size_t{1});
        QVERIFY(near(d.buildings[0].min[0], 100.0) && near(d.buildings[0].min[1], -90.0)); // y = -(50 + 40)
        QCOMPARE(d.halls.size(), std::size_t{1});
        QCOMPARE(d.cdus.size(), std::size_t{1});
        QVERIFY(near(d.cdus[0].base[0], 111.0) && near(d.cdus[0].base[1], -71.0));
        QVERIFY(near(d.cdus[0].width, 1.0) && near(d.cdus[0].depth, 1.5));
        // One pipe run: loop L1 in row1 (r3 is air-cooled, L2 has no racks). CDU -> up -> r1 -> r2.
        QCOMPARE(d.tubes.size(), std::size_t{1});
        QCOMPARE(d.tubes[0].points.size(), std::size_t{4});
        QVERIFY(near(d.tubes[0].points[2][0], 112.0) && near(d.tubes[0].points[3][0], 112.6));
        // Labels: one building, no site label with a single site.
        QCOMPARE(d.labels.size(), std::size_t{1});
        QCOMPARE(d.labels[0].text, std::string("Bldg"));
        QVERIFY(d.notices.empty());
    }

    void coloursRacksByPowerDensity() {
        const auto p = smallProject();
        const auto c = smallCatalog();
        const auto d = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::PowerDensity);
        // kW per rack: r1 100 (load), r2 30 (spare at idle), r3 50. Range 30..100 on viridis.
        QVERIFY(near(d.findRack("r1")->value, 100.0) && near(d.findRack("r2")->value, 30.0));
        QCOMPARE(d.findRack("r1")->color, Rgb::fromHex(0xfde725));
        QCOMPARE(d.findRack("r2")->color, Rgb::fromHex(0x440154));
        // 50 kW is (50-30)/70 = 0.2857 of the range: between stop 1 (0.25) and stop 2 (0.5).
        QCOMPARE(d.findRack("r3")->color, ColorRamp::viridis(30.0, 100.0).at(50.0));
        QVERIFY(!d.legend.categorical && d.legend.categories.empty());
        QVERIFY(near(d.legend.stops.front().value, 30.0) && near(d.legend.stops.back().value, 100.0));
    }

    void coloursRacksByThermalMarginOfTheirLoop() {
        const auto p = smallProject();
        const auto c = smallCatalog();
        cost::Results results;
        cost::LoopBom l1;
        l1.loopId = "L1";
        // 900 kW of heat on 1 MW installed (redundant units out): margin (1000-900)/1000 = 10 %.
        l1.liquidHeat = units::kilowatts(900), l1.installedCapacity = units::kilowatts(1000);
        results.bom.loops.push_back(l1);
        const auto d = views::CampusSceneBuilder(p, c).build({p, c, &results}, ColorMetric::ThermalMargin);
        QVERIFY(near(d.findRack("r1")->value, 10.0));
        QCOMPARE(d.findRack("r1")->color, Rgb::fromHex(0xfee08b));
        QCOMPARE(d.findRack("r3")->color, ColorRamp::kNoData); // air-cooled: no loop
        QCOMPARE(d.tubes[0].color, Rgb::fromHex(0xfee08b));    // the pipe carries its loop's margin
        QVERIFY(d.notices.empty());
        // Without results: grey and a notice that says why.
        const auto none = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::ThermalMargin);
        QCOMPARE(none.findRack("r1")->color, ColorRamp::kNoData);
        QCOMPARE(none.notices.size(), std::size_t{1});
        QVERIFY(QString::fromStdString(none.notices[0]).contains("evaluation"));
    }

    void coloursRacksByTypeAndBlastRadius() {
        const auto p = smallProject();
        const auto c = smallCatalog();
        const auto t = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::RackType);
        QCOMPARE(t.findRack("r1")->color, ColorRamp::categorical(0));
        QCOMPARE(t.findRack("r3")->color, ColorRamp::categorical(1));
        QCOMPARE(t.legend.categories.size(), std::size_t{2});
        QCOMPARE(t.legend.categories[0].label, std::string("t-a name"));
        const auto l = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::CoolingLoop);
        QCOMPARE(l.findRack("r1")->color, ColorRamp::categorical(0)); // L1 is the first loop
        QCOMPARE(l.findRack("r3")->color, ColorRamp::kNoData);
        QCOMPARE(l.legend.categories.size(), std::size_t{3}); // L1, L2, air-cooled
        QCOMPARE(l.legend.categories.back().label, std::string("air-cooled"));
    }

    /// The Timeline's date cursor (issue 34 item 5): racks of a hall not yet energised take one grey
    /// whatever the metric; the other halls keep their colours, and clearing the list restores them.
    void dimmedHallsGreyTheirRacks() {
        const auto p = reference("two-site-wan");
        const views::CampusSceneBuilder b(p, catalog());
        auto d = b.build({p, catalog(), nullptr}, ColorMetric::RackType);
        const auto before = d.racks;
        d.dimmedHalls.assign(p.halls.size(), false);
        d.dimmedHalls[0] = true;
        b.recolour(d, nullptr);
        std::size_t greyed = 0, kept = 0;
        const Rgb grey = views::kDimmedRack;
        for (std::size_t i = 0; i < d.racks.size(); ++i) {
            if (!d.racks[i].placed) continue;
            if (d.racks[i].hall == 0) {
                QCOMPARE(d.racks[i].color, grey);
                ++greyed;
            } else {
                QCOMPARE(d.racks[i].color, before[i].color);
                ++kept;
            }
        }
        QVERIFY(greyed > 0 && kept > 0);
        d.dimmedHalls.clear();
        b.recolour(d, nullptr);
        for (std::size_t i = 0; i < d.racks.size(); ++i)
            QCOMPARE(d.racks[i].color, before[i].color);
    }

    void neocloudCounts() {
        const auto p = reference("neocloud-100k-gb200");
        const auto r = cost::evaluate(p, catalog(), assumptions());
        const auto d =
            views::CampusSceneBuilder(p, catalog()).build({p, catalog(), &r}, ColorMetric::ThermalMargin);
        // 1,418 GB200 NVL72 racks and a network rack at the start of each of its 96 rows (issue 36).
        QCOMPARE(d.racks.size(), std::size_t{1418 + 96});
        QCOMPARE(d.placedRackCount(), std::size_t{1418 + 96});
        QCOMPARE(d.rackGroups.size(), std::size_t{2}); // GB200 NVL72 and the network rack: two glyph sets
        QCOMPARE(d.buildings.size(), std::size_t{4});
        QCOMPARE(d.halls.size(), std::size_t{8});
        QCOMPARE(d.grounds.size(), std::size_t{1});
        QCOMPARE(d.labels.size(), std::size_t{4});
        std::size_t cdus = 0;
        for (const auto& l : p.coolingLoops)
            cdus += l.cdus.size();
        QCOMPARE(d.cdus.size(), cdus);
        std::set<std::pair<std::string, std::string>> runs;
        for (const auto& rack : p.racks)
            if (!rack.coolingLoop.empty()) runs.insert({rack.coolingLoop, rack.row});
        QCOMPARE(d.tubes.size(), runs.size());
        QVERIFY(d.notices.empty());
        // Every loop of the reference has results, so no liquid-cooled rack is grey; the rows' network racks
        // are air-cooled, with no loop margin to show (grey, "no data").
        for (const auto& rack : d.racks)
            QCOMPARE(std::isnan(rack.value), rack.coolingLoop.empty());
        // Racks stay inside their building's footprint.
        for (const auto& rack : d.racks) {
            bool inside = false;
            for (const auto& b : d.buildings)
                inside = inside || (rack.base[0] > b.min[0] && rack.base[0] < b.min[0] + b.size[0] &&
                                    rack.base[1] > b.min[1] && rack.base[1] < b.min[1] + b.size[1]);
            QVERIFY2(inside, rack.id.c_str());
        }
    }

    void twoSitesSitSideBySideWithLabels() {
        const auto p = reference("two-site-wan");
        const auto d =
            views::CampusSceneBuilder(p, catalog()).build({p, catalog(), nullptr}, ColorMetric::RackType);
        QCOMPARE(d.grounds.size(), std::size_t{2});
        QCOMPARE(d.labels.size(), std::size_t{4}); // two buildings, two sites
        // The second campus starts east of the first one's ground.
        QVERIFY(d.grounds[1].min[0] > d.grounds[0].min[0] + d.grounds[0].size[0]);
    }

    void siteMapLabelsLinksWithKmMsTbps() {
        const auto p = reference("two-site-wan");
        const auto r = cost::evaluate(p, catalog(), assumptions());
        const auto m = views::SiteMapBuilder::build({p, catalog(), &r});
        QCOMPARE(m.sites.size(), std::size_t{2});
        QCOMPARE(m.links.size(), std::size_t{1});
        const auto& l = m.links[0];
        // Route = geodesic x route factor 1.3: (42.7 N, 87.93 W) - (33.45 N, 84.45 W) on WGS84 is 1,070.904
        // km (Vincenty by hand); x 1.3 = 1,392.175 km; one-way x 4.9 us/km = 6.8217 ms; 160 Tbps; budget 15
        // ms.
        QVERIFY(near(l.routeKm, 1392.175, 1e-3));
        QVERIFY(near(l.latencyMs, 6.8217, 1e-4));
        QVERIFY(near(l.capacityTbps, 160.0, 1e-9));
        QVERIFY(!l.overBudget);
        QCOMPARE(l.color, views::SiteMapBuilder::kLinkColor);
        QVERIFY(l.label.find("1392 km") != std::string::npos);
        QVERIFY(l.label.find("6.82 ms") != std::string::npos);
        QVERIFY(l.label.find("160.0 Tbps") != std::string::npos);
        QVERIFY(l.path.size() > 10);
        QVERIFY(!m.graticule.empty());
        QVERIFY(m.notices.empty());
        // Wisconsin is north of Atlanta on the map.
        QVERIFY(m.sites[0].position[1] > m.sites[1].position[1]);
    }

    void siteMapWarnsWhenALinkIsOverItsBudget() {
        auto p = reference("vera-rubin-504");
        p.links[0].latencyBudget = units::seconds(0.001);
        const auto r = cost::evaluate(p, catalog(), assumptions());
        const auto m = views::SiteMapBuilder::build({p, catalog(), &r});
        QCOMPARE(m.links.size(), std::size_t{2});
        QVERIFY(m.links[0].overBudget);
        QCOMPARE(m.links[0].color, views::SiteMapBuilder::kWarningColor);
        QVERIFY(m.links[0].label.find("OVER") != std::string::npos);
        // Route = great circle x 1.3 (route factor); latency 4.9 us/km.
        const double gc = cost::geodesicDistance(40.04, -76.31, 33.02, -96.7).value() / 1e3;
        QVERIFY(near(m.links[0].routeKm, gc * 1.3, 1e-6));
        QVERIFY(near(m.links[0].latencyMs, gc * 1.3 * 4.9e-3, 1e-6));
        QVERIFY(!m.links[1].overBudget);
        // Without results the builder estimates the same figures and says so.
        const auto e = views::SiteMapBuilder::build({p, catalog(), nullptr});
        QVERIFY(near(e.links[0].routeKm, gc * 1.3, 1e-6));
        QVERIFY(!e.links[0].fromResults);
        QVERIFY(!e.notices.empty());
    }

    void badInputNoGeometry() {
        // Racks whose rows are missing, no buildings: nothing drawn, a notice, no crash.
        auto p = smallProject();
        p.buildings.clear(), p.halls.clear();
        const auto c = smallCatalog();
        const auto d = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::PowerDensity);
        QCOMPARE(d.placedRackCount(), std::size_t{0});
        QVERIFY(d.rackGroups.empty());
        QVERIFY(d.tubes.empty());
        QCOMPARE(d.notices.size(), std::size_t{2});
        QVERIFY(QString::fromStdString(d.notices[0]).contains("Nothing to draw"));
        QVERIFY(QString::fromStdString(d.notices[1]).contains("3 rack(s) not drawn"));
        views::CampusScene scene;
        scene.showProject({p, c, nullptr}, ColorMetric::PowerDensity);
        QVERIFY(scene.noticeVisible());
        QVERIFY(!scene.pickRack(10, 10)); // no window: nothing to pick, no crash
        // Empty project.
        const model::Project empty;
        scene.showProject({empty, c, nullptr}, ColorMetric::ThermalMargin);
        QVERIFY(scene.noticeVisible());
        views::SiteMapScene map;
        map.showProject({empty, c, nullptr});
        QVERIFY(map.noticeVisible());
        QVERIFY(QString::fromStdString(map.noticeText()).contains("No sites"));
    }

    void badInputRacksWithoutPositionsAndZeroSizeHalls() {
        auto p = smallProject();
        for (auto& r : p.racks)
            r.x = units::meters(0), r.y = units::meters(0);
        p.halls[0].width = units::meters(0);
        p.buildings[0].depth = units::meters(0);
        const auto c = smallCatalog();
        const auto d = views::CampusSceneBuilder(p, c).build({p, c, nullptr}, ColorMetric::PowerDensity);
        QCOMPARE(d.placedRackCount(), std::size_t{3}); // still drawn, stacked
        QVERIFY(d.halls.empty() && d.buildings.empty());
        std::string all;
        for (const auto& n : d.notices)
            all += n + "\n";
        QVERIFY2(all.find("2 rack(s) share a position") != std::string::npos, all.c_str());
        QVERIFY2(all.find("without a floor size: 'Hall'") != std::string::npos, all.c_str());
        QVERIFY2(all.find("without a footprint") != std::string::npos, all.c_str());
        // Unknown rack type: grey, default size, notice.
        auto q = smallProject();
        q.racks[0].rackType = "no-such-rack";
        const auto u = views::CampusSceneBuilder(q, c).build({q, c, nullptr}, ColorMetric::PowerDensity);
        QCOMPARE(u.findRack("r1")->color, ColorRamp::kNoData);
        QVERIFY(u.notices.back().find("no-such-rack") != std::string::npos);
    }

    void badInputSitesAtIdenticalCoordinates() {
        auto p = reference("vera-rubin-504");
        p.sites[1].latDeg = p.sites[0].latDeg, p.sites[1].lonDeg = p.sites[0].lonDeg;
        const auto m = views::SiteMapBuilder::build({p, catalog(), nullptr});
        QVERIFY(m.sites[0].displaced && m.sites[1].displaced && !m.sites[2].displaced);
        QVERIFY(m.sites[0].position != m.sites[1].position);
        bool noticed = false;
        for (const auto& n : m.notices)
            noticed = noticed || n.find("identical coordinates") != std::string::npos;
        QVERIFY(noticed);
        // The link between the two now co-located sites still gets its figures and a label.
        QCOMPARE(m.links.size(), std::size_t{2});
        views::SiteMapScene scene;
        scene.showData(m);
        QVERIFY(scene.noticeVisible());
        // Labels: 3 sites + 2 links + graticule labels.
        QCOMPARE(scene.textActorCount(), 5 + m.graticuleLabels.size());
    }

    void sceneActorsMatchTheData() {
        const auto p = reference("neocloud-100k-gb200");
        views::CampusScene scene;
        scene.showProject({p, catalog(), nullptr}, ColorMetric::PowerDensity);
        QCOMPARE(scene.labelActorCount(), std::size_t{4});
        // The runs of each hall holding racks, all in one mesh: a run of touching racks is one box of 5
        // faces (top, front, back, two ends) on 8 corners; every placed rack is in exactly one run and has
        // its own colour texel.
        std::set<std::size_t> halls;
        for (const auto& r : scene.data().racks)
            if (r.placed) halls.insert(r.hall);
        QCOMPARE(scene.rackMeshCount(), halls.size());
        vtkPolyData* mesh = scene.rackBatch();
        const auto runs = static_cast<vtkIdType>(scene.rackRunCount());
        QCOMPARE(mesh->GetNumberOfCells(), 5 * runs);
        QCOMPARE(mesh->GetNumberOfPoints(), 8 * runs);
        std::set<vtkIdType> runsSeen;
        std::set<std::pair<int, int>> texels;
        for (const auto& r : scene.data().racks) {
            const auto range = scene.rackCells(r.id);
            QVERIFY(range && range->second == 5 && range->first % 5 == 0);
            runsSeen.insert(range->first / 5);
            const auto texel = *scene.rackTexel(r.id);
            texels.insert({texel[0], texel[1]});
            QVERIFY(rackBox(scene, r.id).inRun);
        }
        QCOMPARE(static_cast<vtkIdType>(runsSeen.size()), runs);
        QCOMPARE(texels.size(), std::size_t{1418 + 96}); // with the network racks
        // The neocloud reference stands its racks in long rows: far fewer runs than racks.
        QVERIFY(runs < vtkIdType{1418 / 4});
        // Rack 5 of the first type: its faces carry its colour and its corners surround its footprint.
        const auto& r0 = scene.data().racks[scene.data().rackGroups[0].racks[5]];
        QVERIFY(scene.rackMeshSlot(r0.id));
        const auto box = rackBox(scene, r0.id);
        QVERIFY(near(box.centre[0], r0.base[0], 1e-3) && near(box.centre[1], r0.base[1], 1e-3));
        QVERIFY(near(box.top, r0.base[2] + r0.height, 1e-4));
        QCOMPARE(box.colour, r0.color);
        // Its faces map back to it.
        const auto* actorOfMesh = [&]() -> const vtkProp* {
            vtkPropCollection* props = scene.renderer()->GetViewProps();
            props->InitTraversal();
            while (vtkProp* prop = props->GetNextProp())
                if (auto* a = vtkActor::SafeDownCast(prop);
                    a && a->GetMapper() && a->GetMapper()->GetInput() == mesh)
                    return a;
            return nullptr;
        }();
        QVERIFY(actorOfMesh);
        // A point on any face of its run, over its footprint, maps to it; one rack width along, to the next
        // rack of the run (when the run goes on).
        const auto range = *scene.rackCells(r0.id);
        const double atRack[3] = {r0.base[0], r0.base[1], r0.base[2] + r0.height};
        for (vtkIdType f = range.first; f < range.first + range.second; ++f)
            QCOMPARE(scene.rackOfCell(actorOfMesh, f, atRack).value_or(""), r0.id);
        const double a = r0.rotationDeg * std::acos(-1.0) / 180.0;
        const double along[3] = {r0.base[0] + r0.width * std::cos(a), r0.base[1] + r0.width * std::sin(a),
                                 atRack[2]};
        const auto next = scene.rackOfCell(actorOfMesh, range.first + 1, along);
        QVERIFY(next);
        if (*next != r0.id) {
            const auto* n = scene.data().findRack(*next);
            QVERIFY(n && near(n->base[0], along[0], 1e-3) && near(n->base[1], along[1], 1e-3));
        }
        QVERIFY(!scene.rackOfCell(actorOfMesh, mesh->GetNumberOfCells(), atRack));
        QVERIFY(!scene.rackOfCell(actorOfMesh, -1, atRack));
        QVERIFY(!scene.rackOfCell(nullptr, range.first, atRack));
        QVERIFY(scene.tubeGeometry()->GetNumberOfCells() >=
                static_cast<vtkIdType>(scene.data().tubes.size()));
        QVERIFY(!scene.noticeVisible());
        // Level of detail: rows of adjacent same-coloured racks merge into far fewer boxes.
        scene.setInteractiveLod(true);
        QVERIFY(scene.lodBoxCount() > 0 && scene.lodBoxCount() < 1418 / 5);
        scene.setInteractiveLod(false);
    }

    void incrementalUpdateMovesOneGlyph() {
        model::Document doc(reference("neocloud-100k-gb200"), &catalog());
        auto results = cost::evaluate(doc.project(), catalog(), assumptions());
        views::CampusScene scene;
        scene.showProject({doc.project(), catalog(), &results}, ColorMetric::PowerDensity);
        const std::string id = doc.project().racks[10].id, otherRack = doc.project().racks[11].id;
        const auto slot = scene.rackMeshSlot(id);
        QVERIFY(slot);
        vtkPolyData* before = scene.rackBatch();
        const auto b0 = rackBox(scene, id), o0 = rackBox(scene, otherRack);
        const double x = doc.project().racks[10].x.value();

        model::ChangeSet moved;
        {
            model::Transaction t(doc, "move rack");
            t.setProperty(id, "x_m", x + 1.5);
            moved = t.commit();
        }
        results = cost::evaluate(doc.project(), catalog(), assumptions());
        QCOMPARE(scene.applyChanges(moved, {doc.project(), catalog(), &results}),
                 views::CampusScene::Update::Incremental);
        QCOMPARE(scene.rackBatch(), before); // the same mesh, put together again in place
        QCOMPARE(scene.rackMeshSlot(id)->first, slot->first);
        const auto b1 = rackBox(scene, id), o1 = rackBox(scene, otherRack);
        QVERIFY(near(b1.centre[0] - b0.centre[0], 1.5, 1e-4) && near(b1.centre[1], b0.centre[1], 1e-4));
        QVERIFY(near(o1.centre[0], o0.centre[0], 1e-4) && near(o1.centre[1], o0.centre[1], 1e-4));

        // Making it a spare drops it to idle power: only its colour changes (range unchanged).
        const auto colours = [&] {
            std::vector<Rgb> v;
            for (const auto& rack : scene.data().racks)
                v.push_back(rack.color);
            return v;
        };
        const auto c0 = colours();
        const bool wasSpare = doc.project().racks[10].spare;
        model::ChangeSet spare;
        {
            model::Transaction t(doc, "spare");
            t.setProperty(id, "spare", !wasSpare);
            spare = t.commit();
        }
        QCOMPARE(scene.applyChanges(spare, {doc.project(), catalog(), nullptr}),
                 views::CampusScene::Update::Incremental);
        const auto c1 = colours();
        std::size_t changed = 0;
        for (std::size_t i = 0; i < c0.size(); ++i)
            changed += c0[i] == c1[i] ? 0 : 1;
        QCOMPARE(changed, std::size_t{1});
        QVERIFY(!(scene.data().findRack(id)->color == c0[scene.data().rackIndex.at(id)]));
        // ...and its faces in the hall's mesh take the new colour.
        QCOMPARE(rackBox(scene, id).colour, scene.data().findRack(id)->color);

        // Moved to a row of another hall: it leaves its hall's mesh for the other hall's.
        const auto& rows = doc.project().rows;
        const auto& hallOf = [&](const std::string& rowId) {
            for (const auto& row : rows)
                if (row.id == rowId) return row.hall;
            return std::string();
        };
        const std::string oldHall = hallOf(doc.project().racks[10].row);
        const auto other =
            std::find_if(rows.begin(), rows.end(), [&](const auto& row) { return row.hall != oldHall; });
        QVERIFY(other != rows.end());
        const auto meshOf = [&](const std::string& rackId) { return scene.rackMeshSlot(rackId)->first; };
        std::string neighbour; // a rack already in the other hall
        for (const auto& rack : doc.project().racks)
            if (rack.row == other->id) neighbour = rack.id;
        QVERIFY(!neighbour.empty());
        QVERIFY(meshOf(id) != meshOf(neighbour));
        model::ChangeSet rehomed;
        {
            model::Transaction t(doc, "other hall");
            t.setProperty(id, "row", other->id);
            rehomed = t.commit();
        }
        QCOMPARE(scene.applyChanges(rehomed, {doc.project(), catalog(), nullptr}),
                 views::CampusScene::Update::Incremental);
        QCOMPARE(meshOf(id), meshOf(neighbour));
        // Every rack is still drawn (in some run, with its own colour), and the mesh holds just the runs.
        for (const auto& rack : scene.data().racks) {
            const auto drawnRack = rackBox(scene, rack.id);
            QVERIFY(drawnRack.inRun);
            QCOMPARE(drawnRack.colour, rack.color);
        }
        QCOMPARE(scene.rackBatch()->GetNumberOfCells(), 5 * static_cast<vtkIdType>(scene.rackRunCount()));
        const auto b2 = rackBox(scene, id);
        const auto* r2 = scene.data().findRack(id);
        QVERIFY(near(b2.centre[0], r2->base[0], 1e-3) && near(b2.centre[1], r2->base[1], 1e-3));

        // Structural changes rebuild.
        model::ChangeSet removed;
        {
            model::Transaction t(doc, "remove");
            t.remove(id);
            removed = t.commit();
        }
        QCOMPARE(scene.applyChanges(removed, {doc.project(), catalog(), nullptr}),
                 views::CampusScene::Update::Rebuilt);
        QCOMPARE(scene.data().racks.size(), std::size_t{1418 + 96 - 1});
        QVERIFY(!scene.data().findRack(id));
    }

    void resultsRecolourOnlyWhenNeeded() {
        const auto p = reference("neocloud-100k-gb200");
        const auto r = cost::evaluate(p, catalog(), assumptions());
        views::CampusScene scene;
        scene.showProject({p, catalog(), nullptr}, ColorMetric::ThermalMargin);
        QVERIFY(scene.noticeVisible());
        QCOMPARE(scene.showResults(&r), views::CampusScene::Update::Recoloured);
        QVERIFY(!scene.noticeVisible());
        QCOMPARE(scene.showResults(&r), views::CampusScene::Update::None);
        scene.setColorMetric(ColorMetric::CoolingLoop);
        // Its 10 loops and the air-cooled network racks' entry.
        QCOMPARE(scene.data().legend.categories.size(), std::size_t{11});
    }

    void replicatedCampusHas14kRacks() {
        const auto p = views::replicateCampus(reference("neocloud-100k-gb200"), 10);
        QCOMPARE(p.racks.size(), std::size_t{15140}); // 14,180 compute racks and 960 network racks
        const auto d =
            views::CampusSceneBuilder(p, catalog()).build({p, catalog(), nullptr}, ColorMetric::PowerDensity);
        QCOMPARE(d.placedRackCount(), std::size_t{15140});
        QCOMPARE(d.buildings.size(), std::size_t{40});
        QVERIFY(d.notices.empty());
        double gpus = 0;
        for (const auto& rack : p.racks)
            if (const auto* g = catalog().at(rack.rackType).find("gpus"))
                gpus += g->base; // not network racks
        QVERIFY(gpus > 1.0e6);
    }

    void exportsGltfAndGlb() {
        QTemporaryDir dir;
        const auto p = reference("neocloud-100k-gb200");
        views::CampusScene scene;
        scene.showProject({p, catalog(), nullptr}, ColorMetric::PowerDensity);
        const std::string gltf = dir.filePath("campus.gltf").toStdString();
        std::string error;
        QVERIFY2(views::writeGltf(scene.exportRenderer(), gltf, &error), error.c_str());
        std::ifstream in(gltf);
        const auto doc = nlohmann::json::parse(in);
        QCOMPARE(doc["asset"]["version"].get<std::string>(), std::string("2.0"));
        // Grounds, halls, building edges, racks, CDUs, pipes.
        QCOMPARE(doc["meshes"].size(), std::size_t{6});
        std::size_t racksWithColours = 0;
        for (const auto& m : doc["meshes"])
            for (const auto& prim : m["primitives"])
                if (prim["attributes"].contains("COLOR_0")) ++racksWithColours;
        QVERIFY(racksWithColours >= 2);
        // Racks: 1,418 compute and 96 network racks, boxes of 8 corners.
        bool found = false;
        for (const auto& a : doc["accessors"])
            found = found || a["count"].get<int>() == (1418 + 96) * 8;
        QVERIFY(found);

        const std::string glb = dir.filePath("campus.glb").toStdString();
        QVERIFY2(views::writeGltf(scene.exportRenderer(), glb, &error), error.c_str());
        std::ifstream bin(glb, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(bin)), std::istreambuf_iterator<char>());
        const auto u32 = [&](std::size_t at) {
            std::uint32_t v = 0;
            for (int i = 3; i >= 0; --i)
                v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
            return v;
        };
        QCOMPARE(bytes.substr(0, 4), std::string("glTF"));
        QCOMPARE(u32(4), 2u);
        QCOMPARE(static_cast<std::size_t>(u32(8)), bytes.size());
        const std::uint32_t jsonLength = u32(12);
        QCOMPARE(bytes.substr(16, 4), std::string("JSON"));
        const auto j = nlohmann::json::parse(bytes.substr(20, jsonLength));
        QCOMPARE(j["buffers"].size(), std::size_t{1});
        QCOMPARE(static_cast<std::size_t>(u32(20 + jsonLength)),
                 j["buffers"][0]["byteLength"].get<std::size_t>());
        QCOMPARE(bytes.substr(24 + jsonLength, 3), std::string("BIN"));
        QVERIFY(!views::writeGltf(scene.exportRenderer(), dir.filePath("campus.obj").toStdString(), &error));
        // Every buffer view says what it holds (glTF 2.0 §5.11.4; the Khronos validator hints otherwise).
        for (const auto& v : doc["bufferViews"])
            QVERIFY(v.value("target", 0) == 34962 || v.value("target", 0) == 34963);
        // A scene with nothing to draw is refused and leaves no file (issue 18).
        views::CampusScene empty;
        QVERIFY(!views::writeGltf(empty.exportRenderer(), dir.filePath("empty.glb").toStdString(), &error));
        QVERIFY(error.find("nothing to export") != std::string::npos);
        QVERIFY(!QFile::exists(dir.filePath("empty.glb")));
    }

    void renderCommandRejectsBadUsage() {
        std::ostringstream err;
        const std::string design = kData + "/reference/vera-rubin-504.json";
        QCOMPARE(app::renderToPng(design, "globe", "/tmp/x.png", 800, 600, err), 2);
        QCOMPARE(app::renderToPng(design, "campus:heat", "/tmp/x.png", 800, 600, err), 2);
        QCOMPARE(app::renderToPng(design, "map", "/tmp/x.png", 0, 600, err), 2);
        QCOMPARE(app::renderToPng(design, "map", "", 800, 600, err), 2);
        QVERIFY(err.str().find("--view") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestSceneBuilder)
#include "test_scene_builder.moc"
