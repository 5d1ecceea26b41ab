// Token economics (SPEC.md §4.8): what each inference service's tokens earn at market
// prices, the profit beside the cost per GPU-hour, and the build / rent / API comparison with its break-even
// utilisation. Runs after the inference stage (its operating points) and the finance stage (the cost per
// GPU-hour and the price-dependent cash flows it leaves in the context).
#include "evaluate_stages.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace ctwin::cost::detail {
namespace {

using ServiceTokens = EvalContext::ServiceTokens;

/// The service's own prices where it states them, else its model preset's market API prices (catalog
/// `models`, api_price_usd_per_m_*_tokens); false when neither gives all three.
bool resolvePrices(const EvalContext& c, const model::InferenceService& s, ServiceTokens& t) {
    const model::CatalogItem* preset = s.model.empty() ? nullptr : c.catalog.find(s.model);
    std::string presetSource;
    const auto pick = [&](const std::optional<double>& own, const char* field) -> std::optional<double> {
        if (own) return own;
        const auto* v = preset ? preset->find(field) : nullptr;
        if (!v) return std::nullopt;
        if (presetSource.empty()) presetSource = preset->id + " market API price: " + v->source;
        return v->base;
    };
    const auto in = pick(s.priceInputUsdPerMTokens, "api_price_usd_per_m_input_tokens");
    const auto cached = pick(s.priceCachedInputUsdPerMTokens, "api_price_usd_per_m_cached_input_tokens");
    const auto out = pick(s.priceOutputUsdPerMTokens, "api_price_usd_per_m_output_tokens");
    if (!in || !cached || !out) return false;
    t.priceInput = *in, t.priceCachedInput = *cached, t.priceOutput = *out;
    const bool own =
        s.priceInputUsdPerMTokens || s.priceCachedInputUsdPerMTokens || s.priceOutputUsdPerMTokens;
    t.priceSource = own ? "inference service " + s.id + " prices (price_usd_per_m_*_tokens)" +
                              (presetSource.empty() ? std::string() : "; the rest: " + presetSource)
                        : presetSource;
    return true;
}

/// The cost per busy GPU-hour as a function of the utilization u, C(u) = fixed / u + variable: only the
/// energy moves with u (racks at idle + (busy - idle)·u, Fan, Weber & Barroso, ISCA 2007, the power stage's
/// model with its busy draw b, a share of full load; facility energy taken proportional to IT power, i.e. at
/// the annual PUE); the rest of the TCO is paid whether the GPUs are busy or not. Calibrated so that C(u0)
/// is finance.cost_per_gpu_hour: variable = dE/du · u0 / GPU-hours sold, fixed = (C(u0) - variable) · u0,
/// where dE/du = energy a year x compute share of IT x (b - idle) / (idle + (b - idle) u0).
void costCurve(EvalContext& c) {
    const Results& r = c.r;
    const double u0 = c.utilization;
    const double idle = std::clamp(c.rackIdleShare, 0.0, 1.0);
    const double computeShare = safeDiv(r.power.compute.value(), r.power.itOperating.value());
    const double busy = std::max(idle, c.computeBusyShare);
    const double slope = safeDiv(busy - idle, idle + (busy - idle) * u0);
    const double energyPerUtilization = r.finance.energyAnnual.value() * computeShare * slope;
    c.tokenCostVariable = safeDiv(energyPerUtilization * u0, r.finance.gpuHoursPerYear);
    c.tokenCostFixed = (r.finance.costPerGpuHour - c.tokenCostVariable) * u0;
}

ServiceTokens serviceTokens(const EvalContext& c, const model::InferenceService& s, const InferenceResult& ir,
                            double peakPerGpu) {
    ServiceTokens t;
    if (!(s.gpus > 0) || !resolvePrices(c, s, t)) return t;
    const Results& r = c.r;
    t.priced = true;
    t.licenceShare = std::clamp(
        s.licenceRevenueShare ? *s.licenceRevenueShare : c.a.get("model_licence_revenue_share"), 0.0, 1.0);
    const double hit = std::clamp(s.prefixCacheHitRate, 0.0, 1.0);
    const double in = ir.sizing.inputTokensPerSecond, out = ir.sizing.outputTokensPerSecond;
    // Sales per second at the operating point: each kind of token at its price per million.
    t.grossPerSecond =
        (in * (1.0 - hit) * t.priceInput + in * hit * t.priceCachedInput + out * t.priceOutput) / 1e6;
    t.grossPerGpuHour = t.grossPerSecond * 3600.0 / s.gpus;
    t.netPerGpuHour = t.grossPerGpuHour * (1.0 - t.licenceShare);
    t.profitPerGpuHour = t.netPerGpuHour - r.finance.costPerGpuHour;
    // The service's share of the GPU-hours sold (sellable GPUs x 8,766 h x utilization x availability).
    const double gpuHours = safeDiv(r.finance.gpuHoursPerYear * s.gpus, c.sellableGpus);
    t.revenueAnnual = t.netPerGpuHour * gpuHours;
    t.profitAnnual = t.profitPerGpuHour * gpuHours;
    t.provisionedGw = s.gpus * peakPerGpu / 1e9;
    t.apiPerRequest = safeDiv(t.grossPerSecond, ir.sizing.requestsPerSecond);
    // Renting: the contract price is paid for every hour, so a busy GPU-hour costs price / u.
    const double u0 = c.utilization;
    t.rentPerRequest =
        safeDiv(s.gpus * safeDiv(r.finance.gpuHourPrice, u0) / 3600.0, ir.sizing.requestsPerSecond);
    // Build vs API: C(u) = fixed / u + variable equals the API price of a busy GPU-hour's tokens, R, at
    // u* = fixed / (R - variable); none when the tokens do not even pay the energy.
    if (t.grossPerGpuHour > c.tokenCostVariable)
        t.buildBreakEvenUtilization = c.tokenCostFixed / (t.grossPerGpuHour - c.tokenCostVariable);
    // Rent vs API: price / u = R at u* = price / R.
    if (t.grossPerGpuHour > 0) t.rentBreakEvenUtilization = r.finance.gpuHourPrice / t.grossPerGpuHour;
    return t;
}

void addServiceFigures(EvalContext& c, const ServiceTokens& t) {
    const Results& r = c.r;
    const std::vector<SourceRef> priceSources = {SourceRef(t.priceSource),
                                                 EvalContext::source("model_licence_revenue_share")};
    addFigure(
        c, "inference.token_revenue_per_gpu_hour_usd", t.netPerGpuHour, "USD/GPU-h",
        "Token revenue per GPU-hour, net of the licence share (first service, at its operating point)",
        "(new input x input price + cached input x cached-input price + output x output price) tokens/s "
        "/ 1e6 x 3600 / GPUs x (1 - licence share)",
        {{"price_input_usd_per_m", t.priceInput},
         {"price_cached_input_usd_per_m", t.priceCachedInput},
         {"price_output_usd_per_m", t.priceOutput},
         {"licence_share", t.licenceShare},
         {"gross_usd_per_gpu_hour", t.grossPerGpuHour}},
        priceSources);
    addFigure(c, "inference.token_profit_per_gpu_hour_usd", t.profitPerGpuHour, "USD/GPU-h",
              "Token profit per GPU-hour (first service; " + r.finance.convention + " cost per GPU-hour)",
              "token revenue per GPU-hour (net) - finance.cost_per_gpu_hour",
              {{"cost_per_gpu_hour", r.finance.costPerGpuHour}}, priceSources);
    addFigure(
        c, "inference.token_revenue_annual_usd", t.revenueAnnual, "USD/yr",
        "Token revenue a year, net of the licence share (first service, steady state)",
        "net revenue per GPU-hour x the service's share of the GPU-hours sold (utilization, availability)",
        {{"utilization", c.utilization}}, priceSources);
    addFigure(c, "inference.api_cost_per_request_usd", t.apiPerRequest, "USD",
              "API: the price of one request's tokens (first service; buy instead of build)",
              "(new input x input price + cached input x cached-input price + output x output price) / 1e6",
              {}, priceSources);
    addFigure(c, "inference.rent_cost_per_request_usd", t.rentPerRequest, "USD",
              "Rent: cost per request on rented GPUs (first service; the GPU-hour price paid every hour)",
              "GPUs x GPU-hour price / utilization / 3600 / requests/s",
              {{"gpu_hour_price", r.finance.gpuHourPrice}, {"utilization", c.utilization}},
              {SourceRef("GPU-hour price: finance.gpu_hour_price_usd"), EvalContext::source("utilization")});
    if (t.buildBreakEvenUtilization)
        addFigure(
            c, "inference.build_break_even_utilization", *t.buildBreakEvenUtilization, "",
            "Build vs API: utilization at which owning costs the API price (first service; > 1 = never)",
            "u* = fixed / (API price per busy GPU-hour - energy per busy GPU-hour), from the cost per busy "
            "GPU-hour C(u) = fixed / u + energy (only the energy moves with utilization)",
            {{"fixed_usd_per_gpu_hour_at_u1", c.tokenCostFixed},
             {"energy_usd_per_busy_gpu_hour", c.tokenCostVariable},
             {"api_usd_per_busy_gpu_hour", t.grossPerGpuHour}},
            priceSources);
    if (t.rentBreakEvenUtilization)
        addFigure(
            c, "inference.rent_break_even_utilization", *t.rentBreakEvenUtilization, "",
            "Rent vs API: utilization at which rented GPUs cost the API price (first service; > 1 = never)",
            "u* = GPU-hour price / API price per busy GPU-hour",
            {{"gpu_hour_price", r.finance.gpuHourPrice}, {"api_usd_per_busy_gpu_hour", t.grossPerGpuHour}},
            priceSources);
}

} // namespace

