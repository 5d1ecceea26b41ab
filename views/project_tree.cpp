#include "project_tree.h"

#include "design_json.h"
#include "design_root.h"

#include <QHeaderView>
#include <QSet>
#include <functional>
#include <map>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

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

/// The layout kinds (sites -> buildings -> halls -> rows -> racks): the parent each sits under and its
/// Details column.
std::string layoutParent(const model::Site&) {
    return {};
}
std::string layoutParent(const model::Building& b) {
    return b.site;
}
std::string layoutParent(const model::DataHall& h) {
    return h.building;
}
std::string layoutParent(const model::Row& r) {
    return r.hall;
}
std::string layoutParent(const model::RackPlacement& r) {
    return r.row;
}
template <class E> std::string layoutParent(const E&) {
    return {};
}
QString layoutDetails(const model::Site& s) {
    return QStringLiteral("%1°, %2°").arg(s.latDeg, 0, 'f', 3).arg(s.lonDeg, 0, 'f', 3);
}
QString layoutDetails(const model::Building& b) {
    return QStringLiteral("%1 MW").arg(b.powerCapacity.value() / 1e6, 0, 'f', 1);
}
QString layoutDetails(const model::DataHall& h) {
    return QStringLiteral("%1 x %2 m").arg(h.width.value(), 0, 'f', 0).arg(h.depth.value(), 0, 'f', 0);
}
QString rowDetails(size_t racks) {
    return ProjectTree::tr("%n racks", nullptr, static_cast<int>(racks));
}
QString layoutDetails(const model::RackPlacement& r) {
    return qs(r.rackType) + (r.spare ? ProjectTree::tr(", spare") : QString());
}
template <class E> QString layoutDetails(const E&) {
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
    if (first) {
        // The current item follows (it is drawn as the focus); without this the previous current item
        // kept looking chosen.
        setCurrentItem(first, 0, QItemSelectionModel::NoUpdate);
        scrollToItem(first);
    }
    m_syncing = false;
}

void ProjectTree::applyChanges(const model::Project& p, const model::ChangeSet& changes) {
    // Moves and assignments do not change the tree; adds, removes, renames and re-parenting do.
    bool shownPropertyChanged = changes.projectInfoChanged;
    for (const auto& c : changes.entities)
        for (const auto& prop : c.properties)
            if (isShownProperty(prop)) shownPropertyChanged = true;
    if (!shownPropertyChanged && !changes.structural()) return;
    QTreeWidgetItem* root = m_items.value(kDesignRootId);
    if (!root) return showProject(p);
    // In place (a 5,000-rack campus rebuild costs tens of milliseconds): groups of flat kinds are refilled,
    // layout items are added, removed, renamed or re-parented one by one.
    const QStringList selected = selectedIds();
    m_syncing = true;
    if (changes.projectInfoChanged) root->setText(0, qs(p.info.name.empty() ? p.info.id : p.info.name));
    QSet<int> groups;
    for (const auto& c : changes.entities)
        if (m_groups.contains(static_cast<int>(c.kind)) &&
            (c.type != model::ChangeType::Modified ||
             std::any_of(c.properties.begin(), c.properties.end(), isShownProperty)))
            groups.insert(static_cast<int>(c.kind));
    for (const int kind : std::as_const(groups))
        fillGroup(m_groups.value(kind), static_cast<model::EntityKind>(kind), p);
    const bool ok = applyLayoutChanges(p, changes);
    for (const QString& id : selected)
        if (auto* it = m_items.value(id)) it->setSelected(true);
    m_syncing = false;
    if (!ok) showProject(p); // an item's parent is missing: the tree and the project disagree
}

bool ProjectTree::isShownProperty(const std::string& prop) {
    return prop == "name" || prop == "row" || prop == "hall" || prop == "building" || prop == "site" ||
           prop == "cdu_count" || prop == "cdu_type" || prop == "gpus" || prop == "power_capacity_w" ||
           prop == "rack_type" || prop == "spare" || prop == "lat_deg" || prop == "lon_deg" ||
           prop == "width_m" || prop == "depth_m" || prop == "capacity_w" || prop == "capacity_bytes" ||
           prop == "capacity_bit_per_s" || prop == "role" || prop == "tiers" || prop == "planes" ||
           prop == "redundancy";
}

void ProjectTree::forget(QTreeWidgetItem* item) {
    m_items.remove(item->data(0, Qt::UserRole).toString());
    for (int i = 0; i < item->childCount(); ++i)
        forget(item->child(i));
}

