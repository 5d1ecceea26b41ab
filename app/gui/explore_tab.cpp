#include "explore_tab.h"

#include "chart_style.h"
#include "data_paths.h"
#include "design_file.h"
#include "evaluate.h"
#include "input_error.h"
#include "results_json.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

namespace ctwin::app {

namespace {

QString levelText(const nlohmann::ordered_json& v) {
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString::fromStdString(v.dump());
}

QString choicesText(const cost::Explorer& x, std::uint64_t index) {
    QStringList parts;
    const auto choices = x.choicesOf(index);
    for (const auto& [name, v] : choices.items())
        parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(name), levelText(v));
    return parts.join(QStringLiteral("\n"));
}

} // namespace

ExploreTab::ExploreTab(const model::Catalog& catalog, const model::AssumptionSet& defaults,
                       std::function<const model::Project&()> currentProject,
                       std::function<bool(const QString&)> openDesign, QWidget* parent)
    : QWidget(parent), m_catalog(&catalog), m_defaults(defaults), m_currentProject(std::move(currentProject)),
      m_openDesign(std::move(openDesign)) {
    auto* layout = new QVBoxLayout(this);
    auto* bar = new QHBoxLayout;
    m_spec = new QComboBox(this);
    m_spec->setEditable(false);
    m_spec->setMinimumContentsLength(40);
    m_spec->setToolTip(tr("Exploration spec (data/FORMAT.md section 7): choices, constraints, objectives"));
    const QDir examples(QString::fromStdString(dataDirectory()) + QStringLiteral("/explore"));
    for (const QFileInfo& f : examples.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        m_spec->addItem(f.fileName(), f.absoluteFilePath());
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] { pickSpecFile(); });
    m_run = new QPushButton(tr("Run"), this);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    connect(m_run, &QPushButton::clicked, this, [this] { run(); });
    connect(m_cancelButton, &QPushButton::clicked, this, [this] { cancel(); });
    bar->addWidget(new QLabel(tr("Spec:"), this));
    bar->addWidget(m_spec, 1);
    bar->addWidget(browse);
    bar->addWidget(m_run);
    bar->addWidget(m_cancelButton);
    layout->addLayout(bar);

    auto* axes = new QHBoxLayout;
    m_x = new QComboBox(this);
    m_y = new QComboBox(this);
    for (auto* c : {m_x, m_y})
        connect(c, &QComboBox::currentIndexChanged, this, [this] { replot(); });
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_status = new QLabel(tr("Pick a spec and press Run."), this);
    m_status->setWordWrap(true);
    axes->addWidget(new QLabel(tr("X:"), this));
    axes->addWidget(m_x, 1);
    axes->addWidget(new QLabel(tr("Y:"), this));
    axes->addWidget(m_y, 1);
    axes->addWidget(m_progress);
    layout->addLayout(axes);
    layout->addWidget(m_status);

    m_chart = new QChart;
    m_chart->legend()->setVisible(true);
    m_feasibleSeries = new QScatterSeries;
    m_feasibleSeries->setName(tr("Feasible"));
    m_feasibleSeries->setMarkerSize(6);
    m_feasibleSeries->setColor(QColor(150, 150, 150));
    m_feasibleSeries->setBorderColor(QColor(150, 150, 150));
    m_paretoSeries = new QScatterSeries;
    m_paretoSeries->setName(tr("Pareto set"));
    m_paretoSeries->setMarkerSize(10);
    m_paretoSeries->setColor(views::categoricalColor(0));
    m_currentSeries = new QScatterSeries;
    m_currentSeries->setName(tr("Open design"));
    m_currentSeries->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_currentSeries->setMarkerSize(13);
    m_currentSeries->setColor(views::categoricalColor(3));
    for (auto* s : {m_feasibleSeries, m_paretoSeries, m_currentSeries}) {
        m_chart->addSeries(s);
        connect(s, &QScatterSeries::hovered, this, [this](const QPointF& p, bool on) {
            if (on)
                QToolTip::showText(QCursor::pos(), pointText(p.x() * m_xScale, p.y() * m_yScale),
                                   m_chartView);
            else
                QToolTip::hideText();
        });
    }
    connect(m_paretoSeries, &QScatterSeries::clicked, this, [this](const QPointF& p) {
        const auto& pts = m_paretoSeries->points();
        for (int i = 0; i < pts.size(); ++i)
            if (pts[i] == p) m_table->selectRow(i);
    });
    m_chartView = views::makeChartView(m_chart, this);
    m_table = new QTableWidget(this);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_open = new QPushButton(tr("Open as design…"), this);
    m_open->setToolTip(
        tr("Write the selected Pareto point as a design (its layout and assumption choices) and "
           "open it"));
    connect(m_open, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row < 0) return;
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the explored design as"),
                                                          QDir::homePath() + QStringLiteral("/explored.json"),
                                                          tr("Designs (*.json *.ctwin)"));
        if (!path.isEmpty() && !openAsDesign(row, path)) m_status->setText(m_message);
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] { updateButtons(); });
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(m_table, 1);
    lowerLayout->addWidget(m_open, 0, Qt::AlignRight);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_chartView);
    split->addWidget(lower);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({560, 200}); // the scatter first; the table scrolls
    layout->addWidget(split, 1);
    updateButtons();
}

