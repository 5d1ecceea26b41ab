#pragma once
// The electrical chain of a building sized on its redundancy topology (issue 13 item 2): how many utility
// transformers, LV switchgear line-ups, UPS modules, generators and busway runs, and what they cost.
#include <string>
#include <vector>

#include "catalog.h"
#include "project.h"
#include "units.h"

namespace ctwin::cost {

class CompiledDesign;

/// The topologies a building may state (model::Building::powerTopology), after the Uptime Institute Tier
/// Standard: Topology and Schneider Electric White Paper 75 ("Comparing UPS System Design Configurations",
/// McCarthy & Avelar): capacity (N), parallel redundant (N+1), system plus system (2N) and distributed
/// redundant with k systems of which any k-1 carry the load ("3/2", "4/3").
inline const std::vector<std::string> kPowerTopologies = {"N", "N+1", "2N", "3/2", "4/3"};

/// Units of a capacity component class (transformer, switchgear, UPS) installed for `load` with units of
/// `moduleRating` under `topology`:
///   N     n = ceil(L / m)                      (no redundant unit)
///   N+1   n + 1                                (one redundant module in a single system)
///   2N    2 n                                  (two full systems, each carrying L)
///   3/2   3 ceil((L/2) / m)                    (three systems each rated L/2: any two carry L)
///   4/3   4 ceil((L/3) / m)                    (four systems each rated L/3)
/// Unknown topologies count as 2N (the loader refuses them; this keeps the engine total).
double topologyUnits(const std::string& topology, double loadW, double moduleRatingW);

/// Paths (busway runs per row) a topology feeds each rack from: 1 for N and N+1, 2 otherwise.
int topologyPaths(const std::string& topology);

/// One component class of a building's chain.
struct PowerChainLine {
    std::string componentClass; // catalog kind: "transformer", "generator", "switchgear", "ups", "busway"
    std::string catalogId;
    double units = 0;           // installed units (busway: runs, one per feed)
    double unitsForLoad = 0;    // units the load needs with none redundant (N)
    units::Power unitRating{};  // one unit's rating (busway: the mean feed capacity)
    units::Power installed{};   // units x rating (busway: sum of feed capacities)
    units::Power sizedOn{};     // the load the class is sized on
    double usdPerW = 0;         // catalog capex_usd_per_w, per W of installed rating
    units::Money cost{};
};

/// A building's power chain.
struct BuildingPowerChain {
    std::string buildingId;
    std::string topology;
    /// Critical (UPS-side) design load: the larger of the summed capacities of the A-side and the B-side
    /// feeds; the building's peak IT power when it has no feed.
    units::Power criticalLoad{};
    /// Facility power at full load (IT, cooling, losses, misc): what the generators carry.
    units::Power facilityPeak{};
    std::vector<PowerChainLine> lines;
    units::Money cost{};
    const PowerChainLine* line(const std::string& componentClass) const;
};

/// Sizes a building's chain. The component classes present are those on the building's feeds' chains (the
/// first catalog item of each kind); a building without feeds gets the default transformer, switchgear,
/// UPS and busway (no generator), as the capex stage always assumed. Transformers, switchgear and UPS follow
/// topologyUnits on the critical load; generators are sized on the facility peak with one redundant unit
/// (N+1; N only for an N topology); busway is one run per feed at the feed's capacity (a building with no
/// feed: topologyPaths runs at the critical load).
/// `compiled`, when given, supplies which feeds racks take as B (CompiledDesign::feedIsB) instead of a pass
/// over the racks.
BuildingPowerChain sizePowerChain(const model::Project& p, const model::Catalog& catalog,
                                  const model::Building& building, units::Power itPeak,
                                  units::Power facilityPeak, const CompiledDesign* compiled = nullptr);

/// Efficiency of the chain in the power path of a building's IT load: each rack's power flows through its
/// feeds' chains (a dual-corded rack half through A and half through B; single-corded all through A), so
/// the building's efficiency is the rack-power-weighted mean of 1/eta, inverted (losses add, they do not
/// average as efficiencies). Generators are standby (not in the path). Racks without a feed take the
/// building's feeds' mean; a building without feeds takes the default chain.
double pathEfficiency(const model::Project& p, const model::Catalog& catalog, const std::string& buildingId);
/// pathEfficiency of every building (index = position in p.buildings) in one pass over the compiled racks.
std::vector<double> pathEfficiencies(const model::Project& p, const model::Catalog& catalog,
                                     const CompiledDesign& compiled);

} // namespace ctwin::cost
