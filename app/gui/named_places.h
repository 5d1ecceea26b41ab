#pragma once
// The named places of data/places.json (town or city centres with their sources) as a combo box, shared by
// Insert > Site and File > New from target: picking a place fills latitude and longitude.
class QComboBox;
class QWidget;

namespace ctwin::app {

/// A combo whose first item is "(type the coordinates)" (no data) and then one item per place of
/// <dataDirectory()>/places.json: text the place's name, data QStringList{lat, lon} (4 decimals), tooltip
/// its source. A missing or unreadable file leaves the first item only. At most kMaxPlaces places are read.
QComboBox* makePlaceCombo(QWidget* parent = nullptr);

/// Bound on the places read from the file (it ships ~50; a stranger's file cannot flood the combo).
inline constexpr int kMaxPlaces = 10000;

} // namespace ctwin::app
