#pragma once
#include "change_set.h"
#include "project.h"

#include <QHash>
#include <QTreeWidget>

namespace ctwin::views {

/// The project tree: sites -> buildings -> halls -> rows -> racks, then power feeds, cooling loops,
/// fabrics, storage, links and workloads. Read only; each item carries its entity id (Qt::UserRole).
/// Selecting items reports their ids; the app mirrors selections made elsewhere with selectIds.
class ProjectTree : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProjectTree(QWidget* parent = nullptr);
    ~ProjectTree() override;
    void showProject(const model::Project& project);
    /// Refreshes after an edit, in place: the items of added, removed, renamed or re-parented entities,
    /// nothing when no shown property changed.
    void applyChanges(const model::Project& project, const model::ChangeSet& changes);
    void selectIds(const QStringList& ids);
    QStringList selectedIds() const;
    QTreeWidgetItem* itemForId(const QString& id) const { return m_items.value(id); }
    /// Opens the in-place name editor of an entity (F2 does the same on the current item).
    void startRename(const QString& id);

signals:
    /// The user typed a new name in place (F2); the app renames, or rebuilds the tree on refusal.
    void renameRequested(const QString& id, const QString& name);
    /// Right-click: the ids under the mouse (the selection when the click was on it), at a global position.
    void contextMenuRequested(const QPoint& globalPos, const QStringList& ids);
    void selectionChangedByUser(const QStringList& ids);
    void entityActivated(const QString& id);

private:
    QTreeWidgetItem* addItem(QTreeWidgetItem* parent, const std::string& id, const std::string& name,
                             const QString& details);
    /// Sites, buildings, halls, rows and racks: removed items go, added ones are inserted in project order,
    /// changed ones are renamed or re-parented, rows recount their racks. False when an item's parent is
    /// not in the tree (the caller rebuilds).
    bool applyLayoutChanges(const model::Project& project, const model::ChangeSet& changes);
    /// Drops an item and its subtree from the id map (before deleting it).
    void forget(QTreeWidgetItem* item);
    static bool isShownProperty(const std::string& property);
    void fillGroup(QTreeWidgetItem* group, model::EntityKind kind, const model::Project& project);

    QHash<QString, QTreeWidgetItem*> m_items;
    /// The group item of each flat kind (power feeds ... inference services), by EntityKind.
    QHash<int, QTreeWidgetItem*> m_groups;
    bool m_syncing = false;
};

} // namespace ctwin::views
