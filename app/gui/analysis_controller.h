#pragma once
#include "assumption.h"
#include "catalog.h"
#include "display_units.h"
#include "evaluate.h"
#include "project.h"
#include "report/finance_report.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

class QMenu;
class QWidget;

namespace ctwin::views {
class ComparisonView;
class SweepView;
class TornadoView;
} // namespace ctwin::views

namespace ctwin::app {

/// The scenario tools of SPEC.md §4.9 in the desktop app: comparing the open design with other design
/// files, its sensitivity tornado and parameter sweeps. Loads and evaluates the designs, computes
/// comparisons and tornados with the engine, hands each result view to the owner as a tab (showTab) and
/// recomputes when a view asks (another baseline, another output). The views never run the engine
/// themselves, except the sweep, which runs it on its own worker thread.
///
/// `catalog` and `defaults` are read at every use and must outlive the controller; `currentProject` returns
/// the open design; `currentName` its display name, or its path (a path naming an existing file lets the
/// controller refuse that file as "the design itself" by path as well as by content).
class AnalysisController : public QObject {
    Q_OBJECT
public:
    AnalysisController(QWidget* window, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                       std::function<const model::Project&()> currentProject,
                       std::function<QString()> currentName,
                       std::function<void(QWidget*, const QString& title)> showTab);
    ~AnalysisController() override;

    /// Adds "Compare designs…", "Sensitivity (tornado)…" and "Parameter sweep…".
    void populateMenu(QMenu* menu);
    /// Display units of the views opened from now on.
    void setUnits(const views::DisplayUnits& units) { m_units = units; }

    /// Compares the open design (first, the baseline) with 1 to 5 design files (.json or .ctwin) and shows
    /// the comparison as a tab. nullptr, with the reason in `error`, when a file cannot be read, is the open
    /// design itself (same path or same content) or twice the same, a design has no workload, or the
    /// number of files is out of range.
    views::ComparisonView* compareWith(const QStringList& paths, QString* error = nullptr);
    /// Evaluates the open design again and shows it in `view` (a comparison this controller opened) against
    /// the same other designs and baseline. False, with the reason in `error` and the view unchanged, when
    /// the open design now has no workload or equals one of the others.
    bool refreshComparison(views::ComparisonView* view, QString* error = nullptr);
    /// The tornado of the open design for `output` as a tab; nullptr and `error` when the engine refuses.
    views::TornadoView* openTornado(const std::string& output = "finance.cost_per_gpu_hour_usd",
                                    QString* error = nullptr);
    /// A sweep view of the open design as a tab (the sweep itself starts from the view's Run button).
    views::SweepView* openSweep(QString* error = nullptr);
    /// Writes the comparison shown by `view` (one this controller opened) as a report; the format follows
    /// the extension (.pdf, .xlsx, .json; anything else is a CSV directory).
    bool exportComparison(views::ComparisonView* view, const QString& path, QString* error = nullptr,
                          std::optional<ReportFormat> format = std::nullopt);

    /// What Compare does when the open design has no workload: `add` adds a default workload and returns
    /// an error or empty; without it Compare only explains why it cannot compare.
    void setAddWorkload(std::function<QString()> add) { m_addWorkload = std::move(add); }
    /// Who answers "add a default workload?" (true = add); a message box unless set (tests set it).
    void setWorkloadQuestion(std::function<bool(const QString& question)> ask) {
        m_askAddWorkload = std::move(ask);
    }
    /// Compare's first step: true when the open design has a workload, or got one because the user
    /// accepted the offer; false (nothing compared) otherwise.
    bool ensureWorkload();

    /// The reference designs (from index.json in referenceDirectory()): display name and path.
    static QList<std::pair<QString, QString>> referenceDesigns();

private:
    struct ComparisonData;
    /// The interactive versions: dialogs for choices, message boxes for errors.
    void chooseAndCompare();
    void showTornado();
    void showSweep();
    void exportWithDialog(views::ComparisonView* view);
    void recomputeComparison(views::ComparisonView* view, int baseline);
    void recomputeTornado(views::TornadoView* view, const std::string& output);
    void showError(const QString& title, const QString& message) const;
    QString designName(const model::Project& project, const QString& fallback) const;

    QWidget* m_window;
    const model::Catalog& m_catalog;
    const model::AssumptionSet& m_defaults;
    std::function<const model::Project&()> m_currentProject;
    std::function<QString()> m_currentName;
    std::function<void(QWidget*, const QString&)> m_showTab;
    views::DisplayUnits m_units;
    std::map<views::ComparisonView*, std::shared_ptr<ComparisonData>> m_comparisons;
    QString m_lastDirectory;
    std::function<bool(const QString&)> m_askAddWorkload;
    std::function<QString()> m_addWorkload;
};

} // namespace ctwin::app
