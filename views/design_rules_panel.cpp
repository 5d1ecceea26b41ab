#include "design_rules_panel.h"

#include <QHeaderView>
#include <QStyle>
#include <algorithm>

namespace ctwin::views {

DesignRulesPanel::DesignRulesPanel(QWidget* parent) : QTreeWidget(parent) {
    setHeaderLabels({tr("Severity"), tr("Entity"), tr("Finding")});
    setRootIsDecorated(false);
    setAlternatingRowColors(true);
    header()->setStretchLastSection(true);
    connect(this, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        const QString id = item->data(0, Qt::UserRole).toString();
        if (!id.isEmpty()) emit entityActivated(id);
    });
}

void DesignRulesPanel::showRules(const std::vector<cost::DesignRule>& rules) {
    const auto same = [](const cost::DesignRule& a, const cost::DesignRule& b) {
        return a.severity == b.severity && a.rule == b.rule && a.entity == b.entity && a.message == b.message;
    };
    if (m_any && std::equal(rules.begin(), rules.end(), m_shown.begin(), m_shown.end(), same)) return;
    m_any = true;
    m_shown = rules;
    clear();
    if (rules.empty()) {
        auto* ok = new QTreeWidgetItem(this, {tr("OK"), QString(), tr("No design-rule findings")});
        ok->setIcon(0, style()->standardIcon(QStyle::SP_DialogApplyButton));
        return;
    }
    for (const auto& r : rules) {
        const QStyle::StandardPixmap icon =
            r.severity == cost::Severity::Error     ? QStyle::SP_MessageBoxCritical
            : r.severity == cost::Severity::Warning ? QStyle::SP_MessageBoxWarning
                                                    : QStyle::SP_MessageBoxInformation;
        auto* it =
            new QTreeWidgetItem(this, {QString::fromLatin1(cost::severityName(r.severity)),
                                       QString::fromStdString(r.entity), QString::fromStdString(r.message)});
        it->setIcon(0, style()->standardIcon(icon));
        it->setData(0, Qt::UserRole, QString::fromStdString(r.entity));
        it->setToolTip(2, QStringLiteral("%1: %2").arg(QString::fromStdString(r.rule),
                                                       QString::fromStdString(r.message)));
    }
    resizeColumnToContents(0);
    resizeColumnToContents(1);
}

} // namespace ctwin::views
