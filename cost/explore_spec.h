#pragma once
// The exploration spec (data/FORMAT.md §7): a base design or generator spec, the choices that
// span a design space, the constraints a point must meet and the objectives whose Pareto set
// `clustertwin-cli explore` returns.

#include "catalog.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

inline constexpr const char* kExploreSpecFormat = "clustertwin-explore-spec";
inline constexpr int kExploreSpecVersion = 1;
/// Documented limits (data/FORMAT.md §7): an exhaustive search may visit at most this many points
/// (the spec's `search.max_exhaustive` may lower it), a sampled search at most kMaxExploreSamples, and the
/// whole space (the product of the choices' levels) may not exceed kMaxExploreSpace (indices fit 2^53).
inline constexpr std::uint64_t kMaxExhaustivePoints = 100'000;
inline constexpr std::uint64_t kMaxExploreSamples = 1'000'000;
inline constexpr std::uint64_t kMaxExploreSpace = 1ull << 53;
/// At most this many levels per choice (a range with a tiny step is a mistake, not a space).
inline constexpr std::size_t kMaxChoiceLevels = 10'000;

/// One axis of the design space.
struct ExploreChoice {
    /// Name shown in results ("rack", "cooling plant"); unique in the spec.
    std::string name;
    /// Exactly one of:
    ///  `field`: a dotted path into the base document (generator spec or design JSON), edited before the
    ///           design is generated: object keys, array elements by their "id" (or index), `*` for every
    ///           element ("target.rack_type", "training_jobs.*.restart_scope");
    ///  `set`:   an override of cost/input_resolver.h ("assumptions.wacc",
    ///  "sites.*.electricity_usd_per_kwh").
    std::string field;
    std::string set;
    /// The levels, in order (numbers, strings, booleans for `field`; numbers for `set`).
    std::vector<nlohmann::json> levels;
    bool isField() const { return !field.empty(); }
};

struct ExploreConstraint {
    std::string name;
    /// A figure key of the engine's results (`evaluate --json`, cost/results_json.cpp) or an explore
    /// figure (`explore.max_wan_latency_ms`).
    std::string figure;
    std::optional<double> min, max;
};

struct ExploreObjective {
    std::string figure;
    bool maximize = false;
};

enum class ExploreMethod { Exhaustive, LatinHypercube, Random };
/// "exhaustive", "latin_hypercube", "random".
const char* exploreMethodName(ExploreMethod method);

struct ExploreSearch {
    ExploreMethod method = ExploreMethod::Exhaustive;
    /// Samples drawn (sampled methods).
    std::uint64_t points = 0;
    std::uint64_t seed = 1;
    std::uint64_t maxExhaustive = kMaxExhaustivePoints;
};

struct ExploreSpec {
    /// The spec file (for messages and to resolve `base`).
    std::string file;
    std::string name;
    /// The base document (a generator spec when its "format" is clustertwin-generator-spec, else a design)
    /// and where it came from.
    nlohmann::ordered_json base;
    std::string baseFile;
    bool baseIsGeneratorSpec = false;
    /// Resize every inference service of each generated design to the design's sellable GPUs (shared in
    /// proportion to the base's service sizes, whole racks), so a service follows the rack type.
    bool scaleServicesToDesign = false;
    /// A point whose evaluation has design-rule errors is rejected (reason "design rule: RULE").
    bool rejectRuleErrors = true;
    /// A point where an inference service misses its tokens/s/user target (rule tokens_per_user_target) is
    /// infeasible (reason "service target: SERVICE"); false relaxes the constraint.
    bool rejectMissedServiceTargets = true;
    std::vector<ExploreChoice> choices;
    std::vector<ExploreConstraint> constraints;
    std::vector<ExploreObjective> objectives;
    /// Extra figures reported for every Pareto point.
    std::vector<std::string> report;
    ExploreSearch search;
};

/// Parses an exploration spec; unknown keys, wrong types, empty or inverted ranges, duplicate names,
/// contradictory constraints (min above max on one figure) are InputErrors naming the file and the key.
/// A relative `base` is resolved against the spec file's folder and read.
ExploreSpec exploreSpecFromJson(const nlohmann::ordered_json& j, const std::string& file);
ExploreSpec loadExploreSpec(const std::string& path);

/// The levels of a numeric range: min, min+step, ... up to max (within 1e-9 of a step), or `count` evenly
/// spaced values from min to max (count 1: min). Throws InputError for an empty range.
std::vector<double> rangeLevels(double min, double max, std::optional<double> step, std::optional<int> count,
                                const std::string& file, const std::string& choice);

} // namespace ctwin::cost
