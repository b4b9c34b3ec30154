// The A/B runner: times two functions on the same clock with the same warmup and the same
// batching rule as Timer (each sample at least max(100 ticks, min_sample_ms)), in rounds that
// run A and B once each in an order a seeded generator shuffles, then compares them and
// warns when either arm drifts across rounds. A sequential mode (all of A, then all of B)
// exists to show why interleaving matters: slow drift then reads as a difference.
// Not for: threads, or asserting speed in unit tests (use FakeClock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "perflab/stats/compare.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// The longest one A/B run may take, warmup, calibration and rounds together (the page waits
// for it in one call): rounds whose samples alone need more are refused up front
// (AbOptions::validate, and run_ab once it knows the clock's resolution); rounds that turn out
// slower stop at this limit with the rounds done so far and a warning saying so.
inline constexpr double kMaxAbTotalMs = 6000;
// The largest n run_kernel_ab takes per op, so that one call of the slowest variant (a round
// times two, however few) stays under about half a second in the scalar wasm build: N = 512
// for matmul (naive 512×512 @ 512×512: 0.2 s), 2^22 elements for GELU (0.2 s), batch 16 for a
// zoo model (conv7x7_224: 0.6 s; 2.3 s at batch 64). Larger sizes are the measurements'
// (measure_matmul, the timer, profiles), not a comparison's.
inline constexpr std::size_t kMaxAbMatmulN = 512;
inline constexpr std::size_t kMaxAbGeluN = std::size_t{1} << 22;
inline constexpr std::size_t kMaxAbModelBatch = 16;

enum class AbMode { interleaved, sequential };
const char* ab_mode_name(AbMode mode);  // "interleaved", "sequential"

struct AbOptions {
  AbMode mode = AbMode::interleaved;
  int rounds = 30;                     // samples per arm
  int warmup = 3;                      // untimed calls of each arm before calibrating
  double min_sample_ms = 1.0;          // each sample lasts at least this (and 100 ticks)
  double resolution_multiple = 100.0;  // ticks of the clock per sample
  long max_inner_iterations = 1L << 24;
  std::uint64_t seed = 1;              // the order inside each round
  double drift_alpha = 0.01;           // Spearman p below this (and a change over the
                                       // noise threshold) in either arm warns of drift
  CompareOptions compare;              // verdict rules (alpha, threshold, bootstrap)
  // Throws ValueError naming the field, its value and the allowed range, and when rounds ×
  // 2 samples × min_sample_ms exceed kMaxAbTotalMs (naming the most rounds that fit).
  void validate() const;
};

// Drift of one arm across rounds: Spearman's rho of the sample against the round, and the
// relative change from the median of the first third of rounds to that of the last third.
// Detected when p < drift_alpha and |change| exceeds the comparison's noise threshold (a
// rank test alone flags changes of a few ulps on a perfectly steady clock).
// The rule can fire only from min_rounds on: below it even a perfect order of the samples has
// a p of at least alpha (exact p, 2/n! for n rounds: 6 rounds at alpha 0.01), and the
// sentence says "too few rounds to detect drift" instead of "not detected". From there on,
// critical_rho says how strong the order must be at this many rounds (0.88 at 8 rounds).
struct Drift {
  double rho = 0;
  double p_value = 1;
  double change = 0;  // median(last third) / median(first third) − 1
  bool detected = false;
  double alpha = 0.01;      // the rule it was judged by: options.drift_alpha
  double threshold = 0.02;  // and options.compare.threshold
  std::size_t rounds = 0;   // rounds judged
  int min_rounds = 6;       // drift_min_rounds(alpha)
  double critical_rho = 0;  // spearman_critical_rho(rounds, alpha); infinity below min_rounds
  std::string sentence;     // "not detected: Spearman ρ 0.43 against the round (p = 0.29), ..."
};

// JSON from one field list: {rho, p_value, change, detected, alpha, threshold, rounds,
// min_rounds, critical_rho (null when infinite), sentence}; the reader names a missing or
// mistyped field by its path.
nlohmann::json to_json(const Drift& drift);
Drift drift_from_json(const nlohmann::json& j, const std::string& where = "drift");

