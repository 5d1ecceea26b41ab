// MainWindow's actions, menus and toolbars: what the window offers and the shortcuts it binds (split from
// main_window.cpp, which keeps the document lifecycle, docks and change handling).
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
#include "gui/calibration_dialog.h"
#include "gui/dialog_prompts.h"
#include "gui/document_editor.h"
#include "gui/explore_tab.h"
#include "gui/help_dialog.h"
#include "gui/new_design_wizard.h"
#include "gui/settings_dialog.h"
#include "gui/theme.h"
#include "gui/uncertainty_runner.h"
#include "gui/usd_export_action.h"
#include "input_error.h"
#include "inspector_panel.h"
#include "main_window.h"
#include "metrics_dashboard.h"
#include "netbox.h"
#include "netbox_live.h"
#include "project_tree.h"
#include "report/finance_report.h"
#include "results_panel.h"
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
#include <QIcon>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QScopeGuard>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolBar>
#include <QUndoStack>
#include <QUndoView>
#include <QVBoxLayout>
#include <chrono>
#include <future>

namespace ctwin::app {

using ojson = nlohmann::ordered_json;

void MainWindow::buildActions() {
    m_undoAction = m_undo->createUndoAction(this, tr("&Undo"));
    m_undoAction->setShortcuts(QKeySequence::Undo);
    m_undoAction->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    m_redoAction = m_undo->createRedoAction(this, tr("&Redo"));
    m_redoAction->setShortcuts(QKeySequence::Redo); // every binding: Ctrl+Shift+Z and Ctrl+Y
    m_redoAction->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    // Ctrl+Z while typing in a field commits what was typed, then undoes (the field's own text undo would
    // leave the design and the field disagreeing).
    const auto commitThenUndo = [this](bool redo) {
        m_assumptionsDock->commitPending();
        m_lastChanged.clear();
        redo ? m_undo->redo() : m_undo->undo();
        revealLastChange();
    };
    for (QAction* a : {m_undoAction, m_redoAction}) {
        QObject::disconnect(a, &QAction::triggered, m_undo, nullptr);
        connect(a, &QAction::triggered, this,
                [commitThenUndo, redo = a == m_redoAction] { commitThenUndo(redo); });
    }
    m_assumptionsDock->setUndoHandler(commitThenUndo);
    m_saveAction = new QAction(style()->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save"), this);
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, this, [this] { save(); });
    m_deleteAction = new QAction(style()->standardIcon(QStyle::SP_TrashIcon), tr("&Delete"), this);
    m_deleteAction->setShortcuts({QKeySequence::Delete, QKeySequence(Qt::Key_Backspace)});
    m_deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_deleteAction, &QAction::triggered, this, &MainWindow::deleteSelection);
    m_copyAction = new QAction(tr("&Copy racks"), this);
    m_copyAction->setShortcut(QKeySequence::Copy);
    m_copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_copyAction, &QAction::triggered, this, &MainWindow::copySelection);
    m_pasteAction = new QAction(tr("&Paste racks"), this);
    m_pasteAction->setToolTip(tr("Paste the copied racks at the mouse position on the plan (else just below "
                                 "the copied racks), keeping their layout"));
    m_pasteAction->setStatusTip(m_pasteAction->toolTip());
    m_pasteAction->setShortcut(QKeySequence::Paste);
    m_pasteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_pasteAction, &QAction::triggered, this, &MainWindow::pasteClipboard);
    m_rotateAction = new QAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("&Rotate 90°"), this);
    m_rotateAction->setShortcut(QKeySequence(Qt::Key_R));
    m_rotateAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(m_rotateAction, &QAction::triggered, this, [this] {
        const QString error = m_editor->rotate(selectedRacks(), 90.0);
        if (!error.isEmpty()) report(error);
    });
    m_fillRowAction = new QAction(style()->standardIcon(QStyle::SP_ToolBarHorizontalExtensionButton),
                                  tr("&Fill row"), this);
    m_fillRowAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_fillRowAction->setToolTip(
        tr("Fill the selected rack's row up to the wall (rack type: the row's own, or the "
           "one picked in the catalog for an empty row)"));
    connect(m_fillRowAction, &QAction::triggered, this, &MainWindow::fillRow);
    // Shortcuts that only make sense on the plan act there, so typing in the inspector is never a delete.
    m_floor->addActions({m_deleteAction, m_copyAction, m_pasteAction, m_rotateAction});
    m_tree->addAction(m_deleteAction);
    m_snapAction = new QAction(tr("Snap to &grid"), this);
    m_snapAction->setCheckable(true);
    m_snapAction->setChecked(true);
    connect(m_snapAction, &QAction::toggled, this, [this](bool on) { m_scene->setSnapToGrid(on); });
    m_colorModes = new QActionGroup(this);
    const std::pair<QString, views::FloorPlanScene::ColorMode> modes[] = {
        {tr("Colour by rack &type"), views::FloorPlanScene::ColorMode::RackType},
        {tr("Colour by power &density"), views::FloorPlanScene::ColorMode::PowerDensity},
        {tr("Colour by cooling &loop"), views::FloorPlanScene::ColorMode::CoolingLoop}};
    for (const auto& [text, mode] : modes) {
        auto* a = m_colorModes->addAction(text);
        a->setCheckable(true);
        a->setChecked(mode == views::FloorPlanScene::ColorMode::RackType);
        connect(a, &QAction::triggered, this, [this, m = mode] {
            m_scene->setColorMode(m);
            updateLegend();
        });
    }
}

