#pragma once
#include "figure.h"

#include <QString>

namespace ctwin::views {

/// How the views show quantities: the model and engine are SI (STYLE.md "Units and money"); these settings
/// only change display and the units of editor fields, never what is stored.
struct DisplayUnits {
    enum class PowerUnit { Auto, Kilowatt, Megawatt };
    PowerUnit power = PowerUnit::Auto;
    /// Lengths in feet instead of metres.
    bool imperial = false;
    /// Shown in place of "USD": every figure is in US dollars, the model's only currency (no preference
    /// changes it: a symbol without an exchange rate would relabel dollars).
    QString currency = QStringLiteral("$");

    static constexpr double kMetresPerFoot = 0.3048;

    QString lengthUnit() const { return imperial ? QStringLiteral("ft") : QStringLiteral("m"); }
    double lengthToDisplay(double metres) const { return imperial ? metres / kMetresPerFoot : metres; }
    double lengthFromDisplay(double shown) const { return imperial ? shown * kMetresPerFoot : shown; }
    /// The power unit an editor of a field of this typical magnitude (W) uses.
    QString powerUnitFor(double typicalWatts) const;
    double powerToDisplay(double watts, const QString& unit) const;
    double powerFromDisplay(double shown, const QString& unit) const;

    QString formatNumber(double value, int decimals = -1) const;
    QString formatPower(double watts) const;
    QString formatLength(double metres) const;
    /// Money with the currency symbol and a k/M/B suffix ("$8.93 B").
    QString formatMoney(double usd) const;
    /// A figure in its unit, with MW shown per the power setting and USD as the currency symbol.
    QString formatFigure(const cost::Figure& figure) const;
    /// "formula / inputs / sources" as rich text for a tooltip.
    static QString provenanceTooltip(const cost::Figure& figure);
};

} // namespace ctwin::views
