// Bindings for the statistics of the Benchmarking chapter: the summary of one sample, the
// comparison of two, complexity fits of times against sizes, the interleaved A/B runner
// on two variants of one of the lab's kernels (and its order and analysis for rounds timed
// elsewhere), and the raw samples of one kernel. Plain objects and arrays in and out; every
// field keeps core's name (summary.hpp, compare.hpp, complexity.hpp, ab.hpp).
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

json interval_json(const Interval& i) { return {{"low", i.low}, {"high", i.high}}; }

json summary_json(const Summary& s) {
  json outliers = json::array();
  for (const Outlier& o : s.outliers) outliers.push_back({{"index", o.index}, {"value", o.value}});
  return {{"n", s.n},
          {"mean", s.mean},
          {"std", s.std},
          {"median", s.median},
          {"min", s.min},
          {"max", s.max},
          {"p5", s.p5},
          {"p25", s.p25},
          {"p75", s.p75},
          {"p95", s.p95},
          {"p99", s.p99},
          {"mad", s.mad},
          {"cv", s.cv},
          {"z_interval", interval_json(s.z_interval)},
          {"t_interval", interval_json(s.t_interval)},
          {"bootstrap_median_interval", interval_json(s.bootstrap_median_interval)},
          {"bootstrap_resamples", s.bootstrap_resamples},
          {"bootstrap_resamples_requested", s.bootstrap_resamples_requested},
          {"bootstrap_seed", s.bootstrap_seed},
          {"lower_fence", s.lower_fence},
          {"upper_fence", s.upper_fence},
          {"outliers", outliers},
          {"warning", s.warning}};
}

// An infinite Cohen's d (zero spread, different means) becomes null in JSON; the page reads
// null as "unbounded".
json number_or_null(double d) { return std::isfinite(d) ? json(d) : json(nullptr); }

json comparison_json(const Comparison& c) {
  return {{"n_a", c.n_a},
          {"n_b", c.n_b},
          {"median_a", c.median_a},
          {"median_b", c.median_b},
          {"ratio", c.ratio},
          {"ratio_interval", interval_json(c.ratio_interval)},
          {"change", c.change},
          {"welch",
           {{"t", number_or_null(c.welch.t)},
            {"df", number_or_null(c.welch.df)},
            {"p_value", c.welch.p_value},
            {"difference", interval_json(c.welch.difference)}}},
          {"mann_whitney",
           {{"u", c.mann_whitney.u},
            {"z", c.mann_whitney.z},
            {"p_value", c.mann_whitney.p_value},
            {"exact", c.mann_whitney.exact}}},
          {"cohens_d", number_or_null(c.cohens_d)},
          {"cliffs_delta", c.cliffs_delta},
          {"alpha", c.alpha},
          {"threshold", c.threshold},
          {"min_samples", c.min_samples},
          {"bootstrap_resamples", c.bootstrap_resamples},
          {"bootstrap_resamples_requested", c.bootstrap_resamples_requested},
          {"seed", c.seed},
          {"verdict",
           {{"name", verdict_name(c.verdict)},
            {"word", verdict_word(c.verdict)},
            {"sentence", c.sentence}}},
          {"warning", c.warning}};
}

json drift_json(const Drift& d) {
  return {{"rho", d.rho},           {"p_value", d.p_value},    {"change", d.change},
          {"detected", d.detected}, {"alpha", d.alpha},        {"threshold", d.threshold},
          {"rounds", d.rounds},     {"min_rounds", d.min_rounds},
          {"critical_rho", number_or_null(d.critical_rho)},   {"sentence", d.sentence}};
}

val summarize_sample_js(val values, val options) {
  const std::vector<double> sample = to_sample(values, "values");
  check_option_keys(options, {"bootstrap_resamples", "seed"});
  SummaryOptions o;
  read_option(options, "bootstrap_resamples",
              [&](const val& v, const std::string& n) { o.bootstrap_resamples = to_int(v, n); });
  read_option(options, "seed",
              [&](const val& v, const std::string& n) { o.seed = to_seed_option(v, n); });
  return to_val(summary_json(summarize(sample, "values", o)));
}

