#include "project_tree.h"

#include "design_root.h"

#include <QHeaderView>
#include <QSet>
#include <functional>
#include <map>

namespace ctwin::views {

namespace {
QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// Ids of expanded items (and group titles) so a rebuild keeps what the user opened.
void collectExpanded(QTreeWidgetItem* item, QSet<QString>& out) {
    if (item->isExpanded()) {
        const QString id = item->data(0, Qt::UserRole).toString();
        out.insert(id.isEmpty() ? QStringLiteral("#") + item->text(0) : id);
    }
    for (int i = 0; i < item->childCount(); ++i)
        collectExpanded(item->child(i), out);
}
/// The Details column of the grouped kinds (feeds ... services); other kinds have their own in showProject.
QString detailsOf(const model::PowerFeed& f) {
    return QStringLiteral("%1 MW").arg(f.capacity.value() / 1e6, 0, 'f', 1);
}
QString detailsOf(const model::CoolingLoop& l) {
    return QStringLiteral("%1 x %2, %3").arg(l.cduCount).arg(qs(l.cduType), qs(l.redundancy));
}
QString detailsOf(const model::Fabric& f) {
    return QStringLiteral("%1, %2 tiers, %3 planes").arg(qs(f.role)).arg(f.tiers).arg(f.planes);
}
QString detailsOf(const model::StorageTier& s) {
    return QStringLiteral("%1 PB").arg(s.capacity.value() / 1e15, 0, 'f', 1);
}
QString detailsOf(const model::ScaleAcrossLink& l) {
    return QStringLiteral("%1 Tb/s").arg(l.capacityBitPerS / 1e12, 0, 'f', 1);
}
QString detailsOf(const model::TrainingJob& j) {
    return QStringLiteral("%1 GPUs").arg(j.gpus, 0, 'f', 0);
}
QString detailsOf(const model::InferenceService& s) {
    return QStringLiteral("%1 GPUs").arg(s.gpus, 0, 'f', 0);
}
template <class E> QString detailsOf(const E&) {
    return {};
}

/// The kinds listed flat under a group item, in tree order, with the group's title.
const std::vector<std::pair<model::EntityKind, const char*>>& groupedKinds() {
    using K = model::EntityKind;
    static const std::vector<std::pair<K, const char*>> k = {
        {K::PowerFeed, QT_TRANSLATE_NOOP("ProjectTree", "Power feeds")},
        {K::CoolingLoop, QT_TRANSLATE_NOOP("ProjectTree", "Cooling loops")},
        {K::Fabric, QT_TRANSLATE_NOOP("ProjectTree", "Fabrics")},
        {K::StorageTier, QT_TRANSLATE_NOOP("ProjectTree", "Storage tiers")},
        {K::ScaleAcrossLink, QT_TRANSLATE_NOOP("ProjectTree", "Scale-across links")},
        {K::TrainingJob, QT_TRANSLATE_NOOP("ProjectTree", "Training jobs")},
        {K::InferenceService, QT_TRANSLATE_NOOP("ProjectTree", "Inference services")}};
    return k;
}
} // namespace

ProjectTree::ProjectTree(QWidget* parent) : QTreeWidget(parent) {
    setHeaderLabels({tr("Entity"), tr("Details")});
    setColumnWidth(0, 230);
    setSelectionMode(ExtendedSelection);
    setUniformRowHeights(true);
    connect(this, &QTreeWidget::itemSelectionChanged, this, [this] {
        if (!m_syncing) emit selectionChangedByUser(selectedIds());
    });
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* it) {
        const QString id = it->data(0, Qt::UserRole).toString();
        if (!id.isEmpty() && id != kDesignRootId) emit entityActivated(id);
    });
    // Rename in place with F2 only: a double-click reveals the entity on the plan.
    setEditTriggers(EditKeyPressed);
    connect(this, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* it, int column) {
        if (m_syncing || column != 0) return;
        const QString id = it->data(0, Qt::UserRole).toString();
        const QString before = it->data(0, Qt::UserRole + 1).toString();
        // Queued: the rename rebuilds the tree, which must not delete the item inside its own signal.
        if (!id.isEmpty() && it->text(0) != before)
            QMetaObject::invokeMethod(
                this, [this, id, name = it->text(0)] { emit renameRequested(id, name); },
                Qt::QueuedConnection);
    });
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        QTreeWidgetItem* it = itemAt(pos);
        const QString id = it ? it->data(0, Qt::UserRole).toString() : QString();
        QStringList ids = selectedIds();
        if (!id.isEmpty() && !ids.contains(id)) ids = {id};
        emit contextMenuRequested(viewport()->mapToGlobal(pos), ids);
    });
}

