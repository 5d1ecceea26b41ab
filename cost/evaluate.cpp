#include "evaluate.h"

#include "evaluate_stages.h"
#include "geometry_rules.h"
#include "input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace ctwin::cost {

using namespace ctwin::units;
using model::CatalogItem;

namespace detail {

std::string fmt(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
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

void addFigure(Results& r, std::string key, double value, std::string unit, std::string label,
               std::string formula, std::vector<std::pair<std::string, double>> inputs,
               std::vector<std::string> sources) {
    r.figures.push_back(Figure{std::move(key), finite(value), std::move(unit), std::move(label),
                               Provenance{std::move(formula), std::move(inputs), std::move(sources)}});
}

} // namespace detail

using namespace detail;

ReliabilityOptions reliabilityOptionsFor(const model::TrainingJob& job, const AssumptionValues& a) {
    ReliabilityOptions o;
    o.scope = job.restartScope == "parallel_group" ? RestartScope::ParallelGroup
              : job.restartScope == "hot_spare"    ? RestartScope::HotSpare
                                                   : RestartScope::WholeJob;
    o.asyncCheckpoint = job.asyncCheckpoint;
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

Results evaluate(const InputResolver& inputs, const model::Catalog& catalog, const BillOfMaterials* cachedBom,
                 std::shared_ptr<const CompiledDesign> compiled) {
    Results r;
    // Every input comes through the resolver (SPEC.md §4 "Input resolution"): p is the design with
    // overrides of plain fields applied, a the effective assumptions, and fields that fall back to an
    // assumption are asked of `inputs`.
    const model::Project& p = inputs.project();
    const AssumptionValues& a = inputs.assumptions();
    r.bom = cachedBom ? *cachedBom : deriveBillOfMaterials(catalog, inputs, std::move(compiled));
    r.rules = r.bom.rules;
    const auto& bom = r.bom;
    EvalContext c{inputs, catalog, p, a, r, {}, {}, {}, {}, nullptr, 0, {}, {}, {}, 0};

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
    // The compiled design comes with the bill of materials (a cached one carries the design it was derived
    // from; only numeric fields may differ, which the stages read from p).
    if (!r.bom.compiled) r.bom.compiled = compileDesign(p, catalog);
    const CompiledDesign& cd = *r.bom.compiled;
    c.compiled = &cd;

    evaluatePower(c);
    evaluateCapex(c);
    evaluateFinance(c);
    evaluateTraining(c);
    evaluateInference(c);

    // ---- Design rules that need the whole picture (SPEC.md §4.10) ----
    const double spareTarget = a.get("spare_fraction_target");
    if (bom.computeRacks > 0 && bom.spareRacks < std::floor(spareTarget * bom.computeRacks))
        r.rules.push_back({Severity::Warning, "missing_spares", p.info.id,
                           "Hot spares: " + fmt(bom.spareRacks) + " spare racks, below the target of " +
                               fmt(spareTarget * 100, 1) + "% of " + fmt(bom.computeRacks) +
                               " compute racks"});

    // cost/geometry_rules.h: outside parents, overlaps (derived with the compiled design).
    r.rules.insert(r.rules.end(), cd.geometryRules.begin(), cd.geometryRules.end());
    // Every input is resolved by now: record the values used and where they came from.
    r.inputs = inputs.inputs();
    addPowerFigures(c);
    addCapexFigures(c);
    addFinanceFigures(c);
    addTrainingFigures(c);
    addInferenceFigures(c);
    return r;
}

} // namespace ctwin::cost
