// Protects one vocabulary for a sample's summary in JSON: Interval, Summary, the Timer's Stats,
// a comparison of two samples, an A/B's rounds and drifts, a kernel's raw samples, a
// complexity fit and an interval coverage report are each written
// and read back from one field list (json_fields.hpp), so writing then reading gives the same
// struct, an interval is {low, high} everywhere, and a missing or mistyped field is a sentence
// naming its path.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/complexity.hpp"
#include "perflab/stats/coverage.hpp"
#include "perflab/stats/lab_kernels.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/timing/timer.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

void check_same(const Summary& a, const Summary& b) {
  CHECK(a.n == b.n);
  CHECK(a.mean == b.mean);
  CHECK(a.std == b.std);
  CHECK(a.median == b.median);
  CHECK(a.min == b.min);
  CHECK(a.max == b.max);
  CHECK(a.p5 == b.p5);
  CHECK(a.p25 == b.p25);
  CHECK(a.p75 == b.p75);
  CHECK(a.p95 == b.p95);
  CHECK(a.p99 == b.p99);
  CHECK(a.mad == b.mad);
  CHECK(a.cv == b.cv);
  for (const auto& [x, y] : {std::pair{a.z_interval, b.z_interval}, {a.t_interval, b.t_interval},
                             {a.bootstrap_median_interval, b.bootstrap_median_interval}}) {
    CHECK(x.low == y.low);
    CHECK(x.high == y.high);
  }
  CHECK(a.bootstrap_resamples == b.bootstrap_resamples);
  CHECK(a.bootstrap_resamples_requested == b.bootstrap_resamples_requested);
  CHECK(a.bootstrap_seed == b.bootstrap_seed);
  CHECK(a.lower_fence == b.lower_fence);
  CHECK(a.upper_fence == b.upper_fence);
  REQUIRE(a.outliers.size() == b.outliers.size());
  for (std::size_t i = 0; i < a.outliers.size(); ++i) {
    CHECK(a.outliers[i].index == b.outliers[i].index);
    CHECK(a.outliers[i].value == b.outliers[i].value);
  }
  CHECK(a.warning == b.warning);
}

}  // namespace

TEST_CASE("an interval is the object {low, high} and reads back the same") {
  const Interval i{-0.25, 1.5};
  const json j = to_json(i);
  CHECK(j == json{{"low", -0.25}, {"high", 1.5}});
  const Interval back = interval_from_json(j);
  CHECK(back.low == -0.25);
  CHECK(back.high == 1.5);
  CHECK_THROWS_WITH_AS(interval_from_json(json::array({0.1, 0.2}), "row.change_interval"),
                       "row.change_interval must be an object, got [0.1,0.2]", ValueError);
  CHECK_THROWS_WITH_AS(interval_from_json(json{{"low", 1}}), "interval.high is missing",
                       ValueError);
}

TEST_CASE("a summary written to JSON reads back as the same summary") {
  // 40 is beyond Tukey's fences: the outlier list and the warning travel too; a seed past
  // 2^53 keeps every bit.
  SummaryOptions o;
  o.bootstrap_resamples = 200;
  o.seed = 9007199254740993ULL;
  const Summary s = summarize({1, 2, 3, 4, 5, 40}, "values", o);
  REQUIRE(s.outliers.size() == 1);
  REQUIRE_FALSE(s.warning.empty());
  const json j = to_json(s);
  CHECK(j["z_interval"] == json{{"low", s.z_interval.low}, {"high", s.z_interval.high}});
  CHECK(j["outliers"] == json::array({json{{"index", 5}, {"value", 40.0}}}));
  const Summary back = summary_from_json(j);
  check_same(s, back);
  CHECK(to_json(back) == j);
  SUBCASE("through text, as the page and the CLI pass it") {
    check_same(s, summary_from_json(json::parse(j.dump())));
  }
}

