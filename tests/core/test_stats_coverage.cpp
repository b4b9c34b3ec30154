// interval_coverage: how often each 95% interval of a small sample contains the median of
// the reference it was drawn from. Checked on a reference with no spread (every interval is
// the point itself) and on normal data, where the z interval's coverage at n = 5 is known.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/stats/coverage.hpp"

using namespace perflab;

namespace {

// Normal(10, 1) by Box-Muller from the lab's generator: symmetric, so its mean and median
// coincide and the z and t intervals' textbook coverage applies to the median too.
std::vector<double> normal_reference(std::size_t n) {
  Rng rng(42);
  std::vector<double> v;
  while (v.size() < n) {
    const double u1 = 1.0 - rng.uniform(), u2 = rng.uniform();
    v.push_back(10.0 + std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2));
  }
  return v;
}

}  // namespace

TEST_CASE("interval_coverage on a reference without spread: every interval is the point") {
  const std::vector<double> flat(50, 5.0);
  CoverageOptions o;
  o.trials = 20;
  o.bootstrap_resamples = 100;
  const CoverageReport r = interval_coverage(flat, {5, 10}, o);
  CHECK(r.reference_median == 5.0);
  CHECK(r.reference_n == 50);
  CHECK(r.trials == 20);
  CHECK(r.seed == 1);
  REQUIRE(r.rows.size() == 2);
  CHECK(r.rows[0].n == 5);
  CHECK(r.rows[1].n == 10);
  for (const CoverageRow& row : r.rows) {
    for (const MethodCoverage* m : {&row.z, &row.t, &row.bootstrap}) {
      CHECK(m->coverage == 1.0);
      CHECK(m->mean_width == 0.0);
    }
  }
}

TEST_CASE("interval_coverage on normal data: z covers about 88% at n = 5, t about 95%") {
  // For normal data the z interval mean ± 1.96·s/√n at n = 5 covers the mean with probability
  // P(|T₄| < 1.96) = 0.8784 (Student's t with 4 degrees of freedom; computed independently by
  // integrating its density from −1.96 to 1.96 with the midpoint rule, 200,000 steps). The t
  // interval covers 95% by construction. Drawing from a finite reference of 20,000 values
  // only approximates the normal, and 2,000 trials have a standard error near 0.007.
  const std::vector<double> ref = normal_reference(20000);
  CoverageOptions o;
  o.trials = 2000;
  o.bootstrap_resamples = 200;
  o.seed = 7;
  const CoverageReport r = interval_coverage(ref, {5, 100}, o);
  REQUIRE(r.rows.size() == 2);
  CHECK(r.rows[0].z.coverage == doctest::Approx(0.8784).epsilon(0.03));
  CHECK(r.rows[0].t.coverage == doctest::Approx(0.95).epsilon(0.03));
  CHECK(r.rows[1].z.coverage == doctest::Approx(0.95).epsilon(0.03));
  CHECK(r.rows[1].t.coverage == doctest::Approx(0.95).epsilon(0.03));
  // The t interval is wider than z by t(0.975, 4) / 1.96 = 2.776 / 1.96 at n = 5.
  CHECK(r.rows[0].t.mean_width / r.rows[0].z.mean_width == doctest::Approx(2.7764 / 1.96).epsilon(1e-3));
  // Widths shrink like 1/√n: twenty times the samples, about 1/4.5 of the width.
  CHECK(r.rows[1].z.mean_width < r.rows[0].z.mean_width / 3);
  // The same seed gives the same report.
  const CoverageReport again = interval_coverage(ref, {5, 100}, o);
  CHECK(again.rows[0].bootstrap.coverage == r.rows[0].bootstrap.coverage);
  CHECK(again.rows[1].z.mean_width == r.rows[1].z.mean_width);
}

