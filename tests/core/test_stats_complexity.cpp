// Protects the complexity fits: the coefficient and normalized RMS of Google Benchmark's
// formula on data small enough to fit by hand, the right class ranked first on exact and on
// seeded noisy synthetic data for every class, the log-log exponent and its t interval, and
// the refusals. No timing: every "time" here is synthetic.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/random.hpp"
#include "perflab/stats/complexity.hpp"

using namespace perflab;

namespace {

constexpr ComplexityClass kAll[] = {ComplexityClass::constant, ComplexityClass::log_n,
                                    ComplexityClass::n,        ComplexityClass::n_log_n,
                                    ComplexityClass::n_squared, ComplexityClass::n_cubed};

// Sizes 16, 32, ..., 16384: a factor of 1024, as a size sweep in the page would use.
std::vector<double> sweep() {
  std::vector<double> sizes;
  for (int k = 4; k <= 14; ++k) sizes.push_back(std::ldexp(1.0, k));
  return sizes;
}

const ComplexityFit& fit_of(const ComplexityReport& r, ComplexityClass c) {
  for (const ComplexityFit& f : r.fits) {
    if (f.complexity == c) return f;
  }
  throw Error("missing fit");
}

}  // namespace

TEST_CASE("two points fit by hand: coefficients, normalized RMS and the exponent") {
  // n = 1, 2 and times 1, 3 (mean 2).
  // O(n): c = (1·1 + 3·2) / (1 + 4) = 1.4; residuals −0.4, 0.2; RMS √0.1; normalized √0.1 / 2.
  // O(1): c = 2; residuals ∓1; RMS 1; normalized 0.5.
  const ComplexityReport r = fit_complexity({1, 2}, {1, 3});
  REQUIRE(r.fits.size() == 6);
  CHECK(fit_of(r, ComplexityClass::n).coefficient == doctest::Approx(1.4));
  CHECK(fit_of(r, ComplexityClass::n).normalized_rms == doctest::Approx(std::sqrt(0.1) / 2));
  CHECK(fit_of(r, ComplexityClass::constant).coefficient == doctest::Approx(2));
  CHECK(fit_of(r, ComplexityClass::constant).normalized_rms == doctest::Approx(0.5));
  // O(log n): g = 0, 1, so c = 3 and only the first point misses (by 1): RMS √0.5.
  CHECK(fit_of(r, ComplexityClass::log_n).normalized_rms == doctest::Approx(std::sqrt(0.5) / 2));
  for (std::size_t i = 1; i < r.fits.size(); ++i) {
    CHECK(r.fits[i - 1].normalized_rms <= r.fits[i].normalized_rms);
  }
  // ln 3 / ln 2 through two points, a = 1; no interval from two points.
  CHECK(r.power_law.exponent == doctest::Approx(std::log(3.0) / std::log(2.0)));
  CHECK(r.power_law.coefficient == doctest::Approx(1.0));
  CHECK(r.power_law.exponent_interval.width() == 0);
  CHECK(r.power_law.r_squared == doctest::Approx(1.0));
  CHECK(r.warning ==
        "only 2 points: the exponent has no interval; measure at least 5 sizes; sizes span only "
        "a factor of 2: classes differ little over such a range; spread sizes over a factor of "
        "10 or more");
}

TEST_CASE("exact synthetic data is identified for every class") {
  const std::vector<double> sizes = sweep();
  for (ComplexityClass c : kAll) {
    CAPTURE(complexity_name(c));
    std::vector<double> times;
    for (double n : sizes) times.push_back(3e-6 * complexity_curve(c, n));
    const ComplexityReport r = fit_complexity(sizes, times);
    CHECK(r.fits.front().complexity == c);
    CHECK(r.fits.front().name == complexity_name(c));
    CHECK(r.fits.front().coefficient == doctest::Approx(3e-6).scale(0));
    CHECK(r.fits.front().normalized_rms < 1e-12);
    CHECK(r.fits[1].normalized_rms > 0.01);
    CHECK(r.warning.empty());
  }
}