// The fewest rounds at which the drift rule can fire: the smallest n from 3 on whose
// spearman_critical_rho(n, drift_alpha) is at most 1 (at least 3, so that thirds exist).
// Throws ValueError when drift_alpha is outside 0.0001..0.5.
int drift_min_rounds(double drift_alpha);

struct AbResult {
  AbMode mode = AbMode::interleaved;
  std::vector<double> a_ms, b_ms;  // per-call time of each round's sample
  std::vector<bool> a_first;       // per round: A ran before B (sequential: all true)
  long inner_iterations_a = 1, inner_iterations_b = 1;
  double resolution_ms = 0;
  Drift drift_a, drift_b;            // rounds < 3: rho 0, p 1, not detected (with the rule)
  Comparison comparison;             // its warning names any drift
};

// JSON from one field list: {mode (ab_mode_name), rounds, a_ms, b_ms, a_first, drift_a,
// drift_b, comparison}, what analyzeAB returns and runAB returns with what it ran beside it
// (inner_iterations_a/b and resolution_ms stay out: analyze_ab does not know them). The
// reader names a missing or mistyped field by its path, and a round count that is not the
// samples'.
nlohmann::json to_json(const AbResult& result);
AbResult ab_result_from_json(const nlohmann::json& j, const std::string& where = "ab");

// Which arm runs first in each of `rounds` rounds: interleaved, the seeded generator's draw
// per round (run_ab's own order for the same seed); sequential, A every time (all of A runs
// before B). The schedule of an A/B whose arms cannot run in one process (the page's two wasm
// builds). Throws ValueError when rounds is outside 1..100000.
std::vector<bool> ab_round_order(AbMode mode, int rounds, std::uint64_t seed);

// The analysis run_ab ends with, on samples collected elsewhere (one sample of each arm per
// round, a_first[r] saying which ran first in round r): core's comparison of a_ms and b_ms
// (options.compare), each arm's drift across the rounds (from 3 rounds on), and the warnings
// (`warnings` first, then one per drifting arm, worded for options.mode) joined into
// comparison.warning. options.mode names the schedule; rounds, warmup and the batching
// options are not used. inner_iterations and resolution_ms are left at their defaults.
// Throws ValueError naming a_ms, b_ms or a_first when they are empty, hold a non-finite or
// negative value, have different lengths, or (sequential) A did not run first every round.
AbResult analyze_ab(const std::vector<double>& a_ms, const std::vector<double>& b_ms,
                    const std::vector<bool>& a_first, const AbOptions& options = {},
                    const std::vector<std::string>& warnings = {});

// Runs a and b, `rounds` samples each. progress(fraction) is called after every round
// (interleaved) or every sample (sequential); returning false throws CancelledError.
// Bounded by kMaxAbTotalMs: refused before any call when the rounds' samples (each at least
// max(100 ticks, min_sample_ms)) cannot fit; warmup and calibration stop at the limit; the
// rounds stop before one that the last one's length says would pass it (at least one runs; in
// sequential mode A stops at half of what is left and B gets as many), and the comparison's
// warning says how many of how many ran.
AbResult run_ab(const std::function<void()>& a, const std::function<void()>& b,
                const AbOptions& options = {}, Clock& clock = default_clock(),
                const ProgressFn& progress = {});

// The kernels the page's A/B experiment offers, timed by run_ab on the same random inputs:
// op "matmul" (a variant of matmul_variants() on N×N @ N×N, n = N in 1..kMaxMeasureMatmulN)
// or "gelu" (a variant of gelu_variants() over n elements, 1..kMaxMeasureGeluN). Each arm
// times one call of the lab's Tensor API (matmul(a, b, variant), gelu(x, variant)), so both
// arms pay the same allocation of their output (measure_gelu's fused rows reuse one output,
// so their ratios can differ). Throws ValueError naming op, the variant or n; n above
// kMaxAbMatmulN, kMaxAbGeluN or kMaxAbModelBatch (op "model") is refused before any input is
// built.
AbResult run_kernel_ab(const std::string& op, const std::string& variant_a,
                       const std::string& variant_b, std::size_t n,
                       const AbOptions& options = {}, Clock& clock = default_clock(),
                       const ProgressFn& progress = {});

}  // namespace perflab
