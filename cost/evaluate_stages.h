#pragma once
// Internal to the engine: the stages evaluate() runs in order (SPEC.md §4), each in its own file, sharing
// one EvalContext. Not part of cost/'s public interface; include evaluate.h instead.
#include "compiled_design.h"
#include "evaluate.h"
#include "evaluation_memo.h"
#include "finance.h"
#include "fixed_format.h"
#include "power_envelope.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ctwin::cost::detail {

/// One provenance source of a figure, turned into text only when evaluate() records the figure with its
/// provenance; evaluateFigures (scenario tools) never builds it. Literal text, a ready string, or the source
/// of an assumption (AssumptionValues::source).
class SourceRef {
public:
    SourceRef(const char* text) : m_literal(text) {}
    SourceRef(std::string text) : m_text(std::move(text)) {}
    static SourceRef assumption(std::string key) {
        SourceRef s(std::move(key));
        s.m_assumption = true;
        return s;
    }
    std::string text(const AssumptionValues& a) const {
        if (m_literal) return m_literal;
        return m_assumption ? a.source(m_text) : m_text;
    }

private:
    const char* m_literal = nullptr;
    std::string m_text; // the text, or the assumption key
    bool m_assumption = false;
};
/// What the stages share: the inputs, layout look-ups, and intermediate figures later stages need.
struct EvalContext {
    EvalContext(const InputResolver& inputs_, const model::Catalog& catalog_, const model::Project& p_,
                const AssumptionValues& a_, Results& r_, const BillOfMaterials& bom_)
        : inputs(inputs_), catalog(catalog_), p(p_), a(a_), r(r_), bom(bom_) {}

    const InputResolver& inputs;
    const model::Catalog& catalog;
    const model::Project& p;
    const AssumptionValues& a;
    Results& r;
    /// The bill of materials the stages read: r.bom in evaluate(), the caller's in evaluateFigures (not
    /// copied into r).
    const BillOfMaterials& bom;

    std::unordered_map<std::string, const model::DataHall*> halls;
    std::unordered_map<std::string, const model::Building*> buildings;
    std::unordered_map<std::string, const model::Site*> sites;
    /// The design's ids resolved to indices, racks grouped by class (bom.compiled; cost/compiled_design.h).
    const CompiledDesign* compiled = nullptr;

    double utilization = 0;                           // clamped to [0, 1]
    std::map<std::string, BuildingPower> perBuilding; // by building id (power stage)
    units::Money plantCapex{};                        // power stage: plant sized for the full-load heat
    units::Power orphanIt{};                          // IT power of racks outside any building
    double sellableGpus = 0;                          // finance stage: GPUs less hot spares
    bool itLifeFromRacks = false; // finance stage: the IT life comes from the rack types' useful_life_years

