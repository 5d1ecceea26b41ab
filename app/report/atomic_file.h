#pragma once
#include <deque>
#include <filesystem>
#include <memory>
#include <string>

#include "atomic_write.h"

namespace ctwin::app {

/// One output file written under a temporary name in the target's own directory and renamed over the
/// target by commit(), so a report that fails half-way never leaves a partial file behind (rename(2) is
/// atomic within a file system, POSIX.1-2008). The temporary is removed unless committed. The temporary,
/// the symbolic-link rule and the clean-up of stale temporaries are model::SaveTemp's, shared with design saves.
class AtomicFile {
public:
    /// Creates the temporary file. Throws model::InputError naming `target` when its directory does not
    /// exist or is not writable, or when `target` is a directory.
    explicit AtomicFile(std::string target);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    AtomicFile(AtomicFile&& other) noexcept;
    AtomicFile& operator=(AtomicFile&&) = delete;

    const std::string& target() const { return m_target; }
    /// Where to write until commit().
    const std::string& tempPath() const { return m_temp->path(); }
    /// Renames the temporary over the target. Throws model::InputError naming the target on failure.
    void commit();
    /// Throws model::InputError naming the target with `problem`.
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string m_target;
    std::unique_ptr<model::SaveTemp> m_temp;
};

/// A report made of several files in one directory (the chart images; CSV tables use DirectorySwap, which
/// replaces the whole folder), all or nothing: the directory is created when missing, each file is an
/// AtomicFile, and commit() renames them all. Destroyed without commit(), it removes the temporaries and any
/// directory it created.
class AtomicDirectory {
public:
    /// Throws model::InputError naming `directory` when it is empty, is a file, or cannot be created.
    explicit AtomicDirectory(const std::string& directory);
    ~AtomicDirectory();
    AtomicDirectory(const AtomicDirectory&) = delete;
    AtomicDirectory& operator=(const AtomicDirectory&) = delete;

    /// A new file `name` in the directory; write to its tempPath() (or fail() on a write error).
    AtomicFile& file(const std::string& name);
    void commit();

private:
    std::filesystem::path m_dir;
    std::filesystem::path m_created; // outermost directory this object created, removed on failure
    std::deque<AtomicFile> m_files;  // a deque: file() hands out references that stay valid
    bool m_done = false;
};

} // namespace ctwin::app