void MainWindow::updateThemedIcons() {
    // Fill row: three racks in a row and an arrow, drawn in the palette's text colour, so that it shows
    // on the dark theme's toolbar as on the light one (the style's extension-button icon is black on
    // black there).
    const QColor ink = QApplication::palette().color(QPalette::WindowText);
    QIcon icon;
    for (const int size : {16, 24, 32}) {
        QPixmap pm(size, size);
        pm.fill(Qt::transparent);
        QPainter p(&pm);
        p.setRenderHint(QPainter::Antialiasing);
        const double u = size / 16.0;
        p.setPen(QPen(ink, 1.0 * u));
        p.setBrush(QColor(ink.red(), ink.green(), ink.blue(), 90));
        for (int i = 0; i < 3; ++i)
            p.drawRect(QRectF((1.5 + i * 3.5) * u, 4.5 * u, 2.8 * u, 7 * u));
        p.setBrush(ink);
        const QPointF arrow[] = {QPointF(12.2 * u, 5 * u), QPointF(15.5 * u, 8 * u),
                                 QPointF(12.2 * u, 11 * u)};
        p.drawPolygon(arrow, 3);
        p.end();
        icon.addPixmap(pm);
    }
    m_fillRowAction->setIcon(icon);
}

/// The File menu: new (blank, from a reference, from a target), open and recent, recovery, save and the
/// exports, quit. `newAction` and `openAction` go on the toolbar too.
void MainWindow::buildFileMenu(QAction*& newAction, QAction*& openAction) {
    auto* file = menuBar()->addMenu(tr("&File"));
    newAction = file->addAction(style()->standardIcon(QStyle::SP_FileIcon), tr("&New"), QKeySequence::New,
                                this, [this] {
                                    if (maybeSave()) newDesign();
                                });
    auto* fromReference = file->addMenu(tr("New from &reference"));
    // The reference index names and summarises each design; fall back to the file list without it.
    const QString refDir = QString::fromStdString(referenceDirectory());
    QFile index(refDir + QStringLiteral("/index.json"));
    if (index.open(QIODevice::ReadOnly)) {
        for (const auto& v : QJsonDocument::fromJson(index.readAll()).array()) {
            const QJsonObject o = v.toObject();
            const QString path = refDir + QLatin1Char('/') + o.value(QStringLiteral("file")).toString();
            auto* a =
                fromReference->addAction(o.value(QStringLiteral("name")).toString(), this, [this, path] {
                    if (maybeSave()) newFromReference(path);
                });
            a->setToolTip(o.value(QStringLiteral("summary")).toString());
            a->setStatusTip(o.value(QStringLiteral("summary")).toString());
        }
        fromReference->setToolTipsVisible(true);
    }
    file->addAction(tr("New from &target..."), this, [this] {
        if (maybeSave()) newFromTarget();
    });
    openAction = file->addAction(
        style()->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open..."), QKeySequence::Open, this, [this] {
            const QString path =
                m_prompts->openFileName(this, m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).path());
            if (!path.isEmpty()) openWithPrompt(path);
        });
    m_recentMenu = file->addMenu(tr("Open &recent"));
    // Autosaves another session left behind (a crash, a kill): offered at start-up without a file argument,
    // and here at any time, e.g. after starting on a file.
    auto* recover = file->addAction(tr("Re&cover unsaved designs..."), this, [this] {
        if (Autosave::leftBehind().isEmpty()) {
            statusBar()->showMessage(tr("No unsaved changes from another session are left to recover"), 5000);
            return;
        }
        if (maybeSave()) offerStartupRecovery();
    });
    recover->setObjectName(QStringLiteral("recoverAction"));
    connect(file, &QMenu::aboutToShow, recover,
            [recover] { recover->setEnabled(!Autosave::leftBehind().isEmpty()); });
    file->addSeparator();
    file->addAction(m_saveAction);
    // Ctrl+Shift+S on every platform (QKeySequence::SaveAs is empty on some, e.g. offscreen and KDE).
    file->addAction(tr("Save &as..."), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                    [this] { saveAs(); });
    file->addAction(tr("&Export JSON..."), this, [this] { exportJson(); });
    file->addAction(tr("Export &report (PDF, XLSX, CSV, JSON, charts)..."),
                    QKeySequence(Qt::CTRL | Qt::Key_E), this, [this] { exportReport(); });
    // The campus as OpenUSD ASCII for facility twins, the writer `render --out X.usda`
    // uses.
    file->addAction(tr("Export Open&USD campus (.usda)..."), this, [this] {
        if (evaluationPending()) evaluateNow();
        const QString dir = m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).path();
        const QString written =
            exportCampusUsd(this, *m_prompts, {m_document.project(), m_catalog, &m_results},
                            dir + QLatin1Char('/') + QString::fromStdString(m_document.project().info.id) +
                                QStringLiteral(".usda"));
        if (!written.isEmpty()) statusBar()->showMessage(tr("Exported %1").arg(written), 3000);
    });
    addNetBoxActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::addNetBoxActions(QMenu* file) {
    auto* exportNetBox = file->addAction(tr("Export &NetBox files..."), this, [this] {
        const QString dir = m_prompts->folder(this, tr("Folder for the NetBox import files"), dialogFolder());
        if (dir.isEmpty()) return;
        try {
            const auto files = cost::netbox::exportNetBox(m_document.project(), m_catalog);
            cost::netbox::writeNetBoxExport(dir.toStdString(), files);
            statusBar()->showMessage(
                tr("Wrote %1 NetBox %2 files to %3 (import the CSV files in their numbered order; for NetBox "
                   "4.6 without cooling objects: clustertwin-cli export-netbox --netbox-version 4.6)")
                    .arg(files.size())
                    .arg(QString::fromUtf8(cost::netbox::kNetBoxVersion))
                    .arg(QDir::toNativeSeparators(dir)),
                5000);
        } catch (const std::exception& e) {
            m_prompts->showError(this, tr("Cannot export NetBox files"), QString::fromUtf8(e.what()));
        }
    });
    exportNetBox->setObjectName(QStringLiteral("exportNetBoxAction"));
    // Both imports end here: the folder's objects become the open design (unsaved work, as a design from the
    // New wizard) and the log is shown. Anything that throws before leaves the open design unchanged.
    const auto importFolder = [this](const std::string& dir, std::vector<std::string> log) {
        auto result = cost::netbox::importNetBoxFolder(dir, m_catalog);
        m_document.reset(std::move(result.project));
        afterLoad(QString(), true);
        log.insert(log.end(), result.log.begin(), result.log.end());
        QStringList lines;
        for (const auto& l : log)
            lines << QString::fromStdString(l);
        m_prompts->inform(this, tr("NetBox import"), lines.isEmpty() ? QString() : lines.back(),
                          lines.join(QLatin1Char('\n')));
    };
    auto* importNetBox = file->addAction(tr("&Import NetBox folder..."), this, [this, importFolder] {
        if (!maybeSave()) return;
        const QString dir =
            m_prompts->folder(this, tr("Folder of saved NetBox API responses"), dialogFolder());
        if (dir.isEmpty()) return;
        try {
            importFolder(dir.toStdString(), {});
        } catch (const std::exception& e) {
            m_prompts->showError(this, tr("Cannot import NetBox folder"), QString::fromUtf8(e.what()));
        }
    });
    importNetBox->setObjectName(QStringLiteral("importNetBoxAction"));
    // A live NetBox (app/netbox_live.h): the pages are fetched on a worker thread into a private temporary
    // folder while the window keeps painting, then imported as a saved folder.
    auto* importLive = file->addAction(tr("Import from &live NetBox..."), this, [this, importFolder] {
        if (!maybeSave()) return;
        const auto connection = m_prompts->netBoxConnection(this);
        if (!connection) return;
        try {
            if (connection->token.isEmpty())
                throw std::runtime_error(
                    "no API token: NetBox answers only with one (read permission on dcim)");
            QTemporaryDir pages;
            if (!pages.isValid()) throw std::runtime_error("cannot make a temporary folder");
            NetBoxLiveOptions options;
            options.url = connection->url.toStdString();
            options.token = connection->token.toStdString();
            const std::string dir = pages.path().toStdString();
            auto fetch = std::async(std::launch::async, [options, dir] { return fetchNetBox(options, dir); });
            QApplication::setOverrideCursor(Qt::BusyCursor);
            while (fetch.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready)
                QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
            QApplication::restoreOverrideCursor();
            importFolder(dir, fetch.get()); // get() rethrows the worker's error
        } catch (const std::exception& e) {
            m_prompts->showError(this, tr("Cannot import from NetBox"), QString::fromUtf8(e.what()));
        }
    });
    importLive->setObjectName(QStringLiteral("importLiveNetBoxAction"));
}

