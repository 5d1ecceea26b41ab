#include "clos_sizing.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost {

namespace {
int downPorts(int k, double oversubscription) {
    // d/(k-d) = o  =>  d = k·o/(1+o); at least one port stays up so the tier stays connected.
    const int d = static_cast<int>(std::floor(k * oversubscription / (1.0 + oversubscription) + 1e-9));
    return std::clamp(d, 1, std::max(1, k - 1));
}
} // namespace

int leafDownPorts(int radix, int tiers, double leafOversubscription) {
    const int k = std::max(radix, 2);
    return tiers <= 1 ? k : downPorts(k, leafOversubscription);
}

ClosSizing sizeClos(const ClosInput& in) {
    ClosSizing s;
    const int k = std::max(in.radix, 2);
    for (double e : in.endpointsPerRack)
        s.endpoints += std::max(0.0, e);
    for (const auto& [e, groups] : in.endpointGroups)
        s.endpoints += groups * std::max(0.0, e);
    s.endpointLinks = s.endpoints;
    if (s.endpoints <= 0) return s;

    if (in.tiers <= 1) {
        s.leafDown = k;
        s.leaves = std::ceil(s.endpoints / k);
        s.maxEndpoints = k;
        s.exceedsTierLimit = s.endpoints > s.maxEndpoints;
        return s;
    }

    s.leafDown = downPorts(k, in.leafOversubscription);
    s.leafUp = k - s.leafDown;
    // Uplink ports a leaf needs for e endpoints at ratio o: ceil(e / o), never more than it has.
    auto uplinksFor = [&](double e) {
        return std::min<double>(s.leafUp, std::ceil(e / in.leafOversubscription - 1e-9));
    };
    if (in.topOfRack) {
        // Each group's own leaves: ceil(e / d1), the last one partly used.
        const auto group = [&](double e, double groups) {
            if (e <= 0) return;
            const double leavesHere = std::ceil(e / s.leafDown);
            s.leaves += groups * leavesHere;
            s.leafSpineLinks +=
                groups * ((leavesHere - 1) * s.leafUp + uplinksFor(e - (leavesHere - 1) * s.leafDown));
        };
        for (double e : in.endpointsPerRack)
            group(e, 1.0);
        for (const auto& [e, groups] : in.endpointGroups)
            group(e, groups);
    } else {
        s.leaves = std::ceil(s.endpoints / s.leafDown);
        s.leafSpineLinks = (s.leaves - 1) * s.leafUp + uplinksFor(s.endpoints - (s.leaves - 1) * s.leafDown);
    }

    if (in.tiers == 2) {
        s.spineDown = k;
        s.spines = std::ceil(s.leafSpineLinks / k);
        s.maxEndpoints = static_cast<double>(k) * s.leafDown;
        // Every leaf needs a port on every spine it uses; more leaves than spine ports do not fit.
        s.exceedsTierLimit = s.leaves > k;
        return s;
    }

    s.spineDown = downPorts(k, in.spineOversubscription);
    s.spineUp = k - s.spineDown;
    s.spines = std::ceil(s.leafSpineLinks / s.spineDown);
    s.spineCoreLinks = std::ceil(s.leafSpineLinks / in.spineOversubscription - 1e-9);
    s.spineCoreLinks = std::min(s.spineCoreLinks, s.spines * s.spineUp);
    s.cores = std::ceil(s.spineCoreLinks / k);
    s.maxEndpoints = static_cast<double>(k) * s.leafDown * s.spineDown;
    // A pod holds spineDown leaves; a core switch has one port per pod.
    s.exceedsTierLimit = std::ceil(s.leaves / s.spineDown) > k;
    return s;
}

} // namespace ctwin::cost
