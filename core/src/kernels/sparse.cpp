// The CSR Linear kernels (kernels/sparse.hpp), their measurement against the dense packed
// matmul, and the crossover. The batched variant transposes x once so that the batch rows of
// one input column are contiguous: four SIMD multiply-adds per nonzero cover sixteen rows.
#include "perflab/kernels/sparse.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/random.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

using namespace detail;

PERFLAB_SCALAR_FUNCTION
void sparse_naive(float* y, const float* x, const CsrMatrix& wt, std::size_t B) {
  const std::size_t K = wt.cols, N = wt.rows;
  for (std::size_t b = 0; b < B; ++b) {
    const float* xb = x + b * K;
    for (std::size_t n = 0; n < N; ++n) {
      float s = 0.0f;
      PERFLAB_SCALAR_LOOP
      for (std::uint32_t j = wt.row_start[n]; j < wt.row_start[n + 1]; ++j) {
        s += wt.value[j] * xb[wt.col[j]];
      }
      y[b * N + n] = s;
    }
  }
}

// One output's sum over its row, for a batch row read at stride `stride` in xt: four
// independent accumulators, so consecutive multiply-adds do not wait for each other.
float row_dot(const float* xt, std::size_t stride, const std::uint32_t* col, const float* value,
              std::uint32_t begin, std::uint32_t end) {
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  std::uint32_t j = begin;
  for (; j + 4 <= end; j += 4) {
    s0 += value[j] * xt[col[j] * stride];
    s1 += value[j + 1] * xt[col[j + 1] * stride];
    s2 += value[j + 2] * xt[col[j + 2] * stride];
    s3 += value[j + 3] * xt[col[j + 3] * stride];
  }
  for (; j < end; ++j) s0 += value[j] * xt[col[j] * stride];
  return (s0 + s1) + (s2 + s3);
}

void sparse_batched(float* y, const float* x, const CsrMatrix& wt, std::size_t B) {
  const std::size_t K = wt.cols, N = wt.rows;
  const std::uint32_t* col = wt.col.data();
  const float* value = wt.value.data();
  if (B == 1) {  // x is its own transpose: a gathered dot product per output
    for (std::size_t n = 0; n < N; ++n) y[n] = row_dot(x, 1, col, value, wt.row_start[n], wt.row_start[n + 1]);
    return;
  }
  // xt (K, B): column k of x as contiguous batch values.
  std::vector<float> xt(K * B);
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t k = 0; k < K; ++k) xt[k * B + b] = x[b * K + k];
  }
  constexpr std::size_t kWide = 4 * kLanes;  // 16 batch rows: four accumulators per nonzero
  const std::size_t B16 = B / kWide * kWide;
  const std::size_t B4 = B / kLanes * kLanes;
  alignas(16) float lanes[kWide];
  for (std::size_t n = 0; n < N; ++n) {
    const std::uint32_t begin = wt.row_start[n], end = wt.row_start[n + 1];
    std::size_t b = 0;
    for (; b < B16; b += kWide) {
      f32x4 a0 = splat(0.0f), a1 = splat(0.0f), a2 = splat(0.0f), a3 = splat(0.0f);
      for (std::uint32_t j = begin; j < end; ++j) {
        const f32x4 v = splat(value[j]);
        const float* xr = &xt[col[j] * B + b];
        a0 = fmadd(v, loadu(xr), a0);
        a1 = fmadd(v, loadu(xr + kLanes), a1);
        a2 = fmadd(v, loadu(xr + 2 * kLanes), a2);
        a3 = fmadd(v, loadu(xr + 3 * kLanes), a3);
      }
      store(lanes, a0);
      store(lanes + kLanes, a1);
      store(lanes + 2 * kLanes, a2);
      store(lanes + 3 * kLanes, a3);
      for (std::size_t i = 0; i < kWide; ++i) y[(b + i) * N + n] = lanes[i];
    }
    for (; b < B4; b += kLanes) {
      f32x4 acc = splat(0.0f);
      for (std::uint32_t j = begin; j < end; ++j) acc = fmadd(splat(value[j]), loadu(&xt[col[j] * B + b]), acc);
      store(lanes, acc);
      for (int i = 0; i < kLanes; ++i) y[(b + i) * N + n] = lanes[i];
    }
    for (; b < B; ++b) y[b * N + n] = row_dot(xt.data() + b, B, col, value, begin, end);
  }
}