void evaluateTokenEconomics(EvalContext& c) {
    const model::Project& p = c.p;
    Results& r = c.r;
    c.serviceTokens.clear();
    c.tokenBlendedGpuHourPrice.reset();
    c.tokenGpus = 0;
    if (r.inference.empty()) return;
    costCurve(c);
    const double peakPerGpu = safeDiv(r.power.facilityPeak.value(), c.bom.gpus);
    const size_t n = std::min(r.inference.size(), p.inferenceServices.size());
    for (size_t k = 0; k < n; ++k) {
        const auto& s = p.inferenceServices[k];
        c.serviceTokens.push_back(serviceTokens(c, s, r.inference[k], peakPerGpu));
        const ServiceTokens& t = c.serviceTokens.back();
        if (!t.priced)
            r.rules.push_back(
                {Severity::Info, "token_prices_missing", s.id,
                 "Inference service " + s.name +
                     ": no token prices (set price_usd_per_m_input_tokens, "
                     "price_usd_per_m_cached_input_tokens and price_usd_per_m_output_tokens, or "
                     "use a model preset with market API prices); its token revenue is not "
                     "computed"});
        else if (!t.buildBreakEvenUtilization || *t.buildBreakEvenUtilization > 1.0)
            r.rules.push_back(
                {Severity::Info, "build_never_beats_api", s.id,
                 "Inference service " + s.name +
                     ": owning the GPUs costs more than the API price at any utilization " +
                     (t.buildBreakEvenUtilization
                          ? "(break-even at " + fmt(*t.buildBreakEvenUtilization * 100.0) + " %)"
                          : std::string("(the tokens do not pay for the energy)"))});
    }
    // The priced services' GPUs earn their tokens' net revenue and every other sellable GPU the GPU-hour
    // price: the revenue per GPU-hour sold that the steady-state and timeline NPVs selling tokens use.
    double earning = 0;
    for (size_t k = 0; k < c.serviceTokens.size(); ++k)
        if (c.serviceTokens[k].priced) {
            c.tokenGpus += p.inferenceServices[k].gpus;
            earning += c.serviceTokens[k].netPerGpuHour * p.inferenceServices[k].gpus;
        }
    if (c.tokenGpus > 0 && c.sellableGpus > 0) {
        const double rest = std::max(0.0, c.sellableGpus - c.tokenGpus);
        c.tokenBlendedGpuHourPrice = (earning + rest * r.finance.gpuHourPrice) / (c.tokenGpus + rest);
    }
}

