#pragma once
#include <QColor>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <vector>

namespace ctwin::views {

/// A grid of values as coloured cells (a 2-D sweep): rows bottom to top, columns left to right, the colour
/// scale (viridis) with its range at the right, axis values along the edges thinned so they never
/// overlap. Cells without a value are drawn grey. Painted with QPainter: Qt Charts has no heatmap.
class HeatmapWidget : public QWidget {
    Q_OBJECT
public:
    using Formatter = std::function<QString(double)>;
    explicit HeatmapWidget(QWidget* parent = nullptr);

    /// `values` and `defined` are row-major, rows x columns (row 0 drawn at the bottom).
    void setData(int rows, int columns, std::vector<double> values, std::vector<bool> defined);
    void setAxes(const QString& rowTitle, const QStringList& rowLabels, const QString& columnTitle,
                 const QStringList& columnLabels);
    void setFormatter(Formatter format) { m_format = std::move(format); }
    void clear();

    int rows() const { return m_rows; }
    int columns() const { return m_columns; }
    double minimum() const { return m_min; }
    double maximum() const { return m_max; }
    /// The colour of a value on the current scale (viridis from the minimum to the maximum).
    QColor colorFor(double value) const;
    /// The cell under a widget position, or (-1, -1).
    std::pair<int, int> cellAt(const QPoint& pos) const;

    QSize minimumSizeHint() const override { return {320, 240}; }
    QSize sizeHint() const override { return {640, 480}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF plotRect() const;

    int m_rows = 0, m_columns = 0;
    std::vector<double> m_values;
    std::vector<bool> m_defined;
    double m_min = 0, m_max = 0;
    QString m_rowTitle, m_columnTitle;
    QStringList m_rowLabels, m_columnLabels;
    Formatter m_format;
};

} // namespace ctwin::views
