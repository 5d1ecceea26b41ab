// Input resolution (issue 12): precedence override > entity field > design assumption > default, the
// override grammar and its errors, provenance, entity-level ranges in tornado, the economizer model, and
// "every input matters": every field of every entity kind and every assumption moves some engine output
// or is listed as display-only with a reason.
#include "../store/legacy_ctwin.h"
#include "../test_support.h"
#include "calendar_date.h"
#include "design_file.h"
#include "entity_references.h"
#include "evaluate.h"
#include "input_error.h"
#include "input_resolver.h"
#include "results_json.h"
#include "scenarios.h"
#include "sqlite_handle.h"

#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <functional>
#include <set>

using namespace ctwin;
using cost::InputLevel;
using cost::InputOverride;
using test_support::catalog;
using test_support::defaults;
using test_support::reference;

namespace {

double figure(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) throw std::runtime_error("missing figure " + key);
    return f->value;
}

cost::Results evaluateWith(const model::Project& p, const cost::InputOverrides& o) {
    return cost::evaluate(p, catalog(), defaults(), o);
}

/// The InputError message of evaluating with `o`, or "" when it does not throw.
std::string errorOf(const model::Project& p, const cost::InputOverrides& o) {
    try {
        (void)evaluateWith(p, o);
    } catch (const model::InputError& e) {
        return e.what();
    }
    return {};
}

/// Every engine output of an evaluation (figures, per-building power, per-job and per-service results,
/// design rules), without the inputs block: two evaluations differ in output iff these differ.
std::string outputsOf(const cost::Results& r) {
    auto j = cost::resultsToJson(r);
    j.erase("inputs");
    std::string s = j.dump();
    for (const auto& t : r.training)
        s += std::to_string(t.estimate.time.value()) + "|" + std::to_string(t.runCost.value()) + "|" +
             std::to_string(t.reliability.goodput) + ";";
    for (const auto& ac : r.finance.assetClasses)
        for (const auto& m : ac.decliningBalance)
            s += std::to_string(m.value()) + ",";
    for (const auto& i : r.inference)
        s += std::to_string(i.costPerMillionOutputTokens) + "|" + std::to_string(i.joulesPerToken) + "|" +
             std::to_string(i.sizing.outputTokensPerSecond) + ";";
    return s;
}

const std::vector<std::string> kReferences = {"llama3-16k-h100", "two-site-wan", "vera-rubin-504",
                                              "agentic-inference-gb300", "neocloud-100k-gb200"};

