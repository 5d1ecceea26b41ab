#pragma once
// The electrical chain of a building sized on its redundancy topology: how many utility
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
    /// Loss model of one unit (Schneider Electric White Paper 113, Rasmussen, "Electrical Efficiency Modeling
    /// for Data Centers": no-load, proportional and square-law losses), as fractions of the unit's rating at
    /// loading x = P / rating:  loss = rating (f0 + f1 x + f2 x^2), with f0 + f1 + f2 = 1/efficiency - 1 so
    /// that the catalog `efficiency` holds at full load. f0 = catalog no_load_loss_fraction, f2 =
    /// square_law_loss_fraction (both 0 when absent: a constant efficiency).
    double fullLoadLoss = 0, noLoadLoss = 0, squareLawLoss = 0;
    /// True for the classes upstream of the UPS (transformer, switchgear), which carry the whole facility.
    bool upstream = false;
};

/// Loss of a component class carrying `throughW` on `installedW` of rating (the installed units share the
/// load, as parallel modules and both sides of a 2N system do): installed (f0 + f1 x + f2 x^2), x =
/// through / installed. Zero for no rating.
double classLossW(const PowerChainLine& line, double throughW);

/// A building's power chain.
struct BuildingPowerChain {
    std::string buildingId;
    std::string topology;
    /// Critical (UPS-side) design load: the building's IT at full load plus its cooling loops' pumps (the
    /// load the racks and CDUs actually draw, whatever the feeds are labelled or rated).
    units::Power criticalLoad{};
    /// Facility power at full load (IT, cooling, losses, misc): what the generators carry.
    units::Power facilityPeak{};
    std::vector<PowerChainLine> lines;
    units::Money cost{};
    const PowerChainLine* line(const std::string& componentClass) const;
};

/// Sizes a building's chain from its loads. The component classes present are those on
/// the building's feeds' chains (the first catalog item of each kind); a building without feeds gets the
/// default transformer, switchgear, UPS and busway (no generator). The UPS follows topologyUnits on the
/// critical load (IT peak + pumps); transformers and switchgear, which also carry the cooling plant, misc
/// load and the losses below them, on the facility peak; generators on the facility peak with one redundant
/// unit (N+1; N only for an N topology); busway is one run per feed at the feed's capacity (a building with
/// no feed: topologyPaths runs at the critical load). Feed labels and ratings no longer size the gear: a 2N
/// pair whose B side no rack names is the mirror of A, not a second A.
BuildingPowerChain sizePowerChain(const model::Project& p, const model::Catalog& catalog,
                                  const model::Building& building, units::Power criticalLoad,
                                  units::Power facilityPeak);

/// Electrical losses of a building at one operating point (SPEC.md §4.2):
///  * IT path: it/eta_path - it, eta_path the rack-weighted full-load efficiency of each rack's feeds
///    (pathEfficiency);
///  * the plant, pumps and misc load (nonItW, pumps included) pass the upstream classes (transformer,
///    switchgear) at their full-load losses: nonIt (prod (1 + l_upstream) - 1); the pumps also the UPS's;
///  * part load: each class of the chain carries P at loading x = P / installed, and its loss differs from
///  the
///    full-load one (l P) by installed (f0 + f1 x + f2 x^2) - l P = P (1 - x)(f0/x - f2): the no-load losses
///    of lightly loaded gear (2N runs each side at <= 50 %), less the square-law losses saved. P is the IT
///    (plus pumps for the UPS) for the UPS and busway, the whole facility load for the upstream classes.
/// The correction takes each class as carrying the building's whole load (a class on only some feeds is
/// counted on all).
struct ChainLosses {
    double itPathW = 0, nonItW = 0, partLoadW = 0;
    double total() const { return itPathW + nonItW + partLoadW; }
};
ChainLosses chainLosses(const BuildingPowerChain& chain, double itW, double pathEta, double pumpsW,
                        double nonItW);

/// Design load on each feed (index = position in p.powerFeeds), W: every rack on the feed at full load (a
/// dual-corded rack's whole load on each of its feeds, since either carries it when the other fails; spares
/// idle). Compared with the feed's rating by the power stage's feed rules.
std::vector<double> feedDesignLoadsW(const model::Project& p, const CompiledDesign& compiled);
/// Peak load of each row (index = position in p.rows), W: its racks at full load (spares idle).
std::vector<double> rowDesignLoadsW(const model::Project& p, const CompiledDesign& compiled);

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
