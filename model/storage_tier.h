#pragma once
#include <string>

#include "field_traits.h"
#include "units.h"

namespace ctwin::model {

/// A storage system of a catalog type (local NVMe, parallel file system, object store) in a building.
struct StorageTier {
    static constexpr EntityKind kKind = EntityKind::StorageTier;
    std::string id;
    std::string name;
    std::string type;
    std::string building;
    units::Bytes capacity{};

    template <class V> void visitFields(V& v) {
        v.text("id", id);
        v.text("name", name);
        v.catalogRef("type", type, "storage");
        v.ref("building", building, EntityRef{EntityKind::Building, false});
        v.quantity("capacity_bytes", capacity, fieldRange(kKind, "capacity_bytes"));
    }
};

} // namespace ctwin::model
