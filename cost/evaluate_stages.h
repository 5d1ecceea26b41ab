#pragma once
// Internal to the engine: the stages evaluate() runs in order (SPEC.md §4), each in its own file, sharing
// one EvalContext. Not part of cost/'s public interface; include evaluate.h instead.
#include "compiled_design.h"
#include "evaluate.h"

#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctwin::cost::detail {

/// What the stages share: the inputs, layout look-ups, and intermediate figures later stages need.
struct EvalContext {
    const InputResolver& inputs;
    const model::Catalog& catalog;
    const model::Project& p;
    const AssumptionValues& a;
    Results& r;

    std::unordered_map<std::string, const model::Row*> rows;
    std::unordered_map<std::string, const model::DataHall*> halls;
    std::unordered_map<std::string, const model::Building*> buildings;
    std::unordered_map<std::string, const model::Site*> sites;
    /// The design's ids resolved to indices, racks grouped by class (r.bom.compiled; cost/compiled_design.h).
    const CompiledDesign* compiled = nullptr;

    double utilization = 0;                           // clamped to [0, 1]
    std::map<std::string, BuildingPower> perBuilding; // by building id (power stage)
    units::Money plantCapex{};                        // power stage: plant sized for the full-load heat
    units::Power orphanIt{};                          // IT power of racks outside any building
    double sellableGpus = 0;                          // finance stage: GPUs less hot spares

    /// The provenance text of an assumption.
    std::string source(const std::string& key) const { return a.source(key); }
};

std::string fmt(double v, int decimals = 0);
/// Replaces NaN/inf (impossible inputs that slipped through) by 0 so no report ever prints NaN.
double finite(double v);
double safeDiv(double a, double b);
void addFigure(Results& r, std::string key, double value, std::string unit, std::string label,
               std::string formula, std::vector<std::pair<std::string, double>> inputs = {},
               std::vector<std::string> sources = {});
/// Dense peak FLOP/s of an accelerator at a precision (fp4 -> fp8 -> bf16 fallbacks).
double precisionFlops(const model::CatalogItem& accel, const std::string& precision);

// The stages, in the order evaluate() runs them. Each adds its design rules as it goes; figures are added
// afterwards (add*Figures, same order) once every input has been resolved.
void evaluatePower(EvalContext& c);     // evaluate_power.cpp    (SPEC.md §4.2)
void evaluateCapex(EvalContext& c);     // evaluate_capex.cpp    (SPEC.md §4.4)
void evaluateFinance(EvalContext& c);   // evaluate_finance.cpp  (SPEC.md §4.5)
void evaluateTraining(EvalContext& c);  // evaluate_training.cpp (SPEC.md §4.6, §4.7)
void evaluateInference(EvalContext& c); // evaluate_inference.cpp (SPEC.md §4.8)

void addPowerFigures(EvalContext& c);
void addCapexFigures(EvalContext& c);
void addFinanceFigures(EvalContext& c);
void addTrainingFigures(EvalContext& c);
void addInferenceFigures(EvalContext& c);

} // namespace ctwin::cost::detail
