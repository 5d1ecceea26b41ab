#pragma once
class QChart;
class QPalette;

namespace ctwin::views {

/// Colours a chart for the palette of the widget that shows it (the app's light or dark theme): plot and
/// chart background, title, legend labels, and every axis's labels, title, line and grid. Series colours are
/// left alone. Call after (re)building a chart's axes and on QEvent::PaletteChange.
void styleChartForPalette(QChart* chart, const QPalette& palette);

} // namespace ctwin::views