void addTokenEconomicsFigures(EvalContext& c) {
    const Results& r = c.r;
    if (c.serviceTokens.empty()) return;
    if (c.serviceTokens.front().priced) addServiceFigures(c, c.serviceTokens.front());
    double revenue = 0, profit = 0, gw = 0;
    bool anyPriced = false;
    for (const ServiceTokens& t : c.serviceTokens) {
        if (!t.priced) continue;
        anyPriced = true;
        revenue += t.revenueAnnual;
        profit += t.profitAnnual;
        gw += t.provisionedGw;
    }
    const double gpus = c.tokenGpus;
    if (!anyPriced) return;
    addFigure(c, "inference.fleet.token_revenue_annual_usd", revenue, "USD/yr",
              "Fleet token revenue a year, net of licence shares (priced services, steady state)",
              "sum over services of net revenue per GPU-hour x their GPU-hours sold", {{"gpus", gpus}});
    addFigure(c, "inference.fleet.token_profit_annual_usd", profit, "USD/yr",
              "Fleet token profit a year (priced services, steady state; " + r.finance.convention + " cost)",
              "sum over services of (net revenue - cost) per GPU-hour x their GPU-hours sold",
              {{"gpus", gpus}});
    addFigure(c, "inference.fleet.token_profit_per_gw_year_usd", safeDiv(profit, gw), "USD/GW-yr",
              "Fleet token profit per provisioned GW-year (priced services, steady state)",
              "token profit a year / (serving GPUs x peak facility power per GPU, in GW)",
              {{"provisioned_gw", gw}});
    // NPV with the priced services' GPUs earning their tokens' net revenue and every other sellable GPU the
    // GPU-hour price: the finance stage's cash flow (capex + IDC at delivery, time to revenue, tax,
    // replacements, terminal value) at the blended revenue per GPU-hour sold (finance.h pricedCashFlows).
    if (!c.pricedYears.empty() && c.tokenBlendedGpuHourPrice) {
        const double rest = std::max(0.0, c.sellableGpus - gpus);
        const double blended = *c.tokenBlendedGpuHourPrice;
        const auto flows = pricedCashFlows(c.financeInitial, c.pricedYears, blended, c.taxRate);
        addFigure(
            c, "inference.fleet.npv_token_revenue_usd", netPresentValue(c.wacc, flows).value(), "USD",
            "NPV selling tokens (priced services' GPUs at their token revenue, the rest at the GPU-hour "
            "price; steady-state years)",
            "finance.npv's cash flows at the blended revenue per GPU-hour sold",
            {{"blended_usd_per_gpu_hour", blended}, {"token_gpus", gpus}, {"other_gpus", rest}});
    }
}

} // namespace ctwin::cost::detail
