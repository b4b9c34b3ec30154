// Least-squares complexity fits ranked by normalized RMS (Google Benchmark's measure) and the
// log-log power law with a t interval of its exponent. Not for: fits with an intercept
// (a constant overhead shows up as a worse fit of every class but O(1)).
#include "perflab/stats/complexity.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "stats_detail.hpp"

namespace perflab {

namespace {

constexpr ComplexityClass kClasses[] = {ComplexityClass::constant, ComplexityClass::log_n,
                                        ComplexityClass::n,        ComplexityClass::n_log_n,
                                        ComplexityClass::n_squared, ComplexityClass::n_cubed};

void check_positive(const std::vector<double>& v, const char* name) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i]) || !(v[i] > 0)) {
      throw ValueError(std::string(name) + "[" + std::to_string(i) + "] is " +
                       detail::format_g(v[i]) + ": values must be finite and greater than 0");
    }
  }
}

}  // namespace

const char* complexity_name(ComplexityClass c) {
  switch (c) {
    case ComplexityClass::constant: return "O(1)";
    case ComplexityClass::log_n: return "O(log n)";
    case ComplexityClass::n: return "O(n)";
    case ComplexityClass::n_log_n: return "O(n log n)";
    case ComplexityClass::n_squared: return "O(n^2)";
    case ComplexityClass::n_cubed: return "O(n^3)";
  }
  return "unknown";
}

double complexity_curve(ComplexityClass c, double n) {
  switch (c) {
    case ComplexityClass::constant: return 1.0;
    case ComplexityClass::log_n: return std::log2(n);
    case ComplexityClass::n: return n;
    case ComplexityClass::n_log_n: return n * std::log2(n);
    case ComplexityClass::n_squared: return n * n;
    case ComplexityClass::n_cubed: return n * n * n;
  }
  return 0.0;
}

ComplexityReport fit_complexity(const std::vector<double>& sizes,
                                const std::vector<double>& times) {
  if (sizes.size() != times.size()) {
    throw ValueError("sizes and times must have the same length, got " +
                     std::to_string(sizes.size()) + " and " + std::to_string(times.size()));
  }
  check_positive(sizes, "sizes");
  check_positive(times, "times");
  const auto [lo, hi] = std::minmax_element(sizes.begin(), sizes.end());
  if (sizes.size() < 2 || *lo == *hi) {
    throw ValueError("a complexity fit needs at least 2 different sizes, got " +
                     std::to_string(sizes.size()) + " points" +
                     (sizes.empty() ? std::string() : " at size " + detail::format_g(*lo)));
  }
  const std::size_t count = sizes.size();
  const double points = static_cast<double>(count);

  ComplexityReport report;
  double mean_time = 0;
  for (double t : times) mean_time += t;
  mean_time /= points;
  for (ComplexityClass c : kClasses) {
    double gg = 0, tg = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double g = complexity_curve(c, sizes[i]);
      gg += g * g;
      tg += times[i] * g;
    }
    ComplexityFit fit;
    fit.complexity = c;
    fit.name = complexity_name(c);
    fit.coefficient = gg > 0 ? tg / gg : 0.0;
    double squares = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const double r = times[i] - fit.coefficient * complexity_curve(c, sizes[i]);
      squares += r * r;
    }
    fit.normalized_rms = std::sqrt(squares / points) / mean_time;
    report.fits.push_back(fit);
  }
  // Stable: on a tie the simpler class stays ahead.
  std::stable_sort(report.fits.begin(), report.fits.end(),
                   [](const ComplexityFit& x, const ComplexityFit& y) {
                     return x.normalized_rms < y.normalized_rms;
                   });

  // ln time = ln a + b ln n by ordinary least squares.
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < count; ++i) {
    mx += std::log(sizes[i]);
    my += std::log(times[i]);
  }
  mx /= points;
  my /= points;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const double dx = std::log(sizes[i]) - mx, dy = std::log(times[i]) - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  PowerLaw& law = report.power_law;
  law.exponent = sxy / sxx;
  law.coefficient = std::exp(my - law.exponent * mx);
  const double sse = std::max(0.0, syy - law.exponent * sxy);
  law.r_squared = syy > 0 ? 1.0 - sse / syy : 1.0;
  if (count >= 3) {
    const double se = std::sqrt(sse / (points - 2) / sxx);
    const double q = student_t_quantile(0.975, points - 2);
    law.exponent_interval = {law.exponent - q * se, law.exponent + q * se};
  } else {
    law.exponent_interval = {law.exponent, law.exponent};
  }

  std::vector<std::string> warnings;
  if (count < 3) {
    warnings.push_back("only 2 points: the exponent has no interval; measure at least 5 sizes");
  }
  if (*hi / *lo < 10) {
    warnings.push_back("sizes span only a factor of " + detail::format_g(*hi / *lo, 3) +
                       ": classes differ little over such a range; spread sizes over a factor "
                       "of 10 or more");
  }
  for (const std::string& w : warnings) report.warning += (report.warning.empty() ? "" : "; ") + w;
  return report;
}

}  // namespace perflab
