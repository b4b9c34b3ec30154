// A pruned Linear layer as a sparse kernel: the weight W (K, N) (Linear's layout, y = x·W) kept
// as CSR (compressed sparse row) of its transpose, one row per output with the column (input)
// index and value of each nonzero, so y[b, n] = Σ value·x[b, col] over row n's nonzeros.
// Variants in one list, the naive loop first: every other is verified against it and against
// the dense product before it is timed. measure_sparse_linear times a variant and the dense
// packed matmul on the same inputs in one call, so a sweep over densities finds where sparse
// starts to pay (the crossover: below it, skipping zeros saves less than the indices and the
// scattered reads cost).
// Not for: pruning (optimize/prune.hpp) or a sparse x.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/timing/timer.hpp"

namespace perflab {

struct CsrMatrix {
  std::size_t rows = 0, cols = 0;          // W^T's: (N, K)
  std::vector<std::uint32_t> row_start;    // rows + 1 offsets into col and value
  std::vector<std::uint32_t> col;          // nnz column indices, ascending within a row
  std::vector<float> value;                // nnz values
  std::size_t nnz() const { return value.size(); }
  // What the kernel reads of the weights: 4 bytes per value and per index, 4 per row offset.
  std::size_t bytes() const { return 4 * (value.size() + col.size() + row_start.size()); }
};

// CSR of W^T from a dense row-major W (K, N), keeping the nonzeros. ValueError when K or N is
// 0 or K·N passes 2^32 (indices are 32-bit).
CsrMatrix csr_from_weight(const float* w, std::size_t K, std::size_t N);

// y (B, N) = x (B, K) · W, W given as csr_from_weight's CSR; y overwritten.
using SparseLinearKernel = void (*)(float* y, const float* x, const CsrMatrix& wt, std::size_t B);

struct SparseLinearVariant {
  std::string name;         // "naive", "batched"
  std::string description;  // one sentence for the page
  SparseLinearKernel kernel;
};
// naive    for each batch row and output, a scalar sum over the row's nonzeros: x read at
//          scattered columns, once per batch row (the reference);
// batched  x transposed once to (K, B), then for each output sixteen batch rows at a time:
//          each nonzero's value times 16 contiguous x values in four SIMD multiply-adds into
//          independent sums (a single sum would wait on its own latency at every nonzero), so
//          the index and the value are read once per sixteen rows; then four rows, then one.
//          At batch 1 x is its own transpose: a gathered dot product with four sums.
const std::vector<SparseLinearVariant>& sparse_linear_variants();
// ValueError listing the names.
const SparseLinearVariant& find_sparse_linear_variant(std::string_view name);

// A variant checked against the dense product is within this normwise error.
inline constexpr double kSparseTolerance = 1e-4;
// Sizes the lab measures: each dimension from 1 to this.
inline constexpr std::size_t kMaxSparseDimension = 4096;

// One point of the sparsity sweep: y = x·W at batch B, W (K, N) with random values of which
// round((1 − density)·K·N) at random places are zero (a seeded stand-in for magnitude pruning:
// a trained layer's small weights have no pattern either), x random. Verified, then the
// variant and the dense packed matmul (zeros included) timed with the same options.
struct SparseLinearMeasurement {
  std::string variant;
  std::size_t batch = 0, in = 0, out = 0;
  double density = 0;       // asked: the fraction of weights kept
  std::size_t nnz = 0;      // kept
  std::size_t csr_bytes = 0, dense_bytes = 0;  // the weights as the two kernels read them
  double sparse_flops = 0;  // 2·B·nnz
  double dense_flops = 0;   // 2·B·K·N
  double speedup = 0;       // dense median / sparse median: above 1, sparse is faster
  Stats sparse, dense;
};
// ValueError: a dimension outside [1, kMaxSparseDimension], density outside (0, 1], an unknown
// variant; Error when the variant disagrees with the dense product.
SparseLinearMeasurement measure_sparse_linear(std::string_view variant, std::size_t batch,
                                              std::size_t in, std::size_t out, double density,
                                              const TimerOptions& options,
                                              Clock& clock = default_clock());
// {variant, batch, in, out, density, nnz, csr_bytes, dense_bytes, sparse_flops, dense_flops,
//  speedup, sparse: stats, dense: stats}.
nlohmann::json to_json(const SparseLinearMeasurement& m);

// Where sparse starts to pay, from points of one variant and shape at several densities: the
// density at which the speedup crosses 1, interpolated linearly between the two measured
// points around the crossing (the highest density still faster than dense and the next one
// up). found false when every point is faster or every point slower (then `density` is 0).
struct SparseCrossover {
  bool found = false;
  double density = 0;
  std::string sentence;  // "sparse is faster below about 12% density (between 10% and 15%)"
};
SparseCrossover sparse_crossover(const std::vector<SparseLinearMeasurement>& points);

}  // namespace perflab
