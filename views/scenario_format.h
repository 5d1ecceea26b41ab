#pragma once
#include "display_units.h"
#include "figure.h"

#include <QString>
#include <map>
#include <string>
#include <vector>

class QComboBox;

namespace ctwin::views {

/// Text helpers shared by the comparison, tornado and sweep views. Values reach these views as raw figure
/// values (cost::Figure::value, in the unit its key names), so they are formatted here the way the
/// dashboard and the reports show them: money with the currency and a scale, shares, IRR and goodput as
/// percentages, power per the power setting.
namespace scenario_format {

/// A figure value in its unit ("$2.31/GPU-h", "48.6%", "1.25").
QString figureValue(const DisplayUnits& units, const std::string& key, double value, const std::string& unit);
/// A signed difference of a figure, in the figure's unit ("+$1.20 M", "-0.05", "+3.1%" for shares, as
/// percentage points).
QString figureDelta(const DisplayUnits& units, const std::string& key, double delta, const std::string& unit);
/// "+12.3%"; "—" when the baseline is zero (cost::compareDesigns reports 0 there).
QString percentDelta(double percent);
/// An assumption input value as typed (up to 6 significant digits, no exponent for ordinary values).
QString inputValue(double value);
/// "electricity_usd_per_kwh" (or "assumptions.electricity_usd_per_kwh") -> "electricity usd per kwh".
QString assumptionLabel(const std::string& key);

/// The figures a tornado or a sweep can show: unit and label by figure key.
struct OutputChoices {
    std::map<std::string, std::string> unitOf;
    std::map<std::string, std::string> labelOf;

    /// Records `figures` and refills `combo` with them ("Label  (key)", the key as item data) without
    /// emitting signals; selects `current`, or when it is not among them the first figure
    /// (`firstWhenAbsent`) or nothing.
    void fill(QComboBox* combo, const std::vector<cost::Figure>& figures, const std::string& current,
              bool firstWhenAbsent);
};

} // namespace scenario_format

} // namespace ctwin::views
