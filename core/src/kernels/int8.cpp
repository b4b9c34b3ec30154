// The int8 Linear kernels (kernels/int8.hpp), the quantization of weights and activations,
// the error bound, and the measurement against the float packed matmul. The simd variant
// widens codes to int16 and uses the one integer multiply-add 128-bit SIMD has everywhere:
// eight int16 products, adjacent pairs summed into four int32 lanes (pmaddwd in SSE2,
// i32x4.dot_i16x8_s in wasm simd128).
#include "perflab/kernels/int8.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

using std::size_t;

#if defined(__GNUC__)
#define PERFLAB_INT8_INLINE inline __attribute__((always_inline))
#else
#define PERFLAB_INT8_INLINE inline
#endif

// Nearest integer, ties to even, of a float with |v| < 2^22 (detail::kRoundMagic's trick):
// no libm call (nearbyint is one without SSE4.1), and the same result on every target.
PERFLAB_INT8_INLINE float round_even(float v) {
  return (v + detail::kRoundMagic) - detail::kRoundMagic;
}

// The dequantization both variants share, so that their y are bit-identical: one int32 to
// float conversion, one multiply, one add, in this order.
PERFLAB_INT8_INLINE float dequantize(std::int32_t acc, float scale, const float* bias,
                                     size_t n) {
  return static_cast<float>(acc) * scale + (bias ? bias[n] : 0.0f);
}

// x scale · weight scale per output, computed once per call in float by both variants.
std::vector<float> output_scales(const ActivationQuant& xp, const Int8Weights& w) {
  std::vector<float> s(w.out);
  for (size_t n = 0; n < w.out; ++n) s[n] = xp.scale * w.scale[n];
  return s;
}

PERFLAB_SCALAR_FUNCTION
void int8_naive(float* y, const std::uint8_t* xq, const ActivationQuant& xp,
                const Int8Weights& w, const float* bias, size_t B) {
  const size_t K = w.in, N = w.out;
  const std::vector<float> scale = output_scales(xp, w);
  for (size_t b = 0; b < B; ++b) {
    const std::uint8_t* xb = xq + b * K;
    for (size_t n = 0; n < N; ++n) {
      const std::int8_t* wn = w.code.data() + n * w.stride;
      std::int32_t acc = 0;
      PERFLAB_SCALAR_LOOP
      for (size_t k = 0; k < K; ++k) acc += static_cast<std::int32_t>(xb[k]) * wn[k];
      acc -= xp.zero_point * w.code_sum[n];
      y[b * N + n] = dequantize(acc, scale[n], bias, n);
    }
  }
}

// Integer lanes for the simd variant: i16x8 (eight int16) and i32x4 (four int32).
//   widen_lo/hi  the low (high) eight of 16 int8 codes, sign-extended to i16x8
//   load_i16     eight int16
//   dot_add      acc + (a[0]·b[0] + a[1]·b[1], ..., a[6]·b[6] + a[7]·b[7]), exact in int32
//   sum_lanes    the four lanes' sum
//   sum_lanes4   the lane sums of four vectors at once, into out[0..3] (two transposing
//                steps: a third of the instructions of four sum_lanes)
//   store_codes4 four float lanes holding whole numbers in [0, 255] as four bytes (for
//                quantize_activations; a NaN lane, which max() lets through only on NEON,
//                gives 0)
#if defined(PERFLAB_SIMD_SSE2)
struct i16x8 { __m128i v; };
struct i32x4 { __m128i v; };
PERFLAB_INT8_INLINE i32x4 zero_i32() { return {_mm_setzero_si128()}; }
PERFLAB_INT8_INLINE i32x4 splat_i32(std::int32_t v) { return {_mm_set1_epi32(v)}; }
PERFLAB_INT8_INLINE i16x8 as_i16(i32x4 a) { return {a.v}; }
PERFLAB_INT8_INLINE i32x4 as_i32(i16x8 a) { return {a.v}; }
PERFLAB_INT8_INLINE std::int32_t lane0(i32x4 a) { return _mm_cvtsi128_si32(a.v); }

