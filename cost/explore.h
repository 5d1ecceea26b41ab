#pragma once
// Design-space exploration: evaluates the points of an exploration spec (explore_spec.h),
// rejects those that fail to lay out, carry design-rule errors or miss a constraint, and keeps the Pareto
// set of the objectives. The work splits into any set of point indices (threads here, MPI ranks in
// app/explore_command.cpp); each point's record depends on its index only, so the gathered result is the
// same whatever the split.

#include "assumption.h"
#include "catalog.h"
#include "explore_spec.h"
#include "input_resolver.h"
#include "project.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ctwin::cost {

/// Explore figures computed from Results beside the engine's figure keys.
inline constexpr const char* kExploreMaxWanLatency = "explore.max_wan_latency_ms";

/// What became of one point.
struct ExplorePointRecord {
    std::uint64_t index = 0;
    /// Empty: feasible. Else the first reason it was rejected: "layout: ...", "design rule: RULE",
    /// "missing figure: KEY", "constraint: NAME".
    std::string rejected;
    /// Values of Explorer::figureKeys() (feasible points and points rejected by a constraint).
    std::vector<double> values;
};

struct ExploreResult {
    std::string name;
    ExploreMethod method = ExploreMethod::Exhaustive;
    std::uint64_t seed = 0;
    std::uint64_t spacePoints = 0;
    /// Distinct points evaluated (samples may repeat a point: each is evaluated once).
    std::uint64_t evaluated = 0, feasible = 0;
    /// Rejections by reason, and the reasons in order of first appearance by point index.
    std::map<std::string, std::uint64_t> rejected;
    std::vector<std::string> figureKeys;
    /// The Pareto set, by point index.
    std::vector<ExplorePointRecord> pareto;
};

/// Indices (into `values`) of the non-dominated points: a point is dominated when another is no worse in
/// every objective and better in one. Duplicates (equal in every objective) do not dominate each other, so
/// all of them are kept. `maximize[k]` flips objective k. Returned in ascending order.
std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& values,
                                const std::vector<bool>& maximize);

class Explorer {
public:
    /// Checks the spec against the base: every field choice's level applies to the base document and parses,
    /// string levels of catalog fields name catalog items, every override path and value passes
    /// checkInputOverride and is read by the evaluation, every figure key exists in the evaluation of the
    /// first point, the space fits the search. Throws model::InputError naming the choice or key.
    Explorer(ExploreSpec spec, const model::Catalog& catalog, const model::AssumptionSet& defaults);
    ~Explorer();
    Explorer(const Explorer&) = delete;
    Explorer& operator=(const Explorer&) = delete;

    const ExploreSpec& spec() const { return m_spec; }
    std::uint64_t spacePoints() const { return m_space; }
    /// Objective keys, then constraint keys, then report keys (each once).
    const std::vector<std::string>& figureKeys() const { return m_keys; }
    /// The level index of each choice at a point (first choice most significant).
    std::vector<size_t> levelsOf(std::uint64_t index) const;
    /// Point index -> {choice name: level value}.
    nlohmann::ordered_json choicesOf(std::uint64_t index) const;

    /// The points to evaluate, in evaluation order (grouped by the layout they share, then by index):
    /// every point (exhaustive) or the distinct points of the seeded sample. Throws InputError when an
    /// exhaustive space exceeds search.max_exhaustive.
    std::vector<std::uint64_t> plan(std::uint64_t seed) const;

    /// Evaluates `points` on `threads` threads (0: hardware concurrency); records come back in the order
    /// of `points`. `progress(done)` is called from worker threads; `cancel` stops the run early (the
    /// records of unevaluated points are dropped).
    std::vector<ExplorePointRecord> run(const std::vector<std::uint64_t>& points, int threads,
                                        const std::function<void(std::uint64_t)>& progress = {},
                                        const std::atomic<bool>* cancel = nullptr) const;
    /// Evaluates one point alone (no layout cache).
    ExplorePointRecord evaluatePoint(std::uint64_t index) const;

    /// The result of the gathered records (any order, no index twice): counts, reasons and the Pareto set.
    /// Throws InputError when nothing is feasible, naming the constraint that removed the last points.
    ExploreResult finish(std::vector<ExplorePointRecord> records, std::uint64_t seed) const;

    /// The document (generator spec or design JSON) of a point: the base with the point's field levels.
    nlohmann::ordered_json documentOf(std::uint64_t index) const;
    /// The design of a point (generated, services scaled; "Open as design"): its `set` choices are not
    /// applied, overridesOf() gives them. Throws InputError when the point does not lay out.
    model::Project designOf(std::uint64_t index) const;
    /// The `set` choices of a point as overrides (`--set PATH=VALUE`).
    InputOverrides overridesOf(std::uint64_t index) const;
    /// designOf() with the point's `assumptions.KEY` choices written into the design's assumptions block
    /// (base = the level; low/high widened to include it), so the design evaluates as the point did. Entity
    /// overrides (`COLLECTION.ID.FIELD`) are not written: they come back in `unapplied` (pass them as --set).
    model::Project pointDesign(std::uint64_t index, InputOverrides* unapplied) const;
    struct Layout;

private:
    std::shared_ptr<const Layout> layoutFor(const std::vector<size_t>& levels) const;
    ExplorePointRecord evaluateWith(std::uint64_t index, const Layout& layout) const;
    /// Mixed-radix key of the field choices' levels (points sharing it share a layout).
    std::uint64_t layoutKey(const std::vector<size_t>& levels) const;

    ExploreSpec m_spec;
    const model::Catalog* m_catalog;
    model::AssumptionSet m_defaults;
    std::uint64_t m_space = 1;
    std::vector<std::uint64_t> m_radix; // place value of each choice
    std::vector<std::string> m_keys;
    bool m_bomCacheable = true;
};

/// Records as bytes (MessagePack; doubles bit-exact) for gathering across processes, and back.
std::vector<std::uint8_t> exploreRecordsToBytes(const std::vector<ExplorePointRecord>& records);
std::vector<ExplorePointRecord> exploreRecordsFromBytes(const std::vector<std::uint8_t>& bytes);

/// `explore --json`: the counts, the objectives and the Pareto points with choices and figures.
nlohmann::ordered_json exploreResultToJson(const ExploreResult& result, const Explorer& explorer);
/// `explore --csv`: one row per Pareto point: index, choices, figures.
std::string exploreResultToCsv(const ExploreResult& result, const Explorer& explorer);
/// The human summary.
std::string exploreResultToText(const ExploreResult& result, const Explorer& explorer);

} // namespace ctwin::cost