bool ProjectTree::applyLayoutChanges(const model::Project& p, const model::ChangeSet& changes) {
    using K = model::EntityKind;
    QSet<QString> recount; // rows whose rack count changed
    // Removed parents before their children: deleting a hall's item takes its rows and racks with it in one
    // step, instead of one model update per rack.
    for (const K kind : {K::Site, K::Building, K::DataHall, K::Row, K::RackPlacement})
        for (const auto& c : changes.entities) {
            if (c.kind != kind || c.type != model::ChangeType::Removed) continue;
            QTreeWidgetItem* it = m_items.value(qs(c.id));
            if (!it) continue; // went with its parent
            if (kind == K::RackPlacement && it->parent())
                recount.insert(it->parent()->data(0, Qt::UserRole).toString());
            forget(it);
            delete it;
        }
    // Parents before children: a pasted hall's rows and racks arrive in the same change set. One walk over
    // each touched kind's collection, in project order (tree order), counting each parent's children shown
    // so far: that count is where an added or re-parented item goes.
    // A modified item that keeps its parent (a rename, a retyped rack) only changes its own texts: no walk
    // over its collection (14,000 racks on the big campus) and no recount.
    const auto updateInPlace = [&](const model::EntityChange& c) {
        QTreeWidgetItem* it = m_items.value(qs(c.id));
        if (!it || !it->parent() || !c.after.is_object()) return false;
        bool done = false;
        p.withCollection(c.kind, [&](const auto& collection) {
            using Entity = typename std::decay_t<decltype(collection)>::value_type;
            const Entity e = model::entityFromJson<Entity>(c.after, "");
            const QString parentId = c.kind == K::Site ? QString(kDesignRootId) : qs(layoutParent(e));
            if (m_items.value(parentId) != it->parent()) return; // re-parented: the walk below places it
            it->setText(0, qs(e.name.empty() ? e.id : e.name));
            it->setData(0, Qt::UserRole + 1, it->text(0));
            if constexpr (!std::is_same_v<Entity, model::Row>) it->setText(1, layoutDetails(e));
            done = true;
        });
        return done;
    };
    for (const K kind : {K::Site, K::Building, K::DataHall, K::Row, K::RackPlacement}) {
        std::unordered_set<std::string> touched;
        for (const auto& c : changes.entities)
            if (c.kind == kind && c.type != model::ChangeType::Removed &&
                !(c.type == model::ChangeType::Modified && updateInPlace(c)))
                touched.insert(c.id);
        if (touched.empty()) continue;
        bool ok = true;
        p.withCollection(kind, [&](const auto& collection) {
            std::unordered_map<std::string, int> shownBefore; // by parent id
            for (const auto& e : collection) {
                const std::string parentKey = layoutParent(e);
                if (!touched.count(e.id)) {
                    if (m_items.contains(qs(e.id))) ++shownBefore[parentKey];
                    continue;
                }
                const QString parentId = kind == K::Site ? QString(kDesignRootId) : qs(parentKey);
                QTreeWidgetItem* parent = m_items.value(parentId);
                if (!parent) {
                    ok = false;
                    return;
                }
                const int index = shownBefore[parentKey]++;
                QTreeWidgetItem* it = m_items.value(qs(e.id));
                if (!it) {
                    it = addItem(nullptr, e.id, e.name, layoutDetails(e));
                    parent->insertChild(std::min(index, parent->childCount()), it);
                } else {
                    it->setText(0, qs(e.name.empty() ? e.id : e.name));
                    it->setData(0, Qt::UserRole + 1, it->text(0));
                    if constexpr (!std::is_same_v<std::decay_t<decltype(e)>, model::Row>)
                        it->setText(1, layoutDetails(e));
                    if (it->parent() != parent) { // re-parented (a rack moved to another row)
                        if (it->parent() && kind == K::RackPlacement)
                            recount.insert(it->parent()->data(0, Qt::UserRole).toString());
                        const bool expanded = it->isExpanded();
                        it->parent()->removeChild(it);
                        parent->insertChild(std::min(index, parent->childCount()), it);
                        it->setExpanded(expanded);
                    }
                }
                if (kind == K::RackPlacement) recount.insert(parentId);
                if (kind == K::Row) recount.insert(qs(e.id));
            }
        });
        if (!ok) return false;
    }
    if (!recount.isEmpty()) {
        std::unordered_map<std::string, size_t> racksPerRow; // of the recounted rows only
        for (const QString& row : std::as_const(recount))
            racksPerRow.emplace(row.toStdString(), 0);
        for (const auto& r : p.racks)
            if (const auto it = racksPerRow.find(r.row); it != racksPerRow.end()) ++it->second;
        for (const QString& row : std::as_const(recount))
            if (QTreeWidgetItem* it = m_items.value(row))
                it->setText(1, rowDetails(racksPerRow[row.toStdString()]));
    }
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
    auto* it = parent ? new QTreeWidgetItem(parent, {qs(name.empty() ? id : name), details})
                      : new QTreeWidgetItem(QStringList{qs(name.empty() ? id : name), details});
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
        auto* si = item(root, s.id, s.name, layoutDetails(s));
        for (const auto& b : p.buildings) {
            if (b.site != s.id) continue;
            auto* bi = item(si, b.id, b.name, layoutDetails(b));
            for (const auto& h : p.halls) {
                if (h.building != b.id) continue;
                auto* hi = item(bi, h.id, h.name, layoutDetails(h));
                for (const auto& r : p.rows) {
                    if (r.hall != h.id) continue;
                    const auto& racks = racksPerRow[r.id];
                    auto* ri = item(hi, r.id, r.name, rowDetails(racks.size()));
                    for (const auto* rack : racks)
                        item(ri, rack->id, rack->name, layoutDetails(*rack));
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
