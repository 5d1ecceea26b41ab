// Field ranges (issue 14 item 2): data/field_ranges.json is the one source of every numeric field's accepted
// range. These tests check that the compiled-in table matches the file, that every numeric field any
// entity visits has an entry (with the same bounds the visitor receives), that every entry names a real
// numeric field, and that the loader's message carries the unit and the reason.
#include "design_json.h"
#include "field_traits.h"
#include "format_number.h"
#include "input_error.h"
#include "project.h"
#include "suggest.h"

#include <QtTest>
#include <fstream>
#include <map>
#include <set>
#include <utility>

using namespace ctwin::model;
using ojson = nlohmann::ordered_json;

namespace {

/// A visitFields visitor that records every numeric field with the Bounds it is visited with.
struct NumericFields {
    EntityKind kind;
    std::vector<std::pair<std::string, std::optional<Bounds>>> fields; // points have no Bounds argument
    std::set<std::string> all;
    void add(const char* key, std::optional<Bounds> b) { fields.emplace_back(key, b); }
    template <class... A> void text(const char* k, A&&...) { all.insert(k); }
    template <class... A> void texts(const char* k, A&&...) { all.insert(k); }
    template <class... A> void ref(const char* k, A&&...) { all.insert(k); }
    template <class... A> void refList(const char* k, A&&...) { all.insert(k); }
    template <class... A> void endpoint(const char* k, A&&...) { all.insert(k); }
    template <class... A> void catalogRef(const char* k, A&&...) { all.insert(k); }
    template <class... A> void catalogRefList(const char* k, A&&...) { all.insert(k); }
    template <class T> void choice(const char* k, T&, std::initializer_list<const char*>) { all.insert(k); }
    template <class T> void choiceList(const char* k, T&, std::initializer_list<const char*>) {
        all.insert(k);
    }
    template <class... A> void flag(const char* k, A&&...) { all.insert(k); }
    template <class T> void number(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void quantity(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void integer(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void optionalNumber(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void optionalQuantity(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void numbers(const char* k, T&, Bounds b) { add(k, b); }
    template <class T> void points(const char* k, T&) { add(k, std::nullopt); }
};

NumericFields numericFieldsOf(EntityKind kind) {
    NumericFields v{kind, {}, {}};
    Project p;
    p.withCollection(kind, [&](auto& c) {
        typename std::decay_t<decltype(c)>::value_type e;
        e.visitFields(v);
    });
    return v;
}

ojson rangesFile() {
    std::ifstream in(std::string(CTWIN_SOURCE_DATA_DIR) + "/field_ranges.json");
    if (!in) return {};
    return ojson::parse(in);
}

/// A small valid design (as tests/model/test_model.cpp's) to break one field of.
ojson smallDesign() {
    return ojson::parse(R"({
      "format": "clustertwin-design", "schema_version": 2,
      "project": {"id": "p", "name": "Small"},
      "sites": [{"id": "s1", "name": "Site", "lat_deg": 40.0, "lon_deg": -90.0}],
      "buildings": [{"id": "b1", "name": "B1", "site": "s1", "power_capacity_w": 5e6, "width_m": 60, "depth_m": 40}],
      "halls": [{"id": "h1", "name": "Hall 1", "building": "b1", "width_m": 30, "depth_m": 20}],
      "cooling_loops": [{"id": "l1", "name": "Loop 1", "hall": "h1", "cdu_type": "cdu-2mw", "cdu_count": 2,
                         "plant": "plant-dry-cooler", "cdus": [{"x_m": 1, "y_m": 2}]}],
      "fabrics": [{"id": "fab", "name": "Backend", "switch": "sw-51t", "tiers": 2}],
      "training_jobs": [{"id": "job", "name": "Job", "model_params": 7e10, "tokens": 1e12, "gpus": 1024}]
    })");
}

std::string loadError(const ojson& j) {
    try {
        projectFromJson(j, "design.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

} // namespace

class TestFieldRanges : public QObject {
    Q_OBJECT
private slots:
    void everyNumericFieldHasItsRange();
    void everyRangeNamesARealField();
    void compiledTableMatchesTheDataFile();
    void entriesAreWellFormed();
    void boundsAreInclusive();
    void loaderMessageNamesUnitAndReason();
    void pointsUseTheirFieldsRange();
    void suggestions();
    void decimalNumbers();
    void formattedNumbers();
};

void TestFieldRanges::everyNumericFieldHasItsRange() {
    int checked = 0;
    for (EntityKind kind : kAllEntityKinds) {
        const auto v = numericFieldsOf(kind);
        const std::string collection(entityCollectionKey(kind));
        for (const auto& [key, visited] : v.fields) {
            const Bounds* b = findFieldRange(kind, key);
            QVERIFY2(b, (collection + "." + key + " has no entry in data/field_ranges.json").c_str());
            if (visited) {
                // The visitor received this field's own entry (not a neighbour's by a copy-paste slip).
                QVERIFY2(visited->min == b->min && visited->max == b->max &&
                             std::string_view(visited->reason) == b->reason,
                         (collection + "." + key + " is visited with bounds other than its entry").c_str());
            }
            ++checked;
        }
    }
    // 71 numeric fields today (70 with bounds and cooling_loops.cdus); fewer means a visitor missed some.
    QVERIFY2(checked >= 71, std::to_string(checked).c_str());
}

void TestFieldRanges::everyRangeNamesARealField() {
    std::map<std::string, std::set<std::string>> numeric, other;
    for (EntityKind kind : kAllEntityKinds) {
        const auto v = numericFieldsOf(kind);
        for (const auto& [key, _] : v.fields)
            numeric[std::string(entityCollectionKey(kind))].insert(key);
        other[std::string(entityCollectionKey(kind))] = v.all;
    }
    for (const FieldRange& r : kFieldRanges) {
        const std::string name = std::string(r.collection) + "." + std::string(r.field);
        QVERIFY2(entityKindFromCollectionKey(r.collection).has_value(),
                 (name + ": no such collection").c_str());
        QVERIFY2(!other[std::string(r.collection)].count(std::string(r.field)),
                 (name + ": not a numeric field").c_str());
        QVERIFY2(numeric[std::string(r.collection)].count(std::string(r.field)),
                 (name + ": no such field").c_str());
    }
}

void TestFieldRanges::compiledTableMatchesTheDataFile() {
    const ojson file = rangesFile();
    QVERIFY2(file.is_object(), "data/field_ranges.json not found or not an object");
    QCOMPARE(file.at("format").get<std::string>(), std::string("clustertwin-field-ranges"));
    size_t entries = 0;
    for (const auto& [collection, fields] : file.at("ranges").items()) {
        for (const auto& [field, r] : fields.items()) {
            ++entries;
            const auto kind = entityKindFromCollectionKey(collection);
            QVERIFY2(kind, collection.c_str());
            const Bounds* b = findFieldRange(*kind, field);
            QVERIFY2(b, (collection + "." + field + " is in the file but not compiled in").c_str());
            QCOMPARE(b->min, r.at("min").get<double>());
            QCOMPARE(b->max, r.at("max").get<double>());
            QCOMPARE(std::string(b->unit), r.at("unit").get<std::string>());
            QCOMPARE(std::string(b->reason), r.at("reason").get<std::string>());
        }
    }
    QCOMPARE(entries, std::size(kFieldRanges));
}

void TestFieldRanges::entriesAreWellFormed() {
    std::set<std::pair<std::string_view, std::string_view>> seen;
    for (const FieldRange& r : kFieldRanges) {
        QVERIFY(r.bounds.min <= r.bounds.max);
        QVERIFY(std::string_view(r.bounds.unit).size() > 0);
        QVERIFY(std::string_view(r.bounds.reason).size() > 0);
        QVERIFY2(seen.insert({r.collection, r.field}).second, std::string(r.field).c_str());
    }
}

void TestFieldRanges::boundsAreInclusive() {
    // Latitude: [-90, 90] deg, both ends accepted, the next representable value beyond refused.
    constexpr Bounds lat = fieldRange(EntityKind::Site, "lat_deg");
    static_assert(lat.min == -90.0 && lat.max == 90.0);
    QVERIFY(rangeProblem(-90.0, lat).empty());
    QVERIFY(rangeProblem(90.0, lat).empty());
    QVERIFY(!rangeProblem(std::nextafter(90.0, 91.0), lat).empty());
    QVERIFY(!rangeProblem(std::nan(""), lat).empty()); // NaN is outside every range
    // The message: value, range, unit, reason, in that order.
    QCOMPARE(rangeProblem(95.0, lat),
             std::string("value 95 is outside the accepted range [-90, 90] deg (WGS 84 "
                         "latitude runs from the South Pole (-90) to the North Pole (90))"));
    // A bound that is not a field's (no unit or reason) words the same without them.
    QCOMPARE(rangeProblem(2.0, Bounds{0.0, 1.0}),
             std::string("value 2 is outside the accepted range [0, 1]"));
}

void TestFieldRanges::loaderMessageNamesUnitAndReason() {
    // One field in each of four entity kinds, just past its bound.
    struct Case {
        const char* pointer;
        double value;
        std::vector<std::string> fragments;
    };
    const std::vector<Case> cases = {
        {"/halls/0/grid_m",
         100.5,
         {"design.json", "hall 'h1'", "field 'grid_m'", "[0, 100] m", "raised-floor"}},
        {"/cooling_loops/0/supply_temp_c",
         4.5,
         {"cooling loop 'l1'", "supply_temp_c", "[5, 70] degC", "ASHRAE"}},
        {"/fabrics/0/planes", 17, {"fabric 'fab'", "field 'planes'", "[1, 16] count"}},
        {"/training_jobs/0/checkpoint_bytes_per_param",
         65,
         {"training job 'job'", "[0, 64] B/param", "Adam"}},
    };
    QVERIFY2(loadError(smallDesign()).empty(), loadError(smallDesign()).c_str());
    for (const auto& c : cases) {
        ojson j = smallDesign();
        j[ojson::json_pointer(c.pointer)] = c.value;
        const std::string e = loadError(j);
        for (const auto& f : c.fragments)
            QVERIFY2(e.find(f) != std::string::npos, (e + "  -- missing: " + f).c_str());
    }
}

void TestFieldRanges::pointsUseTheirFieldsRange() {
    // cooling_loops.cdus: each x_m and y_m within [-2e4, 2e4] m.
    ojson j = smallDesign();
    j["cooling_loops"][0]["cdus"][0]["y_m"] = 20000.0; // the bound itself is accepted
    QVERIFY2(loadError(j).empty(), loadError(j).c_str());
    j["cooling_loops"][0]["cdus"][0]["y_m"] = 20001.0;
    const std::string e = loadError(j);
    QVERIFY2(e.find("field 'cdus'") != std::string::npos && e.find("[-20000, 20000] m") != std::string::npos,
             e.c_str());
}

void TestFieldRanges::suggestions() {
    QCOMPARE(didYouMean("lat_dg", {"lat_deg", "lon_deg", "land_cost_usd"}),
             std::string(" (did you mean 'lat_deg'?)"));
    QCOMPARE(didYouMean("colour", {"lat_deg", "lon_deg"}), std::string());
    QCOMPARE(didYouMean("x", {}), std::string());
    // The loader suggests for entity fields and top-level keys.
    ojson j = smallDesign();
    j["sites"][0]["lat_dg"] = 1.0;
    QVERIFY(loadError(j).find("field 'lat_dg': unknown field (did you mean 'lat_deg'?)") !=
            std::string::npos);
    j = smallDesign();
    j["sitez"] = ojson::array();
    QVERIFY(loadError(j).find("unknown top-level key (did you mean 'sites'?)") != std::string::npos);
}

// model::parseDecimal, the one reader of numbers a person types (--set, sweep ends, CLI options, CSV).
void TestFieldRanges::decimalNumbers() {
    const std::vector<std::pair<std::string, double>> good = {
        {"0.1", 0.1}, {"-2", -2.0},   {"+5", 5.0},     {"1e-3", 1e-3},     {"1.5E9", 1.5e9}, {".5", 0.5},
        {"5.", 5.0},  {"-.25", -0.25}, {"0", 0.0},     {"1e308", 1e308},    {"007", 7.0},
    };
    for (const auto& [text, value] : good) {
        const auto v = parseDecimal(text);
        QVERIFY2(v.has_value(), text.c_str());
        QCOMPARE(*v, value);
    }
    for (const char* text : {"", " 0.1", "0.1 ", "1,5", "0x1p-3", "0x10", "inf", "-inf", "nan", "NaN",
                             "infinity", "1e400", "-1e400", "1e-400", "--1", "+-1", "+", "-", ".", "e5", "1e",
                             "1.2.3", "１", "0.1\n", "\t1"})
        QVERIFY2(!parseDecimal(text).has_value(), text);
}

// Negative zero is not shown as "-0" in messages.
void TestFieldRanges::formattedNumbers() {
    QCOMPARE(formatNumber(-0.0), std::string("0"));
    QCOMPARE(formatNumber(0.065), std::string("0.065"));
    QCOMPARE(formatNumber(1e308), std::string("1e+308"));
    QCOMPARE(formatNumber(-2.5), std::string("-2.5"));
}

QTEST_APPLESS_MAIN(TestFieldRanges)
#include "test_field_ranges.moc"
