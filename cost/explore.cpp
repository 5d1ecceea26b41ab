#include "explore.h"

#include "assumption_values.h"
#include "bill_of_materials.h"
#include "climate.h"
#include "csv_cell.h"
#include "design_generator.h"
#include "design_json.h"
#include "design_spec.h"
#include "evaluate.h"
#include "input_error.h"
#include "input_resolver.h"
#include "results_json.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_map>

namespace ctwin::cost {

using ojson = nlohmann::ordered_json;

struct Explorer::Layout {
    std::optional<model::Project> project;
    std::optional<BillOfMaterials> bom;
    /// Non-empty: the point's document does not lay out ("layout: ...").
    std::string error;
};

namespace {

[[noreturn]] void fail(const std::string& file, const std::string& entity, const std::string& field,
                       const std::string& problem) {
    throw model::InputError(model::InputLocation{file, "explore spec", entity, "", field}, problem);
}

std::vector<std::string> splitPath(const std::string& path) {
    std::vector<std::string> out;
    std::stringstream ss(path);
    for (std::string seg; std::getline(ss, seg, '.');)
        out.push_back(seg);
    return out;
}

/// Sets the value at a dotted path of a JSON document: object keys, array elements by "id" (or position),
/// `*` for every element. The last key of an object may be new (the document's own reader then checks it).
/// Throws std::invalid_argument naming the part of the path that matches nothing.
void applyPath(ojson& node, const std::vector<std::string>& segs, size_t i, const ojson& value,
               const std::string& walked) {
    const std::string& seg = segs[i];
    const std::string here = walked.empty() ? seg : walked + "." + seg;
    const bool last = i + 1 == segs.size();
    if (node.is_object()) {
        if (last) {
            node[seg] = value;
            return;
        }
        if (!node.contains(seg)) throw std::invalid_argument("the base has no '" + here + "'");
        applyPath(node[seg], segs, i + 1, value, here);
        return;
    }
    if (node.is_array()) {
        if (last) throw std::invalid_argument("'" + here + "' names a list element, not a field");
        bool any = false;
        for (size_t k = 0; k < node.size(); ++k) {
            auto& e = node[k];
            const bool byId = e.is_object() && e.contains("id") && e["id"].is_string() && e["id"] == seg;
            if (seg == "*" || byId || std::to_string(k) == seg) {
                applyPath(e, segs, i + 1, value, here);
                any = true;
            }
        }
        if (!any) throw std::invalid_argument("no element '" + seg + "' in '" + walked + "'");
        return;
    }
    throw std::invalid_argument("'" + walked + "' is not an object or a list");
}

/// Field names that hold catalog ids in designs and generator specs (data/FORMAT.md §3, §4).
bool isCatalogField(const std::string& name) {
    static const std::set<std::string> fields = {"rack_type",   "cdu_type",    "plant",  "switch", "model",
                                                 "accelerator", "transceiver", "optics", "type"};
    return fields.count(name) > 0;
}

/// SplitMix64 (Steele, Lea, Flood 2014; the seeding generator of xoshiro): a fixed, portable stream, so a
/// seed gives the same sample on every platform (std:: distributions are implementation-defined).
struct SplitMix64 {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1) from the top 53 bits.
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform in [0, n): modulo of 64 bits (bias below n / 2^64, immaterial for n <= 2^53).
    std::uint64_t below(std::uint64_t n) { return next() % n; }
};

std::string levelText(const nlohmann::json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

const Figure* findFigure(const Results& r, const std::string& key) {
    return r.figure(key);
}

} // namespace

std::vector<size_t> paretoFront(const std::vector<std::vector<double>>& values,
                                const std::vector<bool>& maximize) {
    const size_t n = values.size(), m = maximize.size();
    // Minimization form: maximized objectives negated.
    auto v = [&](size_t p, size_t k) { return maximize[k] ? -values[p][k] : values[p][k]; };
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t{0});
    // Lexicographic order: a dominating point always comes before the points it dominates, so comparing
    // each point with the front found so far is enough (a dominated dominator's own dominator is in the
    // front and dominates the point too).
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        for (size_t k = 0; k < m; ++k)
            if (v(a, k) != v(b, k)) return v(a, k) < v(b, k);
        return a < b;
    });
    auto dominates = [&](size_t a, size_t b) {
        bool better = false;
        for (size_t k = 0; k < m; ++k) {
            if (v(a, k) > v(b, k)) return false;
            if (v(a, k) < v(b, k)) better = true;
        }
        return better;
    };
    std::vector<size_t> front;
    for (size_t p : order)
        if (std::none_of(front.begin(), front.end(), [&](size_t q) { return dominates(q, p); }))
            front.push_back(p);
    std::sort(front.begin(), front.end());
    return front;
}

