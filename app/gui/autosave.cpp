#include "autosave.h"

#include "atomic_write.h"
#include "design_json.h"
#include "document.h"
#include "input_error.h"
#include "session_owner.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSet>
#include <QStandardPaths>
#include <algorithm>
#include <utility>

namespace ctwin::app {

namespace {

/// The first line of a side file: one JSON object (no line breaks: QJsonDocument::Compact escapes them)
/// naming the format, the design's path and the session; the design's interchange JSON follows.
const QLatin1String kFormat("clustertwin-autosave");
const QLatin1String kSuffix(".ctwin-autosave");
/// Longest first line read: the header is small; a bare design (an old side file) starts with "{".
constexpr qint64 kMaxHeaderBytes = 1 << 16;

std::function<void(const char*)>& stepHook() {
    static std::function<void(const char*)> hook;
    return hook;
}

void step(const char* name) {
    if (stepHook()) stepHook()(name);
}

QString metaPath(const QString& autosavePath) {
    return autosavePath + QStringLiteral(".meta");
}

/// "<name>-<12 hex digits of SHA-1 of the absolute path>": the start of every side file name of a design.
QString documentStem(const QString& documentPath) {
    const QFileInfo fi(documentPath);
    const QByteArray hash =
        QCryptographicHash::hash(fi.absoluteFilePath().toUtf8(), QCryptographicHash::Sha1).toHex();
    return QStringLiteral("%1-%2").arg(fi.completeBaseName(), QString::fromLatin1(hash.left(12)));
}

/// What a side file says about itself (header, or an old file's .meta and name).
struct SideFile {
    QString path;
    QString documentPath; // absolute; empty: untitled or unknown
    QString originalName;
    SessionOwner owner;
    QStringList replaces;
    QDateTime writtenAt;
};

std::optional<QJsonObject> readHeader(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return std::nullopt;
    const QByteArray line = f.readLine(kMaxHeaderBytes);
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject() ||
        doc.object().value(QStringLiteral("format")).toString() != kFormat)
        return std::nullopt;
    return doc.object();
}

/// Reads what a side file can tell. Old side files (a bare design): from the .meta when there is one, else
/// from the name alone (`untitled-<pid>.json`; `<name>-<hash>.json` gives the name, not the folder).
std::optional<SideFile> readSideFile(const QString& path) {
    const QFileInfo fi(path);
    if (!fi.isFile()) return std::nullopt;
    SideFile s{fi.absoluteFilePath(), {}, {}, {}, {}, fi.lastModified()};
    if (const auto header = readHeader(path)) {
        s.documentPath = header->value(QStringLiteral("document_path")).toString();
        s.owner = SessionOwner::fromJson(header->value(QStringLiteral("owner")).toObject());
        for (const auto& r : header->value(QStringLiteral("replaces")).toArray())
            s.replaces << r.toString();
        return s;
    }
    if (fi.suffix() != QLatin1String("json")) return std::nullopt; // ours, but no header: not a side file
    QFile meta(metaPath(path));
    if (meta.open(QIODevice::ReadOnly)) {
        const QJsonObject o = QJsonDocument::fromJson(meta.readAll()).object();
        s.documentPath = o.value(QStringLiteral("path")).toString();
        s.owner.pid = o.value(QStringLiteral("pid")).toInteger();
        return s;
    }
    // Killed between the side file and its .meta (the old writer's order): still offered.
    const QString base = fi.completeBaseName();
    if (base.startsWith(QLatin1String("untitled-"))) {
        s.owner.pid = base.mid(9).toLongLong();
    } else {
        const qsizetype dash = base.lastIndexOf(QLatin1Char('-'));
        s.originalName = dash > 0 ? base.left(dash) : base;
    }
    return s;
}

void removeSideFile(const QString& path) {
    QFile::remove(path);
    QFile::remove(metaPath(path)); // an old side file's
}

/// Every side file in the folder, newest first. A side file whose replacement (a session's takeOver,
/// killed before it removed the old one) is on disk is removed instead of listed: the replacement holds
/// the same work or more. Temporaries of killed writes go as model::removeStaleSaveTemps allows.
QList<SideFile> scanDirectory() {
    const QDir dir(Autosave::directory());
    QSet<QString> tempTargets;
    for (const QString& name : dir.entryList({QStringLiteral(".*.tmp-*")}, QDir::Files | QDir::Hidden)) {
        const qsizetype at = name.lastIndexOf(QLatin1String(".tmp-"));
        tempTargets.insert(name.mid(1, at - 1));
    }
    for (const QString& target : tempTargets)
        model::removeStaleSaveTemps(dir.filePath(target).toStdString());

    QList<SideFile> all;
    for (const QFileInfo& fi : dir.entryInfoList({QStringLiteral("*") + kSuffix, QStringLiteral("*.json")},
                                                 QDir::Files, QDir::Time))
        if (auto s = readSideFile(fi.absoluteFilePath())) all.push_back(std::move(*s));
    QSet<QString> replaced;
    for (const SideFile& s : all)
        for (const QString& r : s.replaces)
            if (QFileInfo(r).absoluteFilePath() != s.path) replaced.insert(QFileInfo(r).absoluteFilePath());
    QList<SideFile> out;
    for (SideFile& s : all) {
        if (replaced.contains(s.path))
            removeSideFile(s.path);
        else
            out.push_back(std::move(s));
    }
    return out;
}

bool isOrphaned(const SideFile& s) {
    return s.owner.state(s.writtenAt) == SessionOwner::State::Gone;
}

Autosave::Recovery recoveryOf(const SideFile& s) {
    return {s.path, s.documentPath, s.writtenAt, s.originalName};
}

/// The newest orphaned side file of `documentPath`, newer than the file itself.
std::optional<Autosave::Recovery> newestFor(const QList<SideFile>& files, const QString& documentPath) {
    const QFileInfo document(documentPath);
    const QString absolute = document.absoluteFilePath();
    const QString legacy = QFileInfo(Autosave::autosavePathFor(documentPath)).absoluteFilePath();
    for (const SideFile& s : files) { // newest first
        const bool mine = s.documentPath.isEmpty() ? s.path == legacy && s.owner.pid == 0
                                                   : QFileInfo(s.documentPath).absoluteFilePath() == absolute;
        if (!mine || !isOrphaned(s)) continue;
        // Only changes newer than the file: an older autosave is what the file already holds.
        if (document.exists() && document.lastModified() >= s.writtenAt) return std::nullopt;
        auto r = recoveryOf(s);
        r.documentPath = absolute;
        r.originalName.clear();
        return r;
    }
    return std::nullopt;
}

} // namespace

