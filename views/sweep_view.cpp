#include "sweep_view.h"

#include "chart_style.h"
#include "heatmap_widget.h"
#include "scenario_format.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleValidator>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>

namespace ctwin::views {

namespace {

namespace fmt = scenario_format;

// The engine's limit (cost::sweep throws above it); the spin boxes go further so a typed value gets a
// message rather than being silently clamped.
constexpr int kMaxSteps = 1000;
constexpr int kDefaultSteps = 11;
const std::string kPrefix = "assumptions.";

/// What a worker thread owns: copies, so the document, catalog or settings may change during the run.
struct SweepJob {
    model::Project project;
    model::Catalog catalog;
    model::AssumptionSet defaults;
    std::vector<cost::SweepAxis> axes;
    std::vector<std::string> outputs;
};

/// The grid values of an axis as labels, with as few decimals as tell neighbours apart (0.04, 0.07, 0.10
/// rather than 0.0403015 for every one of 200 steps).
QStringList gridLabels(const cost::SweepAxis& axis) {
    const double step = axis.steps > 1 ? (axis.high - axis.low) / (axis.steps - 1) : 0.0;
    int decimals = step > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(step) - 1e-9)), 0, 8) : 0;
    if (step <= 0) return {fmt::inputValue(axis.low)};
    for (;; ++decimals) {
        QStringList labels;
        bool distinct = true;
        for (int i = 0; i < axis.steps; ++i) {
            labels << QLocale::c().toString(axis.value(i), 'f', decimals);
            distinct = distinct && (i == 0 || labels[i] != labels[i - 1]);
        }
        if (distinct || decimals >= 10) return labels;
    }
}

} // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* grid = new QGridLayout;
    for (int a = 0; a < 2; ++a) {
        auto& ax = m_axes[a];
        ax.key = new QComboBox(this);
        ax.key->setMinimumContentsLength(28);
        ax.key->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        ax.low = new QLineEdit(this);
        ax.high = new QLineEdit(this);
        for (QLineEdit* e : {ax.low, ax.high}) {
            // The C locale, as the engine and the files write numbers; the validator only guides typing,
            // run() still checks the text.
            auto* v = new QDoubleValidator(e);
            v->setLocale(QLocale::c());
            e->setValidator(v);
            e->setMaximumWidth(110);
        }
        ax.steps = new QSpinBox(this);
        ax.steps->setRange(0, 100000);
        ax.steps->setValue(kDefaultSteps);
        ax.steps->setToolTip(tr("Grid points along this axis, 1 to %1").arg(kMaxSteps));
        grid->addWidget(new QLabel(a == 0 ? tr("Vary") : tr("and"), this), a, 0);
        grid->addWidget(ax.key, a, 1);
        grid->addWidget(new QLabel(tr("from"), this), a, 2);
        grid->addWidget(ax.low, a, 3);
        grid->addWidget(new QLabel(tr("to"), this), a, 4);
        grid->addWidget(ax.high, a, 5);
        grid->addWidget(new QLabel(tr("steps"), this), a, 6);
        grid->addWidget(ax.steps, a, 7);
        connect(ax.key, &QComboBox::activated, this, [this, a] { prefillRange(a); });
    }
    grid->addWidget(new QLabel(tr("Output"), this), 2, 0);
    m_output = new QComboBox(this);
    m_output->setMinimumContentsLength(40);
    m_output->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    grid->addWidget(m_output, 2, 1, 1, 7);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    auto* runRow = new QHBoxLayout;
    m_run = new QPushButton(tr("Run"), this);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    m_cancelButton->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(QStringLiteral("%p%"));
    runRow->addWidget(m_run);
    runRow->addWidget(m_cancelButton);
    runRow->addWidget(m_progress, 1);
    layout->addLayout(runRow);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_message);

    auto* split = new QSplitter(Qt::Horizontal, this);
    m_plots = new QStackedWidget(split);
    m_heatmap = new HeatmapWidget(m_plots);
    m_heatmap->setFormatter([this](double v) { return formatOutput(v); });
    m_plots->addWidget(m_heatmap);
    m_lineChart = new QChart;
    m_lineChart->legend()->hide();
    m_plots->addWidget(makeChartView(m_lineChart, m_plots));
    split->addWidget(m_plots);
    auto* tableBox = new QWidget(split);
    auto* tableLayout = new QVBoxLayout(tableBox);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    m_tableCaption = new QLabel(tableBox);
    m_tableCaption->setWordWrap(true);
    tableLayout->addWidget(m_tableCaption);
    m_table = new QTableWidget(tableBox);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tableLayout->addWidget(m_table, 1);
    split->addWidget(tableBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancelButton, &QPushButton::clicked, this, &SweepView::cancel);
}

