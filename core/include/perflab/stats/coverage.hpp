// How well the three 95% intervals of summary.hpp do at small n, measured instead of assumed:
// draw many small samples (with replacement) from a large reference run of the same kernel,
// compute each sample's z, t and bootstrap interval, and count how often each contains the
// reference run's median; report the mean width beside it. The Benchmarking chapter's
// intervals experiment. Not for: the intervals themselves (summary.hpp computes them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perflab/stats/summary.hpp"

namespace perflab {

struct CoverageOptions {
  int trials = 200;                // small samples drawn per size
  int bootstrap_resamples = 1000;  // per small sample's bootstrap interval (a quick look)
  std::uint64_t seed = 1;          // the draws and every bootstrap; reported back
  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// The work one coverage run may do (trials × resamples × the sum of the sizes, each size
// counted with kCoverageResampleOverhead): about a
// second of wasm. Larger plans are refused up front, naming this limit.
inline constexpr double kMaxCoverageWork = 2e8;
// A resample also costs about as much as drawing this many more values (its median's scan and
// its place among the sorted medians), so each size n counts as n + this in the work: without
// it 100,000 trials at n = 2 fit the limit and took 12 s in wasm.
inline constexpr double kCoverageResampleOverhead = 16;

// What the three intervals promise: they are 95% intervals.
inline constexpr double kPromisedCoverage = 0.95;

// Where a measured coverage stands against the promised 95%, judged by its Monte Carlo
// interval at the 0.1% the sentences print: below it, holding it, or above it.
enum class CoverageFinding { short_of_promise, within_noise, above_promise };
// "short", "within_noise", "above".
const char* coverage_finding_name(CoverageFinding f);

struct MethodCoverage {
  double mean_width = 0;  // mean of the intervals' widths, in the reference's unit
  double coverage = 0;    // share of trials whose interval contained the reference median
  // 95% Wilson interval of `coverage` as a share of the trials: where this method's true
  // coverage at this n lies, given only that many trials (the Monte Carlo noise).
  Interval coverage_interval;
  CoverageFinding finding = CoverageFinding::within_noise;
};

struct CoverageRow {
  std::size_t n = 0;
  MethodCoverage z, t, bootstrap;
  std::string sentence;  // coverage_sentence(*this, trials)
};

struct CoverageReport {
  double reference_median = 0;
  std::size_t reference_n = 0;
  int trials = 0;
  int bootstrap_resamples = 0;
  std::uint64_t seed = 0;
  std::vector<CoverageRow> rows;  // one per size, in the order given
};

// JSON from one field list per struct: {reference_median, reference_n, trials,
// bootstrap_resamples, seed, rows: [{n, z, t, bootstrap (each {mean_width, coverage,
// coverage_interval {low, high}, finding (coverage_finding_name)}), sentence}]}: what the
// page's intervalCoverage returns. The reader names a missing or mistyped field by its path.
nlohmann::json to_json(const CoverageReport& report);
CoverageReport coverage_report_from_json(const nlohmann::json& j,
                                         const std::string& where = "report");

// The 95% Wilson score interval of a share `successes / trials` (trials ≥ 1, 0 ≤ successes ≤
// trials): 94 of 100 gives 0.875 to 0.972. Unlike share ± 1.96·√(share(1 − share)/trials) it
// stays inside [0, 1] and is not empty at 0 or 100%.
Interval wilson_interval(double successes, double trials);

// The finding of one method's coverage against kPromisedCoverage, from its interval rounded
// to the 0.1% the sentence prints: short when the interval's top is below 95.0%, above when
// its bottom is above, else within the noise.
CoverageFinding coverage_finding(const Interval& coverage_interval);

// One size's coverage in words, every number with its Monte Carlo interval; "fell short"
// only for a method whose interval lies below the promised 95%:
// "At n = 5: z 94.0% of 100 trials (95% Monte Carlo interval 87.5% to 97.2%), t 96.0% (...),
// bootstrap 81.0% (...). bootstrap fell short of the promised 95%: its interval lies below
// it. z and t are within the noise of 100 trials of 95%."
std::string coverage_sentence(const CoverageRow& row, int trials);

// ValueError when the reference is not a valid sample (summarize's rules, named
// "reference"), has fewer than 20 values, a size is outside 2..100,000 or repeats, there are
// no sizes or more than 64, or the plan exceeds kMaxCoverageWork.
CoverageReport interval_coverage(const std::vector<double>& reference,
                                 const std::vector<std::size_t>& sizes,
                                 const CoverageOptions& options = {});

}  // namespace perflab
