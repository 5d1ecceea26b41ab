#include "input_resolver.h"
#include "format_number.h"

#include "bill_of_materials.h"
#include "finance_conventions.h"
#include "input_error.h"
#include "suggest.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string_view>

namespace ctwin::cost {

using model::Bounds;
using model::EntityKind;
using model::InputError;
using model::InputLocation;
using model::formatNumber;

namespace {

const std::string kAssumptionPrefix = "assumptions.";

/// Short names the override grammar accepts besides the collection keys of FORMAT.md §3.
std::string canonicalCollection(const std::string& name) {
    if (name == "jobs") return "training_jobs";
    if (name == "services") return "inference_services";
    return name;
}

/// Entity fields the resolver answers for (they fall back to an assumption or mean "none" when absent);
/// overrides of these never copy the design.
bool isResolvedField(const std::string& collection, const std::string& field) {
    static const std::vector<std::pair<std::string, std::string>> kFields = {
        {"sites", "electricity_usd_per_kwh"},
        {"buildings", "shell_cost_usd"},
        {"buildings", "pue_pinned"},
        {"links", "route_factor"},
        {"links", "route_length_m"},
        {"links", "latency_budget_s"},
        {"training_jobs", "mfu"},
        {"training_jobs", "global_batch_tokens"},
        {"training_jobs", "sequence_length"},
        {"training_jobs", "active_params"},
        {"inference_services", "active_params"}};
    return std::find(kFields.begin(), kFields.end(), std::pair{collection, field}) != kFields.end();
}

/// Entity fields no display reads and no engine stage uses. Overriding one is an error.
bool isDisplayOnlyField(const std::string& /*collection*/, const std::string& /*field*/) {
    return false;
}

/// The shape of one field found by key in an entity's visitFields, and (optionally) sets it.
struct FieldProbe {
    enum class Shape { None, Number, Integer, NonNumeric };
    std::string_view target;
    std::optional<double> assign;
    Shape shape = Shape::None;
    Bounds bounds{0.0, 0.0};
    std::vector<std::string> numericFields;

