// How well the three 95% intervals of summary.hpp do at small n, measured instead of assumed:
// draw many small samples (with replacement) from a large reference run of the same kernel,
// compute each sample's z, t and bootstrap interval, and count how often each contains the
// reference run's median; report the mean width beside it. The Benchmarking chapter's
// intervals experiment. Not for: the intervals themselves (summary.hpp computes them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace perflab {

struct CoverageOptions {
  int trials = 200;                // small samples drawn per size
  int bootstrap_resamples = 1000;  // per small sample's bootstrap interval (a quick look)
  std::uint64_t seed = 1;          // the draws and every bootstrap; reported back
  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// The work one coverage run may do (trials × resamples × the sum of the sizes): about a
// second of wasm. Larger plans are refused up front, naming this limit.
inline constexpr double kMaxCoverageWork = 2e8;

struct MethodCoverage {
  double mean_width = 0;  // mean of the intervals' widths, in the reference's unit
  double coverage = 0;    // share of trials whose interval contained the reference median
};

struct CoverageRow {
  std::size_t n = 0;
  MethodCoverage z, t, bootstrap;
};

struct CoverageReport {
  double reference_median = 0;
  std::size_t reference_n = 0;
  int trials = 0;
  int bootstrap_resamples = 0;
  std::uint64_t seed = 0;
  std::vector<CoverageRow> rows;  // one per size, in the order given
};

// ValueError when the reference is not a valid sample (summarize's rules, named
// "reference"), has fewer than 20 values, a size is outside 2..100,000 or repeats, there are
// no sizes or more than 64, or the plan exceeds kMaxCoverageWork.
CoverageReport interval_coverage(const std::vector<double>& reference,
                                 const std::vector<std::size_t>& sizes,
                                 const CoverageOptions& options = {});

}  // namespace perflab
