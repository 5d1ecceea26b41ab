#pragma once
#include <QColor>
#include <QRectF>
#include <QString>
#include <functional>
#include <vector>

class QPainter;

namespace ctwin::app {

/// Charts of the PDF reports, painted with QPainter into a rectangle of the page (device pixels at the
/// painter's resolution). Text is real text, so it stays searchable and sharp.
using ValueFormatter = std::function<QString(double)>;

/// The i-th colour of the categorical palette (Tableau 10, M. Stone, Tableau Software, 2016), cycling.
QColor chartColor(size_t i);

struct BarItem {
    QString label;
    double value = 0;
    QString valueText;
    QColor color;
};
/// One horizontal bar per item, labels on the left, value text at the end of each bar.
void drawHorizontalBars(QPainter& p, const QRectF& rect, const std::vector<BarItem>& items);

struct TornadoItem {
    QString label; // assumption and its input range
    double outputAtLow = 0, outputAtHigh = 0;
};
/// Tornado chart: one bar per item from the base output to the outputs at the assumption's low and high
/// values, widest swing first (the order of `items`), with a legend and an axis.
void drawTornado(QPainter& p, const QRectF& rect, const std::vector<TornadoItem>& items, double base,
                 const ValueFormatter& format);

/// Stacked columns: one column per entry of `columns`, one segment per series (values[series][column]),
/// total above each column, legend on the right.
void drawStackedColumns(QPainter& p, const QRectF& rect, const std::vector<QString>& columns,
                        const std::vector<QString>& series, const std::vector<std::vector<double>>& values,
                        const ValueFormatter& format);

/// Yearly net cash flow as columns (negative red, positive green) and the cumulative cash flow as a line.
void drawCashFlowChart(QPainter& p, const QRectF& rect, const std::vector<double>& net,
                       const std::vector<double>& cumulative, const ValueFormatter& format);

} // namespace ctwin::app
