#pragma once
// A liquid-cooling loop's sizing rules, in one place: the bill of materials sizes each loop with them and the
// NetBox interchange sizes the loops and feeds it writes and reads.
#include <cmath>
#include <string>

namespace ctwin::cost {

/// Water properties at 25 °C (IAPWS-95 via NIST Chemistry WebBook): c_p = 4,181 J/(kg·K), ρ = 997.0 kg/m³.
inline constexpr double kWaterCpJPerKgK = 4181.0;
inline constexpr double kWaterDensityKgPerM3 = 997.0;

/// Volume flow (m³/s) of water that carries `heatW` with a supply-to-return rise of `deltaTK`; 0 for a
/// non-positive rise.
inline double coolantFlowM3PerS(double heatW, double deltaTK) {
    return deltaTK > 0 ? heatW / (kWaterCpJPerKgK * deltaTK * kWaterDensityKgPerM3) : 0.0;
}

/// CDUs a loop needs for `heatW` of liquid heat at `capacityW` each: N = ⌈Q / capacity⌉ carry the load;
/// "N+1" adds one spare, "2N" doubles them, "N" adds none (SPEC §3 cooling; Uptime Institute tier
/// redundancy conventions).
inline double requiredCdus(double heatW, double capacityW, const std::string& redundancy) {
    const double needed = capacityW > 0 ? std::ceil(heatW / capacityW - 1e-9) : 0.0;
    return redundancy == "2N" ? 2 * needed : needed + (redundancy == "N+1" ? 1 : 0);
}

} // namespace ctwin::cost