SweepView::~SweepView() {
    // The worker posts to this object: stop it and wait before the members it reads go away. Events it
    // already posted are discarded with the object.
    m_cancel = true;
    joinWorker();
}

void SweepView::joinWorker() {
    if (m_worker.joinable()) m_worker.join();
}

void SweepView::setSource(std::function<const model::Project&()> project, const model::Catalog& catalog,
                          const model::AssumptionSet& defaults) {
    m_project = std::move(project);
    m_catalog = catalog;
    m_defaults = defaults;
    m_merged =
        model::mergeAssumptions(m_defaults, m_project ? m_project().assumptions : model::AssumptionSet{});
    offerInputs();
    // SPEC.md §4.9's example sweep: electricity price x utilization, when the evaluation reads them; a design
    // whose sites all set their own tariff offers every site's tariff instead (sites.*).
    const std::string preferred[2] = {m_inputs.count(kPrefix + "electricity_usd_per_kwh")
                                          ? kPrefix + "electricity_usd_per_kwh"
                                          : std::string("sites.*.electricity_usd_per_kwh"),
                                      kPrefix + "utilization"};
    for (int a = 0; a < 2; ++a) {
        QComboBox* combo = m_axes[a].key;
        int idx = combo->findData(QString::fromStdString(preferred[a]));
        if (idx < 0) idx = std::min(a == 0 ? 0 : 2, combo->count() - 1);
        combo->setCurrentIndex(idx);
        prefillRange(a);
    }
}

void SweepView::prefillRange(int axis) {
    auto& ax = m_axes[axis];
    const std::string key = ax.key->currentData().toString().toStdString();
    const bool on = !key.empty();
    ax.low->setEnabled(on);
    ax.high->setEnabled(on);
    ax.steps->setEnabled(on);
    if (!on) return;
    const auto it = m_inputs.find(key);
    if (it == m_inputs.end()) return;
    ax.low->setText(fmt::inputValue(it->second.low));
    ax.high->setText(fmt::inputValue(it->second.high));
}

