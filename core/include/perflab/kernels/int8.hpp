// An int8 quantized Linear layer: Linear's weight W (K, N) (y = x·W + b) stored as int8 codes
// with one scale per output channel, activations as uint8 codes with a scale and a zero point
// from a calibrated range, and the product accumulated exactly in int32, then dequantized.
// Variants in one list, the naive loop first: every other is checked bit for bit against it
// and against the float product within the quantization error bound before it is timed.
// measure_int8_linear times a variant and the float packed matmul on the same inputs in one
// call, so the speedup and the weight bytes saved are read from one run.
// Not for: quantization-aware training, per-tensor or asymmetric weights, int8 outputs.
//
// Dimensions: B batch rows, K inputs (Linear's in), N outputs (Linear's out).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/timing/timer.hpp"

namespace perflab {

// Codes are padded along K to a multiple of this: one 16-byte vector of int8 codes.
inline constexpr std::size_t kInt8KBlock = 16;
// The largest K whose int32 sum cannot overflow: |Σ (x − zx)·w| <= K·255·127 < 2^31.
inline constexpr std::size_t kMaxInt8K = 65536;

// Per-output-channel symmetric int8 weights. For output n, scale[n] = max_k |W[k, n]| / 127
// and code[n, k] = round(W[k, n] / scale[n]) (to nearest, ties to even) clamped to
// [-127, 127]; -128 is never used, so the range is symmetric and negating a code is exact.
// A column of zeros (or one whose scale would underflow to 0: all |w| below about 1e-43)
// gets scale 1 and all-zero codes. Dequantized, each weight is within
// scale[n] / 2 of the original (up to float rounding of the division, a few ulps).
// Why per channel: one large column would set a per-tensor scale for every column and leave
// the small ones with a handful of codes; per channel each column uses all 255.
// Layout: transposed, (N, stride), stride = K rounded up to kInt8KBlock, the padding zeros:
// the kernel's dot products then read each output's codes contiguously, 16 at a time, with
// no remainder loop (a zero code contributes nothing, whatever the padded x holds).
struct Int8Weights {
  // K rounded up to kInt8KBlock: the row length of the codes.
  static constexpr std::size_t stride_for(std::size_t K) {
    return (K + kInt8KBlock - 1) / kInt8KBlock * kInt8KBlock;
  }
  // bytes() of a (K, N) weight, before quantizing one.
  static constexpr std::size_t bytes_for(std::size_t K, std::size_t N) {
    return N * stride_for(K) + 4 * N + 4 * N;
  }

