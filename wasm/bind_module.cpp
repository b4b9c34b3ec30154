// Bindings about the module itself: which build this is and what the tensor allocator holds.
// Not for: anything computed; see convert.hpp for the conversions and the error seam.
#include <malloc.h>

#include "convert.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/tensor/memory.hpp"

#ifndef PERFLAB_VERSION
#error "PERFLAB_VERSION must be set by wasm/CMakeLists.txt"
#endif

namespace perflab::wasm {
namespace {

// {version, simd, simd_backend}: lets the page say which of the two binaries it loaded.
val build_info() {
  val o = val::object();
  o.set("version", std::string(PERFLAB_VERSION));
  o.set("simd", simd_enabled());
  o.set("simd_backend", std::string(simd_backend()));
  return o;
}

// Absolute numbers from the process-wide tracker (tensor storage only), and heap_bytes: what
// malloc holds in all (mallinfo's in-use bytes: tensors, vectors, strings, JSON), for the
// tests that check memory stays flat over many calls.
val memory_stats() {
  const MemoryTracker& tracker = MemoryTracker::global();
  val o = val::object();
  o.set("current_bytes", static_cast<double>(tracker.current_bytes()));
  o.set("peak_bytes", static_cast<double>(tracker.peak_bytes()));
  o.set("allocation_count", static_cast<double>(tracker.allocation_count()));
  o.set("cap_bytes", static_cast<double>(tracker.cap_bytes()));
  o.set("heap_bytes", static_cast<double>(mallinfo().uordblks));
  return o;
}

// {max_bytes, max_depth}: the longest and deepest JSON text core reads, so the page can refuse
// a file by its size before reading it, with core's own limit.
val json_text_limits() {
  val o = val::object();
  o.set("max_bytes", static_cast<double>(kMaxJsonTextBytes));
  o.set("max_depth", static_cast<double>(kMaxJsonDepth));
  return o;
}

// jsonTextProblem(text): null when core reads `text` as JSON, else core's reason why not
// ("parse error at line 1, column 7: ..."), so a page or tool that parses JSON itself words
// its refusal with core's sentence and place, not its engine's.
val json_text_problem(val text) {
  const std::string t = to_string(text, "text");
  try {
    parse_json_text(t, "text");
  } catch (const JsonTextError& e) {
    return val(e.reason());
  }
  return val::null();
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_module) {
  expose<&build_info>("buildInfo");
  expose<&memory_stats>("memoryStats");
  expose<&json_text_limits>("jsonTextLimits");
  expose<&json_text_problem>("jsonTextProblem");
}

}  // namespace perflab::wasm
