// Reading JSON text with core's errors (json_text.hpp). The nesting is measured on the text
// before the library parses it; the library's exceptions are caught by their base class and
// rewritten, so none of them (nor its "[json.exception...]" prefix) leaves core.
#include "perflab/base/json_text.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <new>

namespace perflab {
namespace {

using json = nlohmann::json;

// Where `offset` is in `text`, as the JSON library counts it: lines from 1 ("\n" only),
// columns in bytes from 1.
std::string line_and_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

bool starts_number(char c) { return c == '-' || (c >= '0' && c <= '9'); }
bool in_number(char c) { return starts_number(c) || c == '+' || c == '.' || c == 'e' || c == 'E'; }

// The first number outside strings whose value is not a finite double: the one the library
// stopped at, since everything before it parsed. Empty when there is none.
std::string number_out_of_range(std::string_view text) {
  bool in_string = false;
  bool escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (!starts_number(c)) continue;
    std::size_t end = i;
    while (end < text.size() && in_number(text[end])) ++end;
    const std::string token(text.substr(i, end - i));
    errno = 0;
    const double value = std::strtod(token.c_str(), nullptr);
    if (!std::isfinite(value)) {
      const std::string shown = token.size() > 40 ? token.substr(0, 37) + "..." : token;
      return "the number " + shown + " at " + line_and_column(text, i) +
             " is outside the range of a double (magnitudes up to about 1.8e308)";
    }
    i = end - 1;
  }
  return {};
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

// The first \u escape in a string that is half of a UTF-16 surrogate pair without its other
// half (the library's "surrogate U+D800..U+DBFF must be followed by ..."), as a sentence with
// its position. Empty when there is none.
std::string lone_surrogate(std::string_view text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!in_string) {
      in_string = c == '"';
      continue;
    }
    if (c == '"') {
      in_string = false;
    } else if (c == '\\' && i + 1 < text.size()) {
      if (text[i + 1] != 'u') {
        ++i;  // a one-character escape, such as a quote or a backslash
        continue;
      }
      const int code = hex4(text, i + 2);
      const std::string escape(text.substr(i, 6));
      const bool high = code >= 0xD800 && code <= 0xDBFF;
      const bool low = code >= 0xDC00 && code <= 0xDFFF;
      if (high) {
        const bool paired = i + 7 < text.size() && text[i + 6] == '\\' && text[i + 7] == 'u' &&
                            hex4(text, i + 8) >= 0xDC00 && hex4(text, i + 8) <= 0xDFFF;
        if (!paired) {
          return "the escape " + escape + " at " + line_and_column(text, i) +
                 " is the first half of a UTF-16 surrogate pair, and no second half (\\uDC00 to "
                 "\\uDFFF) follows it; write the character itself, or both halves";
        }
        i += 11;  // both halves
        continue;
      }
      if (low) {
        return "the escape " + escape + " at " + line_and_column(text, i) +
               " is the second half of a UTF-16 surrogate pair with no first half (\\uD800 to "
               "\\uDBFF) before it; write the character itself, or both halves";
      }
      i += 5;
    }
  }
  return {};
}

// The library's message without its "[json.exception.parse_error.101] " prefix: the rest
// ("parse error at line 1, column 15: syntax error while parsing ...") reads as a sentence.
std::string without_prefix(std::string message) {
  const auto close = message.find("] ");
  if (message.rfind("[json.exception.", 0) == 0 && close != std::string::npos) {
    message = message.substr(close + 2);
  }
  return message;
}

[[noreturn]] void fail(const std::string& what, const std::string& reason) {
  throw JsonTextError(what + " is not valid JSON: " + reason, reason);
}

}  // namespace

std::size_t json_text_depth(std::string_view text) {
  std::size_t depth = 0;
  std::size_t deepest = 0;
  bool in_string = false;
  bool escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
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
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // A lone surrogate escape: the library's text is about code point ranges; say where it is.
    const std::string surrogate =
        std::string(e.what()).find("surrogate") != std::string::npos ? lone_surrogate(text) : "";
    fail(what, surrogate.empty() ? without_prefix(e.what()) : surrogate);
  } catch (const json::out_of_range& e) {
    // 406: a number the library read as infinite. Its message has no position; find it.
    const std::string reason = number_out_of_range(text);
    fail(what, reason.empty() ? without_prefix(e.what()) : reason);
  } catch (const json::exception& e) {
    fail(what, without_prefix(e.what()));
  }
}

}  // namespace perflab
