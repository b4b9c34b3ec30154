// Sum (sequential scalar vs vector accumulators combined pairwise) and softmax over the last
// axis (naive three passes vs two fused passes on vectors), with their cost formulas.
// Not for: other axes; the attention layer keeps its own scaled row softmax.
#include <cfloat>
#include <cmath>
#include <string>

#include "perflab/detail/simd.hpp"
#include "perflab/detail/vmath.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/reduce.hpp"

namespace perflab {
namespace {

using std::size_t;
using namespace detail;

// Finds name in a KernelInfo list, or throws "unknown <op> variant '<name>'; known
// variants: a, b".
const KernelInfo& find_variant(const char* op, const std::vector<KernelInfo>& variants,
                               std::string_view name) {
  std::string names;
  for (const auto& v : variants) {
    if (v.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw ValueError("unknown " + std::string(op) + " variant '" + std::string(name) +
                   "'; known variants: " + names);
}

// ---------------------------------------------------------------------------------------
// sum

PERFLAB_SCALAR_FUNCTION
float sum_naive(const float* x, size_t n) {
  float total = 0.0f;
  PERFLAB_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) total += x[i];
  return total;
}

// Up to this many floats are summed by the vector accumulators; larger ranges are halved.
constexpr size_t kSumBlock = 256;

// Four vector accumulators: 16 independent partial sums (no dependency stall between
// consecutive adds, and each partial sum sees only n/16 terms).
float sum_block(const float* x, size_t n) {
  f32x4 acc0 = zero(), acc1 = zero(), acc2 = zero(), acc3 = zero();
  size_t i = 0;
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    acc0 = add(acc0, loadu(x + i));
    acc1 = add(acc1, loadu(x + i + kLanes));
    acc2 = add(acc2, loadu(x + i + 2 * kLanes));
    acc3 = add(acc3, loadu(x + i + 3 * kLanes));
  }
  for (; i + kLanes <= n; i += kLanes) acc0 = add(acc0, loadu(x + i));
  float tail = 0.0f;
  for (; i < n; ++i) tail += x[i];
  return hsum(add(add(acc0, acc1), add(acc2, acc3))) + tail;
}

// Pairwise: each element passes through about log2(n / kSumBlock) + kSumBlock/16 additions,
// instead of up to n in the naive loop.
float sum_pairwise(const float* x, size_t n) {
  if (n <= kSumBlock) return sum_block(x, n);
  const size_t half = n / 2 / (4 * kLanes) * (4 * kLanes);  // whole 16-float groups
  return sum_pairwise(x, half) + sum_pairwise(x + half, n - half);
}

// ---------------------------------------------------------------------------------------
// softmax

// Three passes per row, scalar (the reference): what `e = np.exp(x - x.max()); e / e.sum()`
// does, with the exp pass also summing.
PERFLAB_SCALAR_FUNCTION
void softmax_naive(float* y, const float* x, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    float max_value = -INFINITY;
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) {  // a NaN replaces the maximum and stays
      if (in[j] > max_value || in[j] != in[j]) max_value = in[j];
    }
    float total = 0.0f;
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) {
      out[j] = std::exp(in[j] - max_value);
      total += out[j];
    }
    PERFLAB_SCALAR_LOOP
    for (size_t j = 0; j < cols; ++j) out[j] /= total;
  }
}

// Online max and sum, lane by lane: m is each lane's running maximum and s its sum of
// e^(x − m). When a group of values raises the maximum, s is rescaled by e^(m_old − m_new)
// (one exp per group of four vectors, not per value). m starts at the lowest finite float,
// not −inf, so m_old − m_new is never −inf − (−inf) = NaN; a −inf input then adds e^(−inf) =
// 0. NaN or +inf inputs make s NaN, hence the whole row NaN.
struct OnlineSoftmax {
  f32x4 m = splat(-FLT_MAX);
  f32x4 s = zero();

  void add_group(const f32x4* v, int count) {
    f32x4 group_max = v[0];
    for (int i = 1; i < count; ++i) group_max = max(group_max, v[i]);
    const f32x4 m_new = max(m, group_max);
    f32x4 t = mul(s, exp_approx(sub(m, m_new)));
    for (int i = 0; i < count; ++i) t = add(t, exp_approx(sub(v[i], m_new)));
    s = t;
    m = m_new;
  }
};

