#include "report/directory_swap.h"

#include "atomic_write.h"
#include "input_error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace ctwin::app {

namespace fs = std::filesystem;

namespace {

fs::path directoryOf(const fs::path& p) {
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

std::string errnoText(int error) {
    return std::strerror(error);
}

/// mkstemp(3)'s six characters from [A-Za-z0-9], as model::SaveTemp's temporaries have.
bool isTempSuffix(std::string_view s) {
    if (s.size() != 6) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) return false;
    return true;
}

/// ".NAME.tmp-" or ".NAME.old-" followed by the six characters.
bool isOurTemp(const std::string& name, const std::string& prefix) {
    return name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0 &&
           isTempSuffix(std::string_view(name).substr(prefix.size()));
}

/// Creates the folder `prefix` + six random characters (mode 0777 less the umask, as mkdir(1) would;
/// mkdtemp(3) would give 0700) and returns its path.
fs::path makeUniqueDirectory(const fs::path& dir, const std::string& prefix, int& error) {
    static constexpr char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::random_device seed;
    std::mt19937_64 random(seed());
    std::uniform_int_distribution<size_t> pick(0, sizeof kChars - 2);
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name = prefix;
        for (int i = 0; i < 6; ++i)
            name += kChars[pick(random)];
        const fs::path path = dir / name;
        if (::mkdir(path.c_str(), 0777) == 0) return path;
        if (errno != EEXIST) break;
    }
    error = errno;
    return {};
}

void syncDirectory(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd); // the renames themselves reach the disk
    ::close(fd);
}

/// The folder the user named, without trailing separators ("out/" is "out").
fs::path folderPath(const std::string& given) {
    fs::path p(given);
    while (p.has_relative_path() && p.filename().empty())
        p = p.parent_path();
    return p;
}

} // namespace

int removeStaleDirectoryTemps(const fs::path& target) {
    const fs::path dir = directoryOf(target);
    const std::string name = target.filename().string();
    const std::string tmp = "." + name + ".tmp-", old = "." + name + ".old-";
    std::vector<fs::path> stale;
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) return 0;
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const std::string entry = it->path().filename().string();
        if (!isOurTemp(entry, tmp) && !isOurTemp(entry, old)) continue;
        if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
        // In use: a running write holds an flock on its temporary folder.
        const int fd = ::open(it->path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) continue;
        const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
        ::close(fd);
        if (free) stale.push_back(it->path());
    }
    int removed = 0;
    for (const auto& p : stale)
        if (fs::remove_all(p, ec) > 0 && !ec) ++removed;
    return removed;
}

