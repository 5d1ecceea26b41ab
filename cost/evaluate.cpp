#include "evaluate.h"

#include "evaluate_stages.h"
#include "geometry_rules.h"
#include "input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace detail {

std::string fmt(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    // A value that rounds to zero prints as 0, not -0 (a design's -0.0 or -0.004 at 2 decimals).
    if (buf[0] == '-' && std::strspn(buf + 1, "0.") == std::strlen(buf + 1)) return buf + 1;
    return buf;
}

double workingGpus(const EvalContext& c, const model::CatalogItem* onlyType) {
    const CompiledDesign& cd = *c.compiled;
    double gpus = 0;
    for (const auto& k : cd.classes)
        if (const auto& type = cd.types[static_cast<size_t>(k.type)];
            !k.spare && type.compute && (!onlyType || type.id == onlyType->id))
            gpus += k.count * type.need(type.gpus, "gpus");
    return gpus;
}

double finite(double v) {
    return std::isfinite(v) ? v : 0.0;
}
double safeDiv(double a, double b) {
    return b != 0.0 ? finite(a / b) : 0.0;
}

double precisionFlops(const CatalogItem& accel, const std::string& precision) {
    if (precision == "fp4" && accel.value("fp4_flops") > 0) return accel.value("fp4_flops");
    if ((precision == "fp8" || precision == "fp4") && accel.value("fp8_flops") > 0)
        return accel.value("fp8_flops");
    return accel.value("bf16_flops");
}

namespace {
void recordFigure(EvalContext& c, std::string_view key, double value, std::string_view unit,
                  std::string_view label, std::string_view formula,
                  std::initializer_list<std::pair<const char*, double>> inputs, const SourceRef* firstSource,
                  const SourceRef* lastSource) {
    if (c.wantedKeys) {
        // evaluateFigures: the value of a key asked for, first figure of the key (as Results::figure).
        const auto& keys = *c.wantedKeys;
        auto& values = *c.wantedValues;
        for (size_t i = 0; i < keys.size(); ++i)
            if (!values[i] && keys[i] == key) values[i] = finite(value);
        return;
    }
    Provenance provenance;
    provenance.formula = formula;
    provenance.inputs.reserve(inputs.size());
    for (const auto& [name, v] : inputs)
        provenance.inputs.emplace_back(name, v);
    provenance.sources.reserve(static_cast<size_t>(lastSource - firstSource));
    for (const SourceRef* s = firstSource; s != lastSource; ++s)
        provenance.sources.push_back(s->text(c.a));
    c.r.figures.push_back(Figure{std::string(key), finite(value), std::string(unit), std::string(label),
                                 std::move(provenance)});
}
} // namespace

void addFigure(EvalContext& c, std::string_view key, double value, std::string_view unit,
               std::string_view label, std::string_view formula,
               std::initializer_list<std::pair<const char*, double>> inputs,
               std::initializer_list<SourceRef> sources) {
    recordFigure(c, key, value, unit, label, formula, inputs, sources.begin(), sources.end());
}

void addFigure(EvalContext& c, std::string_view key, double value, std::string_view unit,
               std::string_view label, std::string_view formula,
               std::initializer_list<std::pair<const char*, double>> inputs,
               const std::vector<SourceRef>& sources) {
    recordFigure(c, key, value, unit, label, formula, inputs, sources.data(),
                 sources.data() + sources.size());
}

} // namespace detail

using namespace detail;

ReliabilityOptions reliabilityOptionsFor(const model::TrainingJob& job, const AssumptionValues& a) {
    ReliabilityOptions o;
    o.scope = job.restartScope == "parallel_group" ? RestartScope::ParallelGroup
              : job.restartScope == "hot_spare"    ? RestartScope::HotSpare
                                                   : RestartScope::WholeJob;
    o.asyncCheckpoint = job.asyncCheckpoint;
    o.inMemoryRestore = job.inMemoryRestore;
    o.detectionTime = seconds(60.0 * a.get("failure_detection_minutes"));
    o.reschedulingTime = seconds(60.0 * a.get("rescheduling_minutes"));
    o.spareSwapTime = seconds(60.0 * a.get("spare_swap_minutes"));
    o.stragglerLoss = a.get("straggler_loss");
    o.sdcExtraRollbackIntervals = a.get("sdc_extra_rollback_intervals");
    o.cduRepairTime = hours(a.get("cdu_repair_hours"));
    return o;
}

double CapexResult::share(const std::string& category) const {
    auto it = byCategory.find(category);
    return it == byCategory.end() ? 0.0 : safeDiv(it->second.value(), total.value());
}

