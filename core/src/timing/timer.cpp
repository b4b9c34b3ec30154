// Latency statistics, their JSON, and the batching timer. The timer follows nanobench and
// google/benchmark: measure the clock's resolution, warm up, grow the inner iteration count
// until one batch spans many clock ticks, then report per-call times and a warning that
// names the remedy. Not for: threads, or deciding whether something is "fast".
#include "perflab/timing/timer.hpp"

#include "perflab/timing/interleaved.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"

namespace perflab {

namespace {

void check_range(const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // also rejects NaN
    throw ValueError(std::string(name) + " must be between " + format_number(lo) + " and " +
                     format_number(hi) + ", got " + format_number(value));
  }
}

}  // namespace

void TimerOptions::validate() const {
  check_range("warmup", warmup, 0, 10000);
  check_range("samples", samples, 1, 100000);
  check_range("min_sample_ms", min_sample_ms, 0, 60000);
  check_range("resolution_multiple", resolution_multiple, 1, 1e6);
  if (!(max_total_ms > 0 && std::isfinite(max_total_ms))) {
    throw ValueError("max_total_ms must be a finite number greater than 0, got " +
                     format_number(max_total_ms));
  }
  if (max_inner_iterations < 1) {
    throw ValueError("max_inner_iterations must be at least 1, got " +
                     std::to_string(max_inner_iterations));
  }
}

double percentile_sorted(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) throw ValueError("a percentile needs at least one value, got none");
  if (!(p >= 0 && p <= 100)) {
    throw ValueError("percentile must be between 0 and 100, got " + format_number(p));
  }
  const double rank = p / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(rank));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - static_cast<double>(lo));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return percentile_sorted(values, 50.0);
}

Stats compute_stats(const std::vector<double>& per_call_ms, bool drop_outliers) {
  if (per_call_ms.empty()) throw ValueError("statistics need at least one sample, got none");
  for (std::size_t i = 0; i < per_call_ms.size(); ++i) {
    if (!std::isfinite(per_call_ms[i])) {
      throw ValueError("sample " + std::to_string(i) + " is " + format_number(per_call_ms[i]) +
                       "; timings must be finite numbers");
    }
  }
  std::vector<double> sorted = per_call_ms;
  std::sort(sorted.begin(), sorted.end());

  Stats s;
  if (drop_outliers) {
    // Never empties the data: with n >= 3 some value lies between Q1 and Q3, and with
    // n <= 2 the fences enclose every value.
    const double q1 = percentile_sorted(sorted, 25), q3 = percentile_sorted(sorted, 75);
    const double iqr = q3 - q1;
    const double lo = q1 - 1.5 * iqr, hi = q3 + 1.5 * iqr;
    std::vector<double> kept;
    kept.reserve(sorted.size());
    for (double v : sorted) {
      if (v >= lo && v <= hi) kept.push_back(v);
    }
    s.outliers = sorted.size() - kept.size();
    sorted = std::move(kept);
  }

  const std::size_t n = sorted.size();
  s.samples = n;
  double sum = 0;
  for (double v : sorted) sum += v;
  s.mean_ms = sum / static_cast<double>(n);
  if (n >= 2) {
    double squares = 0;
    for (double v : sorted) squares += (v - s.mean_ms) * (v - s.mean_ms);
    s.stddev_ms = std::sqrt(squares / static_cast<double>(n - 1));
  }
  s.min_ms = sorted.front();
  s.max_ms = sorted.back();
  s.median_ms = percentile_sorted(sorted, 50);
  s.p95_ms = percentile_sorted(sorted, 95);
  s.p99_ms = percentile_sorted(sorted, 99);

  const double half = static_cast<double>(n) / 2.0;
  const double spread = 1.96 * std::sqrt(static_cast<double>(n)) / 2.0;
  const auto clamp_rank = [n](double rank) {
    return static_cast<std::size_t>(std::clamp(std::round(rank), 1.0, static_cast<double>(n)));
  };
  s.ci95_low_ms = sorted[clamp_rank(half - spread) - 1];
  s.ci95_high_ms = sorted[clamp_rank(1.0 + half + spread) - 1];

  s.cv = (n >= 2 && s.mean_ms != 0) ? s.stddev_ms / s.mean_ms : 0.0;
  return s;
}