std::string variant_names() {
  std::string s;
  for (const auto& v : sparse_linear_variants()) s += (s.empty() ? "" : ", ") + v.name;
  return s;
}

void check_dimension(std::size_t v, const char* name) {
  if (v < 1 || v > kMaxSparseDimension) {
    throw ValueError(std::string(name) + " must be between 1 and " +
                     std::to_string(kMaxSparseDimension) + ", got " + std::to_string(v));
  }
}

std::string percent_text(double fraction) { return format_number(100 * fraction) + "%"; }

}  // namespace

CsrMatrix csr_from_weight(const float* w, std::size_t K, std::size_t N) {
  if (K == 0 || N == 0) {
    throw ValueError("a sparse weight needs at least one row and column, got (" +
                     std::to_string(K) + ", " + std::to_string(N) + ")");
  }
  if (static_cast<double>(K) * static_cast<double>(N) >= 4294967296.0) {
    throw ValueError("a sparse weight of " + std::to_string(K) + "×" + std::to_string(N) +
                     " has more entries than 32-bit indices reach");
  }
  CsrMatrix m;
  m.rows = N;
  m.cols = K;
  m.row_start.reserve(N + 1);
  m.row_start.push_back(0);
  for (std::size_t n = 0; n < N; ++n) {
    for (std::size_t k = 0; k < K; ++k) {
      const float v = w[k * N + n];
      if (v != 0.0f) {
        m.col.push_back(static_cast<std::uint32_t>(k));
        m.value.push_back(v);
      }
    }
    m.row_start.push_back(static_cast<std::uint32_t>(m.value.size()));
  }
  return m;
}

const std::vector<SparseLinearVariant>& sparse_linear_variants() {
  static const std::vector<SparseLinearVariant> variants = {
      {"naive",
       "for each batch row and output, a scalar sum over the row's nonzeros, reading x at "
       "scattered columns (the reference)",
       sparse_naive},
      {"batched",
       "x transposed once, then each nonzero multiplies sixteen batch rows' contiguous values "
       "in four SIMD multiply-adds into independent sums, so each index and value is read once "
       "per sixteen rows; at batch 1, a gathered dot product with four independent sums",
       sparse_batched},
  };
  return variants;
}

const SparseLinearVariant& find_sparse_linear_variant(std::string_view name) {
  for (const auto& v : sparse_linear_variants()) {
    if (v.name == name) return v;
  }
  throw ValueError("unknown sparse variant '" + std::string(name) + "'; known variants: " +
                   variant_names());
}

