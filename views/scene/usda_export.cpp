#include "usda_export.h"

#include "atomic_write.h"
#include "campus_scene_builder.h"
#include "catalog.h"
#include "evaluate.h"
#include "project.h"
#include "usd_prim_names.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ctwin::views {

namespace {

/// Text of a USDA layer, appended to one string (a 14,000-rack campus is a few MB; no stream overhead).
class UsdaText {
public:
    std::string out;

    void indent(int depth) { out.append(static_cast<std::size_t>(depth) * 4, ' '); }

    void number(double v) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
    void numberF(float v) {
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out.append(buf, r.ptr);
    }
    void tuple(double a, double b, double c) {
        out += '(';
        number(a);
        out += ", ";
        number(b);
        out += ", ";
        number(c);
        out += ')';
    }
    /// A double-quoted USDA string: backslash, quote and control characters escaped (the USDA lexer's
    /// escapes are C's).
    void quoted(const std::string& s) {
        out += '"';
        for (const char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20 || c == 0x7f) {
                    static constexpr char kHex[] = "0123456789abcdef";
                    out += "\\x";
                    out += kHex[c >> 4];
                    out += kHex[c & 15];
                } else {
                    out += ch;
                }
            }
        }
        out += '"';
    }

    void openPrim(int depth, const char* specifier, const char* type, const std::string& name,
                  const std::string& metadata = {}) {
        indent(depth);
        out += specifier;
        out += ' ';
        out += type;
        out += " \"";
        out += name;
        out += '"';
        if (!metadata.empty()) {
            out += " (\n";
            out += metadata;
            indent(depth);
            out += ')';
        }
        out += '\n';
        indent(depth);
        out += "{\n";
    }
    void closePrim(int depth) {
        indent(depth);
        out += "}\n";
    }

    void attrString(int depth, const std::string& name, const std::string& value) {
        indent(depth);
        out += "custom string ";
        out += name;
        out += " = ";
        quoted(value);
        out += '\n';
    }
    void attrDouble(int depth, const std::string& name, double value) {
        if (!std::isfinite(value)) return; // absent rather than a sentinel (SPEC §4)
        indent(depth);
        out += "custom double ";
        out += name;
        out += " = ";
        number(value);
        out += '\n';
    }
    void attrFloat(int depth, const std::string& name, double value) {
        if (!std::isfinite(value)) return;
        indent(depth);
        out += "custom float ";
        out += name;
        out += " = ";
        numberF(static_cast<float>(value));
        out += '\n';
    }
    void attrInt(int depth, const std::string& name, long long value) {
        indent(depth);
        out += "custom int ";
        out += name;
        out += " = ";
        out += std::to_string(value);
        out += '\n';
    }
    void attrBool(int depth, const std::string& name, bool value) {
        indent(depth);
        out += "custom bool ";
        out += name;
        out += value ? " = true\n" : " = false\n";
    }
    /// Placement to the micrometre: differences of world coordinates come out as 5.600000000000001 and -0,
    /// which help nobody reading the file.
    static double tidy(double v) {
        const double r = std::round(v * 1e6) / 1e6;
        return r == 0.0 ? 0.0 : r;
    }
    void translate(int depth, double x, double y, double z) {
        indent(depth);
        out += "double3 xformOp:translate = ";
        tuple(tidy(x), tidy(y), tidy(z));
        out += '\n';
    }
    void xformOpOrder(int depth, bool rotate) {
        indent(depth);
        out += rotate ? "uniform token[] xformOpOrder = [\"xformOp:translate\", \"xformOp:rotateZ\"]\n"
                      : "uniform token[] xformOpOrder = [\"xformOp:translate\"]\n";
    }
    /// displayColor is linear RGB (UsdGeomGprim); the scene's colours are 8-bit sRGB (IEC 61966-2-1
    /// decoding).
    void displayColor(int depth, const Rgb& c) {
        indent(depth);
        out += "color3f[] primvars:displayColor = [(";
        numberF(linear(c.r));
        out += ", ";
        numberF(linear(c.g));
        out += ", ";
        numberF(linear(c.b));
        out += ")]\n";
    }
    /// Rounded to 1/10000 so the text stays short; enough for 8-bit input.
    static float linear(std::uint8_t v) {
        const double s = v / 255.0;
        const double l = s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
        return static_cast<float>(std::round(l * 1e4) / 1e4);
    }
    /// Prim metadata: one `line` per entry, indented inside the prim's parentheses.
    static std::string primMetadata(int depth, std::initializer_list<std::string> lines) {
        std::string m;
        for (const auto& l : lines) {
            m.append(static_cast<std::size_t>(depth + 1) * 4, ' ');
            m += l;
            m += '\n';
        }
        return m;
    }

    /// A unit cube (UsdGeomCube, size 1) scaled to w x d x h, its base centred on the parent's origin, or
    /// with `corner` its minimum corner there; optional opacity (the shell must not hide the racks).
    /// Without `color` the box takes the displayColor its ancestors give (an instance's own colour).
    void box(int depth, const std::string& name, double w, double d, double h, bool corner,
             std::optional<Rgb> color, double opacity = 1.0) {
        openPrim(depth, "def", "Cube", name);
        indent(depth + 1);
        out += "double size = 1\n";
        indent(depth + 1);
        out += "float3[] extent = [(-0.5, -0.5, -0.5), (0.5, 0.5, 0.5)]\n";
        if (color) displayColor(depth + 1, *color);
        if (opacity < 1.0) {
            indent(depth + 1);
            out += "float[] primvars:displayOpacity = [";
            numberF(static_cast<float>(opacity));
            out += "]\n";
        }
        translate(depth + 1, corner ? w / 2 : 0.0, corner ? d / 2 : 0.0, h / 2);
        indent(depth + 1);
        out += "float3 xformOp:scale = ";
        tuple(w, d, h);
        out += '\n';
        indent(depth + 1);
        out += "uniform token[] xformOpOrder = [\"xformOp:translate\", \"xformOp:scale\"]\n";
        closePrim(depth);
    }
};