double measure_resolution_ms(Clock& clock) {
  // A few transitions, because the first may be a partial tick and browsers add jitter.
  constexpr int kTransitions = 10;
  constexpr long kMaxReadsPerTransition = 100'000'000;
  double smallest_ms = 0;
  double previous = clock.now_ms();
  for (int t = 0; t < kTransitions; ++t) {
    double now = previous;
    long reads = 0;
    while (now == previous) {
      if (++reads > kMaxReadsPerTransition) {
        throw Error(std::string("the clock '") + clock.name() + "' did not advance in " +
                    std::to_string(kMaxReadsPerTransition) + " reads, so it cannot time anything");
      }
      now = clock.now_ms();
    }
    const double diff = now - previous;
    if (diff > 0 && (smallest_ms == 0 || diff < smallest_ms)) smallest_ms = diff;
    previous = now;
  }
  if (smallest_ms <= 0) {
    throw Error(std::string("the clock '") + clock.name() + "' only went backwards");
  }
  return smallest_ms;
}

double time_batch_ms(Clock& clock, const std::function<void()>& fn, long inner) {
  const double t0 = clock.now_ms();
  for (long i = 0; i < inner; ++i) fn();
  return clock.now_ms() - t0;
}

nlohmann::json to_json(const TimerOptions& o) {
  return {{"warmup", o.warmup},
          {"samples", o.samples},
          {"min_sample_ms", o.min_sample_ms},
          {"resolution_multiple", o.resolution_multiple},
          {"max_total_ms", o.max_total_ms},
          {"max_inner_iterations", o.max_inner_iterations}};
}

const char* const kTimerOptionFields = "warmup, samples, min_sample_ms, max_total_ms";

bool read_timer_option(TimerOptions& options, const std::string& key,
                       const nlohmann::json& value, const std::string& field) {
  if (key == "warmup") {
    options.warmup = json_int(value, field);
  } else if (key == "samples") {
    options.samples = json_int(value, field);
  } else if (key == "min_sample_ms") {
    options.min_sample_ms = json_number(value, field);
  } else if (key == "max_total_ms") {
    options.max_total_ms = json_number(value, field);
  } else {
    return false;
  }
  return true;
}

TimerControls timer_controls_from_json(const nlohmann::json& value, const std::string& field) {
  if (!value.is_object()) {
    throw ValueError(field + " must be an object {samples?, budget?} naming the reader's "
                             "controls, got " + describe(value));
  }
  TimerControls controls;
  for (const auto& [key, text] : value.items()) {
    const std::string name = field + "." + key;
    std::string* target = key == "samples" ? &controls.samples
                          : key == "budget" ? &controls.budget
                                            : nullptr;
    if (target == nullptr) {
      throw ValueError(name + " is not a control; " + field + " names samples and budget");
    }
    if (!text.is_string() || text.get_ref<const std::string&>().size() > kMaxTimerControlChars) {
      throw ValueError(name + " must be a control's name of at most " +
                       std::to_string(kMaxTimerControlChars) + " characters, got " +
                       describe(text));
    }
    *target = text.get<std::string>();
  }
  return controls;
}

void check_call_fits_budget(double flops, const std::string& what, const TimerOptions& options) {
  const double least_ms = flops / (kFastestGflopsPerS * 1e6);
  if (least_ms > options.max_total_ms) {
    char flops_text[32];
    std::snprintf(flops_text, sizeof flops_text, "%.3g", flops);
    const std::string least = format_number(std::ceil(least_ms));
    const std::string& budget = options.controls.budget;
    throw ValueError("one call of " + what + " is " + flops_text + " FLOPs, at least " + least +
                     " ms at " + format_number(kFastestGflopsPerS) +
                     " GFLOP/s (faster than any one core), more than the " +
                     format_number(options.max_total_ms) + " ms time budget: " +
                     (budget.empty() ? std::string("use a smaller size")
                                     : "give it at least " + least + " ms with " + budget +
                                           ", or use a smaller size"));
  }
}

