// Token economics (issue 34 item 4; cost/evaluate_token_economics.cpp): token revenue at market prices,
// the licence share, profit beside the cost per GPU-hour, the build / rent / API comparison and its
// break-even utilization, and the NPV when the services sell tokens. Every expected value is worked from
// the engine's own operating point (requests, tokens/s) and the prices by hand in the comment beside the
// check; tolerances are stated at each check.
#include "../test_support.h"
#include "design_json.h"
#include "evaluate.h"
#include "figure_checks.h"
#include "input_error.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace ctwin;
using ctwin::test_support::catalog;
using ctwin::test_support::defaults;
using ctwin::test_support::fig;
using ctwin::test_support::near;
using ctwin::test_support::reference;

namespace {

cost::Results evaluateWith(const model::Project& p,
                           const std::vector<std::pair<std::string, double>>& set = {}) {
    cost::InputOverrides o;
    for (const auto& [k, v] : set)
        o.push_back({"assumptions." + k, v, "test"});
    return cost::evaluate(p, catalog(), defaults(), o);
}

bool hasRule(const cost::Results& r, const std::string& id, const std::string& entity) {
    return std::any_of(r.rules.begin(), r.rules.end(),
                       [&](const cost::DesignRule& d) { return d.rule == id && d.entity == entity; });
}

/// The agentic reference with only its first service (kimi-k2, 20,000 in / 1,000 out).
model::Project agenticOneService() {
    auto p = reference("agentic-inference-gb300");
    p.inferenceServices.resize(1);
    return p;
}

double sellableGpus(const cost::Results& r) {
    return r.bom.gpus - r.bom.spareGpus;
}

} // namespace

class TestTokenEconomics : public QObject {
    Q_OBJECT
private slots:
    /// Catalog prices of the preset (kimi-k2: $0.60 new input, $0.15 cached, $2.50 output per M tokens), no
    /// prefix hits, licence share 0 (the shipped base): revenue per busy GPU-hour = (in x 0.60 + out x 2.50)
    /// / 1e6 x 3600 / GPUs, from the engine's own tokens/s. Tolerance 1e-12 relative (same arithmetic).
    void revenueFromPresetPricesAtTheOperatingPoint() {
        auto p = agenticOneService();
        p.inferenceServices.front().prefixCacheHitRate =
            0.0; // the reference has 0.7 (cached input: next test)
        const auto r = evaluateWith(p);
        const auto& sz = r.inference.front().sizing;
        const double gpus = p.inferenceServices.front().gpus;
        const double gross =
            (sz.inputTokensPerSecond * 0.60 + sz.outputTokensPerSecond * 2.50) / 1e6 * 3600 / gpus;
        QVERIFY(gross > 0);
        QVERIFY(near(fig(r, "inference.token_revenue_per_gpu_hour_usd"), gross, 1e-12));
        // Profit = revenue - the headline cost per GPU-hour.
        QVERIFY(
            near(fig(r, "inference.token_profit_per_gpu_hour_usd"), gross - r.finance.costPerGpuHour, 1e-9));
        // A year: the service's share of the GPU-hours sold (utilization and availability inside).
        const double hours = r.finance.gpuHoursPerYear * gpus / sellableGpus(r);
        QVERIFY(near(fig(r, "inference.token_revenue_annual_usd"), gross * hours, 1e-12));
        // API price of one request: 20,000 x 0.60 + 1,000 x 2.50 = 14,500 micro-dollars = $0.0145.
        QVERIFY(near(fig(r, "inference.api_cost_per_request_usd"), 0.0145, 1e-12));
        // Per provisioned GW-year: profit a year / (GPUs x facility peak per GPU).
        const double gw = gpus * r.power.facilityPeak.value() / r.bom.gpus / 1e9;
        QVERIFY(near(fig(r, "inference.fleet.token_profit_per_gw_year_usd"),
                     (gross - r.finance.costPerGpuHour) * hours / gw, 1e-9));
        QVERIFY(!hasRule(r, "token_prices_missing", p.inferenceServices.front().id));
    }

