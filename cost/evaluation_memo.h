#pragma once
// Stage results that the scenario variations of one design share. A 50 x 50 sweep of the
// electricity price and the utilization evaluates the same reliability model, the same heat-rejection
// plants and the same accelerator look-ups 2,500 times; the memo computes each once per distinct input.
//
// What makes a hit safe: every entry is keyed on everything its computation reads besides the design, the
// catalog and the bill of materials. The memo is bound to one design and one catalog (covers()); the bill
// of materials is part of each key, by address, so the caller must keep every bill of materials it
// evaluates with a memo alive and unchanged while the memo lives (the scenario tools' base and per-step
// bills are). An evaluation whose resolver copied the design (an override of a plain entity field) or
// whose bill of materials carries no compiled design uses no memo. The memo never changes a number: a hit
// returns what the same function computed for the same inputs.

#include "bill_of_materials.h"
#include "catalog.h"
#include "climate.h"
#include "cooling_plant.h"
#include "power_chain.h"
#include "project.h"
#include "reliability.h"

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ctwin::cost {

/// The heat-rejection plants of every building of a design (evaluate_power.cpp), indexed like
/// Project::buildings.
struct BuildingCoolingPlan {
    const ClimateLocation* climate = nullptr;         // the site's location (or nearest); null without one
    const model::CatalogItem* airPlantItem = nullptr; // the air side's chilled-water plant
    BuildingCooling cooling;
    /// Water the building's wet towers evaporate per kWh of heat (kg/kWh, annual mean over the climate's hour
    /// classes; cooling_plant.h annualTowerEvaporationKgPerKwh): the liquid loops' (heat-weighted over the
    /// loops whose plant evaporates) and the air side's plant's; 0 where nothing evaporates. Without a
    /// climate, at the tower's rating point (evaluate_power.cpp TowerWaterCache).
    double liquidTowerKgPerKwh = 0, airTowerKgPerKwh = 0;
};
/// The assumptions the cooling plan reads (evaluatePower); with the design, catalog, bill of materials
/// and climate table they determine it.
struct CoolingPlanKey {
    double airSupplyC = 0, airDeltaTK = 0, crahFanFraction = 0;
    double spreadFactor = 0, copMaxFactor = 0;
    double towerLiquidGasRatio = 0;
    bool operator==(const CoolingPlanKey&) const = default;
};

class EvaluationMemo {
public:
    EvaluationMemo(const model::Project& project, const model::Catalog& catalog)
        : m_project(&project), m_catalog(&catalog) {}
    EvaluationMemo(const EvaluationMemo&) = delete;
    EvaluationMemo& operator=(const EvaluationMemo&) = delete;

    /// True when the memo may serve an evaluation of `project` (the resolver's, after overrides) with
    /// `catalog` and `bom`: the design and catalog it is bound to, and a compiled design in the bill.
    bool covers(const model::Project& project, const model::Catalog& catalog,
                const BillOfMaterials& bom) const {
        return &project == m_project && &catalog == m_catalog && bom.compiled != nullptr;
    }

    /// analyzeReliability(reliabilityInputFor(...)) of training job `job` (index into trainingJobs).
    std::shared_ptr<const ReliabilityResult> reliability(const BillOfMaterials& bom, size_t job,
                                                         const ReliabilityOptions& options,
                                                         const std::function<ReliabilityResult()>& compute);
    /// The cooling plan of every building under the climate table `climate`.
    std::shared_ptr<const std::vector<BuildingCoolingPlan>>
    coolingPlan(const BillOfMaterials& bom, const std::shared_ptr<const ClimateTable>& climate,
                const CoolingPlanKey& key, const std::function<std::vector<BuildingCoolingPlan>()>& compute);
    /// sizePowerChain of building `building` (index into buildings) at these peaks.
    std::shared_ptr<const BuildingPowerChain> powerChain(const BillOfMaterials& bom, size_t building,
                                                         units::Power itPeak, units::Power facilityPeak,
                                                         const std::function<BuildingPowerChain()>& compute);
    /// The rack type a training job runs on (evaluate_training.cpp), by job index.
    const model::CatalogItem* trainingRack(const BillOfMaterials& bom, size_t job,
                                           const std::function<const model::CatalogItem*()>& compute);
    /// The rack type inference services run on (evaluate_inference.cpp).
    const model::CatalogItem* servingRack(const BillOfMaterials& bom,
                                          const std::function<const model::CatalogItem*()>& compute);

private:
    /// Entries kept per kind: a tornado adds one per varied reliability or cooling input; uncertainty
    /// draws every input anew, so old entries are dropped (oldest first) rather than kept without bound.
    static constexpr size_t kMaxEntries = 64;
    struct ReliabilityEntry {
        const BillOfMaterials* bom;
        size_t job;
        ReliabilityOptions options;
        std::shared_ptr<const ReliabilityResult> result;
    };
    struct CoolingEntry {
        const BillOfMaterials* bom;
        std::shared_ptr<const ClimateTable> climate; // kept alive: the plan points into it
        CoolingPlanKey key;
        std::shared_ptr<const std::vector<BuildingCoolingPlan>> plan;
    };
    struct PowerChainEntry {
        const BillOfMaterials* bom;
        size_t building;
        double itPeakW, facilityPeakW;
        std::shared_ptr<const BuildingPowerChain> chain;
    };
    struct ItemEntry {
        const BillOfMaterials* bom;
        size_t index; // job index; SIZE_MAX for the serving rack
        const model::CatalogItem* item;
    };
    const model::CatalogItem* item(const BillOfMaterials& bom, size_t index,
                                   const std::function<const model::CatalogItem*()>& compute);

    const model::Project* m_project;
    const model::Catalog* m_catalog;
    std::mutex m_mutex;
    std::vector<ReliabilityEntry> m_reliability;
    std::vector<CoolingEntry> m_cooling;
    std::vector<PowerChainEntry> m_powerChains;
    std::vector<ItemEntry> m_items;
};

} // namespace ctwin::cost
