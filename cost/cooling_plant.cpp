#include "cooling_plant.h"

#include "power_envelope.h"
#include "units.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ctwin::cost {

PlantParameters plantParameters(const model::CatalogItem& plant) {
    PlantParameters p;
    p.id = plant.id;
    p.type = plant.attribute("type");
    // A dry cooler rejects to the dry-bulb (sensible only); towers reject to the wet-bulb (evaporative).
    p.economizerOnDryBulb = p.type == "dry_cooler";
    p.condenserOnDryBulb = p.type == "dry_cooler";
    const char* climateValues[] = {"economizer_approach_k", "rated_lift_k", "condenser_approach_k",
                                   p.type == "chiller" ? "economizer_cop" : "compressor_cop"};
    for (const char* v : climateValues)
        if (!plant.find(v)) p.climateAware = false;
    if (!p.climateAware) {
        p.economizerCop = p.compressorCop = plant.value("cop");
        p.ratedLiftK = 1.0;
        return p;
    }
    p.approachK = plant.value("economizer_approach_k");
    p.ratedLiftK = plant.value("rated_lift_k");
    p.condenserApproachK = plant.value("condenser_approach_k");
    if (p.type == "chiller") {
        p.compressorCop = plant.value("cop");
        p.economizerCop = plant.value("economizer_cop");
    } else {
        p.economizerCop = plant.value("cop");
        p.compressorCop = plant.value("compressor_cop");
    }
    return p;
}

double normalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double hourClassZ(int k) {
    // Phi^-1 by bisection on normalCdf (monotone) over [-8, 8] to 1e-12 in 60 steps, once per class.
    static const std::array<double, kHourClasses> z = [] {
        std::array<double, kHourClasses> out{};
        for (int i = 0; i < kHourClasses; ++i) {
            const double q = (i + 0.5) / kHourClasses;
            double lo = -8.0, hi = 8.0;
            for (int step = 0; step < 60; ++step) {
                const double mid = 0.5 * (lo + hi);
                (normalCdf(mid) < q ? lo : hi) = mid;
            }
            out[static_cast<size_t>(i)] = 0.5 * (lo + hi);
        }
        return out;
    }();
    return z[static_cast<size_t>(std::clamp(k, 0, kHourClasses - 1))];
}

double compressorCopAtLift(const PlantParameters& plant, double liftK, const ClimateOptions& options) {
    if (plant.compressorCop <= 0) return 0.0;
    const double lift = std::max(liftK, 1.0);
    return std::min(plant.compressorCop * plant.ratedLiftK / lift, options.copMaxFactor * plant.compressorCop);
}

namespace {

/// Plant W per W of heat with compressor share s.
double inverseCop(double s, double economizerCop, double compressorCop) {
    double inv = 0;
    if (s < 1) inv += economizerCop > 0 ? (1.0 - s) / economizerCop : 0.0;
    if (s > 0) inv += compressorCop > 0 ? s / compressorCop : 0.0;
    return inv;
}

} // namespace

