#include "chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QPalette>

namespace ctwin::views {

void styleChartForPalette(QChart* chart, const QPalette& palette) {
    if (!chart) return;
    const bool dark = palette.color(QPalette::Window).lightnessF() < 0.5;
    const QColor text = palette.color(QPalette::WindowText);
    const QColor grid = dark ? QColor(0x50, 0x50, 0x50) : QColor(0xdd, 0xdd, 0xdd);
    const QColor axisLine = dark ? QColor(0x90, 0x90, 0x90) : QColor(0x70, 0x70, 0x70);
    chart->setBackgroundBrush(palette.brush(QPalette::Window));
    chart->setPlotAreaBackgroundVisible(false);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
        axis->setGridLineColor(grid);
        axis->setLinePenColor(axisLine);
    }
}

} // namespace ctwin::views
