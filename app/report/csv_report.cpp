#include "report/csv_report.h"

#include "csv_cell.h"
#include "input_error.h"
#include "report/directory_swap.h"
#include "report/report_format.h"
#include "timeline_export.h"

#include <cmath>
#include <set>
#include <stdexcept>
#include <vector>

namespace ctwin::app {

namespace {

using cost::CsvCell;
using Line = std::vector<CsvCell>;

/// A figure: the shortest decimal that reads back to the same double; non-finite values become 0 as in
/// cost::resultsToJson.
CsvCell num(double v) {
    return CsvCell::number(std::isfinite(v) ? v : 0.0);
}

/// Every file either CSV writer here can put in its folder: a folder holding only these (or nothing) is one
/// the report may replace (DirectorySwap refuses any other).
const std::set<std::string> kCsvFiles = {"assumptions.csv",     "capex.csv",       "capex_analyst.csv",
                                         "cashflow.csv",        "comparison.csv",  "depreciation.csv",
                                         "rules.csv",           "sensitivity.csv", "summary.csv",
                                         "tco_conventions.csv", "timeline.csv",    "uncertainty.csv"};

/// The tables of one report, written into a temporary folder that replaces the target folder as a whole.
class CsvDirectory {
public:
    explicit CsvDirectory(const std::string& directory) : m_dir(directory, kCsvFiles, "a CSV report") {}

