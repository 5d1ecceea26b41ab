#pragma once
#include <QDateTime>
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <optional>

namespace ctwin::model {
class Document;
}

namespace ctwin::app {

/// Writes the open design to a side file every N seconds while it has unsaved changes, so a crash loses
/// at most N seconds of work. Side files live in the app's local data folder (or $CTWIN_AUTOSAVE_DIR),
/// named by a hash of the document's path ("untitled-<pid>" for new designs), each with a small .meta
/// file naming the original path; they are written atomically and removed on save, discard and close.
class Autosave : public QObject {
    Q_OBJECT
public:
    struct Recovery {
        QString autosavePath;
        QString documentPath; // empty for an untitled design
        QDateTime savedAt;
    };

    Autosave(const model::Document& document, std::function<bool()> isModified, QObject* parent = nullptr);
    ~Autosave() override;

    void setIntervalSeconds(int seconds);
    /// The path the document is (or will be) saved to; empty for untitled. Moves the side file with it.
    void setDocumentPath(const QString& path);
    /// Writes now if there are unsaved changes not yet autosaved; returns true when a file was written.
    bool saveNow();
    /// Removes this document's side file (after a save, a discard or a clean close).
    void discard();
    QString currentAutosavePath() const;

    static QString directory();
    static QString autosavePathFor(const QString& documentPath);
    /// An autosave for this document newer than the document file itself.
    static std::optional<Recovery> findRecovery(const QString& documentPath);
    /// Autosaves of untitled designs whose process is gone.
    static QList<Recovery> orphanedUntitled();
    /// Every autosave a session that is gone left behind: untitled designs and saved files with unsaved
    /// changes newer than the file (what start-up offers to recover), newest first.
    static QList<Recovery> leftBehind();
    static void remove(const Recovery& recovery);

signals:
    void autosaved(const QString& path);

private:
    const model::Document& m_document;
    std::function<bool()> m_isModified;
    QTimer m_timer;
    QString m_documentPath;
    std::uint64_t m_savedRevision = 0;
    bool m_written = false;
};

} // namespace ctwin::app
