#pragma once
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// One rack of a catalog rack type placed in a row, with its A/B power feeds and cooling loop.
struct RackPlacement {
    static constexpr EntityKind kKind = EntityKind::RackPlacement;
    std::string id;
    std::string name;
    std::string row;
    std::string rackType;
    units::Length x{}, y{};
    double rotationDeg = 0.0;
    std::string feedA;
    std::string feedB;
    /// Empty: air-cooled only.
    std::string coolingLoop;
    /// A hot spare: installed and powered at idle, not counted as sold capacity.
    bool spare = false;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("row", row, EntityRef{EntityKind::Row, false});
        v.catalogRef("rack_type", rackType, "racks");
        v.quantity("x_m", x, fieldRange(kKind, "x_m"));
        v.quantity("y_m", y, fieldRange(kKind, "y_m"));
        v.number("rotation_deg", rotationDeg, fieldRange(kKind, "rotation_deg"));
        v.ref("feed_a", feedA, EntityRef{EntityKind::PowerFeed, true});
        v.ref("feed_b", feedB, EntityRef{EntityKind::PowerFeed, true});
        v.ref("cooling_loop", coolingLoop, EntityRef{EntityKind::CoolingLoop, true});
        v.flag("spare", spare);
    }
};

} // namespace ctwin::model