Explorer::~Explorer() = default;

Explorer::Explorer(ExploreSpec spec, const model::Catalog& catalog, const model::AssumptionSet& defaults)
    : m_spec(std::move(spec)), m_catalog(&catalog), m_defaults(defaults) {
    const std::string& file = m_spec.file;
    // Place values, last choice fastest; the space must fit exact double indices.
    m_radix.assign(m_spec.choices.size(), 1);
    for (size_t c = m_spec.choices.size(); c-- > 0;) {
        m_radix[c] = m_space;
        const std::uint64_t n = m_spec.choices[c].levels.size();
        if (m_space > kMaxExploreSpace / n)
            fail(file, "", "choices",
                 "the space exceeds 2^53 points (the documented maximum): narrow the choices");
        m_space *= n;
    }
    for (const auto& o : m_spec.objectives)
        m_keys.push_back(o.figure);
    auto addKey = [&](const std::string& k) {
        if (std::find(m_keys.begin(), m_keys.end(), k) == m_keys.end()) m_keys.push_back(k);
    };
    for (const auto& c : m_spec.constraints)
        addKey(c.figure);
    for (const auto& k : m_spec.report)
        addKey(k);
    for (const auto& c : m_spec.choices)
        if (!c.isField() && overrideAffectsBillOfMaterials(c.set)) m_bomCacheable = false;

    // Every level of every field choice applies to the base and parses (others at their first level).
    for (size_t c = 0; c < m_spec.choices.size(); ++c) {
        const auto& ch = m_spec.choices[c];
        if (!ch.isField()) continue;
        const std::string last = splitPath(ch.field).back();
        for (size_t l = 0; l < ch.levels.size(); ++l) {
            const auto& lv = ch.levels[l];
            if (lv.is_string() && isCatalogField(last) && !catalog.find(lv.get<std::string>()) &&
                !(m_spec.baseIsGeneratorSpec && ch.field == "target.cooling"))
                fail(file, ch.name, "values",
                     "unknown catalog id '" + lv.get<std::string>() + "' for " + ch.field);
            std::vector<size_t> levels(m_spec.choices.size(), 0);
            levels[c] = l;
            std::uint64_t index = 0;
            for (size_t k = 0; k < levels.size(); ++k)
                index += levels[k] * m_radix[k];
            ojson doc;
            try {
                doc = documentOf(index);
                if (m_spec.baseIsGeneratorSpec)
                    (void)designSpecFromJson(doc, m_spec.baseFile);
                else
                    (void)model::projectFromJson(doc, m_spec.baseFile, &catalog);
            } catch (const std::invalid_argument& e) {
                fail(file, ch.name, "field", "'" + ch.field + "': " + e.what());
            } catch (const model::InputError& e) {
                fail(file, ch.name, "values", "level " + levelText(lv) + " of " + ch.field + ": " + e.what());
            }
        }
    }

    // The first point lays out, its overrides are valid and read, and every figure key exists.
    const auto layout = layoutFor(levelsOf(0));
    if (!layout->error.empty())
        fail(file, "", "base", "the first point of the space does not lay out: " + layout->error);
    const model::Project& p = *layout->project;
    checkDesignAssumptions(p.assumptions, m_defaults, m_spec.baseFile);
    checkClimateLocations(p.sites, *defaultClimateTable(), m_spec.baseFile);
    InputOverrides first;
    for (const auto& ch : m_spec.choices) {
        if (ch.isField()) continue;
        for (const auto& lv : ch.levels) {
            const InputOverride o{ch.set, lv.get<double>(), "explore choice '" + ch.name + "'"};
            try {
                checkInputOverride(p, m_defaults, o, o.origin);
            } catch (const model::InputError& e) {
                fail(file, ch.name, "set", e.what());
            }
        }
        first.push_back({ch.set, ch.levels.front().get<double>(), "explore choice '" + ch.name + "'"});
    }
    const InputResolver resolver(p, m_defaults, first);
    const Results r = evaluate(resolver, catalog);
    try {
        resolver.requireOverridesUsed();
    } catch (const model::InputError& e) {
        fail(file, "", "choices", e.what());
    }
    for (const auto& k : m_keys) {
        if (k == kExploreMaxWanLatency || r.figure(k)) continue;
        // Suggest the figure keys that share the first part of the key.
        const std::string head = k.substr(0, k.find('.'));
        std::string known;
        for (const auto& f : r.figures)
            if (f.key.rfind(head + ".", 0) == 0 && f.key.find(".", head.size() + 1) == std::string::npos)
                known += (known.empty() ? "" : ", ") + f.key;
        fail(file, "", "figure",
             "unknown figure key '" + k + "'" +
                 (known.empty() ? "" : " (known " + head + " keys: " + known + ")") +
                 "; see `clustertwin-cli evaluate DESIGN --json`");
    }
}

