#include "project.h"

namespace ctwin::model {

size_t Project::entityCount() const {
    size_t n = 0;
    forEachCollection([&](const auto& c) { n += c.size(); });
    return n;
}

void EntityIndex::rebuild(const Project& project) {
    m_slots.clear();
    m_duplicates.clear();
    m_slots.reserve(project.entityCount());
    project.forEachCollection([&](const auto& c) {
        for (size_t i = 0; i < c.size(); ++i) {
            const auto kind = std::decay_t<decltype(c[i])>::kKind;
            if (!m_slots.emplace(c[i].id, EntitySlot{kind, i}).second)
                m_duplicates.emplace_back(c[i].id, EntitySlot{kind, i});
        }
    });
}

std::optional<EntitySlot> EntityIndex::find(std::string_view id) const {
    auto it = m_slots.find(std::string(id));
    if (it == m_slots.end()) return std::nullopt;
    return it->second;
}

AssumptionSet mergeAssumptions(const AssumptionSet& defaults, const AssumptionSet& overrides) {
    AssumptionSet merged = defaults;
    for (const auto& [key, a] : overrides) {
        auto& m = merged[key];
        const double min = m.min, max = m.max; // the valid range stays the shipped one
        const bool whole = m.whole;
        m = a;
        if (defaults.count(key)) m.min = min, m.max = max, m.whole = whole;
    }
    return merged;
}

} // namespace ctwin::model
