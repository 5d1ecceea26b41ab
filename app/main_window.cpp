#include "main_window.h"

#include "catalog_palette.h"
#include "cdu_item.h"
#include "data_paths.h"
#include "design_file.h"
#include "design_json.h"
#include "design_root.h"
#include "design_rules_panel.h"
#include "floor_plan_scene.h"
#include "floor_plan_view.h"
#include "gui/analysis_controller.h"
#include "gui/assumptions_dock.h"
#include "gui/authoring/authoring_actions.h"
#include "gui/autosave.h"
#include "gui/dialog_prompts.h"
#include "gui/document_editor.h"
#include "gui/help_dialog.h"
#include "gui/message_bar.h"
#include "gui/new_design_wizard.h"
#include "gui/settings_dialog.h"
#include "gui/shipped_reference.h"
#include "gui/theme.h"
#include "gui/uncertainty_runner.h"
#include "input_error.h"
#include "inspector_panel.h"
#include "json_fast_parse.h"
#include "metrics_dashboard.h"
#include "power_view.h"
#include "project_tree.h"
#include "report/finance_report.h"
#include "results_panel.h"
#include "timeline_view.h"
#include "vtk_bridge/campus_view.h"
#include "vtk_bridge/site_map_view.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// The starter design of File > New: one site, one building of 12 MW utility capacity around a 30 x 20 m
/// hall rated 10 MW of critical IT (A/B feeds of 10 MW each: the 2 MW between is the plant's and the losses'
/// room, a peak PUE up to 1.2) and a liquid loop, ready for racks from the palette.
model::Project starterProject(const model::Catalog& catalog) {
    const ojson j = {
        {"format", model::kDesignFormat},
        {"schema_version", model::kSchemaVersion},
        {"project",
         {{"id", "untitled"}, {"name", "Untitled design"}, {"description", ""}, {"sources", ojson::array()}}},
        {"assumptions", ojson::object()},
        {"sites", {{{"id", "site-1"}, {"name", "Site 1"}}}},
        {"buildings",
         {{{"id", "b1"},
           {"name", "Building 1"},
           {"site", "site-1"},
           {"power_capacity_w", 12e6},
           {"width_m", 42.0},
           {"depth_m", 32.0},
           {"height_m", 12.0}}}},
        {"halls",
         {{{"id", "b1-h1"},
           {"name", "Hall 1"},
           {"building", "b1"},
           {"x_m", 6.0},
           {"y_m", 6.0},
           {"width_m", 30.0},
           {"depth_m", 20.0},
           {"grid_m", 0.6},
           {"power_capacity_w", 10e6}}}},
        {"power_feeds",
         {{{"id", "b1-feed-a"},
           {"name", "Feed A"},
           {"building", "b1"},
           {"capacity_w", 10e6},
           {"chain", {"xfmr-mv", "switchgear-lv", "ups-static", "busway-row"}}},
          {{"id", "b1-feed-b"},
           {"name", "Feed B"},
           {"building", "b1"},
           {"capacity_w", 10e6},
           {"chain", {"xfmr-mv", "switchgear-lv", "ups-static", "busway-row"}}}}},
        {"cooling_loops",
         {{{"id", "b1-h1-loop"},
           {"name", "Hall 1 loop"},
           {"hall", "b1-h1"},
           {"cdu_type", "cdu-2mw"},
           {"cdu_count", 2},
           {"redundancy", "N+1"},
           {"plant", "plant-dry-cooler"},
           {"cdus", {{{"x_m", 1.0}, {"y_m", 1.0}}, {{"x_m", 1.0}, {"y_m", 3.0}}}}}}},
    };
    return model::projectFromJson(j, "new design", &catalog);
}

} // namespace

