// Protects every number behind an A/B verdict: Welch's t and its exact p, Mann-Whitney U
// exact and approximate, Cohen's d, Cliff's delta, Spearman's rho, and the verdict sentences.
// Reference values, computed independently:
// - R's sleep data (R's own `t.test(extra ~ group, data = sleep)` prints t = -1.8608,
//   df = 17.776, p-value = 0.07939, CI -3.3654832 0.2054832; `wilcox.test(extra ~ group,
//   data = sleep)` prints W = 25.5, p-value = 0.06933), here shifted by +2 so that no value
//   is negative (neither test changes under a shift); the same values recomputed in python3
//   with the statistics module and a Simpson integration of the t density;
// - exact U p-values by enumerating all C(10, 5) = 252 or C(10, 4) = 210 splits in python3
//   (itertools.combinations), two-sided as 2·min(P(U ≤ u), P(U ≥ u));
// - closed forms: Student's t with 2 degrees of freedom has P(|T| ≥ t) = 1 − t/√(2 + t²).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/stats/compare.hpp"

using namespace perflab;

namespace {

std::vector<double> shifted(std::vector<double> v, double by) {
  for (double& x : v) x += by;
  return v;
}

// R's sleep data, group 1 and group 2.
const std::vector<double> kSleep1 = shifted({0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}, 2);
const std::vector<double> kSleep2 = shifted({1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}, 2);

std::string two_decimals(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", v);
  return buf;
}

std::vector<double> scaled(std::vector<double> v, double by) {
  for (double& x : v) x *= by;
  return v;
}

// 10.0, 10.1, ..., 10.9: no ties, a 9% spread.
std::vector<double> tens() {
  std::vector<double> v;
  for (int i = 0; i < 10; ++i) v.push_back(10.0 + 0.1 * i);
  return v;
}

}  // namespace

TEST_CASE("Welch's t-test matches R on the sleep data") {
  const WelchResult w = welch_t_test(kSleep1, kSleep2);
  CHECK(w.t == doctest::Approx(1.860813).epsilon(1e-6));  // B − A, so R's sign flipped
  CHECK(w.df == doctest::Approx(17.776474).epsilon(1e-6));
  CHECK(w.p_value == doctest::Approx(0.0793941).epsilon(1e-5));
  CHECK(w.difference.low == doctest::Approx(-0.2054832).epsilon(1e-5));
  CHECK(w.difference.high == doctest::Approx(3.3654832).epsilon(1e-5));
}

TEST_CASE("Welch's p on two degrees of freedom matches the closed form") {
  // Means 2 and 5, variances 2 and 2: t = 3/√2, df = 2, p = 1 − t/√(2 + t²) = 0.1679497.
  const WelchResult w = welch_t_test({1, 3}, {4, 6});
  CHECK(w.t == doctest::Approx(3 / std::sqrt(2.0)));
  CHECK(w.df == doctest::Approx(2.0));
  CHECK(w.p_value == doctest::Approx(0.1679497).epsilon(1e-6));
}

TEST_CASE("Welch's t-test of two constant samples is certain either way") {
  CHECK(welch_t_test({2, 2, 2}, {2, 2}).p_value == 1.0);
  const WelchResult w = welch_t_test({2, 2, 2}, {3, 3});
  CHECK(w.p_value == 0.0);
  CHECK(w.difference.low == 1.0);
  CHECK(w.difference.high == 1.0);
  CHECK_THROWS_WITH_AS(welch_t_test({1}, {2, 3}),
                       "Welch's t-test needs at least 2 values in each sample, got 1 in a",
                       ValueError);
}

