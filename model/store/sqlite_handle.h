#pragma once
// Small RAII layer over the SQLite C API, private to the store target.
#include <cstdint>
#include <set>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace ctwin::store {

/// How long one connection may work on a document before SQLite is interrupted (README "Limits"): a
/// 64 MiB document opens in about 2 s here; anything slower is damaged or built to hang its reader.
inline constexpr double kSqliteDeadlineSeconds = 30.0;

/// An open SQLite connection. Every failure throws InputError naming the file and SQLite's reason.
///
/// Every connection is opened as SQLite's "Defense Against The Dark Arts" page (sqlite.org/security.html)
/// advises for files from strangers: SQLITE_DBCONFIG_DEFENSIVE, trusted_schema off, views and triggers
/// disabled, no ATTACH, strings and blobs no longer than a design file may be, temporary storage in memory
/// and a progress handler that interrupts any statement after kSqliteDeadlineSeconds. The document's
/// schema itself is checked by requireOrdinaryTables before any table is read.
class SqliteHandle {
public:
    /// Immutable: read-only without locks or a -shm file (SQLite URI immutable=1), for a document on a
    /// read-only file system.
    enum class Mode { ReadOnly, ReadWrite, Immutable };
    /// `deadlineSeconds`: how long statements on this connection may run in all (tests shorten it).
    SqliteHandle(const std::string& path, Mode mode, double deadlineSeconds = kSqliteDeadlineSeconds);
    ~SqliteHandle();
    SqliteHandle(const SqliteHandle&) = delete;
    SqliteHandle& operator=(const SqliteHandle&) = delete;

    void exec(const std::string& sql);
    sqlite3* get() const { return m_db; }
    const std::string& path() const { return m_path; }
    [[noreturn]] void fail(const std::string& what) const;
    /// Refuses (InputError naming the file and the object) a database whose schema holds anything but
    /// ordinary tables named in `tables`, SQLite's automatic indexes of them and indexes named in `indexes`:
    /// no view, trigger, virtual table, generated column, unknown table or index (SPEC §7; issue 27: a
    /// view named `meta` or `racks` once ran a stranger's endless or gigabyte query inside the reader).
    void requireOrdinaryTables(const std::set<std::string>& tables, const std::set<std::string>& indexes);
    /// The message for SQLite's current error: its own text, or for an interrupted statement, a hot journal
    /// or an over-long value, what happened and what the user can do.
    std::string reason() const;

private:
    void harden();

    sqlite3* m_db = nullptr;
    std::string m_path;
    double m_deadlineSeconds;
    double m_deadline = 0; // steady-clock seconds after which the progress handler interrupts
};

/// A prepared statement bound to a connection.
class SqliteStatement {
public:
    SqliteStatement(SqliteHandle& db, const std::string& sql);
    ~SqliteStatement();
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;

    void bind(int index, const std::string& text);
    void bind(int index, double value);
    void bind(int index, std::int64_t value);
    void bindNull(int index);
    /// Binds text without a copy: `text` must stay unchanged until the statement is stepped and reset.
    void bindUnowned(int index, const std::string& text);
    /// Steps once; true while a row is available.
    bool step();
    void reset();
    std::string text(int column) const;
    double real(int column) const;
    std::int64_t integer(int column) const;
    /// The underlying statement, for column access without copies (design_file.cpp's typed rows).
    sqlite3_stmt* get() const { return m_stmt; }

private:
    SqliteHandle& m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

} // namespace ctwin::store
