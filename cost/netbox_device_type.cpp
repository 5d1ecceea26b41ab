#include "netbox_device_type.h"

#include "catalog_overlay.h"
#include "format_number.h"
#include "input_error.h"
#include "input_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <regex>
#include <set>
#include <yaml-cpp/yaml.h>

namespace ctwin::cost::netbox {

namespace {

using model::InputError;
using model::InputLocation;

/// Keys of schema/devicetype.json (additionalProperties: false). The component lists are checked for shape
/// and size only.
const std::set<std::string> kTopLevelKeys = {"manufacturer", "model",           "slug",
                                             "part_number",  "u_height",        "is_full_depth",
                                             "airflow",      "weight",          "weight_unit",
                                             "front_image",  "rear_image",      "subdevice_role",
                                             "is_powered",   "console-ports",   "console-server-ports",
                                             "power-ports",  "power-outlets",   "interfaces",
                                             "front-ports",  "rear-ports",      "module-bays",
                                             "device-bays",  "inventory-items", "description",
                                             "comments",     "cooling_method"};
const std::set<std::string> kComponentLists = {
    "console-ports", "console-server-ports", "power-ports", "power-outlets", "interfaces",
    "front-ports",   "rear-ports",           "module-bays", "device-bays",   "inventory-items"};
/// generated_schema.json: airflow and weight-unit enums; the unit factors to kilograms are exact (the
/// avoirdupois pound is 0.45359237 kg by the 1959 international agreement, the ounce 1/16 of it).
const std::set<std::string> kAirflows = {"front-to-rear", "rear-to-front", "left-to-right", "right-to-left",
                                         "side-to-rear",  "passive",       "mixed"};
/// NetBox 4.7's DeviceType.cooling_method (dcim/choices.py CoolingMethodChoices, branch `feature` d7f79bd).
const std::set<std::string> kCoolingMethods = {"air", "liquid", "hybrid", "immersion"};
double kilogramsPer(const std::string& unit) {
    if (unit == "kg") return 1.0;
    if (unit == "g") return 1e-3;
    if (unit == "lb") return 0.45359237;
    if (unit == "oz") return 0.45359237 / 16.0;
    return 0.0;
}

class Reader {
public:
    Reader(const std::string& file) : m_file(file) {}

    [[noreturn]] void fail(const std::string& field, const std::string& problem,
                           const YAML::Node* at = nullptr) const {
        std::string where = problem;
        if (at && at->Mark().line >= 0) where += " (line " + std::to_string(at->Mark().line + 1) + ")";
        throw InputError(InputLocation{m_file, "NetBox device type", m_id, m_name, field}, where);
    }

    std::string text(const YAML::Node& root, const char* key, bool required, size_t maxLength) {
        const YAML::Node n = root[key];
        if (!n) {
            if (required) fail(key, "is missing (the devicetype-library schema requires it)");
            return {};
        }
        if (!n.IsScalar()) fail(key, "expected a text value", &n);
        const std::string s = n.Scalar();
        if (s.size() > maxLength) fail(key, "longer than " + std::to_string(maxLength) + " characters", &n);
        return s;
    }

    double number(const YAML::Node& n, const std::string& field, double lo, double hi) const {
        double v = 0;
        if (!n.IsScalar() || !YAML::convert<double>::decode(n, v) || !std::isfinite(v))
            fail(field,
                 "expected a number, not '" + (n.IsScalar() ? n.Scalar() : std::string("a list or map")) +
                     "'",
                 &n);
        if (v < lo || v > hi)
            fail(field, "outside " + model::formatNumber(lo) + ".." + model::formatNumber(hi), &n);
        return v;
    }

    bool boolean(const YAML::Node& n, const std::string& field) const {
        bool b = false;
        if (!n.IsScalar() || !YAML::convert<bool>::decode(n, b)) fail(field, "expected true or false", &n);
        return b;
    }

