// The summary of one sample of repeated measurements (times, bytes, any non-negative
// quantity): location, spread, percentiles by the linear rule, three 95% intervals named by
// method, Tukey outliers listed (never dropped) and the median absolute deviation.
// Not for: deciding whether two samples differ (compare.hpp does that).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"

namespace perflab {

// A two-sided interval [low, high] in the unit of the values it bounds. In JSON it is the
// object {low, high}, everywhere: a summary's intervals, a comparison's ratio and Welch
// difference, a coverage's Wilson interval, a fit's exponent and a regression report's change
// and ratio (it was the array [low, high] there, the one place; the page read .low and .high
// everywhere else). Named ends cannot be swapped by a reader, and an interval reads the same
// as a struct's other fields.
struct Interval {
  double low = 0;
  double high = 0;
  double width() const { return high - low; }
  bool contains(double v) const { return low <= v && v <= high; }
};
inline auto json_fields_of(const Interval*) {
  return std::make_tuple(JsonField{"low", &Interval::low}, JsonField{"high", &Interval::high});
}

// A value outside Tukey's fences, with its position in the caller's (unsorted) sample.
struct Outlier {
  std::size_t index = 0;
  double value = 0;
};
inline auto json_fields_of(const Outlier*) {
  return std::make_tuple(JsonField{"index", &Outlier::index}, JsonField{"value", &Outlier::value});
}

// The most values one sample may hold (every statistic here, a summary, a comparison, an A/B
// analysis, one benchmark of a run compared): 100,000, the most rounds an A/B takes and far
// more than any run of the lab. Checked before any work (and by the page's bindings before a
// value is copied), by check_sample_size.
inline constexpr std::size_t kMaxSampleValues = 100000;

// The most values one bootstrap may draw, resamples × values per resample (a summary's n; a
// comparison's n_a + n_b; a run compared, every benchmark's together): about 1 s natively and
// 2 s in wasm at 4-10 ns a draw. Larger samples get fewer resamples, never a refusal: the cost
// grows with n up to this and then stays there (bootstrap_resamples_within_budget).
inline constexpr double kMaxBootstrapDraws = 2e8;

// Throws ValueError when `count` values exceed kMaxSampleValues: "values has 100001 values; at
// most 100000 are allowed in one sample (kMaxSampleValues): summarize a part of it, or split
// the run".
void check_sample_size(double count, const std::string& name);

// The resamples a bootstrap of `values_per_resample` values draws when `requested` are asked
// for: the request, cut to kMaxBootstrapDraws / values_per_resample when it would draw more.
// At the largest samples allowed (2 × kMaxSampleValues values a resample) that is still 1,000,
// the usual least for a 95% percentile interval.
int bootstrap_resamples_within_budget(int requested, double values_per_resample);

// The sentence that says a bootstrap was cut, "" when used == requested: "the bootstrap used
// 2,000 resamples, not the 10,000 asked for: one bootstrap draws at most 200,000,000 values,
// and each resample here draws 100,000".
std::string bootstrap_cut_note(int requested, int used, double values_per_resample);

struct SummaryOptions {
  int bootstrap_resamples = 10000;  // resamples for the median's interval; 1000 is a quick look
  std::uint64_t seed = 1;           // the bootstrap's generator; reported back in the summary
  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// Every statistic is in the unit of the sample (ms for times). The three intervals are 95%:
// z is the original course's mean ± 1.96·s/√n, t uses Student's t(0.975, n − 1) (Boost.Math),
// the bootstrap is the 2.5th-97.5th percentile of the medians of resamples (linear rule).
struct Summary {
  std::size_t n = 0;
  double mean = 0, std = 0;  // std: sample standard deviation (n − 1); 0 for one value
  double median = 0, min = 0, max = 0;
  double p5 = 0, p25 = 0, p75 = 0, p95 = 0, p99 = 0;  // linear rule (numpy's default)
  double mad = 0;      // median of |x − median|, unscaled (× 1.4826 estimates σ for normal data)
  double cv = 0;       // std / mean; 0 for one value or a zero mean
  Interval z_interval;                 // mean ± 1.96·std/√n
  Interval t_interval;                 // mean ± t(0.975, n − 1)·std/√n
  Interval bootstrap_median_interval;  // percentile bootstrap of the median
  int bootstrap_resamples = 0;            // used: the request, cut past kMaxBootstrapDraws
  int bootstrap_resamples_requested = 0;  // SummaryOptions.bootstrap_resamples
  std::uint64_t bootstrap_seed = 0;
  double lower_fence = 0, upper_fence = 0;  // Q1 − 1.5·IQR and Q3 + 1.5·IQR
  std::vector<Outlier> outliers;            // outside the fences, in sample order
  std::string warning;  // empty when nothing is suspicious; says when the bootstrap was cut
};

// JSON from the field lists (json_fields.hpp): {low, high}; and {n, mean, std, median, min,
// max, p5, p25, p75, p95, p99, mad, cv, z_interval, t_interval, bootstrap_median_interval
// (each {low, high}), bootstrap_resamples, bootstrap_resamples_requested, bootstrap_seed,
// lower_fence, upper_fence, outliers: [{index, value}], warning}, what the page's
// summarizeSample returns. The readers refuse a missing or mistyped field by its path
// ("summary.z_interval.low is missing").
nlohmann::json to_json(const Interval& interval);
Interval interval_from_json(const nlohmann::json& j, const std::string& where = "interval");
nlohmann::json to_json(const Summary& summary);
Summary summary_from_json(const nlohmann::json& j, const std::string& where = "summary");

// Summarises values. `name` names the argument in error messages ("baseline_ms"), not in the
// warning, which travels with the summary. Throws
// ValueError when values is empty or holds more than kMaxSampleValues, or names the index and
// the value of the first value that is not finite or is negative. The bootstrap draws
// bootstrap_resamples_within_budget(options.bootstrap_resamples, n) resamples.
Summary summarize(const std::vector<double>& values, const std::string& name = "sample",
                  const SummaryOptions& options = {});

// Percentile p in [0, 100] of unsorted values by the linear rule; validates like summarize.
double percentile(const std::vector<double>& values, double p, const std::string& name = "sample");

// Student's t quantile t(probability, degrees_of_freedom) from Boost.Math; probability in
// (0, 1), degrees of freedom > 0.
double student_t_quantile(double probability, double degrees_of_freedom);

// Percentile bootstrap interval of the median: `resamples` resamples with replacement drawn
// by Rng(seed); returns the (1 − confidence)/2 and (1 + confidence)/2 percentiles of their
// medians by the linear rule. Validates values like summarize, and refuses resamples × n over
// kMaxBootstrapDraws (summarize cuts its resamples to fit).
Interval bootstrap_median_interval(const std::vector<double>& values, int resamples,
                                   std::uint64_t seed, double confidence = 0.95,
                                   const std::string& name = "sample");

}  // namespace perflab
