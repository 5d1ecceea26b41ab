#include "terminal_text.h"

namespace ctwin::app {

namespace {

constexpr char kHex[] = "0123456789abcdef";

void appendCodePoint(std::string& out, unsigned char c) { // \u00XX: c is U+0000..U+00FF
    out += "\\u00";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

void appendByte(std::string& out, unsigned char c) { // \xNN
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 0xf];
}

/// Bytes of the UTF-8 character a lead byte starts (RFC 3629 §4: C2..DF, E0..EF, F0..F4); 0 for a byte
/// that cannot start one (80..BF continuation bytes, C0 and C1 overlong leads, F5..FF).
size_t sequenceLength(unsigned char lead) {
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

/// Whether `c` may follow `sofar` (a lead byte and any continuation bytes already accepted): RFC 3629 §4's
/// table, which excludes overlong forms, UTF-16 surrogates and code points past U+10FFFF.
bool continues(const std::string& sofar, unsigned char c) {
    if (sofar.size() == 1) {
        const auto lead = static_cast<unsigned char>(sofar[0]);
        if (lead == 0xE0) return c >= 0xA0 && c <= 0xBF;
        if (lead == 0xED) return c >= 0x80 && c <= 0x9F;
        if (lead == 0xF0) return c >= 0x90 && c <= 0xBF;
        if (lead == 0xF4) return c >= 0x80 && c <= 0x8F;
    }
    return c >= 0x80 && c <= 0xBF;
}

/// Appends the escaped form of `in` to `out`; `pending` carries an unfinished character from one call to
/// the next.
void escapeInto(std::string& pending, std::string_view in, std::string& out) {
    for (size_t i = 0; i < in.size();) {
        const auto c = static_cast<unsigned char>(in[i]);
        if (!pending.empty()) {
            if (!continues(pending, c)) { // broken sequence: its bytes escaped, `c` looked at afresh
                for (char p : pending)
                    appendByte(out, static_cast<unsigned char>(p));
                pending.clear();
                continue;
            }
            pending += static_cast<char>(c);
            ++i;
            if (pending.size() == sequenceLength(static_cast<unsigned char>(pending[0]))) {
                if (static_cast<unsigned char>(pending[0]) == 0xC2 && c <= 0x9F)
                    appendCodePoint(out, c); // C2 80..C2 9F: U+0080..U+009F, the C1 controls
                else
                    out += pending;
                pending.clear();
            }
            continue;
        }
        ++i;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
                appendCodePoint(out, c);
            else
                out += static_cast<char>(c);
        } else if (sequenceLength(c) > 0) {
            pending += static_cast<char>(c);
        } else {
            appendByte(out, c);
        }
    }
}

} // namespace

std::string escapeTerminalText(std::string_view text) {
    std::string out, pending;
    out.reserve(text.size());
    escapeInto(pending, text, out);
    for (char p : pending)
        appendByte(out, static_cast<unsigned char>(p));
    return out;
}

void writeUnescaped(std::ostream& stream, std::string_view text) {
    stream.flush();
    std::streambuf* buffer = stream.rdbuf();
    while (auto* filter = dynamic_cast<TerminalTextFilter*>(buffer))
        buffer = filter->target();
    if (buffer) {
        buffer->sputn(text.data(), static_cast<std::streamsize>(text.size()));
        buffer->pubsync();
    }
}

TerminalTextFilter::TerminalTextFilter(std::ostream& stream) : m_stream(stream), m_target(stream.rdbuf()) {
    const auto state = m_stream.rdstate();
    m_stream.rdbuf(this); // rdbuf() clears the state: kept as it was
    m_stream.setstate(state);
}

TerminalTextFilter::~TerminalTextFilter() {
    finish();
    const auto state = m_stream.rdstate(); // a failed write stays visible to whoever checks the stream next
    m_stream.rdbuf(m_target);
    m_stream.setstate(state);
}

void TerminalTextFilter::finish() {
    if (m_pending.empty()) return;
    std::string out;
    for (char p : m_pending)
        appendByte(out, static_cast<unsigned char>(p));
    m_pending.clear();
    if (m_target->sputn(out.data(), static_cast<std::streamsize>(out.size())) !=
        static_cast<std::streamsize>(out.size()))
        m_stream.setstate(std::ios::badbit);
}

bool TerminalTextFilter::put(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    escapeInto(m_pending, text, out);
    return out.empty() || m_target->sputn(out.data(), static_cast<std::streamsize>(out.size())) ==
                              static_cast<std::streamsize>(out.size());
}

TerminalTextFilter::int_type TerminalTextFilter::overflow(int_type c) {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return put(std::string_view(&ch, 1)) ? c : traits_type::eof();
}

std::streamsize TerminalTextFilter::xsputn(const char* s, std::streamsize n) {
    return put(std::string_view(s, static_cast<size_t>(n))) ? n : 0;
}

int TerminalTextFilter::sync() {
    return m_target->pubsync();
}

} // namespace ctwin::app
