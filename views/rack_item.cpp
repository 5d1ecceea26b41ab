#include "rack_item.h"

#include <QPainter>
#include <cmath>

namespace ctwin::views {

RackItem::RackItem(QString id, QString hallId, QRectF footprint)
    : FloorItem(std::move(id), std::move(hallId), footprint) {}

void RackItem::paintDetail(QPainter* painter, qreal lod) {
    const QRectF r = boundingRect();
    // Front edge: rotation 0 faces -y (the cold aisle in front of the row), 90 faces +x, and so on.
    const int quarter = ((static_cast<int>(std::lround(m_rotationDeg / 90.0)) % 4) + 4) % 4;
    const qreal t = std::min(r.width(), r.height()) * 0.15;
    QRectF bar;
    switch (quarter) {
    case 0:
        bar = QRectF(r.left(), r.top(), r.width(), t);
        break;
    case 1:
        bar = QRectF(r.right() - t, r.top(), t, r.height());
        break;
    case 2:
        bar = QRectF(r.left(), r.bottom() - t, r.width(), t);
        break;
    default:
        bar = QRectF(r.left(), r.top(), t, r.height());
        break;
    }
    painter->fillRect(bar, brushColor().darker(220));
    if (m_spare) {
        painter->setPen(QPen(Qt::white, 0, Qt::DotLine));
        painter->drawLine(r.topLeft(), r.bottomRight());
        painter->drawLine(r.topRight(), r.bottomLeft());
    }
    if (lod > 40.0 && !label().isEmpty()) {
        // Text in centimetres: QFont pixel sizes are integers, a rack is well under a metre wide.
        painter->save();
        painter->scale(0.01, 0.01);
        QFont f = painter->font();
        f.setPixelSize(std::max(1, static_cast<int>(std::min(r.width(), r.height()) * 100 * 0.22)));
        painter->setFont(f);
        painter->setPen(brushColor().lightnessF() > 0.6 ? Qt::black : Qt::white);
        painter->drawText(QRectF(r.topLeft() * 100, r.size() * 100), Qt::AlignCenter | Qt::TextWrapAnywhere,
                          label());
        painter->restore();
    }
}

} // namespace ctwin::views
