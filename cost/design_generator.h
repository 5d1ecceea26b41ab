#pragma once
// The design generator: lays out an ordinary model::Project from a generator spec (design_spec.h). One
// generator serves `clustertwin-cli new`, File > New from target and the shipped reference designs
// (data/reference/specs/*.json), so the layout rules below live in one place.

#include "assumption.h"
#include "catalog.h"
#include "design_spec.h"
#include "project.h"

#include <string>

namespace ctwin::cost {

/// Summary of a generated design, for previews and CLI messages.
struct GeneratedSummary {
    int racks = 0;        ///< compute racks
    int networkRacks = 0; ///< network racks, one per row
    int spareRacks = 0;
    double gpus = 0;
    int buildings = 0;
    int halls = 0;
    int coolingUnits = 0;
    /// Peak IT power (cost::evaluate's power.itPeak: racks at load, spares idle, network, storage, WAN).
    double itPeakMw = 0;
    /// Peak compute IT power (power.computePeak: racks at load, spares idle), what an it_mw target meets.
    double itComputePeakMw = 0;
};

/// Buildings and halls per building for `racks` racks (sellable and spares) of `rackLoadW` each when the
/// target leaves them out (absent `buildings` / `hallsPerBuilding`): enough halls that none holds more than
/// kAutoHallMaxLoadW of rack load or kAutoHallMaxRacks racks, at most kAutoHallsPerBuilding halls per
/// building, halls spread evenly. A count the target gives is kept and the other follows from it.
struct HallCounts {
    int buildings = 1;
    int hallsPerBuilding = 1;
};
HallCounts automaticHalls(const TargetSpec& target, int racks, double rackLoadW);
/// The automatic layout's limits, from the shipped references' sourced layouts: a campus-1gw hall holds
/// 250 GB300 NVL72 racks at 145 kW = 36.25 MW, four to a 200 MW building (Meta Prometheus-class campus;
/// REFERENCES.md Accelerators for the rack power); a llama3-16k-h100 hall holds two 192-rack pods = 384
/// racks (REFERENCES.md Network, Llama 3 cluster: 192 racks per 3,072-GPU pod).
inline constexpr double kAutoHallMaxLoadW = 36.25e6;
inline constexpr int kAutoHallMaxRacks = 384;
inline constexpr int kAutoHallsPerBuilding = 4;

/// Expands simple targets into an explicit layout (sites, buildings, halls, fabrics, storage) without
/// generating the design. GPU targets round up to whole racks; an IT-power target is met by evaluating the
/// design (hot spares idle, so compute IT power is not a multiple of the rack load) and adjusting the rack
/// count until the peak compute IT power (racks only; network, storage and WAN come on top) is within one
/// rack's power of the target. `defaults` are data/assumptions.json.
/// Throws model::InputError for impossible targets.
DesignSpec planTarget(const DesignSpec& spec, const model::Catalog& catalog,
                      const model::AssumptionSet& defaults);

/// Lays out the design. Entities the spec gives in full (project info, assumptions, site fields, links,
/// training jobs, inference services, explicit fabrics) pass through unchanged. Throws model::InputError
/// naming the spec entity and field when the spec cannot be laid out (unknown catalog ids, a CDU count
/// that does not fit the row ends, a back-end that does not fit the switch radix).
model::Project generateDesign(const DesignSpec& spec, const model::Catalog& catalog,
                              const model::AssumptionSet& defaults);

GeneratedSummary summarize(const model::Project& project, const model::Catalog& catalog,
                           const model::AssumptionSet& defaults);

} // namespace ctwin::cost
