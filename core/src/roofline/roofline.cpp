// Roofline arithmetic, placements and their JSON (documented in roofline.hpp). Every
// function validates its arguments first, so a bad number from the page gets a message
// rather than a NaN on a chart.
// Not for: measuring peaks or bandwidths (probe.cpp does that).
#include "perflab/roofline/roofline.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

namespace perflab {
namespace {

// Two significant digits, but whole numbers from 10 up: 0.17, 8.3, 4.2, 50, 1234.
std::string format_2sig(double v) { return format_number(v, 2); }

void require_positive(std::string_view prefix, const char* name, double v) {
  if (!(std::isfinite(v) && v > 0)) {
    throw ValueError(std::string(prefix) + name + " must be a finite number greater than 0, got " +
                     format_number(v, 6));
  }
}

void require_non_negative(const char* name, double v) {
  if (!(std::isfinite(v) && v >= 0)) {
    throw ValueError(std::string(name) + " must be a finite number of at least 0, got " +
                     format_number(v, 6));
  }
}

void require_roofs(double peak_gflops_per_s, double bandwidth_gb_per_s) {
  validate_roofs({peak_gflops_per_s, bandwidth_gb_per_s});
}

}  // namespace

void validate_roofs(const Roofs& roofs, std::string_view prefix) {
  require_positive(prefix, "peak_gflops_per_s", roofs.peak_gflops_per_s);
  require_positive(prefix, "bandwidth_gb_per_s", roofs.bandwidth_gb_per_s);
}

double arithmetic_intensity(double flops, double bytes) {
  require_non_negative("flops", flops);
  require_positive("", "bytes", bytes);
  return flops / bytes;
}

double attainable_gflops_per_s(double peak_gflops_per_s, double bandwidth_gb_per_s,
                               double intensity) {
  require_roofs(peak_gflops_per_s, bandwidth_gb_per_s);
  require_non_negative("intensity", intensity);
  return std::min(peak_gflops_per_s, intensity * bandwidth_gb_per_s);
}

double ridge_point(double peak_gflops_per_s, double bandwidth_gb_per_s) {
  require_roofs(peak_gflops_per_s, bandwidth_gb_per_s);
  return peak_gflops_per_s / bandwidth_gb_per_s;
}

double ridge_point(const Roofs& roofs) {
  return ridge_point(roofs.peak_gflops_per_s, roofs.bandwidth_gb_per_s);
}

const char* to_string(Bound bound) {
  return bound == Bound::Compute ? "compute-bound" : "memory-bound";
}

Bound classify(double peak_gflops_per_s, double bandwidth_gb_per_s, double intensity) {
  const double ridge = ridge_point(peak_gflops_per_s, bandwidth_gb_per_s);
  require_non_negative("intensity", intensity);
  return intensity < ridge ? Bound::Memory : Bound::Compute;
}

std::string roofline_verdict(double peak_gflops_per_s, double bandwidth_gb_per_s,
                             double intensity) {
  const Bound bound = classify(peak_gflops_per_s, bandwidth_gb_per_s, intensity);
  const double ridge = ridge_point(peak_gflops_per_s, bandwidth_gb_per_s);
  const std::string intensity_text = format_2sig(intensity);
  const std::string ridge_text = format_2sig(ridge);
  std::string where;
  if (intensity == ridge) {
    where = "at";
  } else {
    where = intensity < ridge ? "below" : "above";
    // "8.3 is above 8.3" would read as a mistake.
    if (intensity_text == ridge_text) where = "just " + where;
  }
  return std::string(to_string(bound)) + ": intensity " + intensity_text + " FLOP/byte is " +
         where + " the ridge point " + ridge_text + " FLOP/byte; attainable " +
         format_2sig(attainable_gflops_per_s(peak_gflops_per_s, bandwidth_gb_per_s, intensity)) +
         " GFLOP/s of " + format_2sig(peak_gflops_per_s) + " peak";
}

RooflinePoint roofline_point(std::string name, double flops, double bytes,
                             double measured_gflops_per_s, double peak_gflops_per_s,
                             double bandwidth_gb_per_s) {
  require_roofs(peak_gflops_per_s, bandwidth_gb_per_s);
  require_non_negative("measured_gflops_per_s", measured_gflops_per_s);
  RooflinePoint p;
  p.name = std::move(name);
  p.flops = flops;
  p.bytes = bytes;
  p.measured_gflops_per_s = measured_gflops_per_s;
  p.intensity = arithmetic_intensity(flops, bytes);
  p.attainable_gflops_per_s =
      attainable_gflops_per_s(peak_gflops_per_s, bandwidth_gb_per_s, p.intensity);
  p.bound = classify(peak_gflops_per_s, bandwidth_gb_per_s, p.intensity);
  p.fraction_of_attainable =
      p.attainable_gflops_per_s > 0 ? measured_gflops_per_s / p.attainable_gflops_per_s : 0.0;
  p.verdict = roofline_verdict(peak_gflops_per_s, bandwidth_gb_per_s, p.intensity);
  return p;
}

RooflinePlacement place_on_roofline(double flops, double bytes, double measured_gflops_per_s,
                                    const Roofs& roofs) {
  const RooflinePoint p = roofline_point("", flops, bytes, measured_gflops_per_s,
                                         roofs.peak_gflops_per_s, roofs.bandwidth_gb_per_s);
  RooflinePlacement r;
  r.roofs = roofs;
  r.ridge_flops_per_byte = ridge_point(roofs);
  r.attainable_gflops_per_s = p.attainable_gflops_per_s;
  r.fraction_of_attainable = p.fraction_of_attainable;
  r.bound = p.bound;
  r.verdict = p.verdict;
  return r;
}

nlohmann::json to_json(const RooflinePoint& p, const Roofs& roofs) {
  return {{"name", p.name},
          {"flops", p.flops},
          {"bytes", p.bytes},
          {"measured_gflops_per_s", p.measured_gflops_per_s},
          {"intensity", p.intensity},
          {"attainable_gflops_per_s", p.attainable_gflops_per_s},
          {"bound", to_string(p.bound)},
          {"fraction_of_attainable", p.fraction_of_attainable},
          {"verdict", p.verdict},
          {"ridge_flops_per_byte", ridge_point(roofs)},
          {"peak_gflops_per_s", roofs.peak_gflops_per_s},
          {"bandwidth_gb_per_s", roofs.bandwidth_gb_per_s}};
}

void add_placement(nlohmann::json& row, const RooflinePlacement& p) {
  row["peak_gflops_per_s"] = p.roofs.peak_gflops_per_s;
  row["bandwidth_gb_per_s"] = p.roofs.bandwidth_gb_per_s;
  row["ridge_flops_per_byte"] = p.ridge_flops_per_byte;
  row["attainable_gflops_per_s"] = p.attainable_gflops_per_s;
  row["fraction_of_attainable"] = p.fraction_of_attainable;
  row["bound"] = to_string(p.bound);
  row["verdict"] = p.verdict;
}

}  // namespace perflab
