#pragma once
#include "entity_kind.h"
#include "field_traits.h"

#include <string>
#include <vector>

namespace ctwin::views {

/// What the inspector needs to know to edit one field of an entity, taken from the entity's own
/// visitFields description (the same one the JSON reader validates with), so editors and files agree.
struct FieldSpec {
    enum class Type { Text, Number, Integer, Flag, Choice, Ref, CatalogRef, Json };
    std::string key;
    Type type = Type::Text;
    model::Bounds bounds{0.0, 0.0};
    std::vector<std::string> choices;
    model::EntityKind refKind = model::EntityKind::Site;
    bool optional = false;
    std::string catalogCategory;
    /// A Json field that is a list of texts (ids, catalog ids, choices): shown and typed as "a, b, c".
    bool textList = false;
    /// A Text field naming a site or a building (a link's end): picked by name, not typed as an id.
    bool endpoint = false;

    /// The fields of every entity of a kind, in file order.
    static std::vector<FieldSpec> forKind(model::EntityKind kind);
};

} // namespace ctwin::views
