#pragma once
// The one reader of every file a user names as input (designs, catalogs, overlays, climate files, specs,
// measured points): issue 27 found a design linked to /dev/zero read until 15.7 GB, a FIFO that blocked
// forever and specs read ~2 GB before their limit was checked.
#include <cstdint>
#include <string>

namespace ctwin::model {

/// Reads all of `path`, at most `limitBytes`. Opens without blocking (a FIFO or a terminal cannot stall
/// the reader), then fstat(2)s the open file: only a regular file is read (a directory, FIFO, socket or
/// device is refused by name), and only when its size is within the limit; the read itself stops at the
/// limit too (a file that grows while it is read). Every failure is an InputError naming `path` only;
/// `what` names the kind of file in messages ("design", "climate file").
std::string readInputFile(const std::string& path, std::uint64_t limitBytes, const char* what = "file");

/// The checks of readInputFile without the read, for a file another library opens by name (SQLite): it
/// exists, is a regular file (links followed) and is at most `limitBytes`. Same messages.
void requireRegularFile(const std::string& path, std::uint64_t limitBytes, const char* what = "file");

/// Limits of the small inputs (README "Limits"); designs use kMaxDesignFileBytes (design_json.h).
inline constexpr std::uint64_t kMaxSpecFileBytes = 4ull << 20;            // generator and explore specs
inline constexpr std::uint64_t kMaxCatalogFileBytes = 16ull << 20;        // one catalog JSON or overlay
inline constexpr std::uint64_t kMaxClimateFileBytes = 16ull << 20;        // data/climate JSON
inline constexpr std::uint64_t kMaxMeasuredPointsFileBytes = 16ull << 20; // calibrate's CSV / JSON

} // namespace ctwin::model
