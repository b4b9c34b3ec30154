// Protects core's boundary with JSON text: every reader of text (model spec, suite, pasted
// CLI report, the exercises' files) answers with core's ValueError in a sentence for any
// text at all: syntax errors keep the parser's position, a number outside the range of a
// double names its position instead of ending the program, and text nested deeper than
// kMaxJsonDepth is refused before anything recurses on it.
#include <doctest/doctest.h>

#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/base/utf8.hpp"
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

// The library's own wording, in any of its messages: none of it may reach a reader.
static bool has_library_wording(const std::string& message) {
  for (const char* words : {"json.exception", "syntax error while parsing", "last read",
                            "invalid literal", "unexpected end of input", "literal;",
                            "U+D800..U+DBFF", "ill-formed UTF-8 byte", "<U+"}) {
    if (message.find(words) != std::string::npos) return true;
  }
  return false;
}

TEST_CASE("every malformed text gets core's sentence with its place, in valid UTF-8") {
  // [text, the sentence after "x is not valid JSON: "]
  const std::pair<std::string, std::string> table[] = {
      {"", "parse error at line 1, column 1: the text is empty; a JSON value (an object, an "
           "array, a string, a number, true, false or null) was expected"},
      {"{\"a\": tru}", "parse error at line 1, column 7: \"tru}\" is not a JSON value; a value "
                       "is an object, an array, a string in double quotes, a number, true, false "
                       "or null"},
      {"[1,]", "parse error at line 1, column 3: a comma stands before ']'; JSON allows no "
               "comma after the last element"},
      {"{\"a\": 1,}", "parse error at line 1, column 8: a comma stands before '}'; JSON allows "
                      "no comma after the last element"},
      {"[1 2]", "parse error at line 1, column 4: found \"2]\" where ',' or ']' was expected"},
      {"{\"a\" 1}", "parse error at line 1, column 6: found \"1}\" where ':' after the key was "
                    "expected"},
      {"{a:1}", "parse error at line 1, column 2: \"a:1}\" is not a key; keys are strings in "
                "double quotes"},
      {"{\"a\":1", "parse error at line 1, column 7: the text ends before the JSON value is "
                   "complete; expected ',' or '}'"},
      {"[1] 2", "parse error at line 1, column 5: there is more text after the JSON value: \"2\""},
      {"\"a\nb\"", "parse error at line 1, column 3: a string holds the control character "
                   "U+000A, which JSON allows only as an escape such as \\u000A"},
      {"1e+", "parse error at line 1, column 1: the number \"1e+\" needs a digit in the exponent"},
      {"\"\\q\"", "parse error at line 1, column 2: \"\\q\" is not an escape; a backslash in a "
                  "string is followed by \", \\, /, b, f, n, r, t or u"},
      // A character cut by the library's quote: here the whole character is quoted, and the
      // column counts characters, not bytes.
      {"[\"\xE2\x82\xAC\xE2\x82\xAC\", tr\xE2\x82\xAC]",
       "parse error at line 1, column 8: \"tr\xE2\x82\xAC]\" is not a JSON value; a value is an "
       "object, an array, a string in double quotes, a number, true, false or null"},
      {"[\"\xC3\"]", "parse error at line 1, column 3: the text holds bytes that are not UTF-8: "
                     "\"\\xC3\"]\""},
      {std::string("88\0garbage", 10),
       "parse error at line 1, column 3: the text holds a NUL character (U+0000), which JSON "
       "allows only as the escape \\u0000 inside a string"},
      {"\"\\uD800x\"", "the escape \\uD800 at line 1, column 2 is the first half of a UTF-16 "
                       "surrogate pair, and no second half (\\uDC00 to \\uDFFF) follows it; write "
                       "the character itself, or both halves"},
  };
  for (const auto& entry : table) {
    const std::string& text = entry.first;
    CAPTURE(text);
    CHECK_THROWS_WITH_AS(parse_json_text(text, "x"),
                         ("x is not valid JSON: " + entry.second).c_str(), JsonTextError);
  }
  // Many more shapes: none keeps the library's wording, each names a place, all valid UTF-8.
  const std::string euros = "\"" + std::string(30, 'a') + "\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC";
  const std::string broken[] = {
      "  ", "nul", "'a'", "-", "1.", "\"abc", "\"\\u12\"", "\xEF\xBB", "\xFF", "{\"a\":[1,2}",
      "{\"a\": 1 \"b\": 2}", "[\"\xF0\x9F\x98", euros, euros + "\" x", "[" + euros + "\"",
      "{\"\xE2\x82\xAC\": \xE2\x82\xAC}", "[\x01]", "[\"\x7F\xC0\xAF\"]", "\"\\uDC00\"",
      "{\"a\":\n  [1,\n   2,]}", "[1e400]"};
  for (const std::string& text : broken) {
    CAPTURE(text);
    try {
      parse_json_text(text, "x");
      FAIL("no error");
    } catch (const JsonTextError& e) {
      const std::string message = e.what();
      CHECK_FALSE(has_library_wording(message));
      CHECK(is_valid_utf8(message));
      CHECK(message.find(" at line ") != std::string::npos);
    }
  }
}