BatchPlan calibrate_batch(Clock& clock, const std::function<void()>& fn, double target_ms,
                          long max_inner_iterations, double deadline_ms, double floor_ms) {
  // Calibrate as google/benchmark does: grow by target·1.4/elapsed, but by at most 10×
  // (and exactly 10× while a batch is under a tenth of the target, where the estimate is
  // mostly clock noise).
  BatchPlan plan;
  plan.target_ms = target_ms;
  long inner = 1;
  double batch_ms = time_batch_ms(clock, fn, inner);
  while (batch_ms < target_ms && inner < max_inner_iterations &&
         (batch_ms < floor_ms || clock.now_ms() < deadline_ms)) {
    double multiplier = 10.0;
    if (batch_ms > 0.1 * target_ms) multiplier = std::min(10.0, target_ms * 1.4 / batch_ms);
    const double next = std::ceil(static_cast<double>(inner) * multiplier);
    inner = static_cast<long>(
        std::min(static_cast<double>(max_inner_iterations), std::max(next, inner + 1.0)));
    batch_ms = time_batch_ms(clock, fn, inner);
  }
  plan.inner_iterations = inner;
  plan.batch_ms = batch_ms;
  return plan;
}

namespace {

// " (1 outlier dropped)", " (3 outliers dropped)", or nothing when none were.
std::string dropped_text(std::size_t outliers) {
  if (outliers == 0) return {};
  return " (" + std::to_string(outliers) + (outliers == 1 ? " outlier" : " outliers") +
         " dropped)";
}

// What went wrong with one function's samples, each problem with a remedy the reader can
// apply where they read it: opts.controls names their controls (the page's "Measure
// longer", the CLI's --samples and --max-total-ms, a suite file's fields); a remedy whose
// control is not named is left out. Empty when reliable.
// long_call: one call was longer than the budget (warmed_up of opts.warmup warmup calls ran),
// so the one sample is the whole run.
std::string timer_warning(const Stats& stats, const TimerOptions& opts, const BatchPlan& plan,
                          bool budget_stopped, std::size_t taken, std::size_t wanted,
                          bool long_call, int warmed_up) {
  std::vector<std::string> problems;
  const std::string& budget = opts.controls.budget;
  if (plan.below_target() && !long_call) {
    problems.push_back("samples last " + format_number(plan.batch_ms) + " ms, under the " +
                       format_number(plan.target_ms) + " ms target, at max_inner_iterations " +
                       std::to_string(opts.max_inner_iterations) +
                       ": check the work is not optimised away, or give it a larger size");
  }
  if (long_call && wanted > 1) {
    // What the whole plan would take at this call's time: warmup, one calibration batch and
    // the samples, each sample at least the target.
    const double call_ms = stats.per_call_ms.front();
    const double needed_ms = call_ms * (opts.warmup + 1) +
                             std::max(call_ms, plan.target_ms) * static_cast<double>(wanted);
    const std::string needed = format_number(std::ceil(needed_ms));
    if (needed_ms <= opts.max_total_ms) {
      // The calls fit the budget: the machine spent it (a pause before sampling began).
      problems.push_back("the " + format_number(opts.max_total_ms) +
                         " ms budget ran out before sampling began, though one call takes " +
                         format_number(call_ms) + " ms and all " + std::to_string(wanted) +
                         " samples need about " + needed +
                         " ms: the machine paused or was busy, so this is 1 sample of " +
                         std::to_string(wanted) + "; close other tabs and run again");
    } else {
      problems.push_back("one call takes " + format_number(call_ms) + " ms, so the " +
                         format_number(opts.max_total_ms) + " ms budget was spent after " +
                         std::to_string(warmed_up) + " of " + std::to_string(opts.warmup) +
                         " warmup calls and 1 of " + std::to_string(wanted) +
                         " samples; all of them need about " + needed + " ms: " +
                         (budget.empty() ? std::string("measure a smaller size")
                                         : "give it that budget with " + budget +
                                               ", or measure a smaller size"));
    }
  }
  if (budget_stopped) {
    problems.push_back("the " + format_number(opts.max_total_ms) +
                       " ms budget stopped sampling after " + std::to_string(taken) + " of " +
                       std::to_string(wanted) + " samples" +
                       (budget.empty() ? std::string()
                                       : ": give it a longer budget with " + budget));
  }
  // Few samples matter when they leave the median's interval wide, not by their count
  // alone: ten steady samples less two outliers still pin the median down. Under three,
  // no interval means anything.
  constexpr std::size_t kFewSamples = 10;
  constexpr double kWideInterval = 0.10;  // the 95% interval spans 10% of the median
  const double interval_width =
      stats.median_ms > 0 ? (stats.ci95_high_ms - stats.ci95_low_ms) / stats.median_ms : 0.0;
  const bool few = !long_call && (stats.samples < 3 || (stats.samples < kFewSamples &&
                                                         interval_width > kWideInterval));
  if (few) {
    problems.push_back(
        "only " + std::to_string(stats.samples) + " samples kept" + dropped_text(stats.outliers) +
        (stats.samples < 3 ? std::string(": too few for an interval of the median")
                           : ": the median's 95% interval spans " +
                                 format_number(std::round(interval_width * 100)) + "% of it") +
        (opts.controls.samples.empty() ? std::string()
                                       : "; take more samples with " + opts.controls.samples));
  }
  if (stats.cv > 0.05) {
    // The count is of the samples the CV was computed from; with outliers dropped it says so,
    // so it agrees with a table that shows every sample taken.
    // After "only 4 samples kept (1 outlier dropped)" the CV's count need not be said twice.
    const std::string over = few               ? "those " + std::to_string(stats.samples)
                             : stats.outliers > 0 ? std::to_string(stats.samples) +
                                                      " samples kept" +
                                                      dropped_text(stats.outliers)
                                                : std::to_string(stats.samples) + " samples";
    problems.push_back("CV " + format_number(std::round(stats.cv * 100)) + "% over " + over +
                       ": the machine was busy; close other tabs and run again");
  }
  std::string warning;
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) warning += "; ";
    warning += problems[i];
  }
  return warning;
}

}  // namespace

