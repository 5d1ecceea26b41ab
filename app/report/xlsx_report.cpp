#include "report/xlsx_report.h"

#include "finance.h"
#include "finance_conventions.h"
#include "report/atomic_file.h"
#include "report/report_format.h"
#include "report/xlsx_book.h"
#include "report/xlsx_timeline.h"
#include "results_json.h"
#include "timeline.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <stdexcept>
#include <xlsxwriter.h>

namespace ctwin::app {

namespace {

using namespace xlsx;

/// Number format of a figure by its unit.
lxw_format* figureFormat(Book& b, const std::string& key, const std::string& unit) {
    if (cost::isPercentFigure(key)) return b.percent;
    if (unit == "USD" || unit == "USD/yr") return b.usd;
    if (unit.rfind("USD", 0) == 0) return b.cents;
    return b.decimal;
}

/// Lays out and writes the single-design workbook. Sheet positions are fixed up front so that the Summary
/// can link to cells of sheets written after it.
class FinanceBook {
public:
    FinanceBook(const ReportInput& in, Book& book) : m_in(in), m_r(*in.results), m_b(book) {
        int row = 1;
        for (const auto& [key, _] : m_in.assumptions)
            m_assumptionRow[key] = row++;
        m_horizon = static_cast<int>(m_r.finance.cashFlows.size()) - 1;
        m_classes = static_cast<int>(m_r.finance.assetClasses.size());
    }

    void write() {
        // Sheet order is the report order; sheets are filled in dependency order.
        lxw_worksheet* summary = m_b.sheet("Summary");
        lxw_worksheet* capex = m_b.sheet("Capex");
        lxw_worksheet* dep = m_b.sheet("Depreciation");
        lxw_worksheet* cash = m_b.sheet("Cash flow");
        lxw_worksheet* assumptions = m_b.sheet("Assumptions");
        lxw_worksheet* energy = m_b.sheet("Energy");
        lxw_worksheet* rules = m_b.sheet("Rules");
        writeAssumptions(assumptions);
        writeEnergy(energy);
        writeCapex(capex);
        writeDepreciation(dep);
        writeCashFlow(cash);
        writeSummary(summary);
        writeRules(rules);
        if (m_r.timeline && !m_r.timeline->months.empty())
            writeTimelineSheet(m_b, m_b.sheet("Timeline"), *m_r.timeline,
                               assumptionCell("wacc").value_or(std::string()), assumption("wacc"));
        if (m_in.tornado) writeSensitivity(m_b.sheet("Sensitivity"));
        if (m_in.uncertainty) writeUncertainty(m_b.sheet("Uncertainty"));
    }

private:
    // ---- Fixed positions (0-based) ----
    static constexpr int kCapexFirst = 1; // first category row
    int capexTotalRow() const { return kCapexFirst + static_cast<int>(cost::kCapexCategories.size()); }
    int capexGpusRow() const { return capexTotalRow() + 2; }
    int capexItPeakRow() const { return capexGpusRow() + 1; }
    int capexPerMwRow() const { return capexGpusRow() + 2; }
    static constexpr int kCapexValueCol = 2, kCapexShareCol = 3, kCapexPerGpuCol = 4;
    std::string capexTotal() const { return onSheet("Capex", cell(capexTotalRow(), kCapexValueCol, true)); }

    // Depreciation: rows of the asset-class block, then the straight-line schedule.
    static constexpr int kDepCapexRow = 1, kDepLifeRow = 2, kDepSlRow = 3, kDepCrfRow = 4,
                         kDepResidualRow = 5, kDepSlHeader = 7;
    int depTotalCol() const { return 1 + m_classes; }
    int depSlYearRow(int year) const { return kDepSlHeader + year; } // year 1..H

    // Cash flow drivers.
    static constexpr int kGpuHoursRow = 1, kPriceRow = 2, kEnergyRow = 3, kMaintenanceRow = 4, kStaffRow = 5,
                         kWanRow = 6, kOpexRow = 7, kTaxRateRow = 8, kWaccRow = 9, kInsuranceTaxRow = 10,
                         kFlowHeader = 11;
    int flowRow(int year) const { return kFlowHeader + 1 + year; } // year 0..H
    int npvRow() const { return flowRow(m_horizon) + 2; }
    int irrRow() const { return npvRow() + 1; }
    // The construction draws and dated flows (writeConstructionDraws), two rows below the payback.
    int drawHeaderRow() const { return irrRow() + 3; }
    int xirrRow(int i) const { return drawHeaderRow() + 1 + i; } // the draws, then years 1..H
    int xirrCount() const { return static_cast<int>(m_r.finance.drawYears.size()) + m_horizon; }
    int idcRow() const { return xirrRow(xirrCount()); }
    std::string cashCell(int row, int col = 1) const { return onSheet("Cash flow", cell(row, col, true)); }

    std::optional<std::string> assumptionCell(const std::string& key) const {
        auto it = m_assumptionRow.find(key);
        if (it == m_assumptionRow.end()) return std::nullopt;
        return onSheet("Assumptions", cell(it->second, 1, true));
    }
    double assumption(const std::string& key, double fallback = 0.0) const {
        auto it = m_in.assumptions.find(key);
        return it == m_in.assumptions.end() ? fallback : it->second.base;
    }
    double category(const std::string& c) const {
        auto it = m_r.capex.byCategory.find(c);
        return it == m_r.capex.byCategory.end() ? 0.0 : it->second.value();
    }

    void writeAssumptions(lxw_worksheet* ws) {
        headerRow(m_b, ws, 0, {"Key", "Base", "Low", "High", "Unit", "Estimate", "Source", "Set by", "Used"});
        for (const auto& [key, a] : m_in.assumptions) {
            const int r = m_assumptionRow.at(key);
            text(ws, r, 0, key);
            number(ws, r, 1, a.base, m_b.input);
            number(ws, r, 2, a.low, m_b.general);
            number(ws, r, 3, a.high, m_b.general);
            text(ws, r, 4, a.unit);
            text(ws, r, 5, a.estimate ? "yes" : "no");
            text(ws, r, 6, a.source, m_b.wrap);
            // Which level supplied the value the figures use: an override (command line, scenario), the
            // design's assumptions block, or the shipped default; "no" when every entity sets its own value.
            const auto* in = m_r.input("assumptions." + key);
            text(ws, r, 7,
                 in ? cost::inputLevelName(in->level)
                    : (m_in.project->assumptions.count(key) ? "design" : "default"));
            text(ws, r, 8, in && !in->used ? "no" : "yes");
        }
        columnWidth(ws, 0, 0, 30);
        columnWidth(ws, 1, 3, 11);
        columnWidth(ws, 4, 4, 22);
        columnWidth(ws, 5, 5, 9);
        columnWidth(ws, 6, 6, 90, m_b.wrap);
        columnWidth(ws, 7, 8, 10);
        worksheet_freeze_panes(ws, 1, 1);
    }