void softmax_fused(float* y, const float* x, size_t rows, size_t cols) {
  for (size_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;

    // Pass 1: per-lane maximum and sum, then combined across lanes.
    OnlineSoftmax online;
    size_t j = 0;
    for (; j + 4 * kLanes <= cols; j += 4 * kLanes) {
      const f32x4 v[4] = {loadu(in + j), loadu(in + j + kLanes), loadu(in + j + 2 * kLanes),
                          loadu(in + j + 3 * kLanes)};
      online.add_group(v, 4);
    }
    for (; j + kLanes <= cols; j += kLanes) {
      const f32x4 v = loadu(in + j);
      online.add_group(&v, 1);
    }
    if (j < cols) {  // pad with −inf: it raises no maximum and adds e^(−inf) = 0
      alignas(16) float buf[kLanes] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
      for (size_t t = j; t < cols; ++t) buf[t - j] = in[t];
      const f32x4 v = load(buf);
      online.add_group(&v, 1);
    }
    alignas(16) float lane_m[kLanes], lane_s[kLanes];
    store(lane_m, online.m);
    store(lane_s, online.s);
    const float row_max = hmax(online.m);
    float total = 0.0f;
    for (int l = 0; l < kLanes; ++l) total += lane_s[l] * std::exp(lane_m[l] - row_max);

    // Pass 2: y = e^(x − max) · (1 / sum).
    const f32x4 vmax = splat(row_max);
    const f32x4 inv_total = splat(1.0f / total);
    j = 0;
    for (; j + kLanes <= cols; j += kLanes)
      storeu(out + j, mul(exp_approx(sub(loadu(in + j), vmax)), inv_total));
    if (j < cols) {
      alignas(16) float buf[kLanes] = {};
      for (size_t t = j; t < cols; ++t) buf[t - j] = in[t];
      store(buf, mul(exp_approx(sub(load(buf), vmax)), inv_total));
      for (size_t t = j; t < cols; ++t) out[t] = buf[t - j];
    }
  }
}

double as_double(size_t n) { return static_cast<double>(n); }

}  // namespace

const std::vector<KernelInfo>& sum_variants() {
  static const std::vector<KernelInfo> variants = {
      {"naive", "one float accumulator, one element after another (scalar)"},
      {"simd",
       "four vector accumulators (16 partial sums) over blocks of 256, blocks added pairwise"},
  };
  return variants;
}

float sum(const Tensor& x, std::string_view variant) {
  const KernelInfo& v = find_variant("sum", sum_variants(), variant);
  if (v.name == "naive") return sum_naive(x.data(), x.size());
  return sum_pairwise(x.data(), x.size());
}

const std::vector<KernelInfo>& softmax_variants() {
  static const std::vector<KernelInfo> variants = {
      {"naive", "three passes over each row (max; exp and sum; divide), scalar"},
      {"fused",
       "two passes: an online max and sum of exponentials, then normalise; 128-bit vectors"},
  };
  return variants;
}

Tensor softmax(const Tensor& x, std::string_view variant) {
  const KernelInfo& v = find_variant("softmax", softmax_variants(), variant);
  if (x.ndim() == 0) {
    throw ShapeError("softmax needs a tensor with at least 1 dimension (it normalises the "
                     "last); x has shape ()");
  }
  Tensor y(x.shape());
  const size_t cols = x.dim(-1);
  if (y.size() == 0) return y;
  const size_t rows = x.size() / cols;
  if (v.name == "naive") {
    softmax_naive(y.data(), x.data(), rows, cols);
  } else {
    softmax_fused(y.data(), x.data(), rows, cols);
  }
  return y;
}

OpCost cost_softmax_naive(std::size_t rows, std::size_t cols) {
  const double n = as_double(rows) * as_double(cols);
  return {5.0 * n, 20.0 * n};
}

OpCost cost_softmax_fused(std::size_t rows, std::size_t cols) {
  const double n = as_double(rows) * as_double(cols);
  return {5.0 * n, 12.0 * n};
}

OpCost cost_sum(std::size_t n) { return {as_double(n), 4.0 * as_double(n)}; }

}  // namespace perflab
