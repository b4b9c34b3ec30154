// Matmul kernels (naive reference, loop-reordered, cache-blocked, SIMD register-blocked; the
// packed one is in matmul_packed.cpp), the variant list, batched/broadcast matmul on
// Tensors, measure_matmul (verify against naive, then time), its counts and its JSON row.
// Dimensions: out (M, N) = a (M, K) @ b (K, N), row-major, contiguous.
// Not for: threads, or non-contiguous inputs.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "matmul_packed.hpp"
#include "measure_inputs.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/kernels/matmul.hpp"

// The two scalar variants stay scalar (PERFLAB_SCALAR_FUNCTION/LOOP, detail/simd.hpp): at
// -O3 compilers auto-vectorize the i-k-j loop, and then "reordered vs simd" would measure
// the compiler rather than the lesson (loop order first, vectors second). The same flags
// apply natively and in wasm.

namespace perflab {
namespace {

using std::size_t;

// i-j-k: one dot product per output element; walks b down a column (stride N).
// The reference every other variant is compared with.
PERFLAB_SCALAR_FUNCTION
void matmul_naive(float* out, const float* a, const float* b, size_t M, size_t K, size_t N) {
  for (size_t i = 0; i < M; ++i) {
    for (size_t j = 0; j < N; ++j) {
      float sum = 0.0f;
      PERFLAB_SCALAR_LOOP
      for (size_t k = 0; k < K; ++k) sum += a[i * K + k] * b[k * N + j];
      out[i * N + j] = sum;
    }
  }
}

// i-k-j: the same arithmetic (each out[i][j] still sums over k in order), but the inner
// loop walks a row of b and a row of out with unit stride.
PERFLAB_SCALAR_FUNCTION
void matmul_reordered(float* out, const float* a, const float* b, size_t M, size_t K,
                      size_t N) {
  for (size_t i = 0; i < M; ++i) {
    float* out_row = out + i * N;
    std::fill(out_row, out_row + N, 0.0f);
    for (size_t k = 0; k < K; ++k) {
      const float a_ik = a[i * K + k];
      const float* b_row = b + k * N;
      PERFLAB_SCALAR_LOOP
      for (size_t j = 0; j < N; ++j) out_row[j] += a_ik * b_row[j];
    }
  }
}

// SIMD micro-kernel: an R-row × (4·V)-column block of out held in R·V vector registers.
// For each k it does a rank-1 update (i-k-j order inside the block): load V vectors of row
// k of b, broadcast a[r][k] for each row, multiply-add. a points at row i0 (column 0),
// b at column j0 (row 0), out at (i0, j0). With R = 4, V = 2 that is 8 accumulators +
// 2 b vectors + 1 broadcast = 11 registers: fits SSE2's 16 and wasm's register allocator.
template <int R, int V>
inline void simd_block(float* out, const float* a, const float* b, size_t K, size_t N) {
  using namespace detail;
  f32x4 acc[R][V];
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) acc[r][v] = zero();
  for (size_t k = 0; k < K; ++k) {
    f32x4 b_k[V];
    for (int v = 0; v < V; ++v) b_k[v] = loadu(b + k * N + 4 * v);
    for (int r = 0; r < R; ++r) {
      const f32x4 a_rk = splat(a[r * K + k]);
      for (int v = 0; v < V; ++v) acc[r][v] = fmadd(a_rk, b_k[v], acc[r][v]);
    }
  }
  for (int r = 0; r < R; ++r)
    for (int v = 0; v < V; ++v) storeu(out + r * N + 4 * v, acc[r][v]);
}

// R rows of out: 8-column blocks, then one 4-column block, then up to 3 leftover columns
// as scalar dot products (no vector loads past the end of a row).
template <int R>
void simd_rows(float* out, const float* a, const float* b, size_t K, size_t N) {
  size_t j = 0;
  for (; j + 8 <= N; j += 8) simd_block<R, 2>(out + j, a, b + j, K, N);
  if (j + 4 <= N) {
    simd_block<R, 1>(out + j, a, b + j, K, N);
    j += 4;
  }
  for (; j < N; ++j) {
    for (int r = 0; r < R; ++r) {
      float sum = 0.0f;
      for (size_t k = 0; k < K; ++k) sum += a[r * K + k] * b[k * N + j];
      out[r * N + j] = sum;
    }
  }
}

// Cache blocking with i-k-j order inside each tile and a 4-wide vector inner loop: for each
// m×n tile of out, the k range is walked in chunks of tiles.k, so the tile of out (tiles.m
// rows of tiles.n floats) and a tiles.k×tiles.n tile of b are reused while in cache. Each
// out element still sums over k in order. Validated tiles (>= 1) assumed.
void blocked_kernel(float* out, const float* a, const float* b, size_t M, size_t K, size_t N,
                    const MatmulTiles& tiles) {
  using namespace detail;
  std::fill(out, out + M * N, 0.0f);
  for (size_t i0 = 0; i0 < M; i0 += tiles.m) {
    const size_t i1 = std::min(M, i0 + tiles.m);
    for (size_t j0 = 0; j0 < N; j0 += tiles.n) {
      const size_t j1 = std::min(N, j0 + tiles.n);
      for (size_t k0 = 0; k0 < K; k0 += tiles.k) {
        const size_t k1 = std::min(K, k0 + tiles.k);
        for (size_t i = i0; i < i1; ++i) {
          float* out_row = out + i * N;
          for (size_t k = k0; k < k1; ++k) {
            const float a_ik = a[i * K + k];
            const f32x4 a_vec = splat(a_ik);
            const float* b_row = b + k * N;
            size_t j = j0;
            for (; j + kLanes <= j1; j += kLanes)
              storeu(out_row + j, fmadd(a_vec, loadu(b_row + j), loadu(out_row + j)));
            for (; j < j1; ++j) out_row[j] += a_ik * b_row[j];
          }
        }
      }
    }
  }
}

void matmul_blocked_default(float* out, const float* a, const float* b, size_t M, size_t K,
                            size_t N) {
  blocked_kernel(out, a, b, M, K, N, MatmulTiles{});
}

void matmul_simd(float* out, const float* a, const float* b, size_t M, size_t K, size_t N) {
  size_t i = 0;
  for (; i + 4 <= M; i += 4) simd_rows<4>(out + i * N, a + i * K, b, K, N);
  switch (M - i) {  // leftover rows: 0 to 3
    case 3: simd_rows<3>(out + i * N, a + i * K, b, K, N); break;
    case 2: simd_rows<2>(out + i * N, a + i * K, b, K, N); break;
    case 1: simd_rows<1>(out + i * N, a + i * K, b, K, N); break;
    default: break;
  }
}

std::string variant_names(const std::vector<MatmulVariant>& variants) {
  std::string names;
  for (const auto& v : variants) names += (names.empty() ? "" : ", ") + v.name;
  return names;
}

}  // namespace

