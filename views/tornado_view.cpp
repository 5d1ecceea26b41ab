#include "tornado_view.h"

#include "chart_style.h"
#include "scenario_format.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHorizontalBarSeries>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

namespace fmt = scenario_format;

const QColor kLowColor(0x4e, 0x79, 0xa7);  // Tableau 10 blue, as the PDF tornado
const QColor kHighColor(0xf2, 0x8e, 0x2b); // Tableau 10 orange

/// A step of 1, 2 or 5 x 10^k giving about `ticks` intervals over `span` (Heckbert, "Nice numbers for
/// graph labels", Graphics Gems 1990).
double niceStep(double span, int ticks) {
    const double raw = span / ticks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
}

} // namespace

TornadoView::TornadoView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Output:"), this));
    m_output = new QComboBox(this);
    m_output->setMinimumContentsLength(40);
    m_output->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    top->addWidget(m_output, 1);
    m_refresh = new QPushButton(tr("Recompute"), this);
    m_refresh->setToolTip(tr("Recompute with the design as it is now"));
    top->addWidget(m_refresh);
    layout->addLayout(top);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    auto* split = new QSplitter(Qt::Vertical, this);
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    QChartView* chartView = makeChartView(m_chart, split);
    // Room on the right for the last value label of the axis.
    m_chart->setMargins(QMargins(2, 2, 40, 2));
    chartView->setMinimumHeight(420);
    split->addWidget(chartView);
    m_table = new QTableWidget(split);
    m_table->setColumnCount(6);
    m_table->setHorizontalHeaderLabels({tr("Assumption"), tr("Low input"), tr("High input"),
                                        tr("Output at low"), tr("Output at high"), tr("Swing")});
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);

    connect(m_output, &QComboBox::activated, this,
            [this](int index) { emit outputChanged(m_output->itemData(index).toString()); });
    connect(m_refresh, &QPushButton::clicked, this, &TornadoView::refreshRequested);
}

void TornadoView::setOutputs(const std::vector<cost::Figure>& figures, const std::string& current) {
    m_outputs.fill(m_output, figures, current, false);
}

std::string TornadoView::currentOutput() const {
    return m_output->currentData().toString().toStdString();
}

QString TornadoView::message() const {
    return m_message->text();
}

QString TornadoView::outputLabel() const {
    const auto it = m_outputs.labelOf.find(m_tornado.output);
    return QString::fromStdString(it == m_outputs.labelOf.end() ? m_tornado.output : it->second);
}

QString TornadoView::format(double value) const {
    const auto it = m_outputs.unitOf.find(m_tornado.output);
    return fmt::figureValue(m_units, m_tornado.output, value,
                            it == m_outputs.unitOf.end() ? std::string() : it->second);
}

void TornadoView::showError(const QString& message) {
    m_tornado = {};
    m_message->setText(message);
    m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
    fillChart();
    fillTable();
}

void TornadoView::showTornado(const cost::Tornado& tornado) {
    m_tornado = tornado;
    const int idx = m_output->findData(QString::fromStdString(tornado.output));
    if (idx >= 0) {
        const QSignalBlocker block(m_output);
        m_output->setCurrentIndex(idx);
    }
    m_message->setStyleSheet(QString());
    m_message->setText(
        tr("Base value %1; each input (an assumption the design uses, or an entity value with a range) moved "
           "alone to its low and high value, the others at their base. %2 inputs have a range.")
            .arg(format(tornado.base))
            .arg(tornado.bars.size()));
    fillChart();
    fillTable();
}