// Each byte into the high half of a 16-bit lane, then an arithmetic shift brings it down
// with its sign (SSE2 has no pmovsxbw; that is SSE4.1).
PERFLAB_INT8_INLINE i16x8 widen_lo(const std::int8_t* p) {
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return {_mm_srai_epi16(_mm_unpacklo_epi8(c, c), 8)};
}
PERFLAB_INT8_INLINE i16x8 widen_hi(const std::int8_t* p) {
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return {_mm_srai_epi16(_mm_unpackhi_epi8(c, c), 8)};
}
PERFLAB_INT8_INLINE i16x8 load_i16(const std::int16_t* p) {
  return {_mm_loadu_si128(reinterpret_cast<const __m128i*>(p))};
}
PERFLAB_INT8_INLINE i32x4 dot_add(i16x8 a, i16x8 b, i32x4 acc) {
  return {_mm_add_epi32(acc.v, _mm_madd_epi16(a.v, b.v))};
}
PERFLAB_INT8_INLINE std::int32_t sum_lanes(i32x4 a) {
  alignas(16) std::int32_t t[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(t), a.v);
  return (t[0] + t[1]) + (t[2] + t[3]);
}
PERFLAB_INT8_INLINE void sum_lanes4(i32x4 a, i32x4 b, i32x4 c, i32x4 d, std::int32_t* out) {
  const __m128i ab = _mm_add_epi32(_mm_unpacklo_epi32(a.v, b.v), _mm_unpackhi_epi32(a.v, b.v));
  const __m128i cd = _mm_add_epi32(_mm_unpacklo_epi32(c.v, d.v), _mm_unpackhi_epi32(c.v, d.v));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out),
                   _mm_add_epi32(_mm_unpacklo_epi64(ab, cd), _mm_unpackhi_epi64(ab, cd)));
}
PERFLAB_INT8_INLINE void store_codes4(std::uint8_t* out, detail::f32x4 v) {
  __m128i i = _mm_cvttps_epi32(v.v);
  i = _mm_packus_epi16(_mm_packs_epi32(i, i), i);
  const std::int32_t word = _mm_cvtsi128_si32(i);
  std::memcpy(out, &word, 4);
}
#elif defined(PERFLAB_SIMD_WASM)
struct i16x8 { v128_t v; };
struct i32x4 { v128_t v; };
PERFLAB_INT8_INLINE i32x4 zero_i32() { return {wasm_i32x4_splat(0)}; }
PERFLAB_INT8_INLINE i32x4 splat_i32(std::int32_t v) { return {wasm_i32x4_splat(v)}; }
PERFLAB_INT8_INLINE i16x8 as_i16(i32x4 a) { return {a.v}; }
PERFLAB_INT8_INLINE i32x4 as_i32(i16x8 a) { return {a.v}; }
PERFLAB_INT8_INLINE std::int32_t lane0(i32x4 a) { return wasm_i32x4_extract_lane(a.v, 0); }

