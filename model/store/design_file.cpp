#include "design_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>
#include <set>
#include <sqlite3.h>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "catalog.h"
#include "design_json.h"
#include "input_error.h"
#include "input_file.h"
#include "json_fast_parse.h"
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

/// Migrations of the entity layout (versions 1 and 2): entry i upgrades a file from version i+1 to i+2.
const std::vector<std::string>& migrations() {
    static const std::vector<std::string> steps = {migrationToVersion2()};
    return steps;
}

/// .ctwin schema versions: 1 and 2 hold each entity as interchange JSON text in `entity.body` (JSON schema
/// 1 and 2); 3 holds each entity kind in its own typed table (model::entityColumns), so
/// saving and opening convert no JSON text per entity. Versions 1 and 2 still open (loadEntityLayout).
constexpr int kCtwinSchemaVersion = 3;
constexpr int kLastEntityLayoutVersion = 2;

std::string quoted(const std::string& identifier) { return "\"" + identifier + "\""; }

/// Binds entityToCells' cells to an INSERT whose parameter 1 is `ord`: cell i is parameter i + 2.
class StatementSink final : public model::CellSink {
public:
    explicit StatementSink(SqliteStatement& stmt) : m_stmt(stmt) {}
    void null(int column) override { m_stmt.bindNull(column + 2); }
    void real(int column, double v) override { m_stmt.bind(column + 2, v); }
    void integer(int column, std::int64_t v) override { m_stmt.bind(column + 2, v); }
    void text(int column, const std::string& v) override { m_stmt.bindUnowned(column + 2, v); }
    void ownedText(int column, std::string v) override {
        m_stmt.bindUnowned(column + 2, m_owned.emplace_back(std::move(v)));
    }
    /// After the row is stepped: the statement is reset, the owned texts dropped.
    void rowWritten() {
        m_stmt.reset();
        m_owned.clear();
    }

private:
    SqliteStatement& m_stmt;
    std::deque<std::string> m_owned; // stable addresses while bound
};

/// The current row of `SELECT * FROM <kind> ORDER BY ord` as entityFromCells' cells: column 0 (`ord`) is
/// left out.
class RowSource final : public model::CellSource {
public:
    explicit RowSource(const SqliteStatement& stmt) : m_stmt(stmt.get()) {
        const int n = sqlite3_column_count(m_stmt);
        for (int c = 1; c < n; ++c) m_names.emplace_back(sqlite3_column_name(m_stmt, c));
    }
    int columnCount() const override { return static_cast<int>(m_names.size()); }
    const char* columnName(int column) const override { return m_names[static_cast<size_t>(column)].c_str(); }
    Type type(int column) const override {
        switch (sqlite3_column_type(m_stmt, column + 1)) {
        case SQLITE_INTEGER: return Type::Integer;
        case SQLITE_FLOAT: return Type::Real;
        case SQLITE_TEXT: return Type::Text;
        case SQLITE_BLOB: return Type::Blob;
        default: return Type::Null;
        }
    }
    double real(int column) const override { return sqlite3_column_double(m_stmt, column + 1); }
    std::int64_t integer(int column) const override { return sqlite3_column_int64(m_stmt, column + 1); }
    std::string text(int column) const override {
        const auto* p = sqlite3_column_text(m_stmt, column + 1);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<size_t>(sqlite3_column_bytes(m_stmt, column + 1)))
                 : std::string();
    }

private:
    sqlite3_stmt* m_stmt;
    std::vector<std::string> m_names;
};

/// Schema 3: one table per entity kind, named by its collection key, `ord` then one column per field.
std::string createTypedTables() {
    std::string sql = "CREATE TABLE schema_version(version INTEGER NOT NULL);\n"
                      "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n";
    model::Project shape;
    shape.forEachCollection([&](const auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        sql += "CREATE TABLE " + quoted(std::string(model::entityCollectionKey(Entity::kKind))) +
               "(ord INTEGER PRIMARY KEY";
        for (const auto& col : model::entityColumns<Entity>())
            sql += ", " + quoted(col.key) + " " + col.sqlType;
        sql += ");\n";
    });
    return sql;
}

/// The only schema objects a document may hold: the tables this build writes in any schema
/// version, and the two indexes the entity-layout builds (versions 1 and 2) created.
void checkSchemaObjects(SqliteHandle& db) {
    std::set<std::string> tables = {"schema_version", "meta", "entity"};
    for (auto kind : model::kAllEntityKinds) tables.insert(std::string(model::entityCollectionKey(kind)));
    db.requireOrdinaryTables(tables, {"entity_kind_ord", "entity_parent"});
}

