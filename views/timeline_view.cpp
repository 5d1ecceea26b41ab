#include "timeline_view.h"

#include "chart_style.h"
#include "evaluate.h"
#include "phase_gantt.h"
#include "timeline.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace ctwin::views {

namespace {

QString monthText(const cost::Timeline& t, int month) {
    const auto d = t.dateOf(month);
    return d ? QString::fromStdString(d->iso().substr(0, 7)) : QObject::tr("month %1").arg(month);
}

QString money(double usd) {
    const double a = std::abs(usd);
    const QString sign = usd < 0 ? QStringLiteral("−") : QString();
    if (a >= 1e9) return QStringLiteral("%1$%2B").arg(sign).arg(a / 1e9, 0, 'f', 2);
    return QStringLiteral("%1$%2M").arg(sign).arg(a / 1e6, 0, 'f', 1);
}

/// Round `hi` up to a tidy axis end (1, 2 or 5 x 10^k).
double niceCeiling(double hi) {
    if (!(hi > 0)) return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(hi)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= hi) return m * p;
    return 10 * p;
}

} // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    // The date cursor: a month of the timeline; the floor plan and the 3D view grey the
    // halls not yet energised then.
    auto* cursorRow = new QHBoxLayout;
    m_cursor = new QSlider(Qt::Horizontal, this);
    m_cursor->setToolTip(tr("Date cursor: move it to see the campus at that month; halls not yet energised "
                            "are greyed on the floor plan and in the 3D view"));
    m_cursorLabel = new QLabel(this);
    m_cursorLabel->setMinimumWidth(360);
    cursorRow->addWidget(new QLabel(tr("Date:"), this));
    cursorRow->addWidget(m_cursor, 1);
    cursorRow->addWidget(m_cursorLabel);
    layout->addLayout(cursorRow);
    connect(m_cursor, &QSlider::valueChanged, this, [this](int) {
        m_cursorAtEnd = m_cursor->value() >= m_cursor->maximum();
        updateCursor();
    });
    auto* split = new QSplitter(Qt::Vertical, this);
    // The Gantt of the phases and their cohorts, scrolled when a campus has more halls than fit.
    m_gantt = new PhaseGantt;
    m_ganttScroll = new QScrollArea(split);
    m_ganttScroll->setWidget(m_gantt);
    m_ganttScroll->setWidgetResizable(true);
    m_ganttScroll->setFrameShape(QFrame::NoFrame);
    m_ganttScroll->setMinimumHeight(60);
    split->addWidget(m_ganttScroll);
    connect(m_gantt, &PhaseGantt::phaseActivated, this, &TimelineView::entityActivated);
    connect(m_gantt, &PhaseGantt::phaseMoveRequested, this, [this](const QString& hall, int month) {
        if (month >= 0 && month < m_monthDates.size()) emit phaseDateRequested(hall, m_monthDates[month]);
    });
    m_chart = new QChart;
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    auto* chartView = makeChartView(m_chart, split);
    chartView->setMinimumHeight(260); // the curves and both axes readable at the app's default size
    split->addWidget(chartView);
    m_phases = new QTableWidget(0, 7, split);
    m_phases->setHorizontalHeaderLabels({tr("Hall"), tr("Building"), tr("Energised"), tr("GPUs"),
                                         tr("IT power"), tr("Refresh policy"), tr("First GPU refresh")});
    m_phases->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_phases->horizontalHeader()->setStretchLastSection(true);
    m_phases->verticalHeader()->hide();
    m_phases->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_phases->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_phases->setToolTip(tr("Double-click a phase to select its hall: the inspector edits its energisation "
                            "date (YYYY-MM-DD) and refresh policy; the building's date applies to halls "
                            "without one"));
    connect(m_phases, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        if (auto* item = m_phases->item(row, 0)) emit entityActivated(item->data(Qt::UserRole).toString());
    });
    split->addWidget(m_phases);
    m_phases->setMinimumHeight(90);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    split->setSizes({160, 420, 120});
    layout->addWidget(split, 1);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) styleChartForPalette(m_chart, palette());
    QWidget::changeEvent(event);
}

void TimelineView::updateCursor() {
    const int month = m_cursor->value();
    QHash<QString, QString> later;
    int energised = 0;
    double mw = 0;
    for (const auto& m : m_marks) {
        if (m.month > month) {
            later.insert(m.hall, m.month < m_monthText.size() ? m_monthText[m.month] : QString());
        } else {
            ++energised;
            mw += m.itMw;
        }
    }
    if (m_marks.empty()) {
        m_cursorLabel->setText(tr("no phases"));
    } else {
        const QString date = month < m_monthText.size() ? m_monthText[month] : QString();
        m_cursorLabel->setText(tr("%1: %2 of %3 halls energised, %4 MW of IT")
                                   .arg(date)
                                   .arg(energised)
                                   .arg(m_marks.size())
                                   .arg(mw, 0, 'f', 1));
    }
    m_gantt->setCursorMonth(m_marks.empty() ? -1 : month);
    if (m_cursorLine) {
        m_cursorLine->clear();
        m_cursorLine->append(month + 0.5, m_cursorLo);
        m_cursorLine->append(month + 0.5, m_cursorHi);
    }
    if (later != m_unenergised) {
        m_unenergised = later;
        emit dateCursorMoved(m_unenergised);
    }
}