std::vector<size_t> Explorer::levelsOf(std::uint64_t index) const {
    std::vector<size_t> out(m_radix.size());
    for (size_t c = 0; c < m_radix.size(); ++c) {
        out[c] = static_cast<size_t>(index / m_radix[c]);
        index %= m_radix[c];
    }
    return out;
}

ojson Explorer::choicesOf(std::uint64_t index) const {
    ojson out = ojson::object();
    const auto levels = levelsOf(index);
    for (size_t c = 0; c < levels.size(); ++c)
        out[m_spec.choices[c].name] = m_spec.choices[c].levels[levels[c]];
    return out;
}

std::uint64_t Explorer::layoutKey(const std::vector<size_t>& levels) const {
    std::uint64_t key = 0;
    for (size_t c = 0; c < levels.size(); ++c)
        if (m_spec.choices[c].isField()) key = key * m_spec.choices[c].levels.size() + levels[c];
    return key;
}

ojson Explorer::documentOf(std::uint64_t index) const {
    ojson doc = m_spec.base;
    const auto levels = levelsOf(index);
    for (size_t c = 0; c < levels.size(); ++c) {
        const auto& ch = m_spec.choices[c];
        if (ch.isField()) applyPath(doc, splitPath(ch.field), 0, ojson(ch.levels[levels[c]]), "");
    }
    return doc;
}

std::shared_ptr<const Explorer::Layout> Explorer::layoutFor(const std::vector<size_t>& levels) const {
    auto out = std::make_shared<Layout>();
    std::uint64_t index = 0;
    for (size_t c = 0; c < levels.size(); ++c)
        index += levels[c] * m_radix[c];
    try {
        const ojson doc = documentOf(index);
        model::Project p =
            m_spec.baseIsGeneratorSpec
                ? generateDesign(designSpecFromJson(doc, m_spec.baseFile), *m_catalog, m_defaults)
                : model::projectFromJson(doc, m_spec.baseFile, m_catalog);
        if (m_spec.scaleServicesToDesign && !p.inferenceServices.empty()) {
            // Sellable GPUs (racks that are not hot spares) shared by the services in proportion to their
            // base sizes, in whole racks of the first compute rack type.
            double sellable = 0, perRack = 0, baseTotal = 0;
            for (const auto& rk : p.racks)
                if (const auto* t = m_catalog->find(rk.rackType); t && t->find("gpus") && !rk.spare) {
                    sellable += t->find("gpus")->base;
                    if (perRack == 0) perRack = t->find("gpus")->base;
                }
            for (const auto& s : p.inferenceServices)
                baseTotal += s.gpus;
            const double n = static_cast<double>(p.inferenceServices.size());
            if (perRack > 0)
                for (auto& s : p.inferenceServices) {
                    const double share = baseTotal > 0 ? s.gpus / baseTotal : 1.0 / n;
                    s.gpus = std::floor(sellable * share / perRack + 1e-9) * perRack;
                }
        }
        if (m_bomCacheable) {
            const InputResolver resolver(p, m_defaults);
            out->bom = deriveBillOfMaterials(*m_catalog, resolver);
        }
        out->project = std::move(p);
    } catch (const model::InputError& e) {
        out->error = "layout: " + (e.where().field.empty() ? "" : e.where().field + ": ") + e.problem();
    }
    return out;
}

