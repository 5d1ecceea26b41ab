#include "assumptions_panel.h"

#include "assumption_values.h"
#include "field_names.h"
#include "finance_conventions.h"

#include <QAbstractItemDelegate>
#include <QApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

namespace ctwin::views {

namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

/// Enough digits to round-trip what users type; no exponent for ordinary magnitudes.
QString shown(double x) {
    QString s = QLocale::c().toString(x, 'g', 10);
    return s;
}

const char* const kEditedPrefix = "Edited in this design";

} // namespace

AssumptionsPanel::AssumptionsPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_note = new QLabel(tr("Shipped defaults; <b>●</b> marks the values this design overrides. Double-click "
                           "base, low or high to edit."),
                        this);
    m_note->setWordWrap(true);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("assumptionsError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; color: #8a1c17; border: 1px solid "
                                          "#e0908c; border-radius: 3px; padding: 4px; }"));
    m_error->hide();
    m_offer = new QPushButton(this);
    m_offer->setObjectName(QStringLiteral("assumptionsOffer"));
    m_offer->hide();
    connect(m_offer, &QPushButton::clicked, this, [this] {
        clearError();
        emit offerAccepted();
    });
    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("assumptionsTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("Assumption"), tr("Base"), tr("Low"), tr("High"), tr("Unit"), tr("Source")});
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed |
                             QAbstractItemView::AnyKeyPressed);
    m_table->horizontalHeader()->setSectionResizeMode(Source, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_reset = new QPushButton(tr("Reset to shipped default"), this);
    m_reset->setToolTip(
        tr("Drop this design's value of the selected assumption; the shipped default applies"));
    m_reset->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_reset);
    layout->addWidget(m_note);
    auto* errorRow = new QHBoxLayout;
    errorRow->addWidget(m_error, 1);
    errorRow->addWidget(m_offer, 0, Qt::AlignTop);
    layout->addLayout(errorRow);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_filling) return;
        const int column = item->column();
        if (column != Base && column != Low && column != High) return;
        editCell(keyAt(item->row()), static_cast<Column>(column), item->text());
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] { updateResetButton(); });
    connect(m_reset, &QPushButton::clicked, this, [this] {
        const QString key = keyAt(m_table->currentRow());
        if (!key.isEmpty() && isOverridden(key)) emit resetRequested(key);
    });
}

QString AssumptionsPanel::keyAt(int row) const {
    if (row < 0 || row >= m_table->rowCount()) return {};
    return m_table->item(row, Name)->data(Qt::UserRole).toString();
}

int AssumptionsPanel::rowOf(const QString& key) const {
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (keyAt(r) == key) return r;
    return -1;
}

bool AssumptionsPanel::isOverridden(const QString& key) const {
    return m_overrides.count(key.toStdString()) > 0;
}

const model::Assumption* AssumptionsPanel::effective(const QString& key) const {
    const std::string k = key.toStdString();
    if (const auto it = m_overrides.find(k); it != m_overrides.end()) return &it->second;
    if (const auto it = m_defaults.find(k); it != m_defaults.end()) return &it->second;
    return nullptr;
}

QString AssumptionsPanel::errorText() const {
    return m_error->text();
}

bool AssumptionsPanel::errorVisible() const {
    return !m_error->isHidden();
}

void AssumptionsPanel::showError(const QString& message, const QString& offer) {
    m_error->setText(message);
    m_error->show();
    m_offer->setText(offer);
    m_offer->setVisible(!offer.isEmpty());
}

void AssumptionsPanel::clearError() {
    m_error->clear();
    m_error->hide();
    m_offer->hide();
}