TEST_CASE("Mann-Whitney U is exact for small samples without ties") {
  SUBCASE("complete separation: U = 0, p = 2/252") {
    const MannWhitneyResult m = mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
    CHECK(m.exact);
    CHECK(m.u == 0);
    CHECK(m.p_value == doctest::Approx(2.0 / 252).scale(0));
  }
  SUBCASE("interleaved values: U = 10, p = 174/252") {
    const MannWhitneyResult m = mann_whitney_u({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10});
    CHECK(m.exact);
    CHECK(m.u == 10);
    CHECK(m.p_value == doctest::Approx(174.0 / 252));
  }
  SUBCASE("unequal sizes: U = 3, p = 14/210") {
    const MannWhitneyResult m = mann_whitney_u({1.1, 2.3, 3.2, 4.8}, {2.0, 5.1, 6.3, 7.7, 8.2, 9.9});
    CHECK(m.u == 3);
    CHECK(m.p_value == doctest::Approx(14.0 / 210));
  }
  SUBCASE("U of A counts the pairs where A is larger") {
    CHECK(mann_whitney_u({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5}).u == 25);
  }
}

TEST_CASE("Mann-Whitney U with ties uses the normal approximation, as R does") {
  const MannWhitneyResult m = mann_whitney_u(kSleep1, kSleep2);
  CHECK_FALSE(m.exact);
  CHECK(m.u == 25.5);
  CHECK(m.z == doctest::Approx(-1.816279).epsilon(1e-6));
  CHECK(m.p_value == doctest::Approx(0.0693276).epsilon(1e-5));
  SUBCASE("every value tied: p = 1") {
    const MannWhitneyResult all = mann_whitney_u({3, 3, 3}, {3, 3});
    CHECK(all.p_value == 1.0);
    CHECK(all.u == 3);
  }
}

TEST_CASE("Cohen's d and Cliff's delta") {
  // Pooled std of {1,3} and {4,6} is √2; the means differ by 3.
  CHECK(cohens_d({1, 3}, {4, 6}) == doctest::Approx(3 / std::sqrt(2.0)));
  // (mean2 − mean1) / √((var1 + var2)/2) on the sleep data, python3 statistics module.
  CHECK(cohens_d(kSleep1, kSleep2) == doctest::Approx(0.8321811).epsilon(1e-6));
  CHECK(cohens_d({2, 2}, {2, 2}) == 0.0);
  CHECK(std::isinf(cohens_d({2, 2}, {3, 3})));
  // Of the 24 pairs, b > a in 21 and b < a in 3: (21 − 3) / 24 = 0.75.
  CHECK(cliffs_delta({1.1, 2.3, 3.2, 4.8}, {2.0, 5.1, 6.3, 7.7, 8.2, 9.9}) == doctest::Approx(0.75));
  CHECK(cliffs_delta({1, 2}, {1, 2}) == 0.0);
  CHECK(cliffs_delta({5, 6}, {1, 2}) == -1.0);
}

