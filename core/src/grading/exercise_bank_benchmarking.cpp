// The Benchmarking chapter's exercises: batching against a coarse clock, a sample's summary
// and the original course's z interval, a linear-rule percentile, mean or median, Tukey's
// fences, t at n = 5, reading a ratio's interval, Mann-Whitney U and Cliff's delta by hand,
// three JavaScript functions (a seeded bootstrap interval, a balanced interleaved schedule, a
// complexity classifier), and three questions graded from the student's own A/A, complexity
// and A/B runs. Every statistic comes from stats/ (summarize, percentile, student_t_quantile,
// mann_whitney_u, cliffs_delta, compare_samples, fit_complexity); nothing here re-derives
// them. The code exercises' generator, mulberry32, is reimplemented here bit for bit so that
// core computes what a correct JavaScript solution returns.
// Texts: core/exercises/benchmarking.json.
// Not for: prose (the data file); seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/detail/compare_cache.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/complexity.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// ---- shared pieces ----------------------------------------------------------------------

// mulberry32, the generator the code exercises' starter code gives the student, in uint32
// arithmetic exactly as JavaScript's Math.imul and >>> compute it (Math.imul is the low 32
// bits of the product, as uint32 multiplication is).
class Mulberry32 {
 public:
  explicit Mulberry32(std::uint32_t seed) : a_(seed) {}
  // Uniform in [0, 1), the same double JavaScript's rng() returns.
  double next() {
    a_ += 0x6D2B79F5u;
    std::uint32_t t = (a_ ^ (a_ >> 15)) * (1u | a_);
    t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }

 private:
  std::uint32_t a_;
};

// A seed for mulberry32 that JavaScript's `a |= 0` keeps as it is (below 2^31).
std::uint32_t draw_js_seed(Rng& rng) {
  return static_cast<std::uint32_t>(rng.integer(1, 2'147'483'647));
}

// "12.31, 12.5, 13.02": the values as the prompt shows them (they are already rounded).
std::string join_numbers(const std::vector<double>& values) {
  std::string text;
  for (double x : values) text += (text.empty() ? "" : ", ") + format_param(json(x));
  return text;
}

// n timing samples around base_ms, right-skewed as timings are (most near the base, a few
// slower), rounded to 2 decimals.
std::vector<double> draw_times(Rng& rng, int n, double base_ms, double spread) {
  std::vector<double> values;
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform();
    values.push_back(round_to(base_ms * (1.0 - spread / 4 + spread * u * u), 2));
  }
  return values;
}

// x rounded to `digits` significant digits.
double round_significant(double x, int digits) {
  if (x == 0) return 0;
  const int decimals = digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(x))));
  return round_to(x, decimals);
}

// Times a student computes by hand and types with a few decimals.
constexpr Tolerance kTimeTight{0.002, 0.005};

// ---- benchmarking.batching --------------------------------------------------------------

struct BrowserClock {
  const char* fragment;
  std::int64_t resolution_ns;
};

VariantData draw_batching(Rng& rng, const Fragments& fragments) {
  // The browsers' coarsened performance.now() (DESIGN.md, "Timing").
  static const BrowserClock clocks[] = {
      {"isolated", 5'000}, {"chromium", 100'000}, {"firefox", 1'000'000}};
  static const std::int64_t scales_ns[] = {10, 100, 1000};
  const BrowserClock clock = pick(rng, clocks);
  // One draw per statement: the order of a call's arguments or of an operator's operands is
  // unspecified in C++ (g++ and clang differ), and the page must draw what the CLI draws.
  const std::int64_t digits = rng.integer(2, 99);
  const std::int64_t call_ns = digits * pick(rng, scales_ns);
  // In integer nanoseconds, so the rounding up is exact.
  const TimerOptions defaults;
  const std::int64_t target_ns =
      std::max(std::llround(defaults.resolution_multiple) * clock.resolution_ns,
               std::llround(defaults.min_sample_ms * 1e6));
  const std::int64_t calls = (target_ns + call_ns - 1) / call_ns;
  VariantData v;
  v.params = {{"resolution_us", clock.resolution_ns / 1000},
              {"browser", fragments.render(clock.fragment, json::object())},
              {"call_us", static_cast<double>(call_ns) / 1000.0}};
  v.expected_values = {static_cast<double>(target_ns) / 1e6, static_cast<double>(calls)};
  return v;
}

// ---- benchmarking.summary-interval ------------------------------------------------------

VariantData draw_summary_interval(Rng& rng, const Fragments&) {
  const int n = static_cast<int>(rng.integer(6, 10));
  const std::vector<double> samples = draw_times(rng, n, rng.uniform(2.0, 30.0), 0.3);
  const Summary s = summarize(samples, "samples_ms");
  VariantData v;
  v.params = {{"n", n}, {"samples_ms", samples}, {"samples_text", join_numbers(samples)}};
  v.expected_values = {s.mean, s.std, s.z_interval.low, s.z_interval.high};
  return v;
}

