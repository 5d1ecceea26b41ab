#include "design_spec.h"

#include "calendar_date.h"
#include "design_json.h"
#include "input_error.h"
#include "input_file.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <set>

namespace ctwin::cost {

namespace {

using ojson = nlohmann::ordered_json;

/// Reads one JSON object of the spec, key by key, and rejects keys nobody read (a typo would otherwise be
/// silently ignored and the design generated without it).
class Reader {
public:
    Reader(const ojson& j, std::string file, std::string kind, std::string id)
        : m_j(j), m_where{std::move(file), std::move(kind), std::move(id), "", ""} {
        if (!j.is_object()) fail("", "must be a JSON object");
        // Every object of a spec may carry a "comment": the reasoning behind its figures (specs are data, and
        // JSON has no comments).
        m_seen.insert("comment");
    }

    [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
        auto w = m_where;
        w.field = key;
        throw model::InputError(w, problem);
    }
    bool has(const char* key) {
        m_seen.insert(key);
        return m_j.contains(key);
    }
    const ojson& raw(const char* key) {
        m_seen.insert(key);
        return m_j.at(key);
    }
    std::optional<double> number(const char* key, double lo, double hi) {
        if (!has(key)) return std::nullopt;
        const auto& v = m_j.at(key);
        if (!v.is_number()) fail(key, "must be a number");
        const double x = v.get<double>();
        if (!std::isfinite(x) || x < lo || x > hi)
            fail(key, "value " + std::to_string(x) + " is outside [" + std::to_string(lo) + ", " +
                          std::to_string(hi) + "]");
        return x;
    }
    std::optional<int> integer(const char* key, int lo, int hi) {
        const auto x = number(key, lo, hi);
        if (!x) return std::nullopt;
        if (*x != std::floor(*x)) fail(key, "must be a whole number");
        return static_cast<int>(*x);
    }
    std::optional<std::string> text(const char* key) {
        if (!has(key)) return std::nullopt;
        if (!m_j.at(key).is_string()) fail(key, "must be a string");
        return m_j.at(key).get<std::string>();
    }
    std::string requiredText(const char* key) {
        auto s = text(key);
        if (!s || s->empty()) fail(key, "is required");
        return *s;
    }
    std::optional<bool> flag(const char* key) {
        if (!has(key)) return std::nullopt;
        if (!m_j.at(key).is_boolean()) fail(key, "must be true or false");
        return m_j.at(key).get<bool>();
    }
    std::vector<std::string> texts(const char* key) {
        std::vector<std::string> out;
        if (!has(key)) return out;
        if (!m_j.at(key).is_array()) fail(key, "must be an array of strings");
        for (const auto& e : m_j.at(key)) {
            if (!e.is_string()) fail(key, "must be an array of strings");
            out.push_back(e.get<std::string>());
        }
        return out;
    }
    const ojson& array(const char* key) {
        static const ojson empty = ojson::array();
        if (!has(key)) return empty;
        if (!m_j.at(key).is_array()) fail(key, "must be an array");
        return m_j.at(key);
    }
    /// The object without the keys this reader consumed itself (for passing the rest to an entity parser).
    ojson rest(std::initializer_list<const char*> consumed) const {
        ojson r = m_j;
        r.erase("comment");
        for (const char* k : consumed)
            r.erase(k);
        return r;
    }
    void done() const {
        for (const auto& [k, _] : m_j.items())
            if (!m_seen.count(k)) fail(k, "unknown key (see data/FORMAT.md section 4)");
    }

private:
    const ojson& m_j;
    model::InputLocation m_where;
    std::set<std::string> m_seen;
};

ojson withoutComment(const ojson& j) {
    ojson r = j;
    if (r.is_object()) r.erase("comment");
    return r;
}

HallCoolingSpec coolingFromJson(const ojson& j, const std::string& file, const std::string& hallId) {
    Reader r(j, file, "hall cooling", hallId);
    HallCoolingSpec c;
    if (auto v = r.text("cdu_type")) c.cduType = *v;
    if (auto v = r.text("redundancy")) {
        if (*v != "N" && *v != "N+1" && *v != "2N") r.fail("redundancy", "must be N, N+1 or 2N");
        c.redundancy = *v;
    }
    if (auto v = r.number("supply_temp_c", 5.0, 70.0)) c.supplyTempC = *v;
    if (auto v = r.number("delta_t_k", 0.5, 40.0)) c.deltaTK = *v;
    if (auto v = r.text("plant")) c.plant = *v;
    r.done();
    return c;
}

HallSpec hallFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "hall", j.is_object() ? j.value("id", std::string()) : std::string());
    HallSpec h;
    h.id = r.requiredText("id");
    h.name = r.text("name").value_or(h.id);
    h.rackType = r.requiredText("rack_type");
    const auto& cols = r.array("columns");
    if (cols.empty()) r.fail("columns", "needs at least one column of rows");
    for (const auto& c : cols) {
        if (!c.is_array() || c.empty()) r.fail("columns", "each column is a non-empty array of row lengths");
        std::vector<int> rows;
        for (const auto& n : c) {
            if (!n.is_number_integer() || n.get<long long>() < 1 || n.get<long long>() > 1000)
                r.fail("columns", "row lengths are whole numbers of racks from 1 to 1000");
            rows.push_back(n.get<int>());
        }
        h.columns.push_back(std::move(rows));
    }
    h.spares = r.integer("spares", 0, 100000).value_or(0);
    if (r.has("cooling") && !r.raw("cooling").is_null())
        h.cooling = coolingFromJson(r.raw("cooling"), file, h.id);
    h.singleCorded = r.flag("single_corded").value_or(false);
    h.chain = r.texts("chain");
    if (r.has("network_rack")) h.networkRack = r.text("network_rack").value_or("");
    r.done();
    return h;
}