val compare_samples_js(val a, val b, val options) {
  const std::vector<double> sample_a = to_sample(a, "a");
  const std::vector<double> sample_b = to_sample(b, "b");
  check_option_keys(options, {"alpha", "threshold", "bootstrap_resamples", "seed", "min_samples"});
  return to_val(
      comparison_json(compare_samples(sample_a, sample_b, to_compare_options(options), "a", "b")));
}

val fit_complexity_js(val sizes, val times) {
  const std::vector<double> ns = to_sample(sizes, "sizes");
  const std::vector<double> ts = to_sample(times, "times");
  const ComplexityReport r = fit_complexity(ns, ts);
  json fits = json::array();
  for (const ComplexityFit& f : r.fits) {
    fits.push_back({{"complexity", f.name},
                    {"coefficient", f.coefficient},
                    {"normalized_rms", f.normalized_rms},
                    // NaN (log n at n = 1) travels as null
                    {"expected_exponent", std::isfinite(f.expected_exponent)
                                              ? json(f.expected_exponent)
                                              : json(nullptr)}});
  }
  return to_val({{"fits", fits},
                 {"power_law",
                  {{"exponent", r.power_law.exponent},
                   {"coefficient", r.power_law.coefficient},
                   {"exponent_interval", interval_json(r.power_law.exponent_interval)},
                   {"r_squared", r.power_law.r_squared}}},
                 {"named_class", r.named_class},
                 {"conclusion", r.conclusion},
                 {"warning", r.warning}});
}

AbMode to_ab_mode(const val& v, const std::string& name = "options.mode") {
  const std::string mode = to_string(v, name);
  if (mode == ab_mode_name(AbMode::interleaved)) return AbMode::interleaved;
  if (mode == ab_mode_name(AbMode::sequential)) return AbMode::sequential;
  throw ValueError(name + " must be \"interleaved\" or \"sequential\", got " + describe(v));
}

// The fields of an A/B run about its rounds, the same for runAB and analyzeAB.
json ab_result_json(const AbResult& r) {
  json a_first = json::array();
  for (bool f : r.a_first) a_first.push_back(f);
  return {{"mode", ab_mode_name(r.mode)},
          {"rounds", r.a_ms.size()},
          {"a_ms", r.a_ms},
          {"b_ms", r.b_ms},
          {"a_first", a_first},
          {"drift_a", drift_json(r.drift_a)},
          {"drift_b", drift_json(r.drift_b)},
          {"comparison", comparison_json(r.comparison)}};
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
  out.update(ab_result_json(r));
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
  return to_val(ab_result_json(analyze_ab(a, b, first, o)));
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
  return to_val({{"samples_ms", s.samples_ms},
                 {"inner_iterations", s.inner_iterations},
                 {"resolution_ms", s.resolution_ms},
                 {"clock_tick_ms", s.clock_tick_ms},
                 {"warning", s.warning}});
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
  const CoverageReport r = interval_coverage(ref, ns, o);
  const auto method = [](const MethodCoverage& m) {
    return json{{"mean_width", m.mean_width},
                {"coverage", m.coverage},
                {"coverage_interval", interval_json(m.coverage_interval)},
                {"finding", coverage_finding_name(m.finding)}};
  };
  json rows = json::array();
  for (const CoverageRow& row : r.rows) {
    rows.push_back({{"n", row.n}, {"z", method(row.z)}, {"t", method(row.t)},
                    {"bootstrap", method(row.bootstrap)}, {"sentence", row.sentence}});
  }
  return to_val({{"reference_median", r.reference_median},
                 {"reference_n", r.reference_n},
                 {"trials", r.trials},
                 {"bootstrap_resamples", r.bootstrap_resamples},
                 {"seed", r.seed},
                 {"rows", rows}});
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