TEST_CASE("Spearman's rho and its p-value") {
  // Rank differences −1, 1, −1, 1, 0: rho = 1 − 6·4/(5·24) = 0.8. Up to 9 pairs p is exact:
  // of the 120 orderings of 1..5, those with Σd² ≤ 4 or ≥ 36 (|rho| ≥ 0.8): Σd² = 0 (1),
  // 2 (4), 4 (3) and their mirror images, 16 of 120 (python3 itertools.permutations).
  const RankCorrelation r = spearman({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5});
  CHECK(r.rho == doctest::Approx(0.8));
  CHECK(r.p_value == doctest::Approx(16.0 / 120));
  // From 10 pairs on, t = rho·√(df / (1 − rho²)) on n − 2 degrees of freedom: one swap of
  // neighbours among 10, Σd² = 2, rho = 1 − 12/990; t = 18.0003 on 8 df, p = 9.30746e-8
  // (python3, midpoint integration of the t density).
  std::vector<double> ten{1, 2, 3, 4, 5, 6, 7, 8, 10, 9}, order{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const RankCorrelation swapped = spearman(order, ten);
  CHECK(swapped.rho == doctest::Approx(1 - 12.0 / 990));
  CHECK(swapped.p_value == doctest::Approx(9.30746e-8).epsilon(1e-4).scale(0));
  // A perfect order among n pairs has exact p = 2/n!: one ordering and its mirror image.
  CHECK(spearman({1, 2, 3}, {9, 5, 1}).p_value == doctest::Approx(2.0 / 6));
  CHECK(spearman({1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}).p_value ==
        doctest::Approx(2.0 / 720).scale(0));
  // Ties: the ranks 1, 2, 3.5, 3.5 have 12 distinct arrangements; as strong as the observed
  // one are only itself and its mirror image 3.5, 3.5, 2, 1: p = 2/12.
  CHECK(spearman({1, 2, 3, 4}, {1, 2, 3, 3}).p_value == doctest::Approx(2.0 / 12));
  CHECK(spearman({1, 2, 3}, {9, 5, 1}).rho == doctest::Approx(-1.0));
  CHECK(spearman({1, 2, 3}, {4, 4, 4}).rho == 0.0);
  CHECK(spearman({1, 2, 3}, {4, 4, 4}).p_value == 1.0);
  CHECK_THROWS_WITH_AS(spearman({1, 2}, {1, 2}), "a rank correlation needs at least 3 pairs, got 2",
                       ValueError);
  CHECK_THROWS_WITH_AS(spearman({1, 2, 3}, {1, 2}),
                       "a rank correlation needs as many x as y values, got 3 and 2", ValueError);
}

TEST_CASE("the smallest |rho| Spearman's rule calls significant, from the p it computes") {
  // Exact up to 9 pairs: at 8 pairs and alpha 0.01 the two-sided critical value is 0.881
  // (Zar's table of Spearman's critical values; rho 0.881 is Σd² = 10, and 1 − 60/504).
  CHECK(spearman_critical_rho(8, 0.01) == doctest::Approx(1 - 6.0 * 10 / (8 * 63)));
  // The value is where p crosses alpha: an order of that strength has p < 0.01, the next
  // weaker one (Σd² = 12) does not.
  const std::vector<double> x{1, 2, 3, 4, 5, 6, 7, 8};
  CHECK(spearman(x, {2, 1, 3, 4, 5, 6, 8, 7}).p_value < 0.01);     // Σd² = 4
  CHECK(spearman(x, {1, 3, 2, 4, 5, 7, 8, 6}).rho == doctest::Approx(1 - 6.0 * 8 / 504));
  CHECK(spearman(x, {2, 3, 1, 4, 5, 7, 8, 6}).rho == doctest::Approx(1 - 6.0 * 12 / 504));
  CHECK(spearman(x, {2, 3, 1, 4, 5, 7, 8, 6}).p_value >= 0.01);
  // A perfect order among 5 has p = 2/120 = 0.0167: no order of 5 reaches 0.01; 6 do (2/720).
  CHECK(std::isinf(spearman_critical_rho(5, 0.01)));
  CHECK(spearman_critical_rho(6, 0.01) == doctest::Approx(1.0));
  CHECK(std::isinf(spearman_critical_rho(2, 0.5)));
  // From 10 pairs, the t quantile inverted: t(0.995, 28) = 2.763262, rho = t/√(28 + t²).
  CHECK(spearman_critical_rho(30, 0.01) ==
        doctest::Approx(2.763262 / std::sqrt(28 + 2.763262 * 2.763262)).epsilon(1e-5));
  CHECK_THROWS_WITH_AS(spearman_critical_rho(8, 0), "alpha must be between 0.0001 and 0.5, got 0",
                       ValueError);
}

TEST_CASE("B 1.25x faster: the verdict, its interval and its sentence") {
  const std::vector<double> a = tens(), b = scaled(tens(), 0.8);
  const Comparison c = compare_samples(a, b);
  CHECK(c.median_a == doctest::Approx(10.45));
  CHECK(c.median_b == doctest::Approx(8.36));
  CHECK(c.ratio == doctest::Approx(1.25));
  CHECK(c.change == doctest::Approx(-0.2));
  // Every B is below every A: U = 100 of 100, exact p = 2 / C(20, 10) = 2 / 184756.
  CHECK(c.mann_whitney.exact);
  CHECK(c.mann_whitney.u == 100);
  CHECK(c.mann_whitney.p_value == doctest::Approx(2.0 / 184756).scale(0));
  CHECK(c.cliffs_delta == -1.0);
  CHECK(c.cohens_d < 0);
  // Resampled ratios lie within [min A / max B, max A / min B] = [10/8.72, 10.9/8].
  CHECK(c.ratio_interval.contains(1.25));
  CHECK(c.ratio_interval.low >= 10.0 / 8.72);
  CHECK(c.ratio_interval.high <= 10.9 / 8.0);
  CHECK(c.verdict == Verdict::faster);
  CHECK(std::string(verdict_name(c.verdict)) == "faster");
  CHECK(c.sentence == "B is 1.25x faster than A (95% CI " + two_decimals(c.ratio_interval.low) +
                          "-" + two_decimals(c.ratio_interval.high) + "x, p < 0.001)");
  CHECK(c.seed == 1);
  CHECK(c.bootstrap_resamples == 10000);
}

TEST_CASE("B 1.25x slower: the factor and the interval are inverted into 'slower'") {
  const Comparison c = compare_samples(scaled(tens(), 0.8), tens());
  CHECK(c.ratio == doctest::Approx(0.8));
  CHECK(c.change == doctest::Approx(0.25));
  CHECK(c.verdict == Verdict::slower);
  CHECK(c.sentence == "B is 1.25x slower than A (95% CI " +
                          two_decimals(1 / c.ratio_interval.high) + "-" +
                          two_decimals(1 / c.ratio_interval.low) + "x, p < 0.001)");
}

TEST_CASE("overlapping samples: no significant difference, and the interval includes 1") {
  const Comparison c = compare_samples({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10});
  CHECK(c.mann_whitney.p_value == doctest::Approx(174.0 / 252));
  CHECK(c.ratio_interval.contains(1.0));
  CHECK(c.verdict == Verdict::no_difference);
  // B's median 6 against A's 5: B is 1.20x slower, and the interval is that factor's.
  CHECK(c.sentence == "no significant difference: B is 1.20x slower than A (p = 0.69; the 95% CI " +
                          two_decimals(1 / c.ratio_interval.high) + "-" +
                          two_decimals(1 / c.ratio_interval.low) + "x includes 1)");
}

TEST_CASE("a significant change inside the noise threshold is no meaningful difference") {
  // 100.00, 100.01, ..., 100.09 against 1% less: every B is below every A.
  std::vector<double> a;
  for (int i = 0; i < 10; ++i) a.push_back(100.0 + 0.01 * i);
  const std::vector<double> b = scaled(a, 0.99);
  const Comparison c = compare_samples(a, b);
  CHECK(c.mann_whitney.p_value < 0.001);
  CHECK(c.ratio_interval.low > 1.0);
  CHECK(c.verdict == Verdict::no_difference);
  CHECK(c.sentence ==
        "no meaningful difference: B is 1.01x faster than A, within the 2% noise threshold "
        "(95% CI " + two_decimals(c.ratio_interval.low) + "-" +
            two_decimals(c.ratio_interval.high) + "x, p < 0.001)");
  CompareOptions strict;
  strict.threshold = 0.005;
  CHECK(compare_samples(a, b, strict).verdict == Verdict::faster);
}

TEST_CASE("a significant slowdown inside the noise threshold prints the slowdown's interval") {
  // B 1% slower than A, every B above every A: the factor is 1.01 and so is its interval (the
  // ratio A/B's interval, about 0.99-0.99, inverted), never the ratio's own.
  std::vector<double> a;
  for (int i = 0; i < 10; ++i) a.push_back(100.0 + 0.01 * i);
  const Comparison c = compare_samples(a, scaled(a, 1.01));
  CHECK(c.verdict == Verdict::no_difference);
  CHECK(c.ratio_interval.high < 1.0);
  CHECK(c.sentence ==
        "no meaningful difference: B is 1.01x slower than A, within the 2% noise threshold "
        "(95% CI " + two_decimals(1 / c.ratio_interval.high) + "-" +
            two_decimals(1 / c.ratio_interval.low) + "x, p < 0.001)");
  CHECK(c.sentence.find("CI 1.01-1.01x") != std::string::npos);
}

namespace {

// A comparison with the fields the sentence reads, for branches real samples reach only by
// chance; alpha 0.05, threshold 2%.
Comparison judged(Verdict v, double ratio, Interval ci, double p) {
  Comparison c;
  c.n_a = c.n_b = 12;
  c.ratio = ratio;
  c.ratio_interval = ci;
  c.mann_whitney.p_value = p;
  c.verdict = v;
  return c;
}

}  // namespace

TEST_CASE("every branch of the sentence prints the interval of the factor it states") {
  SUBCASE("faster") {
    CHECK(comparison_sentence(judged(Verdict::faster, 1.25, {1.2, 1.3}, 0.0001)) ==
          "B is 1.25x faster than A (95% CI 1.20-1.30x, p < 0.001)");
  }
  SUBCASE("slower: 1/0.8 = 1.25 inside 1/0.84-1/0.75") {
    CHECK(comparison_sentence(judged(Verdict::slower, 0.8, {0.75, 0.84}, 0.002)) ==
          "B is 1.25x slower than A (95% CI 1.19-1.33x, p = 0.002)");
  }
  SUBCASE("within the threshold, B faster") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1.01, {1.004, 1.016}, 0.001)) ==
          "no meaningful difference: B is 1.01x faster than A, within the 2% noise threshold "
          "(95% CI 1.00-1.02x, p = 0.001)");
  }
  SUBCASE("within the threshold, B slower") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1 / 1.01, {1 / 1.016, 1 / 1.004}, 0.001)) ==
          "no meaningful difference: B is 1.01x slower than A, within the 2% noise threshold "
          "(95% CI 1.00-1.02x, p = 0.001)");
  }
  SUBCASE("significant, but the interval includes 1") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1 / 1.05, {1 / 1.1, 1 / 0.98}, 0.03)) ==
          "no significant difference: B is 1.05x slower than A (p = 0.03, but the 95% CI "
          "0.98-1.10x includes 1)");
  }
  SUBCASE("not significant, the interval includes 1") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1.04, {0.97, 1.12}, 0.4)) ==
          "no significant difference: B is 1.04x faster than A (p = 0.4; the 95% CI 0.97-1.12x "
          "includes 1)");
  }
  SUBCASE("not significant, though the interval excludes 1") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1 / 1.06, {1 / 1.1, 1 / 1.03}, 0.07)) ==
          "no significant difference: B is 1.06x slower than A (p = 0.07, not below 0.05, though "
          "the 95% CI 1.03-1.10x excludes 1)");
  }
  SUBCASE("equal medians: the interval of A / B, named") {
    CHECK(comparison_sentence(judged(Verdict::no_difference, 1.0, {0.98, 1.03}, 1.0)) ==
          "no significant difference: B's median equals A's (p = 1; the 95% CI of A / B "
          "0.98-1.03x includes 1)");
  }
  SUBCASE("too few samples") {
    Comparison c = judged(Verdict::too_few_samples, 2.0, {1.5, 2.5}, 0.1);
    c.n_a = 3;
    CHECK(comparison_sentence(c) == "too few samples to decide: 3 of A and 12 of B, need at least 5 each");
  }
  SUBCASE("the runs named: a regression table's baseline and this run") {
    CHECK(comparison_sentence(judged(Verdict::slower, 1 / 2.05, {1 / 2.1, 1 / 2.0}, 0.0001),
                              "the baseline", "this run") ==
          "this run is 2.05x slower than the baseline (95% CI 2.00-2.10x, p < 0.001)");
  }
}