    void writeCapex(lxw_worksheet* ws) {
        const auto& c = m_r.capex;
        const double total = c.total.value(), gpus = m_r.bom.gpus;
        headerRow(m_b, ws, 0, {"Category", "Key", "Capex (USD)", "Share", "USD per GPU"});
        const std::string totalRef = cell(capexTotalRow(), kCapexValueCol, true);
        const std::string gpusRef = cell(capexGpusRow(), kCapexValueCol, true);
        double sum = 0;
        for (size_t i = 0; i < cost::kCapexCategories.size(); ++i) {
            const auto& cat = cost::kCapexCategories[i];
            const int r = kCapexFirst + static_cast<int>(i);
            const double v = category(cat);
            sum += v;
            const std::string here = cell(r, kCapexValueCol);
            text(ws, r, 0, capexCategoryLabel(cat));
            text(ws, r, 1, cat);
            number(ws, r, kCapexValueCol, v, m_b.inputUsd);
            formula(ws, r, kCapexShareCol, "IF(" + totalRef + "<>0," + here + "/" + totalRef + ",0)",
                    c.share(cat), m_b.percent);
            formula(ws, r, kCapexPerGpuCol, "IF(" + gpusRef + ">0," + here + "/" + gpusRef + ",0)",
                    gpus > 0 ? v / gpus : 0.0, m_b.usd);
        }
        const int t = capexTotalRow();
        const std::string range = cell(kCapexFirst, kCapexValueCol) + ":" + cell(t - 1, kCapexValueCol);
        text(ws, t, 0, "Total", m_b.bold);
        live(ws, t, kCapexValueCol, "SUM(" + range + ")", sum, total, m_b.usdTotal);
        formula(ws, t, kCapexShareCol,
                "SUM(" + cell(kCapexFirst, kCapexShareCol) + ":" + cell(t - 1, kCapexShareCol) + ")",
                total != 0 ? 1.0 : 0.0, m_b.percentTotal);
        formula(ws, t, kCapexPerGpuCol, "IF(" + gpusRef + ">0," + totalRef + "/" + gpusRef + ",0)",
                c.perGpu.value(), m_b.usdTotal);
        text(ws, capexGpusRow(), 0, "GPUs");
        number(ws, capexGpusRow(), kCapexValueCol, gpus, m_b.usd);
        text(ws, capexItPeakRow(), 0, "IT power at full load (MW)");
        const double itPeakMw = m_r.power.itPeak.value() / 1e6;
        number(ws, capexItPeakRow(), kCapexValueCol, itPeakMw, m_b.decimal);
        text(ws, capexPerMwRow(), 0, "Capex per MW of IT at full load (USD)");
        const std::string mwRef = cell(capexItPeakRow(), kCapexValueCol, true);
        live(ws, capexPerMwRow(), kCapexValueCol, "IF(" + mwRef + ">0," + totalRef + "/" + mwRef + ",0)",
             itPeakMw > 0 ? total / itPeakMw : 0.0, c.perMw.value(), m_b.usd);
        writeAnalystView(ws);
        columnWidth(ws, 0, 0, 36);
        columnWidth(ws, 1, 1, 18);
        columnWidth(ws, 2, 4, 16);
        worksheet_freeze_panes(ws, 1, 0);

        lxw_chart* chart = m_b.chart(LXW_CHART_BAR);
        lxw_chart_series* s = chart_add_series(chart, nullptr, nullptr);
        chart_series_set_categories(s, "Capex", kCapexFirst, 0, static_cast<lxw_row_t>(t - 1), 0);
        chart_series_set_values(s, "Capex", kCapexFirst, kCapexValueCol, static_cast<lxw_row_t>(t - 1),
                                kCapexValueCol);
        chart_title_set_name(chart, "Capex by category (USD)");
        chart_legend_set_position(chart, LXW_CHART_LEGEND_NONE);
        worksheet_insert_chart(ws, 1, 6, chart);
    }

    /// The analyst view below the ten categories: GPUs and other IT from the compute split,
    /// the other groups as sums of the category cells, and a total that must equal the capex total.
    void writeAnalystView(lxw_worksheet* ws) {
        const auto& c = m_r.capex;
        const int title = capexPerMwRow() + 2;
        text(ws, title, 0, "Analyst view (the ten categories regrouped; sums to the total)", m_b.title);
        headerRow(m_b, ws, title + 1, {"Group", "Key", "Capex (USD)", "Share"});
        auto catCell = [&](const std::string& cat) {
            const auto pos = std::find(cost::kCapexCategories.begin(), cost::kCapexCategories.end(), cat);
            return cell(kCapexFirst + static_cast<int>(pos - cost::kCapexCategories.begin()), kCapexValueCol);
        };
        auto valueOf = [](const std::map<std::string, units::Money>& m, const std::string& k) {
            auto it = m.find(k);
            return it == m.end() ? 0.0 : it->second.value();
        };
        const double land = m_r.finance.land.value();
        // Formulas from the category cells where the group is a plain sum of categories (evaluate_capex.cpp).
        const std::map<std::string, std::string> formulas = {
            {"networking", catCell("scale_up_network") + "+" + catCell("scale_out_network") + "+" +
                               catCell("optics_cables") + "+" + catCell("scale_across")},
            {"storage", catCell("storage")},
            {"power", catCell("power")},
            {"cooling", catCell("cooling")}};
        const std::string totalRef = cell(capexTotalRow(), kCapexValueCol, true);
        int r = title + 2;
        for (const auto& g : cost::kAnalystCapexCategories) {
            const double v = valueOf(c.analystView, g);
            text(ws, r, 0, analystCategoryLabel(g));
            text(ws, r, 1, g);
            auto f = formulas.find(g);
            if (f != formulas.end())
                formula(ws, r, kCapexValueCol, f->second, v, m_b.usd);
            else
                number(ws, r, kCapexValueCol, v, m_b.inputUsd);
            formula(ws, r, kCapexShareCol,
                    "IF(" + totalRef + "<>0," + cell(r, kCapexValueCol) + "/" + totalRef + ",0)",
                    c.total.value() != 0 ? v / c.total.value() : 0.0, m_b.percent);
            ++r;
        }
        double sum = 0;
        for (const auto& g : cost::kAnalystCapexCategories)
            sum += valueOf(c.analystView, g);
        text(ws, r, 0, "Total", m_b.bold);
        live(ws, r, kCapexValueCol,
             "SUM(" + cell(title + 2, kCapexValueCol) + ":" + cell(r - 1, kCapexValueCol) + ")", sum,
             c.total.value(), m_b.usdTotal);
        text(ws, r + 2, 0, "Compute split: GPUs (catalog price x GPUs)");
        number(ws, r + 2, kCapexValueCol, valueOf(c.computeBreakdown, "gpus"), m_b.usd);
        text(ws, r + 3, 0, "Compute split: CPUs, memory, host trays");
        number(ws, r + 3, kCapexValueCol, valueOf(c.computeBreakdown, "cpus_hosts"), m_b.usd);
        text(ws, r + 4, 0, "Site land (in building; not depreciated)");
        number(ws, r + 4, kCapexValueCol, land, m_b.usd);
    }

