#pragma once
// What clustertwin-cli writes to standard output and standard error passes one filter at that boundary
// (main_cli.cpp), because most of it quotes text from files the user opened: design names, entity ids,
// file names, messages that contain them. A name holding ESC [ ... or an OSC sequence (ESC ] 0;title BEL)
// would otherwise drive the terminal: change its title, move the cursor, hide lines, or worse.
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace ctwin::app {

/// `text` with every control character shown as a visible escape:
///  - C0 controls (U+0000..U+001F) except LF and TAB, and DEL (U+007F): `\u001b`, `\u007f`, ...;
///  - C1 controls (U+0080..U+009F, in UTF-8 the bytes C2 80..C2 9F; U+009B is a one-character CSI):
///    `\u009b`, ...;
///  - a byte that is not part of well-formed UTF-8 (RFC 3629; an 8-bit terminal reads 0x80..0x9F as C1):
///    `\xNN`.
/// LF and TAB pass (multi-line output, tab-separated tables); so does all other UTF-8 text. The `\uXXXX` form
/// is the JSON escape of the same character, so `--json` output stays valid JSON with the same values (its
/// strings already escape C0; C1 and DEL are escaped here). Backslashes are not doubled: an escape is for
/// a person reading, not to be reversed.
std::string escapeTerminalText(std::string_view text);

/// Writes `text` past the filter (for the CLI's own terminal controls: the progress bar's carriage return).
void writeUnescaped(std::ostream& stream, std::string_view text);

/// A stream buffer that passes everything written to `stream` through escapeTerminalText on its way to the
/// buffer `stream` had. Installed by the constructor, removed (original buffer back) by the destructor.
/// Holds back at most the first bytes of an unfinished UTF-8 character between writes.
class TerminalTextFilter : public std::streambuf {
public:
    explicit TerminalTextFilter(std::ostream& stream);
    ~TerminalTextFilter() override;
    TerminalTextFilter(const TerminalTextFilter&) = delete;
    TerminalTextFilter& operator=(const TerminalTextFilter&) = delete;

    /// The buffer the escaped text goes to.
    std::streambuf* target() const { return m_target; }
    /// Writes a held-back unfinished character as `\xNN` escapes.
    void finish();

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    bool put(std::string_view text);

    std::ostream& m_stream;
    std::streambuf* m_target;
    std::string m_pending; // lead bytes of a UTF-8 character not complete yet
};

} // namespace ctwin::app
