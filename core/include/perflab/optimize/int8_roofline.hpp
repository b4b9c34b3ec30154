// The int8 Linear and the float packed matmul on one roofline (the Optimization chapter's
// optimization-int8 experiment): each kernel's ideal bytes in its own types, its intensity,
// and the rate it reached from a measured median, placed against a machine's roofs.
// Why a function of its own: measure_int8_linear (kernels/int8.hpp) counts the weights' bytes
// only; a roofline needs everything a call must move, which differs between the two kernels
// only in the weights (1 byte a code, plus a scale and a code sum per output, against 4
// bytes a weight).
// Each kernel under its own compute roof: the float kernel under the probe's float32 peak, the
// int8 one under the probe's integer peak (probe_peak_int8: the same multiply-add in
// registers), both under the same bandwidth roof.
// Not for: measuring (measure_int8_linear) or probing (roofline/probe.hpp).
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "perflab/roofline/roofline.hpp"

namespace perflab {

// What one call of y (B, N) = x (B, K)·W (K, N) must move at least, each tensor once, in the
// type the timed call holds it in. Both calls start from float32 x (the int8 call quantizes it
// inside its time) and end with float32 y.
//   x_bytes             4·B·K
//   y_bytes             4·B·N
//   int8_weight_bytes   Int8Weights::bytes(): N·stride codes (K padded to kInt8KBlock) + 8·N
//   float32_weight_bytes 4·K·N
//   int8_bytes, float32_bytes: the sums
//   ops                 2·B·K·N for both (the int8 ones are integer multiply-adds)
struct Int8LinearTraffic {
  std::size_t batch = 0, in = 0, out = 0;
  double ops = 0;
  std::size_t x_bytes = 0, y_bytes = 0;
  std::size_t int8_weight_bytes = 0, float32_weight_bytes = 0;
  std::size_t int8_bytes = 0, float32_bytes = 0;
};
// ValueError for a dimension outside [1, kMaxInt8Dimension], naming it.
Int8LinearTraffic int8_linear_traffic(std::size_t batch, std::size_t in, std::size_t out);

// Both kernels of one measured point placed on the roofs: "int8" (ops over int8_bytes, its
// rate ops / int8_median_ms) against the integer peak and the bandwidth, and "float32" (the
// same over float32_bytes) against `roofs`.
struct Int8Roofline {
  Int8LinearTraffic traffic;
  Roofs roofs;       // the float32 peak and the bandwidth
  Roofs int8_roofs;  // the integer peak and the same bandwidth
  RooflinePoint int8, float32;
};
// ValueError: a bad dimension, a median that is not finite and above 0, bad roofs, an integer
// peak that is not finite and above 0.
Int8Roofline int8_roofline(std::size_t batch, std::size_t in, std::size_t out,
                           double int8_median_ms, double float32_median_ms, const Roofs& roofs,
                           double int8_peak_gops_per_s);

// {batch, in, out, ops, x_bytes, y_bytes, int8_weight_bytes, float32_weight_bytes,
//  int8_bytes, float32_bytes}.
nlohmann::json to_json(const Int8LinearTraffic& t);
// {traffic, int8: to_json(RooflinePoint) against int8_roofs (its peak_gflops_per_s is the
//  integer peak), float32: ... against roofs}.
nlohmann::json to_json(const Int8Roofline& r);

}  // namespace perflab
