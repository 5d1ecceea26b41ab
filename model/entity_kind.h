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

/// The build's guard that every list of kinds holds every kind: this switch has no default, so a kind added
/// to EntityKind and not here fails the build (-Wswitch, an error under CTWIN_WERROR as in CI); the
/// static_asserts then hold kAllEntityKinds and kEntityKindNames to the enum's order, each kind once. Lists
/// elsewhere (app/gui/authoring's mention order, the incremental evaluator's and the views' change filters)
/// either switch without a default or assert their size against kAllEntityKinds.
constexpr std::size_t entityKindPosition(EntityKind kind) {
    switch (kind) {
    case EntityKind::Site:
        return 0;
    case EntityKind::Building:
        return 1;
    case EntityKind::DataHall:
        return 2;
    case EntityKind::PowerFeed:
        return 3;
    case EntityKind::CoolingLoop:
        return 4;
    case EntityKind::Row:
        return 5;
    case EntityKind::RackPlacement:
        return 6;
    case EntityKind::Fabric:
        return 7;
    case EntityKind::StorageTier:
        return 8;
    case EntityKind::ScaleAcrossLink:
        return 9;
    case EntityKind::TrainingJob:
        return 10;
    case EntityKind::InferenceService:
        return 11;
    }
    return kAllEntityKinds.size();
}
constexpr bool entityKindListsAgree() {
    for (std::size_t i = 0; i < kAllEntityKinds.size(); ++i)
        if (entityKindPosition(kAllEntityKinds[i]) != i || kEntityKindNames[i].kind != kAllEntityKinds[i] ||
            static_cast<std::size_t>(kAllEntityKinds[i]) != i)
            return false;
    return true;
}
static_assert(entityKindListsAgree(),
              "kAllEntityKinds and kEntityKindNames must list every EntityKind once, in order");

/// Singular name used in messages ("rack 'r-12'").
std::string_view entityKindName(EntityKind kind);
/// Collection key in the interchange JSON ("racks").
std::string_view entityCollectionKey(EntityKind kind);
std::optional<EntityKind> entityKindFromCollectionKey(std::string_view key);

} // namespace ctwin::model