    // ---- Power envelope (cost/power_envelope.h), power stage unless noted ----
    double oversubscription = 1.0; // assumptions.power_oversubscription_ratio (>= 1), the design's
    double provisioningBasis = 0;  // assumptions.power_provisioning_basis: 0 nameplate .. 1 observed
    /// Per compiled class: its ratio, the tightest of the design's and its site's, building's and hall's
    /// (readPowerEnvelope); the largest over the working compute racks.
    std::vector<double> classRatio;
    double maxRatio = 1.0;
    /// Per training job: its ratio (the most oversubscribed domain of its sites) and its compute phase under
    /// that cap; trainingCap is the first job's.
    std::vector<double> trainingRatios;
    std::vector<CapOutcome> trainingCaps;
    /// Per training job (planTrainingSteps, before the power stage): its inputs but the goodput, the rules
    /// they raise, and its step at goodput 1, whose compute phase and troughs the power stage charges.
    struct TrainingPlan {
        TrainingInput input;
        TrainingEstimate step;
        std::vector<DesignRule> rules;
        /// Its racks' draw, share of full-load power: in the step's compute phase (at the job's capped
        /// clock), in its communication trough, and their mean over the step (trainingStepDraws).
        double computeDraw = 1, troughDraw = 1, meanDraw = 1;
    };
    std::vector<TrainingPlan> trainingPlans;
    /// Per compiled class (CompiledDesign::classes): full-load draw as provisioned, nameplate / ratio for
    /// working compute racks (spares idle, other racks at load).
    std::vector<double> classProvisionedW;
    /// Flexible interconnect: curtailment hours a year, the share of load shed and the
    /// mean event length (read when the hours are above 0); the share of GPU-hours the grid leaves, and the
    /// first training job's (it stops for each event and restarts after).
    double curtailmentHours = 0, curtailmentDepth = 0, curtailmentEventHours = 0;
    double gridAvailability = 1, trainingGridAvailability = 1;
    /// On-site generation, power stage: the share of the facility's energy it serves,
    /// its capex, fuel cost and emissions per kWh generated (all 0 without it).
    double onsiteMw = 0, onsiteShare = 0, onsiteCapexUsd = 0, gasUsdPerKwh = 0, gasGco2ePerKwh = 0;
    double onsiteFuelAnnualUsd = 0; // finance stage
    /// The finance stage's yearly flows as functions of the GPU-hour price (finance.h PricedYear), the outlay
    /// at delivery (capex + IDC), the WACC and the tax rate: the token economics value the same cash flow
    /// at the price the services' tokens earn (cost/evaluate_token_economics.cpp).
    std::vector<PricedYear> pricedYears;
    units::Money financeInitial{};
    double wacc = 0, taxRate = 0;
    /// One inference service's token economics at its operating point (cost/evaluate_token_economics.cpp,
    /// issue 34 item 4). Per GPU-hour values are per busy GPU-hour, the basis of finance.cost_per_gpu_hour.
    struct ServiceTokens {
        bool priced = false;
        double priceInput = 0, priceCachedInput = 0, priceOutput = 0; // USD per million tokens
        std::string priceSource;
        double licenceShare = 0;
        double grossPerSecond = 0, grossPerGpuHour = 0, netPerGpuHour = 0, profitPerGpuHour = 0;
        double revenueAnnual = 0, profitAnnual = 0, provisionedGw = 0;
        double apiPerRequest = 0, rentPerRequest = 0;
        std::optional<double> buildBreakEvenUtilization, rentBreakEvenUtilization;
    };
    std::vector<ServiceTokens> serviceTokens; // one per inference service, in order
    /// Cost per busy GPU-hour as a function of utilization u: tokenCostFixed / u + tokenCostVariable.
    double tokenCostFixed = 0, tokenCostVariable = 0;
    /// Revenue per GPU-hour sold when the priced services sell tokens and every other sellable GPU its
    /// hours at the GPU-hour price; absent without a priced service. The timeline's NPV selling tokens.
    std::optional<double> tokenBlendedGpuHourPrice;
    double tokenGpus = 0;
    std::optional<double> timelineNpvTokenRevenue;
    /// Battery, power stage: the first training job's step swing at the meter, the battery
    /// that smooths it to the utility's ramp limit and carries curtailment events, and its capex.
    double trainingSwingMw = 0, bessPowerMw = 0, bessEnergyMwh = 0, bessCapexUsd = 0;
    double trainingStopSwingMw = 0;    // the job stopping at once (a crash): compute phase -> idle
    double rackIdleShare = 0;          // working compute racks' idle / full-load power
    double curtailmentCovered = 0;     // share of each curtailment event the battery carries
    double bessLossMwhPerYear = 0;     // round-trip losses of the energy it gives back (evaluate_power.cpp)
    double bessCycledMwhPerYear = 0;   // energy it gives back smoothing the first job's steps
    units::Power computeProvisioned{}; // the same racks as provisioned (nameplate / ratio)
    units::Power computeNameplate{};   // compute racks at full load, not oversubscribed (spares idle)
    PowerFrequencyCurve powerCurve;    // host share always; s and alpha read when the ratio is above 1
    double rackLoadWPerGpu = 0;        // working compute racks' full-load power per GPU
    /// Working compute racks' draw while sold, as a share of their full-load power (sumItPower: the
    /// services' racks at their prefill/decode mix, the rest at 1).
    double computeBusyShare = 1;
    CapOutcome trainingCap;            // a training step's compute phase under the cap
    /// The rack type the services run on and its scale-up domain (sizeInferenceServices).
    const model::CatalogItem* servingRack = nullptr;
    int servingDomainGpus = 0;
    /// Inference sizing, per service: the cap's outcome, output tokens/s at full clock, and the mean draw of
    /// the serving racks at the operating point (share of full-load power, capped).
    std::vector<CapOutcome> inferenceCaps;
    std::vector<double> inferenceUncappedOutput, inferenceBusyDrawShare;
    /// Rack draw at full clock as a share of full load: training's compute phase (0 without a job) and each
    /// service's prefill/decode mean; 1 / draw is the largest ratio at which no cap binds.
    double trainingFullClockDraw = 0;
    std::vector<double> inferenceFullClockDraw;
    double evaporativeHeatW = 0;     // annual mean heat (W) rejected by evaporative plants
    double evaporationKgPerHour = 0; // annual mean water they evaporate (cost/power_envelope.h)
    /// Environment stage (evaluate_environment.cpp): annual energy, location-based carbon and on-site water.
    struct Environment {
        double energyKwh = 0, carbonG = 0, coveredKwh = 0, intensity = 0;
        double litresPerKwhHeat = 0, evaporatedShare = 0, waterL = 0, itKwh = 0, wue = 0;
        double kwhPerMillionOutput = 0; // first inference service, at its operating point
        bool perToken = false;
        /// Embodied carbon, cradle-to-gate (t): the servers' (per GPU) and the building's with its plant
        /// (per MW of IT at full load); per year, each straight over its asset class's life.
        double embodiedItT = 0, embodiedBuildingT = 0, embodiedPerYearT = 0;
        double embodiedPerMillionOutputG = 0; // first inference service
        std::vector<SourceRef> carbonSources;
    } environment;

