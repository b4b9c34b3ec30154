// A tiny 4×float32 vector type for the kernels, so each kernel is written once and compiled
// to wasm simd128, SSE2, NEON or plain scalar code. The backend is chosen from the compiler's
// predefined macros; PERFLAB_FORCE_SCALAR forces the scalar fallback (perflab_core_scalar).
// PERFLAB_FREESTANDING: compiled without the C and C++ libraries (the kernel engine's
// clang-16 build, -ffreestanding -nostdlib), so only the compiler's own headers are used.
// Under relaxed SIMD (-mrelaxed-simd, the engine's "fma" flavour) fmadd is the relaxed madd.
// Not for: wider vectors (AVX), masks and shuffles, or anything the kernels do not use.
#pragma once

#if defined(PERFLAB_FLAVOUR_FREE)
#error "this source depends on the core flavour (it includes simd.hpp): list it in PERFLAB_CORE_FLAVOUR_SOURCES (core/CMakeLists.txt)"
#endif

#include <stddef.h>
#include <stdint.h>
#if defined(PERFLAB_FREESTANDING)
#define PERFLAB_MEMCPY __builtin_memcpy
#else
#include <cstring>
#define PERFLAB_MEMCPY std::memcpy
#endif

#if defined(PERFLAB_FORCE_SCALAR)
#define PERFLAB_SIMD_SCALAR 1
#elif defined(__wasm_simd128__)
#define PERFLAB_SIMD_WASM 1
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#define PERFLAB_SIMD_SSE2 1
#if defined(__FMA__)
#include <immintrin.h>
#else
#include <emmintrin.h>
#endif
#elif defined(__ARM_NEON)
#define PERFLAB_SIMD_NEON 1
#include <arm_neon.h>
#else
#define PERFLAB_SIMD_SCALAR 1
#endif

// Scalar variants stay scalar: at -O3 compilers auto-vectorize simple loops, and then
// "scalar vs SIMD" would measure the compiler rather than the lesson. Put
// PERFLAB_SCALAR_FUNCTION before a function (GCC) and PERFLAB_SCALAR_LOOP before each of its
// innermost loops (Clang, which is also what Emscripten uses).
#if defined(__clang__)
#define PERFLAB_SCALAR_FUNCTION
#define PERFLAB_SCALAR_LOOP _Pragma("clang loop vectorize(disable) interleave(disable)")
#elif defined(__GNUC__)
#define PERFLAB_SCALAR_FUNCTION __attribute__((optimize("no-tree-vectorize")))
#define PERFLAB_SCALAR_LOOP
#else
#define PERFLAB_SCALAR_FUNCTION
#define PERFLAB_SCALAR_LOOP
#endif

namespace perflab::detail {

#if defined(PERFLAB_SIMD_WASM)
inline constexpr bool kSimdEnabled = true;
inline constexpr const char* kSimdBackend = "wasm-simd128";
struct f32x4 { v128_t v; };
#elif defined(PERFLAB_SIMD_SSE2)
inline constexpr bool kSimdEnabled = true;
inline constexpr const char* kSimdBackend = "sse2";
struct f32x4 { __m128 v; };
#elif defined(PERFLAB_SIMD_NEON)
inline constexpr bool kSimdEnabled = true;
inline constexpr const char* kSimdBackend = "neon";
struct f32x4 { float32x4_t v; };
#else
inline constexpr bool kSimdEnabled = false;
inline constexpr const char* kSimdBackend = "scalar";
struct f32x4 { float v[4]; };
#endif

inline constexpr int kLanes = 4;

// Every backend below defines the same functions:
//   load/store (16-byte aligned pointer), loadu/storeu (any pointer), splat, add, sub, mul,
//   div, fmadd(a, b, c) = a·b + c (fused where the target has it, else mul then add),
//   max, min, and pow2_bits (the bit trick behind pow2_int, at the end of the file).
// max/min NaN rule, the one portable across backends: when the SECOND operand is NaN the
// result is NaN everywhere; when only the first is, it depends on the backend. Put the
// value that may be NaN second.

#if defined(PERFLAB_SIMD_WASM)

// wasm has one load/store instruction; the alignment is only a hint.
inline f32x4 load(const float* p) { return {wasm_v128_load(p)}; }
inline f32x4 loadu(const float* p) { return {wasm_v128_load(p)}; }
inline void store(float* p, f32x4 a) { wasm_v128_store(p, a.v); }
inline void storeu(float* p, f32x4 a) { wasm_v128_store(p, a.v); }
inline f32x4 splat(float x) { return {wasm_f32x4_splat(x)}; }
inline f32x4 add(f32x4 a, f32x4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
inline f32x4 sub(f32x4 a, f32x4 b) { return {wasm_f32x4_sub(a.v, b.v)}; }
inline f32x4 mul(f32x4 a, f32x4 b) { return {wasm_f32x4_mul(a.v, b.v)}; }
inline f32x4 div(f32x4 a, f32x4 b) { return {wasm_f32x4_div(a.v, b.v)}; }
#if defined(__wasm_relaxed_simd__)
// Relaxed SIMD's madd: fused where the CPU has FMA (one rounding), else multiply then add;
// the engine decides, so results may differ from the unfused kernels in the last bits.
// clang-16's wasm_simd128.h has no wrapper for it, hence the builtin (a·b + c, checked
// numerically in Node). Only the kernel engine's clang-16 build enables it: Emscripten
// 3.1.6's clang 14 emits a prototype opcode that engines reject.
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) {
  return {(v128_t)__builtin_wasm_relaxed_madd_f32x4((__f32x4)a.v, (__f32x4)b.v, (__f32x4)c.v)};
}
#else
// No fused multiply-add in simd128 (it is in relaxed SIMD, above).
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) {
  return {wasm_f32x4_add(wasm_f32x4_mul(a.v, b.v), c.v)};
}
#endif
// pmax(p, q) = p < q ? q : p and pmin(p, q) = q < p ? q : p, called with b first: a NaN in b
// makes the comparison false and returns b, which is the portable rule above. Not f32x4.max/
// min: their IEEE NaN and ±0 rules cost V8 about eight x64 instructions each (pmax/pmin map
// to one maxps/minps), which made exp_approx twice as slow.
inline f32x4 max(f32x4 a, f32x4 b) { return {wasm_f32x4_pmax(b.v, a.v)}; }
inline f32x4 min(f32x4 a, f32x4 b) { return {wasm_f32x4_pmin(b.v, a.v)}; }
inline f32x4 pow2_bits(f32x4 biased) {
  return {wasm_i32x4_shl(wasm_i32x4_add(biased.v, wasm_i32x4_splat(127)), 23)};
}