TEST_CASE("the verdicts in words, for tables and legends") {
  CHECK(std::string(verdict_word(Verdict::faster)) == "faster");
  CHECK(std::string(verdict_word(Verdict::slower)) == "slower");
  CHECK(std::string(verdict_word(Verdict::no_difference)) == "no clear difference");
  CHECK(std::string(verdict_word(Verdict::too_few_samples)) == "too few samples");
  CHECK(std::string(verdict_name(Verdict::no_difference)) == "no_difference");
}

TEST_CASE("too few samples to decide, whatever the data say") {
  const Comparison c = compare_samples({10, 11, 12}, {5, 6, 7, 8});
  CHECK(c.verdict == Verdict::too_few_samples);
  CHECK(c.sentence == "too few samples to decide: 3 of A and 4 of B, need at least 5 each");
  CHECK(c.ratio == doctest::Approx(11.0 / 6.5));  // still reported
  CompareOptions o;
  o.min_samples = 3;
  CHECK(compare_samples({10, 11, 12}, {5, 6, 7, 8}, o).verdict != Verdict::too_few_samples);
}

TEST_CASE("the comparison is reproducible from its seed") {
  CompareOptions o;
  o.seed = 99;
  o.bootstrap_resamples = 2000;
  const Comparison x = compare_samples(kSleep1, kSleep2, o), y = compare_samples(kSleep1, kSleep2, o);
  CHECK(x.ratio_interval.low == y.ratio_interval.low);
  CHECK(x.ratio_interval.high == y.ratio_interval.high);
  CHECK(x.seed == 99);
  CHECK(x.bootstrap_resamples == 2000);
  // The verdict follows Mann-Whitney (p = 0.069 here), not Welch (p = 0.079).
  CHECK(x.mann_whitney.p_value == doctest::Approx(0.0693276).epsilon(1e-5));
  CHECK(x.welch.p_value == doctest::Approx(0.0793941).epsilon(1e-5));
  CHECK(x.verdict == Verdict::no_difference);
}