ExplorePointRecord Explorer::evaluateWith(std::uint64_t index, const Layout& layout) const {
    ExplorePointRecord rec;
    rec.index = index;
    if (!layout.error.empty()) {
        rec.rejected = layout.error;
        return rec;
    }
    const InputOverrides overrides = overridesOf(index);
    std::optional<Results> r;
    try {
        const InputResolver resolver(*layout.project, m_defaults, overrides);
        r = evaluate(resolver, *m_catalog, layout.bom ? &*layout.bom : nullptr);
    } catch (const model::InputError& e) {
        rec.rejected = "override: " + e.problem();
        return rec;
    }
    if (m_spec.rejectRuleErrors)
        for (const auto& rule : r->rules)
            if (rule.severity == Severity::Error) {
                rec.rejected = "design rule: " + rule.rule;
                return rec;
            }
    if (m_spec.rejectMissedServiceTargets)
        for (const auto& rule : r->rules)
            if (rule.rule == "tokens_per_user_target") {
                rec.rejected = "service target: " + rule.entity;
                return rec;
            }
    rec.values.reserve(m_keys.size());
    for (const auto& k : m_keys) {
        if (k == kExploreMaxWanLatency) {
            double worst = 0;
            for (const auto& l : r->bom.links)
                worst = std::max(worst, l.oneWayLatency.value() * 1e3);
            rec.values.push_back(worst);
            continue;
        }
        const Figure* f = findFigure(*r, k);
        if (!f) {
            rec.rejected = "missing figure: " + k;
            rec.values.clear();
            return rec;
        }
        rec.values.push_back(f->value);
    }
    for (const auto& c : m_spec.constraints) {
        const auto at = std::find(m_keys.begin(), m_keys.end(), c.figure) - m_keys.begin();
        const double v = rec.values[static_cast<size_t>(at)];
        if ((c.min && v < *c.min) || (c.max && v > *c.max)) {
            rec.rejected = "constraint: " + c.name;
            rec.values.clear();
            return rec;
        }
    }
    return rec;
}

model::Project Explorer::designOf(std::uint64_t index) const {
    if (index >= m_space)
        fail(m_spec.file, "", "index",
             "point " + std::to_string(index) + " is outside the space of " + std::to_string(m_space) +
                 " points");
    const auto layout = layoutFor(levelsOf(index));
    if (!layout->error.empty())
        fail(m_spec.file, "", "index", "point " + std::to_string(index) + ": " + layout->error);
    return *layout->project;
}

InputOverrides Explorer::overridesOf(std::uint64_t index) const {
    InputOverrides out;
    const auto levels = levelsOf(index);
    for (size_t c = 0; c < levels.size(); ++c) {
        const auto& ch = m_spec.choices[c];
        if (!ch.isField()) out.push_back({ch.set, ch.levels[levels[c]].get<double>(), "explore"});
    }
    return out;
}

model::Project Explorer::pointDesign(std::uint64_t index, InputOverrides* unapplied) const {
    model::Project p = designOf(index);
    for (const auto& o : overridesOf(index)) {
        if (o.path.rfind("assumptions.", 0) != 0) {
            if (unapplied) unapplied->push_back(o);
            continue;
        }
        const std::string key = o.path.substr(std::string("assumptions.").size());
        auto it = p.assumptions.find(key);
        model::Assumption a = it != p.assumptions.end() ? it->second : m_defaults.at(key);
        a.base = o.value;
        a.low = std::min(a.low, o.value);
        a.high = std::max(a.high, o.value);
        a.source = "Explored level of '" + key + "' (" + m_spec.file + ", point " + std::to_string(index) +
                   "); range and source before: " + a.source;
        p.assumptions[key] = a;
    }
    return p;
}

