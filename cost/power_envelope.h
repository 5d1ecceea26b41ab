#pragma once
// Planning under a power envelope: GPU power capping when a power domain is
// provisioned below the racks' full-load draw (oversubscription), and the on-site water an evaporative heat
// rejection plant consumes. Pure functions; the stages (evaluate_power.cpp, evaluate_training.cpp,
// evaluate_inference.cpp, evaluate_environment.cpp) apply them.
//
// Capping model:
//  * Oversubscription ratio rho = full-load (nameplate) draw of the compute racks / their provisioned power,
//    the same in every domain (feed, row, hall, building, site). A power-steering controller holds every
//    rack at or below cap = 1/rho of its full-load draw (POLCA: Patel et al., "POLCA: Power
//    Oversubscription in LLM Cloud Providers", arXiv 2308.12908, 2023; Microsoft runs it as a cluster-level
//    controller that lowers GPU clocks when a row nears its budget).
//  * Power-frequency curve: a rack draws its host share h (CPUs, NICs, fans, switch trays; full-load rack
//    power less its GPUs' TDP) unchanged, and its GPUs draw L x (s + (1 - s) x f^alpha) of their TDP in a
//    phase that draws L of TDP at full clock, at relative SM clock f: s is the share of a GPU's draw that
//    does not follow the SM clock (HBM, NVLink, leakage), the rest is dynamic power C V^2 f with the voltage
//    lowered along the DVFS table (alpha between 1 at fixed voltage and 3 with V proportional to f). The
//    shipped s and alpha are fitted to NVIDIA's paired MLPerf Inference v4.0 MaxP / MaxQ submissions
//    (data/validation/power_capping.json).
//  * A phase run at clock f takes beta / f + (1 - beta) of its time at full clock: beta is the share of the
//    phase bound by the SM clock (compute-bound GEMMs near 1, memory-bound decode low; the memory clock is
//    not capped).
//  * Training is synchronous: the whole job swings between its compute phase and its communication
//    troughs together, so every rack of a domain peaks at once and the compute phase itself must fit the
//    cap (capPhase). Inference replicas are not synchronized: a domain of many racks sees the time-weighted
//    mean of prefill and decode draw, and the controller lowers one clock until that mean fits the cap
//    (capMix).
//
// Water model (evaporative plants: cooling towers, and the towers of a water-cooled chiller plant):
//  * Evaporation: in a building with a climate, each hour class of each month (cost/cooling_plant.h) runs
//    the tower's psychrometric balance (towerEvaporationKgPerKwh) at the class's dry-bulb and wet-bulb, so
//    the water per kWh of heat follows the place's weather: cold dry hours reject more heat sensibly, hot
//    dry hours evaporate more than their heat. Without a climate the tower runs at its rating point's air.
//    The tower rule E = 0.00085 x circulation (gpm) x range (degF) (Perry's Chemical Engineers' Handbook,
//    8th ed., §12 "Cooling towers"), 85 % of the heat at 1,000 Btu/lb (2.326 MJ/kg), lies between a cold
//    and a hot hour's share.
//  * Blow-down keeps the dissolved solids at `cycles` of concentration: make-up = E x cycles / (cycles - 1)
//    (drift, < 0.005 % of circulation on modern eliminators, is neglected).
//  * Dry coolers consume no water.

#include <vector>

