#include "metrics_dashboard.h"

#include "chart_style.h"
#include "metric_tile.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPieSeries>
#include <QStackedBarSeries>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

QChartView* dashboardChartView(QChart* chart, QWidget* parent) {
    QChartView* view = makeChartView(chart, parent);
    view->setMinimumSize(260, 200);
    return view;
}

} // namespace

MetricsDashboard::MetricsDashboard(QWidget* parent) : QWidget(parent) {
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(4, 4, 4, 4);
    auto* tiles = new QGridLayout;
    tiles->setSpacing(4);
    grid->addLayout(tiles, 0, 0);
    const struct {
        const char* key;
        const char* caption;
    } tileDefs[] = {{"gpus", QT_TR_NOOP("GPUs")},
                    {"it_power", QT_TR_NOOP("IT power (annual average)")},
                    {"facility_power", QT_TR_NOOP("Facility power (annual average)")},
                    {"pue", QT_TR_NOOP("PUE")},
                    {"goodput", QT_TR_NOOP("Goodput")},
                    {"tokens_per_mw", QT_TR_NOOP("Output tokens/s per provisioned MW")},
                    {"cost_per_gpu_hour", QT_TR_NOOP("Cost per GPU-hour")},
                    // One tile, one meaning: a training job's and a service's cost per token are
                    // different figures, each with its basis in the caption, never one tile switching.
                    {"cost_per_m_training_tokens", QT_TR_NOOP("Training: cost per M tokens")},
                    {"cost_per_m_output_tokens", QT_TR_NOOP("Serving: cost per M output tokens")}};
    int n = 0;
    for (const auto& t : tileDefs) {
        auto* tile = new MetricTile(tr(t.caption), this);
        tiles->addWidget(tile, n / kTileColumns, n % kTileColumns);
        m_tiles.insert(QString::fromLatin1(t.key), tile);
        ++n;
    }

    m_pie = new QPieSeries;
    m_pie->setPieSize(0.62);
    m_pieChart = new QChart;
    m_pieChart->addSeries(m_pie);
    m_pieChart->setTitle(tr("Capex by category"));
    m_pieChart->legend()->setAlignment(Qt::AlignRight);
    m_pieChart->legend()->setFont(QFont(font().family(), 7));
    connect(m_pie, &QPieSeries::hovered, this, [this](QPieSlice* slice, bool on) {
        slice->setExploded(on);
        if (on)
            QToolTip::showText(QCursor::pos(),
                               slice->property("tooltip").isValid()
                                   ? slice->property("tooltip").toString()
                                   : tooltipFor(slice->property("figure").toString().toStdString()));
        else
            QToolTip::hideText();
    });
    grid->addWidget(dashboardChartView(m_pieChart, this), 0, 1);

    m_waterBase = new QBarSet(QStringLiteral("base"));
    m_waterBase->setColor(Qt::transparent);
    m_waterBase->setBorderColor(Qt::transparent);
    m_waterUp = new QBarSet(tr("Cost"));
    m_waterUp->setColor(QColor(0x4e, 0x79, 0xa7));
    m_waterTotal = new QBarSet(tr("Total"));
    m_waterTotal->setColor(QColor(0xe1, 0x57, 0x59));
    m_waterSeries = new QStackedBarSeries;
    m_waterSeries->append(m_waterBase);
    m_waterSeries->append(m_waterUp);
    m_waterSeries->append(m_waterTotal);
    m_waterSeries->setBarWidth(0.7);
    m_waterChart = new QChart;
    m_waterChart->addSeries(m_waterSeries);
    m_waterChart->setTitle(tr("Annual cost waterfall"));
    m_waterChart->legend()->hide();
    m_waterX = new QBarCategoryAxis;
    m_waterY = new QValueAxis;
    m_waterY->setLabelFormat(QStringLiteral("%.0f"));
    m_waterChart->addAxis(m_waterX, Qt::AlignBottom);
    m_waterChart->addAxis(m_waterY, Qt::AlignLeft);
    m_waterSeries->attachAxis(m_waterX);
    m_waterSeries->attachAxis(m_waterY);
    const auto hover = [this](bool on, int index) {
        if (on && index >= 0 && index < m_waterKeys.size())
            QToolTip::showText(QCursor::pos(), tooltipFor(m_waterKeys.at(index).toStdString()));
        else if (!on)
            QToolTip::hideText();
    };
    connect(m_waterUp, &QBarSet::hovered, this, hover);
    connect(m_waterTotal, &QBarSet::hovered, this, hover);
    grid->addWidget(dashboardChartView(m_waterChart, this), 0, 2);

    auto* chain = new QHBoxLayout;
    chain->setSpacing(6);
    auto arrow = [this] {
        auto* a = new QLabel(QStringLiteral("→"), this);
        a->setForegroundRole(QPalette::PlaceholderText);
        return a;
    };
    m_chainCapex = chainStep();
    m_chainAnnual = chainStep();
    m_chainTco = chainStep();
    m_chainGpuHour = chainStep();
    m_chainTokens = chainStep();
    chain->addWidget(m_chainCapex);
    chain->addWidget(arrow());
    chain->addWidget(m_chainAnnual);
    chain->addWidget(arrow());
    chain->addWidget(m_chainTco);
    chain->addWidget(arrow());
    chain->addWidget(m_chainGpuHour);
    chain->addWidget(arrow());
    chain->addWidget(m_chainTokens);
    chain->addStretch(1);
    grid->addLayout(chain, 1, 0, 1, 3);
    m_uncertaintyLine = new QLabel(this);
    m_uncertaintyLine->setTextFormat(Qt::RichText);
    m_uncertaintyLine->setVisible(false);
    grid->addWidget(m_uncertaintyLine, 2, 0, 1, 3);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(2, 1);
    styleCharts();
}