#elif defined(PERFLAB_SIMD_SSE2)

inline f32x4 load(const float* p) { return {_mm_load_ps(p)}; }
inline f32x4 loadu(const float* p) { return {_mm_loadu_ps(p)}; }
inline void store(float* p, f32x4 a) { _mm_store_ps(p, a.v); }
inline void storeu(float* p, f32x4 a) { _mm_storeu_ps(p, a.v); }
inline f32x4 splat(float x) { return {_mm_set1_ps(x)}; }
inline f32x4 add(f32x4 a, f32x4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline f32x4 sub(f32x4 a, f32x4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline f32x4 mul(f32x4 a, f32x4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline f32x4 div(f32x4 a, f32x4 b) { return {_mm_div_ps(a.v, b.v)}; }
#if defined(__FMA__)
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) { return {_mm_fmadd_ps(a.v, b.v, c.v)}; }
#else
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) { return {_mm_add_ps(_mm_mul_ps(a.v, b.v), c.v)}; }
#endif
// maxps/minps return their second operand when either is NaN.
inline f32x4 max(f32x4 a, f32x4 b) { return {_mm_max_ps(a.v, b.v)}; }
inline f32x4 min(f32x4 a, f32x4 b) { return {_mm_min_ps(a.v, b.v)}; }
inline f32x4 pow2_bits(f32x4 biased) {
  const __m128i bits = _mm_add_epi32(_mm_castps_si128(biased.v), _mm_set1_epi32(127));
  return {_mm_castsi128_ps(_mm_slli_epi32(bits, 23))};
}

#elif defined(PERFLAB_SIMD_NEON)

inline f32x4 load(const float* p) { return {vld1q_f32(p)}; }
inline f32x4 loadu(const float* p) { return {vld1q_f32(p)}; }
inline void store(float* p, f32x4 a) { vst1q_f32(p, a.v); }
inline void storeu(float* p, f32x4 a) { vst1q_f32(p, a.v); }
inline f32x4 splat(float x) { return {vdupq_n_f32(x)}; }
inline f32x4 add(f32x4 a, f32x4 b) { return {vaddq_f32(a.v, b.v)}; }
inline f32x4 sub(f32x4 a, f32x4 b) { return {vsubq_f32(a.v, b.v)}; }
inline f32x4 mul(f32x4 a, f32x4 b) { return {vmulq_f32(a.v, b.v)}; }
#if defined(__aarch64__)
inline f32x4 div(f32x4 a, f32x4 b) { return {vdivq_f32(a.v, b.v)}; }
#else
// 32-bit NEON has no divide: reciprocal estimate refined by two Newton steps.
inline f32x4 div(f32x4 a, f32x4 b) {
  float32x4_t r = vrecpeq_f32(b.v);
  r = vmulq_f32(vrecpsq_f32(b.v, r), r);
  r = vmulq_f32(vrecpsq_f32(b.v, r), r);
  return {vmulq_f32(a.v, r)};
}
#endif
#if defined(__ARM_FEATURE_FMA)
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) { return {vfmaq_f32(c.v, a.v, b.v)}; }
#else
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) { return {vmlaq_f32(c.v, a.v, b.v)}; }
#endif
// vmaxq/vminq propagate NaN from either side.
inline f32x4 max(f32x4 a, f32x4 b) { return {vmaxq_f32(a.v, b.v)}; }
inline f32x4 min(f32x4 a, f32x4 b) { return {vminq_f32(a.v, b.v)}; }
inline f32x4 pow2_bits(f32x4 biased) {
  const int32x4_t bits = vaddq_s32(vreinterpretq_s32_f32(biased.v), vdupq_n_s32(127));
  return {vreinterpretq_f32_s32(vshlq_n_s32(bits, 23))};
}

