#include "design_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "catalog.h"
#include "design_json.h"
#include "input_error.h"
#include "sqlite_handle.h"

namespace ctwin::store {

using model::InputError;
using model::InputLocation;
using ojson = nlohmann::ordered_json;

namespace {

/// Version 1 -> 2: the fields of model::kSchema1ZeroMeansAbsent holding 0 ("use the default") become
/// null (absent), the same rule the JSON reader applies to version-1 interchange files.
std::string migrationToVersion2() {
    std::string sql;
    for (const auto& m : model::kSchema1ZeroMeansAbsent) {
        const std::string path = std::string("'$.") + m.field + "'";
        sql += "UPDATE entity SET body = json_set(body, " + path + ", json('null')) WHERE kind = '" +
               std::string(model::entityCollectionKey(m.kind)) + "' AND json_type(body, " + path +
               ") IN ('integer', 'real') AND json_extract(body, " + path + ") = 0;\n";
    }
    return sql;
}

/// Schema migrations: entry i upgrades a file from version i+1 to version i+2. A schema change appends its
/// SQL here and bumps kSchemaVersion, and old files open upgraded.
const std::vector<std::string>& migrations() {
    static const std::vector<std::string> steps = {migrationToVersion2()};
    return steps;
}

const char* kCreateV1 = R"sql(
CREATE TABLE schema_version(version INTEGER NOT NULL);
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entity(
  kind   TEXT NOT NULL,     -- collection key of the interchange format ("racks")
  ord    INTEGER NOT NULL,  -- position within its collection
  id     TEXT PRIMARY KEY,  -- stable, document-unique id
  parent TEXT,              -- id of the containing entity (site/building/hall/row), for queries
  body   TEXT NOT NULL      -- the entity as interchange JSON (SI units, unit in every key)
);
CREATE INDEX entity_kind_ord ON entity(kind, ord);
CREATE INDEX entity_parent ON entity(parent);
)sql";

std::string parentOf(const ojson& body) {
    for (const char* key : {"row", "hall", "building", "site"})
        if (auto it = body.find(key); it != body.end() && it->is_string()) return it->get<std::string>();
    return {};
}

} // namespace

int ctwinSchemaVersion() { return model::kSchemaVersion; }

void saveCtwin(const model::Project& project, const std::string& path) {
    model::SaveTemp temp(path); // resolves a symbolic link, refuses a directory, removes stale temporaries
    const std::string& tmp = temp.path();
    try {
        const ojson doc = model::projectToJson(project);
        {
            SqliteHandle db(tmp, SqliteHandle::Mode::ReadWrite);
            // One durable commit per save (issue 15 item 6): the document is written to a private temporary
            // that SaveTemp::commit fsyncs and renames over the target, so SQLite's own journal and syncs
            // would only repeat that work (a crash before the rename leaves the old file whole either way).
            db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;");
            db.exec(kCreateV1);
            db.exec("BEGIN IMMEDIATE;");
            {
                SqliteStatement v(db, "INSERT INTO schema_version(version) VALUES (?1)");
                v.bind(1, static_cast<std::int64_t>(model::kSchemaVersion));
                v.step();
                SqliteStatement meta(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)");
                for (const char* key : {"format", "project", "assumptions"}) {
                    meta.bind(1, std::string(key));
                    meta.bind(2, doc[key].dump());
                    meta.step();
                    meta.reset();
                }
                SqliteStatement ins(db, "INSERT INTO entity(kind, ord, id, parent, body) VALUES (?1, ?2, ?3, ?4, ?5)");
                for (auto kind : model::kAllEntityKinds) {
                    const std::string key(model::entityCollectionKey(kind));
                    std::int64_t ord = 0;
                    for (const auto& e : doc[key]) {
                        ins.bind(1, key);
                        ins.bind(2, ord++);
                        ins.bind(3, e["id"].get<std::string>());
                        ins.bind(4, parentOf(e));
                        ins.bind(5, e.dump());
                        ins.step();
                        ins.reset();
                    }
                }
            }
            db.exec("COMMIT;"); // no journal: the file is one self-contained SQLite database
        }
    } catch (const InputError& e) {
        // SQLite names the temporary; the user knows only the file they saved to.
        temp.fail("could not save (" + e.problem() + "); the file is unchanged");
    }
    temp.commit();
}