// v128.load8x8_s: eight bytes loaded and sign-extended in one instruction (pmovsxbw from
// memory in V8 on x64), where a 16-byte load and extend_high_i8x16 would take a shuffle too.
PERFLAB_INT8_INLINE i16x8 widen_lo(const std::int8_t* p) { return {wasm_i16x8_load8x8(p)}; }
PERFLAB_INT8_INLINE i16x8 widen_hi(const std::int8_t* p) { return {wasm_i16x8_load8x8(p + 8)}; }
PERFLAB_INT8_INLINE i16x8 load_i16(const std::int16_t* p) { return {wasm_v128_load(p)}; }
PERFLAB_INT8_INLINE i32x4 dot_add(i16x8 a, i16x8 b, i32x4 acc) {
  return {wasm_i32x4_add(acc.v, wasm_i32x4_dot_i16x8(a.v, b.v))};
}
PERFLAB_INT8_INLINE std::int32_t sum_lanes(i32x4 a) {
  return (wasm_i32x4_extract_lane(a.v, 0) + wasm_i32x4_extract_lane(a.v, 1)) +
         (wasm_i32x4_extract_lane(a.v, 2) + wasm_i32x4_extract_lane(a.v, 3));
}
PERFLAB_INT8_INLINE void sum_lanes4(i32x4 a, i32x4 b, i32x4 c, i32x4 d, std::int32_t* out) {
  const v128_t ab = wasm_i32x4_add(wasm_i32x4_shuffle(a.v, b.v, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(a.v, b.v, 2, 6, 3, 7));
  const v128_t cd = wasm_i32x4_add(wasm_i32x4_shuffle(c.v, d.v, 0, 4, 1, 5),
                                   wasm_i32x4_shuffle(c.v, d.v, 2, 6, 3, 7));
  wasm_v128_store(out, wasm_i32x4_add(wasm_i64x2_shuffle(ab, cd, 0, 2),
                                      wasm_i64x2_shuffle(ab, cd, 1, 3)));
}
// Saturating conversion and narrowing in SIMD: Emscripten 3.1.6 builds without nontrapping
// float-to-int, so a scalar conversion is a branch and a range check per value, which made
// quantizing x cost more than the 128→10 product it feeds.
PERFLAB_INT8_INLINE void store_codes4(std::uint8_t* out, detail::f32x4 v) {
  v128_t i = wasm_i32x4_trunc_sat_f32x4(v.v);
  i = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(i, i), i);
  const std::int32_t word = wasm_i32x4_extract_lane(i, 0);
  std::memcpy(out, &word, 4);
}
#else
// Plain lanes: the scalar build (and NEON until it has its own) runs the same blocks, so the
// scalar test build checks their edges too.
struct i16x8 { std::int16_t v[8]; };
struct i32x4 { std::int32_t v[4]; };
PERFLAB_INT8_INLINE i32x4 zero_i32() { return {{0, 0, 0, 0}}; }
PERFLAB_INT8_INLINE i32x4 splat_i32(std::int32_t v) { return {{v, v, v, v}}; }
PERFLAB_INT8_INLINE i16x8 as_i16(i32x4 a) {
  i16x8 r;
  std::memcpy(r.v, a.v, sizeof r.v);
  return r;
}
PERFLAB_INT8_INLINE i32x4 as_i32(i16x8 a) {
  i32x4 r;
  std::memcpy(r.v, a.v, sizeof r.v);
  return r;
}
PERFLAB_INT8_INLINE std::int32_t lane0(i32x4 a) { return a.v[0]; }
PERFLAB_INT8_INLINE i16x8 widen_lo(const std::int8_t* p) {
  i16x8 r;
  for (int i = 0; i < 8; ++i) r.v[i] = p[i];
  return r;
}
PERFLAB_INT8_INLINE i16x8 widen_hi(const std::int8_t* p) { return widen_lo(p + 8); }
PERFLAB_INT8_INLINE i16x8 load_i16(const std::int16_t* p) {
  i16x8 r;
  std::memcpy(r.v, p, sizeof r.v);
  return r;
}
// Wrapping in 32 bits like pmaddwd and i32x4.add (in unsigned arithmetic, so no overflow is
// undefined): the kernel's sums never wrap (kMaxInt8K), the probe's chains do.
PERFLAB_INT8_INLINE i32x4 dot_add(i16x8 a, i16x8 b, i32x4 acc) {
  for (int i = 0; i < 4; ++i) {
    const std::uint32_t p0 = static_cast<std::uint32_t>(a.v[2 * i] * b.v[2 * i]);
    const std::uint32_t p1 = static_cast<std::uint32_t>(a.v[2 * i + 1] * b.v[2 * i + 1]);
    acc.v[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc.v[i]) + p0 + p1);
  }
  return acc;
}
PERFLAB_INT8_INLINE std::int32_t sum_lanes(i32x4 a) {
  return (a.v[0] + a.v[1]) + (a.v[2] + a.v[3]);
}
PERFLAB_INT8_INLINE void sum_lanes4(i32x4 a, i32x4 b, i32x4 c, i32x4 d, std::int32_t* out) {
  out[0] = sum_lanes(a);
  out[1] = sum_lanes(b);
  out[2] = sum_lanes(c);
  out[3] = sum_lanes(d);
}
#endif

