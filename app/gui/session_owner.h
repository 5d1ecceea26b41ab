#pragma once
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <cstdint>
#include <optional>

namespace ctwin::app {

/// Which running program wrote a file (an autosave): the process id with what makes it unique over time.
/// A pid alone repeats (after a reboot, or when the kernel hands a freed pid to a new process), so an
/// autosave of a crashed session could look owned by an unrelated running process and never be offered.
/// The boot id (/proc/sys/kernel/random/boot_id, new at every boot) and the process start time (field 22
/// of /proc/<pid>/stat, clock ticks after boot; proc(5)) together name one process of one boot.
struct SessionOwner {
    std::int64_t pid = 0;
    QString bootId;               // empty: unknown (an autosave of a version before issue 27, or no /proc)
    std::uint64_t startTicks = 0; // 0: unknown

    enum class State {
        ThisProcess, // the caller itself
        Running,     // another process that is still running
        Gone,        // ended (crashed, killed, rebooted): what it left behind is orphaned
    };

    /// This process (read once).
    static SessionOwner current();
    /// What the owner is now. `writtenAt` (the file's time) judges an owner known by pid only: a process
    /// with that pid that started after the file was written (or a file from before this boot) is not
    /// the one that wrote it.
    State state(const QDateTime& writtenAt) const;

    QJsonObject toJson() const;
    static SessionOwner fromJson(const QJsonObject& o);

    /// Field 22 of /proc/<pid>/stat, or nothing when there is no such process (or no /proc).
    static std::optional<std::uint64_t> startTicksOf(std::int64_t pid);
};

} // namespace ctwin::app
