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
    CHECK(r.fits.front().coefficient == doctest::Approx(3e-6));
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
    CHECK(p.exponent_interval.width() == doctest::Approx(0).scale(1));
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
