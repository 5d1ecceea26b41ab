// Authoring on the site map with real mouse events, as a user does it: a click on open map opens the site
// form with the clicked latitude and longitude; a drag from one site to another opens the link form with
// both ends; a drag from a site back onto itself is refused; the right-click menu offers "Add site here",
// "Link to" and Delete. Needs an X server for GL (the suite runs under xvfb-run, as test_vtk_bridge);
// skips without DISPLAY.
#include "../skip_test_program.h"
#include "data_paths.h"
#include "design_json.h"
#include "gui/authoring/authoring_form.h"
#include "main_window.h"
#include "scene/offscreen_renderer.h"
#include "scene/site_map_pick.h"
#include "scene/site_map_scene.h"
#include "test_window.h"
#include "vtk_bridge/site_map_view.h"
#include "vtk_bridge/vtk_render_widget.h"

#include <QApplication>
#include <QMenu>
#include <QOpenGLContext>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QtTest>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numbers>

using ctwin::app::AuthoringForm;
using ctwin::app::MainWindow;

namespace {

/// Answers the next modal form or popup menu the app opens inside a mouse event: `onForm` / `onMenu` run
/// on it (fill and accept, read and trigger); a form or menu with no handler is recorded and dismissed.
/// Two timers: a menu action may open a form inside the menu's handler, and a timer does not fire again
/// while its own handler runs.
class Responder : public QObject {
public:
    std::function<void(AuthoringForm&)> onForm;
    std::function<void(QMenu&)> onMenu;
    int forms = 0, menus = 0;

    Responder() {
        for (QTimer* t : {&m_menuTimer, &m_formTimer})
            t->setInterval(20);
        connect(&m_menuTimer, &QTimer::timeout, this, [this] { pollMenu(); });
        connect(&m_formTimer, &QTimer::timeout, this, [this] { pollForm(); });
        m_menuTimer.start();
        m_formTimer.start();
    }

private:
    void pollMenu() {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            ++menus;
            auto handler = std::exchange(onMenu, nullptr);
            if (handler) handler(*menu);
            menu->close();
        }
    }
    void pollForm() {
        if (auto* form = qobject_cast<AuthoringForm*>(QApplication::activeModalWidget())) {
            ++forms;
            auto handler = std::exchange(onForm, nullptr);
            if (handler)
                handler(*form);
            else
                form->reject();
        }
    }
    QTimer m_menuTimer, m_formTimer;
};

QPoint sitePos(ctwin::views::SiteMapView& map, const std::string& id) {
    for (const auto& s : map.scene().data().sites)
        if (s.id == id) return map.widgetPosOf(s.position[0], s.position[1]).toPoint();
    return {-1, -1};
}

void drag(QWidget* w, QPoint from, QPoint to) {
    QTest::mousePress(w, Qt::LeftButton, {}, from);
    QTest::mouseMove(w, (from + to) / 2);
    QTest::mouseMove(w, to);
    QTest::mouseRelease(w, Qt::LeftButton, {}, to);
}

} // namespace