// ---- benchmarking.percentile ------------------------------------------------------------

constexpr Tolerance kPercentileTolerance{0.001, 0.005};

VariantData draw_percentile(Rng& rng, const Fragments&) {
  static const std::int64_t ps[] = {10, 25, 75, 90, 95};
  for (;;) {
    const auto n = rng.integer(7, 12);
    const std::int64_t p = pick(rng, ps);
    const std::vector<double> samples =
        draw_times(rng, static_cast<int>(n), rng.uniform(1.0, 40.0), 0.4);
    // The position must fall between two values far enough apart that interpolating
    // matters: either neighbour (what the nearest-rank rule gives) is outside the tolerance.
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    const auto k = static_cast<std::size_t>((n - 1) * p / 100);
    if ((n - 1) * p % 100 == 0) continue;
    const double answer = percentile(samples, static_cast<double>(p), "samples_ms");
    const double margin = 2 * std::max(kPercentileTolerance.abs, kPercentileTolerance.rel * answer);
    if (answer - sorted[k] <= margin || sorted[k + 1] - answer <= margin) continue;
    VariantData v;
    v.params = {
        {"n", n}, {"p", p}, {"samples_ms", samples}, {"samples_text", join_numbers(samples)}};
    v.expected_value = answer;
    return v;
  }
}

// ---- benchmarking.mean-or-median --------------------------------------------------------

// Choices in the bank's order: question 1's statistic, then question 2's (the mean adds 2 for
// question 1, 1 for question 2): "median, median", "median, mean", "mean, median", "mean,
// mean".
// The questions (the data file's fragments), half answered by each statistic, walked through
// two per try.
struct StatisticQuestion {
  const char* fragment;
  bool mean;
};
constexpr StatisticQuestion kStatisticQuestions[] = {
    {"typical", false}, {"one-click", false}, {"last-week", false},
    {"total", true},    {"throughput", true}, {"budget-day", true},
};

VariantData draw_mean_or_median(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  // Eight calls within a few percent of a base time and one a pause made 5-12× slower: the
  // median describes a call, the mean × calls adds up the job, pauses included.
  static const std::int64_t job_calls[] = {1000, 5000, 20'000, 100'000};
  const double base_ms = rng.uniform(1.5, 20.0);
  std::vector<double> samples;
  for (int i = 0; i < 9; ++i) samples.push_back(round_to(base_ms * rng.uniform(0.95, 1.08), 2));
  samples[static_cast<std::size_t>(rng.integer(0, 8))] = round_to(base_ms * rng.uniform(5, 12), 2);
  const Summary s = summarize(samples, "samples_ms");
  const std::size_t pool = std::size(kStatisticQuestions);
  const StatisticQuestion& q1 = kStatisticQuestions[pool_item(t, pool, 0, 2)];
  const StatisticQuestion& q2 = kStatisticQuestions[pool_item(t, pool, 1, 2)];
  VariantData v;
  v.params = {{"n", 9},
              {"samples_ms", samples},
              {"samples_text", join_numbers(samples)},
              {"median_ms", s.median},
              {"mean_ms", round_to(s.mean, 2)}};
  const json calls = {{"calls", pick(rng, job_calls)}};
  v.params["question_1"] = fragments.render(q1.fragment, calls);
  v.params["question_2"] = fragments.render(q2.fragment, calls);
  v.correct_choice = (q1.mean ? 2 : 0) + (q2.mean ? 1 : 0);
  return v;
}

// ---- benchmarking.tukey-fences ----------------------------------------------------------

VariantData draw_tukey_fences(Rng& rng, const Fragments&) {
  for (;;) {
    const int n = static_cast<int>(rng.integer(9, 14));
    const double base_ms = rng.uniform(1.0, 30.0);
    std::vector<double> samples;
    for (int i = 0; i < n; ++i) samples.push_back(round_to(base_ms * rng.uniform(0.95, 1.12), 2));
    const auto slow = rng.integer(0, 2);
    for (std::int64_t i = 0; i < slow; ++i) {
      samples[static_cast<std::size_t>(rng.integer(0, n - 1))] =
          round_to(base_ms * rng.uniform(1.4, 4.0), 2);
    }
    const Summary s = summarize(samples, "samples_ms");
    // No value within 1% of the fence: a fence a little off must not change the count.
    const bool clear = std::none_of(samples.begin(), samples.end(), [&](double x) {
      return std::fabs(x - s.upper_fence) < 0.01 * s.upper_fence;
    });
    if (!clear) continue;
    const auto above = std::count_if(s.outliers.begin(), s.outliers.end(),
                                     [&](const Outlier& o) { return o.value > s.upper_fence; });
    VariantData v;
    v.params = {{"n", n}, {"samples_ms", samples}, {"samples_text", join_numbers(samples)}};
    v.expected_values = {s.upper_fence, static_cast<double>(above)};
    return v;
  }
}

