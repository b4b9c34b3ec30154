// Protects core's boundary with JSON text: every reader of text (model spec, suite, pasted
// CLI report, the exercises' files) answers with core's ValueError in a sentence for any
// text at all: syntax errors keep the parser's position, a number outside the range of a
// double names its position instead of ending the program, and text nested deeper than
// kMaxJsonDepth is refused before anything recurses on it.
#include <doctest/doctest.h>

#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/model/model.hpp"
#include "perflab/roofline/report.hpp"
#include "perflab/suite/suite.hpp"

using namespace perflab;

namespace {

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + "1" + std::string(depth, ']');
}

}  // namespace

TEST_CASE("a number outside the range of a double is a sentence with its position") {
  const std::string spec = R"({"name":"x","input":[4,1e400],"layers":[{"type":"ReLU"}]})";
  CHECK_THROWS_WITH_AS(spec_from_text(spec),
                       "model spec is not valid JSON: the number 1e400 at line 1, column 24 is "
                       "outside the range of a double (magnitudes up to about 1.8e308)",
                       ValueError);
  CHECK_THROWS_WITH_AS(parse_json_text("{\"a\": \"1e999\",\n \"b\": -2e308}", "answer"),
                       "answer is not valid JSON: the number -2e308 at line 2, column 7 is "
                       "outside the range of a double (magnitudes up to about 1.8e308)",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_text(R"({"models": [], "batch": 1e309})"),
                       "suite is not valid JSON: the number 1e309 at line 1, column 25 is "
                       "outside the range of a double (magnitudes up to about 1.8e308)",
                       ValueError);
  CHECK_THROWS_WITH_AS(cli_report_from_text("[1e400]"),
                       "pasted text is not perflab JSON: the number 1e400 at line 1, column 2 "
                       "is outside the range of a double (magnitudes up to about 1.8e308); "
                       "paste the whole output of `perflab roofline --json` or "
                       "`perflab bench --json`",
                       ValueError);
  // Tiny magnitudes round to zero, as JavaScript reads them: not an error.
  CHECK(parse_json_text("[1e-400]", "x")[0].get<double>() == 0.0);
}

TEST_CASE("no message of the JSON library's own reaches the reader") {
  const char* const texts[] = {"",    "{",     "[1,]",      "\"\\uD800\"", "\"\xff\"",
                               "nul", "[1] 2", "{\"a\" 1}", "1e400",       "-1e400"};
  for (const char* text : texts) {
    CAPTURE(text);
    try {
      parse_json_text(text, "model spec");
      FAIL("no error");
    } catch (const ValueError& e) {
      const std::string message = e.what();
      CHECK(message.rfind("model spec is not valid JSON: ", 0) == 0);
      CHECK(message.find("json.exception") == std::string::npos);
    }
  }
  // A lone surrogate escape: a sentence with its place, not the library's code point ranges.
  CHECK_THROWS_WITH_AS(parse_json_text("\"\\uD800\"", "ANSWER_JSON"),
                       "ANSWER_JSON is not valid JSON: the escape \\uD800 at line 1, column 2 is "
                       "the first half of a UTF-16 surrogate pair, and no second half (\\uDC00 "
                       "to \\uDFFF) follows it; write the character itself, or both halves",
                       ValueError);
  CHECK_THROWS_WITH_AS(parse_json_text("{\"a\\\"\": \"x\\uDC01y\"}", "suite"),
                       "suite is not valid JSON: the escape \\uDC01 at line 1, column 11 is the "
                       "second half of a UTF-16 surrogate pair with no first half (\\uD800 to "
                       "\\uDBFF) before it; write the character itself, or both halves",
                       ValueError);
  CHECK_THROWS_WITH_AS(parse_json_text("[\"\\uD83D\\u0041\"]", "spec"),
                       "spec is not valid JSON: the escape \\uD83D at line 1, column 3 is the "
                       "first half of a UTF-16 surrogate pair, and no second half (\\uDC00 to "
                       "\\uDFFF) follows it; write the character itself, or both halves",
                       ValueError);
  // A whole pair parses.
  CHECK(parse_json_text("\"\\uD83D\\uDE00\"", "spec") == nlohmann::json("\xF0\x9F\x98\x80"));
}

TEST_CASE("text nested deeper than the limit is refused before it is parsed") {
  CHECK(json_text_depth("1") == 0);
  CHECK(json_text_depth(R"({"a": [1, {"b": "[[[["}], "c": {}})") == 3);
  CHECK(json_text_depth(R"(["\"[", "\\", [[]]])") == 3);
  CHECK(parse_json_text(nested(kMaxJsonDepth), "x").is_array());
  CHECK_THROWS_WITH_AS(parse_json_text(nested(kMaxJsonDepth + 1), "progress file"),
                       "progress file is nested 65 levels deep; at most 64 are allowed",
                       ValueError);
  // Deep enough to overflow the stack of anything that recursed per level.
  const std::string deep = "{\"name\": \"x\", \"input\": " + nested(100000) + ", \"layers\": []}";
  CHECK_THROWS_WITH_AS(model_from_json_text(deep),
                       "model spec is nested 100001 levels deep; at most 64 are allowed",
                       ValueError);
  CHECK_THROWS_WITH_AS(cli_report_from_text(nested(1000)),
                       "pasted text is not perflab JSON: it is nested 1000 levels deep; at most "
                       "64 are allowed; paste the whole output of `perflab roofline --json` or "
                       "`perflab bench --json`",
                       ValueError);
}

TEST_CASE("text longer than the limit is refused before it is read") {
  // In wasm, parsing such a text could fill the module's memory, and the JSON library's
  // destructor allocates, so an out-of-memory there ends in an abort instead of an error.
  std::string text = "[" + std::string(kMaxJsonTextBytes, ' ') + "]";
  CHECK_THROWS_WITH_AS(parse_json_text(text, "answer"),
                       "answer is 16777218 bytes of text; at most 16777216 (16 MiB) are allowed",
                       ValueError);
  text.resize(kMaxJsonTextBytes - 1);
  text.back() = ']';
  CHECK(parse_json_text(text, "answer").is_array());
  CHECK_THROWS_WITH_AS(cli_report_from_text(std::string(kMaxJsonTextBytes + 1, ' ')),
                       "pasted text is not perflab JSON: it is 16777217 bytes of text; at most "
                       "16777216 (16 MiB) are allowed; paste the whole output of `perflab "
                       "roofline --json` or `perflab bench --json`",
                       ValueError);
}