void SweepView::offerInputs() {
    // The axes offer what the evaluation reads (cost::InputResolver): the assumptions it uses and every
    // entity value the design sets itself, one entity at a time or all of a kind at once (COLLECTION.*).
    m_inputs.clear();
    if (m_project) {
        const cost::Results base = cost::evaluate(m_project(), m_catalog, m_defaults);
        for (const auto& in : base.inputs) {
            const bool assumption = in.path.rfind(kPrefix, 0) == 0;
            if (assumption ? !in.used
                           : (in.level != cost::InputLevel::Entity && in.level != cost::InputLevel::Override))
                continue;
            m_inputs[in.path] = in;
            if (assumption) continue;
            // COLLECTION.*.FIELD spans the lowest low to the highest high of the entities that set it.
            const std::string all =
                in.path.substr(0, in.path.find('.')) + ".*" + in.path.substr(in.path.rfind('.'));
            auto [it, fresh] = m_inputs.try_emplace(all, in);
            it->second.path = all;
            if (!fresh)
                it->second.low = std::min(it->second.low, in.low),
                it->second.high = std::max(it->second.high, in.high);
            if (it->second.low == it->second.high) it->second.low *= 0.5, it->second.high *= 1.5;
        }
        for (auto& [path, in] : m_inputs)
            if (path.rfind(kPrefix, 0) != 0 && in.low == in.high)
                in.low = in.value * 0.5, in.high = in.value * 1.5;
    }
    for (int a = 0; a < 2; ++a) {
        QComboBox* combo = m_axes[a].key;
        const QSignalBlocker block(combo);
        combo->clear();
        if (a == 1) combo->addItem(tr("(nothing: a 1-D sweep)"), QString());
        for (const auto& [path, in] : m_inputs) {
            QString text = fmt::assumptionLabel(path);
            if (!in.unit.empty()) text += QStringLiteral("  [%1]").arg(QString::fromStdString(in.unit));
            combo->addItem(text, QString::fromStdString(path));
            combo->setItemData(combo->count() - 1, QString::fromStdString(in.source), Qt::ToolTipRole);
        }
    }
}

void SweepView::setOutputs(const std::vector<cost::Figure>& figures, const std::string& current) {
    m_outputs.fill(m_output, figures, current, true);
}

bool SweepView::setAxis(int axis, const std::string& key, double low, double high, int steps) {
    if (axis < 0 || axis > 1) return false;
    auto& ax = m_axes[axis];
    // A bare assumption key or any override path ("sites.*.electricity_usd_per_kwh").
    const QString data = key.empty() || key.find('.') != std::string::npos
                             ? QString::fromStdString(key)
                             : QString::fromStdString(kPrefix + key);
    const int idx = ax.key->findData(data);
    if (idx < 0) return false;
    ax.key->setCurrentIndex(idx);
    prefillRange(axis);
    if (key.empty()) return true;
    ax.low->setText(fmt::inputValue(low));
    ax.high->setText(fmt::inputValue(high));
    ax.steps->setValue(steps);
    return true;
}

bool SweepView::setOutput(const std::string& key) {
    const int idx = m_output->findData(QString::fromStdString(key));
    if (idx < 0) return false;
    m_output->setCurrentIndex(idx);
    return true;
}

QString SweepView::message() const {
    return m_message->text();
}

void SweepView::showMessage(const QString& text, bool error) {
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #c0392b;") : QString());
}

void SweepView::setState(State state) {
    m_state = state;
    const bool running = state == State::Running;
    m_run->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    for (auto& ax : m_axes)
        ax.key->setEnabled(!running);
    m_output->setEnabled(!running);
}

QString SweepView::formatOutput(double value) const {
    const std::string key = m_result.outputs.empty() ? std::string() : m_result.outputs.front();
    const auto it = m_outputs.unitOf.find(key);
    return fmt::figureValue(m_units, key, value, it == m_outputs.unitOf.end() ? std::string() : it->second);
}

QString SweepView::outputLabel() const {
    const std::string key = m_result.outputs.empty() ? std::string() : m_result.outputs.front();
    const auto it = m_outputs.labelOf.find(key);
    return QString::fromStdString(it == m_outputs.labelOf.end() ? key : it->second);
}

