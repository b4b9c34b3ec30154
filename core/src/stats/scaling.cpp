// Speedup, efficiency, Karp-Flatt and the Amdahl fit of a thread-scaling run. The fit has no
// intercept: at p = 1 both x and y are 0, and Amdahl's law passes through that point exactly.
// Not for: timing or the choice of thread counts.
#include "perflab/stats/scaling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/engine.hpp"
#include "stats_detail.hpp"

namespace perflab {

double amdahl_speedup(double serial_fraction, double threads) {
  detail::check_range("serial_fraction", serial_fraction, 0.0, 1.0);
  if (!std::isfinite(threads) || !(threads >= 1)) {
    throw ValueError("threads must be a finite number of at least 1, got " +
                     detail::format_g(threads));
  }
  return 1.0 / (serial_fraction + (1.0 - serial_fraction) / threads);
}

ScalingAnalysis analyze_scaling(const std::vector<std::pair<unsigned, double>>& points) {
  constexpr unsigned max_threads = kMaxEngineThreads;
  if (points.size() < 2) {
    throw ValueError("a scaling analysis needs at least two thread counts, one of them 1, got " +
                     std::to_string(points.size()) + " point" + (points.size() == 1 ? "" : "s"));
  }
  std::set<unsigned> seen;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto [threads, median_ms] = points[i];
    const std::string where = "points[" + std::to_string(i) + "]";
    if (threads < 1 || threads > max_threads) {
      throw ValueError(where + ".threads is " + std::to_string(threads) +
                       ": thread counts must be from 1 to " + std::to_string(max_threads));
    }
    if (!seen.insert(threads).second) {
      throw ValueError(where + ".threads is " + std::to_string(threads) +
                       ", which an earlier point already has: give each thread count once "
                       "(its median)");
    }
    if (!std::isfinite(median_ms) || !(median_ms > 0)) {
      throw ValueError(where + ".median_ms is " + detail::format_g(median_ms) +
                       ": a median time must be a finite number of ms above 0");
    }
  }
  if (!seen.count(1)) {
    std::string list;
    for (unsigned t : seen) list += (list.empty() ? "" : ", ") + std::to_string(t);
    throw ValueError("the points have no 1-thread time (they have threads " + list +
                     "): every speedup is against 1 thread, so measure it too");
  }

  std::vector<std::pair<unsigned, double>> sorted = points;
  std::sort(sorted.begin(), sorted.end());
  const double t1 = sorted.front().second;
  ScalingAnalysis out;
  double sxx = 0, sxy = 0;
  for (const auto& [threads, median_ms] : sorted) {
    ScalingRow row;
    row.threads = threads;
    row.median_ms = median_ms;
    row.speedup = t1 / median_ms;
    const double p = static_cast<double>(threads);
    row.efficiency = row.speedup / p;
    if (threads > 1) {
      const double x = 1.0 - 1.0 / p;
      const double y = 1.0 / row.speedup - 1.0 / p;
      row.karp_flatt = y / x;
      sxx += x * x;
      sxy += x * y;
    }
    out.rows.push_back(row);
  }
  // sxx > 0: there is a point with p > 1 (two distinct counts, one of them 1).
  const double s = std::clamp(sxy / sxx, 0.0, 1.0);
  out.fit.serial_fraction = s;
  out.fit.max_speedup = s > 0 ? 1.0 / s : std::numeric_limits<double>::infinity();
  double squares = 0;
  for (ScalingRow& row : out.rows) {
    row.fitted_speedup = amdahl_speedup(s, static_cast<double>(row.threads));
    if (row.threads == 1) continue;
    const double r = row.speedup - row.fitted_speedup;
    squares += r * r;
  }
  out.fit.rms_error = std::sqrt(squares / static_cast<double>(out.rows.size() - 1));
  return out;
}

nlohmann::json to_json(const ScalingAnalysis& analysis) { return write_fields(analysis); }

ScalingAnalysis scaling_analysis_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<ScalingAnalysis>(j, where);
}

}  // namespace perflab
