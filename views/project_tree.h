#pragma once
#include <QTreeWidget>

#include "project.h"

namespace ctwin::views {

/// The project tree: sites -> buildings -> halls -> rows (with rack counts), then loops, fabrics, links
/// and workloads. Read only; each item carries its entity id (Qt::UserRole).
class ProjectTree : public QTreeWidget {
    Q_OBJECT
public:
    explicit ProjectTree(QWidget* parent = nullptr);
    void showProject(const model::Project& project);
};

} // namespace ctwin::views
