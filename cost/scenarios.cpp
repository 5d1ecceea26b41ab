#include "scenarios.h"

#include "compiled_design.h"
#include "evaluation_memo.h"
#include "input_error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

namespace ctwin::cost {

using model::InputError;
using model::InputLocation;

namespace {

/// Scenario tools run on every core (at least two threads; SPEC.md §7 sets its multi-core speed bars on 2
/// cores). Results do not depend on the count: each job writes its own slot.
unsigned scenarioThreads() {
    static const unsigned n = std::max(2u, std::thread::hardware_concurrency());
    return n;
}
/// SPEC.md §5: the comparison view holds 2 to 6 designs.
constexpr size_t kMinDesigns = 2, kMaxDesigns = 6;
constexpr int kMaxSweepSteps = 1000;
constexpr int kMaxSamples = 100000;
/// |delta| at or above this percentage on a headline figure earns an explanation line.
constexpr double kBigDeltaPercent = 10.0;

double finite(double v) {
    return std::isfinite(v) ? v : 0.0;
}

// ---- Figure keys: which ones evaluate() can report and which way is better ----

using Better = FigurePreference;

/// Preferences of the power-envelope figures: capping, grid, on-site supply, battery, site
/// supply, energy, carbon and water.
constexpr std::pair<const char*, Better> kPowerEnvelopePreferences[] = {
    {"training.capping_clock", Better::HigherIsBetter},
    {"training.capping_slowdown", Better::LowerIsBetter},
    {"training.ratio_without_capping", Better::HigherIsBetter},
    {"training.grid_availability", Better::HigherIsBetter},
    {"training.step_compute_share", Better::HigherIsBetter},
    {"training.rack_mean_draw_share", Better::Neither},
    {"power.grid_availability", Better::HigherIsBetter},
    {"power.onsite_generation_share", Better::Neither},
    {"power.training_swing_mw", Better::LowerIsBetter},
    {"power.training_stop_swing_mw", Better::LowerIsBetter},
    {"power.bess_power_mw", Better::Neither},
    {"power.bess_energy_mwh", Better::Neither},
    {"power.load_factor_annual", Better::HigherIsBetter},
    {"power.bess_losses_mwh_per_year", Better::LowerIsBetter},
    {"environment.embodied_carbon_tco2e_cradle_to_gate", Better::LowerIsBetter},
    {"environment.embodied_carbon_tco2e_per_year_amortized", Better::LowerIsBetter},
    {"environment.carbon_gco2e_per_million_output_tokens_embodied", Better::LowerIsBetter},
    {"environment.carbon_gco2e_per_million_output_tokens_operational_plus_embodied", Better::LowerIsBetter},
    {"power.interconnect_headroom_mw_design_day", Better::HigherIsBetter},
    {"finance.onsite_fuel_annual_usd", Better::LowerIsBetter},
    {"inference.ratio_without_capping", Better::HigherIsBetter},
    {"inference.capping_clock", Better::HigherIsBetter},
    {"inference.capping_throughput_loss", Better::LowerIsBetter},
    {"environment.facility_energy_mwh_per_year", Better::LowerIsBetter},
    {"environment.grid_carbon_gco2e_per_kwh_location_based", Better::LowerIsBetter},
    {"environment.carbon_tco2e_per_year_location_based", Better::LowerIsBetter},
    {"environment.water_m3_per_year_onsite", Better::LowerIsBetter},
    {"environment.wue_l_per_kwh", Better::LowerIsBetter},
    {"environment.facility_kwh_per_million_output_tokens", Better::LowerIsBetter},
    {"environment.carbon_gco2e_per_million_output_tokens_location_based", Better::LowerIsBetter},
    {"environment.water_l_per_million_output_tokens_onsite", Better::LowerIsBetter},
};

/// Preferences of the time axis's figures.
constexpr std::pair<const char*, Better> kTimelinePreferences[] = {
    {"timeline.npv_usd", Better::HigherIsBetter},
    {"timeline.npv_without_phasing_usd", Better::HigherIsBetter},
    {"timeline.irr", Better::HigherIsBetter},
    {"timeline.peak_funding_usd", Better::LowerIsBetter},
    {"timeline.bridge_months", Better::Neither},
    {"timeline.bridge_fuel_usd", Better::LowerIsBetter},
    {"timeline.gpu_hours_waiting_for_grid", Better::LowerIsBetter},
    {"timeline.peak_funding_month", Better::Neither},
    {"timeline.payback_month", Better::LowerIsBetter},
    {"timeline.interest_during_construction_usd", Better::LowerIsBetter},
    {"timeline.first_energisation_month", Better::LowerIsBetter},
    {"timeline.full_energisation_month", Better::LowerIsBetter},
    {"timeline.economic_refresh_age_years", Better::Neither},
    {"timeline.first_it_refresh_month", Better::Neither},
};

/// Every figure evaluate() reports (cost/evaluate.cpp, "Figures with provenance"). Used to rank comparisons
/// and to tell an unknown key from one a design lacks; test_scenarios checks that every figure of every
/// reference design is listed here.
const std::map<std::string, Better>& figurePreferences() {
    static const std::map<std::string, Better> kTable = [] {
        std::map<std::string, Better> t = {
            {"inventory.gpus", Better::HigherIsBetter},
            {"inventory.racks", Better::Neither},
            {"inventory.network_racks", Better::Neither},
            {"inventory.sites", Better::Neither},
            {"inventory.buildings", Better::Neither},
            {"inventory.switches", Better::Neither},
            {"inventory.transceivers", Better::Neither},
            {"inventory.cdus", Better::Neither},
            {"capex.storage_usd_per_tb", Better::LowerIsBetter},
            {"power.it_mw", Better::LowerIsBetter},
            {"power.it_peak_mw", Better::LowerIsBetter},
            {"power.it_compute_mw", Better::LowerIsBetter},
            {"power.it_compute_nameplate_mw", Better::Neither},
            {"power.compute_racks_per_provisioned_mw", Better::HigherIsBetter},
            {"power.it_compute_peak_mw", Better::LowerIsBetter},
            {"power.it_total_mw", Better::LowerIsBetter},
            {"power.it_total_peak_mw", Better::LowerIsBetter},
            {"power.network_mw", Better::LowerIsBetter},
            {"inventory.power.transformers", Better::Neither},
            {"inventory.power.switchgear", Better::Neither},
            {"inventory.power.ups_modules", Better::Neither},
            {"inventory.power.generators", Better::Neither},
            {"inventory.power.busway_runs", Better::Neither},
            {"power.facility_mw", Better::LowerIsBetter},
            {"power.pue", Better::LowerIsBetter},
            {"power.pue_annual", Better::LowerIsBetter},
            {"power.pue_peak", Better::LowerIsBetter},
            {"power.facility_peak_mw", Better::LowerIsBetter},
            {"power.plant_liquid_mw", Better::LowerIsBetter},
            {"power.plant_air_mw", Better::LowerIsBetter},
            {"power.crah_fans_mw", Better::LowerIsBetter},
            {"cooling.economizer_hours", Better::HigherIsBetter},
            {"cooling.trim_compressor_mw", Better::LowerIsBetter},
            {"capex.total_usd", Better::LowerIsBetter},
            {"capex.per_gpu_usd", Better::LowerIsBetter},
            {"capex.per_mw_usd", Better::LowerIsBetter},
            {"finance.annualized_capex_usd", Better::LowerIsBetter},
            {"finance.depreciation_annual_usd", Better::LowerIsBetter},
            {"finance.energy_annual_usd", Better::LowerIsBetter},
            {"finance.opex_annual_usd", Better::LowerIsBetter},
            {"finance.insurance_annual_usd", Better::LowerIsBetter},
            {"finance.property_tax_annual_usd", Better::LowerIsBetter},
            {"finance.software_annual_usd", Better::LowerIsBetter},
            // An input echoed as a figure (the price the revenue uses): neither better nor worse.
            {"finance.gpu_hour_price_usd", Better::Neither},
            {"finance.tco_annual_usd", Better::LowerIsBetter},
            {"finance.cost_per_gpu_hour_usd", Better::LowerIsBetter},
            {"finance.npv_usd", Better::HigherIsBetter},
            {"finance.irr", Better::HigherIsBetter},
            {"finance.payback_years", Better::LowerIsBetter},
            {"finance.break_even_gpu_hour_usd", Better::LowerIsBetter},
            {"finance.construction_months", Better::LowerIsBetter},
            {"finance.interest_during_construction_usd", Better::LowerIsBetter},
            {"finance.capex_with_idc_usd", Better::LowerIsBetter},
            {"finance.time_to_revenue_days", Better::LowerIsBetter},
            {"finance.burn_in_cost_usd", Better::LowerIsBetter},
            {"reliability.goodput", Better::HigherIsBetter},
            {"reliability.interruptions_per_day", Better::LowerIsBetter},
            {"reliability.job_mtbf_hours", Better::HigherIsBetter},
            {"reliability.checkpoint_interval_minutes", Better::Neither},
            {"reliability.checkpoint_write_seconds", Better::LowerIsBetter},
            {"reliability.lost_gpu_hours_per_day", Better::LowerIsBetter},
            {"training.time_days", Better::LowerIsBetter},
            {"training.run_cost_usd", Better::LowerIsBetter},
            {"training.cost_per_million_tokens_usd", Better::LowerIsBetter},
            {"training.pipeline_bubble", Better::LowerIsBetter},
            {"training.scale_across_slowdown", Better::LowerIsBetter},
            {"training.mfu_effective", Better::HigherIsBetter},
            {"training.expert_slowdown", Better::LowerIsBetter},
            {"training.collective_efficiency", Better::HigherIsBetter},
            {"training.routing_slowdown", Better::LowerIsBetter},
            {"training.fleet.gpus", Better::Neither},
            {"training.fleet.run_cost_usd", Better::LowerIsBetter},
            {"training.fleet.gpu_days", Better::LowerIsBetter},
            {"training.fleet.cost_per_million_tokens_usd", Better::LowerIsBetter},
            {"training.fleet.goodput", Better::HigherIsBetter},
            {"inference.tokens_per_second_per_gpu", Better::HigherIsBetter},
            {"inference.tokens_per_second_per_user", Better::HigherIsBetter},
            {"inference.output_tokens_per_s_per_mw", Better::HigherIsBetter},
            {"inference.total_tokens_per_s_per_mw", Better::HigherIsBetter},
            {"inference.cost_per_million_input_tokens_usd", Better::LowerIsBetter},
            {"inference.cost_per_million_output_tokens_usd", Better::LowerIsBetter},
            {"inference.joules_per_token", Better::LowerIsBetter},
            {"inference.decode_tokens_per_second_per_gpu", Better::HigherIsBetter},
            {"inference.output_tokens_per_s_per_average_mw", Better::HigherIsBetter},
            {"inference.total_tokens_per_s_per_average_mw", Better::HigherIsBetter},
            {"inference.sessions_served", Better::HigherIsBetter},
            {"inference.decode_step_compute_ms", Better::LowerIsBetter},
            {"inference.decode_step_memory_ms", Better::LowerIsBetter},
            {"inference.decode_step_communication_ms", Better::LowerIsBetter},
            {"inference.decode_step_overhead_ms", Better::LowerIsBetter},
            {"inference.cost_per_request_usd", Better::LowerIsBetter},
            {"inference.cost_per_million_blended_tokens_usd", Better::LowerIsBetter},
            {"inference.fleet.output_tokens_per_s_per_mw", Better::HigherIsBetter},
            {"inference.fleet.total_tokens_per_s_per_mw", Better::HigherIsBetter},
            {"inference.fleet.cost_per_million_blended_tokens_usd", Better::LowerIsBetter},
            {"inference.fleet.cost_per_request_usd", Better::LowerIsBetter},
            // Token economics: revenue and profit are worth more when higher; the API and
            // rent prices are what the owner avoids, and a lower break-even utilization favours building.
            {"inference.token_revenue_per_gpu_hour_usd", Better::HigherIsBetter},
            {"inference.token_profit_per_gpu_hour_usd", Better::HigherIsBetter},
            {"inference.token_revenue_annual_usd", Better::HigherIsBetter},
            {"inference.api_cost_per_request_usd", Better::Neither},
            {"inference.rent_cost_per_request_usd", Better::Neither},
            {"inference.build_break_even_utilization", Better::LowerIsBetter},
            {"inference.rent_break_even_utilization", Better::Neither},
            {"inference.fleet.token_revenue_annual_usd", Better::HigherIsBetter},
            {"inference.fleet.token_profit_annual_usd", Better::HigherIsBetter},
            {"inference.fleet.token_profit_per_gw_year_usd", Better::HigherIsBetter},
            {"inference.fleet.npv_token_revenue_usd", Better::HigherIsBetter},
            {"timeline.npv_token_revenue_usd", Better::HigherIsBetter},
            // The replica size and the attention share of prefill describe the operating point.
            {"inference.replica_gpus", Better::Neither},
            {"inference.prefill_attention_share", Better::Neither},
        };
        for (const auto& c : kCapexCategories) {
            t["capex.by_category_usd." + c] = Better::LowerIsBetter;
            t["capex.share." + c] = Better::Neither; // a share moves when others do; neither good nor bad
        }
        // The GPU split, the analyst view and both TCO conventions are costs; the terminal value
        // and the residual values sold are worth more when higher.
        t["capex.compute_breakdown.gpus"] = t["capex.compute_breakdown.cpus_hosts"] = Better::LowerIsBetter;
        for (const char* k : kRackPartKeys)
            t[std::string("capex.compute_breakdown.parts.") + k] = Better::LowerIsBetter;
        t["power.facility_availability"] = Better::HigherIsBetter;
        for (const auto& g : kAnalystCapexCategories)
            t["capex.analyst_view." + g] = Better::LowerIsBetter;
        t["finance.maintenance_annual_usd"] = Better::LowerIsBetter;
        for (const char* conv : {"economic", "accounting"}) {
            const std::string k = std::string("finance.") + conv;
            t[k + ".tco_annual_usd"] = t[k + ".cost_per_gpu_hour_usd"] = t[k + ".capex_charge_usd"] =
                Better::LowerIsBetter;
            for (const char* cls : {"it", "network", "facility", "land"})
                t[k + ".annual_by_class." + cls + ".capex_charge_usd"] =
                    t[k + ".annual_by_class." + cls + ".maintenance_usd"] = Better::LowerIsBetter;
        }
        for (const auto& [key, better] : kPowerEnvelopePreferences)
            t.emplace(key, better);
        for (const auto& [key, better] : kTimelinePreferences)
            t.emplace(key, better);
        t["finance.replacement_capex_usd"] = Better::LowerIsBetter;
        t["finance.salvage_usd"] = t["finance.terminal_value_usd"] = Better::HigherIsBetter;
        return t;
    }();
    return kTable;
}

bool isKnownFigure(const std::string& key) {
    return figurePreferences().count(key) > 0;
}

/// InputError for an output key the base evaluation does not have: unknown to the engine, or a figure this
/// design lacks (inference figures of a training-only design, IRR without a sign change).
void requireFigures(const Results& base, const std::vector<std::string>& outputs, const std::string& tool) {
    if (outputs.empty())
        throw InputError(InputLocation{tool, "", "", "", "outputs"}, "no output figure requested");
    for (const auto& key : outputs) {
        if (base.figure(key)) continue;
        if (!isKnownFigure(key))
            throw InputError(InputLocation{tool, "figure", key, "", "output"},
                             "unknown figure key (e.g. finance.cost_per_gpu_hour_usd)");
        throw InputError(
            InputLocation{tool, "figure", key, "", "output"},
            "the design has no such figure (no inference service, training job or defined cash-flow "
            "figure to report it)");
    }
}

// ---- Evaluation harness shared by tornado, sweep and uncertainty ----

/// Runs job(i) for every i in [0, n) on up to scenarioThreads() threads, the calling thread being one of
/// them. Jobs write to slots addressed by i, so results never depend on scheduling. Stops handing out
/// indices when `cancel` is set; `onProgress(done)` runs on the calling thread after each of its jobs. The
/// first exception (from a job or the callback) stops both threads and is rethrown. Returns jobs done.
template <class Job>
size_t parallelFor(size_t n, const Job& job, const std::atomic<bool>* cancel = nullptr,
                   const std::function<void(size_t done)>& onProgress = {}) {
    std::atomic<size_t> next{0}, done{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto worker = [&](bool callerThread) {
        try {
            while (!failed.load(std::memory_order_relaxed) &&
                   !(cancel && cancel->load(std::memory_order_relaxed))) {
                const size_t i = next.fetch_add(1, std::memory_order_relaxed);
                if (i >= n) return;
                job(i);
                const size_t d = done.fetch_add(1, std::memory_order_acq_rel) + 1;
                if (callerThread && onProgress) onProgress(d);
            }
        } catch (...) {
            std::lock_guard lock(errorMutex);
            if (!error) error = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < scenarioThreads() && t < n; ++t)
        helpers.emplace_back(worker, false);
    worker(true);
    for (auto& h : helpers)
        h.join();
    if (error) std::rethrow_exception(error);
    return done.load();
}

/// One design evaluated under its base overrides (ScenarioInput::overrides) plus a variation. Every
/// variation goes through InputResolver, like `evaluate --set`, so a sweep point and an evaluation with the
/// same override agree exactly. The base bill of materials is derived once and reused for every variation
/// that cannot change it (overrideAffectsBillOfMaterials).
class Evaluator {
public:
    explicit Evaluator(const ScenarioInput& in) {
        if (!in.project || !in.catalog)
            throw std::invalid_argument("ScenarioInput needs a project and a catalog");
        m_project = in.project;
        m_catalog = in.catalog;
        m_defaults = in.defaults;
        m_base = in.overrides;
        const InputResolver resolver(*m_project, m_defaults, m_base);
        m_baseResults = cost::evaluate(resolver, *m_catalog);
        resolver.requireOverridesUsed();
        m_bom = m_baseResults.bom;
        m_memo = std::make_unique<EvaluationMemo>(*m_project, *m_catalog);
        m_merged = designAssumptions(*m_project, m_defaults);
    }
    const Results& base() const { return m_baseResults; }
    const BillOfMaterials& baseBom() const { return m_bom; }

    /// The base overrides followed by `extra` (a later override of the same path wins).
    InputOverrides with(const InputOverrides& extra) const {
        InputOverrides all = m_base;
        all.insert(all.end(), extra.begin(), extra.end());
        return all;
    }
    /// The values of `keys` under `extra`, evaluated in stages: the base bill of materials
    /// unless `extra` may change it or `bom` is given; a bill that must be derived again reuses the base
    /// compiled design unless `extra` may change that too (overrideAffectsCompiledDesign); then
    /// evaluateFigures (the figures evaluate() would report, without the rest of Results). Evaluations on
    /// the base bill or a caller's `bom` share stage results through the memo (cost/evaluation_memo.h);
    /// `bom` must then stay alive and unchanged while this Evaluator evaluates with it.
    std::vector<std::optional<double>> figures(const InputOverrides& extra,
                                               const std::vector<std::string>& keys,
                                               const BillOfMaterials* bom = nullptr) const {
        if (!bom && !affectsBom(extra)) bom = &m_bom;
        // The merged assumptions are shared by every variation; the tools report values, not provenance.
        InputResolver resolver(*m_project, m_merged, with(extra));
        resolver.resolveValuesOnly();
        if (bom) return evaluateFigures(resolver, *m_catalog, *bom, keys, m_memo.get());
        // A bill of this variation alone (used once: no memo), derived as evaluate() would.
        const BillOfMaterials own =
            deriveBillOfMaterials(*m_catalog, resolver, affectsCompiled(extra) ? nullptr : m_bom.compiled);
        return evaluateFigures(resolver, *m_catalog, own, keys);
    }
    /// A full evaluation that fails (InputError) when an override of `extra` is read by nothing.
    void requireUsed(const InputOverrides& extra) const {
        const InputResolver resolver(*m_project, m_defaults, with(extra));
        (void)cost::evaluate(resolver, *m_catalog);
        resolver.requireOverridesUsed();
    }
    BillOfMaterials deriveBom(const InputOverrides& extra) const {
        const InputResolver resolver(*m_project, m_defaults, with(extra));
        return deriveBillOfMaterials(*m_catalog, resolver, affectsCompiled(extra) ? nullptr : m_bom.compiled);
    }
    static bool affectsBom(const InputOverrides& extra) {
        return std::any_of(extra.begin(), extra.end(),
                           [](const InputOverride& o) { return overrideAffectsBillOfMaterials(o.path); });
    }
    static bool affectsCompiled(const InputOverrides& extra) {
        return std::any_of(extra.begin(), extra.end(),
                           [](const InputOverride& o) { return overrideAffectsCompiledDesign(o.path); });
    }
    /// Inputs the base evaluation read that have a range: every used assumption with low < high, and
    /// every entity value the design sets itself (or an override sets) with a range. Entity values that
    /// fell back to an assumption are covered by the assumption.
    std::vector<ResolvedInput> rangedInputs() const {
        std::vector<ResolvedInput> out;
        for (const auto& i : m_baseResults.inputs) {
            if (!i.used || !(i.low < i.high)) continue;
            const bool assumption = i.fallback.empty() && i.path.rfind("assumptions.", 0) == 0;
            if (assumption || i.level == InputLevel::Entity || i.level == InputLevel::Override)
                out.push_back(i);
        }
        return out;
    }
    const model::Project& project() const { return *m_project; }
    const model::AssumptionSet& defaults() const { return m_defaults; }

private:
    const model::Project* m_project = nullptr;
    const model::Catalog* m_catalog = nullptr;
    model::AssumptionSet m_defaults;
    InputOverrides m_base;
    Results m_baseResults;
    BillOfMaterials m_bom;
    std::unique_ptr<EvaluationMemo> m_memo;
    std::shared_ptr<const model::AssumptionSet> m_merged; // designAssumptions(project, defaults)
};

/// The bar label of an input: the assumption key for an assumption (as before), else the full path.
std::string inputLabel(const ResolvedInput& i) {
    const std::string prefix = "assumptions.";
    return i.path.rfind(prefix, 0) == 0 ? i.path.substr(prefix.size()) : i.path;
}

// ---- Text for comparison explanations ----

std::string format(const char* spec, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, spec, v);
    return buf;
}

/// "+$1.23B", "-$45.6M", "+$780K", "+$0.30": signed dollars in the scale a reader takes in at a glance.
std::string signedMoney(double usd) {
    const char* sign = usd < 0 ? "-" : "+";
    const double a = std::abs(usd);
    if (a >= 1e9) return sign + format("$%.2fB", a / 1e9);
    if (a >= 1e6) return sign + format("$%.1fM", a / 1e6);
    if (a >= 1e3) return sign + format("$%.0fK", a / 1e3);
    return sign + format("$%.2f", a);
}

std::string signedPercent(double pct) {
    return format("%+.1f%%", pct);
}

double percentChange(double value, double base) {
    return base != 0 ? finite(100.0 * (value - base) / std::abs(base)) : 0.0;
}

std::string humanName(std::string s) {
    std::replace(s.begin(), s.end(), '_', ' ');
    return s;
}

struct Move {
    std::string what;
    double delta = 0;
};

/// The `count` largest moves by magnitude (ties keep input order), zero moves dropped, as "name +$x, ...".
std::string largestMoves(std::vector<Move> moves, size_t count, std::string (*formatDelta)(double)) {
    std::stable_sort(moves.begin(), moves.end(),
                     [](const Move& a, const Move& b) { return std::abs(a.delta) > std::abs(b.delta); });
    std::string out;
    size_t n = 0;
    for (const auto& m : moves) {
        if (n == count || m.delta == 0) break;
        out += (n++ ? ", " : "") + m.what + " " + formatDelta(m.delta);
    }
    return out.empty() ? "no single input moved" : out;
}

std::string signedPlain(double v) {
    return format("%+.3f", v);
}

std::vector<Move> capexMoves(const Results& r, const Results& base) {
    std::vector<Move> moves;
    for (const auto& c : kCapexCategories) {
        auto value = [&](const Results& x) {
            auto it = x.capex.byCategory.find(c);
            return it == x.capex.byCategory.end() ? 0.0 : it->second.value();
        };
        moves.push_back({humanName(c), value(r) - value(base)});
    }
    return moves;
}

/// TCO per year = capex charge (the headline convention's: annualized capex or depreciation) + energy +
/// maintenance + staff + WAN leases (cost/evaluate_finance.cpp).
std::vector<Move> tcoMoves(const Results& r, const Results& base) {
    const auto& f = r.finance;
    const auto& b = base.finance;
    const auto charge = [](const FinanceResult& x) { return x.tcoAnnual - x.opexAnnual; };
    return {
        {f.convention == "accounting" ? "depreciation" : "annualized capex", (charge(f) - charge(b)).value()},
        {"energy", (f.energyAnnual - b.energyAnnual).value()},
        {"maintenance", (f.maintenanceAnnual - b.maintenanceAnnual).value()},
        {"staff", (f.staffAnnual - b.staffAnnual).value()},
        {"WAN leases", (f.wanLeaseAnnual - b.wanLeaseAnnual).value()}};
}

double figureValue(const Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    return f ? f->value : 0.0;
}

/// Why a headline figure moved: the capex categories or opex parts behind it, largest first.
std::string explainDrivers(const std::string& key, const Results& r, const Results& base) {
    if (key == "capex.total_usd")
        return "largest moves: " + largestMoves(capexMoves(r, base), 3, signedMoney);
    if (key == "finance.tco_annual_usd")
        return "largest moves: " + largestMoves(tcoMoves(r, base), 3, signedMoney);
    if (key == "finance.cost_per_gpu_hour_usd") {
        // Cost per GPU-hour = TCO per year / (sellable GPUs x hours x utilization).
        return "TCO per year " +
               signedPercent(percentChange(r.finance.tcoAnnual.value(), base.finance.tcoAnnual.value())) +
               ", GPU-hours per year " +
               signedPercent(percentChange(r.finance.gpuHoursPerYear, base.finance.gpuHoursPerYear)) +
               "; largest TCO moves: " + largestMoves(tcoMoves(r, base), 3, signedMoney);
    }
    if (key == "inference.cost_per_million_output_tokens_usd") {
        // $/M output = GPUs x cost per GPU-hour x decode share / output tokens/s (cost/evaluate.cpp,
        // Inference).
        std::string s =
            "cost per GPU-hour " +
            signedPercent(percentChange(r.finance.costPerGpuHour, base.finance.costPerGpuHour)) +
            ", output tokens/s per GPU " +
            signedPercent(percentChange(figureValue(r, "inference.tokens_per_second_per_gpu"),
                                        figureValue(base, "inference.tokens_per_second_per_gpu")));
        if (!r.inference.empty() && !base.inference.empty())
            s += ", decode share of GPU time " +
                 signedPercent(percentChange(1 - r.inference.front().sizing.prefillFraction,
                                             1 - base.inference.front().sizing.prefillFraction));
        return s;
    }
    if (key == "power.pue") {
        // PUE = 1 + (pumps + plant + losses + misc) / IT, so the change splits exactly into overhead per IT
        // watt; what is left over comes from pinned building PUEs and racks outside buildings.
        auto perIt = [](const Results& x, units::Power part) {
            return x.power.itOperating.value() > 0 ? part.value() / x.power.itOperating.value() : 0.0;
        };
        std::vector<Move> moves = {
            {"cooling plant", perIt(r, r.power.plant) - perIt(base, base.power.plant)},
            {"distribution losses", perIt(r, r.power.losses) - perIt(base, base.power.losses)},
            {"pumps", perIt(r, r.power.pumps) - perIt(base, base.power.pumps)},
            {"misc facility loads", perIt(r, r.power.misc) - perIt(base, base.power.misc)}};
        double explained = 0;
        for (const auto& m : moves)
            explained += m.delta;
        const double rest = (r.power.pue - base.power.pue) - explained;
        if (std::abs(rest) > 1e-6) moves.push_back({"pinned PUE and other", rest});
        return "overhead per IT watt: " + largestMoves(moves, 3, signedPlain);
    }
    return {};
}

const std::vector<std::string> kHeadlineKeys = {"capex.total_usd", "finance.cost_per_gpu_hour_usd",
                                                "finance.tco_annual_usd",
                                                "inference.cost_per_million_output_tokens_usd", "power.pue"};

// ---- Statistics ----

/// Percentile p in [0, 1] of sorted values: linear interpolation between order statistics at h = (n-1)p
/// (Hyndman & Fan, "Sample Quantiles in Statistical Packages", Am. Stat. 50(4), 1996, definition 7).
double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0.0;
    const double h = (static_cast<double>(sorted.size()) - 1.0) * p;
    const auto lo = static_cast<size_t>(std::floor(h));
    const size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

/// Triangular(low, mode, high) by inversion of its CDF (Evans, Hastings & Peacock, "Statistical
/// Distributions", 3rd ed., ch. 40): F(mode) = (mode-low)/(high-low); below it x = low + sqrt(u (high-low)
/// (mode-low)), above it x = high - sqrt((1-u)(high-low)(high-mode)).
double triangular(double low, double mode, double high, double u) {
    const double width = high - low;
    if (width <= 0) return mode;
    mode = std::clamp(mode, low, high);
    const double fMode = (mode - low) / width;
    if (u < fMode) return low + std::sqrt(u * width * (mode - low));
    return high - std::sqrt((1 - u) * width * (high - mode));
}

/// Uniform in [0, 1) from the top 53 bits of one engine draw: the same numbers on every standard library
/// (std::uniform_real_distribution's algorithm is implementation-defined).
double unitUniform(std::mt19937_64& engine) {
    return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

} // namespace

bool isPercentFigure(std::string_view key) {
    return key.substr(0, 12) == "capex.share." || key == "finance.irr" || key == "timeline.irr" ||
           key == "reliability.goodput" || key == "inference.build_break_even_utilization" ||
           key == "inference.rent_break_even_utilization";
}

std::optional<FigurePreference> figurePreference(const std::string& key) {
    const auto& t = figurePreferences();
    if (auto it = t.find(key); it != t.end()) return it->second;
    return std::nullopt;
}

// ---- Comparison ----

Comparison compareDesigns(const std::vector<std::string>& names, const std::vector<Results>& results,
                          size_t baseline) {
    if (results.size() < kMinDesigns || results.size() > kMaxDesigns)
        throw InputError(InputLocation{"comparison", "", "", "", "designs"},
                         "compare 2 to 6 designs; got " + std::to_string(results.size()));
    if (names.size() != results.size())
        throw InputError(InputLocation{"comparison", "", "", "", "names"},
                         std::to_string(names.size()) + " names for " + std::to_string(results.size()) +
                             " designs");
    if (baseline >= results.size())
        throw InputError(InputLocation{"comparison", "", "", "", "baseline"},
                         "baseline index " + std::to_string(baseline) + " is not one of the " +
                             std::to_string(results.size()) + " designs");
    Comparison c;
    c.names = names;
    c.baseline = baseline;

    // Keys in first-seen order over all designs; a row needs the figure in every design.
    std::vector<std::string> keys;
    std::set<std::string> seen;
    for (const auto& r : results)
        for (const auto& f : r.figures)
            if (seen.insert(f.key).second) keys.push_back(f.key);

    for (const auto& key : keys) {
        std::vector<const Figure*> figs;
        for (const auto& r : results)
            figs.push_back(r.figure(key));
        if (std::find(figs.begin(), figs.end(), nullptr) != figs.end()) continue;
        ComparisonRow row;
        row.key = key;
        row.label = figs[baseline]->label;
        row.unit = figs[baseline]->unit;
        const double base = finite(figs[baseline]->value);
        for (const auto* f : figs) {
            const double v = finite(f->value);
            row.values.push_back(v);
            row.deltaAbsolute.push_back(finite(v - base));
            row.deltaPercent.push_back(percentChange(v, base));
        }
        const Better better = figurePreference(key).value_or(Better::Neither);
        row.lowerIsBetter = better != Better::HigherIsBetter;
        // First index of the lowest and of the highest value.
        const auto mn = std::min_element(row.values.begin(), row.values.end());
        const auto mx = std::max_element(row.values.begin(), row.values.end());
        // Differences at rounding level (1e-12 relative) are no difference.
        const bool allEqual = *mx - *mn <= 1e-12 * std::max(std::abs(*mx), std::abs(*mn));
        if (better != Better::Neither && !allEqual) {
            const auto lowest = static_cast<int>(mn - row.values.begin());
            const auto highest = static_cast<int>(mx - row.values.begin());
            row.best = better == Better::LowerIsBetter ? lowest : highest;
            row.worst = better == Better::LowerIsBetter ? highest : lowest;
        }
        if (std::find(kHeadlineKeys.begin(), kHeadlineKeys.end(), key) != kHeadlineKeys.end())
            for (size_t i = 0; i < results.size(); ++i) {
                if (i == baseline || std::abs(row.deltaPercent[i]) < kBigDeltaPercent) continue;
                const bool money = row.unit.rfind("USD", 0) == 0; // "USD", "USD/yr", "USD/GPU-h", "USD/M tok"
                const std::string delta =
                    money ? signedMoney(row.deltaAbsolute[i]) : signedPlain(row.deltaAbsolute[i]);
                c.explanations.push_back(names[i] + " vs " + names[baseline] + ": " + row.label + " " +
                                         signedPercent(row.deltaPercent[i]) + " (" + delta + "); " +
                                         explainDrivers(key, results[i], results[baseline]));
            }
        c.rows.push_back(std::move(row));
    }
    return c;
}

// ---- Tornado ----

Tornado tornado(const ScenarioInput& in, const std::string& outputKey) {
    const Evaluator ev(in);
    const Results& base = ev.base();
    requireFigures(base, {outputKey}, "tornado");

    Tornado t;
    t.output = outputKey;
    t.base = base.figure(outputKey)->value;
    // Every input the evaluation reads that has a range: used assumptions and entity values the design
    // sets itself (e.g. a site's tariff, ranged by the assumption's relative spread; InputResolver).
    const std::vector<ResolvedInput> inputs = ev.rangedInputs();

    // Job 2k is input k at low, 2k+1 at high.
    std::vector<double> out(2 * inputs.size(), t.base);
    std::vector<char> defined(2 * inputs.size(), 0);
    parallelFor(out.size(), [&](size_t j) {
        const auto& i = inputs[j / 2];
        const auto f = ev.figures({InputOverride{i.path, j % 2 ? i.high : i.low}}, {outputKey});
        if (f[0]) out[j] = finite(*f[0]), defined[j] = 1;
    });
    for (size_t k = 0; k < inputs.size(); ++k) {
        TornadoBar bar;
        bar.assumption = inputLabel(inputs[k]);
        bar.path = inputs[k].path;
        bar.inputLow = inputs[k].low, bar.inputHigh = inputs[k].high;
        bar.outputAtLow = out[2 * k], bar.outputAtHigh = out[2 * k + 1];
        bar.definedAtLow = defined[2 * k], bar.definedAtHigh = defined[2 * k + 1];
        bar.swing = finite(std::abs(bar.outputAtHigh - bar.outputAtLow));
        t.bars.push_back(bar);
    }
    // Stable: equal swings (all the zeros at the end) keep the inputs' order.
    std::stable_sort(t.bars.begin(), t.bars.end(),
                     [](const TornadoBar& a, const TornadoBar& b) { return a.swing > b.swing; });
    return t;
}

// ---- Sweep ----

SweepResult sweep(const ScenarioInput& in, const std::vector<SweepAxis>& axes,
                  const std::vector<std::string>& outputs, const ProgressCallback& progress,
                  const std::atomic<bool>* cancel) {
    if (axes.empty() || axes.size() > 2)
        throw InputError(InputLocation{"sweep", "", "", "", "axes"},
                         "a sweep has 1 or 2 axes; got " + std::to_string(axes.size()));
    const Evaluator ev(in);
    std::vector<std::string> keys;
    for (const auto& ax : axes) {
        const InputLocation where{"sweep", "axis", ax.key, "", ""};
        if (!std::isfinite(ax.low) || !std::isfinite(ax.high))
            throw InputError(InputLocation{"sweep", "axis", ax.key, "", "low/high"}, "range is not finite");
        if (ax.low > ax.high)
            throw InputError(InputLocation{"sweep", "axis", ax.key, "", "low/high"},
                             "low " + format("%g", ax.low) + " is above high " + format("%g", ax.high));
        if (ax.steps < 1 || ax.steps > kMaxSweepSteps)
            throw InputError(InputLocation{"sweep", "axis", ax.key, "", "steps"},
                             "steps must lie in [1, 1000]; got " + std::to_string(ax.steps));
        if (std::find(keys.begin(), keys.end(), ax.key) != keys.end())
            throw InputError(where, "the same path on both axes");
        // The path, both ends of its range, and that the evaluation reads it (else every row is the same).
        const model::AssumptionSet merged = model::mergeAssumptions(ev.defaults(), ev.project().assumptions);
        checkInputOverride(ev.project(), merged, InputOverride{ax.key, ax.low}, "sweep");
        checkInputOverride(ev.project(), merged, InputOverride{ax.key, ax.high}, "sweep");
        // Every grid value of a whole-number assumption (horizon_years) must be whole, or a point in the
        // middle of the run would be refused: say so up front, naming the first fractional value.
        for (int i = 0; i < ax.steps; ++i)
            checkInputOverride(ev.project(), merged, InputOverride{ax.key, ax.value(i)}, "sweep");
        ev.requireUsed({InputOverride{ax.key, ax.low, "sweep"}});
        keys.push_back(ax.key);
    }
    const Results& base = ev.base();
    requireFigures(base, outputs, "sweep");

    SweepResult res;
    res.axes = axes;
    res.outputs = outputs;
    const size_t steps0 = static_cast<size_t>(axes[0].steps);
    const size_t steps1 = axes.size() > 1 ? static_cast<size_t>(axes[1].steps) : 1;
    const size_t points = steps0 * steps1;
    std::vector<std::vector<double>> values(outputs.size(), std::vector<double>(points, 0.0));
    std::vector<std::vector<char>> defined(outputs.size(), std::vector<char>(points, 0));
    auto overridesAt = [&](size_t point) {
        InputOverrides o{InputOverride{axes[0].key, axes[0].value(static_cast<int>(point / steps1))}};
        if (axes.size() > 1)
            o.push_back(InputOverride{axes[1].key, axes[1].value(static_cast<int>(point % steps1))});
        return o;
    };

    // The BOM depends only on inputs for which overrideAffectsBillOfMaterials holds: with one such axis
    // derive it once per step of that axis up front; with two, per point (inside evaluate); with none, reuse
    // the base.
    const bool bom0 = overrideAffectsBillOfMaterials(keys[0]),
               bom1 = keys.size() > 1 && overrideAffectsBillOfMaterials(keys[1]);
    std::vector<BillOfMaterials> boms;
    auto cancelledResult = [&] {
        res.cancelled = true;
        res.values.assign(outputs.size(), std::vector<double>(points, 0.0));
        res.defined.assign(outputs.size(), std::vector<bool>(points, false));
        if (progress) progress(0.0);
        return res;
    };
    if (bom0 != bom1) {
        const size_t n = bom0 ? steps0 : steps1;
        boms.resize(n);
        if (parallelFor(
                n, [&](size_t i) { boms[i] = ev.deriveBom(overridesAt(bom0 ? i * steps1 : i)); }, cancel) < n)
            return cancelledResult();
    }

    const std::function<void(size_t)> onProgress = [&](size_t done) {
        if (progress) progress(static_cast<double>(done) / static_cast<double>(points));
    };
    const size_t done = parallelFor(
        points,
        [&](size_t point) {
            const BillOfMaterials* bom = nullptr;
            if (bom0 && !bom1) bom = &boms[point / steps1];
            if (bom1 && !bom0) bom = &boms[point % steps1];
            if (!bom0 && !bom1) bom = &ev.baseBom();
            const auto f = ev.figures(overridesAt(point), outputs, bom);
            for (size_t k = 0; k < outputs.size(); ++k)
                if (f[k]) values[k][point] = finite(*f[k]), defined[k][point] = 1;
        },
        cancel, onProgress);
    res.cancelled = done < points;
    if (progress) progress(static_cast<double>(done) / static_cast<double>(points));
    res.values = std::move(values);
    for (const auto& d : defined)
        res.defined.emplace_back(d.begin(), d.end());
    return res;
}

// ---- Uncertainty ----

std::map<std::string, Percentiles> uncertainty(const ScenarioInput& in,
                                               const std::vector<std::string>& outputs, int samples,
                                               std::uint64_t seed, const std::atomic<bool>* cancel) {
    if (samples < 1 || samples > kMaxSamples)
        throw InputError(InputLocation{"uncertainty", "", "", "", "samples"},
                         "samples must lie in [1, 100000]; got " + std::to_string(samples));
    const Evaluator ev(in);
    requireFigures(ev.base(), outputs, "uncertainty");

    // Draw every sample first, in a fixed order (sample by sample, inputs in order), so the numbers depend
    // on the seed only, never on how the evaluations are scheduled. The inputs are those the evaluation
    // reads that have a range (Evaluator::rangedInputs), each drawn independently.
    const std::vector<ResolvedInput> varied = ev.rangedInputs();
    const auto n = static_cast<size_t>(samples);
    // A whole-number assumption (horizon_years) is drawn from its triangular and rounded to the nearest whole
    // number: a discrete draw, since a fractional value is refused (assumptionValueProblem).
    std::vector<char> wholeNumber(varied.size(), 0);
    for (size_t k = 0; k < varied.size(); ++k)
        if (varied[k].path.rfind("assumptions.", 0) == 0)
            if (const auto it = ev.defaults().find(varied[k].path.substr(12)); it != ev.defaults().end())
                wholeNumber[k] = it->second.whole;
    std::vector<double> draws(n * varied.size());
    std::mt19937_64 engine(seed);
    for (size_t s = 0; s < n; ++s)
        for (size_t k = 0; k < varied.size(); ++k) {
            const auto& a = varied[k];
            draws[s * varied.size() + k] = triangular(a.low, a.value, a.high, unitUniform(engine));
            if (wholeNumber[k]) draws[s * varied.size() + k] = std::round(draws[s * varied.size() + k]);
        }

    std::vector<std::vector<double>> values(outputs.size(), std::vector<double>(n, 0.0));
    std::vector<std::vector<char>> defined(outputs.size(), std::vector<char>(n, 0));
    const size_t done = parallelFor(
        n,
        [&](size_t s) {
            InputOverrides sample;
            sample.reserve(varied.size());
            for (size_t k = 0; k < varied.size(); ++k)
                sample.push_back(InputOverride{varied[k].path, draws[s * varied.size() + k]});
            const auto f = ev.figures(sample, outputs);
            for (size_t k = 0; k < outputs.size(); ++k)
                if (f[k]) values[k][s] = finite(*f[k]), defined[k][s] = 1;
        },
        cancel);
    if (done < n) return {}; // cancelled

    std::map<std::string, Percentiles> out;
    for (size_t k = 0; k < outputs.size(); ++k) {
        std::vector<double> v;
        v.reserve(n);
        for (size_t s = 0; s < n; ++s)
            if (defined[k][s]) v.push_back(values[k][s]);
        std::sort(v.begin(), v.end());
        Percentiles p;
        p.count = static_cast<int>(v.size());
        if (!v.empty()) {
            p.p10 = percentile(v, 0.10), p.p50 = percentile(v, 0.50), p.p90 = percentile(v, 0.90);
            double sum = 0;
            for (double x : v)
                sum += x;
            p.mean = finite(sum / static_cast<double>(v.size()));
        }
        out[outputs[k]] = p;
    }
    return out;
}

std::vector<std::string> headlineOutputs(const Results& r) {
    std::vector<std::string> outs = {"finance.cost_per_gpu_hour_usd", "finance.tco_annual_usd"};
    if (r.figure("inference.cost_per_million_output_tokens_usd"))
        outs.push_back("inference.cost_per_million_output_tokens_usd");
    if (r.figure("training.cost_per_million_tokens_usd"))
        outs.push_back("training.cost_per_million_tokens_usd");
    return outs;
}

} // namespace ctwin::cost