// The code of a float already rounded and clamped to [0, 255]; a NaN (which only NEON's max
// lets through) gives 0.
PERFLAB_INT8_INLINE std::uint8_t to_code(float v) {
  return v >= 0.0f ? static_cast<std::uint8_t>(v) : 0;
}
#if !defined(PERFLAB_SIMD_SSE2) && !defined(PERFLAB_SIMD_WASM)
PERFLAB_INT8_INLINE void store_codes4(std::uint8_t* out, detail::f32x4 v) {
  alignas(16) float lanes[detail::kLanes];
  detail::store(lanes, v);
  for (int j = 0; j < detail::kLanes; ++j) out[j] = to_code(lanes[j]);
}
#endif

// R batch rows × C outputs of Σ_k x·code over the padded K: x holds R rows of int16 at
// stride S, w C rows of int8 codes at stride S. Each eight codes of an output are widened
// once and used by R rows; each row's eight values are loaded once and used by C outputs.
// The low and the high eight of each 16 codes are done one after the other, so that only C
// widened vectors are live beside the R·C accumulators: with R·C = 8 that is 10 of x86's 16
// vector registers (SSE2, or V8's wasm code, which keeps one for itself), where widening
// both halves first had GCC spill three accumulators to the stack.
template <int R, int C>
PERFLAB_INT8_INLINE void dot_block(const std::int16_t* x, const std::int8_t* w, size_t S,
                                   std::int32_t out[R * C]) {
  i32x4 acc[R * C];  // acc[r·C + c]: row r, output c
  for (int i = 0; i < R * C; ++i) acc[i] = zero_i32();
  for (size_t k = 0; k < S; k += kInt8KBlock) {
    i16x8 code[C];
    for (int c = 0; c < C; ++c) code[c] = widen_lo(w + c * S + k);
    for (int r = 0; r < R; ++r) {
      const i16x8 xv = load_i16(x + r * S + k);
      for (int c = 0; c < C; ++c) acc[r * C + c] = dot_add(xv, code[c], acc[r * C + c]);
    }
    for (int c = 0; c < C; ++c) code[c] = widen_hi(w + c * S + k);
    for (int r = 0; r < R; ++r) {
      const i16x8 xv = load_i16(x + r * S + k + 8);
      for (int c = 0; c < C; ++c) acc[r * C + c] = dot_add(xv, code[c], acc[r * C + c]);
    }
  }
  // The sums four at a time: at K = 256 a block is only 16 steps (about 700 wasm
  // instructions), and reducing its eight accumulators one by one took about 100 more.
  int i = 0;
  for (; i + 4 <= R * C; i += 4) sum_lanes4(acc[i], acc[i + 1], acc[i + 2], acc[i + 3], out + i);
  for (; i < R * C; ++i) out[i] = sum_lanes(acc[i]);
}

// Rows [b, b + R) × outputs [n, n + C) of y, from dot_block's sums.
template <int R, int C>
PERFLAB_INT8_INLINE void output_block(float* y, const std::int16_t* x16, const ActivationQuant& xp,
                                      const Int8Weights& w, const float* scale,
                                      const float* bias, size_t b, size_t n) {
  const size_t S = w.stride, N = w.out;
  std::int32_t sums[R * C];
  dot_block<R, C>(x16 + b * S, w.code.data() + n * S, S, sums);
  for (int r = 0; r < R; ++r) {
    for (int c = 0; c < C; ++c) {
      const std::int32_t acc = sums[r * C + c] - xp.zero_point * w.code_sum[n + c];
      y[(b + r) * N + n + c] = dequantize(acc, scale[n + c], bias, n + c);
    }
  }
}

