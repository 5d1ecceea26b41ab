#pragma once
#include <QColor>
#include <QString>
#include <cstddef>
#include <string>

class QChart;
class QChartView;
class QPalette;
class QWidget;

namespace ctwin::views {

/// Colours a chart for the palette of the widget that shows it (the app's light or dark theme): plot and
/// chart background, title, legend labels, and every axis's labels, title, line and grid. Series colours are
/// left alone. Call after (re)building a chart's axes and on QEvent::PaletteChange.
void styleChartForPalette(QChart* chart, const QPalette& palette);

/// A view for one of the app's charts: no animation, square corners, small margins, antialiased.
QChartView* makeChartView(QChart* chart, QWidget* parent);

/// The i-th colour of the categorical palette, cycling: Tableau 10 (M. Stone, Tableau Software, 2016), in
/// the order of the report charts (app/report/pdf_charts.cpp), so capex category i has the same colour in
/// the dashboard, the comparison and the PDF.
QColor categoricalColor(std::size_t i);
/// Short display name of a capex category (cost::kCapexCategories) for chart legends.
QString capexCategoryLabel(const std::string& category);

} // namespace ctwin::views
