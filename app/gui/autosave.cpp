#include "autosave.h"

#include "design_json.h"
#include "document.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <algorithm>

namespace ctwin::app {

namespace {

QString metaPath(const QString& autosavePath) {
    return autosavePath + QStringLiteral(".meta");
}

std::optional<Autosave::Recovery> readMeta(const QString& autosavePath) {
    QFile f(metaPath(autosavePath));
    if (!QFileInfo::exists(autosavePath) || !f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    return Autosave::Recovery{autosavePath, o.value(QStringLiteral("path")).toString(),
                              QFileInfo(autosavePath).lastModified()};
}

} // namespace

Autosave::Autosave(const model::Document& document, std::function<bool()> isModified, QObject* parent)
    : QObject(parent), m_document(document), m_isModified(std::move(isModified)) {
    connect(&m_timer, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosave::~Autosave() = default;

QString Autosave::directory() {
    const QString env = qEnvironmentVariable("CTWIN_AUTOSAVE_DIR");
    const QString dir = env.isEmpty()
                            ? QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
                                  QStringLiteral("/autosave")
                            : env;
    QDir().mkpath(dir);
    return dir;
}

QString Autosave::autosavePathFor(const QString& documentPath) {
    if (documentPath.isEmpty())
        return directory() + QStringLiteral("/untitled-%1.json").arg(QCoreApplication::applicationPid());
    const QByteArray hash = QCryptographicHash::hash(QFileInfo(documentPath).absoluteFilePath().toUtf8(),
                                                     QCryptographicHash::Sha1)
                                .toHex();
    return directory() +
           QStringLiteral("/%1-%2.json")
               .arg(QFileInfo(documentPath).completeBaseName(), QString::fromLatin1(hash.left(12)));
}

QString Autosave::currentAutosavePath() const {
    return autosavePathFor(m_documentPath);
}

void Autosave::setIntervalSeconds(int seconds) {
    if (seconds <= 0) {
        m_timer.stop();
        return;
    }
    m_timer.start(seconds * 1000);
}

void Autosave::setDocumentPath(const QString& path) {
    if (path == m_documentPath) return;
    discard();
    m_documentPath = path;
    m_savedRevision = 0;
}

bool Autosave::saveNow() {
    if (!m_isModified || !m_isModified()) return false;
    if (m_written && m_document.revision() == m_savedRevision) return false;
    const QString path = currentAutosavePath();
    try {
        model::writeTextFileAtomic(path.toStdString(),
                                   model::dumpJson(model::projectToJson(m_document.project())));
        QJsonObject meta{{QStringLiteral("path"), m_documentPath.isEmpty()
                                                      ? QString()
                                                      : QFileInfo(m_documentPath).absoluteFilePath()},
                         {QStringLiteral("pid"), QCoreApplication::applicationPid()}};
        model::writeTextFileAtomic(metaPath(path).toStdString(), QJsonDocument(meta).toJson().toStdString());
    } catch (const std::exception& e) {
        qWarning("autosave to %s failed: %s", qPrintable(path), e.what());
        return false;
    }
    m_written = true;
    m_savedRevision = m_document.revision();
    emit autosaved(path);
    return true;
}

void Autosave::discard() {
    const QString path = currentAutosavePath();
    QFile::remove(path);
    QFile::remove(metaPath(path));
    m_written = false;
}

std::optional<Autosave::Recovery> Autosave::findRecovery(const QString& documentPath) {
    if (documentPath.isEmpty()) return std::nullopt;
    auto r = readMeta(autosavePathFor(documentPath));
    if (!r) return std::nullopt;
    const QFileInfo file(documentPath);
    if (file.exists() && file.lastModified() >= r->savedAt) return std::nullopt;
    r->documentPath = file.absoluteFilePath();
    return r;
}

QList<Autosave::Recovery> Autosave::orphanedUntitled() {
    QList<Recovery> out;
    const QDir dir(directory());
    for (const QFileInfo& fi :
         dir.entryInfoList({QStringLiteral("untitled-*.json")}, QDir::Files, QDir::Time)) {
        const qint64 pid = fi.completeBaseName().mid(9).toLongLong();
        if (pid == QCoreApplication::applicationPid()) continue;
        if (pid > 0 && QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid))) continue; // still running
        if (auto r = readMeta(fi.absoluteFilePath())) out.push_back(*r);
    }
    return out;
}

QList<Autosave::Recovery> Autosave::leftBehind() {
    QList<Recovery> out = orphanedUntitled();
    const QDir dir(directory());
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Time)) {
        if (fi.fileName().startsWith(QLatin1String("untitled-"))) continue;
        QFile f(metaPath(fi.absoluteFilePath()));
        if (!f.open(QIODevice::ReadOnly)) continue;
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        const qint64 pid = o.value(QStringLiteral("pid")).toInteger();
        if (pid == QCoreApplication::applicationPid()) continue;
        if (pid > 0 && QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid))) continue; // still running
        const QString document = o.value(QStringLiteral("path")).toString();
        if (document.isEmpty()) continue;
        // Only changes newer than the file: an older autosave is what the file already holds.
        if (auto r = findRecovery(document);
            r && QFileInfo(r->autosavePath).absoluteFilePath() == fi.absoluteFilePath())
            out.push_back(*r);
    }
    std::sort(out.begin(), out.end(),
              [](const Recovery& a, const Recovery& b) { return a.savedAt > b.savedAt; });
    return out;
}

void Autosave::remove(const Recovery& r) {
    QFile::remove(r.autosavePath);
    QFile::remove(metaPath(r.autosavePath));
}

} // namespace ctwin::app
