#pragma once
#include <set>
#include <string>

#include "assumption.h"

namespace ctwin::cost {

/// Read access to the merged assumptions (defaults + design overrides) by key. Records which keys the
/// engine read (get), so InputResolver can tell an override nothing reads. One instance per evaluation:
/// the record is not synchronised.
class AssumptionValues {
public:
    explicit AssumptionValues(model::AssumptionSet set) : m_set(std::move(set)) {}
    /// Base value, recorded as read; throws InputError naming the key when the assumption does not exist.
    double get(const std::string& key) const;
    /// Whether get(key) was called.
    bool wasRead(const std::string& key) const { return m_read.count(key) > 0; }
    const model::Assumption& at(const std::string& key) const;
    const model::AssumptionSet& all() const { return m_set; }
    /// "source (estimate)" text for provenance.
    std::string source(const std::string& key) const;

private:
    model::AssumptionSet m_set;
    mutable std::set<std::string> m_read;
};

/// Applies `--set assumptions.KEY=VALUE` to a set: sets base (and widens low/high to include it).
/// Throws InputError when the path is not "assumptions.<existing key>" or the value is not finite.
void overrideAssumption(model::AssumptionSet& set, const std::string& path, double value);

} // namespace ctwin::cost
