#include "document_command.h"

#include "document.h"

#include <QtGlobal>
#include <algorithm>
#include <map>

namespace ctwin::app {

DocumentCommand::DocumentCommand(model::Document& document, model::ChangeSet changes, QString mergeKey)
    : m_document(document), m_changes(std::move(changes)), m_mergeKey(std::move(mergeKey)) {
    setText(QString::fromStdString(m_changes.label));
}

void DocumentCommand::undo() {
    try {
        m_document.apply(m_changes.inverted());
        m_applied = false;
    } catch (const std::exception& e) {
        qWarning("undo of '%s' failed: %s", m_changes.label.c_str(), e.what());
    }
}

void DocumentCommand::redo() {
    if (m_applied) return; // pushed right after its transaction committed
    try {
        m_document.apply(m_changes);
        m_applied = true;
    } catch (const std::exception& e) {
        qWarning("redo of '%s' failed: %s", m_changes.label.c_str(), e.what());
    }
}

bool DocumentCommand::mergeWith(const QUndoCommand* other) {
    const auto* o = dynamic_cast<const DocumentCommand*>(other);
    if (!o || o->m_mergeKey != m_mergeKey || m_mergeKey.isEmpty()) return false;
    const std::string label = m_changes.label;
    m_changes = merged(m_changes, o->m_changes);
    m_changes.label = label;
    if (m_changes.empty()) setObsolete(true);
    return true;
}

model::ChangeSet DocumentCommand::merged(const model::ChangeSet& first, const model::ChangeSet& second) {
    model::ChangeSet out = first;
    out.entities.insert(out.entities.end(), second.entities.begin(), second.entities.end());
    out.assumptions.insert(out.assumptions.end(), second.assumptions.begin(), second.assumptions.end());
    if (second.projectInfoChanged) {
        if (!out.projectInfoChanged) out.infoBefore = second.infoBefore;
        out.projectInfoChanged = true;
        out.infoAfter = second.infoAfter;
    }
    // Collapse only pure modifications: with adds or removes in between, order matters and the plain
    // concatenation is kept (it applies and inverts correctly as it is).
    if (!out.structural()) {
        std::vector<model::EntityChange> collapsed;
        std::map<std::string, size_t> at;
        for (auto& c : out.entities) {
            auto it = at.find(c.id);
            if (it == at.end()) {
                at.emplace(c.id, collapsed.size());
                collapsed.push_back(std::move(c));
                continue;
            }
            auto& into = collapsed[it->second];
            into.after = std::move(c.after);
            for (auto& p : c.properties)
                if (std::find(into.properties.begin(), into.properties.end(), p) == into.properties.end())
                    into.properties.push_back(std::move(p));
        }
        collapsed.erase(std::remove_if(collapsed.begin(), collapsed.end(),
                                       [](const model::EntityChange& c) { return c.before == c.after; }),
                        collapsed.end());
        out.entities = std::move(collapsed);
    }
    if (out.projectInfoChanged && out.infoBefore == out.infoAfter) out.projectInfoChanged = false;
    return out;
}

} // namespace ctwin::app