    void writeDepreciation(lxw_worksheet* ws) {
        const auto& fin = m_r.finance;
        const int totalCol = depTotalCol();
        const auto wacc = assumptionCell("wacc");
        const double waccValue = assumption("wacc");
        std::vector<std::string> titles = {"Asset class"};
        for (const auto& ac : fin.assetClasses)
            titles.push_back(assetClassLabel(ac.name));
        titles.push_back("Total");
        headerRow(m_b, ws, 0, titles);
        text(ws, kDepCapexRow, 0, "Capex (USD)");
        text(ws, kDepLifeRow, 0, "Useful life (years)");
        text(ws, kDepSlRow, 0, "Straight line to residual per year (USD)");
        text(ws, kDepCrfRow, 0, "Capital recovery net of residual per year at WACC (USD)");
        text(ws, kDepResidualRow, 0, "Residual value at end of life (fraction of capex)");
        double crfSum = 0, slSum = 0;
        for (int k = 0; k < m_classes; ++k) {
            const auto& ac = fin.assetClasses[static_cast<size_t>(k)];
            const int col = 1 + k;
            const double capex = ac.capex.value(), life = ac.lifeYears;
            // Capex of the class from the category cells of the Capex sheet.
            if (assetClassMatchesCategories(ac, m_r.capex)) {
                std::string f;
                for (const auto& cat : assetClassCategories(ac.name)) {
                    const auto pos =
                        std::find(cost::kCapexCategories.begin(), cost::kCapexCategories.end(), cat);
                    const int r = kCapexFirst + static_cast<int>(pos - cost::kCapexCategories.begin());
                    f += (f.empty() ? "" : "+") + onSheet("Capex", cell(r, kCapexValueCol, true));
                }
                formula(ws, kDepCapexRow, col, f, capex, m_b.usd);
            } else {
                number(ws, kDepCapexRow, col, capex, m_b.usd);
            }
            const auto lifeRef = assumptionCell(ac.name + "_useful_life_years");
            if (lifeRef && same(assumption(ac.name + "_useful_life_years"), life))
                formula(ws, kDepLifeRow, col, *lifeRef, life, m_b.decimal);
            else
                number(ws, kDepLifeRow, col, life, m_b.decimal);
            const std::string cap = cell(kDepCapexRow, col), lifeCell = cell(kDepLifeRow, col),
                              res = cell(kDepResidualRow, col);
            // Residual fraction at end of life, from the Assumptions sheet when the class uses it.
            const auto resRef = assumptionCell(ac.name + "_residual_fraction");
            if (resRef && same(assumption(ac.name + "_residual_fraction"), ac.residualFraction))
                formula(ws, kDepResidualRow, col, *resRef, ac.residualFraction, m_b.percent);
            else
                number(ws, kDepResidualRow, col, ac.residualFraction, m_b.percent);
            const std::string basis = "(" + cap + "-" + cap + "*" + res + ")";
            // Straight line to the residual value: (cost - residual) / life (IRS Publication 946); a zero
            // life writes the basis off at once (finance_conventions.cpp).
            const double sl = ac.accountingCharge.value();
            slSum += sl;
            live(ws, kDepSlRow, col, "IF(" + lifeCell + ">0," + basis + "/" + lifeCell + "," + basis + ")",
                 life > 0 ? (capex - capex * ac.residualFraction) / life
                          : capex - capex * ac.residualFraction,
                 sl, m_b.usd);
            // Capital recovery net of residual: (C - S) r / (1 - (1+r)^-n) + S r; (C - S)/n at r = 0 (Newnan
            // et al., EUAC with salvage; finance_conventions.h).
            const double crf = ac.economicCharge.value();
            crfSum += crf;
            if (wacc && waccValue > -1.0) {
                const std::string w = *wacc;
                const double mine = life > 0 ? cost::capitalRecoveryFactor(waccValue, life) *
                                                       (capex - capex * ac.residualFraction) +
                                                   waccValue * capex * ac.residualFraction
                                             : 0.0;
                live(ws, kDepCrfRow, col,
                     "IF(" + lifeCell + ">0,IF(" + w + "=0," + basis + "/" + lifeCell + "," + basis + "*" +
                         w + "/(1-(1+" + w + ")^(-" + lifeCell + ")))+" + cap + "*" + res + "*" + w + ",0)",
                     mine, crf, m_b.usd);
            } else {
                number(ws, kDepCrfRow, col, crf, m_b.usd);
            }
        }
        auto rowSum = [&](int r, double v) {
            formula(ws, r, totalCol, "SUM(" + cell(r, 1) + ":" + cell(r, totalCol - 1) + ")", v,
                    m_b.usdTotal);
        };
        double classCapex = 0;
        for (const auto& ac : fin.assetClasses)
            classCapex += ac.capex.value();
        rowSum(kDepCapexRow, classCapex);
        rowSum(kDepSlRow, slSum);
        rowSum(kDepCrfRow, crfSum);
        // Land is not depreciated (its economic charge, land x WACC, is in finance.annualized_capex_usd).
        text(ws, kDepCapexRow, totalCol + 1, "Land, not depreciated (USD)");
        number(ws, kDepCapexRow, totalCol + 2, fin.land.value(), m_b.usd);

        // Straight-line schedule: year y takes the part of [y-1, y] inside the life (finance.cpp).
        text(ws, kDepSlHeader - 1, 0, "Straight-line schedule (USD)", m_b.title);
        std::vector<std::string> yearTitles = titles;
        yearTitles[0] = "Year";
        headerRow(m_b, ws, kDepSlHeader, yearTitles);
        for (int y = 1; y <= m_horizon; ++y) {
            const int r = depSlYearRow(y);
            number(ws, r, 0, y, m_b.general);
            double total = 0;
            for (int k = 0; k < m_classes; ++k) {
                const auto& ac = fin.assetClasses[static_cast<size_t>(k)];
                const int col = 1 + k;
                const double engine = static_cast<size_t>(y - 1) < ac.straightLine.size()
                                          ? ac.straightLine[static_cast<size_t>(y - 1)].value()
                                          : 0.0;
                const double life = ac.lifeYears, capex = ac.capex.value() * (1.0 - ac.residualFraction);
                // The first vintage's schedule; a year with a replacement inside the horizon is not this
                // formula, and live() then writes the engine's value.
                const double mine =
                    life > 0 ? capex * std::clamp(life - (y - 1), 0.0, 1.0) / life : (y == 1 ? capex : 0.0);
                const std::string cap = "(" + cell(kDepCapexRow, col, true) + "*(1-" +
                                        cell(kDepResidualRow, col, true) + "))",
                                  lifeCell = cell(kDepLifeRow, col, true),
                                  year = "$A" + std::to_string(r + 1);
                live(ws, r, col,
                     "IF(" + lifeCell + ">0," + cap + "*MAX(0,MIN(1," + lifeCell + "-(" + year + "-1)))/" +
                         lifeCell + ",IF(" + year + "=1," + cap + ",0))",
                     mine, engine, m_b.usd);
                total += engine;
            }
            rowSum(r, total);
        }
        // Declining balance: the engine's schedule (the switch to straight line makes a formula opaque).
        const int dbTitle = depSlYearRow(m_horizon) + 2;
        text(ws, dbTitle, 0,
             "Declining-balance schedule (USD, factor " +
                 cost::formatHuman(assumption("declining_balance_factor", 2), "") +
                 ", switching to straight line)",
             m_b.title);
        headerRow(m_b, ws, dbTitle + 1, yearTitles);
        for (int y = 1; y <= m_horizon; ++y) {
            const int r = dbTitle + 1 + y;
            number(ws, r, 0, y, m_b.general);
            double total = 0;
            for (int k = 0; k < m_classes; ++k) {
                const auto& s = fin.assetClasses[static_cast<size_t>(k)].decliningBalance;
                const double v =
                    static_cast<size_t>(y - 1) < s.size() ? s[static_cast<size_t>(y - 1)].value() : 0.0;
                number(ws, r, 1 + k, v, m_b.usd);
                total += v;
            }
            rowSum(r, total);
        }
        columnWidth(ws, 0, 0, 40);
        columnWidth(ws, 1, totalCol, 16);
    }