QLabel* MetricsDashboard::chainStep() {
    auto* l = new QLabel(this);
    l->setFrameShape(QFrame::StyledPanel);
    l->setMargin(3);
    return l;
}

void MetricsDashboard::setUnits(const DisplayUnits& units) {
    m_units = units;
}

void MetricsDashboard::styleCharts() {
    for (QChart* c : {m_pieChart, m_waterChart})
        styleChartForPalette(c, palette());
}

void MetricsDashboard::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) styleCharts();
}

QString MetricsDashboard::tooltipFor(const std::string& key) const {
    const auto it = m_figures.find(key);
    return it == m_figures.end() ? QString() : DisplayUnits::provenanceTooltip(it->second);
}

void MetricsDashboard::setTile(const QString& key, const cost::Figure* f, const QString& missing) {
    if (auto* t = m_tiles.value(key)) {
        if (f)
            t->setValue(m_units.formatFigure(*f), DisplayUnits::provenanceTooltip(*f));
        else
            t->setValue(QStringLiteral("—"), missing);
    }
}

void MetricsDashboard::setChain(QLabel* label, const QString& caption, const cost::Figure* f) {
    if (!f) {
        label->setText(caption + QStringLiteral(" —"));
        label->setToolTip(QString());
        return;
    }
    label->setText(QStringLiteral("%1 <b>%2</b>").arg(caption, m_units.formatFigure(*f).toHtmlEscaped()));
    label->setToolTip(DisplayUnits::provenanceTooltip(*f));
}

