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

AtomicDirectory::AtomicDirectory(const std::string& directory) : m_dir(directory) {
    std::error_code ec;
    if (directory.empty()) throw model::InputError({"<report>", "", "", "", ""}, "no output directory given");
    if (fs::exists(m_dir, ec) && !fs::is_directory(m_dir, ec))
        throw model::InputError({directory, "", "", "", ""}, "exists and is not a directory");
    if (!fs::exists(m_dir, ec)) {
        // Remember the outermost directory this call creates, to remove it again on failure.
        fs::path first = m_dir;
        while (first.has_parent_path() && first.parent_path() != first &&
               !fs::exists(first.parent_path(), ec))
            first = first.parent_path();
        if (!fs::create_directories(m_dir, ec) || ec)
            throw model::InputError({directory, "", "", "", ""},
                                    "cannot create the report directory: " + ec.message());
        m_created = first;
    }
}

AtomicDirectory::~AtomicDirectory() {
    if (!m_done && !m_created.empty()) {
        m_files.clear(); // removes the temporaries first
        std::error_code ec;
        fs::remove_all(m_created, ec);
    }
}

AtomicFile& AtomicDirectory::file(const std::string& name) {
    m_files.emplace_back((m_dir / name).string());
    return m_files.back();
}

void AtomicDirectory::commit() {
    for (auto& f : m_files)
        f.commit();
    m_done = true;
}

} // namespace ctwin::app
