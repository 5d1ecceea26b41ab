#pragma once
// The references an entity makes to other entities of the document, read from its visitFields description
// (not from its JSON): the reference scans of an edit (what refers to a removed hall, what a delete takes
// along) walk 14,000 racks without building a JSON object per rack.

#include "field_traits.h"

#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

namespace ctwin::model {

/// How a field refers to another entity, as visitFields declares it.
enum class ReferenceType {
    Required, ///< v.ref(..., {kind, false}): the entity cannot exist without its target (a rack's row)
    Optional, ///< v.ref(..., {kind, true}): may be cleared (a rack's cooling loop)
    ListItem, ///< v.refList: one of a list (a fabric's buildings)
    Endpoint, ///< v.endpoint: a link's end (a site or a building)
};

/// A visitFields visitor that ignores every value field: a visitor that reads only references (and catalog
/// references) derives from it and declares the members it reads, which hide these.
struct ReferenceFieldsOnly {
    template <class... A> void text(A&&...) {}
    template <class... A> void texts(A&&...) {}
    template <class... A> void catalogRef(A&&...) {}
    template <class... A> void catalogRefList(A&&...) {}
    // A braced list of choices cannot bind to a template pack: these two are spelled out.
    void choice(const char*, const std::string&, std::initializer_list<const char*>) {}
    void choiceList(const char*, const std::vector<std::string>&, std::initializer_list<const char*>) {}
    template <class... A> void number(A&&...) {}
    template <class... A> void quantity(A&&...) {}
    template <class... A> void optionalNumber(A&&...) {}
    template <class... A> void optionalQuantity(A&&...) {}
    template <class... A> void integer(A&&...) {}
    template <class... A> void flag(A&&...) {}
    template <class... A> void numbers(A&&...) {}
    template <class... A> void points(A&&...) {}
};

namespace detail {
template <class F> class ReferenceVisitor : public ReferenceFieldsOnly {
public:
    explicit ReferenceVisitor(F& f) : m_f(f) {}
    void ref(const char* key, const std::string& v, EntityRef r) {
        if (!v.empty()) m_f(key, v, r.optional ? ReferenceType::Optional : ReferenceType::Required);
    }
    void refList(const char* key, const std::vector<std::string>& v, EntityKind) {
        for (const auto& id : v)
            m_f(key, id, ReferenceType::ListItem);
    }
    void endpoint(const char* key, const std::string& v) {
        if (!v.empty()) m_f(key, v, ReferenceType::Endpoint);
    }

private:
    F& m_f;
};
} // namespace detail

/// Calls f(const char* key, const std::string& targetId, ReferenceType) for each non-empty reference of
/// `entity` to another entity of the document, in visitFields order (catalog references are not
/// document references and are not listed).
template <class Entity, class F> void forEachReference(const Entity& entity, F&& f) {
    detail::ReferenceVisitor<std::remove_reference_t<F>> v(f);
    const_cast<Entity&>(entity).visitFields(v); // visitFields is shared with readers; this visitor only reads
}

} // namespace ctwin::model