void AssumptionsPanel::showAssumptions(const model::AssumptionSet& defaults,
                                       const model::AssumptionSet& overrides) {
    m_defaults = defaults;
    m_overrides = overrides;
    const QString current = keyAt(m_table->currentRow());
    m_filling = true;
    const model::AssumptionSet all = model::mergeAssumptions(defaults, overrides);
    bool resize = m_table->rowCount() != static_cast<int>(all.size());
    m_table->setRowCount(static_cast<int>(all.size()));
    int row = 0;
    for (const auto& [key, a] : all) {
        const bool overridden = overrides.count(key) > 0;
        const auto def = defaults.find(key);
        // Only what differs is set: one changed assumption repaints its row, and the columns are measured
        // again (every row's text laid out) only when a name or a unit changed.
        auto set = [&](int column, const QString& text, bool editable) {
            QTableWidgetItem* item = m_table->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(row, column, item);
            }
            if (item->text() != text) {
                item->setText(text);
                resize = resize || column == Name || column == Unit;
            }
            const Qt::ItemFlags flags = editable
                                            ? Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable
                                            : Qt::ItemIsSelectable | Qt::ItemIsEnabled;
            if (item->flags() != flags) item->setFlags(flags);
            QFont f = item->font();
            if (f.bold() != overridden) {
                f.setBold(overridden);
                item->setFont(f);
                resize = resize || column == Name || column == Unit;
            }
            return item;
        };
        QTableWidgetItem* name =
            set(Name, (overridden ? QStringLiteral("● ") : QString()) + fieldName(key), false);
        name->setData(Qt::UserRole, qs(key));
        QString tip = qs(key);
        if (overridden)
            tip += def == defaults.end()
                       ? tr("\nSet by this design only (no shipped default)")
                       : tr("\nOverridden by this design; shipped default %1 (%2 to %3)")
                             .arg(shown(def->second.base), shown(def->second.low), shown(def->second.high));
        tip += tr("\naccepted: %1 to %2 (the valid range in data/assumptions.json)")
                   .arg(shown(a.min), shown(a.max));
        name->setToolTip(tip);
        set(Base, shown(a.base), true)->setToolTip(tip);
        set(Low, shown(a.low), true)->setToolTip(tip);
        set(High, shown(a.high), true)->setToolTip(tip);
        set(Unit, qs(a.unit), false);
        const bool saysEstimate = qs(a.source).contains(QLatin1String("estimate"), Qt::CaseInsensitive);
        set(Source, qs(a.source) + (a.estimate && !saysEstimate ? tr(" (estimate)") : QString()), false)
            ->setToolTip(qs(a.source));
        ++row;
    }
    if (resize) {
        m_table->resizeColumnToContents(Name);
        m_table->resizeColumnToContents(Unit);
    }
    if (!current.isEmpty()) m_table->selectRow(rowOf(current));
    m_filling = false;
    updateResetButton();
}

void AssumptionsPanel::updateResetButton() {
    const QString key = keyAt(m_table->currentRow());
    m_reset->setEnabled(!key.isEmpty() && isOverridden(key));
}

bool AssumptionsPanel::editCell(const QString& key, Column column, const QString& text) {
    const model::Assumption* current = effective(key);
    const auto refuse = [&](const QString& why) {
        showError(tr("%1: %2 The design is unchanged.").arg(fieldName(key.toStdString()), why));
        showAssumptions(m_defaults, m_overrides); // put the stored value back in the cell
        if (const int row = rowOf(key); row >= 0) {
            m_table->selectRow(row);
            m_table->scrollToItem(m_table->item(row, column == Low || column == High ? column : Base));
        }
        return false;
    };
    if (!current) return refuse(tr("there is no assumption '%1'.").arg(key));
    if (column != Base && column != Low && column != High)
        return refuse(tr("only base, low and high can be edited."));
    QString t = text.trimmed();
    t.remove(QLatin1Char(',')).remove(QLatin1Char(' '));
    bool ok = false;
    const double x = QLocale::c().toDouble(t, &ok);
    if (!ok) return refuse(tr("'%1' is not a number.").arg(text.trimmed()));
    if (!std::isfinite(x)) return refuse(tr("'%1' is not a finite number.").arg(text.trimmed()));
    model::Assumption next = *current;
    (column == Base ? next.base : column == Low ? next.low : next.high) = x;
    // The same check as the loader, --set and sweeps (cost::assumptionValueProblem).
    if (!cost::assumptionValueProblem(*current, x).empty()) {
        if (current->whole && x >= current->min && x <= current->max)
            return refuse(tr("%1 is not a whole number; %2 takes whole numbers only.").arg(shown(x), key));
        return refuse(tr("%1 is outside %2 to %3 (the valid range in data/assumptions.json).")
                          .arg(shown(x), shown(current->min), shown(current->max)));
    }
    if (!(next.low <= next.base && next.base <= next.high))
        return refuse(tr("low %1, base %2, high %3 must satisfy low <= base <= high.")
                          .arg(shown(next.low), shown(next.base), shown(next.high)));
    // A build no longer than the horizon (cost::scheduleAssumptionProblem, as the loader and --set).
    if (column == Base) {
        model::AssumptionSet context;
        for (const char* k : {"construction_months", "horizon_years"})
            if (const auto* a = effective(QString::fromLatin1(k))) context.emplace(k, *a);
        if (const std::string why = cost::scheduleAssumptionProblem(context, key.toStdString(), x); !why.empty())
            return refuse(QString::fromStdString(why) + QLatin1Char('.'));
    }
    if (next == *current) {
        clearError();
        return true;
    }
    // The value is now this design's: say so where its source is shown, keeping the shipped reference.
    if (next.source.rfind(kEditedPrefix, 0) != 0)
        next.source = std::string(kEditedPrefix) +
                      (next.source.empty() ? "" : "; shipped default from: " + next.source);
    clearError();
    emit editRequested(key, next);
    return true;
}

void AssumptionsPanel::commitPending() {
    // An open cell editor has the focus inside the table's viewport.
    QWidget* editor = QApplication::focusWidget();
    if (!editor || !m_table->viewport()->isAncestorOf(editor)) return;
    emit m_table->itemDelegate()->commitData(editor);
    emit m_table->itemDelegate()->closeEditor(editor, QAbstractItemDelegate::NoHint);
}

} // namespace ctwin::views