TEST_CASE("comparisons refuse bad samples and bad options, naming them") {
  CHECK_THROWS_WITH_AS(compare_samples({1, 2}, {}, {}, "base_ms", "new_ms"),
                       "new_ms is empty: a sample needs at least one value", ValueError);
  CHECK_THROWS_WITH_AS(compare_samples({1, -2}, {1}, {}, "base_ms", "new_ms"),
                       "base_ms[1] is -2: values must be finite and not negative", ValueError);
  CHECK_THROWS_WITH_AS(compare_samples({0, 0, 1}, {1, 2}),
                       "the median of a is 0: a ratio of medians needs positive medians (a clock "
                       "too coarse for the work? batch more calls per sample)",
                       ValueError);
  CHECK_THROWS_WITH_AS(mann_whitney_u({1}, {std::nan("")}),
                       "b[0] is nan: values must be finite and not negative", ValueError);
  CompareOptions o;
  o.alpha = 0.7;
  CHECK_THROWS_WITH_AS(compare_samples({1}, {1}, o), "alpha must be between 0.0001 and 0.5, got 0.7",
                       ValueError);
  o = {};
  o.threshold = -0.01;
  CHECK_THROWS_WITH_AS(compare_samples({1}, {1}, o), "threshold must be between 0 and 1, got -0.01",
                       ValueError);
  o = {};
  o.min_samples = 1;
  CHECK_THROWS_WITH_AS(compare_samples({1}, {1}, o), "min_samples must be between 2 and 100000, got 1",
                       ValueError);
}
