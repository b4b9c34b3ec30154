// libFuzzer target for pasted CLI reports (cli_report_from_text: what the page's "compare with
// the CLI" box and the wasm binding cliReport read): any bytes give a normalized report that
// writes back to JSON, or throw a ValueError (a sentence naming the field). Any other
// exception, a crash or a sanitizer report is a finding. Built by the `asan` preset; how to
// run it and the last figures: docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/roofline/report.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)perflab::cli_report_from_text(text).dump();
  } catch (const perflab::ValueError&) {
    // The one allowed failure.
  }
  return 0;
}