/// The headline tiles (with the serving tile's climate line) and the grey "updating" state of their ranges;
/// returns the cost figures the chain below them repeats.
MetricsDashboard::CostTiles MetricsDashboard::showTiles(const cost::Results& r) {
    const auto fig = [&](const char* key) { return r.figure(key); };

    const cost::Figure* gpus = fig("inventory.gpus");
    const bool noGpus = !gpus || gpus->value <= 0;
    setTile(QStringLiteral("gpus"), gpus);
    setTile(QStringLiteral("it_power"), fig("power.it_mw"));
    setTile(QStringLiteral("facility_power"), fig("power.facility_mw"));
    setTile(QStringLiteral("pue"), fig("power.pue"));
    // Goodput is a training job's figure (interruptions, checkpoints, restarts); without a job the engine
    // carries the assumption for the finance, which is not a property of this design to show as one.
    const cost::Figure* goodput = fig("reliability.goodput");
    setTile(QStringLiteral("goodput"), r.training.empty() ? nullptr : goodput,
            goodput ? tr("Goodput is modelled for a training job; the design has none.\nThe finance uses "
                         "the goodput assumption (%1).")
                          .arg(m_units.formatFigure(*goodput))
                    : tr("Goodput is modelled for a training job; the design has none."));
    setTile(QStringLiteral("tokens_per_mw"), fig("inference.output_tokens_per_s_per_mw"),
            tr("The design has no inference service."));
    // What a million output tokens cost the climate, on the serving tile's second line.
    m_envText.clear(), m_envTooltip.clear();
    if (const auto* carbon = fig("environment.carbon_gco2e_per_million_output_tokens_location_based")) {
        const auto* water = fig("environment.water_l_per_million_output_tokens_onsite");
        const auto* kwh = fig("environment.facility_kwh_per_million_output_tokens");
        m_envText = tr("%1 gCO₂e · %2 L water per M output tokens")
                        .arg(QString::number(carbon->value, 'f', 1),
                             QString::number(water ? water->value : 0.0, 'f', 2));
        m_envTooltip =
            tr("Per million output tokens of the first service at its operating point: %1 kWh of facility "
               "energy, %2 gCO₂e location-based (the grid's annual average at each site, scope 2; power "
               "purchase agreements not counted; on-site generation at the gas factor) and %3 L of on-site "
               "cooling water (evaporative plants; dry coolers use none).")
                .arg(QString::number(kwh ? kwh->value : 0.0, 'f', 3), QString::number(carbon->value, 'f', 1),
                     QString::number(water ? water->value : 0.0, 'f', 2));
    }
    if (auto* t = m_tiles.value(QStringLiteral("tokens_per_mw"))) t->setRange(m_envText, m_envTooltip);
    // A design without GPUs has no GPU-hours: "—", not $0.0000.
    const cost::Figure* perGpuHour = noGpus ? nullptr : fig("finance.cost_per_gpu_hour_usd");
    setTile(QStringLiteral("cost_per_gpu_hour"), perGpuHour,
            tr("The design has no GPUs yet: no GPU-hours to cost."));
    const cost::Figure* perTrainingToken = noGpus ? nullptr : fig("training.cost_per_million_tokens_usd");
    const cost::Figure* perOutputToken =
        noGpus ? nullptr : fig("inference.cost_per_million_output_tokens_usd");
    setTile(QStringLiteral("cost_per_m_training_tokens"), perTrainingToken,
            tr("The design has no training job: no training tokens to cost."));
    setTile(QStringLiteral("cost_per_m_output_tokens"), perOutputToken,
            tr("The design has no inference service: no output tokens to cost."));
    m_rangeFigures.clear();
    if (perGpuHour) m_rangeFigures[QStringLiteral("cost_per_gpu_hour")] = perGpuHour->key;
    if (perTrainingToken)
        m_rangeFigures[QStringLiteral("cost_per_m_training_tokens")] = perTrainingToken->key;
    if (perOutputToken) m_rangeFigures[QStringLiteral("cost_per_m_output_tokens")] = perOutputToken->key;
    // The last ranges describe the design before this change: keep them visible but greyed until the
    // uncertainty run for the new state arrives.
    for (auto it = m_tiles.begin(); it != m_tiles.end(); ++it)
        if (!it.value()->range().isEmpty() && restingLine(it.key()).first.isEmpty())
            it.value()->setRange(it.value()->range(), tr("Updating for the latest edit…"), true);
    if (m_uncertaintyLine->isVisible()) m_uncertaintyLine->setForegroundRole(QPalette::PlaceholderText);
    return {perGpuHour, perTrainingToken, perOutputToken};
}

