#include "power_envelope.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost {

namespace {
double stretchAt(double clockBound, double clock) {
    const double beta = std::clamp(clockBound, 0.0, 1.0);
    return beta / clock + (1.0 - beta);
}
} // namespace

double relativePower(const PowerFrequencyCurve& curve, double clock) {
    const double s = std::clamp(curve.clockInvariantShare, 0.0, 1.0);
    return s + (1.0 - s) * std::pow(std::clamp(clock, 0.0, 1.0), curve.exponent);
}

double rackPower(const PowerFrequencyCurve& curve, double gpuDraw, double clock) {
    const double h = std::clamp(curve.hostShare, 0.0, 1.0);
    return h + (1.0 - h) * std::max(gpuDraw, 0.0) * relativePower(curve, clock);
}

CapOutcome capPhase(double gpuDraw, double clockBound, double cap, const PowerFrequencyCurve& curve) {
    CapOutcome out;
    if (!(rackPower(curve, gpuDraw, 1.0) > cap)) return out;
    const double floor = std::clamp(curve.minClock, 1e-3, 1.0);
    const double h = std::clamp(curve.hostShare, 0.0, 1.0);
    const double s = std::clamp(curve.clockInvariantShare, 0.0, 1.0);
    // The GPUs' relative power that fits: (cap - h) / ((1 - h) x L), then the clock from the curve.
    const double target = (cap - h) / ((1.0 - h) * gpuDraw);
    double clock = floor;
    if (target > relativePower(curve, floor) && s < 1.0)
        clock = std::clamp(std::pow((target - s) / (1.0 - s), 1.0 / curve.exponent), floor, 1.0);
    else
        out.reachable = rackPower(curve, gpuDraw, floor) <= cap + 1e-12;
    out.clock = clock;
    out.stretch = stretchAt(clockBound, clock);
    return out;
}

double mixRackPower(const std::vector<PowerPhase>& phases, double clock, const PowerFrequencyCurve& curve) {
    // Each phase's busy time stretches by its own factor, so the time shares re-weight at lower clocks.
    double time = 0.0, draw = 0.0;
    for (const auto& ph : phases) {
        const double t = std::max(ph.timeShare, 0.0) * stretchAt(ph.clockBound, clock);
        time += t;
        draw += t * std::max(ph.gpuDraw, 0.0);
    }
    return rackPower(curve, time > 0.0 ? draw / time : 0.0, clock);
}

CapOutcome capMix(const std::vector<PowerPhase>& phases, double cap, const PowerFrequencyCurve& curve) {
    auto stretchOf = [&](double clock) {
        double base = 0.0, time = 0.0;
        for (const auto& ph : phases) {
            base += std::max(ph.timeShare, 0.0);
            time += std::max(ph.timeShare, 0.0) * stretchAt(ph.clockBound, clock);
        }
        return base > 0.0 ? time / base : 1.0;
    };
    CapOutcome out;
    if (mixRackPower(phases, 1.0, curve) <= cap) return out;
    const double floor = std::clamp(curve.minClock, 1e-3, 1.0);
    if (mixRackPower(phases, floor, curve) > cap) {
        out.clock = floor, out.stretch = stretchOf(floor), out.reachable = false;
        return out;
    }
    // draw(lo) <= cap < draw(hi): bisect to the highest clock that fits (an interval below 1 halved 60
    // times is under 1e-9).
    double lo = floor, hi = 1.0;
    for (int i = 0; i < 60 && hi - lo > 1e-9; ++i) {
        const double mid = 0.5 * (lo + hi);
        (mixRackPower(phases, mid, curve) <= cap ? lo : hi) = mid;
    }
    out.clock = lo;
    out.stretch = stretchOf(lo);
    return out;
}

double saturationHumidityRatio(double tC) {
    constexpr double kPressureKpa = 101.325;
    const double pws = 0.61094 * std::exp(17.625 * tC / (tC + 243.04));
    return 0.621945 * pws / (kPressureKpa - pws);
}

double humidityRatioFromWetBulb(double dryBulbC, double wetBulbC) {
    const double t = dryBulbC, tw = std::min(wetBulbC, dryBulbC);
    const double w = ((2501.0 - 2.326 * tw) * saturationHumidityRatio(tw) - 1.006 * (t - tw)) /
                     (2501.0 + 1.86 * t - 4.186 * tw);
    return std::max(w, 0.0);
}

double moistAirEnthalpyKjPerKg(double tC, double humidityRatio) {
    return 1.006 * tC + humidityRatio * (2501.0 + 1.86 * tC);
}

namespace {
double saturatedEnthalpy(double tC) {
    return moistAirEnthalpyKjPerKg(tC, saturationHumidityRatio(tC));
}
constexpr double kWaterCpKjPerKgK = 4.186, kKjPerKwh = 3600.0;
} // namespace

double towerExitAirC(double dryBulbC, double wetBulbC, double rangeK, double liquidGasRatio) {
    const double t = std::clamp(dryBulbC, -30.0, 55.0), tw = std::clamp(wetBulbC, -30.0, t);
    const double target = moistAirEnthalpyKjPerKg(t, humidityRatioFromWetBulb(t, tw)) +
                          std::max(liquidGasRatio, 0.0) * kWaterCpKjPerKgK * std::max(rangeK, 0.0);
    // h_sat is increasing and convex: Newton's method from the wet-bulb (whose saturated enthalpy is about
    // the inlet's) steps past the root once, then falls to it monotonically.
    double x = tw;
    for (int i = 0; i < 30; ++i) {
        const double f = saturatedEnthalpy(x) - target;
        if (std::abs(f) < 1e-9) break;
        x -= f / ((saturatedEnthalpy(x + 1e-4) - saturatedEnthalpy(x - 1e-4)) / 2e-4);
    }
    return x;
}

double towerEvaporationKgPerKwh(double dryBulbC, double wetBulbC, double rangeK, double liquidGasRatio,
                                double exitFloorC) {
    if (!(liquidGasRatio > 0.0) || !(rangeK > 0.0)) return 0.0;
    const double t = std::clamp(dryBulbC, -30.0, 55.0), tw = std::clamp(wetBulbC, -30.0, t);
    const double wIn = humidityRatioFromWetBulb(t, tw);
    const double exit = std::max(towerExitAirC(t, tw, rangeK, liquidGasRatio), exitFloorC);
    const double rise = saturatedEnthalpy(exit) - moistAirEnthalpyKjPerKg(t, wIn);
    if (!(rise > 0.0)) return 0.0;
    return std::max(0.0, saturationHumidityRatio(exit) - wIn) / rise * kKjPerKwh;
}

} // namespace ctwin::cost
