// The one way core reads JSON text (a model spec, a suite file, a pasted report, an answer):
// whatever the text holds, the reader gets a json value or a ValueError in a sentence that
// names what was being read, never the JSON library's own exception or text, and nothing
// recurses on text nested deeper than kMaxJsonDepth.
// Not for: reading fields of a parsed value (json_fields.hpp, each module's own readers).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "perflab/base/error.hpp"

namespace perflab {

// The deepest nesting of arrays and objects core accepts in any JSON text. A model spec
// needs 3 levels, a report or a suite about 5; the limit keeps every reader that recurses
// (copying, writing, describing a value) far from the stack's end.
inline constexpr std::size_t kMaxJsonDepth = 64;

// The longest JSON text core parses: 16 MiB. The largest text the lab writes (a `perflab bench
// --json --samples` report, an experiment's rows as evidence) is well under 1 MiB; a parsed
// value takes up to about 8 times its text, and the wasm module has 1 GiB in all, so this
// keeps any text far from the module's end (where the JSON library's destructor, which
// allocates, would otherwise end in an abort). The CLI reads files up to this size too.
inline constexpr std::size_t kMaxJsonTextBytes = std::size_t{16} << 20;

// The error parse_json_text throws. what() is the whole sentence
// ("model spec is not valid JSON: parse error at line 1, column 15: ..."); reason() is the
// part after the subject ("parse error at line 1, column 15: ...", "it is nested 70 levels
// deep; at most 64 are allowed") for readers that frame it their own way.
class JsonTextError : public ValueError {
 public:
  JsonTextError(const std::string& message, std::string reason)
      : ValueError(message), reason_(std::move(reason)) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// `text` parsed as one JSON value; `what` names it in every message ("model spec", "suite",
// "ANSWER_JSON"). Throws JsonTextError:
//   "<what> is N bytes of text; at most 16777216 (16 MiB) are allowed" (before anything else);
//   "<what> is nested N levels deep; at most 64 are allowed" (checked before parsing);
//   "<what> is not valid JSON: parse error at line L, column C: <what is wrong there>";
//   "<what> is not valid JSON: the number 1e400 at line L, column C is outside the range of
//    a double (magnitudes up to about 1.8e308)".
nlohmann::json parse_json_text(std::string_view text, const std::string& what);

// The one translator of the JSON library's exceptions into core's sentences: parse_json_text
// uses it for every failure, and the wasm error seam and the CLI for any library exception
// that escapes a reader, so none of the library's wording reaches a reader. `text` is what was
// parsed (empty when the exception did not come from parsing it). The reason names the place
// ("parse error at line 1, column 7: ..."; columns count characters) and quotes at most a few
// characters of the text, never a part of one: it is valid UTF-8 whatever the text holds.
std::string json_error_reason(const nlohmann::json::exception& e, std::string_view text = {});

// `text` with each \u escape of a lone UTF-16 surrogate (half of a pair with no other half
// beside it) replaced by \ufffd; escaped pairs and everything else unchanged. JavaScript's
// JSON.stringify writes a lone surrogate of a string as such an escape, and the wasm bindings
// read JS values through it: this gives a lone surrogate in a value the reading it has in a
// string argument (U+FFFD for the half alone, utf8.hpp), instead of refusing the whole value.
std::string replace_lone_surrogate_escapes(std::string_view text);

// How deeply `text` nests arrays and objects (brackets inside strings do not count); 0 for a
// lone number, string or literal. Linear in the text, no recursion.
std::size_t json_text_depth(std::string_view text);

}  // namespace perflab