    bool hit(const char* key, Shape s, Bounds b) {
        if (s != Shape::NonNumeric) numericFields.emplace_back(key);
        if (target != key) return false;
        shape = s, bounds = b;
        return assign.has_value();
    }
    template <class... A> void text(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void texts(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void ref(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void refList(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void endpoint(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void catalogRef(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void catalogRefList(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class T> void choice(const char* key, T&, std::initializer_list<const char*>) {
        hit(key, Shape::NonNumeric, {});
    }
    template <class T> void choiceList(const char* key, T&, std::initializer_list<const char*>) {
        hit(key, Shape::NonNumeric, {});
    }
    template <class... A> void flag(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void numbers(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    template <class... A> void points(const char* key, A&&...) { hit(key, Shape::NonNumeric, {}); }
    void number(const char* key, double& v, Bounds b) {
        if (hit(key, Shape::Number, b)) v = *assign;
    }
    template <class Q> void quantity(const char* key, Q& q, Bounds b) {
        if (hit(key, Shape::Number, b)) q = Q::from_value(*assign);
    }
    void integer(const char* key, int& v, Bounds b) {
        if (hit(key, Shape::Integer, b)) v = static_cast<int>(std::lround(*assign));
    }
    void optionalNumber(const char* key, std::optional<double>& v, Bounds b) {
        if (hit(key, Shape::Number, b)) v = *assign;
    }
    template <class Q> void optionalQuantity(const char* key, std::optional<Q>& q, Bounds b) {
        if (hit(key, Shape::Number, b)) q = Q::from_value(*assign);
    }
};

struct EntityPath {
    std::string collection; // canonical
    std::string id;         // or "*"
    std::string field;
    std::string canonical() const { return collection + "." + id + "." + field; }
};

/// Splits COLLECTION.ID.FIELD (ids may contain dots: the collection is before the first dot, the field
/// after the last). Throws for anything else that is not assumptions.KEY.
EntityPath splitEntityPath(const std::string& path, const InputLocation& where) {
    const auto first = path.find('.'), last = path.rfind('.');
    if (first == std::string::npos || first == last || first == 0 || last + 1 >= path.size() ||
        last == first + 1)
        throw InputError(where, "unknown path (expected assumptions.KEY, COLLECTION.ID.FIELD or "
                                "COLLECTION.*.FIELD, e.g. sites.*.electricity_usd_per_kwh)");
    return EntityPath{canonicalCollection(path.substr(0, first)), path.substr(first + 1, last - first - 1),
                      path.substr(last + 1)};
}

/// " (did you mean 'sites'?)" for a misspelt collection key (the short names jobs and services included).
std::string collectionSuggestion(const std::string& name) {
    std::vector<std::string> keys{"assumptions", "jobs", "services"};
    for (auto k : model::kAllEntityKinds)
        keys.emplace_back(model::entityCollectionKey(k));
    return model::didYouMean(name, keys);
}

std::string collectionList() {
    std::string s;
    for (auto k : model::kAllEntityKinds)
        s += (s.empty() ? "" : ", ") + std::string(model::entityCollectionKey(k));
    return s;
}

/// The probe of `field` on a default entity of `kind` (the shape only).
FieldProbe probeField(EntityKind kind, const std::string& field) {
    FieldProbe probe;
    probe.target = field;
    model::Project empty;
    empty.withCollection(kind, [&](auto& c) {
        typename std::decay_t<decltype(c)>::value_type e;
        e.visitFields(probe);
    });
    return probe;
}

/// Relative range of an assumption applied around an entity's own value: an entity value is as uncertain,
/// in relative terms, as the assumption it replaces. The shipped ranges of data/assumptions.json are
/// market or engineering spreads around a typical value (e.g. US industrial electricity $0.04-0.10 per kWh
/// around 0.07, REFERENCES.md), and a site's negotiated tariff is exposed to the same relative swings
/// (fuel and capacity prices move all tariffs of a market together). So a site at 0.08 $/kWh is explored
/// over 0.08 x 0.04/0.07 .. 0.08 x 0.10/0.07. Nothing to scale when the assumption's base is 0.
std::pair<double, double> relativeRange(double value, const model::Assumption& a) {
    if (a.base == 0.0 || !(a.low < a.high)) return {value, value};
    const double lo = value * a.low / a.base, hi = value * a.high / a.base;
    return {std::min(lo, hi), std::max(lo, hi)};
}

} // namespace

const char* inputLevelName(InputLevel level) {
    switch (level) {
    case InputLevel::Override:
        return "override";
    case InputLevel::Entity:
        return "entity";
    case InputLevel::Design:
        return "design";
    case InputLevel::Default:
        return "default";
    }
    return "";
}

std::string ResolvedInput::describe() const {
    std::string s = formatNumber(value) + (unit.empty() ? "" : " " + unit) + " (" + inputLevelName(level);
    if (!fallback.empty() && (level == InputLevel::Design || level == InputLevel::Default ||
                              (level == InputLevel::Override && source.rfind(fallback, 0) == 0)))
        s += " via " + fallback;
    return s + ")";
}

model::AssumptionSet assumptionSetOf(const std::vector<ResolvedInput>& inputs) {
    model::AssumptionSet set;
    for (const auto& i : inputs)
        if (i.path.rfind(kAssumptionPrefix, 0) == 0)
            set[i.path.substr(kAssumptionPrefix.size())] =
                model::Assumption{i.value, i.low, i.high, i.unit, i.source, i.estimate};
    return set;
}

InputOverride parseInputOverride(const std::string& text, const std::string& origin) {
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(
            InputLocation{origin, "override", text, "", ""},
            "expected PATH=VALUE, e.g. assumptions.wacc=0.1 or sites.*.electricity_usd_per_kwh=0.08");
    const std::string path = text.substr(0, eq), value = text.substr(eq + 1);
    const auto v = model::parseDecimal(value);
    if (!v)
        throw InputError(InputLocation{origin, "override", path, "", ""},
                         "'" + value + "' is not a finite number (decimal notation, e.g. 0.08 or 1.5e9)");
    return InputOverride{path, *v, origin};
}

void checkInputOverride(const model::Project& p, const model::AssumptionSet& assumptions,
                        const InputOverride& o, const std::string& origin) {
    const InputLocation where{origin, "override", o.path, "", ""};
    if (!std::isfinite(o.value)) throw InputError(where, "value is not finite");
    if (o.path.rfind(kAssumptionPrefix, 0) == 0) {
        const std::string key = o.path.substr(kAssumptionPrefix.size());
        const auto it = assumptions.find(key);
        if (it == assumptions.end())
            throw InputError(where, "unknown assumption '" + key + "'" + didYouMean(key, assumptions) +
                                        " (see data/assumptions.json)");
        if (const std::string problem = assumptionValueProblem(it->second, o.value); !problem.empty())
            throw InputError(where, problem);
        return;
    }
    const EntityPath ep = splitEntityPath(o.path, where);
    const auto kind = model::entityKindFromCollectionKey(ep.collection);
    if (!kind)
        throw InputError(where, "unknown collection '" + ep.collection + "'" +
                                    collectionSuggestion(ep.collection) +
                                    " (expected assumptions or one of: " + collectionList() +
                                    "; jobs and services are short for training_jobs and "
                                    "inference_services)");
    const FieldProbe probe = probeField(*kind, ep.field);
    std::string numeric;
    for (const auto& f : probe.numericFields)
        numeric += (numeric.empty() ? "" : ", ") + f;
    if (probe.shape == FieldProbe::Shape::None)
        throw InputError(where, ep.collection + " have no field '" + ep.field + "'" +
                                    model::didYouMean(ep.field, probe.numericFields) +
                                    " (numeric fields: " + numeric + ")");
    if (probe.shape == FieldProbe::Shape::NonNumeric)
        throw InputError(where, "'" + ep.field + "' is not a numeric field (numeric fields of " +
                                    ep.collection + ": " + numeric + ")");
    if (isDisplayOnlyField(ep.collection, ep.field))
        throw InputError(where, "'" + ep.field + "' is display-only: no engine output depends on it");
    size_t count = 0;
    bool found = ep.id == "*";
    std::vector<std::string> ids;
    p.withCollection(*kind, [&](const auto& c) {
        count = c.size();
        for (const auto& e : c) {
            found = found || e.id == ep.id;
            if (!found) ids.push_back(e.id);
        }
    });
    if (ep.id == "*" && count == 0)
        throw InputError(where, "the design has no " + ep.collection + " for '*' to match");
    if (!found)
        throw InputError(where, "no entity with id '" + ep.id + "' in " + ep.collection +
                                    model::didYouMean(ep.id, ids));
    // The field's range from data/field_ranges.json, checked and worded as the loader does.
    if (std::string problem = model::rangeProblem(o.value, probe.bounds); !problem.empty())
        throw InputError(where, problem);
    if (probe.shape == FieldProbe::Shape::Integer && o.value != std::floor(o.value))
        throw InputError(where, "expected a whole number, found " + formatNumber(o.value));
}

bool overrideAffectsBillOfMaterials(const std::string& path) {
    if (path.rfind(kAssumptionPrefix, 0) == 0)
        return std::find(kBillOfMaterialsAssumptions.begin(), kBillOfMaterialsAssumptions.end(),
                         path.substr(kAssumptionPrefix.size())) != kBillOfMaterialsAssumptions.end();
    const auto first = path.find('.'), last = path.rfind('.');
    if (first == std::string::npos || last == std::string::npos) return true;
    const std::string collection = canonicalCollection(path.substr(0, first)), field = path.substr(last + 1);
    // deriveBillOfMaterials reads the layout, fabrics, cooling loops, storage and links; these it never
    // reads.
    if (collection == "training_jobs" || collection == "inference_services") return false;
    if (collection == "sites")
        return field != "electricity_usd_per_kwh" && field != "land_cost_usd" &&
               field != "free_cooling_hours_per_year" && field != "grid_interconnect_mw" &&
               field != "grid_interconnect_date" && field != "power_oversubscription_ratio";
    if (collection == "buildings")
        return field != "shell_cost_usd" && field != "pue_pinned" && field != "power_capacity_w" &&
               field != "power_oversubscription_ratio";
    if (collection == "halls" || collection == "power_feeds") return field != "power_oversubscription_ratio";
    return true;
}

std::shared_ptr<const model::AssumptionSet> designAssumptions(const model::Project& project,
                                                              const model::AssumptionSet& defaults) {
    // The design's own assumptions: known keys, values in the valid range (the CLI checks this when it
    // loads a file, naming it; the GUI and library callers get it here).
    checkDesignAssumptions(project.assumptions, defaults, "design");
    auto merged =
        std::make_shared<model::AssumptionSet>(model::mergeAssumptions(defaults, project.assumptions));
    validateFinanceAssumptions(*merged, "design assumptions"); // fractions in [0, 1] (finance_conventions.h)
    validateScheduleAssumptions(*merged, {}, "design assumptions"); // build no longer than the horizon
    return merged;
}

InputResolver::InputResolver(const model::Project& project, const model::AssumptionSet& defaults,
                             const InputOverrides& overrides)
    : InputResolver(project, designAssumptions(project, defaults), overrides) {}

InputResolver::InputResolver(const model::Project& project,
                             std::shared_ptr<const model::AssumptionSet> merged,
                             const InputOverrides& overrides)
    : m_project(&project), m_assumptions(model::AssumptionSet{}), m_overrides(overrides),
      m_overrideRead(overrides.size(), false) {
    // Overridden assumptions: copies of the merged entries, changed in turn (a later override of the same
    // path applies on top of the earlier one); the merged set itself is shared, not copied.
    model::AssumptionSet changed;
    for (size_t i = 0; i < overrides.size(); ++i) {
        const auto& o = overrides[i];
        // Checks the path and the value against the valid range, which overrides do not change.
        checkInputOverride(project, *merged, o, o.origin);
        if (o.path.rfind(kAssumptionPrefix, 0) == 0) {
            const std::string key = o.path.substr(kAssumptionPrefix.size());
            if (!changed.count(key)) changed.emplace(key, merged->at(key));
            overrideAssumption(changed, o.path, o.value);
            m_assumptionOverrides[key] = o.value;
            continue;
        }
        const EntityPath ep = splitEntityPath(o.path, InputLocation{o.origin, "override", o.path, "", ""});
        if (isResolvedField(ep.collection, ep.field)) {
            m_entityOverrides.push_back(EntityValue{ep.collection, ep.id, ep.field, o.value, i});
            continue;
        }
        if (!m_copy) m_copy = project;
        m_copy->withCollection(*model::entityKindFromCollectionKey(ep.collection), [&](auto& c) {
            for (auto& e : c)
                if (ep.id == "*" || e.id == ep.id) {
                    FieldProbe set;
                    set.target = ep.field;
                    set.assign = o.value;
                    e.visitFields(set);
                }
        });
        m_overrideRead[i] = true; // a plain field feeds the engine wherever the design uses it
    }
    // The merged set passed validateFinanceAssumptions (designAssumptions): only changed entries can fail.
    validateFinanceAssumptions(changed, "--set");
    if (changed.count("construction_months") || changed.count("horizon_years"))
        validateScheduleAssumptions(*merged, changed, "--set"); // build no longer than the horizon
    m_assumptions = AssumptionValues(std::move(merged), std::move(changed));
}

std::optional<double> InputResolver::entityOverride(const char* collection, const std::string& id,
                                                    const char* field) const {
    const EntityValue* best = nullptr;
    for (const auto& e : m_entityOverrides) {
        if (e.collection != collection || e.field != field) continue;
        if (e.id == id)
            best = &e; // an exact id beats '*', whatever the order
        else if (e.id == "*" && (!best || best->id == "*"))
            best = &e;
    }
    if (!best) return std::nullopt;
    m_overrideRead[best->overrideIndex] = true;
    return best->value;
}

InputLevel InputResolver::assumptionLevel(const std::string& key) const {
    if (m_assumptionOverrides.count(key)) return InputLevel::Override;
    if (m_project->assumptions.count(key)) return InputLevel::Design;
    return InputLevel::Default;
}

double InputResolver::derivedDefault(const std::string& key, const model::Assumption& derived) const {
    if (assumptionLevel(key) != InputLevel::Default) return m_assumptions.get(key);
    if (!m_valuesOnly) m_derivedDefaults[key] = derived;
    return derived.base;
}

double InputResolver::record(const char* collection, const std::string& id, const char* field,
                             std::optional<double> own, bool overridden, const std::string& fallbackKey,
                             const std::string& unit, double fallbackScale) const {
    // The value as recorded below: the entity's own, else the assumption (read, so it counts as used).
    if (m_valuesOnly) return own ? *own : m_assumptions.get(fallbackKey) * fallbackScale;
    const std::string path = std::string(collection) + "." + id + "." + field;
    ResolvedInput in;
    in.path = path;
    in.unit = unit;
    in.used = true;
    if (!fallbackKey.empty()) in.fallback = kAssumptionPrefix + fallbackKey;
    if (own) {
        in.value = *own;
        in.level = overridden ? InputLevel::Override : InputLevel::Entity;
        in.low = in.high = *own;
        in.source = overridden ? "override of " + path : "entity field " + path;
        if (!fallbackKey.empty()) {
            const auto& a = m_assumptions.at(fallbackKey);
            std::tie(in.low, in.high) = relativeRange(*own, a);
            // Never beyond what the field accepts (an MFU of 0.95 with a +7.5 % spread stays <= 1).
            const Bounds b = probeField(*model::entityKindFromCollectionKey(collection), field).bounds;
            in.low = std::clamp(in.low, b.min, b.max), in.high = std::clamp(in.high, b.min, b.max);
            if (in.low < in.high) in.source += "; range: relative range of assumption " + fallbackKey;
            auto& shadows = m_shadowedBy[fallbackKey];
            if (std::find(shadows.begin(), shadows.end(), path) == shadows.end()) shadows.push_back(path);
        }
    } else {
        const auto& a = m_assumptions.at(fallbackKey);
        in.value = m_assumptions.get(fallbackKey) * fallbackScale;
        in.low = a.low * fallbackScale, in.high = a.high * fallbackScale;
        in.level = assumptionLevel(fallbackKey);
        in.source = "assumptions." + fallbackKey + ": " + a.source;
        in.estimate = a.estimate;
    }
    if (auto it = m_entityInputIndex.find(path); it != m_entityInputIndex.end())
        m_entityInputs[it->second] = std::move(in);
    else {
        m_entityInputIndex[path] = m_entityInputs.size();
        m_entityInputs.push_back(std::move(in));
    }
    return m_entityInputs[m_entityInputIndex[path]].value;
}

units::MoneyPerEnergy InputResolver::siteTariff(const model::Site& s) const {
    const auto o = entityOverride("sites", s.id, "electricity_usd_per_kwh");
    const auto own = o ? o : s.electricityUsdPerKwh;
    return units::dollarsPerKwh(record("sites", s.id, "electricity_usd_per_kwh", own, o.has_value(),
                                       "electricity_usd_per_kwh", "USD/kWh"));
}

units::Money InputResolver::buildingShellCost(const model::Building& b, units::Power itPeak) const {
    const auto o = entityOverride("buildings", b.id, "shell_cost_usd");
    const auto own = o ? o : (b.shellCost ? std::optional<double>(b.shellCost->value()) : std::nullopt);
    return record("buildings", b.id, "shell_cost_usd", own, o.has_value(), "building_shell_usd_per_w", "USD",
                  itPeak.value()) *
           units::usd;
}

std::optional<double> InputResolver::buildingPuePinned(const model::Building& b) const {
    const auto o = entityOverride("buildings", b.id, "pue_pinned");
    const auto own = o ? o : b.puePinned;
    if (own) record("buildings", b.id, "pue_pinned", own, o.has_value(), "", "");
    return own;
}

units::Length InputResolver::linkRouteLength(const model::ScaleAcrossLink& l,
                                             units::Length greatCircle) const {
    const auto o = entityOverride("links", l.id, "route_length_m");
    const auto own = o ? o : (l.routeLength ? std::optional<double>(l.routeLength->value()) : std::nullopt);
    if (own) {
        // A surveyed length is a measurement, not an estimate: no range. The route factor is not used.
        record("links", l.id, "route_length_m", own, o.has_value(), "", "m");
        const std::string lengthPath = "links." + l.id + ".route_length_m";
        for (const std::string& key : {"links." + l.id + ".route_factor", std::string("links.*.route_factor"),
                                       std::string("route_factor")})
            m_shadowedBy[key].push_back(lengthPath);
        return *own * units::meter;
    }
    const auto of = entityOverride("links", l.id, "route_factor");
    const auto factor = of ? of : l.routeFactor;
    const double f = record("links", l.id, "route_factor", factor, of.has_value(), "route_factor", "ratio");
    return f * greatCircle;
}

std::optional<units::Time> InputResolver::linkLatencyBudget(const model::ScaleAcrossLink& l) const {
    const auto o = entityOverride("links", l.id, "latency_budget_s");
    const auto own =
        o ? o : (l.latencyBudget ? std::optional<double>(l.latencyBudget->value()) : std::nullopt);
    if (!own) return std::nullopt;
    record("links", l.id, "latency_budget_s", own, o.has_value(), "", "s");
    return *own * units::second;
}

double InputResolver::jobMfu(const model::TrainingJob& j, const std::string& peakPrecision) const {
    const auto o = entityOverride("training_jobs", j.id, "mfu");
    // assumptions.mfu is the BF16 MFU (Llama 3 405B); FP8 and FP4 scale it by their sourced ratios (issue 19
    // item 6, data/assumptions.json): an FP8 run is ~1.3-1.5x faster than BF16 on the same GPUs while its
    // peak is 2x, so its MFU against the FP8 peak is ~0.65-0.75 of the BF16 MFU. A job's own mfu is taken
    // as measured at its precision, unscaled.
    const std::string ratioKey = peakPrecision == "fp8"   ? "mfu_fp8_ratio"
                                 : peakPrecision == "fp4" ? "mfu_fp4_ratio"
                                                          : "";
    const auto own = o ? o : j.mfu;
    const double scale = own || ratioKey.empty() ? 1.0 : m_assumptions.get(ratioKey);
    return record("training_jobs", j.id, "mfu", own, o.has_value(), "mfu", "fraction", scale);
}

double InputResolver::jobGlobalBatchTokens(const model::TrainingJob& j) const {
    const auto o = entityOverride("training_jobs", j.id, "global_batch_tokens");
    return record("training_jobs", j.id, "global_batch_tokens", o ? o : j.globalBatchTokens, o.has_value(),
                  "global_batch_tokens", "tokens");
}

double InputResolver::jobSequenceLength(const model::TrainingJob& j) const {
    const auto o = entityOverride("training_jobs", j.id, "sequence_length");
    return record("training_jobs", j.id, "sequence_length", o ? o : j.sequenceLength, o.has_value(),
                  "sequence_length", "tokens");
}

double InputResolver::jobActiveParams(const model::TrainingJob& j) const {
    const auto o = entityOverride("training_jobs", j.id, "active_params");
    const auto own = o ? o : j.activeParams;
    if (own) return record("training_jobs", j.id, "active_params", own, o.has_value(), "", "params");
    return j.modelParams;
}

double InputResolver::serviceActiveParams(const model::InferenceService& s) const {
    const auto o = entityOverride("inference_services", s.id, "active_params");
    const auto own = o ? o : s.activeParams;
    if (own) return record("inference_services", s.id, "active_params", own, o.has_value(), "", "params");
    return s.modelParams;
}

std::vector<ResolvedInput> InputResolver::inputs() const {
    if (m_valuesOnly) throw std::logic_error("InputResolver::inputs: the resolver records values only");
    std::vector<ResolvedInput> out;
    out.reserve(m_assumptions.all().size() + m_entityInputs.size());
    for (const auto& [key, a] : m_assumptions.all()) {
        ResolvedInput in;
        in.path = kAssumptionPrefix + key;
        in.value = a.base, in.low = a.low, in.high = a.high;
        in.unit = a.unit, in.source = a.source, in.estimate = a.estimate;
        in.level = assumptionLevel(key);
        in.used = m_assumptions.wasRead(key);
        // A shipped default the engine replaced by a value derived from the catalog (derivedDefault).
        if (auto d = m_derivedDefaults.find(key);
            d != m_derivedDefaults.end() && in.level == InputLevel::Default) {
            in.value = d->second.base, in.low = d->second.low, in.high = d->second.high;
            in.unit = d->second.unit, in.source = d->second.source, in.estimate = d->second.estimate;
            in.used = true;
        }
        out.push_back(std::move(in));
    }
    out.insert(out.end(), m_entityInputs.begin(), m_entityInputs.end());
    return out;
}

void InputResolver::requireOverridesUsed() const {
    if (m_valuesOnly)
        throw std::logic_error("InputResolver::requireOverridesUsed: the resolver records values only");
    for (size_t i = 0; i < m_overrides.size(); ++i) {
        const auto& o = m_overrides[i];
        const InputLocation where{o.origin, "override", o.path, "", ""};
        if (o.path.rfind(kAssumptionPrefix, 0) == 0) {
            const std::string key = o.path.substr(kAssumptionPrefix.size());
            if (m_assumptions.wasRead(key)) continue;
            auto it = m_shadowedBy.find(key);
            if (it == m_shadowedBy.end() || it->second.empty())
                throw InputError(where, "no part of this design's evaluation reads it, so the override would "
                                        "change nothing");
            std::string list;
            for (const auto& s : it->second)
                list += (list.empty() ? "" : ", ") + s;
            const std::string& first = it->second.front();
            const std::string wildcard =
                first.substr(0, first.find('.')) + ".*" + first.substr(first.rfind('.'));
            throw InputError(where,
                             "is not used: every entity that could fall back to it sets its own value (" +
                                 list + "); override " + wildcard + " (or one of those paths) instead");
        }
        if (m_overrideRead[i]) continue;
        const EntityPath ep = splitEntityPath(o.path, where);
        auto it = m_shadowedBy.find(ep.canonical());
        if (it != m_shadowedBy.end() && !it->second.empty())
            throw InputError(where, "is not used: " + it->second.front() +
                                        " is set and takes precedence; override " + it->second.front() +
                                        " instead");
        throw InputError(where,
                         "no part of this design's evaluation reads it (e.g. a site without buildings, a "
                         "link whose surveyed route length is set), so the override would change nothing");
    }
}

} // namespace ctwin::cost