    /// Timeline stage (evaluate_timeline.cpp): the NPV with every hall at the reference delivery.
    std::optional<double> timelineNpvWithoutPhasing;

    /// Stage results shared across the variations of a scenario tool (cost/evaluation_memo.h); null in
    /// evaluate() and whenever the memo does not cover this evaluation.
    EvaluationMemo* memo = nullptr;
    /// evaluateFigures: the figure keys asked for and their values (first figure of each key, as
    /// Results::figure); addFigure then records nothing else. Null in evaluate(), which records every figure.
    const std::vector<std::string>* wantedKeys = nullptr;
    std::vector<std::optional<double>>* wantedValues = nullptr;

    /// True when figures are recorded with their provenance (evaluate()); false in evaluateFigures.
    bool recordsProvenance() const { return wantedKeys == nullptr; }
    /// Whether the figure `key` is recorded: always in evaluate(), only when asked for in evaluateFigures.
    /// Work that feeds nothing but figures nobody asked for may be skipped (the IRR's root search).
    bool wants(std::string_view key) const {
        return !wantedKeys || std::find(wantedKeys->begin(), wantedKeys->end(), key) != wantedKeys->end();
    }
    /// Whether any figure whose key starts with `prefix` is recorded.
    bool wantsPrefix(std::string_view prefix) const {
        return !wantedKeys || std::any_of(wantedKeys->begin(), wantedKeys->end(), [&](const std::string& k) {
            return std::string_view(k).substr(0, prefix.size()) == prefix;
        });
    }
    /// The provenance text of an assumption, built when the figure is recorded.
    static SourceRef source(std::string key) { return SourceRef::assumption(std::move(key)); }
};

/// GPUs in the design's working compute racks (spares left out), of every compute type or of `onlyType`.
double workingGpus(const EvalContext& c, const model::CatalogItem* onlyType = nullptr);
/// Replaces NaN/inf (impossible inputs that slipped through) by 0 so no report ever prints NaN.
double finite(double v);
double safeDiv(double a, double b);
/// Records a figure (evaluate()) or, in evaluateFigures, only the value of a key asked for. The value goes
/// through finite() either way, so both report the same number.
void addFigure(EvalContext& c, std::string_view key, double value, std::string_view unit,
               std::string_view label, std::string_view formula,
               std::initializer_list<std::pair<const char*, double>> inputs = {},
               std::initializer_list<SourceRef> sources = {});
