#pragma once
#include "assumption.h"
#include "building.h"
#include "cooling_loop.h"
#include "data_hall.h"
#include "fabric.h"
#include "inference_service.h"
#include "power_feed.h"
#include "project_info.h"
#include "rack_placement.h"
#include "row.h"
#include "scale_across_link.h"
#include "site.h"
#include "storage_tier.h"
#include "training_job.h"

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ctwin::model {

/// Where an entity lives inside a Project.
struct EntitySlot {
    EntityKind kind;
    size_t index;
};

/// The design: every entity of the document in flat, ordered collections that reference their parents by
/// id (the same shape as the interchange JSON and the SQLite document).
struct Project {
    ProjectInfo info;
    /// Overrides of the default assumptions (data/assumptions.json) for this design.
    AssumptionSet assumptions;
    std::vector<Site> sites;
    std::vector<Building> buildings;
    std::vector<DataHall> halls;
    std::vector<PowerFeed> powerFeeds;
    std::vector<CoolingLoop> coolingLoops;
    std::vector<Row> rows;
    std::vector<RackPlacement> racks;
    std::vector<Fabric> fabrics;
    std::vector<StorageTier> storageTiers;
    std::vector<ScaleAcrossLink> links;
    std::vector<TrainingJob> trainingJobs;
    std::vector<InferenceService> inferenceServices;

    /// A training job or an inference service: without one the design has no token costs and its cost per
    /// GPU-hour is that of idle hardware, so comparisons refuse it.
    bool hasWorkload() const { return !trainingJobs.empty() || !inferenceServices.empty(); }

    /// Calls f(collection) for each collection in EntityKind order.
    template <class F> void forEachCollection(F&& f) {
        f(sites), f(buildings), f(halls), f(powerFeeds), f(coolingLoops), f(rows), f(racks), f(fabrics),
            f(storageTiers), f(links), f(trainingJobs), f(inferenceServices);
    }
    template <class F> void forEachCollection(F&& f) const {
        f(sites), f(buildings), f(halls), f(powerFeeds), f(coolingLoops), f(rows), f(racks), f(fabrics),
            f(storageTiers), f(links), f(trainingJobs), f(inferenceServices);
    }
    /// Calls f(collection) for the collection of one kind.
    template <class F> decltype(auto) withCollection(EntityKind kind, F&& f) {
        switch (kind) {
        case EntityKind::Site:
            return f(sites);
        case EntityKind::Building:
            return f(buildings);
        case EntityKind::DataHall:
            return f(halls);
        case EntityKind::PowerFeed:
            return f(powerFeeds);
        case EntityKind::CoolingLoop:
            return f(coolingLoops);
        case EntityKind::Row:
            return f(rows);
        case EntityKind::RackPlacement:
            return f(racks);
        case EntityKind::Fabric:
            return f(fabrics);
        case EntityKind::StorageTier:
            return f(storageTiers);
        case EntityKind::ScaleAcrossLink:
            return f(links);
        case EntityKind::TrainingJob:
            return f(trainingJobs);
        case EntityKind::InferenceService:
            break;
        }
        return f(inferenceServices);
    }
    template <class F> decltype(auto) withCollection(EntityKind kind, F&& f) const {
        return const_cast<Project*>(this)->withCollection(kind, [&](auto& c) -> decltype(auto) {
            return f(static_cast<const std::decay_t<decltype(c)>&>(c));
        });
    }

    size_t entityCount() const;
};

/// Id -> slot index over a Project. Rebuilt after structural edits; O(1) look-ups for the engine and views.
class EntityIndex {
public:
    EntityIndex() = default;
    explicit EntityIndex(const Project& project) { rebuild(project); }
    void rebuild(const Project& project);
    std::optional<EntitySlot> find(std::string_view id) const;
    /// Adds one id (after an append); false when the id is already taken.
    bool insert(const std::string& id, EntitySlot slot) { return m_slots.emplace(id, slot).second; }
    /// Second and later occurrences of ids that occur more than once (a document error).
    const std::vector<std::pair<std::string, EntitySlot>>& duplicates() const { return m_duplicates; }

private:
    std::unordered_map<std::string, EntitySlot> m_slots;
    std::vector<std::pair<std::string, EntitySlot>> m_duplicates;
};

} // namespace ctwin::model
