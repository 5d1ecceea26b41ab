#include "display_units.h"

#include <QLocale>
#include <cmath>

namespace ctwin::views {

QString DisplayUnits::powerUnitFor(double typicalWatts) const {
    switch (power) {
    case PowerUnit::Kilowatt:
        return QStringLiteral("kW");
    case PowerUnit::Megawatt:
        return QStringLiteral("MW");
    case PowerUnit::Auto:
        break;
    }
    return std::abs(typicalWatts) >= 1e6 ? QStringLiteral("MW") : QStringLiteral("kW");
}

double DisplayUnits::powerToDisplay(double watts, const QString& unit) const {
    return unit == QLatin1String("MW") ? watts / 1e6 : unit == QLatin1String("kW") ? watts / 1e3 : watts;
}

double DisplayUnits::powerFromDisplay(double shown, const QString& unit) const {
    return unit == QLatin1String("MW") ? shown * 1e6 : unit == QLatin1String("kW") ? shown * 1e3 : shown;
}

QString DisplayUnits::formatNumber(double v, int decimals) const {
    if (decimals < 0) {
        const double a = std::abs(v);
        const bool integral = a == std::floor(a) && a < 1e15;
        decimals = integral || a >= 1e4 ? 0 : a < 1 ? 3 : a < 100 ? 2 : 1;
    }
    return QLocale(QLocale::English).toString(v, 'f', decimals);
}

QString DisplayUnits::formatPower(double watts) const {
    const QString unit = powerUnitFor(watts);
    return formatNumber(powerToDisplay(watts, unit), 2) + QLatin1Char(' ') + unit;
}

QString DisplayUnits::formatLength(double metres) const {
    return formatNumber(lengthToDisplay(metres), 1) + QLatin1Char(' ') + lengthUnit();
}

QString DisplayUnits::formatMoney(double usd) const {
    const double a = std::abs(usd);
    struct Scale {
        double factor;
        const char* suffix;
    };
    for (const Scale s : {Scale{1e12, " T"}, Scale{1e9, " B"}, Scale{1e6, " M"}, Scale{1e3, " k"}})
        if (a >= s.factor) return currency + formatNumber(usd / s.factor, 2) + QLatin1String(s.suffix);
    return currency + formatNumber(usd, a < 10 ? 3 : 2);
}

QString DisplayUnits::formatFigure(const cost::Figure& f) const {
    const QString unit = QString::fromStdString(f.unit);
    if (unit == QLatin1String("MW")) return formatPower(f.value * 1e6);
    if (unit == QLatin1String("USD")) return formatMoney(f.value);
    if (unit.startsWith(QLatin1String("USD/"))) {
        if (std::abs(f.value) >= 1e4) return formatMoney(f.value) + QLatin1Char('/') + unit.mid(4);
        const int decimals = std::abs(f.value) < 1 ? 4 : 2;
        return currency + formatNumber(f.value, decimals) + QLatin1Char('/') + unit.mid(4);
    }
    return formatNumber(f.value) + (unit.isEmpty() ? QString() : QLatin1Char(' ') + unit);
}

QString DisplayUnits::provenanceTooltip(const cost::Figure& f) {
    QString tip = QStringLiteral("<b>%1</b> <i>(%2)</i><br><b>Formula:</b> %3")
                      .arg(QString::fromStdString(f.label).toHtmlEscaped(), QString::fromStdString(f.key),
                           QString::fromStdString(f.provenance.formula).toHtmlEscaped());
    if (!f.provenance.inputs.empty()) {
        tip += QStringLiteral("<br><b>Inputs:</b>");
        for (const auto& [name, value] : f.provenance.inputs)
            tip += QStringLiteral("<br>&nbsp;&nbsp;%1 = %2")
                       .arg(QString::fromStdString(name).toHtmlEscaped())
                       .arg(value, 0, 'g', 6);
    }
    if (!f.provenance.sources.empty()) {
        tip += QStringLiteral("<br><b>Sources:</b>");
        for (const auto& s : f.provenance.sources)
            tip += QStringLiteral("<br>&nbsp;&nbsp;") + QString::fromStdString(s).toHtmlEscaped();
    }
    return tip;
}

} // namespace ctwin::views
