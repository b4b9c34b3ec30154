// The fake clock's rounding and the process-wide default clock. SteadyClock is inline in
// the header; the wasm bindings install their own performance.now() clock.
// Not for: choosing clocks per call site (pass a Clock& to Timer instead).
#include "perflab/timing/clock.hpp"

#include <cmath>

namespace perflab {

double FakeClock::now_ms() {
  ++reads_;
  // Round down like a coarse browser timer, then charge the cost of the read itself so
  // that polling loops (resolution measurement) see time move.
  // The 1e-9 tick keeps 0.3 / 0.1 = 2.9999… from rounding down a whole tick.
  const double reading =
      resolution_ms_ > 0.0 ? std::floor(t_ms_ / resolution_ms_ + 1e-9) * resolution_ms_ : t_ms_;
  t_ms_ += read_cost_ms_;
  return reading;
}

namespace {
SteadyClock steady_clock_instance;
Clock* default_clock_ptr = &steady_clock_instance;
}  // namespace

Clock& default_clock() { return *default_clock_ptr; }

// nullptr restores the steady clock, so bindings can undo what they installed.
void set_default_clock(Clock* clock) {
  default_clock_ptr = clock != nullptr ? clock : &steady_clock_instance;
}

}  // namespace perflab
