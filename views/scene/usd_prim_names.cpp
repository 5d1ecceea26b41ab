#include "usd_prim_names.h"

namespace ctwin::views {

namespace {

bool isAsciiLetter(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool isAsciiDigit(unsigned char c) {
    return c >= '0' && c <= '9';
}

} // namespace

std::string UsdPrimNames::sanitize(const std::string& raw, const std::string& fallback) {
    std::string out;
    out.reserve(raw.size() + 1);
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (isAsciiLetter(c) || isAsciiDigit(c) || c == '_') {
            out += static_cast<char>(c);
        } else if (c >= 0xc0) {
            // A UTF-8 lead byte: the whole sequence becomes one underscore (continuation bytes are skipped).
            out += '_';
            while (i + 1 < raw.size() && (static_cast<unsigned char>(raw[i + 1]) & 0xc0) == 0x80)
                ++i;
        } else if (c >= 0x80) {
            continue; // a stray continuation byte
        } else {
            out += '_';
        }
    }
    if (out.empty()) return fallback.empty() ? std::string("unnamed") : sanitize(fallback, "unnamed");
    if (isAsciiDigit(static_cast<unsigned char>(out.front()))) out.insert(out.begin(), '_');
    return out;
}

std::string UsdPrimNames::unique(const std::string& parentPath, const std::string& raw,
                                 const std::string& fallback) {
    const std::string base = sanitize(raw, fallback);
    std::string name = base;
    for (int n = 2; !m_taken.insert(parentPath + "/" + name).second; ++n)
        name = base + "_" + std::to_string(n);
    return name;
}

} // namespace ctwin::views
