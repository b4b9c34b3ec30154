// Reading JSON text with core's errors (json_text.hpp). The nesting is measured on the text
// before the library parses it; the library's exceptions are caught by their base class and
// rewritten, so none of them (nor its "[json.exception...]" prefix) leaves core.
#include "perflab/base/json_text.hpp"

#include "perflab/base/utf8.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <new>

namespace perflab {
namespace {

using json = nlohmann::json;

// Where `offset` is in `text`: "line 2, column 5", columns in characters (utf8.hpp).
std::string line_and_column(std::string_view text, std::size_t offset) {
  return text_place(text, offset);
}

bool starts_number(char c) { return c == '-' || (c >= '0' && c <= '9'); }
bool in_number(char c) { return starts_number(c) || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// Where a byte of JSON text stands, as JSON's lexer splits it.
enum class JsonByte { outside, open_quote, in_string, escape, close_quote };

// The one walk over JSON text that every check below shares (the depth, an out-of-range
// number, a lone surrogate, its replacement, a token's start): it tells strings from the rest
// the way JSON's lexer does, a string running from a double quote to the next one that no
// backslash escapes. `visit(i, kind)` is called for the byte at i and returns how many bytes it
// takes (1; 2 for a backslash and the character it escapes; more to step over a \u escape or a
// number), or 0 to stop. A backslash is an escape only when a character follows it.
template <class Visit>
void scan_json_text(std::string_view text, Visit visit) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    JsonByte kind = JsonByte::in_string;
    if (!in_string) {
      in_string = c == '"';
      kind = in_string ? JsonByte::open_quote : JsonByte::outside;
    } else if (c == '"') {
      in_string = false;
      kind = JsonByte::close_quote;
    } else if (c == '\\' && i + 1 < text.size()) {
      kind = JsonByte::escape;
    }
    const std::size_t took = visit(i, kind);
    if (took == 0) return;
    i += took;
  }
}

// The first number outside strings whose value is not a finite double: the one the library
// stopped at, since everything before it parsed. Empty when there is none.
std::string number_out_of_range(std::string_view text) {
  std::string reason;
  scan_json_text(text, [&](std::size_t i, JsonByte kind) -> std::size_t {
    if (kind == JsonByte::escape) return 2;
    if (kind != JsonByte::outside || !starts_number(text[i])) return 1;
    std::size_t end = i;
    while (end < text.size() && in_number(text[end])) ++end;
    const std::string token(text.substr(i, end - i));
    errno = 0;
    const double value = std::strtod(token.c_str(), nullptr);
    if (std::isfinite(value)) return end - i;
    const std::string shown = token.size() > 40 ? token.substr(0, 37) + "..." : token;
    reason = "the number " + shown + " at " + line_and_column(text, i) +
             " is outside the range of a double (magnitudes up to about 1.8e308)";
    return 0;
  });
  return reason;
}

int hex4(std::string_view text, std::size_t at) {
  if (at + 4 > text.size()) return -1;
  int value = 0;
  for (std::size_t k = at; k < at + 4; ++k) {
    const char c = text[k];
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                             : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

// What the escape at `at` (a backslash) is as a UTF-16 surrogate: not one, a high half with its
// low half escaped right after it, or a half alone.
enum class Surrogate { none, paired, lone_high, lone_low };
Surrogate surrogate_escape(std::string_view text, std::size_t at) {
  if (at + 1 >= text.size() || text[at + 1] != 'u') return Surrogate::none;
  const int code = hex4(text, at + 2);
  if (code >= 0xDC00 && code <= 0xDFFF) return Surrogate::lone_low;
  if (code < 0xD800 || code > 0xDBFF) return Surrogate::none;
  const bool paired = at + 7 < text.size() && text[at + 6] == '\\' && text[at + 7] == 'u' &&
                      hex4(text, at + 8) >= 0xDC00 && hex4(text, at + 8) <= 0xDFFF;
  return paired ? Surrogate::paired : Surrogate::lone_high;
}

// The first \u escape in a string that is half of a UTF-16 surrogate pair without its other
// half (the library's "surrogate U+D800..U+DBFF must be followed by ..."), as a sentence with
// its position. Empty when there is none.
std::string lone_surrogate(std::string_view text) {
  std::string reason;
  scan_json_text(text, [&](std::size_t i, JsonByte kind) -> std::size_t {
    if (kind != JsonByte::escape) return 1;
    if (text[i + 1] != 'u') return 2;  // a one-character escape, such as a quote or a backslash
    const std::string escape(text.substr(i, 6));
    switch (surrogate_escape(text, i)) {
      case Surrogate::paired:
        return 12;  // both halves
      case Surrogate::lone_high:
        reason = "the escape " + escape + " at " + line_and_column(text, i) +
                 " is the first half of a UTF-16 surrogate pair, and no second half (\\uDC00 to "
                 "\\uDFFF) follows it; write the character itself, or both halves";
        return 0;
      case Surrogate::lone_low:
        reason = "the escape " + escape + " at " + line_and_column(text, i) +
                 " is the second half of a UTF-16 surrogate pair with no first half (\\uD800 to "
                 "\\uDBFF) before it; write the character itself, or both halves";
        return 0;
      case Surrogate::none:
        break;
    }
    return 6;
  });
  return reason;
}

// ---- The translator (json_error_reason). The library's message is read only for which of
// its errors it is (the part between " - " and "; last read"); the place and the quoted text
// come from `text` itself, since the library's own quote can end inside a character.

std::string between(const std::string& s, const std::string& from, const std::string& to) {
  const auto a = s.find(from);
  if (a == std::string::npos) return {};
  const auto b = to.empty() ? std::string::npos : s.find(to, a + from.size());
  return s.substr(a + from.size(), b == std::string::npos ? std::string::npos : b - a - from.size());
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// The start of the token that holds byte `at`, by lexing `text` from its start the way JSON
// does: strings with their escapes, runs of number or word characters, single characters.
std::size_t token_start(std::string_view text, std::size_t at) {
  std::size_t start = 0;
  scan_json_text(text, [&](std::size_t i, JsonByte kind) -> std::size_t {
    if (kind == JsonByte::escape) return 2;
    if (kind != JsonByte::outside && kind != JsonByte::open_quote) return 1;
    if (i > at) return 0;
    if (is_space(text[i])) return 1;
    start = i;
    std::size_t end = i + 1;
    if (in_number(text[i]) || is_word(text[i])) {
      while (end < text.size() && (in_number(text[end]) || is_word(text[end]))) ++end;
    }
    return end - i;
  });
  return start;
}

// The library's name of a token, as the reader's words.
std::string token_words(const std::string& token, const std::string& context) {
  if (token == "'[', '{', or a literal") {
    return "a value (an object, an array, a string in double quotes, a number, true, false or "
           "null)";
  }
  if (token == "string literal") return context == "object key" ? "a key in double quotes" : "a string";
  if (token == "number literal") return "a number";
  if (token == "true literal") return "true";
  if (token == "false literal") return "false";
  if (token == "null literal") return "null";
  if (token == "']'" && context == "array") return "',' or ']'";
  if (token == "'}'" && context == "object") return "',' or '}'";
  if (token == "':'") return "':' after the key";
  if (token == "end of input") return "the end of the text";
  if (token.size() == 3 && token.front() == '\'' && token.back() == '\'') return token;
  return "something else";
}

std::string quoted(std::string_view text, std::size_t at) {
  // Appended, not `"\"" + excerpt`: GCC 12 at -O3 warns falsely (-Wstringop-overflow) on that
  // operator+ once inlined.
  std::string out = "\"";
  out += text_excerpt(text, at);
  out += '"';
  return out;
}

std::size_t first_invalid_byte(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (static_cast<unsigned char>(text[i]) < 0x80) continue;
    std::size_t n = 1;
    while (n <= 4 && i + n <= text.size() && !is_valid_utf8(text.substr(i, n))) ++n;
    if (n > 4 || i + n > text.size()) return i;
    i += n - 1;
  }
  return text.size();
}

std::string parse_reason(const nlohmann::json::parse_error& e, std::string_view text) {
  const std::string message = e.what();
  const std::string context = between(message, "syntax error while parsing ", " - ");
  const std::string detail = between(message, " - ", "");
  std::size_t at = e.byte > 0 ? e.byte - 1 : 0;
  if (at > text.size()) at = text.size();
  const auto place = [&](std::size_t offset) {
    return "parse error at " + line_and_column(text, offset) + ": ";
  };
  if (text.find_first_not_of(" \t\n\r") == std::string_view::npos) {
    return place(text.size()) + "the text is empty; a JSON value (an object, an array, a string, "
           "a number, true, false or null) was expected";
  }
  if (detail.rfind("unexpected ", 0) == 0) {
    const std::string found = between(detail, "unexpected ", "; expected ");
    const std::string expected = between(detail, "; expected ", "");
    if (found == "end of input") {
      return place(text.size()) + "the text ends before the JSON value is complete; expected " +
             token_words(expected, context);
    }
    const std::size_t start = token_start(text, at);
    if (expected == "end of input") {
      return place(start) + "there is more text after the JSON value: " + quoted(text, start);
    }
    std::size_t before = start;
    while (before > 0 && is_space(text[before - 1])) --before;
    if ((found == "']'" || found == "'}'") && before > 0 && text[before - 1] == ',') {
      return place(before - 1) + "a comma stands before " + found +
             "; JSON allows no comma after the last element";
    }
    return place(start) + "found " + quoted(text, start) + " where " +
           token_words(expected, context) + " was expected";
  }
  const std::string lexer = between(detail, "", "; last read");
  if (lexer.find("surrogate") != std::string::npos) {
    const std::string surrogate = lone_surrogate(text);
    if (!surrogate.empty()) return surrogate;
  }
  if (lexer == "invalid literal") {
    // The library stops at the character that ends the word; the word started before it.
    const std::size_t start =
        token_start(text, at > 0 && at <= text.size() && is_word(text[at - 1]) ? at - 1 : at);
    if (detail.find("; expected end of input") != std::string::npos) {
      return place(start) + "there is more text after the JSON value: " + quoted(text, start);
    }
    if (context == "object key") {
      return place(start) + quoted(text, start) + " is not a key; keys are strings in double quotes";
    }
    return place(start) + quoted(text, start) +
           " is not a JSON value; a value is an object, an array, a string in double quotes, "
           "a number, true, false or null";
  }
  if (lexer.find("control character U+") != std::string::npos) {
    const std::string code = between(lexer, "control character ", " (");
    return place(at) + "a string holds the control character " + code +
           ", which JSON allows only as an escape such as \\u" + code.substr(2);
  }
  if (lexer.find("missing closing quote") != std::string::npos) {
    return place(token_start(text, at)) + "the string " + quoted(text, token_start(text, at)) +
           " has no closing double quote";
  }
  if (lexer.find("ill-formed UTF-8") != std::string::npos) {
    const std::size_t bad = std::min(first_invalid_byte(text), at);
    return place(bad) + "the text holds bytes that are not UTF-8: " + quoted(text, bad);
  }
  if (lexer.find("forbidden character after backslash") != std::string::npos) {
    const std::size_t slash = at > 0 ? at - 1 : 0;
    return place(slash) + "\"" + text_excerpt(text.substr(0, slash + 2), slash, 2) +
           "\" is not an escape; a backslash in a string is followed by \", \\, /, b, f, n, r, "
           "t or u";
  }
  if (lexer.find("\\u' must be followed by 4 hex digits") != std::string::npos) {
    const std::size_t slash = text.rfind("\\u", at);
    const std::size_t from = slash == std::string_view::npos ? at : slash;
    return place(from) + "\\u must be followed by 4 hex digits, got \"" +
           text_excerpt(text.substr(0, from + 6), from, 6) + "\"";
  }
  if (lexer.rfind("invalid number", 0) == 0) {
    const std::size_t start = token_start(text, at);
    const std::string after = lexer.find("after '-'") != std::string::npos  ? "after '-'"
                              : lexer.find("after '.'") != std::string::npos ? "after '.'"
                                                                             : "in the exponent";
    return place(start) + "the number " + quoted(text, start) + " needs a digit " + after;
  }
  if (lexer.find("BOM") != std::string::npos) {
    return place(0) + "the text starts with part of a byte order mark (EF BB BF)";
  }
  return place(at) + "the text is not valid JSON here: " + quoted(text, at);
}

}  // namespace

std::string json_error_reason(const nlohmann::json::exception& e, std::string_view text) {
  std::string reason;
  if (const auto* parse = dynamic_cast<const nlohmann::json::parse_error*>(&e)) {
    reason = parse_reason(*parse, text);
  } else if (e.id == 406) {
    // A number the library read as infinite. Its message has no position; find it.
    reason = number_out_of_range(text);
    if (reason.empty()) reason = "a number is outside the range of a double";
  } else if (e.id == 302) {
    // "type must be number, but is string"
    const std::string message = e.what();
    reason = "a JSON value is " + between(message, "but is ", "") + " where " +
             between(message, "type must be ", ",") + " is needed";
  } else if (e.id == 403) {
    reason = "the field " + between(std::string(e.what()), "key ", " not found") + " is missing";
  } else if (e.id == 401) {
    reason = "a list is shorter than the position asked for";
  } else if (e.id == 316) {
    reason = "a string is not valid UTF-8";
  } else {
    reason = "a JSON value does not have the form needed here";
  }
  return valid_utf8(reason);
}

namespace {

[[noreturn]] void fail(const std::string& what, const std::string& reason) {
  throw JsonTextError(what + " is not valid JSON: " + reason, reason);
}

}  // namespace

std::string replace_lone_surrogate_escapes(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  scan_json_text(text, [&](std::size_t i, JsonByte kind) -> std::size_t {
    if (kind != JsonByte::escape) {
      out += text[i];
      return 1;
    }
    switch (surrogate_escape(text, i)) {
      case Surrogate::lone_high:
      case Surrogate::lone_low:
        out += "\\ufffd";
        return 6;
      case Surrogate::paired:
        out.append(text.substr(i, 12));
        return 12;
      case Surrogate::none:
        break;
    }
    out.append(text.substr(i, 2));  // any other escape, kept whole
    return 2;
  });
  return out;
}

std::size_t json_text_depth(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  scan_json_text(text, [&](std::size_t i, JsonByte kind) -> std::size_t {
    if (kind == JsonByte::escape) return 2;
    if (kind != JsonByte::outside) return 1;
    const char c = text[i];
    if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
    return 1;
  });
  return deepest;
}

json parse_json_text(std::string_view text, const std::string& what) {
  if (text.size() > kMaxJsonTextBytes) {
    const std::string tail = std::to_string(text.size()) + " bytes of text; at most " +
                             std::to_string(kMaxJsonTextBytes) + " (16 MiB) are allowed";
    throw JsonTextError(what + " is " + tail, "it is " + tail);
  }
  const std::size_t depth = json_text_depth(text);
  if (depth > kMaxJsonDepth) {
    const std::string tail = "nested " + std::to_string(depth) + " levels deep; at most " +
                             std::to_string(kMaxJsonDepth) + " are allowed";
    throw JsonTextError(what + " is " + tail, "it is " + tail);
  }
  // A NUL byte ends the library's input: the text after it would be ignored, not refused. JSON
  // has no place for a raw NUL (in a string it is a control character that must be escaped).
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    fail(what, "parse error at " + line_and_column(text, nul) +
                   ": the text holds a NUL character (U+0000), which JSON allows only as the "
                   "escape \\u0000 inside a string");
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    fail(what, json_error_reason(e, text));
  }
}

}  // namespace perflab
