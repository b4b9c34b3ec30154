// The summary of one sample: moments, linear-rule percentiles, the z, t and bootstrap
// intervals, Tukey outliers and the MAD. Distribution functions come from Boost.Math.
// Not for: comparisons (compare.cpp).
#include "perflab/stats/summary.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/distributions/students_t.hpp>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/timing/timer.hpp"
#include "stats_detail.hpp"

namespace perflab {

namespace {
constexpr double kOriginalZ = 1.96;  // the original course's 95% z value, kept as it wrote it
}  // namespace

// Summary's JSON fields, written by to_json and read by summary_from_json. Every statistic
// of non-negative values is itself non-negative; the intervals and fences may reach below 0.
auto json_fields_of(const Summary*) {
  constexpr JsonRange kNonNegative = JsonRange::non_negative;
  using S = Summary;
  return std::make_tuple(
      JsonField{"n", &S::n}, JsonField{"mean", &S::mean, kNonNegative},
      JsonField{"std", &S::std, kNonNegative}, JsonField{"median", &S::median, kNonNegative},
      JsonField{"min", &S::min, kNonNegative}, JsonField{"max", &S::max, kNonNegative},
      JsonField{"p5", &S::p5, kNonNegative}, JsonField{"p25", &S::p25, kNonNegative},
      JsonField{"p75", &S::p75, kNonNegative}, JsonField{"p95", &S::p95, kNonNegative},
      JsonField{"p99", &S::p99, kNonNegative}, JsonField{"mad", &S::mad, kNonNegative},
      JsonField{"cv", &S::cv, kNonNegative}, JsonField{"z_interval", &S::z_interval},
      JsonField{"t_interval", &S::t_interval},
      JsonField{"bootstrap_median_interval", &S::bootstrap_median_interval},
      JsonField{"bootstrap_resamples", &S::bootstrap_resamples},
      JsonField{"bootstrap_resamples_requested", &S::bootstrap_resamples_requested},
      JsonField{"bootstrap_seed", &S::bootstrap_seed},
      JsonField{"lower_fence", &S::lower_fence}, JsonField{"upper_fence", &S::upper_fence},
      JsonField{"outliers", &S::outliers}, JsonField{"warning", &S::warning});
}

nlohmann::json to_json(const Interval& interval) { return write_fields(interval); }
Interval interval_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<Interval>(j, where);
}
nlohmann::json to_json(const Summary& summary) { return write_fields(summary); }
Summary summary_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<Summary>(j, where);
}

void check_sample_size(double count, const std::string& name) {
  if (count > static_cast<double>(kMaxSampleValues)) {
    throw ValueError(name + " has " + detail::format_g(count) + " values; at most " +
                     std::to_string(kMaxSampleValues) +
                     " are allowed in one sample: summarize a part of it, or split the run");
  }
}

int bootstrap_resamples_within_budget(int requested, double values_per_resample) {
  const double fit = std::floor(kMaxBootstrapDraws / std::max(1.0, values_per_resample));
  return fit < requested ? static_cast<int>(fit) : requested;
}

std::string bootstrap_cut_note(int requested, int used, double values_per_resample) {
  if (used >= requested) return "";
  return "the bootstrap used " + std::to_string(used) + " resamples, not the " +
         std::to_string(requested) + " asked for: one bootstrap draws at most " +
         detail::format_g(kMaxBootstrapDraws) + " values, and each resample here draws " +
         detail::format_g(values_per_resample);
}

void SummaryOptions::validate() const {
  detail::check_range("bootstrap_resamples", bootstrap_resamples, 100, 1000000);
}

double student_t_quantile(double probability, double degrees_of_freedom) {
  if (!(probability > 0 && probability < 1)) {
    throw ValueError("probability must be between 0 and 1 (exclusive), got " +
                     detail::format_g(probability));
  }
  if (!(degrees_of_freedom > 0) || !std::isfinite(degrees_of_freedom)) {
    throw ValueError("degrees of freedom must be a finite number greater than 0, got " +
                     detail::format_g(degrees_of_freedom));
  }
  return boost::math::quantile(
      boost::math::students_t_distribution<double, detail::MathPolicy>(degrees_of_freedom),
      probability);
}

double percentile(const std::vector<double>& values, double p, const std::string& name) {
  detail::check_sample(values, name);
  return percentile_sorted(detail::sorted_copy(values), p);
}

