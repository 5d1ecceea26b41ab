#pragma once
// A small reader of OpenUSD's text format (.usda), enough to check what ClusterTwin writes: the layer's
// metadata, the prim hierarchy (specifier, type, name, metadata such as kind, instanceable and references)
// and the attributes with their values (numbers, strings, tokens, tuples, arrays, paths). OpenUSD itself is
// not packaged for Debian 12, so the export tests (test_usda_export) parse the file back with this. It
// follows the grammar of Pixar's textFileFormat (the .usda lexer and parser) for that subset and throws
// std::runtime_error with the line number on anything else, so a malformed file fails the test.
#include <cctype>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace ctwin::test_support {

struct UsdaValue {
    enum class Kind { None, Number, String, Token, Path, Tuple, Array, Dict };
    Kind kind = Kind::None;
    double number = 0.0;
    std::string text; // string, token or path
    std::vector<UsdaValue> items;
    std::map<std::string, UsdaValue> dict;
};

struct UsdaAttribute {
    std::string type; // "double3", "color3f[]", ...
    bool custom = false, uniform = false;
    UsdaValue value;
};

struct UsdaPrim {
    std::string specifier, typeName, name, path;
    std::map<std::string, UsdaValue> metadata; // list ops keep their prefix: "prepend references"
    std::map<std::string, UsdaAttribute> attributes;
    std::vector<UsdaPrim> children;

    const UsdaPrim* child(const std::string& n) const {
        for (const auto& c : children)
            if (c.name == n) return &c;
        return nullptr;
    }
    const UsdaAttribute* attribute(const std::string& n) const {
        const auto it = attributes.find(n);
        return it == attributes.end() ? nullptr : &it->second;
    }
    /// The number of an attribute; throws when it is missing or not a number.
    double number(const std::string& n) const {
        const auto* a = attribute(n);
        if (!a || a->value.kind != UsdaValue::Kind::Number)
            throw std::runtime_error(path + ": no numeric attribute " + n);
        return a->value.number;
    }
    std::string string(const std::string& n) const {
        const auto* a = attribute(n);
        if (!a || a->value.kind != UsdaValue::Kind::String)
            throw std::runtime_error(path + ": no string attribute " + n);
        return a->value.text;
    }
};

struct UsdaLayer {
    std::string header; // "#usda 1.0"
    std::map<std::string, UsdaValue> metadata;
    std::vector<UsdaPrim> prims;

    const UsdaPrim* find(const std::string& path) const {
        const std::vector<UsdaPrim>* level = &prims;
        const UsdaPrim* found = nullptr;
        std::size_t start = 1;
        while (start <= path.size()) {
            const auto slash = path.find('/', start);
            const std::string name = path.substr(start, slash == std::string::npos ? slash : slash - start);
            found = nullptr;
            for (const auto& p : *level)
                if (p.name == name) found = &p;
            if (!found) return nullptr;
            level = &found->children;
            if (slash == std::string::npos) break;
            start = slash + 1;
        }
        return found;
    }
    /// Every prim, depth first, with `f`.
    void visit(const std::function<void(const UsdaPrim&)>& f) const {
        std::function<void(const UsdaPrim&)> walk = [&](const UsdaPrim& p) {
            f(p);
            for (const auto& c : p.children)
                walk(c);
        };
        for (const auto& p : prims)
            walk(p);
    }
};

namespace usda_detail {

class Parser {
public:
    explicit Parser(const std::string& text) : m_s(text) {}

    UsdaLayer layer() {
        UsdaLayer l;
        const auto eol = m_s.find('\n');
        l.header = m_s.substr(0, eol);
        if (l.header.rfind("#usda ", 0) != 0) fail("not a USDA layer (no #usda header)");
        m_i = eol == std::string::npos ? m_s.size() : eol;
        skip();
        if (peek() == '(') l.metadata = metadataBlock();
        for (skip(); m_i < m_s.size(); skip())
            l.prims.push_back(prim(""));
        return l;
    }

private:
    const std::string& m_s;
    std::size_t m_i = 0;