bool SweepView::run() {
    if (m_state == State::Running) {
        showMessage(tr("A sweep is already running."), true);
        return false;
    }
    if (!m_project) {
        showMessage(tr("No design to sweep."), true);
        return false;
    }
    std::vector<cost::SweepAxis> axes;
    for (int a = 0; a < 2; ++a) {
        const auto& ax = m_axes[a];
        const std::string key = ax.key->currentData().toString().toStdString();
        if (key.empty()) {
            if (a == 0) {
                showMessage(tr("Pick an assumption to vary."), true);
                return false;
            }
            continue;
        }
        const QString name = fmt::assumptionLabel(key);
        bool okLow = false, okHigh = false;
        const double low = QLocale::c().toDouble(ax.low->text().trimmed(), &okLow);
        const double high = QLocale::c().toDouble(ax.high->text().trimmed(), &okHigh);
        if (!okLow || !okHigh || !std::isfinite(low) || !std::isfinite(high)) {
            showMessage(tr("%1: the range needs two numbers (got \"%2\" and \"%3\").")
                            .arg(name, ax.low->text(), ax.high->text()),
                        true);
            return false;
        }
        if (low > high) {
            showMessage(tr("%1: low %2 is above high %3; swap them or fix the range.")
                            .arg(name, fmt::inputValue(low), fmt::inputValue(high)),
                        true);
            return false;
        }
        const int steps = ax.steps->value();
        if (steps < 1 || steps > kMaxSteps) {
            showMessage(tr("%1: steps must be from 1 to %2 (got %3).").arg(name).arg(kMaxSteps).arg(steps),
                        true);
            return false;
        }
        // Refuse inline what the engine would refuse: unknown path, value outside the field's bounds.
        try {
            cost::checkInputOverride(m_project(), m_merged, cost::InputOverride{key, low}, "sweep");
            cost::checkInputOverride(m_project(), m_merged, cost::InputOverride{key, high}, "sweep");
        } catch (const std::exception& e) {
            showMessage(QString::fromUtf8(e.what()), true);
            return false;
        }
        if (!axes.empty() && axes.front().key == key) {
            showMessage(tr("Both axes vary %1; pick two different assumptions (or nothing for a 1-D sweep).")
                            .arg(name),
                        true);
            return false;
        }
        axes.push_back(cost::SweepAxis{key, low, high, steps});
    }
    const std::string output = m_output->currentData().toString().toStdString();
    if (output.empty()) {
        showMessage(tr("Pick an output figure."), true);
        return false;
    }

    // The same grid limit as `clustertwin-cli sweep` (data/FORMAT.md §6), refused before anything runs.
    size_t points = 1;
    for (const auto& ax : axes)
        points *= static_cast<size_t>(ax.steps);
    if (static_cast<double>(points) > cost::kMaxSweepPoints) {
        showMessage(tr("The grid has %1 points, more than the limit of %2; use fewer steps.")
                        .arg(QLocale().toString(static_cast<qulonglong>(points)))
                        .arg(QLocale().toString(static_cast<qulonglong>(cost::kMaxSweepPoints))),
                    true);
        return false;
    }
    joinWorker(); // a finished worker that has not been joined yet (its last post is still queued)
    auto job = std::make_shared<SweepJob>();
    job->project = m_project();
    job->catalog = m_catalog;
    job->defaults = m_defaults;
    job->axes = axes;
    job->outputs = {output};
    m_cancel = false;
    m_progressUpdates = 0;
    m_progress->setValue(0);
    m_runStart = std::chrono::steady_clock::now();
    m_runningText = tr("Running %1 evaluations…").arg(QLocale().toString(static_cast<qulonglong>(points)));
    showMessage(m_runningText, false);
    setState(State::Running);

    m_worker = std::thread([this, job] {
        const auto start = std::chrono::steady_clock::now();
        std::shared_ptr<cost::SweepResult> result;
        QString error;
        // The engine reports after every evaluation; one post per 0.1 % keeps the UI thread's queue short.
        int lastPermille = -1;
        const cost::ProgressCallback progress = [this, &lastPermille](double fraction) {
            const int permille = static_cast<int>(std::lround(fraction * 1000.0));
            if (permille == lastPermille) return;
            lastPermille = permille;
            QMetaObject::invokeMethod(
                this, [this, permille] { onProgress(permille); }, Qt::QueuedConnection);
        };
        try {
            const cost::ScenarioInput in{&job->project, &job->catalog, job->defaults};
            result = std::make_shared<cost::SweepResult>(
                cost::sweep(in, job->axes, job->outputs, progress, &m_cancel));
        } catch (const std::exception& e) {
            // model::InputError's text names the axis or figure at fault; anything else is shown as is.
            error = QString::fromUtf8(e.what());
        }
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        QMetaObject::invokeMethod(
            this, [this, result, error, seconds] { onFinished(result, error, seconds); },
            Qt::QueuedConnection);
    });
    return true;
}

