#pragma once
#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

namespace ctwin::model {

/// A quick parser for the common case of design files (issue 15 item 4: nlohmann's lexer was half of a
/// `clustertwin-cli evaluate`). It accepts a strict subset of JSON: valid UTF-8, the escapes \" \\ \/ \b
/// \f \n \r \t, numbers that parse to finite doubles, nesting up to kMaxJsonNesting levels. For what it
/// accepts it builds exactly the value nlohmann::ordered_json::parse builds (same integer/unsigned/float
/// types, same strtod values). For anything else (every malformed text, \u escapes, a byte-order mark,
/// 1e400, a key given twice in one object) it returns nullopt and the caller parses with parseJson, so
/// every error message is the same whichever parser reads the text.
std::optional<nlohmann::ordered_json> fastParseJson(std::string_view text);

/// The deepest nesting of arrays and objects a ClusterTwin JSON input may have (README "Limits"). Designs,
/// catalogs and specs nest at most 6 levels. nlohmann's parser is iterative, but copying a value recurses
/// once per level: a 200,000-level array overflowed the stack (exit 139) before this limit.
inline constexpr int kMaxJsonNesting = 64;

/// Byte offset of the first '[' or '{' (outside strings) that opens level kMaxJsonNesting + 1, or npos.
/// One pass; it does not validate the rest of the text.
size_t excessJsonNesting(std::string_view text);

/// Throws nlohmann::json::parse_error (id 101, with line and column) when text nests deeper than
/// kMaxJsonNesting, so callers report it exactly as they report any other malformed JSON.
void requireJsonNesting(std::string_view text);

/// Byte offset of the first byte of `text` that is not part of valid UTF-8 (the forms JSON text allows), or
/// npos. Text read from outside JSON (.ctwin cells) is checked with it: a design keeps only strings that
/// its JSON writer can write.
size_t invalidUtf8(std::string_view text);

/// nlohmann's message without its "[json.exception.parse_error.101] " tag: "parse error at line 1, column
/// 5: syntax error while parsing value - ...", as the user reads it after the file and "malformed JSON: ".
std::string jsonErrorText(const nlohmann::json::exception& e);

/// Throws nlohmann::json::parse_error (id 101) for `key` given twice in one object.
[[noreturn]] void throwDuplicateKey(const std::string& key);

/// Limits a parse applies while it reads, before the value is built (issue 27: ten million `{}` racks
/// were refused only after a 770 MB document had been built).
struct JsonLimits {
    /// Elements of the arrays directly inside the root value, all together: a design's entities.
    std::size_t rootArrayElements = std::numeric_limits<std::size_t>::max();
};

/// Thrown by parseJson when the text exceeds a JsonLimits bound.
class JsonLimitExceeded : public std::runtime_error {
public:
    explicit JsonLimitExceeded(std::size_t limit)
        : std::runtime_error("more than " + std::to_string(limit) + " elements in the top-level arrays"),
          m_limit(limit) {}
    std::size_t limit() const { return m_limit; }

private:
    std::size_t m_limit;
};

/// The quick parser with limits: as fastParseJson, but throws JsonLimitExceeded past `limits`.
std::optional<nlohmann::ordered_json> fastParseJson(std::string_view text, const JsonLimits& limits);

namespace detail {
/// nlohmann's DOM builder (json_sax_dom_parser) with what parseJson adds: a key given twice in one object is
/// a parse error, found with one hash set per open object (linear; nlohmann's parse callback made
/// 200,000 objects in one array take 7.5 s), and members appended without the ordered map's linear search;
/// the root-array element count is checked while reading.
template <class Json> class CheckedDomBuilder {
public:
    using number_integer_t = typename Json::number_integer_t;
    using number_unsigned_t = typename Json::number_unsigned_t;
    using number_float_t = typename Json::number_float_t;
    using string_t = typename Json::string_t;
    using binary_t = typename Json::binary_t;

    CheckedDomBuilder(Json& root, const JsonLimits& limits) : m_root(root), m_limits(limits) {}

    bool null(std::nullptr_t = nullptr) { return add(Json(nullptr)); }
    bool boolean(bool v) { return add(Json(v)); }
    bool number_integer(number_integer_t v) { return add(Json(v)); }
    bool number_unsigned(number_unsigned_t v) { return add(Json(v)); }
    bool number_float(number_float_t v, const string_t&) { return add(Json(v)); }
    bool string(string_t& v) { return add(Json(std::move(v))); }
    bool binary(binary_t& v) { return add(Json(std::move(v))); }
    bool start_object(std::size_t) {
        m_stack.push_back(add(Json(Json::value_t::object)));
        m_keys.emplace_back();
        return true;
    }
    bool key(string_t& k) {
        if (!m_keys.back().insert(k).second) throwDuplicateKey(k);
        m_key = std::move(k);
        return true;
    }
    bool end_object() {
        m_stack.pop_back();
        m_keys.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        m_stack.push_back(add(Json(Json::value_t::array)));
        return true;
    }
    bool end_array() {
        m_stack.pop_back();
        return true;
    }
    template <class Exception> bool parse_error(std::size_t, const std::string&, const Exception& ex) {
        throw ex; // nlohmann's own exception, so messages match every other parse
    }

private:
    /// Places `v` where the parse is (root, array element, object member) and returns its address.
    Json* add(Json v) {
        if (m_stack.empty()) {
            m_root = std::move(v);
            return &m_root;
        }
        Json& parent = *m_stack.back();
        if (parent.is_array()) {
            if (m_stack.size() == 2 && ++m_rootArrayElements > m_limits.rootArrayElements)
                throw JsonLimitExceeded(m_limits.rootArrayElements);
            auto& a = parent.template get_ref<typename Json::array_t&>();
            a.push_back(std::move(v));
            return &a.back();
        }
        auto& o = parent.template get_ref<typename Json::object_t&>();
        if constexpr (requires { typename Json::object_t::Container; }) {
            // nlohmann::ordered_map is a vector of pairs: append (the key is known to be new).
            auto& members = static_cast<typename Json::object_t::Container&>(o);
            members.emplace_back(std::move(m_key), std::move(v));
            return &members.back().second;
        } else {
            return &o.emplace(std::move(m_key), std::move(v)).first->second;
        }
    }

    Json& m_root;
    const JsonLimits& m_limits;
    std::vector<Json*> m_stack;
    std::vector<std::unordered_set<string_t>> m_keys;
    string_t m_key;
    std::size_t m_rootArrayElements = 0;
};
} // namespace detail

/// The parse for text from outside the program (files, .ctwin rows, the clipboard, typed values): the
/// quick parser for ordered JSON; otherwise (and for every error) the nesting limit, then nlohmann's
/// parser into detail::CheckedDomBuilder, whose exceptions pass through unchanged. A key given twice in
/// one object is a parse error: nlohmann would keep the last value silently, so a pasted-in second
/// "x_m" or "wacc" would change the design without a word (RFC 8259 §4: names SHOULD be unique). Past
/// `limits` it throws JsonLimitExceeded. Linear in the text.
template <class Json = nlohmann::ordered_json> Json parseJson(std::string_view text, const JsonLimits& limits = {}) {
    if constexpr (std::is_same_v<Json, nlohmann::ordered_json>) // the common case, without nlohmann's lexer
        if (auto quick = fastParseJson(text, limits)) return std::move(*quick);
    requireJsonNesting(text);
    Json root;
    detail::CheckedDomBuilder<Json> builder(root, limits);
    Json::sax_parse(text, &builder);
    return root;
}

} // namespace ctwin::model