    void identify(const std::string& slug, const std::string& model) { m_id = slug, m_name = model; }

private:
    std::string m_file, m_id = "?", m_name;
};

/// Power ports: each a map with name and type; maximum_draw and allocated_draw whole watts >= 1 (a 2 MW
/// bound stops a typo); allocated <= maximum where both are given.
void readPowerPorts(Reader& r, const YAML::Node& ports, DeviceType& d) {
    for (size_t i = 0; i < ports.size(); ++i) {
        const YAML::Node p = ports[i];
        const std::string field = "power-ports[" + std::to_string(i) + "]";
        if (!p.IsMap()) r.fail(field, "expected a map with name and type", &p);
        if (!p["name"] || !p["type"])
            r.fail(field, "needs name and type (the devicetype-library schema)", &p);
        double maximum = 0;
        if (const YAML::Node m = p["maximum_draw"]) {
            maximum = r.number(m, field + ".maximum_draw", 1, 2e6);
            if (maximum != std::floor(maximum)) r.fail(field + ".maximum_draw", "expected whole watts", &m);
            d.maximumDrawW += maximum, ++d.portsWithMaximum;
        }
        if (const YAML::Node a = p["allocated_draw"]) {
            const double allocated = r.number(a, field + ".allocated_draw", 1, 2e6);
            if (allocated != std::floor(allocated))
                r.fail(field + ".allocated_draw", "expected whole watts", &a);
            if (maximum > 0 && allocated > maximum)
                r.fail(field + ".allocated_draw",
                       "is above the port's maximum_draw (" + model::formatNumber(maximum) + " W)", &a);
            d.allocatedDrawW += allocated, ++d.portsWithAllocated;
        }
        ++d.powerPorts;
    }
}

} // namespace

double DeviceType::drawW() const {
    if (!powered) return 0.0;
    return portsWithAllocated > 0 ? allocatedDrawW : maximumDrawW;
}

const char* DeviceType::drawBasis() const {
    return portsWithAllocated > 0 ? "allocated" : "maximum";
}

DeviceType parseDeviceType(const std::string& yamlText, const std::string& file) {
    Reader r(file);
    YAML::Node root;
    try {
        root = YAML::Load(yamlText);
    } catch (const YAML::Exception& e) {
        // ParserException and the depth guard's DeepRecursion: the message carries the line and column.
        r.fail("", std::string("not YAML: ") + e.what());
    }
    if (!root.IsMap()) r.fail("", "not a device type: the document is not a mapping of fields");
    DeviceType d;
    d.file = file;
    d.slug = r.text(root, "slug", true, 100);
    d.model = r.text(root, "model", true, 100);
    r.identify(d.slug, d.model);
    for (const auto& kv : root) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
        if (!kTopLevelKeys.count(key))
            r.fail(key, "is not a device-type field (a module type, rack type or other file?)", &kv.first);
    }
    static const std::regex slugPattern("^[-a-z0-9_]+$");
    if (!std::regex_match(d.slug, slugPattern))
        r.fail("slug", "may hold only lower-case letters, digits, '-' and '_'");
    d.manufacturer = r.text(root, "manufacturer", true, 100);
    d.partNumber = r.text(root, "part_number", false, 50);
    d.comments = r.text(root, "comments", false, 100000);
    if (!root["u_height"]) r.fail("u_height", "is missing (the devicetype-library schema requires it)");
    d.uHeight = r.number(root["u_height"], "u_height", 0, 100);
    if (std::fmod(d.uHeight, 0.5) != 0.0) r.fail("u_height", "must be a multiple of 0.5 U");
    if (!root["is_full_depth"])
        r.fail("is_full_depth", "is missing (the devicetype-library schema requires it)");
    d.fullDepth = r.boolean(root["is_full_depth"], "is_full_depth");
    if (root["is_powered"]) d.powered = r.boolean(root["is_powered"], "is_powered");
    if (root["airflow"]) {
        d.airflow = r.text(root, "airflow", false, 32);
        if (!kAirflows.count(d.airflow)) r.fail("airflow", "'" + d.airflow + "' is not a NetBox airflow");
    }
    if (root["cooling_method"]) {
        d.coolingMethod = r.text(root, "cooling_method", false, 32);
        if (!kCoolingMethods.count(d.coolingMethod))
            r.fail("cooling_method", "'" + d.coolingMethod + "' is not air, liquid, hybrid or immersion");
    }
    if (root["weight"] || root["weight_unit"]) {
        if (!root["weight"] || !root["weight_unit"]) r.fail("weight", "weight and weight_unit go together");
        const std::string unit = r.text(root, "weight_unit", true, 8);
        if (kilogramsPer(unit) == 0) r.fail("weight_unit", "'" + unit + "' is not kg, g, lb or oz");
        d.weightKg = r.number(root["weight"], "weight", 0, 1e7) * kilogramsPer(unit);
        if (*d.weightKg > 20000) r.fail("weight", "above 20 t: not one device");
    }
    for (const auto& list : kComponentLists) {
        const YAML::Node n = root[list];
        if (!n) continue;
        if (!n.IsSequence()) r.fail(list, "expected a list", &n);
        if (n.size() > kMaxDeviceTypeComponents)
            r.fail(list, "holds more than " + std::to_string(kMaxDeviceTypeComponents) + " entries");
    }
    if (const YAML::Node ports = root["power-ports"]) readPowerPorts(r, ports, d);
    if (const YAML::Node ifs = root["interfaces"]) d.interfaces = ifs.size();
    return d;
}

