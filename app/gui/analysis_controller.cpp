#include "analysis_controller.h"

#include "comparison_view.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "dialog_prompts.h"
#include "report/finance_report.h"
#include "scenarios.h"
#include "sweep_view.h"
#include "tornado_view.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QKeySequence>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <filesystem>
#include <vector>

namespace ctwin::app {

namespace {

constexpr int kMaxOthers = 5; // the engine compares 2 to 6 designs; the open one is always the first

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// A path in a form two spellings of the same file share; empty when it cannot be resolved.
std::filesystem::path canonicalPath(const QString& path) {
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(std::filesystem::path(path.toStdString()), ec);
    return ec ? std::filesystem::path() : p;
}

/// The sweep's default output: the cost of a token when the design serves or trains, else of a GPU-hour.
std::string defaultSweepOutput(const cost::Results& r) {
    for (const char* key :
         {"inference.cost_per_million_output_tokens_usd", "training.cost_per_million_tokens_usd"})
        if (r.figure(key)) return key;
    return "finance.cost_per_gpu_hour_usd";
}

/// Clears the wait cursor on every way out of a slow engine call.
struct WaitCursor {
    WaitCursor() { QApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QApplication::restoreOverrideCursor(); }
    WaitCursor(const WaitCursor&) = delete;
    WaitCursor& operator=(const WaitCursor&) = delete;
};

/// The comparison dialog: reference designs first (checkable), then any files the user adds; OK needs 1 to
/// 5 checked. Returns the checked paths, empty when cancelled.
QStringList pickDesigns(QWidget* parent, const QList<std::pair<QString, QString>>& references,
                        QString& lastDir) {
    QDialog dialog(parent);
    dialog.setWindowTitle(AnalysisController::tr("Compare designs"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro =
        new QLabel(AnalysisController::tr("Compare the open design with 1 to %1 others. Check reference "
                                          "designs or add design files (.json or .ctwin).")
                       .arg(kMaxOthers),
                   &dialog);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto* list = new QListWidget(&dialog);
    list->setMinimumSize(520, 260);
    for (const auto& [name, path] : references) {
        auto* item = new QListWidgetItem(AnalysisController::tr("%1  (reference)").arg(name), list);
        item->setData(Qt::UserRole, path);
        item->setToolTip(path);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    layout->addWidget(list, 1);
    auto* add = new QPushButton(AnalysisController::tr("Add files…"), &dialog);
    auto* count = new QLabel(&dialog);
    auto* row = new QHBoxLayout;
    row->addWidget(add);
    row->addWidget(count, 1);
    layout->addLayout(row);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(AnalysisController::tr("Compare"));
    layout->addWidget(buttons);

    auto checked = [list] {
        QStringList out;
        for (int i = 0; i < list->count(); ++i)
            if (list->item(i)->checkState() == Qt::Checked)
                out << list->item(i)->data(Qt::UserRole).toString();
        return out;
    };
    auto refresh = [&] {
        const int n = static_cast<int>(checked().size());
        count->setText(n > kMaxOthers
                           ? AnalysisController::tr("%1 checked: at most %2").arg(n).arg(kMaxOthers)
                           : AnalysisController::tr("%1 checked").arg(n));
        buttons->button(QDialogButtonBox::Ok)->setEnabled(n >= 1 && n <= kMaxOthers);
    };
    QObject::connect(list, &QListWidget::itemChanged, &dialog, [&] { refresh(); });
    QObject::connect(add, &QPushButton::clicked, &dialog, [&] {
        const QStringList files = QFileDialog::getOpenFileNames(
            &dialog, AnalysisController::tr("Add designs"), lastDir.isEmpty() ? QDir::homePath() : lastDir,
            AnalysisController::tr("Designs (*.json *.ctwin);;All files (*)"));
        for (const QString& f : files) {
            lastDir = QFileInfo(f).path();
            auto* item = new QListWidgetItem(QFileInfo(f).fileName(), list);
            item->setData(Qt::UserRole, f);
            item->setToolTip(f);
            item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
            item->setCheckState(Qt::Checked);
        }
        refresh();
    });
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    refresh();
    return dialog.exec() == QDialog::Accepted ? checked() : QStringList();
}

} // namespace

/// What a comparison tab was computed from, kept so a new baseline or an export needs no reload.
struct AnalysisController::ComparisonData {
    std::vector<std::string> names;
    std::vector<cost::Results> results;
    std::vector<std::string> otherJson; // the other designs' canonical JSON, to refuse the open one equal
    QString fallbackName;               // the open design's name when it has none of its own
    cost::Comparison comparison;
};

AnalysisController::AnalysisController(QWidget* window, const model::Catalog& catalog,
                                       const model::AssumptionSet& defaults,
                                       std::function<const model::Project&()> currentProject,
                                       std::function<QString()> currentName,
                                       std::function<void(QWidget*, const QString& title)> showTab)
    : QObject(window), m_window(window), m_catalog(catalog), m_defaults(defaults),
      m_currentProject(std::move(currentProject)), m_currentName(std::move(currentName)),
      m_showTab(std::move(showTab)) {}

// The views may outlive the controller (they belong to the owner's tabs); their connections to it end with
// it.
AnalysisController::~AnalysisController() = default;

void AnalysisController::populateMenu(QMenu* menu) {
    menu->addAction(tr("&Compare designs…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                    [this] { chooseAndCompare(); })
        ->setStatusTip(tr("Compare the open design with reference designs or other design files"));
    menu->addAction(tr("&Sensitivity (tornado)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T), this,
                    [this] { showTornado(); })
        ->setStatusTip(tr("How much each assumption's range moves a figure of the open design"));
    menu->addAction(tr("Parameter s&weep…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P), this,
                    [this] { showSweep(); })
        ->setStatusTip(tr("A figure of the open design over a grid of one or two assumptions"));
}

QList<std::pair<QString, QString>> AnalysisController::referenceDesigns() {
    QList<std::pair<QString, QString>> out;
    const QString dir = qs(referenceDirectory());
    QFile index(dir + QStringLiteral("/index.json"));
    if (index.open(QIODevice::ReadOnly)) {
        for (const auto& v : QJsonDocument::fromJson(index.readAll()).array()) {
            const QJsonObject o = v.toObject();
            out.append({o.value(QStringLiteral("name")).toString(),
                        dir + QLatin1Char('/') + o.value(QStringLiteral("file")).toString()});
        }
        return out;
    }
    // Without the index, the design files themselves.
    for (const QFileInfo& f :
         QDir(dir).entryInfoList({QStringLiteral("*.json"), QStringLiteral("*.ctwin")}, QDir::Files))
        out.append({f.completeBaseName(), f.filePath()});
    return out;
}

void AnalysisController::showError(const QString& title, const QString& message) const {
    QMessageBox::warning(m_window, title, message);
}

QString AnalysisController::designName(const model::Project& project, const QString& fallback) const {
    return project.info.name.empty() ? fallback : qs(project.info.name);
}

views::ComparisonView* AnalysisController::compareWith(const QStringList& paths, QString* error) {
    auto fail = [error](const QString& message) -> views::ComparisonView* {
        if (error) *error = message;
        return nullptr;
    };
    if (paths.isEmpty() || paths.size() > kMaxOthers)
        return fail(tr("Pick 1 to %1 designs to compare with the open one (got %2).")
                        .arg(kMaxOthers)
                        .arg(paths.size()));

    const model::Project& current = m_currentProject();
    const QString currentName = m_currentName ? m_currentName() : QString();
    const std::string currentJson = model::dumpJson(model::projectToJson(current));
    const auto currentPath =
        QFileInfo::exists(currentName) ? canonicalPath(currentName) : std::filesystem::path();

    struct Loaded {
        QString path;
        model::Project project;
        std::string json;
    };
    std::vector<Loaded> loaded;
    for (const QString& path : paths) {
        const QString file = QFileInfo(path).fileName();
        const auto canonical = canonicalPath(path);
        if (!currentPath.empty() && canonical == currentPath)
            return fail(
                tr("%1 is the open design itself; pick a different design to compare with.").arg(file));
        for (const auto& other : loaded)
            if (!canonical.empty() && canonicalPath(other.path) == canonical)
                return fail(tr("%1 is picked twice; pick different designs.").arg(file));
        Loaded l{path, {}, {}};
        try {
            l.project = store::loadDesign(path.toStdString(), &m_catalog);
        } catch (const std::exception& e) {
            return fail(tr("%1 could not be opened:\n\n%2").arg(file, QString::fromUtf8(e.what())));
        }
        l.json = model::dumpJson(model::projectToJson(l.project));
        if (l.json == currentJson)
            return fail(tr("%1 is the same design as the open one; comparing a design with itself shows no "
                           "differences. Pick a different design.")
                            .arg(file));
        for (const auto& other : loaded)
            if (other.json == l.json)
                return fail(tr("%1 and %2 hold the same design; pick different designs.")
                                .arg(QFileInfo(other.path).fileName(), file));
        loaded.push_back(std::move(l));
    }

    // A design without a training job or inference service has no token costs and a GPU-hour cost of idle
    // hardware: side by side with a working design, every delta would mislead.
    if (!current.hasWorkload())
        return fail(
            tr("The open design has no workload (no training job or inference service); add one before "
               "comparing it."));
    for (const auto& l : loaded)
        if (!l.project.hasWorkload())
            return fail(
                tr("%1 has no workload (no training job or inference service); it cannot be compared.")
                    .arg(QFileInfo(l.path).fileName()));

    auto data = std::make_shared<ComparisonData>();
    try {
        const WaitCursor wait;
        data->fallbackName = currentName.isEmpty() ? tr("Open design") : currentName;
        data->names.push_back(designName(current, data->fallbackName).toStdString());
        data->results.push_back(cost::evaluate(current, m_catalog, m_defaults));
        for (const auto& l : loaded) {
            data->names.push_back(designName(l.project, QFileInfo(l.path).fileName()).toStdString());
            data->results.push_back(cost::evaluate(l.project, m_catalog, m_defaults));
            data->otherJson.push_back(l.json);
        }
        // Two designs may share a name (a modified copy of a reference): the file name tells them apart.
        for (size_t i = 0; i < data->names.size(); ++i)
            for (size_t j = i + 1; j < data->names.size(); ++j)
                if (data->names[j] == data->names[i])
                    data->names[j] += " [" + QFileInfo(loaded[j - 1].path).fileName().toStdString() + "]";
        data->comparison = cost::compareDesigns(data->names, data->results, 0);
    } catch (const std::exception& e) {
        return fail(tr("The designs could not be compared:\n\n%1").arg(QString::fromUtf8(e.what())));
    }

    auto* view = new views::ComparisonView;
    view->setUnits(m_units);
    view->showComparison(data->comparison, data->results);
    m_comparisons[view] = data;
    connect(view, &QObject::destroyed, this, [this, view] { m_comparisons.erase(view); });
    connect(view, &views::ComparisonView::baselineChangeRequested, this,
            [this, view](int baseline) { recomputeComparison(view, baseline); });
    connect(view, &views::ComparisonView::exportRequested, this, [this, view] { exportWithDialog(view); });
    connect(view, &views::ComparisonView::refreshRequested, this, [this, view] {
        QString error;
        if (!refreshComparison(view, &error)) showError(tr("Cannot recompute the comparison"), error);
    });
    QString title = tr("Compare: %1").arg(qs(data->names.front()));
    if (title.size() > 40) title = title.left(38) + QStringLiteral("…");
    if (m_showTab) m_showTab(view, tr("%1 (+%2)").arg(title).arg(loaded.size()));
    return view;
}

bool AnalysisController::refreshComparison(views::ComparisonView* view, QString* error) {
    auto fail = [error](const QString& message) {
        if (error) *error = message;
        return false;
    };
    const auto it = m_comparisons.find(view);
    if (it == m_comparisons.end()) return fail(tr("This comparison is no longer open."));
    auto& data = *it->second;
    const model::Project& current = m_currentProject();
    if (!current.hasWorkload())
        return fail(tr("The open design has no workload (no training job or inference service) any more; add "
                       "one before comparing it."));
    const std::string json = model::dumpJson(model::projectToJson(current));
    for (size_t i = 0; i < data.otherJson.size(); ++i)
        if (data.otherJson[i] == json)
            return fail(tr("The open design is now the same as %1; a comparison with itself shows no "
                           "differences.")
                            .arg(qs(data.names[i + 1])));
    auto names = data.names;
    auto results = data.results;
    cost::Comparison comparison;
    try {
        const WaitCursor wait;
        names[0] = designName(current, data.fallbackName).toStdString();
        if (std::find(names.begin() + 1, names.end(), names[0]) != names.end())
            names[0] += " [" + tr("open design").toStdString() + "]";
        results[0] = cost::evaluate(current, m_catalog, m_defaults);
        comparison = cost::compareDesigns(names, results, data.comparison.baseline);
    } catch (const std::exception& e) {
        return fail(tr("The designs could not be compared:\n\n%1").arg(QString::fromUtf8(e.what())));
    }
    data.names = std::move(names);
    data.results = std::move(results);
    data.comparison = std::move(comparison);
    view->showComparison(data.comparison, data.results);
    return true;
}

void AnalysisController::recomputeComparison(views::ComparisonView* view, int baseline) {
    const auto it = m_comparisons.find(view);
    if (it == m_comparisons.end() || baseline < 0 ||
        static_cast<size_t>(baseline) >= it->second->names.size())
        return;
    auto& data = *it->second;
    try {
        data.comparison = cost::compareDesigns(data.names, data.results, static_cast<size_t>(baseline));
    } catch (const std::exception& e) {
        showError(tr("Cannot change the baseline"), QString::fromUtf8(e.what()));
        return;
    }
    view->showComparison(data.comparison, data.results);
}

bool AnalysisController::exportComparison(views::ComparisonView* view, const QString& path, QString* error,
                                          std::optional<ReportFormat> format) {
    const auto it = m_comparisons.find(view);
    if (it == m_comparisons.end()) {
        if (error) *error = tr("This comparison is no longer open.");
        return false;
    }
    ComparisonInput in;
    in.comparison = it->second->comparison;
    for (const auto& r : it->second->results)
        in.results.push_back(&r);
    try {
        const WaitCursor wait;
        writeComparisonReport(in, format.value_or(reportFormatForPath(path.toStdString())),
                              path.toStdString());
    } catch (const std::exception& e) {
        if (error) *error = tr("The comparison could not be written:\n\n%1").arg(QString::fromUtf8(e.what()));
        return false;
    }
    return true;
}

void AnalysisController::exportWithDialog(views::ComparisonView* view) {
    const QString dir = m_lastDirectory.isEmpty() ? QDir::homePath() : m_lastDirectory;
    const auto target =
        askReportTarget(m_window, tr("Export comparison"), dir + QStringLiteral("/comparison.pdf"));
    if (!target) return;
    m_lastDirectory = QFileInfo(target->path).path();
    QString error;
    if (!exportComparison(view, target->path, &error, target->format))
        showError(tr("Cannot export the comparison"), error);
}

views::TornadoView* AnalysisController::openTornado(const std::string& output, QString* error) {
    const model::Project& project = m_currentProject();
    cost::Results results;
    cost::Tornado tornado;
    try {
        const WaitCursor wait;
        results = cost::evaluate(project, m_catalog, m_defaults);
        tornado = cost::tornado(cost::ScenarioInput{&project, &m_catalog, m_defaults}, output);
    } catch (const std::exception& e) {
        if (error) *error = tr("No sensitivity for %1:\n\n%2").arg(qs(output), QString::fromUtf8(e.what()));
        return nullptr;
    }
    auto* view = new views::TornadoView;
    view->setUnits(m_units);
    view->setOutputs(results.figures, output);
    view->showTornado(tornado);
    connect(view, &views::TornadoView::outputChanged, this,
            [this, view](const QString& key) { recomputeTornado(view, key.toStdString()); });
    connect(view, &views::TornadoView::refreshRequested, this,
            [this, view] { recomputeTornado(view, view->currentOutput()); });
    if (m_showTab)
        m_showTab(
            view,
            tr("Sensitivity: %1").arg(designName(project, m_currentName ? m_currentName() : QString())));
    return view;
}

void AnalysisController::recomputeTornado(views::TornadoView* view, const std::string& output) {
    const model::Project& project = m_currentProject();
    try {
        const WaitCursor wait;
        // The design may have changed since the view opened: offer its figures as they are now.
        const cost::Results results = cost::evaluate(project, m_catalog, m_defaults);
        view->setOutputs(results.figures, output);
        view->showTornado(cost::tornado(cost::ScenarioInput{&project, &m_catalog, m_defaults}, output));
    } catch (const std::exception& e) {
        view->showError(QString::fromUtf8(e.what()));
    }
}

views::SweepView* AnalysisController::openSweep(QString* error) {
    const model::Project& project = m_currentProject();
    cost::Results results;
    try {
        const WaitCursor wait;
        results = cost::evaluate(project, m_catalog, m_defaults);
    } catch (const std::exception& e) {
        if (error) *error = tr("The design could not be evaluated:\n\n%1").arg(QString::fromUtf8(e.what()));
        return nullptr;
    }
    auto* view = new views::SweepView;
    view->setUnits(m_units);
    view->setSource(m_currentProject, m_catalog, m_defaults);
    view->setOutputs(results.figures, defaultSweepOutput(results));
    if (m_showTab)
        m_showTab(view,
                  tr("Sweep: %1").arg(designName(project, m_currentName ? m_currentName() : QString())));
    return view;
}

bool AnalysisController::ensureWorkload() {
    if (m_currentProject().hasWorkload()) return true;
    const QString question =
        tr("The open design has no workload (no training job or inference service), so it has no $/GPU-hour "
           "or $/M tokens to compare.");
    if (!m_addWorkload) {
        showError(tr("Cannot compare designs"), question);
        return false;
    }
    const QString offer = question + tr("\n\nAdd a default training job on all its GPUs (Llama 3 70B, 15T "
                                        "tokens; edit it in the inspector afterwards)?");
    const bool yes = m_askAddWorkload ? m_askAddWorkload(offer)
                                      : QMessageBox::question(m_window, tr("Compare designs"), offer,
                                                              QMessageBox::Yes | QMessageBox::Cancel,
                                                              QMessageBox::Yes) == QMessageBox::Yes;
    if (!yes) return false;
    const QString error = m_addWorkload();
    if (!error.isEmpty()) {
        showError(tr("Cannot add a training job"), error);
        return false;
    }
    return m_currentProject().hasWorkload();
}

void AnalysisController::chooseAndCompare() {
    if (!ensureWorkload()) return; // say so before the user picks designs
    const QStringList paths = pickDesigns(m_window, referenceDesigns(), m_lastDirectory);
    if (paths.isEmpty()) return;
    QString error;
    if (!compareWith(paths, &error)) showError(tr("Cannot compare designs"), error);
}

void AnalysisController::showTornado() {
    QString error;
    if (!openTornado("finance.cost_per_gpu_hour_usd", &error))
        showError(tr("Cannot compute the sensitivity"), error);
}

void AnalysisController::showSweep() {
    QString error;
    if (!openSweep(&error)) showError(tr("Cannot open a sweep"), error);
}

} // namespace ctwin::app