    [[noreturn]] void fail(const std::string& what) const {
        int line = 1;
        for (std::size_t k = 0; k < m_i && k < m_s.size(); ++k)
            line += m_s[k] == '\n';
        throw std::runtime_error("usda line " + std::to_string(line) + ": " + what);
    }
    void skip() {
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '#') {
                while (m_i < m_s.size() && m_s[m_i] != '\n')
                    ++m_i;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_i;
            } else {
                break;
            }
        }
    }
    char peek() {
        skip();
        return m_i < m_s.size() ? m_s[m_i] : '\0';
    }
    void expect(char c) {
        if (peek() != c) fail(std::string("expected '") + c + "'");
        ++m_i;
    }
    static bool identChar(char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '.';
    }
    std::string identifier() {
        skip();
        const std::size_t start = m_i;
        while (m_i < m_s.size() && identChar(m_s[m_i]))
            ++m_i;
        if (start == m_i) fail("expected an identifier");
        return m_s.substr(start, m_i - start);
    }
    std::string quoted() {
        expect('"');
        std::string out;
        while (m_i < m_s.size() && m_s[m_i] != '"') {
            char c = m_s[m_i++];
            if (c == '\n') fail("newline in a string");
            if (c == '\\') {
                if (m_i >= m_s.size()) fail("unterminated escape");
                const char e = m_s[m_i++];
                switch (e) {
                case 'n':
                    c = '\n';
                    break;
                case 't':
                    c = '\t';
                    break;
                case 'r':
                    c = '\r';
                    break;
                case 'x': {
                    if (m_i + 2 > m_s.size()) fail("short \\x escape");
                    c = static_cast<char>(std::strtol(m_s.substr(m_i, 2).c_str(), nullptr, 16));
                    m_i += 2;
                    break;
                }
                default:
                    c = e;
                }
            }
            out += c;
        }
        if (m_i >= m_s.size()) fail("unterminated string");
        ++m_i;
        return out;
    }
    UsdaValue value() {
        UsdaValue v;
        const char c = peek();
        if (c == '"') {
            v.kind = UsdaValue::Kind::String;
            v.text = quoted();
        } else if (c == '<') {
            ++m_i;
            const auto end = m_s.find('>', m_i);
            if (end == std::string::npos) fail("unterminated path");
            v.kind = UsdaValue::Kind::Path;
            v.text = m_s.substr(m_i, end - m_i);
            m_i = end + 1;
        } else if (c == '(' || c == '[') {
            const char close = c == '(' ? ')' : ']';
            v.kind = c == '(' ? UsdaValue::Kind::Tuple : UsdaValue::Kind::Array;
            ++m_i;
            while (peek() != close) {
                v.items.push_back(value());
                if (peek() == ',')
                    ++m_i;
                else if (peek() != close)
                    fail("expected ',' or closing bracket");
            }
            ++m_i;
        } else if (c == '{') {
            v.kind = UsdaValue::Kind::Dict;
            ++m_i;
            while (peek() != '}') {
                identifier(); // the value's type
                const std::string key = peek() == '"' ? quoted() : identifier();
                expect('=');
                v.dict[key] = value();
            }
            ++m_i;
        } else if (c == '-' || c == '+' || std::isdigit(static_cast<unsigned char>(c))) {
            char* end = nullptr;
            v.kind = UsdaValue::Kind::Number;
            v.number = std::strtod(m_s.c_str() + m_i, &end);
            if (end == m_s.c_str() + m_i) fail("bad number");
            m_i = static_cast<std::size_t>(end - m_s.c_str());
        } else {
            v.kind = UsdaValue::Kind::Token;
            v.text = identifier();
            // Booleans stay tokens ("true", "false"), with their number 1 or 0 as well.
            v.number = v.text == "true" ? 1.0 : 0.0;
        }
        return v;
    }
    std::map<std::string, UsdaValue> metadataBlock() {
        std::map<std::string, UsdaValue> m;
        expect('(');
        while (peek() != ')') {
            std::string key =
                peek() == '"' ? (static_cast<void>(quoted()), std::string("comment")) : identifier();
            if (key == "comment") continue; // a bare string in a metadata block is a comment
            if (key == "prepend" || key == "append" || key == "add" || key == "delete" || key == "reorder")
                key += " " + identifier();
            expect('=');
            m[key] = value();
            if (peek() == ';') ++m_i;
        }
        ++m_i;
        return m;
    }
    UsdaPrim prim(const std::string& parent) {
        UsdaPrim p;
        p.specifier = identifier();
        if (p.specifier != "def" && p.specifier != "class" && p.specifier != "over")
            fail("expected def, class or over, got '" + p.specifier + "'");
        if (peek() != '"') p.typeName = identifier();
        p.name = quoted();
        p.path = parent + "/" + p.name;
        if (peek() == '(') p.metadata = metadataBlock();
        expect('{');
        while (peek() != '}') {
            if (m_i >= m_s.size()) fail("unterminated prim " + p.path);
            const std::size_t mark = m_i;
            const std::string word = identifier();
            if (word == "def" || word == "class" || word == "over") {
                m_i = mark;
                p.children.push_back(prim(p.path));
                continue;
            }
            UsdaAttribute a;
            std::string type = word;
            for (;;) {
                if (type == "custom")
                    a.custom = true, type = identifier();
                else if (type == "uniform")
                    a.uniform = true, type = identifier();
                else
                    break;
            }
            if (peek() == '[') {
                ++m_i;
                expect(']');
                type += "[]";
            }
            a.type = type;
            const std::string name = identifier();
            if (peek() == '=') {
                ++m_i;
                a.value = value();
            }
            if (peek() == '(') metadataBlock(); // attribute metadata: not kept
            if (p.attributes.count(name)) fail("attribute " + name + " twice on " + p.path);
            p.attributes.emplace(name, std::move(a));
        }
        ++m_i;
        return p;
    }
};

} // namespace usda_detail

inline UsdaLayer parseUsda(const std::string& text) {
    return usda_detail::Parser(text).layer();
}

} // namespace ctwin::test_support
