#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "assumption.h"
#include "project.h"

namespace ctwin::model {

class Catalog;

/// Version of the interchange JSON and of the .ctwin schema this build writes.
inline constexpr int kSchemaVersion = 1;
inline constexpr const char* kDesignFormat = "clustertwin-design";

/// JSON of one entity, every field in declaration order (the writer side of visitFields).
template <class Entity> nlohmann::ordered_json entityToJson(const Entity& entity);
/// Reads one entity from JSON, checking types and bounds; missing fields keep their defaults, unknown
/// fields are rejected (they would be lost on save). Errors name file, entity and field.
template <class Entity> Entity entityFromJson(const nlohmann::ordered_json& j, const std::string& file);

nlohmann::ordered_json assumptionsToJson(const AssumptionSet& set);
AssumptionSet assumptionsFromJson(const nlohmann::ordered_json& j, const std::string& file);
/// Reads data/assumptions.json ({"assumptions": {...}}).
AssumptionSet loadAssumptionsFile(const std::string& path);

nlohmann::ordered_json projectInfoToJson(const ProjectInfo& info);
ProjectInfo projectInfoFromJson(const nlohmann::ordered_json& j, const std::string& file);

/// The whole design as interchange JSON (data/FORMAT.md §3).
nlohmann::ordered_json projectToJson(const Project& project);
/// Parses a design; checks schema version, types, bounds, ids and references. With a catalog, also checks
/// catalog references. Throws InputError naming file, entity and field.
Project projectFromJson(const nlohmann::ordered_json& j, const std::string& file, const Catalog* catalog = nullptr);

/// Structural checks of a design already in memory (ids, references, catalog references, fabric shape).
void validateProject(const Project& project, const std::string& file, const Catalog* catalog = nullptr);

/// File helpers: read/parse with clear errors; serialize with a stable layout (2-space indent, newline).
nlohmann::ordered_json readJsonFile(const std::string& path);
std::string dumpJson(const nlohmann::ordered_json& j);
Project loadProjectJson(const std::string& path, const Catalog* catalog = nullptr);
/// Writes atomically: a temporary file in the same directory, flushed, then renamed over the target.
void writeTextFileAtomic(const std::string& path, const std::string& text);
/// Permission bits for a file written by replacing `path`: its current mode, else 0666 less the umask.
unsigned newFileMode(const std::string& path);

} // namespace ctwin::model
