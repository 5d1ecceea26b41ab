#pragma once
// NetBox interchange: the design as NetBox bulk-import files and REST request bodies,
// and a design from a folder of saved NetBox REST API responses. In cost/ for the one CSV cell writer
// (cost/csv_cell.h): names and comments are text cells, neutralised against formula injection like every CSV
// ClusterTwin writes, numbers are number cells.
//
// Field names follow NetBox 4.6 (netbox-community/netbox 4.6.8: netbox/dcim/forms/bulk_import.py for the CSV
// columns, netbox/dcim/api/serializers_/ for the API objects) and, for the cooling objects, NetBox 4.7.0
// (branch `feature` at d7f79bd; cost/netbox_cooling.h). NetBox has no rows, no floor coordinates and no feed
// capacities, so the mapping is:
//   site -> dcim/sites; building, hall and row -> nested dcim/locations (depth 0, 1, 2); rack -> dcim/racks
//   (facility_id = the rack's id, rack_type = its catalog rack type); catalog rack types -> dcim/rack-types;
//   power feed -> dcim/power-panels (one panel per feed), and per rack one dcim/power-feeds entry per side
//   (type primary for feed A, redundant for feed B); cooling loop -> dcim/cooling-sources (in its hall) and
//   per rack on it one dcim/cooling-feeds entry (4.7).
// What NetBox has no field for (coordinates, capacities, the feed's chain, a loop's CDUs, site economics)
// travels as one line `clustertwin: {JSON}` in the object's `comments`, so export -> import keeps every
// mapped field; objects without that line (a NetBox that ClusterTwin never wrote) are laid out and sized by
// the rules importNetBoxFolder states, and each such choice is written to the import log.
#include "catalog.h"
#include "project.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ctwin::cost::netbox {

using model::Catalog;
using model::Project;

/// The NetBox release whose field names the export follows unless told otherwise: 4.7 (cooling sources and
/// feeds, rack-type cooling capability and capacity). "4.6", the release before, has no cooling objects:
/// its export carries the loops on their halls' `clustertwin:` lines instead. The import reads both.
inline constexpr const char* kNetBoxVersion = "4.7";
inline bool isSupportedNetBoxVersion(const std::string& v) {
    return v == "4.6" || v == "4.7";
}

/// Bounds on what an import reads (README "Limits"): one saved page, page files per object type, objects per
/// type, and the `clustertwin:` comment line.
inline constexpr std::uint64_t kMaxPageFileBytes = 64ull << 20;
inline constexpr std::size_t kMaxPagesPerType = 10000;
inline constexpr std::size_t kMaxObjectsPerType = 2'000'000;
inline constexpr std::size_t kMaxTagBytes = 64 * 1024;

/// One file of an export: its name inside the export folder and its text.
struct ExportFile {
    std::string name;
    std::string text;
};

/// The design as NetBox bulk-import CSV files, numbered in dependency order (manufacturers, sites,
/// locations, rack types, racks, power panels, power feeds), plus netbox-request-bodies.json: the same
/// objects as REST API request bodies whose related objects are named by slug or name (NetBox resolves a
/// nested object given as a dictionary of its attributes), in the order to post them. Slugs are the ids with
/// every character outside [-a-zA-Z0-9_] replaced by '-'; a location, rack or panel name used twice in one
/// site gets " [slug]" appended (the CSV import finds related objects by name within the site), which the
/// import strips again.
/// For NetBox 4.7 (the default) also 08-cooling-sources.csv (one source per cooling loop, in its hall) and
/// 09-cooling-feeds.csv (one feed per rack on a loop, rated at the rack's liquid heat with the flow that
/// carries it, in L/min), and rack types with cooling_capability and cooling_capacity. Another version than
/// 4.6 or 4.7: InputError.
std::vector<ExportFile> exportNetBox(const Project& project, const Catalog& catalog,
                                     const std::string& netboxVersion = kNetBoxVersion);

/// Writes the export into `folder` (created when missing); every file is replaced atomically and all texts
/// are built before the first is written. Throws InputError naming the file that cannot be written.
void writeNetBoxExport(const std::string& folder, const std::vector<ExportFile>& files);

/// The result of an import: a design of the physical layout, and one line per choice or object the import
/// could not map.
struct ImportResult {
    Project project;
    std::vector<std::string> log;
};

/// Reads saved REST API list responses (`{"count": N, "next": ..., "results": [...]}`) from `folder`:
/// dcim/sites, dcim/locations, dcim/rack-types, dcim/racks, dcim/power-panels, dcim/power-feeds,
/// dcim/devices, dcim/device-types, dcim/cooling-sources and dcim/cooling-feeds (NetBox 4.7: cooling loops
/// as netbox_cooling.h says), each as `dcim/<type>.json` or as the pages of a folder
/// `dcim/<type>/` read in name order (pagination); sites and racks are required, the rest optional.
/// Rack types (or, for a rack without one, its devices' type) map to catalog racks by slug through
/// `mappingFile` (JSON `{"rack_types": {"netbox-slug": "catalog-id"}}`; empty = FOLDER/netbox-mapping.json
/// when there is one, else slugs equal to catalog ids). Locations without a parent are buildings, their
/// children halls, theirs rows; racks directly in a hall go to one row per hall, racks in a building or
/// without a location to an "Imported" hall; racks without coordinates are placed side by side along their
/// row. A rack whose type maps to nothing is left out and logged. Malformed JSON, a page that is not a list
/// response, a count that disagrees with the results, an object referring to a site, location, panel or rack
/// that is not in the files, or a slug used twice: InputError naming the file, the object and the field;
/// nothing is returned half-imported.
ImportResult importNetBoxFolder(const std::string& folder, const Catalog& catalog,
                                const std::string& mappingFile = {});

/// Slug of an id as the export writes it (see exportNetBox).
std::string slugOf(const std::string& id);

} // namespace ctwin::cost::netbox
