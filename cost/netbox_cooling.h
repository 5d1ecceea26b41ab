#pragma once
// NetBox 4.7's cooling objects in the import (netbox_import_cooling.cpp): dcim/cooling-sources become
// cooling loops and dcim/cooling-feeds say which loop each rack is on. Field names follow NetBox 4.7.0
// (netbox-community/netbox branch `feature` at d7f79bd, 2026-08-20: netbox/dcim/models/cooling.py and
// netbox/dcim/api/serializers_/cooling.py):
//   CoolingSource: site, location (optional), name (unique in its site), type (chiller | cooling-tower |
//     dry-cooler | crac | crah), status, fluid_type (water | water-glycol | dielectric | refrigerant),
//     cooling_capacity (kW, total rated).
//   CoolingFeed: cooling_source, rack (optional), name, status, cooling_capacity (kW, rated), max_flow and
//     max_flow_unit (lpm | m3ph | gpm); one feed is the whole loop to its rack, supply and return.
#include "catalog.h"
#include "netbox_json.h"
#include "project.h"

#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctwin::cost::netbox::detail {

/// What the cooling step reads from and adds to the rest of the import.
struct CoolingImportContext {
    const model::Catalog& catalog;
    model::Project& project;
    std::vector<std::string>& log;
    /// ClusterTwin ids in use; the loops' ids are added.
    std::set<std::string>& ids;
    /// An object's NetBox site and location (-1 = none), checked against the files.
    std::function<std::pair<long long, long long>(const nlohmann::json&, const std::string&, const char*)>
        placeOf;
    /// The hall id a NetBox location is or lies in; empty for a building-level location.
    std::function<std::string(long long)> hallOfLocation;
    /// NetBox rack id -> index in project.racks (racks left out are absent), and every rack id in the files.
    const std::unordered_map<long long, size_t>& rackIndex;
    const std::set<long long>& netboxRacks;
    /// NetBox rack id -> NetBox site id, for every rack in the files.
    const std::unordered_map<long long, long long>& rackSite;
};

/// A cooling loop from the fields a ClusterTwin export wrote on a cooling source's `clustertwin:` line (or,
/// NetBox 4.6 and earlier, in a hall's line's `cooling_loops`), in `hall`.
model::CoolingLoop coolingLoopFromTag(const nlohmann::json& fields, const std::string& hall);

/// Reads the cooling sources and feeds into loops and racks' `coolingLoop`.
///  - A source with a `clustertwin:` line (a ClusterTwin export) becomes exactly the loop it carries, in the
///    hall of its location.
///  - A source without one becomes one loop per hall it serves (its location's hall, and the halls of the
///    racks its feeds reach), named after it; each loop is sized by the rules in liquid_loop.h for its racks'
///    liquid heat (catalog power_load_w × liquid_fraction; a source in a hall with no racks fed: its
///    cooling_capacity), N+1, with the catalog CDU of least total price, the catalog plant of the source's
///    type, and the model's default supply temperature and rise; each choice is logged.
///  - CRAC and CRAH sources are room air cooling, which the engine counts per hall from the racks' air heat:
///    logged and left out, with their feeds.
///  - A feed's rack joins its source's loop (a feed names the truth: it overrides a rack's own line). A rack
///    fed by two sources stays on the first; feeds without a rack, feeds rated below their rack's liquid
///    heat and sources rated below their racks' heat are logged.
/// A feed whose source or rack is not in the files, a rack in another site than its source, an unknown
/// source type or a negative capacity: InputError naming the file, the object and the field.
void importCooling(const Objects& sources, const Objects& feeds, CoolingImportContext& context);

} // namespace ctwin::cost::netbox::detail