BuildingSpec buildingFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "building", j.is_object() ? j.value("id", std::string()) : std::string());
    BuildingSpec b;
    b.id = r.requiredText("id");
    b.name = r.text("name").value_or(b.id);
    if (auto v = r.number("height_m", 1.0, 500.0)) b.heightM = *v;
    b.powerCapacityW = r.number("power_capacity_w", 1.0, 1e11);
    b.shellCostUsd = r.number("shell_cost_usd", 0.0, 1e13);
    b.puePinned = r.number("pue_pinned", 1.0, 5.0);
    if (auto v = r.text("power_topology")) {
        if (*v != "N" && *v != "N+1" && *v != "2N" && *v != "3/2" && *v != "4/3")
            r.fail("power_topology", "must be N, N+1, 2N, 3/2 or 4/3, not '" + *v + "'");
        b.powerTopology = *v;
    }
    for (const auto& h : r.array("halls"))
        b.halls.push_back(hallFromJson(h, file));
    if (b.halls.empty()) r.fail("halls", "a building needs at least one hall");
    r.done();
    return b;
}

SiteSpec siteFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "site", j.is_object() ? j.value("id", std::string()) : std::string());
    SiteSpec s;
    for (const auto& b : r.array("buildings"))
        s.buildings.push_back(buildingFromJson(b, file));
    s.site = model::entityFromJson<model::Site>(r.rest({"buildings"}), file);
    return s;
}

FabricSpec fabricFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "fabric", j.is_object() ? j.value("id", std::string()) : std::string());
    FabricSpec f;
    f.autoSize = r.flag("auto").value_or(false);
    if (!f.autoSize) {
        f.fabric = model::entityFromJson<model::Fabric>(r.rest({"auto"}), file);
        return f;
    }
    f.fabric.id = r.requiredText("id");
    if (auto v = r.text("name")) f.fabric.name = *v;
    f.fabric.role = r.text("role").value_or("backend");
    if (f.fabric.role != "backend" && f.fabric.role != "frontend")
        r.fail("role", "an auto-sized fabric is a backend or a frontend");
    f.fabric.buildings = r.texts("buildings");
    if (auto v = r.text("optics_policy")) {
        if (*v != "standard" && *v != "lpo" && *v != "cpo")
            r.fail("optics_policy", "must be standard, lpo or cpo");
        f.fabric.opticsPolicy = *v;
    }
    f.tiers = r.integer("tiers", 1, 3);
    f.planes = r.integer("planes", 1, 16);
    f.oversubscription = r.number("oversubscription", 1.0, 64.0);
    r.done();
    return f;
}

StorageSpec storageFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "storage tier", j.is_object() ? j.value("id", std::string()) : std::string());
    StorageSpec s;
    s.writeBytesPerS = r.number("write_bytes_per_s", 1.0, 1e16);
    s.tier = model::entityFromJson<model::StorageTier>(r.rest({"write_bytes_per_s"}), file);
    if (s.writeBytesPerS && j.contains("capacity_bytes"))
        r.fail("write_bytes_per_s", "give capacity_bytes or write_bytes_per_s, not both");
    return s;
}

PhasingSpec phasingFromJson(const ojson& j, const std::string& file, const model::ProjectInfo& info) {
    Reader r(j, file, "phasing", "");
    PhasingSpec s;
    s.firstEnergisation = r.text("first_energisation").value_or("");
    s.intervalMonths = r.integer("interval_months", 0, 120).value_or(3);
    r.done();
    const auto first = model::parseCalendarDate(s.firstEnergisation);
    if (!first)
        r.fail("first_energisation",
               model::calendarDateProblem(s.firstEnergisation.empty() ? "(empty)" : s.firstEnergisation));
    const auto start = model::parseCalendarDate(info.buildStart);
    if (!start) r.fail("first_energisation", "a phased build needs project.build_start");
    if (first->monthIndex() < start->monthIndex())
        r.fail("first_energisation",
               s.firstEnergisation + " lies before project.build_start " + info.buildStart);
    return s;
}