SparseLinearMeasurement measure_sparse_linear(std::string_view variant, std::size_t batch,
                                              std::size_t in, std::size_t out, double density,
                                              const TimerOptions& options, Clock& clock) {
  const SparseLinearVariant& v = find_sparse_linear_variant(variant);
  check_dimension(batch, "batch");
  check_dimension(in, "in");
  check_dimension(out, "out");
  if (!(density > 0.0 && density <= 1.0)) {
    throw ValueError("density must be above 0 and at most 1 (the fraction of weights kept: 0.1 "
                     "keeps a tenth), got " + format_number(density));
  }
  options.validate();
  const std::string what = v.name + " sparse Linear " + std::to_string(in) + "→" +
                           std::to_string(out) + " at batch " + std::to_string(batch);
  check_call_fits_budget(cost_matmul(batch, in, out).flops, what, options);

  const Tensor x = Tensor::random({batch, in}, 0x5EED0011);
  Tensor w = Tensor::random({in, out}, 0x5EED0012);
  // Zero round((1 − density)·K·N) entries at seeded random places (a partial Fisher-Yates).
  const std::size_t total = in * out;
  const auto zeros = static_cast<std::size_t>(std::llround((1.0 - density) * static_cast<double>(total)));
  std::vector<std::uint32_t> order(total);
  std::iota(order.begin(), order.end(), 0u);
  Rng rng(0x5EED0013);
  for (std::size_t i = 0; i < zeros; ++i) {
    const auto j = static_cast<std::size_t>(rng.integer(static_cast<std::int64_t>(i),
                                                        static_cast<std::int64_t>(total - 1)));
    std::swap(order[i], order[j]);
    w.data()[order[i]] = 0.0f;
  }
  const CsrMatrix wt = csr_from_weight(w.data(), in, out);

  // Verify before timing: the variant against the dense product of the same zeros.
  Tensor dense({batch, out});
  Tensor y({batch, out});
  const MatmulKernel packed = find_matmul_variant(kDefaultMatmulVariant).kernel;
  packed(dense.data(), x.data(), w.data(), batch, in, out);
  v.kernel(y.data(), x.data(), wt, batch);
  const double error = matmul_relative_error(y, dense);
  if (!(error <= kSparseTolerance)) {
    char text[200];
    std::snprintf(text, sizeof text,
                  "sparse variant '%s' disagrees with the dense product at batch %zu, %zu→%zu, "
                  "density %g: max relative error %.3g exceeds %.0e",
                  v.name.c_str(), batch, in, out, density, error, kSparseTolerance);
    throw Error(text);
  }

  SparseLinearMeasurement m;
  m.variant = v.name;
  m.batch = batch;
  m.in = in;
  m.out = out;
  m.density = density;
  m.nnz = wt.nnz();
  m.csr_bytes = wt.bytes();
  m.dense_bytes = 4 * total;
  m.sparse_flops = 2.0 * static_cast<double>(batch) * static_cast<double>(m.nnz);
  m.dense_flops = cost_matmul(batch, in, out).flops;
  Timer timer(clock);
  timer.options(options);
  m.sparse = timer.run([&] { v.kernel(y.data(), x.data(), wt, batch); });
  m.dense = timer.run([&] { packed(dense.data(), x.data(), w.data(), batch, in, out); });
  m.speedup = m.sparse.median_ms > 0 ? m.dense.median_ms / m.sparse.median_ms : 0.0;
  return m;
}

nlohmann::json to_json(const SparseLinearMeasurement& m) {
  return {{"variant", m.variant},         {"batch", m.batch},
          {"in", m.in},                   {"out", m.out},
          {"density", m.density},         {"nnz", m.nnz},
          {"csr_bytes", m.csr_bytes},     {"dense_bytes", m.dense_bytes},
          {"sparse_flops", m.sparse_flops}, {"dense_flops", m.dense_flops},
          {"speedup", m.speedup},         {"sparse", to_json(m.sparse)},
          {"dense", to_json(m.dense)}};
}

SparseCrossover sparse_crossover(const std::vector<SparseLinearMeasurement>& points) {
  std::vector<SparseLinearMeasurement> p = points;
  std::sort(p.begin(), p.end(), [](const auto& a, const auto& b) { return a.density < b.density; });
  SparseCrossover c;
  if (p.empty()) {
    c.sentence = "no points measured";
    return c;
  }
  // The last point (by density) where sparse is still faster, followed by one where it is not.
  for (std::size_t i = 0; i + 1 < p.size(); ++i) {
    if (p[i].speedup >= 1.0 && p[i + 1].speedup < 1.0) {
      const double d0 = p[i].density, d1 = p[i + 1].density;
      const double s0 = p[i].speedup, s1 = p[i + 1].speedup;
      c.found = true;
      c.density = d0 + (d1 - d0) * (s0 - 1.0) / (s0 - s1);
      c.sentence = "sparse is faster below about " + percent_text(c.density) +
                   " density (between " + percent_text(d0) + " and " + percent_text(d1) +
                   " measured)";
      return c;
    }
  }
  const bool all_faster = std::all_of(p.begin(), p.end(), [](const auto& x) { return x.speedup >= 1.0; });
  c.sentence = all_faster ? "sparse was faster at every density measured, up to " +
                                percent_text(p.back().density)
                          : "sparse was slower at every density measured, down to " +
                                percent_text(p.front().density);
  return c;
}

}  // namespace perflab
