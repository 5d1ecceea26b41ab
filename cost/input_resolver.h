#pragma once
// One input resolution (SPEC.md §4 "Input resolution"). Every effective input of an evaluation —
// each assumption and each entity field that can fall back to one — comes from InputResolver with a fixed
// precedence: override (command line, sweep, tornado, uncertainty, GUI views) > entity field > design
// assumption > shipped default. The resolver records which level supplied each value, its source and its
// low/high range, and which inputs the evaluation actually read, so an override nothing reads is an error.

#include "assumption.h"
#include "assumption_values.h"
#include "project.h"
#include "units.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

/// Which level supplied an input, highest precedence first.
enum class InputLevel { Override, Entity, Design, Default };
/// "override", "entity", "design", "default".
const char* inputLevelName(InputLevel level);

/// One effective input with its provenance.
struct ResolvedInput {
    /// Override path: "assumptions.wacc" or "sites.site-wi.electricity_usd_per_kwh".
    std::string path;
    double value = 0.0;
    /// Range used by tornado and uncertainty; low == high when the input has none.
    double low = 0.0, high = 0.0;
    std::string unit;
    /// Where the value comes from, in words (the assumption's source, or the entity field and the range
    /// rule).
    std::string source;
    bool estimate = false;
    InputLevel level = InputLevel::Default;
    /// For an entity field: the assumption path it falls back to when absent ("" for assumptions).
    std::string fallback;
    /// The evaluation read this value (an assumption every entity overrides is not used).
    bool used = false;
    /// "0.08 USD/kWh (entity: sites.site-wi.electricity_usd_per_kwh)".
    std::string describe() const;
};

/// One override: a path of the shared grammar and a value in the field's stored unit.
///   assumptions.KEY                    a design-wide assumption
///   COLLECTION.ID.FIELD                a numeric field of one entity
///   COLLECTION.*.FIELD                 that field of every entity of the collection
/// COLLECTION is a collection key of data/FORMAT.md §3 (sites, buildings, links, training_jobs,
/// inference_services, ...); `jobs` and `services` are accepted for training_jobs and inference_services.
struct InputOverride {
    std::string path;
    double value = 0.0;
    /// Where it came from, for messages: "--set", "sweep", "tornado"...
    std::string origin = "override";
};
using InputOverrides = std::vector<InputOverride>;

/// Parses "PATH=VALUE" (the --set syntax). Throws InputError naming `origin` for a missing '=' or a value
/// that is not a finite number.
InputOverride parseInputOverride(const std::string& text, const std::string& origin);

/// Checks an override path against a design: the path exists (known assumption, collection, entity id,
/// field), the field is numeric, `*` matches at least one entity, the value is finite, within the field's
/// bounds and whole for an integer field. Throws InputError with the path and the reason.
void checkInputOverride(const model::Project& project, const model::AssumptionSet& assumptions,
                        const InputOverride& override, const std::string& origin = "override");

/// True when an override of `path` may change the bill of materials (so a cached BOM cannot be reused):
/// assumptions in kBillOfMaterialsAssumptions and every entity field except those read only by the
/// power, capex, finance, training and inference stages.
bool overrideAffectsBillOfMaterials(const std::string& path);

/// The assumptions of a list of resolved inputs (their effective base, low, high, unit and source).
model::AssumptionSet assumptionSetOf(const std::vector<ResolvedInput>& inputs);

/// The shipped defaults under a design's assumptions block (mergeAssumptions), checked as InputResolver
/// checks them (checkDesignAssumptions, validateFinanceAssumptions; InputError on the first problem). The
/// scenario tools build it once and share it across the resolvers of their variations.
std::shared_ptr<const model::AssumptionSet> designAssumptions(const model::Project& project,
                                                              const model::AssumptionSet& defaults);

class InputResolver {
public:
    /// `defaults` are data/assumptions.json; the design's assumptions block lies over them and the
    /// overrides over both. Checks every override (checkInputOverride) and throws InputError on the first
    /// bad one.
    InputResolver(const model::Project& project, const model::AssumptionSet& defaults,
                  const InputOverrides& overrides = {});
    /// The same with `merged` = designAssumptions(project, defaults), built before (and shared).
    InputResolver(const model::Project& project, std::shared_ptr<const model::AssumptionSet> merged,
                  const InputOverrides& overrides = {});
    InputResolver(const InputResolver&) = delete;
    InputResolver& operator=(const InputResolver&) = delete;

    /// The design with overrides of plain entity fields applied (the original when there are none).
    const model::Project& project() const { return m_copy ? *m_copy : *m_project; }
    /// The effective assumptions (defaults < design < overrides); reads are recorded.
    const AssumptionValues& assumptions() const { return m_assumptions; }
    const InputOverrides& overrides() const { return m_overrides; }