void SweepView::cancel() {
    if (m_state != State::Running) return;
    m_cancel = true;
    m_cancelButton->setEnabled(false);
    showMessage(tr("Cancelling…"), false);
}

void SweepView::onProgress(int permille) {
    if (m_state != State::Running) return;
    ++m_progressUpdates;
    m_progress->setValue(permille);
    // Time left, extrapolated from the time so far (the points cost about the same): shown once 1 % is done
    // and at least a second has passed, so a short sweep does not flicker an estimate.
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_runStart).count();
    if (permille >= 10 && elapsed >= 1.0) {
        const double left = elapsed * (1000 - permille) / permille;
        const QString eta = left < 90 ? tr("about %1 s left").arg(std::lround(left))
                                      : tr("about %1 min left").arg(std::lround(left / 60));
        showMessage(m_runningText + QStringLiteral(" ") + eta, false);
    }
}

void SweepView::onFinished(const std::shared_ptr<cost::SweepResult>& result, const QString& error,
                           double seconds) {
    joinWorker();
    if (!result) {
        m_result = {};
        setState(State::Failed);
        showMessage(tr("The sweep failed: %1").arg(error), true);
        m_heatmap->clear();
        m_table->clear();
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        emit runEnded(m_state);
        return;
    }
    m_result = *result;
    size_t points = 0, done = 0;
    for (const auto& d : m_result.defined)
        points = d.size(), done = static_cast<size_t>(std::count(d.begin(), d.end(), true));
    if (m_result.cancelled) {
        setState(State::Cancelled);
        showMessage(tr("Cancelled: %1 of %2 points evaluated (the rest are blank).")
                        .arg(QLocale().toString(static_cast<qulonglong>(done)))
                        .arg(QLocale().toString(static_cast<qulonglong>(points))),
                    false);
    } else {
        setState(State::Finished);
        m_progress->setValue(1000);
        showMessage(tr("%1 points in %2 s.")
                        .arg(QLocale().toString(static_cast<qulonglong>(points)))
                        .arg(seconds, 0, 'f', 2),
                    false);
    }
    showResult();
    emit runEnded(m_state);
}