ExplorePointRecord Explorer::evaluatePoint(std::uint64_t index) const {
    const auto levels = levelsOf(index);
    return evaluateWith(index, *layoutFor(levels));
}

std::vector<std::uint64_t> Explorer::plan(std::uint64_t seed) const {
    std::vector<std::uint64_t> points;
    const auto& s = m_spec.search;
    if (s.method == ExploreMethod::Exhaustive || s.points >= m_space) {
        if (s.method == ExploreMethod::Exhaustive && m_space > s.maxExhaustive)
            fail(m_spec.file, "search", "method",
                 "the space has " + std::to_string(m_space) + " points, above the exhaustive maximum of " +
                     std::to_string(s.maxExhaustive) + " (search.max_exhaustive, at most " +
                     std::to_string(kMaxExhaustivePoints) +
                     "): add \"search\": {\"method\": \"latin_hypercube\", \"points\": N} or narrow the "
                     "choices");
        if (m_space > kMaxExploreSamples)
            fail(m_spec.file, "search", "points",
                 "the space has " + std::to_string(m_space) + " points, above " +
                     std::to_string(kMaxExploreSamples));
        points.resize(m_space);
        std::iota(points.begin(), points.end(), std::uint64_t{0});
    } else {
        // Latin hypercube on the levels (McKay, Beckman, Conover 1979): each choice's [0, 1) is cut into N
        // strata, a random permutation gives each sample one stratum per choice, a uniform draw places it
        // in the stratum, and the level is floor(x * levels). Random: a uniform level per choice.
        const std::uint64_t n = s.points;
        SplitMix64 rng{seed};
        std::vector<std::uint64_t> index(n, 0);
        std::vector<std::uint64_t> perm(n);
        for (size_t c = 0; c < m_spec.choices.size(); ++c) {
            const std::uint64_t levels = m_spec.choices[c].levels.size();
            if (s.method == ExploreMethod::LatinHypercube) {
                std::iota(perm.begin(), perm.end(), std::uint64_t{0});
                for (std::uint64_t i = n; i > 1; --i)
                    std::swap(perm[i - 1], perm[rng.below(i)]); // Fisher-Yates
            }
            for (std::uint64_t i = 0; i < n; ++i) {
                std::uint64_t l;
                if (s.method == ExploreMethod::LatinHypercube) {
                    const double x = (static_cast<double>(perm[i]) + rng.unit()) / static_cast<double>(n);
                    l = std::min<std::uint64_t>(levels - 1,
                                                static_cast<std::uint64_t>(x * static_cast<double>(levels)));
                } else {
                    l = rng.below(levels);
                }
                index[i] += l * m_radix[c];
            }
        }
        std::sort(index.begin(), index.end());
        index.erase(std::unique(index.begin(), index.end()), index.end());
        points = std::move(index);
    }
    // Points that share a layout together (each layout is generated once per run).
    std::stable_sort(points.begin(), points.end(), [&](std::uint64_t a, std::uint64_t b) {
        const auto ka = layoutKey(levelsOf(a)), kb = layoutKey(levelsOf(b));
        return ka != kb ? ka < kb : a < b;
    });
    return points;
}