/// The shipped references plus two variants of each, so that inputs a reference shadows get exercised:
/// every optional field absent (each falls back to its assumption) and every training job restarting its
/// parallel group (the mode in which tp, pp and ep matter).
std::vector<std::pair<std::string, model::Project>> referenceVariants() {
    std::vector<std::pair<std::string, model::Project>> out;
    for (const auto& name : kReferences) {
        const auto p = reference(name);
        out.emplace_back(name, p);
        auto j = model::projectToJson(p);
        for (const auto& m : model::kSchema1ZeroMeansAbsent)
            for (auto& e : j[std::string(model::entityCollectionKey(m.kind))])
                e[m.field] = nullptr;
        out.emplace_back(name + " (defaults)", model::projectFromJson(j, name, &catalog()));
        auto group = p;
        for (auto& job : group.trainingJobs) {
            job.restartScope = "parallel_group";
            // Per-class failure-rate overrides (issue 13 item 5), so that those two lists get perturbed.
            job.failureRateClasses = {"fail-gpu", "fail-hbm"};
            job.failureRatesPerHour = {1e-6, 2e-6};
            // FP4 training (mfu_fp4_ratio on accelerators with an FP4 peak; no shipped job trains in FP4).
            job.precision = "fp4";
        }
        // Back-end routing (issue 29 item 4): the shipped fabrics hash with ECMP; adaptive routing and packet
        // spraying (their efficiency assumptions) on alternate references.
        for (auto& f : group.fabrics)
            f.routing = out.size() % 2 == 0 ? "adaptive" : "spray";
        // N+1 and distributed-redundant power chains (issue 30: facility_downtime_hours_n_plus_1 and
        // _distributed_redundant) on alternate references; the shipped buildings are N or 2N, which the
        // unaltered references keep covering.
        static const char* const kTopologies[] = {"N+1", "3/2", "4/3"};
        for (auto& b : group.buildings)
            b.powerTopology = kTopologies[(out.size() / 3) % 3];
        // Oversubscribed power (issue 35 item 1), so that the capping curve and profiles are read: 1.3 binds
        // on training's compute phase, 1.9 on the decode-heavy serving mixes too.
        const double ratio = out.size() % 2 == 0 ? 1.3 : 1.9;
        group.assumptions["power_oversubscription_ratio"] =
            model::Assumption{ratio, 1.0, 2.0, "ratio", "test", false};
        // The observed planning basis (issue 35 item 1) on the references at 1.3.
        group.assumptions["power_provisioning_basis"] =
            model::Assumption{out.size() % 2 == 0 ? 1.0 : 0.0, 0.0, 1.0, "weight", "test", false};
        // A flexible interconnect (issue 35 item 2), so that its depth and event length are read.
        group.assumptions["grid_curtailment_hours_per_year"] =
            model::Assumption{44, 0, 88, "h/yr", "test", false};
        // On-site gas generation (issue 35 item 3), so that its capex, heat rate and fuel price are read.
        group.assumptions["onsite_generation_mw"] = model::Assumption{5, 0, 0, "MW", "test", false};
        // A battery (issue 35 item 3) for a ramp limit and to ride through curtailment.
        group.assumptions["grid_ramp_limit_mw_per_min"] = model::Assumption{5, 0, 0, "MW/min", "test", false};
        group.assumptions["bess_ride_through_hours"] = model::Assumption{1, 0, 0, "h", "test", false};
        // A phased build (issue 34): buildings energised a quarter apart from 2028-07 after a 2027-01 build
        // start, alternate halls refreshed on the economic policy, so that the cohort price change and the
        // refresh policy are read.
        group.info.buildStart = "2027-01-01";
        for (std::size_t i = 0; i < group.buildings.size(); ++i)
            group.buildings[i].energisationDate =
                model::CalendarDate{2028, 7, 1}.plusMonths(3 * int(i)).iso();
        for (std::size_t i = 0; i < group.halls.size(); ++i)
            group.halls[i].refreshPolicy = i % 2 == 0 ? "economic" : "fixed_life";
        // The grid arrives 6 months after the first hall (issue 35 item 3): the on-site generation above bridges.
        group.assumptions["grid_interconnect_month"] =
            model::Assumption{24, 0, 0, "months after the build start", "test", false};
        // Prefix-cache hits (issue 34 item 4), so that the cached-input token price is read.
        for (auto& s : group.inferenceServices)
            s.prefixCacheHitRate = 0.5;
        out.emplace_back(name + " (parallel_group)", group);
    }
    return out;
}

} // namespace

class TestInputs : public QObject {
    Q_OBJECT

private slots:
    // --set assumptions.electricity_usd_per_kwh beats the design's own assumptions block (0.065 in the
    // Llama 3 reference): energy cost scales with the tariff, the facility energy stays.
    void assumptionOverrideBeatsDesignBlock() {
        const auto p = reference("llama3-16k-h100");
        const auto base = cost::evaluate(p, catalog(), defaults());
        const auto hi = evaluateWith(p, {{"assumptions.electricity_usd_per_kwh", 0.2}});
        QCOMPARE(base.input("assumptions.electricity_usd_per_kwh")->level, InputLevel::Design);
        QCOMPARE(base.input("assumptions.electricity_usd_per_kwh")->value, 0.065);
        QCOMPARE(hi.input("assumptions.electricity_usd_per_kwh")->level, InputLevel::Override);
        const auto* site = hi.input("sites.site-iowa.electricity_usd_per_kwh");
        QVERIFY(site);
        QCOMPARE(site->value, 0.2);
        QCOMPARE(site->level, InputLevel::Override);
        QCOMPARE(site->fallback, std::string("assumptions.electricity_usd_per_kwh"));
        // energy = facility kWh x tariff: the ratio is 0.2 / 0.065 exactly (relative 1e-12).
        const double ratio =
            figure(hi, "finance.energy_annual_usd") / figure(base, "finance.energy_annual_usd");
        QVERIFY(std::abs(ratio - 0.2 / 0.065) < 1e-12 * ratio);
        QCOMPARE(figure(hi, "power.facility_mw"), figure(base, "power.facility_mw"));
    }

