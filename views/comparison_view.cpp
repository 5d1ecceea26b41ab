#include "comparison_view.h"

#include "chart_style.h"
#include "scenario_format.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

namespace fmt = scenario_format;

/// Drops the series and axes of a chart before it is filled again.
void clearChart(QChart* chart) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
        chart->removeAxis(axis);
        delete axis;
    }
}

/// A value axis from 0 (or the lowest negative value) to a little above the highest bar, on nice numbers.
QValueAxis* valueAxis(double lo, double hi, const QString& title) {
    auto* axis = new QValueAxis;
    axis->setRange(std::min(0.0, lo * 1.1), hi > 0 ? hi * 1.15 : 1.0);
    axis->applyNiceNumbers();
    axis->setTitleText(title);
    return axis;
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Baseline:"), this));
    m_baseline = new QComboBox(this);
    m_baseline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_baseline->setToolTip(tr("Deltas and percentages are against this design"));
    top->addWidget(m_baseline);
    top->addStretch(1);
    m_refresh = new QPushButton(tr("Recompute"), this);
    m_refresh->setToolTip(tr("Evaluate the open design as it is now against the same other designs"));
    top->addWidget(m_refresh);
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setToolTip(
        tr("Write the comparison as PDF, XLSX, JSON, CSV tables or its chart as PNG and SVG"));
    top->addWidget(m_export);
    layout->addLayout(top);

    m_designs = new QLabel(this);
    m_designs->setWordWrap(true);
    m_designs->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_designs);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_table = new QTableWidget(split);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    split->addWidget(m_table);

    auto* charts = new QWidget(split);
    auto* chartRow = new QHBoxLayout(charts);
    chartRow->setContentsMargins(0, 0, 0, 0);
    m_capexChart = new QChart;
    m_capexChart->setTitle(tr("Capex by category"));
    m_capexChart->legend()->setAlignment(Qt::AlignRight);
    m_capexChart->legend()->setFont(QFont(font().family(), 7));
    m_gpuHourChart = new QChart;
    m_gpuHourChart->setTitle(tr("Cost per GPU-hour"));
    m_gpuHourChart->legend()->hide();
    m_tokenChart = new QChart;
    m_tokenChart->setTitle(tr("Cost per million tokens"));
    m_tokenChart->legend()->setAlignment(Qt::AlignBottom);
    for (const auto& [chart, stretch] :
         {std::pair{m_capexChart, 3}, {m_gpuHourChart, 2}, {m_tokenChart, 2}}) {
        QChartView* view = makeChartView(chart, charts);
        view->setMinimumSize(280, 240);
        chartRow->addWidget(view, stretch);
    }
    split->addWidget(charts);

    m_explanations = new QLabel(split);
    m_explanations->setWordWrap(true);
    m_explanations->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_explanations->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_explanations->setMargin(4);
    auto* scroll = new QScrollArea(split);
    scroll->setWidget(m_explanations);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    split->addWidget(scroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    layout->addWidget(split, 1);

    connect(m_baseline, &QComboBox::activated, this, [this](int index) {
        if (index >= 0 && static_cast<size_t>(index) != m_comparison.baseline)
            emit baselineChangeRequested(index);
    });
    connect(m_export, &QPushButton::clicked, this, &ComparisonView::exportRequested);
    connect(m_refresh, &QPushButton::clicked, this, &ComparisonView::refreshRequested);
}

QString ComparisonView::shortName(size_t design) const {
    // Chart axes have room for a few words: the number ties a bar to the table's column.
    QString name = QString::fromStdString(m_comparison.names[design]);
    if (name.size() > 24) name = name.left(22).trimmed() + QStringLiteral("…");
    return QStringLiteral("%1 %2").arg(design + 1).arg(name);
}

