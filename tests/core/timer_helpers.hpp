// The timer settings the profiler and suite tests measure real work with: one or two samples
// on a tiny budget, so a measured point costs milliseconds. Their times are never asserted.
#pragma once

#include "perflab/timing/timer.hpp"

namespace timer_test {

inline perflab::TimerOptions tiny_timer() {
  perflab::TimerOptions o;
  o.warmup = 0;
  o.samples = 2;
  o.min_sample_ms = 0;
  o.max_total_ms = 50;
  return o;
}

}  // namespace timer_test