    // sites.*.FIELD moves every site's own tariff; energy = sum of facility kWh x 0.1.
    void wildcardSiteOverride() {
        const auto p = reference("two-site-wan");
        const auto r = evaluateWith(p, {{"sites.*.electricity_usd_per_kwh", 0.1}});
        const double kwh = units::toKwh(r.finance.facilityEnergyAnnual);
        QVERIFY(std::abs(r.finance.energyAnnual.value() - 0.1 * kwh) < 1e-9 * r.finance.energyAnnual.value());
        for (const char* s :
             {"sites.site-wi.electricity_usd_per_kwh", "sites.site-atl.electricity_usd_per_kwh"}) {
            QCOMPARE(r.input(s)->level, InputLevel::Override);
            QCOMPARE(r.input(s)->value, 0.1);
        }
        // An exact id beats '*', whatever the order.
        const auto mixed = evaluateWith(
            p, {{"sites.site-wi.electricity_usd_per_kwh", 0.05}, {"sites.*.electricity_usd_per_kwh", 0.1}});
        QCOMPARE(mixed.input("sites.site-wi.electricity_usd_per_kwh")->value, 0.05);
        QCOMPARE(mixed.input("sites.site-atl.electricity_usd_per_kwh")->value, 0.1);
    }

    // Every site of two-site-wan sets its own tariff: the assumption is shadowed, and overriding it is an
    // error that names the sites and the path that works.
    void shadowedAssumptionIsAnError() {
        const auto p = reference("two-site-wan");
        const auto base = cost::evaluate(p, catalog(), defaults());
        QVERIFY(!base.input("assumptions.electricity_usd_per_kwh")->used);
        QCOMPARE(base.input("sites.site-wi.electricity_usd_per_kwh")->level, InputLevel::Entity);
        const std::string e = errorOf(p, {{"assumptions.electricity_usd_per_kwh", 0.2}});
        QVERIFY2(e.find("sites.site-wi.electricity_usd_per_kwh") != std::string::npos, e.c_str());
        QVERIFY2(e.find("sites.site-atl.electricity_usd_per_kwh") != std::string::npos, e.c_str());
        QVERIFY2(e.find("sites.*.electricity_usd_per_kwh") != std::string::npos, e.c_str());
        // A surveyed route length shadows the link's route factor (the shipped link has none since issue
        // 13 item 7; survey it here at 1,200 km, longer than the 1,071 km geodesic).
        auto surveyed = p;
        surveyed.links[0].routeLength = 1.2e6 * units::meter;
        const std::string f = errorOf(surveyed, {{"links.wan-wi-atl.route_factor", 1.4}});
        QVERIFY2(f.find("links.wan-wi-atl.route_length_m") != std::string::npos, f.c_str());
    }