MainWindow::MainWindow(model::Catalog catalog, model::AssumptionSet defaults, QWidget* parent)
    : QMainWindow(parent), m_catalog(std::move(catalog)), m_defaults(std::move(defaults)),
      m_document({}, &m_catalog), m_prompts(std::make_unique<DialogPrompts>()) {
    setObjectName(QStringLiteral("ClusterTwinMainWindow"));
    setWindowIcon(appIcon());
    setDockNestingEnabled(true);
    m_undo = new QUndoStack(this);
    m_editor = std::make_unique<DocumentEditor>(m_document, *m_undo);
    m_autosave = new Autosave(
        m_document, [this] { return isModified(); }, this);
    m_settings = AppSettings::load();

    buildCentralTabs();
    buildDocks();
    m_assumptionsDock =
        std::make_unique<AssumptionsDock>(this, m_document, *m_editor, m_defaults, m_inspector);
    m_analysis->setAddWorkload([this] {
        QString id;
        const QString error = m_editor->addDefaultTrainingJob(&id);
        if (error.isEmpty()) select({id});
        return error;
    });
    m_authoring = std::make_unique<AuthoringActions>(
        this, m_document, *m_editor, *m_undo, m_catalog, m_defaults,
        AuthoringActions::Hooks{
            [this] { return m_selection; },
            [this](const QStringList& ids) {
                select(ids);
                // Show what was just added on the plan (a new building is off screen).
                const QRectF r = ids.size() == 1 ? m_scene->entityRect(ids.front()) : QRectF();
                if (!r.isNull()) m_floor->reveal(r);
            },
            [this](const QString& message) { report(message); },
            [this]() -> UserPrompts& { return *m_prompts; },
            [this](const QString& id) { m_tree->startRename(id); }, [this] { return entityInView(); }});
    buildActions();
    buildMenus();
    m_evalLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_evalLabel);

    m_evalTimer.setSingleShot(true);
    m_evalTimer.setInterval(0); // coalesces every change of one event-loop turn into one evaluation
    connect(&m_evalTimer, &QTimer::timeout, this, &MainWindow::evaluateNow);

    connectUncertainty();

    connect(m_undo, &QUndoStack::cleanChanged, this, [this] { updateTitle(); });
    connect(m_undo, &QUndoStack::indexChanged, this, [this] { updateTitle(); });

    connectViews();

    m_document.addListener(this);
    applySettings(m_settings);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        resize(screen->availableSize().boundedTo(QSize(1600, 1000)));
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    restoreState(s.value("window/state").toByteArray());
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() {
    m_document.removeListener(this);
    // Children outlive the members they would call back into (the scene emits selectionChanged while it
    // deletes its items): cut every connection to this window first.
    m_evalTimer.stop();
    m_uncertaintyTimer.stop();
    for (QObject* sender : std::initializer_list<QObject*>{
             m_scene, m_floor, m_tree, m_inspector, m_rules, m_undo, m_autosave, m_colorModes, m_palette,
             m_dashboard, m_uncertainty, m_tabs, m_campus, m_siteMap})
        if (sender) QObject::disconnect(sender, nullptr, this, nullptr);
    m_scene->blockSignals(true);
    m_tree->blockSignals(true);
}

/// The central area: the message bar over the design tabs (floor plan with its legend, figures, 3D campus,
/// site map, timeline), which refresh when shown; analysis tabs open beside them.
void MainWindow::buildCentralTabs() {
    m_scene = new views::FloorPlanScene(m_catalog, this);
    m_floor = new views::FloorPlanView(m_scene);
    auto* planTab = new QWidget;
    auto* planLayout = new QVBoxLayout(planTab);
    planLayout->setContentsMargins(0, 0, 0, 0);
    planLayout->setSpacing(2);
    auto* planBar = new QHBoxLayout;
    planBar->setContentsMargins(6, 2, 6, 0);
    m_legend = new QLabel(planTab);
    m_legend->setTextFormat(Qt::RichText);
    planBar->addWidget(m_legend, 1);
    planLayout->addLayout(planBar);
    planLayout->addWidget(m_floor, 1);
    m_figuresTable = new views::ResultsPanel;
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(planTab, tr("Floor plan"));
    m_tabs->addTab(m_figuresTable, tr("Figures"));
    m_campusTab = new QWidget;
    m_siteMapTab = new QWidget;
    for (QWidget* w : {m_campusTab, m_siteMapTab}) {
        auto* l = new QVBoxLayout(w);
        l->setContentsMargins(0, 0, 0, 0);
    }
    m_tabs->addTab(m_campusTab, tr("3D campus"));
    m_tabs->addTab(m_siteMapTab, tr("Site map"));
    m_timeline = new views::TimelineView;
    m_tabs->addTab(m_timeline, tr("Timeline"));
    m_power = new views::PowerView;
    m_tabs->addTab(m_power, tr("Power"));
    m_tabs->setTabToolTip(m_tabs->indexOf(m_power),
                          tr("Each site's load duration curve against its grid interconnect, on-site "
                             "generation and battery"));
    connect(m_timeline, &views::TimelineView::entityActivated, this,
            [this](const QString& id) { setSelection({id}, Source::Rules); });
    connect(m_timeline, &views::TimelineView::dateCursorMoved, this,
            [this](const QHash<QString, QString>& halls) {
                m_unenergisedHalls = halls;
                applyDateCursor();
            });
    // A phase dragged on the Gantt: the hall's own energisation date, one undoable edit per drag.
    connect(m_timeline, &views::TimelineView::phaseDateRequested, this,
            [this](const QString& hall, const QString& date) {
                const QString error = m_editor->setProperty({hall}, QStringLiteral("energisation_date"),
                                                            date.toStdString(), false);
                if (!error.isEmpty())
                    report(tr("Move rejected: %1").arg(error));
                else
                    statusBar()->showMessage(tr("%1 energises %2 (Edit > Undo restores it)").arg(hall, date),
                                             4000);
            });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        fillFrontLazyTab();
        refreshSpatialTab();
    });
    // The four design tabs stay; the analysis tabs opened from the Analysis menu can be closed.
    m_tabs->setTabsClosable(true);
    for (int i = 0; i < m_tabs->count(); ++i) {
        m_tabs->tabBar()->setTabButton(i, QTabBar::RightSide, nullptr);
        m_tabs->tabBar()->setTabButton(i, QTabBar::LeftSide, nullptr);
    }
    m_fixedTabs = m_tabs->count();
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeAnalysisTab);
    auto* centre = new QWidget(this);
    auto* centreLayout = new QVBoxLayout(centre);
    centreLayout->setContentsMargins(0, 0, 0, 0);
    centreLayout->setSpacing(0);
    m_messageBar = new MessageBar(centre);
    centreLayout->addWidget(m_messageBar);
    centreLayout->addWidget(m_tabs, 1);
    setCentralWidget(centre);
    m_analysis = std::make_unique<AnalysisController>(
        this, m_catalog, m_defaults, [this]() -> const model::Project& { return m_document.project(); },
        [this] { return m_path.isEmpty() ? documentName() : m_path; },
        [this](QWidget* w, const QString& title) { m_tabs->setCurrentIndex(m_tabs->addTab(w, title)); });
}

