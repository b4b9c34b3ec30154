// Bindings for the statistics of the Benchmarking chapter: the summary of one sample, the
// comparison of two, complexity fits of times against sizes, the interleaved A/B runner
// on two variants of one of the lab's kernels (and its order and analysis for rounds timed
// elsewhere), and the raw samples of one kernel. Plain objects and arrays in and out; every
// field keeps core's name (summary.hpp, compare.hpp, complexity.hpp, coverage.hpp, ab.hpp):
// every result is core's JSON (to_json, one field list per struct), converted, never
// re-listed; an A/B run adds what it ran.
// Not for: the statistics themselves (core/src/stats) or timing JS functions.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/complexity.hpp"
#include "perflab/stats/coverage.hpp"
#include "perflab/stats/lab_kernels.hpp"
#include "perflab/stats/regression.hpp"
#include "perflab/stats/summary.hpp"

namespace perflab::wasm {
namespace {

using nlohmann::json;

bool is_array_like(const val& v) {
  return val::global("Array").call<bool>("isArray", v) ||
         (val::global("ArrayBuffer").call<bool>("isView", v) && !v["length"].isUndefined());
}

// A sample of numbers: the length first against core's kMaxSampleValues (a large array is
// refused with core's sentence before it is copied), then the type of each element; core
// checks empty, non-finite and negative values by name.
std::vector<double> to_sample(const val& v, const std::string& name) {
  if (is_array_like(v)) check_sample_size(v["length"].as<double>(), name);
  return to_double_vector(v, name);
}

// A bootstrap or order seed: an integer JS numbers hold exactly, [0, 2^53 − 1].
std::uint64_t to_seed_option(const val& v, const std::string& name) {
  constexpr double kMaxExact = 9007199254740991.0;
  const double d = v.isNumber() ? v.as<double>() : NAN;
  if (!std::isfinite(d) || d != std::trunc(d) || d < 0 || d > kMaxExact) {
    throw ValueError(name + " must be an integer between 0 and 9007199254740991, got " +
                     describe(v));
  }
  return static_cast<std::uint64_t>(d);
}

// Reads options[key], named "options.<key>" in errors, only when it is given.
template <class Fn>
void read_option(const val& options, const char* key, Fn&& read) {
  const val v = option(options, key);
  if (!v.isUndefined()) read(v, std::string("options.") + key);
}

CompareOptions to_compare_options(const val& options) {
  CompareOptions o;
  read_option(options, "alpha",
              [&](const val& v, const std::string& n) { o.alpha = to_finite_number(v, n); });
  read_option(options, "threshold",
              [&](const val& v, const std::string& n) { o.threshold = to_finite_number(v, n); });
  read_option(options, "bootstrap_resamples",
              [&](const val& v, const std::string& n) { o.bootstrap_resamples = to_int(v, n); });
  read_option(options, "seed",
              [&](const val& v, const std::string& n) { o.seed = to_seed_option(v, n); });
  read_option(options, "min_samples",
              [&](const val& v, const std::string& n) { o.min_samples = to_int(v, n); });
  return o;
}

val summarize_sample_js(val values, val options) {
  const std::vector<double> sample = to_sample(values, "values");
  check_option_keys(options, {"bootstrap_resamples", "seed"});
  SummaryOptions o;
  read_option(options, "bootstrap_resamples",
              [&](const val& v, const std::string& n) { o.bootstrap_resamples = to_int(v, n); });
  read_option(options, "seed",
              [&](const val& v, const std::string& n) { o.seed = to_seed_option(v, n); });
  return to_val(to_json(summarize(sample, "values", o)));
}

val compare_samples_js(val a, val b, val options) {
  const std::vector<double> sample_a = to_sample(a, "a");
  const std::vector<double> sample_b = to_sample(b, "b");
  check_option_keys(options, {"alpha", "threshold", "bootstrap_resamples", "seed", "min_samples"});
  return to_val(
      to_json(compare_samples(sample_a, sample_b, to_compare_options(options), "a", "b")));
}

val fit_complexity_js(val sizes, val times) {
  const std::vector<double> ns = to_sample(sizes, "sizes");
  const std::vector<double> ts = to_sample(times, "times");
  return to_val(to_json(fit_complexity(ns, ts)));
}

AbMode to_ab_mode(const val& v, const std::string& name = "options.mode") {
  const std::string mode = to_string(v, name);
  if (mode == ab_mode_name(AbMode::interleaved)) return AbMode::interleaved;
  if (mode == ab_mode_name(AbMode::sequential)) return AbMode::sequential;
  throw ValueError(name + " must be \"interleaved\" or \"sequential\", got " + describe(v));
}

// The A/B runner on the lab's kernels (run_kernel_ab: op "matmul" or "gelu", two variants, n).
val run_ab_js(val op, val variant_a, val variant_b, val n, val options) {
  const std::string name = to_string(op, "op");
  const std::string va = to_string(variant_a, "variant_a");
  const std::string vb = to_string(variant_b, "variant_b");
  const std::size_t size = to_size(n, "n");
  check_option_keys(options, {"rounds", "mode", "seed", "warmup", "min_sample_ms", "alpha",
                              "threshold", "bootstrap_resamples", "min_samples"});
  AbOptions o;
  read_option(options, "rounds",
              [&](const val& v, const std::string& k) { o.rounds = to_int(v, k); });
  read_option(options, "mode", [&](const val& v, const std::string& k) { o.mode = to_ab_mode(v, k); });
  read_option(options, "warmup",
              [&](const val& v, const std::string& k) { o.warmup = to_int(v, k); });
  read_option(options, "min_sample_ms", [&](const val& v, const std::string& k) {
    o.min_sample_ms = to_finite_number(v, k);
  });
  o.compare = to_compare_options(options);
  o.seed = o.compare.seed;  // one seed: the order of each round and the bootstrap

  const AbResult r = run_kernel_ab(name, va, vb, size, o);
  json out = {{"op", name}, {"n", size}, {"variant_a", va}, {"variant_b", vb}};
  out.update(to_json(r));
  out["inner_iterations_a"] = r.inner_iterations_a;
  out["inner_iterations_b"] = r.inner_iterations_b;
  out["resolution_ms"] = r.resolution_ms;
  return to_val(out);
}

// Which arm runs first in each round (ab_round_order): the seeded order runAB would use, for
// an A/B whose arms the page times in two builds.
val ab_round_order_js(val mode, val rounds, val seed) {
  const AbMode m = to_ab_mode(mode, "mode");
  const int n = to_int(rounds, "rounds");
  json order = json::array();
  for (bool f : ab_round_order(m, n, to_seed_option(seed, "seed"))) order.push_back(f);
  return to_val(order);
}

// Core's analysis of one sample of each arm per round collected outside (analyze_ab): the
// fields runAB returns about its rounds (mode, rounds, a_ms, b_ms, a_first, drift_a, drift_b,
// comparison); the page adds what it measured them with.
val analyze_ab_js(val a_ms, val b_ms, val a_first, val options) {
  const std::vector<double> a = to_sample(a_ms, "a_ms");
  const std::vector<double> b = to_sample(b_ms, "b_ms");
  std::vector<bool> first;
  if (!val::global("Array").call<bool>("isArray", a_first)) {
    throw ValueError("a_first must be an array of booleans, got " + describe(a_first));
  }
  const double length = a_first["length"].as<double>();
  check_sample_size(length, "a_first");
  for (std::size_t i = 0; i < static_cast<std::size_t>(length); ++i) {
    const val f = a_first[i];
    if (!f.isTrue() && !f.isFalse()) {
      throw ValueError("a_first[" + std::to_string(i) + "] must be true or false, got " +
                       describe(f));
    }
    first.push_back(f.isTrue());
  }
  check_option_keys(options, {"mode", "seed", "alpha", "threshold", "bootstrap_resamples",
                              "min_samples"});
  AbOptions o;
  read_option(options, "mode",
              [&](const val& v, const std::string& k) { o.mode = to_ab_mode(v, k); });
  o.compare = to_compare_options(options);
  o.seed = o.compare.seed;
  return to_val(to_json(analyze_ab(a, b, first, o)));
}

// The raw samples of one of the lab's kernels (lab_kernel + sample_kernel): every per-call
// time in order, outliers kept, for the chapter's distributions, intervals and A/B rounds.
// options: the timer's, plus inner_iterations (calls per sample, fixed) and clock_tick_ms
// (a coarsened clock) for the warmup and clock-resolution experiments.
val sample_kernel_js(val op, val variant, val n, val options) {
  const std::string name = to_string(op, "op");
  const std::string v = to_string(variant, "variant");
  const std::size_t size = to_size(n, "n");
  const TimerOptions timer = to_timer_options(options, {"inner_iterations", "clock_tick_ms"});
  KernelSampling sampling;
  read_option(options, "inner_iterations",
              [&](const val& x, const std::string& k) { sampling.inner_iterations = to_int(x, k); });
  read_option(options, "clock_tick_ms", [&](const val& x, const std::string& k) {
    sampling.clock_tick_ms = to_finite_number(x, k);
  });
  sampling.validate();
  check_sample_kernel_limits(name, size, timer, sampling);  // before the inputs are built
  const KernelSample s = sample_kernel(lab_kernel(name, v, size), timer, default_clock(), {}, sampling);
  return to_val(to_json(s));
}

// How often each 95% interval of small samples drawn from `reference` contains its median
// (interval_coverage): the intervals experiment's analysis.
val interval_coverage_js(val reference, val sizes, val options) {
  const std::vector<double> ref = to_sample(reference, "reference");
  std::vector<std::size_t> ns;
  if (is_array_like(sizes) && sizes["length"].as<double>() > 64) {
    throw ValueError("sizes has " + describe(sizes["length"]) + " values; at most 64 are allowed");
  }
  const std::vector<double> raw = to_double_vector(sizes, "sizes");
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] != std::trunc(raw[i]) || raw[i] < 0) {
      throw ValueError("sizes[" + std::to_string(i) + "] must be a whole number, got " +
                       describe(val(raw[i])));
    }
    ns.push_back(static_cast<std::size_t>(std::min(raw[i], 1e15)));
  }
  check_option_keys(options, {"trials", "bootstrap_resamples", "seed"});
  CoverageOptions o;
  read_option(options, "trials",
              [&](const val& v, const std::string& k) { o.trials = to_int(v, k); });
  read_option(options, "bootstrap_resamples", [&](const val& v, const std::string& k) {
    o.bootstrap_resamples = to_int(v, k);
  });
  read_option(options, "seed",
              [&](const val& v, const std::string& k) { o.seed = to_seed_option(v, k); });
  return to_val(to_json(interval_coverage(ref, ns, o)));
}