const std::vector<MatmulVariant>& matmul_variants() {
  static const std::vector<MatmulVariant> variants = {
      {"naive",
       "i-j-k loops: one dot product per output, walking b down its columns (the reference)",
       matmul_naive},
      {"reordered",
       "i-k-j loops, scalar: the inner loop walks rows of b and out with unit stride",
       matmul_reordered},
      {"blocked",
       "i-k-j loops inside 64×256 tiles of out, summing over k in chunks of 128, so the tiles "
       "stay in cache; 128-bit vectors in the inner loop",
       matmul_blocked_default},
      {"simd",
       "128-bit vectors: a 4×8 block of outputs kept in registers, updated once per k",
       matmul_simd},
      {"packed",
       "as BLAS libraries do: b copied into 16-wide strips read with unit stride, a read two "
       "rows at a time in place, cache-blocked, and a 2×16 block of outputs in registers",
       detail::matmul_packed},
  };
  return variants;
}

const MatmulVariant& find_matmul_variant(std::string_view name) {
  for (const auto& v : matmul_variants())
    if (v.name == name) return v;
  throw ValueError("unknown matmul variant '" + std::string(name) +
                   "'; known variants: " + variant_names(matmul_variants()));
}

Shape matmul_output_shape(const Shape& a, const Shape& b) {
  const auto require_2d = [](const char* name, const Shape& shape) {
    if (shape.size() < 2) {
      throw ShapeError(std::string("matmul needs tensors with 2 or more dimensions; ") + name +
                       " has shape " + shape_to_string(shape) + ", a " +
                       std::to_string(shape.size()) + "-D tensor");
    }
  };
  require_2d("a", a);
  require_2d("b", b);
  const size_t a_nd = a.size(), b_nd = b.size();
  const size_t M = a[a_nd - 2], K = a[a_nd - 1], K_b = b[b_nd - 2], N = b[b_nd - 1];
  const std::string both = "a " + shape_to_string(a) + " @ b " + shape_to_string(b);
  if (K != K_b) {
    throw ShapeError("matmul shape mismatch: " + both + ": inner dimensions " +
                     std::to_string(K) + " (last of a) and " + std::to_string(K_b) +
                     " (second-to-last of b) must be equal");
  }
  // numpy broadcasting of the batch dimensions, aligned from the right.
  const Shape a_batch(a.begin(), a.end() - 2), b_batch(b.begin(), b.end() - 2);
  const size_t batch_nd = std::max(a_batch.size(), b_batch.size());
  Shape out(batch_nd);
  for (size_t d = 0; d < batch_nd; ++d) {
    const size_t from_right = batch_nd - 1 - d;
    const size_t da = from_right < a_batch.size() ? a_batch[a_batch.size() - 1 - from_right] : 1;
    const size_t db = from_right < b_batch.size() ? b_batch[b_batch.size() - 1 - from_right] : 1;
    if (da != db && da != 1 && db != 1) {
      throw ShapeError("matmul batch dimensions do not broadcast: " + both + ": batch " +
                       shape_to_string(a_batch) + " and " + shape_to_string(b_batch) +
                       " differ at a dimension where neither is 1 (" + std::to_string(da) +
                       " vs " + std::to_string(db) + ")");
    }
    out[d] = da == 1 ? db : da;
  }
  out.push_back(M);
  out.push_back(N);
  shape_numel(out);  // throws ValueError if the element count overflows
  return out;
}

