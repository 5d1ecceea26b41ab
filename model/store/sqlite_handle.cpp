#include "sqlite_handle.h"

#include <sqlite3.h>

#include <cstdio>

#include "input_error.h"

namespace ctwin::store {

using model::InputError;
using model::InputLocation;

SqliteHandle::SqliteHandle(const std::string& path, Mode mode) : m_path(path) {
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
}

SqliteHandle::~SqliteHandle() { sqlite3_close(m_db); }

void SqliteHandle::fail(const std::string& what) const {
    throw InputError(InputLocation{m_path, "", "", "", ""}, what + ": " + sqlite3_errmsg(m_db));
}

void SqliteHandle::exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string reason = err ? err : "unknown error";
        sqlite3_free(err);
        throw InputError(InputLocation{m_path, "", "", "", ""}, "database error: " + reason);
    }
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