    /// Energy by site: MWh a year x the tariff used. A tariff that falls back to the assumption is a formula
    /// on the Assumptions sheet, so changing it there moves the energy cost and the cash flow.
    void writeEnergy(lxw_worksheet* ws) {
        headerRow(m_b, ws, 0,
                  {"Site", "Facility energy (MWh/yr)", "Tariff (USD/kWh)", "Tariff from", "Energy (USD/yr)"});
        const auto sites = energyBySite(m_r);
        int r = 1;
        for (const auto& s : sites) {
            text(ws, r, 0, s.siteId);
            number(ws, r, 1, s.mwhPerYear, m_b.general);
            const auto ref = assumptionCell("electricity_usd_per_kwh");
            const bool fromAssumption = s.tariff && !s.tariff->fallback.empty() &&
                                        s.tariff->level != cost::InputLevel::Entity &&
                                        s.tariff->source.rfind("assumptions.", 0) == 0;
            if (fromAssumption && ref && same(assumption("electricity_usd_per_kwh"), s.tariffUsdPerKwh))
                formula(ws, r, 2, *ref, s.tariffUsdPerKwh, m_b.input);
            else
                number(ws, r, 2, s.tariffUsdPerKwh, m_b.input);
            text(ws, r, 3, s.basis + (s.tariff ? " (" + s.tariff->path + ")" : ""));
            live(ws, r, 4, cell(r, 1) + "*1000*" + cell(r, 2), s.mwhPerYear * 1e3 * s.tariffUsdPerKwh,
                 s.usdPerYear, m_b.usd);
            ++r;
        }
        m_energyTotalRow = r;
        text(ws, r, 0, "Total", m_b.bold);
        double total = 0;
        for (const auto& s : sites)
            total += s.usdPerYear;
        if (r > 1)
            live(ws, r, 4, "SUM(" + cell(1, 4) + ":" + cell(r - 1, 4) + ")", total, total, m_b.usdTotal);
        else
            number(ws, r, 4, 0.0, m_b.usdTotal);
        columnWidth(ws, 0, 0, 22);
        columnWidth(ws, 1, 2, 18);
        columnWidth(ws, 3, 3, 55);
        columnWidth(ws, 4, 4, 18);
    }

    /// The Cash-flow sheet's drivers above the table: GPU-hours and price, each opex line linked to its
    /// sheet or assumption where one holds it, their total, tax rate and WACC.
    void writeCashFlowDrivers(lxw_worksheet* ws) {
        const auto& fin = m_r.finance;
        // The price the engine used: the catalog price of the design's GPUs unless the design sets one.
        const double price = fin.gpuHourPrice, taxRate = assumption("tax_rate"), wacc = assumption("wacc"),
                     maintenanceFraction = assumption("maintenance_fraction");
        text(ws, 0, 0, "Drivers", m_b.title);
        auto driver = [&](int r, const std::string& label, const std::optional<std::string>& ref,
                          double value, lxw_format* fmt) {
            text(ws, r, 0, label);
            if (ref)
                formula(ws, r, 1, *ref, value, fmt);
            else
                number(ws, r, 1, value, fmt);
        };
        driver(kGpuHoursRow, "GPU-hours sold per year", std::nullopt, fin.gpuHoursPerYear, m_b.usd);
        // Linked to the Assumptions sheet when that row holds the price used (the CLI lists the catalog
        // price there); a plain number otherwise.
        const auto priceCell = assumptionCell("gpu_hour_price_usd");
        driver(kPriceRow, "GPU-hour price (USD)",
               priceCell && same(assumption("gpu_hour_price_usd"), price) ? priceCell : std::nullopt, price,
               m_b.cents);
        text(ws, kEnergyRow, 0, "Energy per year (USD)");
        {
            double bySite = 0;
            for (const auto& s : energyBySite(m_r))
                bySite += s.usdPerYear;
            live(ws, kEnergyRow, 1, onSheet("Energy", cell(m_energyTotalRow, 4, true)), bySite,
                 fin.energyAnnual.value(), m_b.usd);
        }
        text(ws, kMaintenanceRow, 0, "Maintenance per year (USD)");
        if (const auto ref = assumptionCell("maintenance_fraction"))
            live(ws, kMaintenanceRow, 1, *ref + "*" + capexTotal(),
                 maintenanceFraction * m_r.capex.total.value(), fin.maintenanceAnnual.value(), m_b.usd);
        else
            number(ws, kMaintenanceRow, 1, fin.maintenanceAnnual.value(), m_b.usd);
        driver(kStaffRow, "Staff per year (USD)", std::nullopt, fin.staffAnnual.value(), m_b.usd);
        driver(kWanRow, "WAN leases per year (USD)", std::nullopt, fin.wanLeaseAnnual.value(), m_b.usd);
        // Insurance, property tax and software licences in the free row above the
        // cash-flow table.
        driver(kInsuranceTaxRow, "Insurance, property tax and software licences per year (USD)", std::nullopt,
               (fin.insuranceAnnual + fin.propertyTaxAnnual + fin.softwareAnnual).value(), m_b.usd);
        text(ws, kOpexRow, 0, "Opex per year (USD)", m_b.bold);
        live(ws, kOpexRow, 1,
             "SUM(" + cell(kEnergyRow, 1) + ":" + cell(kWanRow, 1) + ")+" + cell(kInsuranceTaxRow, 1),
             fin.energyAnnual.value() + fin.maintenanceAnnual.value() + fin.staffAnnual.value() +
                 fin.wanLeaseAnnual.value() + fin.insuranceAnnual.value() + fin.propertyTaxAnnual.value() +
                 fin.softwareAnnual.value(),
             fin.opexAnnual.value(), m_b.usdTotal);
        driver(kTaxRateRow, "Tax rate", assumptionCell("tax_rate"), taxRate, m_b.percent);
        driver(kWaccRow, "WACC", assumptionCell("wacc"), wacc, m_b.percent);
    }