TEST_CASE("interval_coverage refuses what it cannot do, saying why") {
  const std::vector<double> ref(30, 1.0);
  CHECK_THROWS_WITH_AS(interval_coverage({1, 2, 3}, {5}),
                       "reference must hold at least 20 values to stand for the population, got 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(interval_coverage(ref, {}), "sizes must list 1 to 64 sample sizes, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(interval_coverage(ref, {5, 1}), "sizes[1] must be between 2 and 100000, got 1",
                       ValueError);
  CHECK_THROWS_WITH_AS(interval_coverage(ref, {5, 5}), "sizes[1] repeats the size 5", ValueError);
  std::vector<double> negative = ref;
  negative[3] = -1;
  CHECK_THROWS_WITH_AS(interval_coverage(negative, {5}), doctest::Contains("reference[3]"), ValueError);
  CoverageOptions big;
  big.trials = 100000;
  big.bootstrap_resamples = 10000;
  CHECK_THROWS_WITH_AS(interval_coverage(ref, {100}, big), doctest::Contains("the limit is 200000000"),
                       ValueError);
  CoverageOptions few;
  few.trials = 3;
  CHECK_THROWS_WITH_AS(interval_coverage(ref, {5}, few), doctest::Contains("trials"), ValueError);
}

TEST_CASE("wilson_interval: the Monte Carlo noise of a coverage counted over trials") {
  // Wilson's score interval, (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n) with
  // z = 1.959964, evaluated by hand (Python) for each count.
  const Interval i = wilson_interval(94, 100);
  CHECK(i.low == doctest::Approx(0.875232).epsilon(1e-5));
  CHECK(i.high == doctest::Approx(0.972214).epsilon(1e-5));
  CHECK(wilson_interval(377, 400).low == doctest::Approx(0.915199).epsilon(1e-5));
  CHECK(wilson_interval(377, 400).high == doctest::Approx(0.961382).epsilon(1e-5));
  // Never empty at 0 or at all, never outside [0, 1].
  CHECK(wilson_interval(0, 10).low == 0.0);
  CHECK(wilson_interval(0, 10).high == doctest::Approx(0.277533).epsilon(1e-5));
  CHECK(wilson_interval(10, 10).low == doctest::Approx(0.722467).epsilon(1e-5));
  CHECK(wilson_interval(10, 10).high <= 1.0);
  CHECK_THROWS_WITH_AS(wilson_interval(11, 10),
                       "a Wilson interval needs 0 <= successes <= trials and trials >= 1, got 11 of 10",
                       ValueError);
}

TEST_CASE("coverage_finding: short only when the interval, as printed, lies below 95%") {
  CHECK(coverage_finding(wilson_interval(94, 100)) == CoverageFinding::within_noise);
  CHECK(coverage_finding(wilson_interval(81, 100)) == CoverageFinding::short_of_promise);
  // 90 of 100: the interval's top is 94.48%, printed 94.5%: short.
  CHECK(coverage_finding(wilson_interval(90, 100)) == CoverageFinding::short_of_promise);
  CHECK(coverage_finding(wilson_interval(400, 400)) == CoverageFinding::above_promise);
  // A top of 94.96% prints 95.0%: within the noise, as the sentence beside it reads.
  CHECK(coverage_finding({0.90, 0.9496}) == CoverageFinding::within_noise);
  CHECK(coverage_finding({0.90, 0.9494}) == CoverageFinding::short_of_promise);
  CHECK(std::string(coverage_finding_name(CoverageFinding::short_of_promise)) == "short");
}

namespace {

MethodCoverage counted(double hits, double trials) {
  MethodCoverage m;
  m.coverage = hits / trials;
  m.coverage_interval = wilson_interval(hits, trials);
  m.finding = coverage_finding(m.coverage_interval);
  return m;
}

}  // namespace

TEST_CASE("coverage_sentence: 94 of 100 is within the noise, 81 of 100 fell short") {
  CoverageRow row;
  row.n = 5;
  row.z = counted(94, 100);
  row.t = counted(96, 100);
  row.bootstrap = counted(81, 100);
  CHECK(coverage_sentence(row, 100) ==
        "At n = 5: z 94.0% of 100 trials (95% Monte Carlo interval 87.5% to 97.2%), t 96.0% "
        "(90.2% to 98.4%) and bootstrap 81.0% (72.2% to 87.5%). bootstrap fell short of the "
        "promised 95%: its interval lies below it. z and t are within the noise of 100 trials "
        "of 95%.");
  row.bootstrap = counted(95, 100);
  CHECK(coverage_sentence(row, 100) ==
        "At n = 5: z 94.0% of 100 trials (95% Monte Carlo interval 87.5% to 97.2%), t 96.0% "
        "(90.2% to 98.4%) and bootstrap 95.0% (88.8% to 97.8%). All three are within the noise "
        "of 100 trials of 95%.");
  row.z = counted(81, 100);
  row.t = counted(90, 100);
  row.bootstrap = counted(400, 400);
  CHECK(coverage_sentence(row, 100) ==
        "At n = 5: z 81.0% of 100 trials (95% Monte Carlo interval 72.2% to 87.5%), t 90.0% "
        "(82.6% to 94.5%) and bootstrap 100.0% (99.0% to 100.0%). z and t fell short of the "
        "promised 95%: their intervals lie below it. bootstrap covered more often than the "
        "promised 95%: its interval lies above it, so that interval is wider than 95% needs.");
}

TEST_CASE("interval_coverage gives each method its interval and finding, and each size its sentence") {
  const std::vector<double> ref = normal_reference(2000);
  CoverageOptions o;
  o.trials = 100;
  o.bootstrap_resamples = 100;
  const CoverageReport r = interval_coverage(ref, {5, 50}, o);
  for (const CoverageRow& row : r.rows) {
    for (const MethodCoverage* m : {&row.z, &row.t, &row.bootstrap}) {
      const Interval w = wilson_interval(std::round(m->coverage * 100), 100);
      CHECK(m->coverage_interval.low == doctest::Approx(w.low));
      CHECK(m->coverage_interval.high == doctest::Approx(w.high));
      CHECK(m->finding == coverage_finding(w));
    }
    CHECK(row.sentence == coverage_sentence(row, 100));
  }
}
