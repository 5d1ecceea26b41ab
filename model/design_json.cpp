#include "design_json.h"
#include "calendar_date.h"
#include "input_file.h"
#include "format_number.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "catalog.h"
#include "entity_references.h"
#include "input_error.h"
#include "json_fast_parse.h"
#include "suggest.h"

namespace ctwin::model {

using ojson = nlohmann::ordered_json;

namespace {

/// An entity id is matched exactly (references, --set paths, the GUI's selection), so it must be visible:
/// not empty, no leading or trailing white space, no control characters.
void checkId(const std::string& id, const InputLocation& where) {
    if (id.empty()) throw InputError(where, "every entity needs a non-empty id");
    const auto space = [](unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    if (space(static_cast<unsigned char>(id.front())) || space(static_cast<unsigned char>(id.back())))
        throw InputError(where, "id '" + id + "' begins or ends with white space: ids are matched exactly");
    for (const unsigned char c : id)
        if (c < 0x20 || c == 0x7f)
            throw InputError(where, "id contains control character " + std::to_string(c) +
                                        ": ids are matched exactly and must be printable");
}

/// Writer side of visitFields.
class JsonWriter {
public:
    ojson out = ojson::object();
    void text(const char* key, const std::string& v) { out[key] = v; }
    void texts(const char* key, const std::vector<std::string>& v) { out[key] = v; }
    void ref(const char* key, const std::string& v, EntityRef) { out[key] = v; }
    void refList(const char* key, const std::vector<std::string>& v, EntityKind) { out[key] = v; }
    void endpoint(const char* key, const std::string& v) { out[key] = v; }
    void catalogRef(const char* key, const std::string& v, const char*, bool = false) { out[key] = v; }
    void catalogRefList(const char* key, const std::vector<std::string>& v, const char*) { out[key] = v; }
    void choice(const char* key, const std::string& v, std::initializer_list<const char*>) { out[key] = v; }
    void choiceList(const char* key, const std::vector<std::string>& v, std::initializer_list<const char*>) {
        out[key] = v;
    }
    void number(const char* key, double v, Bounds) { out[key] = v; }
    template <class Q> void quantity(const char* key, const Q& q, Bounds) { out[key] = q.value(); }
    /// Absent optional values are written as null (canonical form: every key present, FORMAT.md §3).
    void optionalNumber(const char* key, const std::optional<double>& v, Bounds) {
        out[key] = v ? ojson(*v) : ojson(nullptr);
    }
    template <class Q> void optionalQuantity(const char* key, const std::optional<Q>& q, Bounds) {
        out[key] = q ? ojson(q->value()) : ojson(nullptr);
    }
    void integer(const char* key, int v, Bounds) { out[key] = v; }
    void flag(const char* key, bool v) { out[key] = v; }
    void numbers(const char* key, const std::vector<double>& v, Bounds) { out[key] = v; }
    void points(const char* key, const std::vector<Point2>& v) {
        ojson a = ojson::array();
        for (const auto& p : v) a.push_back(ojson{{"x_m", p.xM}, {"y_m", p.yM}});
        out[key] = std::move(a);
    }
};

/// Reader side of visitFields: type and bounds checks with the full location in every message.
class JsonReader {
public:
    JsonReader(const ojson& obj, InputLocation where, std::optional<EntityKind> kind = std::nullopt)
        : m_fields(fieldsOf(obj, where)), m_where(std::move(where)), m_kind(kind) {
        m_visited.reserve(32);
    }

    void text(const char* key, std::string& v) {
        if (const ojson* j = get(key)) {
            requireType(*j, j->is_string(), key, "a string");
            v = j->get<std::string>();
        }
        checkDate(key, v);
        if (std::string_view(key) == "id") {
            checkId(v, at(key));
            m_where.entityId = v;
        }
        if (std::string_view(key) == "name") m_where.entityName = v;
    }
    void texts(const char* key, std::vector<std::string>& v) {
        if (const ojson* j = get(key)) {
            requireType(*j, j->is_array(), key, "an array of strings");
            v.clear();
            for (const auto& e : *j) {
                requireType(e, e.is_string(), key, "an array of strings");
                v.push_back(e.get<std::string>());
            }
        }
    }
    void ref(const char* key, std::string& v, EntityRef) { text(key, v); }
    void refList(const char* key, std::vector<std::string>& v, EntityKind) { texts(key, v); }
    void endpoint(const char* key, std::string& v) { text(key, v); }
    void catalogRef(const char* key, std::string& v, const char*, bool = false) { text(key, v); }
    void catalogRefList(const char* key, std::vector<std::string>& v, const char*) { texts(key, v); }
    void choice(const char* key, std::string& v, std::initializer_list<const char*> allowed) {
        text(key, v);
        checkChoice(key, v, allowed);
    }
    void choiceList(const char* key, std::vector<std::string>& v, std::initializer_list<const char*> allowed) {
        texts(key, v);
        for (const auto& e : v) checkChoice(key, e, allowed);
    }
    void number(const char* key, double& v, Bounds b) {
        if (const ojson* j = get(key)) v = readNumber(*j, key, b);
    }
    template <class Q> void quantity(const char* key, Q& q, Bounds b) {
        if (const ojson* j = get(key)) q = Q::from_value(readNumber(*j, key, b));
    }
    /// null or a missing key: absent; a number must lie within the bounds.
    void optionalNumber(const char* key, std::optional<double>& v, Bounds b) {
        if (const ojson* j = get(key)) {
            if (j->is_null())
                v.reset();
            else
                v = readNumber(*j, key, b);
        }
    }
    template <class Q> void optionalQuantity(const char* key, std::optional<Q>& q, Bounds b) {
        if (const ojson* j = get(key)) {
            if (j->is_null())
                q.reset();
            else
                q = Q::from_value(readNumber(*j, key, b));
        }
    }
    void integer(const char* key, int& v, Bounds b) {
        if (const ojson* j = get(key)) {
            const double d = readNumber(*j, key, b);
            if (d != std::floor(d)) throw InputError(at(key), "expected a whole number, found " + formatNumber(d));
            v = static_cast<int>(d);
        }
    }
    void flag(const char* key, bool& v) {
        if (const ojson* j = get(key)) {
            requireType(*j, j->is_boolean(), key, "true or false");
            v = j->get<bool>();
        }
    }
    void numbers(const char* key, std::vector<double>& v, Bounds b) {
        if (const ojson* j = get(key)) {
            requireType(*j, j->is_array(), key, "an array of numbers");
            v.clear();
            for (const auto& e : *j) v.push_back(readNumber(e, key, b));
        }
    }
    void points(const char* key, std::vector<Point2>& v) {
        if (const ojson* j = get(key)) {
            requireType(*j, j->is_array(), key, "an array of {x_m, y_m}");
            v.clear();
            for (const auto& e : *j) {
                requireType(e, e.is_object() && e.contains("x_m") && e.contains("y_m"), key,
                            "an array of {x_m, y_m}");
                // Both coordinates share the range of the field (data/field_ranges.json).
                const Bounds* b = m_kind ? findFieldRange(*m_kind, key) : nullptr;
                if (!b) throw InputError(at(key), "no range for this field in data/field_ranges.json");
                v.push_back(Point2{readNumber(e["x_m"], key, *b), readNumber(e["y_m"], key, *b)});
            }
        }
    }

    /// Rejects keys the entity does not have (typos would otherwise be silently dropped on save): the first
    /// key, in file order, that no visited field asked for, with the nearest known key as a suggestion.
    void rejectUnknown() const {
        const size_t n = m_fields.size();
        if (n <= 64 && m_matched == (n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1)) return;
        for (const auto& field : m_fields) {
            const std::string& k = field.first; // a plain reference: clang 14 cannot capture a structured binding
            if (std::none_of(m_visited.begin(), m_visited.end(), [&](const char* v) { return k == v; }))
                throw InputError(at(k.c_str()),
                                 "unknown field" + didYouMean(k, std::vector<std::string>(m_visited.begin(),
                                                                                          m_visited.end())));
        }
    }
    const InputLocation& where() const { return m_where; }

private:
    /// The value of `key`, or null when absent. Files list fields in visitFields order (the writer's), so
    /// the key after the last one found is tried first: one comparison per field instead of a search.
    const ojson* get(const char* key) {
        m_visited.push_back(key);
        const size_t n = m_fields.size();
        size_t i = m_next;
        if (i >= n || entry(i).first != key) {
            i = 0;
            while (i < n && entry(i).first != key) ++i;
            if (i == n) return nullptr;
        }
        if (i < 64) m_matched |= std::uint64_t{1} << i;
        m_next = i + 1;
        return &entry(i).second;
    }
    const ojson::object_t::value_type& entry(size_t i) const {
        return *(m_fields.begin() + static_cast<std::ptrdiff_t>(i));
    }
    InputLocation at(const char* key) const {
        InputLocation w = m_where;
        w.field = key;
        return w;
    }
    void requireType(const ojson& j, bool ok, const char* key, const char* expected) const {
        if (!ok) throw InputError(at(key), std::string("expected ") + expected + ", found " + j.type_name());
    }
    double readNumber(const ojson& j, const char* key, Bounds b) const {
        requireType(j, j.is_number(), key, "a number");
        const double d = j.get<double>();
        if (!std::isfinite(d)) throw InputError(at(key), "value is not finite");
        if (std::string problem = rangeProblem(d, b); !problem.empty()) throw InputError(at(key), problem);
        return d;
    }
    /// A date field (isDateField) holds an ISO date or nothing (model/calendar_date.h).
    void checkDate(const char* key, const std::string& v) const {
        if (!isDateField(key)) return;
        if (auto problem = calendarDateProblem(v); !problem.empty()) throw InputError(at(key), problem);
    }

    void checkChoice(const char* key, const std::string& v, std::initializer_list<const char*> allowed) const {
        std::string list;
        for (const char* a : allowed) {
            if (v == a) return;
            list += list.empty() ? "" : ", ";
            list += a;
        }
        throw InputError(at(key), "'" + v + "' is not one of: " + list);
    }

    static const ojson::object_t& fieldsOf(const ojson& obj, const InputLocation& where) {
        if (!obj.is_object()) throw InputError(where, "expected a JSON object");
        return obj.get_ref<const ojson::object_t&>();
    }

    const ojson::object_t& m_fields; // key/value pairs in file order (nlohmann::ordered_map is a vector)
    size_t m_next = 0;               // where get() looks first
    std::uint64_t m_matched = 0;     // bit i: the i-th key was asked for (objects of up to 64 keys)
    std::vector<const char*> m_visited;
    InputLocation m_where;
    std::optional<EntityKind> m_kind; // for the ranges of fields without Bounds (points)
};

/// The JSON type name of a cell's type, for the JSON reader's messages ("found string").
const char* cellTypeName(CellSource::Type t) {
    switch (t) {
    case CellSource::Type::Null: return "null";
    case CellSource::Type::Integer:
    case CellSource::Type::Real: return "number";
    case CellSource::Type::Text: return "string";
    case CellSource::Type::Blob: return "binary";
    }
    return "unknown";
}

/// Lists the columns of an entity's typed table (entityColumns).
class ColumnLister {
public:
    std::vector<EntityColumn> columns;
    void text(const char* key, const std::string&) { add(key, "TEXT"); }
    void texts(const char* key, const std::vector<std::string>&) { add(key, "TEXT"); }
    void ref(const char* key, const std::string&, EntityRef) { add(key, "TEXT"); }
    void refList(const char* key, const std::vector<std::string>&, EntityKind) { add(key, "TEXT"); }
    void endpoint(const char* key, const std::string&) { add(key, "TEXT"); }
    void catalogRef(const char* key, const std::string&, const char*, bool = false) { add(key, "TEXT"); }
    void catalogRefList(const char* key, const std::vector<std::string>&, const char*) { add(key, "TEXT"); }
    void choice(const char* key, const std::string&, std::initializer_list<const char*>) { add(key, "TEXT"); }
    void choiceList(const char* key, const std::vector<std::string>&, std::initializer_list<const char*>) {
        add(key, "TEXT");
    }
    template <class... A> void number(const char* key, A&&...) { add(key, "REAL"); }
    template <class... A> void quantity(const char* key, A&&...) { add(key, "REAL"); }
    template <class... A> void optionalNumber(const char* key, A&&...) { add(key, "REAL"); }
    template <class... A> void optionalQuantity(const char* key, A&&...) { add(key, "REAL"); }
    template <class... A> void integer(const char* key, A&&...) { add(key, "INTEGER"); }
    template <class... A> void flag(const char* key, A&&...) { add(key, "INTEGER"); }
    template <class... A> void numbers(const char* key, A&&...) { add(key, "TEXT"); }
    template <class... A> void points(const char* key, A&&...) { add(key, "TEXT"); }

private:
    void add(const char* key, const char* type) { columns.push_back(EntityColumn{key, type}); }
};

/// Writer side of visitFields for the typed tables: cell i is the i-th field. Lists are the JSON writer's
/// own text.
class CellWriter {
public:
    explicit CellWriter(CellSink& sink) : m_sink(sink) {}
    void text(const char*, const std::string& v) { m_sink.text(m_i++, v); }
    void texts(const char* key, const std::vector<std::string>& v) { asJson(key, [&](JsonWriter& w) { w.texts(key, v); }); }
    void ref(const char* key, const std::string& v, EntityRef) { text(key, v); }
    void refList(const char* key, const std::vector<std::string>& v, EntityKind) { texts(key, v); }
    void endpoint(const char* key, const std::string& v) { text(key, v); }
    void catalogRef(const char* key, const std::string& v, const char*, bool = false) { text(key, v); }
    void catalogRefList(const char* key, const std::vector<std::string>& v, const char*) { texts(key, v); }
    void choice(const char* key, const std::string& v, std::initializer_list<const char*>) { text(key, v); }
    void choiceList(const char* key, const std::vector<std::string>& v, std::initializer_list<const char*>) {
        texts(key, v);
    }
    void number(const char*, double v, Bounds) { m_sink.real(m_i++, v); }
    template <class Q> void quantity(const char*, const Q& q, Bounds) { m_sink.real(m_i++, q.value()); }
    void optionalNumber(const char*, const std::optional<double>& v, Bounds) {
        v ? m_sink.real(m_i++, *v) : m_sink.null(m_i++);
    }
    template <class Q> void optionalQuantity(const char*, const std::optional<Q>& q, Bounds) {
        q ? m_sink.real(m_i++, q->value()) : m_sink.null(m_i++);
    }
    void integer(const char*, int v, Bounds) { m_sink.integer(m_i++, v); }
    void flag(const char*, bool v) { m_sink.integer(m_i++, v ? 1 : 0); }
    void numbers(const char* key, const std::vector<double>& v, Bounds b) {
        asJson(key, [&](JsonWriter& w) { w.numbers(key, v, b); });
    }
    void points(const char* key, const std::vector<Point2>& v) { asJson(key, [&](JsonWriter& w) { w.points(key, v); }); }

private:
    template <class Fn> void asJson(const char* key, Fn&& fn) {
        JsonWriter w;
        fn(w);
        m_sink.ownedText(m_i++, w.out[key].dump());
    }
    CellSink& m_sink;
    int m_i = 0;
};

/// Reader side of visitFields for the typed tables, with the JSON reader's checks and messages. Lists go
/// through the JSON reader itself.
class CellReader {
public:
    CellReader(const CellSource& row, InputLocation where, std::optional<EntityKind> kind = std::nullopt)
        : m_row(row), m_where(std::move(where)), m_kind(kind) {}

    void text(const char* key, std::string& v) {
        if (const int c = column(key); c >= 0) {
            requireType(c, m_row.type(c) == CellSource::Type::Text, key, "a string");
            v = textCell(c, key);
        }
        if (isDateField(key))
            if (auto problem = calendarDateProblem(v); !problem.empty()) throw InputError(at(key), problem);
        if (std::string_view(key) == "id") {
            checkId(v, at(key));
            m_where.entityId = v;
        }
        if (std::string_view(key) == "name") m_where.entityName = v;
    }
    void texts(const char* key, std::vector<std::string>& v) {
        viaJson(key, [&](JsonReader& r) { r.texts(key, v); });
    }
    void ref(const char* key, std::string& v, EntityRef) { text(key, v); }
    void refList(const char* key, std::vector<std::string>& v, EntityKind) { texts(key, v); }
    void endpoint(const char* key, std::string& v) { text(key, v); }
    void catalogRef(const char* key, std::string& v, const char*, bool = false) { text(key, v); }
    void catalogRefList(const char* key, std::vector<std::string>& v, const char*) { texts(key, v); }
    /// Through the JSON reader, which also checks a default kept when the column is missing.
    void choice(const char* key, std::string& v, std::initializer_list<const char*> allowed) {
        ojson one = ojson::object();
        if (const int c = column(key); c >= 0) {
            requireType(c, m_row.type(c) == CellSource::Type::Text, key, "a string");
            one[key] = textCell(c, key);
        }
        JsonReader r(one, m_where);
        r.choice(key, v, allowed);
    }
    void choiceList(const char* key, std::vector<std::string>& v, std::initializer_list<const char*> allowed) {
        viaJson(key, [&](JsonReader& r) { r.choiceList(key, v, allowed); });
    }
    void number(const char* key, double& v, Bounds b) {
        if (const int c = column(key); c >= 0) v = readNumber(c, key, b);
    }
    template <class Q> void quantity(const char* key, Q& q, Bounds b) {
        if (const int c = column(key); c >= 0) q = Q::from_value(readNumber(c, key, b));
    }
    void optionalNumber(const char* key, std::optional<double>& v, Bounds b) {
        if (const int c = column(key); c >= 0) {
            if (m_row.type(c) == CellSource::Type::Null)
                v.reset();
            else
                v = readNumber(c, key, b);
        }
    }
    template <class Q> void optionalQuantity(const char* key, std::optional<Q>& q, Bounds b) {
        if (const int c = column(key); c >= 0) {
            if (m_row.type(c) == CellSource::Type::Null)
                q.reset();
            else
                q = Q::from_value(readNumber(c, key, b));
        }
    }
    void integer(const char* key, int& v, Bounds b) {
        if (column(key) >= 0) viaJson(key, [&](JsonReader& r) { r.integer(key, v, b); });
    }
    void flag(const char* key, bool& v) {
        if (const int c = column(key); c >= 0) {
            const bool ok = m_row.type(c) == CellSource::Type::Integer &&
                            (m_row.integer(c) == 0 || m_row.integer(c) == 1);
            if (!ok) {
                const char* found = m_row.type(c) == CellSource::Type::Integer ? "number" : cellTypeName(m_row.type(c));
                throw InputError(at(key), std::string("expected true or false, found ") + found);
            }
            v = m_row.integer(c) == 1;
        }
    }
    void numbers(const char* key, std::vector<double>& v, Bounds b) {
        viaJson(key, [&](JsonReader& r) { r.numbers(key, v, b); });
    }
    void points(const char* key, std::vector<Point2>& v) {
        viaJson(key, [&](JsonReader& r) { r.points(key, v); });
    }

    /// Rejects columns the entity does not have (a table from another build of the same schema version).
    void rejectUnknown() const {
        for (int c = 0; c < m_row.columnCount(); ++c)
            if (c >= 64 || !(m_matched >> c & 1))
                if (std::none_of(m_visited.begin(), m_visited.end(),
                                 [&](const char* v) { return std::strcmp(v, m_row.columnName(c)) == 0; }))
                    throw InputError(at(m_row.columnName(c)),
                                     "unknown field" + didYouMean(m_row.columnName(c),
                                                                  std::vector<std::string>(m_visited.begin(),
                                                                                           m_visited.end())));
    }

private:
    /// The column of `key`, or -1. Tables list columns in visitFields order: the next column is tried first.
    int column(const char* key) {
        m_visited.push_back(key);
        const int n = m_row.columnCount();
        int c = m_next;
        if (c >= n || std::strcmp(m_row.columnName(c), key) != 0) {
            c = 0;
            while (c < n && std::strcmp(m_row.columnName(c), key) != 0) ++c;
            if (c == n) return -1;
        }
        if (c < 64) m_matched |= std::uint64_t{1} << c;
        m_next = c + 1;
        return c;
    }
    InputLocation at(const char* key) const {
        InputLocation w = m_where;
        w.field = key;
        return w;
    }
    void requireType(int c, bool ok, const char* key, const char* expected) const {
        if (!ok)
            throw InputError(at(key), std::string("expected ") + expected + ", found " + cellTypeName(m_row.type(c)));
    }
    /// A TEXT cell, which must be UTF-8 as JSON text is: a design keeps only strings its JSON writer writes.
    std::string textCell(int c, const char* key) const {
        std::string t = m_row.text(c);
        if (const size_t bad = invalidUtf8(t); bad != std::string::npos)
            throw InputError(at(key), "text is not valid UTF-8 (byte " + std::to_string(bad + 1) + " of " +
                                          std::to_string(t.size()) + ")");
        return t;
    }
    /// The JSON reader's number checks on a numeric cell (a text cell is not a number).
    double readNumber(int c, const char* key, Bounds b) {
        const auto t = m_row.type(c);
        if (t != CellSource::Type::Integer && t != CellSource::Type::Real) requireType(c, false, key, "a number");
        const double d = t == CellSource::Type::Integer ? static_cast<double>(m_row.integer(c)) : m_row.real(c);
        if (std::isfinite(d) && d >= b.min && d <= b.max) return d; // the common case, without a JSON value
        ojson one = ojson::object();
        one[key] = d;
        double checked = d;
        JsonReader r(one, m_where);
        r.number(key, checked, b); // throws the JSON reader's message
        return checked;
    }
    /// Reads a cell through the JSON reader: a TEXT cell holds JSON (lists), other cells are JSON scalars.
    template <class Fn> void viaJson(const char* key, Fn&& fn) {
        const int c = column(key);
        if (c < 0) return;
        ojson value;
        switch (m_row.type(c)) {
        case CellSource::Type::Null: value = nullptr; break;
        case CellSource::Type::Integer: value = m_row.integer(c); break;
        case CellSource::Type::Real: value = m_row.real(c); break;
        case CellSource::Type::Blob: requireType(c, false, key, "JSON text"); break;
        case CellSource::Type::Text: {
            const std::string t = textCell(c, key);
            const bool list = !t.empty() && t.front() == '[';
            if (!list) {
                value = t; // a string (choice)
                break;
            }
            try {
                value = parseJson(t);
            } catch (const nlohmann::json::exception& e) {
                throw InputError(at(key), "damaged list: " + jsonErrorText(e));
            }
        }
        }
        ojson one = ojson::object();
        one[key] = std::move(value);
        JsonReader r(one, m_where, m_kind);
        fn(r);
    }

    const CellSource& m_row;
    InputLocation m_where;
    std::optional<EntityKind> m_kind; // for the ranges of fields without Bounds (points)
    int m_next = 0;
    std::uint64_t m_matched = 0;
    std::vector<const char*> m_visited;
};

/// Collects every reference of an entity for validation.
class RefChecker : public ReferenceFieldsOnly { // value fields are not references: ignored
public:
    RefChecker(const EntityIndex& index, const Catalog* catalog, InputLocation where)
        : m_index(index), m_catalog(catalog), m_where(std::move(where)) {}
    void text(const char* key, const std::string& v) {
        if (std::string_view(key) == "id") m_where.entityId = v;
        if (std::string_view(key) == "name") m_where.entityName = v;
    }
    void ref(const char* key, const std::string& v, EntityRef r) {
        if (v.empty()) {
            if (!r.optional) throw InputError(at(key), "a " + std::string(entityKindName(r.kind)) + " is required");
            return;
        }
        checkKind(key, v, {r.kind});
    }
    void refList(const char* key, const std::vector<std::string>& v, EntityKind kind) {
        for (const auto& id : v) checkKind(key, id, {kind});
    }
    void endpoint(const char* key, const std::string& v) {
        checkKind(key, v, {EntityKind::Site, EntityKind::Building});
    }
    void catalogRef(const char* key, const std::string& v, const char* category, bool optional = false) {
        if (v.empty()) {
            if (!optional) throw InputError(at(key), std::string("a ") + category + " catalog item is required");
            return;
        }
        if (!m_catalog) return;
        const auto* item = m_catalog->find(v);
        if (!item) throw InputError(at(key), "unknown catalog item '" + v + "'");
        if (item->category != category)
            throw InputError(at(key), "catalog item '" + v + "' is a " + item->category + " item, expected " +
                                          category);
    }
    void catalogRefList(const char* key, const std::vector<std::string>& v, const char* category) {
        for (const auto& id : v) catalogRef(key, id, category);
    }
    const InputLocation& where() const { return m_where; }

private:
    InputLocation at(const char* key) const {
        InputLocation w = m_where;
        w.field = key;
        return w;
    }
    void checkKind(const char* key, const std::string& id, std::initializer_list<EntityKind> kinds) {
        const auto slot = m_index.find(id);
        if (!slot) throw InputError(at(key), "refers to unknown id '" + id + "'");
        std::string expected;
        for (auto k : kinds) {
            if (slot->kind == k) return;
            expected += expected.empty() ? "" : " or ";
            expected += entityKindName(k);
        }
        throw InputError(at(key), "'" + id + "' is a " + std::string(entityKindName(slot->kind)) + ", expected a " +
                                      expected);
    }
    const EntityIndex& m_index;
    const Catalog* m_catalog;
    InputLocation m_where;
};

} // namespace

template <class Entity> ojson entityToJson(const Entity& entity) {
    JsonWriter w;
    const_cast<Entity&>(entity).visitFields(w); // visitFields is shared with readers; the writer only reads
    return std::move(w.out);
}

template <class Entity> Entity entityFromJson(const ojson& j, const std::string& file) {
    Entity e;
    JsonReader r(j, InputLocation{file, std::string(entityKindName(Entity::kKind)), "", "", ""}, Entity::kKind);
    e.visitFields(r);
    r.rejectUnknown();
    return e;
}

template <class Entity> std::vector<EntityColumn> entityColumns() {
    ColumnLister l;
    Entity().visitFields(l);
    return std::move(l.columns);
}

template <class Entity> void entityToCells(const Entity& entity, CellSink& sink) {
    CellWriter w(sink);
    const_cast<Entity&>(entity).visitFields(w); // the writer only reads
}

template <class Entity> Entity entityFromCells(const CellSource& row, const std::string& file) {
    Entity e;
    CellReader r(row, InputLocation{file, std::string(entityKindName(Entity::kKind)), "", "", ""}, Entity::kKind);
    e.visitFields(r);
    r.rejectUnknown();
    return e;
}

#define CTWIN_INSTANTIATE(T)                                                                                       \
    template ojson entityToJson<T>(const T&);                                                                      \
    template T entityFromJson<T>(const ojson&, const std::string&);                                                \
    template std::vector<EntityColumn> entityColumns<T>();                                                         \
    template void entityToCells<T>(const T&, CellSink&);                                                           \
    template T entityFromCells<T>(const CellSource&, const std::string&);
CTWIN_INSTANTIATE(Site)
CTWIN_INSTANTIATE(Building)
CTWIN_INSTANTIATE(DataHall)
CTWIN_INSTANTIATE(PowerFeed)
CTWIN_INSTANTIATE(CoolingLoop)
CTWIN_INSTANTIATE(Row)
CTWIN_INSTANTIATE(RackPlacement)
CTWIN_INSTANTIATE(Fabric)
CTWIN_INSTANTIATE(StorageTier)
CTWIN_INSTANTIATE(ScaleAcrossLink)
CTWIN_INSTANTIATE(TrainingJob)
CTWIN_INSTANTIATE(InferenceService)
#undef CTWIN_INSTANTIATE

ojson assumptionsToJson(const AssumptionSet& set) {
    ojson out = ojson::object();
    for (const auto& [key, a] : set)
        out[key] = ojson{{"base", a.base},     {"low", a.low},       {"high", a.high},
                         {"unit", a.unit},     {"source", a.source}, {"estimate", a.estimate}};
    return out;
}

AssumptionSet assumptionsFromJson(const ojson& j, const std::string& file) { return assumptionsFromJson(j, file, false); }

AssumptionSet assumptionsFromJson(const ojson& j, const std::string& file, bool withRange) {
    if (!j.is_object())
        throw InputError(InputLocation{file, "", "", "", "assumptions"}, "expected an object of assumptions");
    AssumptionSet set;
    for (const auto& item : j.items()) { // no structured binding: clang 14 cannot capture one in a lambda
        const std::string& key = item.key();
        const ojson& v = item.value();
        InputLocation where{file, "assumption", key, "", ""};
        if (!v.is_object()) throw InputError(where, "expected {base, low, high, unit, source}");
        Assumption a;
        auto num = [&](const char* k, double& out) {
            where.field = k;
            if (!v.contains(k) || !v[k].is_number()) throw InputError(where, "missing or not a number");
            out = v[k].get<double>();
            if (!std::isfinite(out)) throw InputError(where, "value is not finite");
        };
        num("base", a.base);
        num("low", a.low);
        num("high", a.high);
        where.field = "base";
        if (!(a.low <= a.base && a.base <= a.high))
            throw InputError(where, "range must satisfy low <= base <= high (" + formatNumber(a.low) + ", " +
                                        formatNumber(a.base) + ", " + formatNumber(a.high) + ")");
        if (withRange) {
            // data/assumptions.json: every assumption declares its valid range (FORMAT.md §2).
            num("min", a.min);
            num("max", a.max);
            where.field = "min";
            if (!(a.min <= a.low && a.high <= a.max))
                throw InputError(where, "valid range must satisfy min <= low <= base <= high <= max (" +
                                            formatNumber(a.min) + ", " + formatNumber(a.low) + ", " +
                                            formatNumber(a.base) + ", " + formatNumber(a.high) + ", " +
                                            formatNumber(a.max) + ")");
        }
        for (const auto& [k, fieldValue] : v.items()) {
            where.field = k;
            if (k == "unit" || k == "source") {
                if (!fieldValue.is_string()) throw InputError(where, "expected a string");
                (k == "unit" ? a.unit : a.source) = fieldValue.get<std::string>();
            } else if (k == "estimate") {
                if (!fieldValue.is_boolean()) throw InputError(where, "expected true or false");
                a.estimate = fieldValue.get<bool>();
            } else if (k == "whole" && withRange) {
                // data/assumptions.json: only whole numbers are valid (FORMAT.md §2), e.g. horizon_years.
                if (!fieldValue.is_boolean()) throw InputError(where, "expected true or false");
                a.whole = fieldValue.get<bool>();
                where.field = "base";
                for (const double x : {a.base, a.low, a.high, a.min, a.max})
                    if (a.whole && x != std::floor(x))
                        throw InputError(where, "a whole-number assumption needs whole base, low, high, min "
                                                "and max, found " +
                                                    formatNumber(x));
            } else if (!withRange && (k == "min" || k == "max" || k == "whole")) {
                throw InputError(where, "a design cannot change an assumption's valid range (data/assumptions.json "
                                        "sets it); give base, low and high only");
            } else if (k != "base" && k != "low" && k != "high" && k != "min" && k != "max") {
                throw InputError(where, "unknown field" +
                                            didYouMean(k, {"base", "low", "high", "unit", "source", "estimate"}));
            }
        }
        set[key] = std::move(a);
    }
    return set;
}

AssumptionSet loadAssumptionsFile(const std::string& path) {
    const ojson doc = readJsonFile(path);
    if (!doc.is_object() || !doc.contains("assumptions"))
        throw InputError(InputLocation{path, "", "", "", "assumptions"}, "missing object 'assumptions'");
    return assumptionsFromJson(doc["assumptions"], path, true);
}

ojson projectInfoToJson(const ProjectInfo& info) {
    JsonWriter w;
    const_cast<ProjectInfo&>(info).visitFields(w);
    if (info.id.empty()) w.out["id"] = kDefaultProjectId; // the reader's rule for a design without an id
    return std::move(w.out);
}

ProjectInfo projectInfoFromJson(const ojson& j, const std::string& file) {
    ProjectInfo info;
    JsonReader r(j, InputLocation{file, "project", "", "", ""});
    info.visitFields(r);
    r.rejectUnknown();
    return info;
}

ojson projectToJson(const Project& project) {
    ojson out = ojson::object();
    out["format"] = kDesignFormat;
    out["schema_version"] = kSchemaVersion;
    out["project"] = projectInfoToJson(project.info);
    out["assumptions"] = assumptionsToJson(project.assumptions);
    project.forEachCollection([&](const auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        ojson arr = ojson::array();
        for (const auto& e : c) arr.push_back(entityToJson(e));
        out[std::string(entityCollectionKey(Entity::kKind))] = std::move(arr);
    });
    return out;
}

Project projectFromJson(const ojson& j, const std::string& file, const Catalog* catalog) {
    const InputLocation top{file, "", "", "", ""};
    auto topField = [&](const char* f) { return InputLocation{file, "", "", "", f}; };
    if (!j.is_object()) throw InputError(top, "a design must be a JSON object");
    if (!j.contains("format") || j["format"] != kDesignFormat)
        throw InputError(topField("format"), std::string("not a ClusterTwin design (expected \"") + kDesignFormat +
                                                 "\")");
    if (!j.contains("schema_version") || !j["schema_version"].is_number_integer())
        throw InputError(topField("schema_version"), "missing integer schema_version");
    // Read exactly: 4294967297 must not wrap to 1, nor 2^64-1 to -1.
    const auto& sv = j["schema_version"];
    const bool small = sv.is_number_unsigned() ? sv.get<std::uint64_t>() <= 1000u
                                               : sv.get<std::int64_t>() >= -1000 && sv.get<std::int64_t>() <= 1000;
    if (!small) throw InputError(topField("schema_version"), "invalid schema version " + sv.dump());
    const int version = static_cast<int>(sv.get<std::int64_t>());
    if (version > kSchemaVersion)
        throw InputError(topField("schema_version"),
                         "file has schema version " + std::to_string(version) + ", newer than this build supports (" +
                             std::to_string(kSchemaVersion) + "); update ClusterTwin to open it");
    if (version < 1) throw InputError(topField("schema_version"), "invalid schema version " + std::to_string(version));

    if (version < kSchemaVersion) {
        ojson upgraded = j;
        for (auto kind : kAllEntityKinds) {
            const std::string key(entityCollectionKey(kind));
            if (upgraded.contains(key) && upgraded[key].is_array())
                for (auto& e : upgraded[key])
                    migrateEntityFromSchema1(kind, e);
        }
        upgraded["schema_version"] = kSchemaVersion;
        return projectFromJson(upgraded, file, catalog);
    }

    Project p;
    std::set<std::string> known = {"format", "schema_version", "project", "assumptions"};
    if (j.contains("project"))
        p.info = projectInfoFromJson(j["project"], file);
    else
        p.info.id = kDefaultProjectId; // the writer emits the same id (projectInfoToJson)
    if (j.contains("assumptions")) p.assumptions = assumptionsFromJson(j["assumptions"], file);
    p.forEachCollection([&](auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        const std::string key(entityCollectionKey(Entity::kKind));
        known.insert(key);
        if (!j.contains(key)) return;
        if (!j[key].is_array()) throw InputError(topField(key.c_str()), "expected an array");
        if (j[key].size() > kMaxDesignEntities)
            throw InputError(topField(key.c_str()), std::to_string(j[key].size()) + " entities, more than the limit of " +
                                                        std::to_string(kMaxDesignEntities) + " per design");
        c.reserve(j[key].size());
        for (const auto& e : j[key]) c.push_back(entityFromJson<Entity>(e, file));
    });
    for (const auto& [k, _] : j.items())
        if (!known.count(k))
            throw InputError(topField(k.c_str()),
                             "unknown top-level key" +
                                 didYouMean(k, std::vector<std::string>(known.begin(), known.end())));
    if (p.entityCount() > kMaxDesignEntities)
        throw InputError(top, std::to_string(p.entityCount()) + " entities, more than the limit of " +
                                  std::to_string(kMaxDesignEntities) + " per design");
    validateProject(p, file, catalog);
    return p;
}

void migrateEntityFromSchema1(EntityKind kind, ojson& body) {
    if (!body.is_object()) return; // the reader reports it with its location
    for (const auto& m : kSchema1ZeroMeansAbsent)
        if (m.kind == kind)
            if (auto it = body.find(m.field); it != body.end() && it->is_number() && it->get<double>() == 0.0)
                *it = nullptr;
}

namespace {
/// Checks of one entity that relate its own fields to each other (references are RefChecker's). Run by
/// validateProject over the document and by validateEntities over an edit, in the same order.
void checkShape(const Fabric& f, const std::string& file) {
    if (f.oversubscription.size() + 1 != static_cast<size_t>(f.tiers) && !f.oversubscription.empty())
        throw InputError(InputLocation{file, "fabric", f.id, f.name, "oversubscription"},
                         "needs one ratio per tier boundary: " + std::to_string(f.tiers - 1) + " for " +
                             std::to_string(f.tiers) + " tiers, found " +
                             std::to_string(f.oversubscription.size()));
}
void checkShape(const ScaleAcrossLink& l, const std::string& file) {
    // A link joins two places; from == to has no route and used to price a zero-length link.
    if (!l.from.empty() && l.from == l.to)
        throw InputError(InputLocation{file, "link", l.id, l.name, "to"},
                         "'" + l.to + "' is also the link's 'from': a scale-across link joins two different "
                                      "sites or buildings");
}
void checkShape(const RackPlacement& r, const std::string& file) {
    // Two cords into one feed are not a second feed: the second is another feed or none.
    if (!r.feedA.empty() && r.feedA == r.feedB)
        throw InputError(InputLocation{file, "rack", r.id, r.name, "feed_b"},
                         "'" + r.feedB + "' is also the rack's feed_a: feed_b must be a different power feed, "
                                         "or \"\" for a single-corded rack");
}
template <class Entity> void checkShape(const Entity&, const std::string&) {}
} // namespace

double rackTypeGpus(const Catalog& catalog, const std::string& rackType) {
    const auto* t = catalog.find(rackType);
    const auto* gpus = t && t->category == "racks" ? t->find("gpus") : nullptr;
    return gpus ? gpus->base : 0.0; // a network rack holds none
}

void checkGpuTotal(const Project& project, double gpus, const std::string& file) {
    // A design beyond 10 million GPUs is a typo, not a plan; refuse before the engine allocates for it.
    constexpr double kMaxGpus = fieldRange(EntityKind::TrainingJob, "gpus").max; // 10 million
    if (gpus > kMaxGpus)
        throw InputError(InputLocation{file, "project", project.info.id, project.info.name, "racks"},
                         "the design holds " + formatNumber(gpus) + " GPUs, more than the supported " +
                             formatNumber(kMaxGpus));
}

void validateProject(const Project& project, const std::string& file, const Catalog* catalog) {
    EntityIndex index(project);
    if (!index.duplicates().empty()) {
        const auto& duplicate = index.duplicates().front(); // no structured binding (lambda capture, clang 14)
        const auto& id = duplicate.first;
        const auto& slot = duplicate.second;
        std::string name;
        project.withCollection(slot.kind, [&](const auto& c) { name = c[slot.index].name; });
        throw InputError(InputLocation{file, std::string(entityKindName(slot.kind)), id, name, "id"},
                         "duplicate id: ids must be unique in the document");
    }
    project.forEachCollection([&](const auto& c) {
        using Entity = typename std::decay_t<decltype(c)>::value_type;
        for (const auto& e : c) {
            RefChecker checker(index, catalog,
                               InputLocation{file, std::string(entityKindName(Entity::kKind)), "", "", ""});
            const_cast<Entity&>(e).visitFields(checker);
        }
    });
    project.forEachCollection([&](const auto& c) {
        for (const auto& e : c)
            checkShape(e, file);
    });
    if (catalog) {
        double gpus = 0.0;
        for (const auto& r : project.racks)
            gpus += rackTypeGpus(*catalog, r.rackType);
        checkGpuTotal(project, gpus, file);
    }
}

void validateEntities(const Project& project, const EntityIndex& index, std::vector<EntitySlot> slots,
                      const std::string& file, const Catalog* catalog) {
    // Document order, each entity once: the first problem found is the one validateProject reports.
    std::sort(slots.begin(), slots.end(), [](const EntitySlot& a, const EntitySlot& b) {
        return a.kind != b.kind ? a.kind < b.kind : a.index < b.index;
    });
    slots.erase(std::unique(slots.begin(), slots.end(),
                            [](const EntitySlot& a, const EntitySlot& b) {
                                return a.kind == b.kind && a.index == b.index;
                            }),
                slots.end());
    for (const auto& slot : slots)
        project.withCollection(slot.kind, [&](const auto& c) {
            using Entity = typename std::decay_t<decltype(c)>::value_type;
            RefChecker checker(index, catalog,
                               InputLocation{file, std::string(entityKindName(Entity::kKind)), "", "", ""});
            const_cast<Entity&>(c[slot.index]).visitFields(checker);
        });
    for (const auto& slot : slots)
        project.withCollection(slot.kind, [&](const auto& c) { checkShape(c[slot.index], file); });
}

namespace {
/// "line L, column C" of byte `offset` in `text` (both 1-based).
std::string lineColumn(const std::string& text, size_t offset) {
    offset = std::min(offset, text.size());
    size_t line = 1, lineStart = 0;
    for (size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') ++line, lineStart = i + 1;
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - lineStart + 1);
}
} // namespace

ojson readJsonFile(const std::string& path, std::uint64_t limitBytes) {
    return parseJsonText(readInputFile(path, limitBytes), path);
}

ojson parseJsonText(const std::string& text, const std::string& file) {
    const InputLocation where{file, "", "", "", ""};
    try {
        // The quick parser first; anything unusual (and every error) by nlohmann. The entity limit is
        // checked while reading, before a DOM of millions of entities is built.
        JsonLimits limits;
        limits.rootArrayElements = kMaxDesignEntities;
        return parseJson(text, limits);
    } catch (const JsonLimitExceeded& e) {
        throw InputError(where, "more than " + std::to_string(e.limit()) +
                                    " entities (elements of the top-level arrays), the limit per design; "
                                    "reading stopped there");
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(where, "malformed JSON: " + jsonErrorText(e));
    } catch (const nlohmann::json::out_of_range& e) {
        // A number too large for a double (1e400): nlohmann names the literal but not where it is.
        std::string message = e.what();
        std::string at;
        const auto q1 = message.find('\''), q2 = message.rfind('\'');
        if (q1 != std::string::npos && q2 > q1) {
            const std::string literal = message.substr(q1 + 1, q2 - q1 - 1);
            if (const auto pos = text.find(literal); pos != std::string::npos) at = " at " + lineColumn(text, pos);
            message = "number " + literal + " is out of range (beyond a double)";
        }
        throw InputError(where, "malformed JSON" + at + ": " + message);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(where, "malformed JSON: " + jsonErrorText(e));
    }
}

std::string dumpJson(const ojson& j) { return j.dump(2) + "\n"; }

Project loadProjectJson(const std::string& path, const Catalog* catalog) {
    return projectFromJson(readJsonFile(path), path, catalog);
}

unsigned newFileMode(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) return st.st_mode & 07777; // keep the mode of the file we replace
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask; // what open(2) would give a new file
}

void writeTextFileAtomic(const std::string& path, const std::string& text) { writeFileAtomic(path, text); }

} // namespace ctwin::model