Autosave::Autosave(const model::Document& document, std::function<bool()> isModified, QObject* parent)
    : QObject(parent), m_document(document), m_isModified(std::move(isModified)),
      m_session(QStringLiteral("%1-%2")
                    .arg(QCoreApplication::applicationPid())
                    .arg(QRandomGenerator::system()->generate(), 8, 16, QLatin1Char('0'))) {
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
    return directory() + QLatin1Char('/') + documentStem(documentPath) + QStringLiteral(".json");
}

QString Autosave::currentAutosavePath() const {
    const QString stem = m_documentPath.isEmpty() ? QStringLiteral("untitled") : documentStem(m_documentPath);
    return directory() + QLatin1Char('/') + stem + QLatin1Char('-') + m_session + kSuffix;
}

void Autosave::setStepHook(std::function<void(const char*)> hook) {
    stepHook() = std::move(hook);
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
    return write();
}

bool Autosave::takeOver(const Recovery& recovery) {
    step("takeover");
    const QString old = QFileInfo(recovery.autosavePath).absoluteFilePath();
    if (old != QFileInfo(currentAutosavePath()).absoluteFilePath() && !m_superseded.contains(old))
        m_superseded << old;
    return write();
}

bool Autosave::write() {
    const QString path = currentAutosavePath();
    QJsonArray replaces;
    for (const QString& old : m_superseded)
        replaces.append(old);
    const QJsonObject header{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("version"), 1},
        {QStringLiteral("document_path"),
         m_documentPath.isEmpty() ? QString() : QFileInfo(m_documentPath).absoluteFilePath()},
        {QStringLiteral("owner"), SessionOwner::current().toJson()},
        {QStringLiteral("saved_at"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
        {QStringLiteral("replaces"), replaces}};
    try {
        const std::string design = model::dumpJson(model::projectToJson(m_document.project()));
        model::SaveTemp temp(path.toStdString());
        step("temp-created");
        temp.write(QJsonDocument(header).toJson(QJsonDocument::Compact).toStdString() + "\n");
        temp.write(design.substr(0, design.size() / 2));
        step("temp-half-written");
        temp.write(design.substr(design.size() / 2));
        step("temp-written");
        temp.commit();
    } catch (const std::exception& e) {
        qWarning("autosave to %s failed: %s", qPrintable(path), e.what());
        return false;
    }
    step("committed");
    m_written = true;
    m_savedRevision = m_document.revision();
    // Only now that this session's copy is on disk may the copies it replaces go.
    for (const QString& old : std::exchange(m_superseded, {}))
        removeSideFile(old);
    step("done");
    emit autosaved(path);
    return true;
}

void Autosave::discard() {
    removeSideFile(currentAutosavePath());
    for (const QString& old : std::exchange(m_superseded, {}))
        removeSideFile(old);
    m_written = false;
}

std::optional<Autosave::Recovery> Autosave::findRecovery(const QString& documentPath) {
    if (documentPath.isEmpty()) return std::nullopt;
    return newestFor(scanDirectory(), documentPath);
}

QList<Autosave::Recovery> Autosave::orphanedUntitled() {
    QList<Recovery> out;
    for (const SideFile& s : scanDirectory())
        if (s.documentPath.isEmpty() && isOrphaned(s)) out.push_back(recoveryOf(s));
    return out;
}

QList<Autosave::Recovery> Autosave::leftBehind() {
    const QList<SideFile> files = scanDirectory();
    QList<Recovery> out;
    QSet<QString> documents;
    for (const SideFile& s : files) {
        if (!isOrphaned(s)) continue;
        if (s.documentPath.isEmpty()) {
            out.push_back(recoveryOf(s));
            continue;
        }
        const QString document = QFileInfo(s.documentPath).absoluteFilePath();
        if (documents.contains(document)) continue; // one offer per design: its newest
        documents.insert(document);
        if (auto r = newestFor(files, document)) out.push_back(*r);
    }
    std::sort(out.begin(), out.end(),
              [](const Recovery& a, const Recovery& b) { return a.savedAt > b.savedAt; });
    return out;
}

model::Project Autosave::load(const Recovery& recovery, const model::Catalog* catalog) {
    const std::string name = recovery.autosavePath.toStdString();
    QFile f(recovery.autosavePath);
    if (!f.open(QIODevice::ReadOnly))
        throw model::InputError(model::InputLocation{name, "", "", "", ""},
                                "cannot read the autosave: " + f.errorString().toStdString());
    if (f.size() > static_cast<qint64>(model::kMaxDesignFileBytes) + kMaxHeaderBytes)
        throw model::InputError(model::InputLocation{name, "", "", "", ""}, "the autosave is too large");
    QByteArray text = f.readAll();
    if (readHeader(recovery.autosavePath)) text.remove(0, text.indexOf('\n') + 1);
    return model::projectFromJson(model::parseJsonText(text.toStdString(), name), name, catalog);
}

void Autosave::remove(const Recovery& r) {
    removeSideFile(r.autosavePath);
}

} // namespace ctwin::app
