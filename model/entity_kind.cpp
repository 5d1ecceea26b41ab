#include "entity_kind.h"

namespace ctwin::model {

namespace {
constexpr const auto& kNames = kEntityKindNames;
} // namespace

std::string_view entityKindName(EntityKind kind) { return kNames[static_cast<size_t>(kind)].singular; }
std::string_view entityCollectionKey(EntityKind kind) { return kNames[static_cast<size_t>(kind)].collection; }

std::optional<EntityKind> entityKindFromCollectionKey(std::string_view key) {
    for (const auto& n : kNames)
        if (n.collection == key) return n.kind;
    return std::nullopt;
}

} // namespace ctwin::model
