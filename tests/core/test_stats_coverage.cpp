// interval_coverage: how often each 95% interval of a small sample contains the median of
// the reference it was drawn from. Checked on a reference with no spread (every interval is
// the point itself) and on normal data, where the z interval's coverage at n = 5 is known.
#include <doctest/doctest.h>

#include <cmath>
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
