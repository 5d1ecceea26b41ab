#include "cdu_item.h"

#include <QPainter>

namespace ctwin::views {

CduItem::CduItem(const QString& loopId, int index, QString hallId, QRectF footprint)
    : FloorItem(itemId(loopId, index), std::move(hallId), footprint), m_loopId(loopId), m_index(index) {
    setZValue(1.0);
}

QString CduItem::itemId(const QString& loopId, int index) {
    return loopId + QLatin1Char('#') + QString::number(index);
}

bool CduItem::parseItemId(const QString& id, QString* loopId, int* index) {
    const int hash = id.lastIndexOf(QLatin1Char('#'));
    if (hash <= 0) return false;
    bool ok = false;
    const int n = id.mid(hash + 1).toInt(&ok);
    if (!ok || n < 0) return false;
    if (loopId) *loopId = id.left(hash);
    if (index) *index = n;
    return true;
}

void CduItem::paintDetail(QPainter* painter, qreal) {
    // A "snowflake" cross marks the unit as cooling equipment, distinct from racks.
    const QRectF r = boundingRect().adjusted(0.15, 0.15, -0.15, -0.15);
    painter->setPen(QPen(Qt::white, 0));
    painter->drawLine(r.topLeft(), r.bottomRight());
    painter->drawLine(r.topRight(), r.bottomLeft());
    painter->drawLine(QPointF(r.center().x(), r.top()), QPointF(r.center().x(), r.bottom()));
}

} // namespace ctwin::views
