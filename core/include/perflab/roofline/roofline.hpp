// The roofline model as plain arithmetic, and its one vocabulary: the roofs, the ridge point,
// the attainable bound min(peak, intensity × bandwidth), the compute- or memory-bound
// verdict in a sentence with its numbers, a measurement's placement against the roofs, and
// their JSON. Every other header (operations, profiler, probe, report) speaks of roofs and
// placements with these types and field names. The roofs come from the machine probe
// (probe.hpp); the FLOP and byte counts come from the kernels (kernels/: cost_matmul, ...).
// roofline/ may include kernels/, never the reverse: placing a kernel needs its counts, a
// kernel needs no roofs. Not for: measuring anything, caches (one bandwidth roof), or
// counting what a kernel's implementation really moves.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace perflab {

// Units: FLOPs and bytes are counts, intensity is FLOP/byte, peak and attained throughput
// GFLOP/s (10^9 FLOP/s), bandwidth GB/s (10^9 bytes/s). So intensity × bandwidth is in
// GFLOP/s and peak / bandwidth in FLOP/byte.
//
// Errors (ValueError) name the argument, the value and what is allowed: peak_gflops_per_s and
// bandwidth_gb_per_s must be finite and above 0; flops, intensity and measured_gflops_per_s
// finite and at least 0; bytes finite and above 0 (a kernel that moves nothing has no
// intensity).

// The two roofs: the compute roof and the bandwidth roof.
struct Roofs {
  double peak_gflops_per_s = 0;
  double bandwidth_gb_per_s = 0;
};
// ValueError unless both are finite and above 0, naming the field after `prefix`
// ("machine." gives "machine.peak_gflops_per_s must be a finite number greater than 0,
// got -1").
void validate_roofs(const Roofs& roofs, std::string_view prefix = "");

// flops / bytes.
double arithmetic_intensity(double flops, double bytes);
// min(peak, intensity × bandwidth): the most a kernel of this intensity can attain.
double attainable_gflops_per_s(double peak_gflops_per_s, double bandwidth_gb_per_s,
                               double intensity);
// peak / bandwidth: the intensity where the two roofs meet, in FLOP/byte (the field
// ridge_flops_per_byte wherever a ridge is reported).
double ridge_point(double peak_gflops_per_s, double bandwidth_gb_per_s);
double ridge_point(const Roofs& roofs);

// Below the ridge a kernel is memory-bound; at or above it, compute-bound (at the ridge
// both roofs give the same bound; the sentence says "at the ridge point").
enum class Bound { Compute, Memory };
const char* to_string(Bound bound);  // "compute-bound", "memory-bound"
Bound classify(double peak_gflops_per_s, double bandwidth_gb_per_s, double intensity);

// One sentence, numbers with two significant digits (whole numbers from 10 up):
// "memory-bound: intensity 0.17 FLOP/byte is below the ridge point 8.3 FLOP/byte;
//  attainable 4.2 GFLOP/s of 50 peak". "below"/"above" become "just below"/"just above"
// when the rounded numbers print the same, and "at" is used only for exact equality.
std::string roofline_verdict(double peak_gflops_per_s, double bandwidth_gb_per_s, double intensity);

// A kernel placed on the roofline.
struct RooflinePoint {
  std::string name;
  double flops = 0;
  double bytes = 0;
  double measured_gflops_per_s = 0;
  double intensity = 0;                // FLOP/byte
  double attainable_gflops_per_s = 0;  // min(peak, intensity × bandwidth)
  Bound bound = Bound::Memory;
  double fraction_of_attainable = 0;  // measured / attainable; 0 when attainable is 0
  std::string verdict;                // roofline_verdict(...)
};
RooflinePoint roofline_point(std::string name, double flops, double bytes,
                             double measured_gflops_per_s, double peak_gflops_per_s,
                             double bandwidth_gb_per_s);

// Where a measurement sits against a machine's roofs: the roofs themselves, the ridge, and
// the point's bound. What a measured operation row, a bench row and a profile's bottleneck
// report beside their own counts.
struct RooflinePlacement {
  Roofs roofs;
  double ridge_flops_per_byte = 0;
  double attainable_gflops_per_s = 0;
  double fraction_of_attainable = 0;  // measured / attainable; 0 when attainable is 0
  Bound bound = Bound::Memory;
  std::string verdict;  // roofline_verdict(...)
};
// The errors of roofline_point.
RooflinePlacement place_on_roofline(double flops, double bytes, double measured_gflops_per_s,
                                    const Roofs& roofs);

// ---- JSON, the same field names in C++, the page and the CLI.
// RooflinePoint's fields, bound as text, + ridge_flops_per_byte, peak_gflops_per_s and
// bandwidth_gb_per_s (the roofs it was placed against).
nlohmann::json to_json(const RooflinePoint& point, const Roofs& roofs);
// Adds a placement's fields to a row: peak_gflops_per_s, bandwidth_gb_per_s,
// ridge_flops_per_byte, attainable_gflops_per_s, fraction_of_attainable, bound, verdict
// (measured operation rows, and the CLI reports report.cpp validates).
void add_placement(nlohmann::json& row, const RooflinePlacement& placement);

}  // namespace perflab