DeviceType readDeviceTypeFile(const std::string& path) {
    return parseDeviceType(model::readInputFile(path, kMaxDeviceTypeFileBytes, "device-type file"), path);
}

namespace {

/// {base, low, high, source} with the item's range widened to hold the value.
nlohmann::ordered_json overlayValue(const model::CatalogItem& item, const std::string& field, double v,
                                    const std::string& source) {
    const auto* own = item.find(field);
    nlohmann::ordered_json j;
    j["base"] = v;
    j["low"] = own ? std::min(own->low, v) : v;
    j["high"] = own ? std::max(own->high, v) : v;
    j["source"] = source;
    return j;
}

/// Whole watts in full (the schema's draws are integers; a 1 MW rack is not written 1e+06).
std::string watts(double w) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f W", w);
    return buf;
}

} // namespace

DeviceTypeOverlay deviceTypeOverlay(const std::vector<DeviceType>& types, const model::Catalog& catalog,
                                    const nlohmann::json* mapping, const std::string& mappingFile) {
    DeviceTypeOverlay out;
    out.overlay = {{"format", kCatalogOverlayFormat},
                   {"schema_version", kCatalogOverlaySchemaVersion},
                   {"items", nlohmann::ordered_json::array()}};
    const auto mapError = [&](const std::string& slug, const std::string& problem) {
        return InputError(InputLocation{mappingFile, "device-type mapping", slug, "", "device_types"},
                          problem);
    };
    const nlohmann::json* entries = nullptr;
    if (mapping) {
        if (!mapping->is_object() || !mapping->contains("device_types") ||
            !(*mapping)["device_types"].is_object())
            throw mapError("", "expected {\"device_types\": {\"<slug>\": {\"item\": \"<catalog id>\"}}}");
        entries = &(*mapping)["device_types"];
    }
    std::set<std::string> seen;
    for (const auto& d : types) {
        if (!seen.insert(d.slug).second)
            throw InputError(InputLocation{d.file, "NetBox device type", d.slug, d.model, "slug"},
                             "the slug is given by two files; each device type maps once");
        std::string itemId = d.slug;
        double perItem = 0;
        if (entries && entries->contains(d.slug)) {
            const auto& e = (*entries)[d.slug];
            if (!e.is_object() || !e.contains("item") || !e["item"].is_string())
                throw mapError(d.slug, "expected {\"item\": \"<catalog id>\", \"per_item\": N}");
            itemId = e["item"].get<std::string>();
            if (e.contains("per_item")) {
                if (!e["per_item"].is_number() || !(e["per_item"].get<double>() >= 1) ||
                    e["per_item"].get<double>() > 10000)
                    throw mapError(d.slug, "per_item must be a number from 1 to 10,000");
                perItem = e["per_item"].get<double>();
            }
        }
        const auto* item = catalog.find(itemId);
        if (!item) {
            out.log.push_back("left out " + d.slug + " (" + d.file + "): no catalog item '" + itemId +
                              "' (map it in the mapping file)");
            continue;
        }
        const std::string what =
            "NetBox device type '" + d.manufacturer + " " + d.model + "' (" + d.slug + ") in " + d.file;
        nlohmann::ordered_json values = nlohmann::ordered_json::object();
        const double draw = d.drawW();
        const std::string drawText = std::string(d.drawBasis()) + " draw " + watts(draw) + " summed over " +
                                     std::to_string(d.powerPorts) + " power port" +
                                     (d.powerPorts == 1 ? "" : "s");
        if (item->category == "switches") {
            if (d.uHeight > 0)
                values["rack_units"] = overlayValue(*item, "rack_units", d.uHeight, what + ": u_height");
            if (draw > 0) values["power_w"] = overlayValue(*item, "power_w", draw, what + ": " + drawText);
        } else if (item->category == "racks" && item->kind == "compute") {
            const double n = perItem > 0 ? perItem : item->find("servers") ? item->value("servers") : 1.0;
            if (draw > 0)
                values["power_load_w"] =
                    overlayValue(*item, "power_load_w", n * draw,
                                 what + ": " + drawText + " x " + model::formatNumber(n) + " per rack");
            // An air-cooled server puts no heat into liquid; a liquid-cooled one's share is not in the
            // device type, so a catalog rack without one is logged rather than given a made-up share.
            const double liquid = item->find("liquid_fraction") ? item->value("liquid_fraction") : 0.0;
            if (d.coolingMethod == "air" && liquid > 0)
                values["liquid_fraction"] =
                    overlayValue(*item, "liquid_fraction", 0.0, what + ": cooling_method air");
            else if (!d.coolingMethod.empty() && d.coolingMethod != "air" && liquid <= 0)
                out.log.push_back("note " + d.slug + ": cooling_method " + d.coolingMethod + " but " +
                                  itemId +
                                  " has liquid_fraction 0 (air-cooled); set its liquid share in an overlay");
        } else {
            throw mapError(d.slug, "maps to '" + itemId + "', a " + item->category +
                                       " item: only switches and compute racks take device-type values");
        }
        if (values.empty()) {
            out.log.push_back("left out " + d.slug + " (" + d.file + "): no u_height or power draw to carry");
            continue;
        }
        std::string fields;
        for (const auto& [k, v] : values.items())
            fields += (fields.empty() ? "" : ", ") + k + " " + model::formatNumber(v["base"].get<double>());
        out.log.push_back("mapped " + d.slug + " -> " + itemId + ": " + fields +
                          (d.powerPorts > 1 && d.portsWithAllocated == 0
                               ? " (maximum draw summed over redundant supplies overstates the load: set "
                                 "allocated_draw on the ports to the share each carries)"
                               : ""));
        out.overlay["items"].push_back({{"id", itemId}, {"values", values}});
    }
    // The catalog schema checks every value (ranges, sources) as it would when the overlay is loaded.
    applyCatalogOverlay(catalog, nlohmann::json(out.overlay), "device-type overlay");
    return out;
}