/// The dashboard's uncertainty line: a Monte Carlo run a moment after the edits settle.
void MainWindow::connectUncertainty() {
    m_uncertainty = new UncertaintyRunner(m_catalog, this);
    m_uncertaintyTimer.setSingleShot(true);
    m_uncertaintyTimer.setInterval(300);
    connect(&m_uncertaintyTimer, &QTimer::timeout, this, [this] {
        m_uncertaintyFailed = false;
        m_uncertainty->request(m_document.project(), m_defaults, cost::headlineOutputs(m_results));
    });
    connect(m_uncertainty, &UncertaintyRunner::finished, this, [this] {
        m_dashboard->showUncertainty(m_uncertainty->last(), UncertaintyRunner::kSamples,
                                     m_uncertainty->lastSkew());
    });
    connect(m_uncertainty, &UncertaintyRunner::failed, this, [this](const QString& reason) {
        m_uncertaintyFailed = true;
        m_dashboard->clearUncertainty(reason);
    });
}

/// What the user does in the tree, the plan, the inspector and the rules panel, turned into intents.
void MainWindow::connectViews() {
    connect(m_tree, &views::ProjectTree::selectionChangedByUser, this,
            [this](const QStringList& ids) { setSelection(ids, Source::Tree); });
    connect(m_tree, &views::ProjectTree::entityActivated, this, [this](const QString& id) {
        m_tabs->setCurrentIndex(0);
        m_floor->reveal(m_scene->entityRect(id));
    });
    connect(m_tree, &views::ProjectTree::contextMenuRequested, this, &MainWindow::showTreeMenu);
    connect(m_tree, &views::ProjectTree::renameRequested, this,
            [this](const QString& id, const QString& name) {
                const QString error = m_authoring->rename(id, name);
                if (!error.isEmpty()) {
                    report(tr("Cannot rename: %1").arg(error));
                    m_tree->showProject(m_document.project()); // the old name back
                }
            });
    connect(m_scene, &views::FloorPlanScene::selectionChangedByUser, this,
            [this](const QStringList& ids) { setSelection(ids, Source::Plan); });
    connect(m_scene, &views::FloorPlanScene::itemsMoved, this, [this](const QList<views::FloorMove>& moves) {
        const QString error = m_editor->move(moves);
        if (!error.isEmpty()) {
            report(tr("Move rejected: %1").arg(error));
            m_scene->showProject(m_document.project()); // put the items back where the model has them
        }
    });
    connect(m_scene, &views::FloorPlanScene::catalogItemDropped, this,
            [this](const QString& id, const QString& hall, const QPointF& pos) {
                const auto* item = m_catalog.find(id.toStdString());
                if (!item) return;
                if (item->category == "racks") {
                    QString newId;
                    const QString error = m_editor->placeRack(id, hall, pos, &newId);
                    if (!error.isEmpty())
                        report(tr("Cannot place the rack: %1").arg(error));
                    else
                        select({newId});
                } else {
                    const QString error = m_editor->placeCdu(id, hall, pos);
                    if (!error.isEmpty()) report(tr("Cannot place the CDU: %1").arg(error));
                }
            });
    connect(m_scene, &views::FloorPlanScene::contextMenuRequested, this, &MainWindow::showPlanMenu);
    connect(m_scene, &views::FloorPlanScene::rectangleDrawn, this,
            [this](views::FloorPlanScene::DrawKind kind, const QRectF& rect) {
                QString error;
                const auto preset = drawnRectanglePreset(kind, rect, &error);
                if (!error.isEmpty()) return statusBar()->showMessage(error, 5000);
                statusBar()->clearMessage();
                const QString id = m_authoring->insert(kind == views::FloorPlanScene::DrawKind::Building
                                                           ? model::EntityKind::Building
                                                           : model::EntityKind::DataHall,
                                                       preset);
                if (!id.isEmpty()) setSelection({id}, Source::Program);
            });
    connect(m_floor, &views::FloorPlanView::nudgeRequested, this, [this](int dx, int dy) {
        const QString hall = hallOfSelection();
        if (m_selection.isEmpty() || hall.isEmpty()) return;
        double grid = 0.6;
        for (const auto& h : m_document.project().halls)
            if (qs(h.id) == hall && h.grid.value() > 0) grid = h.grid.value();
        const QString error = m_editor->nudge(m_selection, QPointF(dx * grid, dy * grid));
        if (!error.isEmpty()) report(tr("Move rejected: %1").arg(error));
    });
    connect(m_inspector, &views::InspectorPanel::editRequested, this,
            [this](const QStringList& ids, const QString& field, const QString& json) {
                QString error;
                try {
                    error = m_editor->setProperty(ids, field, model::parseJson(json.toStdString()), false);
                } catch (const std::exception& e) {
                    error = QString::fromUtf8(e.what());
                }
                m_inspector->showEditResult(m_document, error);
            });
    connect(m_rules, &views::DesignRulesPanel::entityActivated, this,
            [this](const QString& id) { setSelection({id}, Source::Rules); });
    connect(m_autosave, &Autosave::autosaved, this,
            [this](const QString&) { statusBar()->showMessage(tr("Autosaved"), 2000); });
}

