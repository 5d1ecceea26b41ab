#pragma once
#include <optional>
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
    /// Fiber route length over great-circle distance, used when routeLength is absent; absent means
    /// "use assumptions.route_factor".
    std::optional<double> routeFactor;
    /// Surveyed route length; absent means great-circle distance x route factor.
    std::optional<units::Length> routeLength;
    double capacityBitPerS = 0.0;
    std::string optic;
    double fiberLeaseUsdPerMYear = 0.0;
    /// One-way latency the link must stay under; absent means no budget (no design rule).
    std::optional<units::Time> latencyBudget;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.endpoint("from", from);
        v.endpoint("to", to);
        // A fiber route is never shorter than the great circle: factor >= 1.
        v.optionalNumber("route_factor", routeFactor, fieldRange(kKind, "route_factor"));
        v.optionalQuantity("route_length_m", routeLength, fieldRange(kKind, "route_length_m"));
        v.number("capacity_bit_per_s", capacityBitPerS, fieldRange(kKind, "capacity_bit_per_s"));
        v.catalogRef("optic", optic, "wan", /*optional=*/true);
        v.number("fiber_lease_usd_per_m_year", fiberLeaseUsdPerMYear,
                 fieldRange(kKind, "fiber_lease_usd_per_m_year"));
        v.optionalQuantity("latency_budget_s", latencyBudget, fieldRange(kKind, "latency_budget_s"));
    }
};

} // namespace ctwin::model
