// MainWindow: crash recovery of autosaves left behind by an earlier session (start-up, untitled, File >
// Recover), and the message bar's notes about what was opened. Split from main_window.cpp to keep it under
// the house's 1,000-line bar.
#include "gui/autosave.h"
#include "gui/message_bar.h"
#include "gui/user_prompts.h"
#include "main_window.h"

#include <QDir>
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
    const QList<Autosave::Recovery> left = Autosave::leftBehind();
    if (left.isEmpty()) return;
    // Named, with when, in view until dismissed: a status-bar line is gone at the first hover.
    QStringList names;
    for (const auto& r : left) {
        if (names.size() == 3) {
            names << tr("and %n more", nullptr, static_cast<int>(left.size() - 3));
            break;
        }
        const QString name = !r.documentPath.isEmpty()  ? QFileInfo(r.documentPath).fileName()
                             : r.originalName.isEmpty() ? tr("an untitled design")
                                                        : tr("an unsaved copy of %1").arg(r.originalName);
        names << tr("%1 (%2)").arg(name.toHtmlEscaped(), QLocale().toString(r.savedAt, QLocale::ShortFormat));
    }
    const QString text =
        tr("<b>Unsaved work from an earlier session</b> (the app stopped before it was saved): "
           "%1. Recover it, or keep it for File &gt; Recover unsaved designs.")
            .arg(names.join(QStringLiteral(", ")));
    m_messageBar->showMessage(text, MessageBar::Level::Warning, {{tr("Recover..."), [this] {
                                                                      if (maybeSave()) offerStartupRecovery();
                                                                  }}});
}

void MainWindow::showReferenceCopyNote() {
    m_messageBar->showMessage(
        tr("<b>%1</b> is a reference design shipped with ClusterTwin. It is open as an untitled copy: "
           "the reference itself is never overwritten; Save asks where to keep your version.")
            .arg(QFileInfo(m_referenceOrigin).fileName().toHtmlEscaped()),
        MessageBar::Level::Info, {{tr("Save as..."), [this] { saveAs(); }}});
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