/// Capex pie: one slice per category with a cost, in report order; the small ones (under kPieGroupShare of
/// the total) go into one "Other" slice at the end so that the legend fits the dock (ten categories at a
/// readable size do not); its tooltip lists them with their values.
void MetricsDashboard::showCapexPie(const cost::Results& r) {
    const double capexTotal = r.capex.total.value(); // the sum of the categories (cost/evaluate.cpp)
    struct Part {
        QString label;
        double value;
        QColor color;
        QString key;
        QString tooltip;
    };
    std::vector<Part> parts, small;
    int ci = 0;
    for (const auto& cat : cost::kCapexCategories) {
        const auto* f = r.figure("capex.by_category_usd." + cat);
        const Part part{capexCategoryLabel(cat), f ? f->value : 0.0, categoricalColor(ci++),
                        f ? QString::fromStdString(f->key) : QString(), QString()};
        if (part.value <= 0) continue;
        if (part.value < kPieGroupShare * capexTotal)
            small.push_back(part);
        else
            parts.push_back(part);
    }
    if (small.size() == 1) parts.push_back(small.front()); // one small category keeps its own slice
    if (small.size() > 1) {
        double otherValue = 0;
        QStringList lines;
        for (const auto& part : small) {
            otherValue += part.value;
            lines << QStringLiteral("%1: %2 (%3%)")
                         .arg(part.label, m_units.formatMoney(part.value))
                         .arg(part.value / capexTotal * 100, 0, 'f', 1);
        }
        parts.push_back({tr("Other"), otherValue, QColor(150, 150, 150), QString(),
                         tr("<b>Other capex</b> (categories under %1% each)<br>%2")
                             .arg(kPieGroupShare * 100, 0, 'f', 1)
                             .arg(lines.join(QStringLiteral("<br>")))});
    }
    double pieSum = 0.0;
    for (const auto& part : parts)
        pieSum += part.value;
    // Slices are updated in place when the categories are the same (most edits): recreating them costs
    // more than the evaluation of a small design (QPieSeries::append lays out labels and legend).
    if (m_pie->count() != static_cast<int>(parts.size())) {
        m_pie->clear();
        for (std::size_t i = 0; i < parts.size(); ++i)
            m_pie->append(parts[i].label, parts[i].value);
    }
    const auto slices = m_pie->slices();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        QPieSlice* slice = slices.at(static_cast<int>(i));
        const Part& part = parts[i];
        const QString label = QStringLiteral("%1 %2%")
                                  .arg(part.label)
                                  .arg(pieSum > 0 ? part.value / pieSum * 100 : 0.0, 0, 'f', 0);
        if (slice->label() != label) slice->setLabel(label);
        if (slice->value() != part.value) slice->setValue(part.value);
        if (slice->color() != part.color) slice->setColor(part.color);
        slice->setProperty("figure", part.key);
        slice->setProperty("tooltip", part.tooltip.isEmpty() ? QVariant() : QVariant(part.tooltip));
    }
}

