#pragma once
#include "assumption_values.h"
#include "bill_of_materials.h"
#include "catalog.h"
#include "design_rule.h"
#include "figure.h"
#include "inference.h"
#include "input_resolver.h"
#include "power_chain.h"
#include "project.h"
#include "reliability.h"
#include "training.h"
#include "units.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost {

/// The fixed capex categories of SPEC.md §4.4, in report order.
inline const std::vector<std::string> kCapexCategories = {
    "compute", "scale_up_network", "scale_out_network", "optics_cables", "storage",
    "power",   "cooling",          "building",          "scale_across",  "integration"};

struct BuildingPower {
    std::string buildingId;
    std::string siteId;
    units::Power itPeak{}, itOperating{}, facilityPeak{}, facilityOperating{}, capacity{};
    double pue = 1.0;
    /// Design-day PUE (facilityPeak / itPeak, ASHRAE 0.4% condition) and the climate behind it
    /// (cost/cooling_plant.h).
    double puePeak = 1.0;
    std::string climateLocation;
    double economizerHoursLiquid = 0.0, economizerHoursAir = 0.0;
    units::Power plantLiquid{}, plantAir{}, crahFans{}; // operating (annual average)
    /// The tariff used (InputResolver::siteTariff; its provenance is Results::input of
    /// "sites.<siteId>.electricity_usd_per_kwh").
    units::MoneyPerEnergy tariff{};
    /// Site-caused IT downtime a year of the building's power topology and its availability 1 - h/8,766 h
    /// (Uptime Institute Tier figures, data/assumptions.json facility_downtime_hours_*).
    double downtimeHours = 0.0, availability = 1.0;
    /// Facility power in each hour class of each month (index month x kHourClasses + class,
    /// cost/cooling_plant.h), W: at the operating point (IT at the utilization) and at full load (IT as
    /// provisioned); and the operating point on the design day. Filled by the power stage.
    std::vector<double> hourFacilityOperatingW, hourFacilityFullLoadW;
    units::Power facilityOperatingDesignDay{};
};

/// One point of a load duration curve: the load is at or above `mw` for `hours` a year.
struct LoadDurationPoint {
    double hours = 0.0;
    double mw = 0.0;
};

/// A site's load against its supply (evaluate_site_power.cpp). Basis of each
/// figure named: the design-day peak at full load (what an interconnect must carry), the annual average.
struct SitePower {
    std::string siteId, name;
    units::Power facilityPeak{};      // design day, IT at full load as provisioned
    units::Power facilityOperating{}; // annual average at the utilization
    /// sites.<id>.grid_interconnect_mw; absent: no limit stated.
    std::optional<double> interconnectMw;
    /// The site's share of the design's on-site generation and battery power (by its share of the facility
    /// peak), MW.
    double onsiteMw = 0.0, bessMw = 0.0;
    /// Load duration curves, MW against hours a year at or above, hours ascending from 0 (the design day)
    /// to 8,760: at the operating point and at full load; the weather hour by hour, IT steady.
    std::vector<LoadDurationPoint> operating, fullLoad;
    /// interconnect + on-site - design-day peak (MW); meaningful with an interconnect.
    double headroomMw() const { return interconnectMw ? *interconnectMw + onsiteMw - facilityPeak.value() / 1e6 : 0.0; }
};

struct PowerResult {
    units::Power itPeak{};      // all racks at load (spares at idle), network, storage, WAN
    units::Power itOperating{}; // at the workload's utilization
    units::Power compute{}, network{}, storage{}, wan{};
    /// Compute IT at full load: racks at load, spares idle; no network, storage or WAN.
    units::Power computePeak{};
    units::Power pumps{}, plant{}, losses{}, misc{};
    units::Power facility{}; // operating
    units::Power facilityPeak{};
    double pue = 1.0;
    /// pue is the annual figure (energy): pueAnnual == pue. puePeak: facility / IT at full load on the
    /// design day (capacity).
    double pueAnnual = 1.0, puePeak = 1.0;
    /// Parts of `plant` (annual average): liquid-loop plants, the air-side chilled-water plant, CRAH fans.
    units::Power plantLiquid{}, plantAir{}, crahFans{};
    /// Full-economizer hours a year, weighted by the heat each plant rejects.
    double economizerHours = 0.0;
    /// Trim compressor capacity of the dry-cooler and tower plants, W of heat (design-day share).
    units::Power trimCompressor{};
    /// IT-weighted facility availability over the buildings, sum(itPeak_b x A_b) / sum(itPeak_b); 1 without
    /// buildings. Scales the GPU-hours sold (finance) and training goodput.
    double facilityAvailability = 1.0;
    std::vector<BuildingPower> buildings;
    /// Per site, in design order (sites with buildings).
    std::vector<SitePower> sites;
    /// Each building's power chain sized on its redundancy topology (capex stage; cost/power_chain.h).
    std::vector<BuildingPowerChain> chains;
};

/// The analyst view of capex, in report order; evaluate_capex.cpp maps the ten
/// categories onto it (the view sums to the same total).
inline const std::vector<std::string> kAnalystCapexCategories = {"gpus",  "other_it", "networking", "storage",
                                                                 "power", "cooling",  "shell",      "other"};