void MainWindow::buildDocks() {
    auto dock = [this](const QString& title, const char* name, QWidget* w, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name));
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    m_tree = new views::ProjectTree;
    m_palette = new views::CatalogPalette(m_catalog);
    m_inspector = new views::InspectorPanel(m_catalog);
    m_dashboard = new views::MetricsDashboard;
    m_rules = new views::DesignRulesPanel;
    m_history = new QUndoView(m_undo);
    m_history->setEmptyLabel(tr("<opened design>"));
    // One line per entry: with uniform sizes the list measures one entry, not every entry's text, each
    // time an edit pushes a command (a long session's history cost milliseconds per edit).
    m_history->setUniformItemSizes(true);
    auto* project = dock(tr("Project"), "projectDock", m_tree, Qt::LeftDockWidgetArea);
    auto* palette = dock(tr("Catalog"), "catalogDock", m_palette, Qt::LeftDockWidgetArea);
    splitDockWidget(project, palette, Qt::Vertical);
    auto* inspector = dock(tr("Inspector"), "inspectorDock", m_inspector, Qt::RightDockWidgetArea);
    auto* rules = dock(tr("Design rules"), "rulesDock", m_rules, Qt::RightDockWidgetArea);
    auto* history = dock(tr("History"), "historyDock", m_history, Qt::RightDockWidgetArea);
    splitDockWidget(inspector, rules, Qt::Vertical);
    tabifyDockWidget(rules, history);
    rules->raise();
    auto* dashboard = dock(tr("Dashboard"), "dashboardDock", m_dashboard, Qt::BottomDockWidgetArea);
    resizeDocks({project, inspector}, {340, 340}, Qt::Horizontal);
    resizeDocks({project, palette}, {520, 260}, Qt::Vertical);
    resizeDocks({inspector, rules}, {520, 260}, Qt::Vertical);
    resizeDocks({dashboard}, {300}, Qt::Vertical);
}

void MainWindow::applySettings(const AppSettings& settings) {
    m_settings = settings;
    m_settings.save();
    m_dark = applyTheme(m_settings.theme);
    m_scene->setDark(m_dark);
    updateThemedIcons();
    m_dashboard->setUnits(m_settings.units);
    m_inspector->setUnits(m_settings.units);
    m_figuresTable->setUnits(m_settings.units);
    m_analysis->setUnits(m_settings.units);
    m_autosave->setIntervalSeconds(m_settings.autosaveSeconds);
    if (!m_document.project().halls.empty()) m_scene->showProject(m_document.project());
    m_inspector->showSelection(m_document, m_selection);
    if (m_document.revision() > 0) evaluateNow();
}

void MainWindow::setAutosaveInterval(int seconds) {
    m_autosave->setIntervalSeconds(seconds);
}

void MainWindow::setPrompts(std::unique_ptr<UserPrompts> prompts) {
    m_prompts = std::move(prompts);
}

// --- document lifecycle -------------------------------------------------------------------------------

bool MainWindow::isModified() const {
    return m_forceModified || !m_undo->isClean();
}

QString MainWindow::documentName() const {
    if (!m_path.isEmpty()) return QFileInfo(m_path).fileName();
    const auto& info = m_document.project().info;
    const QString name = info.name.empty() ? tr("Untitled") : qs(info.name);
    return m_referenceOrigin.isEmpty() ? name : tr("%1 (copy of a shipped reference)").arg(name);
}

QString MainWindow::dialogFolder() const {
    if (!m_path.isEmpty()) return QFileInfo(m_path).absolutePath();
    for (const QString& recent : m_settings.recentFiles)
        if (!isShippedReference(recent) && QFileInfo(QFileInfo(recent).absolutePath()).isDir())
            return QFileInfo(recent).absolutePath();
    return QDir::homePath();
}

