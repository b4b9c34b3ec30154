// Comparison of two samples of times, A (the baseline) and B (the candidate): the ratio of
// medians with a bootstrap interval, Welch's t-test, Mann-Whitney U, Cohen's d and Cliff's
// delta, and a verdict with a sentence a student can read.
// Lower is better (times): "B is 1.23x faster than A" means median(A) / median(B) = 1.23.
// Not for: throughputs (compare their reciprocals) or paired samples.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perflab/stats/summary.hpp"

namespace perflab {

struct WelchResult {
  double t = 0;             // (mean B − mean A) / standard error
  double df = 0;            // Welch-Satterthwaite degrees of freedom
  double p_value = 1;       // two-sided, from the regularized incomplete beta (Boost.Math)
  Interval difference;      // (1 − alpha) interval of mean B − mean A
};

struct MannWhitneyResult {
  double u = 0;        // U of A: pairs (a, b) with b < a, ties counting 1/2
  double z = 0;        // normal approximation's z (with continuity correction); 0 when exact
  double p_value = 1;  // two-sided
  bool exact = false;  // exact distribution (no ties, both samples under 50) or normal approx.
};

enum class Verdict { faster, slower, no_difference, too_few_samples };
// "faster", "slower", "no_difference", "too_few_samples": identifiers for JSON and code.
const char* verdict_name(Verdict v);
// The verdict in words for tables and legends: "faster", "slower", "no clear difference",
// "too few samples".
const char* verdict_word(Verdict v);

struct CompareOptions {
  double alpha = 0.05;        // significance level of the test; intervals are (1 − alpha)
  double threshold = 0.02;    // changes of the median below this fraction are noise
  int bootstrap_resamples = 10000;
  std::uint64_t seed = 1;     // bootstrap generator; reported back
  int min_samples = 5;        // fewer in either sample: "too few samples to decide"
  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// The verdict is driven by Mann-Whitney's p-value (distribution-free: timings are skewed and
// carry outliers, where Welch's t assumes near-normal means) together with the ratio's
// bootstrap interval: B is faster (slower) when p < alpha, the ratio's interval excludes 1
// and the ratio of medians differs from 1 by more than the threshold. Welch's t is reported
// beside it, not used.
struct Comparison {
  std::size_t n_a = 0, n_b = 0;
  double median_a = 0, median_b = 0;
  double ratio = 1;          // median A / median B: > 1 when B is faster
  Interval ratio_interval;   // percentile bootstrap of the ratio, (1 − alpha)
  double change = 0;         // median B / median A − 1: the relative change of B ("+5%" slower)
  WelchResult welch;         // left at t 0, p 1 when either sample has one value
  MannWhitneyResult mann_whitney;
  double cohens_d = 0;       // (mean B − mean A) / pooled std; ±inf if the std is 0 and means differ
  double cliffs_delta = 0;   // P(b > a) − P(b < a), in [−1, 1]: negative when B tends to be faster
  double alpha = 0.05, threshold = 0.02;
  int min_samples = 5;
  int bootstrap_resamples = 0;            // used: the request, cut past kMaxBootstrapDraws
  int bootstrap_resamples_requested = 0;  // CompareOptions.bootstrap_resamples
  std::uint64_t seed = 0;
  Verdict verdict = Verdict::too_few_samples;
  std::string sentence;      // "B is 1.23x faster than A (95% CI 1.18-1.29x, p < 0.001)"
  std::string warning;       // e.g. a cut bootstrap, drift across rounds (run_ab); empty when none
};

// Compares A and B. The names are used in error messages ("a_ms[2] is nan: ..."). Throws
// ValueError for an empty sample, a value that is not finite or is negative, a median of 0
// (no ratio), or options out of range. Fewer than min_samples values is not an error: the
// statistics are computed and the verdict says "too few samples to decide". Either sample over
// kMaxSampleValues is refused; the ratio's bootstrap draws
// bootstrap_resamples_within_budget(options.bootstrap_resamples, n_a + n_b) resamples, and
// the warning says when that is fewer than asked.
Comparison compare_samples(const std::vector<double>& a, const std::vector<double>& b,
                           const CompareOptions& options = {}, const std::string& name_a = "a",
                           const std::string& name_b = "b");

// JSON from one field list: {n_a, n_b, median_a, median_b, ratio, ratio_interval {low, high},
// change, welch {t, df, p_value, difference {low, high}}, mann_whitney {u, z, p_value, exact},
// cohens_d, cliffs_delta, alpha, threshold, min_samples, bootstrap_resamples,
// bootstrap_resamples_requested, seed, verdict {name (verdict_name), word (verdict_word),
// sentence}, warning}: what compareSamples returns and every A/B's comparison. t, df and
// cohens_d are null when infinite (read back as infinity). The reader refuses a missing or
// mistyped field by its path, and a verdict name that is not one of the four.
nlohmann::json to_json(const Comparison& comparison);
Comparison comparison_from_json(const nlohmann::json& j, const std::string& where = "comparison");

// The comparison's sentence with A and B named (compare_samples fills Comparison.sentence with
// "A" and "B"): "the new run is 1.10x slower than the baseline (95% CI 1.08-1.12x, p < 0.001)".
// Every branch states B against A as a factor of at least 1 in B's direction and prints the
// interval of that factor (the ratio's interval, inverted when B is slower).
std::string comparison_sentence(const Comparison& c, const std::string& name_a = "A",
                                const std::string& name_b = "B");

// The tests on their own (same validation; at least 2 values each for Welch).
WelchResult welch_t_test(const std::vector<double>& a, const std::vector<double>& b,
                         double alpha = 0.05);
MannWhitneyResult mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);
double cohens_d(const std::vector<double>& a, const std::vector<double>& b);
double cliffs_delta(const std::vector<double>& a, const std::vector<double>& b);

// Spearman's rank correlation of ys against xs (midranks) with its two-sided p-value: exact up
// to 9 pairs (the share of the n! orderings of the ranks correlating at least as strongly, as
// R's cor.test; a perfect order among n has p = 2/n!), from 10 pairs on that of
// t = rho·√((n − 2) / (1 − rho²)) on n − 2 degrees of freedom. n ≥ 3; rho 0 when either
// side is constant.
struct RankCorrelation {
  double rho = 0;
  double p_value = 1;
};
RankCorrelation spearman(const std::vector<double>& xs, const std::vector<double>& ys);

// The smallest |rho| among n untied pairs whose p (as spearman computes it) is below alpha:
// exact up to 9 pairs, the t quantile inverted from 10 on (p < alpha above it). Infinity when
// no order of n pairs reaches alpha (n < 3, or a perfect order's 2/n! is not below alpha).
// Throws ValueError when alpha is outside 0.0001..0.5.
double spearman_critical_rho(std::size_t n, double alpha);

}  // namespace perflab
