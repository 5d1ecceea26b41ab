#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "assumption.h"
#include "project.h"

namespace ctwin::model {

class Catalog;

/// Version of the interchange JSON and of the .ctwin schema this build writes. Version 2: the
/// fields below are optional (JSON null when absent) instead of "0 means the default".
inline constexpr int kSchemaVersion = 2;

/// A field that schema version 1 stored as 0 to mean "absent" (use the default); version 2 stores null.
struct Schema1ZeroMeansAbsent {
    EntityKind kind;
    const char* field;
};
inline constexpr Schema1ZeroMeansAbsent kSchema1ZeroMeansAbsent[] = {
    {EntityKind::Site, "electricity_usd_per_kwh"},  {EntityKind::Building, "shell_cost_usd"},
    {EntityKind::Building, "pue_pinned"},           {EntityKind::ScaleAcrossLink, "route_factor"},
    {EntityKind::ScaleAcrossLink, "route_length_m"}, {EntityKind::TrainingJob, "active_params"},
    {EntityKind::ScaleAcrossLink, "latency_budget_s"}, {EntityKind::TrainingJob, "mfu"},
    {EntityKind::InferenceService, "active_params"},
};
/// Upgrades one version-1 entity body in place: each listed field holding 0 becomes null.
void migrateEntityFromSchema1(EntityKind kind, nlohmann::ordered_json& body);
inline constexpr const char* kDesignFormat = "clustertwin-design";
/// The project id of a design whose file has no `project` object (or an in-memory one with an empty id):
/// the reader and the writer apply the same rule, so such a design saves into a file that opens again.
inline constexpr const char* kDefaultProjectId = "project";
/// Input limits (data/FORMAT.md §6): a design file (.json or .ctwin) of at most 64 MiB and at most 500,000
/// entities; beyond them the loaders refuse with a message instead of exhausting memory.
inline constexpr unsigned long long kMaxDesignFileBytes = 64ull << 20;
inline constexpr size_t kMaxDesignEntities = 500'000;

/// JSON of one entity, every field in declaration order (the writer side of visitFields).
template <class Entity> nlohmann::ordered_json entityToJson(const Entity& entity);
/// Reads one entity from JSON, checking types and bounds; missing fields keep their defaults, unknown
/// fields are rejected (they would be lost on save). Errors name file, entity and field.
template <class Entity> Entity entityFromJson(const nlohmann::ordered_json& j, const std::string& file);

/// One entity as a row of typed cells: the .ctwin typed tables (model/store/design_file.cpp, schema 3).
/// Columns follow visitFields; strings are TEXT, numbers REAL, whole numbers and flags INTEGER (0/1), absent
/// optional values NULL, lists (texts, numbers, points) the same JSON text as in the interchange format.
struct EntityColumn {
    const char* key;
    const char* sqlType; // "TEXT", "REAL" or "INTEGER"
};
/// The columns of an entity kind, in visitFields order.
template <class Entity> std::vector<EntityColumn> entityColumns();

/// Where entityToCells writes one entity's cells: column i of entityColumns<Entity>().
class CellSink {
public:
    virtual ~CellSink() = default;
    virtual void null(int column) = 0;
    virtual void real(int column, double v) = 0;
    virtual void integer(int column, std::int64_t v) = 0;
    /// `v` is a field of the entity being written: it outlives the row.
    virtual void text(int column, const std::string& v) = 0;
    /// `v` is made for this cell (a list's JSON text): the sink keeps it as long as it needs it.
    virtual void ownedText(int column, std::string v) = 0;
};
template <class Entity> void entityToCells(const Entity& entity, CellSink& sink);

/// One row's cells for entityFromCells.
class CellSource {
public:
    enum class Type { Null, Integer, Real, Text, Blob };
    virtual ~CellSource() = default;
    virtual int columnCount() const = 0;
    virtual const char* columnName(int column) const = 0;
    virtual Type type(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::int64_t integer(int column) const = 0;
    virtual std::string text(int column) const = 0;
};
/// Reads one entity from typed cells with the JSON reader's checks and messages (a cell of the wrong type:
/// "expected a number, found string"; bounds; choices; unknown columns). A missing column keeps the
/// field's default, as a missing JSON key does.
template <class Entity> Entity entityFromCells(const CellSource& row, const std::string& file);

nlohmann::ordered_json assumptionsToJson(const AssumptionSet& set);
/// A design's (or spec's) assumptions block: base, low, high, unit, source, estimate (no min/max).
AssumptionSet assumptionsFromJson(const nlohmann::ordered_json& j, const std::string& file);
/// With `withRange` (data/assumptions.json), `min` and `max` are required and min <= low <= high <= max.
AssumptionSet assumptionsFromJson(const nlohmann::ordered_json& j, const std::string& file, bool withRange);
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
/// The per-entity part of validateProject (references, catalog references, fabric shape) for the entities at
/// `slots` only, against `index` (the project's, current). An edit of a design that passed validateProject
/// can only break the entities it added or changed and those referring to what it removed: checking those
/// (Document does) gives the same message as validateProject, at a cost that does not grow with the design.
void validateEntities(const Project& project, const EntityIndex& index, std::vector<EntitySlot> slots,
                      const std::string& file, const Catalog* catalog = nullptr);
/// GPUs of one rack of a catalog rack type (0 for an unknown id or an item that is not a rack).
double rackTypeGpus(const Catalog& catalog, const std::string& rackType);
/// Refuses a design holding more GPUs than the engine supports (validateProject's last check).
void checkGpuTotal(const Project& project, double gpus, const std::string& file);

/// File helpers: read/parse with clear errors; serialize with a stable layout (2-space indent, newline).
/// readJsonFile refuses a directory, a missing file and a file over kMaxDesignFileBytes; a syntax error
/// or a number beyond a double (1e400) names the file, line and column.
nlohmann::ordered_json readJsonFile(const std::string& path, std::uint64_t limitBytes = kMaxDesignFileBytes);
/// Parses JSON text with the same messages, `file` naming its origin.
nlohmann::ordered_json parseJsonText(const std::string& text, const std::string& file);
std::string dumpJson(const nlohmann::ordered_json& j);
/// Results, comparisons and reports as JSON text (2-space indent). A string that is not UTF-8 (a file name:
/// Linux paths are bytes) is written with U+FFFD in place of the bad bytes instead of failing the output.
/// Designs keep dumpJson, which is strict: their loaders admit only UTF-8.
template <class Json> std::string dumpOutputJson(const Json& j) {
    return j.dump(2, ' ', false, Json::error_handler_t::replace);
}
Project loadProjectJson(const std::string& path, const Catalog* catalog = nullptr);
/// Writes atomically: a temporary file in the same directory, flushed, then renamed over the target.
void writeTextFileAtomic(const std::string& path, const std::string& text);
/// Permission bits for a file written by replacing `path`: its current mode, else 0666 less the umask.
unsigned newFileMode(const std::string& path);

} // namespace ctwin::model
