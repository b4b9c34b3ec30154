// Element-wise kernels: GELU (unfused chain of passes vs one fused pass), add and mul, all
// on 128-bit vectors through detail/simd.hpp, plus the double-precision GELU reference.
// Not for: broadcasting (element-wise ops need equal shapes) or in-place updates.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "perflab/detail/simd.hpp"
#include "perflab/error.hpp"
#include "perflab/kernels.hpp"

namespace perflab {
namespace {

using std::size_t;
using namespace detail;

constexpr double kSqrt2OverPi = 0.7978845608028654;  // sqrt(2/π)
constexpr double kGeluCubic = 0.044715;

// e^w per lane: w = n·ln2 + r with |r| <= ln2/2, e^r from Cephes' expf polynomial (relative
// error about 1e-7), 2^n from exponent bits. Saturates exactly: w <= -88 gives 0 and
// w >= 88.8 gives +inf, which the GELU below relies on. NaN stays NaN.
inline f32x4 exp_approx(f32x4 w) {
  w = min(splat(89.0f), max(splat(-88.0f), w));  // w second: a NaN survives the clamp
  const f32x4 n = round_nearest(mul(w, splat(1.44269504088896341f)));  // log2(e)
  // ln2 split in two so that n·0.693359375 is exact (Cody-Waite reduction).
  f32x4 r = sub(w, mul(n, splat(0.693359375f)));
  r = sub(r, mul(n, splat(-2.12194440e-4f)));
  f32x4 p = splat(1.9875691500e-4f);
  p = fmadd(p, r, splat(1.3981999507e-3f));
  p = fmadd(p, r, splat(8.3334519073e-3f));
  p = fmadd(p, r, splat(4.1665795894e-2f));
  p = fmadd(p, r, splat(1.6666665459e-1f));
  p = fmadd(p, r, splat(5.0000001201e-1f));
  p = add(fmadd(p, mul(r, r), r), splat(1.0f));
  return mul(p, pow2_int(n));
}

// tanh(u) = 2 / (1 + e^(−2u)) − 1: ±1 exactly in the limits, absolute error ~1e-7 near 0
// (what GELU's 1 + tanh needs; its relative error near 0 is worse than std::tanh's).
inline f32x4 tanh_approx(f32x4 u) {
  const f32x4 e = exp_approx(mul(splat(-2.0f), u));
  return sub(div(splat(2.0f), add(splat(1.0f), e)), splat(1.0f));
}

// GELU in one expression. 0.5·x·(1 + tanh(u)) equals x / (1 + e^(−2u)), which avoids the
// cancellation of 1 + tanh(u) near −1, so the negative tail keeps its relative accuracy.
// x is clamped at −20 (where GELU is 0 to float precision) so that x = −inf gives
// −20 / inf = −0 instead of −inf · 0 = NaN; +inf gives inf / 1 and NaN stays NaN.
inline f32x4 gelu_fused_vec(f32x4 x) {
  const f32x4 xc = max(splat(-20.0f), x);
  const f32x4 x3 = mul(mul(xc, xc), xc);
  const f32x4 u = mul(splat(static_cast<float>(kSqrt2OverPi)),
                      fmadd(splat(static_cast<float>(kGeluCubic)), x3, xc));
  const f32x4 e = exp_approx(mul(splat(-2.0f), u));
  return div(xc, add(splat(1.0f), e));
}

// out[i] = op(x[i]) over vectors. Tensors are 16-byte aligned, so aligned loads are safe;
// the last n % 4 elements go through a padded buffer, so every element gets the same
// arithmetic.
template <class Op>
void map_unary(float* out, const float* x, size_t n, Op op) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(out + i, op(load(x + i)));
  if (i < n) {
    alignas(16) float buf[kLanes] = {};
    std::copy(x + i, x + n, buf);
    store(buf, op(load(buf)));
    std::copy(buf, buf + (n - i), out + i);
  }
}

template <class Op>
void map_binary(float* out, const float* a, const float* b, size_t n, Op op) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(out + i, op(load(a + i), load(b + i)));
  if (i < n) {
    alignas(16) float buf_a[kLanes] = {}, buf_b[kLanes] = {};
    std::copy(a + i, a + n, buf_a);
    std::copy(b + i, b + n, buf_b);
    store(buf_a, op(load(buf_a), load(buf_b)));
    std::copy(buf_a, buf_a + (n - i), out + i);
  }
}

