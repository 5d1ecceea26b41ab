#pragma once
// Climate-driven heat-rejection plant: economizer hours per month from a
// loop's supply temperature and the plant's approach, compressor COP from the lift, annual-average and
// design-day plant power per watt of heat; and the air side (CRAH fans + chilled-water plant) for the share
// of the heat the racks reject to air.
//
// Model (all temperatures degC):
//  * Facility water supply Ts (the loop's supply_temp_c: the ASHRAE TC 9.9 W-class bound, "Liquid Cooling
//    Guidelines for Datacom Equipment Centers", 2nd ed. 2014 / "Water-Cooled Servers" 2019: W17, W27, W32,
//    W40, W45, W+), return Tr = Ts + delta_t.
//  * Economizer water temperature Te = T_out + approach, with T_out the outdoor dry-bulb (dry cooler) or
//    wet-bulb (cooling tower; the tower + heat exchanger of a chiller plant's water-side economizer).
//      Te <= Ts        full economizer: compressors off (ASHRAE 90.1-2019 §6.5.1.2 water economizer);
//      Ts < Te < Tr    partial (integrated) economizer: the economizer pre-cools the return water and the
//                      compressors carry (Te - Ts)/(Tr - Ts) of the heat (ASHRAE 90.1-2019 §6.5.1.2.2
//                      "integrated economizer"), taken as one half on average over those hours;
//      Te >= Tr        none: compressors carry all the heat.
//  * Hours in a month: the hourly outdoor temperature is taken as normal around the monthly mean with a
//    standard deviation sigma, the location's own (ClimateLocation::sigmaDryBulbK / sigmaWetBulbK, fitted so
//    that its ASHRAE 0.4 % design value is exceeded 35 h a year) times the assumption
//    climate_hourly_spread_factor, so the share of the hours below a threshold x is Phi((x - mean)/sigma).
//    The compressors' share of the heat is its expectation over that distribution: with the linear share
//    s(T) = clamp((T - a)/(b - a), 0, 1) between full (a) and no (b) economizer,
//      E[s] = (G(a) - G(b)) / (b - a),   G(c) = E[(T - c)+] = sigma phi(d) + (mean - c) Phi(d), d = (mean -
//      c)/sigma
//    (the partial expectation of a normal variable), the same linear share the design day uses.
//  * Compressor COP scales with the inverse of the lift (Carnot: COP = T_evap / (T_cond - T_evap), a real
//    machine keeping a near-constant fraction of Carnot; Gordon & Ng, "Cool Thermodynamics", 2000, ch. 3):
//      COP(lift) = COP_rated x lift_rated / lift, at most compressor_cop_max_factor x COP_rated,
//    lift = T_cond - Ts with T_cond = T_out,cond + condenser_approach (wet-bulb for water-cooled
//    condensers, dry-bulb for air-cooled ones), evaluated at the month's mean and on the design day.
//  * Plant electric power per watt of heat: (1 - s)/COP_economizer + s/COP_compressor, s the compressor
//    share. Annual: the hour-weighted mean over the 12 months. Design day: ASHRAE 0.4% design condition.

#include <array>
#include <string>
#include <vector>

#include "catalog_item.h"
#include "climate.h"

