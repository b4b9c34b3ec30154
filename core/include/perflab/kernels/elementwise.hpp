// Element-wise kernels: GELU four ways (unfused passes vs one fused pass, each scalar and on
// vectors) registered by name with a double-precision reference, add and mul on vectors,
// their FLOP and byte counts, and measure_gelu (verify, then time) with its JSON row.
// kernels/ includes nothing from roofline/ (kernel.hpp says why). Not for: broadcasting
// (element-wise ops need equal shapes) or in-place updates.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/kernels/kernel.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// GELU, tanh approximation: 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))).
// "unfused": one pass and one temporary tensor per operation (as a NumPy expression
// would), scalar; "unfused-simd": the same passes on vectors; "fused": one pass, no
// temporaries, scalar; "fused-simd": one pass on vectors (the fastest and the default).
// Costs: cost_gelu_unfused / cost_gelu_fused below (SIMD or not moves the same
// bytes). Unfused variants give NaN at −inf as NumPy does (−inf · 0); fused ones give −0.
using GeluKernel = Tensor (*)(const Tensor& x);
struct GeluVariant {
  std::string name;
  std::string description;
  GeluKernel kernel;
};
const std::vector<GeluVariant>& gelu_variants();
const GeluVariant& find_gelu_variant(std::string_view name);
inline constexpr std::string_view kDefaultGeluVariant = "fused-simd";
Tensor gelu(const Tensor& x, std::string_view variant = kDefaultGeluVariant);
// Double-precision reference for one element.
double gelu_reference(double x);

// One measured point of the fused-vs-unfused GELU experiment and the benches: n random
// floats in [−4, 4), every result first checked against gelu_reference (within
// 1e-6 + 1e-5·|reference|), then timed. What is timed is what each variant is about: an
// unfused variant's call with its eight passes and its tensors (allocating them, zero-filled,
// is part of its cost); a fused variant's one pass written into an output allocated once
// before timing (so the pass is all that is timed: read x, write out).
struct GeluMeasurement {
  std::string variant;
  std::size_t n = 0;
  double bytes = 0;           // per call, the variant's passes: cost_gelu_fused/unfused(n)
  double gb_per_s = 0;        // bytes / median (effective bandwidth)
  double ns_per_element = 0;  // median / n
  Stats stats;
};
inline constexpr std::size_t kMaxMeasureGeluN = std::size_t{1} << 26;  // 64 Mi, 256 MiB
// Throws ValueError for n outside [1, kMaxMeasureGeluN] or an unknown variant, and Error
// when the variant's result disagrees with the reference.
GeluMeasurement measure_gelu(std::string_view variant, std::size_t n,
                             const TimerOptions& options, Clock& clock = default_clock(),
                             const ProgressFn& progress = nullptr);

// Element-wise, same shapes (ShapeError otherwise).
Tensor add(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);

// out = a + b (or a · b) over n floats: n FLOPs, 12n bytes (two reads, one write).
OpCost cost_add(std::size_t n);
OpCost cost_mul(std::size_t n);
// GELU, tanh form 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))): 9 FLOPs per element, the
// formula's operations: x·x, ·x, ·0.044715, +x, ·√(2/π), tanh (counted as one), 1+, x·, 0.5·.
// (The vector tanh behind it executes about twenty more; the roofline counts the work asked
// for, not the cost of one way to do it.) One constant, shared with the GELU layer's count
// (layers.hpp flop_cost::kGeluForward), so the profiler and the roofline agree.
inline constexpr double kGeluFlopsPerElement = 9;
// Fused: one pass, 8n bytes (read x, write out).
OpCost cost_gelu_fused(std::size_t n);
// Unfused, as elementwise.cpp's "unfused" variant runs it (one pass per operation, each
// writing a new tensor): six one-input passes of 8n bytes (x³, ·0.044715, ·√(2/π), tanh,
// 1+, 0.5·) and two two-input passes of 12n (x + …, x · …): 72n bytes, 9× the fused traffic.
OpCost cost_gelu_unfused(std::size_t n);

// measure_gelu's row with the FLOP side added: {variant, elements, flops (9 per element,
// kGeluFlopsPerElement), bytes, gb_per_s, gflops_per_s (flops / median), ns_per_element,
// stats}.
nlohmann::json to_json(const GeluMeasurement& m);

}  // namespace perflab