/// Opens a version-1 or -2 document (entity table with JSON bodies), upgrading version 1 in memory.
model::Project loadEntityLayout(SqliteHandle& db, const std::string& path, std::int64_t version,
                                const model::Catalog* catalog);

/// Opens a version-3 document (typed tables).
model::Project loadTypedTables(SqliteHandle& db, const std::string& path, const model::Catalog* catalog);

} // namespace

int ctwinSchemaVersion() { return kCtwinSchemaVersion; }

void saveCtwin(const model::Project& project, const std::string& path) {
    model::SaveTemp temp(path); // resolves a symbolic link, refuses a directory, removes stale temporaries
    const std::string& tmp = temp.path();
    try {
        {
            SqliteHandle db(tmp, SqliteHandle::Mode::ReadWrite);
            // One durable commit per save: the document is written to a private temporary
            // that SaveTemp::commit fsyncs and renames over the target, so SQLite's own journal and syncs
            // would only repeat that work (a crash before the rename leaves the old file whole either way).
            db.exec("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;");
            static const std::string create = createTypedTables();
            db.exec(create);
            db.exec("BEGIN IMMEDIATE;");
            {
                SqliteStatement v(db, "INSERT INTO schema_version(version) VALUES (?1)");
                v.bind(1, static_cast<std::int64_t>(kCtwinSchemaVersion));
                v.step();
                SqliteStatement meta(db, "INSERT INTO meta(key, value) VALUES (?1, ?2)");
                const std::pair<const char*, std::string> rows[] = {
                    {"format", ojson(model::kDesignFormat).dump()},
                    {"project", model::projectInfoToJson(project.info).dump()},
                    {"assumptions", model::assumptionsToJson(project.assumptions).dump()}};
                for (const auto& [key, value] : rows) {
                    meta.bind(1, std::string(key));
                    meta.bind(2, value);
                    meta.step();
                    meta.reset();
                }
                project.forEachCollection([&](const auto& c) {
                    using Entity = typename std::decay_t<decltype(c)>::value_type;
                    const auto columns = model::entityColumns<Entity>();
                    std::string names = "ord", params = "?1";
                    for (size_t i = 0; i < columns.size(); ++i) {
                        names += ", " + quoted(columns[i].key);
                        params += ", ?" + std::to_string(i + 2);
                    }
                    SqliteStatement ins(db, "INSERT INTO " + quoted(std::string(model::entityCollectionKey(Entity::kKind))) +
                                                "(" + names + ") VALUES (" + params + ")");
                    StatementSink sink(ins);
                    std::int64_t ord = 0;
                    for (const auto& e : c) {
                        ins.bind(1, ord++);
                        model::entityToCells(e, sink); // binds the entity's own strings, no copies
                        ins.step();
                        sink.rowWritten();
                    }
                });
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
    const InputLocation where{path, "", "", "", ""};
    model::requireRegularFile(path, model::kMaxDesignFileBytes); // no FIFO, device or oversized file
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
    checkSchemaObjects(db);
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
    if (version > kCtwinSchemaVersion)
        throw InputError(InputLocation{path, "", "", "", "schema_version"},
                         "document has schema version " + std::to_string(version) +
                             ", newer than this build supports (" + std::to_string(kCtwinSchemaVersion) +
                             "); update ClusterTwin to open it");
    if (version < 1) throw InputError(InputLocation{path, "", "", "", "schema_version"}, "invalid schema version");
    if (version <= kLastEntityLayoutVersion) return loadEntityLayout(db, path, version, catalog);
    return loadTypedTables(db, path, catalog);
}

namespace {

model::Project loadTypedTables(SqliteHandle& db, const std::string& path, const model::Catalog* catalog) {
    auto topField = [&](const std::string& f) { return InputLocation{path, "", "", "", f}; };
    model::Project p;
    p.info.id = model::kDefaultProjectId; // a document without project metadata (the JSON reader's rule)
    {
        SqliteStatement meta(db, "SELECT key, value FROM meta");
        while (meta.step()) {
            const std::string key = meta.text(0);
            if (key != "project" && key != "assumptions") continue;
            ojson j;
            try {
                j = model::parseJson(meta.text(1));
            } catch (const nlohmann::json::parse_error& e) {
                throw InputError(topField(key), "damaged metadata: " + model::jsonErrorText(e));
            }
            if (key == "project")
                p.info = model::projectInfoFromJson(j, path);
            else
                p.assumptions = model::assumptionsFromJson(j, path);
        }
    }
    std::set<std::string> tables;
    {
        SqliteStatement t(db, "SELECT name FROM sqlite_master WHERE type = 'table'");
        while (t.step()) tables.insert(t.text(0));
    }
    p.forEachCollection([&](auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        const std::string key(model::entityCollectionKey(Entity::kKind));
        if (!tables.count(key)) throw InputError(topField(key), "table " + key + " is missing; the document is damaged");
        {
            SqliteStatement n(db, "SELECT count(*) FROM " + quoted(key));
            n.step();
            const auto count = static_cast<size_t>(n.integer(0));
            if (count > model::kMaxDesignEntities)
                throw InputError(topField(key), std::to_string(count) + " entities, more than the limit of " +
                                                    std::to_string(model::kMaxDesignEntities) + " per design");
            c.reserve(count);
        }
        SqliteStatement rows(db, "SELECT * FROM " + quoted(key) + " ORDER BY ord");
        const RowSource row(rows);
        while (rows.step()) c.push_back(model::entityFromCells<Entity>(row, path));
    });
    if (p.entityCount() > model::kMaxDesignEntities)
        throw InputError(InputLocation{path, "", "", "", ""},
                         std::to_string(p.entityCount()) + " entities, more than the limit of " +
                             std::to_string(model::kMaxDesignEntities) + " per design");
    model::validateProject(p, path, catalog);
    return p;
}

model::Project loadEntityLayout(SqliteHandle& db, const std::string& path, std::int64_t version,
                                const model::Catalog* catalog) {
    std::unique_ptr<SqliteHandle> upgraded;
    if (version < kLastEntityLayoutVersion) {
        // Upgrade a copy in memory; the file on disk is only rewritten when the user saves.
        // sqlite3_backup copies the checked document page by page: no path or other text of the user's ever
        // becomes SQL (issue 27: a file named "x' AS q; ATTACH 'pwned.db' ...--.ctwin" once wrote a file).
        upgraded = std::make_unique<SqliteHandle>(":memory:", SqliteHandle::Mode::ReadWrite);
        SqliteHandle& mem = *upgraded;
        sqlite3_backup* copy = sqlite3_backup_init(mem.get(), "main", db.get(), "main");
        if (!copy) mem.fail("cannot upgrade the document");
        const int rc = sqlite3_backup_step(copy, -1);
        sqlite3_backup_finish(copy);
        if (rc != SQLITE_DONE) db.fail("cannot upgrade the document");
        for (auto v = version; v < kLastEntityLayoutVersion; ++v) mem.exec(migrations().at(static_cast<size_t>(v - 1)));
    }
    SqliteHandle& src = upgraded ? *upgraded : db;

    ojson doc = ojson::object();
    doc["format"] = model::kDesignFormat;
    doc["schema_version"] = kLastEntityLayoutVersion; // JSON schema 2 (projectFromJson upgrades further)
    {
        SqliteStatement meta(src, "SELECT key, value FROM meta");
        while (meta.step()) {
            const std::string key = meta.text(0);
            if (key != "project" && key != "assumptions") continue;
            try {
                doc[key] = model::parseJson(meta.text(1));
            } catch (const nlohmann::json::parse_error& e) {
                throw InputError(InputLocation{path, "", "", "", key}, "damaged metadata: " + model::jsonErrorText(e));
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
                doc[kind].push_back(model::parseJson(rows.text(2)));
            } catch (const nlohmann::json::parse_error& e) {
                throw InputError(InputLocation{path, kind, rows.text(1), "", "body"},
                                 "damaged entity: " + model::jsonErrorText(e));
            }
        }
    }
    return model::projectFromJson(doc, path, catalog);
}

bool hasExtension(const std::string& path, const char* ext) {
    return std::filesystem::path(path).extension() == ext;
}
} // namespace

model::Project loadDesign(const std::string& path, const model::Catalog* catalog) {
    if (path.empty()) throw InputError(InputLocation{"", "", "", "", ""}, "no design file named (an empty path)");
    if (hasExtension(path, ".ctwin")) return loadCtwin(path, catalog);
    if (hasExtension(path, ".json")) return model::loadProjectJson(path, catalog);
    throw InputError(InputLocation{path, "", "", "", ""}, "unknown file type (expected .ctwin or .json)");
}

void saveDesign(const model::Project& project, const std::string& path) {
    if (path.empty()) throw InputError(InputLocation{"", "", "", "", ""}, "no file named to save into (an empty path)");
    if (hasExtension(path, ".ctwin")) return saveCtwin(project, path);
    if (hasExtension(path, ".json"))
        return model::writeTextFileAtomic(path, model::dumpJson(model::projectToJson(project)));
    throw InputError(InputLocation{path, "", "", "", ""}, "unknown file type (expected .ctwin or .json)");
}

} // namespace ctwin::store