DirectorySwap::DirectorySwap(const std::string& directory, std::set<std::string> ownNames, std::string what)
    : m_requested(directory), m_what(std::move(what)), m_own(std::move(ownNames)) {
    if (directory.empty()) throw model::InputError({"<report>", "", "", "", ""}, "no output folder given");
    const fs::path given = folderPath(directory);
    const std::string last = given.filename().string();
    if (last.empty() || last == "." || last == "..")
        fail("name the folder itself (not '.', '..' or '/'): " + m_what + " replaces the whole folder");
    m_target = fs::path(model::resolveSaveTarget(given.string()));
    struct stat st {};
    if (::stat(m_target.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) fail("exists and is not a directory");
    checkReplaceable();

    try {
        create();
    } catch (...) {
        cleanUp(); // no destructor runs for an object whose constructor throws
        throw;
    }
}

void DirectorySwap::create() {
    // Missing parents are created; the outermost one created is removed again on failure.
    const fs::path parent = directoryOf(m_target);
    std::error_code ec;
    if (!fs::exists(parent, ec)) {
        fs::path first = parent;
        while (first.has_parent_path() && first.parent_path() != first &&
               !fs::exists(first.parent_path(), ec))
            first = first.parent_path();
        if (!fs::create_directories(parent, ec) || ec)
            fail("cannot create the report directory: " + ec.message());
        m_created = first;
    } else if (!fs::is_directory(parent, ec)) {
        fail("cannot create the report directory: " + parent.string() + " is not a directory");
    }

    removeStaleDirectoryTemps(m_target);
    int error = 0;
    m_temp = makeUniqueDirectory(parent, "." + m_target.filename().string() + ".tmp-", error);
    if (m_temp.empty()) fail("cannot write the report directory (" + errnoText(error) + "); it is unchanged");
    m_lock = ::open(m_temp.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (m_lock < 0) fail("cannot write the report directory (" + errnoText(errno) + "); it is unchanged");
    ::flock(m_lock, LOCK_EX); // marks the temporary folder as in use for removeStaleDirectoryTemps
    struct stat st {};
    if (::stat(m_target.c_str(), &st) == 0) ::chmod(m_temp.c_str(), st.st_mode & 07777); // keep the mode
}

DirectorySwap::~DirectorySwap() {
    cleanUp();
}

void DirectorySwap::cleanUp() {
    std::error_code ec;
    if (!m_committed && !m_temp.empty()) fs::remove_all(m_temp, ec);
    if (m_lock >= 0) ::close(m_lock);
    m_lock = -1;
    if (!m_committed && !m_created.empty()) fs::remove_all(m_created, ec);
    m_temp.clear();
    m_created.clear();
}

void DirectorySwap::fail(const std::string& problem) const {
    throw model::InputError(model::InputLocation{m_requested, "", "", "", ""}, problem);
}

/// A folder is the report's to replace when it is missing, empty, or holds only regular files named as the
/// report's files (and the `.NAME.tmp-XXXXXX` temporaries that the file-by-file writes of earlier versions
/// could leave when killed).
void DirectorySwap::checkReplaceable() const {
    struct stat st {};
    if (::lstat(m_target.c_str(), &st) != 0) return;
    std::vector<std::string> strangers;
    std::error_code ec;
    fs::directory_iterator it(m_target, ec), end;
    if (ec) fail("cannot read the folder to replace it (" + ec.message() + "); it is unchanged");
    for (; it != end; it.increment(ec)) {
        if (ec) fail("cannot read the folder to replace it (" + ec.message() + "); it is unchanged");
        const std::string name = it->path().filename().string();
        const bool file = it->is_regular_file(ec) && !it->is_symlink(ec);
        bool own = m_own.count(name) > 0;
        for (const auto& o : m_own)
            own = own || isOurTemp(name, "." + o + ".tmp-");
        if (!file || !own)
            strangers.push_back(it->is_directory(ec) && !it->is_symlink(ec) ? name + "/" : name);
    }
    if (strangers.empty()) return;
    std::sort(strangers.begin(), strangers.end());
    std::string list;
    for (size_t i = 0; i < strangers.size() && i < 3; ++i)
        list += (i ? ", " : "") + strangers[i];
    if (strangers.size() > 3) list += " and " + std::to_string(strangers.size() - 3) + " more";
    fail("holds files " + m_what + " does not write (" + list + "); it is unchanged: " + m_what +
         " replaces the whole folder, so write it into a new or empty folder");
}

void DirectorySwap::write(const std::string& name, const std::string& bytes) {
    if (!m_own.count(name)) throw std::logic_error("DirectorySwap::write: " + name + " is not a report file");
    const fs::path path = m_temp / name;
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) fail("cannot write " + name + " (" + errnoText(errno) + "); the folder is unchanged");
    size_t done = 0;
    int error = 0;
    while (done < bytes.size() && !error) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            error = n < 0 ? errno : ENOSPC;
        else
            done += static_cast<size_t>(n);
    }
    if (!error && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && !error) error = errno;
    if (error) fail("cannot write " + name + " (" + errnoText(error) + "); the folder is unchanged");
}

void DirectorySwap::commit() {
    if (m_committed) return;
    if (::fsync(m_lock) != 0)
        fail("cannot write the report directory (" + errnoText(errno) + "); it is unchanged");
    checkReplaceable(); // again: the folder may have gained files while the report was written
    const fs::path parent = directoryOf(m_target);
    struct stat st {};
    const bool exists = ::lstat(m_target.c_str(), &st) == 0;
    fs::path old; // where the old folder ends up, removed at the end
    if (!exists) {
        if (std::rename(m_temp.c_str(), m_target.c_str()) != 0)
            fail("cannot write the report directory (" + errnoText(errno) + ")");
    } else {
#ifdef RENAME_EXCHANGE
        // One step: the new folder takes the name, the old one takes the temporary's (glibc 2.28,
        // Linux 3.15).
        if (::renameat2(AT_FDCWD, m_temp.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) == 0)
            old = m_temp;
        else if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
            fail("cannot replace the folder (" + errnoText(errno) + "); it is unchanged");
#endif
        if (old.empty()) {
            // No exchange on this file system: the old folder aside, then the new one into place.
            int error = 0;
            old = makeUniqueDirectory(parent, "." + m_target.filename().string() + ".old-", error);
            if (old.empty()) fail("cannot replace the folder (" + errnoText(error) + "); it is unchanged");
            if (std::rename(m_target.c_str(), old.c_str()) != 0) {
                error = errno;
                ::rmdir(old.c_str());
                fail("cannot replace the folder (" + errnoText(error) + "); it is unchanged");
            }
            if (std::rename(m_temp.c_str(), m_target.c_str()) != 0) {
                error = errno;
                std::rename(old.c_str(), m_target.c_str());
                fail("cannot replace the folder (" + errnoText(error) + "); it is unchanged");
            }
        }
    }
    m_committed = true;
    syncDirectory(parent);
    std::error_code ec;
    if (!old.empty()) fs::remove_all(old, ec); // a failure leaves a stale folder the next write removes
}

} // namespace ctwin::app
