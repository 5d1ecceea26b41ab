#include "json_fast_parse.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_set>

namespace ctwin::model {

using ojson = nlohmann::ordered_json;

namespace {

/// Thrown inside the parser when the text leaves the accepted subset; fastParseJson turns it into nullopt.
struct Bail {};

/// Length of the UTF-8 sequence at the start of `s` (1 for ASCII), or 0 when it is not one of the forms
/// nlohmann's lexer accepts (RFC 3629: no overlong forms, no surrogates, nothing beyond U+10FFFF).
size_t utf8SequenceLength(std::string_view s) {
    if (s.empty()) return 0;
    const auto c = static_cast<unsigned char>(s[0]);
    if (c < 0x80) return 1;
    auto in = [&](size_t i, unsigned char lo, unsigned char hi) {
        return i < s.size() && static_cast<unsigned char>(s[i]) >= lo && static_cast<unsigned char>(s[i]) <= hi;
    };
    if (c >= 0xC2 && c <= 0xDF) return in(1, 0x80, 0xBF) ? 2 : 0;
    if (c == 0xE0) return in(1, 0xA0, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) ? 3 : 0;
    if (c == 0xED) return in(1, 0x80, 0x9F) && in(2, 0x80, 0xBF) ? 3 : 0;
    if (c == 0xF0) return in(1, 0x90, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    if (c >= 0xF1 && c <= 0xF3) return in(1, 0x80, 0xBF) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    if (c == 0xF4) return in(1, 0x80, 0x8F) && in(2, 0x80, 0xBF) && in(3, 0x80, 0xBF) ? 4 : 0;
    return 0;
}

class FastParser {
public:
    FastParser(std::string_view text, const JsonLimits& limits)
        : m_p(text.data()), m_end(text.data() + text.size()), m_limits(limits) {}

    ojson document() {
        ojson v = value(0);
        skipSpace();
        if (m_p != m_end) throw Bail{};
        return v;
    }

private:
    void skipSpace() {
        while (m_p != m_end && (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t'))
            ++m_p;
    }
    char peek() {
        skipSpace();
        if (m_p == m_end) throw Bail{};
        return *m_p;
    }
    void literal(const char* word) {
        const size_t n = std::strlen(word);
        if (static_cast<size_t>(m_end - m_p) < n || std::memcmp(m_p, word, n) != 0) throw Bail{};
        m_p += n;
    }

    ojson value(int depth) {
        if (depth >= kMaxJsonNesting) throw Bail{}; // nlohmann's path reports it
        switch (peek()) {
        case '{':
            return object(depth);
        case '[':
            return array(depth);
        case '"':
            return ojson(string());
        case 't':
            literal("true");
            return ojson(true);
        case 'f':
            literal("false");
            return ojson(false);
        case 'n':
            literal("null");
            return ojson(nullptr);
        default:
            return number();
        }
    }

    ojson object(int depth) {
        ++m_p; // '{'
        ojson obj = ojson::object();
        std::unordered_set<std::string> seen; // filled only past kLinearKeys members
        if (peek() == '}') {
            ++m_p;
            return obj;
        }
        for (;;) {
            if (peek() != '"') throw Bail{};
            std::string key = string();
            if (peek() != ':') throw Bail{};
            ++m_p;
            // A key given twice in one object is refused (parseJson's message). The ordered map searches
            // linearly; past kLinearKeys members a hash set finds duplicates, so a hostile object of a million
            // keys stays linear.
            auto& members = obj.get_ref<ojson::object_t&>();
            ojson* slot = nullptr;
            if (members.size() < kLinearKeys) {
                const auto [at, added] = members.emplace(std::move(key), nullptr);
                if (!added) throw Bail{};
                slot = &at->second;
                if (members.size() == kLinearKeys)
                    for (const auto& m : members) seen.insert(m.first);
            } else {
                if (!seen.insert(key).second) throw Bail{};
                auto& vec = static_cast<ojson::object_t::Container&>(members);
                vec.emplace_back(std::move(key), nullptr);
                slot = &vec.back().second;
            }
            *slot = value(depth + 1);
            const char c = peek();
            ++m_p;
            if (c == '}') return obj;
            if (c != ',') throw Bail{};
        }
    }

    ojson array(int depth) {
        ++m_p; // '['
        ojson arr = ojson::array();
        if (peek() == ']') {
            ++m_p;
            return arr;
        }
        for (;;) {
            if (depth == 1 && ++m_rootArrayElements > m_limits.rootArrayElements)
                throw JsonLimitExceeded(m_limits.rootArrayElements);
            arr.push_back(value(depth + 1));
            const char c = peek();
            ++m_p;
            if (c == ']') return arr;
            if (c != ',') throw Bail{};
        }
    }

    std::string string() {
        ++m_p; // '"'
        std::string out;
        const char* run = m_p;
        for (;;) {
            if (m_p == m_end) throw Bail{};
            const auto c = static_cast<unsigned char>(*m_p);
            if (c == '"') {
                out.append(run, m_p);
                ++m_p;
                return out;
            }
            if (c < 0x20) throw Bail{}; // control characters are errors (nlohmann's message)
            if (c >= 0x80) {
                utf8(c);
                continue;
            }
            if (c != '\\') {
                ++m_p;
                continue;
            }
            out.append(run, m_p);
            if (++m_p == m_end) throw Bail{};
            switch (*m_p) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            default:
                throw Bail{}; // \u and invalid escapes
            }
            run = ++m_p;
        }
    }

    /// One UTF-8 sequence starting at m_p (lead byte `c`); anything utf8SequenceLength refuses bails.
    void utf8(unsigned char) {
        const size_t n = utf8SequenceLength(std::string_view(m_p, static_cast<size_t>(m_end - m_p)));
        if (n < 2) throw Bail{};
        m_p += n;
    }

    /// JSON's number grammar; integers as nlohmann types them (non-negative: unsigned, negative: signed,
    /// beyond 64 bits: a double), everything else through strtod as nlohmann does.
    ojson number() {
        const char* start = m_p;
        bool negative = false, isFloat = false;
        if (m_p != m_end && *m_p == '-') negative = true, ++m_p;
        auto digits = [&] {
            const char* d = m_p;
            while (m_p != m_end && *m_p >= '0' && *m_p <= '9')
                ++m_p;
            if (m_p == d) throw Bail{};
        };
        if (m_p == m_end) throw Bail{};
        if (*m_p == '0') {
            ++m_p;
        } else {
            digits();
        }
        if (m_p != m_end && *m_p == '.') {
            isFloat = true;
            ++m_p;
            digits();
        }
        if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
            isFloat = true;
            ++m_p;
            if (m_p != m_end && (*m_p == '+' || *m_p == '-')) ++m_p;
            digits();
        }
        const std::string token(start, m_p); // NUL-terminated for strtoX, as nlohmann's token buffer
        char* end = nullptr;
        if (!isFloat) {
            errno = 0;
            if (negative) {
                const long long v = std::strtoll(token.c_str(), &end, 10);
                if (errno == 0 && end == token.c_str() + token.size())
                    return ojson(static_cast<ojson::number_integer_t>(v));
            } else {
                const unsigned long long v = std::strtoull(token.c_str(), &end, 10);
                if (errno == 0 && end == token.c_str() + token.size())
                    return ojson(static_cast<ojson::number_unsigned_t>(v));
            }
        }
        const double d = std::strtod(token.c_str(), &end);
        if (end != token.c_str() + token.size() || !std::isfinite(d))
            throw Bail{}; // 1e400: nlohmann's message
        return ojson(d);
    }

    /// Members an object holds before duplicate keys are found by hash instead of the ordered map's search.
    static constexpr size_t kLinearKeys = 32;

    const char* m_p;
    const char* m_end;
    const JsonLimits& m_limits;
    size_t m_rootArrayElements = 0;
};

} // namespace

std::optional<ojson> fastParseJson(std::string_view text) { return fastParseJson(text, JsonLimits{}); }

std::optional<ojson> fastParseJson(std::string_view text, const JsonLimits& limits) {
    try {
        return FastParser(text, limits).document();
    } catch (const Bail&) {
        return std::nullopt;
    }
}

size_t excessJsonNesting(std::string_view text) {
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i; // the escaped character cannot end the string
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > kMaxJsonNesting) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

void requireJsonNesting(std::string_view text) {
    const size_t at = excessJsonNesting(text);
    if (at == std::string_view::npos) return;
    nlohmann::detail::position_t pos;
    pos.chars_read_total = at + 1;
    for (size_t i = 0; i < at; ++i) {
        if (text[i] == '\n') {
            ++pos.lines_read;
            pos.chars_read_current_line = 0;
        } else {
            ++pos.chars_read_current_line;
        }
    }
    ++pos.chars_read_current_line; // nlohmann counts the offending character too
    throw nlohmann::json::parse_error::create(
        101, pos,
        "syntax error while parsing value - nesting deeper than " + std::to_string(kMaxJsonNesting) +
            " levels (the limit for ClusterTwin JSON inputs)",
        nullptr);
}

size_t invalidUtf8(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const size_t n = utf8SequenceLength(text.substr(i));
        if (n == 0) return i;
        i += n;
    }
    return std::string_view::npos;
}

std::string jsonErrorText(const nlohmann::json::exception& e) {
    std::string text = e.what();
    if (text.rfind("[json.exception.", 0) == 0)
        if (const size_t close = text.find("] "); close != std::string::npos) text.erase(0, close + 2);
    return text;
}

void throwDuplicateKey(const std::string& key) {
    throw nlohmann::json::parse_error::create(
        101, 0, "syntax error while parsing object - key '" + key + "' is given twice in one object", nullptr);
}

} // namespace ctwin::model
