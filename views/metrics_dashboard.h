#pragma once
#include "display_units.h"
#include "evaluate.h"
#include "scenarios.h"
#include "uncertainty_skew.h"

#include <QHash>
#include <QWidget>
#include <map>
#include <string>

class QLabel;
QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QPieSeries;
class QBarSet;
class QBarCategoryAxis;
class QValueAxis;
class QStackedBarSeries;
QT_END_NAMESPACE

namespace ctwin::views {

class MetricTile;

/// The live metrics dashboard: tiles for the headline figures, a capex pie by category and the cost
/// waterfall from annualized capex and opex to the annual TCO, followed by the chain to $/GPU-hour and
/// $/M tokens. Every figure's tooltip is its provenance (formula, inputs, sources).
class MetricsDashboard : public QWidget {
    Q_OBJECT
public:
    explicit MetricsDashboard(QWidget* parent = nullptr);
    void setUnits(const DisplayUnits& units);
    void showResults(const cost::Results& results);
    /// P10/P50/P90 of the headline figures (cost::uncertainty over `samples` draws) under the cost tiles and
    /// in a line below the chain. showResults() greys the ranges until the next call, since they belong to
    /// the design as it was before the edit.
    /// The cost per GPU-hour tile shows its P50 beside the base and, from `skew` (skewDrivers of its
    /// tornado), which assumption ranges pull the distribution away from the base.
    void showUncertainty(const std::map<std::string, cost::Percentiles>& percentiles, int samples,
                         const std::vector<SkewDriver>& skew = {});
    /// "base $2.62 below P50: skewed by the ranges of Utilization (+$0.21), ..." of the last
    /// showUncertainty; empty when the base is within 1 % of the P50.
    QString skewText() const;
    /// Hides the ranges (uncertainty could not be computed for this design); `reason` becomes the tooltip.
    void clearUncertainty(const QString& reason = {});
    /// The line under the chain ("Uncertainty (300 samples): TCO/yr P10 … P90 …"); empty when hidden.
    QString uncertaintyText() const;

    /// Tile keys: gpus, it_power, facility_power, pue, goodput, tokens_per_mw, cost_per_gpu_hour,
    /// cost_per_m_training_tokens, cost_per_m_output_tokens.
    MetricTile* tile(const QString& key) const { return m_tiles.value(key); }
    int updateCount() const { return m_updates; }
    /// The capex pie's slices as shown: legend label and value (USD). Categories under kPieGroupShare of the
    /// capex share one "Other" slice, so that the legend fits the dock; its tooltip lists them.
    QList<QPair<QString, double>> pieSlices() const;
    static constexpr double kPieGroupShare = 0.025;

protected:
    /// Follows the app's light/dark palette (chart_style.h).
    void changeEvent(QEvent* event) override;

private:
    /// Chart colours from the palette (the app's light or dark theme).
    void styleCharts();
    void addTile(const QString& key, const QString& caption, int row, int column);
    void setTile(const QString& key, const cost::Figure* figure, const QString& missing = QString());
    QLabel* chainStep();
    void setChain(QLabel* label, const QString& caption, const cost::Figure* figure);
    /// The cost figures of the tiles that the chain repeats (null when not shown).
    struct CostTiles {
        const cost::Figure *perGpuHour, *perTrainingToken, *perOutputToken;
    };
    CostTiles showTiles(const cost::Results& r);
    void showCapexPie(const cost::Results& r);
    void showWaterfall(const cost::Results& r);
    QString tooltipFor(const std::string& key) const;
    /// The figure `key` formatted with `value` in place of its own (same unit and display rules).
    QString formatAs(const std::string& key, double value) const;
    QString skewSentence(const std::string& key, double base, const cost::Percentiles& p,
                         const std::vector<SkewDriver>& skew) const;
    static QString skewExplanation();
    static constexpr int kTileColumns = 3;

    /// The second line a tile shows when it has no uncertainty range: the serving tile's carbon and water
    /// per M output tokens, with their bases in the tooltip; empty for the others.
    std::pair<QString, QString> restingLine(const QString& key) const;

    DisplayUnits m_units;
    QHash<QString, MetricTile*> m_tiles;
    QString m_envText, m_envTooltip; // restingLine of the tokens-per-MW tile
    std::map<std::string, cost::Figure> m_figures;
    QChart* m_pieChart = nullptr;
    QPieSeries* m_pie = nullptr;
    QChart* m_waterChart = nullptr;
    QStackedBarSeries* m_waterSeries = nullptr;
    QBarSet* m_waterBase = nullptr;
    QBarSet* m_waterUp = nullptr;
    QBarSet* m_waterTotal = nullptr;
    QBarCategoryAxis* m_waterX = nullptr;
    QValueAxis* m_waterY = nullptr;
    QStringList m_waterKeys;
    double m_waterTop = -1.0; ///< the waterfall's value-axis top before nice numbers (skip equal ranges)
    QLabel* m_chainCapex = nullptr;
    QLabel* m_chainAnnual = nullptr;
    QLabel* m_chainTco = nullptr;
    QLabel* m_chainGpuHour = nullptr;
    QLabel* m_chainTokens = nullptr;
    QLabel* m_uncertaintyLine = nullptr;
    /// Tile key -> figure key of the tiles that show a P10–P90 range.
    std::map<QString, std::string> m_rangeFigures;
    int m_updates = 0;
    QString m_skewText;
};

} // namespace ctwin::views
