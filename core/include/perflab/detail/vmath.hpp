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

// GELU in one expression, per lane; a function object so that its constants are built once,
// before the kernel's loop (V8 keeps them in registers across it).
// 0.5·x·(1 + tanh(u)) equals x / (1 + e^(−2u)), which avoids the cancellation of
// 1 + tanh(u) near −1, so the negative tail keeps its relative accuracy.
// e^(−2u) is computed as 2^t with t = −2u·log2(e) = x·(c1 + c2·x²), the constants folded, so
// no separate range reduction by ln 2 is needed: t = n + f with n = round(t) and
// |f| <= 1/2; 2^n from exponent bits (the rounding's magic number carries the exponent bias,
// so 2^n is one shift); 2^f from its [3/3] Padé approximant P/Q, P = E + O and Q = E − O with
// E = 1 + b·f² and O = f·(a + c·f²) (a = ln2/2, b = ln²2/10, c = ln³2/120; relative error
// 6e-9 on [−1/2, 1/2], below float rounding). Then x / (1 + 2^n·P/Q) = x·Q / (Q + 2^n·P):
// the divide the formula needs anyway absorbs the Padé quotient. 23 vector operations per
// four elements; the degree-5 polynomial it replaced took 25 and a longer dependency chain
// (10% slower in Node 20, same accuracy: see docs/PERFORMANCE.md).
// Accuracy: t itself carries the rounding of x·(c1 + c2·x²), about 1e-5 of relative error in
// e^(−2u) at x = −10, as any float evaluation of −2u does.
// Clamps: x at −10.0625, where t rounds to n = 128 and 2^n comes out as +inf (exponent
// field 255), so every x at or below it, −inf included, gives x·Q / inf = −0 (GELU there
// is below 1e-38; the formula would give −inf · 0 = NaN at −inf); t at −126 (reached from
// x ≈ 10 on, where e^(−2u) <= 2^−126 no longer matters next to Q; +inf gives inf·Q / Q). So
// n stays in [−126, 128]. NaN stays NaN (max keeps a NaN second operand).
struct GeluVec {
  static constexpr double kLog2e = 1.4426950408889634;
  static constexpr double kLn2 = 0.6931471805599453;
  f32x4 x_min = splat(-10.0625f);  // t(x_min) = 128.0
  f32x4 c1 = splat(static_cast<float>(-2.0 * kSqrt2OverPi * kLog2e));
  f32x4 c2 = splat(static_cast<float>(-2.0 * kSqrt2OverPi * kGeluCubic * kLog2e));
  f32x4 t_min = splat(-126.0f);
  f32x4 magic = splat(kRoundMagic + 127.0f);  // 12583039: exact in float
  f32x4 pade_a = splat(static_cast<float>(kLn2 / 2));
  f32x4 pade_b = splat(static_cast<float>(kLn2 * kLn2 / 10));
  f32x4 pade_c = splat(static_cast<float>(kLn2 * kLn2 * kLn2 / 120));
  f32x4 one = splat(1.0f);

  f32x4 operator()(f32x4 x) const {
    const f32x4 xc = max(x_min, x);
    // t = c1·x + (c2·x)·x²: one operation more than x·(c1 + c2·x²), one multiply shallower.
    const f32x4 t = max(t_min, fmadd(mul(c2, xc), mul(xc, xc), mul(c1, xc)));
    const f32x4 m = add(t, magic);          // magic + round(t): low bits hold n + 127
    const f32x4 f = sub(t, sub(m, magic));  // t − n, exact
    const f32x4 f2 = mul(f, f);
    const f32x4 even = fmadd(pade_b, f2, one);
    const f32x4 odd = mul(f, fmadd(pade_c, f2, pade_a));
    const f32x4 q = sub(even, odd);
    return div(mul(xc, q), fmadd(add(even, odd), shift_to_exponent(m), q));
  }
};

}  // namespace perflab::detail