TEST_CASE("a summary with a missing or mistyped field is refused by the field's path") {
  const json good = to_json(summarize({1, 2, 3}, "values", {200, 1}));
  json j = good;
  j.erase("median");
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.median is missing", ValueError);
  j = good;
  j["t_interval"].erase("low");
  CHECK_THROWS_WITH_AS(summary_from_json(j, "rows[2].summary"),
                       "rows[2].summary.t_interval.low is missing", ValueError);
  j = good;
  j["n"] = -3;
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.n must be a whole number ≥ 0, got -3",
                       ValueError);
  j = good;
  j["n"] = 2.5;
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.n must be a whole number ≥ 0, got 2.5",
                       ValueError);
  j = good;
  j["mean"] = "2";
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.mean must be a number, got \"2\"",
                       ValueError);
  j = good;
  j["mean"] = -2;
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.mean must be a number ≥ 0, got -2",
                       ValueError);
  j = good;
  j["warning"] = nullptr;
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.warning must be a string, got null",
                       ValueError);
  j = good;
  j["outliers"] = json::array({json{{"index", 0}}});
  CHECK_THROWS_WITH_AS(summary_from_json(j), "summary.outliers[0].value is missing", ValueError);
  j = good;
  j["bootstrap_resamples"] = 1e12;
  CHECK_THROWS_WITH_AS(summary_from_json(j),
                       "summary.bootstrap_resamples must be an integer from -2147483648 to "
                       "2147483647, got 1e+12",
                       ValueError);
  CHECK_THROWS_WITH_AS(summary_from_json(json("summary")),
                       "summary must be an object, got \"summary\"", ValueError);
}

TEST_CASE("the Timer's stats written to JSON read back the same, without per_call_ms") {
  Stats s = compute_stats({10, 20, 30, 40});
  s.inner_iterations = 8;
  s.resolution_ms = 0.005;
  s.warning = "few samples";
  s.per_call_ms = {10, 20, 30, 40};
  const json j = to_json(s);
  CHECK(j.size() == 15);
  CHECK_FALSE(j.contains("per_call_ms"));
  const Stats back = stats_from_json(j);
  CHECK(back.per_call_ms.empty());
  CHECK(to_json(back) == j);
  CHECK(back.median_ms == 25);
  CHECK(back.ci95_low_ms == s.ci95_low_ms);
  CHECK(back.inner_iterations == 8);

  json wrong = j;
  wrong.erase("ci95_high_ms");
  CHECK_THROWS_WITH_AS(stats_from_json(wrong, "points[0].kernel.stats"),
                       "points[0].kernel.stats.ci95_high_ms is missing", ValueError);
  wrong = j;
  wrong["median_ms"] = -1;
  CHECK_THROWS_WITH_AS(stats_from_json(wrong), "stats.median_ms must be a number ≥ 0, got -1",
                       ValueError);
  wrong = j;
  wrong["inner_iterations"] = "8";
  CHECK_THROWS_WITH_AS(stats_from_json(wrong), "stats.inner_iterations must be an integer, got \"8\"",
                       ValueError);
}

TEST_CASE("a comparison written to JSON reads back the same, an unbounded Cohen's d as null") {
  CompareOptions o;
  o.bootstrap_resamples = 200;
  // No spread in either sample and different means: Cohen's d and Welch's t are infinite.
  const Comparison c = compare_samples({2, 2, 2, 2, 2, 2}, {1, 1, 1, 1, 1, 1}, o);
  REQUIRE_FALSE(std::isfinite(c.cohens_d));
  const json j = to_json(c);
  CHECK(j["cohens_d"].is_null());
  CHECK(j["ratio_interval"] == to_json(c.ratio_interval));
  CHECK(j["verdict"] == json{{"name", verdict_name(c.verdict)},
                             {"word", verdict_word(c.verdict)},
                             {"sentence", c.sentence}});
  const Comparison back = comparison_from_json(json::parse(j.dump()));
  CHECK(back.verdict == c.verdict);
  CHECK(back.sentence == c.sentence);
  CHECK(back.cohens_d == std::numeric_limits<double>::infinity());
  CHECK(back.ratio_interval.low == c.ratio_interval.low);
  CHECK(back.mann_whitney.exact == c.mann_whitney.exact);
  CHECK(back.seed == c.seed);
  CHECK(to_json(back) == j);

  json wrong = j;
  wrong["verdict"]["name"] = "quicker";
  CHECK_THROWS_WITH_AS(comparison_from_json(wrong),
                       "comparison.verdict.name must be \"faster\", \"slower\", "
                       "\"no_difference\" or \"too_few_samples\", got \"quicker\"",
                       ValueError);
  wrong = j;
  wrong["welch"].erase("difference");
  CHECK_THROWS_WITH_AS(comparison_from_json(wrong, "rows[0].comparison"),
                       "rows[0].comparison.welch.difference is missing", ValueError);
  wrong = j;
  wrong["cohens_d"] = "big";
  CHECK_THROWS_WITH_AS(comparison_from_json(wrong),
                       "comparison.cohens_d must be a number or null, got \"big\"", ValueError);
}

