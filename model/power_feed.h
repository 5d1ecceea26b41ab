#pragma once
#include <optional>
#include <string>
#include <vector>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// One power path (A or B) from the utility through the chain of gear to the rows it serves.
struct PowerFeed {
    static constexpr EntityKind kKind = EntityKind::PowerFeed;
    std::string id;
    std::string name;
    std::string building;
    units::Power capacity{};
    /// Catalog ids of the power gear in order from the utility (transformer, switchgear, UPS, busway).
    std::vector<std::string> chain;
    /// Oversubscription ratio of this power domain: the working compute racks it feeds,
    /// full-load draw over the power provisioned for them on this path; absent: the ratio of the domain
    /// above (its building's, site's or the design's). A rack takes the tightest domain above it, its A and
    /// B feeds included (cost/power_envelope.h).
    std::optional<double> powerOversubscriptionRatio;

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.ref("building", building, EntityRef{EntityKind::Building, false});
        v.quantity("capacity_w", capacity, fieldRange(kKind, "capacity_w"));
        v.catalogRefList("chain", chain, "power");
        v.optionalNumber("power_oversubscription_ratio", powerOversubscriptionRatio,
                         fieldRange(kKind, "power_oversubscription_ratio"));
    }
};

} // namespace ctwin::model