double catalogBase(const model::CatalogItem* item, const char* field) {
    if (!item) return std::nan("");
    const auto* v = item->find(field);
    return v ? v->base : std::nan("");
}

/// "power.buildings.b-1.pue" -> "clustertwin:figure:power:buildings:b_1:pue".
std::string figureAttribute(const std::string& key) {
    std::string name = "clustertwin:figure";
    std::size_t start = 0;
    while (start <= key.size()) {
        const auto dot = key.find('.', start);
        const std::string part =
            key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        name += ':';
        name += UsdPrimNames::sanitize(part, "_");
        if (dot == std::string::npos) break;
        start = dot + 1;
    }
    return name;
}

struct Origin {
    double x = 0.0, y = 0.0;
};

constexpr Rgb kShellColor = Rgb::fromHex(0xb8c2cc);
constexpr Rgb kFloorColor = Rgb::fromHex(0x7d8790);
constexpr Rgb kCduColor = Rgb::fromHex(0x8fb8de);

/// Everything one export shares: the design, its scene, the text being written and the indexes built
/// along the way.
struct CampusExport {
    CampusExport(const SceneSource& s, const model::Project& proj, const model::Catalog& cat,
                 const CampusSceneData& sc)
        : source(s), p(proj), catalog(cat), scene(sc) {}

    const SceneSource& source;
    const model::Project& p;
    const model::Catalog& catalog;
    const CampusSceneData& scene;
    UsdaExportCounts counts;
    UsdPrimNames names;
    UsdaText t;
    std::unordered_map<std::string, std::string> rackAsset, cduAsset; // catalog id -> asset path
    std::unordered_map<std::string, const model::CoolingLoop*> loopById;
    std::unordered_map<std::string, const BoxShape*> buildingBox, hallBox;
    std::vector<std::vector<std::size_t>> buildingsOfSite;
    std::unordered_map<std::string, std::vector<std::size_t>> hallsOfBuilding, rowsOfHall, racksOfRow,
        cdusOfHall;
    std::unordered_map<std::string, const cost::BuildingPower*> buildingPower;
    std::unordered_map<std::string, const cost::LoopBom*> loopBom;
};

