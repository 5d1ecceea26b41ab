// MainWindow: crash recovery of autosaves left behind by an earlier session (start-up, untitled, File >
// Recover). Split from main_window.cpp to keep it under the house's 1,000-line bar.
#include "gui/autosave.h"
#include "gui/user_prompts.h"
#include "main_window.h"

#include <QFileInfo>
#include <QLocale>
#include <QStatusBar>

namespace ctwin::app {

bool MainWindow::offerUntitledRecovery() {
    return offerRecovery(Autosave::orphanedUntitled());
}

bool MainWindow::offerStartupRecovery() {
    return offerRecovery(Autosave::leftBehind());
}

void MainWindow::noteLeftBehindAutosaves() {
    const int n = static_cast<int>(Autosave::leftBehind().size());
    if (n > 0)
        statusBar()->showMessage(
            tr("%n design(s) with unsaved changes from an earlier session: File > Recover unsaved designs",
               nullptr, n));
}

bool MainWindow::offerRecovery(const QList<Autosave::Recovery>& candidates) {
    for (const auto& r : candidates) {
        const QString name = !r.documentPath.isEmpty()  ? QFileInfo(r.documentPath).fileName()
                             : r.originalName.isEmpty() ? tr("an untitled design")
                                                        : tr("an unsaved copy of %1").arg(r.originalName);
        if (!m_prompts->askRestoreAutosave(this, name, QLocale().toString(r.savedAt, QLocale::ShortFormat))) {
            Autosave::remove(r);
            continue;
        }
        try {
            m_document.reset(Autosave::load(r, &m_catalog));
        } catch (const std::exception& e) {
            m_prompts->showError(this, tr("Cannot restore autosave"), QString::fromUtf8(e.what()));
            continue;
        }
        afterLoad(r.documentPath, true); // unsaved: Save writes it to the file it came from (if any)
        // The restored design is this session's autosave at once (not at the next tick, up to a minute
        // later); the old side file goes only once that copy is on disk.
        m_autosave->takeOver(r);
        statusBar()->showMessage(tr("Restored unsaved changes of %1 from the autosave").arg(name), 5000);
        return true;
    }
    return false;
}

} // namespace ctwin::app
