// The design comparison PDF (clustertwin-cli report A B ..., File > Compare > Export PDF).
#include "report/pdf_pages.h"
#include "report/pdf_report.h"
#include "report/report_charts.h"
#include "report/report_format.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace ctwin::app {

using namespace pdf;
using Align = PdfLayout::Align;
using Table = PdfLayout::Table;
using Row = PdfLayout::Row;

void writeComparisonPdf(const ComparisonInput& input, const std::string& path) {
    const auto& cmp = input.comparison;
    const size_t n = cmp.names.size();
    if (n == 0 || input.results.size() != n ||
        std::any_of(input.results.begin(), input.results.end(), [](const cost::Results* r) { return !r; }))
        throw std::invalid_argument(
            "writeComparisonPdf: one non-null result per compared design is required");
    requireGuiApplication();
    const QString date = q(reportDate(input.date));
    writePdf(
        path, QStringLiteral("Design comparison"),
        QStringLiteral("ClusterTwin design comparison, %1").arg(date), input.paper, [&](PdfLayout& doc) {
            QStringList names;
            for (size_t i = 0; i < n; ++i)
                names << q(cmp.names[i]) + (i == cmp.baseline ? " (baseline)" : "");
            titlePage(doc, QStringLiteral("Design comparison"), names.join(", "),
                      QStringLiteral("%1 designs side by side, deltas against %2. %3")
                          .arg(n)
                          .arg(q(cmp.names[std::min(cmp.baseline, n - 1)]), date));
            doc.heading("Designs");
            Table designs{{{"Design", 2.2},
                           {"GPUs", 1.2, Align::Right},
                           {"Facility power", 1.2, Align::Right},
                           {"Capex", 1.2, Align::Right},
                           {"TCO per year", 1.3, Align::Right},
                           {"Cost per GPU-hour", 1.3, Align::Right}},
                          {},
                          8.0,
                          true};
            for (size_t i = 0; i < n; ++i) {
                const auto& res = *input.results[i];
                designs.rows.push_back(
                    {{names[static_cast<int>(i)], q(formatFigureOf(res, "inventory.gpus")),
                      q(formatFigureOf(res, "power.facility_mw")), q(formatFigureOf(res, "capex.total_usd")),
                      q(formatFigureOf(res, "finance.tco_annual_usd")),
                      q(formatFigureOf(res, "finance.cost_per_gpu_hour_usd"))},
                     false,
                     {}});
            }
            doc.table(designs);

            doc.heading("Figures side by side");
            doc.paragraph(
                QStringLiteral("Each cell shows the value and, below it, the change against the baseline "
                               "%1. Green marks the best design for a figure, red the worst.")
                    .arg(q(cmp.names[std::min(cmp.baseline, n - 1)])));
            Table t{{{"Figure", 2.4}}, {}, n > 4 ? 7.0 : 7.5, true};
            for (size_t i = 0; i < n; ++i)
                t.columns.push_back({q(cmp.names[i]), 1.3, Align::Right});
            for (const auto& row : cmp.rows) {
                Row r{{q(row.label)}, false, {QColor()}};
                for (size_t i = 0; i < n && i < row.values.size(); ++i) {
                    QString cell = q(formatFigureValue(row.key, row.values[i], row.unit));
                    if (i != cmp.baseline && i < row.deltaPercent.size()) {
                        char pct[32];
                        std::snprintf(pct, sizeof pct, "%+.1f%%", row.deltaPercent[i]);
                        cell += QStringLiteral("\n") + pct;
                    }
                    r.cells << cell;
                    r.fills.push_back(static_cast<int>(i) == row.best    ? kBestFill
                                      : static_cast<int>(i) == row.worst ? kWorstFill
                                                                         : QColor());
                }
                t.rows.push_back(r);
            }
            doc.table(t);

            doc.heading("What drives the differences");
            if (cmp.explanations.empty())
                doc.paragraph(QStringLiteral("No headline figure differs by 10% or more from the baseline."));
            for (const auto& e : cmp.explanations)
                doc.paragraph(QStringLiteral("\u2022 ") + q(e));

            doc.heading("Capex by category");
            Table capex{{{"Category", 2.4}}, {}, n > 4 ? 7.0 : 7.5, true};
            for (const auto& name : cmp.names)
                capex.columns.push_back({q(name) + " ($M)", 1.3, Align::Right});
            for (const auto& cat : cost::kCapexCategories) {
                Row r{{q(capexCategoryLabel(cat))}, false, {}};
                for (const auto* res : input.results) {
                    auto it = res->capex.byCategory.find(cat);
                    const double v = it == res->capex.byCategory.end() ? 0.0 : it->second.value();
                    r.cells << q(formatMillions(v));
                }
                capex.rows.push_back(r);
            }
            Row total{{"Total"}, true, {}};
            for (const auto* res : input.results)
                total.cells << q(formatMillions(res->capex.total.value()));
            capex.rows.push_back(total);
            for (const auto& c : comparisonCharts(input))
                if (c.name == "capex_by_category") doc.block(c.heightMm, c.paint);
            doc.table(capex);
        });
}

} // namespace ctwin::app
