#pragma once
// Incremental evaluation: the GUI re-evaluates after every committed edit. The document's
// ChangeSet says which entities changed; when only racks changed in place (moved, turned, retyped, renamed,
// put on another row, loop or feed, marked spare) the compiled design of the last evaluation is patched for
// those racks alone (cost/compiled_design.h patchRacks: their arrays, their rack classes and the geometry
// findings of the halls they leave and enter) instead of compiled again for the whole design, and the
// stages run on it. The patch is made in place when no Results or caller still hold the compiled design
// (no copy of its per-rack arrays), on a copy otherwise.
// Edits of entities the compiled design never reads (training jobs, inference services, storage tiers,
// scale-across links, assumptions, project info, site fields other than the id) reuse it as it is. Every
// other edit (adding or deleting racks, editing halls, rows, buildings, loops, feeds, fabrics) takes the full
// path. The results equal evaluate() of the same project (tests/cost/test_incremental.cpp).
#include "change_set.h"
#include "compiled_design.h"
#include "evaluate.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace ctwin::cost {

class IncrementalEvaluator {
public:
    /// How each evaluation was made (tests, the status line).
    struct Stats {
        size_t full = 0;        // compiled from scratch
        size_t incremental = 0; // compiled design patched for the changed racks
        size_t reused = 0;      // compiled design reused as it was
    };

    /// Records a committed change of the document whose project the next evaluate() receives. Changes
    /// accumulate until then (the GUI evaluates once after a burst of edits).
    void noteChange(const model::ChangeSet& changes);
    /// Forgets the compiled design: the next evaluation is a full one (a new document).
    void reset();
    /// evaluate(project, catalog, defaults) after the changes noted since the last call. `catalog` must be
    /// the catalog of every evaluation since the last reset() (the compiled design points into it).
    Results evaluate(const model::Project& project, const model::Catalog& catalog,
                     const model::AssumptionSet& defaults);
    /// noteChange then evaluate.
    Results apply(const model::ChangeSet& changes, const model::Project& project,
                  const model::Catalog& catalog, const model::AssumptionSet& defaults);

    const Stats& stats() const { return m_stats; }
    /// The compiled design of the last evaluation (null before the first). While a caller holds it (or the
    /// Results that carry it), the next patch works on a copy; otherwise the design is patched in place.
    std::shared_ptr<const CompiledDesign> compiled() const { return m_compiled; }

private:
    std::shared_ptr<CompiledDesign> m_compiled;
    const model::Catalog* m_catalog = nullptr;
    bool m_full = true;
    std::vector<std::uint32_t> m_racks; // racks modified in place since the last evaluation
    Stats m_stats;
};

} // namespace ctwin::cost