    void badOverridesNameThePathAndTheReason() {
        const auto p = reference("llama3-16k-h100");
        const std::vector<std::pair<InputOverride, std::string>> cases = {
            {{"assumptions.no_such_key", 1}, "unknown assumption"},
            {{"electricity", 1}, "unknown path"},
            {{"planets.*.mass", 1}, "unknown collection"},
            {{"sites.*.name", 1}, "not a numeric field"},
            {{"sites.*.altitude_m", 1}, "no field 'altitude_m'"},
            {{"sites.nowhere.electricity_usd_per_kwh", 1}, "no entity with id 'nowhere'"},
            {{"buildings.*.pue_pinned", 0.5}, "outside the accepted range [1, 5]"},
            {{"links.*.route_factor", 1.3}, "has no links"},
            {{"jobs.*.tp", 2.5}, "whole number"},
        };
        for (const auto& [o, reason] : cases) {
            const std::string e = errorOf(p, {o});
            QVERIFY2(e.find(o.path) != std::string::npos, (o.path + ": " + e).c_str());
            QVERIFY2(e.find(reason) != std::string::npos, (o.path + ": " + e).c_str());
        }
        QVERIFY_THROWS_EXCEPTION(model::InputError,
                                 cost::parseInputOverride("assumptions.wacc=abc", "--set"));
        QCOMPARE(cost::parseInputOverride("jobs.*.mfu=0.5", "--set").value, 0.5);
    }

    // Entity values with a range enter the tornado (the site's tariff over the assumption's relative range,
    // 0.04/0.07 .. 0.10/0.07 around 0.08); the shadowed assumption does not.
    void tornadoIncludesEntityValues() {
        const auto p = reference("two-site-wan");
        const auto t = cost::tornado(cost::ScenarioInput{&p, &catalog(), defaults(), {}},
                                     "finance.cost_per_gpu_hour_usd");
        const cost::TornadoBar* wi = nullptr;
        for (const auto& b : t.bars) {
            QVERIFY(b.path != "assumptions.electricity_usd_per_kwh");
            if (b.path == "sites.site-wi.electricity_usd_per_kwh") wi = &b;
        }
        QVERIFY(wi);
        QVERIFY(std::abs(wi->inputLow - 0.08 * 0.04 / 0.07) < 1e-12);
        QVERIFY(std::abs(wi->inputHigh - 0.08 * 0.10 / 0.07) < 1e-12);
        QVERIFY(wi->swing > 0);
    }

    // Economizer: llama3's racks are air-cooled (liquid_fraction 0) and its building has no loop, so all
    // IT heat goes to CRAH fans (5%) and the air-side chilled-water plant (plant-chiller at 18 degC supply,
    // 6 K delta-T) on the Des Moines climate (nearest to the site; fitted wet-bulb spread 3.0584 K): annual
    // 1/COP 0.0711478 (independent month-by-month recomputation, see tests/cost/test_cooling.cpp for the
    // method), so plant / IT = 1.05 x 0.0711478 + 0.05 = 0.1247051. With free_cooling_hours_per_year = 0 set
    // on the site the compressors run all year at the rated COP 6: 1.05/6 + 0.05 = 0.225. Tolerance 1e-6.
    void economizerHandCheck() {
        const auto p = reference("llama3-16k-h100");
        const auto r = cost::evaluate(p, catalog(), defaults());
        QCOMPARE(r.power.pumps.value(), 0.0);
        const double ratio = r.power.plant.value() / r.power.itOperating.value();
        QVERIFY2(std::abs(ratio - 0.1247051) < 1e-6, std::to_string(ratio).c_str());
        const auto none = evaluateWith(p, {{"sites.*.free_cooling_hours_per_year", 0}});
        const double noneRatio = none.power.plant.value() / none.power.itOperating.value();
        QVERIFY2(std::abs(noneRatio - 0.225) < 1e-6, std::to_string(noneRatio).c_str());
        // Peak facility power is the design day's: unchanged by the annual free-cooling hours.
        QCOMPARE(r.power.facilityPeak.value(), none.power.facilityPeak.value());
    }

