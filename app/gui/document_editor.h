#pragma once
#include "floor_plan_scene.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>

class QUndoStack;

namespace ctwin::model {
struct Assumption;
class Document;
class Transaction;
} // namespace ctwin::model

namespace ctwin::app {

/// Turns the views' intents into model transactions and pushes each committed change set on the undo
/// stack as a DocumentCommand. Every operation is all-or-nothing: it returns an empty string on success,
/// or the reason it was rejected (for the inspector's inline message or the status bar), with the document
/// unchanged. Positions are metres in the hall's frame.
class DocumentEditor {
public:
    DocumentEditor(model::Document& document, QUndoStack& stack);

    QString setProperty(const QStringList& ids, const QString& field, const nlohmann::ordered_json& value,
                        bool mergeable = true);
    /// Sets (or, with nullopt, resets to the shipped default) one assumption of the design.
    /// `before` is the value the user saw (the shipped default when the design has no override): the undo
    /// label names the range only when it changed.
    QString setAssumption(const QString& key, const std::optional<model::Assumption>& value,
                          const std::optional<model::Assumption>& before = std::nullopt);
    /// A training job on every GPU of the design with plain defaults (Compare's offer when the design has no
    /// workload; the full form lives with the authoring forms). `newId` receives its id.
    QString addDefaultTrainingJob(QString* newId = nullptr);
    /// Replaces the design's name, description and sources (the `project` object of data/FORMAT.md §3).
    QString setProjectInfo(const nlohmann::ordered_json& info);
    /// Places a rack of a catalog type: it joins the row it lines up with, or starts a new row; it takes
    /// feeds and cooling loop from its neighbours. `newId` receives the rack's id.
    QString placeRack(const QString& rackType, const QString& hallId, QPointF hallPos,
                      QString* newId = nullptr);
    /// Adds a CDU to the nearest loop of that CDU type in the hall, or to a new loop.
    QString placeCdu(const QString& cduType, const QString& hallId, QPointF hallPos);
    /// Moves racks (possibly into another hall, joining a row there) and CDUs ("<loop>#<n>").
    QString move(const QList<views::FloorMove>& moves);
    /// Moves by a delta; repeated nudges of the same selection merge into one undo entry.
    QString nudge(const QStringList& ids, QPointF delta);
    QString rotate(const QStringList& ids, double degrees);
    /// Removes entities and what depends on them (a hall takes its rows and racks); optional references
    /// to removed entities (a rack's loop or feed) are cleared instead.
    QString remove(const QStringList& ids);
    /// Extends a row with racks (its own type, or `rackType`) up to the hall wall or the next obstacle.
    QString fillRow(const QString& rowId, const QString& rackType = {}, int* added = nullptr);
    /// fillRow inside an open transaction (a new row and its racks as one commit and one undo entry):
    /// returns how many racks it added; throws when the row does not exist or has no room.
    int fillRow(model::Transaction& t, const std::string& rowId, const std::string& rackType,
                int maxRacks = 1000);
    /// The selected racks as a clipboard JSON document; null when nothing copyable is selected.
    nlohmann::ordered_json copy(const QStringList& ids) const;
    /// Pastes copied racks with their layout, the top-left one at `anchor` in `hallId`.
    QString paste(const nlohmann::ordered_json& clip, const QString& hallId, QPointF anchor,
                  QStringList* newIds = nullptr);

    /// The row a rack at this position belongs to, or empty when none lines up.
    QString rowAt(const QString& hallId, QPointF hallPos, const QString& rackType) const;

    /// Runs `edit` in one transaction labelled `label` and pushes the committed change set as one undo
    /// entry (nothing when it changed nothing). An exception thrown by `edit` or by the commit's validation
    /// rolls everything back; its message is returned. The authoring modules (app/gui/authoring) add
    /// entities through this.
    QString run(const std::string& label, const std::function<void(model::Transaction&)>& edit,
                const QString& mergeKey = {});

private:
    std::string freeId(const std::string& base) const;
    /// "Hall 2" for an entity id (its name, else its id); "CDU 2 of loop X" for a CDU item id.
    std::string displayName(const QString& id) const;
    std::string ensureRow(model::Transaction& t, const std::string& hall, QPointF& pos,
                          const std::string& rackType, double rotation);
    void checkPlacement(const std::string& hall, const QRectF& footprint, const QStringList& ignore) const;

    model::Document& m_doc;
    QUndoStack& m_stack;
    std::vector<std::string> m_reserved; // ids taken inside the open transaction
};

} // namespace ctwin::app
