#include "catalog_palette.h"

#include <QHeaderView>
#include <QMimeData>

namespace ctwin::views {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}
double val(const model::CatalogItem& item, const char* field) {
    const auto* v = item.find(field);
    return v ? v->base : 0.0;
}
} // namespace

CatalogPalette::CatalogPalette(const model::Catalog& catalog, QWidget* parent) : QTreeWidget(parent) {
    setHeaderLabels({tr("Item"), tr("Rating")});
    setRootIsDecorated(true);
    setDragEnabled(true);
    setDragDropMode(DragOnly);
    setSelectionMode(SingleSelection);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    auto* racks = new QTreeWidgetItem(this, {tr("Rack types")});
    auto* cdus = new QTreeWidgetItem(this, {tr("Coolant distribution units")});
    for (auto* group : {racks, cdus})
        group->setFlags(Qt::ItemIsEnabled);
    for (const auto* item : catalog.byCategory("racks")) {
        const QString rating =
            item->kind == "network"
                ? tr("network, %1 U, %2 kW PDU")
                      .arg(val(*item, "rack_units"))
                      .arg(val(*item, "power_capacity_w") / 1e3)
                : tr("%1 GPUs, %2 kW").arg(val(*item, "gpus")).arg(val(*item, "power_load_w") / 1e3);
        auto* it = new QTreeWidgetItem(racks, {qs(item->name), rating});
        it->setData(0, Qt::UserRole, qs(item->id));
        it->setToolTip(0, tr("%1\nDrag onto a hall to place a rack; price %2 USD")
                              .arg(qs(item->id))
                              .arg(val(*item, "price_usd"), 0, 'f', 0));
    }
    for (const auto* item : catalog.byCategory("cooling")) {
        if (item->kind != "cdu") continue;
        auto* it =
            new QTreeWidgetItem(cdus, {qs(item->name), tr("%1 MW").arg(val(*item, "capacity_w") / 1e6)});
        it->setData(0, Qt::UserRole, qs(item->id));
        it->setToolTip(0, tr("%1\nDrag onto a hall to add a CDU to its cooling loop").arg(qs(item->id)));
    }
    expandAll();
}

QString CatalogPalette::currentRackType() const {
    const auto* it = currentItem();
    if (!it || it->parent() != topLevelItem(0)) return {};
    return it->data(0, Qt::UserRole).toString();
}

void CatalogPalette::selectItem(const QString& catalogId) {
    for (int g = 0; g < topLevelItemCount(); ++g)
        for (int i = 0; i < topLevelItem(g)->childCount(); ++i)
            if (auto* it = topLevelItem(g)->child(i); it->data(0, Qt::UserRole).toString() == catalogId)
                setCurrentItem(it);
}

QStringList CatalogPalette::mimeTypes() const {
    return {QString::fromLatin1(kMimeType)};
}

QMimeData* CatalogPalette::mimeData(const QList<QTreeWidgetItem*>& items) const {
    if (items.isEmpty() || items.front()->data(0, Qt::UserRole).toString().isEmpty()) return nullptr;
    auto* mime = new QMimeData;
    mime->setData(kMimeType, items.front()->data(0, Qt::UserRole).toString().toUtf8());
    mime->setText(items.front()->data(0, Qt::UserRole).toString());
    return mime;
}

} // namespace ctwin::views
