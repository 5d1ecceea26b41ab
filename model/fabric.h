#pragma once
#include "field_traits.h"
#include "units.h"

#include <optional>
#include <string>
#include <vector>

namespace ctwin::model {

/// A Clos network over the racks of some buildings: back-end (GPU NICs), front-end or storage.
struct Fabric {
    static constexpr EntityKind kKind = EntityKind::Fabric;
    std::string id;
    std::string name;
    /// "backend", "frontend" or "storage".
    std::string role = "backend";
    /// Buildings whose racks are endpoints; empty means every building of the design.
    std::vector<std::string> buildings;
    std::string switchType;
    /// Line rate of one endpoint port (after breakout), bits per second as in the file.
    double portBitPerS = 400e9;
    /// Parallel identical planes; each NIC's bandwidth is split across planes (multi-plane / multi-rail).
    int planes = 1;
    int tiers = 2;
    /// Endpoint ports per physical switch port (an 800G port as 2 x 400G is breakout 2).
    int breakout = 1;
    /// Downlink:uplink ratio at each tier boundary (leaf->spine, spine->core); 1 = non-blocking.
    std::vector<double> oversubscription;
    bool railOptimized = false;
    /// "standard", "lpo" (linear pluggable optics) or "cpo" (co-packaged optics).
    std::string opticsPolicy = "standard";
    /// Where the leaves stand: "top_of_rack" (a leaf in every rack, 2.5 m links),
    /// "middle_of_row" or "end_of_row" (leaves shared by the racks of a row, sized by its ports; links of half
    /// or a whole row), or "auto": top_of_rack for a back-end (Meta's Llama 3 layout, one ToR per rack) and
    /// end_of_row for front-end and storage fabrics (a few ports per rack). Rail-optimised leaves are shared
    /// across the fabric whatever the placement; it then sets their reach (auto: middle of row).
    std::string leafPlacement = "auto";
    /// How the leaves spread flows over their equal-cost uplinks: "ecmp" (a static hash per
    /// flow; RoCE E-ECMP hashes the queue pair too), "adaptive" (the switch picks the least-loaded uplink per
    /// flowlet or packet: InfiniBand adaptive routing, Spectrum-X) or "spray" (per-packet spraying reordered
    /// at the NIC: Ultra Ethernet). It sets the collective efficiency of a back-end's training traffic.
    std::string routing = "ecmp";
    /// Concurrent flows (queue pairs) per endpoint port that ECMP hashes; absent: the
    /// collective_flows_per_port assumption (Llama 3's 16).
    std::optional<double> flowsPerPort;
    /// A measured collective bus-bandwidth efficiency (busbw / line rate, e.g. from nccl-tests) that replaces
    /// the routing model's; absent: computed from the routing, flows and the leaf's ports.
    std::optional<double> collectiveEfficiency;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.choice("role", role, {"backend", "frontend", "storage"});
        v.refList("buildings", buildings, EntityKind::Building);
        v.catalogRef("switch", switchType, "switches");
        v.number("port_bit_per_s", portBitPerS, fieldRange(kKind, "port_bit_per_s"));
        v.integer("planes", planes, fieldRange(kKind, "planes"));
        v.integer("tiers", tiers, fieldRange(kKind, "tiers"));
        v.integer("breakout", breakout, fieldRange(kKind, "breakout"));
        v.numbers("oversubscription", oversubscription, fieldRange(kKind, "oversubscription"));
        v.flag("rail_optimized", railOptimized);
        v.choice("optics_policy", opticsPolicy, {"standard", "lpo", "cpo"});
        v.choice("leaf_placement", leafPlacement, {"auto", "top_of_rack", "middle_of_row", "end_of_row"});
        v.choice("routing", routing, {"ecmp", "adaptive", "spray"});
        v.optionalNumber("flows_per_port", flowsPerPort, fieldRange(kKind, "flows_per_port"));
        v.optionalNumber("collective_efficiency", collectiveEfficiency,
                         fieldRange(kKind, "collective_efficiency"));
    }
};

} // namespace ctwin::model