void MainWindow::buildMenus() {
    QAction* newAction = nullptr;
    QAction* openAction = nullptr;
    buildFileMenu(newAction, openAction);

    auto* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_undoAction);
    edit->addAction(m_redoAction);
    edit->addSeparator();
    edit->addAction(m_copyAction);
    edit->addAction(m_pasteAction);
    edit->addAction(m_deleteAction);
    edit->addSeparator();
    edit->addAction(m_rotateAction);
    edit->addAction(m_fillRowAction);
    edit->addSeparator();
    edit->addAction(tr("&Preferences..."), this, [this] {
        SettingsDialog dialog(m_settings, this);
        if (dialog.exec() == QDialog::Accepted) applySettings(dialog.settings());
    });

    auto* insert = menuBar()->addMenu(tr("&Insert"));
    m_authoring->populateInsertMenu(insert);
    // Drawn on the floor plan: the rectangle fills the form's position and size (drawnRectanglePreset).
    insert->addSeparator();
    auto* drawBuilding = insert->addAction(tr("Draw &building on the plan"), this, [this] {
        m_tabs->setCurrentIndex(0);
        m_floor->startDrawing(static_cast<int>(views::FloorPlanScene::DrawKind::Building));
        statusBar()->showMessage(tr("Drag a rectangle on a site's campus for the building (Esc cancels)"));
    });
    drawBuilding->setObjectName(QStringLiteral("drawBuildingAction"));
    auto* drawHall = insert->addAction(tr("Draw data &hall on the plan"), this, [this] {
        m_tabs->setCurrentIndex(0);
        m_floor->startDrawing(static_cast<int>(views::FloorPlanScene::DrawKind::Hall));
        statusBar()->showMessage(tr("Drag a rectangle inside a building for the hall (Esc cancels)"));
    });
    drawHall->setObjectName(QStringLiteral("drawHallAction"));
    connect(insert, &QMenu::aboutToShow, this, [this, drawBuilding, drawHall] {
        drawBuilding->setEnabled(!m_document.project().sites.empty());
        drawHall->setEnabled(!m_document.project().buildings.empty());
    });

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    m_viewMenu->addAction(tr("&Fit plan"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                          [this] { m_floor->fitAll(); });
    m_viewMenu->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { m_floor->zoomBy(1.25); });
    m_viewMenu->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { m_floor->zoomBy(0.8); });
    m_viewMenu->addSeparator();
    m_viewMenu->addActions(m_colorModes->actions());
    m_viewMenu->addAction(m_snapAction);
    m_viewMenu->addSeparator();
    for (auto* d : findChildren<QDockWidget*>())
        m_viewMenu->addAction(d->toggleViewAction());

    auto* analysis = menuBar()->addMenu(tr("&Analysis"));
    m_analysis->populateMenu(analysis);
    analysis->addAction(tr("Design-space e&xploration…"), this, [this] {
        auto* tab = new ExploreTab(
            m_catalog, m_defaults, [this]() -> const model::Project& { return m_document.project(); },
            [this](const QString& path) { return openWithPrompt(path); });
        m_tabs->setCurrentIndex(m_tabs->addTab(tab, tr("Explore")));
    });
    analysis->addAction(tr("&Calibrate to measured serving runs..."), this,
                        [this] { CalibrationDialog(m_catalog, this).exec(); });
    analysis->addSeparator();
    analysis->addAction(tr("Close analysis &tab"), QKeySequence::Close, this,
                        [this] { closeAnalysisTab(m_tabs->currentIndex()); });

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Manual"), QKeySequence::HelpContents, this, [this] { showManual(this); });
    help->addAction(tr("&Keyboard shortcuts"), this, [this] { showShortcuts(this); });
    help->addSeparator();
    help->addAction(tr("&About ClusterTwin"), this, [this] {
        QMessageBox::about(this, tr("About ClusterTwin"),
                           tr("<b>ClusterTwin %1</b><p>Digital twin and TCO planner for AI clusters.</p>"
                              "<p>Hover any figure to see its formula, inputs and sources.</p>")
                               .arg(QApplication::applicationVersion()));
    });

    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(newAction);
    bar->addAction(openAction);
    bar->addAction(m_saveAction);
    bar->addSeparator();
    bar->addAction(m_undoAction);
    bar->addAction(m_redoAction);
    bar->addSeparator();
    bar->addAction(m_deleteAction);
    bar->addAction(m_rotateAction);
    bar->addAction(m_fillRowAction);
    bar->addSeparator();
    auto* colour = new QComboBox(bar);
    colour->addItems({tr("Rack type"), tr("Power density"), tr("Cooling loop")});
    colour->setToolTip(tr("Colour racks by"));
    connect(colour, &QComboBox::activated, this, [this](int i) { m_colorModes->actions().at(i)->trigger(); });
    connect(m_colorModes, &QActionGroup::triggered, colour, [this, colour](QAction* a) {
        colour->setCurrentIndex(static_cast<int>(m_colorModes->actions().indexOf(a)));
    });
    bar->addWidget(new QLabel(tr(" Colour: "), bar));
    bar->addWidget(colour);
    bar->addAction(m_snapAction);
    addToolBarBreak();
    auto* insertBar = addToolBar(tr("Insert"));
    insertBar->setObjectName(QStringLiteral("insertToolBar"));
    insertBar->addWidget(new QLabel(tr(" Add: "), insertBar));
    m_authoring->populateToolBar(insertBar);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    for (const QString& path : std::as_const(m_settings.recentFiles))
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openWithPrompt(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!m_settings.recentFiles.isEmpty());
}

} // namespace ctwin::app
