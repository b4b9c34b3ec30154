// Vector math on f32x4 for the element-wise and row kernels: e^x and tanh accurate to float32
// tolerance (tested against std::exp/std::tanh over dense ranges and at ±inf/NaN), and the
// GELU expression they feed. Shared by elementwise.cpp and reduce.cpp.
// Not for: other transcendental functions, or double precision.
#pragma once

#include "perflab/detail/simd.hpp"

namespace perflab::detail {

inline constexpr double kSqrt2OverPi = 0.7978845608028654;  // sqrt(2/π)
inline constexpr double kGeluCubic = 0.044715;

// e^w per lane: w = n·ln2 + r with |r| <= ln2/2, e^r from Cephes' expf polynomial (relative
// error about 1e-7), 2^n from exponent bits. Saturates exactly: w <= -88 gives +0 and
// w >= 88.8 gives +inf (so e^-inf = 0 and e^inf = inf). NaN stays NaN.
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
// The exponent −2u = x·(k1 + k2·x²) with the constants folded: four operations deep instead
// of six (the kernel is bound by the latency of this chain, not by memory).
inline f32x4 gelu_vec(f32x4 x) {
  constexpr float k1 = static_cast<float>(-2.0 * kSqrt2OverPi);
  constexpr float k2 = static_cast<float>(-2.0 * kSqrt2OverPi * kGeluCubic);
  const f32x4 xc = max(splat(-20.0f), x);
  const f32x4 minus_2u = mul(xc, fmadd(splat(k2), mul(xc, xc), splat(k1)));
  const f32x4 e = exp_approx(minus_2u);
  return div(xc, add(splat(1.0f), e));
}

}  // namespace perflab::detail
