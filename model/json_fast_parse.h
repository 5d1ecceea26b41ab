#pragma once
#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
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

/// The parse for text from outside the program (files, .ctwin rows, the clipboard, typed values): the
/// quick parser for ordered JSON; otherwise (and for every error) the nesting limit, then nlohmann, whose
/// exceptions pass through unchanged. A key given twice in
/// one object is a parse error: nlohmann would keep the last value silently, so a pasted-in second
/// "x_m" or "wacc" would change the design without a word (RFC 8259 §4: names SHOULD be unique).
template <class Json = nlohmann::ordered_json> Json parseJson(std::string_view text) {
    if constexpr (std::is_same_v<Json, nlohmann::ordered_json>) // the common case, without nlohmann's lexer
        if (auto quick = fastParseJson(text)) return std::move(*quick);
    requireJsonNesting(text);
    std::vector<std::vector<std::string>> open; // the keys of each open object, innermost last
    return Json::parse(text, [&open](int, typename Json::parse_event_t event, Json& parsed) {
        if (event == Json::parse_event_t::object_start) {
            open.emplace_back();
        } else if (event == Json::parse_event_t::object_end) {
            open.pop_back();
        } else if (event == Json::parse_event_t::key) {
            auto& keys = open.back();
            const auto& key = parsed.template get_ref<const std::string&>();
            if (std::find(keys.begin(), keys.end(), key) != keys.end()) throwDuplicateKey(key);
            keys.push_back(key);
        }
        return true;
    });
}

} // namespace ctwin::model
