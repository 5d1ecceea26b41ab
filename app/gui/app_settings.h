#pragma once
#include "display_units.h"

#include <QString>
#include <QStringList>

namespace ctwin::app {

/// User preferences kept in QSettings: display units, palette, autosave interval and
/// recent files. Window geometry and dock state are saved by the main window itself.
struct AppSettings {
    enum class Theme { System, Light, Dark };
    views::DisplayUnits units;
    Theme theme = Theme::System;
    int autosaveSeconds = 60;
    QStringList recentFiles;

    static constexpr int kMaxRecentFiles = 8;

    static AppSettings load();
    void save() const;
    void addRecentFile(const QString& path);
};

} // namespace ctwin::app
