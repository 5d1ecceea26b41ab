#pragma once
// Shared vocabulary of the entities' field descriptions. Each entity describes its fields once, in
// `visitFields(V&)`, and the JSON reader (with validation), the JSON writer and the property editor all
// walk that one description, so a field can never be written but not read, or read without its limits.
//
// A visitor implements: text, texts, ref, refList, endpoint, catalogRef, catalogRefList, choice,
// choiceList, number, quantity, integer, flag, numbers, points, and for optional values (absent = the
// engine's default, schema 2; JSON null) optionalNumber(key, std::optional<double>&, Bounds) and
// optionalQuantity(key, std::optional<Q>&, Bounds). Bounds apply to a present value.

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "entity_kind.h"

namespace ctwin::model {

/// Accepted closed range of a numeric field, in the field's stored (SI) unit. Values outside are input
/// errors: they catch typos and absurd inputs (10^12 GPUs) before the engine sees them.
struct Bounds {
    double min;
    double max;
};

inline constexpr Bounds kNonNegative{0.0, 1e15};
inline constexpr Bounds kFraction{0.0, 1.0};
inline constexpr Bounds kLatitude{-90.0, 90.0};
inline constexpr Bounds kLongitude{-180.0, 180.0};
inline constexpr Bounds kAngle{-360.0, 360.0};
/// Positions inside a campus/hall; 20 km is far beyond any campus.
inline constexpr Bounds kPosition{-2e4, 2e4};
inline constexpr Bounds kSize{0.0, 2e4};
/// Up to 100 GW: a whole national grid region, far above any campus.
inline constexpr Bounds kPowerW{0.0, 1e11};
/// Up to $10^13 (ten trillion dollars).
inline constexpr Bounds kMoneyUsd{0.0, 1e13};
/// Half the Earth's circumference is the longest great-circle route.
inline constexpr Bounds kRouteLengthM{0.0, 4e7};
/// 10 million GPUs: an order of magnitude above the largest announced clusters.
inline constexpr Bounds kGpuCount{0.0, 1e7};
/// Model sizes up to 10^15 parameters and 10^17 tokens.
inline constexpr Bounds kParams{0.0, 1e15};
inline constexpr Bounds kTokens{0.0, 1e17};

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
