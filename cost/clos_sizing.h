#pragma once
#include <vector>

namespace ctwin::cost {

/// Input of one plane of a folded Clos (fat-tree) network.
struct ClosInput {
    /// Endpoint ports per rack on this plane (one entry per rack; ToR leaves are placed per rack).
    std::vector<double> endpointsPerRack;
    /// Switch radix at endpoint port speed (physical ports x breakout).
    int radix = 64;
    int tiers = 2;
    /// Downlink:uplink ratio at the leaf->spine and spine->core boundaries (1 = non-blocking).
    double leafOversubscription = 1.0;
    double spineOversubscription = 1.0;
    /// Leaves at the top of each rack (ToR) or shared by the racks of a row (rail-optimized / end-of-row).
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

/// Sizes one plane of a 1-, 2- or 3-tier folded Clos.
///
/// A leaf splits its k ports into d1 = floor(k·o1/(1+o1)) down and u1 = k - d1 up; a 3-tier spine
/// likewise d2/u2 with o2. Reach limits (Al-Fares et al., "A Scalable, Commodity Data Center Network
/// Architecture", SIGCOMM 2008, for the non-blocking case): 2 tiers k·d1 (= k²/2), 3 tiers k·d1·d2 (= k³/4);
/// 1 tier k. Spines/cores are counted from the uplinks they must terminate.
ClosSizing sizeClos(const ClosInput& in);

} // namespace ctwin::cost
