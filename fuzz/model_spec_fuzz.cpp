// libFuzzer target for model specs as text (what `perflab profile SPEC.json` and the page's
// model builder read): any bytes build a Model that writes back to JSON, or throw a
// perflab::Error; the tracker is capped as in wasm (256 MiB here), so a spec too large to
// build is an AllocationError, not an allocation the fuzzer counts as a leak or OOM.
// Built by the asan preset (fuzz/CMakeLists.txt); how to run it: docs/RELIABILITY.md.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"
#include "perflab/tensor/memory.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  perflab::MemoryTracker::global().set_cap_bytes(std::size_t{256} << 20);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const perflab::Model model = perflab::model_from_json_text(text);
    (void)perflab::model_to_json(model).dump();
  } catch (const perflab::Error&) {
    // The one allowed failure: a sentence naming the field.
  }
  return 0;
}
