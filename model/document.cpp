#include "document.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "catalog.h"
#include "design_json.h"
#include "entity_references.h"
#include "input_error.h"

namespace ctwin::model {

using ojson = nlohmann::ordered_json;

namespace {

ojson entityJsonAt(const Project& p, EntitySlot slot) {
    return p.withCollection(slot.kind, [&](const auto& c) { return entityToJson(c[slot.index]); });
}

void setEntityAt(Project& p, EntitySlot slot, const ojson& j) {
    p.withCollection(slot.kind, [&](auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        c[slot.index] = entityFromJson<Entity>(j, "");
    });
}

/// Erases the entities at these positions (distinct, as they are now) of one kind in one pass: a hall's
/// 250 racks out of 5,000 move the rest once, not once per rack.
void eraseEntities(Project& p, EntityKind kind, std::vector<size_t> at) {
    std::sort(at.begin(), at.end());
    p.withCollection(kind, [&](auto& c) {
        size_t out = at.front(), k = 0;
        for (size_t in = at.front(); in < c.size(); ++in) {
            if (k < at.size() && at[k] == in) {
                ++k;
                continue;
            }
            c[out++] = std::move(c[in]);
        }
        c.erase(c.begin() + static_cast<std::ptrdiff_t>(out), c.end());
    });
}

/// Inserts entities of one kind in one pass; `at` ascending, each the position it takes once the ones
/// before it are in (what inserting them one by one in this order gives).
void insertEntities(Project& p, EntityKind kind, const std::vector<std::pair<size_t, const ojson*>>& at) {
    p.withCollection(kind, [&](auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        std::vector<Entity> added; // parsed first: a bad entity throws with the collection unchanged
        added.reserve(at.size());
        for (const auto& [pos, json] : at)
            added.push_back(entityFromJson<Entity>(*json, ""));
        // Appended at the end in order (a new rack, a filled row): no need to move the 5,000 before them.
        bool appending = true;
        for (size_t k = 0; k < at.size(); ++k)
            appending = appending && at[k].first == c.size() + k;
        if (appending) {
            for (auto& e : added)
                c.push_back(std::move(e));
            return;
        }
        std::vector<Entity> merged;
        merged.reserve(c.size() + at.size());
        size_t k = 0, in = 0;
        for (size_t pos = 0; pos < c.size() + at.size(); ++pos) {
            if (k < at.size() && at[k].first == pos)
                merged.push_back(std::move(added[k++]));
            else
                merged.push_back(std::move(c[in++]));
        }
        c = std::move(merged);
    });
}

size_t collectionSize(const Project& p, EntityKind kind) {
    return p.withCollection(kind, [](const auto& c) { return c.size(); });
}

InputLocation entityLocation(EntityKind kind, const std::string& id, const std::string& field = {}) {
    return InputLocation{"", std::string(entityKindName(kind)), id, "", field};
}

} // namespace

Document::Document(Project project, const Catalog* catalog)
    : m_project(std::move(project)), m_index(m_project), m_catalog(catalog) {}

void Document::reset(Project project) {
    m_project = std::move(project);
    m_index.rebuild(m_project);
    m_validated = false;
    m_gpus.reset();
    ++m_revision;
    for (auto* l : m_listeners) l->documentReset();
}

void Document::addListener(DocumentListener* listener) { m_listeners.push_back(listener); }
void Document::removeListener(DocumentListener* listener) {
    m_listeners.erase(std::remove(m_listeners.begin(), m_listeners.end(), listener), m_listeners.end());
}

void Document::notify(const ChangeSet& changes) {
    ++m_revision;
    for (auto* l : m_listeners) l->documentChanged(changes);
}

void Document::applyRaw(const ChangeSet& changes) {
    // Ids stay exact throughout (inserted as entities come, set aside in `erased` as they go); slots of a kind
    // at or after the lowest position an insert or erase touched are stale until the index is rebuilt.
    // Rebuilding only when a stale slot is asked for lets a batch (a hall's 400 racks removed from the
    // highest position down, or put back by undo) run with one rebuild instead of one per entity.
    std::map<EntityKind, size_t> staleFrom;
    std::set<std::string> erased; // ids the index still lists until it is rebuilt
    // Removals and inserts wait to be done one pass per kind; nothing moves until then, so slots stay valid.
    std::map<EntityKind, std::vector<size_t>> pendingErase;
    std::map<EntityKind, std::vector<std::pair<size_t, const ojson*>>> pendingInsert;
    const auto markStale = [&](EntityKind kind, size_t from) {
        const auto [it, fresh] = staleFrom.emplace(kind, from);
        if (!fresh) it->second = std::min(it->second, from);
    };
    const auto flush = [&](EntityKind kind) {
        if (auto e = pendingErase.find(kind); e != pendingErase.end() && !e->second.empty()) {
            markStale(kind, *std::min_element(e->second.begin(), e->second.end()));
            eraseEntities(m_project, kind, std::move(e->second));
            pendingErase.erase(e);
        }
        if (auto i = pendingInsert.find(kind); i != pendingInsert.end() && !i->second.empty()) {
            const size_t size = collectionSize(m_project, kind);
            if (i->second.front().first < size) markStale(kind, i->second.front().first);
            insertEntities(m_project, kind, i->second);
            pendingInsert.erase(i);
        }
    };
    const auto flushAll = [&] {
        std::set<EntityKind> kinds;
        for (const auto& [k, v] : pendingErase) kinds.insert(k);
        for (const auto& [k, v] : pendingInsert) kinds.insert(k);
        for (const EntityKind k : kinds) flush(k);
    };
    const auto rebuild = [&] {
        flushAll();
        m_index.rebuild(m_project);
        staleFrom.clear();
        erased.clear();
    };
    const auto find = [&](const std::string& id) {
        return erased.count(id) ? std::nullopt : m_index.find(id);
    };
    auto slotOf = [&](EntityKind kind, const std::string& id) {
        auto slot = find(id);
        if (slot && slot->kind == kind) {
            const auto stale = staleFrom.find(kind);
            const auto inserting = pendingInsert.find(kind);
            if ((stale != staleFrom.end() && slot->index >= stale->second) ||
                (inserting != pendingInsert.end() && !inserting->second.empty())) {
                rebuild();
                slot = m_index.find(id);
            }
        }
        if (!slot || slot->kind != kind) throw InputError(entityLocation(kind, id), "does not exist in the document");
        return *slot;
    };
    for (const auto& c : changes.entities) {
        switch (c.type) {
        case ChangeType::Added: {
            if (find(c.id)) throw InputError(entityLocation(c.kind, c.id, "id"), "id is already in use");
            if (pendingErase.count(c.kind)) flush(c.kind); // its position counts after those removals
            auto& inserts = pendingInsert[c.kind];
            const size_t size = collectionSize(m_project, c.kind) + inserts.size();
            const size_t at = std::min(c.index, size);
            if (!inserts.empty() && at <= inserts.back().first) { // out of order: what came first goes in
                flush(c.kind);
                pendingInsert[c.kind].push_back({at, &c.after});
            } else {
                inserts.push_back({at, &c.after});
            }
            if (at < size) markStale(c.kind, at);
            if (erased.erase(c.id)) { // back after an erase in this batch: its old slot is still listed
                rebuild();
            } else {
                m_index.insert(c.id, EntitySlot{c.kind, at});
            }
            break;
        }
        case ChangeType::Removed: {
            const EntitySlot slot = slotOf(c.kind, c.id);
            pendingErase[c.kind].push_back(slot.index);
            erased.insert(c.id);
            break;
        }
        case ChangeType::Modified: {
            const EntitySlot slot = slotOf(c.kind, c.id);
            setEntityAt(m_project, slot, c.after);
            break;
        }
        }
    }
    flushAll();
    if (!staleFrom.empty() || !erased.empty()) m_index.rebuild(m_project);
    for (const auto& a : changes.assumptions) {
        if (a.after) m_project.assumptions[a.key] = *a.after;
        else m_project.assumptions.erase(a.key);
    }
    if (changes.projectInfoChanged) {
        m_project.info = projectInfoFromJson(changes.infoAfter, "");
    }
}

void Document::apply(const ChangeSet& changes) {
    if (changes.empty()) return;
    applyRaw(changes);
    try {
        validateEdit(changes);
    } catch (...) {
        applyRaw(changes.inverted());
        throw;
    }
    notify(changes);
}

void Document::validateEdit(const ChangeSet& changes) {
    if (!m_validated) {
        // The first edit of a design given to this document checks it whole: from then on every edit is
        // checked against a design known to be valid, which lets the check look at the edit alone.
        validateProject(m_project, "", m_catalog);
        m_validated = true;
        m_gpus.reset();
        return;
    }
    // What an edit can break: the entities it added or changed (their references, catalog references and
    // shape) and those referring to an id it removed (a rack left on a deleted row). The rest of the design
    // was valid and is unchanged, ids cannot change, and the catalog is the document's for life.
    std::vector<EntitySlot> check;
    std::unordered_set<std::string> removed;
    double gpuDelta = 0.0;
    for (const auto& c : changes.entities) {
        if (c.type == ChangeType::Removed)
            removed.insert(c.id);
        else if (const auto slot = m_index.find(c.id); slot && slot->kind == c.kind)
            check.push_back(*slot);
        if (c.kind == EntityKind::RackPlacement && m_catalog) {
            const auto gpusOf = [&](const ojson& rack) {
                return rack.is_object() ? rackTypeGpus(*m_catalog, rack.value("rack_type", std::string()))
                                        : 0.0;
            };
            if (c.type != ChangeType::Removed) gpuDelta += gpusOf(c.after);
            if (c.type != ChangeType::Added) gpuDelta -= gpusOf(c.before);
        }
    }
    if (!removed.empty())
        m_project.forEachCollection([&](const auto& coll) {
            using Entity = typename std::decay_t<decltype(coll)>::value_type;
            for (size_t i = 0; i < coll.size(); ++i) {
                bool refers = false;
                forEachReference(coll[i], [&](const char*, const std::string& target, ReferenceType) {
                    refers = refers || removed.count(target);
                });
                if (refers) check.push_back(EntitySlot{Entity::kKind, i});
            }
        });
    validateEntities(m_project, m_index, std::move(check), "", m_catalog);
    if (m_catalog) {
        if (!m_gpus) { // the total before this edit, once per design; later edits add their difference
            double before = 0.0;
            for (const auto& r : m_project.racks)
                before += rackTypeGpus(*m_catalog, r.rackType);
            m_gpus = before - gpuDelta;
        }
        checkGpuTotal(m_project, *m_gpus + gpuDelta, "");
        m_gpus = *m_gpus + gpuDelta; // GPU counts are whole numbers: the running sum is exact in a double
    }
}

std::vector<std::string> Document::dependents(const std::string& id) const {
    std::vector<std::string> out;
    m_project.forEachCollection([&](const auto& c) {
        for (const auto& e : c) {
            bool hit = false;
            forEachReference(
                e, [&](const char*, const std::string& target, ReferenceType) { hit = hit || target == id; });
            if (hit) out.push_back(e.id);
        }
    });
    return out;
}

Transaction::Transaction(Document& document, std::string label) : m_doc(document) {
    if (m_doc.m_inTransaction)
        throw std::logic_error("a transaction is already open on this document; commit or roll it back first");
    m_doc.m_inTransaction = true;
    m_changes.label = std::move(label);
}

Transaction::~Transaction() {
    if (m_open) rollback();
}

void Transaction::setProperty(const std::string& id, const std::string& field, const ojson& value) {
    const auto slot = m_doc.m_index.find(id);
    if (!slot) throw InputError(InputLocation{"", "entity", id, "", field}, "does not exist in the document");
    if (field == "id") throw InputError(entityLocation(slot->kind, id, field), "ids are stable and cannot be edited");
    ojson before = entityJsonAt(m_doc.m_project, *slot);
    if (!before.contains(field)) throw InputError(entityLocation(slot->kind, id, field), "unknown field");
    ojson after = before;
    after[field] = value;
    setEntityAt(m_doc.m_project, *slot, after); // throws on a bad type or bound, leaving the entity unchanged
    after = entityJsonAt(m_doc.m_project, *slot);
    m_changes.entities.push_back(EntityChange{slot->kind, id, ChangeType::Modified, {field}, std::move(before),
                                              std::move(after), slot->index});
}

std::string Transaction::add(EntityKind kind, const ojson& entity) {
    const std::string id = entity.contains("id") && entity["id"].is_string() ? entity["id"].get<std::string>() : "";
    EntityChange c{kind, id, ChangeType::Added, {}, nullptr, entity, collectionSize(m_doc.m_project, kind)};
    ChangeSet one;
    one.entities.push_back(c);
    m_doc.applyRaw(one); // parses and checks the id is free
    // Store the normalized JSON (defaults filled) so undo/redo reproduce exactly this entity.
    c.after = entityJsonAt(m_doc.m_project, *m_doc.m_index.find(id));
    m_changes.entities.push_back(std::move(c));
    return id;
}

void Transaction::remove(const std::string& id) {
    const auto slot = m_doc.m_index.find(id);
    if (!slot) throw InputError(InputLocation{"", "entity", id, "", ""}, "does not exist in the document");
    EntityChange c{slot->kind, id, ChangeType::Removed, {}, entityJsonAt(m_doc.m_project, *slot), nullptr, slot->index};
    ChangeSet one;
    one.entities.push_back(c);
    m_doc.applyRaw(one);
    m_changes.entities.push_back(std::move(c));
}

void Transaction::remove(const std::vector<std::string>& ids) {
    // Grouped by kind (in the order kinds first appear), each kind from its highest position down: every
    // entry's position is then both where it was and where undo puts it back, and no slot goes stale
    // before it is used.
    std::vector<EntityKind> kinds;
    std::map<EntityKind, std::vector<EntitySlot>> slots;
    std::map<EntityKind, std::vector<std::string>> idsOf;
    std::set<std::string> seen;
    for (const auto& id : ids) {
        if (!seen.insert(id).second) continue;
        const auto slot = m_doc.m_index.find(id);
        if (!slot) throw InputError(InputLocation{"", "entity", id, "", ""}, "does not exist in the document");
        if (!slots.count(slot->kind)) kinds.push_back(slot->kind);
        slots[slot->kind].push_back(*slot);
    }
    ChangeSet batch;
    for (const EntityKind kind : kinds) {
        auto& list = slots[kind];
        std::sort(list.begin(), list.end(), [](const EntitySlot& a, const EntitySlot& b) { return a.index > b.index; });
        for (const auto& slot : list) {
            ojson before = entityJsonAt(m_doc.m_project, slot);
            std::string id = before.value("id", std::string());
            batch.entities.push_back(EntityChange{kind, std::move(id), ChangeType::Removed, {}, std::move(before), nullptr, slot.index});
        }
    }
    m_doc.applyRaw(batch);
    for (auto& c : batch.entities)
        m_changes.entities.push_back(std::move(c));
}

void Transaction::setAssumption(const std::string& key, const std::optional<Assumption>& value) {
    if (value && !(value->low <= value->base && value->base <= value->high))
        throw InputError(InputLocation{"", "assumption", key, "", "base"}, "range must satisfy low <= base <= high");
    std::optional<Assumption> before;
    if (auto it = m_doc.m_project.assumptions.find(key); it != m_doc.m_project.assumptions.end()) before = it->second;
    AssumptionChange c{key, before, value};
    ChangeSet one;
    one.assumptions.push_back(c);
    m_doc.applyRaw(one);
    m_changes.assumptions.push_back(std::move(c));
}

void Transaction::setProjectInfo(const ojson& info) {
    ChangeSet one;
    one.projectInfoChanged = true;
    one.infoAfter = info;
    const ojson before = projectToJson(m_doc.m_project)["project"];
    m_doc.applyRaw(one);
    if (!m_changes.projectInfoChanged) m_changes.infoBefore = before;
    m_changes.projectInfoChanged = true;
    m_changes.infoAfter = projectToJson(m_doc.m_project)["project"];
}

ChangeSet Transaction::commit() {
    if (!m_open) throw std::logic_error("transaction already closed");
    try {
        m_doc.validateEdit(m_changes);
    } catch (...) {
        rollback();
        throw;
    }
    // Merge repeated modifications of one entity (a drag is many moves) and drop edits that changed nothing.
    std::vector<EntityChange> merged;
    std::map<std::string, size_t> lastModified;
    for (auto& c : m_changes.entities) {
        auto it = lastModified.find(c.id);
        if (c.type == ChangeType::Modified && it != lastModified.end()) {
            auto& into = merged[it->second];
            into.after = std::move(c.after);
            if (into.type == ChangeType::Modified)
                for (auto& p : c.properties)
                    if (std::find(into.properties.begin(), into.properties.end(), p) == into.properties.end())
                        into.properties.push_back(std::move(p));
            continue;
        }
        if (c.type == ChangeType::Removed) lastModified.erase(c.id);
        else lastModified[c.id] = merged.size();
        merged.push_back(std::move(c));
    }
    merged.erase(std::remove_if(merged.begin(), merged.end(),
                                [](const EntityChange& c) { return c.type == ChangeType::Modified && c.before == c.after; }),
                 merged.end());
    m_changes.entities = std::move(merged);
    auto& as = m_changes.assumptions;
    as.erase(std::remove_if(as.begin(), as.end(), [](const AssumptionChange& a) { return a.before == a.after; }),
             as.end());
    if (m_changes.projectInfoChanged && m_changes.infoBefore == m_changes.infoAfter) m_changes.projectInfoChanged = false;
    m_open = false;
    m_doc.m_inTransaction = false;
    if (!m_changes.empty()) m_doc.notify(m_changes);
    return m_changes;
}

void Transaction::rollback() {
    if (!m_open) return;
    m_open = false;
    m_doc.m_inTransaction = false;
    m_doc.applyRaw(m_changes.inverted());
}

} // namespace ctwin::model
