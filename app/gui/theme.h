#pragma once
#include "app_settings.h"

class QIcon;

namespace ctwin::app {

/// Applies the light, dark or system palette (Fusion style for light and dark so both look the same on
/// every desktop); returns whether the result is dark.
bool applyTheme(AppSettings::Theme theme);
/// The application icon, drawn in code (the same design as resources/clustertwin.svg, which needs no SVG
/// image plugin at run time).
QIcon appIcon();

} // namespace ctwin::app
