#include "results_panel.h"

#include <QHeaderView>

#include "results_json.h"

namespace ctwin::views {

ResultsPanel::ResultsPanel(QWidget* parent) : QTableWidget(parent) {
    setColumnCount(2);
    setHorizontalHeaderLabels({tr("Figure"), tr("Value")});
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
}

void ResultsPanel::showResults(const cost::Results& r) {
    setRowCount(0);
    auto addRow = [&](const QString& label, const QString& value, const QString& tip) {
        const int row = rowCount();
        insertRow(row);
        auto* l = new QTableWidgetItem(label);
        auto* v = new QTableWidgetItem(value);
        v->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        l->setToolTip(tip);
        v->setToolTip(tip);
        setItem(row, 0, l);
        setItem(row, 1, v);
    };
    for (const auto& f : r.figures) {
        if (f.key.rfind("capex.share.", 0) == 0) continue;
        QString tip = QString::fromStdString(f.key + "\n" + f.provenance.formula);
        for (const auto& [name, value] : f.provenance.inputs)
            tip += QStringLiteral("\n  %1 = %2").arg(QString::fromStdString(name)).arg(value, 0, 'g', 6);
        for (const auto& s : f.provenance.sources) tip += "\n  source: " + QString::fromStdString(s);
        addRow(QString::fromStdString(f.label), QString::fromStdString(cost::formatHuman(f.value, f.unit)), tip);
    }
    for (const auto& rule : r.rules)
        addRow(QString::fromLatin1(cost::severityName(rule.severity)), QString::fromStdString(rule.message),
               QString::fromStdString(rule.entity));
    resizeColumnToContents(0);
}

} // namespace ctwin::views