void TornadoView::fillChart() {
    m_chart->removeAllSeries();
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    m_series = new QHorizontalBarSeries;
    const auto& t = m_tornado;
    const int shown = std::min<int>(kChartBars, static_cast<int>(t.bars.size()));
    // Bars run from the base (0 on the axis) to each end's output; Qt draws the first category at the
    // bottom, so the widest swing goes in last to sit on top.
    auto* low = new QBarSet(tr("At the assumption's low"));
    auto* high = new QBarSet(tr("At the assumption's high"));
    low->setColor(kLowColor);
    low->setBorderColor(kLowColor.darker(115));
    high->setColor(kHighColor);
    high->setBorderColor(kHighColor.darker(115));
    QStringList categories;
    double lo = 0, hi = 0;
    for (int i = shown - 1; i >= 0; --i) {
        const auto& b = t.bars[static_cast<size_t>(i)];
        categories << QStringLiteral("%1  [%2 – %3]")
                          .arg(fmt::assumptionLabel(b.assumption), fmt::inputValue(b.inputLow),
                               fmt::inputValue(b.inputHigh));
        const double dl = b.outputAtLow - t.base, dh = b.outputAtHigh - t.base;
        low->append(dl);
        high->append(dh);
        lo = std::min({lo, dl, dh});
        hi = std::max({hi, dl, dh});
    }
    m_series->append(low);
    m_series->append(high);
    m_series->setBarWidth(0.8);
    m_chart->addSeries(m_series);
    const auto hover = [this](bool on, int index, QBarSet* set) {
        const int bar = static_cast<int>(set->count()) - 1 - index;
        if (!on || bar < 0 || bar >= static_cast<int>(m_tornado.bars.size())) {
            QToolTip::hideText();
            return;
        }
        const auto& b = m_tornado.bars[static_cast<size_t>(bar)];
        const bool isLow = set->label() == tr("At the assumption's low");
        QToolTip::showText(QCursor::pos(), tr("%1 = %2 → %3")
                                               .arg(fmt::assumptionLabel(b.assumption),
                                                    fmt::inputValue(isLow ? b.inputLow : b.inputHigh),
                                                    format(isLow ? b.outputAtLow : b.outputAtHigh)));
    };
    connect(low, &QBarSet::hovered, this, [hover, low](bool on, int i) { hover(on, i, low); });
    connect(high, &QBarSet::hovered, this, [hover, high](bool on, int i) { hover(on, i, high); });

    auto* y = new QBarCategoryAxis;
    y->append(categories);
    // Qt Charts elides category labels that do not fit their band; a smaller font keeps 12 of them whole.
    QFont small = font();
    small.setPointSizeF(std::max(6.5, small.pointSizeF() * 0.85));
    y->setLabelsFont(small);
    m_chart->addAxis(y, Qt::AlignLeft);
    m_series->attachAxis(y);

    // The value axis is labelled with the output itself (base + offset), so a reader sees "$2.10 … $2.60"
    // rather than deltas. QCategoryAxis needs unique labels: when rounding would repeat one, label the
    // offsets from the base instead.
    const double span = hi - lo > 0 ? hi - lo : std::max(1e-9, std::abs(t.base) * 0.1 + 1e-9);
    const double step = niceStep(span, 6);
    const double from = std::floor((lo - 0.02 * span) / step) * step;
    const double to = std::ceil((hi + 0.02 * span) / step) * step;
    auto* x = new QCategoryAxis;
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    x->setRange(from, to);
    x->setStartValue(from);
    QSet<QString> seen;
    bool unique = true;
    QList<std::pair<QString, double>> ticks;
    for (double v = from; v <= to + step * 0.5; v += step) {
        const double tick = std::abs(v) < step * 1e-6 ? 0.0 : v;
        // "$2.31/GPU-h" -> "$2.31": the per-unit suffix is in the axis title, and long tick labels get
        // elided when the tab is narrow.
        QString label = format(t.base + tick);
        if (const auto slash = label.indexOf(QLatin1Char('/')); slash > 0) label.truncate(slash);
        unique = unique && !seen.contains(label);
        seen.insert(label);
        ticks.append({label, tick});
    }
    const auto it = m_outputs.unitOf.find(t.output);
    for (const auto& [label, tick] : ticks)
        x->append(unique ? label
                         : fmt::figureDelta(m_units, t.output, tick,
                                            it == m_outputs.unitOf.end() ? std::string() : it->second),
                  tick);
    const QString title = unique ? tr("%1 (base %2)") : tr("Change of %1 from the base %2");
    x->setTitleText(t.output.empty() ? QString() : title.arg(outputLabel(), format(t.base)));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_series->attachAxis(x);
    m_chart->setTitle(t.output.empty() ? QString()
                                       : tr("Sensitivity of %1: the %2 widest of %3 assumptions")
                                             .arg(outputLabel())
                                             .arg(shown)
                                             .arg(t.bars.size()));
    styleChartForPalette(m_chart, palette());
}

void TornadoView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (QChart* chart : {m_chart})
            styleChartForPalette(chart, palette());
}

void TornadoView::fillTable() {
    const auto& t = m_tornado;
    m_table->setRowCount(static_cast<int>(t.bars.size()));
    for (size_t i = 0; i < t.bars.size(); ++i) {
        const auto& b = t.bars[i];
        const int r = static_cast<int>(i);
        auto* name = new QTableWidgetItem(fmt::assumptionLabel(b.assumption));
        name->setData(Qt::UserRole, QString::fromStdString(b.assumption));
        name->setToolTip(QString::fromStdString(b.assumption));
        m_table->setItem(r, 0, name);
        auto number = [&](int col, double v, const QString& text) {
            auto* item = new QTableWidgetItem(text);
            item->setData(kValueRole, v);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, col, item);
        };
        number(1, b.inputLow, fmt::inputValue(b.inputLow));
        number(2, b.inputHigh, fmt::inputValue(b.inputHigh));
        number(3, b.outputAtLow, b.definedAtLow ? format(b.outputAtLow) : tr("n/a"));
        number(4, b.outputAtHigh, b.definedAtHigh ? format(b.outputAtHigh) : tr("n/a"));
        const auto it = m_outputs.unitOf.find(t.output);
        const std::string unit = it == m_outputs.unitOf.end() ? std::string() : it->second;
        number(5, b.swing,
               b.swing == 0.0 ? QStringLiteral("0") : fmt::figureValue(m_units, t.output, b.swing, unit));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

} // namespace ctwin::views