    // Every assumption of data/assumptions.json changes some output on some shipped reference.
    void everyAssumptionMatters() {
        const auto refs = referenceVariants();
        for (const auto& [key, a] : defaults()) {
            bool moved = false;
            for (const auto& [name, p] : refs) {
                const auto base = outputsOf(cost::evaluate(p, catalog(), defaults()));
                const double current = cost::InputResolver(p, defaults()).assumptions().at(key).base;
                const double other = current != a.high ? a.high : a.low;
                const cost::InputResolver in(p, defaults(), {{"assumptions." + key, other}});
                if (outputsOf(cost::evaluate(in, catalog())) != base) {
                    moved = true;
                    break;
                }
            }
            QVERIFY2(moved, ("assumption " + key + " changes no output on any reference").c_str());
        }
    }

    // Every field of every entity kind (data/FORMAT.md §3) changes some output on some shipped reference
    // when perturbed, unless listed below as display-only with its reason.
    void everyEntityFieldMatters();

    // Schema 1 -> 2 (issue 12): every shipped reference written as schema 1 (absent optional fields as 0,
    // the old "0 = default") opens as schema 2 with the same design and identical results, from .json and
    // from .ctwin.
    void schema1MigratesToSchema2() {
        QTemporaryDir dir;
        for (const auto& name : kReferences) {
            const auto p = reference(name);
            const std::string canonical = model::dumpJson(model::projectToJson(p));
            const std::string results = cost::resultsToJson(cost::evaluate(p, catalog(), defaults())).dump();
            // .json, schema 1
            auto v1 = model::projectToJson(p);
            v1["schema_version"] = 1;
            int zeros = 0;
            for (const auto& m : model::kSchema1ZeroMeansAbsent)
                for (auto& e : v1[std::string(model::entityCollectionKey(m.kind))])
                    if (e[m.field].is_null()) e[m.field] = 0, ++zeros;
            const std::string jsonPath = dir.filePath(QString::fromStdString(name + ".json")).toStdString();
            model::writeTextFileAtomic(jsonPath, model::dumpJson(v1));
            const auto fromJson = store::loadDesign(jsonPath, &catalog());
            QCOMPARE(model::dumpJson(model::projectToJson(fromJson)), canonical);
            QCOMPARE(cost::resultsToJson(cost::evaluate(fromJson, catalog(), defaults())).dump(), results);
            // .ctwin, schema 1: the entity layout of schema 1 and 2 (tests/store/legacy_ctwin.h), turned back
            // into a version-1 document.
            const std::string ctwinPath = dir.filePath(QString::fromStdString(name + ".ctwin")).toStdString();
            test_support::writeLegacyCtwin(p, ctwinPath, 1);
            {
                store::SqliteHandle db(ctwinPath, store::SqliteHandle::Mode::ReadWrite);
                for (const auto& m : model::kSchema1ZeroMeansAbsent)
                    db.exec(std::string("UPDATE entity SET body = json_set(body, '$.") + m.field +
                            "', 0) WHERE kind = '" + std::string(model::entityCollectionKey(m.kind)) +
                            "' AND json_type(body, '$." + m.field + "') = 'null';");
            }
            const auto fromCtwin = store::loadCtwin(ctwinPath, &catalog());
            QCOMPARE(model::dumpJson(model::projectToJson(fromCtwin)), canonical);
            QCOMPARE(cost::resultsToJson(cost::evaluate(fromCtwin, catalog(), defaults())).dump(), results);
            QVERIFY2(zeros > 0, name.c_str()); // every reference has at least one absent optional field
        }
    }
};

namespace {

/// Reads and perturbs one field of an entity through its visitFields description.
struct Perturber {
    std::string target;
    const model::Catalog* cat = nullptr;
    const model::Project* design = nullptr;
    bool found = false, changed = false;
    std::string shape;
    /// Ids the entity already refers to: a new reference avoids them (a rack's feed_b is not its feed_a, a
    /// link's ends differ; the loader refuses both).
    std::set<std::string> inUse;

