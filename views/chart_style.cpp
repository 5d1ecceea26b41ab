#include "chart_style.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
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

QChartView* makeChartView(QChart* chart, QWidget* parent) {
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setMargins(QMargins(2, 2, 2, 2));
    chart->setBackgroundRoundness(0);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    return view;
}

QColor categoricalColor(std::size_t i) {
    static const QColor palette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                     QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                     QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                     QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
                                     QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};
    return palette[i % (sizeof palette / sizeof palette[0])];
}

QString capexCategoryLabel(const std::string& category) {
    static const std::pair<const char*, const char*> labels[] = {
        {"compute", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Compute")},
        {"scale_up_network", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Scale-up network")},
        {"scale_out_network", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Scale-out switches")},
        {"optics_cables", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Optics and cables")},
        {"storage", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Storage")},
        {"power", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Power")},
        {"cooling", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Cooling")},
        {"building", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Building and land")},
        {"scale_across", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Scale-across")},
        {"integration", QT_TRANSLATE_NOOP("ctwin::views::Charts", "Integration")}};
    for (const auto& [key, label] : labels)
        if (category == key) return QCoreApplication::translate("ctwin::views::Charts", label);
    return QString::fromStdString(category);
}

} // namespace ctwin::views
