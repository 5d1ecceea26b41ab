#pragma once
// The generator spec (data/FORMAT.md §4): what `clustertwin-cli new`, File > New from target and the shipped
// reference designs ask the design generator to lay out. Either simple targets (GPU count or IT power, rack
// type, cooling, buildings, halls) that the generator plans into halls, or an explicit layout (sites,
// buildings, halls as columns of rows); plus entities passed through unchanged (project info, assumptions,
// links, training jobs, inference services).

#include "assumption.h"
#include "fabric.h"
#include "inference_service.h"
#include "input_error.h"
#include "project_info.h"
#include "scale_across_link.h"
#include "site.h"
#include "storage_tier.h"
#include "training_job.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

inline constexpr const char* kGeneratorSpecFormat = "clustertwin-generator-spec";
inline constexpr int kGeneratorSpecVersion = 1;

/// Liquid cooling of a hall: one loop per column of rows.
struct HallCoolingSpec {
    std::string cduType = "cdu-2mw";
    std::string redundancy = "N+1";
    double supplyTempC = 35.0;
    double deltaTK = 10.0;
    std::string plant = "plant-dry-cooler";
};

/// A hall of one rack type: columns (blocks of rows side by side in y, separated by a cross aisle), each a
/// list of row lengths in racks.
struct HallSpec {
    std::string id;
    std::string name;
    std::string rackType;
    std::vector<std::vector<int>> columns;
    /// Hot-spare racks, spread evenly over the hall.
    int spares = 0;
    /// Absent: air-cooled (fan walls / CRAH at the row ends).
    std::optional<HallCoolingSpec> cooling;
    /// Feed A only (no B feed), e.g. grid-only resiliency.
    bool singleCorded = false;
    /// Power catalog ids from the utility to the row; empty = the standard chain with generators.
    std::vector<std::string> chain;
    /// The network rack (catalog racks of kind "network") at the start of every row, holding the row's
    /// leaves; absent: the catalog's network-rack-48u when it has one; "" = none.
    std::optional<std::string> networkRack;
};

struct BuildingSpec {
    std::string id;
    std::string name;
    double heightM = 15.0;
    /// Facility power capacity; absent = the generator's facility estimate x 1.1, rounded up.
    std::optional<double> powerCapacityW;
    std::optional<double> shellCostUsd;
    std::optional<double> puePinned;
    /// Power-chain redundancy topology (model::Building::powerTopology); absent = "N" when every hall is
    /// single-corded, else "2N" (the A/B feeds the generator lays out).
    std::optional<std::string> powerTopology;
    std::vector<HallSpec> halls;
};

struct SiteSpec {
    /// Every site field as in a design; optional fields stay unset when the spec leaves them out.
    model::Site site;
    std::vector<BuildingSpec> buildings;
};

/// A fabric given in full, or sized by the generator ("auto": true) from the racks in its scope.
struct FabricSpec {
    model::Fabric fabric;
    bool autoSize = false;
    /// Auto back-end: fixed tiers / planes (absent = the fewest that fit), oversubscription at the top tier
    /// boundary (lower boundaries non-blocking).
    std::optional<int> tiers;
    std::optional<int> planes;
    std::optional<double> oversubscription;
};

/// A storage tier; capacity given, or sized for an aggregate write bandwidth.
struct StorageSpec {
    model::StorageTier tier;
    std::optional<double> writeBytesPerS;
};

/// Simple targets: the generator plans buildings, halls and rows.
struct TargetSpec {
    /// Exactly one of these: sellable GPUs (rounded up to whole racks) or peak compute IT power in MW
    /// (cost::evaluate's power.computePeak / power.it_compute_peak_mw: racks at load, spares idle; network,
    /// storage and WAN come on top).
    std::optional<double> gpus;
    std::optional<double> itMw;
    std::string rackType;
    /// "air", or the liquid plant: "dry_cooler", "tower", "chiller".
    std::string cooling = "dry_cooler";
    /// Buildings on the site and halls per building; absent: sized from the target (see
    /// cost::automaticHalls in design_generator.h).
    std::optional<int> buildings;
    std::optional<int> hallsPerBuilding;
    /// Hot-spare racks as a fraction of sellable racks (absent = assumptions.spare_fraction_target).
    std::optional<double> spareFraction;
    model::Site site;
    std::optional<int> tiers;
    std::optional<double> oversubscription;
    std::optional<int> planes;
};

/// A phased build: the generated buildings, in order, energise `intervalMonths` apart from
/// `firstEnergisation` (needs project.build_start, no later than the first date).
struct PhasingSpec {
    std::string firstEnergisation; ///< ISO date
    int intervalMonths = 3;
};

struct DesignSpec {
    model::ProjectInfo info;
    std::optional<PhasingSpec> phasing;
    model::AssumptionSet assumptions;
    std::optional<TargetSpec> target;
    std::vector<SiteSpec> sites;
    std::vector<FabricSpec> fabrics;
    std::vector<StorageSpec> storage;
    std::vector<model::ScaleAcrossLink> links;
    std::vector<model::TrainingJob> trainingJobs;
    std::vector<model::InferenceService> inferenceServices;
};

/// Sets the spec's build start and, when `intervalMonths` > 0, a phasing from build start +
/// assumptions.construction_months (the spec's own, else `defaults`'), one building every `intervalMonths`:
/// what File > New from target and `clustertwin-cli new --build-start D --phase-months N` both do. Throws
/// InputError at `where` for a bad date, or a phasing without a build start.
void applyBuildSchedule(DesignSpec& spec, const std::string& buildStart, int intervalMonths,
                        const model::AssumptionSet& defaults, const model::InputLocation& where);

/// Parses a generator spec; unknown keys, wrong types and out-of-range values are InputErrors naming the
/// file and the key.
DesignSpec designSpecFromJson(const nlohmann::ordered_json& j, const std::string& file);
DesignSpec loadDesignSpec(const std::string& path);

} // namespace ctwin::cost