/// Writes the layer header and opens /Campus with its design-level attributes and result figures.
void writeLayerHeader(CampusExport& e) {
    const model::Project& p = e.p;
    UsdaText& t = e.t;
    t.out += "#usda 1.0\n(\n    defaultPrim = \"Campus\"\n    doc = ";
    t.quoted("ClusterTwin campus: " + (p.info.name.empty() ? p.info.id : p.info.name) +
             ". Sites, buildings, halls, rows, racks and CDUs in metres, Z up; racks and CDUs instance one "
             "asset per catalog type (/Campus/Assets); SimReady AIF-Entity attributes (aif:) on the assets, "
             "ClusterTwin's own (clustertwin:, SI units) everywhere.");
    t.out += "\n    metersPerUnit = 1\n    upAxis = \"Z\"\n)\n\n";

    t.openPrim(0, "def", "Xform", "Campus", UsdaText::primMetadata(0, {"kind = \"assembly\""}));
    t.attrString(1, "clustertwin:designId", p.info.id);
    t.attrString(1, "clustertwin:designName", p.info.name);
    std::size_t unplaced = 0;
    for (const auto& r : e.scene.racks)
        unplaced += r.placed ? 0 : 1;
    if (unplaced) t.attrInt(1, "clustertwin:unplacedRacks", static_cast<long long>(unplaced));
    if (e.source.results) {
        // One attribute per name: a key that sanitises like an earlier one keeps the first.
        std::unordered_set<std::string> written;
        for (const auto& f : e.source.results->figures)
            if (std::string name = figureAttribute(f.key); written.insert(name).second)
                t.attrDouble(1, name, f.value);
    }
}

/// Writes one asset prim per rack type under /Campus/Assets, recording each asset's path.
void writeRackAssets(CampusExport& e) {
    UsdaText& t = e.t;
    for (const auto& g : e.scene.rackGroups) {
        const std::string name = e.names.unique("/Campus/Assets", "Rack_" + g.rackType);
        e.rackAsset[g.rackType] = "/Campus/Assets/" + name;
        const auto* item = e.catalog.find(g.rackType);
        t.openPrim(2, "def", "Xform", name, UsdaText::primMetadata(2, {"kind = \"component\""}));
        // SimReady AIF-Entity (AM.002): "compute rack" is the class of compute racks; the profile defines
        // no class for network or storage racks, which carry clustertwin:kind only.
        if (item && item->kind == "compute") t.attrString(3, "aif:core:assetClass", "compute rack");
        t.attrString(3, "aif:core:modelNumber", item && !item->name.empty() ? item->name : g.rackType);
        t.attrFloat(3, "aif:core:width", g.width * 1000.0);
        t.attrFloat(3, "aif:core:depth", g.depth * 1000.0);
        t.attrFloat(3, "aif:core:height", g.height * 1000.0);
        t.attrFloat(3, "aif:core:weight", catalogBase(item, "weight_kg"));
        t.attrString(3, "clustertwin:catalogId", g.rackType);
        t.attrString(3, "clustertwin:kind", item ? item->kind : std::string("unknown"));
        t.attrDouble(3, "clustertwin:width_m", g.width);
        t.attrDouble(3, "clustertwin:depth_m", g.depth);
        t.attrDouble(3, "clustertwin:height_m", g.height);
        // Compute racks take DC power profiles in the AIF profile (its electrical feature applies to CDU,
        // CRAH and UPS only), so the rack's nominal power is ClusterTwin's own attribute.
        t.attrDouble(3, "clustertwin:powerLoad_w", catalogBase(item, "power_load_w"));
        t.attrDouble(3, "clustertwin:powerIdle_w", catalogBase(item, "power_idle_w"));
        t.attrDouble(3, "clustertwin:liquidFraction", catalogBase(item, "liquid_fraction"));
        t.attrDouble(3, "clustertwin:gpus", catalogBase(item, "gpus"));
        t.attrDouble(3, "clustertwin:price_usd", catalogBase(item, "price_usd"));
        // No colour of its own: each rack instance gives its power-density colour (primvar inheritance).
        t.box(3, "Body", g.width, g.depth, g.height, false, std::nullopt);
        t.closePrim(2);
        ++e.counts.rackAssets;
    }
}

