// Thread scaling: speedup, efficiency and the Karp-Flatt serial fraction of each measured
// thread count, and the Amdahl's-law fit through them. The fit is least squares through the
// origin of y = 1/S − 1/p on x = 1 − 1/p (Amdahl: 1/S = s + (1 − s)/p, so y = s·x exactly),
// with s clamped to [0, 1]: noise can make a speedup superlinear (s < 0) or a slowdown
// steeper than any serial fraction explains (s > 1), neither of which Amdahl's law holds.
// Not for: timing (kernels/parallel.hpp measures) or choosing thread counts (the plans do).
#pragma once

#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"

namespace perflab {

struct ScalingRow {
  unsigned threads = 1;
  double median_ms = 0;
  double speedup = 1;     // median at 1 thread / median at `threads`
  double efficiency = 1;  // speedup / threads
  // Karp-Flatt: (1/S − 1/p) / (1 − 1/p), the serial fraction this one point implies; none at
  // 1 thread, where it is 0/0.
  std::optional<double> karp_flatt;
  // The fit's speedup at this thread count, amdahl_speedup(fit.serial_fraction, threads): the
  // fit line the page draws through the measured points.
  double fitted_speedup = 1;
};

struct AmdahlFit {
  double serial_fraction = 0;  // s in [0, 1]
  double max_speedup = 0;      // 1/s: the speedup no thread count passes; inf (JSON null) at s = 0
  // RMS of measured speedup − amdahl_speedup(s, p) over the points with p > 1 (the 1-thread
  // point is 1 by definition on both sides), in speedup units (×).
  double rms_error = 0;
};

struct ScalingAnalysis {
  std::vector<ScalingRow> rows;  // by thread count, ascending
  AmdahlFit fit;
};

// Amdahl's law: 1 / (s + (1 − s)/p). ValueError unless s is in [0, 1] and p ≥ 1 (both finite).
double amdahl_speedup(double serial_fraction, double threads);

// points: (threads, median_ms), in any order. ValueError, naming what is allowed, for fewer
// than two points, no 1-thread point (every speedup is against it), a thread count given
// twice, a thread count of 0 or above kMaxEngineThreads (kernels/engine.hpp), or a median
// that is not a finite number above 0.
ScalingAnalysis analyze_scaling(const std::vector<std::pair<unsigned, double>>& points);

// {rows: [{threads, median_ms, speedup, efficiency, karp_flatt (null at 1 thread),
//          fitted_speedup}],
//  fit: {serial_fraction, max_speedup (null when unbounded), rms_error}}: what the page's
// analyzeScaling returns. Written and read from one field list per struct.
inline auto json_fields_of(const ScalingRow*) {
  return std::make_tuple(JsonField{"threads", &ScalingRow::threads},
                         JsonField{"median_ms", &ScalingRow::median_ms},
                         JsonField{"speedup", &ScalingRow::speedup},
                         JsonField{"efficiency", &ScalingRow::efficiency},
                         JsonField{"karp_flatt", &ScalingRow::karp_flatt},
                         JsonField{"fitted_speedup", &ScalingRow::fitted_speedup});
}
inline auto json_fields_of(const AmdahlFit*) {
  return std::make_tuple(JsonField{"serial_fraction", &AmdahlFit::serial_fraction},
                         JsonField{"max_speedup", &AmdahlFit::max_speedup,
                                   JsonRange::unbounded_as_null},
                         JsonField{"rms_error", &AmdahlFit::rms_error});
}
inline auto json_fields_of(const ScalingAnalysis*) {
  return std::make_tuple(JsonField{"rows", &ScalingAnalysis::rows},
                         JsonField{"fit", &ScalingAnalysis::fit});
}
nlohmann::json to_json(const ScalingAnalysis& analysis);
ScalingAnalysis scaling_analysis_from_json(const nlohmann::json& j,
                                           const std::string& where = "analysis");

}  // namespace perflab
