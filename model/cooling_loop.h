#pragma once
#include <string>
#include <vector>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A liquid cooling loop: CDUs (with redundancy) serving racks, rejecting heat to a facility water plant.
struct CoolingLoop {
    static constexpr EntityKind kKind = EntityKind::CoolingLoop;
    std::string id;
    std::string name;
    std::string hall;
    std::string cduType;
    int cduCount = 0;
    /// "N", "N+1" or "2N": how many installed CDUs may fail with the loop still at capacity.
    std::string redundancy = "N+1";
    double supplyTempC = 35.0;
    units::TemperatureDelta deltaT{10.0 * units::kelvin};
    std::string plant;
    std::vector<Point2> cdus;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("hall", hall, EntityRef{EntityKind::DataHall, false});
        v.catalogRef("cdu_type", cduType, "cooling");
        v.integer("cdu_count", cduCount, fieldRange(kKind, "cdu_count"));
        v.choice("redundancy", redundancy, {"N", "N+1", "2N"});
        v.number("supply_temp_c", supplyTempC, fieldRange(kKind, "supply_temp_c"));
        v.quantity("delta_t_k", deltaT, fieldRange(kKind, "delta_t_k"));
        v.catalogRef("plant", plant, "cooling");
        v.points("cdus", cdus);
    }
};

} // namespace ctwin::model