// ---- benchmarking.t-or-z ----------------------------------------------------------------

VariantData draw_t_or_z(Rng& rng, const Fragments&) {
  constexpr int n = 5;
  const std::vector<double> samples = draw_times(rng, n, rng.uniform(20.0, 400.0), 0.4);
  const Summary s = summarize(samples, "samples_ms");
  VariantData v;
  v.params = {{"n", n}, {"samples_ms", samples}, {"samples_text", join_numbers(samples)}};
  v.expected_values = {student_t_quantile(0.975, n - 1), s.t_interval.low, s.t_interval.high};
  return v;
}

// ---- benchmarking.bootstrap-ci ----------------------------------------------------------

constexpr int kBootstrapResamples = 1000;

// What the exercise's recipe returns: resamples drawn value by value with mulberry32(seed),
// their medians, and the 2.5th and 97.5th percentiles of the sorted medians (linear rule).
std::vector<double> js_bootstrap_ci(const std::vector<double>& xs, std::uint32_t seed) {
  Mulberry32 rng(seed);
  const double n = static_cast<double>(xs.size());
  std::vector<double> medians(kBootstrapResamples);
  std::vector<double> resample(xs.size());
  for (double& m : medians) {
    for (double& r : resample) r = xs[static_cast<std::size_t>(std::floor(rng.next() * n))];
    m = percentile(resample, 50.0, "resample");
  }
  return {percentile(medians, 2.5, "medians"), percentile(medians, 97.5, "medians")};
}

CodeTest bootstrap_test(std::string name, const std::vector<double>& xs, std::uint32_t seed) {
  return {std::move(name), json::array({json(xs), seed}), json(js_bootstrap_ci(xs, seed))};
}

VariantData draw_bootstrap_ci(Rng& rng, const Fragments&) {
  VariantData v;
  // Six values or more: with five, both ends are the sample's min and max for most samples,
  // which the resamples' first values would give as well.
  // One draw per statement: the order of a call's arguments is unspecified in C++ (g++ and
  // clang differ), and the page must draw exactly what the CLI draws.
  const auto add = [&](const char* name, std::vector<double> times) {
    const std::uint32_t seed = draw_js_seed(rng);
    v.tests.push_back(bootstrap_test(name, std::move(times), seed));
  };
  add("6 times", draw_times(rng, 6, rng.uniform(1, 20), 0.3));
  add("8 times (even length)", draw_times(rng, 8, rng.uniform(1, 20), 0.3));
  add("15 times", draw_times(rng, 15, rng.uniform(1, 20), 0.5));
  std::vector<double> slow = draw_times(rng, 11, rng.uniform(1, 20), 0.2);
  slow[3] = round_to(slow[3] * rng.uniform(4, 9), 2);
  slow[8] = round_to(slow[8] * rng.uniform(4, 9), 2);
  add("11 times, two of them slow outliers", std::move(slow));
  const double one = round_to(rng.uniform(1, 20), 2);
  add("one time", {one});
  // Forty values: the resamples' medians take hundreds of distinct values, so the interval's
  // ends depend on the exact draws; with the small samples above another generator often
  // lands on the same ends (an unseeded Math.random passed every other test 8% of the time).
  add("40 times (even length)", draw_times(rng, 40, rng.uniform(1, 20), 0.5));
  return v;
}

// ---- benchmarking.ratio-interval --------------------------------------------------------

// Indices in the exercise's `choices`.
constexpr int kFaster = 0;
constexpr int kSlower = 1;
constexpr int kNoSignificantDifference = 2;
constexpr int kNegligible = 3;

// compare_samples' verdict rule (compare.hpp) read from the interval alone, with the test
// assumed to agree with it.
int ratio_verdict(double ratio, double low, double high, double threshold) {
  if (low <= 1.0 && 1.0 <= high) return kNoSignificantDifference;
  if (ratio > 1.0 + threshold) return kFaster;
  if (1.0 / ratio > 1.0 + threshold) return kSlower;
  return kNegligible;
}

