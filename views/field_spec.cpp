#include "field_spec.h"

#include "project.h"

#include <optional>

namespace ctwin::views {

namespace {

using model::Bounds;
using model::EntityKind;
using model::EntityRef;
using Type = FieldSpec::Type;

/// A visitFields visitor that records the shape of each field instead of reading or writing it.
struct Describer {
    std::vector<FieldSpec> out;
    void add(const char* key, Type t) {
        out.push_back(FieldSpec{key, t, {}, {}, EntityKind::Site, false, {}, false, false});
    }
    void text(const char* key, const std::string&) { add(key, Type::Text); }
    void texts(const char* key, const std::vector<std::string>&) {
        add(key, Type::Json);
        out.back().textList = true;
    }
    void ref(const char* key, const std::string&, EntityRef r) {
        add(key, Type::Ref);
        out.back().refKind = r.kind;
        out.back().optional = r.optional;
    }
    void refList(const char* key, const std::vector<std::string>&, EntityKind) {
        add(key, Type::Json);
        out.back().textList = true;
    }
    void endpoint(const char* key, const std::string&) {
        add(key, Type::Text);
        out.back().endpoint = true;
    }
    void catalogRef(const char* key, const std::string&, const char* category, bool optional = false) {
        add(key, Type::CatalogRef);
        out.back().catalogCategory = category;
        out.back().optional = optional;
    }
    void catalogRefList(const char* key, const std::vector<std::string>&, const char* category) {
        add(key, Type::Json);
        out.back().textList = true;
        out.back().catalogCategory = category;
    }
    void choice(const char* key, const std::string&, std::initializer_list<const char*> allowed) {
        add(key, Type::Choice);
        for (const char* a : allowed)
            out.back().choices.emplace_back(a);
    }
    void choiceList(const char* key, const std::vector<std::string>&, std::initializer_list<const char*>) {
        add(key, Type::Json);
        out.back().textList = true;
    }
    void number(const char* key, double, Bounds b) {
        add(key, Type::Number);
        out.back().bounds = b;
    }
    template <class Q> void quantity(const char* key, const Q&, Bounds b) { number(key, 0.0, b); }
    /// An optional number: empty in the editor means absent (the engine then uses its default).
    void optionalNumber(const char* key, const std::optional<double>&, Bounds b) {
        number(key, 0.0, b);
        out.back().optional = true;
    }
    template <class Q> void optionalQuantity(const char* key, const std::optional<Q>&, Bounds b) {
        optionalNumber(key, std::nullopt, b);
    }
    void integer(const char* key, int, Bounds b) {
        add(key, Type::Integer);
        out.back().bounds = b;
    }
    void flag(const char* key, bool) { add(key, Type::Flag); }
    void numbers(const char* key, const std::vector<double>&, Bounds) { add(key, Type::Json); }
    void points(const char* key, const std::vector<model::Point2>&) { add(key, Type::Json); }
};

} // namespace

std::vector<FieldSpec> FieldSpec::forKind(EntityKind kind) {
    Describer d;
    model::Project p;
    p.withCollection(kind, [&](auto& c) {
        typename std::decay_t<decltype(c)>::value_type e;
        e.visitFields(d);
    });
    return std::move(d.out);
}

} // namespace ctwin::views
