// LayerNorm over the last axis: the naive three-pass reference (scalar) and the fused
// two-pass kernel (vectors; stable one-pass statistics), with their cost formulas.
// Not for: the LayerNorm layer's parameters or backward (layers_elementwise.cpp).
#include <cmath>
#include <cstdio>
#include <string>

#include "perflab/detail/simd.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/norm.hpp"

namespace perflab {
namespace {

using std::size_t;
using namespace detail;

// Three passes per row, float arithmetic, the textbook two-pass variance.
PERFLAB_SCALAR_FUNCTION
void layernorm_naive(float* y, const float* x, const float* gamma, const float* beta,
                     size_t rows, size_t cols, float eps) {
  const float inv_cols = 1.0f / static_cast<float>(cols);
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    float total = 0.0f;
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) total += in[j];
    const float mean = total * inv_cols;
    float squares = 0.0f;
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) squares += (in[j] - mean) * (in[j] - mean);
    const float rstd = 1.0f / std::sqrt(squares * inv_cols + eps);
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) out[j] = (in[j] - mean) * rstd * gamma[j] + beta[j];
  }
}

// Count, mean and sum of squared deviations (M2) of a set of values: Welford/Chan's
// representation, which merges without the cancellation of sum and sum of squares.
struct Moments {
  double count = 0, mean = 0, m2 = 0;

  // Chan et al.'s parallel update: the merged mean moves by delta·n_b/n, and M2 gains
  // delta²·n_a·n_b/n on top of the two M2s.
  void merge(const Moments& b) {
    if (b.count == 0) return;
    const double n = count + b.count;
    const double delta = b.mean - mean;
    mean += delta * (b.count / n);
    m2 += b.m2 + delta * delta * (count * b.count / n);
    count = n;
  }
  void add(double value) { merge({1, value, 0}); }
};

// One pass over a row: each lane keeps (count, mean, M2) of its own values in float and
// takes them four at a time (four vectors per step): the block's mean and M2 around that
// mean, merged into the lane's running moments with Chan's update. The four lanes and the
// last cols % 16 values are merged in double.
Moments row_moments(const float* in, size_t cols) {
  f32x4 mean = zero(), m2 = zero();
  float count = 0.0f;  // per lane; exact while below 2^24
  size_t j = 0;
  for (; j + 4 * kLanes <= cols; j += 4 * kLanes) {
    const f32x4 v0 = loadu(in + j), v1 = loadu(in + j + kLanes);
    const f32x4 v2 = loadu(in + j + 2 * kLanes), v3 = loadu(in + j + 3 * kLanes);
    const f32x4 block_mean = mul(add(add(v0, v1), add(v2, v3)), splat(0.25f));
    const f32x4 d0 = sub(v0, block_mean), d1 = sub(v1, block_mean);
    const f32x4 d2 = sub(v2, block_mean), d3 = sub(v3, block_mean);
    const f32x4 block_m2 = add(fmadd(d0, d0, mul(d1, d1)), fmadd(d2, d2, mul(d3, d3)));
    const float n = count + 4.0f;
    const f32x4 delta = sub(block_mean, mean);
    mean = fmadd(delta, splat(4.0f / n), mean);
    m2 = add(add(m2, block_m2), mul(mul(delta, delta), splat(count * 4.0f / n)));
    count = n;
  }
  alignas(16) float lane_mean[kLanes], lane_m2[kLanes];
  store(lane_mean, mean);
  store(lane_m2, m2);
  Moments total;
  for (int l = 0; l < kLanes; ++l) total.merge({count, lane_mean[l], lane_m2[l]});
  for (; j < cols; ++j) total.add(in[j]);
  return total;
}

void layernorm_fused(float* y, const float* x, const float* gamma, const float* beta,
                     size_t rows, size_t cols, double eps) {
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    const Moments m = row_moments(in, cols);
    const f32x4 mean = splat(static_cast<float>(m.mean));
    const f32x4 rstd = splat(static_cast<float>(1.0 / std::sqrt(m.m2 / m.count + eps)));
    size_t j = 0;
    for (; j + kLanes <= cols; j += kLanes) {
      const f32x4 normalised = mul(sub(loadu(in + j), mean), rstd);
      storeu(out + j, fmadd(normalised, loadu(gamma + j), loadu(beta + j)));
    }
    if (j < cols) {  // the same arithmetic on a padded vector
      alignas(16) float bx[kLanes] = {}, bg[kLanes] = {}, bb[kLanes] = {};
      for (size_t t = j; t < cols; ++t) {
        bx[t - j] = in[t];
        bg[t - j] = gamma[t];
        bb[t - j] = beta[t];
      }
      store(bx, fmadd(mul(sub(load(bx), mean), rstd), load(bg), load(bb)));
      for (size_t t = j; t < cols; ++t) out[t] = bx[t - j];
    }
  }
}

double as_double(size_t n) { return static_cast<double>(n); }

}  // namespace

const std::vector<KernelInfo>& layernorm_variants() {
  static const std::vector<KernelInfo> variants = {
      {"naive", "three passes over each row (mean; variance; normalise), scalar"},
      {"fused",
       "two passes: mean and variance together (merged by blocks, stable), then normalise; "
       "128-bit vectors"},
  };
  return variants;
}

Tensor layernorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps,
                 std::string_view variant) {
  const KernelInfo* found = nullptr;
  std::string names;
  for (const auto& v : layernorm_variants()) {
    if (v.name == variant) found = &v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  if (!found) {
    throw ValueError("unknown layernorm variant '" + std::string(variant) +
                     "'; known variants: " + names);
  }
  if (x.ndim() == 0) {
    throw ShapeError("layernorm needs a tensor with at least 1 dimension (it normalises the "
                     "last); x has shape ()");
  }
  const size_t cols = x.dim(-1);
  const auto check_param = [&](const char* name, const Tensor& p) {
    if (p.shape() != Shape{cols}) {
      throw ShapeError("layernorm " + std::string(name) + " has shape " +
                       shape_to_string(p.shape()) + ", expected (" + std::to_string(cols) +
                       "): one value per feature of the last dimension of x " +
                       shape_to_string(x.shape()));
    }
  };
  check_param("gamma", gamma);
  check_param("beta", beta);
  if (!(std::isfinite(eps) && eps > 0.0)) {
    throw ValueError("layernorm eps must be a finite number above 0, got " + format_number(eps, 6));
  }

  Tensor y(x.shape());
  if (y.size() == 0) return y;
  const size_t rows = x.size() / cols;
  if (found->name == "naive") {
    layernorm_naive(y.data(), x.data(), gamma.data(), beta.data(), rows, cols,
                    static_cast<float>(eps));
  } else {
    layernorm_fused(y.data(), x.data(), gamma.data(), beta.data(), rows, cols, eps);
  }
  return y;
}

OpCost cost_layernorm_naive(std::size_t rows, std::size_t cols) {
  const double n = as_double(rows) * as_double(cols);
  return {7.0 * n, 16.0 * n + 8.0 * as_double(cols)};
}

OpCost cost_layernorm_fused(std::size_t rows, std::size_t cols) {
  const double n = as_double(rows) * as_double(cols);
  return {7.0 * n, 12.0 * n + 8.0 * as_double(cols)};
}

}  // namespace perflab
