// File > Export NetBox files and File > Import NetBox folder in the desktop app (issue 33), driven offscreen:
// the export writes the numbered files, a bad folder is refused with the open design unchanged, a good one
// replaces the design as unsaved work and shows the import log; File > Import from live NetBox against a
// stand-in over HTTP.
#include "../netbox_stub.h"
#include "main_window.h"
#include "test_window.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

using ctwin::app::MainWindow;

namespace {

const QString kRef = QStringLiteral(CTWIN_SOURCE_DATA_DIR "/reference");

void writeFile(const QString& path, const QByteArray& text) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
}

} // namespace

class TestNetBoxMenu : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;

private slots:
    void initTestCase() { useTestEnvironment(m_tmp.path() + "/autosave"); }

    void exportAndImport() {
        ScriptedPrompts* prompts = nullptr;
        auto window = makeTestWindow(&prompts);
        QVERIFY(window->openFile(kRef + "/two-site-wan.json"));
        const size_t racks = window->document().project().racks.size();

        // Export: the eight files in the chosen folder.
        prompts->folderPath = m_tmp.filePath("export");
        auto* exportAction = window->findChild<QAction*>(QStringLiteral("exportNetBoxAction"));
        QVERIFY(exportAction);
        exportAction->trigger();
        QVERIFY2(prompts->errors.isEmpty(), qPrintable(prompts->errors.join('\n')));
        QVERIFY(QFile::exists(m_tmp.filePath("export/05-racks.csv")));
        QVERIFY(QFile::exists(m_tmp.filePath("export/netbox-request-bodies.json")));

        // Import of a folder without the sites response: refused, the open design unchanged.
        auto* importAction = window->findChild<QAction*>(QStringLiteral("importNetBoxAction"));
        QVERIFY(importAction);
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        prompts->folderPath = m_tmp.filePath("empty");
        QDir().mkpath(prompts->folderPath);
        importAction->trigger();
        QCOMPARE(prompts->errors.size(), 1);
        QVERIFY(prompts->errors.first().contains("sites.json"));
        QCOMPARE(window->document().project().racks.size(), racks);

        // A plain NetBox: one site, one rack of a catalog type and no location.
        const QString api = m_tmp.filePath("api");
        writeFile(api + "/dcim/sites.json",
                  R"({"count": 1, "next": null, "previous": null, "results": [
                       {"id": 1, "name": "Reno", "slug": "reno", "latitude": "39.5", "longitude": "-119.8"}]})");
        writeFile(api + "/dcim/racks.json",
                  R"({"count": 1, "next": null, "previous": null, "results": [
                       {"id": 7, "name": "R1", "site": {"id": 1, "slug": "reno"}, "location": null,
                        "rack_type": {"id": 3, "slug": "gb200-nvl72", "model": "GB200 NVL72"}}]})");
        prompts->folderPath = api;
        importAction->trigger();
        QCOMPARE(prompts->errors.size(), 1);
        const auto& p = window->document().project();
        QCOMPARE(p.sites.size(), size_t(1));
        QCOMPARE(p.racks.size(), size_t(1));
        QCOMPARE(p.racks.front().rackType, std::string("gb200-nvl72"));
        QVERIFY(window->isWindowModified());
        QCOMPARE(prompts->informations.size(), 1);
        QVERIFY2(prompts->informations.first().contains("imported 1 sites"),
                 qPrintable(prompts->informations.first()));
        QVERIFY(prompts->informations.first().contains("racks without a location"));
    }

    /// File > Import from live NetBox against a stand-in served from this test: a refused token leaves the
    /// open design as it was, a cancelled dialog does nothing, a good answer replaces the design and the log
    /// starts with what was fetched. The fetch runs on a worker thread while this thread serves the stand-in.
    void liveImport() {
        NetBoxStub stub;
        stub.answer = [](const QByteArray& path, const QByteArray& auth) {
            if (auth != "Token t0k")
                return std::make_pair(403, QByteArray(R"({"detail": "Invalid token."})"));
            if (path.startsWith("/api/dcim/sites/"))
                return std::make_pair(200,
                                      QByteArray(R"({"count": 1, "next": null, "previous": null, "results": [
                    {"id": 1, "name": "Reno", "slug": "reno", "latitude": "39.5", "longitude": "-119.8"}]})"));
            if (path.startsWith("/api/dcim/racks/"))
                return std::make_pair(200,
                                      QByteArray(R"({"count": 1, "next": null, "previous": null, "results": [
                    {"id": 7, "name": "R1", "site": {"id": 1, "slug": "reno"}, "location": null,
                     "rack_type": {"id": 3, "slug": "gb200-nvl72", "model": "GB200 NVL72"}}]})"));
            return std::make_pair(404, QByteArray(R"({"detail": "Not found."})"));
        };
        ScriptedPrompts* prompts = nullptr;
        auto window = makeTestWindow(&prompts);
        QVERIFY(window->openFile(kRef + "/two-site-wan.json"));
        const size_t racks = window->document().project().racks.size();
        auto* live = window->findChild<QAction*>(QStringLiteral("importLiveNetBoxAction"));
        QVERIFY(live);
        prompts->saveChoice = ScriptedPrompts::SaveChoice::Discard;
        prompts->netBox = ScriptedPrompts::NetBoxConnection{stub.base(), QStringLiteral("wrong")};
        live->trigger();
        QCOMPARE(prompts->errors.size(), 1);
        QVERIFY2(prompts->errors.first().contains("refused the token"), qPrintable(prompts->errors.first()));
        QCOMPARE(window->document().project().racks.size(), racks);
        prompts->netBox.reset(); // cancelled
        live->trigger();
        QCOMPARE(prompts->errors.size(), 1);
        QCOMPARE(window->document().project().racks.size(), racks);
        prompts->netBox = ScriptedPrompts::NetBoxConnection{stub.base(), QStringLiteral("t0k")};
        live->trigger();
        QVERIFY2(prompts->errors.size() == 1, qPrintable(prompts->errors.join('\n')));
        const auto& p = window->document().project();
        QCOMPARE(p.sites.size(), size_t(1));
        QCOMPARE(p.racks.size(), size_t(1));
        QVERIFY(window->isWindowModified());
        QVERIFY2(prompts->informations.last().contains("fetched dcim/racks/: 1 objects in 1 page"),
                 qPrintable(prompts->informations.last()));
    }
};

QTEST_MAIN(TestNetBoxMenu)
#include "test_netbox_menu.moc"