namespace {

// Runs kernel(out, a, b, M, K, N) once per output batch, broadcasting the batch dimensions.
Tensor batched_matmul(const Tensor& a, const Tensor& b,
                      const std::function<void(float*, const float*, const float*, size_t,
                                               size_t, size_t)>& kernel) {
  const Shape out_shape = matmul_output_shape(a.shape(), b.shape());
  Tensor out(out_shape);
  if (out.size() == 0) return out;

  const size_t M = a.dim(-2), K = a.dim(-1), N = b.dim(-1);
  const size_t batch_nd = out_shape.size() - 2;
  // Per output batch dimension, how far a and b advance (in elements) when its index grows
  // by one: 0 where that operand lacks the dimension or has size 1 (broadcast).
  std::vector<size_t> a_step(batch_nd, 0), b_step(batch_nd, 0);
  const auto fill_steps = [batch_nd](const Shape& s, size_t matrix_elems,
                                     std::vector<size_t>& step) {
    const size_t nd = s.size() - 2;
    size_t stride = matrix_elems;
    for (size_t i = 0; i < nd; ++i) {  // from the innermost batch dimension outwards
      const size_t dim = s[nd - 1 - i];
      if (dim != 1) step[batch_nd - 1 - i] = stride;
      stride *= dim;
    }
  };
  fill_steps(a.shape(), M * K, a_step);
  fill_steps(b.shape(), K * N, b_step);

  const size_t batches = out.size() / (M * N);
  std::vector<size_t> index(batch_nd, 0);  // odometer over the output batch dimensions
  size_t a_off = 0, b_off = 0;
  for (size_t t = 0; t < batches; ++t) {
    kernel(out.data() + t * M * N, a.data() + a_off, b.data() + b_off, M, K, N);
    for (size_t d = batch_nd; d-- > 0;) {
      a_off += a_step[d];
      b_off += b_step[d];
      if (++index[d] < out_shape[d]) break;
      a_off -= a_step[d] * index[d];
      b_off -= b_step[d] * index[d];
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b, std::string_view variant) {
  return batched_matmul(a, b, find_matmul_variant(variant).kernel);
}

void MatmulTiles::validate() const {
  const std::pair<const char*, size_t> fields[] = {{"tile_m", m}, {"tile_n", n}, {"tile_k", k}};
  for (const auto& [name, value] : fields) {
    if (value < 1 || value > kMaxMatmulTile) {
      throw ValueError(std::string(name) + " must be between 1 and " +
                       std::to_string(kMaxMatmulTile) + ", got " + std::to_string(value));
    }
  }
}

void matmul_blocked_kernel(float* out, const float* a, const float* b, std::size_t M,
                           std::size_t K, std::size_t N, MatmulTiles tiles) {
  tiles.validate();
  blocked_kernel(out, a, b, M, K, N, tiles);
}

Tensor matmul_blocked(const Tensor& a, const Tensor& b, MatmulTiles tiles) {
  tiles.validate();
  return batched_matmul(a, b, [&tiles](float* out, const float* pa, const float* pb, size_t M,
                                       size_t K, size_t N) {
    blocked_kernel(out, pa, pb, M, K, N, tiles);
  });
}

double matmul_relative_error(const Tensor& got, const Tensor& reference) {
  if (got.shape() != reference.shape()) {
    throw ShapeError("matmul_relative_error needs equal shapes: got " +
                     shape_to_string(got.shape()) + ", reference " +
                     shape_to_string(reference.shape()));
  }
  double max_diff = 0.0, max_ref = 0.0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - reference[i]);
    if (std::isnan(diff)) return diff;  // std::max would silently drop it
    max_diff = std::max(max_diff, diff);
    max_ref = std::max(max_ref, std::fabs(static_cast<double>(reference[i])));
  }
  if (max_ref == 0.0) return max_diff == 0.0 ? 0.0 : INFINITY;
  return max_diff / max_ref;
}

namespace detail {

void check_measure_matmul_n(std::size_t n) {
  if (n < 1 || n > kMaxMeasureMatmulN) {
    throw ValueError("n must be between 1 and " + std::to_string(kMaxMeasureMatmulN) +
                     ", got " + std::to_string(n));
  }
}

SquareMatmulOperands square_matmul_operands(std::size_t n) {
  return {Tensor::random({n, n}, 0x5EED0001), Tensor::random({n, n}, 0x5EED0002)};
}

double verify_square_matmul(const std::string& what, const std::string& reference,
                            const Tensor& a, const Tensor& b, const Tensor& out) {
  const size_t M = a.shape()[0], K = a.shape()[1], N = b.shape()[1];
  Tensor expected({M, N});
  find_matmul_variant(reference).kernel(expected.data(), a.data(), b.data(), M, K, N);
  const double error = matmul_relative_error(out, expected);
  if (!(error <= kMatmulTolerance)) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s disagrees with %s at n=%zu: max relative error %.3g exceeds %.0e",
                  what.c_str(), reference.c_str(), N, error, kMatmulTolerance);
    throw Error(text);
  }
  return error;
}

}  // namespace detail

