// Least-squares complexity fits ranked by normalized RMS (Google Benchmark's measure) and the
// log-log power law with a t interval of its exponent. Not for: fits with an intercept
// (a constant overhead shows up as a worse fit of every class but O(1)).
#include "perflab/stats/complexity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

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

// The least-squares slope of ln y against ln x (x positive, at least two distinct).
double log_log_slope(const std::vector<double>& xs, const std::vector<double>& ys) {
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    mx += std::log(xs[i]);
    my += std::log(ys[i]);
  }
  mx /= static_cast<double>(xs.size());
  my /= static_cast<double>(xs.size());
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double dx = std::log(xs[i]) - mx;
    sxx += dx * dx;
    sxy += dx * (std::log(ys[i]) - my);
  }
  return sxy / sxx;
}

// Slopes as the conclusion prints them, and compared at that precision, so that a sentence
// never says an interval printed "0.80 to 1.05" excludes a slope printed "1.05".
std::string slope_text(double b) { return detail::format_fixed(b, 2); }
double hundredths(double b) { return std::round(100.0 * b); }

// "O(n) (1.00)", "O(n) (1.00) and O(n log n) (1.10)", with commas before the last.
std::string classes_text(const std::vector<const ComplexityFit*>& fits) {
  std::string out;
  for (std::size_t i = 0; i < fits.size(); ++i) {
    out += std::string(i == 0 ? "" : i + 1 == fits.size() ? " and " : ", ") + fits[i]->name + " (" +
           slope_text(fits[i]->expected_exponent) + ")";
  }
  return out;
}

// Names a class only when the RMS ranking and the slope agree on exactly one (see the header).
void conclude(ComplexityReport& report, std::size_t points) {
  const ComplexityFit& best = report.fits.front();
  const PowerLaw& law = report.power_law;
  const std::string fit = "the best fit by RMS is " + best.name + " (normalized RMS " +
                          detail::format_fixed(100.0 * best.normalized_rms, 1) + "%)";
  if (points < 3) {
    report.conclusion = "No class named: " + fit + ", but with 2 sizes the log-log slope b = " +
                        slope_text(law.exponent) +
                        " has no interval to check it against; measure at least 5 sizes.";
    return;
  }
  const std::string slope = "the log-log slope b = " + slope_text(law.exponent) +
                            " (95% interval " + slope_text(law.exponent_interval.low) + " to " +
                            slope_text(law.exponent_interval.high) + ")";
  const auto held = [&](const ComplexityFit& f) {
    const double e = hundredths(f.expected_exponent);
    return std::isfinite(e) && hundredths(law.exponent_interval.low) <= e &&
           e <= hundredths(law.exponent_interval.high);
  };
  std::vector<const ComplexityFit*> consistent;
  for (const ComplexityFit& f : report.fits) {
    if (held(f)) consistent.push_back(&f);
  }
  std::sort(consistent.begin(), consistent.end(), [](const auto* x, const auto* y) {
    return x->complexity < y->complexity;
  });
  if (!held(best)) {
    const std::string expected = std::isfinite(best.expected_exponent)
                                     ? "its " + slope_text(best.expected_exponent)
                                     : "it (its curve is not positive at every size)";
    report.conclusion =
        "No class named: " + fit + ", but " + slope + " excludes " + expected +
        " over these sizes and " +
        (consistent.empty() ? "holds no class's slope: the fit and the slope disagree."
                            : "holds " + classes_text(consistent) + ".");
    return;
  }
  if (consistent.size() > 1) {
    report.conclusion = "Too close to tell: " + fit + ", but " + slope + " holds the slopes of " +
                        classes_text(consistent) +
                        " over these sizes; measure more sizes, over a wider range.";
    return;
  }
  report.named_class = best.name;
  report.conclusion = best.name + ": " + fit + ", and " + slope + " holds its " +
                      slope_text(best.expected_exponent) +
                      " over these sizes and no other class's.";
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
    std::vector<double> curve;
    for (double n : sizes) curve.push_back(complexity_curve(c, n));
    fit.expected_exponent =
        std::all_of(curve.begin(), curve.end(), [](double g) { return g > 0; })
            ? log_log_slope(sizes, curve)
            : std::numeric_limits<double>::quiet_NaN();
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
  conclude(report, count);
  return report;
}

// The JSON of a fit report, written by to_json and read by complexity_report_from_json. A fit
// names its class as complexity_name writes it ("complexity": "O(n log n)"); an expected
// exponent that is undefined (log n at n = 1) is null.
auto json_fields_of(const ComplexityFit*) {
  const JsonComputed<ComplexityFit> complexity{
      "complexity", [](const ComplexityFit& f) -> nlohmann::json { return f.name; },
      [](const nlohmann::json& v, const std::string& field, ComplexityFit& f) {
        constexpr ComplexityClass kClasses[] = {
            ComplexityClass::constant, ComplexityClass::log_n,     ComplexityClass::n,
            ComplexityClass::n_log_n,  ComplexityClass::n_squared, ComplexityClass::n_cubed};
        f.complexity = json_enum(v, field, kClasses, complexity_name);
        f.name = complexity_name(f.complexity);
      }};
  return std::make_tuple(complexity, JsonField{"coefficient", &ComplexityFit::coefficient},
                         JsonField{"normalized_rms", &ComplexityFit::normalized_rms},
                         JsonField{"expected_exponent", &ComplexityFit::expected_exponent,
                                   JsonRange::undefined_as_null});
}

auto json_fields_of(const PowerLaw*) {
  return std::make_tuple(JsonField{"exponent", &PowerLaw::exponent},
                         JsonField{"coefficient", &PowerLaw::coefficient},
                         JsonField{"exponent_interval", &PowerLaw::exponent_interval},
                         JsonField{"r_squared", &PowerLaw::r_squared});
}

auto json_fields_of(const ComplexityReport*) {
  using R = ComplexityReport;
  return std::make_tuple(JsonField{"fits", &R::fits}, JsonField{"power_law", &R::power_law},
                         JsonField{"named_class", &R::named_class},
                         JsonField{"conclusion", &R::conclusion}, JsonField{"warning", &R::warning});
}

nlohmann::json to_json(const ComplexityReport& report) { return write_fields(report); }
ComplexityReport complexity_report_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<ComplexityReport>(j, where);
}

}  // namespace perflab
