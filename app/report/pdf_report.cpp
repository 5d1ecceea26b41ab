#include "report/pdf_report.h"

#include "report/pdf_pages.h"
#include "report/report_charts.h"
#include "report/report_format.h"
#include "results_json.h"
#include "timeline.h"

#include <QGuiApplication>
#include <QPainter>
#include <QPdfWriter>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ctwin::app {

namespace {

using namespace pdf;
using Align = PdfLayout::Align;
using Table = PdfLayout::Table;
using Row = PdfLayout::Row;

double assumptionBase(const model::AssumptionSet& set, const std::string& key, double fallback = 0.0) {
    auto it = set.find(key);
    return it == set.end() ? fallback : it->second.base;
}

class FinancePdf {
public:
    FinancePdf(const ReportInput& in, PdfLayout& doc)
        : m_in(in), m_r(*in.results), m_p(*in.project), m_doc(doc), m_charts(reportCharts(in)) {}

    void build() {
        titlePage(m_doc, QStringLiteral("Finance report"), name(), QString());
        Table meta{{{"", 1.0}, {"", 4.0}}, {}, 9.0, false};
        meta.rows.push_back({{"Date", q(reportDate(m_in.date))}, false, {}});
        meta.rows.push_back({{"Design id", q(m_p.info.id)}, false, {}});
        meta.rows.push_back({{"Currency", q(m_p.info.currency)}, false, {}});
        meta.rows.push_back({{"Horizon", QString::number(horizon()) + " years"}, false, {}});
        m_doc.table(meta);
        m_doc.subheading("Contents");
        QStringList sections = {"Executive summary",
                                "Capex by category",
                                "Depreciation",
                                "Yearly cash flow",
                                "Time axis",
                                "TCO and unit costs",
                                "Goodput and reliability",
                                "Power envelope, carbon and water",
                                "Design rules",
                                "Assumptions"};
        if (m_in.tornado && !m_in.tornado->bars.empty()) sections << "Sensitivity";
        if (m_in.uncertainty && !m_in.uncertainty->empty()) sections << "Uncertainty";
        sections << "Appendix: figures and how they are computed";
        m_doc.contents(sections);
        if (!m_p.info.description.empty() || !m_p.info.sources.empty()) {
            m_doc.subheading("About the design");
            if (!m_p.info.description.empty())
                m_doc.text(q(m_p.info.description), PdfLayout::font(8.5), kMuted, 3.0);
            if (!m_p.info.sources.empty()) {
                Table sources{{{"Design sources", 1.0}}, {}, 7.5, true};
                for (const auto& src : m_p.info.sources)
                    sources.rows.push_back({{q(src)}, false, {}});
                m_doc.table(sources);
            }
        }

        m_doc.newPage();
        summary();
        capex();
        depreciation();
        cashFlow();
        timeAxis();
        tco();
        reliability();
        envelope();
        rules();
        m_doc.newPage();
        assumptions();
        sensitivity();
        uncertainty();
        m_doc.newPage();
        appendix();
    }

    QString name() const { return q(m_p.info.name.empty() ? m_p.info.id : m_p.info.name); }

private:
    QString fig(const std::string& key) const { return q(formatFigureOf(m_r, key)); }
    QString money(double usd) const { return q(formatMoney(usd)); }
    QString millions(double usd) const { return q(formatMillions(usd)); }
    QString human(double v, const std::string& unit = "") const { return q(cost::formatHuman(v, unit)); }
    double assumption(const std::string& key, double fallback = 0.0) const {
        return assumptionBase(m_in.assumptions, key, fallback);
    }
    /// An assumption as the evaluation resolved it (a design's default may be derived from the catalog, as
    /// the rental price decay of the design's GPU generations is), else as given.
    double resolved(const std::string& key) const {
        for (const auto& in : m_r.inputs)
            if (in.path.size() == key.size() + 12 && in.path.compare(0, 12, "assumptions.") == 0 &&
                in.path.compare(12, std::string::npos, key) == 0)
                return in.value;
        return assumption(key);
    }
    int horizon() const { return static_cast<int>(m_r.finance.cashFlows.size()) - 1; }

    /// A month of the timeline as "YYYY-MM" (or "month N" when undated).
    QString timelineDate(int month) const {
        const auto d = m_r.timeline ? m_r.timeline->dateOf(month) : std::nullopt;
        return d ? q(d->iso().substr(0, 7)) : QStringLiteral("month %1").arg(month);
    }

    std::string tokenCostKey() const {
        if (m_r.figure("training.cost_per_million_tokens_usd")) return "training.cost_per_million_tokens_usd";
        return "inference.cost_per_million_output_tokens_usd";
    }