TEST_CASE("a drift and a kernel's samples written to JSON read back the same") {
  Drift d;
  d.rho = 0.5;
  d.rounds = 4;
  d.critical_rho = std::numeric_limits<double>::infinity();  // below min_rounds
  d.sentence = "too few rounds to detect drift";
  const json dj = to_json(d);
  CHECK(dj["critical_rho"].is_null());
  const Drift dback = drift_from_json(dj);
  CHECK(dback.critical_rho == d.critical_rho);
  CHECK(to_json(dback) == dj);

  KernelSample k;
  k.samples_ms = {0.5, 0.25, 0.75};
  k.inner_iterations = 16;
  k.resolution_ms = 0.1;
  k.warning = "budget spent";
  const json kj = to_json(k);
  CHECK(kj == json{{"samples_ms", {0.5, 0.25, 0.75}}, {"inner_iterations", 16},
                   {"resolution_ms", 0.1}, {"clock_tick_ms", 0.0}, {"warning", "budget spent"}});
  CHECK(to_json(kernel_sample_from_json(kj)) == kj);
  json wrong = kj;
  wrong["samples_ms"][1] = -1;
  CHECK_THROWS_WITH_AS(kernel_sample_from_json(wrong), "sample.samples_ms[1] must be a number ≥ 0, got -1",
                       ValueError);
}

TEST_CASE("a complexity report and a coverage report written to JSON read back the same") {
  // Size 1 makes log n's expected exponent undefined: null in JSON, NaN again when read.
  const ComplexityReport r = fit_complexity({1, 2, 4, 8, 16}, {1, 2.1, 3.9, 8.2, 15.8});
  const json j = to_json(r);
  REQUIRE(j["fits"].size() == 6);
  bool undefined = false;
  for (const json& f : j["fits"]) undefined = undefined || f["expected_exponent"].is_null();
  CHECK(undefined);
  CHECK(j["fits"][0]["complexity"] == r.fits[0].name);
  CHECK(j["power_law"]["exponent_interval"] == to_json(r.power_law.exponent_interval));
  const ComplexityReport back = complexity_report_from_json(json::parse(j.dump()));
  CHECK(back.fits[0].complexity == r.fits[0].complexity);
  CHECK(to_json(back) == j);
  json wrong = j;
  wrong["fits"][2]["complexity"] = "O(2^n)";
  CHECK_THROWS_WITH_AS(complexity_report_from_json(wrong),
                       "report.fits[2].complexity must be \"O(1)\", \"O(log n)\", \"O(n)\", "
                       "\"O(n log n)\", \"O(n^2)\" or \"O(n^3)\", got \"O(2^n)\"",
                       ValueError);

  CoverageOptions o;
  o.trials = 20;
  o.bootstrap_resamples = 100;
  std::vector<double> reference;
  for (int i = 0; i < 200; ++i) reference.push_back(1.0 + (i % 17) * 0.01);
  const CoverageReport c = interval_coverage(reference, {5, 10}, o);
  const json cj = to_json(c);
  CHECK(cj["rows"][1]["t"]["finding"] == coverage_finding_name(c.rows[1].t.finding));
  CHECK(to_json(coverage_report_from_json(json::parse(cj.dump()))) == cj);
  json bad = cj;
  bad["rows"][0]["bootstrap"]["finding"] = 3;
  CHECK_THROWS_WITH_AS(coverage_report_from_json(bad),
                       "report.rows[0].bootstrap.finding must be \"short\", \"within_noise\" or "
                       "\"above\", got 3",
                       ValueError);
}

TEST_CASE("an A/B's rounds written to JSON read back the same, and a wrong round count is refused") {
  AbOptions o;
  o.compare.bootstrap_resamples = 200;
  const std::vector<double> a = {1.0, 1.1, 0.9, 1.05, 1.0, 0.95, 1.02};
  const std::vector<double> b = {0.8, 0.85, 0.79, 0.82, 0.81, 0.8, 0.83};
  const AbResult r = analyze_ab(a, b, {true, false, true, true, false, false, true}, o);
  const json j = to_json(r);
  CHECK(j["rounds"] == 7);
  CHECK(j["mode"] == "interleaved");
  CHECK(j["a_first"] == json::array({true, false, true, true, false, false, true}));
  CHECK_FALSE(j.contains("inner_iterations_a"));
  const AbResult back = ab_result_from_json(json::parse(j.dump()));
  CHECK(back.a_first == r.a_first);
  CHECK(to_json(back) == j);
  json wrong = j;
  wrong["rounds"] = 8;
  CHECK_THROWS_WITH_AS(ab_result_from_json(wrong),
                       "ab.rounds is 8, but a_ms, b_ms and a_first hold 7, 7 and 7 values",
                       ValueError);
  wrong = j;
  wrong["mode"] = "shuffled";
  CHECK_THROWS_WITH_AS(ab_result_from_json(wrong),
                       "ab.mode must be \"interleaved\" or \"sequential\", got \"shuffled\"",
                       ValueError);
}