/// Writes one asset prim per CDU type under /Campus/Assets (indexing loops by id on the way).
void writeCduAssets(CampusExport& e) {
    UsdaText& t = e.t;
    for (const auto& l : e.p.coolingLoops)
        e.loopById.emplace(l.id, &l);
    for (const auto& c : e.scene.cdus) {
        const auto* loop = e.loopById.at(c.loopId);
        if (e.cduAsset.count(loop->cduType)) continue;
        const std::string name = e.names.unique("/Campus/Assets", "CDU_" + loop->cduType);
        e.cduAsset[loop->cduType] = "/Campus/Assets/" + name;
        const auto* item = e.catalog.find(loop->cduType);
        t.openPrim(2, "def", "Xform", name, UsdaText::primMetadata(2, {"kind = \"component\""}));
        t.attrString(3, "aif:core:assetClass", "CDU");
        t.attrString(3, "aif:core:modelNumber", item && !item->name.empty() ? item->name : loop->cduType);
        t.attrFloat(3, "aif:core:width", c.width * 1000.0);
        t.attrFloat(3, "aif:core:depth", c.depth * 1000.0);
        t.attrFloat(3, "aif:core:height", c.height * 1000.0);
        // TC.001: rated cooling capacity, kW; EL.002: the CDU's electrical power rating, kW (its pumps).
        t.attrFloat(3, "aif:spec:nominalCoolingCapacity", catalogBase(item, "capacity_w") / 1e3);
        t.attrFloat(3, "aif:spec:powerRating", catalogBase(item, "pump_power_w") / 1e3);
        t.attrString(3, "clustertwin:catalogId", loop->cduType);
        t.attrDouble(3, "clustertwin:width_m", c.width);
        t.attrDouble(3, "clustertwin:depth_m", c.depth);
        t.attrDouble(3, "clustertwin:height_m", c.height);
        t.attrDouble(3, "clustertwin:capacity_w", catalogBase(item, "capacity_w"));
        t.attrDouble(3, "clustertwin:pumpPower_w", catalogBase(item, "pump_power_w"));
        t.attrDouble(3, "clustertwin:price_usd", catalogBase(item, "price_usd"));
        t.box(3, "Body", c.width, c.depth, c.height, false, kCduColor);
        t.closePrim(2);
        ++e.counts.cduAssets;
    }
}

/// Writes nothing: indexes who is where (boxes, children per parent, results per building and loop).
void indexCampus(CampusExport& e) {
    const model::Project& p = e.p;
    const CampusSceneData& scene = e.scene;
    for (const auto& b : scene.buildings)
        e.buildingBox.emplace(b.id, &b);
    for (const auto& h : scene.halls)
        e.hallBox.emplace(h.id, &h);
    std::unordered_map<std::string, std::size_t> siteIndex;
    for (std::size_t i = 0; i < p.sites.size(); ++i)
        siteIndex.emplace(p.sites[i].id, i);
    // Buildings per site (index p.sites.size(): buildings of no known site), halls per building, rows per
    // hall, placed racks per row, CDUs per hall; all in design order.
    e.buildingsOfSite.resize(p.sites.size() + 1);
    for (std::size_t i = 0; i < p.buildings.size(); ++i) {
        const auto s = siteIndex.find(p.buildings[i].site);
        e.buildingsOfSite[s == siteIndex.end() ? p.sites.size() : s->second].push_back(i);
    }
    for (std::size_t i = 0; i < p.halls.size(); ++i)
        e.hallsOfBuilding[p.halls[i].building].push_back(i);
    for (std::size_t i = 0; i < p.rows.size(); ++i)
        e.rowsOfHall[p.rows[i].hall].push_back(i);
    for (std::size_t i = 0; i < scene.racks.size(); ++i) {
        if (scene.racks[i].placed)
            e.racksOfRow[scene.racks[i].rowId].push_back(i);
        else
            ++e.counts.unplacedRacks;
    }
    for (std::size_t i = 0; i < scene.cdus.size(); ++i)
        e.cdusOfHall[e.loopById.at(scene.cdus[i].loopId)->hall].push_back(i);
    if (e.source.results) {
        for (const auto& b : e.source.results->power.buildings)
            e.buildingPower.emplace(b.buildingId, &b);
        for (const auto& l : e.source.results->bom.loops)
            e.loopBom.emplace(l.loopId, &l);
    }
}

