// Shared checks, formatting, medians, resampling and ranks of the statistics files.
// Not for: anything reachable without first validating (callers check samples first).
#include "stats_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "perflab/base/error.hpp"
#include "perflab/stats/summary.hpp"

namespace perflab::detail {

std::string format_g(double v, int digits) {
  char buf[64];
  // Whole numbers print whole ("1000000", not "1e+06"): limits read as they are written.
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof(buf), "%.0f", v);
  } else {
    std::snprintf(buf, sizeof(buf), "%.*g", digits, v);
  }
  return buf;
}

std::string format_fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", decimals, v);
  return buf;
}

void check_sample(const std::vector<double>& values, const std::string& name) {
  if (values.empty()) {
    throw ValueError(name + " is empty: a sample needs at least one value");
  }
  check_sample_size(static_cast<double>(values.size()), name);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (!std::isfinite(v) || v < 0) {
      throw ValueError(name + "[" + std::to_string(i) + "] is " + format_g(v) +
                       ": values must be finite and not negative");
    }
  }
}

void check_range(const std::string& field, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {
    throw ValueError(field + " must be between " + format_g(lo) + " and " + format_g(hi) +
                     ", got " + format_g(value));
  }
}

double median_in_place(std::vector<double>& values) {
  const std::size_t n = values.size();
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (n % 2 == 1) return *mid;
  // Even n: the lower middle is the largest value left of mid.
  const double lower = *std::max_element(values.begin(), mid);
  return 0.5 * (lower + *mid);
}

std::vector<double> sorted_copy(const std::vector<double>& values) {
  std::vector<double> s = values;
  std::sort(s.begin(), s.end());
  return s;
}

double resampled_median(const std::vector<double>& sorted, Rng& rng,
                        std::vector<std::uint32_t>& counts) {
  const std::size_t n = sorted.size();
  counts.assign(n, 0);
  const auto last = static_cast<std::int64_t>(n) - 1;
  for (std::size_t i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(rng.integer(0, last))];
  // 0-based positions of the middle of the sorted resample: equal for odd n.
  const std::size_t lo = (n - 1) / 2, hi = n / 2;
  std::size_t seen = 0, rank = 0;
  while (seen + counts[rank] <= lo) seen += counts[rank++];
  const double low_value = sorted[rank];
  while (seen + counts[rank] <= hi) seen += counts[rank++];
  return 0.5 * (low_value + sorted[rank]);
}

Ranks midranks(const std::vector<double>& values) {
  const std::size_t n = values.size();
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return values[x] < values[y]; });
  Ranks r;
  r.rank.assign(n, 0.0);
  std::size_t i = 0;
  while (i < n) {
    std::size_t j = i + 1;
    while (j < n && values[order[j]] == values[order[i]]) ++j;
    // Positions i..j-1 (0-based) share the average of ranks i+1..j.
    const double shared = 0.5 * static_cast<double>(i + 1 + j);
    for (std::size_t k = i; k < j; ++k) r.rank[order[k]] = shared;
    const auto t = static_cast<double>(j - i);
    r.tie_sum += t * t * t - t;
    i = j;
  }
  return r;
}

}  // namespace perflab::detail
