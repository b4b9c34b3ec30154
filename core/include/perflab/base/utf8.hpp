// Text that reaches a reader is valid UTF-8: every message core writes may quote bytes it was
// given (a JSON text, a name, a file), and a quote cut in the middle of a character, or a byte
// that is not UTF-8, would reach the page as U+FFFD or break its decoding. These are the rules
// for quoting and converting such text; the wasm bindings use utf16_to_utf8 for JS strings.
// Not for: Unicode normalisation or display width (columns count code points).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace perflab {

// True when `text` is well-formed UTF-8 (no overlong forms, surrogates or values past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` with each byte that is not part of a well-formed UTF-8 character replaced by U+FFFD
// (the rule of the WHATWG decoder); well-formed text is returned unchanged.
std::string valid_utf8(std::string_view text);

// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a
// character (text that is not UTF-8 is cut at `max_bytes`, then made valid).
std::string utf8_prefix(std::string_view text, std::size_t max_bytes);

// The 1-based line ("\n" ends a line) and column, in characters, of byte `offset` of `text`:
// "line 2, column 5".
std::string text_place(std::string_view text, std::size_t offset);

// Up to `max_chars` characters of `text` from byte `offset` as a reader can see them: control
// characters as \n, \t, \r or \u00XX, a byte that is not UTF-8 as \xNN, never a part of a
// character; "..." added when cut. For messages that quote text near an error.
std::string text_excerpt(std::string_view text, std::size_t offset, std::size_t max_chars = 20);

// UTF-16 code units (a JS string) as UTF-8. A surrogate without its other half becomes U+FFFD
// on its own: the unit after it is kept (JavaScript's TextEncoder does the same).
std::string utf16_to_utf8(std::u16string_view text);

}  // namespace perflab
