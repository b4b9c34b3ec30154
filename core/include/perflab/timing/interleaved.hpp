// Several functions timed in one run, interleaved: every round takes one sample of each
// function, in the order given, so a machine that speeds up or slows down during the run
// moves every function's samples alike and a ratio of their medians stays fair. The
// profiler times forward and backward this way, so the backward's "× forward" compares two
// medians of the same run. Each function follows Timer::run's rules (warmup, batching to
// max(resolution_multiple ticks, min_sample_ms), outliers, a warning naming the remedy).
// Not for: comparing two implementations of one thing (run_ab shuffles the order and
// tests the difference).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

struct InterleavedStats {
  std::vector<Stats> stats;  // one per function, in the order given
  std::size_t rounds = 0;    // samples taken of each function (before outlier removal)
};

// Warms each function up (options.warmup calls, in order), calibrates each one's batch, then
// takes `options.samples` rounds, each one sample of every function in order. The time
// budget is options.max_total_ms per function (a run of two functions may last twice as
// long as Timer::run of one); it stops sampling after a round once spent, with at least two
// rounds. progress(fraction) after every round; false throws CancelledError. ValueError for
// an empty list or bad options. Timer::run(fn) is run_interleaved({fn}).stats[0].
InterleavedStats run_interleaved(const std::vector<std::function<void()>>& fns,
                                 const TimerOptions& options, Clock& clock = default_clock(),
                                 const ProgressFn& progress = {});

}  // namespace perflab
