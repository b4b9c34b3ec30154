// Matmul: (..., M, K) @ (..., K, N) -> (..., M, N) with numpy broadcasting of the batch
// dimensions; a 2-D operand broadcasts against a batched one. Every variant is registered in
// one list with its name, so tests compare each with the naive reference and benchmarks
// verify before they time; measure_matmul is that verify-then-time point, with its counts
// (cost_matmul) and its JSON row. kernels/ includes nothing from roofline/ (kernel.hpp says
// why). Not for: threads, non-contiguous inputs, or placing a point on the roofline
// (roofline/operations.hpp).
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

// (M, K) @ (K, N): 2·M·K·N FLOPs (a multiply and an add per term), 4·(M·K + K·N + M·N)
// bytes. Square N×N: 2N³ FLOPs, 12N² bytes, intensity N/6.
OpCost cost_matmul(std::size_t M, std::size_t K, std::size_t N);

// measure_matmul's row: {variant, n, flops, bytes, intensity, gflops_per_s, gb_per_s, stats}.
nlohmann::json to_json(const MatmulMeasurement& m);
// measure_matmul_blocked's row: the matmul row + tiles {tile_m, tile_n, tile_k}.
nlohmann::json to_json(const MatmulMeasurement& m, const MatmulTiles& tiles);

}  // namespace perflab
