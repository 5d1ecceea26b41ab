#include "report/atomic_file.h"

#include "input_error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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
    m_temp = std::make_unique<model::SaveTemp>(m_target);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : m_target(std::move(other.m_target)), m_temp(std::move(other.m_temp)) {}

AtomicFile::~AtomicFile() = default; // an uncommitted SaveTemp removes its temporary

void AtomicFile::commit() {
    if (m_temp) m_temp->commit();
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
