#pragma once
#include <string>

#include "assumption.h"

namespace ctwin::cost {

/// Read access to the merged assumptions (defaults + design overrides) by key.
class AssumptionValues {
public:
    explicit AssumptionValues(model::AssumptionSet set) : m_set(std::move(set)) {}
    /// Base value; throws InputError naming the key when the assumption does not exist.
    double get(const std::string& key) const;
    const model::Assumption& at(const std::string& key) const;
    const model::AssumptionSet& all() const { return m_set; }
    /// "source (estimate)" text for provenance.
    std::string source(const std::string& key) const;

private:
    model::AssumptionSet m_set;
};

/// Applies `--set assumptions.KEY=VALUE` to a set: sets base (and widens low/high to include it).
/// Throws InputError when the path is not "assumptions.<existing key>" or the value is not finite.
void overrideAssumption(model::AssumptionSet& set, const std::string& path, double value);

} // namespace ctwin::cost
