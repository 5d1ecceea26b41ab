#pragma once
#include "display_units.h"
#include "evaluate.h"
#include "scenarios.h"

#include <QColor>
#include <QWidget>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;
QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ctwin::views {

/// Designs side by side (SPEC.md §4.9, §5): every figure of a cost::Comparison per design with its delta to
/// the baseline, the best value green and the worst red; capex by category, $/GPU-hour and $/M tokens as
/// charts; the engine's explanations of the big deltas below. The owner computes the comparison; choosing
/// another baseline only asks for a new one (baselineChangeRequested), so the view never runs the engine.
class ComparisonView : public QWidget {
    Q_OBJECT
public:
    /// Light backgrounds for the best and worst value of a row; the cell text is forced dark on them so
    /// they stay readable in the dark palette too.
    static inline const QColor kBestColor{0xc6, 0xef, 0xce};
    static inline const QColor kWorstColor{0xff, 0xc7, 0xce};
    /// Item data role of value and delta cells holding the raw number (double) behind the formatted text.
    static constexpr int kValueRole = Qt::UserRole + 1;

    explicit ComparisonView(QWidget* parent = nullptr);
    void setUnits(const DisplayUnits& units) { m_units = units; }
    /// Shows `comparison`; `results[i]` belongs to `comparison.names[i]` (the charts read capex by category
    /// and the token costs, which not every design has, from them).
    void showComparison(const cost::Comparison& comparison, const std::vector<cost::Results>& results);
    const cost::Comparison& comparison() const { return m_comparison; }

    /// Table layout: column 0 the figure, 1 the unit, then per design its value and, for every design but
    /// the baseline, the absolute and the percent delta.
    QTableWidget* table() const { return m_table; }
    int rowOf(const std::string& key) const;
    int valueColumn(size_t design) const;
    /// -1 for the baseline, which has no delta columns.
    int deltaColumn(size_t design) const;
    int percentColumn(size_t design) const;
    QComboBox* baselineCombo() const { return m_baseline; }
    QPushButton* exportButton() const { return m_export; }
    QPushButton* refreshButton() const { return m_refresh; }
    QChart* capexChart() const { return m_capexChart; }
    QChart* gpuHourChart() const { return m_gpuHourChart; }
    QChart* tokenChart() const { return m_tokenChart; }
    QLabel* explanationsLabel() const { return m_explanations; }

signals:
    /// The user picked another baseline; the owner recomputes and calls showComparison again.
    void baselineChangeRequested(int design);
    void exportRequested();
    /// The user asked for the open design as it is now (after edits) against the same other designs.
    void refreshRequested();

protected:
    /// Follows the app's light/dark palette (chart_style.h).
    void changeEvent(QEvent* event) override;

private:
    void fillTable();
    void fillCharts(const std::vector<cost::Results>& results);
    QString shortName(size_t design) const;
    /// The design's label on the charts' category axes: number and name on up to three lines (rich text).
    QString axisName(size_t design) const;

    DisplayUnits m_units;
    cost::Comparison m_comparison;
    QComboBox* m_baseline = nullptr;
    QPushButton* m_export = nullptr;
    QPushButton* m_refresh = nullptr;
    QLabel* m_designs = nullptr;
    QTableWidget* m_table = nullptr;
    QChart* m_capexChart = nullptr;
    QChart* m_gpuHourChart = nullptr;
    QChart* m_tokenChart = nullptr;
    QLabel* m_explanations = nullptr;
};

} // namespace ctwin::views
