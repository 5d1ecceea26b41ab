#include "atomic_write.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "design_json.h"
#include "input_error.h"

namespace ctwin::model {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void throwFor(const std::string& path, const std::string& problem) {
    throw InputError(InputLocation{path, "", "", "", ""}, problem);
}

fs::path directoryOf(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

/// The prefix every temporary of `target` starts with: ".NAME.tmp-".
std::string tempPrefix(const fs::path& target) { return "." + target.filename().string() + ".tmp-"; }

/// mkstemp(3) replaces exactly six characters from [A-Za-z0-9].
bool isTempSuffix(std::string_view s) {
    if (s.size() != 6) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
    return true;
}

/// The kernel's fs.protected_symlinks rule (Documentation/admin-guide/sysctl/fs.rst, "protected_symlinks"):
/// in a sticky, world-writable folder (/tmp) a symbolic link is followed only when its owner is the follower
/// (the effective user) or the folder's owner. A save resolves links itself and renames over the file they
/// lead to, so the kernel never sees the link being followed: the rule is applied here, whatever the sysctl
/// says: planting such a link is how another user of /tmp would make us overwrite a file of their choosing.
bool sharedFolderForbids(const fs::path& linkPath, const struct stat& link) {
    struct stat folder {};
    if (::stat(directoryOf(linkPath).c_str(), &folder) != 0) return false;
    const bool shared = (folder.st_mode & S_ISVTX) != 0 && (folder.st_mode & S_IWOTH) != 0;
    return shared && link.st_uid != ::geteuid() && link.st_uid != folder.st_uid;
}

} // namespace

std::string resolveSaveTarget(const std::string& path) {
    fs::path p(path);
    std::error_code ec;
    // Linux gives up after 40 links (ELOOP, path_resolution(7)); so do we.
    for (int hops = 0; hops < 40; ++hops) {
        struct stat link {};
        if (::lstat(p.c_str(), &link) != 0 || !S_ISLNK(link.st_mode)) return p.string();
        if (sharedFolderForbids(p, link))
            throwFor(path, (hops == 0 ? std::string("is") : "leads to " + p.string() + ",") +
                               " a symbolic link owned by another user in a shared folder (sticky, "
                               "world-writable); not followed");
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) throwFor(path, "cannot follow the symbolic link: " + ec.message());
        p = target.is_absolute() ? target : directoryOf(p) / target;
    }
    throwFor(path, "too many levels of symbolic links");
}

int removeStaleSaveTemps(const std::string& target) {
    const fs::path t(target);
    const fs::path dir = directoryOf(t);
    const std::string prefix = tempPrefix(t);
    int removed = 0;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) return 0;
    const auto now = fs::file_time_type::clock::now();
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (name.rfind(prefix, 0) != 0) continue;
        std::string_view rest(name);
        rest.remove_prefix(prefix.size());
        std::string_view companion;
        for (std::string_view c : {"-wal", "-shm", "-journal"})
            if (rest.size() > c.size() && rest.substr(rest.size() - c.size()) == c) {
                companion = c;
                rest.remove_suffix(c.size());
                break;
            }
        if (!isTempSuffix(rest) || !it->is_regular_file(ec)) continue;
        const auto age = now - fs::last_write_time(it->path(), ec);
        if (ec || age < std::chrono::minutes(1)) continue;
        // In use: a running save holds an flock on the main temporary (companions follow their main file).
        const fs::path main = dir / (prefix + std::string(rest));
        const int fd = ::open(main.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
            ::close(fd);
            if (!free) continue;
        } else if (companion.empty()) {
            continue;
        }
        if (::unlink(it->path().c_str()) == 0) ++removed;
    }
    return removed;
}

SaveTemp::SaveTemp(const std::string& path) : m_requested(path) {
    if (path.empty()) throwFor("<output>", "no file name given");
    m_target = resolveSaveTarget(path);
    const fs::path target(m_target);
    struct stat st {};
    if (::stat(m_target.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) throwFor(path, "is a directory; give a file name");
        if (!S_ISREG(st.st_mode)) throwFor(path, "is not a regular file; it is unchanged");
        // root may write anyway; a cleared write bit still says the user wants the file kept as it is.
        if ((st.st_mode & 0222) == 0 || ::access(m_target.c_str(), W_OK) != 0)
            throwFor(path, "is read-only; it is unchanged (save under another name)");
    }
    const fs::path dir = directoryOf(target);
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throwFor(path, "cannot save: the folder " + dir.string() + " does not exist");
    removeStaleSaveTemps(m_target);
    std::string tmpl = (dir / (tempPrefix(target) + "XXXXXX")).string();
    m_fd = ::mkstemp(tmpl.data());
    if (m_fd < 0) throwFor(path, "cannot save in " + dir.string() + " (" + std::strerror(errno) + "); the file is unchanged");
    m_temp = tmpl;
    ::flock(m_fd, LOCK_EX); // marks the temporary as in use for removeStaleSaveTemps
    ::fchmod(m_fd, newFileMode(m_target));
}

SaveTemp::~SaveTemp() {
    if (!m_committed && !m_temp.empty())
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) ::unlink((m_temp + suffix).c_str());
    if (m_fd >= 0) ::close(m_fd);
}

void SaveTemp::fail(const std::string& problem) const { throwFor(m_requested, problem); }

void SaveTemp::write(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("could not save (" + std::string(std::strerror(n < 0 ? errno : ENOSPC)) + "); the file is unchanged");
        done += static_cast<size_t>(n);
    }
}

void SaveTemp::commit() {
    if (m_committed) return;
    if (::fsync(m_fd) != 0) fail("could not save (" + std::string(std::strerror(errno)) + "); the file is unchanged");
    if (std::rename(m_temp.c_str(), m_target.c_str()) != 0)
        fail("could not save (" + std::string(std::strerror(errno)) + "); the file is unchanged");
    m_committed = true;
    const int dfd = ::open(directoryOf(fs::path(m_target)).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        ::fsync(dfd); // the rename itself reaches the disk
        ::close(dfd);
    }
}

void writeFileAtomic(const std::string& path, const std::string& text) {
    SaveTemp temp(path);
    temp.write(text);
    temp.commit();
}

} // namespace ctwin::model