    bool is(const char* key) {
        if (target != key) return false;
        found = true;
        return true;
    }
    static double bump(double v, model::Bounds b) {
        double n = v != 0.0 ? v * 1.5 : (b.min + std::min(b.max, b.min + 1.0)) / 2.0 + 0.5;
        if (n > b.max || n < b.min) n = v != b.min ? (v + b.min) / 2.0 : (v + b.max) / 2.0;
        return n;
    }
    void text(const char* key, std::string& v) {
        if (!is(key)) return;
        shape = "text", changed = true;
        // A date moves by two months (an unparsable one would only add a rule).
        if (model::isDateField(key))
            v = v.empty() ? "2029-01-01" : model::parseCalendarDate(v)->plusMonths(2).iso();
        else
            v += "-x";
    }
    void texts(const char* key, std::vector<std::string>&) {
        if (is(key)) shape = "texts";
    }
    /// Another id of `kind` in the design ("" when there is none).
    std::string otherId(model::EntityKind kind, const std::string& v) const {
        std::string other;
        design->withCollection(kind, [&](const auto& c) {
            for (const auto& e : c)
                if (e.id != v && !inUse.count(e.id) && other.empty()) other = e.id;
        });
        return other;
    }
    void ref(const char* key, std::string& v, model::EntityRef r) {
        if (!is(key)) return;
        shape = "ref";
        const std::string other = otherId(r.kind, v);
        if (!other.empty())
            v = other, changed = true;
        else if (r.optional && !v.empty())
            v.clear(), changed = true;
    }
    void refList(const char* key, std::vector<std::string>& v, model::EntityKind) {
        if (is(key)) shape = "refList", changed = !v.empty(), v.resize(v.size() > 1 ? 1 : 0);
    }
    void endpoint(const char* key, std::string& v) {
        if (!is(key)) return;
        shape = "endpoint";
        const std::string other = otherId(model::EntityKind::Site, v);
        if (!other.empty()) v = other, changed = true;
    }
    void catalogRef(const char* key, std::string& v, const char* category, bool optional = false) {
        if (!is(key)) return;
        shape = "catalogRef";
        const auto* current = cat->find(v);
        // Another item of the same kind if there is one, else none when the reference is optional, else any
        // other item of the category.
        for (bool sameKind : {true, false}) {
            for (const auto& item : cat->items())
                if (item.category == category && item.id != v &&
                    (!sameKind || !current || item.kind == current->kind)) {
                    v = item.id, changed = true;
                    return;
                }
            if (sameKind && optional && !v.empty()) {
                v.clear(), changed = true;
                return;
            }
        }
    }
    void catalogRefList(const char* key, std::vector<std::string>& v, const char*) {
        if (is(key)) shape = "catalogRefList", changed = v.size() > 1, v.resize(v.empty() ? 0 : v.size() - 1);
    }
    void choice(const char* key, std::string& v, std::initializer_list<const char*> allowed) {
        if (!is(key)) return;
        shape = "choice";
        for (const char* a : allowed)
            if (v != a) {
                v = a, changed = true;
                return;
            }
    }
    void choiceList(const char* key, std::vector<std::string>& v,
                    std::initializer_list<const char*> allowed) {
        if (!is(key)) return;
        shape = "choiceList";
        changed = true;
        if (!v.empty())
            v.pop_back();
        else
            v.emplace_back(*allowed.begin());
    }
    void number(const char* key, double& v, model::Bounds b) {
        if (is(key)) shape = "number", v = bump(v, b), changed = true;
    }
    template <class Q> void quantity(const char* key, Q& q, model::Bounds b) {
        if (is(key)) shape = "number", q = Q::from_value(bump(q.value(), b)), changed = true;
    }
    void optionalNumber(const char* key, std::optional<double>& v, model::Bounds b) {
        if (!is(key)) return;
        shape = "optional";
        // Absent -> a value inside the bounds; present -> a tenth of it (a budget that binds, a much lower
        // tariff), or half as much again when a tenth is out of bounds.
        if (v)
            v = *v * 0.1 >= b.min ? *v * 0.1 : bump(*v, b);
        else
            v = std::clamp(b.min > 0 ? b.min * 1.2 : std::min(b.max, 0.5), b.min, b.max);
        changed = true;
    }
    template <class Q> void optionalQuantity(const char* key, std::optional<Q>& q, model::Bounds b) {
        if (!is(key)) return;
        shape = "optional";
        if (q)
            q = Q::from_value(q->value() * 0.1 >= b.min ? q->value() * 0.1 : bump(q->value(), b));
        else
            q = Q::from_value(std::clamp(b.max / 1e4, b.min, b.max));
        changed = true;
    }
    void integer(const char* key, int& v, model::Bounds b) {
        if (is(key))
            shape = "integer", v = static_cast<int>(std::min(b.max, std::max(b.min, v * 2.0))),
            changed = true;
    }
    void flag(const char* key, bool& v) {
        if (is(key)) shape = "flag", v = !v, changed = true;
    }
    void numbers(const char* key, std::vector<double>& v, model::Bounds) {
        if (is(key)) shape = "numbers", changed = !v.empty();
        if (target == key)
            for (auto& x : v)
                x *= 2;
    }
    void points(const char* key, std::vector<model::Point2>& v) {
        if (is(key)) shape = "points", changed = !v.empty();
        if (target == key)
            for (auto& pt : v)
                pt.xM += 1;
    }
};

/// Collects the field keys of an entity kind from its visitFields description.
struct FieldKeys {
    std::vector<std::string>* out;
    template <class... A> void add(const char* k, A&&...) { out->emplace_back(k); }
    template <class... A> void text(const char* k, A&&...) { add(k); }
    template <class... A> void texts(const char* k, A&&...) { add(k); }
    template <class... A> void ref(const char* k, A&&...) { add(k); }
    template <class... A> void refList(const char* k, A&&...) { add(k); }
    template <class... A> void endpoint(const char* k, A&&...) { add(k); }
    template <class... A> void catalogRef(const char* k, A&&...) { add(k); }
    template <class... A> void catalogRefList(const char* k, A&&...) { add(k); }
    template <class T> void choice(const char* k, T&, std::initializer_list<const char*>) { add(k); }
    template <class T> void choiceList(const char* k, T&, std::initializer_list<const char*>) { add(k); }
    template <class... A> void number(const char* k, A&&...) { add(k); }
    template <class... A> void quantity(const char* k, A&&...) { add(k); }
    template <class... A> void optionalNumber(const char* k, A&&...) { add(k); }
    template <class... A> void optionalQuantity(const char* k, A&&...) { add(k); }
    template <class... A> void integer(const char* k, A&&...) { add(k); }
    template <class... A> void flag(const char* k, A&&...) { add(k); }
    template <class... A> void numbers(const char* k, A&&...) { add(k); }
    template <class... A> void points(const char* k, A&&...) { add(k); }
};

/// Fields no engine output depends on, with the reason. Everything else must move an output.
/// Positions and outlines move no figure; they are checked by the geometry design rules
/// (cost/geometry_rules.cpp: outside the parent, overlaps), which this test does not count as outputs.
const std::map<std::string, std::string>& displayOnly() {
    static const std::map<std::string, std::string> k = {
        {"*.id", "identity: renaming an id (and every reference to it) changes no figure"},
        {"*.name", "label shown in the GUI and reports"},
        {"halls.x_m", "floor-plan placement of the hall in its building (geometry for the 2D/3D views)"},
        {"halls.y_m", "floor-plan placement of the hall in its building"},
        {"halls.width_m", "hall outline drawn in the floor plan; capacity comes from the racks placed"},
        {"halls.depth_m", "hall outline drawn in the floor plan"},
        {"halls.grid_m", "snapping grid of the floor-plan editor"},
        {"buildings.x_m", "campus placement drawn in the 3D view"},
        {"buildings.y_m", "campus placement drawn in the 3D view"},
        {"buildings.width_m", "building outline drawn in the 3D view"},
        {"buildings.depth_m", "building outline drawn in the 3D view"},
        {"buildings.height_m", "building outline drawn in the 3D view"},
        {"rows.x_m", "row placement in the floor plan"},
        {"rows.y_m", "row placement in the floor plan"},
        {"rows.rotation_deg", "row orientation in the floor plan"},
        {"racks.x_m",
         "rack placement in the floor plan (cable lengths come from fabric tiers, not positions)"},
        {"racks.y_m", "rack placement in the floor plan"},
        {"racks.rotation_deg", "rack orientation in the floor plan"},
        {"cooling_loops.cdus", "CDU positions in the floor plan; the count is cdu_count"},
        {"cooling_loops.supply_temp_c",
         "the loop's temperature class (ASHRAE W-class), shown; the plant's COP "
         "comes from its catalog item, not from a temperature model"},
        {"storage_tiers.building", "where the tier stands; storage power and cost are campus totals, and "
                                   "checkpoint bandwidth is limited by the tier and the front-end NICs"},
    };
    return k;
}

} // namespace