namespace ctwin::cost {

/// A rack's power against its GPUs' SM clock.
struct PowerFrequencyCurve {
    double hostShare = 0.0;            // h: share of the rack's full-load power that is not its GPUs
    double clockInvariantShare = 0.22; // s, of a GPU's draw
    double exponent = 3.0;             // alpha
    /// Lowest SM clock a controller may set, as a share of the maximum: NVIDIA H100 SXM lists graphics
    /// clocks from 345 MHz to 1,980 MHz (nvidia-smi -q -d SUPPORTED_CLOCKS), 0.17; B200 similar.
    double minClock = 0.17;
};

/// A GPU's power at relative clock f, as a share of its full-clock draw: s + (1 - s) f^alpha.
double relativePower(const PowerFrequencyCurve& curve, double clock);
/// A rack's power at clock f while its GPUs run a phase drawing `gpuDraw` of TDP at full clock, as a share
/// of the rack's full-load power: h + (1 - h) x gpuDraw x relativePower(f).
double rackPower(const PowerFrequencyCurve& curve, double gpuDraw, double clock);

/// How a phase (or a mix of phases) fares under a cap.
struct CapOutcome {
    double clock = 1.0;    // relative SM clock the cap allows (1 = not capped)
    double stretch = 1.0;  // time at that clock over time at full clock (>= 1)
    bool reachable = true; // false: even the lowest clock draws more than the cap (the clock stays there)
    bool binds() const { return clock < 1.0; }
};

/// One synchronous phase whose GPUs draw `gpuDraw` of TDP at full clock, with `clockBound` of its time
/// bound by the SM clock, under a cap (share of the rack's full-load power): the highest clock whose rack
/// draw fits, and the stretch of the phase's time.
CapOutcome capPhase(double gpuDraw, double clockBound, double cap, const PowerFrequencyCurve& curve);

/// One phase of an unsynchronized mix: its share of busy time at full clock, its GPU draw (share of TDP)
/// and clock-bound share.
struct PowerPhase {
    double timeShare = 0.0;
    double gpuDraw = 0.0;
    double clockBound = 1.0;
};

/// A mix of unsynchronized phases under one cap on the time-weighted mean rack draw: the highest common
/// clock whose mean fits (the mix re-weighted by each phase's stretch: a compute-bound phase slowed by the
/// clock takes a larger share of the time), and the mix's stretch (time over time at full clock). Solved
/// by bisection on the clock to 1e-9 (at most 60 steps).
CapOutcome capMix(const std::vector<PowerPhase>& phases, double cap, const PowerFrequencyCurve& curve);
/// The mix's mean rack draw at a clock (share of full-load rack power).
double mixRackPower(const std::vector<PowerPhase>& phases, double clock, const PowerFrequencyCurve& curve);

/// Psychrometrics of moist air at sea-level pressure, 101.325 kPa (ASHRAE Handbook-Fundamentals 2021 ch. 1),
/// temperatures in degC: the humidity ratio of saturated air (kg water per kg dry air), W_s = 0.621945 p_ws
/// / (p - p_ws) (eq. 23) with p_ws over water by the Magnus formula of Alduchov & Eskridge (1996, as
/// cost/climate.h); the humidity ratio from dry-bulb t and wet-bulb t* (eq. 33), W = ((2501 - 2.326 t*)
/// W_s(t*) - 1.006 (t - t*)) / (2501 + 1.86 t - 4.186 t*); and the enthalpy (kJ/kg dry air, eq. 32),
/// h = 1.006 t + W (2501 + 1.86 t).
double saturationHumidityRatio(double tC);
double humidityRatioFromWetBulb(double dryBulbC, double wetBulbC);
double moistAirEnthalpyKjPerKg(double tC, double humidityRatio);

/// Wet cooling tower (ASHRAE Handbook-HVAC Systems and Equipment 2020 ch. 40, Merkel's heat balance): at
/// full air flow the air's enthalpy rises by L/G x 4.186 x range (L/G the water-to-air mass flow ratio,
/// range = hot - cold water, K) and it leaves saturated at that enthalpy; towerExitAirC is that exit
/// temperature (degC), solved by Newton's method (at most 30 steps, to 1e-9 kJ/kg). The dry-bulb is clamped
/// to -30..55 degC and the wet-bulb to the dry-bulb.
double towerExitAirC(double dryBulbC, double wetBulbC, double rangeK, double liquidGasRatio);

/// Water a wet cooling tower evaporates per kWh of heat it rejects (kg/kWh) at one outdoor state. The fans
/// run at full flow in hours hot enough to need it; in cooler hours their speed control (ASHRAE 90.1-2019
/// §6.5.5.2 requires it on tower fans of 7.5 hp and more) throttles the air to hold the water's
/// temperatures, and the air leaves saturated at no less than `exitFloorC`, the full-flow exit temperature
/// on the design day (the water's temperatures are held, so the hot end of the tower is too). The water
/// evaporated is the rise of the air's humidity ratio per enthalpy rise; the rest of the heat leaves as
/// sensible heat: little when the air enters warmer than the water (a hot dry hour evaporates more than
/// its heat: the air cools), more when it enters cold (Wang, Handbook of Air Conditioning and
/// Refrigeration, 2nd ed. 2001, ch. 10: sensible shares of ~5 % and ~23 % in its two examples; the tower
/// rule's 85 % latent, Perry's Handbook §12, lies between).
double towerEvaporationKgPerKwh(double dryBulbC, double wetBulbC, double rangeK, double liquidGasRatio,
                                double exitFloorC);

} // namespace ctwin::cost