std::vector<ExplorePointRecord> Explorer::run(const std::vector<std::uint64_t>& points, int threads,
                                              const std::function<void(std::uint64_t)>& progress,
                                              const std::atomic<bool>* cancel) const {
    // One slot per layout, made before the threads start (the map is read-only while they run). A layout is
    // generated once (call_once) and dropped when its last point is done, so memory holds about one
    // layout per thread in the grouped order plan() gives.
    struct Slot {
        std::once_flag once;
        std::shared_ptr<const Layout> layout;
        std::atomic<std::uint64_t> remaining{0};
    };
    std::unordered_map<std::uint64_t, std::unique_ptr<Slot>> slots;
    std::vector<std::uint64_t> keys(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        keys[i] = layoutKey(levelsOf(points[i]));
        auto& s = slots[keys[i]];
        if (!s) s = std::make_unique<Slot>();
        s->remaining.fetch_add(1, std::memory_order_relaxed);
    }
    std::vector<std::optional<ExplorePointRecord>> out(points.size());
    std::atomic<size_t> next{0};
    std::atomic<std::uint64_t> done{0};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto worker = [&] {
        try {
            for (size_t i; (i = next.fetch_add(1)) < points.size();) {
                if (cancel && cancel->load()) return;
                {
                    std::lock_guard lock(errorMutex);
                    if (error) return;
                }
                Slot& s = *slots.at(keys[i]);
                const auto levels = levelsOf(points[i]);
                std::call_once(s.once, [&] { s.layout = layoutFor(levels); });
                const std::shared_ptr<const Layout> layout = s.layout;
                out[i] = evaluateWith(points[i], *layout);
                if (s.remaining.fetch_sub(1) == 1) s.layout.reset();
                const auto d = done.fetch_add(1) + 1;
                if (progress) progress(d);
            }
        } catch (...) {
            std::lock_guard lock(errorMutex);
            if (!error) error = std::current_exception();
        }
    };
    int n = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    n = static_cast<int>(
        std::min<size_t>(static_cast<size_t>(std::clamp(n, 1, 256)), std::max<size_t>(1, points.size())));
    std::vector<std::thread> pool;
    for (int t = 1; t < n; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& t : pool)
        t.join();
    if (error) std::rethrow_exception(error);
    std::vector<ExplorePointRecord> records;
    records.reserve(points.size());
    for (auto& r : out)
        if (r) records.push_back(std::move(*r));
    return records;
}

ExploreResult Explorer::finish(std::vector<ExplorePointRecord> records, std::uint64_t seed) const {
    std::sort(records.begin(), records.end(),
              [](const ExplorePointRecord& a, const ExplorePointRecord& b) { return a.index < b.index; });
    ExploreResult res;
    res.name = m_spec.name;
    res.method = m_spec.search.method == ExploreMethod::Exhaustive || m_spec.search.points >= m_space
                     ? ExploreMethod::Exhaustive
                     : m_spec.search.method;
    res.seed = seed;
    res.spacePoints = m_space;
    res.figureKeys = m_keys;
    res.evaluated = records.size();
    std::vector<std::vector<double>> objectives;
    std::vector<size_t> feasible;
    for (size_t i = 0; i < records.size(); ++i) {
        if (i > 0 && records[i].index == records[i - 1].index)
            throw std::logic_error("explore: point " + std::to_string(records[i].index) + " evaluated twice");
        if (!records[i].rejected.empty()) {
            ++res.rejected[records[i].rejected];
            continue;
        }
        feasible.push_back(i);
        objectives.emplace_back(records[i].values.begin(),
                                records[i].values.begin() + static_cast<long>(m_spec.objectives.size()));
    }
    res.feasible = feasible.size();
    if (feasible.empty()) {
        std::string why;
        for (auto c = m_spec.constraints.rbegin(); c != m_spec.constraints.rend(); ++c) {
            const auto it = res.rejected.find("constraint: " + c->name);
            if (it == res.rejected.end()) continue;
            why = "constraint '" + c->name + "' (" + c->figure +
                  (c->min ? " >= " + formatHuman(*c->min, "") : "") + (c->min && c->max ? " and" : "") +
                  (c->max ? " <= " + formatHuman(*c->max, "") : "") + ") removed the last " +
                  std::to_string(it->second) + " point(s)";
            break;
        }
        std::string reasons;
        for (const auto& [k, n] : res.rejected)
            reasons += (reasons.empty() ? "" : "; ") + k + ": " + std::to_string(n);
        if (why.empty()) why = "every point was rejected before the constraints";
        fail(m_spec.file, "", "constraints",
             "no feasible point among " + std::to_string(res.evaluated) + " evaluated: " + why +
                 " (rejected: " + reasons + ")");
    }
    std::vector<bool> maximize;
    for (const auto& o : m_spec.objectives)
        maximize.push_back(o.maximize);
    for (size_t k : paretoFront(objectives, maximize))
        res.pareto.push_back(records[feasible[k]]);
    return res;
}

std::vector<std::uint8_t> exploreRecordsToBytes(const std::vector<ExplorePointRecord>& records) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : records)
        j.push_back(nlohmann::json::array({r.index, r.rejected, r.values}));
    return nlohmann::json::to_msgpack(j);
}

