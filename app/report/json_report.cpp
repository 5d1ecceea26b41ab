#include "report/json_report.h"

#include "design_json.h"
#include "report/atomic_file.h"
#include "report/report_format.h"
#include "results_json.h"

#include <cmath>
#include <fstream>
#include <stdexcept>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;

namespace {
double finite(double v) {
    return std::isfinite(v) ? v : 0.0;
}

ojson money(const std::vector<units::Money>& v) {
    ojson out = ojson::array();
    for (const auto& m : v)
        out.push_back(finite(m.value()));
    return out;
}

void writeJson(const ojson& j, const std::string& path) {
    AtomicFile file(path);
    {
        std::ofstream out(file.tempPath(), std::ios::binary | std::ios::trunc);
        out << model::dumpOutputJson(j) << '\n';
        out.close();
        if (!out) file.fail("cannot write the JSON file");
    }
    file.commit();
}
} // namespace

ojson reportToJson(const ReportInput& in) {
    if (!in.project || !in.results)
        throw std::invalid_argument("reportToJson: project and results are required");
    const auto& r = *in.results;
    const auto& p = *in.project;
    const auto& fin = r.finance;
    ojson out = cost::resultsToJson(r);
    ojson report;
    report["design"] = {{"id", p.info.id},
                        {"name", p.info.name},
                        {"description", p.info.description},
                        {"sources", p.info.sources}};
    report["date"] = reportDate(in.date);

    ojson capex = ojson::array();
    for (const auto& c : cost::kCapexCategories) {
        auto it = r.capex.byCategory.find(c);
        const double v = it == r.capex.byCategory.end() ? 0.0 : it->second.value();
        capex.push_back({{"category", c},
                         {"label", capexCategoryLabel(c)},
                         {"cost_usd", finite(v)},
                         {"share", finite(r.capex.share(c))}});
    }
    report["capex"] = capex;

    ojson analyst = ojson::array();
    for (const auto& g : cost::kAnalystCapexCategories) {
        auto it = r.capex.analystView.find(g);
        const double v = it == r.capex.analystView.end() ? 0.0 : it->second.value();
        analyst.push_back({{"group", g},
                           {"label", analystCategoryLabel(g)},
                           {"cost_usd", finite(v)},
                           {"share", finite(r.capex.total.value() != 0 ? v / r.capex.total.value() : 0.0)}});
    }
    report["capex_analyst_view"] = analyst;

    // Both annual-cost conventions; "headline" names the one finance.tco_annual_usd uses.
    ojson conventions = ojson::object();
    for (const auto& [name, view] : {std::pair{std::string("economic"), &fin.economic},
                                     std::pair{std::string("accounting"), &fin.accounting}}) {
        const bool econ = name == "economic";
        ojson classes = ojson::object();
        for (const auto& ac : fin.assetClasses)
            classes[ac.name] = {{"capex_usd", finite(ac.capex.value())},
                                {"residual_fraction", finite(ac.residualFraction)},
                                {"capex_charge_usd", finite((econ ? ac.economicCharge : ac.accountingCharge).value())},
                                {"maintenance_usd", finite(ac.maintenance.value())}};
        const double wacc = in.assumptions.count("wacc") ? in.assumptions.at("wacc").base : 0.0;
        classes["land"] = {{"capex_usd", finite(fin.land.value())},
                           {"residual_fraction", 1.0},
                           {"capex_charge_usd", finite(econ ? wacc * fin.land.value() : 0.0)},
                           {"maintenance_usd", 0.0}};
        conventions[name] = {{"label", tcoConventionLabel(name)},
                             {"headline", name == fin.convention},
                             {"tco_annual_usd", finite(view->tcoAnnual.value())},
                             {"cost_per_gpu_hour_usd", finite(view->costPerGpuHour)},
                             {"capex_charge_usd", finite(view->capexCharge.value())},
                             {"annual_by_class", classes}};
    }
    report["tco_conventions"] = conventions;
    report["tco_headline"] = fin.convention;

    ojson dep = ojson::array();
    for (const auto& ac : fin.assetClasses)
        dep.push_back({{"asset_class", ac.name},
                       {"capex_usd", finite(ac.capex.value())},
                       {"life_years", finite(ac.lifeYears)},
                       {"straight_line_usd", money(ac.straightLine)},
                       {"declining_balance_usd", money(ac.decliningBalance)}});
    report["depreciation"] = dep;

    ojson cash = ojson::array();
    double cumulative = 0;
    for (size_t y = 0; y < fin.cashFlows.size(); ++y) {
        auto at = [&](const std::vector<units::Money>& v) {
            return y == 0 || y - 1 >= v.size() ? 0.0 : v[y - 1].value();
        };
        cumulative += fin.cashFlows[y].value();
        cash.push_back({{"year", y},
                        {"capex_usd", finite(y == 0 ? r.capex.total.value() : 0.0)},
                        {"revenue_usd", finite(at(fin.revenue))},
                        {"opex_usd", finite(at(fin.opex))},
                        {"tax_usd", finite(at(fin.tax))},
                        {"replacement_capex_usd", finite(at(fin.replacementCapex))},
                        {"residual_sold_usd", finite(at(fin.salvage))},
                        {"terminal_value_usd", finite(at(fin.terminalValue))},
                        {"net_cash_flow_usd", finite(fin.cashFlows[y].value())},
                        {"cumulative_usd", finite(cumulative)}});
    }
    report["cash_flow"] = cash;

    ojson assumptions = ojson::object();
    for (const auto& [key, a] : in.assumptions)
        assumptions[key] = {{"base", finite(a.base)},
                            {"low", finite(a.low)},
                            {"high", finite(a.high)},
                            {"unit", a.unit},
                            {"source", a.source},
                            {"estimate", a.estimate},
                            {"design_override", p.assumptions.count(key) > 0}};
    report["assumptions"] = assumptions;

    if (in.tornado) {
        ojson bars = ojson::array();
        for (const auto& b : in.tornado->bars)
            bars.push_back({{"assumption", b.assumption},
                            {"input_low", finite(b.inputLow)},
                            {"input_high", finite(b.inputHigh)},
                            {"output_at_low", finite(b.outputAtLow)},
                            {"output_at_high", finite(b.outputAtHigh)},
                            {"swing", finite(b.swing)}});
        report["sensitivity"] = {
            {"output", in.tornado->output}, {"base", finite(in.tornado->base)}, {"bars", bars}};
    }
    if (in.uncertainty) {
        ojson u = ojson::object();
        for (const auto& [key, pc] : *in.uncertainty)
            u[key] = {{"p10", finite(pc.p10)},
                      {"p50", finite(pc.p50)},
                      {"p90", finite(pc.p90)},
                      {"mean", finite(pc.mean)}};
        report["uncertainty"] = u;
    }
    out["report"] = report;
    return out;
}