void int8_simd(float* y, const std::uint8_t* xq, const ActivationQuant& xp,
               const Int8Weights& w, const float* bias, size_t B) {
  const size_t K = w.in, N = w.out, S = w.stride;
  const std::vector<float> scale = output_scales(xp, w);
  // x's codes as int16 (B, S), the padding zeros: widened once here, B·K work, instead of
  // once per output in the loop.
  std::vector<std::int16_t> x16(B * S, 0);
  for (size_t b = 0; b < B; ++b) {
    for (size_t k = 0; k < K; ++k) x16[b * S + k] = xq[b * K + k];
  }
  constexpr int kRows = 4, kCols = 2;  // the main block
  constexpr int kSingleCols = 4;       // one row at a time: batch 1 and leftover rows
  size_t b = 0;
  for (; b + kRows <= B; b += kRows) {
    size_t n = 0;
    for (; n + kCols <= N; n += kCols) {
      output_block<kRows, kCols>(y, x16.data(), xp, w, scale.data(), bias, b, n);
    }
    for (; n < N; ++n) output_block<kRows, 1>(y, x16.data(), xp, w, scale.data(), bias, b, n);
  }
  for (; b < B; ++b) {
    size_t n = 0;
    for (; n + kSingleCols <= N; n += kSingleCols) {
      output_block<1, kSingleCols>(y, x16.data(), xp, w, scale.data(), bias, b, n);
    }
    for (; n < N; ++n) output_block<1, 1>(y, x16.data(), xp, w, scale.data(), bias, b, n);
  }
}

std::string variant_names() {
  std::string s;
  for (const auto& v : int8_linear_variants()) s += (s.empty() ? "" : ", ") + v.name;
  return s;
}

void check_dimension(size_t v, const char* name) {
  if (v < 1 || v > kMaxInt8Dimension) {
    throw ValueError(std::string(name) + " must be between 1 and " +
                     std::to_string(kMaxInt8Dimension) + ", got " + std::to_string(v));
  }
}

// What the probe's chains read and write through, so nothing is known at compile time.
volatile std::int32_t g_int8_seed = 0x00030001;  // int16 lanes 1 and 3
volatile std::int32_t g_int8_sink[kInt8PeakChains];

}  // namespace

#if defined(__GNUC__)
__attribute__((noinline))
#endif
void int8_peak_chains(long steps) {
  // acc = w + dot(acc, w): each chain reads its accumulator once, so with SSE2's two-operand
  // instructions a step is one pmaddwd and one paddd in place. 10 chains: a chain's step takes
  // about 4 cycles (the multiply-add's latency, then the add's), so 8 keep two multiply-add
  // pipes busy; with 12 or 14 GCC spilled accumulators to the stack inside the loop and the
  // figure fell below the kernel's own rate (measured: 8 chains 75-81, 10 chains 89-92, 12
  // chains 44-49 Gop/s natively on the 2-vCPU machine).
  const std::int32_t seed = g_int8_seed;
  const i16x8 w = as_i16(splat_i32(seed));
  const i32x4 w32 = as_i32(w);
  i32x4 acc[kInt8PeakChains];
  for (int c = 0; c < kInt8PeakChains; ++c) acc[c] = splat_i32(seed + c);
  for (long s = 0; s < steps; ++s) {
    for (int c = 0; c < kInt8PeakChains; ++c) acc[c] = dot_add(as_i16(acc[c]), w, w32);
  }
  // Lane 0 of each (the lanes' sum could overflow: the sums have wrapped).
  for (int c = 0; c < kInt8PeakChains; ++c) g_int8_sink[c] = lane0(acc[c]);
}

