#pragma once
#include "change_set.h"

#include <QString>
#include <QUndoCommand>

namespace ctwin::model {
class Document;
}

namespace ctwin::app {

/// One undo entry: a committed model transaction. The transaction has already changed the document when
/// the command is pushed, so the first redo does nothing; undo applies the inverted change set, redo the
/// change set again (STYLE.md "Edits flow one way"). Commands with the same merge key (a drag, repeated
/// nudges, typing into one field) merge into one entry; a merge that cancels out removes the entry.
class DocumentCommand : public QUndoCommand {
public:
    /// Merge id shared by every mergeable document command; the key decides what merges.
    static constexpr int kMergeId = 0x4354; // "CT"

    DocumentCommand(model::Document& document, model::ChangeSet changes, QString mergeKey = {});

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeKey.isEmpty() ? -1 : kMergeId; }
    bool mergeWith(const QUndoCommand* other) override;

    const model::ChangeSet& changes() const { return m_changes; }
    const QString& mergeKey() const { return m_mergeKey; }

    /// `first` followed by `second` as one change set; repeated modifications of one entity collapse into
    /// one (before of the first, after of the last) and modifications that end where they began vanish.
    static model::ChangeSet merged(const model::ChangeSet& first, const model::ChangeSet& second);

private:
    model::Document& m_document;
    model::ChangeSet m_changes;
    QString m_mergeKey;
    bool m_applied = true;
};

} // namespace ctwin::app
