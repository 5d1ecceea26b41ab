// The campus and site map rendered offscreen through VTK/GL (needs an X server: ./dev test runs ctest under
// xvfb-run; without DISPLAY these tests skip). Checks the frame is not blank, that a known rack's pixel
// carries its colour (the rack's top-face centre projected with the renderer's world-to-display
// transform), picking, the map's warning colour and the CLI render function.
// Set CTWIN_SCREENSHOT_DIR to keep the frames as PNGs.
#include "../skip_test_program.h"
#include "catalog.h"
#include "design_file.h"
#include "design_json.h"
#include "evaluate.h"
#include "render_command.h"
#include "scene/campus_scene.h"
#include "scene/offscreen_renderer.h"
#include "scene/site_map_builder.h"
#include "scene/site_map_scene.h"

#include <QImage>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <vtkCamera.h>
#include <vtkImageData.h>
#include <vtkRenderer.h>

using namespace ctwin;
using views::ColorMetric;
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

void keep(views::OffscreenRenderer& r, const std::string& name) {
    if (const char* dir = std::getenv("CTWIN_SCREENSHOT_DIR"))
        r.writePng(std::string(dir) + "/" + name + ".png");
}

/// Distinct colours in the frame (a blank or background-only frame has few).
std::size_t distinctColours(views::OffscreenRenderer& r) {
    std::set<std::uint32_t> seen;
    for (int y = 0; y < r.height(); y += 2)
        for (int x = 0; x < r.width(); x += 2) {
            const auto p = *r.pixel(x, y);
            seen.insert((std::uint32_t{p.r} << 16) | (std::uint32_t{p.g} << 8) | p.b);
        }
    return seen.size();
}

/// A colour lit by the headlight on a face whose normal makes angle theta with the view: ambient 0.3 +
/// diffuse 0.7 cos(theta), no specular (the rack material of CampusScene; VTK's Phong shading).
Rgb shaded(Rgb c, double cosTheta) {
    const double k = 0.3 + 0.7 * cosTheta;
    const auto s = [k](std::uint8_t v) {
        return static_cast<std::uint8_t>(std::lround(std::min(255.0, v * k)));
    };
    return {s(c.r), s(c.g), s(c.b)};
}

bool close(Rgb a, Rgb b, int tol) {
    return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

QString str(Rgb c) {
    return QStringLiteral("(%1, %2, %3)").arg(c.r).arg(c.g).arg(c.b);
}

} // namespace

