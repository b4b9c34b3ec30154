// One measured point of any of the lab's kernels by name ("matmul", "add", "gelu", ...) with
// its documented FLOP and byte counts (beside each kernel in kernels/) and, given the
// machine's roofs, its place on the roofline. The operation-efficiency and roofline
// experiments, `perflab roofline` and `perflab bench` all measure through this, and the JSON
// row below is what the page and the CLI print, so the two agree field by field. It lives in
// roofline/ because it places kernels on the roofline: roofline/ includes kernels/, never the
// reverse (roofline.hpp says why). Not for: sweeps (the caller loops over points), or
// counting real cache traffic.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/roofline/roofline.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// "matmul", "add", "mul", "gelu", "sum", "softmax", "layernorm", in that order.
const std::vector<std::string>& operation_names();

struct OperationOptions {
  TimerOptions timer;
  // The op's kernel variant; "" picks its default: matmul "packed" (any matmul variant),
  // gelu "fused-simd" (any GELU variant), sum "simd", softmax and layernorm "fused"; add
  // and mul have one vector kernel, "simd".
  std::string variant;
  // Given (MachineProfile::roofs(), or numbers a page already has): the row carries its
  // roofline placement (roofline.hpp).
  std::optional<Roofs> roofs;
};

// n is the size the caller asked for; elements what one call processes:
//   matmul     n = N of N×N @ N×N (1..kMaxMeasureMatmulN), elements = N² (of the output);
//              counts cost_matmul(N, N, N); verified against naive up to N = 512;
//   add, mul   elements = n, cost_add / cost_mul;
//   gelu       elements = n, cost_gelu_fused (fused variants) or cost_gelu_unfused;
//              verified against the double-precision reference;
//   sum        elements = n, cost_sum;
//   softmax, layernorm  rows of cols = min(n, 1024) features, rows = n / cols (n above 1024
//              is rounded down to whole rows, so elements ≤ n), cost_softmax_* /
//              cost_layernorm_* of the variant.
// Element-wise ops take 1..kMaxOperationElements. What is timed is one call of the lab's
// Tensor API (a new output tensor each call, as a NumPy expression would; matmul and fused
// GELU write into an output allocated once). Rates use the median: gflops_per_s =
// flops / median, gb_per_s = bytes / median, ns_per_element = median / elements.
inline constexpr std::size_t kMaxOperationElements = std::size_t{1} << 24;  // 16 Mi, 64 MiB
inline constexpr std::size_t kOperationRowFeatures = 1024;

struct OperationMeasurement {
  std::string op;
  std::string variant;
  std::size_t n = 0;
  std::size_t elements = 0;
  double flops = 0;
  double bytes = 0;
  double intensity = 0;  // flops / bytes
  double gflops_per_s = 0;
  double gb_per_s = 0;
  double ns_per_element = 0;
  Stats stats;
  std::optional<RooflinePlacement> roofline;  // when options.roofs was given
};

// Errors: ValueError "unknown operation 'x'; known operations: matmul, add, ...", n out of
// range (naming the op and the allowed range), an unknown variant for the op, timer
// options; roofline.hpp's ValueError for roofs that are not finite and above 0; Error when
// a verified kernel disagrees with its reference.
OperationMeasurement measure_operation(std::string_view op, std::size_t n,
                                       const OperationOptions& options = {},
                                       Clock& clock = default_clock(),
                                       const ProgressFn& progress = nullptr);

// ---- JSON row, the same field names in C++, the page and the CLI.
// {op, variant, n, elements, flops, bytes, intensity, gflops_per_s, gb_per_s,
//  ns_per_element, stats} and, when placed, roofline.hpp's add_placement fields:
//  peak_gflops_per_s, bandwidth_gb_per_s, ridge_flops_per_byte, attainable_gflops_per_s,
//  fraction_of_attainable, bound, verdict.
nlohmann::json to_json(const OperationMeasurement& m);

}  // namespace perflab
