#include "entity_kind.h"

namespace ctwin::model {

namespace {
struct KindNames {
    EntityKind kind;
    std::string_view singular;
    std::string_view collection;
};
constexpr std::array<KindNames, kAllEntityKinds.size()> kNames = {{
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
} // namespace

std::string_view entityKindName(EntityKind kind) { return kNames[static_cast<size_t>(kind)].singular; }
std::string_view entityCollectionKey(EntityKind kind) { return kNames[static_cast<size_t>(kind)].collection; }

std::optional<EntityKind> entityKindFromCollectionKey(std::string_view key) {
    for (const auto& n : kNames)
        if (n.collection == key) return n.kind;
    return std::nullopt;
}

} // namespace ctwin::model
