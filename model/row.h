#pragma once
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A row of racks in a hall.
struct Row {
    static constexpr EntityKind kKind = EntityKind::Row;
    std::string id;
    std::string name;
    std::string hall;
    units::Length x{}, y{};
    double rotationDeg = 0.0;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("hall", hall, EntityRef{EntityKind::DataHall, false});
        v.quantity("x_m", x, fieldRange(kKind, "x_m"));
        v.quantity("y_m", y, fieldRange(kKind, "y_m"));
        v.number("rotation_deg", rotationDeg, fieldRange(kKind, "rotation_deg"));
    }
};

} // namespace ctwin::model
