#include "app_settings.h"

#include <QFileInfo>
#include <QSettings>

namespace ctwin::app {

AppSettings AppSettings::load() {
    QSettings s;
    AppSettings a;
    a.units.power =
        static_cast<views::DisplayUnits::PowerUnit>(std::clamp(s.value("units/power", 0).toInt(), 0, 2));
    a.units.imperial = s.value("units/imperial", false).toBool();
    a.theme = static_cast<Theme>(std::clamp(s.value("ui/theme", 0).toInt(), 0, 2));
    a.autosaveSeconds = std::clamp(s.value("autosave/seconds", 60).toInt(), 0, 3600);
    a.recentFiles = s.value("files/recent").toStringList();
    return a;
}

void AppSettings::save() const {
    QSettings s;
    s.setValue("units/power", static_cast<int>(units.power));
    s.setValue("units/imperial", units.imperial);
    s.remove("units/currency"); // the former currency-symbol preference relabelled dollars; gone
    s.setValue("ui/theme", static_cast<int>(theme));
    s.setValue("autosave/seconds", autosaveSeconds);
    s.setValue("files/recent", recentFiles);
}

void AppSettings::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    recentFiles.removeAll(abs);
    recentFiles.prepend(abs);
    while (recentFiles.size() > kMaxRecentFiles)
        recentFiles.removeLast();
}

} // namespace ctwin::app
