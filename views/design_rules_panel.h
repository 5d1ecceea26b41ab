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
    /// Rebuilds the list; findings identical to those shown (most edits) leave it, and its scroll position
    /// and selection, as they are.
    void showRules(const std::vector<cost::DesignRule>& rules);

signals:
    void entityActivated(const QString& entityId);

private:
    std::vector<cost::DesignRule> m_shown;
    bool m_any = false; ///< showRules was called (an empty list is then shown as "OK")
};

} // namespace ctwin::views
