#include "incremental_evaluator.h"

#include "input_resolver.h"

#include <algorithm>

namespace ctwin::cost {

namespace {

/// True when a change of an entity of `kind` can leave the compiled design as it is: it never reads the
/// entities of that kind (cost/compiled_design.cpp reads racks, rows, halls, buildings, sites, cooling
/// loops, power feeds and fabrics), or (sites) reads only their ids.
bool compiledIgnores(const model::EntityChange& e) {
    using model::EntityKind;
    switch (e.kind) {
    case EntityKind::StorageTier:
    case EntityKind::ScaleAcrossLink:
    case EntityKind::TrainingJob:
    case EntityKind::InferenceService:
        return true;
    case EntityKind::Site: // buildings name their site by id: any other field is free
        return e.type == model::ChangeType::Modified && !e.properties.empty() &&
               std::find(e.properties.begin(), e.properties.end(), "id") == e.properties.end();
    case EntityKind::Building:
    case EntityKind::DataHall:
    case EntityKind::PowerFeed:
    case EntityKind::CoolingLoop:
    case EntityKind::Row:
    case EntityKind::RackPlacement:
    case EntityKind::Fabric:
        return false;
    }
    return false; // no default above: a new kind must be placed in one group (-Wswitch)
}

} // namespace

void IncrementalEvaluator::noteChange(const model::ChangeSet& changes) {
    if (m_full) return;
    for (const auto& e : changes.entities) {
        if (e.kind == model::EntityKind::RackPlacement && e.type == model::ChangeType::Modified)
            m_racks.push_back(static_cast<std::uint32_t>(e.index));
        else if (!compiledIgnores(e)) {
            m_full = true; // added or deleted racks, edits of the layout: compile again
            m_racks.clear();
            return;
        }
    }
    // Assumptions and project info: the compiled design depends on neither.
}

void IncrementalEvaluator::reset() {
    m_compiled.reset();
    m_catalog = nullptr;
    m_full = true;
    m_racks.clear();
}

Results IncrementalEvaluator::evaluate(const model::Project& project, const model::Catalog& catalog,
                                       const model::AssumptionSet& defaults) {
    if (m_catalog != &catalog) m_full = true;
    std::shared_ptr<CompiledDesign> next;
    if (!m_full && m_compiled && !m_racks.empty()) {
        std::sort(m_racks.begin(), m_racks.end());
        m_racks.erase(std::unique(m_racks.begin(), m_racks.end()), m_racks.end());
        // Sole owner (the last Results are gone): patch in place; otherwise a copy, as the holders expect
        // the design they were given to stay as it was.
        next = m_compiled.use_count() == 1 ? std::move(m_compiled)
                                           : std::make_shared<CompiledDesign>(*m_compiled);
        if (patchRacks(*next, project, catalog, m_racks))
            ++m_stats.incremental;
        else
            next.reset(); // partly patched: compiled again below
    } else if (!m_full && m_compiled) {
        next = m_compiled, ++m_stats.reused;
    }
    if (!next) {
        // Throws the loader's error for a design that cannot compile; the last compiled design is dropped so
        // the next evaluation starts over.
        m_compiled.reset();
        m_full = true;
        next = std::make_shared<CompiledDesign>(project, catalog);
        ++m_stats.full;
    }
    m_compiled = next;
    m_catalog = &catalog;
    m_full = false;
    m_racks.clear();
    const InputResolver inputs(project, defaults);
    return cost::evaluate(inputs, catalog, nullptr, std::move(next));
}

Results IncrementalEvaluator::apply(const model::ChangeSet& changes, const model::Project& project,
                                    const model::Catalog& catalog, const model::AssumptionSet& defaults) {
    noteChange(changes);
    return evaluate(project, catalog, defaults);
}

} // namespace ctwin::cost