VariantData draw_ratio_interval(Rng& rng, const Fragments&, const ChoiceTry&) {
  const double threshold = CompareOptions{}.threshold;
  for (;;) {
    const auto kind = rng.integer(0, 3);
    double ratio = 1, low = 1, high = 1;
    if (kind == kFaster) {
      ratio = rng.uniform(1.05, 1.6);
      low = ratio - rng.uniform(0.01, ratio - 1.01);
      high = ratio + rng.uniform(0.01, 0.15);
    } else if (kind == kSlower) {
      ratio = rng.uniform(0.6, 0.95);
      high = ratio + rng.uniform(0.01, 0.99 - ratio);
      low = ratio - rng.uniform(0.01, 0.15);
    } else if (kind == kNoSignificantDifference) {
      ratio = rng.uniform(0.93, 1.07);
      low = rng.uniform(0.85, std::min(ratio, 0.995));
      high = rng.uniform(std::max(ratio, 1.005), 1.15);
    } else {
      const double deviation = rng.uniform(0.003, threshold * 0.75);
      const bool above = rng.integer(0, 1) == 0;
      ratio = above ? 1 + deviation : 1 - deviation;
      const double inner = deviation * rng.uniform(0.2, 0.8);
      const double outer = rng.uniform(0.002, 0.012);
      low = above ? 1 + inner : ratio - outer;
      high = above ? ratio + outer : 1 - inner;
    }
    ratio = round_to(ratio, 3);
    low = round_to(low, 3);
    high = round_to(high, 3);
    // Nothing on an edge after rounding: an end at exactly 1, or a ratio at the threshold.
    const bool fair = low < ratio && ratio < high && low != 1.0 && high != 1.0 &&
                      std::fabs(ratio - (1 + threshold)) > 0.004 &&
                      std::fabs(1 / ratio - (1 + threshold)) > 0.004;
    if (!fair) continue;
    VariantData v;
    v.params = {{"ratio", ratio}, {"low", low}, {"high", high}};
    shuffle_choices(v, 4, ratio_verdict(ratio, low, high, threshold), rng);
    return v;
  }
}

// ---- benchmarking.mann-whitney ----------------------------------------------------------

VariantData draw_mann_whitney(Rng& rng, const Fragments&) {
  const auto n_a = rng.integer(3, 5);
  const auto n_b = rng.integer(3, 5);
  // One decimal over a narrow range: ties happen now and then, as the ½ rule needs.
  const double a_center = rng.uniform(5.0, 15.0);
  const double b_center = a_center + rng.uniform(-1.5, 1.5);
  std::vector<double> a, b;
  for (std::int64_t i = 0; i < n_a; ++i) a.push_back(round_to(a_center + rng.uniform(-1, 1), 1));
  for (std::int64_t i = 0; i < n_b; ++i) b.push_back(round_to(b_center + rng.uniform(-1, 1), 1));
  VariantData v;
  v.params = {{"n_a", n_a},
              {"n_b", n_b},
              {"a_ms", a},
              {"b_ms", b},
              {"a_text", join_numbers(a)},
              {"b_text", join_numbers(b)}};
  v.expected_values = {mann_whitney_u(a, b).u, cliffs_delta(a, b)};
  return v;
}

// ---- benchmarking.interleaved-schedule --------------------------------------------------

// The recipe of the exercise: rounds/2 rounds [A, B], then rounds/2 [B, A], shuffled by
// Fisher-Yates from the end with mulberry32(seed).
json js_schedule(int rounds, std::uint32_t seed) {
  std::vector<bool> a_first(static_cast<std::size_t>(rounds), false);
  std::fill(a_first.begin(), a_first.begin() + rounds / 2, true);
  Mulberry32 rng(seed);
  for (int i = rounds - 1; i > 0; --i) {
    const auto j = static_cast<int>(std::floor(rng.next() * (i + 1)));
    const bool swapped = a_first[static_cast<std::size_t>(i)];
    a_first[static_cast<std::size_t>(i)] = a_first[static_cast<std::size_t>(j)];
    a_first[static_cast<std::size_t>(j)] = swapped;
  }
  json out = json::array();
  for (bool first : a_first) out.push_back(first ? json{"A", "B"} : json{"B", "A"});
  return out;
}

CodeTest schedule_test(std::string name, int rounds, std::uint32_t seed) {
  return {std::move(name), json::array({rounds, seed}), js_schedule(rounds, seed)};
}

VariantData draw_interleaved_schedule(Rng& rng, const Fragments&) {
  const int lab_rounds = AbOptions{}.rounds;  // even, as the recipe needs
  VariantData v;
  v.tests.push_back(schedule_test("2 rounds", 2, draw_js_seed(rng)));
  v.tests.push_back(schedule_test("6 rounds", 6, draw_js_seed(rng)));
  const int some = 2 * static_cast<int>(rng.integer(4, 9));
  v.tests.push_back(schedule_test(std::to_string(some) + " rounds", some, draw_js_seed(rng)));
  v.tests.push_back(schedule_test(std::to_string(lab_rounds) + " rounds (the lab's default)",
                                  lab_rounds, draw_js_seed(rng)));
  v.tests.push_back(schedule_test("no rounds", 0, draw_js_seed(rng)));
  return v;
}