Int8Weights quantize_weights(const float* w, size_t K, size_t N) {
  if (K == 0 || N == 0) {
    throw ValueError("an int8 weight needs at least one row and column, got (" +
                     std::to_string(K) + ", " + std::to_string(N) + ")");
  }
  if (K > kMaxInt8K) {
    throw ValueError("an int8 weight has at most " + std::to_string(kMaxInt8K) +
                     " inputs (more could overflow the int32 sums), got " + std::to_string(K));
  }
  Int8Weights q;
  q.in = K;
  q.out = N;
  q.stride = Int8Weights::stride_for(K);
  q.code.assign(N * q.stride, 0);
  q.scale.assign(N, 1.0f);
  q.code_sum.assign(N, 0);
  for (size_t n = 0; n < N; ++n) {
    float max_abs = 0.0f;
    for (size_t k = 0; k < K; ++k) {
      const float v = w[k * N + n];
      if (!std::isfinite(v)) {
        throw ValueError("int8 quantization needs finite weights, got " + format_number(v) +
                         " at (" + std::to_string(k) + ", " + std::to_string(n) + ")");
      }
      max_abs = std::max(max_abs, std::fabs(v));
    }
    const float scale = max_abs / 127.0f;
    // A zero column keeps scale 1 and codes 0; so does one whose largest weight is so small
    // (below about 1e-43) that its scale underflows to 0, where w / scale would be NaN.
    if (!(scale > 0.0f)) continue;
    q.scale[n] = scale;
    std::int8_t* codes = q.code.data() + n * q.stride;
    std::int32_t sum = 0;
    for (size_t k = 0; k < K; ++k) {
      const float c = std::clamp(round_even(w[k * N + n] / scale), -127.0f, 127.0f);
      codes[k] = static_cast<std::int8_t>(c);
      sum += codes[k];
    }
    q.code_sum[n] = sum;
  }
  return q;
}

void dequantize_weights(float* w, const Int8Weights& q) {
  for (size_t k = 0; k < q.in; ++k) {
    for (size_t n = 0; n < q.out; ++n) {
      w[k * q.out + n] = static_cast<float>(q.code[n * q.stride + k]) * q.scale[n];
    }
  }
}

ActivationQuant activation_quant_params(float lo, float hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    throw ValueError("an activation range must be finite, got [" + format_number(lo) + ", " +
                     format_number(hi) + "]");
  }
  if (hi < lo) {
    throw ValueError("an activation range needs lo <= hi, got [" + format_number(lo) + ", " +
                     format_number(hi) + "]: give the smallest and the largest value seen");
  }
  const double l = std::min<double>(lo, 0.0), h = std::max<double>(hi, 0.0);
  ActivationQuant p;
  if (h == l) return p;  // only 0: scale 1, zero point 0
  const double scale = (h - l) / 255.0;
  p.scale = static_cast<float>(scale);
  p.zero_point = static_cast<std::int32_t>(std::clamp(std::nearbyint(-l / scale), 0.0, 255.0));
  return p;
}

void quantize_activations(const float* x, size_t n, const ActivationQuant& params,
                          std::uint8_t* out) {
  using namespace detail;
  // Clamped to ±255 before rounding, so that round_even's |v| < 2^22 holds for any x; the
  // bounds are whole numbers, so this gives the same code as rounding first. A NaN fails
  // every comparison and ends at the lowest code: max(v, lo) returns lo for a NaN v on SSE2,
  // wasm and the scalar lanes (simd.hpp's NaN rule), and the final conversion maps a NaN
  // that got through (NEON) to 0. Four lanes at a time: the division is most of the cost,
  // and it is what an int8 Linear pays per input element before its integer product.
  const float scale = params.scale;
  const float zero_point = static_cast<float>(params.zero_point);
  size_t i = 0;
  const f32x4 vscale = splat(scale), vzero_point = splat(zero_point);
  const f32x4 lowest = splat(-255.0f), highest = splat(255.0f), none = splat(0.0f);
  for (; i + kLanes <= n; i += kLanes) {
    f32x4 v = min(max(div(loadu(x + i), vscale), lowest), highest);
    v = min(max(add(round_nearest(v), vzero_point), none), highest);
    store_codes4(out + i, v);
  }
  for (; i < n; ++i) {
    float v = x[i] / scale;
    v = v > 255.0f ? 255.0f : (v >= -255.0f ? v : -255.0f);
    v = round_even(v) + zero_point;
    v = v > 255.0f ? 255.0f : (v > 0.0f ? v : 0.0f);
    out[i] = to_code(v);
  }
}