ExploreTab::~ExploreTab() {
    if (m_cancel) m_cancel->store(true);
    if (m_worker.joinable()) m_worker.join();
}

void ExploreTab::pickSpecFile() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open an exploration spec"),
                                     QString::fromStdString(dataDirectory()) + QStringLiteral("/explore"),
                                     tr("Exploration specs (*.json)"));
    if (!path.isEmpty()) setSpec(path);
}

void ExploreTab::setSpec(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    int i = m_spec->findData(abs);
    if (i < 0) {
        m_spec->addItem(QFileInfo(path).fileName(), abs);
        i = m_spec->count() - 1;
    }
    m_spec->setCurrentIndex(i);
}

QString ExploreTab::message() const {
    return m_message;
}

void ExploreTab::updateButtons() {
    const bool running = m_state == State::Running;
    m_run->setEnabled(!running && m_spec->count() > 0);
    m_cancelButton->setEnabled(running);
    m_open->setEnabled(!running && m_explorer && m_table->currentRow() >= 0);
}

bool ExploreTab::run() {
    if (m_state == State::Running) {
        m_message = tr("An exploration is already running.");
        return false;
    }
    if (m_spec->currentIndex() < 0) {
        m_message = tr("Pick an exploration spec first.");
        return false;
    }
    if (m_worker.joinable()) m_worker.join();
    const std::string spec = m_spec->currentData().toString().toStdString();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    m_state = State::Running;
    m_message = tr("Checking the spec…");
    m_status->setText(m_message);
    m_progress->setValue(0);
    updateButtons();
    // The worker owns copies of the catalog reference's target and the defaults it needs; the catalog
    // outlives the tab (the main window's).
    m_worker = std::thread([this, spec, cancel = m_cancel, catalog = m_catalog, defaults = m_defaults] {
        std::shared_ptr<const cost::Explorer> explorer;
        std::vector<cost::ExplorePointRecord> records;
        std::optional<cost::ExploreResult> result;
        QString error;
        try {
            explorer =
                std::make_shared<const cost::Explorer>(cost::loadExploreSpec(spec), *catalog, defaults);
            const auto plan = explorer->plan(explorer->spec().search.seed);
            const std::uint64_t n = plan.size();
            QMetaObject::invokeMethod(
                this, [this, n] { m_status->setText(tr("Evaluating %1 points…").arg(n)); },
                Qt::QueuedConnection);
            // One post per 0.1 % keeps the UI thread's queue short.
            auto lastPermille = std::make_shared<std::atomic<int>>(-1);
            records = explorer->run(
                plan, 0,
                [this, n, lastPermille](std::uint64_t done) {
                    const int permille = static_cast<int>(done * 1000 / std::max<std::uint64_t>(1, n));
                    if (lastPermille->exchange(permille) == permille) return;
                    QMetaObject::invokeMethod(
                        this, [this, permille] { m_progress->setValue(permille); }, Qt::QueuedConnection);
                },
                cancel.get());
            if (!cancel->load()) result = explorer->finish(records, explorer->spec().search.seed);
        } catch (const std::exception& e) {
            error = QString::fromUtf8(e.what());
        }
        const bool cancelled = cancel->load();
        QMetaObject::invokeMethod(
            this,
            [this, explorer, records = std::move(records), result = std::move(result), error,
             cancelled]() mutable {
                finishRun(explorer, std::move(records), std::move(result), error, cancelled);
            },
            Qt::QueuedConnection);
    });
    return true;
}

