#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "change_set.h"
#include "project.h"

namespace ctwin::model {

class Catalog;
class Transaction;

/// The open design: the Project, its id index, its listeners and the edit entry point (transactions).
/// Pure C++; the app's QUndoStack stores the ChangeSets that transactions return.
class Document {
public:
    explicit Document(Project project = {}, const Catalog* catalog = nullptr);

    const Project& project() const { return m_project; }
    const EntityIndex& index() const { return m_index; }
    const Catalog* catalog() const { return m_catalog; }
    /// Increments on every committed change (cheap "has anything changed" check for caches).
    std::uint64_t revision() const { return m_revision; }

    /// Replaces the whole design (open, new); listeners get documentReset.
    void reset(Project project);
    /// Applies a committed change set (undo/redo) and notifies listeners. Throws InputError and leaves the
    /// document unchanged if the change set does not fit the document.
    void apply(const ChangeSet& changes);

    void addListener(DocumentListener* listener);
    void removeListener(DocumentListener* listener);

    /// Ids of entities that reference `id` (children, racks on a loop or feed, ...).
    std::vector<std::string> dependents(const std::string& id) const;

private:
    friend class Transaction;
    void applyRaw(const ChangeSet& changes); // no validation, no notification
    void notify(const ChangeSet& changes);
    /// Checks the design after `changes` were applied (validateProject's rules and messages): the whole
    /// design the first time, then only what the change set can have broken. Throws InputError.
    void validateEdit(const ChangeSet& changes);

    Project m_project;
    EntityIndex m_index;
    const Catalog* m_catalog;
    std::vector<DocumentListener*> m_listeners;
    std::uint64_t m_revision = 0;
    bool m_inTransaction = false;
    /// The design passed validateProject (and every edit since passed validateEdit).
    bool m_validated = false;
    /// GPUs in the design's racks (with a catalog), kept up to date by each edit's difference.
    std::optional<double> m_gpus;
};

/// Batches edits of a Document. Edits apply at once (later edits in the same transaction see earlier ones);
/// commit() validates the result, merges repeated edits of one entity, drops no-ops, notifies listeners
/// with one ChangeSet and returns it for the undo stack. Destroying an uncommitted transaction rolls back.
class Transaction {
public:
    Transaction(Document& document, std::string label);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    /// Sets one field of an entity from a JSON value (SI, as in files); checks type and bounds.
    void setProperty(const std::string& id, const std::string& field, const nlohmann::ordered_json& value);
    /// Appends a new entity given as interchange JSON; returns its id.
    std::string add(EntityKind kind, const nlohmann::ordered_json& entity);
    void remove(const std::string& id);
    /// Removes several entities as one batch (a hall with its rows and racks): the same change entries as
    /// removing them one by one in the given order, grouped by kind, but the id index is rebuilt once, not
    /// once per entity.
    void remove(const std::vector<std::string>& ids);
    void setAssumption(const std::string& key, const std::optional<Assumption>& value);
    void setProjectInfo(const nlohmann::ordered_json& info);

    ChangeSet commit();
    void rollback();

private:
    Document& m_doc;
    ChangeSet m_changes;
    bool m_open = true;
};

} // namespace ctwin::model
