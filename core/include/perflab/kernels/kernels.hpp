// Compute kernels, each variant registered in one list with its name so tests compare
// every variant with the naive reference and benchmarks verify before they time.
// Matmul: (..., M, K) @ (..., K, N) -> (..., M, N) with numpy broadcasting of the batch
// dimensions; a 2-D operand broadcasts against a batched one. Row kernels (sum, softmax,
// LayerNorm) are in reduce.hpp and norm.hpp; FLOP and byte counts of these kernels are in
// roofline.hpp (cost_matmul, cost_gelu_*, cost_add, cost_mul) and beside the row kernels.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// Name and one-sentence description of a variant, for lists whose kernels have varying
// signatures (sum, softmax, LayerNorm) and are dispatched by name.
struct KernelInfo {
  std::string name;
  std::string description;
};

// One 2-D product: out (M, N) = a (M, K) @ b (K, N), all row-major and contiguous.
// out is overwritten, never accumulated into.
using MatmulKernel = void (*)(float* out, const float* a, const float* b, std::size_t M,
                              std::size_t K, std::size_t N);

struct MatmulVariant {
  std::string name;         // "naive", "reordered", "blocked", "simd", "packed"
  std::string description;  // one sentence for the page
  MatmulKernel kernel;
};

// In this order, roughly slowest to fastest (measured by bench/perflab_bench):
//   naive      i-j-k, scalar: the reference every other variant is compared with;
//   reordered  i-k-j, scalar: unit-stride inner loop;
//   blocked    i-k-j inside cache tiles (MatmulTiles defaults), 4-wide SIMD inner loop;
//   simd       register-blocked 4×8 micro-kernel on the unpacked operands;
//   packed     GotoBLAS/BLIS structure: b packed into k×16 strips, a read in place two rows
//              at a time, cache-blocked over k, n and m, a 2×16 register-blocked
//              micro-kernel (packing b costs more than it saves below N ≈ 100).
const std::vector<MatmulVariant>& matmul_variants();
// Throws ValueError listing the known names.
const MatmulVariant& find_matmul_variant(std::string_view name);
// What matmul() uses when no variant is named: the fastest, "packed".
inline constexpr std::string_view kDefaultMatmulVariant = "packed";

// Validates and broadcasts. Errors: fewer than 2 dimensions; inner-dimension mismatch
// ("shape mismatch", both shapes, both inner dimensions); batch dimensions that do not
// broadcast.
Shape matmul_output_shape(const Shape& a, const Shape& b);
Tensor matmul(const Tensor& a, const Tensor& b, std::string_view variant = kDefaultMatmulVariant);

// Tile sizes of the cache-blocked matmul: out is computed in m×n tiles, each summing over k
// in chunks of k, so that a tile of out, an m×k tile of a and a k×n tile of b are reused
// while they are in cache. The defaults are the registered "blocked" variant's.
struct MatmulTiles {
  std::size_t m = 64, n = 256, k = 128;
  // Throws ValueError "tile_m must be between 1 and 4096, got 0" (then tile_n, tile_k).
  void validate() const;
};
// The largest tile along any dimension: the largest matrix the lab measures
// (kMaxMeasureMatmulN), so a larger tile would only be this one; a 2^31 tile overflows the
// kernel's loop counters in wasm32, where size_t is 32 bits.
inline constexpr std::size_t kMaxMatmulTile = 4096;
// matmul with the "blocked" kernel and these tiles; batched and broadcast as matmul().
// Tiles larger than the matrix are fine (one tile covers it).
Tensor matmul_blocked(const Tensor& a, const Tensor& b, MatmulTiles tiles);
// The 2-D kernel behind it (out (M, N) overwritten), for benchmarks and the tuning experiment.
void matmul_blocked_kernel(float* out, const float* a, const float* b, std::size_t M,
                           std::size_t K, std::size_t N, MatmulTiles tiles);

// True when this build's SIMD kernels use 128-bit vectors (wasm simd128 or SSE2/NEON);
// false when they fall back to scalar code.
bool simd_enabled();
// "wasm-simd128", "sse2", "neon" or "scalar".
const char* simd_backend();

// GELU, tanh approximation: 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))).
// "unfused": one pass and one temporary tensor per operation (as a NumPy expression
// would), scalar; "unfused-simd": the same passes on vectors; "fused": one pass, no
// temporaries, scalar; "fused-simd": one pass on vectors (the fastest and the default).
// Costs: cost_gelu_unfused / cost_gelu_fused in roofline.hpp (SIMD or not moves the same
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
// N×N @ N×N with random inputs, timed with the Timer. flops and bytes are
// cost_matmul(N, N, N): 2·N³ FLOPs, 12·N² bytes (each operand read once, out written once).
struct MatmulMeasurement {
  std::string variant;
  std::size_t n = 0;
  double flops = 0;
  double bytes = 0;
  double intensity = 0;     // flops / bytes = N/6 FLOP/byte
  double gflops_per_s = 0;  // flops / median
  double gb_per_s = 0;      // bytes / median: the ideal traffic's rate, a lower bound
  Stats stats;
};
// Throws ValueError for n outside [1, kMaxMeasureMatmulN] or an unknown variant, and Error
// when the variant's result disagrees with naive (checked for n <= kMaxVerifiedMatmulN).
MatmulMeasurement measure_matmul(std::string_view variant, std::size_t n,
                                 const TimerOptions& options, Clock& clock = default_clock(),
                                 const ProgressFn& progress = nullptr);
// The block-size tuning experiment's point: the "blocked" kernel with these tiles (variant
// "blocked" in the result). Same checks as measure_matmul, plus tiles.validate().
MatmulMeasurement measure_matmul_blocked(std::size_t n, MatmulTiles tiles,
                                         const TimerOptions& options,
                                         Clock& clock = default_clock(),
                                         const ProgressFn& progress = nullptr);

}  // namespace perflab
