#pragma once
#include "design_rule.h"

#include <QTreeWidget>
#include <vector>

namespace ctwin::views {

/// The design-rule findings with severity icons; double-clicking one asks to select its entity.
class DesignRulesPanel : public QTreeWidget {
    Q_OBJECT
public:
    explicit DesignRulesPanel(QWidget* parent = nullptr);
    void showRules(const std::vector<cost::DesignRule>& rules);

signals:
    void entityActivated(const QString& entityId);
};

} // namespace ctwin::views
