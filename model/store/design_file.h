#pragma once
#include <string>

#include "project.h"

namespace ctwin::model {
class Catalog;
}

namespace ctwin::store {

/// Schema version of the .ctwin SQLite document this build writes (equals the JSON schema version).
int ctwinSchemaVersion();

/// Saves a design as a .ctwin SQLite document, atomically: written to a temporary file in the same
/// directory (WAL during the write, checkpointed into one self-contained file), synced, then renamed over
/// the target. A crash or error mid-save leaves the previous file untouched.
void saveCtwin(const model::Project& project, const std::string& path);

/// Opens a .ctwin document: checks it is a SQLite database and a ClusterTwin one, migrates older schema
/// versions in memory, refuses newer ones, then validates like the JSON reader.
model::Project loadCtwin(const std::string& path, const model::Catalog* catalog = nullptr);

/// Loads .json or .ctwin by extension; saves likewise (both atomic).
model::Project loadDesign(const std::string& path, const model::Catalog* catalog = nullptr);
void saveDesign(const model::Project& project, const std::string& path);

} // namespace ctwin::store