void SweepView::showResult() {
    const auto& r = m_result;
    if (r.axes.empty() || r.values.empty()) return;
    const auto& values = r.values.front();
    const auto& defined = r.defined.front();
    const auto& ax0 = r.axes[0];
    const int n0 = ax0.steps, n1 = r.axes.size() > 1 ? r.axes[1].steps : 1;
    const QString output = outputLabel();
    const QString name0 = fmt::assumptionLabel(ax0.key);
    auto cell = [&](size_t i) {
        auto* item = new QTableWidgetItem(defined[i] ? formatOutput(values[i]) : tr("—"));
        if (defined[i]) item->setData(kValueRole, values[i]);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        return item;
    };
    m_table->setUpdatesEnabled(false);
    m_table->clear();
    const QStringList labels0 = gridLabels(ax0);
    if (r.axes.size() == 1) {
        // 1-D: one row per step, the assumption's value and the output.
        m_tableCaption->setText(tr("%1 by %2").arg(output, name0));
        m_table->setRowCount(n0);
        m_table->setColumnCount(2);
        m_table->setHorizontalHeaderLabels({name0, output});
        m_table->verticalHeader()->hide();
        auto* series = new QLineSeries;
        series->setPointsVisible(true);
        double lo = 0, hi = 0;
        bool any = false;
        for (int i = 0; i < n0; ++i) {
            auto* in = new QTableWidgetItem(labels0[i]);
            in->setData(kValueRole, ax0.value(i));
            m_table->setItem(i, 0, in);
            m_table->setItem(i, 1, cell(static_cast<size_t>(i)));
            if (!defined[static_cast<size_t>(i)]) continue;
            const double v = values[static_cast<size_t>(i)];
            series->append(ax0.value(i), v);
            lo = any ? std::min(lo, v) : v, hi = any ? std::max(hi, v) : v, any = true;
        }
        m_lineChart->removeAllSeries();
        for (QAbstractAxis* axis : m_lineChart->axes()) {
            m_lineChart->removeAxis(axis);
            delete axis;
        }
        m_lineChart->addSeries(series);
        auto* x = new QValueAxis;
        x->setRange(ax0.low, ax0.high > ax0.low ? ax0.high : ax0.low + 1);
        // Ticks on the grid points when there are few, so each point sits on a labelled value.
        if (n0 >= 2 && n0 <= 11) x->setTickCount(n0);
        x->setLabelFormat(QStringLiteral("%.4g"));
        x->setTitleText(name0);
        auto* y = new QValueAxis;
        const double pad = hi > lo ? (hi - lo) * 0.08 : std::max(1e-9, std::abs(hi) * 0.05);
        y->setRange(lo - pad, hi + pad);
        y->applyNiceNumbers();
        const auto unit = m_outputs.unitOf.find(r.outputs.front());
        y->setTitleText(unit == m_outputs.unitOf.end() || unit->second.empty()
                            ? output
                            : QStringLiteral("%1 (%2)").arg(output, QString::fromStdString(unit->second)));
        m_lineChart->addAxis(x, Qt::AlignBottom);
        m_lineChart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(x);
        series->attachAxis(y);
        m_lineChart->setTitle(tr("%1 over %2").arg(output, name0));
        styleChartForPalette(m_lineChart, palette());
        m_plots->setCurrentIndex(1);
        // Both columns readable in full: the input as wide as its longest entry, the value takes the rest
        // (issue 36: the value column was cut at the table's right edge).
        m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
        m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
        m_table->horizontalHeader()->setMinimumSectionSize(
            m_table->fontMetrics().horizontalAdvance(QStringLiteral("$0,000.0000")));
    } else {
        // 2-D: the grid itself, axis 0 down the rows and axis 1 across the columns.
        const auto& ax1 = r.axes[1];
        const QString name1 = fmt::assumptionLabel(ax1.key);
        const QStringList labels1 = gridLabels(ax1);
        m_tableCaption->setText(tr("%1: rows %2, columns %3").arg(output, name0, name1));
        m_table->setRowCount(n0);
        m_table->setColumnCount(n1);
        m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive); // after a 1-D table
        m_table->setHorizontalHeaderLabels(labels1);
        m_table->setVerticalHeaderLabels(labels0);
        m_table->verticalHeader()->show();
        for (int i = 0; i < n0; ++i)
            for (int j = 0; j < n1; ++j)
                m_table->setItem(
                    i, j, cell(static_cast<size_t>(i) * static_cast<size_t>(n1) + static_cast<size_t>(j)));
        m_heatmap->setAxes(name0, labels0, name1, labels1);
        m_heatmap->setData(n0, n1, values, defined);
        m_plots->setCurrentIndex(0);
    }
    // Measuring every cell of a large grid costs more than it helps: size by a sample then.
    if (m_table->rowCount() * m_table->columnCount() <= 4000)
        m_table->resizeColumnsToContents();
    else
        m_table->horizontalHeader()->setDefaultSectionSize(
            m_table->fontMetrics().horizontalAdvance(formatOutput(values.empty() ? 0 : values.front())) + 16);
    m_table->setUpdatesEnabled(true);
}

void SweepView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (QChart* chart : {m_lineChart})
            styleChartForPalette(chart, palette());
}

} // namespace ctwin::views
