// Issue 33 item 5: the site map's basemap. The build preprocesses GSHHG (Debian's gmt-gshhg-low) into
// share/clustertwin/basemap/gshhg-low.ctmap; these tests read that file, check it against geography anyone
// can verify (the coast at Miami, the 49th parallel between the USA and Canada, the Wisconsin-Illinois line
// at 42.5 deg N), check the site map clips and projects it into its frame with the attribution, and that a
// broken basemap file is refused with a clear message and the map still builds.
#include "../test_support.h"
#include "input_error.h"
#include "scene/site_map_basemap.h"
#include "scene/site_map_builder.h"

#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>

using namespace ctwin;
using views::SiteMapBasemap;

namespace {

const std::string kBasemap = std::string(CTWIN_BUILD_DATA_DIR) + "/basemap/gshhg-low.ctmap";

/// The distance in degrees (plane lon/lat) from (lon, lat) to the nearest line of `kind` (borders along a
/// parallel are long straight segments, so the distance is to segments, not vertices).
double nearest(const SiteMapBasemap& map, SiteMapBasemap::Kind kind, double lon, double lat) {
    double best = 1e9;
    for (const auto& l : map.lines()) {
        if (l.kind != kind) continue;
        for (std::size_t i = 1; i < l.points.size(); ++i) {
            const auto& a = l.points[i - 1];
            const auto& b = l.points[i];
            const double dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
            const double t =
                len2 > 0 ? std::clamp(((lon - a[0]) * dx + (lat - a[1]) * dy) / len2, 0.0, 1.0) : 0.0;
            best = std::min(best, std::hypot(a[0] + t * dx - lon, a[1] + t * dy - lat));
        }
    }
    return best;
}

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class TestSiteMapBasemap : public QObject {
    Q_OBJECT

private slots:
    void builtFileHoldsTheWorld() {
        const SiteMapBasemap map = SiteMapBasemap::load(kBasemap);
        QVERIFY(map.attribution().find("GSHHG 2.3.7") != std::string::npos);
        QVERIFY(map.attribution().find("LGPL") != std::string::npos);
        std::size_t count[4] = {0, 0, 0, 0};
        for (const auto& l : map.lines()) {
            QVERIFY(l.points.size() >= 2);
            ++count[static_cast<int>(l.kind)];
            for (const auto& p : l.points)
                QVERIFY(std::abs(p[0]) <= 180.0 && std::abs(p[1]) <= 90.0);
        }
        for (const auto n : count)
            QVERIFY(n > 0);
        // Low resolution is about 1 km; 0.25 degrees leaves room for the generalisation.
        QVERIFY(nearest(map, SiteMapBasemap::Kind::Coast, -80.13, 25.77) < 0.25); // Miami Beach
        QVERIFY(nearest(map, SiteMapBasemap::Kind::Coast, -9.14, 38.71) < 0.25);  // Lisbon, Tagus mouth
        QVERIFY(nearest(map, SiteMapBasemap::Kind::Country, -100.0, 49.0) < 0.1); // USA-Canada, 49th parallel
        QVERIFY(nearest(map, SiteMapBasemap::Kind::State, -89.0, 42.5) < 0.1);    // Wisconsin-Illinois
        QVERIFY(nearest(map, SiteMapBasemap::Kind::Lake, -87.0, 41.9) < 0.6);     // Lake Michigan at Chicago
        // Not on the map's water: mid-Atlantic has no coastline within 5 degrees.
        QVERIFY(nearest(map, SiteMapBasemap::Kind::Coast, -40.0, 30.0) > 5.0);
    }

    void twoSiteMapDrawsItsFrame() {
        const SiteMapBasemap map = SiteMapBasemap::load(kBasemap);
        const model::Project p = test_support::reference("two-site-wan");
        const auto d = views::SiteMapBuilder::build({p, test_support::catalog(), nullptr}, &map);
        QCOMPARE(d.basemapAttribution, map.attribution());
        QVERIFY(!d.coastlines.empty());     // Lake Michigan, the Atlantic coast of Georgia
        QVERIFY(!d.stateBorders.empty());   // Wisconsin, Illinois, Indiana, ... Georgia
        QVERIFY(!d.countryBorders.empty()); // USA-Canada through Lake Huron and Lake Erie
        const double tol = 1e-6 * (d.bounds[1] - d.bounds[0]);
        for (const auto* layer : {&d.coastlines, &d.countryBorders, &d.stateBorders})
            for (const auto& line : *layer) {
                QVERIFY(line.size() >= 2);
                for (const auto& pt : line) {
                    QVERIFY(pt[0] >= d.bounds[0] - tol && pt[0] <= d.bounds[1] + tol);
                    QVERIFY(pt[1] >= d.bounds[2] - tol && pt[1] <= d.bounds[3] + tol);
                }
            }
        // The link is still a great-circle arc between the two sites.
        QCOMPARE(d.links.size(), std::size_t(1));
        QVERIFY(d.links[0].path.size() > 10);

        // Without a basemap the map still builds and says why.
        const auto none = views::SiteMapBuilder::build({p, test_support::catalog(), nullptr}, nullptr);
        QVERIFY(none.coastlines.empty() && none.basemapAttribution.empty());
        QVERIFY(!none.basemapProblem.empty());
        QCOMPARE(none.sites.size(), d.sites.size());
    }

    void clipping() {
        using P = std::array<double, 2>;
        P a{-10, 0}, b{10, 0};
        QVERIFY(views::SiteMapBuilder::clipSegment(a, b, -5, 5, -1, 1));
        QCOMPARE(a, (P{-5, 0}));
        QCOMPARE(b, (P{5, 0}));
        a = {0, 0}, b = {1, 1};
        QVERIFY(views::SiteMapBuilder::clipSegment(a, b, -5, 5, -5, 5));
        QCOMPARE(b, (P{1, 1}));
        a = {-10, 10}, b = {10, 10};
        QVERIFY(!views::SiteMapBuilder::clipSegment(a, b, -5, 5, -5, 5));
        a = {-10, -10}, b = {10, 10};
        QVERIFY(views::SiteMapBuilder::clipSegment(a, b, -5, 5, -1, 1));
        QCOMPARE(a, (P{-1, -1}));
        QCOMPARE(b, (P{1, 1}));
    }

    void brokenFilesAreRefused() {
        QTemporaryDir dir;
        const std::string good = readAll(kBasemap);
        const auto write = [&](const std::string& name, const std::string& bytes) {
            const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
            test_support::writeFile(path, bytes);
            return path;
        };
        const std::string header = good.substr(0, good.find("\n\n") + 2);
        const std::vector<std::pair<std::string, std::string>> cases = {
            {"empty", ""},
            {"magic", "NOT-A-BASEMAP\n\n"},
            {"no-attribution", "CTWIN-BASEMAP 1\n\n" + good.substr(header.size())},
            {"truncated", good.substr(0, good.size() / 2)},
            {"huge-count", header + std::string("\xff\xff\xff\x7f", 4)},
            {"bad-kind",
             header + std::string("\x01\x00\x00\x00\x09\x02\x00\x00\x00", 9) + std::string(16, '\0')},
            {"off-globe", header + std::string("\x01\x00\x00\x00\x00\x02\x00\x00\x00", 9) +
                              std::string("\xff\xff\xff\x7f\x00\x00\x00\x00\x00\x00\x00\x00", 12)},
        };
        for (const auto& [name, bytes] : cases) {
            const std::string path = write(name + ".ctmap", bytes);
            const std::string message = test_support::inputErrorOf([&] { SiteMapBasemap::load(path); });
            QVERIFY2(message.find(path) != std::string::npos, (name + ": " + message).c_str());
        }
        QVERIFY(test_support::inputErrorOf([&] {
                    SiteMapBasemap::load(dir.filePath("missing").toStdString());
                }).find("missing") != std::string::npos);

        // The shared basemap: a broken file gives none and a reason; the built one loads again.
        SiteMapBasemap::setSharedPath(write("shared.ctmap", "junk"));
        QVERIFY(!SiteMapBasemap::shared());
        QVERIFY(!SiteMapBasemap::sharedProblem().empty());
        SiteMapBasemap::setSharedPath(kBasemap);
        QVERIFY(SiteMapBasemap::shared());
        QVERIFY(SiteMapBasemap::sharedProblem().empty());
    }
};

QTEST_GUILESS_MAIN(TestSiteMapBasemap)
#include "test_site_map_basemap.moc"