/// Waterfall of the annual cost: annualized capex, then each opex line, ending in the TCO per year.
void MetricsDashboard::showWaterfall(const cost::Results& r) {
    const auto& fin = r.finance;
    const double scale = fin.tcoAnnual.value() >= 5e9 ? 1e9 : 1e6;
    const QString unit = scale == 1e9 ? QStringLiteral("B") : QStringLiteral("M");
    const double other = fin.opexAnnual.value() - fin.energyAnnual.value() - fin.maintenanceAnnual.value() -
                         fin.staffAnnual.value() - fin.wanLeaseAnnual.value();
    // The headline convention's capex charge (project.tco_convention): capital recovery or depreciation.
    const bool accounting = fin.convention == "accounting";
    const double capexCharge = accounting ? fin.depreciationAnnual.value() : fin.annualizedCapex.value();
    const char* capexKey = accounting ? "finance.depreciation_annual_usd" : "finance.annualized_capex_usd";
    const struct {
        QString label;
        double value;
        const char* key;
    } steps[] = {{tr("Capex/yr"), capexCharge, capexKey},
                 {tr("Energy"), fin.energyAnnual.value(), "finance.energy_annual_usd"},
                 {tr("Maint."), fin.maintenanceAnnual.value(), "finance.opex_annual_usd"},
                 {tr("Staff"), fin.staffAnnual.value(), "finance.opex_annual_usd"},
                 {tr("WAN"), fin.wanLeaseAnnual.value(), "finance.opex_annual_usd"},
                 {tr("Other"), std::max(0.0, other), "finance.opex_annual_usd"}};
    QStringList cats;
    QList<qreal> base, up, total;
    m_waterKeys.clear();
    double running = 0.0;
    for (const auto& s : steps) {
        // Lines under 0.2 % of the annual cost would be invisible bars; they stay in the TCO total.
        if (s.value <= 0.002 * fin.tcoAnnual.value() && s.label != tr("Capex/yr")) continue;
        cats << s.label;
        m_waterKeys << QString::fromLatin1(s.key);
        base << running / scale;
        up << s.value / scale;
        total << 0.0;
        running += s.value;
    }
    cats << tr("TCO/yr");
    m_waterKeys << QStringLiteral("finance.tco_annual_usd");
    base << 0.0;
    up << 0.0;
    total << fin.tcoAnnual.value() / scale;
    // In place when the bars are the same (most edits); the axes only when their range or labels change
    // (a new range re-lays out the chart, the costliest part of a dashboard update).
    const auto fill = [](QBarSet* set, const QList<qreal>& values) {
        if (set->count() != values.size()) {
            set->remove(0, set->count());
            set->append(values);
            return;
        }
        for (int i = 0; i < values.size(); ++i)
            if (set->at(i) != values[i]) set->replace(i, values[i]);
    };
    fill(m_waterBase, base);
    fill(m_waterUp, up);
    fill(m_waterTotal, total);
    if (m_waterX->categories() != cats) {
        m_waterX->clear();
        m_waterX->append(cats);
    }
    // The axis top rounded up to 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 x 10^k, so that an edit moving the
    // annual cost by a few percent keeps the axis (and skips its re-layout).
    const double raw = std::max(1.0, std::max(running, fin.tcoAnnual.value()) / scale * 1.08);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double top = 10.0 * magnitude;
    for (const double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0})
        if (m * magnitude >= raw) {
            top = m * magnitude;
            break;
        }
    if (top != m_waterTop) {
        m_waterTop = top;
        m_waterY->setRange(0.0, top);
        m_waterY->applyNiceNumbers();
    }
    const QString title = QStringLiteral("%1%2 per year").arg(m_units.currency, unit);
    if (m_waterY->titleText() != title) m_waterY->setTitleText(title);
}

void MetricsDashboard::showResults(const cost::Results& r) {
    ++m_updates;
    m_figures.clear();
    for (const auto& f : r.figures)
        m_figures.emplace(f.key, f);
    const CostTiles tiles = showTiles(r);
    showCapexPie(r);
    showWaterfall(r);
    const auto fig = [&](const char* key) { return r.figure(key); };
    setChain(m_chainCapex, tr("Capex"), fig("capex.total_usd"));
    setChain(m_chainAnnual, tr("annualized"), fig("finance.annualized_capex_usd"));
    setChain(m_chainTco, tr("TCO/yr"), fig("finance.tco_annual_usd"));
    setChain(m_chainGpuHour, tr("per GPU-hour"), tiles.perGpuHour);
    // The chain's last step names its basis: a service's output tokens when there is one, else a training
    // job's tokens (the tiles above show both).
    if (tiles.perOutputToken)
        setChain(m_chainTokens, tr("per M output tokens"), tiles.perOutputToken);
    else
        setChain(m_chainTokens, tr("per M training tokens"), tiles.perTrainingToken);
}

