#pragma once
#include "project.h"

#include <QDateTime>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <optional>

namespace ctwin::model {
class Catalog;
class Document;
} // namespace ctwin::model

namespace ctwin::app {

/// Writes the open design to a side file every N seconds while it has unsaved changes, so a crash loses
/// at most N seconds of work. Side files live in the app's local data folder (or $CTWIN_AUTOSAVE_DIR).
///
/// What is guaranteed: a side file is one file written atomically (model::SaveTemp: a temporary,
/// flushed, renamed over), and it carries its own metadata in its first line (the design's path and the
/// writing session), so at every moment the folder holds either the previous autosave or the new one, each
/// complete and self-describing; a kill at any point of writing never leaves work that recovery ignores.
/// Each session writes files of its own name (`<design>-<hash>-<pid>-<random>.ctwin-autosave`,
/// `untitled-<pid>-<random>.ctwin-autosave`), so two sessions, or a session and the crashed one it
/// recovers, never overwrite each other. A restored autosave is written again as this session's own at
/// once, and only then is the old one removed (takeOver). Side files of earlier versions (a bare design
/// `.json` with a `.meta` beside it, or without one when the writer was killed between the two) are read.
///
/// A side file's owner is a SessionOwner (boot id + process start time, not a bare pid): an autosave is
/// offered for recovery when its owner is gone, and never while it runs.
class Autosave : public QObject {
    Q_OBJECT
public:
    struct Recovery {
        QString autosavePath;
        QString documentPath; // empty for an untitled design (or one whose file the side file does not name)
        QDateTime savedAt;
        QString originalName; // the design's file name, when known only from an old side file's name
    };

    Autosave(const model::Document& document, std::function<bool()> isModified, QObject* parent = nullptr);
    ~Autosave() override;

    void setIntervalSeconds(int seconds);
    /// The path the document is (or will be) saved to; empty for untitled. Moves the side file with it.
    void setDocumentPath(const QString& path);
    /// Writes now if there are unsaved changes not yet autosaved; returns true when a file was written.
    bool saveNow();
    /// After `recovery` was restored into the document (and setDocumentPath was called): writes the
    /// restored design as this session's autosave at once, and only after that removes the recovered side
    /// file. When the write fails the old file stays until a later autosave, a save or a discard.
    bool takeOver(const Recovery& recovery);
    /// Removes this document's side file (after a save, a discard or a clean close), and any side file it
    /// took over.
    void discard();
    QString currentAutosavePath() const;

    static QString directory();
    /// Where versions before issue 27 kept the autosave of `documentPath` (with a `.meta` beside it):
    /// `<name>-<hash>.json`, or `untitled-<pid>.json` for an untitled design. Still read.
    static QString autosavePathFor(const QString& documentPath);
    /// The newest autosave of this document left by a session that is gone, when newer than the file.
    static std::optional<Recovery> findRecovery(const QString& documentPath);
    /// Autosaves of untitled designs (or of designs whose file is unknown) whose session is gone.
    static QList<Recovery> orphanedUntitled();
    /// Every autosave a session that is gone left behind: untitled designs and saved files with unsaved
    /// changes newer than the file (what start-up offers to recover), newest first.
    static QList<Recovery> leftBehind();
    /// The design a side file holds (either format). Throws InputError naming the side file.
    static model::Project load(const Recovery& recovery, const model::Catalog* catalog);
    static void remove(const Recovery& recovery);

    /// Test seam: called at each step of writing a side file ("temp-created", "temp-half-written",
    /// "temp-written", "committed", "done") and at the start of takeOver ("takeover"), so a test can kill
    /// the process exactly there. Empty by default.
    static void setStepHook(std::function<void(const char* step)> hook);

signals:
    void autosaved(const QString& path);

private:
    bool write();

    const model::Document& m_document;
    std::function<bool()> m_isModified;
    QTimer m_timer;
    QString m_documentPath;
    QString m_session;        // "<pid>-<random>": this object's part of its side files' names
    QStringList m_superseded; // taken over: removed once this session's own side file is written
    std::uint64_t m_savedRevision = 0;
    bool m_written = false;
};

} // namespace ctwin::app