// One pass, one NEW tensor: how a NumPy expression evaluates each operator.
template <class Op>
Tensor unary(const Tensor& x, Op op) {
  Tensor out(x.shape());
  map_unary(out.data(), x.data(), x.size(), op);
  return out;
}

template <class Op>
Tensor binary(const Tensor& a, const Tensor& b, Op op) {
  Tensor out(a.shape());
  map_binary(out.data(), a.data(), b.data(), a.size(), op);
  return out;
}

// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))) evaluated as NumPy would: eight
// passes over memory, eight temporaries (each freed once the next exists, so at most two
// are alive). The tanh pass uses the same vector tanh as the fused kernel, so the two
// variants differ only in passes and temporaries. Like NumPy, it gives NaN at x = −inf
// (−inf · (1 + tanh(−inf)) = −inf · 0).
Tensor gelu_unfused(const Tensor& x) {
  const f32x4 cubic = splat(static_cast<float>(kGeluCubic));
  const f32x4 scale = splat(static_cast<float>(kSqrt2OverPi));
  Tensor t = unary(x, [](f32x4 v) { return mul(mul(v, v), v); });     // x³
  t = unary(t, [cubic](f32x4 v) { return mul(cubic, v); });           // 0.044715·x³
  t = binary(x, t, [](f32x4 a, f32x4 b) { return add(a, b); });      // x + …
  t = unary(t, [scale](f32x4 v) { return mul(scale, v); });           // sqrt(2/π)·…
  t = unary(t, [](f32x4 v) { return tanh_approx(v); });               // tanh(…)
  t = unary(t, [](f32x4 v) { return add(splat(1.0f), v); });          // 1 + …
  t = binary(x, t, [](f32x4 a, f32x4 b) { return mul(a, b); });      // x·…
  return unary(t, [](f32x4 v) { return mul(splat(0.5f), v); });       // 0.5·…
}

Tensor gelu_fused(const Tensor& x) { return unary(x, gelu_fused_vec); }

void require_same_shape(const char* op, const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) {
    throw ShapeError(std::string(op) + " shape mismatch: a " + shape_to_string(a.shape()) +
                     " and b " + shape_to_string(b.shape()) + " must have the same shape");
  }
}

}  // namespace

const std::vector<GeluVariant>& gelu_variants() {
  static const std::vector<GeluVariant> variants = {
      {"unfused",
       "one pass and one new tensor per operation, as a NumPy expression evaluates it",
       gelu_unfused},
      {"fused", "one pass over the input, no temporaries, all of GELU in vector registers",
       gelu_fused},
  };
  return variants;
}

const GeluVariant& find_gelu_variant(std::string_view name) {
  std::string names;
  for (const auto& v : gelu_variants()) {
    if (v.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw ValueError("unknown gelu variant '" + std::string(name) + "'; known variants: " + names);
}

Tensor gelu(const Tensor& x, std::string_view variant) {
  return find_gelu_variant(variant).kernel(x);
}

double gelu_reference(double x) {
  // The limit at −inf; the formula would give −inf · 0 = NaN.
  if (x == -std::numeric_limits<double>::infinity()) return 0.0;
  const double u = kSqrt2OverPi * (x + kGeluCubic * x * x * x);
  // 0.5·x·(1 + tanh(u)) rewritten as x / (1 + e^(−2u)): equal in exact arithmetic, but
  // 1 + tanh(u) cancels to 0 in double for u < −19, which would wipe out the tail.
  return x / (1.0 + std::exp(-2.0 * u));
}

Tensor add(const Tensor& a, const Tensor& b) {
  require_same_shape("add", a, b);
  return binary(a, b, [](f32x4 x, f32x4 y) { return detail::add(x, y); });
}

Tensor mul(const Tensor& a, const Tensor& b) {
  require_same_shape("mul", a, b);
  return binary(a, b, [](f32x4 x, f32x4 y) { return detail::mul(x, y); });
}

}  // namespace perflab
