#pragma once
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "assumption.h"
#include "entity_kind.h"

namespace ctwin::model {

enum class ChangeType { Added, Removed, Modified };

/// One entity's change inside a committed transaction: which entity, which properties, before and after.
struct EntityChange {
    EntityKind kind;
    std::string id;
    ChangeType type;
    /// Changed property keys (for Modified); empty for Added/Removed.
    std::vector<std::string> properties;
    /// Entity JSON before (null for Added) and after (null for Removed).
    nlohmann::ordered_json before;
    nlohmann::ordered_json after;
    /// Position in its collection (where it was removed from / inserted at).
    size_t index = 0;
};

/// A change of one design assumption (nullopt = no override).
struct AssumptionChange {
    std::string key;
    std::optional<Assumption> before;
    std::optional<Assumption> after;
};

/// The typed batch of changes one committed transaction made: what the GUI's undo stack stores and what
/// listeners receive (one event per commit, never per field).
struct ChangeSet {
    std::string label;
    std::vector<EntityChange> entities;
    std::vector<AssumptionChange> assumptions;
    bool projectInfoChanged = false;
    nlohmann::ordered_json infoBefore;
    nlohmann::ordered_json infoAfter;

    bool empty() const { return entities.empty() && assumptions.empty() && !projectInfoChanged; }
    /// The change set that undoes this one.
    ChangeSet inverted() const;
    bool touches(EntityKind kind) const;
    /// True when entities were added or removed (views must rebuild indices, not just refresh).
    bool structural() const;
};

/// Observer of committed changes; default callbacks do nothing (listeners override what they need).
class DocumentListener {
public:
    virtual ~DocumentListener() = default;
    virtual void documentChanged(const ChangeSet& /*changes*/) {}
    virtual void documentReset() {}
};

} // namespace ctwin::model