QString MetricsDashboard::formatAs(const std::string& key, double value) const {
    const auto it = m_figures.find(key);
    if (it == m_figures.end()) return m_units.formatNumber(value);
    cost::Figure f = it->second;
    f.value = value;
    return m_units.formatFigure(f);
}

void MetricsDashboard::showUncertainty(const std::map<std::string, cost::Percentiles>& pct, int samples,
                                       const std::vector<SkewDriver>& skew) {
    // The distribution is documented with cost::uncertainty (cost/scenarios.h): every assumption with a range
    // drawn from a triangular (low, base, high) distribution; percentiles by Hyndman & Fan definition 7.
    const QString method = tr("Uncertainty from %1 samples: every assumption with a range drawn from a "
                              "triangular distribution (low, base, high of data/assumptions.json).\n"
                              "The figure itself has every assumption at its base value, so it can lie "
                              "outside P10–P90 when ranges are lopsided or the figure is not linear in "
                              "them (cost per GPU-hour goes as 1 / utilization).")
                               .arg(samples);
    const auto describe = [&](const std::string& key, const cost::Percentiles& p) {
        return tr("P10 %1 · P50 %2 · P90 %3 · mean %4")
            .arg(formatAs(key, p.p10), formatAs(key, p.p50), formatAs(key, p.p90), formatAs(key, p.mean));
    };
    m_skewText.clear();
    for (auto it = m_tiles.begin(); it != m_tiles.end(); ++it) {
        const auto f = m_rangeFigures.find(it.key());
        const auto p = f == m_rangeFigures.end() ? pct.end() : pct.find(f->second);
        if (p == pct.end() || p->second.count == 0) {
            const auto [text, tooltip] = restingLine(it.key());
            it.value()->setRange(text, tooltip);
            continue;
        }
        // P50 beside the base (the tile's value): the centre of the distribution, then its spread.
        // The unit once, after P90: "P10–P90 $2.86 – $3.82/GPU-h" (the tile is one column of a grid).
        const QString p90 = formatAs(f->second, p->second.p90);
        QString p10 = formatAs(f->second, p->second.p10);
        int digits = static_cast<int>(p10.size());
        while (digits > 0 && !p10[digits - 1].isDigit())
            --digits;
        if (digits < p10.size() && p90.endsWith(p10.mid(digits))) p10.truncate(digits);
        QString text = tr("P50 %1 · P10–P90 %2 – %3").arg(formatAs(f->second, p->second.p50), p10, p90);
        QString tooltip = method + QStringLiteral("\n") + describe(f->second, p->second);
        const auto base = m_figures.find(f->second);
        if (f->second == "finance.cost_per_gpu_hour_usd" && base != m_figures.end()) {
            m_skewText = skewSentence(f->second, base->second.value, p->second, skew);
            if (!m_skewText.isEmpty()) {
                // On the tile only the names (it is one column of a grid); the line under the chain has
                // each one's pull.
                QStringList names;
                for (const auto& d : mainSkewDrivers(skew, p->second.p50 - base->second.value))
                    names << d.label;
                text += QStringLiteral("\n") + (names.isEmpty()
                                                    ? m_skewText.section(QLatin1Char(':'), 0, 0)
                                                    : tr("%1 · skewed by %2")
                                                          .arg(m_skewText.section(QLatin1Char(':'), 0, 0),
                                                               names.join(QStringLiteral(", "))));
                tooltip += QStringLiteral("\n\n") + skewExplanation();
            }
        }
        it.value()->setRange(text, tooltip);
    }
    QStringList parts;
    for (const auto& [key, label] : {std::pair<std::string, QString>{"finance.tco_annual_usd", tr("TCO/yr")},
                                     {"finance.cost_per_gpu_hour_usd", tr("per GPU-hour")}}) {
        const auto p = pct.find(key);
        if (p == pct.end() || p->second.count == 0) continue;
        parts << QStringLiteral("%1 <b>%2</b>").arg(label, describe(key, p->second).toHtmlEscaped());
    }
    QString line = parts.isEmpty() ? QString()
                                   : tr("Uncertainty (%1 samples): ").arg(samples) +
                                         parts.join(QStringLiteral(" &nbsp;|&nbsp; "));
    if (!line.isEmpty() && !m_skewText.isEmpty())
        line += QStringLiteral("<br>") + tr("Cost per GPU-hour: %1").arg(m_skewText.toHtmlEscaped());
    m_uncertaintyLine->setText(line);
    m_uncertaintyLine->setToolTip(method);
    m_uncertaintyLine->setForegroundRole(QPalette::WindowText);
    m_uncertaintyLine->setVisible(!parts.isEmpty());
}