std::vector<double> int8_linear_error_bounds(const float* x, const float* w, const float* bias,
                                             size_t B, size_t K, size_t N,
                                             const ActivationQuant& xp, const Int8Weights& q) {
  std::vector<double> bound(B * N);
  const double sx = xp.scale;
  for (size_t b = 0; b < B; ++b) {
    for (size_t n = 0; n < N; ++n) {
      const double sw = q.scale[n];
      double quantization = 0.0, magnitude = 0.0;
      for (size_t k = 0; k < K; ++k) {
        const double xv = std::fabs(x[b * K + k]), wv = std::fabs(w[k * N + n]);
        quantization += 0.5 * sx * wv + 0.5 * sw * xv + 0.25 * sx * sw;
        magnitude += xv * wv;
      }
      if (bias) magnitude += std::fabs(bias[n]);
      bound[b * N + n] = quantization + 1e-5 * (magnitude + quantization);
    }
  }
  return bound;
}

const std::vector<Int8LinearVariant>& int8_linear_variants() {
  static const std::vector<Int8LinearVariant> variants = {
      {"naive",
       "for each batch row and output, a scalar int32 sum of code products over the inputs "
       "(the reference)",
       int8_naive},
      {"simd",
       "codes widened to 16 bits, then blocks of four batch rows by two outputs accumulate "
       "eight products per SIMD multiply-add into int32 sums, each weight vector reused by "
       "four rows and each input vector by two outputs",
       int8_simd},
  };
  return variants;
}

const Int8LinearVariant& find_int8_linear_variant(std::string_view name) {
  for (const auto& v : int8_linear_variants()) {
    if (v.name == name) return v;
  }
  throw ValueError("unknown int8 variant '" + std::string(name) + "'; known variants: " +
                   variant_names());
}

