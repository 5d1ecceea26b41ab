// Issue 27: files from strangers. .ctwin documents and catalog databases built to attack their reader
// (SQL in a file name, views, triggers, virtual tables, generated columns, hot journals, endless queries),
// inputs that are not regular files or are too large, and JSON built to make the parser quadratic or to
// build a gigantic DOM. Every case must end in an InputError naming the file (and the object or field),
// quickly, with no file written anywhere.
#include "calibration.h"
#include "catalog.h"
#include "catalog_database.h"
#include "catalog_overlay.h"
#include "climate.h"
#include "design_file.h"
#include "design_json.h"
#include "design_spec.h"
#include "explore_spec.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"
#include "legacy_ctwin.h"
#include "sqlite_handle.h"
#include "../test_support.h"

#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ctwin;
namespace fs = std::filesystem;

namespace {
using test_support::kData;

using test_support::writeFile;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Runs SQL on a database with plain SQLite (the attacker's tool), outside the product's hardening.
void sql(const std::string& db, const std::string& statement) {
    sqlite3* h = nullptr;
    QCOMPARE(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(h, statement.c_str(), nullptr, nullptr, &err);
    QVERIFY2(rc == SQLITE_OK, err ? err : "?");
    sqlite3_close(h);
}

std::set<std::string> filesIn(const std::string& dir) {
    std::set<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        names.insert(e.path().string());
    return names;
}

/// Checks that `f` throws an InputError whose message holds every one of `parts`.
void expectError(const std::function<void()>& f, std::initializer_list<const char*> parts) {
    const std::string e = test_support::inputErrorOf(f);
    QVERIFY2(!e.empty(), "no InputError");
    for (const char* part : parts)
        QVERIFY2(has(e, part), (std::string(part) + " not in: " + e).c_str());
}
} // namespace

class TestHostileFiles : public QObject {
    Q_OBJECT
    model::Catalog m_catalog;
    model::Project m_small;
    QTemporaryDir m_dir;
    std::string tmp(const std::string& name) {
        return m_dir.filePath(QString::fromStdString(name)).toStdString();
    }
    /// A fresh schema-3 document of the small reference design.
    std::string ctwin(const std::string& name) {
        store::saveDesign(m_small, tmp(name));
        return tmp(name);
    }

private slots:
    void initTestCase() {
        m_catalog = model::loadCatalogDirectory(kData + "/catalog");
        m_small = store::loadDesign(kData + "/reference/vera-rubin-504.json", &m_catalog);
        QVERIFY(!m_small.racks.empty());
    }

    // ---- 1. No SQL from a file name ----

    /// Schema-1 documents are upgraded in memory through sqlite3_backup: names with quotes, semicolons and
    /// SQL open as ordinary files, and no other file appears beside them (the old ATTACH built from the
    /// path created 'pwned.db').
    void schema1NamesAreNeverSql() {
        fs::create_directories(tmp("names"));
        const std::vector<std::string> names = {
            "Bob's design.ctwin",
            "x' AS q; ATTACH 'pwned.db' AS p; CREATE TABLE p.t(x);--.ctwin",
            "a\"b;c.ctwin",
            "'); DROP TABLE entity; --.ctwin",
            "%27 ?immutable=0#frag.ctwin",
        };
        for (const auto& name : names) {
            const std::string path = tmp("names/" + name);
            test_support::writeLegacyCtwin(m_small, path, 1);
            const auto before = filesIn(tmp("names"));
            const model::Project p = store::loadDesign(path, &m_catalog);
            QCOMPARE(p.racks.size(), m_small.racks.size());
            QCOMPARE(filesIn(tmp("names")), before);
            QVERIFY(!fs::exists(tmp("names/pwned.db")));
        }
        // The upgrade was done from the checked document; on disk it is still version 1.
        sqlite3* h = nullptr;
        QCOMPARE(sqlite3_open(tmp("names/Bob's design.ctwin").c_str(), &h), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(h, "SELECT version FROM schema_version", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(sqlite3_column_int(st, 0), 1);
        sqlite3_finalize(st);
        sqlite3_close(h);
    }

    /// A schema-2 document (entity layout with its two indexes) still opens under the schema check.
    void legacyIndexesAllowed() {
        test_support::writeLegacyCtwin(m_small, tmp("v2.ctwin"), 2);
        QCOMPARE(store::loadDesign(tmp("v2.ctwin"), &m_catalog).racks.size(), m_small.racks.size());
    }

    // ---- 2. SQLite opened defensively: only ordinary tables ----

    void viewInPlaceOfMetaRefused() {
        const std::string f = ctwin("meta-view.ctwin");
        sql(f, "DROP TABLE meta; CREATE VIEW meta(key, value) AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL "
               "SELECT x + 1 FROM c) SELECT 'format', x FROM c;");
        expectError([&] { store::loadDesign(f, &m_catalog); },
                    {"meta-view.ctwin", "a view 'meta'", "never writes"});
    }

    void endlessEntityViewRefused() {
        test_support::writeLegacyCtwin(m_small, tmp("entity-view.ctwin"), 2);
        sql(tmp("entity-view.ctwin"),
            "DROP TABLE entity; CREATE VIEW entity(kind, ord, id, parent, body) AS WITH RECURSIVE c(x) AS "
            "(SELECT "
            "1 UNION ALL SELECT x + 1 FROM c) SELECT 'racks', x, 'r' || x, '', '{}' FROM c;");
        expectError([&] { store::loadDesign(tmp("entity-view.ctwin"), &m_catalog); },
                    {"entity-view.ctwin", "a view 'entity'"});
    }

    void hugeValueViewRefused() {
        const std::string f = ctwin("big-name.ctwin");
        sql(f, "ALTER TABLE sites RENAME TO sites_old; CREATE VIEW sites AS SELECT * FROM sites_old;");
        expectError([&] { store::loadDesign(f, &m_catalog); }, {"big-name.ctwin", "a view 'sites'"});
    }

    void triggerRefused() {
        const std::string f = ctwin("trigger.ctwin");
        sql(f, "CREATE TRIGGER t AFTER INSERT ON meta BEGIN DELETE FROM meta; END;");
        expectError([&] { store::loadDesign(f, &m_catalog); }, {"trigger.ctwin", "a trigger 't'"});
    }

    void virtualTableRefused() {
        const std::string f = ctwin("fts.ctwin");
        sql(f, "ALTER TABLE racks RENAME TO racks_typed; CREATE VIRTUAL TABLE racks USING fts5(id, body);");
        expectError([&] { store::loadDesign(f, &m_catalog); }, {"fts.ctwin", "a virtual table 'racks'"});
    }

    void generatedColumnRefused() {
        const std::string f = ctwin("generated.ctwin");
        sql(f, "ALTER TABLE meta ADD COLUMN g TEXT GENERATED ALWAYS AS (value || value) VIRTUAL;");
        expectError([&] { store::loadDesign(f, &m_catalog); },
                    {"generated.ctwin", "a generated column 'g'", "'meta'"});
    }

    void unknownTableAndIndexRefused() {
        const std::string f = ctwin("extra.ctwin");
        sql(f, "CREATE TABLE payload(x);");
        expectError([&] { store::loadDesign(f, &m_catalog); }, {"extra.ctwin", "an unknown table 'payload'"});
        const std::string g = ctwin("index.ctwin");
        sql(g, "CREATE INDEX slow ON meta(value);");
        expectError([&] { store::loadDesign(g, &m_catalog); }, {"index.ctwin", "an unknown index 'slow'"});
    }

    /// The same rule holds for the catalog database.
    void catalogDatabaseChecked() {
        store::writeCatalogDatabase(m_catalog, tmp("catalog.db"));
        QCOMPARE(store::loadCatalogDatabase(tmp("catalog.db")).items().size(), m_catalog.items().size());
        fs::copy_file(tmp("catalog.db"), tmp("view.db"));
        sql(tmp("view.db"), "ALTER TABLE item RENAME TO item_t; CREATE VIEW item AS SELECT * FROM item_t;");
        expectError([&] { store::loadCatalogDatabase(tmp("view.db")); }, {"view.db", "a view 'item'"});
        fs::copy_file(tmp("catalog.db"), tmp("orphan.db"));
        sql(tmp("orphan.db"), "INSERT INTO attribute VALUES ('no-such-item', 'k', 'v');");
        expectError([&] { store::loadCatalogDatabase(tmp("orphan.db")); },
                    {"orphan.db", "no-such-item", "names an item that is not in table 'item'"});
    }

    /// Every statement of a connection stops at its deadline (the backstop for anything the schema check
    /// does not foresee): an endless recursive query ends in a message, not a hang.
    void deadlineInterruptsEndlessQuery() {
        store::SqliteHandle db(":memory:", store::SqliteHandle::Mode::ReadWrite, 0.2);
        store::SqliteStatement q(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                     "SELECT count(*) FROM c");
        expectError([&] { q.step(); }, {"took longer than 0.2 s", "hang"});
    }

    /// The hardening is on for every connection: views and triggers do not run, ATTACH is refused.
    void connectionsAreHardened() {
        store::SqliteHandle db(tmp("h.db"), store::SqliteHandle::Mode::ReadWrite);
        db.exec("CREATE TABLE t(x); CREATE VIEW v AS SELECT x FROM t;");
        expectError([&] { store::SqliteStatement(db, "SELECT * FROM v"); }, {"h.db"});
        expectError([&] { db.exec("ATTACH DATABASE 'other.db' AS o"); }, {"h.db", "database error"});
        QVERIFY(!fs::exists("other.db"));
        // A value longer than a design file may be is refused (SQLITE_LIMIT_LENGTH).
        store::SqliteStatement big(db, "SELECT zeroblob(?1)");
        big.bind(1, static_cast<std::int64_t>(model::kMaxDesignFileBytes + 1));
        expectError([&] { big.step(); }, {"h.db", "longer than 64 MiB"});
    }

    /// A document left with a hot rollback journal (its writer was killed mid-transaction) gets a message
    /// that says what happened and what to do, not "attempt to write a readonly database".
    void hotJournalExplained() {
        const std::string f = ctwin("hot.ctwin");
        const pid_t pid = ::fork();
        if (pid == 0) {
            sqlite3* h = nullptr;
            sqlite3_open(f.c_str(), &h);
            // A small cache spills the change into the database file, so the journal is needed to undo it.
            sqlite3_exec(
                h,
                "PRAGMA journal_mode=DELETE; PRAGMA cache_size=1; BEGIN; UPDATE racks SET ord = ord + "
                "1000000; INSERT INTO meta VALUES ('x', hex(randomblob(400000)));",
                nullptr, nullptr, nullptr);
            ::_exit(0); // no COMMIT, no close: the journal stays, hot
        }
        int status = 0;
        ::waitpid(pid, &status, 0);
        QVERIFY2(fs::exists(f + "-journal") && fs::file_size(f + "-journal") > 0, "no journal left");
        expectError([&] { store::loadDesign(f, &m_catalog); },
                    {"hot.ctwin", "hot.ctwin-journal", "unfinished change"});
    }

    // ---- 3. Bounded reads: one reader for every input ----

    void fifoIsRefusedWithoutBlocking() {
        for (const char* ext : {".json", ".ctwin"}) {
            const std::string f = tmp(std::string("fifo") + ext);
            QCOMPARE(::mkfifo(f.c_str(), 0600), 0);
            expectError([&] { store::loadDesign(f, &m_catalog); }, {f.c_str()});
        }
        expectError([&] { model::readInputFile(tmp("fifo.json"), 1024); },
                    {"a FIFO (named pipe)", "not a regular file"});
    }

    void deviceLinksAreRefused() {
        fs::create_symlink("/dev/zero", tmp("zero.json"));
        expectError([&] { store::loadDesign(tmp("zero.json"), &m_catalog); },
                    {"zero.json", "a character device"});
        fs::create_symlink("/dev/zero", tmp("zero-climate.json"));
        expectError([&] { cost::loadClimateFile(tmp("zero-climate.json")); },
                    {"zero-climate.json", "a character device"});
        fs::create_symlink("/dev/zero", tmp("zero-spec.json"));
        expectError([&] { cost::loadExploreSpec(tmp("zero-spec.json")); },
                    {"zero-spec.json", "a character device"});
        expectError([&] { cost::loadDesignSpec(tmp("zero-spec.json")); },
                    {"zero-spec.json", "a character device"});
        expectError([&] { cost::loadMeasuredPoints(tmp("zero-spec.json")); },
                    {"zero-spec.json", "a character device"});
        expectError([&] { cost::applyCatalogOverlayFile(m_catalog, tmp("zero-spec.json")); },
                    {"zero-spec.json", "a character device"});
        fs::create_directories(tmp("zcat"));
        fs::create_symlink("/dev/zero", tmp("zcat/items.json"));
        expectError([&] { model::loadCatalogDirectory(tmp("zcat")); }, {"items.json", "a character device"});
    }

    /// The limit is exact: limit bytes are read, limit + 1 refused (hand-made files of 1,000 and 1,001
    /// bytes).
    void sizeLimitIsExact() {
        writeFile(tmp("1000.txt"), std::string(1000, 'x'));
        writeFile(tmp("1001.txt"), std::string(1001, 'x'));
        writeFile(tmp("empty.txt"), "");
        QCOMPARE(model::readInputFile(tmp("1000.txt"), 1000).size(), size_t(1000));
        QCOMPARE(model::readInputFile(tmp("empty.txt"), 1000).size(), size_t(0));
        expectError([&] { model::readInputFile(tmp("1001.txt"), 1000, "spec"); },
                    {"1001.txt", "spec is 1001 bytes, more than the limit of 1000 bytes"});
        writeFile(tmp("1.5k.txt"), std::string(1536, 'x'));
        expectError([&] { model::readInputFile(tmp("1.5k.txt"), 1024, "spec"); },
                    {"spec is 1.5 KiB, more than the limit of 1 KiB"});
        expectError([&] { model::readInputFile(tmp("nope.txt"), 1000); },
                    {"nope.txt", "file does not exist"});
        expectError([&] { model::readInputFile(m_dir.path().toStdString(), 1000); }, {"is a directory"});
        expectError([&] { model::readInputFile("", 1000, "design"); }, {"no design named"});
    }

    /// Specs are refused at 4 MiB, before they are parsed (they once read ~2 GB first).
    void specLimit() {
        writeFile(tmp("big-spec.json"), "[" + std::string(model::kMaxSpecFileBytes, ' ') + "]");
        expectError([&] { cost::loadExploreSpec(tmp("big-spec.json")); },
                    {"big-spec.json", "more than the limit of 4 MiB"});
        expectError([&] { cost::loadDesignSpec(tmp("big-spec.json")); },
                    {"big-spec.json", "more than the limit of 4 MiB"});
    }

    void unreadableFileNamed() {
        if (::geteuid() == 0) QSKIP("root reads any file");
        writeFile(tmp("secret.json"), "{}");
        ::chmod(tmp("secret.json").c_str(), 0);
        expectError([&] { store::loadDesign(tmp("secret.json"), &m_catalog); },
                    {"secret.json", "cannot open for reading"});
    }

    // ---- JSON: linear parse, limits while reading ----

    /// 500,001 empty racks are refused while parsing, by the quick parser and by nlohmann's (a \u escape
    /// sends the text to the second); 500,000 pass the parse (and then fail validation for other reasons).
    void entityLimitWhileParsing() {
        auto design = [](size_t n, bool escape) {
            std::string t =
                std::string(
                    "{\"format\":\"clustertwin-design\",\"schema_version\":2,\"project\":{\"id\":\"") +
                (escape ? "\\u0070" : "p") + "\"},\"racks\":[";
            for (size_t i = 0; i < n; ++i)
                t += i ? ",{}" : "{}";
            return t + "]}";
        };
        for (bool escape : {false, true}) {
            const std::string over = design(model::kMaxDesignEntities + 1, escape);
            expectError([&] { model::parseJsonText(over, "many.json"); },
                        {"many.json", "more than 500000 entities"});
            const std::string at = design(model::kMaxDesignEntities, escape);
            QCOMPARE(model::parseJsonText(at, "at.json")["racks"].size(), model::kMaxDesignEntities);
        }
        model::JsonLimits limits;
        limits.rootArrayElements = 3;
        QCOMPARE(model::parseJson("[[1,2],[3]]", limits).size(), size_t(2));
        QVERIFY_THROWS_EXCEPTION(model::JsonLimitExceeded, model::parseJson("[[1,2],[3,4]]", limits));
        QVERIFY_THROWS_EXCEPTION(model::JsonLimitExceeded,
                                 model::parseJson("[[1,2],[\"\\u0033\",4]]", limits));
        // Deeper arrays do not count: 4 numbers, but 1 element directly inside each top-level array.
        QCOMPARE(model::parseJson("{\"a\":[[1,2,3,4]]}", limits)["a"].size(), size_t(1));
    }

    /// nlohmann's parse with our duplicate check builds the same value as the quick parser, keeps member
    /// order, and still refuses a key given twice, also in an object past the quick parser's linear range.
    void slowPathMatchesAndRefusesDuplicates() {
        std::string text = "{";
        for (int i = 0; i < 100; ++i)
            text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":" + std::to_string(i);
        text += "}";
        const auto quick = model::parseJson(text);
        std::string escaped = text;
        escaped.replace(escaped.find("\"k0\""), 4, "\"\\u006b0\""); // "k0", through nlohmann
        const auto slow = model::parseJson(escaped);
        QCOMPARE(slow.dump(), quick.dump());
        QCOMPARE(slow.begin().key(), std::string("k0"));
        for (const std::string& t : {text, escaped}) {
            std::string dup = t;
            dup.insert(dup.size() - 1, ",\"k77\":1");
            QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, model::parseJson(dup));
            QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, model::parseJson<nlohmann::json>(dup));
        }
    }

    /// 200,000 objects in one array and one object of 200,000 keys parse (the callback parser took 7.5 s
    /// for the first; the ordered map's search made the second quadratic). Counts only: time is in
    /// tests/bench, never asserted here.
    void largeArraysAndObjectsParse() {
        std::string arr = "[\"\\u0061\"";
        for (int i = 0; i < 200000; ++i)
            arr += ",{\"a\":1,\"b\":[2]}";
        arr += "]";
        QCOMPARE(model::parseJson(arr).size(), size_t(200001));
        std::string obj = "{";
        for (int i = 0; i < 200000; ++i)
            obj += (i ? ",\"" : "\"") + std::to_string(i) + "\":0";
        obj += "}";
        const auto o = model::parseJson(obj);
        QCOMPARE(o.size(), size_t(200000));
        QCOMPARE(o.back().get<int>(), 0);
        QCOMPARE((--o.end()).key(), std::string("199999"));
        obj.insert(obj.size() - 1, ",\"123456\":1");
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, model::parseJson(obj));
    }

    // ---- Measured points and overlays ----

    void measuredPointsLimit() {
        const std::string header =
            "input_tokens,output_tokens,replica_gpus,tokens_per_s_per_user,tokens_per_s_per_gpu\n";
        std::string csv = header;
        for (size_t i = 0; i <= cost::kMaxMeasuredPoints; ++i)
            csv += "1000,100,8,50,1000\n";
        writeFile(tmp("points.csv"), csv);
        const cost::PointDefaults defaults{"llama3-70b", "h100-sxm", "fp8"};
        // 10,000 rows read; the 10,001st is refused before it is parsed.
        csv.resize(csv.size() - std::string("1000,100,8,50,1000\n").size());
        writeFile(tmp("points-at.csv"), csv);
        QCOMPARE(cost::loadMeasuredPoints(tmp("points-at.csv"), defaults).size(), cost::kMaxMeasuredPoints);
        expectError([&] { cost::loadMeasuredPoints(tmp("points.csv"), defaults); },
                    {"points.csv", "more than 10000 measured points"});
        std::string lines;
        for (size_t i = 0; i <= cost::kMaxMeasuredPoints; ++i)
            lines += "{\"a\":1}\n";
        expectError([&] { cost::parseMeasuredPointsJson(lines, "p.jsonl", {}); },
                    {"p.jsonl", "more than 10000 measured points"});
        std::string array = "[";
        for (size_t i = 0; i <= cost::kMaxMeasuredPoints; ++i)
            array += i ? ",{}" : "{}";
        expectError([&] { cost::parseMeasuredPointsJson(array + "]", "p.json", {}); },
                    {"p.json", "more than 10000 measured points"});
    }

    void overlaySchemaVersionChecked() {
        const std::string base = R"({"format":"clustertwin-catalog-overlay","items":[])";
        QCOMPARE(
            cost::applyCatalogOverlay(m_catalog, nlohmann::json::parse(base + "}"), "o.json").items().size(),
            m_catalog.items().size());
        QCOMPARE(cost::applyCatalogOverlay(m_catalog, nlohmann::json::parse(base + R"(,"schema_version":1})"),
                                           "o.json")
                     .items()
                     .size(),
                 m_catalog.items().size());
        expectError(
            [&] {
                cost::applyCatalogOverlay(m_catalog, nlohmann::json::parse(base + R"(,"schema_version":2})"),
                                          "o.json");
            },
            {"o.json", "schema_version", "newer than this build supports (1)"});
        expectError(
            [&] {
                cost::applyCatalogOverlay(m_catalog, nlohmann::json::parse(base + R"(,"schema_version":0})"),
                                          "o.json");
            },
            {"o.json", "schema_version", "not valid"});
        expectError(
            [&] {
                cost::applyCatalogOverlay(
                    m_catalog, nlohmann::json::parse(base + R"(,"schema_version":"1"})"), "o.json");
            },
            {"o.json", "schema_version", "whole number"});
    }
};

QTEST_APPLESS_MAIN(TestHostileFiles)
#include "test_hostile_files.moc"