    /// Under the yearly table: the NPV at the WACC, the IRR (XIRR on the dated flows) and the payback, each a
    /// live formula.
    void writeCashFlowSummary(lxw_worksheet* ws) {
        const auto& fin = m_r.finance;
        const std::string first = cell(flowRow(0), 9), second = cell(flowRow(std::min(1, m_horizon)), 9),
                          last = cell(flowRow(m_horizon), 9);
        text(ws, npvRow(), 0, "NPV at WACC (USD)", m_b.bold);
        // Excel's NPV discounts its first value by one period: year 1..H through NPV, year 0 added as is.
        if (m_horizon > 0)
            formula(ws, npvRow(), 1,
                    "NPV(" + cell(kWaccRow, 1, true) + "," + second + ":" + last + ")+" + first,
                    fin.npv.value(), m_b.usdTotal);
        else
            formula(ws, npvRow(), 1, first, fin.npv.value(), m_b.usdTotal);
        text(ws, irrRow(), 0, "IRR (XIRR on the dated flows below)", m_b.bold);
        if (fin.irr) {
            // XIRR wants calendar dates: the days from delivery are moved onto an arbitrary date (serial
            // 36526, 2000-01-01); XIRR reads only the days between them, over 365-day years (as the engine,
            // cost::constructionDraws). An array formula for the sum inside the argument.
            const std::string values = cell(xirrRow(0), 2) + ":" + cell(xirrRow(xirrCount() - 1), 2),
                              days = cell(xirrRow(0), 1) + ":" + cell(xirrRow(xirrCount() - 1), 1);
            const std::string f = "XIRR(" + values + "," + days + "+36526," + cell(kWaccRow, 1, true) + ")";
            worksheet_write_array_formula_num(ws, static_cast<lxw_row_t>(irrRow()), 1,
                                              static_cast<lxw_row_t>(irrRow()), 1, f.c_str(),
                                              m_b.percentTotal, *fin.irr);
        } else
            text(ws, irrRow(), 1, "none (cash flows do not change sign)");
        text(ws, irrRow() + 1, 0, "Payback (years)", m_b.bold);
        if (fin.paybackYears && m_horizon > 0) {
            // Simple payback as cost::paybackYears: the first year t whose cumulative flow reaches zero,
            // (t - 1) + deficit / flow(t) within it (Newnan et al.); 0 when year 0 is already >= 0. An array
            // formula (one cell) so a changed input on the Assumptions sheet moves it as the engine would;
            // the fraction is <= 1 at a crossing, so the engine's min(1, .) needs no counterpart.
            const auto col = [&](int c, int y0, int y1) {
                return cell(flowRow(y0), c) + ":" + cell(flowRow(y1), c);
            };
            // Payback counts operating cash flows only: the terminal value (column 8, in
            // year H only) is taken out of the cumulative and the year's flow.
            const std::string before = col(10, 0, m_horizon - 1),
                              after = "(" + col(10, 1, m_horizon) + "-" + col(8, 1, m_horizon) + ")",
                              flow = "(" + col(9, 1, m_horizon) + "-" + col(8, 1, m_horizon) + ")",
                              crossing = "(" + before + "<0)*(" + after + ">=0)";
            const std::string f = "IF(" + cell(flowRow(0), 10) + ">=0,0,IF(SUM(" + crossing +
                                  ")=0,\"not within the horizon\",MIN(IF(" + crossing + "," +
                                  col(0, 1, m_horizon) + "-1-" + before + "/" + flow + "))))";
            worksheet_write_array_formula_num(ws, static_cast<lxw_row_t>(irrRow() + 1), 1,
                                              static_cast<lxw_row_t>(irrRow() + 1), 1, f.c_str(), m_b.decimal,
                                              *fin.paybackYears);
        } else if (fin.paybackYears)
            number(ws, irrRow() + 1, 1, *fin.paybackYears, m_b.decimal);
        else
            text(ws, irrRow() + 1, 1, "not within the horizon");
    }

    void writeCashFlow(lxw_worksheet* ws) {
        const auto& fin = m_r.finance;
        // The price the engine used: the catalog price of the design's GPUs unless the design sets one.
        const double price = fin.gpuHourPrice, taxRate = assumption("tax_rate");
        writeCashFlowDrivers(ws);

        headerRow(m_b, ws, kFlowHeader,
                  {"Year", "Capex (USD)", "Revenue (USD)", "Opex (USD)", "Depreciation, straight line (USD)",
                   "Taxable income (USD)", "Tax (USD)", "Replacement less residual sold (USD)",
                   "Terminal value (USD)", "Net cash flow (USD)", "Cumulative (USD)"});
        const std::string hours = cell(kGpuHoursRow, 1, true), priceRef = cell(kPriceRow, 1, true),
                          opexRef = cell(kOpexRow, 1, true), taxRef = cell(kTaxRateRow, 1, true);
        const double drawInterest = writeConstructionDraws(ws);
        double cumulative = 0;
        for (int y = 0; y <= m_horizon; ++y) {
            const int r = flowRow(y);
            const auto R = [&](int col) { return cell(r, col); };
            const size_t i = static_cast<size_t>(y > 0 ? y - 1 : 0);
            const double capex =
                y == 0 ? m_r.capex.total.value() + fin.interestDuringConstruction.value() : 0.0;
            const double revenue = y == 0 ? 0.0 : fin.revenue[i].value();
            const double opex = y == 0 ? 0.0 : fin.opex[i].value();
            const double tax = y == 0 ? 0.0 : fin.tax[i].value();
            double dep = 0;
            if (y > 0)
                for (const auto& ac : fin.assetClasses)
                    dep += i < ac.straightLine.size() ? ac.straightLine[i].value() : 0.0;
            const double net = fin.cashFlows[static_cast<size_t>(y)].value();
            const double replacement = y == 0 || i >= fin.replacementCapex.size()
                                           ? 0.0
                                           : (fin.replacementCapex[i] - fin.salvage[i]).value();
            const double terminal =
                y == 0 || i >= fin.terminalValue.size() ? 0.0 : fin.terminalValue[i].value();
            cumulative += net;
            number(ws, r, 0, y, m_b.general);
            if (y == 0) {
                // Valued at delivery: capex plus the interest during construction of the draw table below.
                live(ws, r, 1, capexTotal() + "+" + cell(idcRow(), 3), m_r.capex.total.value() + drawInterest,
                     capex, m_b.usd);
                for (int col = 2; col <= 8; ++col)
                    number(ws, r, col, 0.0, m_b.usd);
            } else {
                number(ws, r, 1, 0.0, m_b.usd);
                // Revenue is earned pro rata after the time to revenue: cost::earningFraction, clamp(year -
                // days / 365.25, 0, 1), so a new price or delay on the Assumptions sheet moves every year.
                const auto delayRef = assumptionCell("delivery_to_revenue_days");
                const std::string earning =
                    delayRef ? "*MAX(0,MIN(1," + R(0) + "-" + *delayRef + "/365.25))" : "";
                const double fraction =
                    delayRef ? cost::earningFraction(y, assumption("delivery_to_revenue_days") / 365.25)
                             : 1.0;
                live(ws, r, 2, hours + "*" + priceRef + earning, fin.gpuHoursPerYear * price * fraction,
                     revenue, m_b.usd);
                live(ws, r, 3, opexRef, fin.opexAnnual.value(), opex, m_b.usd);
                formula(ws, r, 4, onSheet("Depreciation", cell(depSlYearRow(y), depTotalCol())), dep,
                        m_b.usd);
                formula(ws, r, 5, R(2) + "-" + R(3) + "-" + R(4), revenue - opex - dep, m_b.usd);
                // Tax on a positive taxable income only (evaluate.cpp).
                live(ws, r, 6, "MAX(0," + taxRef + "*" + R(5) + ")",
                     std::max(0.0, taxRate * (revenue - opex - dep)), tax, m_b.usd);
                number(ws, r, 7, replacement, m_b.usd);
                number(ws, r, 8, terminal, m_b.usd);
            }
            live(ws, r, 9, R(2) + "-" + R(3) + "-" + R(6) + "-" + R(7) + "+" + R(8) + "-" + R(1),
                 revenue - opex - tax - replacement + terminal - capex, net, m_b.usd);
            formula(ws, r, 10, y == 0 ? R(9) : cell(r - 1, 10) + "+" + R(9), cumulative, m_b.usd);
        }
        writeCashFlowSummary(ws);
        columnWidth(ws, 0, 0, 30);
        columnWidth(ws, 1, 10, 17);
        worksheet_set_row(ws, static_cast<lxw_row_t>(kFlowHeader), 30, nullptr);
    }

