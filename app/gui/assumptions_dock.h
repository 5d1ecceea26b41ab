#pragma once
#include "assumption.h"
#include "change_set.h"

#include <QObject>
#include <QStringList>
#include <functional>
#include <optional>

class QDockWidget;
class QMainWindow;

namespace ctwin::model {
class Document;
}
namespace ctwin::views {
class AssumptionsPanel;
class InspectorPanel;
} // namespace ctwin::views

namespace ctwin::app {

class DocumentEditor;

/// The design-level editing the inspector's entity forms do not cover: the Assumptions
/// dock (every assumption with its range and source, overrides marked, edit and reset with undo) and the
/// design's own name, description and sources in the inspector. Turns the views' intents into
/// DocumentEditor commands and refreshes the panel from the document's change events.
class AssumptionsDock : public QObject, private model::DocumentListener {
    Q_OBJECT
public:
    AssumptionsDock(QMainWindow* window, model::Document& document, DocumentEditor& editor,
                    const model::AssumptionSet& defaults, views::InspectorPanel* inspector);
    ~AssumptionsDock() override;

    views::AssumptionsPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }
    /// Commits a value still being typed in the assumptions table or the inspector (before undo/redo).
    void commitPending();
    /// Ctrl+Z / Ctrl+Shift+Z typed into a field of the inspector or the assumptions table reach this
    /// (after the pending value is committed) instead of the field's own text undo.
    void setUndoHandler(std::function<void(bool redo)> handler) { m_undoHandler = std::move(handler); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void documentChanged(const model::ChangeSet& changes) override;
    void documentReset() override;
    void refresh();
    /// The entity values (override paths) that shadow assumption `key`: empty when the design reads the
    /// assumption (or cannot be evaluated); else each entity that would fall back to it and sets its own
    /// value (at most kMaxShadowsNamed).
    QStringList shadowingInputs(const std::string& key, qsizetype limit) const;
    static constexpr qsizetype kMaxShadowsNamed = 12;
    /// A refused base edit and the entity values (override paths) that shadow it, kept for the offer.
    struct PendingOffer {
        QString key;
        model::Assumption value;
        std::optional<model::Assumption> shown;
        QStringList paths;
    };
    /// Clears the entity values of `offer` (they fall back to the assumption) and sets the assumption, in
    /// one transaction and one undo entry; the reason on refusal.
    QString applyToShadowingEntities(const PendingOffer& offer);
    std::optional<PendingOffer> m_offer;

    model::Document& m_document;
    DocumentEditor& m_editor;
    const model::AssumptionSet& m_defaults;
    views::InspectorPanel* m_inspector;
    views::AssumptionsPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
    std::function<void(bool)> m_undoHandler;
};

} // namespace ctwin::app