    // ---- Entity fields that fall back to an assumption (each read is recorded with its provenance) ----
    /// The site's tariff, else assumptions.electricity_usd_per_kwh.
    units::MoneyPerEnergy siteTariff(const model::Site& site) const;
    /// The building's shell cost, else assumptions.building_shell_usd_per_w x peak IT power.
    units::Money buildingShellCost(const model::Building& building, units::Power itPeak) const;
    /// The pinned PUE, or nullopt when the PUE is computed.
    std::optional<double> buildingPuePinned(const model::Building& building) const;
    /// The surveyed route length, else geodesic distance x route factor (the link's, else
    /// assumptions.route_factor). `greatCircle` is only called when needed.
    units::Length linkRouteLength(const model::ScaleAcrossLink& link, units::Length greatCircle) const;
    /// The link's one-way latency budget, or nullopt (no budget).
    std::optional<units::Time> linkLatencyBudget(const model::ScaleAcrossLink& link) const;
    /// The job's MFU, else assumptions.mfu (BF16) x the precision's ratio (mfu_fp8_ratio, mfu_fp4_ratio).
    /// `peakPrecision` is the precision whose peak the engine applies (fp4 falls back to fp8 or bf16 on
    /// accelerators without it).
    double jobMfu(const model::TrainingJob& job, const std::string& peakPrecision = "bf16") const;
    /// The job's global batch in tokens, else assumptions.global_batch_tokens.
    double jobGlobalBatchTokens(const model::TrainingJob& job) const;
    /// The job's sequence length in tokens, else assumptions.sequence_length.
    double jobSequenceLength(const model::TrainingJob& job) const;
    /// Active parameters per token; all model parameters for a dense model.
    double jobActiveParams(const model::TrainingJob& job) const;
    double serviceActiveParams(const model::InferenceService& service) const;

    /// The level an assumption key came from: Override, Design (the design's assumptions block) or Default.
    InputLevel assumptionLevel(const std::string& key) const;

    /// An assumption whose shipped default gives way to a value the engine derives from the catalog (the
    /// GPU-hour price of the design's GPUs): the assumption `key` when an override or the
    /// design sets it, else `derived` (base, low, high, unit, source). The derived value is recorded so
    /// that inputs() reports it for assumptions.KEY (value, range and source, level "default"), and the
    /// scenario tools, which vary assumptions.KEY through an override, vary it over the derived range.
    double derivedDefault(const std::string& key, const model::Assumption& derived) const;

    /// Every input with its provenance: every assumption (key order; `used` tells whether it was read),
    /// then the entity values read, in read order.
    std::vector<ResolvedInput> inputs() const;
    /// Throws InputError for an override no part of the evaluation read, naming what shadows it and the
    /// path that would work. Call after a full evaluation (no cached bill of materials).
    void requireOverridesUsed() const;
    /// Resolves values without recording the entity inputs' provenance (evaluateFigures for the scenario
    /// tools, which report neither): the values are the same; inputs() and requireOverridesUsed() then
    /// throw std::logic_error.
    void resolveValuesOnly() { m_valuesOnly = true; }

private:
    struct EntityValue {
        std::string collection, id, field;
        double value = 0.0;
        size_t overrideIndex = 0;
    };
    /// The override of one entity field (exact id or `*`), if any; marks it read.
    std::optional<double> entityOverride(const char* collection, const std::string& id,
                                         const char* field) const;
    /// Records an entity-level input. `own` is the entity's value (override or field), else the
    /// assumption `fallbackKey` supplied it (scaled by `fallbackScale` into the field's unit, e.g. $/W x W).
    double record(const char* collection, const std::string& id, const char* field, std::optional<double> own,
                  bool overridden, const std::string& fallbackKey, const std::string& unit,
                  double fallbackScale = 1.0) const;

    const model::Project* m_project;
    std::optional<model::Project> m_copy;
    std::map<std::string, double> m_assumptionOverrides;
    AssumptionValues m_assumptions;
    InputOverrides m_overrides;
    /// Overrides of the fields the resolver answers for (not applied to the copy).
    std::vector<EntityValue> m_entityOverrides;
    mutable std::vector<bool> m_overrideRead; // by index into m_overrides
    mutable std::vector<ResolvedInput> m_entityInputs;
    mutable std::map<std::string, size_t> m_entityInputIndex;
    /// Assumption key -> entity paths whose own value kept the assumption from being used.
    mutable std::map<std::string, std::vector<std::string>> m_shadowedBy;
    /// Assumption key -> the derived value that replaced its shipped default (derivedDefault).
    mutable std::map<std::string, model::Assumption> m_derivedDefaults;
    bool m_valuesOnly = false;
};

} // namespace ctwin::cost