void TimelineView::showResults(const cost::Results& results) {
    m_cursorLine = nullptr; // removeAllSeries deletes it
    m_chart->removeAllSeries();
    for (auto* axis : m_chart->axes())
        m_chart->removeAxis(axis), delete axis;
    m_phases->setRowCount(0);
    if (!results.timeline) {
        QStringList why;
        for (const auto& r : results.rules)
            if (r.severity == cost::Severity::Error &&
                r.message.find("timeline is not computed") != std::string::npos)
                why << QString::fromStdString(r.message);
        m_summary->setText(why.isEmpty() ? tr("No timeline: the design has no cash flows to put on it.")
                                         : tr("No timeline: %1").arg(why.join(QStringLiteral("; "))));
        m_chart->setTitle(QString());
        m_marks.clear();
        m_monthText.clear();
        m_monthDates.clear();
        m_gantt->setRows({}, 0, {}, false);
        m_cursor->setEnabled(false);
        updateCursor();
        return;
    }
    const cost::Timeline& t = *results.timeline;
    const auto* unphased = results.figure("timeline.npv_without_phasing_usd");
    m_summary->setText(
        tr("<b>Timeline</b> (monthly, from the build start %1; NPV valued at the reference delivery %2): "
           "NPV %3%4 · IRR %5 · peak funding %6 at %7 · payback %8 · interest during construction %9 · "
           "energised %10 to %11 · economic refresh age %12")
            .arg(t.buildStart ? QString::fromStdString(t.buildStart->iso())
                              : tr("(undated: set the build start in "
                                   "Design properties)"),
                 monthText(t, t.referenceMonth), money(t.npv.value()),
                 unphased ? tr(" (%1 without phasing)").arg(money(unphased->value)) : QString(),
                 t.irr ? QStringLiteral("%1%").arg(100 * *t.irr, 0, 'f', 1) : tr("none"),
                 money(t.peakFunding.value()), monthText(t, t.peakFundingMonth),
                 t.paybackMonth ? monthText(t, *t.paybackMonth) : tr("not within the horizon"),
                 money(t.interestDuringConstruction.value()), monthText(t, t.firstEnergisationMonth),
                 monthText(t, t.fullEnergisationMonth))
            .arg(t.economicRefreshAgeYears ? tr("%1 years").arg(*t.economicRefreshAgeYears, 0, 'f', 1)
                                           : tr("never pays")));

    // The curves: energised IT MW and thousands of GPUs earning (left), cumulative cash in $M (right).
    auto* mw = new QLineSeries;
    mw->setName(tr("IT MW energised"));
    auto* gpus = new QLineSeries;
    gpus->setName(tr("GPUs earning (k)"));
    auto* cash = new QLineSeries;
    cash->setName(tr("Cumulative cash $M (right)"));
    double hiLeft = 0, lo = 0, hi = 0;
    for (const auto& m : t.months) {
        // Steps: the value holds through the month.
        for (double x : {double(m.month), m.month + 1.0}) {
            mw->append(x, m.energisedItMw);
            gpus->append(x, m.gpusEarning / 1e3);
        }
        cash->append(m.month + 1.0, m.cumulative.value() / 1e6);
        hiLeft = std::max({hiLeft, m.energisedItMw, m.gpusEarning / 1e3});
        lo = std::min(lo, m.cumulative.value() / 1e6);
        hi = std::max(hi, m.cumulative.value() / 1e6);
    }
    mw->setPen(QPen(categoricalColor(0), 2));
    gpus->setPen(QPen(categoricalColor(4), 2));
    cash->setPen(QPen(categoricalColor(2), 2));
    auto* peak = new QScatterSeries;
    peak->setName(tr("Peak funding"));
    peak->setMarkerSize(9);
    peak->setColor(categoricalColor(2));
    peak->append(t.peakFundingMonth + 1.0, -t.peakFunding.value() / 1e6);
    for (auto* s : std::initializer_list<QAbstractSeries*>{mw, gpus, cash, peak})
        m_chart->addSeries(s);
    auto* x = new QValueAxis;
    x->setRange(0, static_cast<double>(t.months.size()));
    x->setLabelFormat(QStringLiteral("%d"));
    x->setTickType(QValueAxis::TicksDynamic); // a tick a year from the build start
    x->setTickAnchor(0);
    x->setTickInterval(12);
    x->setTitleText(
        t.buildStart
            ? tr("months after the build start (%1)").arg(QString::fromStdString(t.buildStart->iso()))
            : tr("months after the build start"));
    auto* left = new QValueAxis;
    left->setRange(0, niceCeiling(hiLeft * 1.05));
    left->setTitleText(tr("MW · k GPUs"));
    auto* right = new QValueAxis;
    const double span = niceCeiling(std::max(std::abs(lo), std::abs(hi)) * 1.05);
    right->setRange(lo < 0 ? -span : 0, hi > 0 ? span : span / 10);
    right->setTitleText(tr("$M cumulative"));
    left->applyNiceNumbers();
    right->applyNiceNumbers();
    m_chart->addAxis(x, Qt::AlignBottom);
    m_chart->addAxis(left, Qt::AlignLeft);
    m_chart->addAxis(right, Qt::AlignRight);
    for (auto* s : std::initializer_list<QAbstractSeries*>{mw, gpus})
        s->attachAxis(x), s->attachAxis(left);
    for (auto* s : std::initializer_list<QAbstractSeries*>{cash, peak})
        s->attachAxis(x), s->attachAxis(right);
    // The date cursor's line across the cash axis.
    m_cursorLine = new QLineSeries;
    m_cursorLine->setName(tr("Date cursor"));
    m_cursorLine->setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
    m_chart->addSeries(m_cursorLine);
    m_cursorLine->attachAxis(x), m_cursorLine->attachAxis(right);
    m_cursorLo = right->min(), m_cursorHi = right->max();
    m_chart->setTitle(tr("Energisation, GPUs and cash over %1 months").arg(t.months.size()));
    styleChartForPalette(m_chart, palette());

    // The cursor's marks: each phase's hall, energisation month and IT MW; the month texts.
    m_marks.clear();
    double totalMw = 0; // every phase energised
    for (const auto& m : t.months)
        totalMw = std::max(totalMw, m.energisedItMw);
    for (const auto& p : t.phases)
        m_marks.push_back(
            {QString::fromStdString(p.input.hall), p.input.energisationMonth, p.input.powerShare * totalMw});
    m_monthText.clear();
    m_monthDates.clear();
    for (int m = 0; m < static_cast<int>(t.months.size()); ++m) {
        m_monthText << monthText(t, m);
        if (const auto d = t.dateOf(m)) m_monthDates << QString::fromStdString(d->iso());
    }
    showGantt(t);
    {
        const QSignalBlocker block(m_cursor);
        const int last = std::max(0, static_cast<int>(t.months.size()) - 1);
        m_cursor->setEnabled(true);
        m_cursor->setRange(0, last);
        m_cursor->setPageStep(12);
        if (m_cursorAtEnd || m_cursor->value() > last) m_cursor->setValue(last);
    }
    updateCursor();

    showPhaseTable(t);
}