struct CapexResult {
    std::map<std::string, units::Money> byCategory;
    /// `compute` split into "gpus" (accelerator price x GPUs) and "cpus_hosts" (the rest of the rack less
    /// the scale-up trays): the two sum to byCategory["compute"].
    std::map<std::string, units::Money> computeBreakdown;
    /// cpus_hosts by part, from the rack types priced from their parts (model::rackParts):
    /// cpus, memory, backend_nics, frontend_nics, power_supplies, liquid_cooling, system_integration; and
    /// `unpriced`, the non-GPU content of rack types quoted as a whole. Sums to computeBreakdown cpus_hosts.
    std::map<std::string, units::Money> rackPartsBreakdown;
    /// byCategory regrouped as kAnalystCapexCategories.
    std::map<std::string, units::Money> analystView;
    units::Money total{};
    units::Money perGpu{};
    units::Money perMw{}; // per MW of peak IT power
    double share(const std::string& category) const;
};

/// Capex by asset class, for depreciation and capital recovery (IT, network, facility).
struct AssetClass {
    std::string name;
    units::Money capex{};
    double lifeYears = 0;
    std::vector<units::Money> straightLine;     // years 1..H, to the residual value, replacements included
    std::vector<units::Money> decliningBalance; // years 1..H, to the residual, every vintage (replacements)
    double residualFraction = 0;                // of capex, at the end of the life
    double maintenanceFraction = 0;             // of capex, per year
    units::Money maintenance{};                 // per year, on capex less capitalised interest
    units::Money capitalisedInterest{};         // interest during construction in `capex` (facility)
    units::Money economicCharge{};              // (C - S)·CRF(wacc, L) + S·wacc per year
    units::Money accountingCharge{};            // (C - S) / L per year
    std::vector<units::Money> replacement;      // years 1..H: capex of replacements at end of life
    std::vector<units::Money> salvage;          // years 1..H: residual value of the retired vintages
    units::Money bookValueAtHorizon{};
};

/// One annual-cost convention (finance_conventions.h): capex charge + opex.
struct TcoView {
    units::Money capexCharge{}, tcoAnnual{};
    double costPerGpuHour = 0; // USD per GPU-hour
};

/// The keys of CapexResult::rackPartsBreakdown, in report order.
inline constexpr const char* kRackPartKeys[] = {
    "cpus",           "memory",         "backend_nics",       "frontend_nics",
    "power_supplies", "liquid_cooling", "system_integration", "unpriced"};

struct FinanceResult {
    std::vector<AssetClass> assetClasses;
    units::Money annualizedCapex{}, depreciationAnnual{};
    units::Money energyAnnual{}, maintenanceAnnual{}, staffAnnual{}, wanLeaseAnnual{}, opexAnnual{},
        tcoAnnual{};
    units::Energy facilityEnergyAnnual{};
    double gpuHoursPerYear = 0;
    double costPerGpuHour = 0;           // USD per GPU-hour
    std::vector<units::Money> cashFlows; // year 0..horizon
    std::vector<units::Money> revenue, opex, tax;
    units::Money npv{};
    std::optional<double> irr;
    std::optional<double> paybackYears; // on operating cash flows: no terminal value
    /// The GPU-hour price at which NPV = 0 (after tax, with the time to revenue; finance.h breakEvenPrice);
    /// nullopt when no price brings NPV to zero or the cash flows are not defined.
    std::optional<double> breakEvenGpuHour;
    /// Insurance and property tax, yearly, included in opexAnnual.
    units::Money insuranceAnnual{}, propertyTaxAnnual{};
    units::Money softwareAnnual{}; // software licences per installed GPU a year
    /// The GPU-hour price the revenue uses: the GPU-weighted catalog rental price of the design's GPUs, or
    /// assumptions.gpu_hour_price_usd when the design or an override sets it (cost/evaluate_finance.cpp).
    double gpuHourPrice = 0;
    bool gpuHourPriceFromCatalog = false;
    /// The catalog price's provenance (accelerators, prices, basis, sources); empty for the assumption.
    std::string gpuHourPriceSource;
    double timeToRevenueDays = 0;
    units::Money burnInCost{};
    /// Construction: its length, and the interest on the facility and land draws until
    /// delivery at the WACC (finance.h interestDuringConstruction), capitalised into the facility class.
    /// Cash flows, NPV, payback and break-even are valued at delivery (t = 0, end of construction); the
    /// initial outflow is capex + IDC.
    int constructionMonths = 0;
    units::Money interestDuringConstruction{};
    /// The construction draws (years from delivery, <= 0) the dated IRR uses.
    std::vector<double> drawYears;
    std::vector<units::Money> drawAmounts;
    /// Capital recovery and straight-line views; `tcoAnnual`, `costPerGpuHour` and `annualizedCapex` /
    /// `depreciationAnnual` hold the headline and the two capex charges.
    TcoView economic, accounting;
    std::string convention = "economic"; // the headline: the design's project.tco_convention
    units::Money land{};                 // site land, in capex category "building"; not depreciated
    std::vector<units::Money> replacementCapex, salvage, terminalValue; // years 1..H (terminal: year H only)
};

