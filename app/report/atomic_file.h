#pragma once
#include <string>

namespace ctwin::app {

/// One output file written under a temporary name in the target's own directory and renamed over the
/// target by commit(), so a report that fails half-way never leaves a partial file behind (rename(2) is
/// atomic within a file system, POSIX.1-2008). The temporary is removed unless committed.
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
    const std::string& tempPath() const { return m_temp; }
    /// Renames the temporary over the target. Throws model::InputError naming the target on failure.
    void commit();
    /// Throws model::InputError naming the target with `problem`.
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string m_target;
    std::string m_temp;
    bool m_committed = false;
};

} // namespace ctwin::app
