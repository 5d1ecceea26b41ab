#pragma once
#include "floor_item.h"

namespace ctwin::views {

/// A rack on the floor plan: its footprint (catalog width x depth, turned by its rotation), a bar on the
/// front edge and, zoomed in, its name. Hot spares are hatched.
class RackItem : public FloorItem {
public:
    static constexpr int Type = UserType + 1;
    RackItem(QString id, QString hallId, QRectF footprint);
    int type() const override { return Type; }

    void setRotation(double degrees) { m_rotationDeg = degrees; }
    void setSpare(bool spare) { m_spare = spare; }
    void setRowId(const QString& row) { m_rowId = row; }
    const QString& rowId() const { return m_rowId; }

protected:
    void paintDetail(QPainter* painter, qreal lod) override;

private:
    double m_rotationDeg = 0.0;
    bool m_spare = false;
    QString m_rowId;
};

} // namespace ctwin::views
