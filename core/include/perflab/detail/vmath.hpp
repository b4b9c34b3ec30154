// Vector math on f32x4 for the element-wise and row kernels: e^x and tanh accurate to float32
// tolerance (tested against std::exp/std::tanh over dense ranges and at ±inf/NaN), and the
// fused GELU expression (its own 2^x, tested against the double reference). Shared by
// elementwise.cpp and reduce.cpp.
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

// GELU in one expression, per lane; a function object so that its constants are built once
// (splat_kept) and stay in registers across the kernel's loop: construct it before the loop.
// 0.5·x·(1 + tanh(u)) equals x / (1 + e^(−2u)), which avoids the cancellation of
// 1 + tanh(u) near −1, so the negative tail keeps its relative accuracy.
// e^(−2u) is computed as 2^t with t = −2u·log2(e) = x·(c1 + c2·x²), the constants folded, so
// no separate range reduction by ln 2 is needed: t = n + f with n = round(t) and
// |f| <= 1/2, 2^f from a degree-5 polynomial, 2^n from exponent bits (the rounding's magic
// number carries the exponent bias, so 2^n is one shift): 25 vector operations per four
// elements where x / (1 + exp_approx(−2u)) takes 34, and a shorter dependency chain.
// Accuracy: 2^f within about 1e-7 relative; t itself carries the rounding of x·(c1 + c2·x²),
// about 1e-5 of relative error in e^(−2u) at x = −10, as any float evaluation of −2u does.
// Clamps: x at −10.0625, where t rounds to n = 128 and 2^n comes out as +inf (exponent
// field 255), so every x at or below it, −inf included, gives −10.0625 / inf = −0 (GELU there
// is below 1e-38; the formula would give −inf · 0 = NaN at −inf); t at −126 (reached from
// x ≈ 10 on, where e^(−2u) <= 2^−126 no longer matters next to 1; +inf gives inf / 1). So n
// stays in [−126, 128]. NaN stays NaN (max keeps a NaN second operand).
struct GeluVec {
  static constexpr double kLog2e = 1.4426950408889634;
  f32x4 x_min = splat_kept(-10.0625f);  // t(x_min) = 128.0
  f32x4 c1 = splat_kept(static_cast<float>(-2.0 * kSqrt2OverPi * kLog2e));
  f32x4 c2 = splat_kept(static_cast<float>(-2.0 * kSqrt2OverPi * kGeluCubic * kLog2e));
  f32x4 t_min = splat_kept(-126.0f);
  f32x4 magic = splat_kept(kRoundMagic + 127.0f);  // 12583039: exact in float
  // 2^f on [−1/2, 1/2]: Chebyshev interpolant (mpmath chebyfit), coefficients rounded to
  // float, highest degree first; relative error about 1e-7.
  f32x4 p5 = splat_kept(1.339086331e-3f), p4 = splat_kept(9.676031768e-3f),
        p3 = splat_kept(5.550356954e-2f), p2 = splat_kept(2.402210683e-1f),
        p1 = splat_kept(6.931471825e-1f), p0 = splat_kept(1.000000119f);
  f32x4 one = splat_kept(1.0f);

  // The dependency chain is what limits this kernel (the scheduler fills with operations
  // waiting on it), so each step below is arranged for depth.
  f32x4 operator()(f32x4 x) const {
    const f32x4 xc = max(x_min, x);
    // t = c1·x + (c2·x)·x²: one operation more than x·(c1 + c2·x²), one multiply shallower.
    const f32x4 t = max(t_min, fmadd(mul(c2, xc), mul(xc, xc), mul(c1, xc)));
    const f32x4 m = add(t, magic);          // magic + round(t): low bits hold n + 127
    const f32x4 f = sub(t, sub(m, magic));  // t − n, exact
    // Estrin's scheme: one operation more than Horner's, four multiply-adds deep, not five.
    const f32x4 f2 = mul(f, f);
    const f32x4 p = fmadd(fmadd(fmadd(p5, f, p4), f2, fmadd(p3, f, p2)), f2, fmadd(p1, f, p0));
    return div(xc, fmadd(p, shift_to_exponent(m), one));
  }
};

}  // namespace perflab::detail
