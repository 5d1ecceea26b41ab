#include "report/atomic_file.h"

#include "input_error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <unistd.h>

namespace ctwin::app {

namespace fs = std::filesystem;

namespace {
[[noreturn]] void throwFor(const std::string& target, const std::string& problem) {
    throw model::InputError(model::InputLocation{target, "", "", "", ""}, problem);
}
} // namespace

AtomicFile::AtomicFile(std::string target) : m_target(std::move(target)) {
    if (m_target.empty()) throwFor("<report>", "no output path given");
    const fs::path path(m_target);
    std::error_code ec;
    if (fs::is_directory(path, ec)) throwFor(m_target, "is a directory; give a file name for the report");
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec))
        throwFor(m_target, "cannot write the report: directory " + dir.string() + " does not exist");
    // A hidden name in the same directory (rename across file systems is not atomic). O_EXCL so that two
    // writers never share a temporary; mode 0666 lets the umask decide the permissions as for any new file.
    std::random_device seed;
    std::mt19937_64 random(seed());
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[32];
        std::snprintf(suffix, sizeof suffix, ".%016llx.tmp", static_cast<unsigned long long>(random()));
        std::string name = ".";
        name.append(path.filename().string()).append(suffix);
        const fs::path temp = dir / name;
        const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            m_temp = temp.string();
            return;
        }
        if (errno != EEXIST)
            throwFor(m_target, std::string("cannot write the report: ") + std::strerror(errno));
    }
    throwFor(m_target, "cannot write the report: no free temporary name in " + dir.string());
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_target(std::move(other.m_target)), m_temp(std::move(other.m_temp)), m_committed(other.m_committed) {
    other.m_temp.clear();
    other.m_committed = true;
}

AtomicFile::~AtomicFile() {
    if (!m_committed && !m_temp.empty()) ::unlink(m_temp.c_str());
}

void AtomicFile::commit() {
    if (m_committed) return;
    if (std::rename(m_temp.c_str(), m_target.c_str()) != 0)
        fail(std::string("cannot write the report: ") + std::strerror(errno));
    m_committed = true;
}

void AtomicFile::fail(const std::string& problem) const {
    throwFor(m_target, problem);
}

} // namespace ctwin::app
