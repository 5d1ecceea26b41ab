#pragma once
#include "catalog.h"
#include "display_units.h"
#include "evaluate.h"
#include "project.h"
#include "scenario_format.h"
#include "scenarios.h"

#include <QWidget>
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ctwin::views {

class HeatmapWidget;

/// A parameter sweep (SPEC.md §4.9, §5): one output figure over a 1-D or 2-D grid of assumption values,
/// e.g. $/M tokens over electricity price x utilization. The sweep runs on a worker thread that owns copies
/// of the design, catalog and assumptions, so the document may change meanwhile; progress comes back to
/// the UI thread as queued calls; Cancel stops it between evaluations. The result is a table and a heatmap
/// (2-D) or a line chart (1-D).
class SweepView : public QWidget {
    Q_OBJECT
public:
    enum class State { Idle, Running, Finished, Cancelled, Failed };
    /// Item data role of the table's value cells (double; invalid where the figure is undefined).
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit SweepView(QWidget* parent = nullptr);
    /// Cancels a running sweep and waits for its thread.
    ~SweepView() override;

    /// Where a run takes its design from (copied when Run is pressed), with the catalog and the default
    /// assumptions (copied now). Fills the assumption choices from defaults + the design's overrides.
    void setSource(std::function<const model::Project&()> project, const model::Catalog& catalog,
                   const model::AssumptionSet& defaults);
    /// The figures offered as outputs, with `current` selected.
    void setOutputs(const std::vector<cost::Figure>& figures, const std::string& current);
    void setUnits(const DisplayUnits& units) { m_units = units; }

    /// Sets an axis (0 or 1) as the user would; an empty key on axis 1 makes the sweep 1-D. A key that is
    /// not offered leaves the axis unchanged and returns false.
    bool setAxis(int axis, const std::string& key, double low, double high, int steps);
    bool setOutput(const std::string& key);
    /// Validates the inputs and starts the worker; false (and the reason in message()) when they are invalid
    /// or a sweep is already running.
    bool run();
    /// Asks a running sweep to stop; it ends in State::Cancelled.
    void cancel();

    State state() const { return m_state; }
    QString message() const;
    const cost::SweepResult& result() const { return m_result; }
    /// Progress notifications the UI thread has handled in the current or last run.
    int progressUpdates() const { return m_progressUpdates; }

    QComboBox* axisKey(int axis) const { return m_axes[axis].key; }
    QLineEdit* axisLow(int axis) const { return m_axes[axis].low; }
    QLineEdit* axisHigh(int axis) const { return m_axes[axis].high; }
    QSpinBox* axisSteps(int axis) const { return m_axes[axis].steps; }
    QComboBox* outputCombo() const { return m_output; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QProgressBar* progressBar() const { return m_progress; }
    QTableWidget* table() const { return m_table; }
    HeatmapWidget* heatmap() const { return m_heatmap; }
    QChart* lineChart() const { return m_lineChart; }

signals:
    /// A run ended (finished, cancelled or failed).
    void runEnded(State state);

protected:
    /// Follows the app's light/dark palette (chart_style.h).
    void changeEvent(QEvent* event) override;

private:
    struct AxisControls {
        QComboBox* key = nullptr;
        QLineEdit* low = nullptr;
        QLineEdit* high = nullptr;
        QSpinBox* steps = nullptr;
    };
    void prefillRange(int axis);
    /// Fills both axis lists with the inputs the design's evaluation reads (m_inputs).
    void offerInputs();
    void showMessage(const QString& text, bool error);
    void setState(State state);
    void onProgress(int permille);
    void onFinished(const std::shared_ptr<cost::SweepResult>& result, const QString& error, double seconds);
    void showResult();
    QString formatOutput(double value) const;
    QString outputLabel() const;
    void joinWorker();

    DisplayUnits m_units;
    std::function<const model::Project&()> m_project;
    model::Catalog m_catalog;
    model::AssumptionSet m_defaults;
    model::AssumptionSet m_merged; // defaults + the design's overrides, for checking paths
    /// The inputs offered on the axes by override path (InputResolver grammar), with their ranges.
    std::map<std::string, cost::ResolvedInput> m_inputs;
    scenario_format::OutputChoices m_outputs;

    AxisControls m_axes[2];
    QComboBox* m_output = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_message = nullptr;
    QLabel* m_tableCaption = nullptr;
    QTableWidget* m_table = nullptr;
    QStackedWidget* m_plots = nullptr;
    HeatmapWidget* m_heatmap = nullptr;
    QChart* m_lineChart = nullptr;

    State m_state = State::Idle;
    cost::SweepResult m_result;
    int m_progressUpdates = 0;
    std::chrono::steady_clock::time_point m_runStart; ///< for the time-left estimate in onProgress
    QString m_runningText;                            ///< "Running N evaluations…"
    std::atomic<bool> m_cancel{false};
    std::thread m_worker;
};

} // namespace ctwin::views