    void summary() {
        m_doc.heading("Executive summary");
        const bool hasIrr = m_r.figure("finance.irr") != nullptr;
        tiles(m_doc, {{"GPUs", fig("inventory.gpus")},
                      {"IT power", fig("power.it_mw")},
                      {"Facility power", fig("power.facility_mw")},
                      {"PUE", fig("power.pue")},
                      {"Capex", fig("capex.total_usd")},
                      {"Capex per GPU", fig("capex.per_gpu_usd")},
                      {"TCO per year", fig("finance.tco_annual_usd")},
                      {"Cost per GPU-hour", fig("finance.cost_per_gpu_hour_usd")},
                      {m_r.figure("training.cost_per_million_tokens_usd") ? "Training cost per M tokens"
                                                                          : "Cost per M output tokens",
                       fig(tokenCostKey())},
                      {"Goodput", fig("reliability.goodput")},
                      {"NPV (steady state)", fig("finance.npv_usd")},
                      {hasIrr ? "IRR (steady state)" : "Payback (steady state)",
                       hasIrr ? fig("finance.irr") : fig("finance.payback_years")}});
        if (m_r.timeline)
            tiles(m_doc,
                  {{"NPV (phased timeline)", fig("timeline.npv_usd")},
                   {"Peak funding (timeline)", fig("timeline.peak_funding_usd")},
                   {"Full energisation", timelineDate(m_r.timeline->fullEnergisationMonth)},
                   {"IRR (phased timeline)", m_r.figure("timeline.irr") ? fig("timeline.irr") : "none"}});
        m_doc.space(2.0);
        int errors = 0, warnings = 0;
        for (const auto& rule : m_r.rules) {
            if (rule.severity == cost::Severity::Error) ++errors;
            if (rule.severity == cost::Severity::Warning) ++warnings;
        }
        const auto& bom = m_r.bom;
        QString text =
            QStringLiteral(
                "%1 has %2 GPUs in %3 racks across %4 site(s) and %5 building(s), drawing %6 of IT "
                "power at %7 utilization (%8 at the facility, PUE %9). ")
                .arg(name(), human(bom.gpus), human(bom.racks), human(bom.sites), human(bom.buildings),
                     fig("power.it_mw"), q(formatPercent(assumption("utilization"))),
                     fig("power.facility_mw"), fig("power.pue"));
        text += QStringLiteral(
                    "It costs %1 to build (%2 per GPU) and %3 to own and run, which is %4 per sold GPU-hour "
                    "(headline: %5 convention; the %6 convention gives %7 per GPU-hour). ")
                    .arg(fig("capex.total_usd"), fig("capex.per_gpu_usd"), fig("finance.tco_annual_usd"),
                         money(m_r.finance.costPerGpuHour), q(m_r.finance.convention),
                         m_r.finance.convention == "economic" ? QStringLiteral("accounting")
                                                              : QStringLiteral("economic"),
                         money(m_r.finance.convention == "economic" ? m_r.finance.accounting.costPerGpuHour
                                                                    : m_r.finance.economic.costPerGpuHour));
        text +=
            QStringLiteral(
                "At a GPU-hour price of %1 (%5) the net present value over %2 years at a WACC of %3 is %4. ")
                .arg(money(m_r.finance.gpuHourPrice), QString::number(horizon()),
                     q(formatPercent(assumption("wacc"))), fig("finance.npv_usd"))
                .arg(m_r.finance.gpuHourPriceFromCatalog
                         ? QStringLiteral("the committed-contract rental price of its GPUs, from the catalog")
                         : QStringLiteral("set by the design"));
        if (m_r.figure("finance.break_even_gpu_hour_usd"))
            text +=
                QStringLiteral(
                    "The break-even price (NPV = 0) is %1 per GPU-hour against the economic cost of %2: the "
                    "economic cost is a pre-tax capital charge from day one, while the break-even price "
                    "also pays tax, waits %3 days for revenue and gets part of the capital back as terminal "
                    "value at book at the horizon. ")
                    .arg(fig("finance.break_even_gpu_hour_usd"), money(m_r.finance.economic.costPerGpuHour),
                         QString::number(m_r.finance.timeToRevenueDays, 'g', 4));
        if (m_r.timeline)
            text +=
                QStringLiteral(
                    "That is the steady state (every hall at once, prices as today). On the time axis (halls "
                    "energised %1 to %2, the GPU generation's rental price falling %3 a year from the "
                    "reference delivery, re-priced every %4 years) the NPV is %5 and the build needs %6 of "
                    "funding at its deepest. ")
                    .arg(timelineDate(m_r.timeline->firstEnergisationMonth),
                         timelineDate(m_r.timeline->fullEnergisationMonth),
                         q(formatPercent(resolved("gpu_rental_price_decay_per_year"))),
                         QString::number(assumption("gpu_rental_contract_years"), 'g', 3),
                         fig("timeline.npv_usd"), fig("timeline.peak_funding_usd"));
        text += QStringLiteral("Design rules: %1 error(s), %2 warning(s).").arg(errors).arg(warnings);
        m_doc.paragraph(text);

        m_doc.subheading("Headline figures");
        Table t{{{"Figure", 2.2}, {"Value", 1.6, Align::Right}, {"How it is computed", 4.6}}, {}, 8.0, true};
        for (const char* key : {"inventory.gpus",
                                "inventory.racks",
                                "inventory.network_racks",
                                "power.it_mw",
                                "power.it_peak_mw",
                                "power.facility_mw",
                                "power.pue",
                                "capex.total_usd",
                                "capex.per_gpu_usd",
                                "capex.per_mw_usd",
                                "finance.annualized_capex_usd",
                                "finance.opex_annual_usd",
                                "finance.tco_annual_usd",
                                "finance.cost_per_gpu_hour_usd",
                                "finance.economic.cost_per_gpu_hour_usd",
                                "finance.break_even_gpu_hour_usd",
                                "finance.accounting.cost_per_gpu_hour_usd",
                                "training.cost_per_million_tokens_usd",
                                "inference.cost_per_million_input_tokens_usd",
                                "inference.cost_per_million_output_tokens_usd",
                                "reliability.goodput",
                                "finance.npv_usd",
                                "finance.irr",
                                "finance.payback_years"}) {
            if (const auto* f = m_r.figure(key))
                t.rows.push_back({{q(f->label), q(formatFigure(*f)), q(f->provenance.formula)}, false, {}});
        }
        m_doc.table(t);
    }

    void capex() {
        const auto& c = m_r.capex;
        m_doc.heading("Capex by category");
        m_doc.paragraph(
            QStringLiteral("Total capex is %1: %2 per GPU and %3 per MW of IT power at full load. "
                           "Shares are of the total.")
                .arg(fig("capex.total_usd"), fig("capex.per_gpu_usd"), fig("capex.per_mw_usd")));
        Table t{{{"Category", 3.2},
                 {"Capex ($M)", 1.4, Align::Right},
                 {"Share", 1.0, Align::Right},
                 {"Per GPU ($)", 1.4, Align::Right}},
                {},
                8.0,
                true};
        for (size_t i = 0; i < cost::kCapexCategories.size(); ++i) {
            const auto& cat = cost::kCapexCategories[i];
            auto it = c.byCategory.find(cat);
            const double v = it == c.byCategory.end() ? 0.0 : it->second.value();
            const double perGpu = m_r.bom.gpus > 0 ? v / m_r.bom.gpus : 0.0;
            t.rows.push_back({{q(capexCategoryLabel(cat)), millions(v), q(formatPercent(c.share(cat))),
                               human(std::round(perGpu))},
                              false,
                              {}});
        }
        t.rows.push_back(
            {{"Total", millions(c.total.value()), "100.0%", human(std::round(c.perGpu.value()))}, true, {}});
        m_doc.table(t);
        // The storage line's basis: a small share of capex that architects question.
        if (const auto* f = m_r.figure("capex.storage_usd_per_tb")) {
            double pb = 0;
            for (const auto& [name, v] : f->provenance.inputs)
                if (name == "capacity_pb") pb = v;
            m_doc.paragraph(
                QStringLiteral("Storage is %1 PB of usable capacity at %2 per TB on average, each tier "
                               "at its catalog price (the appendix lists the tiers and sources).")
                    .arg(human(pb), "$" + QString::number(f->value, 'f', 2)));
        }
        chart("capex_by_category");
        analystView();
    }