    /// The construction draws below the payback: land at the start, the facility in monthly
    /// draws, IT and network on delivery, each with its days from delivery and its value at delivery at the
    /// WACC; their sum less the draws is the interest during construction (row idcRow()). Then the yearly
    /// flows on their days, the dated flows the IRR cell's XIRR reads. Returns the interest the table sums
    /// to.
    double writeConstructionDraws(lxw_worksheet* ws) {
        const auto& fin = m_r.finance;
        if (fin.drawYears.empty()) return 0.0;
        const int header = drawHeaderRow();
        headerRow(m_b, ws, header,
                  {"Construction draws and dated flows", "Days from delivery", "Amount (USD)",
                   "Value at delivery at WACC (USD)"});
        const std::string waccRef = cell(kWaccRow, 1, true);
        const size_t n = fin.drawYears.size();
        double atDelivery = 0, drawn = 0;
        for (size_t i = 0; i < n; ++i) {
            const int r = xirrRow(static_cast<int>(i));
            const double days = -std::round(-fin.drawYears[i] * 365.0); // whole days, as the engine's
            const double amount = -fin.drawAmounts[i].value();
            std::string label;
            if (n == 1)
                label = "Capex on delivery";
            else if (i == 0)
                label = "Land, at the start of construction";
            else if (i + 1 == n)
                label = "IT and network, on delivery";
            else
                label = "Facility draw, month " + std::to_string(i);
            text(ws, r, 0, label);
            number(ws, r, 1, days, m_b.general);
            number(ws, r, 2, amount, m_b.usd);
            const double value = amount * std::pow(1.0 + assumption("wacc"), -days / 365.0);
            formula(ws, r, 3, cell(r, 2) + "*(1+" + waccRef + ")^(-" + cell(r, 1) + "/365)", value, m_b.usd);
            atDelivery += value, drawn += amount;
        }
        for (int y = 1; y <= m_horizon; ++y) {
            const int r = xirrRow(static_cast<int>(n) + y - 1);
            text(ws, r, 0, "Net cash flow, year " + std::to_string(y));
            number(ws, r, 1, 365.0 * y, m_b.general);
            formula(ws, r, 2, cell(flowRow(y), 9), fin.cashFlows[static_cast<size_t>(y)].value(), m_b.usd);
        }
        const double interest = drawn - atDelivery; // amounts are negative: compounded forward, more negative
        text(ws, idcRow(), 0, "Interest during construction (USD)", m_b.bold);
        const std::string draws = cell(xirrRow(0), 2) + ":" + cell(xirrRow(static_cast<int>(n) - 1), 2),
                          values = cell(xirrRow(0), 3) + ":" + cell(xirrRow(static_cast<int>(n) - 1), 3);
        live(ws, idcRow(), 3, "SUM(" + draws + ")-SUM(" + values + ")", interest,
             fin.interestDuringConstruction.value(), m_b.usdTotal);
        return interest;
    }

