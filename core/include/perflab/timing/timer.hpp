// Timer and latency statistics. Measures the clock's resolution, warms up, then batches
// inner iterations so each sample lasts at least max(resolution_multiple × resolution,
// min_sample_ms), and reports per-call times (never batch times). Statistics are plain
// functions so they can be tested on hand-computable data.
// Not for: multi-threaded work or asserting speed in unit tests.
#pragma once

#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/timing/clock.hpp"

namespace perflab {

// The controls a reader has where a timer warning or a budget error is read, by the names
// they have there: a page control's label ("Measure longer"), a CLI flag ("--samples"), a
// suite file's field. The advice names these and nothing else; empty (the default) means
// there is no such control there, and the advice names none. Not a measurement setting:
// to_json(TimerOptions) leaves it out.
struct TimerControls {
  std::string samples;  // takes more samples: "take more samples with <samples>"
  std::string budget;   // gives a longer time budget: "give it a longer budget with <budget>"
};

struct TimerOptions {
  int warmup = 3;                     // untimed calls before measuring; raise for JITs/caches
  int samples = 30;                   // timed samples to take; outliers are dropped from these
  double min_sample_ms = 1.0;         // each sample lasts at least this (and 100× resolution)
  double resolution_multiple = 100.0; // a sample lasts at least this many clock ticks
  double max_total_ms = 5000.0;       // all of run(), warmup included; then stop sampling (≥ 2)
  long max_inner_iterations = 1L << 24;
  bool drop_outliers = true;          // Tukey fences: outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR]
  TimerControls controls;             // what the advice in warnings and errors may name

  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// The fields of TimerOptions a JSON options object may set: "warmup, samples, min_sample_ms,
// max_total_ms".
extern const char* const kTimerOptionFields;
// Sets options' field `key` from a JSON value and returns true, or returns false when `key`
// is not one of kTimerOptionFields. A value of the wrong type is a ValueError naming `field`
// ("options.samples must be an integer, got \"ten\""); ranges are validate()'s.
bool read_timer_option(TimerOptions& options, const std::string& key,
                       const nlohmann::json& value, const std::string& field);
// TimerControls from JSON {samples?, budget?}, each a string of at most kMaxTimerControlChars
// characters: how a page's options object names the page's controls (options.controls of
// the page's measurements and of a profile). A ValueError names `field` and what is wrong.
inline constexpr std::size_t kMaxTimerControlChars = 80;
TimerControls timer_controls_from_json(const nlohmann::json& value, const std::string& field);

// The Timer's result: a timing result, the layer above a sample's statistics. It holds the
// timing facts (calls per sample, the clock's resolution, the samples dropped as outliers, the
// per-call times themselves, the timer's warning) and the summary of the kept per-call times
// in milliseconds, named with the unit (median_ms, stddev_ms) as every measured row names
// them. The statistics of any sample, unit-free and with its three intervals, are Summary's
// (stats/summary.hpp: summarize); a comparison of two timings summarizes their per_call_ms.
// Stats' interval is the two columns ci95_low_ms and ci95_high_ms of a measured row, flat as
// its other figures (tables and CSV files read them as columns); an interval that is a value
// of its own is Interval's {low, high}.
struct Stats {
  std::size_t samples = 0;   // kept samples (after outlier removal)
  std::size_t outliers = 0;  // samples dropped by the Tukey fences
  double mean_ms = 0, stddev_ms = 0, min_ms = 0, max_ms = 0;
  double median_ms = 0, p95_ms = 0, p99_ms = 0;
  // 95% confidence interval of the median by order statistics (distribution-free):
  // ranks n/2 ± 1.96·sqrt(n)/2, clamped to the sample range. Exactly: the sorted values
  // at 1-based ranks round(n/2 − 1.96·√n/2) and round(1 + n/2 + 1.96·√n/2), clamped to
  // [1, n] (n = 100 gives ranks 40 and 61, as in the usual tables).
  double ci95_low_ms = 0, ci95_high_ms = 0;
  double cv = 0;                  // stddev / mean; 0 when n < 2 or mean == 0
  long inner_iterations = 1;      // calls per sample
  double resolution_ms = 0;       // measured clock resolution
  std::string warning;            // empty when reliable; else names the problem and the remedy
  // Every per-call sample Timer::run took, in order, outliers included (empty from
  // compute_stats): what a later comparison of two runs needs.
  std::vector<double> per_call_ms;
};
// The fields above by their names, as the page and the CLI receive them in every measured
// row: {samples, outliers, mean_ms, stddev_ms, min_ms, max_ms, median_ms, p95_ms, p99_ms,
// ci95_low_ms, ci95_high_ms, cv, inner_iterations, resolution_ms, warning}.
// Written and read from one field list (json_fields.hpp); the reader refuses a missing or
// mistyped field by its path ("points[0].kernel.stats.median_ms is missing") and leaves
// per_call_ms empty.
nlohmann::json to_json(const Stats& stats);
Stats stats_from_json(const nlohmann::json& j, const std::string& where = "stats");
// What the spread a report prints beside a timing's median and mean (stddev_ms) is:
// "sample standard deviation", for the suite's reports (latency_spread_kind, spread_kind).
inline constexpr const char* kTimingSpreadKind = "sample standard deviation";
// {warmup, samples, min_sample_ms, resolution_multiple, max_total_ms, max_inner_iterations}:
// the settings a measurement ran with (a suite report), or TimerOptions{}: core's defaults.
nlohmann::json to_json(const TimerOptions& options);

// Percentile p in [0, 100] of sorted data, linear interpolation between closest ranks
// (numpy's default). Throws ValueError on empty data or p out of range.
double percentile_sorted(const std::vector<double>& sorted, double p);
double median(std::vector<double> values);

// Statistics of per-call times. Applies outlier removal when asked. Throws ValueError on
// empty input or non-finite values.
Stats compute_stats(const std::vector<double>& per_call_ms, bool drop_outliers = true);

// Smallest positive difference between consecutive distinct readings, over a few
// transitions. Returns a value > 0.
double measure_resolution_ms(Clock& clock);

// The batch size every timed sample uses: fn called `inner_iterations` times in a row
// lasts batch_ms (≥ target_ms unless max_inner_iterations stopped the growth).
struct BatchPlan {
  long inner_iterations = 1;
  double batch_ms = 0;   // the last calibration batch
  double target_ms = 0;  // what it aimed at
  bool below_target() const { return batch_ms < target_ms; }
};

// Time of `inner` back-to-back calls of fn, read from clock around the whole batch.
double time_batch_ms(Clock& clock, const std::function<void()>& fn, long inner);

// Grows the inner iteration count as google/benchmark does until one batch lasts at least
// target_ms (the Timer's and the A/B runner's shared rule). Calls fn; no warmup. Stops
// growing once the clock reads deadline_ms or later (the Timer's budget), so a batch that
// already spent the budget is not followed by a ten times longer one; but never below
// floor_ms (a number of clock ticks): when the machine, not the calls, spent the budget, a
// batch of a few calls under one tick would time as 0 ms.
BatchPlan calibrate_batch(Clock& clock, const std::function<void()>& fn, double target_ms,
                          long max_inner_iterations,
                          double deadline_ms = std::numeric_limits<double>::infinity(),
                          double floor_ms = 0);

// The fastest any one core computes float32 with 128-bit SIMD, rounded up: 4 lanes, a
// multiply and an add on each of two ports per cycle at 5 GHz is 80 GFLOP/s. A call of F
// floating-point operations takes at least F / this, on any machine the lab runs on.
inline constexpr double kFastestGflopsPerS = 100.0;
// Refuses, before any work, a measurement whose one call cannot end within
// options.max_total_ms even at kFastestGflopsPerS: a ValueError naming the call, its
// operations, the least time it takes and the budget to give instead ("one call of naive
// matmul at n=4096 is 1.37e+11 FLOPs, at least 1374 ms at 100 GFLOP/s (faster than any one
// core), more than the 5 ms time budget: give it at least 1374 ms with --max-total-ms, or
// use a smaller size", the control as options.controls.budget names it; with none named,
// only the smaller size). Calls shorter than this bound but longer than the budget are
// Timer::run's (one sample, and a warning).
void check_call_fits_budget(double flops, const std::string& what, const TimerOptions& options);

// Called after each sample with the fraction done in [0, 1]; return false to cancel
// (the timer then throws CancelledError).
using ProgressFn = std::function<bool(double fraction)>;

class Timer {
 public:
  explicit Timer(Clock& clock = default_clock()) : clock_(&clock) {}
  Timer& options(const TimerOptions& o) { opts_ = o; return *this; }
  Timer& warmup(int n) { opts_.warmup = n; return *this; }
  Timer& samples(int n) { opts_.samples = n; return *this; }
  Timer& min_sample_ms(double ms) { opts_.min_sample_ms = ms; return *this; }
  Timer& max_total_ms(double ms) { opts_.max_total_ms = ms; return *this; }
  Timer& on_progress(ProgressFn fn) { progress_ = std::move(fn); return *this; }

  // Times fn; validates options first. max_total_ms holds even when one call is longer than
  // it: warmup stops when the budget is spent, and when it is spent before sampling begins
  // (a call longer than the budget), the last calibration batch, or one timed call, is the
  // only sample and the warning says so. The budget is then exceeded by at most one call
  // (two with warmup), never by the calls that warmup, calibration and two samples would
  // take.
  Stats run(const std::function<void()>& fn);

 private:
  Clock* clock_;
  TimerOptions opts_;
  ProgressFn progress_;
};

}  // namespace perflab
