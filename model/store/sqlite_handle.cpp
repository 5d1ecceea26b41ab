#include "sqlite_handle.h"

#include <sqlite3.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <vector>

#include <sys/stat.h>

#include "design_json.h"
#include "format_number.h"
#include "input_error.h"

namespace ctwin::store {

using model::InputError;
using model::InputLocation;

namespace {

double steadySeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// SQLite calls this every kProgressOps virtual-machine operations; non-zero interrupts the statement
/// (SQLITE_INTERRUPT). A recursive view or an endless query cannot outlive the deadline.
constexpr int kProgressOps = 10000;
int pastDeadline(void* deadline) { return steadySeconds() > *static_cast<const double*>(deadline) ? 1 : 0; }

} // namespace

SqliteHandle::SqliteHandle(const std::string& path, Mode mode, double deadlineSeconds)
    : m_path(path), m_deadlineSeconds(deadlineSeconds) {
    int flags = mode == Mode::ReadWrite ? (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) : SQLITE_OPEN_READONLY;
    // A connection is used by one thread at a time: no per-call mutex (about 10% of a 14K-rack open).
    flags |= SQLITE_OPEN_NOMUTEX;
    std::string name = path;
    if (mode == Mode::Immutable) {
        // file: URI with the path percent-encoded where URI syntax would misread it (RFC 3986).
        name = "file:";
        for (unsigned char c : path) {
            if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7f) {
                char hex[4];
                std::snprintf(hex, sizeof hex, "%%%02X", c);
                name += hex;
            } else {
                name += static_cast<char>(c);
            }
        }
        name += "?immutable=1";
        flags |= SQLITE_OPEN_URI;
    }
    if (sqlite3_open_v2(name.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string reason = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw InputError(InputLocation{path, "", "", "", ""}, "cannot open: " + reason);
    }
    sqlite3_extended_result_codes(m_db, 1);
    sqlite3_busy_timeout(m_db, 2000);
    harden();
}

void SqliteHandle::harden() {
    // sqlite.org/security.html ("Defense Against The Dark Arts"), items 1-7 as they apply to a reader of
    // untrusted database files. Each call below fails only on an invalid option, which SQLite 3.40 has.
    int was = 0;
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, &was);      // no writable_schema, no shadow-table writes
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &was); // schema may call only innocuous functions
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &was); // a document never runs code of its own
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &was);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &was);
    // No value may be longer than a design file may be (a view once yielded a 900 MB name from 64 KB).
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, static_cast<int>(model::kMaxDesignFileBytes));
    sqlite3_limit(m_db, SQLITE_LIMIT_ATTACHED, 0); // the upgrade copy uses sqlite3_backup, never ATTACH
    m_deadline = steadySeconds() + m_deadlineSeconds;
    sqlite3_progress_handler(m_db, kProgressOps, pastDeadline, &m_deadline);
    // Sorts and temporary b-trees stay in memory: with views refused the only sort is over the document's
    // own rows (at most kMaxDesignFileBytes), and nothing spills gigabytes into /tmp.
    exec("PRAGMA temp_store = MEMORY;");
}

namespace {
/// A read-only connection meets a hot journal as SQLITE_READONLY_ROLLBACK, or (SQLite 3.40 through
/// sqlite3_prepare) as plain SQLITE_READONLY "attempt to write a readonly database": a non-empty journal beside
/// the file tells which.
bool hotJournal(sqlite3* db, const std::string& path) {
    const int code = sqlite3_extended_errcode(db);
    if (code == SQLITE_READONLY_ROLLBACK) return true;
    struct stat st{};
    return (code & 0xff) == SQLITE_READONLY && ::stat((path + "-journal").c_str(), &st) == 0 && st.st_size > 0;
}
} // namespace

std::string SqliteHandle::reason() const {
    if (hotJournal(m_db, m_path))
        return "a program stopped while changing it and left its unfinished change in '" + m_path +
               "-journal' (a hot journal); ClusterTwin opens documents read-only and does not apply another "
               "program's journal: open it once in the program that wrote it (or run sqlite3 on it) to roll "
               "the change back, or ask its sender for a clean copy";
    switch (sqlite3_extended_errcode(m_db)) {
    case SQLITE_INTERRUPT:
        return "reading it took longer than " + model::formatNumber(m_deadlineSeconds) +
               " s (the limit per document); it is damaged or made to hang its reader";
    case SQLITE_TOOBIG:
        return "it holds a value longer than " + std::to_string(model::kMaxDesignFileBytes >> 20) +
               " MiB (the limit)";
    default: return sqlite3_errmsg(m_db);
    }
}