void ExploreTab::cancel() {
    if (m_state != State::Running || !m_cancel) return;
    m_cancel->store(true);
    m_cancelButton->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
}

void ExploreTab::finishRun(std::shared_ptr<const cost::Explorer> explorer,
                           std::vector<cost::ExplorePointRecord> records,
                           std::optional<cost::ExploreResult> result, QString error, bool cancelled) {
    if (m_worker.joinable()) m_worker.join();
    if (cancelled) {
        m_state = State::Cancelled;
        m_message = tr("Cancelled after %1 points; nothing kept.").arg(records.size());
    } else if (!error.isEmpty()) {
        m_state = State::Failed;
        m_message = error;
    } else {
        m_state = State::Finished;
        m_explorer = std::move(explorer);
        m_result = std::move(result);
        m_feasible.clear();
        for (auto& r : records)
            if (r.rejected.empty()) m_feasible.push_back(std::move(r));
        std::uint64_t rejected = 0;
        QStringList reasons;
        for (const auto& [k, n] : m_result->rejected) {
            rejected += n;
            reasons << QStringLiteral("%1 × %2").arg(n).arg(QString::fromStdString(k));
        }
        m_message = tr("%1 search of %2 points: %3 evaluated, %4 feasible, %5 rejected%6; Pareto set of %7.")
                        .arg(QString::fromUtf8(cost::exploreMethodName(m_result->method)))
                        .arg(m_result->spacePoints)
                        .arg(m_result->evaluated)
                        .arg(m_result->feasible)
                        .arg(rejected)
                        .arg(reasons.isEmpty() ? QString() : QStringLiteral(" (") + reasons.join("; ") + ")")
                        .arg(m_result->pareto.size());
        const QString x = m_x->currentText(), y = m_y->currentText();
        for (auto* c : {m_x, m_y}) {
            const QSignalBlocker block(c);
            c->clear();
            for (const auto& k : m_result->figureKeys)
                c->addItem(QString::fromStdString(k));
        }
        // Keep the axes the user had when the new spec offers them, else the first two objectives.
        if (m_x->findText(x) >= 0)
            m_x->setCurrentIndex(m_x->findText(x));
        else
            m_x->setCurrentIndex(0);
        if (m_y->findText(y) >= 0)
            m_y->setCurrentIndex(m_y->findText(y));
        else
            m_y->setCurrentIndex(m_y->count() > 1 ? 1 : 0);
        m_progress->setValue(1000);
        fillTable();
        replot();
    }
    m_status->setText(m_message);
    updateButtons();
    emit finished();
}

bool ExploreTab::setAxes(const QString& x, const QString& y) {
    const int xi = m_x->findText(x), yi = m_y->findText(y);
    if (xi < 0 || yi < 0) return false;
    m_x->setCurrentIndex(xi);
    m_y->setCurrentIndex(yi);
    replot();
    return true;
}

