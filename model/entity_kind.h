#pragma once
#include <array>
#include <optional>
#include <string_view>

namespace ctwin::model {

/// Every entity kind of a design document, in the order of the interchange format (data/FORMAT.md §3).
enum class EntityKind {
    Site,
    Building,
    DataHall,
    PowerFeed,
    CoolingLoop,
    Row,
    RackPlacement,
    Fabric,
    StorageTier,
    ScaleAcrossLink,
    TrainingJob,
    InferenceService,
};

inline constexpr std::array kAllEntityKinds = {
    EntityKind::Site,        EntityKind::Building,    EntityKind::DataHall,        EntityKind::PowerFeed,
    EntityKind::CoolingLoop, EntityKind::Row,         EntityKind::RackPlacement,   EntityKind::Fabric,
    EntityKind::StorageTier, EntityKind::ScaleAcrossLink, EntityKind::TrainingJob, EntityKind::InferenceService,
};

/// Singular name used in messages ("rack 'r-12'").
std::string_view entityKindName(EntityKind kind);
/// Collection key in the interchange JSON ("racks").
std::string_view entityCollectionKey(EntityKind kind);
std::optional<EntityKind> entityKindFromCollectionKey(std::string_view key);

} // namespace ctwin::model
