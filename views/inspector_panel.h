#pragma once
#include "catalog.h"
#include "display_units.h"
#include "document.h"
#include "field_spec.h"
#include "input_resolver.h"

#include <QHash>
#include <QWidget>
#include <map>
#include <string>
#include <vector>

class QFormLayout;
class QLabel;
class QScrollArea;

namespace ctwin::views {

class DesignPropertiesForm;

/// The inspector: every field of the selected entity (or the common fields of several entities of one
/// kind) with an editor in display units. Edits leave as editRequested (JSON in SI, as in files); the app
/// commits them and reports a rejected value back with showError, which leaves an inline message.
class InspectorPanel : public QWidget {
    Q_OBJECT
public:
    explicit InspectorPanel(const model::Catalog& catalog, QWidget* parent = nullptr);

    void setUnits(const DisplayUnits& units);
    /// Builds the editors for these entities (ignored ids: unknown ones and CDU item ids).
    void showSelection(const model::Document& document, const QStringList& ids);
    /// Re-reads the values of the shown entities after a change (keeps editors and focus).
    void refresh(const model::Document& document);
    void showError(const QString& message);
    void clearError();
    /// The outcome of a committed edit: an empty `error` clears the message; otherwise the reason shows and
    /// the editors go back to the document's values (the inspector and the design form share this).
    void showEditResult(const model::Document& document, const QString& error);
    /// Commits a field the user is still typing in (Ctrl+Z with the focus here commits, then undoes).
    void commitPending();
    /// The design's own form, shown when the project tree's top item (kDesignRootId) is selected.
    DesignPropertiesForm* designForm() const { return m_design; }
    /// The inputs of the latest evaluation (cost::Results::inputs): an absent optional field shows the value
    /// the engine used instead, e.g. "default (0.07 USD/kWh from assumptions)".
    void setResolvedInputs(const std::vector<cost::ResolvedInput>& inputs);

    const QStringList& ids() const { return m_ids; }
    /// The editor widget of a field (QLineEdit, QComboBox or QCheckBox), for tests and focus.
    QWidget* editor(const QString& key) const;
    QString errorText() const;
    bool errorVisible() const;

signals:
    void editRequested(const QStringList& ids, const QString& field, const QString& jsonValue);
    /// The design's name, description or sources changed: the whole `project` object (data/FORMAT.md §3).
    void projectInfoEditRequested(const QString& projectJson);

private:
    struct Editor {
        FieldSpec spec;
        QWidget* widget = nullptr;
        QString unit;
        double scale = 1.0; // SI value = shown value x scale
        bool mixed = false;
    };
    void build(const model::Document& document);
    /// Title and catalog summary of the shown entities (follows a changed name or rack type).
    void updateHeader(const model::Document& document);
    bool showDesign(const model::Document& document, const QStringList& ids);
    void fill(const model::Document& document);
    QWidget* makeEditor(Editor& e, const model::Document& document);
    void commitText(const QString& key);
    // ---- Optional fields (absent = the engine's default) ----
    /// "Use default" and "Override" buttons beside an optional number's editor.
    void addOptionalButtons(const Editor& e, QWidget* row);
    /// The placeholder of an absent optional field: the value used and where it came from.
    QString optionalDefaultText(const Editor& e) const;
    /// Placeholders of every absent optional field of the shown entity.
    void showOptionalDefaults();
    void unitFor(const std::string& key, double typical, QString* unit, double* scale) const;
    QString shown(const Editor& e, const nlohmann::ordered_json& v) const;

    const model::Catalog& m_catalog;
    DisplayUnits m_units;
    QStringList m_ids;
    model::EntityKind m_kind = model::EntityKind::Site;
    bool m_filling = false;
    QLabel* m_title = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_summary = nullptr;
    QWidget* m_form = nullptr;
    QScrollArea* m_scroll = nullptr;
    DesignPropertiesForm* m_design = nullptr;
    QFormLayout* m_layout = nullptr;
    std::vector<Editor> m_editors;
    QHash<QString, int> m_byKey;
    std::map<std::string, cost::ResolvedInput> m_inputs; // by override path
    QStringList m_absent; // keys of optional fields the shown entity leaves absent
};

} // namespace ctwin::views