#else  // scalar

template <class F>
inline f32x4 lanewise(f32x4 a, f32x4 b, F f) {
  f32x4 r;
  for (int i = 0; i < kLanes; ++i) r.v[i] = f(a.v[i], b.v[i]);
  return r;
}
inline f32x4 load(const float* p) { f32x4 r; PERFLAB_MEMCPY(r.v, p, sizeof r.v); return r; }
inline f32x4 loadu(const float* p) { return load(p); }
inline void store(float* p, f32x4 a) { PERFLAB_MEMCPY(p, a.v, sizeof a.v); }
inline void storeu(float* p, f32x4 a) { store(p, a); }
inline f32x4 splat(float x) { return {{x, x, x, x}}; }
inline f32x4 add(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x + y; });
}
inline f32x4 sub(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x - y; });
}
inline f32x4 mul(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x * y; });
}
inline f32x4 div(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x / y; });
}
inline f32x4 fmadd(f32x4 a, f32x4 b, f32x4 c) { return add(mul(a, b), c); }
// Same NaN rule as SSE2: the second operand wins when either is NaN.
inline f32x4 max(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x > y ? x : y; });
}
inline f32x4 min(f32x4 a, f32x4 b) {
  return lanewise(a, b, [](float x, float y) { return x < y ? x : y; });
}
inline f32x4 pow2_bits(f32x4 biased) {
  f32x4 r;
  for (int i = 0; i < kLanes; ++i) {
    uint32_t bits;
    PERFLAB_MEMCPY(&bits, &biased.v[i], sizeof bits);
    bits = (bits + 127u) << 23;  // unsigned: wraps, never undefined
    PERFLAB_MEMCPY(&r.v[i], &bits, sizeof bits);
  }
  return r;
}

#endif

inline f32x4 zero() { return splat(0.0f); }

// Sum and maximum of the four lanes, in a fixed order so that every backend gives the same
// float. hmax is NaN if any lane is.
inline float hsum(f32x4 a) {
  alignas(16) float t[kLanes];
  store(t, a);
  return (t[0] + t[1]) + (t[2] + t[3]);
}
inline float hmax(f32x4 a) {
  alignas(16) float t[kLanes];
  store(t, a);
  float m = t[0];
  // Once m is NaN no comparison replaces it; a NaN lane replaces any m.
  for (int i = 1; i < kLanes; ++i) m = (t[i] > m || t[i] != t[i]) ? t[i] : m;
  return m;
}

// 1.5·2^23: adding it to a float with |x| < 2^22 rounds x to the nearest integer (ties to
// even) and leaves that integer in the low mantissa bits. Needs IEEE rounding (no -ffast-math).
inline constexpr float kRoundMagic = 12582912.0f;

// Nearest integer of each lane, as a float (|x| < 2^22).
inline f32x4 round_nearest(f32x4 x) { return sub(add(x, splat(kRoundMagic)), splat(kRoundMagic)); }

// 2^n for lanes holding an integer n in [-127, 128], built from exponent bits:
// n = -127 gives +0 and n = 128 gives +inf, which is what exp's saturation wants.
// pow2_bits receives n + kRoundMagic, whose low bits hold n; only the low 9 bits survive the
// shift by 23, so the magic's own bits drop out.
inline f32x4 pow2_int(f32x4 n) { return pow2_bits(add(n, splat(kRoundMagic))); }

// Each lane's bits shifted left by 23 (the exponent field's position), as a float. Given
// m = t + (kRoundMagic + 127) with t rounded to an integer n in [-126, 128], this is 2^n
// (n = 128 gives +inf): the low bits of m hold n + 127, the biased exponent, so the bias
// costs no extra add.
inline f32x4 shift_to_exponent(f32x4 m) {
#if defined(PERFLAB_SIMD_WASM)
  return {wasm_i32x4_shl(m.v, 23)};
#elif defined(PERFLAB_SIMD_SSE2)
  return {_mm_castsi128_ps(_mm_slli_epi32(_mm_castps_si128(m.v), 23))};
#elif defined(PERFLAB_SIMD_NEON)
  return {vreinterpretq_f32_s32(vshlq_n_s32(vreinterpretq_s32_f32(m.v), 23))};
#else
  f32x4 r;
  for (int i = 0; i < kLanes; ++i) {
    uint32_t bits;
    PERFLAB_MEMCPY(&bits, &m.v[i], sizeof bits);
    bits <<= 23;
    PERFLAB_MEMCPY(&r.v[i], &bits, sizeof bits);
  }
  return r;
#endif
}


}  // namespace perflab::detail
