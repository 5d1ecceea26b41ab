#include "input_file.h"

#include "input_error.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ctwin::model {

namespace {
std::string human(std::uint64_t bytes) {
    char buf[48];
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    const double kib = static_cast<double>(bytes) / 1024.0;
    if (bytes < (1u << 20))
        std::snprintf(buf, sizeof buf, "%.1f KiB", kib);
    else
        std::snprintf(buf, sizeof buf, "%.1f MiB", kib / 1024.0);
    std::string s = buf;
    if (s.size() > 6 && s.compare(s.size() - 6, 2, ".0") == 0)
        s.erase(s.size() - 6, 2); // "64.0 MiB" -> "64 MiB"
    return s;
}

/// "70 MiB, more than the limit of 64 MiB"; exact bytes where rounding would make the two read alike.
std::string overLimit(std::uint64_t size, std::uint64_t limit) {
    const bool alike = human(size) == human(limit);
    if (!alike) return human(size) + ", more than the limit of " + human(limit);
    return std::to_string(size) + " bytes, more than the limit of " + human(limit) +
           (limit >= 1024 ? " (" + std::to_string(limit) + " bytes)" : "");
}

const char* kindOf(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

void checkStat(const InputLocation& where, const struct stat& st, std::uint64_t limitBytes,
               const char* what) {
    if (S_ISDIR(st.st_mode)) throw InputError(where, "is a directory, not a file");
    if (!S_ISREG(st.st_mode))
        throw InputError(where,
                         std::string("is ") + kindOf(st.st_mode) +
                             ", not a regular file (ClusterTwin reads its inputs only from regular files: "
                             "a pipe or a device could block or never end)");
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size > limitBytes) throw InputError(where, std::string(what) + " is " + overLimit(size, limitBytes));
}

/// Closes the descriptor on every path out.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};
} // namespace

std::string readInputFile(const std::string& path, std::uint64_t limitBytes, const char* what) {
    const InputLocation where{path, "", "", "", ""};
    if (path.empty()) throw InputError(where, std::string("no ") + what + " named (an empty path)");
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer; regular files ignore it.
    const Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
    if (f.fd < 0) {
        const int err = errno;
        if (err == ENOENT) throw InputError(where, "file does not exist");
        if (err == ELOOP) throw InputError(where, "symbolic links loop; nothing to read");
        throw InputError(where, "cannot open for reading (" + std::string(std::strerror(err)) + ")");
    }
    struct stat st {};
    if (::fstat(f.fd, &st) != 0)
        throw InputError(where, "cannot read (" + std::string(std::strerror(errno)) + ")");
    checkStat(where, st, limitBytes, what);
    const auto size = static_cast<std::uint64_t>(st.st_size);
    std::string text(static_cast<size_t>(size), '\0');
    size_t have = 0;
    for (;;) {
        if (have == text.size()) {
            // The file may have grown since fstat: read on, but never past the limit (+1 byte to notice).
            if (have > limitBytes)
                throw InputError(where, std::string(what) + " grew past the limit of " + human(limitBytes) +
                                            " while it was read");
            text.resize(std::min<std::uint64_t>(limitBytes + 1, have + 65536));
        }
        const ssize_t n = ::read(f.fd, text.data() + have, text.size() - have);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw InputError(where, "cannot read (" + std::string(std::strerror(errno)) + ")");
        }
        if (n == 0) break;
        have += static_cast<size_t>(n);
    }
    if (have > limitBytes)
        throw InputError(where, std::string(what) + " grew past the limit of " + human(limitBytes) +
                                    " while it was read");
    text.resize(have);
    return text;
}

void requireRegularFile(const std::string& path, std::uint64_t limitBytes, const char* what) {
    const InputLocation where{path, "", "", "", ""};
    if (path.empty()) throw InputError(where, std::string("no ") + what + " named (an empty path)");
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        const int err = errno;
        if (err == ENOENT) throw InputError(where, "file does not exist");
        if (err == ELOOP) throw InputError(where, "symbolic links loop; nothing to read");
        throw InputError(where, "cannot open for reading (" + std::string(std::strerror(err)) + ")");
    }
    checkStat(where, st, limitBytes, what);
}

} // namespace ctwin::model
