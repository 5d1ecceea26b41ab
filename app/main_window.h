#pragma once
#include "catalog.h"
#include "document.h"
#include "evaluate.h"
#include "floor_plan_scene.h"
#include "gui/app_settings.h"
#include "gui/autosave.h"
#include "incremental_evaluator.h"
#include "report/finance_report.h"

#include <QMainWindow>
#include <QTimer>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QLabel;
class QMenu;
class QTabWidget;
class QUndoStack;
class QUndoView;

namespace ctwin::views {
class CampusView;
class CatalogPalette;
class SiteMapView;
class DesignRulesPanel;
class FloorPlanScene;
class FloorPlanView;
class InspectorPanel;
class MetricsDashboard;
class ProjectTree;
class ResultsPanel;
class TimelineView;
class PowerView;
} // namespace ctwin::views

namespace ctwin::app {

class AnalysisController;
class AssumptionsDock;
class MessageBar;
class AuthoringActions;
class DocumentEditor;
class UncertaintyRunner;
class UserPrompts;

/// The desktop main window: project tree, floor-plan editor and figures in the centre, inspector, catalog
/// palette, metrics dashboard, design rules and undo history in docks. Owns the open Document, its undo
/// stack and its lifecycle (new, open, save, autosave, close). Views emit intents; the DocumentEditor turns
/// them into undoable transactions; the document's change events refresh the views and schedule one
/// evaluation (STYLE.md "Edits flow one way").
class MainWindow : public QMainWindow, private model::DocumentListener {
    Q_OBJECT
public:
    MainWindow(model::Catalog catalog, model::AssumptionSet defaults, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a design (offering an autosave newer than the file); on failure shows the reason through the
    /// prompts and keeps the current document. Does not ask to save the current one (see openWithPrompt).
    bool openFile(const QString& path);
    /// Asks to save unsaved changes first, then opens.
    bool openWithPrompt(const QString& path);
    /// A new untitled design: a starter site with one building, one empty hall, two feeds and a loop.
    void newDesign();
    /// A copy of a reference design as a new untitled design.
    bool newFromReference(const QString& path);
    /// The shipped reference the open design is an untitled copy of (opened from the reference folder or
    /// File > New from reference); empty otherwise. Save never writes there (isShippedReference).
    const QString& referenceOrigin() const { return m_referenceOrigin; }
    /// The bar across the top of the centre (refused paste, reference opened as a copy, left-behind
    /// autosaves at start).
    MessageBar* messageBar() const { return m_messageBar; }
    /// Where the save and export dialogs start: the document's folder; for an untitled design the folder
    /// of the last file opened or saved (never the shipped reference folder), else home.
    QString dialogFolder() const;
    /// The file name (no folder, no extension) the dialogs suggest: the design's name made safe for a file
    /// name, else its id.
    QString suggestedFileStem() const;
    /// File > New from target: the generator wizard; its design becomes a new untitled design.
    bool newFromTarget();
    bool save();
    bool saveAs(const QString& path = {});
    bool exportJson(const QString& path = {});
    /// File > Export report: a finance report of the design as it is now (PDF, XLSX, JSON, CSV tables or the
    /// charts as PNG and SVG in a folder; without `format`, by the path's extension as `clustertwin-cli
    /// report` does), with the $/GPU-hour tornado and the dashboard's P10/P50/P90. Asks for the path and
    /// format when no path is given; errors go through the prompts.
    bool exportReport(const QString& path = {}, std::optional<ReportFormat> format = std::nullopt);
    /// Asks what to do with unsaved changes; false when the user cancels.
    bool maybeSave();
    /// Untitled autosaves of crashed sessions: offers each for recovery. Returns true when one was restored.
    bool offerUntitledRecovery();
    /// At start-up: every autosave an earlier session left behind (untitled or of a saved file), newest
    /// first, until the user restores one. Returns true when one was restored.
    bool offerStartupRecovery();
    /// Says in the status bar how many other designs' autosaves a gone session left (File > Recover).
    void noteLeftBehindAutosaves();
    /// The form fields a rectangle drawn on the plan fills (Insert > Draw ...): the building (hall) or site
    /// (building) under its centre, position in that frame, width and depth; `error` says why none fits.
    QHash<QString, QString> drawnRectanglePreset(views::FloorPlanScene::DrawKind kind, const QRectF& rect,
                                                 QString* error) const;

    /// Site map authoring: the site form with the clicked latitude and longitude filled in; the link form
    /// with both ends filled in (a link from a site to itself, or to no site, is refused with a message in
    /// the status bar). Return the new entity's id, empty when cancelled or refused.
    QString placeSiteAt(double latDeg, double lonDeg);
    QString linkSites(const QString& fromSite, const QString& toSite);

    void setPrompts(std::unique_ptr<UserPrompts> prompts);
    void setAutosaveInterval(int seconds);
    void applySettings(const AppSettings& settings);

    const model::Document& document() const { return m_document; }
    DocumentEditor& editor() { return *m_editor; }
    /// Insert menu, context-menu authoring, delete with confirmation, rename (app/gui/authoring).
    AuthoringActions& authoring() { return *m_authoring; }
    QUndoStack& undoStack() { return *m_undo; }
    Autosave& autosave() { return *m_autosave; }
    views::FloorPlanScene* floorScene() const { return m_scene; }
    views::FloorPlanView* floorView() const { return m_floor; }
    views::InspectorPanel* inspector() const { return m_inspector; }
    views::MetricsDashboard* dashboard() const { return m_dashboard; }
    views::ProjectTree* projectTree() const { return m_tree; }
    views::DesignRulesPanel* rulesPanel() const { return m_rules; }
    views::CatalogPalette* palette() const { return m_palette; }
    const cost::Results& lastResults() const { return m_results; }
    double lastEvaluationMs() const { return m_lastEvaluationMs; }
    const QString& filePath() const { return m_path; }
    bool isModified() const;
    const QStringList& selection() const { return m_selection; }
    void select(const QStringList& ids);
    /// Runs a pending evaluation now (tests; the UI coalesces edits with a zero-delay timer).
    void evaluateNow();
    bool evaluationPending() const { return m_evalTimer.isActive(); }
    /// Shows the 3D campus / site map tab (creating the view on first use); null on platforms without GL
    /// widgets (offscreen).
    views::CampusView* showCampus();
    views::SiteMapView* showSiteMap();
    /// Shows the Timeline tab, filled with the current results.
    views::TimelineView* showTimeline();
    /// Shows the Power tab, filled with the current results.
    views::PowerView* showPower();
    /// True until the P10/P50/P90 of the current design are on the dashboard (or failed).
    bool uncertaintyPending() const;
    UncertaintyRunner& uncertainty() { return *m_uncertainty; }
    /// The Analysis menu's comparison, tornado and sweep tools; their views open as closable tabs.
    AnalysisController& analysis() { return *m_analysis; }
    QTabWidget* tabs() const { return m_tabs; }
    /// The Assumptions dock and the design's properties in the inspector.
    AssumptionsDock& assumptionsDock() { return *m_assumptionsDock; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    enum class Source { Program, Tree, Plan, Rules, Campus, Map };
    void documentChanged(const model::ChangeSet& changes) override;
    void documentReset() override;
    /// Closes the tab at `index` when it is an analysis tab.
    void closeAnalysisTab(int index);
    /// Offers each autosave in turn until the user restores one (start-up and untitled recovery share it).
    bool offerRecovery(const QList<Autosave::Recovery>& candidates);
    /// The 3D campus and the site map are built the first time their tab is shown (a GL context and a
    /// 14,000-rack scene are not free) and rebuilt on show when the design changed while they were hidden.
    void refreshSpatialTab();
    void buildDocks();
    void buildActions();
    void buildMenus();
    void buildFileMenu(QAction*& newAction, QAction*& openAction);
    /// File > Export NetBox files and File > Import NetBox folder (cost/netbox.h).
    void addNetBoxActions(QMenu* file);
    /// Icons drawn in the palette's colours (light or dark theme): redrawn when the theme changes.
    void updateThemedIcons();
    void rebuildRecentMenu();
    void setSelection(const QStringList& ids, Source source);
    void afterLoad(const QString& path, bool modified, const QString& referenceOrigin = {});
    /// The message bar's note on a shipped reference opened as an untitled copy, with Save as.
    void showReferenceCopyNote();
    void updateTitle();
    void updateActions();
    void updateLegend();
    void report(const QString& error);
    bool writeTo(const QString& path);
    QString documentName() const;
    QStringList selectedRacks() const;
    /// The hall at the centre of the floor plan's view, else the building or site there; empty when the
    /// view shows none.
    QString entityInView() const;
    QString hallOfSelection() const;
    void showPlanMenu(const QPoint& screenPos, const QStringList& ids);
    void showTreeMenu(const QPoint& screenPos, const QStringList& ids);
    /// The site map's signals -> authoring (app/main_window_drawing.cpp).
    void connectSiteMap();
    void showSiteMapMenu(const QPoint& screenPos, const QString& entity, double latDeg, double lonDeg,
                         bool onGlobe);
    /// After undo or redo: the plan shows what changed when it is off screen, and never stays on empty
    /// canvas.
    void revealLastChange();
    void copySelection();
    void pasteClipboard();
    void fillRow();
    void deleteSelection();

    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    model::Document m_document;
    QUndoStack* m_undo = nullptr;
    std::unique_ptr<DocumentEditor> m_editor;
    std::unique_ptr<AuthoringActions> m_authoring;
    std::unique_ptr<UserPrompts> m_prompts;
    /// Comparison, tornado and sweep tabs (Analysis menu). Declared after the catalog and assumptions it
    /// reads, so that it goes before them.
    std::unique_ptr<AnalysisController> m_analysis;
    /// Listens to m_document: declared after it, so that it goes first.
    std::unique_ptr<AssumptionsDock> m_assumptionsDock;
    Autosave* m_autosave = nullptr;
    AppSettings m_settings;
    bool m_dark = false;

    QTabWidget* m_tabs = nullptr;
    int m_fixedTabs = 0; ///< floor plan, figures, 3D campus, site map; analysis tabs follow and can close
    views::ProjectTree* m_tree = nullptr;
    views::FloorPlanScene* m_scene = nullptr;
    views::FloorPlanView* m_floor = nullptr;
    views::ResultsPanel* m_figuresTable = nullptr;
    /// The tab in front, when it is one filled only when shown (Figures, Timeline, Power) and stale: filled
    /// from the last results (main_window_tabs.cpp).
    void fillFrontLazyTab();
    views::TimelineView* m_timeline = nullptr; // the Timeline tab, filled when shown (like Figures)
    bool m_timelineStale = true;
    views::PowerView* m_power = nullptr; // the Power tab, filled when shown
    bool m_powerStale = true;
    /// The Timeline's date cursor: halls not yet energised (id -> month), greyed on the plan and in 3D.
    QHash<QString, QString> m_unenergisedHalls;
    void applyDateCursor();
    // Steps of the constructor.
    void buildCentralTabs();
    void connectUncertainty();
    void connectViews();
    views::InspectorPanel* m_inspector = nullptr;
    views::CatalogPalette* m_palette = nullptr;
    views::MetricsDashboard* m_dashboard = nullptr;
    views::DesignRulesPanel* m_rules = nullptr;
    QUndoView* m_history = nullptr;
    QWidget* m_campusTab = nullptr;
    QWidget* m_siteMapTab = nullptr;
    views::CampusView* m_campus = nullptr;
    views::SiteMapView* m_siteMap = nullptr;
    bool m_campusStale = true;
    bool m_siteMapStale = true;
    bool m_siteMapAwaitsResults = false; ///< redrawn after a site/link edit, before the evaluation ran
    bool m_figuresStale = true;          ///< the Figures table shows an older evaluation (filled when shown)
    QLabel* m_legend = nullptr;
    QLabel* m_evalLabel = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;

    QAction* m_saveAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_deleteAction = nullptr;
    QAction* m_copyAction = nullptr;
    QAction* m_pasteAction = nullptr;
    QAction* m_rotateAction = nullptr;
    QAction* m_fillRowAction = nullptr;
    QAction* m_snapAction = nullptr;
    QActionGroup* m_colorModes = nullptr;

    QString m_path;
    QString m_referenceOrigin;
    MessageBar* m_messageBar = nullptr;
    QStringList m_selection;
    /// Entities the last change set touched (at most kLastChangedKept; for revealLastChange).
    QStringList m_lastChanged;
    static constexpr qsizetype kLastChangedKept = 64;
    bool m_forceModified = false;
    QTimer m_evalTimer;
    UncertaintyRunner* m_uncertainty = nullptr;
    /// Waits for a pause in editing before sampling the assumptions again (a drag or typing would otherwise
    /// start and cancel hundreds of runs).
    QTimer m_uncertaintyTimer;
    bool m_uncertaintyFailed = false;
    cost::Results m_results;
    /// Re-evaluates after an edit from the document's change sets (cost/incremental_evaluator.h).
    cost::IncrementalEvaluator m_incremental;
    double m_lastEvaluationMs = 0.0;
};

} // namespace ctwin::app