    void write(const std::string& name, const Line& header, const std::vector<Line>& lines) {
        std::string text = cost::csvLine(header);
        for (const auto& l : lines)
            text += cost::csvLine(l);
        m_dir.write(name, text);
    }
    /// A file whose text is already CSV (cost/csv_cell.h lines).
    void writeText(const std::string& name, const std::string& text) { m_dir.write(name, text); }
    void commit() { m_dir.commit(); }

private:
    DirectorySwap m_dir;
};

} // namespace

void writeCsvReport(const ReportInput& input, const std::string& directory) {
    if (!input.project || !input.results)
        throw std::invalid_argument("writeCsvReport: project and results are required");
    const auto& r = *input.results;
    const auto& fin = r.finance;
    CsvDirectory dir(directory);

    std::vector<Line> summary;
    for (const auto& f : r.figures)
        summary.push_back({f.key, num(f.value), f.unit});
    dir.write("summary.csv", {"key", "value", "unit"}, summary);

    std::vector<Line> capex;
    for (const auto& c : cost::kCapexCategories) {
        auto it = r.capex.byCategory.find(c);
        const double v = it == r.capex.byCategory.end() ? 0.0 : it->second.value();
        capex.push_back({c, capexCategoryLabel(c), num(v), num(r.capex.share(c)),
                         num(r.bom.gpus > 0 ? v / r.bom.gpus : 0.0)});
    }
    dir.write("capex.csv", {"category", "label", "cost_usd", "share", "per_gpu_usd"}, capex);

    // The analyst view: the same total regrouped, GPUs split from the rest of the rack.
    std::vector<Line> analyst;
    for (const auto& g : cost::kAnalystCapexCategories) {
        auto it = r.capex.analystView.find(g);
        const double v = it == r.capex.analystView.end() ? 0.0 : it->second.value();
        analyst.push_back({g, analystCategoryLabel(g), num(v),
                           num(r.capex.total.value() != 0 ? v / r.capex.total.value() : 0.0),
                           num(r.bom.gpus > 0 ? v / r.bom.gpus : 0.0)});
    }
    dir.write("capex_analyst.csv", {"group", "label", "cost_usd", "share", "per_gpu_usd"}, analyst);

    // Both annual-cost conventions by asset class; `headline` marks the one finance.tco_annual_usd uses.
    std::vector<Line> tco;
    for (const auto& [name, view] : {std::pair{std::string("economic"), &fin.economic},
                                     std::pair{std::string("accounting"), &fin.accounting}}) {
        const bool econ = name == "economic";
        const std::string headline = name == fin.convention ? "true" : "false";
        for (const auto& ac : fin.assetClasses)
            tco.push_back(
                {name, headline, ac.name, num(ac.capex.value()), num(ac.lifeYears), num(ac.residualFraction),
                 num((econ ? ac.economicCharge : ac.accountingCharge).value()), num(ac.maintenance.value())});
        const double wacc = input.assumptions.count("wacc") ? input.assumptions.at("wacc").base : 0.0;
        tco.push_back({name, headline, "land", num(fin.land.value()), "", num(1),
                       num(econ ? wacc * fin.land.value() : 0.0), num(0)});
        tco.push_back({name, headline, "total", num(r.capex.total.value()), "", "",
                       num(view->capexCharge.value()), num(fin.maintenanceAnnual.value())});
    }
    dir.write("tco_conventions.csv",
              {"convention", "headline", "asset_class", "capex_usd", "life_years", "residual_fraction",
               "capex_charge_usd", "maintenance_usd"},
              tco);

    std::vector<Line> dep;
    for (const auto& ac : fin.assetClasses)
        for (const auto& [method, schedule] : {std::pair{"straight_line", &ac.straightLine},
                                               std::pair{"declining_balance", &ac.decliningBalance}})
            for (size_t y = 0; y < schedule->size(); ++y)
                dep.push_back({ac.name, num(ac.capex.value()), num(ac.lifeYears), method,
                               CsvCell::wholeNumber(y + 1), num((*schedule)[y].value())});
    dir.write("depreciation.csv",
              {"asset_class", "capex_usd", "life_years", "method", "year", "depreciation_usd"}, dep);

    std::vector<Line> cash;
    const auto wacc = input.assumptions.count("wacc") ? input.assumptions.at("wacc").base : 0.0;
    double cumulative = 0;
    for (size_t y = 0; y < fin.cashFlows.size(); ++y) {
        const double cf = fin.cashFlows[y].value();
        cumulative += cf;
        auto at = [&](const std::vector<units::Money>& v) {
            return y == 0 || y - 1 >= v.size() ? 0.0 : v[y - 1].value();
        };
        cash.push_back({CsvCell::wholeNumber(y), num(y == 0 ? r.capex.total.value() : 0.0),
                        num(at(fin.revenue)), num(at(fin.opex)), num(at(fin.tax)), num(cf), num(cumulative),
                        num(cf * std::pow(1.0 + wacc, -static_cast<double>(y))),
                        num(at(fin.replacementCapex)), num(at(fin.salvage)), num(at(fin.terminalValue))});
    }
    dir.write("cashflow.csv",
              {"year", "capex_usd", "revenue_usd", "opex_usd", "tax_usd", "net_cash_flow_usd",
               "cumulative_usd", "present_value_usd", "replacement_capex_usd", "residual_sold_usd",
               "terminal_value_usd"},
              cash);

    std::vector<Line> assumptions;
    for (const auto& [key, a] : input.assumptions) {
        // set_by: the level that supplied the value used (override, design, default); used: false when every
        // entity sets its own value (InputResolver).
        const auto* in = input.results->input("assumptions." + key);
        assumptions.push_back(
            {key, num(a.base), num(a.low), num(a.high), a.unit, a.estimate ? "true" : "false",
             input.project->assumptions.count(key) ? "true" : "false", a.source,
             in ? cost::inputLevelName(in->level) : "", in && !in->used ? "false" : "true"});
    }
    dir.write(
        "assumptions.csv",
        {"key", "base", "low", "high", "unit", "estimate", "design_override", "source", "set_by", "used"},
        assumptions);

    std::vector<Line> rules;
    for (const auto& rule : r.rules)
        rules.push_back({cost::severityName(rule.severity), rule.rule, rule.entity, rule.message});
    dir.write("rules.csv", {"severity", "rule", "entity", "message"}, rules);

    if (input.tornado) {
        std::vector<Line> lines;
        for (const auto& b : input.tornado->bars)
            lines.push_back({input.tornado->output, num(input.tornado->base), b.assumption, num(b.inputLow),
                             num(b.inputHigh), num(b.outputAtLow), num(b.outputAtHigh), num(b.swing)});
        dir.write("sensitivity.csv",
                  {"output", "base", "assumption", "input_low", "input_high", "output_at_low",
                   "output_at_high", "swing"},
                  lines);
    }
    // The time axis: one row per month, the columns of `clustertwin-cli timeline --csv`.
    if (r.timeline && !r.timeline->months.empty())
        dir.writeText("timeline.csv", cost::timelineToCsv(*r.timeline));
    if (input.uncertainty) {
        std::vector<Line> lines;
        for (const auto& [key, p] : *input.uncertainty)
            lines.push_back({key, num(p.p10), num(p.p50), num(p.p90), num(p.mean)});
        dir.write("uncertainty.csv", {"output", "p10", "p50", "p90", "mean"}, lines);
    }
    dir.commit();
}

void writeComparisonCsv(const ComparisonInput& input, const std::string& directory) {
    const auto& cmp = input.comparison;
    if (cmp.names.empty() || input.results.size() != cmp.names.size())
        throw std::invalid_argument("writeComparisonCsv: one result per compared design is required");
    CsvDirectory dir(directory);
    std::vector<Line> lines;
    for (const auto& row : cmp.rows)
        for (size_t i = 0; i < cmp.names.size(); ++i) {
            auto at = [&](const std::vector<double>& v) { return i < v.size() ? v[i] : 0.0; };
            lines.push_back({row.key, row.label, row.unit, cmp.names[i], i == cmp.baseline ? "true" : "false",
                             num(at(row.values)), num(at(row.deltaAbsolute)), num(at(row.deltaPercent)),
                             static_cast<int>(i) == row.best ? "true" : "false",
                             static_cast<int>(i) == row.worst ? "true" : "false"});
        }
    dir.write("comparison.csv",
              {"key", "label", "unit", "design", "baseline", "value", "delta_absolute", "delta_percent",
               "best", "worst"},
              lines);
    std::vector<Line> capex;
    for (const auto& c : cost::kCapexCategories)
        for (size_t i = 0; i < cmp.names.size(); ++i) {
            const auto* res = input.results[i];
            if (!res) throw std::invalid_argument("writeComparisonCsv: null result");
            auto it = res->capex.byCategory.find(c);
            capex.push_back(
                {c, cmp.names[i], num(it == res->capex.byCategory.end() ? 0.0 : it->second.value())});
        }
    dir.write("capex.csv", {"category", "design", "cost_usd"}, capex);
    dir.commit();
}

} // namespace ctwin::app