    /// The service's own prices and licence share win over the preset and the assumption; a prefix-cache hit
    /// rate moves input tokens to the cached price. Prices $1 / $0.25 / $4, hit rate 0.25, licence 0.1:
    /// gross/s = (in x 0.75 x 1 + in x 0.25 x 0.25 + out x 4) / 1e6; net = gross x 0.9. The per-request API
    /// price: (20,000 x 0.75 x 1 + 20,000 x 0.25 x 0.25 + 1,000 x 4) / 1e6 = (15,000 + 1,250 + 4,000) / 1e6
    /// = $0.02025. Tolerance 1e-12 relative.
    void serviceOwnPricesLicenceAndCachedInput() {
        auto p = agenticOneService();
        auto& s = p.inferenceServices.front();
        s.priceInputUsdPerMTokens = 1.0;
        s.priceCachedInputUsdPerMTokens = 0.25;
        s.priceOutputUsdPerMTokens = 4.0;
        s.licenceRevenueShare = 0.1;
        s.prefixCacheHitRate = 0.25;
        const auto r = evaluateWith(p);
        const auto& sz = r.inference.front().sizing;
        const double in = sz.inputTokensPerSecond, out = sz.outputTokensPerSecond;
        const double gross = (in * 0.75 * 1.0 + in * 0.25 * 0.25 + out * 4.0) / 1e6 * 3600 / s.gpus;
        QVERIFY(near(fig(r, "inference.token_revenue_per_gpu_hour_usd"), gross * 0.9, 1e-12));
        QVERIFY(near(fig(r, "inference.api_cost_per_request_usd"), 0.02025, 1e-12));
        // Rent: GPUs x price / utilization / 3600 / requests per second, and its break-even price / gross.
        const auto used = std::find_if(r.inputs.begin(), r.inputs.end(), [](const cost::ResolvedInput& i) {
            return i.path == "assumptions.utilization";
        });
        QVERIFY(used != r.inputs.end());
        const double u = used->value;
        QVERIFY(u > 0 && u <= 1);
        QVERIFY(near(fig(r, "inference.rent_cost_per_request_usd"),
                     s.gpus * r.finance.gpuHourPrice / u / 3600 / sz.requestsPerSecond, 1e-12));
        QVERIFY(near(fig(r, "inference.rent_break_even_utilization"), r.finance.gpuHourPrice / gross, 1e-12));
    }

    /// A licence share that brings the net revenue per GPU-hour to exactly the GPU-hour price makes the
    /// token NPV the finance stage's NPV (same cash flows at the same price). Tolerance 1e-9 relative.
    void tokenNpvEqualsTheFinanceNpvAtTheRentalPrice() {
        auto p = agenticOneService();
        const auto r0 = evaluateWith(p);
        const double gross = fig(r0, "inference.token_revenue_per_gpu_hour_usd"); // licence 0
        QVERIFY(gross > r0.finance.gpuHourPrice);
        p.inferenceServices.front().licenceRevenueShare = 1.0 - r0.finance.gpuHourPrice / gross;
        const auto r = evaluateWith(p);
        QVERIFY(near(fig(r, "inference.token_revenue_per_gpu_hour_usd"), r.finance.gpuHourPrice, 1e-12));
        QVERIFY(near(fig(r, "inference.fleet.npv_token_revenue_usd"), r.finance.npv.value(), 1e-9));
        // The same on the time axis: the phased timeline selling tokens is the timeline itself.
        QVERIFY(near(fig(r, "timeline.npv_token_revenue_usd"), fig(r, "timeline.npv_usd"), 1e-9));
        // And at licence 0 both are higher by the after-tax present value of the extra revenue.
        QVERIFY(fig(r0, "inference.fleet.npv_token_revenue_usd") > r0.finance.npv.value());
        QVERIFY(fig(r0, "timeline.npv_token_revenue_usd") > fig(r0, "timeline.npv_usd"));
    }