void ExploreTab::fillTable() {
    m_table->clear();
    if (!m_result || !m_explorer) return;
    QStringList headers{tr("Point")};
    for (const auto& c : m_explorer->spec().choices)
        headers << QString::fromStdString(c.name);
    for (const auto& k : m_result->figureKeys)
        headers << QString::fromStdString(k);
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(m_result->pareto.size()));
    for (int row = 0; row < static_cast<int>(m_result->pareto.size()); ++row) {
        const auto& p = m_result->pareto[static_cast<size_t>(row)];
        int col = 0;
        m_table->setItem(row, col++, new QTableWidgetItem(QString::number(p.index)));
        const auto choices = m_explorer->choicesOf(p.index);
        for (const auto& [name, v] : choices.items())
            m_table->setItem(row, col++, new QTableWidgetItem(levelText(v)));
        for (double v : p.values)
            m_table->setItem(row, col++,
                             new QTableWidgetItem(QString::fromStdString(cost::formatHuman(v, ""))));
    }
    m_table->resizeColumnsToContents();
}

void ExploreTab::replot() {
    m_feasibleSeries->clear();
    m_paretoSeries->clear();
    m_currentSeries->clear();
    m_xScale = m_yScale = 1.0;
    for (QAbstractAxis* axis : m_chart->axes()) {
        m_chart->removeAxis(axis);
        delete axis;
    }
    if (!m_result || m_x->currentIndex() < 0 || m_y->currentIndex() < 0) return;
    const auto xi = static_cast<size_t>(m_x->currentIndex()), yi = static_cast<size_t>(m_y->currentIndex());
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    auto grow = [&](double x, double y) {
        x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
    };
    for (const auto& r : m_feasible)
        grow(r.values[xi], r.values[yi]);
    // The open design, evaluated with the shipped defaults, when it has both figures; its figures also
    // name the axes (label and unit, not the raw key).
    std::optional<QPointF> current;
    QString xTitle = m_x->currentText(), yTitle = m_y->currentText();
    try {
        const auto results = cost::evaluate(m_currentProject(), *m_catalog, m_defaults);
        const auto* fx = results.figure(m_result->figureKeys[xi]);
        const auto* fy = results.figure(m_result->figureKeys[yi]);
        const auto title = [](const cost::Figure& f) {
            return f.unit.empty() ? QString::fromStdString(f.label)
                                  : QStringLiteral("%1 (%2)").arg(QString::fromStdString(f.label),
                                                                  QString::fromStdString(f.unit));
        };
        if (fx) xTitle = title(*fx);
        if (fy) yTitle = title(*fy);
        if (fx && fy) {
            current = QPointF(fx->value, fy->value);
            grow(fx->value, fy->value);
        }
    } catch (const std::exception&) {
        // A design the engine cannot evaluate is simply not marked.
    }
    if (!(x0 <= x1)) return;
    // Large magnitudes in thousands, millions or billions, so that ticks read "1.5", not "1.5e+09".
    const auto scaleFor = [](double lo, double hi, QString* suffix) {
        const double m = std::max(std::abs(lo), std::abs(hi));
        if (m >= 1e9) return *suffix = tr("billions"), 1e9;
        if (m >= 1e6) return *suffix = tr("millions"), 1e6;
        if (m >= 1e5) return *suffix = tr("thousands"), 1e3;
        return 1.0;
    };
    QString xSuffix, ySuffix;
    m_xScale = scaleFor(x0, x1, &xSuffix);
    m_yScale = scaleFor(y0, y1, &ySuffix);
    for (const auto& r : m_feasible)
        m_feasibleSeries->append(r.values[xi] / m_xScale, r.values[yi] / m_yScale);
    for (const auto& r : m_result->pareto)
        m_paretoSeries->append(r.values[xi] / m_xScale, r.values[yi] / m_yScale);
    if (current) m_currentSeries->append(current->x() / m_xScale, current->y() / m_yScale);
    // A padded range that does not reach below 0 for figures that are never negative (a cost, a power):
    // negative ticks on such an axis read as a bug.
    const auto range = [](QValueAxis* axis, double lo, double hi) {
        const double pad = hi > lo ? (hi - lo) * 0.06 : std::max(1e-9, std::abs(hi) * 0.05);
        axis->setRange(lo >= 0 ? std::max(0.0, lo - pad) : lo - pad, hi + pad);
        axis->applyNiceNumbers();
        if (lo >= 0 && axis->min() < 0) axis->setMin(0);
        axis->setLabelFormat(QStringLiteral("%.4g"));
    };
    auto* ax = new QValueAxis;
    range(ax, x0 / m_xScale, x1 / m_xScale);
    ax->setTitleText(xSuffix.isEmpty() ? xTitle : tr("%1, %2").arg(xTitle, xSuffix));
    auto* ay = new QValueAxis;
    range(ay, y0 / m_yScale, y1 / m_yScale);
    ay->setTitleText(ySuffix.isEmpty() ? yTitle : tr("%1, %2").arg(yTitle, ySuffix));
    m_chart->addAxis(ax, Qt::AlignBottom);
    m_chart->addAxis(ay, Qt::AlignLeft);
    for (auto* s : {m_feasibleSeries, m_paretoSeries, m_currentSeries}) {
        s->attachAxis(ax);
        s->attachAxis(ay);
    }
    m_chart->setTitle(
        tr("%1: %2 vs %3")
            .arg(QString::fromStdString(m_result->name), m_y->currentText(), m_x->currentText()));
    views::styleChartForPalette(m_chart, palette());
}