// ---- benchmarking.classify-complexity ---------------------------------------------------

constexpr ComplexityClass kClasses[] = {ComplexityClass::constant,  ComplexityClass::log_n,
                                        ComplexityClass::n,         ComplexityClass::n_log_n,
                                        ComplexityClass::n_squared, ComplexityClass::n_cubed};

// The string classify() returns for a class: complexity_name without "O(" and ")": "n^2".
std::string class_label(const std::string& name) { return name.substr(2, name.size() - 3); }

// Times of `truth` at doubling sizes with ±4% noise, rounded to 4 significant digits, redrawn
// until core's best fit is `truth` with the runner-up at least twice as far off: a correct
// classifier cannot land on another class by rounding.
CodeTest classify_test(Rng& rng, ComplexityClass truth) {
  static const std::int64_t starts[] = {8, 16, 32, 64};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::int64_t start = pick(rng, starts);
    const auto points = rng.integer(6, 8);
    std::vector<double> sizes;
    for (std::int64_t i = 0; i < points; ++i) sizes.push_back(static_cast<double>(start << i));
    const double largest_ms = rng.uniform(5.0, 500.0);
    const double c = largest_ms / complexity_curve(truth, sizes.back());
    std::vector<double> times;
    for (double n : sizes) {
      times.push_back(
          round_significant(c * complexity_curve(truth, n) * rng.uniform(0.96, 1.04), 4));
    }
    const ComplexityReport report = fit_complexity(sizes, times);
    if (report.fits[0].complexity != truth ||
        report.fits[1].normalized_rms < 2 * report.fits[0].normalized_rms) {
      continue;
    }
    const std::string label = class_label(report.fits[0].name);
    return {"a kernel of class " + label, json::array({sizes, times}), json(label)};
  }
  throw Error("benchmarking.classify-complexity: no clear data for " +
              std::string(complexity_name(truth)) + " after 1000 draws");
}

VariantData draw_classify_complexity(Rng& rng, const Fragments&) {
  // Every class once, in a per-variant order, so a constant answer passes one test in six.
  std::vector<ComplexityClass> order(std::begin(kClasses), std::end(kClasses));
  shuffle(order, rng);
  VariantData v;
  for (std::size_t i = 0; i < order.size(); ++i) {
    CodeTest test = classify_test(rng, order[i]);
    test.name = "data set " + std::to_string(i + 1);  // the name must not give the class away
    v.tests.push_back(std::move(test));
  }
  return v;
}

// ---- reading the student's rows ---------------------------------------------------------

std::string no_field(const Exercise& e, std::size_t i, const std::string& field) {
  return evidence_row_at(i) + " has no field \"" + field + "\"; rows of " + e.evidence.experiment +
         " carry it (this exercise reads " + e.evidence.what +
         "): send the rows of that experiment as they are";
}

// rows[i][field] as a string ("interleaved", "naive").
std::string evidence_text(const Exercise& e, const json& rows, std::size_t i,
                          const std::string& field) {
  const json& row = rows.at(i);
  if (!row.contains(field)) throw ValueError(no_field(e, i, field));
  if (!row.at(field).is_string()) {
    throw ValueError(evidence_row_at(i) + "." + field + " must be a string, got " +
                     describe_value(row.at(field)) + "; run " + e.evidence.title + " again");
  }
  return row.at(field).get<std::string>();
}

// rows[i][field] as at least `min_count` times in ms (finite, ≥ 0); `remedy` says what to run
// when there are fewer.
std::vector<double> evidence_samples(const Exercise& e, const json& rows, std::size_t i,
                                     const std::string& field, std::size_t min_count,
                                     const std::string& remedy) {
  const json& row = rows.at(i);
  if (!row.contains(field)) throw ValueError(no_field(e, i, field));
  const json& list = row.at(field);
  const std::string where = evidence_row_at(i) + "." + field;
  if (!list.is_array()) {
    throw ValueError(where + " must be an array of times in ms, got " + describe_value(list) +
                     "; run " + e.evidence.title + " again");
  }
  std::vector<double> values;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const json& x = list[k];
    if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() < 0) {
      throw ValueError(where + "[" + std::to_string(k) + "] must be a finite number >= 0, got " +
                       describe_value(x) + "; run " + e.evidence.title + " again");
    }
    values.push_back(x.get<double>());
  }
  if (values.size() < min_count) {
    throw ValueError(where + " has " + std::to_string(values.size()) + " sample" +
                     (values.size() == 1 ? "" : "s") + "; this exercise needs at least " +
                     std::to_string(min_count) + ": " + remedy);
  }
  return values;
}