QString ComparisonView::axisName(size_t design) const {
    // The category axis elides a label to the bar's width, so designs whose names begin alike all read
    // "Two-si…": the name goes on up to three lines of about 14 characters, broken at words
    // (Qt Charts axis labels are rich text).
    const QString name = QString::fromStdString(m_comparison.names[design]);
    QStringList lines;
    QString line = QString::number(design + 1);
    for (const QString& word : name.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && line.size() + 1 + word.size() > 14) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty()) lines << line;
    if (lines.size() > 3) {
        lines = lines.mid(0, 3);
        lines.back() += QStringLiteral("…");
    }
    for (QString& l : lines)
        l = l.toHtmlEscaped();
    return lines.join(QStringLiteral("<br>"));
}

int ComparisonView::rowOf(const std::string& key) const {
    for (size_t i = 0; i < m_comparison.rows.size(); ++i)
        if (m_comparison.rows[i].key == key) return static_cast<int>(i);
    return -1;
}

int ComparisonView::valueColumn(size_t design) const {
    // Per design: value, then (not for the baseline) delta and percent.
    int col = 2;
    for (size_t i = 0; i < design; ++i)
        col += i == m_comparison.baseline ? 1 : 3;
    return col;
}

int ComparisonView::deltaColumn(size_t design) const {
    return design == m_comparison.baseline ? -1 : valueColumn(design) + 1;
}

int ComparisonView::percentColumn(size_t design) const {
    return design == m_comparison.baseline ? -1 : valueColumn(design) + 2;
}

void ComparisonView::showComparison(const cost::Comparison& comparison,
                                    const std::vector<cost::Results>& results) {
    m_comparison = comparison;
    const QSignalBlocker block(m_baseline);
    m_baseline->clear();
    QStringList designLines;
    for (size_t i = 0; i < m_comparison.names.size(); ++i) {
        const QString name = QString::fromStdString(m_comparison.names[i]);
        m_baseline->addItem(QStringLiteral("%1  %2").arg(i + 1).arg(name));
        designLines << QStringLiteral("<b>%1</b> %2%3")
                           .arg(i + 1)
                           .arg(name.toHtmlEscaped(),
                                i == m_comparison.baseline ? tr(" (baseline)") : QString());
    }
    m_baseline->setCurrentIndex(static_cast<int>(m_comparison.baseline));
    m_designs->setText(designLines.join(QStringLiteral(" &nbsp;·&nbsp; ")));
    fillTable();
    fillCharts(results);

    QString text;
    if (m_comparison.explanations.empty())
        text = tr("No headline figure differs from the baseline by 10 % or more.");
    for (const auto& e : m_comparison.explanations)
        text += QStringLiteral("• ") + QString::fromStdString(e).toHtmlEscaped() + QStringLiteral("<br>");
    m_explanations->setText(text);
}