TEST_CASE("the exponent of exact power laws is exact, with an interval of width 0") {
  const std::vector<double> sizes = sweep();
  for (int b = 0; b <= 3; ++b) {
    CAPTURE(b);
    std::vector<double> times;
    for (double n : sizes) times.push_back(0.5 * std::pow(n, b));
    const PowerLaw p = fit_complexity(sizes, times).power_law;
    CHECK(p.exponent == doctest::Approx(b).epsilon(1e-9).scale(1));
    CHECK(p.coefficient == doctest::Approx(0.5));
    CHECK(p.exponent_interval.width() < 1e-6);  // exact data: rounding noise only (2.5e-8 seen)
  }
}

TEST_CASE("seeded noisy data: the right class first and the exponent's interval covers it") {
  // Each time gets independent multiplicative noise, uniform in ±5%, from a fixed seed. O(n)
  // against O(n log n) is the hard pair (the fit without intercept is dominated by the
  // largest sizes, where log n changes little): over 500 other seeds about 1-2% of such runs
  // rank the neighbour first at ±5% noise, and about 17% at ±10%.
  const std::vector<double> sizes = sweep();
  Rng rng(2024);
  for (ComplexityClass c : kAll) {
    CAPTURE(complexity_name(c));
    std::vector<double> times;
    for (double n : sizes) times.push_back(2e-5 * complexity_curve(c, n) * rng.uniform(0.95, 1.05));
    const ComplexityReport r = fit_complexity(sizes, times);
    CHECK(r.fits.front().complexity == c);
    CHECK(r.fits.front().normalized_rms < 0.1);
    const PowerLaw& p = r.power_law;
    CHECK(p.exponent_interval.width() > 0);
    switch (c) {
      case ComplexityClass::constant: CHECK(p.exponent_interval.contains(0)); break;
      case ComplexityClass::n: CHECK(p.exponent_interval.contains(1)); break;
      case ComplexityClass::n_squared: CHECK(p.exponent_interval.contains(2)); break;
      case ComplexityClass::n_cubed: CHECK(p.exponent_interval.contains(3)); break;
      // n log n reads as an exponent a little above 1 over this range; log n well below 1.
      case ComplexityClass::n_log_n: CHECK(p.exponent > 1.0); CHECK(p.exponent < 1.3); break;
      case ComplexityClass::log_n: CHECK(p.exponent > 0.1); CHECK(p.exponent < 0.6); break;
    }
  }
}

TEST_CASE("complexity fits refuse bad sizes and times, naming them") {
  CHECK_THROWS_WITH_AS(fit_complexity({1, 2, 3}, {1, 2}),
                       "sizes and times must have the same length, got 3 and 2", ValueError);
  CHECK_THROWS_WITH_AS(fit_complexity({1, 0}, {1, 2}),
                       "sizes[1] is 0: values must be finite and greater than 0", ValueError);
  CHECK_THROWS_WITH_AS(fit_complexity({1, 2}, {1, std::nan("")}),
                       "times[1] is nan: values must be finite and greater than 0", ValueError);
  CHECK_THROWS_WITH_AS(fit_complexity({8, 8, 8}, {1, 2, 3}),
                       "a complexity fit needs at least 2 different sizes, got 3 points at size 8",
                       ValueError);
  CHECK_THROWS_WITH_AS(fit_complexity({}, {}),
                       "a complexity fit needs at least 2 different sizes, got 0 points",
                       ValueError);
}

TEST_CASE("each class's expected exponent is the log-log slope of its own curve over the sizes") {
  // Over 2⁴ … 2¹⁴ log₂ n runs 4 … 14; the least-squares slope of ln(log₂ n) against ln n
  // over the eleven sizes, by hand in Python: 0.17434.
  const ComplexityReport r = fit_complexity(sweep(), sweep());
  CHECK(fit_of(r, ComplexityClass::log_n).expected_exponent == doctest::Approx(0.17434).epsilon(1e-4));
  CHECK(fit_of(r, ComplexityClass::constant).expected_exponent == doctest::Approx(0.0));
  CHECK(fit_of(r, ComplexityClass::n).expected_exponent == doctest::Approx(1.0));
  CHECK(fit_of(r, ComplexityClass::n_squared).expected_exponent == doctest::Approx(2.0));
  CHECK(fit_of(r, ComplexityClass::n_cubed).expected_exponent == doctest::Approx(3.0));
  CHECK(fit_of(r, ComplexityClass::n_log_n).expected_exponent ==
        doctest::Approx(1.0 + fit_of(r, ComplexityClass::log_n).expected_exponent));
  // log₂ 1 = 0 has no logarithm: no expected exponent for O(log n) with n = 1 among the sizes.
  CHECK(std::isnan(fit_of(fit_complexity({1, 10, 100}, {1, 2, 3}), ComplexityClass::log_n)
                       .expected_exponent));
}