TEST_CASE("a library exception outside parsing is translated into a sentence too") {
  const nlohmann::json spec = {{"name", 5}};
  try {
    (void)spec.at("name").get<std::string>();
    FAIL("no error");
  } catch (const nlohmann::json::exception& e) {
    CHECK(json_error_reason(e) == "a JSON value is number where string is needed");
  }
  try {
    (void)spec.at("layers");
    FAIL("no error");
  } catch (const nlohmann::json::exception& e) {
    CHECK(json_error_reason(e) == "the field 'layers' is missing");
  }
}

TEST_CASE("escapes of lone surrogates, as JSON.stringify writes them, become U+FFFD") {
  CHECK(replace_lone_surrogate_escapes(R"({"name":"a\ud800b"})") == R"({"name":"a\ufffdb"})");
  CHECK(replace_lone_surrogate_escapes(R"(["\udc00", "\\ud800"])") == R"(["\ufffd", "\\ud800"])");
  // A pair, other escapes and text outside strings are unchanged.
  const std::string kept = R"({"\ud83d\ude00": "\n\"\u0041", "x": 1})";
  CHECK(replace_lone_surrogate_escapes(kept) == kept);
  CHECK(replace_lone_surrogate_escapes(R"(["\ud83d\u0041"])") == R"(["\ufffd\u0041"])");
  CHECK(parse_json_text(replace_lone_surrogate_escapes(R"(["\ud800x"])"), "x")[0] ==
        "\xEF\xBF\xBDx");
}

TEST_CASE("UTF-8 rules: cuts at character boundaries, lone surrogates keep their neighbours") {
  CHECK(is_valid_utf8("caf\xC3\xA9"));
  CHECK_FALSE(is_valid_utf8("caf\xC3"));
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));  // a surrogate written as UTF-8
  CHECK(valid_utf8("a\xC3z") == "a\xEF\xBF\xBDz");
  CHECK(utf8_prefix("ab\xE2\x82\xAC", 4) == "ab");
  CHECK(utf8_prefix("ab\xE2\x82\xAC", 5) == "ab\xE2\x82\xAC");
  CHECK(text_place("a\n\xE2\x82\xAC\xE2\x82\xACx", 8) == "line 2, column 3");
  CHECK(text_excerpt("\xE2\x82\xAC\xE2\x82\xAC", 1, 1) == "\xE2\x82\xAC...");
  CHECK(text_excerpt("a\tb\x01", 0) == "a\\tb\\u0001");
  // A lone surrogate becomes U+FFFD on its own; the character after it stays.
  CHECK(utf16_to_utf8(u"\xD800x") == "\xEF\xBF\xBDx");
  CHECK(utf16_to_utf8(u"x\xDC00") == "x\xEF\xBF\xBD");
  CHECK(utf16_to_utf8(u"\xD83D\xDE00!") == "\xF0\x9F\x98\x80!");
  CHECK(utf16_to_utf8(u"\xD83D\xD83D\xDE00") == "\xEF\xBF\xBD\xF0\x9F\x98\x80");
  // describe() cuts at 60 bytes without cutting a character in half.
  const std::string long_euros(std::string(56, 'a') + "\xE2\x82\xAC\xE2\x82\xAC");
  CHECK(is_valid_utf8(describe(nlohmann::json(long_euros))));
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