model::Project loadCtwin(const std::string& path, const model::Catalog* catalog) {
    std::error_code ec;
    const InputLocation where{path, "", "", "", ""};
    if (std::filesystem::is_directory(path, ec)) throw InputError(where, "is a directory, not a file");
    if (!std::filesystem::is_regular_file(path, ec)) throw InputError(where, "file does not exist");
    if (const auto size = std::filesystem::file_size(path, ec); !ec && size > model::kMaxDesignFileBytes)
        throw InputError(where, "file is " + std::to_string(size >> 20) + " MiB, more than the limit of " +
                                    std::to_string(model::kMaxDesignFileBytes >> 20) + " MiB");
    // A non-SQLite or truncated file fails here with SQLite's own reason ("file is not a database",
    // "database disk image is malformed").
    auto openChecked = [&](SqliteHandle::Mode mode) {
        auto db = std::make_unique<SqliteHandle>(path, mode);
        SqliteStatement check(*db, "PRAGMA quick_check");
        if (check.step() && check.text(0) != "ok") throw InputError(where, "damaged document: " + check.text(0));
        return db;
    };
    std::unique_ptr<SqliteHandle> opened;
    try {
        opened = openChecked(SqliteHandle::Mode::ReadOnly);
    } catch (const InputError&) {
        // A document left in WAL mode needs its -shm beside it, which cannot be created on a read-only file
        // system or folder: open it as immutable (no locks, no -shm; nobody can be writing it there).
        if (::access(std::filesystem::path(path).has_parent_path()
                         ? std::filesystem::path(path).parent_path().c_str()
                         : ".",
                     W_OK) == 0)
            throw;
        opened = openChecked(SqliteHandle::Mode::Immutable);
    }
    SqliteHandle& db = *opened;
    std::int64_t version = 0;
    {
        SqliteStatement has(db, "SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_version'");
        if (!has.step() || has.integer(0) == 0)
            throw InputError(InputLocation{path, "", "", "", "schema_version"},
                             "not a ClusterTwin document (no schema_version table)");
        SqliteStatement v(db, "SELECT version, typeof(version) FROM schema_version");
        if (!v.step()) throw InputError(InputLocation{path, "", "", "", "schema_version"}, "schema version missing");
        if (v.text(1) != "integer")
            throw InputError(InputLocation{path, "", "", "", "schema_version"},
                             "schema version is not a whole number ('" + v.text(0) + "')");
        version = v.integer(0);
        if (v.step())
            throw InputError(InputLocation{path, "", "", "", "schema_version"},
                             "more than one schema version row; the document is damaged");
    }
    {
        SqliteStatement f(db, "SELECT value FROM meta WHERE key = 'format'");
        const bool has = f.step();
        if (has && f.text(0) != nlohmann::json(model::kDesignFormat).dump())
            throw InputError(InputLocation{path, "", "", "", "format"},
                             "meta.format is " + f.text(0) + ", not a ClusterTwin design (\"" +
                                 model::kDesignFormat + "\")");
        if (!has) throw InputError(InputLocation{path, "", "", "", "format"}, "meta.format is missing");
    }
    if (version > model::kSchemaVersion)
        throw InputError(InputLocation{path, "", "", "", "schema_version"},
                         "document has schema version " + std::to_string(version) +
                             ", newer than this build supports (" + std::to_string(model::kSchemaVersion) +
                             "); update ClusterTwin to open it");
    if (version < 1) throw InputError(InputLocation{path, "", "", "", "schema_version"}, "invalid schema version");
    std::unique_ptr<SqliteHandle> upgraded;
    if (version < model::kSchemaVersion) {
        // Upgrade a copy in memory; the file on disk is only rewritten when the user saves.
        upgraded = std::make_unique<SqliteHandle>(":memory:", SqliteHandle::Mode::ReadWrite);
        SqliteHandle& mem = *upgraded;
        mem.exec("ATTACH DATABASE '" + path + "' AS src; ");
        for (const char* table : {"schema_version", "meta", "entity"})
            mem.exec(std::string("CREATE TABLE ") + table + " AS SELECT * FROM src." + table + ";");
        mem.exec("DETACH DATABASE src;");
        for (auto v = version; v < model::kSchemaVersion; ++v) mem.exec(migrations().at(static_cast<size_t>(v - 1)));
        mem.exec("UPDATE schema_version SET version = " + std::to_string(model::kSchemaVersion) + ";");
    }
    SqliteHandle& src = upgraded ? *upgraded : db;

    ojson doc = ojson::object();
    doc["format"] = model::kDesignFormat;
    doc["schema_version"] = model::kSchemaVersion;
    {
        SqliteStatement meta(src, "SELECT key, value FROM meta");
        while (meta.step()) {
            const std::string key = meta.text(0);
            if (key != "project" && key != "assumptions") continue;
            try {
                doc[key] = ojson::parse(meta.text(1));
            } catch (const nlohmann::json::parse_error& e) {
                throw InputError(InputLocation{path, "", "", "", key}, std::string("damaged metadata: ") + e.what());
            }
        }
    }
    for (auto kind : model::kAllEntityKinds) doc[std::string(model::entityCollectionKey(kind))] = ojson::array();
    {
        SqliteStatement rows(src, "SELECT kind, id, body FROM entity ORDER BY kind, ord");
        while (rows.step()) {
            const std::string kind = rows.text(0);
            if (!model::entityKindFromCollectionKey(kind))
                throw InputError(InputLocation{path, "", rows.text(1), "", "kind"}, "unknown entity kind '" + kind + "'");
            try {
                doc[kind].push_back(ojson::parse(rows.text(2)));
            } catch (const nlohmann::json::parse_error& e) {
                throw InputError(InputLocation{path, kind, rows.text(1), "", "body"},
                                 std::string("damaged entity: ") + e.what());
            }
        }
    }
    return model::projectFromJson(doc, path, catalog);
}

namespace {
bool hasExtension(const std::string& path, const char* ext) {
    return std::filesystem::path(path).extension() == ext;
}
} // namespace

model::Project loadDesign(const std::string& path, const model::Catalog* catalog) {
    if (hasExtension(path, ".ctwin")) return loadCtwin(path, catalog);
    if (hasExtension(path, ".json")) return model::loadProjectJson(path, catalog);
    throw InputError(InputLocation{path, "", "", "", ""}, "unknown file type (expected .ctwin or .json)");
}

void saveDesign(const model::Project& project, const std::string& path) {
    if (hasExtension(path, ".ctwin")) return saveCtwin(project, path);
    if (hasExtension(path, ".json"))
        return model::writeTextFileAtomic(path, model::dumpJson(model::projectToJson(project)));
    throw InputError(InputLocation{path, "", "", "", ""}, "unknown file type (expected .ctwin or .json)");
}

} // namespace ctwin::store
