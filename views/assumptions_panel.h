#pragma once
#include "assumption.h"

#include <QWidget>
#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;
class QTableWidgetItem;

namespace ctwin::views {

/// Every assumption of the open design (SPEC.md §3: base, low, high, unit, source) in one table: the
/// shipped defaults (data/assumptions.json) overlaid with the design's overrides, which are marked. Base,
/// low and high are edited in place; a value is checked here first (a number, finite, low <= base <= high,
/// within the key's sane range, field_names.h) and refused inline with the design unchanged. Read only
/// towards the model: accepted edits leave as editRequested, resets as resetRequested, and the app commits
/// them (Transaction::setAssumption) and shows the result with showAssumptions.
class AssumptionsPanel : public QWidget {
    Q_OBJECT
public:
    enum Column { Name, Base, Low, High, Unit, Source, ColumnCount };

    explicit AssumptionsPanel(QWidget* parent = nullptr);

    void showAssumptions(const model::AssumptionSet& defaults, const model::AssumptionSet& overrides);
    /// Types `text` into one cell of an assumption as a user would (tests; the table's editor calls it
    /// too). Returns false when the value is refused (the message is shown inline).
    bool editCell(const QString& key, Column column, const QString& text);
    /// Commits a cell editor that is still open (Ctrl+Z while typing in the table).
    void commitPending();
    /// An inline refusal; with `offer`, a button beside it that emits offerAccepted (e.g. "Apply to those
    /// 3 sites"), hidden again with the message.
    void showError(const QString& message, const QString& offer = {});
    void clearError();
    /// The offer button of the last refusal (hidden when it made none).
    QPushButton* offerButton() const { return m_offer; }

    QTableWidget* table() const { return m_table; }
    QPushButton* resetButton() const { return m_reset; }
    /// The table row of an assumption key, -1 when there is none.
    int rowOf(const QString& key) const;
    bool isOverridden(const QString& key) const;
    QString errorText() const;
    bool errorVisible() const;

signals:
    /// A new value of an assumption (base, low, high in the stored unit, checked as described above).
    void editRequested(const QString& key, const model::Assumption& value);
    /// Drop the design's override of `key`, back to the shipped default.
    void resetRequested(const QString& key);
    /// The user took the offer of the refusal shown (showError with an offer).
    void offerAccepted();

private:
    void updateResetButton();
    QString keyAt(int row) const;
    const model::Assumption* effective(const QString& key) const;

    QTableWidget* m_table = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_note = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_offer = nullptr;
    model::AssumptionSet m_defaults;
    model::AssumptionSet m_overrides;
    bool m_filling = false;
};

} // namespace ctwin::views