PlantPerformance plantPerformance(const PlantParameters& plant, double supplyC, double deltaTK,
                                  const ClimateLocation& climate, const ClimateOptions& options,
                                  const double* freeCoolingHoursOverride) {
    if (!plant.climateAware) return ratedPerformance(plant);
    PlantPerformance out;
    const double returnC = supplyC + std::max(deltaTK, 0.0);
    const double fitted = plant.economizerOnDryBulb ? climate.sigmaDryBulbK : climate.sigmaWetBulbK;
    const double sigma = std::max(options.spreadFactor * (fitted > 0 ? fitted : kMinHourlySpreadK), 1e-6);
    // The economizer delivers Ts when T_out <= Ts - approach; it still helps up to T_out < Tr - approach.
    const double fullBelow = supplyC - plant.approachK, partialBelow = returnC - plant.approachK;
    // E[(T - c)+] for T ~ N(mean, sigma): the partial expectation of a normal variable.
    auto excess = [&](double mean, double c) {
        const double d = (mean - c) / sigma;
        return sigma * std::exp(-0.5 * d * d) / std::sqrt(2.0 * std::numbers::pi) + (mean - c) * normalCdf(d);
    };
    double hoursSum = 0, weighted = 0;
    for (size_t m = 0; m < 12; ++m) {
        PlantMonth& pm = out.months[m];
        const double mean = plant.economizerOnDryBulb ? climate.dryBulbC[m] : climate.wetBulbC[m];
        const double cond = plant.condenserOnDryBulb ? climate.dryBulbC[m] : climate.wetBulbC[m];
        pm.hours = kDaysPerMonth[m] * 24.0;
        const double full = normalCdf((fullBelow - mean) / sigma);
        const double partial = std::max(0.0, normalCdf((partialBelow - mean) / sigma) - full);
        pm.economizerHours = full * pm.hours;
        pm.partialHours = partial * pm.hours;
        // The compressors carry s(T) = (Te - Ts)/delta_t across the band and all of it above: E[s(T)].
        pm.compressorShare = partialBelow > fullBelow
                                 ? std::clamp((excess(mean, fullBelow) - excess(mean, partialBelow)) /
                                                  (partialBelow - fullBelow),
                                              0.0, 1.0)
                                 : 1.0 - full;
        pm.compressorCop = compressorCopAtLift(plant, cond + plant.condenserApproachK - supplyC, options);
        pm.inverseCop = inverseCop(pm.compressorShare, plant.economizerCop, pm.compressorCop);
        // Hour classes: the same linear share at the class's temperature, the month's compressor COP.
        for (int k = 0; k < kHourClasses; ++k) {
            const double t = mean + sigma * hourClassZ(k);
            const double share = partialBelow > fullBelow
                                     ? std::clamp((t - fullBelow) / (partialBelow - fullBelow), 0.0, 1.0)
                                     : (t <= fullBelow ? 0.0 : 1.0);
            out.hourInverseCop[m][static_cast<size_t>(k)] =
                inverseCop(share, plant.economizerCop, pm.compressorCop);
        }
        out.economizerHours += pm.economizerHours;
        out.partialHours += pm.partialHours;
        hoursSum += pm.hours;
        weighted += pm.hours * pm.inverseCop;
    }
    out.annualInverseCop = hoursSum > 0 ? weighted / hoursSum : 0.0;
    // Design day: the 0.4% condition, deterministic (no spread).
    const double designEcon = plant.economizerOnDryBulb ? climate.designDryBulbC : climate.designWetBulbC;
    const double designCond = plant.condenserOnDryBulb ? climate.designDryBulbC : climate.designWetBulbC;
    const double te = designEcon + plant.approachK;
    out.designCompressorShare = returnC > supplyC ? std::clamp((te - supplyC) / (returnC - supplyC), 0.0, 1.0)
                                                  : (te <= supplyC ? 0.0 : 1.0);
    out.designCompressorCop = compressorCopAtLift(plant, designCond + plant.condenserApproachK - supplyC, options);
    out.designInverseCop = inverseCop(out.designCompressorShare, plant.economizerCop, out.designCompressorCop);
    if (freeCoolingHoursOverride) {
        // The site's own figure: f of the year on the economizer, the rest on compressors at the rated COP.
        const double f = std::clamp(*freeCoolingHoursOverride / units::kHoursPerYear, 0.0, 1.0);
        out.annualInverseCop = inverseCop(1.0 - f, plant.economizerCop, plant.compressorCop);
        out.economizerHours = f * units::kHoursPerYear;
        out.partialHours = 0.0;
        out.hoursOverridden = true;
        for (auto& month : out.hourInverseCop) month.fill(out.annualInverseCop);
    }
    return out;
}

double annualTowerEvaporationKgPerKwh(const ClimateLocation& climate, double rangeK, double liquidGasRatio,
                                      const ClimateOptions& options) {
    const double floor =
        towerExitAirC(climate.designDryBulbC, climate.designWetBulbC, rangeK, liquidGasRatio);
    auto sigma = [&](double fitted) {
        return std::max(options.spreadFactor * (fitted > 0 ? fitted : kMinHourlySpreadK), 0.0);
    };
    const double sDry = sigma(climate.sigmaDryBulbK), sWet = sigma(climate.sigmaWetBulbK);
    double kg = 0, hours = 0;
    for (size_t m = 0; m < 12; ++m) {
        const double h = kDaysPerMonth[m] * 24.0 / kHourClasses;
        for (int k = 0; k < kHourClasses; ++k) {
            const double z = hourClassZ(k);
            kg += h * towerEvaporationKgPerKwh(climate.dryBulbC[m] + sDry * z, climate.wetBulbC[m] + sWet * z,
                                               rangeK, liquidGasRatio, floor);
            hours += h;
        }
    }
    return hours > 0 ? kg / hours : 0.0;
}

