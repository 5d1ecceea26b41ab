#pragma once
#include "evaluate.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ctwin::cost {

/// Everything one evaluation needs; scenario tools vary its inputs through InputResolver overrides.
struct ScenarioInput {
    const model::Project* project = nullptr;
    const model::Catalog* catalog = nullptr;
    model::AssumptionSet defaults; // data/assumptions.json; the design's assumptions block applies on top
    /// Overrides every evaluation starts from (CLI --set), above the design's assumptions and fields.
    InputOverrides overrides{};
};

// ---- Comparison (SPEC.md §4.9, §6) ----
struct ComparisonRow {
    std::string key; // figure key, e.g. "finance.cost_per_gpu_hour_usd"
    std::string label, unit;
    std::vector<double> values;        // one per design
    std::vector<double> deltaAbsolute; // value - baseline value
    std::vector<double> deltaPercent;  // 100 x delta / |baseline| (0 when the baseline is 0)
    bool lowerIsBetter = true;
    int best = -1, worst = -1; // design indices; -1 when all equal
};
struct Comparison {
    std::vector<std::string> names;
    size_t baseline = 0;
    std::vector<ComparisonRow> rows;
    /// One line per big delta (|%| >= 10 on a headline figure) naming the inputs that drive it.
    std::vector<std::string> explanations;
};
/// Which way a planner prefers a figure to move: costs, capex, power, PUE, times and J/token lower;
/// throughput, GPUs, NPV, IRR and goodput higher; counts (racks, switches) and capex shares neither.
enum class FigurePreference { LowerIsBetter, HigherIsBetter, Neither };
/// The preference for a figure key evaluate() reports; std::nullopt for a key it never reports.
std::optional<FigurePreference> figurePreference(const std::string& key);

/// Whether a figure is a fraction that people read as a percentage (IRRs, capex shares, goodput): the one
/// list the dashboard, the comparison, the PDF, the XLSX and the scenario views format by.
bool isPercentFigure(std::string_view key);

/// Compares evaluated designs figure by figure against `baseline`: rows for the figures every design has
/// (first-seen order), best/worst by figurePreference (-1 when all equal or neither). Throws InputError for
/// fewer than 2 or more than 6 designs, a names/results size mismatch or a baseline out of range.
Comparison compareDesigns(const std::vector<std::string>& names, const std::vector<Results>& results,
                          size_t baseline);

// ---- Sensitivity (tornado) ----
struct TornadoBar {
    /// The assumption key ("electricity_usd_per_kwh") or, for an entity value, its path
    /// ("sites.site-wi.electricity_usd_per_kwh").
    std::string assumption;
    /// The override path that moved it ("assumptions.electricity_usd_per_kwh").
    std::string path;
    double inputLow = 0, inputHigh = 0;
    double outputAtLow = 0, outputAtHigh = 0;
    double swing = 0; // |outputAtHigh - outputAtLow|
    /// False when the figure does not exist at that end (IRR or payback without a sign change in the cash
    /// flows); that end then holds the base value.
    bool definedAtLow = true, definedAtHigh = true;
};
struct Tornado {
    std::string output;
    double base = 0;
    std::vector<TornadoBar> bars; // sorted by swing, largest first
};
/// One-at-a-time sensitivity of a figure over the low/high range of every input the evaluation reads:
/// used assumptions and entity values the design sets itself with a range (InputResolver). Inputs with
/// low == high and assumptions nothing reads (e.g. a tariff every site overrides) are left out. Throws
/// InputError for an unknown output key, one this design lacks, or a bad or unused base override.
Tornado tornado(const ScenarioInput& in, const std::string& outputKey);

// ---- Sweeps ----
/// Documented limit (data/FORMAT.md §6): points of a sweep grid (a 2-D grid of 316 x 316). The CLI and the
/// GUI's sweep view refuse a larger grid before they start.
inline constexpr double kMaxSweepPoints = 100'000;

struct SweepAxis {
    /// An override path (InputResolver grammar): "assumptions.electricity_usd_per_kwh",
    /// "sites.*.electricity_usd_per_kwh", "buildings.b1.pue_pinned".
    std::string key;
    double low = 0, high = 0;
    int steps = 2;
    /// Grid value i in [0, steps); exactly `high` at the last step.
    double value(int i) const {
        if (steps <= 1) return low;
        return i >= steps - 1 ? high : low + (high - low) * i / (steps - 1);
    }
};
struct SweepResult {
    std::vector<SweepAxis> axes;      // 1 or 2
    std::vector<std::string> outputs; // figure keys
    /// outputs[k] grid, row-major over axes (axis 0 outer): values[k][i0 * steps1 + i1].
    std::vector<std::vector<double>> values;
    /// Same shape as `values`: false where the point was not evaluated (cancelled) or the figure does not
    /// exist there (IRR or payback without a sign change); the value there is 0.
    std::vector<std::vector<bool>> defined;
    bool cancelled = false;
};
using ProgressCallback = std::function<void(double fraction)>;
/// Evaluates the design over a 1-D or 2-D grid of input values (override paths). Throws InputError for a
/// bad path or a value outside the field's bounds (checkInputOverride), an input the evaluation does not
/// read (naming what shadows it),
/// steps < 1 or > 1000, low > high, no or more than 2 axes, the same key on both axes, no outputs, or an
/// output figure that is unknown or absent for this design. `progress` is called from the calling thread;
/// `cancel` is checked between evaluations and stops early (result marked cancelled).
SweepResult sweep(const ScenarioInput& in, const std::vector<SweepAxis>& axes,
                  const std::vector<std::string>& outputs, const ProgressCallback& progress = {},
                  const std::atomic<bool>* cancel = nullptr);

// ---- Uncertainty ----
struct Percentiles {
    double p10 = 0, p50 = 0, p90 = 0, mean = 0;
    /// Samples in which the figure existed (IRR and payback need a sign change); statistics are over these.
    int count = 0;
};
/// Monte Carlo over all ranged inputs at once (as tornado: used assumptions and entity values with a
/// range, each drawn independently): each input drawn from a triangular distribution
/// (low, mode = base, high) — documented choice for three-point estimates (PERT-style) —, deterministic for
/// a seed. Returns P10/P50/P90 of each output key: linear interpolation between order statistics (Hyndman &
/// Fan 1996 definition 7, the default of R and NumPy). Throws InputError for samples outside [1, 100000] or
/// an output figure that is unknown or absent for this design. `cancel` is checked between evaluations;
/// a cancelled run returns an empty map (the desktop dashboard restarts it after every edit).
std::map<std::string, Percentiles> uncertainty(const ScenarioInput& in,
                                               const std::vector<std::string>& outputs, int samples,
                                               std::uint64_t seed, const std::atomic<bool>* cancel = nullptr);

/// The figures scenario tools report when the user names none: $/GPU-hour and annual TCO always, plus
/// $/M output tokens (inference) and $/M training tokens when the design has those workloads.
std::vector<std::string> headlineOutputs(const Results& results);

} // namespace ctwin::cost
