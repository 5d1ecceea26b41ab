#pragma once
#include "catalog.h"

#include <QTreeWidget>

namespace ctwin::views {

/// The catalog palette: rack types and CDUs, dragged onto the floor plan to place them. The drag carries
/// the catalog id as "application/x-ctwin-catalog-item".
class CatalogPalette : public QTreeWidget {
    Q_OBJECT
public:
    static constexpr const char* kMimeType = "application/x-ctwin-catalog-item";
    explicit CatalogPalette(const model::Catalog& catalog, QWidget* parent = nullptr);
    /// The rack type currently picked in the palette (for "fill row"); empty when none.
    QString currentRackType() const;
    void selectItem(const QString& catalogId);

protected:
    QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;
    QStringList mimeTypes() const override;
};

} // namespace ctwin::views
