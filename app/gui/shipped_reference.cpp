#include "shipped_reference.h"

#include "data_paths.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace ctwin::app {

bool isShippedReference(const QString& path) {
    if (path.isEmpty()) return false;
    const QFileInfo file(path);
    // The folder as it is on disk (a symlinked build tree, "..", a relative path all name the same place).
    const QString dir = QFileInfo(file.absolutePath()).canonicalFilePath();
    const QString shipped = QFileInfo(QString::fromStdString(referenceDirectory())).canonicalFilePath();
    if (!dir.isEmpty() && dir == shipped) return true;
    // A copy of the reference folder elsewhere (the source tree's data/reference): its index.json lists
    // the file. Bounded: the index is a few kilobytes; a larger file is not an index.
    QFile index(QDir(file.absolutePath()).filePath(QStringLiteral("index.json")));
    if (index.size() > (1 << 20) || !index.open(QIODevice::ReadOnly)) return false;
    const QJsonDocument doc = QJsonDocument::fromJson(index.readAll());
    for (const auto& v : doc.array())
        if (v.toObject().value(QStringLiteral("file")).toString() == file.fileName()) return true;
    return false;
}

} // namespace ctwin::app