struct TrainingResult {
    std::string jobId;
    ReliabilityResult reliability;
    TrainingEstimate estimate;
    units::Money runCost{};
    double costPerMillionTokens = 0;
};

struct InferenceResult {
    std::string serviceId;
    ServiceSizing sizing;
    std::vector<DecodePoint> curve;               // at the chosen replica size
    double prefillAttentionShare = 0;             // prefill attention FLOPs per token / 2·active params
    double outputTokensPerSecondPerMw = 0;        // per provisioned (peak facility) MW
    double totalTokensPerSecondPerMw = 0;         // input + output, per provisioned MW
    double outputTokensPerSecondPerAverageMw = 0; // per average (operating) facility MW
    double totalTokensPerSecondPerAverageMw = 0;
    double costPerMillionInputTokens = 0;   // prefill GPU-time share / new (uncached) input tokens
    double costPerMillionOutputTokens = 0;  // decode GPU-time share / output tokens
    double costPerRequest = 0;              // all the service's GPU time / requests
    double costPerMillionBlendedTokens = 0; // all its GPU time / (input incl. cached + output) tokens
    double joulesPerToken = 0;
};

struct Timeline; // cost/timeline.h

/// Everything evaluate() derives from (design, catalog, assumptions).
struct Results {
    BillOfMaterials bom;
    PowerResult power;
    CapexResult capex;
    FinanceResult finance;
    /// Goodput of the first training job (reliability model), else assumptions.goodput.
    double goodput = 1.0;
    std::vector<TrainingResult> training;
    std::vector<InferenceResult> inference;
    std::vector<DesignRule> rules;
    /// Every headline figure with its provenance, keyed by export path ("power.pue").
    std::vector<Figure> figures;
    /// Every input with the value used and where it came from (InputResolver::inputs): every assumption,
    /// then the entity values read (site tariffs, shell costs, pinned PUEs, route lengths, MFUs, ...).
    std::vector<ResolvedInput> inputs;
    /// The monthly time axis (cost/timeline.h): phased energisation, cohorts and refresh, monthly
    /// cash flows. Set by evaluate() when the design evaluates; null from evaluateFigures.
    std::shared_ptr<const Timeline> timeline;
    const Figure* figure(const std::string& key) const;
    /// The input at an override path ("assumptions.wacc", "sites.site-wi.electricity_usd_per_kwh").
    const ResolvedInput* input(const std::string& path) const;
    bool hasErrors() const;
};

/// Reliability options of a job from its fields and the assumptions (restart times, stragglers, SDC).
ReliabilityOptions reliabilityOptionsFor(const model::TrainingJob& job, const AssumptionValues& assumptions);

/// The engine: a pure function of the inputs the resolver gives (design, assumptions, overrides).
/// Never throws for a design that loaded; infeasible designs get design-rule errors and finite numbers.
/// `bom`, when given, must come from deriveBillOfMaterials of the same inputs except those for which
/// overrideAffectsBillOfMaterials is false (scenario tools reuse it across such variations).
Results evaluate(const InputResolver& inputs, const model::Catalog& catalog,
                 const BillOfMaterials* bom = nullptr);
/// evaluate() that derives the bill of materials (no `bom` given) from `compiled` (cost/compiled_design.h:
/// the design compiled before, valid while no override changes it; overrideAffectsCompiledDesign).
Results evaluate(const InputResolver& inputs, const model::Catalog& catalog, const BillOfMaterials* bom,
                 std::shared_ptr<const CompiledDesign> compiled);
class EvaluationMemo; // cost/evaluation_memo.h

/// The values of the figures `keys` exactly as evaluate() of the same inputs with `bom` reports them
/// (Figure::value of Results::figure), std::nullopt where evaluate() has no such figure. For the scenario
/// tools (sweep, tornado, uncertainty), which need a few figures of thousands of variations: the same stages
/// and figure code run, without copying `bom`, building provenance, other figures or the input record.
/// `memo`, when given and covering the evaluation (EvaluationMemo::covers), reuses stage results of earlier
/// evaluations with equal inputs. test_figures_lean checks the values against evaluate() on every reference.
std::vector<std::optional<double>> evaluateFigures(const InputResolver& inputs, const model::Catalog& catalog,
                                                   const BillOfMaterials& bom,
                                                   const std::vector<std::string>& keys,
                                                   EvaluationMemo* memo = nullptr);
/// evaluate() of the design with `defaults` (data/assumptions.json) under its own assumptions block.
Results evaluate(const model::Project& project, const model::Catalog& catalog,
                 const model::AssumptionSet& defaults, const BillOfMaterials* bom = nullptr);
/// evaluate() with overrides (command line, scenario). Throws InputError for a bad override and, after the
/// evaluation, for an override nothing read (InputResolver::requireOverridesUsed).
Results evaluate(const model::Project& project, const model::Catalog& catalog,
                 const model::AssumptionSet& defaults, const InputOverrides& overrides);

} // namespace ctwin::cost
