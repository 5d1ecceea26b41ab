#pragma once
#include <QWidget>

class QChart;
class QLabel;
class QTableWidget;

namespace ctwin::cost {
struct Results;
}

namespace ctwin::views {

/// The Timeline tab (issue 34): the design on its monthly time axis (cost/timeline.h). A chart of the
/// energised IT power and GPUs earning and, on a second axis, the cumulative cash with the peak funding and
/// payback marked; the dated figures in one line; a table of the phases (hall, building, energisation,
/// shares, refresh policy, first refresh). Double-clicking a phase selects its hall, whose energisation date
/// and refresh policy the inspector edits (undoable like every edit).
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    /// Shows the timeline of `results`, or why there is none (its Error rules).
    void showResults(const cost::Results& results);

    QChart* chart() const { return m_chart; }
    QTableWidget* phaseTable() const { return m_phases; }
    QLabel* summaryLabel() const { return m_summary; }

signals:
    void entityActivated(const QString& entityId);

protected:
    void changeEvent(QEvent* event) override;

private:
    QChart* m_chart = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_phases = nullptr;
};

} // namespace ctwin::views