void ComparisonView::fillTable() {
    const auto& c = m_comparison;
    const size_t n = c.names.size();
    m_table->setUpdatesEnabled(false);
    m_table->clear();
    m_table->setRowCount(static_cast<int>(c.rows.size()));
    m_table->setColumnCount(n == 0 ? 2 : valueColumn(n - 1) + (n - 1 == c.baseline ? 1 : 3));
    auto header = [this](int col, const QString& text, const QString& tip, bool bold = false) {
        auto* item = new QTableWidgetItem(text);
        item->setToolTip(tip);
        if (bold) {
            QFont f = item->font();
            f.setBold(true);
            item->setFont(f);
        }
        m_table->setHorizontalHeaderItem(col, item);
    };
    header(0, tr("Figure"), QString());
    header(1, tr("Unit"), QString());
    for (size_t d = 0; d < n; ++d) {
        const QString name = QString::fromStdString(c.names[d]);
        if (d == c.baseline) {
            header(valueColumn(d), tr("%1 (baseline)").arg(d + 1), name, true);
            continue;
        }
        header(valueColumn(d), QString::number(d + 1), name);
        header(deltaColumn(d), tr("Δ %1").arg(d + 1), tr("%1 minus the baseline").arg(name));
        header(percentColumn(d), tr("Δ% %1").arg(d + 1), tr("%1 against the baseline, in percent").arg(name));
    }

    for (size_t r = 0; r < c.rows.size(); ++r) {
        const auto& row = c.rows[r];
        const int ri = static_cast<int>(r);
        auto* label = new QTableWidgetItem(QString::fromStdString(row.label));
        label->setToolTip(QString::fromStdString(row.key));
        m_table->setItem(ri, 0, label);
        m_table->setItem(ri, 1, new QTableWidgetItem(QString::fromStdString(row.unit)));
        for (size_t d = 0; d < n && d < row.values.size(); ++d) {
            auto* value = new QTableWidgetItem(fmt::figureValue(m_units, row.key, row.values[d], row.unit));
            value->setData(kValueRole, row.values[d]);
            value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            value->setToolTip(QStringLiteral("%1: %2")
                                  .arg(QString::fromStdString(c.names[d]))
                                  .arg(row.values[d], 0, 'g', 10));
            const bool best = static_cast<int>(d) == row.best, worst = static_cast<int>(d) == row.worst;
            if (best || worst) {
                value->setBackground(best ? kBestColor : kWorstColor);
                value->setForeground(QColor(0x20, 0x20, 0x20));
                value->setToolTip(value->toolTip() + (best ? tr(" (best)") : tr(" (worst)")));
            }
            if (d == c.baseline) {
                QFont f = value->font();
                f.setBold(true);
                value->setFont(f);
            }
            m_table->setItem(ri, valueColumn(d), value);
            if (d == c.baseline) continue;
            auto* delta =
                new QTableWidgetItem(fmt::figureDelta(m_units, row.key, row.deltaAbsolute[d], row.unit));
            delta->setData(kValueRole, row.deltaAbsolute[d]);
            delta->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(ri, deltaColumn(d), delta);
            // The engine reports 0 % against a zero baseline; a change from nothing has no percentage.
            const bool fromZero = row.values[c.baseline] == 0.0 && row.deltaAbsolute[d] != 0.0;
            auto* pct =
                new QTableWidgetItem(fromZero ? QStringLiteral("—") : fmt::percentDelta(row.deltaPercent[d]));
            if (fromZero) pct->setToolTip(tr("The baseline is zero: no percentage"));
            pct->setData(kValueRole, row.deltaPercent[d]);
            pct->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(ri, percentColumn(d), pct);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), 320));
    m_table->setUpdatesEnabled(true);
}

