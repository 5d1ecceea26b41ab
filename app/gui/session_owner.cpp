#include "session_owner.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace ctwin::app {

namespace {

std::string firstLine(const char* path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

/// /proc/stat's "btime": the boot, in seconds since the epoch (proc(5)).
std::optional<std::int64_t> bootTime() {
    std::ifstream in("/proc/stat");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("btime ", 0) == 0) try {
                return std::stoll(line.substr(6));
            } catch (const std::exception&) {
                break;
            }
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> SessionOwner::startTicksOf(std::int64_t pid) {
    if (pid <= 0) return std::nullopt;
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) return std::nullopt;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so fields count from the last ')'.
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) return std::nullopt;
    std::istringstream fields(stat.substr(close + 1));
    std::string field;
    for (int n = 3; n <= 22; ++n)
        if (!(fields >> field)) return std::nullopt;
    try {
        return std::stoull(field);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

SessionOwner SessionOwner::current() {
    static const SessionOwner me = [] {
        SessionOwner o;
        o.pid = ::getpid();
        o.bootId = QString::fromStdString(firstLine("/proc/sys/kernel/random/boot_id")).trimmed();
        o.startTicks = startTicksOf(o.pid).value_or(0);
        return o;
    }();
    return me;
}

SessionOwner::State SessionOwner::state(const QDateTime& writtenAt) const {
    if (pid <= 0) return State::Gone;
    const SessionOwner me = current();
    if (pid == me.pid && bootId == me.bootId && startTicks == me.startTicks) return State::ThisProcess;
    if (me.bootId.isEmpty()) // no /proc here: all one can ask is whether some process has the pid
        return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM ? State::Running : State::Gone;
    if (!bootId.isEmpty()) {
        if (bootId != me.bootId) return State::Gone; // written before a reboot
        const auto ticks = startTicksOf(pid);
        return ticks && *ticks == startTicks ? State::Running : State::Gone; // else ended, or pid reused
    }
    // Known by pid only (an earlier version's .meta or file name): the process holding that pid now is the
    // writer only if it was already running when the file was written.
    const auto ticks = startTicksOf(pid);
    if (!ticks) return State::Gone;
    const auto boot = bootTime();
    const long hz = ::sysconf(_SC_CLK_TCK);
    if (!boot || hz <= 0) return State::Running;
    const QDateTime started =
        QDateTime::fromSecsSinceEpoch(*boot).addMSecs(static_cast<qint64>(*ticks * 1000 / std::uint64_t(hz)));
    // btime is whole seconds: allow two seconds of rounding.
    return started <= writtenAt.addSecs(2) ? State::Running : State::Gone;
}

QJsonObject SessionOwner::toJson() const {
    return {{QStringLiteral("pid"), static_cast<qint64>(pid)},
            {QStringLiteral("boot_id"), bootId},
            {QStringLiteral("start_ticks"), static_cast<qint64>(startTicks)}};
}

SessionOwner SessionOwner::fromJson(const QJsonObject& o) {
    SessionOwner s;
    s.pid = o.value(QStringLiteral("pid")).toInteger();
    s.bootId = o.value(QStringLiteral("boot_id")).toString();
    s.startTicks =
        static_cast<std::uint64_t>(std::max<qint64>(0, o.value(QStringLiteral("start_ticks")).toInteger()));
    return s;
}

} // namespace ctwin::app