namespace ctwin::cost {

/// Plant parameters read from a catalog plant (data/catalog/cooling.json; data/FORMAT.md).
struct PlantParameters {
    std::string id;
    std::string type;                 // "chiller", "dry_cooler", "cooling_tower"
    bool economizerOnDryBulb = false; // dry cooler: dry-bulb; tower and chiller water-side economizer: wet-bulb
    bool condenserOnDryBulb = false;  // air-cooled trim compressors (dry cooler plant)
    double approachK = 0.0;           // outdoor -> facility water supply in economizer mode
    double economizerCop = 0.0;       // fans and pumps only
    double compressorCop = 0.0;       // at ratedLiftK, heat rejection included
    double ratedLiftK = 0.0;
    double condenserApproachK = 0.0;
    /// False for a plant without the climate values (a catalog built in code before them): it then runs
    /// at its fixed `cop` all year and on the design day, as the engine did before the climate model.
    bool climateAware = true;
};

/// Climate and plant assumptions (data/assumptions.json).
struct ClimateOptions {
    /// Multiplies each location's fitted hourly spread (1 = the fit).
    double spreadFactor = 1.0;
    double copMaxFactor = 2.0;
};

/// Reads a plant's parameters: chiller: compressor COP = `cop`, economizer COP = `economizer_cop`;
/// dry cooler and tower: economizer COP = `cop`, trim compressor COP = `compressor_cop`. Each also has
/// `economizer_approach_k`, `rated_lift_k` and `condenser_approach_k` (data/catalog/cooling.json requires
/// them; a plant without them is not climate-aware).
PlantParameters plantParameters(const model::CatalogItem& plant);

struct PlantMonth {
    double hours = 0;            // hours of the month (days x 24)
    double economizerHours = 0;  // full economizer (compressors off)
    double partialHours = 0;     // integrated economizer (compressors trim)
    double compressorShare = 0;  // of the month's heat carried by compressors
    double compressorCop = 0;    // at the month's mean lift
    double inverseCop = 0;       // plant W per W of heat
};

/// Hour classes of a month for the load duration curve: the month's hourly outdoor
/// temperature, N(mean, sigma) as above, cut into kHourClasses classes of equal probability, each taken at
/// its middle quantile. 12 classes of 12 months give 144 points a year; the top class of the hottest month
/// (the 96th percentile of its hours) stays below the design day, which the curve adds as its first point.
inline constexpr int kHourClasses = 12;
/// The standard normal z of class k's middle quantile, Phi^-1((k + 0.5) / kHourClasses), ascending.
double hourClassZ(int k);

/// Where a plant runs: the annual average, the design day, or one hour class of one month.
struct PlantCondition {
    enum class Kind { Annual, DesignDay, HourClass } kind = Kind::Annual;
    int month = 0, hourClass = 0;
    static PlantCondition annual() { return {}; }
    static PlantCondition designDay() { return {Kind::DesignDay, 0, 0}; }
    static PlantCondition hour(int month, int hourClass) { return {Kind::HourClass, month, hourClass}; }
};

struct PlantPerformance {
    std::array<PlantMonth, 12> months{};
    /// Plant W per W of heat in each hour class of each month (hourClassZ): the economizer's share at the
    /// class's temperature, the compressors at the month's mean lift (as the monthly figure), so the classes'
    /// mean converges to the month's inverseCop. With free_cooling_hours_per_year, every class is the
    /// annual figure (the override gives no weather).
    std::array<std::array<double, kHourClasses>, 12> hourInverseCop{};
    double economizerHours = 0; // sum over the months (full economizer)
    double partialHours = 0;
    double annualInverseCop = 0; // hour-weighted mean of the months
    double designCompressorShare = 0;
    double designCompressorCop = 0;
    double designInverseCop = 0;
    /// The site's free_cooling_hours_per_year replaced the climate-derived hours of the annual figure.
    bool hoursOverridden = false;
};

/// Standard normal cumulative distribution: Phi(z) = erfc(-z / sqrt 2) / 2.
double normalCdf(double z);

/// The compressor COP at a lift (K), COP_rated x lift_rated / lift, capped at copMaxFactor x COP_rated;
/// lifts below 1 K count as 1 K.
double compressorCopAtLift(const PlantParameters& plant, double liftK, const ClimateOptions& options);

/// Monthly, annual and design-day performance of a plant supplying water at supplyC with return
/// supplyC + deltaTK, in a climate. `freeCoolingHoursOverride` (a site's free_cooling_hours_per_year):
/// the annual figure then uses f = hours / 8,766 at the economizer COP and (1 - f) at the rated
/// compressor COP, and the months are left as the climate gives them; the design day is always the
/// climate's.
PlantPerformance plantPerformance(const PlantParameters& plant, double supplyC, double deltaTK,
                                  const ClimateLocation& climate, const ClimateOptions& options,
                                  const double* freeCoolingHoursOverride = nullptr);

/// Annual mean water a wet cooling tower evaporates per kWh of heat it rejects (kg/kWh) in a climate
/// (cost/power_envelope.h towerEvaporationKgPerKwh): the 12 x kHourClasses hour classes, each at its month's
/// dry-bulb and wet-bulb taken at the same quantile (mean + spread factor x fitted sigma x hourClassZ: hot
/// hours are taken as the humid ones), weighted by their hours (the heat as constant through the year);
/// the fans' exit floor is the full-flow exit air on the design condition (the 0.4 % dry-bulb and
/// wet-bulb, which are not coincident: a slightly drier design air than the real one).
double annualTowerEvaporationKgPerKwh(const ClimateLocation& climate, double rangeK, double liquidGasRatio,
                                      const ClimateOptions& options);

/// No climate (a building without a site): compressors all year and on the design day, at the rated COP.
PlantPerformance ratedPerformance(const PlantParameters& plant);

/// One liquid loop of a building: its plant, facility water supply and delta-T, heat at full load.
struct LoopLoad {
    const model::CatalogItem* plant = nullptr;
    double supplyC = 0.0, deltaTK = 0.0;
    double liquidHeatW = 0.0; // rack heat to liquid at full load
    double pumpW = 0.0;       // CDU pump work, also rejected by the loop's plant
};

/// The heat-rejection plants of a building: each loop's liquid heat (and pump work) goes
/// to its own plant; what the racks reject to air (1 - liquid_fraction of the racks, and network, storage
/// and WAN gear) goes to CRAH fans and the air-side chilled-water plant.
struct BuildingCooling {
    const ClimateLocation* climate = nullptr;
    double liquidHeatW = 0.0, pumpW = 0.0;                     // at full load
    double liquidPlantAnnualW = 0.0, liquidPlantDesignW = 0.0; // at full load: sum of (heat + pumps) / COP
    std::array<std::array<double, kHourClasses>, 12> liquidPlantHourW{}; // at full load, per hour class
    double liquidEconomizerHours = 0.0;                        // heat-weighted over the loops
    PlantPerformance air;                                      // the air-side chilled-water plant
    double crahFanFraction = 0.0;                              // CRAH fan W per W of air heat
    double plantCapexUsd = 0.0;                                // liquid plants only (the air side: airPlantCapex)
    /// Trim compressor capacity of the liquid plants (W of heat): each dry-cooler or tower loop's heat x its
    /// design-day compressor share (a chiller plant is all compressor, priced in its capex_usd_per_w).
    double trimCompressorW = 0.0;

    /// Air-side heat: IT power not carried by the loops at this load.
    double airHeatW(double itW, double loadScale) const;
    /// Plant electric power (liquid plants + air-side plant + CRAH fans) at an IT power and load scale
    /// (operating / full load), annual average, design day or one hour class.
    double plantPowerW(double itW, double loadScale, const PlantCondition& at) const;
};

BuildingCooling buildingCooling(const std::vector<LoopLoad>& loops, const PlantParameters& airPlant,
                                double airSupplyC, double airDeltaTK, double crahFanFraction,
                                const ClimateLocation* climate, const ClimateOptions& options,
                                const double* freeCoolingHoursOverride);

} // namespace ctwin::cost
