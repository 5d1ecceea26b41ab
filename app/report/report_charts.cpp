#include "report/report_charts.h"

#include "input_error.h"
#include "report/atomic_file.h"
#include "report/pdf_charts.h"
#include "report/pdf_layout.h"
#include "report/report_format.h"
#include "results_json.h"
#include "timeline.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ctwin::app {

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString moneyText(double usd) {
    return q(formatMoney(usd));
}

/// An assumption's input value as a reader writes it: "0.6", "0.95", "4", "50,000".
QString inputText(double v) {
    return std::abs(v) >= 1000 ? q(cost::formatHuman(v, "")) : QString::number(v, 'g', 4);
}

/// Charts are as wide as the report page's content.
constexpr double kWidthMm = PdfLayout::kContentWidthMm;
/// PNG resolution: print quality for slides and documents.
constexpr double kPngDpi = 300.0;
/// SVG user units per inch: 90 is QSvgGenerator's default and what Inkscape and browsers assume for px.
constexpr int kSvgDpi = 90;

int toDots(double mm, double dpi) {
    return static_cast<int>(std::lround(mm / 25.4 * dpi));
}

} // namespace

std::vector<ReportChart> reportCharts(const ReportInput& input) {
    if (!input.project || !input.results)
        throw std::invalid_argument("reportCharts: project and results are required");
    const auto& r = *input.results;
    std::vector<ReportChart> charts;

    // Capex by category: one bar per category with its cost and share (cost/capex.cpp).
    std::vector<BarItem> bars;
    for (size_t i = 0; i < cost::kCapexCategories.size(); ++i) {
        const auto& cat = cost::kCapexCategories[i];
        const auto it = r.capex.byCategory.find(cat);
        const double v = it == r.capex.byCategory.end() ? 0.0 : it->second.value();
        bars.push_back({q(capexCategoryLabel(cat)), v,
                        moneyText(v) + QStringLiteral("  ") + q(formatPercent(r.capex.share(cat))),
                        chartColor(i)});
    }
    charts.push_back({"capex_by_category", QStringLiteral("Capex by category"), 72.0,
                      [bars](QPainter& p, const QRectF& rect) { drawHorizontalBars(p, rect, bars); }});

    // Yearly net cash flow (year 0 = capex) and its running sum (cost/finance.cpp).
    std::vector<double> net, cumulative;
    double sum = 0;
    for (const auto& cf : r.finance.cashFlows) {
        sum += cf.value();
        net.push_back(cf.value());
        cumulative.push_back(sum);
    }
    charts.push_back({"cash_flow", QStringLiteral("Yearly cash flow"), 62.0,
                      [net, cumulative](QPainter& p, const QRectF& rect) {
                          drawCashFlowChart(p, rect, net, cumulative, moneyText);
                      }});

    // The time axis (cost/timeline.h): each 12 months from the build start, the net cash flow
    // without the terminal value, and its running sum (the funding the phased build needs).
    if (r.timeline && !r.timeline->months.empty()) {
        std::vector<double> yearNet, yearCumulative;
        const auto& months = r.timeline->months;
        for (size_t y0 = 0; y0 < months.size(); y0 += 12) {
            double net = 0;
            const size_t y1 = std::min(months.size(), y0 + 12);
            for (size_t m = y0; m < y1; ++m)
                net += (months[m].cashFlow - months[m].terminalValue).value();
            yearNet.push_back(net);
            yearCumulative.push_back(months[y1 - 1].cumulative.value());
        }
        charts.push_back({"timeline_cash",
                          QStringLiteral("Cash by year of the time axis (phased, no terminal value)"), 62.0,
                          [yearNet, yearCumulative](QPainter& p, const QRectF& rect) {
                              drawCashFlowChart(p, rect, yearNet, yearCumulative, moneyText);
                          }});
    }

    if (input.tornado && !input.tornado->bars.empty()) {
        const auto& t = *input.tornado;
        std::vector<TornadoItem> items;
        for (size_t i = 0; i < t.bars.size() && i < kMaxTornadoBars; ++i) {
            // "electricity usd per kwh [0.04 – 0.1]": the assumption and the range it was moved over.
            const auto& bar = t.bars[i];
            QString label = q(bar.assumption).replace(QLatin1Char('_'), QLatin1Char(' '));
            label += QStringLiteral(" [%1 \u2013 %2]").arg(inputText(bar.inputLow), inputText(bar.inputHigh));
            items.push_back({label, bar.outputAtLow, bar.outputAtHigh});
        }
        const auto* f = r.figure(t.output);
        const std::string unit = f ? f->unit : std::string();
        const std::string key = t.output;
        charts.push_back({"sensitivity",
                          QStringLiteral("Sensitivity of %1").arg(f ? q(f->label) : q(t.output)),
                          22.0 + 7.5 * static_cast<double>(items.size()),
                          [items, base = t.base, key, unit](QPainter& p, const QRectF& rect) {
                              drawTornado(p, rect, items, base,
                                          [&](double v) { return q(formatFigureValue(key, v, unit)); });
                          }});
    }
    return charts;
}