class TestSceneRender : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        std::string why;
        if (!views::OffscreenRenderer::displayAvailable(&why)) ctwin::test_support::skipTestProgram(why.c_str());
    }

    void rendersTwoReferenceCampuses_data() {
        QTest::addColumn<QString>("design");
        QTest::newRow("neocloud") << "neocloud-100k-gb200";
        QTest::newRow("campus-1gw") << "campus-1gw";
    }
    void rendersTwoReferenceCampuses() {
        QFETCH(QString, design);
        const auto p = reference(design.toStdString());
        const auto results = cost::evaluate(p, catalog(), assumptions());
        views::CampusScene scene;
        views::OffscreenRenderer r(1200, 800);
        r.attach(scene.renderer());
        scene.showProject({p, catalog(), &results}, ColorMetric::PowerDensity);
        std::string error;
        QVERIFY2(r.render(scene.renderer(), &error), error.c_str());
        keep(r, "campus-" + design.toStdString());
        QVERIFY2(distinctColours(r) > 200, qPrintable(QString::number(distinctColours(r))));

        // A hot spare (idle power: the bottom of the ramp) and a rack at load (the top), seen from close by.
        const views::RackInstance* spare = nullptr;
        const views::RackInstance* load = nullptr;
        for (const auto& rack : scene.data().racks) {
            if (rack.spare && !spare) spare = &rack;
            if (!rack.spare && !load) load = &rack;
        }
        QVERIFY(spare && load);
        QVERIFY(!(spare->color == load->color));
        for (const auto* rack : {spare, load}) {
            vtkCamera* cam = scene.renderer()->GetActiveCamera();
            const double top[3] = {rack->base[0], rack->base[1], rack->base[2] + rack->height};
            // 2 m east, 3 m south and 6 m above the rack top: cos(theta) with the top face = 6 / 7.
            cam->SetFocalPoint(top);
            cam->SetPosition(top[0] + 2.0, top[1] - 3.0, top[2] + 6.0);
            cam->SetViewUp(0.0, 0.0, 1.0);
            scene.renderer()->ResetCameraClippingRange();
            QVERIFY(r.render(scene.renderer()));
            keep(r, "rack-" + rack->id);
            const auto d = scene.rackDisplayPoint(rack->id);
            QVERIFY(d);
            const auto pixel =
                r.pixel(static_cast<int>(std::lround((*d)[0])), static_cast<int>(std::lround((*d)[1])));
            QVERIFY(pixel);
            const Rgb expected = shaded(rack->color, 6.0 / 7.0);
            QVERIFY2(close(*pixel, expected, 12), qPrintable(QString::fromStdString(rack->id) + " pixel " +
                                                             str(*pixel) + " expected " + str(expected)));
            // The pick at the same spot returns this rack (its mid-height centre would be hidden behind
            // the neighbour on the camera's side, and the pick returns what is visible).
            const auto picked = scene.pickRack((*d)[0], (*d)[1]).value_or("(none)");
            QVERIFY2(picked == rack->id, (picked + " instead of " + rack->id).c_str());
        }
    }

    void picksRacksInTheWholeCampusView() {
        const auto p = reference("neocloud-100k-gb200");
        views::CampusScene scene;
        views::OffscreenRenderer r(1600, 1000);
        r.attach(scene.renderer());
        scene.showProject({p, catalog(), nullptr}, ColorMetric::CoolingLoop);
        QVERIFY(r.render(scene.renderer()));
        keep(r, "campus-neocloud-loops");
        // Top-face centres of every 37th rack: the pick returns that rack, or (at 2-3 pixels per rack) a
        // neighbour whose box covers the same pixel, never empty space.
        int exact = 0, total = 0;
        for (std::size_t i = 0; i < scene.data().racks.size(); i += 37) {
            const auto& rack = scene.data().racks[i];
            const auto d = scene.rackDisplayPoint(rack.id);
            const auto picked = scene.pickRack((*d)[0], (*d)[1]);
            QVERIFY2(picked, rack.id.c_str());
            const auto* hit = scene.data().findRack(*picked);
            QVERIFY(std::hypot(hit->base[0] - rack.base[0], hit->base[1] - rack.base[1]) < 3.0);
            exact += *picked == rack.id ? 1 : 0;
            ++total;
        }
        QVERIFY2(exact * 10 >= total * 8, qPrintable(QStringLiteral("%1 of %2").arg(exact).arg(total)));
        // Sky above the campus picks nothing.
        QVERIFY(!scene.pickRack(5, r.height() - 5));
    }

    void rendersThermalMarginAndTwoSites() {
        for (const char* name : {"two-site-wan", "agentic-inference-gb300"}) {
            const auto p = reference(name);
            const auto results = cost::evaluate(p, catalog(), assumptions());
            views::CampusScene scene;
            views::OffscreenRenderer r(1200, 800);
            r.attach(scene.renderer());
            scene.showProject({p, catalog(), &results}, ColorMetric::ThermalMargin);
            QVERIFY(r.render(scene.renderer()));
            keep(r, std::string("campus-") + name + "-thermal");
            QVERIFY(distinctColours(r) > 100);
        }
    }

    void rendersTheSiteMapWithAWarningLink() {
        auto p = reference("vera-rubin-504");
        p.links[0].latencyBudget = units::seconds(0.001); // east-central over its budget
        const auto results = cost::evaluate(p, catalog(), assumptions());
        views::SiteMapScene scene;
        views::OffscreenRenderer r(1400, 900);
        r.attach(scene.renderer());
        scene.showProject({p, catalog(), &results});
        QVERIFY(r.render(scene.renderer()));
        keep(r, "map-vera-rubin");
        QVERIFY(distinctColours(r) > 50);
        // A quarter of the way along the over-budget arc (clear of its label) the pixels are the warning
        // colour.
        const auto& link = scene.data().links[0];
        QVERIFY(link.overBudget);
        const auto& at = link.path[link.path.size() / 4];
        vtkRenderer* ren = scene.renderer();
        ren->SetWorldPoint(at[0], at[1], 1.0, 1.0);
        ren->WorldToDisplay();
        double d[3];
        ren->GetDisplayPoint(d);
        bool warning = false;
        for (int dy = -3; dy <= 3 && !warning; ++dy)
            for (int dx = -3; dx <= 3 && !warning; ++dx)
                warning = close(*r.pixel(static_cast<int>(d[0]) + dx, static_cast<int>(d[1]) + dy),
                                views::SiteMapBuilder::kWarningColor, 40);
        QVERIFY(warning);

        const auto wan = reference("two-site-wan");
        const auto wanResults = cost::evaluate(wan, catalog(), assumptions());
        scene.showProject({wan, catalog(), &wanResults});
        QVERIFY(r.render(scene.renderer()));
        keep(r, "map-two-site-wan");
    }

    void rendersBadInputWithANotice() {
        auto p = reference("vera-rubin-504");
        for (auto& rack : p.racks)
            rack.x = units::meters(0), rack.y = units::meters(0);
        p.halls[0].width = units::meters(0);
        p.sites[1].latDeg = p.sites[0].latDeg, p.sites[1].lonDeg = p.sites[0].lonDeg;
        views::CampusScene scene;
        views::OffscreenRenderer r(1000, 700);
        r.attach(scene.renderer());
        scene.showProject({p, catalog(), nullptr}, ColorMetric::ThermalMargin);
        QVERIFY(scene.noticeVisible());
        QVERIFY(r.render(scene.renderer()));
        keep(r, "bad-input-campus");
        // The notice is drawn at the top left: amber text pixels there.
        bool amber = false;
        for (int y = r.height() - 40; y < r.height() && !amber; ++y)
            for (int x = 0; x < 300 && !amber; ++x)
                amber = close(*r.pixel(x, y), Rgb{255, 214, 89}, 50);
        QVERIFY(amber);
        views::SiteMapScene map;
        r.attach(map.renderer());
        map.showProject({p, catalog(), nullptr});
        QVERIFY(r.render(map.renderer()));
        keep(r, "bad-input-map");
        // No geometry at all.
        model::Project empty;
        scene.showProject({empty, catalog(), nullptr}, ColorMetric::PowerDensity);
        QVERIFY(r.render(scene.renderer()));
        keep(r, "bad-input-empty");
        r.attach(nullptr);
    }

    void renderCommandWritesPngs() {
        QTemporaryDir dir;
        std::ostringstream err;
        const std::string design = kData + "/reference/two-site-wan.json";
        for (const char* view : {"campus", "campus:loop", "map"}) {
            const QString out = dir.filePath(QString(view).replace(':', '-') + ".png");
            QVERIFY2(app::renderToPng(design, view, out.toStdString(), 640, 400, err) == 0,
                     err.str().c_str());
            QImage img(out);
            QCOMPARE(img.size(), QSize(640, 400));
        }
        QCOMPARE(app::renderToPng(kData + "/reference/missing.json", "map",
                                  dir.filePath("x.png").toStdString(), 64, 64, err),
                 3);
        QCOMPARE(app::renderToPng(design, "map", "/nonexistent-dir/x.png", 64, 64, err),
                 app::kExitRenderFailed);
    }
};

QTEST_APPLESS_MAIN(TestSceneRender)
#include "test_scene_render.moc"
