#pragma once
#include "entity_authoring.h"
#include "field_spec.h"

#include <QDialog>
#include <QHash>
#include <QString>
#include <QStringList>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

class QFormLayout;
class QLabel;
class QLineEdit;

namespace ctwin::app {

/// The creation form of one entity kind: editors built from the kind's own field description
/// (views::FieldSpec, i.e. visitFields with its Bounds — the loader's limits), in display units. OK checks
/// every field inline (not a number, NaN, out of bounds, a required choice left empty), then the module's
/// own checks, then runs the module's command; a refusal keeps the dialog open with everything the user
/// typed and leaves the design unchanged. Tests build the form, fill it with setText/setChoice/... and
/// call accept() without exec().
class AuthoringForm : public QDialog {
    Q_OBJECT
public:
    using Options = std::vector<std::pair<QString, QString>>; ///< (shown text, stored value)

    AuthoringForm(const EntityAuthoring& module, AuthoringContext context, QWidget* parent = nullptr);
    ~AuthoringForm() override;

    // --- for the modules' buildForm ---
    /// An editor for one field of the entity, chosen by its type: a line edit in display units for numbers
    /// and text, a list for choices, references and catalog references, a check box for flags.
    void addField(const std::string& key, const nlohmann::ordered_json& initial);
    /// A drop-down of the given options for a field (endpoints, filtered references).
    void addChoice(const std::string& key, const Options& options, const QString& current,
                   bool optional = false);
    /// A checkable list for a list field (buildings in scope, power chain, sites); `ordered` keeps the
    /// order of the options, which is the order written.
    void addPicks(const std::string& key, const Options& options, const QStringList& checked);
    /// A value written to the entity but not shown (id, computed CDU positions).
    void setFixed(const std::string& key, const nlohmann::ordered_json& value);
    /// A widget of the module that is not an entity field (a place list, "assign the selected racks").
    void addExtra(const QString& key, const QString& label, QWidget* widget);
    void addNote(const QString& text);
    /// A QLabel under the fields the module fills on every edit (the fabric's live preview).
    QLabel* addPreview();

    // --- reading and scripting (modules, tests) ---
    QWidget* editor(const QString& key) const;
    QString text(const QString& key) const;
    bool setText(const QString& key, const QString& text);
    /// Picks the option whose stored value is `value` in a drop-down; false when there is none.
    bool setChoice(const QString& key, const QString& value);
    bool setPicked(const QString& key, const QStringList& values);
    bool setChecked(const QString& key, bool on);
    bool isChecked(const QString& key) const;
    /// The entity as interchange JSON (SI) when every field is valid; else nullopt, with the reason in
    /// `error` and the offending editor marked.
    std::optional<nlohmann::ordered_json> entity(QString* error = nullptr);
    /// The entity if valid, without marking anything (previews).
    std::optional<nlohmann::ordered_json> candidate() const;

    QString errorText() const;
    bool errorVisible() const;
    void showError(const QString& message);
    const QString& createdId() const { return m_createdId; }
    const EntityAuthoring& module() const { return m_module; }
    const AuthoringContext& context() const { return m_context; }

public slots:
    /// Validates and creates; on refusal shows why and stays open.
    void accept() override;

signals:
    /// Any editor changed (for previews).
    void edited();

private:
    struct Field {
        std::string key;
        views::FieldSpec spec;
        QWidget* widget = nullptr;
        QString unit;
        double scale = 1.0; // SI = shown x scale
    };
    std::optional<nlohmann::ordered_json> collect(QString* error, QWidget** bad) const;
    void addRow(const QString& label, QWidget* editor, const QString& unit, const QString& tip);
    const views::FieldSpec& specOf(const std::string& key) const;

    const EntityAuthoring& m_module;
    AuthoringContext m_context;
    std::vector<views::FieldSpec> m_specs;
    std::vector<Field> m_fields;
    QHash<QString, QWidget*> m_extras;
    nlohmann::ordered_json m_fixed = nlohmann::ordered_json::object();
    QFormLayout* m_layout = nullptr;
    QLabel* m_error = nullptr;
    QString m_createdId;
    QWidget* m_marked = nullptr;
};

/// Label of a field key for forms: "supply_temp_c" -> "Supply temp".
QString authoringLabel(const std::string& key);

} // namespace ctwin::app