std::string deviceTypeYaml(const model::CatalogItem& item) {
    if (item.category != "switches")
        throw InputError(InputLocation{"", "catalog item", item.id, item.name, ""},
                         "is in the catalog's " + item.category +
                             ", not its switches: only switches are written as NetBox device types");
    std::string slug = item.id;
    std::transform(slug.begin(), slug.end(), slug.begin(), [](unsigned char c) {
        return std::isalnum(c) ? static_cast<char>(std::tolower(c)) : c == '_' ? '_' : '-';
    });
    YAML::Emitter y;
    y << YAML::BeginMap;
    y << YAML::Key << "manufacturer" << YAML::Value
      << (item.attribute("manufacturer").empty() ? std::string("Generic") : item.attribute("manufacturer"));
    y << YAML::Key << "model" << YAML::Value << (item.name.empty() ? item.id : item.name);
    y << YAML::Key << "slug" << YAML::Value << slug;
    if (const auto* u = item.find("rack_units")) y << YAML::Key << "u_height" << YAML::Value << u->base;
    y << YAML::Key << "is_full_depth" << YAML::Value << true;
    y << YAML::Key << "comments" << YAML::Value
      << "Written by ClusterTwin from catalog item " + item.id + "; power from its power_w (" +
             (item.find("power_w") ? item.find("power_w")->source : std::string("none")) + ")";
    if (const auto* p = item.find("power_w"); p && p->base >= 1) {
        y << YAML::Key << "power-ports" << YAML::Value << YAML::BeginSeq << YAML::BeginMap;
        y << YAML::Key << "name" << YAML::Value << "PSU";
        y << YAML::Key << "type" << YAML::Value << "other";
        y << YAML::Key << "maximum_draw" << YAML::Value << static_cast<long long>(std::llround(p->base));
        y << YAML::EndMap << YAML::EndSeq;
    }
    y << YAML::EndMap;
    return std::string("---\n") + y.c_str() + "\n";
}

} // namespace ctwin::cost::netbox