// rows[i].comparison.seed: the bootstrap seed core's comparison of that row used and reported.
std::uint64_t evidence_seed(const Exercise& e, const json& rows, std::size_t i) {
  const json& row = rows.at(i);
  if (!row.contains("comparison") || !row.at("comparison").is_object()) {
    throw ValueError(no_field(e, i, "comparison") + " (core's comparison, with its seed)");
  }
  const json& comparison = row.at("comparison");
  const json seed = comparison.value("seed", json(nullptr));
  constexpr double kMaxExactInteger = 9007199254740991.0;  // 2^53 − 1, a JS number's limit
  const bool ok = seed.is_number() && std::isfinite(seed.get<double>()) &&
                  seed.get<double>() >= 0 && seed.get<double>() <= kMaxExactInteger &&
                  std::trunc(seed.get<double>()) == seed.get<double>();
  if (!ok) {
    throw ValueError(evidence_row_at(i) +
                     ".comparison.seed must be an integer from 0 to 2^53 − 1 (the "
                     "seed core's comparison reports), got " +
                     describe_value(seed) + "; run " + e.evidence.title + " again");
  }
  return seed.is_number_unsigned() ? seed.get<std::uint64_t>()
                                   : static_cast<std::uint64_t>(seed.get<double>());
}

// compare_samples on a row's a_ms and b_ms, with default options and the row's seed: what
// the page's run computed, recomputed here from the raw samples.
Comparison recompare(const Exercise& e, const json& rows, std::size_t i,
                     const std::string& remedy) {
  CompareOptions options;
  const auto min_count = static_cast<std::size_t>(options.min_samples);
  const std::vector<double> a = evidence_samples(e, rows, i, "a_ms", min_count, remedy);
  const std::vector<double> b = evidence_samples(e, rows, i, "b_ms", min_count, remedy);
  options.seed = evidence_seed(e, rows, i);
  return compare_samples_cached(a, b, options, evidence_row_at(i) + ".a_ms", evidence_row_at(i) + ".b_ms");
}

// ---- experiment-backed: the student's A/A runs ------------------------------------------

// Two counts the page does not print: the runs the rank test alone calls (p < alpha) and the
// runs whose ratio interval alone excludes 1; core's verdict needs both and the threshold.
void aa_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  int rank_calls = 0, interval_calls = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string a = evidence_text(e, rows, i, "variant_a");
    const std::string b = evidence_text(e, rows, i, "variant_b");
    if (a != b) {
      throw ValueError(evidence_row_at(i) + " compares variant " + a + " with " + b +
                       "; an A/A run compares a variant with itself: run the A/A experiment "
                       "again");
    }
    const Comparison c = recompare(e, rows, i, "run the A/A experiment with 5 rounds or more");
    if (c.mann_whitney.p_value < c.alpha) ++rank_calls;
    if (c.ratio_interval.low > 1 || c.ratio_interval.high < 1) ++interval_calls;
  }
  v.expected_values = {static_cast<double>(rank_calls), static_cast<double>(interval_calls)};
}

// ---- experiment-backed: the student's complexity run ------------------------------------

constexpr const char* kSlopeOp = "matmul";
constexpr const char* kSlopeVariant = "naive";
constexpr std::size_t kMinSlopeSizes = 3;
constexpr std::size_t kMinSlopeSamples = 3;

// The local log-log slopes between the two smallest and the two largest sizes (the page prints
// the fit over all sizes): how the exponent itself changes with N.
void slope_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  std::vector<double> sizes, medians;
  std::set<std::string> kernels;
  std::set<double> distinct;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string op = evidence_text(e, rows, i, "op");
    const std::string variant = evidence_text(e, rows, i, "variant");
    kernels.insert(op + " " + variant);
    if (op != kSlopeOp || variant != kSlopeVariant) continue;
    const double n = evidence_number(e, rows, i, "n");
    const std::vector<double> samples =
        evidence_samples(e, rows, i, "samples_ms", kMinSlopeSamples,
                         "run the complexity experiment with 3 samples per size or more");
    const double median = percentile(samples, 50.0, evidence_row_at(i) + ".samples_ms");
    if (!(median > 0)) {
      throw ValueError(evidence_row_at(i) +
                       ".samples_ms has a median of 0 ms, which has no logarithm; "
                       "run the complexity experiment again");
    }
    sizes.push_back(n);
    medians.push_back(median);
    distinct.insert(n);
  }
  if (sizes.empty()) {
    std::string has;
    for (const auto& k : kernels) has += (has.empty() ? "" : ", ") + k;
    throw ValueError("your run of the complexity experiment has no rows of matmul naive (it has " +
                     has +
                     "); run the complexity experiment with the naive matmul at three "
                     "sizes or more first");
  }
  if (distinct.size() < kMinSlopeSizes) {
    std::string has;
    for (double n : distinct) has += (has.empty() ? "" : ", ") + describe_value(json(n));
    throw ValueError("your run of the complexity experiment has the naive matmul at " +
                     std::to_string(distinct.size()) + " size" + (distinct.size() == 1 ? "" : "s") +
                     " (" + has + "); run it at three sizes or more");
  }
  // One median per size (the first row of a size, as the fit would weigh a repeated one).
  std::vector<std::pair<double, double>> points;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const bool seen = std::any_of(points.begin(), points.end(),
                                  [&](const auto& p) { return p.first == sizes[k]; });
    if (!seen) points.emplace_back(sizes[k], medians[k]);
  }
  std::sort(points.begin(), points.end());
  const auto slope = [](const std::pair<double, double>& p, const std::pair<double, double>& q) {
    return std::log(q.second / p.second) / std::log(q.first / p.first);
  };
  const std::size_t last = points.size() - 1;
  v.expected_values = {slope(points[0], points[1]), slope(points[last - 1], points[last])};
}

