#pragma once
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assumption.h"

namespace ctwin::cost {

/// Read access to the merged assumptions (defaults + design overrides) by key. Records which keys the
/// engine read (get), so InputResolver can tell an override nothing reads. One instance per evaluation:
/// the record is not synchronised.
///
/// The set is a shared base with a few changed entries on top: the scenario tools evaluate
/// thousands of variations of one design, each overriding one or two assumptions of the same merged set,
/// which is then shared rather than copied for each. Move-only: the read record points at the entries.
class AssumptionValues {
public:
    explicit AssumptionValues(model::AssumptionSet set)
        : AssumptionValues(std::make_shared<const model::AssumptionSet>(std::move(set)), {}) {}
    /// `base` with the entries of `changed` replacing those of the same key (every key of `changed` must
    /// be in `base`).
    AssumptionValues(std::shared_ptr<const model::AssumptionSet> base, model::AssumptionSet changed)
        : m_base(std::move(base)), m_changed(std::move(changed)) {}
    AssumptionValues(AssumptionValues&&) = default;
    AssumptionValues& operator=(AssumptionValues&&) = default;
    AssumptionValues(const AssumptionValues&) = delete;
    AssumptionValues& operator=(const AssumptionValues&) = delete;

    /// Base value, recorded as read; throws InputError naming the key when the assumption does not exist.
    double get(const std::string& key) const;
    /// Whether get(key) was called.
    bool wasRead(const std::string& key) const;
    const model::Assumption& at(const std::string& key) const;
    bool contains(const std::string& key) const { return entry(key) != nullptr; }
    /// Every assumption in key order (built on first call when entries changed).
    const model::AssumptionSet& all() const;
    /// "source (estimate)" text for provenance.
    std::string source(const std::string& key) const;

private:
    using Entry = model::AssumptionSet::value_type;
    /// The entry of `key` (changed, else base); nullptr when there is none.
    const Entry* entry(const std::string& key) const;

    std::shared_ptr<const model::AssumptionSet> m_base;
    model::AssumptionSet m_changed;
    mutable std::optional<model::AssumptionSet> m_all;
    /// The entries get() read, each once (their keys, in m_changed or *m_base: both outlive the record).
    mutable std::vector<const Entry*> m_read;
};

/// Applies `--set assumptions.KEY=VALUE` to a set: sets base (and widens low/high to include it).
/// Throws InputError when the path is not "assumptions.<existing key>" (with a "did you mean"), the value
/// is not finite or lies outside the assumption's valid range (assumptionValueProblem).
void overrideAssumption(model::AssumptionSet& set, const std::string& path, double value);

// ---- The one range check of an assumption value (loader, design files, --set, sweeps, tornado inputs,
// uncertainty draws and the GUI assumptions panel all call it) ----

/// Why `value` is not acceptable for an assumption with the valid range of `a` ([a.min, a.max], from
/// data/assumptions.json): "" when it is. Also refuses a value that is not finite, and a fraction when the
/// assumption takes whole numbers only (`a.whole`, e.g. horizon_years).
std::string assumptionValueProblem(const model::Assumption& a, double value);

/// " (did you mean 'wacc'?)" for the known key closest to `key` by edit distance (Levenshtein), when it is
/// close enough to be a typo (at most 2 edits, or a third of the key); else "".
std::string didYouMean(const std::string& key, const model::AssumptionSet& known);

/// The unit proper of an assumption's unit text: "1/year (fraction of IT capex per year)" -> "1/year",
/// "fraction of IT power" -> "1" (a pure number, as are "fraction" and "ratio"), "USD/kWh" -> "USD/kWh".
std::string_view assumptionUnitProper(std::string_view unit);

/// True when a design's stated unit is the shipped unit of an assumption: the unit proper is compared (the
/// text before a " (…)" or " of …" description), and "fraction", "ratio" and "1" are one pure number.
bool sameAssumptionUnit(std::string_view stated, std::string_view shipped);

/// Checks a design's assumptions block against the shipped defaults: every key must exist there (a typo is
/// an error naming the closest key), and base, low and high must lie in the shipped valid range. Throws
/// InputError naming `file`, the assumption and the field.
void checkDesignAssumptions(const model::AssumptionSet& design, const model::AssumptionSet& defaults,
                            const std::string& file);

} // namespace ctwin::cost