void TimelineView::showGantt(const cost::Timeline& t) {
    std::vector<PhaseGantt::Row> rows;
    for (const auto& p : t.phases) {
        PhaseGantt::Row row;
        row.hall = QString::fromStdString(p.input.hall);
        row.building = QString::fromStdString(p.input.building);
        row.energisationMonth = p.input.energisationMonth;
        // Its facility is drawn over the construction_months before it (cost/timeline.cpp).
        row.constructionStart = std::max(0, p.input.energisationMonth - t.referenceMonth);
        row.refreshMonths = p.itRefreshMonths;
        row.economic = p.input.economicRefresh;
        rows.push_back(std::move(row));
    }
    m_gantt->setRows(std::move(rows), static_cast<int>(t.months.size()), m_monthText,
                     t.buildStart.has_value());
    // Room for up to six phases without scrolling (a campus of 20 halls scrolls the rest).
    m_ganttScroll->setMinimumHeight(std::min(m_gantt->sizeHint().height(), PhaseGantt::heightForRows(6)) + 2);
}

void TimelineView::showPhaseTable(const cost::Timeline& t) {
    m_phases->setRowCount(static_cast<int>(t.phases.size()));
    for (int i = 0; i < static_cast<int>(t.phases.size()); ++i) {
        const auto& p = t.phases[static_cast<std::size_t>(i)];
        const QStringList cells = {QString::fromStdString(p.input.hall),
                                   QString::fromStdString(p.input.building),
                                   monthText(t, p.input.energisationMonth),
                                   QStringLiteral("%1%").arg(100 * p.input.gpuShare, 0, 'f', 1),
                                   QStringLiteral("%1%").arg(100 * p.input.powerShare, 0, 'f', 1),
                                   p.input.economicRefresh ? tr("economic") : tr("fixed life"),
                                   p.itRefreshMonths.empty() ? tr("none within the horizon")
                                                             : monthText(t, p.itRefreshMonths.front())};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            item->setData(Qt::UserRole, QString::fromStdString(p.input.hall));
            m_phases->setItem(i, c, item);
        }
    }
}

} // namespace ctwin::views
