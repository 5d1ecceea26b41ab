#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace ctwin::model {

/// A quick parser for the common case of design files (issue 15 item 4: nlohmann's lexer was half of a
/// `clustertwin-cli evaluate`). It accepts a strict subset of JSON: valid UTF-8, the escapes \" \\ \/ \b
/// \f \n \r \t, numbers that parse to finite doubles, nesting up to 128 levels. For what it accepts it builds
/// exactly the value nlohmann::ordered_json::parse builds (same integer/unsigned/float types, same strtod
/// values, a repeated key keeps its first position and its last value). For anything else (every
/// malformed text, \u escapes, a byte-order mark, 1e400) it returns nullopt and the caller parses with
/// nlohmann, so every error message stays nlohmann's.
std::optional<nlohmann::ordered_json> fastParseJson(std::string_view text);

} // namespace ctwin::model