class TestSiteMapAuthoring : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() {
        if (!std::getenv("DISPLAY") || !*std::getenv("DISPLAY"))
            ctwin::test_support::skipTestProgram("no X display: GL widget tests run under xvfb-run");
        if (QGuiApplication::platformName() == QLatin1String("offscreen"))
            ctwin::test_support::skipTestProgram("the offscreen platform has no OpenGL windows");
        QOpenGLContext probe;
        probe.setFormat(ctwin::views::VtkRenderWidget::defaultFormat());
        if (!probe.create()) ctwin::test_support::skipTestProgram("no OpenGL 3.2 context on this platform");
        useTestEnvironment(m_tmp.path() + "/autosave");
    }

    void pickingIsTheInverseOfTheProjection() {
        // Map centred on 40 N, 10 E: a point 111.195 km north and 85.18 km east lies at 41 N, 11 E.
        // y = R * 1 deg = 6371.0088 * pi / 180 = 111.195 km; x = 111.195 * cos(40 deg) = 85.180 km.
        ctwin::views::SiteMapData map;
        map.standardParallelDeg = 40.0;
        map.centralMeridianDeg = 10.0;
        const double deg = 6371.0088 * std::numbers::pi / 180.0;
        const auto ll =
            ctwin::views::SiteMapPick::latLonAt(map, {deg * std::cos(40.0 * std::numbers::pi / 180), deg});
        QVERIFY(std::abs(ll[0] - 41.0) < 1e-9);
        QVERIFY(std::abs(ll[1] - 11.0) < 1e-9);
        // 60 degrees of latitude further north is off the globe.
        QVERIFY(!ctwin::views::SiteMapPick::onGlobe(map, {0.0, 60.0 * deg}));
        // Hit tests: the nearest marker within the radius, an arc within the radius.
        map.sites = {{"a", "A", 0, 0, {0.0, 0.0}, false}, {"b", "B", 0, 0, {100.0, 0.0}, false}};
        ctwin::views::MapLink link;
        link.id = "ab";
        link.path = {{0.0, 0.0}, {100.0, 0.0}};
        map.links = {link};
        QCOMPARE(ctwin::views::SiteMapPick::siteAt(map, {92.0, 3.0}, 10.0)->id, std::string("b"));
        QVERIFY(!ctwin::views::SiteMapPick::siteAt(map, {50.0, 3.0}, 10.0));
        QCOMPARE(ctwin::views::SiteMapPick::linkAt(map, {50.0, 3.0}, 5.0)->id, std::string("ab"));
        QVERIFY(!ctwin::views::SiteMapPick::linkAt(map, {50.0, 30.0}, 5.0));
    }

    /// Link labels stand clear of every site marker and site name (the shipped two-site design, and the
    /// same design with its sites 60 km and 20 km apart, where the arc's middle lies between the names);
    /// the caption stands clear of the graticule labels. Rectangles as drawn: positions from the camera,
    /// text extents from VTK's font renderer.
    void linkLabelsAndCaptionClearTheNames() {
        const auto catalog = ctwin::app::loadDefaultCatalog();
        auto project =
            ctwin::model::loadProjectJson(CTWIN_SOURCE_DATA_DIR "/reference/two-site-wan.json", &catalog);
        QCOMPARE(project.sites.size(), size_t(2));
        QCOMPARE(project.links.size(), size_t(1));
        // Atlanta moved 0.5 deg south of Mount Pleasant (55.6 km of latitude, 0.3 deg east: ~60 km), then
        // 0.18 deg south (20 km).
        const std::vector<std::pair<const char*, std::pair<double, double>>> layouts = {
            {"shipped", {project.sites[1].latDeg, project.sites[1].lonDeg}},
            {"60km", {42.2, -87.63}},
            {"20km", {42.52, -87.93}}};
        const auto intersects = [](const std::array<double, 4>& a, const std::array<double, 4>& b) {
            return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
        };
        for (const auto& [name, latLon] : layouts) {
            project.sites[1].latDeg = latLon.first;
            project.sites[1].lonDeg = latLon.second;
            ctwin::views::SiteMapView map;
            map.resize(1200, 800);
            map.show();
            QVERIFY(QTest::qWaitForWindowExposed(&map));
            map.showProject(project, catalog, nullptr);
            QTRY_VERIFY(map.renderWidget()->framesRendered() > 0);
            QTest::qWait(50); // the first-size fit runs queued after the resize
            const auto rects = map.scene().drawnRects();
            int links = 0, names = 0, graticule = 0;
            for (const auto& a : rects) {
                links += a.what == "link";
                names += a.what == "name";
                graticule += a.what == "graticule";
                for (const auto& b : rects) {
                    const bool linkOnSite = a.what == "link" && (b.what == "name" || b.what == "site");
                    const bool captionOnGrid = a.what == "caption" && b.what == "graticule";
                    QVERIFY2(
                        !((linkOnSite || captionOnGrid) && intersects(a.rect, b.rect)),
                        qPrintable(
                            QStringLiteral("%1: %2 '%3' [%4 %5 %6 %7] overlaps %8 '%9' [%10 %11 %12 %13]")
                                .arg(name, QString::fromStdString(a.what),
                                     QString::fromStdString(a.text).left(20))
                                .arg(a.rect[0])
                                .arg(a.rect[1])
                                .arg(a.rect[2])
                                .arg(a.rect[3])
                                .arg(QString::fromStdString(b.what), QString::fromStdString(b.text).left(20))
                                .arg(b.rect[0])
                                .arg(b.rect[1])
                                .arg(b.rect[2])
                                .arg(b.rect[3])));
                }
            }
            QCOMPARE(links, 1);
            QCOMPARE(names, 2);
            QVERIFY(graticule > 4);
            const QString shots = qEnvironmentVariable("CTWIN_MAP_SHOTS");
            if (!shots.isEmpty()) map.renderWidget()->grabFramebuffer().save(shots + "/map-" + name + ".png");
        }
    }

    void placesSitesAndDragsLinksWithTheMouse() {
        ScriptedPrompts* prompts = nullptr;
        const auto window = makeTestWindow(&prompts);
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        MainWindow& w = *window;
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.newDesign(); // Site 1 at 0 N, 0 E
        auto* map = w.showSiteMap();
        QVERIFY(map);
        auto* gl = map->renderWidget();
        QTRY_VERIFY(gl->framesRendered() > 0);
        const auto& p = w.document().project();
        QCOMPARE(p.sites.size(), size_t(1));

        // 1. A click 150 px right and 80 px above Site 1. With one site at (0, 0) the map's projection is
        //    x = R lon, y = R lat (radians), so the click lies at lat = 80 px * km/px / R and
        //    lon = 150 px * km/px / R (degrees after / (pi / 180)).
        Responder respond;
        const QPoint site1 = sitePos(*map, "site-1");
        const QPoint click = site1 + QPoint(150, -80);
        const double kmPerPx = map->scene().kmPerPixel() * gl->devicePixelRatioF();
        const double deg = 6371.0088 * std::numbers::pi / 180.0;
        const double lat = 80 * kmPerPx / deg, lon = 150 * kmPerPx / deg;
        QString formLat, formLon;
        respond.onForm = [&](AuthoringForm& f) {
            formLat = f.text("lat_deg"), formLon = f.text("lon_deg");
            f.setText("name", "Second site");
            f.accept();
        };
        QTest::mouseClick(gl, Qt::LeftButton, {}, click);
        QTRY_COMPARE(p.sites.size(), size_t(2));
        // One pixel is kmPerPx / deg degrees; the form shows 4 decimals.
        const double tol = 1.5 * kmPerPx / deg + 1e-4;
        QVERIFY2(std::abs(formLat.toDouble() - lat) < tol && std::abs(formLon.toDouble() - lon) < tol,
                 qPrintable(
                     QStringLiteral("form %1, %2; expected %3, %4").arg(formLat, formLon).arg(lat).arg(lon)));
        QCOMPARE(p.sites[1].name, std::string("Second site"));
        QVERIFY(std::abs(p.sites[1].latDeg - lat) < tol && std::abs(p.sites[1].lonDeg - lon) < tol);
        QCOMPARE(w.undoStack().count(), 1);
        // The map follows: two markers.
        QTRY_COMPARE(map->scene().data().sites.size(), size_t(2));

        // 2. A drag from Site 1 to the new site: the link form with both ends, OK adds the link.
        const std::string second = p.sites[1].id;
        QString from, to;
        respond.onForm = [&](AuthoringForm& f) {
            from = f.text("from"), to = f.text("to");
            f.accept();
        };
        drag(gl, sitePos(*map, "site-1"), sitePos(*map, second));
        QTRY_COMPARE(p.links.size(), size_t(1));
        QCOMPARE(from, QStringLiteral("site-1"));
        QCOMPARE(to, QString::fromStdString(second));
        QCOMPARE(p.links[0].from, std::string("site-1"));
        QCOMPARE(p.links[0].to, second);
        QVERIFY(!map->scene().linkPreviewVisible());
        QTRY_COMPARE(map->scene().data().links.size(), size_t(1));
        if (const char* dir = std::getenv("CTWIN_SCREENSHOT_DIR"))
            w.grab().save(QString(dir) + "/site-map-two-sites-linked.png");

        // 3. A drag from Site 1 out and back onto Site 1: refused without a form, the design unchanged.
        const int formsBefore = respond.forms, undoBefore = w.undoStack().count();
        const QPoint s1 = sitePos(*map, "site-1");
        QTest::mousePress(gl, Qt::LeftButton, {}, s1);
        QTest::mouseMove(gl, s1 + QPoint(60, 0));
        QVERIFY(map->scene().linkPreviewVisible()); // the dragged line follows the cursor
        QTest::mouseMove(gl, s1 + QPoint(2, 1));
        QTest::mouseRelease(gl, Qt::LeftButton, {}, s1 + QPoint(2, 1));
        QTest::qWait(80);
        QCOMPARE(respond.forms, formsBefore);
        QCOMPARE(p.links.size(), size_t(1));
        QCOMPARE(w.undoStack().count(), undoBefore);
        QVERIFY2(w.statusBar()->currentMessage().contains("two different sites"),
                 qPrintable(w.statusBar()->currentMessage()));

        // 4. Right click on a site: "Link to" the other sites, Rename and Delete; on open map: "Add site
        //    here", which opens the site form there.
        QStringList texts;
        respond.onMenu = [&](QMenu& m) {
            for (const QAction* a : m.actions())
                texts << a->text().remove('&'); // mnemonics
        };
        QTest::mouseClick(gl, Qt::RightButton, {}, sitePos(*map, second));
        QTRY_COMPARE(respond.menus, 1);
        QVERIFY2(texts.contains("Link to"), qPrintable(texts.join('|')));
        QVERIFY2(texts.contains("Rename"), qPrintable(texts.join('|')));
        QVERIFY2(texts.contains("Delete"), qPrintable(texts.join('|')));
        QCOMPARE(w.selection(), QStringList{QString::fromStdString(second)});

        respond.onMenu = [&](QMenu& m) {
            for (QAction* a : m.actions())
                if (a->text().startsWith("Add site here")) {
                    m.close(); // as a click does, then the action
                    a->trigger();
                    return;
                }
        };
        respond.onForm = [&](AuthoringForm& f) { f.accept(); };
        QTest::mouseClick(gl, Qt::RightButton, {}, sitePos(*map, "site-1") + QPoint(-120, 90));
        QTRY_COMPARE(p.sites.size(), size_t(3));
        QVERIFY(p.sites[2].latDeg < 0 && p.sites[2].lonDeg < 0); // below and left of 0 N 0 E

        // 5. Undo takes back the site, the link and the first placed site; the map follows.
        for (int i = 0; i < 3; ++i)
            w.undoStack().undo();
        QCOMPARE(p.sites.size(), size_t(1));
        QCOMPARE(p.links.size(), size_t(0));
        QTRY_COMPARE(map->scene().data().sites.size(), size_t(1));
        if (const char* dir = std::getenv("CTWIN_SCREENSHOT_DIR"))
            w.grab().save(QString(dir) + "/site-map-authoring.png");
    }
};

int main(int argc, char** argv) {
    // As test_vtk_bridge: the xcb platform under an X server (ctest sets QT_QPA_PLATFORM=offscreen, which
    // cannot host an OpenGL window); fail with the reason when the display does not answer.
    if (!qgetenv("DISPLAY").isEmpty()) {
        std::string why;
        if (!ctwin::views::OffscreenRenderer::displayAvailable(&why)) {
            std::fprintf(stderr, "test_site_map_authoring: %s\n", why.c_str());
            return 1;
        }
        qputenv("QT_QPA_PLATFORM", "xcb");
    }
    QApplication app(argc, argv);
    TestSiteMapAuthoring test;
    return QTest::qExec(&test, argc, argv);
}
#include "test_site_map_authoring.moc"