TargetSpec targetFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "target", "");
    TargetSpec t;
    if (r.has("gpus")) {
        const auto& v = r.raw("gpus");
        if (!v.is_number()) r.fail("gpus", "must be a number");
        t.gpus = v.get<double>(); // range checked by the generator, with the reason
    }
    if (r.has("it_mw")) {
        const auto& v = r.raw("it_mw");
        if (!v.is_number()) r.fail("it_mw", "must be a number");
        t.itMw = v.get<double>();
    }
    t.rackType = r.text("rack_type").value_or("");
    if (auto v = r.text("cooling")) t.cooling = *v;
    if (auto v = r.integer("buildings", -1000000, 1000000)) t.buildings = *v;
    if (auto v = r.integer("halls_per_building", -1000000, 1000000)) t.hallsPerBuilding = *v;
    t.spareFraction = r.number("spare_fraction", 0.0, 1.0);
    if (r.has("site")) t.site = model::entityFromJson<model::Site>(r.raw("site"), file);
    t.tiers = r.integer("tiers", 1, 3);
    t.planes = r.integer("planes", 1, 16);
    t.oversubscription = r.number("oversubscription", 1.0, 64.0);
    r.done();
    return t;
}

} // namespace

DesignSpec designSpecFromJson(const ojson& j, const std::string& file) {
    Reader r(j, file, "generator spec", "");
    DesignSpec s;
    if (r.text("format").value_or("") != kGeneratorSpecFormat)
        r.fail("format", std::string("must be \"") + kGeneratorSpecFormat + "\"");
    if (r.integer("spec_version", 0, 1000).value_or(0) != kGeneratorSpecVersion)
        r.fail("spec_version", "must be " + std::to_string(kGeneratorSpecVersion));
    if (r.has("project")) s.info = model::projectInfoFromJson(withoutComment(r.raw("project")), file);
    if (r.has("assumptions")) s.assumptions = model::assumptionsFromJson(r.raw("assumptions"), file);
    if (r.has("phasing")) s.phasing = phasingFromJson(r.raw("phasing"), file, s.info);
    if (r.has("target")) s.target = targetFromJson(r.raw("target"), file);
    for (const auto& e : r.array("sites"))
        s.sites.push_back(siteFromJson(e, file));
    for (const auto& e : r.array("fabrics"))
        s.fabrics.push_back(fabricFromJson(e, file));
    for (const auto& e : r.array("storage_tiers"))
        s.storage.push_back(storageFromJson(e, file));
    for (const auto& e : r.array("links"))
        s.links.push_back(model::entityFromJson<model::ScaleAcrossLink>(withoutComment(e), file));
    for (const auto& e : r.array("training_jobs"))
        s.trainingJobs.push_back(model::entityFromJson<model::TrainingJob>(withoutComment(e), file));
    for (const auto& e : r.array("inference_services"))
        s.inferenceServices.push_back(
            model::entityFromJson<model::InferenceService>(withoutComment(e), file));
    r.done();
    if (s.target && !s.sites.empty())
        r.fail("target", "give either a target or an explicit layout (sites), not both");
    if (!s.target && s.sites.empty()) r.fail("sites", "give a target or at least one site with buildings");
    return s;
}

void applyBuildSchedule(DesignSpec& spec, const std::string& buildStart, int intervalMonths,
                        const model::AssumptionSet& defaults, const model::InputLocation& where) {
    if (const auto problem = model::calendarDateProblem(buildStart); !problem.empty())
        throw model::InputError(where, "build start: " + problem);
    if (intervalMonths > 0 && buildStart.empty())
        throw model::InputError(where, "a phased build needs a build start");
    if (intervalMonths < 0 || intervalMonths > 120)
        throw model::InputError(where, "phase interval " + std::to_string(intervalMonths) +
                                           " months: must lie in 0..120");
    spec.info.buildStart = buildStart;
    if (intervalMonths == 0) return;
    const auto own = spec.assumptions.find("construction_months");
    const auto shipped = defaults.find("construction_months");
    const double months = own != spec.assumptions.end() ? own->second.base
                          : shipped != defaults.end()   ? shipped->second.base
                                                        : 0.0;
    spec.phasing = PhasingSpec{
        model::parseCalendarDate(buildStart)->plusMonths(static_cast<int>(std::max(0.0, months))).iso(),
        intervalMonths};
}

DesignSpec loadDesignSpec(const std::string& path) {
    return designSpecFromJson(model::readJsonFile(path, model::kMaxSpecFileBytes), path);
}

} // namespace ctwin::cost