/// Writes clustertwin:id, and clustertwin:name when it differs from the id.
void writeIdAndName(UsdaText& t, int depth, const std::string& id, const std::string& name) {
    t.attrString(depth, "clustertwin:id", id);
    if (!name.empty() && name != id) t.attrString(depth, "clustertwin:name", name);
}

/// Writes one rack instance (a reference to its type's asset), placed relative to its hall's origin.
void writeRack(CampusExport& e, int depth, const std::string& parent, const Origin& o,
               const RackInstance& r) {
    UsdaText& t = e.t;
    const std::string name = e.names.unique(parent, r.id, "rack");
    t.openPrim(depth, "def", "Xform", name,
               UsdaText::primMetadata(depth, {"instanceable = true",
                                              "prepend references = <" + e.rackAsset.at(r.rackType) + ">"}));
    writeIdAndName(t, depth + 1, r.id, r.name);
    if (!r.coolingLoop.empty()) t.attrString(depth + 1, "clustertwin:coolingLoop", r.coolingLoop);
    if (r.spare) t.attrBool(depth + 1, "clustertwin:spare", true);
    // Inherited by the asset's Body (constant primvars inherit down namespace, instances included):
    // the 3D view's power-density colour.
    t.displayColor(depth + 1, r.color);
    t.translate(depth + 1, r.base[0] - o.x, r.base[1] - o.y, 0.0);
    t.indent(depth + 1);
    t.out += "double xformOp:rotateZ = ";
    t.number(UsdaText::tidy(r.rotationDeg));
    t.out += '\n';
    t.xformOpOrder(depth + 1, true);
    t.closePrim(depth);
    ++e.counts.racks;
}

/// Writes one row prim of a hall with its placed racks.
void writeRow(CampusExport& e, int depth, const std::string& path, const Origin& o, const model::Row& row) {
    UsdaText& t = e.t;
    const auto racks = e.racksOfRow.find(row.id);
    const std::string rowName = e.names.unique(path, row.id, "row");
    t.openPrim(depth, "def", "Xform", rowName, UsdaText::primMetadata(depth, {"kind = \"group\""}));
    writeIdAndName(t, depth + 1, row.id, row.name);
    if (racks != e.racksOfRow.end()) {
        const std::string rowPath = path + "/" + rowName;
        for (const std::size_t i : racks->second)
            writeRack(e, depth + 1, rowPath, o, e.scene.racks[i]);
    }
    t.closePrim(depth);
    ++e.counts.rows;
}

