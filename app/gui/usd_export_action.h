#pragma once
#include "scene/scene_source.h"

#include <QString>

class QWidget;

namespace ctwin::app {

class UserPrompts;

/// File > Export OpenUSD campus: writes the campus as .usda (views::writeCampusUsda, the writer behind
/// `clustertwin-cli render --out X.usda`) to `path`, or, with `path` empty, where a save dialog says
/// (suggesting `suggested`). A path without the .usda extension gets it. Failures (an unwritable folder, a
/// read-only file) go to `prompts.showError`; the previous file stays as it was. Returns the file written,
/// empty when cancelled or failed.
QString exportCampusUsd(QWidget* parent, UserPrompts& prompts, const views::SceneSource& source,
                        const QString& suggested, QString path = {});

} // namespace ctwin::app
