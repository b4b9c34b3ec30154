// Complexity fits of time(n): least squares of time = c·g(n) for g in 1, log2 n, n, n log2 n,
// n², n³, ranked by normalized RMS (RMS of the residuals over the mean time, as Google
// Benchmark's complexity report computes it), plus a power-law exponent from a log-log
// regression with its 95% t interval.
// Not for: choosing sizes or timing (the page and the bench do that).
#pragma once

#include <string>
#include <vector>

#include "perflab/stats/summary.hpp"

namespace perflab {

enum class ComplexityClass { constant, log_n, n, n_log_n, n_squared, n_cubed };
// "O(1)", "O(log n)", "O(n)", "O(n log n)", "O(n^2)", "O(n^3)".
const char* complexity_name(ComplexityClass c);
// The curve g(n) of a class (log base 2, as Google Benchmark).
double complexity_curve(ComplexityClass c, double n);

struct ComplexityFit {
  ComplexityClass complexity = ComplexityClass::constant;
  std::string name;          // complexity_name(complexity)
  double coefficient = 0;    // c in time ≈ c·g(n), in time units per g(n)
  double normalized_rms = 0; // √(mean squared residual) / mean time
  // The log-log slope the curve g(n) itself has over the fitted sizes (least squares of
  // ln g against ln n): 0 for O(1), 1 for O(n), about 1.1 for O(n log n) over 10³…10⁶. NaN
  // when g is not positive at every size (log n at n = 1).
  double expected_exponent = 0;
};

struct PowerLaw {
  double exponent = 0;       // b in time ≈ a·n^b (slope of ln time against ln n)
  double coefficient = 0;    // a
  Interval exponent_interval;  // b ± t(0.975, points − 2)·se(b); width 0 with 2 points
  double r_squared = 0;
};

struct ComplexityReport {
  std::vector<ComplexityFit> fits;  // all six, best (smallest normalized RMS) first
  PowerLaw power_law;
  std::string warning;              // e.g. too few sizes for an interval
  // The class core names, or empty when it names none: the best fit only when the slope's
  // 95% interval holds that class's expected exponent and no other class's (all at the two
  // decimals the conclusion prints). Otherwise the fit and the slope disagree, or the data
  // cannot tell the classes apart, and the conclusion says which.
  std::string named_class;
  // The verdict in a sentence with its numbers, e.g. "No class named: the best fit by RMS is
  // O(n log n) (normalized RMS 3.2%), but the log-log slope b = 0.93 (95% interval 0.80 to
  // 1.05) excludes its 1.10 over these sizes and holds O(n)'s 1.00."
  std::string conclusion;
};

// sizes: positive and finite, at least two distinct; times: positive and finite (the
// log-log fit needs logarithms); equal lengths. Errors name the argument, index and value.
ComplexityReport fit_complexity(const std::vector<double>& sizes, const std::vector<double>& times);

// JSON from one field list per struct: {fits: [{complexity (complexity_name), coefficient,
// normalized_rms, expected_exponent (null when undefined)}], power_law {exponent,
// coefficient, exponent_interval {low, high}, r_squared}, named_class, conclusion, warning}:
// what the page's fitComplexity returns. The reader names a missing or mistyped field by its
// path, and a class name that is not one of the six.
nlohmann::json to_json(const ComplexityReport& report);
ComplexityReport complexity_report_from_json(const nlohmann::json& j,
                                             const std::string& where = "report");

}  // namespace perflab
