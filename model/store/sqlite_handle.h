#pragma once
// Small RAII layer over the SQLite C API, private to the store target.
#include <cstdint>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace ctwin::store {

/// An open SQLite connection. Every failure throws InputError naming the file and SQLite's reason.
class SqliteHandle {
public:
    /// Immutable: read-only without locks or a -shm file (SQLite URI immutable=1), for a document on a
    /// read-only file system.
    enum class Mode { ReadOnly, ReadWrite, Immutable };
    SqliteHandle(const std::string& path, Mode mode);
    ~SqliteHandle();
    SqliteHandle(const SqliteHandle&) = delete;
    SqliteHandle& operator=(const SqliteHandle&) = delete;

    void exec(const std::string& sql);
    sqlite3* get() const { return m_db; }
    const std::string& path() const { return m_path; }
    [[noreturn]] void fail(const std::string& what) const;

private:
    sqlite3* m_db = nullptr;
    std::string m_path;
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
