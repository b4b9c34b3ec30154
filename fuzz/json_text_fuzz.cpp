// libFuzzer target for core's one JSON reader (parse_json_text): for any bytes it returns a
// value no deeper than kMaxJsonDepth or throws ValueError whose message is valid UTF-8 and
// holds none of the JSON library's wording; any other exception, a crash or sanitizer report
// is a finding. Built by the asan preset; how to run it, and the last
// run's figures: docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/base/utf8.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const nlohmann::json value = perflab::parse_json_text(text, "fuzzed text");
    if (perflab::json_text_depth(text) > perflab::kMaxJsonDepth) std::abort();
    (void)value.dump();
    // Valid JSON holds no lone surrogate escape, so replacing them leaves it as it was (the
    // library stops reading at a NUL byte, so only text without one is all parsed).
    if (text.find('\0') == std::string_view::npos &&
        perflab::replace_lone_surrogate_escapes(text) != text) {
      std::abort();
    }
  } catch (const perflab::ValueError& e) {
    // The one allowed failure, in core's words and in valid UTF-8 whatever the bytes were.
    const std::string message = e.what();
    if (!perflab::is_valid_utf8(message)) std::abort();
    for (const char* words : {"json.exception", "syntax error while parsing", "last read"}) {
      // (unless the message only quotes the text, which may hold anything)
      if (message.find(words) != std::string::npos && text.find(words) == std::string::npos) {
        std::abort();
      }
    }
  }
  return 0;
}