QString MainWindow::suggestedFileStem() const {
    const auto& info = m_document.project().info;
    QString stem = qs(info.name).trimmed();
    // Characters a file name cannot hold on some system (and the path separator) become "-".
    static const QRegularExpression unsafe(QStringLiteral("[\\\\/:*?\"<>|\\x00-\\x1f]+"));
    stem.replace(unsafe, QStringLiteral("-"));
    while (stem.startsWith(QLatin1Char('.')))
        stem.remove(0, 1);
    stem = stem.left(120).trimmed();
    if (stem.isEmpty()) stem = qs(info.id);
    return stem.isEmpty() ? tr("design") : stem;
}

void MainWindow::updateTitle() {
    setWindowTitle(QStringLiteral("%1[*] - ClusterTwin").arg(documentName()));
    setWindowModified(isModified());
    m_saveAction->setEnabled(true);
}

void MainWindow::afterLoad(const QString& path, bool modified, const QString& referenceOrigin) {
    m_path = path;
    m_referenceOrigin = referenceOrigin;
    if (m_messageBar) m_messageBar->dismiss(); // about the design before
    m_undo->clear();
    m_undo->setClean();
    m_forceModified = modified;
    m_autosave->setDocumentPath(path);
    if (!path.isEmpty()) {
        m_settings.addRecentFile(path);
        m_settings.save();
        rebuildRecentMenu();
    }
    updateTitle();
    m_floor->fitAll();
}

bool MainWindow::openFile(const QString& path) {
    model::Project project;
    try {
        project = store::loadDesign(path.toStdString(), &m_catalog);
    } catch (const std::exception& e) {
        m_prompts->showError(
            this, tr("Cannot open design"),
            tr("%1 could not be opened:\n\n%2").arg(QFileInfo(path).fileName(), QString::fromUtf8(e.what())));
        return false;
    }
    bool restored = false;
    const auto recovery = Autosave::findRecovery(path);
    if (recovery) {
        if (m_prompts->askRestoreAutosave(this, QFileInfo(path).fileName(),
                                          QLocale().toString(recovery->savedAt, QLocale::ShortFormat))) {
            try {
                project = Autosave::load(*recovery, &m_catalog);
                restored = true;
            } catch (const std::exception& e) {
                m_prompts->showError(this, tr("Cannot restore autosave"), QString::fromUtf8(e.what()));
            }
        }
        if (!restored) Autosave::remove(*recovery);
    }
    m_document.reset(std::move(project));
    // A shipped reference is never edited in place: it opens as an untitled copy, so that Save asks where
    // to write (KiCad's and QGIS's templates and examples behave so).
    if (isShippedReference(path)) {
        afterLoad(QString(), restored, path);
        m_settings.addRecentFile(path); // opens as a copy again from Open recent
        m_settings.save();
        rebuildRecentMenu();
        showReferenceCopyNote();
    } else
        afterLoad(path, restored);
    if (restored) {
        m_autosave->takeOver(*recovery); // this session's copy first, then the old one goes
        statusBar()->showMessage(tr("Restored unsaved changes from the autosave"), 5000);
    }
    return true;
}

bool MainWindow::openWithPrompt(const QString& path) {
    return maybeSave() && openFile(path);
}

void MainWindow::newDesign() {
    m_document.reset(starterProject(m_catalog));
    afterLoad(QString(), false);
}

bool MainWindow::newFromReference(const QString& path) {
    try {
        m_document.reset(store::loadDesign(path.toStdString(), &m_catalog));
    } catch (const std::exception& e) {
        m_prompts->showError(this, tr("Cannot open reference design"), QString::fromUtf8(e.what()));
        return false;
    }
    afterLoad(QString(), false, path);
    return true;
}

bool MainWindow::newFromTarget() {
    NewDesignWizard wizard(m_catalog, m_defaults, this);
    if (wizard.exec() != QDialog::Accepted) return false;
    m_document.reset(wizard.takeProject());
    // Generated, never saved: unsaved work, so File > New, Open or Quit ask before dropping it.
    afterLoad(QString(), true);
    return true;
}

