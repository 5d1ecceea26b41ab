#pragma once
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A data hall: a floor with a placement grid inside a building.
struct DataHall {
    static constexpr EntityKind kKind = EntityKind::DataHall;
    std::string id;
    std::string name;
    std::string building;
    units::Length x{}, y{}, width{}, depth{};
    units::Length grid{0.6 * units::meter};

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("building", building, EntityRef{EntityKind::Building, false});
        v.quantity("x_m", x, kPosition);
        v.quantity("y_m", y, kPosition);
        v.quantity("width_m", width, kSize);
        v.quantity("depth_m", depth, kSize);
        v.quantity("grid_m", grid, Bounds{0.0, 100.0});
    }
};

} // namespace ctwin::model
