#pragma once
#include "entity_authoring.h"

#include <QHash>
#include <QObject>
#include <QStringList>
#include <functional>
#include <memory>

class QAction;
class QMenu;
class QToolBar;
class QUndoStack;
class QWidget;

namespace ctwin::app {

class AuthoringForm;
class DocumentEditor;
class UserPrompts;

/// The desktop entry points of authoring, built from authoringRegistry(): one Insert action per entity
/// kind (menu and toolbar), "Add <child>" / Rename / Delete in the context menus of the project tree and the
/// floor plan, rename in place and delete with a confirmation that says what goes with it. Keeps the main
/// window out of the business of making entities.
class AuthoringActions : public QObject {
    Q_OBJECT
public:
    struct Hooks {
        std::function<QStringList()> selection;
        std::function<void(const QStringList&)> select;
        std::function<void(const QString&)> report;
        std::function<UserPrompts&()> prompts;
        /// Starts rename-in-place of an entity (the project tree's editor).
        std::function<void(const QString&)> startRename;
        /// The hall (else building, else site) in view on the floor plan: the parent a new row, feed or
        /// storage tier defaults to when nothing is selected.
        std::function<QString()> current;
    };
    AuthoringActions(QWidget* window, const model::Document& document, DocumentEditor& editor,
                     QUndoStack& undo, const model::Catalog& catalog, const model::AssumptionSet& defaults,
                     Hooks hooks);
    ~AuthoringActions() override;

    void populateInsertMenu(QMenu* menu) const;
    void populateToolBar(QToolBar* bar) const;
    /// Enables each Insert action when its kind can be added now (tooltip says why not).
    void updateActions();
    QAction* insertAction(model::EntityKind kind) const { return m_actions.value(static_cast<int>(kind)); }

    /// The creation form of a kind with defaults from the current selection, not shown: Insert shows it
    /// modally; tests fill it and call accept().
    std::unique_ptr<AuthoringForm> makeForm(model::EntityKind kind, QWidget* parent = nullptr) const;
    /// Insert > <kind>: the form, modal; the new entity is selected. Empty when cancelled or unavailable.
    /// `preset` fills fields first (field key -> text, or the stored value of a drop-down), e.g. a rectangle
    /// drawn on the plan or the two sites a link was dragged between.
    QString insert(model::EntityKind kind, const QHash<QString, QString>& preset = {});

    /// "Add <child>" for the kind of the clicked entity, Rename, Delete (tree and plan menus).
    void addContextActions(QMenu* menu, const QStringList& ids);

    /// The question asked before deleting `ids`: "Delete Hall 2 and its 4 rows, 83 racks and 1 cooling
    /// loop?", plus a warning for the last building or links that reference a site. Empty when deleting
    /// these needs no question (racks and CDUs only, the plan's everyday delete).
    QString deletionQuestion(const QStringList& ids) const;
    /// The same with `all`, the deletionClosure of `ids`, already known.
    QString deletionQuestion(const QStringList& ids, const QStringList& all) const;
    /// `ids` and everything that goes with them (children, links to removed sites and buildings).
    QStringList deletionClosure(const QStringList& ids) const;
    /// Asks (when deletionQuestion is not empty) and deletes as one undo entry. False when declined or
    /// refused.
    bool deleteWithConfirmation(const QStringList& ids);
    /// Renames an entity (one undo entry); returns the reason on refusal.
    QString rename(const QString& id, const QString& name);

private:
    AuthoringContext context() const;

    QWidget* m_window;
    const model::Document& m_doc;
    DocumentEditor& m_editor;
    QUndoStack& m_undo;
    const model::Catalog& m_catalog;
    const model::AssumptionSet& m_defaults;
    Hooks m_hooks;
    QHash<int, QAction*> m_actions;
};

} // namespace ctwin::app
