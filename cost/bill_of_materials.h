#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "assumption_values.h"
#include "catalog.h"
#include "clos_sizing.h"
#include "design_rule.h"
#include "input_resolver.h"
#include "project.h"
#include "units.h"

namespace ctwin::cost {

class CompiledDesign;

/// Counted items of one catalog entry: "how many of what, at what unit price".
struct BomLine {
    std::string catalogId;
    std::string description;
    double quantity = 0.0;
    units::Money unitPrice{};
    units::Power unitPower{};
    /// Powered by the compute tray it sits in (a NIC-side transceiver draws from the NIC's cage, inside the
    /// rack's catalog power_load_w), so its power is not network power; its price still counts.
    bool hostPowered = false;
    units::Money cost() const { return quantity * unitPrice; }
};

/// One fabric's derived hardware.
struct FabricBom {
    std::string fabricId;
    std::string role;
    int planes = 1;
    ClosSizing perPlane;
    double switches = 0, transceivers = 0, cables = 0;
    units::Power power{};
    units::Money switchCost{}, opticsCost{};
    /// Link distances by tier used to pick media (metres).
    double endpointReachM = 0, leafSpineReachM = 0, spineCoreReachM = 0;
    std::vector<BomLine> lines;
};

/// Per-loop liquid cooling.
struct LoopBom {
    std::string loopId;
    units::Power liquidHeat{};      // at design (full) load
    units::Power installedCapacity{}; // capacity with the redundant units out
    double cdusRequired = 0;
    double cdusInstalled = 0;
    units::VolumeFlow flow{};
    units::Power pumpPower{};
};

/// One scale-across link's line system: wavelengths on fiber pairs, regenerated every
/// amplified reach of the optic into `segments`, each a line system with a terminal at both ends and inline
/// amplifiers between its spans.
struct WanBom {
    std::string linkId;
    units::Length routeLength{};
    units::Time oneWayLatency{};
    double wavelengths = 0, fiberPairs = 0;
    /// Every module: two per wavelength at the link ends plus two per regenerator.
    double optics = 0;
    /// Inline amplifier sites x fiber pairs.
    double amplifiers = 0;
    /// Optical-electrical-optical regeneration sites along the route (segments - 1).
    double regenSites = 0;
    /// Back-to-back transponder pairs at the regeneration sites (wavelengths x regenSites).
    double regenerators = 0;
    /// Line terminals (mux/demux, booster and preamplifier or ROADM degree): two per fiber pair per segment.
    double lineTerminals = 0;
    /// Length between regenerations (route / segments); the reach the optic must cover.
    units::Length segmentLength{};
    units::Money capex{};
    units::MoneyPerTime lease{};
    units::Power power{};
    double capacityBitPerS = 0;
};

/// Everything the layout implies: counts, network, cooling, power and storage gear.
struct BillOfMaterials {
    // Inventory
    double sites = 0, buildings = 0, halls = 0, racks = 0, computeRacks = 0, spareRacks = 0;
    double gpus = 0, spareGpus = 0, cpus = 0, servers = 0, backendNics = 0, frontendNics = 0, psus = 0;
    std::map<std::string, double> racksByType;
    std::vector<BomLine> rackLines;
    std::vector<FabricBom> fabrics;
    std::vector<LoopBom> loops;
    std::vector<WanBom> links;
    double switches = 0, transceivers = 0, cables = 0, cdus = 0;
    /// Network racks and the leaves they hold: per row (index as project.rows), the leaf switches
    /// that fabrics with row placements (middle or end of row) put in it, their rack units and power, and
    /// the rack units and PDU capacity of the row's network racks (catalog racks of kind "network").
    struct RowNetwork {
        double leaves = 0, leafUnits = 0, leafPowerW = 0;
        double networkRacks = 0, rackUnits = 0, capacityW = 0;
    };
    std::vector<RowNetwork> rowNetwork;
    double networkRacks = 0;
    units::Bytes storageCapacity{};
    units::DataRate storageWriteBandwidth{};
    units::Money storageCost{};
    units::Power storagePower{};
    /// Findings of the derivation (fabric limits, missing media, orphan racks, loop capacity, links).
    std::vector<DesignRule> rules;
    /// The design's ids and references resolved to indices (cost/compiled_design.h), shared by every
    /// evaluation that reuses this bill of materials; its per-rack arrays drive the later stages.
    std::shared_ptr<const CompiledDesign> compiled;
};

/// Assumptions the bill of materials depends on; a BOM can be reused across evaluations that vary any other.
inline const std::vector<std::string> kBillOfMaterialsAssumptions = {"route_factor", "oversubscription_limit"};

/// Derives the bill of materials from the layout and the catalog (SPEC.md §4.1). Findings that make a
/// design infeasible or doubtful (fabric beyond its tier limit, no optic for a reach) go to its `rules`.
/// Inputs come from the resolver (its project() and assumptions(), route lengths via linkRouteLength).
BillOfMaterials deriveBillOfMaterials(const model::Catalog& catalog, const InputResolver& inputs);
/// The same, reusing `compiled` (compileDesign of the same design, or of one differing only in fields for
/// which overrideAffectsCompiledDesign is false); null compiles the design.
BillOfMaterials deriveBillOfMaterials(const model::Catalog& catalog, const InputResolver& inputs,
                                      std::shared_ptr<const CompiledDesign> compiled);

/// Light in fiber: 4.9 µs per km (group index ≈ 1.47; REFERENCES.md, Network).
inline constexpr double kFiberDelaySecondsPerMeter = 4.9e-9;

} // namespace ctwin::cost