// ---- experiment-backed: the capstone, the student's own A/B run -------------------------

// rows[i].a_first: which arm ran first in each round, one boolean per sample.
std::vector<bool> evidence_order(const Exercise& e, const json& rows, std::size_t i,
                                 std::size_t rounds) {
  const json& row = rows.at(i);
  if (!row.contains("a_first")) throw ValueError(no_field(e, i, "a_first"));
  const json& list = row.at("a_first");
  if (!list.is_array() || list.size() != rounds) {
    throw ValueError(evidence_row_at(i) + ".a_first must be an array of " + std::to_string(rounds) +
                     " booleans (one per round), got " + describe_value(list) + "; run " +
                     e.evidence.title + " again");
  }
  std::vector<bool> order;
  for (std::size_t r = 0; r < rounds; ++r) {
    if (!list[r].is_boolean()) {
      throw ValueError(evidence_row_at(i) + ".a_first[" + std::to_string(r) + "] must be true or false, got " +
                       describe_value(list[r]) + "; run " + e.evidence.title + " again");
    }
    order.push_back(list[r].get<bool>());
  }
  return order;
}

// What a paired reading of the interleaved rounds gives, none of it printed by the page: the
// median of the per-round ratios a/b, the rounds B won, and the ratio of medians over the
// rounds in which A ran first (the order effect interleaving balances).
void capstone_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  std::set<std::string> modes;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string mode = evidence_text(e, rows, i, "mode");
    if (mode != "interleaved") {
      modes.insert(mode);
      continue;
    }
    // The first interleaved row: the experiment runs one.
    const std::string remedy = "run the A/B experiment with 5 rounds or more";
    const std::vector<double> a = evidence_samples(e, rows, i, "a_ms", 5, remedy);
    const std::vector<double> b = evidence_samples(e, rows, i, "b_ms", 5, remedy);
    if (a.size() != b.size()) {
      throw ValueError(evidence_row_at(i) + " has " + std::to_string(a.size()) + " samples of A and " +
                       std::to_string(b.size()) + " of B; a round takes one of each: run " +
                       e.evidence.title + " again");
    }
    const std::vector<bool> a_first = evidence_order(e, rows, i, a.size());
    std::vector<double> ratios, a_led, b_led;
    int b_wins = 0;
    for (std::size_t r = 0; r < a.size(); ++r) {
      if (!(b[r] > 0)) {
        throw ValueError(evidence_row_at(i) + ".b_ms[" + std::to_string(r) +
                         "] is 0 ms, which has no ratio; run " + e.evidence.title + " again");
      }
      ratios.push_back(a[r] / b[r]);
      if (b[r] < a[r]) ++b_wins;
      if (a_first[r]) {
        a_led.push_back(a[r]);
        b_led.push_back(b[r]);
      }
    }
    if (a_led.empty()) {
      throw ValueError("your interleaved run of the A/B experiment has no round in which A ran "
                       "first; run it again with more rounds");
    }
    const double b_led_median = percentile(b_led, 50.0, evidence_row_at(i) + ".b_ms");
    if (!(b_led_median > 0)) {
      throw ValueError(evidence_row_at(i) + ".b_ms has a median of 0 ms over the rounds A ran first, which "
                       "has no ratio; run " + e.evidence.title + " again");
    }
    v.expected_values = {percentile(ratios, 50.0, evidence_row_at(i) + " ratios"),
                         static_cast<double>(b_wins),
                         percentile(a_led, 50.0, evidence_row_at(i) + ".a_ms") / b_led_median};
    return;
  }
  std::string has;
  for (const auto& m : modes) has += (has.empty() ? "" : ", ") + m;
  throw ValueError("your run of the A/B experiment has no row with mode interleaved (it has " +
                   has + "); run the A/B experiment with the interleaved mode first");
}

}  // namespace

