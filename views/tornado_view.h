#pragma once
#include "display_units.h"
#include "evaluate.h"
#include "scenario_format.h"
#include "scenarios.h"

#include <QWidget>
#include <map>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
QT_BEGIN_NAMESPACE
class QChart;
class QHorizontalBarSeries;
QT_END_NAMESPACE

namespace ctwin::views {

/// One-at-a-time sensitivity of a figure (SPEC.md §4.9): for every assumption, the figure at the
/// assumption's low and at its high value against the base, widest swing first, as a tornado chart and a
/// table. The owner computes the cost::Tornado; picking another output only asks for one (outputChanged).
class TornadoView : public QWidget {
    Q_OBJECT
public:
    /// The chart shows the widest swings only, so the bars stay readable; the table lists every one.
    static constexpr int kChartBars = 12;
    /// Item data role of the table's number cells (double).
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit TornadoView(QWidget* parent = nullptr);
    void setUnits(const DisplayUnits& units) { m_units = units; }
    /// The figures offered as outputs (the current evaluation's), with `current` selected.
    void setOutputs(const std::vector<cost::Figure>& figures, const std::string& current);
    std::string currentOutput() const;
    void showTornado(const cost::Tornado& tornado);
    const cost::Tornado& tornado() const { return m_tornado; }
    /// Shows why no tornado could be computed (the engine's InputError text) and clears the bars.
    void showError(const QString& message);
    QString message() const;

    QComboBox* outputCombo() const { return m_output; }
    QPushButton* refreshButton() const { return m_refresh; }
    QTableWidget* table() const { return m_table; }
    QChart* chart() const { return m_chart; }
    /// Bottom to top as Qt draws a horizontal bar series: the last category is the widest swing.
    QHorizontalBarSeries* series() const { return m_series; }

signals:
    void outputChanged(const QString& key);
    /// Recompute with the design as it is now (it may have changed since this tornado).
    void refreshRequested();

protected:
    /// Follows the app's light/dark palette (chart_style.h).
    void changeEvent(QEvent* event) override;

private:
    void fillChart();
    void fillTable();
    QString format(double value) const;

    DisplayUnits m_units;
    scenario_format::OutputChoices m_outputs;
    QString outputLabel() const;
    cost::Tornado m_tornado;
    QComboBox* m_output = nullptr;
    QPushButton* m_refresh = nullptr;
    QLabel* m_message = nullptr;
    QChart* m_chart = nullptr;
    QHorizontalBarSeries* m_series = nullptr;
    QTableWidget* m_table = nullptr;
};

} // namespace ctwin::views