TEST_CASE("the conclusion names a class only when the RMS ranking and the slope agree on one") {
  SUBCASE("O(n³) with 2% noise: the best fit and the only slope in the interval") {
    const std::vector<double> ns = {16, 32, 64, 128, 256};
    const double noise[] = {1.02, 0.98, 1.01, 0.99, 1.0};
    std::vector<double> ts;
    for (std::size_t i = 0; i < ns.size(); ++i) ts.push_back(1e-6 * ns[i] * ns[i] * ns[i] * noise[i]);
    const ComplexityReport r = fit_complexity(ns, ts);
    CHECK(r.named_class == "O(n^3)");
    CHECK(r.conclusion ==
          "O(n^3): the best fit by RMS is O(n^3) (normalized RMS 0.2%), and the log-log slope "
          "b = 3.00 (95% interval 2.97 to 3.02) holds its 3.00 over these sizes and no other "
          "class's.");
  }
  SUBCASE("n log n plus a fixed cost: O(n log n) ranks first, the slope says O(n)") {
    // GELU over 2¹⁰ … 2²⁰ elements: a fixed 4 µs per call flattens the small sizes, so the
    // slope (0.89) sits below both 1 and n log n's 1.10 while RMS, ruled by the large sizes,
    // still prefers n log n.
    const std::vector<double> ns = {1024, 4096, 16384, 65536, 262144, 1048576};
    const double noise[] = {1, 1.1, 0.9, 1.05, 0.97, 1.0};
    std::vector<double> ts;
    for (std::size_t i = 0; i < ns.size(); ++i) {
      ts.push_back(0.004 + 1e-7 * ns[i] * std::log2(ns[i]) * noise[i]);
    }
    const ComplexityReport r = fit_complexity(ns, ts);
    REQUIRE(r.fits.front().complexity == ComplexityClass::n_log_n);
    CHECK(r.named_class.empty());
    CHECK(r.conclusion ==
          "No class named: the best fit by RMS is O(n log n) (normalized RMS 1.4%), but the "
          "log-log slope b = 0.89 (95% interval 0.72 to 1.07) excludes its 1.10 over these sizes "
          "and holds O(n) (1.00).");
  }
  SUBCASE("three noisy sizes: the interval holds every class") {
    const std::vector<double> ns = {16, 64, 256};
    const std::vector<double> ts = {1e-5 * 16 * 16 * 1.6, 1e-5 * 64 * 64 * 0.7, 1e-5 * 256 * 256};
    const ComplexityReport r = fit_complexity(ns, ts);
    REQUIRE(r.fits.front().complexity == ComplexityClass::n_squared);
    CHECK(r.named_class.empty());
    CHECK(r.conclusion ==
          "Too close to tell: the best fit by RMS is O(n^2) (normalized RMS 3.1%), but the "
          "log-log slope b = 1.83 (95% interval -1.30 to 4.96) holds the slopes of O(1) (0.00), "
          "O(log n) (0.25), O(n) (1.00), O(n log n) (1.25), O(n^2) (2.00) and O(n^3) (3.00) over "
          "these sizes; measure more sizes, over a wider range.");
  }
  SUBCASE("two sizes: no interval, no class") {
    const ComplexityReport r = fit_complexity({1, 2}, {1, 3});
    CHECK(r.named_class.empty());
    CHECK(r.conclusion.rfind("No class named: the best fit by RMS is O(n^2) (normalized RMS 8.6%), "
                             "but with 2 sizes the log-log slope b = 1.58 has no interval",
                             0) == 0);
  }
}