QString MetricsDashboard::skewExplanation() {
    return tr("Which ranges skew it: each assumption's expected pull on the figure under its triangular "
              "draw, [(base - low)(f(low) - f(base)) + (high - base)(f(high) - f(base))] / (3 (high - low)), "
              "from the tornado's ends; lopsided ranges and curved responses pull the P50 away from the "
              "base.");
}

QString MetricsDashboard::skewSentence(const std::string& key, double base, const cost::Percentiles& p,
                                       const std::vector<SkewDriver>& skew) const {
    const double gap = p.p50 - base;
    // A gap under 1 % of the figure is the sampling noise of 300 draws, not a skew worth a sentence.
    if (!(std::abs(gap) > 0.01 * std::abs(base))) return {};
    const auto main = mainSkewDrivers(skew, gap);
    QString where = gap > 0 ? tr("base %1 below P50").arg(formatAs(key, base))
                            : tr("base %1 above P50").arg(formatAs(key, base));
    if (p.p10 > base) where = tr("base %1 below P10").arg(formatAs(key, base));
    if (p.p90 < base) where = tr("base %1 above P90").arg(formatAs(key, base));
    if (main.empty()) return where;
    QStringList names;
    for (const auto& d : main)
        names << QStringLiteral("%1 (%2%3)")
                     .arg(d.label, d.shift > 0 ? QStringLiteral("+") : QStringLiteral("−"),
                          m_units.formatMoney(std::abs(d.shift)));
    return tr("%1: skewed by the ranges of %2").arg(where, names.join(QStringLiteral(", ")));
}

QString MetricsDashboard::skewText() const {
    return m_skewText;
}

std::pair<QString, QString> MetricsDashboard::restingLine(const QString& key) const {
    if (key == QStringLiteral("tokens_per_mw")) return {m_envText, m_envTooltip};
    return {};
}

void MetricsDashboard::clearUncertainty(const QString& reason) {
    m_skewText.clear();
    for (auto it = m_tiles.begin(); it != m_tiles.end(); ++it) {
        const auto [text, tooltip] = restingLine(it.key());
        it.value()->setRange(text, tooltip);
    }
    m_uncertaintyLine->clear();
    m_uncertaintyLine->setToolTip(reason);
    m_uncertaintyLine->setVisible(false);
}

QString MetricsDashboard::uncertaintyText() const {
    return m_uncertaintyLine->isVisible() ? m_uncertaintyLine->text() : QString();
}

QList<QPair<QString, double>> MetricsDashboard::pieSlices() const {
    QList<QPair<QString, double>> out;
    for (const QPieSlice* slice : m_pie->slices())
        out.append({slice->label(), slice->value()});
    return out;
}

} // namespace ctwin::views
