// interval_coverage: small samples drawn from a reference run, their three intervals, and
// how often each contains the reference median. Not for: the intervals (summary.cpp).
#include "perflab/stats/coverage.hpp"

#include <algorithm>
#include <set>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/timing/timer.hpp"
#include "stats_detail.hpp"

namespace perflab {

void CoverageOptions::validate() const {
  detail::check_range("trials", trials, 10, 100000);
  detail::check_range("bootstrap_resamples", bootstrap_resamples, 100, 1000000);
}

CoverageReport interval_coverage(const std::vector<double>& reference,
                                 const std::vector<std::size_t>& sizes,
                                 const CoverageOptions& options) {
  options.validate();
  detail::check_sample(reference, "reference");
  if (reference.size() < 20) {
    throw ValueError("reference must hold at least 20 values to stand for the population, got " +
                     std::to_string(reference.size()));
  }
  if (sizes.empty() || sizes.size() > 64) {
    throw ValueError("sizes must list 1 to 64 sample sizes, got " + std::to_string(sizes.size()));
  }
  std::set<std::size_t> seen;
  double work_per_trial = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const std::size_t n = sizes[i];
    if (n < 2 || n > 100000) {
      throw ValueError("sizes[" + std::to_string(i) + "] must be between 2 and 100000, got " +
                       std::to_string(n));
    }
    if (!seen.insert(n).second) {
      throw ValueError("sizes[" + std::to_string(i) + "] repeats the size " + std::to_string(n));
    }
    work_per_trial += static_cast<double>(n);
  }
  const double work = work_per_trial * options.trials * options.bootstrap_resamples;
  if (work > kMaxCoverageWork) {
    throw ValueError("this coverage run would draw " + detail::format_g(work, 3) +
                     " values (trials × bootstrap_resamples × the sum of the sizes); the limit "
                     "is " + detail::format_g(kMaxCoverageWork, 3) +
                     ": use fewer trials, fewer resamples or smaller sizes");
  }

  CoverageReport report;
  report.reference_median = median(reference);
  report.reference_n = reference.size();
  report.trials = options.trials;
  report.bootstrap_resamples = options.bootstrap_resamples;
  report.seed = options.seed;

  Rng draw(options.seed);
  const auto last = static_cast<std::int64_t>(reference.size()) - 1;
  std::vector<double> sample;
  for (const std::size_t n : sizes) {
    CoverageRow row;
    row.n = n;
    for (int trial = 0; trial < options.trials; ++trial) {
      sample.clear();
      for (std::size_t k = 0; k < n; ++k) {
        sample.push_back(reference[static_cast<std::size_t>(draw.integer(0, last))]);
      }
      SummaryOptions so;
      so.bootstrap_resamples = options.bootstrap_resamples;
      so.seed = draw.next_u64() >> 11;  // each trial's bootstrap its own stream, reproducible
      const Summary s = summarize(sample, "sample", so);
      const auto tally = [&](MethodCoverage& m, const Interval& i) {
        m.mean_width += i.width();
        m.coverage += i.contains(report.reference_median) ? 1.0 : 0.0;
      };
      tally(row.z, s.z_interval);
      tally(row.t, s.t_interval);
      tally(row.bootstrap, s.bootstrap_median_interval);
    }
    for (MethodCoverage* m : {&row.z, &row.t, &row.bootstrap}) {
      m->mean_width /= options.trials;
      m->coverage /= options.trials;
    }
    report.rows.push_back(row);
  }
  return report;
}

}  // namespace perflab