void ComparisonView::fillCharts(const std::vector<cost::Results>& results) {
    const size_t n = std::min(results.size(), m_comparison.names.size());
    QStringList names;
    for (size_t d = 0; d < n; ++d)
        names << axisName(d);

    // Capex: one stacked column per design, one segment per category, in $M or $B by the largest total.
    clearChart(m_capexChart);
    double maxTotal = 0;
    for (size_t d = 0; d < n; ++d)
        maxTotal = std::max(maxTotal, results[d].capex.total.value());
    const double scale = maxTotal >= 5e9 ? 1e9 : 1e6;
    const QString scaleName = scale == 1e9 ? QStringLiteral("B") : QStringLiteral("M");
    auto* stacked = new QStackedBarSeries;
    int ci = 0;
    for (const auto& cat : cost::kCapexCategories) {
        const QColor color = categoricalColor(ci++);
        bool any = false;
        QList<qreal> values;
        for (size_t d = 0; d < n; ++d) {
            const auto it = results[d].capex.byCategory.find(cat);
            const double v = it == results[d].capex.byCategory.end() ? 0.0 : it->second.value();
            any = any || v > 0;
            values << v / scale;
        }
        if (!any) continue; // a category no design has would be a legend entry without a bar
        auto* set = new QBarSet(capexCategoryLabel(cat));
        set->append(values);
        set->setColor(color);
        set->setBorderColor(color.darker(115));
        stacked->append(set);
    }
    stacked->setBarWidth(0.6);
    m_capexChart->addSeries(stacked);
    auto* capexX = new QBarCategoryAxis;
    capexX->append(names);
    m_capexChart->addAxis(capexX, Qt::AlignBottom);
    auto* capexY = valueAxis(0, maxTotal / scale, QStringLiteral("%1%2").arg(m_units.currency, scaleName));
    capexY->setLabelFormat(QStringLiteral("%.0f"));
    m_capexChart->addAxis(capexY, Qt::AlignLeft);
    stacked->attachAxis(capexX);
    stacked->attachAxis(capexY);

    // One bar per design for a per-unit cost; designs without the figure get no bar and "n/a" in the table.
    auto fillBars = [&](QChart* chart, const std::vector<std::pair<QString, std::string>>& sets,
                        const QString& unit) {
        clearChart(chart);
        auto* series = new QBarSeries;
        double lo = 0, hi = 0;
        int si = 0;
        bool allDefined = true;
        for (const auto& [label, key] : sets) {
            QList<qreal> values;
            QList<bool> present;
            bool any = false;
            for (size_t d = 0; d < n; ++d) {
                const cost::Figure* f = results[d].figure(key);
                values << (f ? f->value : 0.0);
                present << (f != nullptr);
                any = any || f;
                if (f) lo = std::min(lo, f->value), hi = std::max(hi, f->value);
            }
            if (!any) continue;
            auto* set = new QBarSet(label);
            set->append(values);
            set->setColor(categoricalColor(si++));
            set->setLabelColor(palette().color(QPalette::WindowText));
            QVariantList presentList;
            for (bool p : present)
                presentList << p;
            set->setProperty("present", presentList);
            series->append(set);
            allDefined = allDefined &&
                         static_cast<int>(std::count(present.begin(), present.end(), true)) == set->count();
        }
        // Value labels only when every bar has a value: a missing figure is drawn as 0 and must not read
        // "$0" (the table says "n/a" and the tooltip tells which).
        series->setLabelsVisible(allDefined);
        series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
        series->setLabelsFormat(m_units.currency + QStringLiteral("@value"));
        series->setLabelsPrecision(hi >= 100 ? 5 : 3);
        connect(series, &QAbstractBarSeries::hovered, chart, [this](bool on, int index, QBarSet* set) {
            if (!on) {
                QToolTip::hideText();
                return;
            }
            const bool has = set->property("present").toList().value(index).toBool();
            QToolTip::showText(
                QCursor::pos(),
                QStringLiteral("%1 — %2: %3")
                    .arg(shortName(static_cast<size_t>(index)), set->label(),
                         has ? m_units.currency + QString::number(set->at(index), 'g', 4) : tr("n/a")));
        });
        chart->addSeries(series);
        auto* x = new QBarCategoryAxis;
        x->append(names);
        chart->addAxis(x, Qt::AlignBottom);
        auto* y = valueAxis(lo, hi, unit);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        return series->count() > 0;
    };
    fillBars(m_gpuHourChart, {{tr("Cost per GPU-hour"), "finance.cost_per_gpu_hour_usd"}},
             tr("%1 per GPU-hour").arg(m_units.currency));
    const bool tokens = fillBars(m_tokenChart,
                                 {{tr("Inference output"), "inference.cost_per_million_output_tokens_usd"},
                                  {tr("Inference input"), "inference.cost_per_million_input_tokens_usd"},
                                  {tr("Training"), "training.cost_per_million_tokens_usd"}},
                                 tr("%1 per million tokens").arg(m_units.currency));
    m_tokenChart->setTitle(tokens ? tr("Cost per million tokens")
                                  : tr("Cost per million tokens (no design has a workload)"));
    for (QChart* chart : {m_capexChart, m_gpuHourChart, m_tokenChart})
        styleChartForPalette(chart, palette());
}

void ComparisonView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (QChart* chart : {m_capexChart, m_gpuHourChart, m_tokenChart})
            styleChartForPalette(chart, palette());
}

} // namespace ctwin::views
