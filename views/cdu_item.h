#pragma once
#include "floor_item.h"

namespace ctwin::views {

/// One coolant distribution unit of a cooling loop (a point of the loop's `cdus`). Its entity id is
/// "<loop id>#<index>" so moves and deletes name the loop and the unit.
class CduItem : public FloorItem {
public:
    static constexpr int Type = UserType + 2;
    CduItem(const QString& loopId, int index, QString hallId, QRectF footprint);
    int type() const override { return Type; }
    const QString& loopId() const { return m_loopId; }
    int index() const { return m_index; }

    static QString itemId(const QString& loopId, int index);
    /// Splits "<loop>#<n>"; false when `id` is not a CDU item id.
    static bool parseItemId(const QString& id, QString* loopId, int* index);

protected:
    void paintDetail(QPainter* painter, qreal lod) override;

private:
    QString m_loopId;
    int m_index;
};

} // namespace ctwin::views
