#include "results_panel.h"

#include <QHeaderView>

namespace ctwin::views {

ResultsPanel::ResultsPanel(QWidget* parent) : QTableWidget(parent) {
    setColumnCount(3);
    setHorizontalHeaderLabels({tr("Section"), tr("Figure"), tr("Value")});
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setAlternatingRowColors(true);
    setSelectionBehavior(SelectRows);
}

void ResultsPanel::showResults(const cost::Results& r) {
    setUpdatesEnabled(false);
    setRowCount(0);
    for (const auto& f : r.figures) {
        if (f.key.rfind("capex.share.", 0) == 0) continue;
        const int row = rowCount();
        insertRow(row);
        const QString tip = DisplayUnits::provenanceTooltip(f);
        const QString section = QString::fromStdString(f.key.substr(0, f.key.find('.')));
        QString value = m_units.formatFigure(f);
        if (f.key.rfind("capex.by_category_usd.", 0) == 0)
            if (const auto* share = r.figure("capex.share." + f.key.substr(22)))
                value += QStringLiteral("  (%1%)").arg(share->value * 100, 0, 'f', 1);
        auto* s = new QTableWidgetItem(section);
        auto* l = new QTableWidgetItem(QString::fromStdString(f.label));
        auto* v = new QTableWidgetItem(value);
        v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        for (auto* it : {s, l, v})
            it->setToolTip(tip);
        setItem(row, 0, s);
        setItem(row, 1, l);
        setItem(row, 2, v);
    }
    resizeColumnToContents(0);
    resizeColumnToContents(1);
    setUpdatesEnabled(true);
}

} // namespace ctwin::views
