#include "scenario_format.h"

#include "scenarios.h"

#include <QComboBox>
#include <QLocale>
#include <QSignalBlocker>
#include <algorithm>
#include <cmath>

namespace ctwin::views::scenario_format {

using cost::isPercentFigure;

QString figureValue(const DisplayUnits& units, const std::string& key, double value,
                    const std::string& unit) {
    if (!std::isfinite(value)) return QStringLiteral("—");
    if (isPercentFigure(key)) return units.formatNumber(value * 100.0, 1) + QLatin1Char('%');
    cost::Figure f;
    f.key = key;
    f.value = value;
    f.unit = unit;
    return units.formatFigure(f);
}

QString figureDelta(const DisplayUnits& units, const std::string& key, double delta,
                    const std::string& unit) {
    if (!std::isfinite(delta)) return QStringLiteral("—");
    if (delta == 0.0) return QStringLiteral("0");
    // The formatters put a minus inside the currency ("$-1.2 M"); a leading sign reads better in a delta.
    const QString sign = delta < 0 ? QStringLiteral("-") : QStringLiteral("+");
    if (isPercentFigure(key))
        return sign + units.formatNumber(std::abs(delta) * 100.0, 1) + QStringLiteral(" pp");
    return sign + figureValue(units, key, std::abs(delta), unit);
}

QString percentDelta(double percent) {
    if (!std::isfinite(percent)) return QStringLiteral("—");
    if (percent == 0.0) return QStringLiteral("0%");
    return QStringLiteral("%1%2%").arg(percent > 0 ? QStringLiteral("+") : QString()).arg(percent, 0, 'f', 1);
}

QString inputValue(double value) {
    if (!std::isfinite(value)) return QStringLiteral("—");
    // 'g' keeps 0.04 and 200000 readable; 6 digits round-trips what a user types into the range fields.
    return QLocale::c().toString(value, 'g', 6);
}

QString assumptionLabel(const std::string& key) {
    std::string k = key;
    if (k.rfind("assumptions.", 0) == 0) k = k.substr(12);
    return QString::fromStdString(k).replace(QLatin1Char('_'), QLatin1Char(' '));
}

void OutputChoices::fill(QComboBox* combo, const std::vector<cost::Figure>& figures,
                         const std::string& current, bool firstWhenAbsent) {
    const QSignalBlocker block(combo);
    combo->clear();
    unitOf.clear();
    labelOf.clear();
    for (const auto& f : figures) {
        unitOf[f.key] = f.unit;
        labelOf[f.key] = f.label;
        combo->addItem(
            QStringLiteral("%1  (%2)").arg(QString::fromStdString(f.label), QString::fromStdString(f.key)),
            QString::fromStdString(f.key));
    }
    const int index = combo->findData(QString::fromStdString(current));
    combo->setCurrentIndex(firstWhenAbsent ? std::max(0, index) : index);
}

} // namespace ctwin::views::scenario_format
