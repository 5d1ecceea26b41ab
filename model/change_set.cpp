#include "change_set.h"

#include <algorithm>

namespace ctwin::model {

ChangeSet ChangeSet::inverted() const {
    ChangeSet inv;
    inv.label = label;
    for (auto it = entities.rbegin(); it != entities.rend(); ++it) {
        EntityChange c = *it;
        std::swap(c.before, c.after);
        if (c.type == ChangeType::Added) c.type = ChangeType::Removed;
        else if (c.type == ChangeType::Removed) c.type = ChangeType::Added;
        inv.entities.push_back(std::move(c));
    }
    for (auto it = assumptions.rbegin(); it != assumptions.rend(); ++it)
        inv.assumptions.push_back(AssumptionChange{it->key, it->after, it->before});
    inv.projectInfoChanged = projectInfoChanged;
    inv.infoBefore = infoAfter;
    inv.infoAfter = infoBefore;
    return inv;
}

bool ChangeSet::touches(EntityKind kind) const {
    return std::any_of(entities.begin(), entities.end(), [&](const EntityChange& c) { return c.kind == kind; });
}

bool ChangeSet::structural() const {
    return std::any_of(entities.begin(), entities.end(),
                       [](const EntityChange& c) { return c.type != ChangeType::Modified; });
}

} // namespace ctwin::model