    void writeSummary(lxw_worksheet* ws) {
        const auto& p = *m_in.project;
        const auto& fin = m_r.finance;
        text(ws, 0, 0, "ClusterTwin finance report", m_b.title);
        text(ws, 1, 0, "Design");
        text(ws, 1, 1, p.info.name.empty() ? p.info.id : p.info.name);
        text(ws, 2, 0, "Description");
        text(ws, 2, 1, p.info.description);
        text(ws, 3, 0, "Date");
        text(ws, 3, 1, reportDate(m_in.date));
        text(ws, 4, 0, "Headline TCO convention");
        text(ws, 4, 1,
             tcoConventionLabel(fin.convention) +
                 " (project.tco_convention; both conventions are listed below as finance.economic.* and "
                 "finance.accounting.*)");
        constexpr int kHeader = 5;
        headerRow(m_b, ws, kHeader, {"Key", "Figure", "Value", "Unit", "Kind"});
        std::map<std::string, int> rowOf;
        for (size_t i = 0; i < m_r.figures.size(); ++i)
            rowOf[m_r.figures[i].key] = kHeader + 1 + static_cast<int>(i);
        const std::string totalCol = columnName(depTotalCol());
        const std::string tcoRef =
            rowOf.count("finance.tco_annual_usd") ? cell(rowOf["finance.tco_annual_usd"], 2) : "";
        // Links to the live cells of the other sheets, with the value the linked formula computes.
        auto link = [&](const std::string& key) -> std::optional<std::pair<std::string, double>> {
            const std::string cat = key.substr(key.rfind('.') + 1);
            const auto pos = std::find(cost::kCapexCategories.begin(), cost::kCapexCategories.end(), cat);
            const int catRow = kCapexFirst + static_cast<int>(pos - cost::kCapexCategories.begin());
            if (key == "capex.total_usd") return std::pair{capexTotal(), m_r.capex.total.value()};
            if (key == "capex.per_gpu_usd")
                return std::pair{onSheet("Capex", cell(capexTotalRow(), kCapexPerGpuCol, true)),
                                 m_r.capex.perGpu.value()};
            if (key == "capex.per_mw_usd")
                return std::pair{onSheet("Capex", cell(capexPerMwRow(), kCapexValueCol, true)),
                                 m_r.capex.perMw.value()};
            if (key.rfind("capex.by_category_usd.", 0) == 0 && pos != cost::kCapexCategories.end())
                return std::pair{onSheet("Capex", cell(catRow, kCapexValueCol, true)), category(cat)};
            if (key.rfind("capex.share.", 0) == 0 && pos != cost::kCapexCategories.end())
                return std::pair{onSheet("Capex", cell(catRow, kCapexShareCol, true)), m_r.capex.share(cat)};
            if (key == "finance.depreciation_annual_usd")
                return std::pair{onSheet("Depreciation", cell(kDepSlRow, depTotalCol(), true)), [&] {
                                     double s = 0;
                                     for (const auto& ac : fin.assetClasses)
                                         s += ac.accountingCharge.value();
                                     return s;
                                 }()};
            if (key == "finance.annualized_capex_usd")
                return std::pair{onSheet("Depreciation", cell(kDepCrfRow, depTotalCol(), true)) + "+" +
                                     onSheet("Depreciation", cell(kDepCapexRow, depTotalCol() + 2, true)) +
                                     "*" + cashCell(kWaccRow),
                                 [&] {
                                     double s = assumption("wacc") * fin.land.value();
                                     for (const auto& ac : fin.assetClasses)
                                         s += ac.economicCharge.value();
                                     return s;
                                 }()};
            if (key == "finance.energy_annual_usd")
                return std::pair{cashCell(kEnergyRow), fin.energyAnnual.value()};
            if (key == "finance.opex_annual_usd")
                return std::pair{cashCell(kOpexRow), fin.opexAnnual.value()};
            // The headline TCO: the convention's capex charge (project.tco_convention) + opex.
            const char* chargeKey = fin.convention == "accounting" ? "finance.depreciation_annual_usd"
                                                                   : "finance.annualized_capex_usd";
            if (key == "finance.tco_annual_usd" && rowOf.count(chargeKey))
                return std::pair{
                    cell(rowOf[chargeKey], 2) + "+" + cashCell(kOpexRow),
                    (fin.convention == "accounting" ? fin.depreciationAnnual : fin.annualizedCapex).value() +
                        fin.opexAnnual.value()};
            if (key == "finance.cost_per_gpu_hour_usd" && !tcoRef.empty())
                return std::pair{"IF(" + cashCell(kGpuHoursRow) + ">0," + tcoRef + "/" +
                                     cashCell(kGpuHoursRow) + ",0)",
                                 fin.gpuHoursPerYear > 0 ? fin.tcoAnnual.value() / fin.gpuHoursPerYear : 0.0};
            if (key == "finance.npv_usd") return std::pair{cashCell(npvRow()), fin.npv.value()};
            if (key == "finance.irr" && fin.irr) return std::pair{cashCell(irrRow()), *fin.irr};
            if (key == "finance.payback_years" && fin.paybackYears && m_horizon > 0)
                return std::pair{cashCell(irrRow() + 1), *fin.paybackYears};
            if (key == "finance.burn_in_cost_usd" && !tcoRef.empty() &&
                assumptionCell("delivery_to_revenue_days"))
                return std::pair{*assumptionCell("delivery_to_revenue_days") + "/365.25*" + tcoRef,
                                 assumption("delivery_to_revenue_days") / 365.25 * fin.tcoAnnual.value()};
            return std::nullopt;
        };
        for (const auto& f : m_r.figures) {
            const int r = rowOf[f.key];
            text(ws, r, 0, f.key);
            text(ws, r, 1, f.label);
            lxw_format* fmt = figureFormat(m_b, f.key, f.unit);
            const auto l = link(f.key);
            if (l && same(l->second, f.value)) {
                formula(ws, r, 2, l->first, f.value, fmt);
                text(ws, r, 4, "formula");
            } else {
                number(ws, r, 2, f.value, fmt);
                text(ws, r, 4, "value");
            }
            text(ws, r, 3, f.unit);
        }
        columnWidth(ws, 0, 0, 44);
        columnWidth(ws, 1, 1, 30);
        columnWidth(ws, 2, 2, 18);
        columnWidth(ws, 3, 4, 12);
        worksheet_freeze_panes(ws, kHeader + 1, 0);
    }

    void writeRules(lxw_worksheet* ws) {
        headerRow(m_b, ws, 0, {"Severity", "Rule", "Entity", "Message"});
        int r = 1;
        for (const auto& rule : m_r.rules) {
            text(ws, r, 0, cost::severityName(rule.severity));
            text(ws, r, 1, rule.rule);
            text(ws, r, 2, rule.entity);
            text(ws, r, 3, rule.message, m_b.wrap);
            ++r;
        }
        columnWidth(ws, 0, 0, 10);
        columnWidth(ws, 1, 2, 26);
        columnWidth(ws, 3, 3, 100, m_b.wrap);
    }

    void writeSensitivity(lxw_worksheet* ws) {
        const auto& t = *m_in.tornado;
        const auto* f = m_r.figure(t.output);
        lxw_format* fmt = figureFormat(m_b, t.output, f ? f->unit : "");
        text(ws, 0, 0, "Output");
        text(ws, 0, 1, t.output);
        text(ws, 1, 0, "Figure");
        text(ws, 1, 1, f ? f->label : t.output);
        text(ws, 2, 0, "Base value");
        number(ws, 2, 1, t.base, fmt);
        headerRow(m_b, ws, 4,
                  {"Assumption", "Input low", "Input high", "Output at low", "Output at high", "Swing"});
        int r = 5;
        for (const auto& b : t.bars) {
            text(ws, r, 0, b.assumption);
            number(ws, r, 1, b.inputLow, m_b.general);
            number(ws, r, 2, b.inputHigh, m_b.general);
            number(ws, r, 3, b.outputAtLow, fmt);
            number(ws, r, 4, b.outputAtHigh, fmt);
            live(ws, r, 5, "ABS(" + cell(r, 4) + "-" + cell(r, 3) + ")",
                 std::abs(b.outputAtHigh - b.outputAtLow), b.swing, fmt);
            ++r;
        }
        columnWidth(ws, 0, 0, 30);
        columnWidth(ws, 1, 5, 16);
    }

    void writeUncertainty(lxw_worksheet* ws) {
        headerRow(m_b, ws, 0, {"Output", "Figure", "P10", "P50", "P90", "Mean"});
        int r = 1;
        for (const auto& [key, pc] : *m_in.uncertainty) {
            const auto* f = m_r.figure(key);
            lxw_format* fmt = figureFormat(m_b, key, f ? f->unit : "");
            text(ws, r, 0, key);
            text(ws, r, 1, f ? f->label : key);
            number(ws, r, 2, pc.p10, fmt);
            number(ws, r, 3, pc.p50, fmt);
            number(ws, r, 4, pc.p90, fmt);
            number(ws, r, 5, pc.mean, fmt);
            ++r;
        }
        columnWidth(ws, 0, 0, 44);
        columnWidth(ws, 1, 1, 30);
        columnWidth(ws, 2, 5, 16);
    }