std::vector<ExplorePointRecord> exploreRecordsFromBytes(const std::vector<std::uint8_t>& bytes) {
    const auto j = nlohmann::json::from_msgpack(bytes);
    std::vector<ExplorePointRecord> out;
    for (const auto& e : j)
        out.push_back(
            {e.at(0).get<std::uint64_t>(), e.at(1).get<std::string>(), e.at(2).get<std::vector<double>>()});
    return out;
}

ojson exploreResultToJson(const ExploreResult& r, const Explorer& x) {
    ojson out;
    out["format"] = "clustertwin-explore-result";
    out["name"] = r.name;
    out["method"] = exploreMethodName(r.method);
    if (r.method != ExploreMethod::Exhaustive) out["seed"] = r.seed;
    out["space_points"] = r.spacePoints;
    out["evaluated"] = r.evaluated;
    out["feasible"] = r.feasible;
    std::uint64_t rejectedTotal = 0;
    ojson rejected = ojson::object();
    for (const auto& [k, n] : r.rejected) {
        rejected[k] = n;
        rejectedTotal += n;
    }
    out["rejected_total"] = rejectedTotal;
    out["rejected"] = rejected;
    ojson objectives = ojson::array();
    for (const auto& o : x.spec().objectives)
        objectives.push_back(ojson{{"figure", o.figure}, {"goal", o.maximize ? "maximize" : "minimize"}});
    out["objectives"] = objectives;
    ojson pareto = ojson::array();
    for (const auto& p : r.pareto) {
        ojson figs = ojson::object();
        for (size_t k = 0; k < r.figureKeys.size(); ++k)
            figs[r.figureKeys[k]] = p.values[k];
        pareto.push_back(ojson{{"index", p.index}, {"choices", x.choicesOf(p.index)}, {"figures", figs}});
    }
    out["pareto"] = pareto;
    return out;
}

std::string exploreResultToCsv(const ExploreResult& r, const Explorer& x) {
    // Every cell through cost::csvField: choice names and levels come from the spec file (text), figures
    // and numeric levels are numbers.
    std::ostringstream out;
    std::vector<CsvCell> header{"index"};
    for (const auto& c : x.spec().choices)
        header.emplace_back(c.name);
    for (const auto& k : r.figureKeys)
        header.emplace_back(k);
    out << csvLine(header);
    for (const auto& p : r.pareto) {
        std::vector<CsvCell> line{CsvCell::wholeNumber(p.index)};
        const ojson choices = x.choicesOf(p.index);
        for (const auto& [name, v] : choices.items())
            line.push_back(v.is_number() ? CsvCell::number(v.get<double>())
                                         : CsvCell(levelText(nlohmann::json(v))));
        for (double v : p.values)
            line.push_back(CsvCell::number(v));
        out << csvLine(line);
    }
    return out.str();
}

std::string exploreResultToText(const ExploreResult& r, const Explorer& x) {
    std::ostringstream out;
    std::uint64_t rejectedTotal = 0;
    for (const auto& [k, n] : r.rejected)
        rejectedTotal += n;
    out << r.name << ": " << exploreMethodName(r.method) << " search of a " << r.spacePoints
        << "-point space; " << r.evaluated << " evaluated, " << r.feasible << " feasible, " << rejectedTotal
        << " rejected\n";
    for (const auto& [k, n] : r.rejected)
        out << "  rejected " << n << ": " << k << "\n";
    out << "Pareto set (" << r.pareto.size() << " points; objectives:";
    for (const auto& o : x.spec().objectives)
        out << " " << (o.maximize ? "max " : "min ") << o.figure;
    out << ")\n";
    for (const auto& p : r.pareto) {
        out << "  #" << p.index << ":";
        const ojson choices = x.choicesOf(p.index);
        for (const auto& [name, v] : choices.items())
            out << " " << name << "=" << levelText(nlohmann::json(v));
        out << "\n   ";
        for (size_t k = 0; k < r.figureKeys.size(); ++k)
            out << " " << r.figureKeys[k] << " " << formatHuman(p.values[k], "");
        out << "\n";
    }
    return out.str();
}

} // namespace ctwin::cost
