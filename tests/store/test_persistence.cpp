// .ctwin SQLite document and JSON interchange: byte-stable round trips, atomic saves, and every bad file.
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sys/stat.h>

#include "catalog.h"
#include "design_file.h"
#include "design_json.h"
#include "input_error.h"

using namespace ctwin;

namespace {
const std::string kData = CTWIN_SOURCE_DATA_DIR;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}
void writeAll(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

void expectError(const std::function<void()>& f, std::initializer_list<const char*> fragments) {
    try {
        f();
        QFAIL("expected an InputError");
    } catch (const model::InputError& e) {
        const std::string msg = e.what();
        for (const char* frag : fragments) QVERIFY2(msg.find(frag) != std::string::npos, msg.c_str());
    }
}
} // namespace

class TestPersistence : public QObject {
    Q_OBJECT
    model::Catalog m_catalog;
    QTemporaryDir m_dir;
    std::string tmp(const char* name) { return m_dir.filePath(name).toStdString(); }

private slots:
    void initTestCase() { m_catalog = model::loadCatalogDirectory(kData + "/catalog"); }

    void referenceDesignsRoundTripByteStable_data() {
        QTest::addColumn<QString>("file");
        const QDir dir(QString::fromStdString(kData + "/reference"));
        for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name))
            if (f != "index.json") QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }
    void referenceDesignsRoundTripByteStable() {
        QFETCH(QString, file);
        const model::Project p = model::loadProjectJson(file.toStdString(), &m_catalog);
        QVERIFY(!p.racks.empty());
        const std::string json1 = model::dumpJson(model::projectToJson(p));
        store::saveCtwin(p, tmp("a.ctwin"));
        const model::Project back = store::loadCtwin(tmp("a.ctwin"), &m_catalog);
        const std::string json2 = model::dumpJson(model::projectToJson(back));
        QCOMPARE(json2, json1); // JSON -> .ctwin -> JSON is byte-stable
        store::saveDesign(back, tmp("b.json"));
        QCOMPARE(readAll(tmp("b.json")), json1);
        // The shipped file is already in canonical form.
        QCOMPARE(readAll(file.toStdString()), json1);
    }

    void saveIsAtomicAndSelfContained() {
        const model::Project p = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        store::saveCtwin(p, tmp("doc.ctwin"));
        QVERIFY(!QFile::exists(QString::fromStdString(tmp("doc.ctwin-wal")))); // WAL folded into the file
        // Leftover temp files of a crashed save do not affect the document.
        writeAll(tmp(".doc.ctwin.tmp-crashed"), "half-written");
        QCOMPARE(store::loadCtwin(tmp("doc.ctwin")).racks.size(), p.racks.size());
        // A save that cannot complete leaves the previous file byte-identical.
        const std::string before = readAll(tmp("doc.ctwin"));
        ::chmod(m_dir.path().toLocal8Bit().constData(), 0500);
        const bool rootCanWrite = ::access(m_dir.path().toLocal8Bit().constData(), W_OK) == 0;
        if (!rootCanWrite) {
            model::Project changed = p;
            changed.info.name = "changed";
            expectError([&] { store::saveCtwin(changed, tmp("doc.ctwin")); }, {"doc.ctwin", "unchanged"});
            QCOMPARE(readAll(tmp("doc.ctwin")), before);
        }
        ::chmod(m_dir.path().toLocal8Bit().constData(), 0700);
        expectError([&] { store::saveCtwin(p, "/nonexistent-dir/x.ctwin"); }, {"/nonexistent-dir/x.ctwin", "cannot save"});
        expectError([&] { store::saveDesign(p, "/nonexistent-dir/x.json"); }, {"/nonexistent-dir/x.json"});
    }

    void badDocuments() {
        writeAll(tmp("text.ctwin"), "this is not a database at all, just some text that is long enough............");
        expectError([&] { store::loadCtwin(tmp("text.ctwin")); }, {"text.ctwin", "not a database"});

        const model::Project p = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        store::saveCtwin(p, tmp("full.ctwin"));
        const std::string bytes = readAll(tmp("full.ctwin"));
        writeAll(tmp("trunc.ctwin"), bytes.substr(0, bytes.size() / 2));
        expectError([&] { store::loadCtwin(tmp("trunc.ctwin")); }, {"trunc.ctwin"});

        writeAll(tmp("empty.ctwin"), "");
        expectError([&] { store::loadCtwin(tmp("empty.ctwin")); }, {"empty.ctwin", "not a ClusterTwin document"});
        expectError([&] { store::loadCtwin(tmp("missing.ctwin")); }, {"missing.ctwin", "does not exist"});

        // A newer schema version is refused with a clear message.
        store::saveCtwin(p, tmp("newer.ctwin"));
        {
            const std::string cmd = "sqlite3 '" + tmp("newer.ctwin") + "' 'UPDATE schema_version SET version = 7'";
            if (std::system(cmd.c_str()) != 0) QSKIP("sqlite3 shell not available");
        }
        expectError([&] { store::loadCtwin(tmp("newer.ctwin")); }, {"newer.ctwin", "schema version 7", "newer"});

        writeAll(tmp("bad.json"), "{\"format\": \"clustertwin-design\", ");
        expectError([&] { model::loadProjectJson(tmp("bad.json")); }, {"bad.json", "malformed JSON"});
        expectError([&] { store::loadDesign(tmp("design.txt")); }, {"design.txt", "unknown file type"});
        // Unknown catalog reference.
        auto j = model::projectToJson(p);
        j["racks"][0]["rack_type"] = "gb999-nvl1000";
        expectError([&] { model::projectFromJson(j, "x.json", &m_catalog); },
                    {"x.json", "rack", "rack_type", "unknown catalog item 'gb999-nvl1000'"});
        j = model::projectToJson(p);
        j["racks"][0]["rack_type"] = "sw-51t";
        expectError([&] { model::projectFromJson(j, "x.json", &m_catalog); }, {"is a switches item, expected racks"});
    }
};

QTEST_APPLESS_MAIN(TestPersistence)
#include "test_persistence.moc"
