#include "gui/named_places.h"

#include "data_paths.h"

#include <QComboBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace ctwin::app {

QComboBox* makePlaceCombo(QWidget* parent) {
    auto* places = new QComboBox(parent);
    places->addItem(QObject::tr("(type the coordinates)"));
    QFile file(QString::fromStdString(dataDirectory()) + QStringLiteral("/places.json"));
    // places.json is ~10 kB; anything over 4 MB is not a places file.
    if (!file.open(QIODevice::ReadOnly) || file.size() > 4 * 1024 * 1024) return places;
    int n = 0;
    for (const auto& v : QJsonDocument::fromJson(file.readAll()).object().value("places").toArray()) {
        if (++n > kMaxPlaces) break;
        const QJsonObject o = v.toObject();
        const double lat = o.value("lat_deg").toDouble(), lon = o.value("lon_deg").toDouble();
        if (o.value("name").toString().isEmpty() || std::abs(lat) > 90 || std::abs(lon) > 180) continue;
        places->addItem(o.value("name").toString(),
                        QStringList{QString::number(lat, 'f', 4), QString::number(lon, 'f', 4)});
        places->setItemData(places->count() - 1, o.value("source").toString(), Qt::ToolTipRole);
    }
    return places;
}

} // namespace ctwin::app
