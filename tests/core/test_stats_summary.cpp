// Protects the summary a student reads first: the original course's z interval on [1..5],
// Student's t interval, linear-rule percentiles, the MAD, Tukey outliers listed with their
// index, the seeded bootstrap of the median, the one-value warning and every refusal.
// Reference values: hand arithmetic, python3's statistics module (stdev), and Student's t
// quantiles from a numerical integration of the t density in plain python3 (Simpson's rule,
// 200,000 steps, then bisection): t(0.975, 4) = 2.776445, t(0.975, 1) = 12.706205.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/stats/summary.hpp"

using namespace perflab;

TEST_CASE("[1,2,3,4,5] gives std 1.5811 and the original course's z interval (1.614, 4.386)") {
  const Summary s = summarize({1, 2, 3, 4, 5});
  CHECK(s.n == 5);
  CHECK(s.mean == 3);
  CHECK(s.std == doctest::Approx(1.5811388));  // statistics.stdev([1,2,3,4,5])
  CHECK(s.median == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  // 3 ± 1.96 · 1.5811388 / √5 = 3 ± 1.3859293
  CHECK(s.z_interval.low == doctest::Approx(1.6140707));
  CHECK(s.z_interval.high == doctest::Approx(4.3859293));
  // 3 ± 2.776445 · 0.7071068 = 3 ± 1.9632432
  CHECK(s.t_interval.low == doctest::Approx(1.0367568));
  CHECK(s.t_interval.high == doctest::Approx(4.9632432));
  CHECK(s.t_interval.width() > s.z_interval.width());
  CHECK(s.cv == doctest::Approx(1.5811388 / 3));
  CHECK(s.outliers.empty());
  CHECK(s.warning.empty());
}

TEST_CASE("percentiles follow the linear rule, as numpy's default does") {
  // Ranks p/100 · (n − 1) over sorted [1..5]: 0.2 → 1.2, 1 → 2, 3 → 4, 3.8 → 4.8, 3.96 → 4.96.
  const Summary s = summarize({5, 3, 1, 4, 2});
  CHECK(s.p5 == doctest::Approx(1.2));
  CHECK(s.p25 == 2);
  CHECK(s.p75 == 4);
  CHECK(s.p95 == doctest::Approx(4.8));
  CHECK(s.p99 == doctest::Approx(4.96));
  CHECK(percentile({5, 1, 4, 2, 3}, 10) == doctest::Approx(1.4));
  CHECK(percentile({10, 20, 30, 40}, 50) == 25);
  CHECK_THROWS_WITH_AS(percentile({1, 2}, 120), "percentile must be between 0 and 100, got 120",
                       ValueError);
}

TEST_CASE("the MAD is the median distance from the median") {
  // |x − 3| = 2, 1, 0, 1, 2 → median 1.
  CHECK(summarize({1, 2, 3, 4, 5}).mad == 1);
  // Median of {1, 2, 4, 8} is 3; distances 2, 1, 1, 5 → median 1.5.
  CHECK(summarize({8, 1, 4, 2}).mad == doctest::Approx(1.5));
}

TEST_CASE("Tukey outliers are listed with index and value, and nothing is dropped") {
  // Sorted: 10..18 and 100. Q1 = 12.25, Q3 = 16.75, IQR 4.5: fences 5.5 and 23.5.
  const std::vector<double> data{10, 11, 12, 13, 100, 14, 15, 16, 17, 18};
  const Summary s = summarize(data, "latency_ms");
  CHECK(s.n == 10);
  CHECK(s.mean == doctest::Approx(22.6));  // 226 / 10: the outlier stays in
  CHECK(s.max == 100);
  CHECK(s.lower_fence == doctest::Approx(5.5));
  CHECK(s.upper_fence == doctest::Approx(23.5));
  REQUIRE(s.outliers.size() == 1);
  CHECK(s.outliers[0].index == 4);
  CHECK(s.outliers[0].value == 100);
  // Median 14.5; distances sorted 0.5 0.5 1.5 1.5 2.5 2.5 3.5 3.5 4.5 85.5 → 2.5.
  CHECK(s.median == 14.5);
  CHECK(s.mad == 2.5);
  CHECK(s.warning ==
        "1 of 10 values lie outside Tukey's fences (5.5 to 23.5): the median and "
        "the MAD resist them, the mean and the std do not");
}

TEST_CASE("one value: std 0, intervals of width 0, and a warning") {
  const Summary s = summarize({4.25}, "latency_ms");
  CHECK(s.n == 1);
  CHECK(s.std == 0);
  CHECK(s.cv == 0);
  CHECK(s.mad == 0);
  for (const Interval& i : {s.z_interval, s.t_interval, s.bootstrap_median_interval}) {
    CHECK(i.low == 4.25);
    CHECK(i.high == 4.25);
  }
  CHECK(s.warning ==
        "only one value: the spread and every interval are 0, which says nothing "
        "about the next run; take at least 5 samples");
}

TEST_CASE("the bootstrap of the median is seeded, reports its seed and stays in range") {
  SummaryOptions o;
  o.seed = 42;
  std::vector<double> data;
  for (int i = 1; i <= 100; ++i) data.push_back(i);
  const Summary s = summarize(data, "sample", o);
  CHECK(s.bootstrap_seed == 42);
  CHECK(s.bootstrap_resamples == 10000);
  const Summary again = summarize(data, "sample", o);
  CHECK(again.bootstrap_median_interval.low == s.bootstrap_median_interval.low);
  CHECK(again.bootstrap_median_interval.high == s.bootstrap_median_interval.high);
  // The median of 1..100 is 50.5; the distribution-free 95% interval by order statistics is
  // ranks 40 to 61, and the bootstrap's percentile interval lands close to it.
  const Interval b = s.bootstrap_median_interval;
  CHECK(b.contains(50.5));
  CHECK(b.low >= 38);
  CHECK(b.low <= 44);
  CHECK(b.high >= 57);
  CHECK(b.high <= 63);
}

TEST_CASE("the bootstrap of a tiny sample can be checked by enumeration") {
  // Resamples of {1, 3} have median 1 (1/4), 2 (1/2) or 3 (1/4): with 10,000 resamples the
  // 2.5th percentile is 1 and the 97.5th is 3 (about 2,500 of each extreme).
  const Interval two = bootstrap_median_interval({1, 3}, 10000, 7);
  CHECK(two.low == 1);
  CHECK(two.high == 3);
  // A constant sample has a constant bootstrap.
  const Interval flat = bootstrap_median_interval({2, 2, 2}, 1000, 7);
  CHECK(flat.low == 2);
  CHECK(flat.high == 2);
  // A narrower confidence gives a narrower (never wider) interval.
  const std::vector<double> data{3, 9, 4, 7, 5, 6, 12, 8, 1, 2};
  const Interval wide = bootstrap_median_interval(data, 2000, 3, 0.95);
  const Interval narrow = bootstrap_median_interval(data, 2000, 3, 0.5);
  CHECK(narrow.low >= wide.low);
  CHECK(narrow.high <= wide.high);
}

TEST_CASE("Student's t quantiles come from Boost.Math") {
  CHECK(student_t_quantile(0.975, 4) == doctest::Approx(2.776445).epsilon(1e-6));
  CHECK(student_t_quantile(0.975, 1) == doctest::Approx(12.706205).epsilon(1e-6));
  CHECK(student_t_quantile(0.5, 7) == doctest::Approx(0.0));
  CHECK_THROWS_WITH_AS(student_t_quantile(1.0, 4),
                       "probability must be between 0 and 1 (exclusive), got 1", ValueError);
  CHECK_THROWS_WITH_AS(student_t_quantile(0.9, 0),
                       "degrees of freedom must be a finite number greater than 0, got 0",
                       ValueError);
}

TEST_CASE("a summary refuses empty, non-finite and negative samples, naming the argument") {
  CHECK_THROWS_WITH_AS(summarize({}, "latency_ms"),
                       "latency_ms is empty: a sample needs at least one value", ValueError);
  CHECK_THROWS_WITH_AS(summarize({1, -1}, "latency_ms"),
                       "latency_ms[1] is -1: values must be finite and not negative", ValueError);
  CHECK_THROWS_WITH_AS(summarize({1, 2, std::nan("")}, "latency_ms"),
                       "latency_ms[2] is nan: values must be finite and not negative", ValueError);
  CHECK_THROWS_WITH_AS(summarize({std::numeric_limits<double>::infinity()}),
                       "sample[0] is inf: values must be finite and not negative", ValueError);
  CHECK_THROWS_WITH_AS(percentile({}, 50, "sizes"),
                       "sizes is empty: a sample needs at least one value", ValueError);
  SummaryOptions o;
  o.bootstrap_resamples = 10;
  CHECK_THROWS_WITH_AS(summarize({1, 2}, "sample", o),
                       "bootstrap_resamples must be between 100 and 1000000, got 10", ValueError);
  CHECK_THROWS_WITH_AS(bootstrap_median_interval({1, 2}, 1000, 1, 1.0),
                       "confidence must be between 0 and 1 (exclusive), got 1", ValueError);
}
