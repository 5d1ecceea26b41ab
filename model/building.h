#pragma once
#include "field_traits.h"
#include "units.h"

#include <optional>
#include <string>

namespace ctwin::model {

/// A building on a site with its utility power capacity (facility power, not IT power).
struct Building {
    static constexpr EntityKind kKind = EntityKind::Building;
    std::string id;
    std::string name;
    std::string site;
    units::Power powerCapacity{};
    /// Absent means "derive from assumptions.building_shell_usd_per_w x peak IT power".
    std::optional<units::Money> shellCost;
    /// Absent means "PUE is computed"; otherwise the user pins it (facility = PUE x IT power).
    std::optional<double> puePinned;
    units::Length x{}, y{}, width{}, depth{}, height{};
    /// Redundancy topology of the power chain (Uptime Institute Tier Standard: Topology; Schneider Electric
    /// WP 75): "N", "N+1", "2N", or distributed redundant "3/2" (three systems, any two carry the load) and
    /// "4/3". Default 2N: the A/B feeds of a dual-corded design, each path able to carry the whole load.
    std::string powerTopology = "2N";
    /// The date the building's power is energised and its halls take IT (ISO date). Empty: the
    /// design's build start plus assumptions.construction_months. A hall may set a later date of its own.
    std::string energisationDate;
    /// Oversubscription ratio of this power domain; absent: not tighter than the domains
    /// above it. A rack is capped by the tightest domain above it (model/site.h).
    std::optional<double> powerOversubscriptionRatio;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("site", site, EntityRef{EntityKind::Site, false});
        v.quantity("power_capacity_w", powerCapacity, fieldRange(kKind, "power_capacity_w"));
        v.optionalQuantity("shell_cost_usd", shellCost, fieldRange(kKind, "shell_cost_usd"));
        // A PUE below 1 would mean the facility uses less power than its IT (The Green Grid, WP #49).
        v.optionalNumber("pue_pinned", puePinned, fieldRange(kKind, "pue_pinned"));
        v.quantity("x_m", x, fieldRange(kKind, "x_m"));
        v.quantity("y_m", y, fieldRange(kKind, "y_m"));
        v.quantity("width_m", width, fieldRange(kKind, "width_m"));
        v.quantity("depth_m", depth, fieldRange(kKind, "depth_m"));
        v.quantity("height_m", height, fieldRange(kKind, "height_m"));
        v.choice("power_topology", powerTopology, {"N", "N+1", "2N", "3/2", "4/3"});
        v.text("energisation_date", energisationDate);
        v.optionalNumber("power_oversubscription_ratio", powerOversubscriptionRatio,
                         fieldRange(kKind, "power_oversubscription_ratio"));
    }
};

} // namespace ctwin::model