void ProjectTree::startRename(const QString& id) {
    if (auto* it = m_items.value(id)) {
        setCurrentItem(it);
        editItem(it, 0);
    }
}

ProjectTree::~ProjectTree() {
    m_syncing = true;
    blockSignals(true);
    clear();
}

QStringList ProjectTree::selectedIds() const {
    QStringList ids;
    for (auto* it : selectedItems()) {
        const QString id = it->data(0, Qt::UserRole).toString();
        if (!id.isEmpty()) ids << id;
    }
    return ids;
}

void ProjectTree::selectIds(const QStringList& ids) {
    m_syncing = true;
    clearSelection();
    QTreeWidgetItem* first = nullptr;
    for (const QString& id : ids)
        if (auto* it = m_items.value(id)) {
            it->setSelected(true);
            if (!first) first = it;
        }
    if (first) scrollToItem(first);
    m_syncing = false;
}

void ProjectTree::applyChanges(const model::Project& p, const model::ChangeSet& changes) {
    // Moves and assignments do not change the tree; adds, removes, renames and re-parenting do.
    bool shownPropertyChanged = changes.projectInfoChanged;
    for (const auto& c : changes.entities)
        for (const auto& prop : c.properties)
            if (prop == "name" || prop == "row" || prop == "hall" || prop == "building" || prop == "site" ||
                prop == "cdu_count" || prop == "cdu_type" || prop == "gpus" || prop == "power_capacity_w" ||
                prop == "rack_type" || prop == "spare")
                shownPropertyChanged = true;
    if (!shownPropertyChanged && !changes.structural()) return;
    if (!shownPropertyChanged && refillGroups(p, changes)) return;
    if (!changes.structural() && !changes.projectInfoChanged && renameInPlace(changes)) return;
    showProject(p);
}

bool ProjectTree::renameInPlace(const model::ChangeSet& changes) {
    std::vector<std::pair<QTreeWidgetItem*, QString>> renamed;
    for (const auto& c : changes.entities) {
        for (const auto& prop : c.properties)
            if (prop != "name") return false; // another shown property: rebuild
        QTreeWidgetItem* it = m_items.value(qs(c.id));
        if (!it || !c.after.is_object() || !c.after.contains("name")) return false;
        const std::string name = c.after["name"].get<std::string>();
        renamed.emplace_back(it, qs(name.empty() ? c.id : name));
    }
    m_syncing = true;
    for (const auto& [it, text] : renamed) {
        it->setText(0, text);
        it->setData(0, Qt::UserRole + 1, text); // the name before the next in-place rename
    }
    m_syncing = false;
    return true;
}

bool ProjectTree::refillGroups(const model::Project& p, const model::ChangeSet& changes) {
    QSet<int> kinds;
    for (const auto& c : changes.entities) {
        if (c.type == model::ChangeType::Modified) continue; // no shown property changed (checked above)
        if (!m_groups.contains(static_cast<int>(c.kind))) return false;
        kinds.insert(static_cast<int>(c.kind));
    }
    const QStringList selected = selectedIds();
    m_syncing = true;
    for (const int kind : std::as_const(kinds))
        fillGroup(m_groups.value(kind), static_cast<model::EntityKind>(kind), p);
    for (const QString& id : selected)
        if (auto* it = m_items.value(id)) it->setSelected(true);
    m_syncing = false;
    return true;
}

void ProjectTree::fillGroup(QTreeWidgetItem* group, model::EntityKind kind, const model::Project& p) {
    for (QTreeWidgetItem* child : group->takeChildren()) {
        m_items.remove(child->data(0, Qt::UserRole).toString());
        delete child;
    }
    p.withCollection(kind, [&](const auto& collection) {
        for (const auto& e : collection)
            addItem(group, e.id, e.name, detailsOf(e));
        group->setText(1, QString::number(collection.size()));
    });
}

