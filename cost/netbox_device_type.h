#pragma once
// NetBox device types in the netbox-community devicetype-library YAML format: read a
// library file, turn mapped device types into a user catalog overlay (data/FORMAT.md §8.4), and write a
// catalog switch back as a device-type file. The format follows the library's JSON schema
// (schema/devicetype.json, components.json and generated_schema.json, read 2026-12-07): top-level keys
// manufacturer, model, slug, u_height and is_full_depth required, no other keys than the schema's; weight
// needs weight_unit (kg, g, lb, oz); power ports need name and type, their maximum_draw and allocated_draw
// are whole watts >= 1. Pure C++ (yaml-cpp); no Qt.
#include "catalog.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost::netbox {

/// Bounds on what a device-type file may hold (README "Limits"): the file's bytes (a library file is a few
/// kB; the largest chassis with every interface listed stays under 1 MiB), the entries of each component
/// list and the files one import reads.
inline constexpr std::uint64_t kMaxDeviceTypeFileBytes = 1ull << 20;
inline constexpr size_t kMaxDeviceTypeComponents = 10000;
inline constexpr size_t kMaxDeviceTypeFiles = 1000;

/// The fields ClusterTwin reads from a device type; the component lists are checked and counted only.
struct DeviceType {
    std::string file; // where it was read from (messages, overlay sources)
    std::string manufacturer, model, slug, partNumber, airflow, comments;
    std::string coolingMethod; // NetBox 4.7: air, liquid, hybrid or immersion; empty when not given
    double uHeight = 0;
    bool fullDepth = true;
    bool powered = true;            // is_powered (false: a passive device, draw 0)
    std::optional<double> weightKg; // weight converted from weight_unit
    double maximumDrawW = 0;        // sum of the power ports' maximum_draw
    double allocatedDrawW = 0;      // sum of the power ports' allocated_draw
    int powerPorts = 0, portsWithMaximum = 0, portsWithAllocated = 0;
    size_t interfaces = 0;
    /// The draw ClusterTwin uses: the allocated draw when any port states one (NetBox's expected draw),
    /// else the maximum; 0 when neither is given or the device is not powered.
    double drawW() const;
    /// "allocated" or "maximum": which sum drawW() is.
    const char* drawBasis() const;
};

/// Parses one device-type YAML document. Errors are model::InputError naming `file`, the device type
/// (its slug, else its model, else "?") and the field, with the YAML line where the parser gives one.
DeviceType parseDeviceType(const std::string& yamlText, const std::string& file);
/// Reads and parses a file (bounded by kMaxDeviceTypeFileBytes; model::readInputFile's checks).
DeviceType readDeviceTypeFile(const std::string& path);

/// Result of turning device types into a catalog overlay.
struct DeviceTypeOverlay {
    nlohmann::ordered_json overlay; // data/FORMAT.md §8.4, checked against the catalog
    std::vector<std::string> log;   // every mapping made and every device type left out, with why
};

/// Maps each device type to a catalog item and writes the values it carries. `mapping` (may be null):
/// {"device_types": {"<slug>": {"item": "<catalog id>", "per_item": N}}}; without an entry a device type
/// maps to the catalog item whose id is its slug. A switch item takes rack_units <- u_height and power_w <-
/// drawW(); a compute rack takes power_load_w <- per_item x drawW() (per_item defaults to the rack's
/// `servers`). Other items are refused with a message; unmapped device types are logged and left out.
/// Each value's source names the device type, its file and the arithmetic; low/high are the item's range
/// widened to hold the value. The overlay is applied to `catalog` before it is returned, so a value the
/// catalog schema refuses is an InputError here, not later.
DeviceTypeOverlay deviceTypeOverlay(const std::vector<DeviceType>& types, const model::Catalog& catalog,
                                    const nlohmann::json* mapping, const std::string& mappingFile);

/// A catalog switch as a device-type YAML document: model = the item's name, slug = its id, u_height =
/// rack_units, one power port (type "other": the catalog does not know the connector) whose maximum_draw is
/// power_w rounded to whole watts, is_full_depth true, manufacturer "Generic" unless the item has a
/// `manufacturer` attribute. Any other item kind is an InputError naming it.
std::string deviceTypeYaml(const model::CatalogItem& item);

} // namespace ctwin::cost::netbox
