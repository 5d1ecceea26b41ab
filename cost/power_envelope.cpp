#include "power_envelope.h"

#include <algorithm>
#include <cmath>

namespace ctwin::cost {

namespace {
/// Latent heat of water as the tower rule takes it: 1,000 Btu/lb = 2.326 MJ/kg (power_envelope.h).
constexpr double kLatentHeatJPerKg = 2.326e6;
constexpr double kJoulesPerKwh = 3.6e6;

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

double evaporativeWaterLitresPerKwh(double evaporatedHeatShare, double cyclesOfConcentration) {
    if (!(cyclesOfConcentration > 1.0)) return 0.0;
    const double evaporated = std::clamp(evaporatedHeatShare, 0.0, 1.0) * kJoulesPerKwh / kLatentHeatJPerKg;
    return evaporated * cyclesOfConcentration / (cyclesOfConcentration - 1.0);
}

} // namespace ctwin::cost