Int8LinearMeasurement measure_int8_linear(std::string_view variant, size_t batch, size_t in,
                                          size_t out, const TimerOptions& options,
                                          Clock& clock) {
  const Int8LinearVariant& v = find_int8_linear_variant(variant);
  check_dimension(batch, "batch");
  check_dimension(in, "in");
  check_dimension(out, "out");
  options.validate();
  const std::string what = v.name + " int8 Linear " + std::to_string(in) + "→" +
                           std::to_string(out) + " at batch " + std::to_string(batch);
  check_call_fits_budget(cost_matmul(batch, in, out).flops, what, options);

  const Tensor x = Tensor::random({batch, in}, 0x5EED0021);
  const Tensor w = Tensor::random({in, out}, 0x5EED0022);
  const Int8Weights q = quantize_weights(w.data(), in, out);
  const auto [lo, hi] = std::minmax_element(x.data(), x.data() + x.size());
  const ActivationQuant xp = activation_quant_params(*lo, *hi);
  std::vector<std::uint8_t> xq(batch * in);
  quantize_activations(x.data(), xq.size(), xp, xq.data());

  // Verify before timing, on the first and the last rows (all of them up to
  // kInt8VerifiedRows): the naive kernel treats rows independently, so its result on a few
  // rows is the variant's on those rows, bit for bit.
  Tensor y({batch, out});
  v.kernel(y.data(), xq.data(), xp, q, nullptr, batch);
  std::vector<size_t> rows;
  for (size_t b = 0; b < batch; ++b) {
    if (b < kInt8VerifiedRows / 2 || b + kInt8VerifiedRows / 2 >= batch) rows.push_back(b);
  }
  std::vector<float> x_rows(rows.size() * in);
  std::vector<std::uint8_t> xq_rows(rows.size() * in);
  for (size_t i = 0; i < rows.size(); ++i) {
    std::copy_n(x.data() + rows[i] * in, in, x_rows.data() + i * in);
    std::copy_n(xq.data() + rows[i] * in, in, xq_rows.data() + i * in);
  }
  std::vector<float> reference(rows.size() * out);
  int8_linear_variants().front().kernel(reference.data(), xq_rows.data(), xp, q, nullptr,
                                        rows.size());
  const std::vector<double> bound =
      int8_linear_error_bounds(x_rows.data(), w.data(), nullptr, rows.size(), in, out, xp, q);
  Int8LinearMeasurement m;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (size_t n = 0; n < out; ++n) {
      const float got = y.data()[rows[i] * out + n];
      if (std::memcmp(&got, &reference[i * out + n], sizeof got) != 0) {
        char text[240];
        std::snprintf(text, sizeof text,
                      "int8 variant '%s' differs from the naive kernel at batch %zu, %zu→%zu: "
                      "y[%zu, %zu] is %.9g, naive gives %.9g (the int32 sums are exact, so "
                      "they must agree bit for bit)",
                      v.name.c_str(), batch, in, out, rows[i], n, static_cast<double>(got),
                      static_cast<double>(reference[i * out + n]));
        throw Error(text);
      }
      double exact = 0.0;
      for (size_t k = 0; k < in; ++k) {
        exact += static_cast<double>(x_rows[i * in + k]) * w.data()[k * out + n];
      }
      const double error = std::fabs(got - exact);
      m.max_abs_error = std::max(m.max_abs_error, error);
      m.max_error_to_bound = std::max(m.max_error_to_bound, error / bound[i * out + n]);
    }
  }
  if (!(m.max_error_to_bound <= 1.0)) {
    char text[240];
    std::snprintf(text, sizeof text,
                  "int8 variant '%s' strays from the float product at batch %zu, %zu→%zu: its "
                  "largest error is %.3g times the quantization error bound (at most 1)",
                  v.name.c_str(), batch, in, out, m.max_error_to_bound);
    throw Error(text);
  }

  m.variant = v.name;
  m.batch = batch;
  m.in = in;
  m.out = out;
  m.int8_bytes = q.bytes();
  m.float32_bytes = 4 * in * out;
  m.flops = cost_matmul(batch, in, out).flops;
  m.verified_rows = rows.size();
  Tensor dense({batch, out});
  const MatmulKernel packed = find_matmul_variant(kDefaultMatmulVariant).kernel;
  Timer timer(clock);
  timer.options(options);
  m.int8 = timer.run([&] {
    quantize_activations(x.data(), xq.size(), xp, xq.data());
    v.kernel(y.data(), xq.data(), xp, q, nullptr, batch);
  });
  m.float32 = timer.run([&] { packed(dense.data(), x.data(), w.data(), batch, in, out); });
  m.speedup = m.int8.median_ms > 0 ? m.float32.median_ms / m.int8.median_ms : 0.0;
  return m;
}

nlohmann::json to_json(const Int8LinearMeasurement& m) {
  return {{"variant", m.variant},
          {"batch", m.batch},
          {"in", m.in},
          {"out", m.out},
          {"int8_bytes", m.int8_bytes},
          {"float32_bytes", m.float32_bytes},
          {"flops", m.flops},
          {"verified_rows", m.verified_rows},
          {"max_abs_error", m.max_abs_error},
          {"max_error_to_bound", m.max_error_to_bound},
          {"speedup", m.speedup},
          {"int8", to_json(m.int8)},
          {"float32", to_json(m.float32)}};
}

}  // namespace perflab