PlantPerformance ratedPerformance(const PlantParameters& plant) {
    PlantPerformance out;
    const double inv = inverseCop(1.0, plant.economizerCop, plant.compressorCop);
    for (size_t m = 0; m < 12; ++m) {
        auto& pm = out.months[m];
        pm.hours = kDaysPerMonth[m] * 24.0;
        pm.compressorShare = 1.0;
        pm.compressorCop = plant.compressorCop;
        pm.inverseCop = inv;
        out.hourInverseCop[m].fill(inv);
    }
    out.annualInverseCop = out.designInverseCop = inv;
    out.designCompressorShare = 1.0;
    out.designCompressorCop = plant.compressorCop;
    return out;
}

double BuildingCooling::airHeatW(double itW, double loadScale) const {
    return std::max(0.0, itW - liquidHeatW * loadScale);
}

double BuildingCooling::plantPowerW(double itW, double loadScale, const PlantCondition& at) const {
    double liquid = liquidPlantAnnualW, airInverseCop = air.annualInverseCop;
    if (at.kind == PlantCondition::Kind::DesignDay)
        liquid = liquidPlantDesignW, airInverseCop = air.designInverseCop;
    if (at.kind == PlantCondition::Kind::HourClass) {
        const auto m = static_cast<size_t>(std::clamp(at.month, 0, 11));
        const auto k = static_cast<size_t>(std::clamp(at.hourClass, 0, kHourClasses - 1));
        liquid = liquidPlantHourW[m][k], airInverseCop = air.hourInverseCop[m][k];
    }
    const double airHeat = airHeatW(itW, loadScale);
    // Air side: the CRAH fans move the heat to the chilled-water coils; the fans' own work is heat too, so
    // the chilled-water plant rejects air x (1 + fan fraction).
    const double fans = crahFanFraction * airHeat;
    return liquid * loadScale + (airHeat + fans) * airInverseCop + fans;
}

BuildingCooling buildingCooling(const std::vector<LoopLoad>& loops, const PlantParameters& airPlant,
                                double airSupplyC, double airDeltaTK, double crahFanFraction,
                                const ClimateLocation* climate, const ClimateOptions& options,
                                const double* freeCoolingHoursOverride) {
    BuildingCooling b;
    b.climate = climate;
    b.crahFanFraction = crahFanFraction;
    double hoursWeighted = 0, heatSum = 0;
    for (const auto& l : loops) {
        if (!l.plant) continue;
        const PlantParameters p = plantParameters(*l.plant);
        const PlantPerformance perf =
            climate ? plantPerformance(p, l.supplyC, l.deltaTK, *climate, options, freeCoolingHoursOverride)
                    : ratedPerformance(p);
        const double heat = l.liquidHeatW + l.pumpW;
        b.liquidHeatW += l.liquidHeatW;
        b.pumpW += l.pumpW;
        b.liquidPlantAnnualW += heat * perf.annualInverseCop;
        b.liquidPlantDesignW += heat * perf.designInverseCop;
        for (size_t m = 0; m < 12; ++m)
            for (size_t k = 0; k < static_cast<size_t>(kHourClasses); ++k)
                b.liquidPlantHourW[m][k] += heat * perf.hourInverseCop[m][k];
        b.plantCapexUsd += l.plant->value("capex_usd_per_w") * heat;
        // Trim compressors sized on the design day's compressor share (dry cooler, tower): catalog
        // trim_compressor_capex_usd_per_w per W of compressor heat; absent (a chiller plant), none.
        if (p.type != "chiller")
            if (const auto* trim = l.plant->find("trim_compressor_capex_usd_per_w"); trim && trim->base > 0) {
                const double w = heat * perf.designCompressorShare;
                b.trimCompressorW += w;
                b.plantCapexUsd += trim->base * w;
            }
        hoursWeighted += heat * perf.economizerHours;
        heatSum += heat;
    }
    b.liquidEconomizerHours = heatSum > 0 ? hoursWeighted / heatSum : 0.0;
    b.air = climate ? plantPerformance(airPlant, airSupplyC, airDeltaTK, *climate, options, freeCoolingHoursOverride)
                    : ratedPerformance(airPlant);
    return b;
}

} // namespace ctwin::cost
