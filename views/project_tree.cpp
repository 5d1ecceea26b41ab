#include "project_tree.h"

#include <map>

namespace ctwin::views {

ProjectTree::ProjectTree(QWidget* parent) : QTreeWidget(parent) {
    setHeaderLabels({tr("Entity"), tr("Details")});
    setColumnWidth(0, 260);
}

void ProjectTree::showProject(const model::Project& p) {
    clear();
    auto item = [](QTreeWidgetItem* parent, const std::string& id, const std::string& name, const QString& details) {
        auto* it = new QTreeWidgetItem(parent, {QString::fromStdString(name.empty() ? id : name), details});
        it->setData(0, Qt::UserRole, QString::fromStdString(id));
        return it;
    };
    std::map<std::string, int> racksPerRow;
    for (const auto& r : p.racks) ++racksPerRow[r.row];
    auto* root = new QTreeWidgetItem(this, {QString::fromStdString(p.info.name), QString()});
    for (const auto& s : p.sites) {
        auto* si = item(root, s.id, s.name, QStringLiteral("%1°, %2°").arg(s.latDeg, 0, 'f', 3).arg(s.lonDeg, 0, 'f', 3));
        for (const auto& b : p.buildings) {
            if (b.site != s.id) continue;
            auto* bi = item(si, b.id, b.name, QStringLiteral("%1 MW").arg(b.powerCapacity.value() / 1e6, 0, 'f', 1));
            for (const auto& h : p.halls) {
                if (h.building != b.id) continue;
                auto* hi = item(bi, h.id, h.name,
                                QStringLiteral("%1 x %2 m").arg(h.width.value(), 0, 'f', 0).arg(h.depth.value(), 0, 'f', 0));
                for (const auto& r : p.rows)
                    if (r.hall == h.id) item(hi, r.id, r.name, tr("%n racks", nullptr, racksPerRow[r.id]));
            }
        }
    }
    auto group = [&](const QString& title, const auto& collection, auto details) {
        auto* g = new QTreeWidgetItem(root, {title, QString::number(collection.size())});
        for (const auto& e : collection) item(g, e.id, e.name, details(e));
    };
    group(tr("Cooling loops"), p.coolingLoops, [](const auto& l) {
        return QStringLiteral("%1 x %2, %3").arg(l.cduCount).arg(QString::fromStdString(l.cduType), QString::fromStdString(l.redundancy));
    });
    group(tr("Fabrics"), p.fabrics, [](const auto& f) {
        return QStringLiteral("%1, %2 tiers, %3 planes").arg(QString::fromStdString(f.role)).arg(f.tiers).arg(f.planes);
    });
    group(tr("Scale-across links"), p.links, [](const auto& l) {
        return QStringLiteral("%1 Tb/s").arg(l.capacityBitPerS / 1e12, 0, 'f', 1);
    });
    group(tr("Training jobs"), p.trainingJobs, [](const auto& j) { return QStringLiteral("%1 GPUs").arg(j.gpus, 0, 'f', 0); });
    group(tr("Inference services"), p.inferenceServices,
          [](const auto& s) { return QStringLiteral("%1 GPUs").arg(s.gpus, 0, 'f', 0); });
    expandToDepth(1);
}

} // namespace ctwin::views