std::vector<ReportChart> comparisonCharts(const ComparisonInput& input) {
    const auto& names = input.comparison.names;
    if (input.results.size() != names.size())
        throw std::invalid_argument("comparisonCharts: one result per design name is required");
    std::vector<QString> columns, series;
    std::vector<std::vector<double>> values;
    for (const auto& name : names)
        columns.push_back(q(name));
    for (const auto& cat : cost::kCapexCategories) {
        series.push_back(q(capexCategoryLabel(cat)));
        values.emplace_back();
        for (const auto* res : input.results) {
            const auto it = res->capex.byCategory.find(cat);
            values.back().push_back(it == res->capex.byCategory.end() ? 0.0 : it->second.value());
        }
    }
    return {{"capex_by_category", QStringLiteral("Capex by category"), 85.0,
             [columns, series, values](QPainter& p, const QRectF& rect) {
                 drawStackedColumns(p, rect, columns, series, values, moneyText);
             }}};
}

void writeCharts(const std::vector<ReportChart>& charts, const std::string& directory) {
    if (!qobject_cast<QGuiApplication*>(QCoreApplication::instance()))
        throw std::logic_error("chart images need a QGuiApplication (for fonts); create one first, with "
                               "QT_QPA_PLATFORM=offscreen when headless");
    AtomicDirectory dir(directory);
    for (const auto& chart : charts) {
        // PNG: the chart at 300 dpi on white, the size it has on the report page.
        {
            AtomicFile& file = dir.file(chart.name + ".png");
            QImage image(toDots(kWidthMm, kPngDpi), toDots(chart.heightMm, kPngDpi), QImage::Format_RGB32);
            const int dotsPerMetre = static_cast<int>(std::lround(kPngDpi / 0.0254));
            image.setDotsPerMeterX(dotsPerMetre);
            image.setDotsPerMeterY(dotsPerMetre);
            image.fill(Qt::white);
            {
                QPainter p(&image);
                p.setRenderHint(QPainter::Antialiasing);
                p.setRenderHint(QPainter::TextAntialiasing);
                chart.paint(p, QRectF(0, 0, image.width(), image.height()));
            }
            if (!image.save(QString::fromStdString(file.tempPath()), "PNG"))
                file.fail("cannot write the PNG image");
        }
        // SVG: the same painting as vectors, text as text.
        {
            AtomicFile& file = dir.file(chart.name + ".svg");
            QSvgGenerator svg;
            svg.setFileName(QString::fromStdString(file.tempPath()));
            svg.setResolution(kSvgDpi);
            const QSize size(toDots(kWidthMm, kSvgDpi), toDots(chart.heightMm, kSvgDpi));
            svg.setSize(size);
            svg.setViewBox(QRect(QPoint(0, 0), size));
            svg.setTitle(chart.title);
            svg.setDescription(QStringLiteral("ClusterTwin report chart"));
            QPainter p;
            if (!p.begin(&svg)) file.fail("cannot write the SVG image");
            p.fillRect(QRectF(0, 0, size.width(), size.height()), Qt::white);
            chart.paint(p, QRectF(0, 0, size.width(), size.height()));
            if (!p.end()) file.fail("cannot write the SVG image");
        }
    }
    dir.commit();
}

} // namespace ctwin::app