    /// The break-even utilization is checked against the engine itself: evaluated again at u*, the cost per
    /// GPU-hour equals the API price of a busy GPU-hour's tokens. The operating point does not depend on
    /// utilization; the cost does through every line (the curve keeps only energy variable and takes PUE
    /// constant), so the tolerance is 2 % of the price. Prices chosen so that u* lies inside (0.3, 1).
    void buildBreakEvenUtilizationHoldsWhenReevaluated() {
        auto p = agenticOneService();
        auto& s = p.inferenceServices.front();
        // Output price that makes the API earn about 1.6 x the cost per GPU-hour at the design's utilization.
        const auto r0 = evaluateWith(p);
        const auto& sz = r0.inference.front().sizing;
        const double target = 1.6 * r0.finance.costPerGpuHour;
        s.priceInputUsdPerMTokens = s.priceCachedInputUsdPerMTokens = 0.0;
        s.priceOutputUsdPerMTokens = target * s.gpus / 3600.0 * 1e6 / sz.outputTokensPerSecond;
        const auto r = evaluateWith(p);
        const double api = target;
        QVERIFY(near(fig(r, "inference.token_revenue_per_gpu_hour_usd"), api, 1e-12));
        const double ustar = fig(r, "inference.build_break_even_utilization");
        QVERIFY2(ustar > 0.3 && ustar < 1.0, std::to_string(ustar).c_str());
        const auto rs = evaluateWith(p, {{"utilization", ustar}});
        QVERIFY2(near(rs.finance.costPerGpuHour, api, 0.02),
                 (std::to_string(rs.finance.costPerGpuHour) + " vs " + std::to_string(api)).c_str());
        // Below u* owning costs more than the API, above it less.
        QVERIFY(evaluateWith(p, {{"utilization", ustar * 0.8}}).finance.costPerGpuHour > api);
        QVERIFY(evaluateWith(p, {{"utilization", std::min(1.0, ustar * 1.2)}}).finance.costPerGpuHour < api);
    }

    /// Tokens that do not pay for the GPUs at full utilization: break-even above 1 and an Info rule.
    void cheapTokensNeverPayForTheBuild() {
        auto p = agenticOneService();
        auto& s = p.inferenceServices.front();
        s.priceInputUsdPerMTokens = s.priceCachedInputUsdPerMTokens = 0.0;
        s.priceOutputUsdPerMTokens = 0.01;
        const auto r = evaluateWith(p);
        QVERIFY(fig(r, "inference.token_profit_per_gpu_hour_usd") < 0);
        if (const auto* f = r.figure("inference.build_break_even_utilization")) QVERIFY(f->value > 1.0);
        QVERIFY(hasRule(r, "build_never_beats_api", s.id));
    }

    /// A model without market prices and a service without its own: no token figures, an Info rule naming
    /// the service. A second, priced service still gives the fleet figures.
    void unpricedServiceIsNamedAndSkipped() {
        auto p = reference("agentic-inference-gb300");
        QVERIFY(p.inferenceServices.size() >= 2);
        auto& s = p.inferenceServices.front();
        s.model = "llama3-8b"; // no api_price_* in the catalog
        s.modelParams = 0;
        const auto r = evaluateWith(p);
        QVERIFY(hasRule(r, "token_prices_missing", s.id));
        QVERIFY(!r.figure("inference.token_revenue_per_gpu_hour_usd"));
        QVERIFY(r.figure("inference.fleet.token_revenue_annual_usd"));
        QVERIFY(!hasRule(r, "token_prices_missing", p.inferenceServices[1].id));
    }

    /// Bad values are refused at load naming the service and the field.
    void negativePriceAndLicenceAboveOneAreRefused() {
        const std::string path = test_support::kData + "/reference/agentic-inference-gb300.json";
        std::ifstream in(path);
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        const auto load = [](const std::string& t) {
            model::projectFromJson(model::parseJsonText(t, "bad.json"), "bad.json", &catalog());
        };
        // The first service's (kimi-k2's) null field set to a bad value.
        const auto withField = [&](const std::string& key, const std::string& value) {
            std::string t = text;
            const std::string field = "\"" + key + "\": null";
            const auto at = t.find(field);
            if (at == std::string::npos) qFatal("%s not in the reference", key.c_str());
            t.replace(at, field.size(), "\"" + key + "\": " + value);
            return t;
        };
        const std::string neg =
            test_support::inputErrorOf([&] { load(withField("price_usd_per_m_output_tokens", "-1")); });
        QVERIFY2(neg.find("price_usd_per_m_output_tokens") != std::string::npos, neg.c_str());
        QVERIFY2(neg.find("kimi-k2") != std::string::npos, neg.c_str());
        const std::string big =
            test_support::inputErrorOf([&] { load(withField("licence_revenue_share", "1.5")); });
        QVERIFY2(big.find("licence_revenue_share") != std::string::npos, big.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTokenEconomics)
#include "test_token_economics.moc"
