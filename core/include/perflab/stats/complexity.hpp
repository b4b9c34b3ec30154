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
};

// sizes: positive and finite, at least two distinct; times: positive and finite (the
// log-log fit needs logarithms); equal lengths. Errors name the argument, index and value.
ComplexityReport fit_complexity(const std::vector<double>& sizes, const std::vector<double>& times);

}  // namespace perflab