/// addFigure with sources listed before the call.
void addFigure(EvalContext& c, std::string_view key, double value, std::string_view unit,
               std::string_view label, std::string_view formula,
               std::initializer_list<std::pair<const char*, double>> inputs,
               const std::vector<SourceRef>& sources);
/// Dense peak FLOP/s of an accelerator at a precision (fp4 -> fp8 -> bf16 fallbacks).
double precisionFlops(const model::CatalogItem& accel, const std::string& precision);

// The stages, in the order evaluate() runs them. Each adds its design rules as it goes; figures are added
// afterwards (add*Figures, same order) once every input has been resolved.
/// Feed and row loads at full IT power from a per-class draw (classProvisionedW); power_chain.h has the
/// nameplate ones.
std::vector<double> feedDesignLoadsW(const model::Project& p, const CompiledDesign& cd,
                                     const std::vector<double>& classW);
std::vector<double> rowDesignLoadsW(const model::Project& p, const CompiledDesign& cd,
                                    const std::vector<double>& classW);
/// A rack's planning basis as a share of its full-load power (power_provisioning_basis w): nameplate (1)
/// blended with its workload's observed peak draw at full clock, 1 - w + w x observed.
inline double basisShare(double weight, double observedShare) {
    return 1.0 - weight + weight * observedShare;
}
/// The power envelope's inputs: the oversubscription ratio, the racks' host share and power
/// curve, curtailment and training's compute phase under the cap; first, as serving sizing needs the cap
/// (evaluate_power.cpp).
void readPowerEnvelope(EvalContext& c);
void evaluatePower(EvalContext& c); // evaluate_power.cpp    (SPEC.md §4.2), after sizeInferenceServices
/// Each site's load against its grid interconnect and on-site supply, and its load duration curves (issue
/// 35 items 2 and 5); the last step of evaluatePower (evaluate_site_power.cpp).
void evaluateSitePower(EvalContext& c);
void addSitePowerFigures(EvalContext& c);
/// The assumption holding the site-caused downtime hours a year of a building power topology (Uptime
/// Institute Tier mapping; evaluate_power.cpp).
const char* downtimeAssumptionOf(const std::string& powerTopology);
void evaluateCapex(EvalContext& c);    // evaluate_capex.cpp    (SPEC.md §4.4)
void evaluateFinance(EvalContext& c);  // evaluate_finance.cpp  (SPEC.md §4.5)
void evaluateTraining(EvalContext& c); // evaluate_training.cpp (SPEC.md §4.6, §4.7)
/// Each training job's inputs and step at goodput 1 (evaluate_training.cpp): after readPowerEnvelope (the
/// job's cap), before the power stage (which charges the step's compute phase and troughs).
void planTrainingSteps(EvalContext& c);
/// Training jobs and inference services each claim their `gpus` at once; an Error when the
/// claims exceed the GPUs the design sells (hot spares aside), naming every booking.
void addCapacityBookingRule(EvalContext& c); // evaluate_training.cpp
/// The services' serving physics (SPEC.md §4.8): replica, batch, prefill share, capping and their racks'
/// mean draw; before the power stage, whose operating power charges that draw (evaluate_inference.cpp).
void sizeInferenceServices(EvalContext& c);
/// The services' design rules and prices (tokens per MW, $/M tokens); after finance.
void evaluateInference(EvalContext& c); // evaluate_inference.cpp (SPEC.md §4.8)

void addPowerFigures(EvalContext& c);
void addCapexFigures(EvalContext& c);
void addFinanceFigures(EvalContext& c);
void addTrainingFigures(EvalContext& c);
void addInferenceFigures(EvalContext& c);
/// Token revenue, profit and build / rent / API per inference service; after finance and
/// inference.
void evaluateTokenEconomics(EvalContext& c);
void addTokenEconomicsFigures(EvalContext& c);
/// Energy, location-based carbon and on-site water, per year and per M output tokens
/// (evaluate_environment.cpp).
void addEnvironmentFigures(EvalContext& c);
void evaluateEnvironment(EvalContext& c); // evaluate_environment.cpp, after evaluateInference
void evaluateTimeline(EvalContext& c);    // evaluate_timeline.cpp, after evaluateFinance
void addTimelineFigures(EvalContext& c);

} // namespace ctwin::cost::detail