bool MainWindow::writeTo(const QString& path) {
    if (isShippedReference(path)) {
        m_prompts->showError(this, tr("Cannot save design"),
                             tr("%1 is a reference design shipped with ClusterTwin and is not overwritten. "
                                "Save the design under another name or in another folder.")
                                 .arg(QDir::toNativeSeparators(path)));
        return false;
    }
    try {
        store::saveDesign(m_document.project(), path.toStdString());
        return true;
    } catch (const std::exception& e) {
        m_prompts->showError(this, tr("Cannot save design"),
                             tr("%1 could not be written:\n\n%2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
}

bool MainWindow::save() {
    const QString suffix = QFileInfo(m_path).suffix().toLower();
    if (m_path.isEmpty() || (suffix != QLatin1String("ctwin") && suffix != QLatin1String("json")))
        return saveAs();
    if (!writeTo(m_path)) return false;
    m_undo->setClean();
    m_forceModified = false;
    m_autosave->discard();
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(m_path), 3000);
    return true;
}

bool MainWindow::saveAs(const QString& given) {
    QString path = given;
    if (path.isEmpty()) {
        const QString base = m_path.isEmpty() ? QDir(dialogFolder()).filePath(suggestedFileStem())
                                              : QFileInfo(m_path).absolutePath() + QLatin1Char('/') +
                                                    QFileInfo(m_path).completeBaseName();
        path = m_prompts->saveFileName(this, base + QStringLiteral(".ctwin"), false);
        if (path.isEmpty()) return false;
    }
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".ctwin");
    if (!writeTo(path)) return false;
    m_autosave->discard();
    m_autosave->setDocumentPath(path);
    m_path = path;
    m_referenceOrigin.clear(); // the user's own file from now on
    m_undo->setClean();
    m_forceModified = false;
    m_settings.addRecentFile(path);
    m_settings.save();
    rebuildRecentMenu();
    updateTitle();
    return true;
}

bool MainWindow::exportJson(const QString& given) {
    QString path = given;
    if (path.isEmpty()) {
        const QString stem = m_path.isEmpty() ? suggestedFileStem() : QFileInfo(m_path).completeBaseName();
        path = m_prompts->saveFileName(this, QDir(dialogFolder()).filePath(stem + QStringLiteral(".json")),
                                       true);
        if (path.isEmpty()) return false;
    }
    if (QFileInfo(path).suffix().toLower() != QLatin1String("json")) path += QStringLiteral(".json");
    if (!writeTo(path)) return false;
    statusBar()->showMessage(tr("Exported %1").arg(path), 3000);
    return true;
}

bool MainWindow::exportReport(const QString& given, std::optional<ReportFormat> givenFormat) {
    const auto& project = m_document.project();
    QString path = given;
    if (path.isEmpty()) {
        const auto target = m_prompts->reportTarget(
            this,
            QDir(dialogFolder()).filePath(tr("%1 report").arg(suggestedFileStem()) + QStringLiteral(".pdf")));
        if (!target) return false;
        path = target->path;
        givenFormat = target->format;
    }
    if (evaluationPending()) evaluateNow();
    QApplication::setOverrideCursor(Qt::WaitCursor);
    const auto restoreCursor = qScopeGuard([] { QApplication::restoreOverrideCursor(); });
    const ReportFormat format = givenFormat.value_or(reportFormatForPath(path.toStdString()));
    try {
        ReportInput in;
        in.project = &project;
        in.results = &m_results;
        in.assumptions = model::mergeAssumptions(m_defaults, project.assumptions);
        const cost::ScenarioInput scenario{&project, &m_catalog, m_defaults};
        // The sensitivity and uncertainty sections need a defined $/GPU-hour; a design without GPUs still
        // gets the rest of its report.
        try {
            in.tornado = cost::tornado(scenario, "finance.cost_per_gpu_hour_usd");
        } catch (const model::InputError&) {
        }
        if (!uncertaintyPending() && !m_uncertaintyFailed && !m_uncertainty->last().empty()) {
            in.uncertainty = m_uncertainty->last(); // what the dashboard shows, same samples and seed
        } else {
            try {
                in.uncertainty = cost::uncertainty(scenario, cost::headlineOutputs(m_results),
                                                   UncertaintyRunner::kSamples, UncertaintyRunner::kSeed);
            } catch (const model::InputError&) {
            }
        }
        writeReport(in, format, path.toStdString());
    } catch (const std::exception& e) {
        m_prompts->showError(
            this, tr("Export report"),
            tr("The report was not written to %1:\n%2").arg(path, QString::fromUtf8(e.what())));
        return false;
    }
    statusBar()->showMessage(
        tr("Exported the %1 report to %2").arg(QString::fromLatin1(reportFormatName(format)).toUpper(), path),
        5000);
    return true;
}

void MainWindow::closeAnalysisTab(int index) {
    if (index < m_fixedTabs) return; // the design tabs stay
    QWidget* w = m_tabs->widget(index);
    m_tabs->removeTab(index);
    w->deleteLater(); // a running sweep is cancelled and joined by its view
}

bool MainWindow::uncertaintyPending() const {
    return !m_uncertaintyFailed &&
           (m_uncertaintyTimer.isActive() || m_uncertainty->lastGeneration() != m_uncertainty->generation());
}

bool MainWindow::maybeSave() {
    if (!isModified()) return true;
    // Save is the default answer only for the user's own design, not for a copy of a shipped reference.
    switch (m_prompts->askSaveChanges(this, documentName(), m_referenceOrigin.isEmpty())) {
    case UserPrompts::SaveChoice::Save:
        return save();
    case UserPrompts::SaveChoice::Discard:
        m_autosave->discard();
        return true;
    case UserPrompts::SaveChoice::Cancel:
        break;
    }
    return false;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    m_autosave->discard();
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    event->accept();
}

// --- document events -> views ----------------------------------------------------------------------------

void MainWindow::documentChanged(const model::ChangeSet& changes) {
    m_incremental.noteChange(changes); // evaluateNow patches only what changed
    m_lastChanged.clear();
    for (const auto& c : changes.entities) {
        if (m_lastChanged.size() >= kLastChangedKept) break;
        m_lastChanged << qs(c.id);
    }
    m_tree->applyChanges(m_document.project(), changes);
    m_scene->applyChanges(m_document.project(), changes);
    // Drop selected ids that no longer exist (undo of an add, delete).
    QStringList still;
    for (const QString& id : std::as_const(m_selection)) {
        QString loop;
        if (id == views::kDesignRootId)
            still << id;
        else if (views::CduItem::parseItemId(id, &loop, nullptr)
                     ? m_document.index().find(loop.toStdString()).has_value()
                     : m_document.index().find(id.toStdString()).has_value())
            still << id;
    }
    if (still.size() != m_selection.size())
        setSelection(still, Source::Program);
    else
        m_inspector->refresh(m_document);
    if (changes.touches(model::EntityKind::RackPlacement) || changes.touches(model::EntityKind::CoolingLoop))
        updateLegend();
    // Visible 3D views follow each change in place (results follow in evaluateNow); hidden ones rebuild
    // when shown.
    if (m_campus && !m_campusStale && m_tabs->currentWidget() == m_campusTab)
        m_campus->applyChanges(changes, m_document.project(), m_catalog, nullptr);
    else
        m_campusStale = true;
    if (m_siteMap && !m_siteMapStale && m_tabs->currentWidget() == m_siteMapTab) {
        m_siteMapAwaitsResults =
            m_siteMap->applyChanges(changes, m_document.project(), m_catalog, &m_results);
    } else
        m_siteMapStale = true;
    if (!m_evalTimer.isActive()) m_evalTimer.start();
    updateTitle();
    updateActions();
}

void MainWindow::documentReset() {
    m_incremental.reset();
    m_selection.clear();
    m_tree->showProject(m_document.project());
    m_scene->showProject(m_document.project());
    // A design just opened has its own item selected: the tree's current item, its selection and the
    // inspector (the design's name, description and sources) agree (issue 36: the top item looked selected
    // while the inspector said "Nothing selected").
    setSelection({views::kDesignRootId}, Source::Program);
    updateLegend();
    m_evalTimer.stop();
    evaluateNow();
    m_campusStale = m_siteMapStale = true;
    refreshSpatialTab();
    updateActions();
}

void MainWindow::evaluateNow() {
    m_evalTimer.stop();
    QElapsedTimer clock;
    clock.start();
    // The last results share the compiled design (no view reads it): dropped first, the incremental
    // evaluator patches the design in place instead of copying its per-rack arrays.
    m_results.bom.compiled.reset();
    m_results = m_incremental.evaluate(m_document.project(), m_catalog, m_defaults);
    const double evalMs = clock.nsecsElapsed() / 1e6;
    m_inspector->setResolvedInputs(m_results.inputs); // absent optional fields show the value used
    m_dashboard->showResults(m_results);
    m_rules->showRules(m_results.rules);
    // The Figures tab is a table of every figure (hundreds of rows): filled when it is shown, like the
    // Timeline and Power tabs.
    m_figuresStale = m_timelineStale = m_powerStale = true;
    fillFrontLazyTab();
    m_lastEvaluationMs = clock.nsecsElapsed() / 1e6;
    m_uncertainty->cancel(); // its answer would be for the design before this change
    m_uncertaintyTimer.start();
    if (m_campus && !m_campusStale) m_campus->showResults(&m_results);
    // The site map drew an edited site or link before this evaluation (estimated figures): redraw it once
    // with the results; other edits leave the map alone.
    if (m_siteMapAwaitsResults && m_siteMap && !m_siteMapStale && m_tabs->currentWidget() == m_siteMapTab)
        m_siteMap->showResults(m_document.project(), m_catalog, &m_results);
    m_siteMapAwaitsResults = false;
    int errors = 0, warnings = 0;
    for (const auto& r : m_results.rules)
        (r.severity == cost::Severity::Error ? errors : warnings) += r.severity != cost::Severity::Info;
    const auto count = [](qsizetype n, const QString& one, const QString& many) {
        return (n == 1 ? one : many).arg(n);
    };
    m_evalLabel->setText(tr("%1 · %2, %3 · evaluated in %4 ms")
                             .arg(count(static_cast<qsizetype>(m_document.project().racks.size()),
                                        tr("%1 rack"), tr("%1 racks")),
                                  count(errors, tr("%1 error"), tr("%1 errors")),
                                  count(warnings, tr("%1 warning"), tr("%1 warnings")))
                             .arg(evalMs, 0, 'f', 1));
}

void MainWindow::updateLegend() {
    QString html;
    for (const auto& e : m_scene->legend())
        html += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
                    .arg(e.color.name(), e.text.toHtmlEscaped());
    m_legend->setText(html);
}

// --- selection ---------------------------------------------------------------------------------------------

void MainWindow::select(const QStringList& ids) {
    setSelection(ids, Source::Program);
}

void MainWindow::setSelection(const QStringList& ids, Source source) {
    m_selection = ids;
    if (source != Source::Tree) m_tree->selectIds(ids);
    if (source != Source::Plan) {
        const QRectF r = m_scene->selectIds(ids);
        if (source == Source::Tree || source == Source::Rules) {
            const QRectF target = r.isNull() && ids.size() == 1 ? m_scene->entityRect(ids.front()) : r;
            if (!target.isNull()) m_floor->reveal(target);
        }
    }
    // A CDU stands for its loop in the inspector.
    QStringList entities;
    for (const QString& id : ids) {
        QString loop;
        const QString e = views::CduItem::parseItemId(id, &loop, nullptr) ? loop : id;
        if (!entities.contains(e)) entities << e;
    }
    m_inspector->showSelection(m_document, entities);
    if (m_campus && source != Source::Campus) {
        const QStringList racks = selectedRacks();
        m_campus->setSelectedRack(racks.isEmpty() ? QString() : racks.front());
    }
    updateActions();
}

void MainWindow::applyDateCursor() {
    m_scene->setUnenergisedHalls(m_unenergisedHalls);
    if (!m_campus) return;
    const auto& halls = m_document.project().halls;
    std::vector<bool> dimmed(m_unenergisedHalls.isEmpty() ? 0 : halls.size(), false);
    for (std::size_t i = 0; i < dimmed.size(); ++i)
        dimmed[i] = m_unenergisedHalls.contains(QString::fromStdString(halls[i].id));
    m_campus->setDimmedHalls(dimmed);
}

views::CampusView* MainWindow::showCampus() {
    m_tabs->setCurrentWidget(m_campusTab);
    return m_campus;
}

views::SiteMapView* MainWindow::showSiteMap() {
    m_tabs->setCurrentWidget(m_siteMapTab);
    return m_siteMap;
}

void MainWindow::refreshSpatialTab() {
    QWidget* current = m_tabs->currentWidget();
    if (current != m_campusTab && current != m_siteMapTab) return;
    // The 3D views need a platform with OpenGL windows; the offscreen platform of the widget tests has none.
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) {
        if (current->layout()->isEmpty()) {
            auto* note =
                new QLabel(tr("The 3D views need OpenGL, which this display platform lacks."), current);
            note->setAlignment(Qt::AlignCenter);
            current->layout()->addWidget(note);
        }
        return;
    }
    if (evaluationPending()) evaluateNow();
    const auto& project = m_document.project();
    if (current == m_campusTab) {
        if (!m_campus) {
            m_campus = new views::CampusView(m_campusTab);
            m_campusTab->layout()->addWidget(m_campus);
            connect(m_campus, &views::CampusView::rackPicked, this, [this](const QString& id) {
                setSelection(id.isEmpty() ? QStringList{} : QStringList{id}, Source::Campus);
            });
        }
        if (m_campusStale) {
            m_campus->showProject(project, m_catalog, &m_results);
            applyDateCursor();
            const QStringList racks = selectedRacks();
            m_campus->setSelectedRack(racks.isEmpty() ? QString() : racks.front());
            m_campusStale = false;
        }
    } else {
        if (!m_siteMap) {
            m_siteMap = new views::SiteMapView(m_siteMapTab);
            m_siteMapTab->layout()->addWidget(m_siteMap);
            connectSiteMap();
        }
        if (m_siteMapStale) {
            m_siteMap->showProject(project, m_catalog, &m_results);
            m_siteMapStale = false;
        }
    }
}

