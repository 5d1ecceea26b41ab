#include "power_view.h"

#include "chart_style.h"
#include "evaluate.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

/// Hours of the load duration curve's axis: a non-leap year (cost::kDaysPerMonth).
constexpr double kYearHours = 8760.0;

QString mw(double v) {
    return QStringLiteral("%1 MW").arg(v, 0, 'f', v < 100 ? 1 : 0);
}

/// A horizontal level across the year.
QLineSeries* level(const QString& name, double value, const QColor& colour, Qt::PenStyle style) {
    auto* s = new QLineSeries;
    s->setName(name);
    s->append(0.0, value);
    s->append(kYearHours, value);
    s->setPen(QPen(colour, 2, style));
    return s;
}

QLineSeries* curve(const QString& name, const std::vector<cost::LoadDurationPoint>& points,
                   const QColor& colour) {
    auto* s = new QLineSeries;
    s->setName(name);
    for (const auto& p : points)
        s->append(p.hours, p.mw);
    s->setPen(QPen(colour, 2));
    return s;
}

} // namespace

PowerView::PowerView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Site:"), this));
    m_sites = new QComboBox(this);
    m_sites->setToolTip(tr("The site whose load and supply the chart shows"));
    top->addWidget(m_sites);
    top->addStretch(1);
    layout->addLayout(top);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = makeChartView(m_chart, this);
    view->setMinimumHeight(260);
    view->setToolTip(
        tr("Load duration curve: the site's facility power (MW) against the hours a year it is at or above "
           "it, from the design day (0 h) to the mildest hours. Full load: every rack at its provisioned "
           "draw (what the interconnect must carry); operating point: IT at the utilization (the energy "
           "bought). IT is steady; the weather moves the cooling plant hour by hour."));
    layout->addWidget(view, 1);
    connect(m_sites, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (i >= 0 && static_cast<size_t>(i) < m_shown.size()) showSite(m_shown[static_cast<size_t>(i)]);
    });
}

PowerView::~PowerView() = default;

void PowerView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) styleChartForPalette(m_chart, palette());
    QWidget::changeEvent(event);
}

void PowerView::showResults(const cost::Results& results) {
    const QString kept = m_sites->currentData().toString();
    m_shown = results.power.sites;
    {
        const QSignalBlocker block(m_sites);
        m_sites->clear();
        for (const auto& s : m_shown)
            m_sites->addItem(QString::fromStdString(s.name), QString::fromStdString(s.siteId));
        const int i = m_sites->findData(kept);
        m_sites->setCurrentIndex(i >= 0 ? i : 0);
    }
    m_sites->setEnabled(m_shown.size() > 1);
    if (m_shown.empty()) {
        m_chart->removeAllSeries();
        for (auto* axis : m_chart->axes())
            m_chart->removeAxis(axis), delete axis;
        m_chart->setTitle(QString());
        m_summary->setText(tr("No site draws power: add a site with a building, halls and racks."));
        return;
    }
    showSite(m_shown[static_cast<size_t>(std::max(0, m_sites->currentIndex()))]);
}

void PowerView::showSite(const cost::SitePower& site) {
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes())
        m_chart->removeAxis(axis), delete axis;
    const double peak = site.facilityPeak.value() / 1e6, average = site.facilityOperating.value() / 1e6;
    QString supply;
    if (site.interconnectMw) {
        const double headroom = site.headroomMw();
        supply =
            tr("grid interconnect %1%2 · %3 %4 (design-day peak)")
                .arg(mw(*site.interconnectMw),
                     site.onsiteMw > 0 ? tr(" + on-site generation %1").arg(mw(site.onsiteMw)) : QString(),
                     headroom >= 0 ? tr("headroom") : tr("<b>short by</b>"), mw(std::abs(headroom)));
    } else {
        supply = tr("no grid interconnect stated (set the site's grid interconnect in the inspector to plan "
                    "against it)");
    }
    m_summary->setText(tr("<b>%1</b>: facility peak %2 (design day, racks at their provisioned draw) · "
                          "average %3 (annual, at the utilization) · load factor %4 (annual average over "
                          "peak) · %5")
                           .arg(site.name.c_str(), mw(peak), mw(average),
                                site.facilityPeak.value() > 0
                                    ? QStringLiteral("%1").arg(average / peak, 0, 'f', 2)
                                    : QStringLiteral("–"),
                                supply));
    m_chart->setTitle(tr("%1: load duration against supply").arg(QString::fromStdString(site.name)));
    std::vector<QLineSeries*> series;
    series.push_back(
        curve(tr("Facility load, full load as provisioned"), site.fullLoad, categoricalColor(3)));
    series.push_back(
        curve(tr("Facility load, operating point (annual)"), site.operating, categoricalColor(0)));
    double hi = peak;
    if (site.interconnectMw) {
        series.push_back(
            level(tr("Grid interconnect"), *site.interconnectMw, categoricalColor(2), Qt::SolidLine));
        double stack = *site.interconnectMw;
        if (site.onsiteMw > 0) {
            stack += site.onsiteMw;
            series.push_back(level(tr("+ on-site generation"), stack, categoricalColor(1), Qt::DashLine));
        }
        if (site.bessMw > 0) {
            stack += site.bessMw;
            series.push_back(level(tr("+ battery power (not firm: energy-limited)"), stack,
                                   categoricalColor(4), Qt::DotLine));
        }
        hi = std::max(hi, stack);
    } else if (site.onsiteMw > 0) {
        series.push_back(level(tr("On-site generation"), site.onsiteMw, categoricalColor(1), Qt::DashLine));
    }
    auto* x = new QValueAxis;
    x->setRange(0, kYearHours);
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTickType(QValueAxis::TicksDynamic);
    x->setTickAnchor(0);
    x->setTickInterval(1000);
    x->setTitleText(tr("hours a year at or above the load"));
    auto* y = new QValueAxis;
    double lo = hi;
    for (const auto& p : site.operating)
        lo = std::min(lo, p.mw);
    // From a round value below the lowest load: the weather's swing readable against the levels.
    const double span = std::max(hi - lo, 0.05 * hi);
    const double step = std::pow(10.0, std::floor(std::log10(std::max(span, 1e-6))));
    y->setRange(std::max(0.0, std::floor((lo - 0.15 * span) / step) * step),
                std::ceil((hi + 0.1 * span) / step) * step);
    y->setLabelFormat(QStringLiteral("%.1f"));
    y->setTitleText(tr("facility MW"));
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(y, Qt::AlignLeft);
    for (auto* s : series) {
        m_chart->addSeries(s);
        s->attachAxis(x), s->attachAxis(y);
    }
    styleChartForPalette(m_chart, palette());
}

} // namespace ctwin::views