    /// The analyst view beside the ten categories: GPUs split from the rest of the rack.
    void analystView() {
        const auto& c = m_r.capex;
        m_doc.subheading("Capex, analyst view");
        m_doc.paragraph(
            QStringLiteral("The same capex grouped as analyst models present it. GPUs are the catalog "
                           "accelerator price x "
                           "GPU count (%1); other IT is the rest of the rack less its scale-up trays (%2). "
                           "Networking is "
                           "scale-up + scale-out switches + optics and cables + scale-across; shell is the "
                           "building less "
                           "site land; other is integration and land. The groups sum to the total.")
                .arg(millionsText(c.computeBreakdown, "gpus"),
                     millionsText(c.computeBreakdown, "cpus_hosts")));
        Table t{{{"Group", 3.2},
                 {"Capex ($M)", 1.4, Align::Right},
                 {"Share", 1.0, Align::Right},
                 {"Per GPU ($)", 1.4, Align::Right}},
                {},
                8.0,
                true};
        const double total = c.total.value();
        for (const auto& g : cost::kAnalystCapexCategories) {
            auto it = c.analystView.find(g);
            const double v = it == c.analystView.end() ? 0.0 : it->second.value();
            t.rows.push_back(
                {{q(analystCategoryLabel(g)), millions(v), q(formatPercent(total != 0 ? v / total : 0.0)),
                  human(std::round(m_r.bom.gpus > 0 ? v / m_r.bom.gpus : 0.0))},
                 false,
                 {}});
        }
        t.rows.push_back(
            {{"Total", millions(total), "100.0%", human(std::round(c.perGpu.value()))}, true, {}});
        m_doc.table(t);
    }

    QString millionsText(const std::map<std::string, units::Money>& m, const std::string& key) const {
        auto it = m.find(key);
        return "$" + millions(it == m.end() ? 0.0 : it->second.value()) + "M";
    }

    void depreciation() {
        const auto& fin = m_r.finance;
        m_doc.heading("Depreciation");
        m_doc.paragraph(
            QStringLiteral(
                "Capex depreciates by asset class over its useful life to its residual value: straight line "
                "((cost - residual) / life per year, a fractional last year takes the remainder) and "
                "declining "
                "balance at %1 / life of the book value, switching to straight line when that is larger (IRS "
                "Publication 946). An asset class that reaches its end of life inside the horizon is sold at "
                "its residual value and replaced at the same price; the straight-line schedule includes the "
                "replacement. Site land (%2) is not depreciated. The cash flow uses straight line for tax. "
                "Amounts in $M.")
                .arg(human(assumption("declining_balance_factor", 2.0)),
                     "$" + millions(fin.land.value()) + "M"));
        Table classes{{{"Asset class", 1.6},
                       {"Capex categories", 3.0},
                       {"Capex ($M)", 1.1, Align::Right},
                       {"Life (years)", 0.9, Align::Right},
                       {"Residual", 0.8, Align::Right},
                       {"Straight line per year ($M)", 1.3, Align::Right}},
                      {},
                      8.0,
                      true};
        for (const auto& ac : fin.assetClasses) {
            QStringList cats;
            for (const auto& cat : assetClassCategories(ac.name))
                cats << q(capexCategoryLabel(cat));
            if (ac.name == "facility" && fin.land.value() > 0) cats << "less land";
            classes.rows.push_back({{q(assetClassLabel(ac.name)), cats.join(", "), millions(ac.capex.value()),
                                     human(ac.lifeYears), q(formatPercent(ac.residualFraction)),
                                     millions(ac.accountingCharge.value())},
                                    false,
                                    {}});
        }
        classes.rows.push_back({{"Land", "site land (not depreciated)", millions(fin.land.value()), "-",
                                 "at cost", millions(0.0)},
                                false,
                                {}});
        classes.rows.push_back({{"Total", "", millions(m_r.capex.total.value()), "", "",
                                 millions(fin.depreciationAnnual.value())},
                                true,
                                {}});
        m_doc.table(classes);
        schedule(
            "Straight-line schedule ($M)",
            [](const cost::AssetClass& ac) -> const auto& { return ac.straightLine; });
        schedule(
            QStringLiteral("Declining-balance schedule ($M, factor %1)")
                .arg(human(assumption("declining_balance_factor", 2.0))),
            [](const cost::AssetClass& ac) -> const auto& { return ac.decliningBalance; });
    }

    template <class Get> void schedule(const QString& title, Get get) {
        const auto& classes = m_r.finance.assetClasses;
        m_doc.subheading(title);
        Table t{{{"Year", 0.8}}, {}, 8.0, true};
        for (const auto& ac : classes)
            t.columns.push_back({q(assetClassLabel(ac.name)), 1.2, Align::Right});
        t.columns.push_back({"Total", 1.2, Align::Right});
        std::vector<double> columnTotals(classes.size() + 1, 0.0);
        for (int y = 0; y < horizon(); ++y) {
            Row row{{QString::number(y + 1)}, false, {}};
            double total = 0;
            for (size_t k = 0; k < classes.size(); ++k) {
                const auto& s = get(classes[k]);
                const double v = static_cast<size_t>(y) < s.size() ? s[static_cast<size_t>(y)].value() : 0.0;
                row.cells << millions(v);
                total += v;
                columnTotals[k] += v;
            }
            columnTotals.back() += total;
            row.cells << millions(total);
            t.rows.push_back(row);
        }
        Row sum{{"Total"}, true, {}};
        for (double v : columnTotals)
            sum.cells << millions(v);
        t.rows.push_back(sum);
        m_doc.table(t);
    }