/// Writes the CDU instances of one hall, numbered per cooling loop, with their loop's figures.
void writeHallCdus(CampusExport& e, int depth, const std::string& path, const Origin& o,
                   const std::string& hallId) {
    UsdaText& t = e.t;
    int cduNumber = 0;
    std::string lastLoop;
    for (const std::size_t ci : e.cdusOfHall[hallId]) {
        const auto& c = e.scene.cdus[ci];
        const auto* loop = e.loopById.at(c.loopId);
        cduNumber = c.loopId == lastLoop ? cduNumber + 1 : 1;
        lastLoop = c.loopId;
        const std::string cduName = e.names.unique(path, (loop->name.empty() ? loop->id : loop->name) +
                                                             "_CDU_" + std::to_string(cduNumber));
        t.openPrim(
            depth, "def", "Xform", cduName,
            UsdaText::primMetadata(depth, {"instanceable = true",
                                           "prepend references = <" + e.cduAsset.at(loop->cduType) + ">"}));
        t.attrString(depth + 1, "clustertwin:coolingLoop", loop->id);
        t.attrInt(depth + 1, "clustertwin:cduIndex", cduNumber);
        t.attrString(depth + 1, "clustertwin:redundancy", loop->redundancy);
        if (const auto bom = e.loopBom.find(loop->id); bom != e.loopBom.end()) {
            t.attrDouble(depth + 1, "clustertwin:loop:liquidHeat_w", bom->second->liquidHeat.value());
            t.attrDouble(depth + 1, "clustertwin:loop:installedCapacity_w",
                         bom->second->installedCapacity.value());
            t.attrDouble(depth + 1, "clustertwin:loop:flow_m3_per_s", bom->second->flow.value());
            t.attrDouble(depth + 1, "clustertwin:loop:cdusRequired", bom->second->cdusRequired);
        }
        if (const auto m = e.scene.loopMargins.find(loop->id); m != e.scene.loopMargins.end())
            t.attrDouble(depth + 1, "clustertwin:loop:thermalMargin_pct", m->second);
        t.translate(depth + 1, c.base[0] - o.x, c.base[1] - o.y, 0.0);
        t.xformOpOrder(depth + 1, false);
        t.closePrim(depth);
        ++e.counts.cdus;
    }
}

/// Writes one data hall: its floor, rows (with racks) and CDUs, relative to its building's origin.
void writeHall(CampusExport& e, int depth, const std::string& parent, const Origin& parentOrigin,
               const model::DataHall& h) {
    UsdaText& t = e.t;
    const std::string name = e.names.unique(parent, h.id, "hall");
    const std::string path = parent + "/" + name;
    const auto box = e.hallBox.find(h.id);
    const Origin o = box == e.hallBox.end() ? parentOrigin : Origin{box->second->min[0], box->second->min[1]};
    t.openPrim(depth, "def", "Xform", name, UsdaText::primMetadata(depth, {"kind = \"group\""}));
    writeIdAndName(t, depth + 1, h.id, h.name);
    if (box != e.hallBox.end()) {
        t.attrDouble(depth + 1, "clustertwin:width_m", box->second->size[0]);
        t.attrDouble(depth + 1, "clustertwin:depth_m", box->second->size[1]);
    }
    t.translate(depth + 1, o.x - parentOrigin.x, o.y - parentOrigin.y, 0.0);
    t.xformOpOrder(depth + 1, false);
    if (box != e.hallBox.end())
        t.box(depth + 1, e.names.unique(path, "Floor"), box->second->size[0], box->second->size[1],
              box->second->size[2], true, kFloorColor);
    for (const std::size_t ri : e.rowsOfHall[h.id])
        writeRow(e, depth + 1, path, o, e.p.rows[ri]);
    writeHallCdus(e, depth + 1, path, o, h.id);
    t.closePrim(depth);
    ++e.counts.halls;
}

