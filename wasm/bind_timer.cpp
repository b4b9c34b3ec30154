// Bindings for the timer's building blocks the page uses directly: the clock's resolution
// (shown beside every measurement), the timer's default settings (the Benchmarking chapter
// quotes them) and the median of values measured in JS.
// Not for: timing JS functions (the page times student code in its sandbox worker).
#include "convert.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab::wasm {
namespace {

val timer_resolution_ms() { return val(measure_resolution_ms(default_clock())); }

val timer_defaults() { return to_val(to_json(TimerOptions{})); }

val median_of(val values) { return val(median(to_double_vector(values, "values"))); }

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_timer) {
  expose<&timer_resolution_ms>("timerResolutionMs");
  expose<&timer_defaults>("timerDefaults");
  expose<&median_of>("median");
}

}  // namespace perflab::wasm