  std::size_t in = 0, out = 0;          // K, N
  std::size_t stride = 0;               // K rounded up to kInt8KBlock
  std::vector<std::int8_t> code;        // (N, stride)
  std::vector<float> scale;             // (N)
  std::vector<std::int32_t> code_sum;   // (N): Σ_k code[n, k], for the zero-point correction
  // What the kernel reads of the weights: the padded codes, a 4-byte scale and a 4-byte code
  // sum per output (bytes_for(in, out)).
  std::size_t bytes() const { return code.size() + 4 * scale.size() + 4 * code_sum.size(); }
};

// From a dense row-major W (K, N). ValueError when K or N is 0, K passes kMaxInt8K, or a
// weight is not finite.
Int8Weights quantize_weights(const float* w, std::size_t K, std::size_t N);
// Back to a dense row-major W (K, N): code · scale (for checking the error, and for the page).
void dequantize_weights(float* w, const Int8Weights& q);

// Activations: asymmetric, uint8 codes with a zero point, x ≈ (code − zero_point) · scale.
// Why uint8 rather than int8 with a zero point (the two have the same 256 levels): the SIMD
// kernel widens codes to int16 before multiplying (pmaddwd / i32x4.dot_i16x8_s take int16),
// and widening uint8 is one instruction on SSE2 (unpack with zeros) where sign-extending int8
// takes two (unpack, then an arithmetic shift); in wasm both are one. uint8 activations times
// int8 weights is also the pairing x86's VNNI (vpdpbusd) multiplies directly, and
// TFLite's and ONNX's QLinear convention. The activations are widened once per call and
// reused across every output, so their widening is off the inner loop either way.
struct ActivationQuant {
  float scale = 1.0f;
  std::int32_t zero_point = 0;  // in [0, 255]: the code of 0.0, which is exact
};

// Scale and zero point for a calibrated range [lo, hi]. The range is first widened to include
// 0 (as TFLite does), so that 0 (ReLU's zeros, padding) has an exact code; then
// scale = (hi − lo) / 255 and zero_point = round(−lo / scale). A range of only 0 gets scale 1,
// zero point 0. Inside [lo, hi] every x is within scale / 2 of its dequantized code (up to
// float rounding); outside it the code saturates at 0 or 255 and the error grows with the
// distance. [0, 6] gives scale 6/255, zero point 0; [-1, 3] gives 4/255 and 64.
// ValueError when lo or hi is not finite or hi < lo.
ActivationQuant activation_quant_params(float lo, float hi);
// out[i] = clamp(round(x[i] / scale) + zero_point, 0, 255), rounding to nearest, ties to even;
// a NaN gets code 0.
void quantize_activations(const float* x, std::size_t n, const ActivationQuant& params,
                          std::uint8_t* out);

// y (B, N) = x·W + bias, from xq (B, K) uint8 codes (row-major, unpadded) and the weights:
//   acc[b, n] = Σ_k xq[b, k] · code[n, k] − zero_point · code_sum[n]     (int32, exact)
//             = Σ_k (xq[b, k] − zero_point) · code[n, k]
//   y[b, n]   = float(acc) · (x scale · scale[n]) + bias[n]
// The zero point is folded into the precomputed code sums, so the inner loop is a plain
// integer dot product. bias may be null (then 0 is added). y overwritten.
using Int8LinearKernel = void (*)(float* y, const std::uint8_t* xq, const ActivationQuant& xp,
                                  const Int8Weights& w, const float* bias, std::size_t B);

struct Int8LinearVariant {
  std::string name;         // "naive", "simd"
  std::string description;  // one sentence for the page
  Int8LinearKernel kernel;
};
// naive  for each batch row and output, a scalar int32 sum over K (the reference);
// simd   x's codes widened once to int16, then blocks of four batch rows × two outputs (one
//        row × four at batch 1 and for leftover rows) accumulate in int32 vectors: each 16
//        weight codes are loaded and sign-extended once and multiplied with four rows, each
//        row's 16 codes with two outputs, by pmaddwd (SSE2) or i32x4.dot_i16x8_s (wasm), which
//        multiply eight int16 pairs and add adjacent products into four int32 lanes. Without
//        SIMD (the scalar build, and NEON for now) the same blocks run on plain int lanes.
// Both give bit-identical y: the int32 sums are exact and the dequantization is the same
// float operations in the same order.
const std::vector<Int8LinearVariant>& int8_linear_variants();
// ValueError listing the names.
const Int8LinearVariant& find_int8_linear_variant(std::string_view name);

// The most the quantized product can differ from the exact x·W + bias at each output, for x
// inside the range params were calibrated on: with |x̂ − x| <= sx/2 and |ŵ − w| <= sw[n]/2,
//   |x̂·ŵ − x·w| <= sx/2·|w| + sw[n]/2·|x| + sx·sw[n]/4   summed over k,
// plus 1e-5 of Σ_k |x·w| + |bias| + that sum, for the float rounding of the dequantization.
// x (B, K) and W (K, N) the float originals; bias may be null. Returns (B, N), row-major.
std::vector<double> int8_linear_error_bounds(const float* x, const float* w, const float* bias,
                                             std::size_t B, std::size_t K, std::size_t N,
                                             const ActivationQuant& xp, const Int8Weights& q);

// Sizes the lab measures: each dimension from 1 to this.
inline constexpr std::size_t kMaxInt8Dimension = 4096;
// measure_int8_linear checks at most this many batch rows against the naive kernel and the
// double-precision product (the first half and the last half, where the blocks' leftover rows
// run): at 4096³ the scalar reference over every row would take a minute in a browser.
inline constexpr std::size_t kInt8VerifiedRows = 32;

// One point: y = x·W at batch B with W (K, N) and x (B, K) random in [-1, 1] (seeded), the
// activations calibrated on x's own min and max. Verified, then timed with the same options:
//   int8     quantize x (B·K) and run the variant: what an int8 Linear costs given float x;
//   float32  the packed float matmul (the default) on the same x and W.
// No bias on either side: the product alone, as measure_sparse_linear.
struct Int8LinearMeasurement {
  std::string variant;
  std::size_t batch = 0, in = 0, out = 0;
  std::size_t int8_bytes = 0;     // the weights as the int8 kernel reads them (Int8Weights::bytes)
  std::size_t float32_bytes = 0;  // 4·K·N
  double flops = 0;               // 2·B·K·N, the same count for both (multiply-adds)
  std::size_t verified_rows = 0;  // batch rows checked against naive and the exact product
  double max_abs_error = 0;       // max |y − x·W| over the verified rows (x·W in double)
  double max_error_to_bound = 0;  // max of |y − x·W| / int8_linear_error_bounds: at most 1
  double speedup = 0;             // float32 median / int8 median: above 1, int8 is faster
  Stats int8, float32;
};
// ValueError: a dimension outside [1, kMaxInt8Dimension], an unknown variant, a call that
// cannot fit the time budget; Error when the variant differs from naive by a single bit or
// strays outside the error bound.
Int8LinearMeasurement measure_int8_linear(std::string_view variant, std::size_t batch,
                                          std::size_t in, std::size_t out,
                                          const TimerOptions& options,
                                          Clock& clock = default_clock());
// {variant, batch, in, out, int8_bytes, float32_bytes, flops, verified_rows, max_abs_error,
//  max_error_to_bound, speedup, int8: stats, float32: stats}.
nlohmann::json to_json(const Int8LinearMeasurement& m);

// The integer peak's loop, for the machine probe (roofline/probe.hpp probe_peak_int8): the
// simd variant's multiply-add (eight int16 products summed in adjacent pairs into four int32
// lanes, then added to the accumulator) in kInt8PeakChains independent chains, `steps` times,
// in registers only. Each chain multiplies its own accumulator's bits, so no step can be
// hoisted or folded; the sums wrap and are thrown away (written to a volatile). Counted as
// kInt8PeakOpsPerStep integer ops per chain and step: 8 multiplies and 8 adds, as 2·B·K·N
// counts the int8 Linear's. In the scalar build the lanes are plain ints, as in the kernel.
inline constexpr int kInt8PeakChains = 10;
inline constexpr double kInt8PeakOpsPerStep = 16;
void int8_peak_chains(long steps);

}  // namespace perflab