// Each exercise's prose is the entry with the same id in core/exercises/benchmarking.json,
// which also sets the order the page shows them in. Points: 10 a core skill, 15 an
// integrated exercise (several steps, or graded from the student's own runs), 20 the
// capstone (README.md, "Adding an exercise").
std::vector<ExerciseCode> benchmarking_exercises() {
  using enum ExerciseKind;
  const TimerOptions timer;
  const CompareOptions compare;
  return {
      // The prose quotes the timer's rule from its defaults, not a copy.
      {.id = "benchmarking.batching",
       .kind = Numeric,
       .points = 10,
       .draw = draw_batching,
       .parts = {{{0.001, 0.0}}, {kNearestInteger}},
       .constants = {{"resolution_multiple", timer.resolution_multiple},
                     {"min_sample_ms", timer.min_sample_ms}}},
      {.id = "benchmarking.summary-interval",
       .kind = Numeric,
       .points = 15,
       .draw = draw_summary_interval,
       .parts = {{kTimeTight}, {{0.01, 0.005}}, {kTimeTight}, {kTimeTight}}},
      {.id = "benchmarking.percentile",
       .kind = Numeric,
       .points = 10,
       .draw = draw_percentile,
       .tolerance = kPercentileTolerance},
      {.id = "benchmarking.mean-or-median",
       .kind = Choice,
       .points = 10,
       .draw_try = draw_mean_or_median},
      {.id = "benchmarking.tukey-fences",
       .kind = Numeric,
       .points = 10,
       .draw = draw_tukey_fences,
       .parts = {{kTimeTight}, {kNearestInteger}}},
      // A t table gives three decimals (2.776).
      {.id = "benchmarking.t-or-z",
       .kind = Numeric,
       .points = 10,
       .draw = draw_t_or_z,
       .parts = {{{0.005, 0.0}}, {kTimeTight}, {kTimeTight}}},
      // Medians of even length are a mean of two doubles, which students may compute in
      // another order: rounding differences, nothing more.
      {.id = "benchmarking.bootstrap-ci",
       .kind = Code,
       .points = 15,
       .draw = draw_bootstrap_ci,
       .tolerance = {1e-9, 1e-12},
       .constants = {{"resamples", kBootstrapResamples}}},
      {.id = "benchmarking.ratio-interval",
       .kind = Choice,
       .points = 10,
       .draw_try = draw_ratio_interval,
       .constants = {{"threshold_percent", compare.threshold * 100}}},
      {.id = "benchmarking.mann-whitney",
       .kind = Numeric,
       .points = 15,
       .draw = draw_mann_whitney,
       .parts = {{{0.0, 0.25}}, {{0.0, 0.005}}}},
      // Graded from the student's runs, right or wrong only: the counts are not on the page
      // and cannot be bisected from the feedback.
      {.id = "benchmarking.aa-false-positives",
       .kind = Numeric,
       .points = 15,
       .draw = draw_nothing,
       .parts = {{kNearestInteger}, {kNearestInteger}},
       .experiment = "benchmarking-aa",
       .from_evidence = aa_from_evidence,
       .constants = {{"alpha", compare.alpha}, {"threshold_percent", compare.threshold * 100}},
       .feedback_hides_answer = true},
      {.id = "benchmarking.interleaved-schedule",
       .kind = Code,
       .points = 10,
       .draw = draw_interleaved_schedule,
       .tolerance = {0.0, 0.0}},
      {.id = "benchmarking.classify-complexity",
       .kind = Code,
       .points = 15,
       .draw = draw_classify_complexity,
       .tolerance = {0.0, 0.0}},
      // The page prints the slope of the fit over every size, not these two local ones.
      {.id = "benchmarking.complexity-slope",
       .kind = Numeric,
       .points = 15,
       .draw = draw_nothing,
       .parts = {{{0.02, 0.02}}, {{0.02, 0.02}}},
       .experiment = "benchmarking-complexity",
       .from_evidence = slope_from_evidence,
       .feedback_hides_answer = true},
      // 20 points: the chapter's capstone, computed from the per-round CSV (the page prints
      // the ratio of medians, its interval and the verdict, none of these).
      {.id = "benchmarking.ab-capstone",
       .kind = Numeric,
       .points = 20,
       .draw = draw_nothing,
       .parts = {{{0.01, 0.0}}, {kNearestInteger}, {{0.01, 0.0}}},
       .experiment = "benchmarking-ab",
       .from_evidence = capstone_from_evidence,
       .feedback_hides_answer = true},
  };
}

}  // namespace perflab::detail