ojson comparisonToJson(const ComparisonInput& in) {
    const auto& cmp = in.comparison;
    if (in.results.size() != cmp.names.size())
        throw std::invalid_argument("comparisonToJson: one result per compared design is required");
    ojson out;
    out["designs"] = cmp.names;
    out["baseline"] = cmp.baseline;
    out["date"] = reportDate(in.date);
    ojson rows = ojson::array();
    auto finiteAll = [](const std::vector<double>& v) {
        ojson a = ojson::array();
        for (double x : v)
            a.push_back(finite(x));
        return a;
    };
    for (const auto& row : cmp.rows)
        rows.push_back({{"key", row.key},
                        {"label", row.label},
                        {"unit", row.unit},
                        {"values", finiteAll(row.values)},
                        {"delta_absolute", finiteAll(row.deltaAbsolute)},
                        {"delta_percent", finiteAll(row.deltaPercent)},
                        {"lower_is_better", row.lowerIsBetter},
                        {"best", row.best},
                        {"worst", row.worst}});
    out["rows"] = rows;
    out["explanations"] = cmp.explanations;
    ojson capex = ojson::object();
    for (const auto& c : cost::kCapexCategories) {
        ojson v = ojson::array();
        for (const auto* res : in.results) {
            if (!res) throw std::invalid_argument("comparisonToJson: null result");
            auto it = res->capex.byCategory.find(c);
            v.push_back(finite(it == res->capex.byCategory.end() ? 0.0 : it->second.value()));
        }
        capex[c] = v;
    }
    out["capex_by_category_usd"] = capex;
    return out;
}

void writeJsonReport(const ReportInput& input, const std::string& path) {
    writeJson(reportToJson(input), path);
}

void writeComparisonJson(const ComparisonInput& input, const std::string& path) {
    writeJson(comparisonToJson(input), path);
}

} // namespace ctwin::app