InterleavedStats run_interleaved(const std::vector<std::function<void()>>& fns,
                                 const TimerOptions& opts, Clock& clock,
                                 const ProgressFn& progress) {
  if (fns.empty()) throw ValueError("run_interleaved needs at least one function, got none");
  opts.validate();
  const double start_ms = clock.now_ms();
  const double resolution_ms = measure_resolution_ms(clock);
  // The budget is max_total_ms per function, warmup and calibration included: an overlong
  // call stops warmup and calibration at the deadline, and then one call per function is
  // the whole run (never the two samples and calibration that would multiply it).
  const double budget_ms = opts.max_total_ms * static_cast<double>(fns.size());
  const double deadline_ms = start_ms + budget_ms;

  int warmed_up = 0;
  for (; warmed_up < opts.warmup && clock.now_ms() < deadline_ms; ++warmed_up) {
    for (const auto& fn : fns) fn();
  }

  const auto wanted = static_cast<std::size_t>(opts.samples);
  std::vector<std::vector<double>> per_call_ms(fns.size());
  for (auto& v : per_call_ms) v.reserve(wanted);
  // A sample spans resolution_multiple ticks, even past the deadline: one call when calls are
  // long; more when the machine paused and spent the budget (calibration's batches then add
  // 1.2 to 2.5 times that floor: at most about 1.3 ms at a browser's 5 us tick).
  const double floor_ms = opts.resolution_multiple * resolution_ms;
  const double target_ms = std::max(floor_ms, opts.min_sample_ms);
  std::vector<BatchPlan> plans;
  plans.reserve(fns.size());
  for (const auto& fn : fns) {
    plans.push_back(calibrate_batch(clock, fn, target_ms, opts.max_inner_iterations, deadline_ms,
                                    floor_ms));
  }
  const bool long_call = clock.now_ms() >= deadline_ms;
  if (long_call) {
    // Each function's last batch ran warm and in full: it is its one sample.
    for (std::size_t f = 0; f < fns.size(); ++f) {
      per_call_ms[f].push_back(plans[f].batch_ms / static_cast<double>(plans[f].inner_iterations));
    }
    // The one sample is the whole run: report it, and let the caller cancel as after any sample.
    if (progress && !progress(1.0)) {
      throw CancelledError("cancelled after 1 of " + std::to_string(wanted) + " samples");
    }
  }

  std::size_t taken = long_call ? 1 : 0;
  bool budget_stopped = false;
  while (!long_call && taken < wanted) {
    for (std::size_t f = 0; f < fns.size(); ++f) {
      const long inner = plans[f].inner_iterations;
      per_call_ms[f].push_back(time_batch_ms(clock, fns[f], inner) / static_cast<double>(inner));
    }
    ++taken;
    const double elapsed_ms = clock.now_ms() - start_ms;
    if (progress) {
      const double fraction = std::min(
          1.0, std::max(static_cast<double>(taken) / static_cast<double>(wanted),
                        elapsed_ms / budget_ms));
      if (!progress(fraction)) {
        throw CancelledError("cancelled after " + std::to_string(taken) + " of " +
                             std::to_string(wanted) + " samples");
      }
    }
    if (taken < wanted && taken >= 2 && elapsed_ms >= budget_ms) {
      budget_stopped = true;
      break;
    }
  }

  InterleavedStats result;
  result.rounds = taken;
  for (std::size_t f = 0; f < fns.size(); ++f) {
    Stats stats = compute_stats(per_call_ms[f], opts.drop_outliers);
    stats.inner_iterations = plans[f].inner_iterations;
    stats.resolution_ms = resolution_ms;
    stats.per_call_ms = std::move(per_call_ms[f]);
    stats.warning =
        timer_warning(stats, opts, plans[f], budget_stopped, taken, wanted, long_call, warmed_up);
    result.stats.push_back(std::move(stats));
  }
  return result;
}

