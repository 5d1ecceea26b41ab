#pragma once
// The one way ClusterTwin replaces a file the user named (designs, .ctwin documents, reports, rendered
// pictures): a temporary beside the target, written, flushed, then renamed over it (rename(2) is atomic
// within a file system, POSIX.1-2008), so a crash, a full disk or a kill -9 mid-save leaves the old file.
#include <string>

namespace ctwin::model {

/// The file a save to `path` replaces: `path` itself, or, when `path` is a symbolic link (or a chain of
/// them), the file it finally points to, so that saving through a link updates the linked file instead of
/// replacing the link. Each link is followed only as the kernel's fs.protected_symlinks rule would follow
/// it: in a sticky, world-writable folder (/tmp) only a link owned by the effective user or by the folder's
/// owner. Throws InputError naming `path` for a link loop and for a link that rule refuses ("... is a
/// symbolic link owned by another user in a shared folder (sticky, world-writable); not followed").
std::string resolveSaveTarget(const std::string& path);

/// Removes what killed saves of `target` left in its directory: `.NAME.tmp-XXXXXX` (our own temporaries,
/// exactly that pattern) and their `-wal`, `-shm` and `-journal` companions, and only those no running save
/// holds (every save keeps an flock(2) on its temporary) and not modified in the last minute. Never throws;
/// returns how many files it removed.
int removeStaleSaveTemps(const std::string& target);

/// A temporary file beside a save target, locked while it is in use. The destructor removes it (and the
/// SQLite companions of its name) unless commit() renamed it over the target.
class SaveTemp {
public:
    /// Resolves the target (resolveSaveTarget), refuses a directory or a read-only file, removes stale
    /// temporaries of the same target, creates the temporary with the target's permission bits. Every
    /// error is an InputError naming `path` (what the user gave), never the temporary.
    explicit SaveTemp(const std::string& path);
    ~SaveTemp();
    SaveTemp(const SaveTemp&) = delete;
    SaveTemp& operator=(const SaveTemp&) = delete;

    /// What the user named (for messages) and the file that will be replaced.
    const std::string& requested() const { return m_requested; }
    const std::string& target() const { return m_target; }
    /// Where to write until commit(); fd() is open on it for writing.
    const std::string& path() const { return m_temp; }
    int fd() const { return m_fd; }

    /// Writes all of `bytes` to the temporary (through fd()); throws InputError naming the target.
    void write(const std::string& bytes);
    /// Flushes the temporary to disk, renames it over the target and flushes the directory. Throws
    /// InputError naming the target ("... ; the file is unchanged").
    void commit();
    /// Throws InputError naming the target with `problem`.
    [[noreturn]] void fail(const std::string& problem) const;

private:
    std::string m_requested, m_target, m_temp;
    int m_fd = -1;
    bool m_committed = false;
};

/// Writes `text` to `path` through a SaveTemp.
void writeFileAtomic(const std::string& path, const std::string& text);

} // namespace ctwin::model