void TestInputs::everyEntityFieldMatters() {
    const auto refs = referenceVariants();
    std::vector<std::string> failures;
    std::set<std::string> exercised;
    for (auto kind : model::kAllEntityKinds) {
        const std::string collection(model::entityCollectionKey(kind));
        // The field keys of this kind, from its visitFields description.
        std::vector<std::string> keys;
        {
            FieldKeys collect{&keys};
            model::Project empty;
            empty.withCollection(kind, [&](auto& c) {
                typename std::decay_t<decltype(c)>::value_type e;
                e.visitFields(collect);
            });
        }
        for (const auto& key : keys) {
            if (displayOnly().count("*." + key) || displayOnly().count(collection + "." + key)) continue;
            bool moved = false;
            std::string shapes;
            for (const auto& ref : refs) {
                const model::Project& base = ref.second; // a plain reference: lambdas below capture it
                bool has = false;
                base.withCollection(kind, [&](const auto& c) { has = !c.empty(); });
                if (!has) continue;
                const std::string before = outputsOf(cost::evaluate(base, catalog(), defaults()));
                // Perturb the field on every entity of the kind (a field of one entity may only matter where
                // that entity is used, e.g. the storage tier a job checkpoints to).
                model::Project p = base;
                Perturber probe;
                p.withCollection(kind, [&](auto& c) {
                    for (auto& e : c) {
                        Perturber one;
                        one.target = key, one.cat = &catalog(), one.design = &base;
                        model::forEachReference(
                            e, [&](const char*, const std::string& id, auto) { one.inUse.insert(id); });
                        e.visitFields(one);
                        probe.found = one.found, probe.shape = one.shape, probe.changed |= one.changed;
                    }
                });
                shapes = probe.shape;
                if (!probe.changed) continue;
                // Keep a fabric valid when its tier count moves: one oversubscription ratio per boundary.
                for (auto& f : p.fabrics)
                    if (!f.oversubscription.empty())
                        f.oversubscription.resize(static_cast<size_t>(f.tiers - 1), 1.0);
                try {
                    model::validateProject(p, ref.first, &catalog());
                    if (outputsOf(cost::evaluate(p, catalog(), defaults())) != before) {
                        moved = true;
                        break;
                    }
                } catch (const model::InputError&) {
                    // The perturbation made the design invalid here; try the next reference.
                }
            }
            exercised.insert(collection + "." + key);
            if (!moved)
                failures.push_back(collection + "." + key + " (" +
                                   (shapes.empty() ? "not perturbable" : shapes) + ")");
        }
    }
    std::string list;
    for (const auto& f : failures)
        list += "\n  " + f;
    QVERIFY2(failures.empty(),
             ("fields that change no output and are not listed as display-only:" + list).c_str());
    QVERIFY(exercised.size() > 60);
}

QTEST_APPLESS_MAIN(TestInputs)
#include "test_inputs.moc"