const Figure* Results::figure(const std::string& key) const {
    for (const auto& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

bool Results::hasErrors() const {
    return std::any_of(rules.begin(), rules.end(),
                       [](const DesignRule& r) { return r.severity == Severity::Error; });
}

const ResolvedInput* Results::input(const std::string& path) const {
    for (const auto& i : inputs)
        if (i.path == path) return &i;
    return nullptr;
}

Results evaluate(const model::Project& p, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                 const BillOfMaterials* bom) {
    const InputResolver inputs(p, defaults);
    return evaluate(inputs, catalog, bom);
}

Results evaluate(const model::Project& p, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                 const InputOverrides& overrides) {
    const InputResolver inputs(p, defaults, overrides);
    Results r = evaluate(inputs, catalog);
    inputs.requireOverridesUsed();
    return r;
}

Results evaluate(const InputResolver& inputs, const model::Catalog& catalog,
                 const BillOfMaterials* cachedBom) {
    return evaluate(inputs, catalog, cachedBom, nullptr);
}

namespace {

/// The stages of SPEC.md §4 on c.bom, with their design rules; figures are added by the caller
/// (evaluate(): all with provenance; evaluateFigures: the values asked for).
void runStages(EvalContext& c) {
    const model::Project& p = c.p;
    const AssumptionValues& a = c.a;
    Results& r = c.r;
    const auto& bom = c.bom;

    const double utilization = a.get("utilization");
    if (utilization < 0 || utilization > 1)
        r.rules.push_back(
            {Severity::Error, "utilization_range", "assumptions.utilization",
             "Utilization " + fmt(utilization, 2) + " must lie in [0, 1]; results use it clamped"});
    c.utilization = std::clamp(utilization, 0.0, 1.0);
    // With a training job, goodput comes from its reliability model; the assumption is read only without one.
    if (p.trainingJobs.empty()) r.goodput = std::clamp(a.get("goodput"), 0.0, 1.0);

    // ---- Layout look-ups ----
    for (const auto& x : p.halls)
        c.halls[x.id] = &x;
    for (const auto& x : p.buildings)
        c.buildings[x.id] = &x;
    for (const auto& s : p.sites)
        c.sites[s.id] = &s;
    const CompiledDesign& cd = *c.compiled;

    readPowerEnvelope(c);
    planTrainingSteps(c);
    sizeInferenceServices(c);
    evaluatePower(c);
    evaluateCapex(c);
    evaluateFinance(c);
    evaluateTraining(c);
    evaluateInference(c);
    evaluateTokenEconomics(c);
    evaluateEnvironment(c);
    evaluateTimeline(c);

    // ---- Design rules that need the whole picture (SPEC.md §4.10) ----
    const double spareTarget = a.get("spare_fraction_target");
    if (bom.computeRacks > 0 && bom.spareRacks < std::floor(spareTarget * bom.computeRacks))
        r.rules.push_back({Severity::Warning, "missing_spares", p.info.id,
                           "Hot spares: " + fmt(bom.spareRacks) + " spare racks, below the target of " +
                               fmt(spareTarget * 100, 1) + "% of " + fmt(bom.computeRacks) +
                               " compute racks"});

    addCapacityBookingRule(c);

    // cost/geometry_rules.h: outside parents, overlaps (derived with the compiled design).
    r.rules.insert(r.rules.end(), cd.geometryRules.begin(), cd.geometryRules.end());
}

void addFigures(EvalContext& c) {
    addPowerFigures(c);
    addCapexFigures(c);
    addFinanceFigures(c);
    addTrainingFigures(c);
    addInferenceFigures(c);
    addTokenEconomicsFigures(c);
    addEnvironmentFigures(c);
    addTimelineFigures(c);
}

} // namespace

Results evaluate(const InputResolver& inputs, const model::Catalog& catalog, const BillOfMaterials* cachedBom,
                 std::shared_ptr<const CompiledDesign> compiled) {
    Results r;
    // Every input comes through the resolver (SPEC.md §4 "Input resolution"): p is the design with
    // overrides of plain fields applied, a the effective assumptions, and fields that fall back to an
    // assumption are asked of `inputs`.
    const model::Project& p = inputs.project();
    r.bom = cachedBom ? *cachedBom : deriveBillOfMaterials(catalog, inputs, std::move(compiled));
    r.rules = r.bom.rules;
    // The compiled design comes with the bill of materials (a cached one carries the design it was derived
    // from; only numeric fields may differ, which the stages read from p).
    if (!r.bom.compiled) r.bom.compiled = compileDesign(p, catalog);
    EvalContext c{inputs, catalog, p, inputs.assumptions(), r, r.bom};
    c.compiled = r.bom.compiled.get();
    runStages(c);
    // Every input is resolved by now: record the values used and where they came from.
    r.inputs = inputs.inputs();
    addFigures(c);
    return r;
}

std::vector<std::optional<double>> evaluateFigures(const InputResolver& inputs, const model::Catalog& catalog,
                                                   const BillOfMaterials& bom,
                                                   const std::vector<std::string>& keys,
                                                   EvaluationMemo* memo) {
    const model::Project& p = inputs.project();
    // The same stages and figure code as evaluate(), on the caller's bill of materials (no copy); figures
    // other than `keys`, provenance and the input record are not built.
    Results r;
    EvalContext c{inputs, catalog, p, inputs.assumptions(), r, bom};
    std::shared_ptr<const CompiledDesign> own;
    if (!bom.compiled) own = compileDesign(p, catalog);
    c.compiled = bom.compiled ? bom.compiled.get() : own.get();
    if (memo && memo->covers(p, catalog, bom)) c.memo = memo;
    std::vector<std::optional<double>> values(keys.size());
    c.wantedKeys = &keys;
    c.wantedValues = &values;
    runStages(c);
    addFigures(c);
    return values;
}

} // namespace ctwin::cost
