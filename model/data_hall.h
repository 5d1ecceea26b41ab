#pragma once
#include "field_traits.h"
#include "units.h"

#include <optional>
#include <string>

namespace ctwin::model {

/// A data hall: a floor with a placement grid inside a building.
struct DataHall {
    static constexpr EntityKind kKind = EntityKind::DataHall;
    std::string id;
    std::string name;
    std::string building;
    units::Length x{}, y{}, width{}, depth{};
    units::Length grid{0.6 * units::meter};
    /// Critical IT power the hall is built for (its electrical and cooling rating, as halls are specified
    /// and sold: "a 10 MW data hall"); absent: not rated, no check.
    std::optional<units::Power> powerCapacity;
    /// The date the hall is energised and its racks delivered (ISO date); empty: its building's.
    std::string energisationDate;
    /// When the hall's GPUs are replaced (cost/timeline.h): "fixed_life" at the end of the
    /// IT useful life, or "economic" when a new cohort's margin less its capital charge beats the running
    /// one.
    std::string refreshPolicy = "fixed_life";
    /// Oversubscription ratio of this power domain; absent: not tighter than the domains
    /// above it. A rack is capped by the tightest domain above it (model/site.h).
    std::optional<double> powerOversubscriptionRatio;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("building", building, EntityRef{EntityKind::Building, false});
        v.quantity("x_m", x, fieldRange(kKind, "x_m"));
        v.quantity("y_m", y, fieldRange(kKind, "y_m"));
        v.quantity("width_m", width, fieldRange(kKind, "width_m"));
        v.quantity("depth_m", depth, fieldRange(kKind, "depth_m"));
        v.quantity("grid_m", grid, fieldRange(kKind, "grid_m"));
        v.optionalQuantity("power_capacity_w", powerCapacity, fieldRange(kKind, "power_capacity_w"));
        v.text("energisation_date", energisationDate);
        v.choice("refresh_policy", refreshPolicy, {"fixed_life", "economic"});
        v.optionalNumber("power_oversubscription_ratio", powerOversubscriptionRatio,
                         fieldRange(kKind, "power_oversubscription_ratio"));
    }
};

} // namespace ctwin::model