    const ReportInput& m_in;
    const cost::Results& m_r;
    Book& m_b;
    std::map<std::string, int> m_assumptionRow;
    int m_energyTotalRow = 1;
    int m_horizon = 0;
    int m_classes = 0;
};

template <class Fill> void writeBook(const std::string& path, Fill fill) {
    AtomicFile file(path);
    {
        Book book(file.tempPath());
        fill(book);
        if (auto err = book.close()) file.fail("cannot write the workbook: " + *err);
    }
    file.commit();
}

} // namespace

void writeXlsxReport(const ReportInput& input, const std::string& path) {
    if (!input.project || !input.results)
        throw std::invalid_argument("writeXlsxReport: project and results are required");
    writeBook(path, [&](Book& book) { FinanceBook(input, book).write(); });
}

void writeComparisonXlsx(const ComparisonInput& input, const std::string& path) {
    const auto& cmp = input.comparison;
    const int n = static_cast<int>(cmp.names.size());
    if (n == 0 || input.results.size() != cmp.names.size() ||
        std::any_of(input.results.begin(), input.results.end(), [](const cost::Results* r) { return !r; }))
        throw std::invalid_argument(
            "writeComparisonXlsx: one non-null result per compared design is required");
    writeBook(path, [&](Book& b) {
        lxw_worksheet* ws = b.sheet("Comparison");
        const int base = static_cast<int>(std::min(cmp.baseline, cmp.names.size() - 1));
        std::vector<std::string> titles = {"Key", "Figure", "Unit"};
        for (const auto& name : cmp.names)
            titles.push_back(name + (&name - cmp.names.data() == base ? " (baseline)" : ""));
        std::vector<int> others;
        for (int i = 0; i < n; ++i)
            if (i != base) others.push_back(i);
        for (int i : others)
            titles.push_back("Delta " + cmp.names[static_cast<size_t>(i)]);
        for (int i : others)
            titles.push_back("Delta % " + cmp.names[static_cast<size_t>(i)]);
        headerRow(b, ws, 0, titles);
        int r = 1;
        for (const auto& row : cmp.rows) {
            lxw_format* fmt = figureFormat(b, row.key, row.unit);
            text(ws, r, 0, row.key);
            text(ws, r, 1, row.label);
            text(ws, r, 2, row.unit);
            auto value = [&](int i) {
                return static_cast<size_t>(i) < row.values.size() ? row.values[static_cast<size_t>(i)] : 0.0;
            };
            for (int i = 0; i < n; ++i)
                number(ws, r, 3 + i, value(i), fmt);
            const std::string baseRef = "$" + columnName(3 + base) + std::to_string(r + 1);
            for (size_t k = 0; k < others.size(); ++k) {
                const int i = others[k];
                const std::string here = cell(r, 3 + i);
                const double delta = value(i) - value(base);
                const double engineDelta = static_cast<size_t>(i) < row.deltaAbsolute.size()
                                               ? row.deltaAbsolute[static_cast<size_t>(i)]
                                               : delta;
                live(ws, r, 3 + n + static_cast<int>(k), here + "-" + baseRef, delta, engineDelta, fmt);
                // 100 x delta / |baseline|, 0 when the baseline is 0 (scenarios.h).
                const double pct = value(base) != 0 ? 100.0 * delta / std::abs(value(base)) : 0.0;
                const double enginePct = static_cast<size_t>(i) < row.deltaPercent.size()
                                             ? row.deltaPercent[static_cast<size_t>(i)]
                                             : pct;
                live(ws, r, 3 + n + static_cast<int>(others.size() + k),
                     "IF(" + baseRef + "<>0,100*(" + here + "-" + baseRef + ")/ABS(" + baseRef + "),0)", pct,
                     enginePct, b.cents);
            }
            ++r;
        }
        columnWidth(ws, 0, 0, 44);
        columnWidth(ws, 1, 1, 30);
        columnWidth(ws, 2, 2, 11);
        columnWidth(ws, 3, 3 + n + 2 * static_cast<int>(others.size()), 17);
        worksheet_freeze_panes(ws, 1, 2);

        lxw_worksheet* capex = b.sheet("Capex");
        std::vector<std::string> capexTitles = {"Category"};
        for (const auto& name : cmp.names)
            capexTitles.push_back(name);
        headerRow(b, capex, 0, capexTitles);
        const int first = 1, last = static_cast<int>(cost::kCapexCategories.size());
        for (int k = 0; k < last; ++k) {
            const auto& cat = cost::kCapexCategories[static_cast<size_t>(k)];
            text(capex, first + k, 0, capexCategoryLabel(cat));
            for (int i = 0; i < n; ++i) {
                const auto& byCat = input.results[static_cast<size_t>(i)]->capex.byCategory;
                auto it = byCat.find(cat);
                number(capex, first + k, 1 + i, it == byCat.end() ? 0.0 : it->second.value(), b.inputUsd);
            }
        }
        text(capex, last + 1, 0, "Total", b.bold);
        for (int i = 0; i < n; ++i) {
            const auto& res = *input.results[static_cast<size_t>(i)];
            double sum = 0;
            for (const auto& [_, v] : res.capex.byCategory)
                sum += v.value();
            live(capex, last + 1, 1 + i, "SUM(" + cell(first, 1 + i) + ":" + cell(last, 1 + i) + ")", sum,
                 res.capex.total.value(), b.usdTotal);
        }
        columnWidth(capex, 0, 0, 32);
        columnWidth(capex, 1, n, 17);
        lxw_chart* chart = b.chart(LXW_CHART_COLUMN_STACKED);
        for (int k = 0; k < last; ++k) {
            lxw_chart_series* s = chart_add_series(chart, nullptr, nullptr);
            chart_series_set_categories(s, "Capex", 0, 1, 0, static_cast<lxw_col_t>(n));
            chart_series_set_values(s, "Capex", static_cast<lxw_row_t>(first + k), 1,
                                    static_cast<lxw_row_t>(first + k), static_cast<lxw_col_t>(n));
            chart_series_set_name_range(s, "Capex", static_cast<lxw_row_t>(first + k), 0);
        }
        chart_title_set_name(chart, "Capex by category (USD)");
        worksheet_insert_chart(capex, static_cast<lxw_row_t>(last + 3), 0, chart);

        lxw_worksheet* ex = b.sheet("Explanations");
        headerRow(b, ex, 0, {"What drives the differences"});
        int er = 1;
        for (const auto& e : cmp.explanations)
            text(ex, er++, 0, e, b.wrap);
        columnWidth(ex, 0, 0, 120, b.wrap);
    });
}

} // namespace ctwin::app