Stats Timer::run(const std::function<void()>& fn) {
  return run_interleaved({fn}, opts_, *clock_, progress_).stats.front();
}

// Stats' JSON fields, written by to_json and read by stats_from_json; per_call_ms stays out
// (a row carries its samples under its own name when it keeps them).
auto json_fields_of(const Stats*) {
  constexpr JsonRange kNonNegative = JsonRange::non_negative;
  return std::make_tuple(JsonField{"samples", &Stats::samples},
                         JsonField{"outliers", &Stats::outliers},
                         JsonField{"mean_ms", &Stats::mean_ms, kNonNegative},
                         JsonField{"stddev_ms", &Stats::stddev_ms, kNonNegative},
                         JsonField{"min_ms", &Stats::min_ms, kNonNegative},
                         JsonField{"max_ms", &Stats::max_ms, kNonNegative},
                         JsonField{"median_ms", &Stats::median_ms, kNonNegative},
                         JsonField{"p95_ms", &Stats::p95_ms, kNonNegative},
                         JsonField{"p99_ms", &Stats::p99_ms, kNonNegative},
                         JsonField{"ci95_low_ms", &Stats::ci95_low_ms, kNonNegative},
                         JsonField{"ci95_high_ms", &Stats::ci95_high_ms, kNonNegative},
                         JsonField{"cv", &Stats::cv, kNonNegative},
                         JsonField{"inner_iterations", &Stats::inner_iterations},
                         JsonField{"resolution_ms", &Stats::resolution_ms, kNonNegative},
                         JsonField{"warning", &Stats::warning});
}

nlohmann::json to_json(const Stats& s) { return write_fields(s); }

Stats stats_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<Stats>(j, where);
}

}  // namespace perflab