void SqliteHandle::requireOrdinaryTables(const std::set<std::string>& tables, const std::set<std::string>& indexes) {
    struct Object {
        std::string type, name, table, sql;
    };
    std::vector<Object> objects;
    {
        SqliteStatement q(*this, "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_schema");
        while (q.step()) objects.push_back({q.text(0), q.text(1), q.text(2), q.text(3)});
    }
    auto refuse = [&](const std::string& name, const std::string& what) {
        // The name is the InputError's field and part of the message: text, never SQL.
        throw InputError(InputLocation{m_path, "", "", "", name},
                         "it holds " + what + ", which ClusterTwin never writes; refused as unsafe to read (a "
                         "document holds only ordinary tables)");
    };
    auto isVirtual = [](std::string sql) {
        for (auto& c : sql) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return sql.rfind("CREATE VIRTUAL TABLE", 0) == 0;
    };
    // Code first (views, triggers, virtual tables), so a virtual table is named rather than its shadow tables.
    for (const auto& o : objects) {
        if (o.type == "view" || o.type == "trigger") refuse(o.name, "a " + o.type + " '" + o.name + "'");
        if (o.type == "table" && isVirtual(o.sql)) refuse(o.name, "a virtual table '" + o.name + "'");
    }
    std::vector<std::string> ordinary;
    for (const auto& o : objects) {
        if (o.type == "table") {
            if (!tables.count(o.name)) refuse(o.name, "an unknown table '" + o.name + "'");
            ordinary.push_back(o.name);
        } else if (o.type == "index") {
            const bool automatic = o.sql.empty() && o.name.rfind("sqlite_autoindex_" + o.table + "_", 0) == 0;
            if (!automatic && !indexes.count(o.name)) refuse(o.name, "an unknown index '" + o.name + "'");
        } else {
            refuse(o.name, "a schema object of type '" + o.type + "'");
        }
    }
    // Generated columns (hidden 2 = virtual, 3 = stored) compute values from the file's own expressions.
    SqliteStatement columns(*this, "SELECT name, hidden FROM pragma_table_xinfo(?1)");
    for (const auto& table : ordinary) {
        columns.bind(1, table);
        while (columns.step())
            if (columns.integer(1) != 0)
                refuse(table, "a generated column '" + columns.text(0) + "' in table '" + table + "'");
        columns.reset();
    }
}

SqliteHandle::~SqliteHandle() { sqlite3_close(m_db); }

void SqliteHandle::fail(const std::string& what) const {
    // An interrupted statement, a hot journal and an over-long value say all in their own words.
    const int code = sqlite3_extended_errcode(m_db) & 0xff;
    const bool own = code == SQLITE_INTERRUPT || code == SQLITE_TOOBIG || hotJournal(m_db, m_path);
    throw InputError(InputLocation{m_path, "", "", "", ""}, own ? "cannot open: " + reason() : what + ": " + reason());
}

void SqliteHandle::exec(const std::string& sql) {
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        throw InputError(InputLocation{m_path, "", "", "", ""}, "database error: " + reason());
}

SqliteStatement::SqliteStatement(SqliteHandle& db, const std::string& sql) : m_db(db) {
    if (sqlite3_prepare_v2(db.get(), sql.c_str(), -1, &m_stmt, nullptr) != SQLITE_OK)
        db.fail("not a valid ClusterTwin database");
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(m_stmt); }

void SqliteStatement::bind(int index, const std::string& text) {
    sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}
void SqliteStatement::bind(int index, double value) { sqlite3_bind_double(m_stmt, index, value); }
void SqliteStatement::bind(int index, std::int64_t value) { sqlite3_bind_int64(m_stmt, index, value); }
void SqliteStatement::bindNull(int index) { sqlite3_bind_null(m_stmt, index); }
void SqliteStatement::bindUnowned(int index, const std::string& text) {
    sqlite3_bind_text(m_stmt, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}

bool SqliteStatement::step() {
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    m_db.fail("database error");
}

void SqliteStatement::reset() {
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
}

std::string SqliteStatement::text(int column) const {
    const auto* p = sqlite3_column_text(m_stmt, column);
    return p ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(m_stmt, column)))
             : std::string();
}
double SqliteStatement::real(int column) const { return sqlite3_column_double(m_stmt, column); }
std::int64_t SqliteStatement::integer(int column) const { return sqlite3_column_int64(m_stmt, column); }

} // namespace ctwin::store
