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
#include "legacy_ctwin.h"
#include "sqlite_handle.h"

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

    /// Schema 3 (issue 15 item 6): each entity kind is a typed table, one column per field, no JSON text per
    /// entity (lists excepted); the values are the entities' own, bit for bit.
    void typedTables() {
        const model::Project p = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        store::saveCtwin(p, tmp("typed.ctwin"));
        store::SqliteHandle db(tmp("typed.ctwin"), store::SqliteHandle::Mode::ReadOnly);
        {
            store::SqliteStatement v(db, "SELECT version FROM schema_version");
            QVERIFY(v.step());
            QCOMPARE(v.integer(0), std::int64_t{3});
            QCOMPARE(store::ctwinSchemaVersion(), 3);
            store::SqliteStatement t(db, "SELECT count(*) FROM sqlite_master WHERE name = 'entity'");
            QVERIFY(t.step());
            QCOMPARE(t.integer(0), std::int64_t{0});
        }
        store::SqliteStatement r(db, "SELECT id, typeof(x_m), x_m, rack_type, typeof(spare), spare FROM racks "
                                     "ORDER BY ord LIMIT 1");
        QVERIFY(r.step());
        QCOMPARE(r.text(0), p.racks[0].id);
        QCOMPARE(r.text(1), std::string("real"));
        QCOMPARE(r.real(2), p.racks[0].x.value()); // exact: a REAL is the same IEEE double
        QCOMPARE(r.text(3), p.racks[0].rackType);
        QCOMPARE(r.text(4), std::string("integer"));
        QCOMPARE(r.integer(5), std::int64_t{p.racks[0].spare ? 1 : 0});
        store::SqliteStatement f(db, "SELECT typeof(oversubscription) FROM fabrics LIMIT 1");
        QVERIFY(f.step());
        QCOMPARE(f.text(0), std::string("text")); // a list: the interchange JSON array
    }

    /// Documents of schema 1 and 2 (one `entity` table of JSON bodies) still open, every shipped reference
    /// unchanged; saving one writes schema 3.
    void entityLayoutStillOpens_data() { referenceDesignsRoundTripByteStable_data(); }
    void entityLayoutStillOpens() {
        QFETCH(QString, file);
        const model::Project p = model::loadProjectJson(file.toStdString(), &m_catalog);
        const std::string canonical = model::dumpJson(model::projectToJson(p));
        std::remove(tmp("v2.ctwin").c_str());
        test_support::writeLegacyCtwin(p, tmp("v2.ctwin"), 2);
        const model::Project back = store::loadCtwin(tmp("v2.ctwin"), &m_catalog);
        QCOMPARE(model::dumpJson(model::projectToJson(back)), canonical);
        store::saveCtwin(back, tmp("v2.ctwin"));
        {
            store::SqliteHandle db(tmp("v2.ctwin"), store::SqliteHandle::Mode::ReadOnly);
            store::SqliteStatement v(db, "SELECT version FROM schema_version");
            QVERIFY(v.step());
            QCOMPARE(v.integer(0), std::int64_t{3});
        }
        QCOMPARE(model::dumpJson(model::projectToJson(store::loadCtwin(tmp("v2.ctwin"), &m_catalog))), canonical);
    }

    /// A bad cell of a typed table is refused like the same value in JSON: file, entity, id and field named.
    void badTypedCells() {
        const model::Project p = model::loadProjectJson(kData + "/reference/vera-rubin-504.json", &m_catalog);
        const std::string id = p.racks[0].id;
        const std::string fabric = p.fabrics.at(0).id;
        struct Case {
            std::string sql;
            std::vector<std::string> fragments;
        };
        const std::vector<Case> cases = {
            {"UPDATE racks SET x_m = 'abc' WHERE id = '" + id + "'",
             {"rack", id, "'x_m'", "expected a number, found string"}},
            {"UPDATE racks SET x_m = 1e9 WHERE id = '" + id + "'", {"'x_m'", "outside the accepted range"}},
            {"UPDATE racks SET rack_type = NULL WHERE id = '" + id + "'", {"'rack_type'", "expected a string, found null"}},
            {"UPDATE racks SET spare = 2 WHERE id = '" + id + "'", {"'spare'", "expected true or false, found number"}},
            {"UPDATE racks SET id = '' WHERE id = '" + id + "'", {"every entity needs a non-empty id"}},
            {"UPDATE racks SET \"row\" = 'nowhere' WHERE id = '" + id + "'", {"'row'", "refers to unknown id 'nowhere'"}},
            {"UPDATE fabrics SET oversubscription = '[1,' WHERE id = '" + fabric + "'",
             {"fabric", "'oversubscription'", "damaged list"}},
            {"UPDATE fabrics SET oversubscription = '[\"x\"]' WHERE id = '" + fabric + "'",
             {"'oversubscription'", "expected a number, found string"}},
            {"ALTER TABLE racks ADD COLUMN colour TEXT", {"'colour'", "unknown field"}},
            {"DROP TABLE racks", {"'racks'", "table racks is missing"}},
        };
        for (const auto& c : cases) {
            store::saveCtwin(p, tmp("cell.ctwin"));
            {
                store::SqliteHandle db(tmp("cell.ctwin"), store::SqliteHandle::Mode::ReadWrite);
                db.exec(c.sql);
            }
            try {
                store::loadCtwin(tmp("cell.ctwin"), &m_catalog);
                QFAIL(("accepted: " + c.sql).c_str());
            } catch (const model::InputError& e) {
                const std::string msg = e.what();
                QVERIFY2(msg.find("cell.ctwin") != std::string::npos, msg.c_str());
                for (const auto& frag : c.fragments)
                    QVERIFY2(msg.find(frag) != std::string::npos, (c.sql + " -> " + msg).c_str());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestPersistence)
#include "test_persistence.moc"