QString ExploreTab::pointText(double x, double y) const {
    if (!m_result || !m_explorer || m_x->currentIndex() < 0 || m_y->currentIndex() < 0) return {};
    const auto xi = static_cast<size_t>(m_x->currentIndex()), yi = static_cast<size_t>(m_y->currentIndex());
    // Nearest in axis-relative distance among the feasible points (the Pareto points are among them).
    const cost::ExplorePointRecord* best = nullptr;
    double bestD = std::numeric_limits<double>::infinity();
    const double sx = std::max(1e-300, std::abs(x)), sy = std::max(1e-300, std::abs(y));
    for (const auto& r : m_feasible) {
        const double d = std::hypot((r.values[xi] - x) / sx, (r.values[yi] - y) / sy);
        if (d < bestD) bestD = d, best = &r;
    }
    if (!best) return {};
    const bool pareto = std::any_of(m_result->pareto.begin(), m_result->pareto.end(),
                                    [&](const auto& p) { return p.index == best->index; });
    return tr("Point %1%2\n%3\n%4: %5\n%6: %7")
        .arg(best->index)
        .arg(pareto ? tr(" (Pareto)") : QString())
        .arg(choicesText(*m_explorer, best->index))
        .arg(m_x->currentText(), QString::fromStdString(cost::formatHuman(best->values[xi], "")))
        .arg(m_y->currentText(), QString::fromStdString(cost::formatHuman(best->values[yi], "")));
}

bool ExploreTab::openAsDesign(int row, const QString& path) {
    if (!m_result || !m_explorer || row < 0 || row >= static_cast<int>(m_result->pareto.size())) {
        m_message = tr("No Pareto point %1.").arg(row);
        return false;
    }
    const auto index = m_result->pareto[static_cast<size_t>(row)].index;
    try {
        cost::InputOverrides unapplied;
        store::saveDesign(m_explorer->pointDesign(index, &unapplied), path.toStdString());
        QStringList sets;
        for (const auto& o : unapplied)
            sets << QStringLiteral("%1=%2").arg(QString::fromStdString(o.path)).arg(o.value);
        m_message =
            tr("Wrote point %1 to %2.").arg(index).arg(path) +
            (sets.isEmpty() ? QString()
                            : tr(" Not in the design (set them as overrides): %1.").arg(sets.join(", ")));
    } catch (const std::exception& e) {
        m_message = QString::fromUtf8(e.what());
        return false;
    }
    m_status->setText(m_message);
    return m_openDesign ? m_openDesign(path) : true;
}

} // namespace ctwin::app
