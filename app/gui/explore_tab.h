#pragma once
// The Explore tab: runs an exploration spec (data/explore/*.json) on a worker thread with
// progress and cancel, plots the feasible points and the Pareto set of two chosen figures (Qt Charts) with
// the open design marked, shows each point's choices on hover and in a table, and turns a Pareto point into
// an editable design ("Open as design").

#include "assumption.h"
#include "catalog.h"
#include "explore.h"
#include "project.h"

#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;
QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QScatterSeries;
QT_END_NAMESPACE

namespace ctwin::app {

class ExploreTab : public QWidget {
    Q_OBJECT
public:
    enum class State { Idle, Running, Finished, Cancelled, Failed };

    /// `currentProject` is the open design (marked on the plot); `openDesign(path)` opens a written design
    /// file in the window (false when the user kept the current one).
    ExploreTab(const model::Catalog& catalog, const model::AssumptionSet& defaults,
               std::function<const model::Project&()> currentProject,
               std::function<bool(const QString&)> openDesign, QWidget* parent = nullptr);
    /// Cancels a running exploration and waits for its thread.
    ~ExploreTab() override;

    /// Sets the spec file to run (as picking it in the combo box does).
    void setSpec(const QString& path);
    /// Starts the worker; false (reason in message()) when one is running or no spec is set.
    bool run();
    void cancel();
    /// Chooses the figures on the axes (figure keys of the spec); false when not offered.
    bool setAxes(const QString& x, const QString& y);
    /// Writes the design of Pareto row `row` (its layout and assumption choices) to `path` and opens it.
    /// False, with the reason in message(), when there is no such row or the file cannot be written.
    bool openAsDesign(int row, const QString& path);
    /// The tooltip text of the point nearest (x, y) in figure values (as hovering shows it).
    QString pointText(double x, double y) const;

    State state() const { return m_state; }
    QString message() const;
    const std::optional<cost::ExploreResult>& result() const { return m_result; }
    QTableWidget* paretoTable() const { return m_table; }
    QScatterSeries* feasibleSeries() const { return m_feasibleSeries; }
    QScatterSeries* paretoSeries() const { return m_paretoSeries; }
    QScatterSeries* currentSeries() const { return m_currentSeries; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QProgressBar* progressBar() const { return m_progress; }

signals:
    /// Emitted on the UI thread when a run ends (finished, cancelled or failed).
    void finished();

private:
    void finishRun(std::shared_ptr<const cost::Explorer> explorer,
                   std::vector<cost::ExplorePointRecord> records, std::optional<cost::ExploreResult> result,
                   QString error, bool cancelled);
    void replot();
    void fillTable();
    void updateButtons();
    void pickSpecFile();

    const model::Catalog* m_catalog;
    model::AssumptionSet m_defaults;
    std::function<const model::Project&()> m_currentProject;
    std::function<bool(const QString&)> m_openDesign;

    QComboBox* m_spec = nullptr;
    QComboBox* m_x = nullptr;
    QComboBox* m_y = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_open = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QChart* m_chart = nullptr;
    /// The chart's values are the figures divided by these (1, 1e3, 1e6 or 1e9; see replot).
    double m_xScale = 1.0, m_yScale = 1.0;
    QChartView* m_chartView = nullptr;
    QScatterSeries* m_feasibleSeries = nullptr;
    QScatterSeries* m_paretoSeries = nullptr;
    QScatterSeries* m_currentSeries = nullptr;
    QTableWidget* m_table = nullptr;

    State m_state = State::Idle;
    QString m_message;
    std::thread m_worker;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    std::shared_ptr<const cost::Explorer> m_explorer;
    std::vector<cost::ExplorePointRecord> m_feasible;
    std::optional<cost::ExploreResult> m_result;
};

} // namespace ctwin::app
