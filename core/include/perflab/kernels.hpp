// Compute kernels, each variant registered in one list with its name so tests compare
// every variant with the naive reference and benchmarks verify before they time.
// Matmul: (..., M, K) @ (..., K, N) -> (..., M, N) with numpy broadcasting of the batch
// dimensions; a 2-D operand broadcasts against a batched one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/tensor.hpp"
#include "perflab/timer.hpp"

namespace perflab {

// One 2-D product: out (M, N) = a (M, K) @ b (K, N), all row-major and contiguous.
// out is overwritten, never accumulated into.
using MatmulKernel = void (*)(float* out, const float* a, const float* b, std::size_t M,
                              std::size_t K, std::size_t N);

struct MatmulVariant {
  std::string name;         // "naive", "reordered", "simd"
  std::string description;  // one sentence for the page
  MatmulKernel kernel;
};

// naive (i-j-k) first: it is the reference.
const std::vector<MatmulVariant>& matmul_variants();
// Throws ValueError listing the known names.
const MatmulVariant& find_matmul_variant(std::string_view name);

// Validates and broadcasts. Errors: fewer than 2 dimensions; inner-dimension mismatch
// ("shape mismatch", both shapes, both inner dimensions); batch dimensions that do not
// broadcast.
Shape matmul_output_shape(const Shape& a, const Shape& b);
Tensor matmul(const Tensor& a, const Tensor& b, std::string_view variant = "simd");

// True when this build's SIMD kernels use 128-bit vectors (wasm simd128 or SSE2/NEON);
// false when they fall back to scalar code.
bool simd_enabled();
// "wasm-simd128", "sse2", "neon" or "scalar".
const char* simd_backend();

// GELU, tanh approximation: 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))).
// "unfused": one pass and one temporary tensor per operation (as a NumPy expression
// would); "fused": one pass, no temporaries.
using GeluKernel = Tensor (*)(const Tensor& x);
struct GeluVariant {
  std::string name;
  std::string description;
  GeluKernel kernel;
};
const std::vector<GeluVariant>& gelu_variants();
const GeluVariant& find_gelu_variant(std::string_view name);
Tensor gelu(const Tensor& x, std::string_view variant = "fused");
// Double-precision reference for one element.
double gelu_reference(double x);

// Element-wise, same shapes (ShapeError otherwise).
Tensor add(const Tensor& a, const Tensor& b);
Tensor mul(const Tensor& a, const Tensor& b);

// Normwise error of a matmul result: max |got − reference| / max |reference| (NaN if any
// element of got is NaN; 0 when both are all zeros). Element-wise relative errors are
// meaningless for sums that cancel to near zero. Throws ShapeError on differing shapes.
double matmul_relative_error(const Tensor& got, const Tensor& reference);
// measure_matmul checks each variant against naive up to this n (the naive reference is
// too slow to run above it in a browser), and fails above this normwise error.
inline constexpr std::size_t kMaxVerifiedMatmulN = 512;
inline constexpr double kMatmulTolerance = 1e-4;
inline constexpr std::size_t kMaxMeasureMatmulN = 4096;

// One measured point of the "matmul: loops vs SIMD" experiment and the bench: square
// N×N @ N×N with random inputs, timed with the Timer. flops = 2·N³.
struct MatmulMeasurement {
  std::string variant;
  std::size_t n = 0;
  double flops = 0;
  double gflops_per_s = 0;  // flops / median
  Stats stats;
};
// Throws ValueError for n outside [1, kMaxMeasureMatmulN] or an unknown variant, and Error
// when the variant's result disagrees with naive (checked for n <= kMaxVerifiedMatmulN).
MatmulMeasurement measure_matmul(std::string_view variant, std::size_t n,
                                 const TimerOptions& options, Clock& clock = default_clock(),
                                 const ProgressFn& progress = nullptr);

}  // namespace perflab
