#pragma once
#include <QHash>
#include <QStringList>
#include <QWidget>
#include <vector>

class QChart;
class QLabel;
class QLineSeries;
class QScrollArea;
class QSlider;
class QTableWidget;

namespace ctwin::cost {
struct Results;
struct Timeline;
} // namespace ctwin::cost

namespace ctwin::views {

class PhaseGantt;

/// The Timeline tab: the design on its monthly time axis (cost/timeline.h). A chart of the
/// energised IT power and GPUs earning and, on a second axis, the cumulative cash with the peak funding and
/// payback marked; the dated figures in one line; a table of the phases (hall, building, energisation,
/// shares, refresh policy, first refresh). Above them a Gantt of the phases and their GPU cohorts
/// (PhaseGantt): dragging a hall's bars moves its energisation date (phaseDateRequested; the window makes it
/// an undoable edit). Double-clicking a phase selects its hall, whose energisation date and refresh policy
/// the inspector edits (undoable like every edit). A date cursor (slider) walks the
/// months: the chart marks it, and the halls not yet energised at that month are announced
/// (dateCursorMoved) for the floor plan and the 3D view to grey out.
class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    /// Shows the timeline of `results`, or why there is none (its Error rules).
    void showResults(const cost::Results& results);

    QChart* chart() const { return m_chart; }
    QTableWidget* phaseTable() const { return m_phases; }
    QLabel* summaryLabel() const { return m_summary; }
    QSlider* dateCursor() const { return m_cursor; }
    PhaseGantt* gantt() const { return m_gantt; }
    QLabel* dateCursorLabel() const { return m_cursorLabel; }
    /// Halls whose phase energises after the cursor's month, with their energisation month as text.
    const QHash<QString, QString>& unenergisedHalls() const { return m_unenergised; }

signals:
    void entityActivated(const QString& entityId);
    /// The cursor moved (or the timeline changed): hall id -> its energisation month (YYYY-MM) for every
    /// hall not yet energised at the cursor; empty at the end of the horizon or without a timeline.
    void dateCursorMoved(const QHash<QString, QString>& unenergisedHalls);
    /// The user moved hall `hall`'s phase on the Gantt to energise on `isoDate` (YYYY-MM-01).
    void phaseDateRequested(const QString& hall, const QString& isoDate);

protected:
    void changeEvent(QEvent* event) override;

private:
    void updateCursor();
    /// The Gantt rows and the phase table of a computed timeline (showResults' parts).
    void showGantt(const cost::Timeline& t);
    void showPhaseTable(const cost::Timeline& t);

    QChart* m_chart = nullptr;
    QSlider* m_cursor = nullptr;
    QLabel* m_cursorLabel = nullptr;
    QLineSeries* m_cursorLine = nullptr;
    double m_cursorLo = 0, m_cursorHi = 1; // the cash axis range the cursor line spans
    /// What the cursor reads: each phase's hall and energisation month, and the month dates.
    struct PhaseMark {
        QString hall;
        int month = 0;
        double itMw = 0;
    };
    std::vector<PhaseMark> m_marks;
    QStringList m_monthText;
    QStringList m_monthDates; ///< each month's first day (YYYY-MM-01), empty when undated
    PhaseGantt* m_gantt = nullptr;
    QScrollArea* m_ganttScroll = nullptr;
    QHash<QString, QString> m_unenergised;
    bool m_cursorAtEnd = true;
    QLabel* m_summary = nullptr;
    QTableWidget* m_phases = nullptr;
};

} // namespace ctwin::views
