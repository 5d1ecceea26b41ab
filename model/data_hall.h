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
    /// and sold: "a 10 MW data hall"); absent: not rated, no check (issue 30 item 1).
    std::optional<units::Power> powerCapacity;

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
    }
};

} // namespace ctwin::model
