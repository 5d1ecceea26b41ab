#pragma once
#include <array>
#include <cstddef>
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

/// Names of each kind, indexed by EntityKind: singular for messages, collection key of the interchange JSON
/// (constexpr: the compiled-in field ranges are keyed by collection, model/field_traits.h).
struct EntityKindNames {
    EntityKind kind;
    std::string_view singular;
    std::string_view collection;
};
inline constexpr std::array<EntityKindNames, kAllEntityKinds.size()> kEntityKindNames = {{
    {EntityKind::Site, "site", "sites"},
    {EntityKind::Building, "building", "buildings"},
    {EntityKind::DataHall, "hall", "halls"},
    {EntityKind::PowerFeed, "power feed", "power_feeds"},
    {EntityKind::CoolingLoop, "cooling loop", "cooling_loops"},
    {EntityKind::Row, "row", "rows"},
    {EntityKind::RackPlacement, "rack", "racks"},
    {EntityKind::Fabric, "fabric", "fabrics"},
    {EntityKind::StorageTier, "storage tier", "storage_tiers"},
    {EntityKind::ScaleAcrossLink, "link", "links"},
    {EntityKind::TrainingJob, "training job", "training_jobs"},
    {EntityKind::InferenceService, "inference service", "inference_services"},
}};

/// Singular name used in messages ("rack 'r-12'").
std::string_view entityKindName(EntityKind kind);
/// Collection key in the interchange JSON ("racks").
std::string_view entityCollectionKey(EntityKind kind);
std::optional<EntityKind> entityKindFromCollectionKey(std::string_view key);

} // namespace ctwin::model