void MainWindow::updateActions() {
    const bool any = !m_selection.isEmpty() && m_selection != QStringList{views::kDesignRootId};
    m_deleteAction->setEnabled(any);
    m_rotateAction->setEnabled(!selectedRacks().isEmpty());
    m_copyAction->setEnabled(!selectedRacks().isEmpty());
    m_authoring->updateActions();
}

QStringList MainWindow::selectedRacks() const {
    QStringList racks;
    for (const QString& id : m_selection)
        if (const auto slot = m_document.index().find(id.toStdString());
            slot && slot->kind == model::EntityKind::RackPlacement)
            racks << id;
    return racks;
}

QString MainWindow::hallOfSelection() const {
    const auto& p = m_document.project();
    for (const QString& id : m_selection) {
        QString loop;
        if (views::CduItem::parseItemId(id, &loop, nullptr)) {
            for (const auto& l : p.coolingLoops)
                if (qs(l.id) == loop) return qs(l.hall);
            continue;
        }
        const auto slot = m_document.index().find(id.toStdString());
        if (!slot) continue;
        if (slot->kind == model::EntityKind::RackPlacement) {
            const std::string row = p.racks[slot->index].row;
            for (const auto& r : p.rows)
                if (r.id == row) return qs(r.hall);
        }
        if (slot->kind == model::EntityKind::Row) return qs(p.rows[slot->index].hall);
        if (slot->kind == model::EntityKind::DataHall) return id;
    }
    return {};
}

void MainWindow::report(const QString& error) {
    statusBar()->showMessage(error, 8000);
}

} // namespace ctwin::app