// A regression check of two runs (compare_runs): each a `perflab bench --json`
// object or an array of rows {op, variant, n, samples_ms}; what `perflab compare --json`
// prints, the runs named "baseline" and "this run" (in sentences "the baseline", "this run").
val compare_runs_js(val baseline, val run, val options) {
  BenchRun a = bench_run_from_json(to_json(baseline, "baseline"), "baseline");
  BenchRun b = bench_run_from_json(to_json(run, "run"), "this run");
  a.label = "the baseline";
  b.label = "this run";
  check_option_keys(options, {"alpha", "threshold"});
  CompareOptions o;
  read_option(options, "alpha",
              [&](const val& v, const std::string& n) { o.alpha = to_finite_number(v, n); });
  read_option(options, "threshold",
              [&](const val& v, const std::string& n) { o.threshold = to_finite_number(v, n); });
  return to_val(compare_runs(a, b, o));
}

// Core's bounds on the statistics' work, for the page to state beside its controls
// (summary.hpp, regression.hpp, ab.hpp).
val stats_limits() {
  return to_val({{"max_sample_values", kMaxSampleValues},
                 {"max_bootstrap_draws", kMaxBootstrapDraws},
                 {"max_bench_rows", kMaxBenchRows},
                 {"ab_max_total_ms", kMaxAbTotalMs},
                 {"sample_kernel_max_total_ms", kMaxSampleKernelTotalMs},
                 {"sample_kernel_max_n",
                  {{"matmul", kMaxSampleMatmulN}, {"gelu", kMaxSampleGeluN}, {"model", kMaxSampleModelBatch}}},
                 {"ab_max_n",
                  {{"matmul", kMaxAbMatmulN}, {"gelu", kMaxAbGeluN}, {"model", kMaxAbModelBatch}}}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_stats) {
  expose<&stats_limits>("statsLimits");
  expose<&compare_runs_js>("compareRuns");
  expose<&interval_coverage_js>("intervalCoverage");
  expose<&summarize_sample_js>("summarizeSample");
  expose<&compare_samples_js>("compareSamples");
  expose<&fit_complexity_js>("fitComplexity");
  expose<&run_ab_js>("runAB");
  expose<&ab_round_order_js>("abRoundOrder");
  expose<&analyze_ab_js>("analyzeAB");
  expose<&sample_kernel_js>("sampleKernel");
}

}  // namespace perflab::wasm