/// Writes one building: its translucent shell, power figures and halls.
void writeBuilding(CampusExport& e, int depth, const std::string& parent, const model::Building& b) {
    UsdaText& t = e.t;
    const std::string name = e.names.unique(parent, b.id, "building");
    const std::string path = parent + "/" + name;
    const auto box = e.buildingBox.find(b.id);
    const Origin o = box == e.buildingBox.end() ? Origin{} : Origin{box->second->min[0], box->second->min[1]};
    t.openPrim(depth, "def", "Xform", name, UsdaText::primMetadata(depth, {"kind = \"group\""}));
    writeIdAndName(t, depth + 1, b.id, b.name);
    if (box != e.buildingBox.end()) {
        t.attrDouble(depth + 1, "clustertwin:width_m", box->second->size[0]);
        t.attrDouble(depth + 1, "clustertwin:depth_m", box->second->size[1]);
        t.attrDouble(depth + 1, "clustertwin:height_m", box->second->size[2]);
    }
    t.attrDouble(depth + 1, "clustertwin:powerCapacity_w", b.powerCapacity.value());
    if (const auto bp = e.buildingPower.find(b.id); bp != e.buildingPower.end()) {
        t.attrDouble(depth + 1, "clustertwin:itPeak_w", bp->second->itPeak.value());
        t.attrDouble(depth + 1, "clustertwin:itOperating_w", bp->second->itOperating.value());
        t.attrDouble(depth + 1, "clustertwin:facilityPeak_w", bp->second->facilityPeak.value());
        t.attrDouble(depth + 1, "clustertwin:facilityOperating_w", bp->second->facilityOperating.value());
        t.attrDouble(depth + 1, "clustertwin:pue", bp->second->pue);
    }
    t.translate(depth + 1, o.x, o.y, 0.0);
    t.xformOpOrder(depth + 1, false);
    if (box != e.buildingBox.end())
        // Translucent, so a viewer sees the halls and racks inside.
        t.box(depth + 1, e.names.unique(path, "Shell"), box->second->size[0], box->second->size[1],
              box->second->size[2], true, kShellColor, 0.15);
    for (const std::size_t hi : e.hallsOfBuilding[b.id])
        writeHall(e, depth + 1, path, o, e.p.halls[hi]);
    t.closePrim(depth);
    ++e.counts.buildings;
}

/// Writes the sites and everything in them; a last "NoSite" prim holds buildings of no known site.
void writeSites(CampusExport& e) {
    const model::Project& p = e.p;
    UsdaText& t = e.t;
    for (std::size_t s = 0; s <= p.sites.size(); ++s) {
        const bool known = s < p.sites.size();
        if (!known && e.buildingsOfSite[s].empty()) break;
        t.out += '\n';
        const std::string name = e.names.unique("/Campus", known ? p.sites[s].id : "NoSite", "site");
        t.openPrim(1, "def", "Xform", name, UsdaText::primMetadata(1, {"kind = \"group\""}));
        if (known) {
            writeIdAndName(t, 2, p.sites[s].id, p.sites[s].name);
            t.attrDouble(2, "clustertwin:latitude_deg", p.sites[s].latDeg);
            t.attrDouble(2, "clustertwin:longitude_deg", p.sites[s].lonDeg);
            ++e.counts.sites;
        } else {
            t.attrString(2, "clustertwin:note", "buildings whose site is not in the design");
        }
        for (const std::size_t bi : e.buildingsOfSite[s])
            writeBuilding(e, 2, "/Campus/" + name, p.buildings[bi]);
        t.closePrim(1);
    }
}

} // namespace

std::string campusUsda(const SceneSource& source, UsdaExportCounts* countsOut) {
    const model::Project& p = source.project;
    const model::Catalog& catalog = source.catalog;
    const CampusSceneBuilder builder(p, catalog);
    const CampusSceneData scene = builder.build(source, ColorMetric::PowerDensity);
    CampusExport e(source, p, catalog, scene);
    e.t.out.reserve(512 + scene.racks.size() * 420);

    // --- layer header -----------------------------------------------------------------------------------
    writeLayerHeader(e);

    // --- assets: one per rack type and CDU type ----------------------------------------------------------
    e.t.out += '\n';
    e.t.openPrim(1, "class", "Scope", "Assets");
    writeRackAssets(e);
    writeCduAssets(e);
    e.t.closePrim(1);

    // --- who is where -------------------------------------------------------------------------------------
    indexCampus(e);

    // --- the hierarchy ----------------------------------------------------------------------------------
    writeSites(e);
    e.t.closePrim(0);
    e.counts.bytes = e.t.out.size();
    if (countsOut) *countsOut = e.counts;
    return std::move(e.t.out);
}

UsdaExportCounts writeCampusUsda(const SceneSource& source, const std::string& path) {
    UsdaExportCounts counts;
    const std::string text = campusUsda(source, &counts);
    model::writeFileAtomic(path, text);
    return counts;
}

} // namespace ctwin::views
