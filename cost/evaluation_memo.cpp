#include "evaluation_memo.h"

#include <algorithm>
#include <cstdint>

namespace ctwin::cost {

namespace {

/// Finds the entry matching `match`, else computes outside the lock (another thread may compute the same
/// one meanwhile: both results are equal, the first stored wins) and stores it, dropping the oldest entry
/// beyond `maxEntries`.
template <class Entry, class Match, class Make>
auto findOrCompute(std::mutex& mutex, std::vector<Entry>& entries, size_t maxEntries, const Match& match,
                   const Make& make) {
    {
        std::lock_guard lock(mutex);
        if (auto it = std::find_if(entries.begin(), entries.end(), match); it != entries.end()) return *it;
    }
    Entry made = make();
    std::lock_guard lock(mutex);
    if (auto it = std::find_if(entries.begin(), entries.end(), match); it != entries.end()) return *it;
    if (entries.size() >= maxEntries) entries.erase(entries.begin());
    entries.push_back(made);
    return made;
}

} // namespace

std::shared_ptr<const ReliabilityResult>
EvaluationMemo::reliability(const BillOfMaterials& bom, size_t job, const ReliabilityOptions& options,
                            const std::function<ReliabilityResult()>& compute) {
    return findOrCompute(
               m_mutex, m_reliability, kMaxEntries,
               [&](const ReliabilityEntry& e) {
                   return e.bom == &bom && e.job == job && e.options == options;
               },
               [&] {
                   return ReliabilityEntry{&bom, job, options,
                                           std::make_shared<const ReliabilityResult>(compute())};
               })
        .result;
}

std::shared_ptr<const std::vector<BuildingCoolingPlan>>
EvaluationMemo::coolingPlan(const BillOfMaterials& bom, const std::shared_ptr<const ClimateTable>& climate,
                            const CoolingPlanKey& key,
                            const std::function<std::vector<BuildingCoolingPlan>()>& compute) {
    return findOrCompute(
               m_mutex, m_cooling, kMaxEntries,
               [&](const CoolingEntry& e) { return e.bom == &bom && e.climate == climate && e.key == key; },
               [&] {
                   return CoolingEntry{&bom, climate, key,
                                       std::make_shared<const std::vector<BuildingCoolingPlan>>(compute())};
               })
        .plan;
}

std::shared_ptr<const BuildingPowerChain>
EvaluationMemo::powerChain(const BillOfMaterials& bom, size_t building, units::Power itPeak,
                           units::Power facilityPeak, const std::function<BuildingPowerChain()>& compute) {
    // Per building: a design has one entry per building for each distinct pair of peaks.
    const size_t buildings = m_project->buildings.size();
    return findOrCompute(
               m_mutex, m_powerChains, kMaxEntries * std::max<size_t>(1, buildings),
               [&](const PowerChainEntry& e) {
                   return e.bom == &bom && e.building == building && e.itPeakW == itPeak.value() &&
                          e.facilityPeakW == facilityPeak.value();
               },
               [&] {
                   return PowerChainEntry{&bom, building, itPeak.value(), facilityPeak.value(),
                                          std::make_shared<const BuildingPowerChain>(compute())};
               })
        .chain;
}

const model::CatalogItem* EvaluationMemo::item(const BillOfMaterials& bom, size_t index,
                                               const std::function<const model::CatalogItem*()>& compute) {
    return findOrCompute(
               m_mutex, m_items, kMaxEntries,
               [&](const ItemEntry& e) { return e.bom == &bom && e.index == index; },
               [&] {
                   return ItemEntry{&bom, index, compute()};
               })
        .item;
}

const model::CatalogItem*
EvaluationMemo::trainingRack(const BillOfMaterials& bom, size_t job,
                             const std::function<const model::CatalogItem*()>& compute) {
    return item(bom, job, compute);
}

const model::CatalogItem*
EvaluationMemo::servingRack(const BillOfMaterials& bom,
                            const std::function<const model::CatalogItem*()>& compute) {
    return item(bom, SIZE_MAX, compute);
}

} // namespace ctwin::cost
