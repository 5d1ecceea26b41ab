#pragma once
#include <utility>
#include <vector>

namespace ctwin::cost {

/// Input of one plane of a folded Clos (fat-tree) network.
struct ClosInput {
    /// Endpoint ports per leaf group on this plane, one entry per group: a rack for top-of-rack leaves, a row
    /// for middle- or end-of-row leaves (bill_of_materials.cpp sums a row's racks). With topOfRack each group
    /// gets ceil(e / leaf down-ports) leaves of its own.
    std::vector<double> endpointsPerRack;
    /// More groups, by size: (endpoint ports per group, number of such groups). Sized exactly as that many
    /// entries of endpointsPerRack; the bill of materials gives top-of-rack racks by rack type this way
    /// (racks of one type have the same endpoints), so sizing does not walk every rack.
    std::vector<std::pair<double, double>> endpointGroups;
    /// Switch radix at endpoint port speed (physical ports x breakout).
    int radix = 64;
    int tiers = 2;
    /// Downlink:uplink ratio at the leaf->spine and spine->core boundaries (1 = non-blocking).
    double leafOversubscription = 1.0;
    double spineOversubscription = 1.0;
    /// Leaves per group (ToR, or per row for middle/end of row) or pooled over the whole plane
    /// (rail-optimized).
    bool topOfRack = true;
};

/// Switch and link counts of one plane.
struct ClosSizing {
    double endpoints = 0;
    double leaves = 0, spines = 0, cores = 0;
    double endpointLinks = 0, leafSpineLinks = 0, spineCoreLinks = 0;
    int leafDown = 0, leafUp = 0, spineDown = 0, spineUp = 0;
    /// Largest endpoint count these tiers can reach with this radix and these ratios.
    double maxEndpoints = 0;
    bool exceedsTierLimit = false;
    double switches() const { return leaves + spines + cores; }
};

/// The endpoint (down) ports of one leaf: all k ports on one tier, else d1 = floor(k·o1/(1+o1)), at least
/// one port left up (sizeClos's split).
int leafDownPorts(int radix, int tiers, double leafOversubscription);

/// Sizes one plane of a 1-, 2- or 3-tier folded Clos.
///
/// A leaf splits its k ports into d1 = floor(k·o1/(1+o1)) down and u1 = k - d1 up; a 3-tier spine
/// likewise d2/u2 with o2. Reach limits (Al-Fares et al., "A Scalable, Commodity Data Center Network
/// Architecture", SIGCOMM 2008, for the non-blocking case): 2 tiers k·d1 (= k²/2), 3 tiers k·d1·d2 (= k³/4);
/// 1 tier k. Spines/cores are counted from the uplinks they must terminate.
ClosSizing sizeClos(const ClosInput& in);

} // namespace ctwin::cost
