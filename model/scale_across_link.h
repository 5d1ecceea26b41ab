#pragma once
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A wide-area link joining two sites or buildings (scale-across), e.g. a dedicated AI WAN.
struct ScaleAcrossLink {
    static constexpr EntityKind kKind = EntityKind::ScaleAcrossLink;
    std::string id;
    std::string name;
    /// Site or building ids.
    std::string from;
    std::string to;
    /// Fiber route length over great-circle distance, used when routeLength is zero.
    double routeFactor = 0.0;
    units::Length routeLength{};
    double capacityBitPerS = 0.0;
    std::string optic;
    double fiberLeaseUsdPerMYear = 0.0;
    units::Time latencyBudget{};

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.endpoint("from", from);
        v.endpoint("to", to);
        v.number("route_factor", routeFactor, Bounds{0.0, 10.0});
        v.quantity("route_length_m", routeLength, kRouteLengthM);
        v.number("capacity_bit_per_s", capacityBitPerS, Bounds{0.0, 1e17});
        v.catalogRef("optic", optic, "wan", /*optional=*/true);
        v.number("fiber_lease_usd_per_m_year", fiberLeaseUsdPerMYear, Bounds{0.0, 1e4});
        v.quantity("latency_budget_s", latencyBudget, Bounds{0.0, 10.0});
    }
};

} // namespace ctwin::model
