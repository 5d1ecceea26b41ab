#pragma once
// Shared vocabulary of the entities' field descriptions. Each entity describes its fields once, in
// `visitFields(V&)`, and the JSON reader (with validation), the JSON writer and the property editor all
// walk that one description, so a field can never be written but not read, or read without its limits.
//
// A visitor implements: text, texts, ref, refList, endpoint, catalogRef, catalogRefList, choice,
// choiceList, number, quantity, integer, flag, numbers, points, and for optional values (absent = the
// engine's default, schema 2; JSON null) optionalNumber(key, std::optional<double>&, Bounds) and
// optionalQuantity(key, std::optional<Q>&, Bounds). Bounds apply to a present value. Every numeric field's
// Bounds come from data/field_ranges.json through fieldRange(kKind, key) (tests/model/test_field_ranges.cpp
// checks that every numeric field has one and that every entry names a real field).

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "entity_kind.h"

namespace ctwin::model {

/// Accepted closed range of a numeric field, in the field's stored (SI) unit. Values outside are input
/// errors: they catch typos and absurd inputs (10^12 GPUs) before the engine sees them. An entity's bounds
/// come from data/field_ranges.json (fieldRange below), with the stored unit and the reason for the bound.
struct Bounds {
    double min;
    double max;
    /// Stored unit ("m", "W", "count") and a one-line reason (why the bound is there), both from
    /// data/field_ranges.json; empty for a bound that is not a field's.
    const char* unit = "";
    const char* reason = "";
};

/// One entry of data/field_ranges.json: the range of `field` of the entities of `collection` ("sites").
struct FieldRange {
    std::string_view collection;
    std::string_view field;
    Bounds bounds;
};

} // namespace ctwin::model

// kFieldRanges: data/field_ranges.json compiled in (generated at configure time by model/field_ranges.cmake),
// so the loaders need no data folder (fuzzers, library users) and a field without a range fails the build.
#include "field_ranges_data.h"

namespace ctwin::model {

/// The range of `field` of entities of `kind` in data/field_ranges.json, or nullptr when it has none.
constexpr const Bounds* findFieldRange(EntityKind kind, std::string_view field) {
    const std::string_view collection = kEntityKindNames[static_cast<size_t>(kind)].collection;
    for (const FieldRange& r : kFieldRanges)
        if (r.collection == collection && r.field == field) return &r.bounds;
    return nullptr;
}

/// The range of a field, at compile time: what every visitFields passes for its numeric fields
/// (`v.number("lat_deg", latDeg, fieldRange(kKind, "lat_deg"))`). A field with no entry in
/// data/field_ranges.json does not compile ("not a constant expression" at the throw below).
consteval Bounds fieldRange(EntityKind kind, std::string_view field) {
    const Bounds* b = findFieldRange(kind, field);
    if (!b) throw "data/field_ranges.json has no range for this field";
    return *b;
}

/// "" when `value` lies in `b`; otherwise the message every checker uses: "value 95 is outside the accepted
/// range [-90, 90] deg (WGS 84 latitude runs ...)" (model/field_ranges.cpp).
std::string rangeProblem(double value, const Bounds& b);

/// A reference to another entity of the document, checked after load.
struct EntityRef {
    EntityKind kind;
    bool optional; // "" allowed
};

/// A point in metres in the parent's frame.
struct Point2 {
    double xM = 0.0;
    double yM = 0.0;
    bool operator==(const Point2&) const = default;
};

} // namespace ctwin::model