QTreeWidgetItem* ProjectTree::addItem(QTreeWidgetItem* parent, const std::string& id, const std::string& name,
                                      const QString& details) {
    auto* it = new QTreeWidgetItem(parent, {qs(name.empty() ? id : name), details});
    it->setData(0, Qt::UserRole, qs(id));
    it->setData(0, Qt::UserRole + 1, it->text(0)); // the name before an in-place rename
    it->setFlags(it->flags() | Qt::ItemIsEditable);
    it->setToolTip(0, qs(id));
    m_items.insert(qs(id), it);
    return it;
}

void ProjectTree::showProject(const model::Project& p) {
    QSet<QString> expanded;
    for (int i = 0; i < topLevelItemCount(); ++i)
        collectExpanded(topLevelItem(i), expanded);
    const bool firstTime = topLevelItemCount() == 0;
    const QStringList selected = selectedIds();
    m_syncing = true;
    setUpdatesEnabled(false);
    clear();
    m_items.clear();
    m_groups.clear();
    auto item = [this](QTreeWidgetItem* parent, const std::string& id, const std::string& name,
                       const QString& details) { return addItem(parent, id, name, details); };
    std::map<std::string, std::vector<const model::RackPlacement*>> racksPerRow;
    for (const auto& r : p.racks)
        racksPerRow[r.row].push_back(&r);
    auto* root = new QTreeWidgetItem(this, {qs(p.info.name.empty() ? p.info.id : p.info.name), QString()});
    // The design itself: selecting it shows its name, description and sources in the inspector.
    root->setData(0, Qt::UserRole, kDesignRootId);
    root->setToolTip(0, tr("The design: name, description and sources in the inspector"));
    m_items.insert(kDesignRootId, root);
    for (const auto& s : p.sites) {
        auto* si = item(root, s.id, s.name,
                        QStringLiteral("%1°, %2°").arg(s.latDeg, 0, 'f', 3).arg(s.lonDeg, 0, 'f', 3));
        for (const auto& b : p.buildings) {
            if (b.site != s.id) continue;
            auto* bi =
                item(si, b.id, b.name, QStringLiteral("%1 MW").arg(b.powerCapacity.value() / 1e6, 0, 'f', 1));
            for (const auto& h : p.halls) {
                if (h.building != b.id) continue;
                auto* hi = item(bi, h.id, h.name,
                                QStringLiteral("%1 x %2 m")
                                    .arg(h.width.value(), 0, 'f', 0)
                                    .arg(h.depth.value(), 0, 'f', 0));
                for (const auto& r : p.rows) {
                    if (r.hall != h.id) continue;
                    const auto& racks = racksPerRow[r.id];
                    auto* ri =
                        item(hi, r.id, r.name, tr("%n racks", nullptr, static_cast<int>(racks.size())));
                    for (const auto* rack : racks)
                        item(ri, rack->id, rack->name,
                             qs(rack->rackType) + (rack->spare ? tr(", spare") : QString()));
                }
            }
        }
    }
    for (const auto& [kind, title] : groupedKinds()) {
        auto* g = new QTreeWidgetItem(root, {tr(title), QString()});
        g->setData(0, Qt::UserRole, QString());
        m_groups.insert(static_cast<int>(kind), g);
        fillGroup(g, kind, p);
    }
    if (firstTime || expanded.isEmpty()) {
        expandToDepth(2);
    } else {
        std::function<void(QTreeWidgetItem*)> restore = [&](QTreeWidgetItem* it) {
            const QString id = it->data(0, Qt::UserRole).toString();
            if (expanded.contains(id.isEmpty() ? QStringLiteral("#") + it->text(0) : id))
                it->setExpanded(true);
            for (int i = 0; i < it->childCount(); ++i)
                restore(it->child(i));
        };
        restore(root);
        root->setExpanded(true);
    }
    for (const QString& id : selected)
        if (auto* it = m_items.value(id)) it->setSelected(true);
    setUpdatesEnabled(true);
    m_syncing = false;
}

} // namespace ctwin::views