Interval bootstrap_median_interval(const std::vector<double>& values, int resamples,
                                   std::uint64_t seed, double confidence,
                                   const std::string& name) {
  detail::check_sample(values, name);
  detail::check_range("bootstrap_resamples", resamples, 100, 1000000);
  const double draws = static_cast<double>(resamples) * static_cast<double>(values.size());
  if (draws > kMaxBootstrapDraws) {
    throw ValueError("a bootstrap of " + std::to_string(resamples) + " resamples of " +
                     std::to_string(values.size()) + " values draws " + detail::format_g(draws) +
                     " values; at most " + detail::format_g(kMaxBootstrapDraws) +
                     " are allowed: use at most " +
                     std::to_string(bootstrap_resamples_within_budget(resamples, values.size())) +
                     " resamples");
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw ValueError("confidence must be between 0 and 1 (exclusive), got " +
                     detail::format_g(confidence));
  }
  Rng rng(seed);
  const std::vector<double> sorted = detail::sorted_copy(values);
  std::vector<std::uint32_t> counts;
  std::vector<double> medians(static_cast<std::size_t>(resamples));
  for (double& m : medians) m = detail::resampled_median(sorted, rng, counts);
  std::sort(medians.begin(), medians.end());
  const double tail = 50.0 * (1.0 - confidence);
  return {percentile_sorted(medians, tail), percentile_sorted(medians, 100.0 - tail)};
}

Summary summarize(const std::vector<double>& values, const std::string& name,
                  const SummaryOptions& options) {
  detail::check_sample(values, name);
  options.validate();
  const std::vector<double> sorted = detail::sorted_copy(values);

  Summary s;
  s.n = values.size();
  const auto n = static_cast<double>(s.n);
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / n;
  if (s.n >= 2) {
    double squares = 0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(squares / (n - 1));
  }
  s.min = sorted.front();
  s.max = sorted.back();
  s.median = percentile_sorted(sorted, 50);
  s.p5 = percentile_sorted(sorted, 5);
  s.p25 = percentile_sorted(sorted, 25);
  s.p75 = percentile_sorted(sorted, 75);
  s.p95 = percentile_sorted(sorted, 95);
  s.p99 = percentile_sorted(sorted, 99);
  s.cv = (s.n >= 2 && s.mean != 0) ? s.std / s.mean : 0.0;

  std::vector<double> deviations(s.n);
  for (std::size_t i = 0; i < s.n; ++i) deviations[i] = std::fabs(values[i] - s.median);
  s.mad = detail::median_in_place(deviations);

  const double se = s.std / std::sqrt(n);
  s.z_interval = {s.mean - kOriginalZ * se, s.mean + kOriginalZ * se};
  // One value: no degrees of freedom, and nothing to be uncertain about in the data itself.
  const double t = s.n >= 2 ? student_t_quantile(0.975, n - 1) : 0.0;
  s.t_interval = {s.mean - t * se, s.mean + t * se};

  s.bootstrap_resamples_requested = options.bootstrap_resamples;
  s.bootstrap_resamples = bootstrap_resamples_within_budget(options.bootstrap_resamples, n);
  s.bootstrap_seed = options.seed;
  s.bootstrap_median_interval =
      bootstrap_median_interval(values, s.bootstrap_resamples, options.seed, 0.95, name);

  const double iqr = s.p75 - s.p25;
  s.lower_fence = s.p25 - 1.5 * iqr;
  s.upper_fence = s.p75 + 1.5 * iqr;
  for (std::size_t i = 0; i < s.n; ++i) {
    if (values[i] < s.lower_fence || values[i] > s.upper_fence) s.outliers.push_back({i, values[i]});
  }

  // The warning is about these values and travels with their summary, so it does not name
  // them: `name` names the argument in errors, and as a sample's name it read "20 of 200
  // values in values" on the page.
  if (s.n == 1) {
    s.warning =
        "only one value: the spread and every interval are 0, which says nothing about the next "
        "run; take at least 5 samples";
  } else if (!s.outliers.empty()) {
    s.warning = std::to_string(s.outliers.size()) + " of " + std::to_string(s.n) + " values lie outside Tukey's fences (" + detail::format_g(s.lower_fence, 4) +
                " to " + detail::format_g(s.upper_fence, 4) +
                "): the median and the MAD resist them, the mean and the std do not";
  }
  const std::string cut = bootstrap_cut_note(s.bootstrap_resamples_requested, s.bootstrap_resamples, n);
  if (!cut.empty()) s.warning += (s.warning.empty() ? "" : "; ") + cut;
  return s;
}

}  // namespace perflab