    void cashFlow() {
        const auto& fin = m_r.finance;
        const double wacc = assumption("wacc");
        m_doc.heading("Yearly cash flow");
        m_doc.paragraph(
            QStringLiteral(
                "Year 0 pays the capex. Each later year earns the sold GPU-hours (%1 per year) at %2 (year 1 "
                "less the %5 days to revenue, pro rata), pays opex and a %3 tax on revenue minus opex minus "
                "straight-line depreciation (none when negative). An asset class that reaches its end of "
                "life is replaced at cost in the year it ends and the old one sold at its residual value "
                "(Renewal, net: replacement less residual sold). The last year adds the terminal value: the "
                "book value of every asset "
                "class plus the land at cost. Present values at a WACC of %4, end-of-year flows. Amounts in "
                "$M.")
                .arg(human(std::round(fin.gpuHoursPerYear)), money(fin.gpuHourPrice),
                     q(formatPercent(assumption("tax_rate"))), q(formatPercent(wacc)),
                     human(fin.timeToRevenueDays)));
        Table t{{{"Year", 0.7},
                 {"Capex", 1.0, Align::Right},
                 {"Revenue", 1.0, Align::Right},
                 {"Opex", 0.9, Align::Right},
                 {"Tax", 0.8, Align::Right},
                 {"Renewal, net", 1.1, Align::Right},
                 {"Terminal value", 1.1, Align::Right},
                 {"Net cash flow", 1.1, Align::Right},
                 {"Cumulative", 1.3, Align::Right},
                 {"Present value", 1.1, Align::Right}},
                {},
                8.0,
                true};
        auto at = [](const std::vector<units::Money>& v, size_t y) {
            return y >= 1 && y - 1 < v.size() ? v[y - 1].value() : 0.0;
        };
        double cum = 0, sums[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (size_t y = 0; y < fin.cashFlows.size(); ++y) {
            const double capex = y == 0 ? m_r.capex.total.value() : 0.0;
            const double rev = at(fin.revenue, y), opex = at(fin.opex, y), tax = at(fin.tax, y);
            const double replacement = at(fin.replacementCapex, y) - at(fin.salvage, y);
            const double terminal = at(fin.terminalValue, y);
            const double cf = fin.cashFlows[y].value();
            const double pv = cf * std::pow(1.0 + wacc, -static_cast<double>(y));
            cum += cf;
            const double row[8] = {capex, rev, opex, tax, replacement, terminal, cf, pv};
            for (int k = 0; k < 8; ++k)
                sums[k] += row[k];
            t.rows.push_back(
                {{QString::number(y), millions(capex), millions(rev), millions(opex), millions(tax),
                  millions(replacement), millions(terminal), millions(cf), millions(cum), millions(pv)},
                 false,
                 {}});
        }
        t.rows.push_back(
            {{"Total", millions(sums[0]), millions(sums[1]), millions(sums[2]), millions(sums[3]),
              millions(sums[4]), millions(sums[5]), millions(sums[6]), "", millions(sums[7])},
             true,
             {}});
        m_doc.table(t);
        m_doc.paragraph(
            QStringLiteral("NPV: %1.  IRR: %2.  Payback: %3.")
                .arg(fig("finance.npv_usd"),
                     fin.irr ? q(formatPercent(*fin.irr)) : QStringLiteral("none (cash flows do not turn)"),
                     fin.paybackYears ? human(*fin.paybackYears, "years")
                                      : QStringLiteral("not within the horizon")));
        chart("cash_flow");
    }

    /// The opex lines that both conventions share (staff, WAN leases, insurance, property tax, software
    /// licences), one row each with its basis.
    void addOpexRows(Table& t) const {
        const auto& fin = m_r.finance;
        t.rows.push_back(
            {{"Staff", money(fin.staffAnnual.value()), money(fin.staffAnnual.value()),
              QStringLiteral("%1 per MW of IT per year").arg(money(assumption("staff_usd_per_mw_year")))},
             false,
             {}});
        t.rows.push_back({{"WAN leases", money(fin.wanLeaseAnnual.value()), money(fin.wanLeaseAnnual.value()),
                           "scale-across links"},
                          false,
                          {}});
        // Insurance, property tax and software licences: opex lines like the others, so the
        // rows add up to the TCO.
        t.rows.push_back(
            {{"Insurance", money(fin.insuranceAnnual.value()), money(fin.insuranceAnnual.value()),
              QStringLiteral("%1 of capex less land per year")
                  .arg(q(formatPercent(assumption("insurance_rate_of_capex_per_year"), 2)))},
             false,
             {}});
        t.rows.push_back(
            {{"Property tax", money(fin.propertyTaxAnnual.value()), money(fin.propertyTaxAnnual.value()),
              QStringLiteral("%1 of capex per year")
                  .arg(q(formatPercent(assumption("property_tax_rate_of_capex_per_year"), 2)))},
             false,
             {}});
        t.rows.push_back(
            {{"Software licences", money(fin.softwareAnnual.value()), money(fin.softwareAnnual.value()),
              QStringLiteral("%1 per installed GPU per year")
                  .arg(money(assumption("software_usd_per_gpu_year")))},
             false,
             {}});
    }

    void tco() {
        const auto& fin = m_r.finance;
        const bool econHeadline = fin.convention != "accounting";
        m_doc.heading("TCO and unit costs");
        m_doc.paragraph(
            QStringLiteral(
                "Two conventions turn capex into a yearly charge; both add the same opex. Economic: capital "
                "recovery at the WACC (%1) over each asset class's life, net of its residual value, "
                "(capex - residual) x CRF + residual x WACC, and the return forgone on land. Accounting: "
                "straight-line depreciation to the residual value, (capex - residual) / life; land is not "
                "depreciated. The headline (TCO per year, cost per GPU-hour, training run cost and cost per "
                "token) uses the %2 convention (the design's project.tco_convention).")
                .arg(q(formatPercent(assumption("wacc"))),
                     econHeadline ? QStringLiteral("economic") : QStringLiteral("accounting")));
        const QString econTitle =
            econHeadline ? QStringLiteral("Economic (headline)") : QStringLiteral("Economic");
        const QString acctTitle =
            econHeadline ? QStringLiteral("Accounting") : QStringLiteral("Accounting (headline)");
        Table t{{{"Item per year", 1.7},
                 {econTitle, 1.05, Align::Right},
                 {acctTitle, 1.05, Align::Right},
                 {"Basis", 4.6}},
                {},
                8.0,
                true};
        for (const auto& ac : fin.assetClasses)
            t.rows.push_back({{QStringLiteral("Capex charge, %1").arg(q(assetClassLabel(ac.name))),
                               money(ac.economicCharge.value()), money(ac.accountingCharge.value()),
                               QStringLiteral("capex %1, life %2 years, residual %3")
                                   .arg(money(ac.capex.value()), human(ac.lifeYears),
                                        q(formatPercent(ac.residualFraction)))},
                              false,
                              {}});
        t.rows.push_back({{"Capex charge, land", money(assumption("wacc") * fin.land.value()), money(0.0),
                           QStringLiteral("land %1: return forgone (economic); not depreciated")
                               .arg(money(fin.land.value()))},
                          false,
                          {}});
        t.rows.push_back({{"Capex charge", money(fin.economic.capexCharge.value()),
                           money(fin.accounting.capexCharge.value()), "sum of the above"},
                          true,
                          {}});
        for (const auto& ac : fin.assetClasses)
            t.rows.push_back({{QStringLiteral("Maintenance, %1").arg(q(assetClassLabel(ac.name))),
                               money(ac.maintenance.value()), money(ac.maintenance.value()),
                               QStringLiteral("%1 of the class's capex per year")
                                   .arg(q(formatPercent(ac.maintenanceFraction)))},
                              false,
                              {}});
        // The tariff of each site as used, with where it came from (not the assumption, which a site's own
        // tariff overrides).
        QString energyBasis;
        for (const auto& s : energyBySite(m_r))
            energyBasis +=
                QStringLiteral("%1%2: %3 MWh at %4 per kWh (%5)")
                    .arg(energyBasis.isEmpty() ? QString() : QStringLiteral("; "), siteName(s.siteId),
                         human(std::round(s.mwhPerYear)), money(s.tariffUsdPerKwh), q(s.basis));
        if (energyBasis.isEmpty())
            energyBasis =
                QStringLiteral("%1 MWh").arg(human(std::round(fin.facilityEnergyAnnual.value() / 3.6e9)));
        t.rows.push_back(
            {{"Energy", money(fin.energyAnnual.value()), money(fin.energyAnnual.value()), energyBasis},
             false,
             {}});
        addOpexRows(t);
        t.rows.push_back({{"TCO per year", money(fin.economic.tcoAnnual.value()),
                           money(fin.accounting.tcoAnnual.value()), "capex charge + opex"},
                          true,
                          {}});
        t.rows.push_back(
            {{"Cost per GPU-hour", money(fin.economic.costPerGpuHour), money(fin.accounting.costPerGpuHour),
              QStringLiteral("TCO per year / %1 GPU-hours sold (sellable GPUs x 8,766 h x %2 "
                             "utilization x %3 facility availability)")
                  .arg(human(std::round(fin.gpuHoursPerYear)), q(formatPercent(assumption("utilization"))),
                       q(formatPercent(m_r.power.facilityAvailability, 4)))},
             true,
             {}});
        m_doc.table(t);

        if (!m_r.training.empty()) {
            m_doc.subheading("Training");
            Table tr{{{"Job", 2.4},
                      {"GPUs", 0.9, Align::Right},
                      {"Tokens", 1.2, Align::Right},
                      {"Time to train", 1.1, Align::Right},
                      {"Run cost", 1.2, Align::Right},
                      {"Cost per M tokens", 1.2, Align::Right}},
                     {},
                     8.0,
                     true};
            for (const auto& job : m_r.training) {
                QString jobName = q(job.jobId);
                double gpus = 0, tokens = 0;
                for (const auto& j : m_p.trainingJobs)
                    if (j.id == job.jobId)
                        jobName = q(j.name.empty() ? j.id : j.name), gpus = j.gpus, tokens = j.tokens;
                tr.rows.push_back({{jobName, human(gpus), human(tokens / 1e12, "T"),
                                    human(job.estimate.time.value() / 86400.0, "days"),
                                    money(job.runCost.value()), money(job.costPerMillionTokens)},
                                   false,
                                   {}});
            }
            m_doc.table(tr);
        }
        if (!m_r.inference.empty()) {
            m_doc.subheading("Inference");
            Table inf{{{"Service", 1.7},
                       {"GPUs", 0.8, Align::Right},
                       {"Output tok/s per GPU", 1.3, Align::Right},
                       {"Tok/s per user", 1.0, Align::Right},
                       {"Output tok/s per provisioned MW", 1.1, Align::Right},
                       {"$ per M input tokens", 1.0, Align::Right},
                       {"$ per M output tokens", 1.0, Align::Right},
                       {"Joules per output token (provisioned)", 0.9, Align::Right}},
                      {},
                      8.0,
                      true};
            for (const auto& s : m_r.inference) {
                QString serviceName = q(s.serviceId);
                double gpus = 0;
                for (const auto& x : m_p.inferenceServices)
                    if (x.id == s.serviceId) serviceName = q(x.name.empty() ? x.id : x.name), gpus = x.gpus;
                inf.rows.push_back(
                    {{serviceName, human(gpus), human(gpus > 0 ? s.sizing.outputTokensPerSecond / gpus : 0.0),
                      human(s.sizing.decode.tokensPerSecondPerUser), human(s.outputTokensPerSecondPerMw),
                      money(s.costPerMillionInputTokens), money(s.costPerMillionOutputTokens),
                      human(s.joulesPerToken)},
                     false,
                     {}});
            }
            m_doc.table(inf);
            tokenEconomics();
        }
    }

    /// What the tokens earn at market prices and build / rent / API, with their bases.
    void tokenEconomics() {
        static const char* const kKeys[] = {
            "inference.token_revenue_per_gpu_hour_usd",     "inference.token_profit_per_gpu_hour_usd",
            "inference.token_revenue_annual_usd",           "inference.cost_per_request_usd",
            "inference.rent_cost_per_request_usd",          "inference.api_cost_per_request_usd",
            "inference.build_break_even_utilization",       "inference.rent_break_even_utilization",
            "inference.fleet.token_revenue_annual_usd",     "inference.fleet.token_profit_annual_usd",
            "inference.fleet.token_profit_per_gw_year_usd", "inference.fleet.npv_token_revenue_usd"};
        if (!m_r.figure("inference.fleet.token_revenue_annual_usd")) return;
        m_doc.subheading("Token economics: build, rent or buy");
        m_doc.paragraph(QStringLiteral(
            "Each service sells its new input, cached input and output tokens at the prices it "
            "states, else at its model's market API prices from the catalog, less the licence share. "
            "Per GPU-hour figures are per busy GPU-hour, the basis of the cost per GPU-hour; yearly "
            "figures are steady state. Rent pays the GPU-hour price for every hour; the API charges "
            "per token. A break-even utilization above 100 % means owning never beats the API."));
        Table t{{{"Figure", 3.2}, {"Value", 1.3, Align::Right}, {"Basis", 4.3}}, {}, 8.0, true};
        for (const char* key : kKeys)
            if (const auto* f = m_r.figure(key))
                t.rows.push_back({{q(f->label), q(formatFigure(*f)), q(f->provenance.formula)}, false, {}});
        m_doc.table(t);
    }

    void reliability() {
        const auto& fin = m_r.finance;
        m_doc.heading("Goodput and reliability");
        m_doc.paragraph(
            QStringLiteral("Goodput is the share of GPU time that advances training after failures, "
                           "restarts and checkpoints. It scales the time to train and so the run cost."));
        Table t{{{"Figure", 2.4}, {"Value", 1.4, Align::Right}, {"Basis", 4.6}}, {}, 8.0, true};
        // Every figure of the reliability model (goodput, interruptions, MTBF, checkpointing, lost
        // GPU-hours).
        for (const auto& f : m_r.figures)
            if (f.key.rfind("reliability.", 0) == 0)
                t.rows.push_back({{q(f.label), q(formatFigure(f)), q(f.provenance.formula)}, false, {}});
        t.rows.push_back({{"Spare racks", human(m_r.bom.spareRacks),
                           QStringLiteral("target %1 of compute racks")
                               .arg(q(formatPercent(assumption("spare_fraction_target"))))},
                          false,
                          {}});
        t.rows.push_back(
            {{"Spare GPUs", human(m_r.bom.spareGpus), "hot spares, idle until a failure"}, false, {}});
        if (m_r.figure("training.time_days"))
            t.rows.push_back(
                {{"Time to train", fig("training.time_days"), "includes the goodput loss"}, false, {}});
        // The back-end routing's collective efficiency and what it costs the step.
        for (const char* key : {"training.collective_efficiency", "training.routing_slowdown"})
            if (const auto* f = m_r.figure(key))
                t.rows.push_back({{q(f->label), q(formatFigure(*f)), q(f->provenance.formula)}, false, {}});
        t.rows.push_back(
            {{"Time to revenue", fig("finance.time_to_revenue_days"), "delivery to paying workload"},
             false,
             {}});
        t.rows.push_back(
            {{"Burn-in cost", money(fin.burnInCost.value()), "TCO of the capacity until it earns"},
             false,
             {}});
        m_doc.table(t);
    }

    /// The design on its monthly time axis (cost/timeline.h), each figure with its basis.
    void timeAxis() {
        m_doc.heading("Time axis");
        if (!m_r.timeline) {
            m_doc.paragraph("No timeline: a design-rule Error stops it (see Design rules).");
            return;
        }
        const auto& t = *m_r.timeline;
        const auto when = [&](int month) { return timelineDate(month); };
        m_doc.paragraph(
            QStringLiteral(
                "Monthly, from the build start (%1). Each of the %2 halls with racks is a phase, energised "
                "at "
                "its date (%3 to %4); its facility is drawn over the construction months before it with "
                "interest during construction at the WACC, its IT paid on delivery, its GPU-hours sold from "
                "the days to revenue on at its generation's market price, which falls %5 a year, re-priced "
                "at "
                "each renewal of its %7-year contracts; hall refresh "
                "policies replace the GPUs. The steady-state figures elsewhere in this report assume every "
                "hall energised at once; these are the dated ones, valued at the reference delivery (%6).")
                .arg(t.buildStart ? q(t.buildStart->iso()) : QStringLiteral("undated"),
                     QString::number(t.phases.size()), when(t.firstEnergisationMonth),
                     when(t.fullEnergisationMonth),
                     q(formatPercent(resolved("gpu_rental_price_decay_per_year"))), when(t.referenceMonth))
                .arg(QString::number(assumption("gpu_rental_contract_years"), 'g', 3)));
        Table table{{{"Figure", 2.6}, {"Value", 1.4, Align::Right}, {"Basis", 4.4}}, {}, 8.0, true};
        for (const auto& f : m_r.figures)
            if (f.key.rfind("timeline.", 0) == 0)
                table.rows.push_back({{q(f.label), q(formatFigure(f)), q(f.provenance.formula)}, false, {}});
        m_doc.table(table);
        chart("timeline_cash");
    }

    /// Provisioned against nameplate power, what power capping costs, and energy, location-based
    /// carbon and on-site water, each with its basis.
    void envelope() {
        m_doc.heading("Power envelope, carbon and water");
        const double ratio = assumption("power_oversubscription_ratio", 1.0);
        const auto* nameplate = m_r.figure("power.it_compute_nameplate_mw");
        const auto* provisioned = m_r.figure("power.it_compute_peak_mw");
        const double share = nameplate && provisioned && nameplate->value > 0
                                 ? provisioned->value / nameplate->value
                                 : 1.0 / std::max(ratio, 1.0);
        m_doc.paragraph(
            QStringLiteral(
                "The compute racks are provisioned at %1 of their full-load (nameplate) draw (the "
                "design's oversubscription ratio %2; a site, building, hall or power feed may set a tighter "
                "one, and each rack takes the tightest above it); power capping holds them there, "
                "lowering the GPUs' clock when a workload would draw more. Carbon is location-based "
                "(the grid region's annual average factor at each site; power purchase agreements "
                "are not counted; on-site generation at the natural-gas factor); water is what the "
                "evaporative plants consume on site, following each site's climate hour by hour.")
                .arg(q(formatPercent(share)), QString::number(ratio, 'f', 2)));
        Table t{{{"Figure", 2.6}, {"Value", 1.4, Align::Right}, {"Basis", 4.4}}, {}, 8.0, true};
        auto row = [&](const cost::Figure& f) {
            t.rows.push_back({{q(f.label), q(formatFigure(f)), q(f.provenance.formula)}, false, {}});
        };
        for (const char* key :
             {"power.it_compute_nameplate_mw", "power.it_compute_peak_mw",
              "power.compute_racks_per_provisioned_mw", "training.ratio_without_capping",
              "inference.ratio_without_capping", "training.capping_clock", "training.capping_slowdown",
              "inference.capping_clock", "inference.capping_throughput_loss", "power.grid_availability",
              "training.grid_availability", "power.onsite_generation_share", "finance.onsite_fuel_annual_usd",
              "training.step_compute_share", "training.rack_mean_draw_share", "power.training_swing_mw",
              "power.bess_power_mw", "power.bess_energy_mwh",
              "power.bess_losses_mwh_per_year", "power.load_factor_annual",
              "power.interconnect_headroom_mw_design_day"})
            if (const auto* f = m_r.figure(key)) row(*f);
        for (const auto& f : m_r.figures)
            if (f.key.rfind("environment.", 0) == 0) row(f);
        m_doc.table(t);
        // Each site against its supply (the Power tab's figures): peak on the design day with every rack at
        // its provisioned draw, average over the year at the utilization.
        Table sites{{{"Site", 2.4},
                     {"Peak MW (design day)", 1.3, Align::Right},
                     {"Average MW (annual)", 1.3, Align::Right},
                     {"Grid interconnect MW", 1.3, Align::Right},
                     {"On-site MW (share)", 1.2, Align::Right},
                     {"Headroom MW (design day)", 1.3, Align::Right}},
                    {},
                    8.0,
                    true};
        auto mw = [](double v) { return QString::number(v, 'f', 1); };
        for (const auto& sp : m_r.power.sites)
            sites.rows.push_back({{q(sp.name), mw(sp.facilityPeak.value() / 1e6),
                                   mw(sp.facilityOperating.value() / 1e6),
                                   sp.interconnectMw ? mw(*sp.interconnectMw) : QStringLiteral("not stated"),
                                   mw(sp.onsiteMw),
                                   sp.interconnectMw ? mw(sp.headroomMw()) : QStringLiteral("–")},
                                  false,
                                  {}});
        if (!sites.rows.empty()) m_doc.table(sites);
    }

    void rules() {
        m_doc.heading("Design rules");
        if (m_r.rules.empty()) {
            m_doc.paragraph("No findings: the design passes every design rule.");
            return;
        }
        Table t{{{"Severity", 0.9}, {"Rule", 1.6}, {"Entity", 1.6}, {"Message", 4.4}}, {}, 8.0, true};
        for (const auto& rule : m_r.rules) {
            const QColor fill = rule.severity == cost::Severity::Error     ? kErrorFill
                                : rule.severity == cost::Severity::Warning ? kWarningFill
                                                                           : QColor();
            t.rows.push_back(
                {{q(cost::severityName(rule.severity)), q(rule.rule), q(rule.entity), q(rule.message)},
                 false,
                 {fill}});
        }
        m_doc.table(t);
    }

    void assumptions() {
        m_doc.heading("Assumptions");
        m_doc.paragraph(QStringLiteral(
            "Every assumption, with the base value the figures use, the low-high range "
            "that sensitivity and uncertainty explore, and its source. Values set by the design's "
            "assumptions block or by an override (command line, scenario) are marked, and so "
            "are assumptions no figure uses because every entity sets its own value."));
        Table t{{{"Assumption", 2.5},
                 {"Base", 0.85, Align::Right},
                 {"Low", 0.85, Align::Right},
                 {"High", 0.85, Align::Right},
                 {"Unit", 1.2},
                 {"Source", 3.9}},
                {},
                7.5,
                true};
        for (const auto& [key, a] : m_in.assumptions) {
            QString k = q(key);
            const auto* in = m_r.input("assumptions." + key);
            if (in && in->level == cost::InputLevel::Override)
                k += "\n(overridden)";
            else if (m_p.assumptions.count(key))
                k += "\n(design override)";
            if (in && !in->used) k += "\n(not used)";
            QString source = q(a.source);
            if (a.estimate && !source.contains("stimate")) source += " (estimate)";
            t.rows.push_back({{k, human(a.base), human(a.low), human(a.high), q(a.unit), source}, false, {}});
        }
        m_doc.table(t);
        entityInputs();
    }

    /// A site by its name, as the reader knows it (issue 36: sites were named by id); the id when unnamed.
    QString siteName(const std::string& id) const {
        for (const auto& site : m_p.sites)
            if (site.id == id && !site.name.empty()) return q(site.name);
        return q(id);
    }

    /// "sites.site-wi.electricity_usd_per_kwh" as "Mount Pleasant: electricity_usd_per_kwh": the entity by
    /// name, then the field.
    QString inputName(const std::string& path) const {
        const size_t first = path.find('.'), last = path.rfind('.');
        if (first == std::string::npos || last == first) return q(path);
        const std::string id = path.substr(first + 1, last - first - 1);
        QString name = q(id);
        if (const auto kind = model::entityKindFromCollectionKey(path.substr(0, first)))
            m_p.withCollection(*kind, [&](const auto& c) {
                for (const auto& e : c)
                    if (e.id == id && !e.name.empty()) name = q(e.name);
            });
        return QStringLiteral("%1: %2").arg(name, q(path.substr(last + 1)));
    }

    /// The entity values the engine read (site tariffs, shell costs, pinned PUEs, route lengths, MFUs): the
    /// value used and where it came from.
    void entityInputs() {
        Table t{{{"Input", 3.2}, {"Value", 1.1, Align::Right}, {"Unit", 0.9}, {"From", 1.1}, {"Source", 3.8}},
                {},
                7.5,
                true};
        for (const auto& i : m_r.inputs) {
            if (i.path.rfind("assumptions.", 0) == 0) continue;
            t.rows.push_back({{inputName(i.path), human(i.value), q(i.unit), q(cost::inputLevelName(i.level)),
                               q(i.source)},
                              false,
                              {}});
        }
        if (t.rows.empty()) return;
        // A subheading keeps the paragraph with its table (it was left alone at a page foot).
        m_doc.subheading("Entity values");
        m_doc.paragraph(
            QStringLiteral("Entity values the figures use: each entity's own value, an override, or "
                           "the assumption it falls back to."));
        m_doc.table(t);
    }

    QString outputValue(const std::string& key, double v) const {
        const auto* f = m_r.figure(key);
        return q(formatFigureValue(key, v, f ? f->unit : ""));
    }

    void sensitivity() {
        if (!m_in.tornado || m_in.tornado->bars.empty()) return;
        const auto& tor = *m_in.tornado;
        const auto* f = m_r.figure(tor.output);
        const QString label = f ? q(f->label) : q(tor.output);
        m_doc.newPage();
        m_doc.heading("Sensitivity");
        m_doc.paragraph(
            QStringLiteral("How %1 (base %2) moves when one assumption at a time goes from its low to its "
                           "high value, all others at base. Widest swing first.")
                .arg(label, outputValue(tor.output, tor.base)));
        chart("sensitivity");
        const std::string key = tor.output;
        Table t{{{"Assumption", 2.2},
                 {"Low input", 1.1, Align::Right},
                 {"High input", 1.1, Align::Right},
                 {"Output at low", 1.2, Align::Right},
                 {"Output at high", 1.2, Align::Right},
                 {"Swing", 1.1, Align::Right}},
                {},
                7.5,
                true};
        for (const auto& b : tor.bars) {
            auto it = m_in.assumptions.find(b.assumption);
            const std::string unit = it == m_in.assumptions.end() ? "" : it->second.unit;
            t.rows.push_back({{q(b.assumption), human(b.inputLow, unit), human(b.inputHigh, unit),
                               outputValue(key, b.outputAtLow), outputValue(key, b.outputAtHigh),
                               outputValue(key, b.swing)},
                              false,
                              {}});
        }
        m_doc.table(t);
    }

    void uncertainty() {
        if (!m_in.uncertainty || m_in.uncertainty->empty()) return;
        m_doc.heading("Uncertainty");
        m_doc.paragraph(
            QStringLiteral("Monte Carlo over all assumptions at once, each drawn from a triangular "
                           "distribution over its low, base and high values: the 10th, 50th and 90th "
                           "percentiles and the mean of each output."));
        Table t{{{"Output", 2.6},
                 {"P10", 1.2, Align::Right},
                 {"P50", 1.2, Align::Right},
                 {"P90", 1.2, Align::Right},
                 {"Mean", 1.2, Align::Right}},
                {},
                8.0,
                true};
        for (const auto& [key, pc] : *m_in.uncertainty) {
            const auto* f = m_r.figure(key);
            t.rows.push_back({{f ? q(f->label) : q(key), outputValue(key, pc.p10), outputValue(key, pc.p50),
                               outputValue(key, pc.p90), outputValue(key, pc.mean)},
                              false,
                              {}});
        }
        m_doc.table(t);
    }

    void appendix() {
        m_doc.heading("Appendix: figures and how they are computed");
        m_doc.paragraph(QStringLiteral("Every figure of the evaluation with its export key (as in "
                                       "\"clustertwin-cli evaluate --json\"), value, formula and sources."));
        Table t{{{"Key", 2.8}, {"Value", 1.4, Align::Right}, {"Formula and sources", 4.2}}, {}, 7.0, true};
        for (const auto& f : m_r.figures) {
            QString how = q(f.provenance.formula);
            QStringList sources;
            for (const auto& s : f.provenance.sources)
                if (!s.empty()) sources << q(s);
            if (!sources.isEmpty()) how += "\nSources: " + sources.join("; ");
            t.rows.push_back({{q(f.key), q(formatFigure(f)), how}, false, {}});
        }
        m_doc.table(t);
    }

    const ReportInput& m_in;
    const cost::Results& m_r;
    const model::Project& m_p;
    PdfLayout& m_doc;
    std::vector<ReportChart> m_charts; // the same charts as the PNG/SVG export (report_charts.h)

    /// The chart `name` as a block of the page.
    void chart(const std::string& name) {
        for (const auto& c : m_charts)
            if (c.name == name) m_doc.block(c.heightMm, c.paint);
    }
};

} // namespace

void writePdfReport(const ReportInput& input, const std::string& path) {
    if (!input.project || !input.results)
        throw std::invalid_argument("writePdfReport: project and results are required");
    requireGuiApplication();
    const QString name =
        q(input.project->info.name.empty() ? input.project->info.id : input.project->info.name);
    writePdf(path, "Finance report: " + name,
             QStringLiteral("ClusterTwin finance report: %1, %2").arg(name, q(reportDate(input.date))),
             input.paper, [&](PdfLayout& doc) { FinancePdf(input, doc).build(); });
}

} // namespace ctwin::app