namespace {

using Kernel2d = std::function<void(float*, const float*, const float*, size_t, size_t, size_t)>;

// Verify against naive (for n <= kMaxVerifiedMatmulN), then time, square n×n @ n×n.
MatmulMeasurement measure_square(const std::string& name, const Kernel2d& kernel, std::size_t n,
                                 bool is_reference, const TimerOptions& options, Clock& clock,
                                 const ProgressFn& progress) {
  detail::check_measure_matmul_n(n);
  options.validate();
  check_call_fits_budget(cost_matmul(n, n, n).flops,
                         name + " matmul at n=" + std::to_string(n), options);

  const detail::SquareMatmulOperands operands = detail::square_matmul_operands(n);
  const Tensor& a = operands.a;
  const Tensor& b = operands.b;
  Tensor out({n, n});

  // Verify before timing: a fast wrong kernel must not produce a figure. Above 512 the
  // naive reference itself would take too long in a browser.
  if (n <= kMaxVerifiedMatmulN && !is_reference) {
    kernel(out.data(), a.data(), b.data(), n, n, n);
    detail::verify_square_matmul("matmul variant '" + name + "'", "naive", a, b, out);
  }

  Timer timer(clock);
  timer.options(options);
  if (progress) timer.on_progress(progress);
  MatmulMeasurement m;
  m.stats = timer.run([&] { kernel(out.data(), a.data(), b.data(), n, n, n); });
  m.variant = name;
  m.n = n;
  const OpCost cost = cost_matmul(n, n, n);
  m.flops = cost.flops;
  m.bytes = cost.bytes;
  m.intensity = cost.flops / cost.bytes;
  m.gflops_per_s = gflops_per_s(m.flops, m.stats.median_ms);
  m.gb_per_s = gb_per_s(m.bytes, m.stats.median_ms);
  return m;
}

}  // namespace

MatmulMeasurement measure_matmul(std::string_view variant, std::size_t n,
                                 const TimerOptions& options, Clock& clock,
                                 const ProgressFn& progress) {
  const MatmulVariant& v = find_matmul_variant(variant);
  return measure_square(v.name, v.kernel, n, v.kernel == matmul_variants().front().kernel,
                        options, clock, progress);
}

MatmulMeasurement measure_matmul_blocked(std::size_t n, MatmulTiles tiles,
                                         const TimerOptions& options, Clock& clock,
                                         const ProgressFn& progress) {
  tiles.validate();
  return measure_square(
      "blocked",
      [tiles](float* out, const float* a, const float* b, size_t M, size_t K, size_t N) {
        blocked_kernel(out, a, b, M, K, N, tiles);
      },
      n, false, options, clock, progress);
}

OpCost cost_matmul(std::size_t M, std::size_t K, std::size_t N) {
  const double m = static_cast<double>(M), k = static_cast<double>(K),
               n = static_cast<double>(N);
  return {2.0 * m * k * n, 4.0 * (m * k + k * n + m * n)};
}

nlohmann::json to_json(const MatmulMeasurement& m) {
  return {{"variant", m.variant},
          {"n", m.n},
          {"flops", m.flops},
          {"bytes", m.bytes},
          {"intensity", m.intensity},
          {"gflops_per_s", m.gflops_per_s},
          {"gb_per_s", m.gb_per_s},
          {"stats", to_json(m.stats)}};
}

nlohmann::json to_json(const MatmulMeasurement& m, const MatmulTiles& tiles) {
  nlohmann::json j = to_json(m);
  j["tiles"] = {{"tile_m", tiles.m}, {"tile_n", tiles.n}, {"tile_k", tiles.k}};
  return j;
}

}  // namespace perflab
