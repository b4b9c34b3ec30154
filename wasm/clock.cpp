// The wasm build's platform seam, installed once at module start: core's default clock
// becomes performance.now() (via emscripten_get_now), and the tensor allocator gets a cap
// below the module's MAXIMUM_MEMORY, so an oversized tensor is an AllocationError the page
// can show instead of a failed memory.grow that aborts the module.
// Not for: per-call clock choice (core's Timer takes a Clock&).
#include <emscripten.h>

#include "perflab/timing/clock.hpp"
#include "perflab/tensor/memory.hpp"

#ifndef PERFLAB_TENSOR_CAP_BYTES
#error "PERFLAB_TENSOR_CAP_BYTES must be set by wasm/CMakeLists.txt, next to MAXIMUM_MEMORY"
#endif

namespace perflab::wasm {
namespace {

class EmscriptenClock final : public Clock {
 public:
  // performance.now(): coarsened by browsers (100 µs on a normal Chromium page, 5 µs when
  // cross-origin isolated, 1 ms in Firefox); the Timer measures that and batches.
  double now_ms() override { return emscripten_get_now(); }
  const char* name() const override { return "performance.now"; }
};

EmscriptenClock emscripten_clock;

// A static initializer: runs when the module's constructors run, before any binding is
// callable, with no call the page could forget.
[[maybe_unused]] const bool installed = [] {
  set_default_clock(&emscripten_clock);
  MemoryTracker::global().set_cap_bytes(PERFLAB_TENSOR_CAP_BYTES);
  return true;
}();

}  // namespace
}  // namespace perflab::wasm
