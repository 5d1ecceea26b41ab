#pragma once
// A MainWindow for widget tests: the build's data, test-mode settings, autosaves in a scratch folder,
// every question answered by ScriptedPrompts, no autosave timer.
#include "data_paths.h"
#include "main_window.h"
#include "scripted_prompts.h"

#include <QByteArray>
#include <QSize>
#include <QStandardPaths>
#include <QString>
#include <memory>

/// Points the app at the build's data and keeps settings and autosaves out of the user's home.
inline void useTestEnvironment(const QString& autosaveDir) {
    QStandardPaths::setTestModeEnabled(true);
    qputenv("CTWIN_DATA_DIR", CTWIN_BUILD_DATA_DIR);
    qputenv("CTWIN_AUTOSAVE_DIR", autosaveDir.toUtf8());
}

/// A shown MainWindow on the default catalog and assumptions; its prompts come back through `prompts`
/// (owned by the window). The caller waits for it: QVERIFY(QTest::qWaitForWindowExposed(w.get())).
inline std::unique_ptr<ctwin::app::MainWindow> makeTestWindow(ScriptedPrompts** prompts = nullptr,
                                                              QSize size = QSize(1400, 900)) {
    auto w = std::make_unique<ctwin::app::MainWindow>(ctwin::app::loadDefaultCatalog(),
                                                      ctwin::app::loadDefaultAssumptions());
    auto scripted = std::make_unique<ScriptedPrompts>();
    if (prompts) *prompts = scripted.get();
    w->setPrompts(std::move(scripted));
    w->setAutosaveInterval(0);
    w->resize(size);
    w->show();
    return w;
}
