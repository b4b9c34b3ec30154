// The int8 Linear (kernels/int8.hpp): weight codes and scales worked by hand, the scale/2
// error bound on random weights and activations, a zero column, per-channel against
// per-tensor scales, activation parameters for hand-picked ranges and the refused ones,
// products worked by hand (zero point included), every variant bit for bit against naive at
// shapes around the blocks and the 16-code padding, against a double-precision product
// within the error bound, and the measurement's fields (on a tiny real budget; no time
// asserted) and refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/tensor/tensor.hpp"
#include "timer_helpers.hpp"

using namespace perflab;

namespace {

// Largest |dequantized − original| in each column of W (K, N).
std::vector<double> column_errors(const std::vector<float>& w, const std::vector<float>& back,
                                  std::size_t K, std::size_t N) {
  std::vector<double> e(N, 0.0);
  for (std::size_t k = 0; k < K; ++k) {
    for (std::size_t n = 0; n < N; ++n) {
      e[n] = std::max(e[n], std::fabs(static_cast<double>(back[k * N + n]) - w[k * N + n]));
    }
  }
  return e;
}

// y = x·W + bias in double, x (B, K), W (K, N).
std::vector<double> exact_product(const float* x, const float* w, const float* bias,
                                  std::size_t B, std::size_t K, std::size_t N) {
  std::vector<double> y(B * N, 0.0);
  for (std::size_t b = 0; b < B; ++b) {
    for (std::size_t n = 0; n < N; ++n) {
      double s = bias ? bias[n] : 0.0;
      for (std::size_t k = 0; k < K; ++k) s += static_cast<double>(x[b * K + k]) * w[k * N + n];
      y[b * N + n] = s;
    }
  }
  return y;
}

}  // namespace

TEST_CASE("Int8 weight codes and scales of a hand-set matrix, transposed and padded") {
  // W (K=3, N=3): column 0 has max 127 (scale 1), column 1 is zero, column 2 has max 254
  // (scale 2). Ties round to even: -3.5 → -4, 2.5 → 2, 1/2 → 0, 3/2 → 2.
  const std::vector<float> w = {127, 0, -254,  //
                                -3.5f, 0, 1,   //
                                2.5f, 0, 3};
  const Int8Weights q = quantize_weights(w.data(), 3, 3);
  CHECK(q.in == 3);
  CHECK(q.out == 3);
  CHECK(q.stride == 16);
  REQUIRE(q.code.size() == 3 * 16);
  CHECK(q.scale == std::vector<float>{1, 1, 2});
  const auto row = [&](std::size_t n) {
    return std::vector<int>(q.code.begin() + static_cast<long>(n * 16),
                            q.code.begin() + static_cast<long>(n * 16 + 16));
  };
  CHECK(row(0) == std::vector<int>{127, -4, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(row(1) == std::vector<int>(16, 0));
  CHECK(row(2) == std::vector<int>{-127, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(q.code_sum == std::vector<std::int32_t>{125, 0, -125});
  CHECK(q.bytes() == 3 * 16 + 4 * 3 + 4 * 3);
  std::vector<float> back(9);
  dequantize_weights(back.data(), q);
  CHECK(back == std::vector<float>{127, 0, -254, -4, 0, 0, 2, 0, 4});

  CHECK_THROWS_WITH_AS(quantize_weights(w.data(), 0, 3),
                       "an int8 weight needs at least one row and column, got (0, 3)",
                       ValueError);
  const std::vector<float> bad = {1, std::numeric_limits<float>::quiet_NaN()};
  CHECK_THROWS_WITH_AS(quantize_weights(bad.data(), 1, 2),
                       "int8 quantization needs finite weights, got NaN at (0, 1)", ValueError);
}

TEST_CASE("Each dequantized weight is within half its channel's scale; a zero column stays zero") {
  const std::size_t K = 53, N = 11;
  Tensor t = Tensor::random({K, N}, 21);
  // Row 5 scaled differently per column, so the scales differ; column 7 all zeros.
  for (std::size_t n = 0; n < N; ++n) t.data()[5 * N + n] *= static_cast<float>(n + 1);
  for (std::size_t k = 0; k < K; ++k) t.data()[k * N + 7] = 0.0f;
  const std::vector<float> w(t.data(), t.data() + t.size());
  const Int8Weights q = quantize_weights(w.data(), K, N);
  std::vector<float> back(K * N);
  dequantize_weights(back.data(), q);
  const std::vector<double> error = column_errors(w, back, K, N);
  for (std::size_t n = 0; n < N; ++n) {
    CAPTURE(n);
    double max_abs = 0.0;
    for (std::size_t k = 0; k < K; ++k) {
      max_abs = std::max<double>(max_abs, std::fabs(w[k * N + n]));
    }
    if (n == 7) {
      CHECK(q.scale[n] == 1.0f);
      CHECK(error[n] == 0.0);
      CHECK(std::all_of(q.code.begin() + static_cast<long>(n * q.stride),
                        q.code.begin() + static_cast<long>((n + 1) * q.stride),
                        [](std::int8_t c) { return c == 0; }));
      continue;
    }
    CHECK(q.scale[n] == doctest::Approx(max_abs / 127.0).scale(0));
    CHECK(error[n] <= 0.5 * q.scale[n] * (1.0 + 1e-6));
    // The largest weight of the column maps to ±127: the whole code range is used.
    int widest = 0;
    for (std::size_t k = 0; k < K; ++k) {
      widest = std::max(widest, std::abs(int{q.code[n * q.stride + k]}));
    }
    CHECK(widest == 127);
  }
}

TEST_CASE("Per-channel scales lose less than one per-tensor scale when one column is large") {
  const std::size_t K = 64, N = 8;
  Tensor t = Tensor::random({K, N}, 22);
  for (std::size_t k = 0; k < K; ++k) t.data()[k * N + 3] *= 100.0f;  // one large column
  const std::vector<float> w(t.data(), t.data() + t.size());
  const Int8Weights q = quantize_weights(w.data(), K, N);
  std::vector<float> per_channel(K * N);
  dequantize_weights(per_channel.data(), q);
  // One scale for the whole matrix, the same rounding.
  float max_abs = 0.0f;
  for (const float v : w) max_abs = std::max(max_abs, std::fabs(v));
  const float scale = max_abs / 127.0f;
  std::vector<float> per_tensor(K * N);
  for (std::size_t i = 0; i < w.size(); ++i) per_tensor[i] = std::nearbyint(w[i] / scale) * scale;
  double channel_error = 0.0, tensor_error = 0.0;
  for (std::size_t i = 0; i < w.size(); ++i) {
    channel_error += std::fabs(per_channel[i] - w[i]);
    tensor_error += std::fabs(per_tensor[i] - w[i]);
  }
  CAPTURE(channel_error);
  CAPTURE(tensor_error);
  // The small columns keep about 100 times finer steps: the total error falls by far more
  // than half (the large column's own error is the same in both).
  CHECK(channel_error < 0.5 * tensor_error);
  const std::vector<double> ce = column_errors(w, per_channel, K, N);
  const std::vector<double> te = column_errors(w, per_tensor, K, N);
  CHECK(ce[0] < te[0] / 10);
}

TEST_CASE("Activation scale and zero point from a calibrated range; bad ranges are sentences") {
  const ActivationQuant relu6 = activation_quant_params(0.0f, 6.0f);
  CHECK(relu6.scale == doctest::Approx(6.0 / 255));
  CHECK(relu6.zero_point == 0);
  const ActivationQuant skewed = activation_quant_params(-1.0f, 3.0f);
  CHECK(skewed.scale == doctest::Approx(4.0 / 255));
  CHECK(skewed.zero_point == 64);  // round(1 / (4/255)) = round(63.75)
  // Widened to include 0: [1, 3] is [0, 3], [-2, -1] is [-2, 0]; only 0 gets scale 1.
  const ActivationQuant positive = activation_quant_params(1.0f, 3.0f);
  CHECK(positive.scale == doctest::Approx(3.0 / 255));
  CHECK(positive.zero_point == 0);
  CHECK(activation_quant_params(-2.0f, -1.0f).zero_point == 255);
  const ActivationQuant zero = activation_quant_params(0.0f, 0.0f);
  CHECK(zero.scale == 1.0f);
  CHECK(zero.zero_point == 0);

  CHECK_THROWS_WITH_AS(activation_quant_params(3.0f, -1.0f),
                       "an activation range needs lo <= hi, got [3, -1]: give the smallest and "
                       "the largest value seen",
                       ValueError);
  CHECK_THROWS_WITH_AS(activation_quant_params(0.0f, std::numeric_limits<float>::infinity()),
                       "an activation range must be finite, got [0, Infinity]", ValueError);
  CHECK_THROWS_AS(activation_quant_params(std::numeric_limits<float>::quiet_NaN(), 1.0f),
                  ValueError);
}

TEST_CASE("Activation codes by hand, saturating outside the range, within scale/2 inside it") {
  const ActivationQuant p = activation_quant_params(-1.0f, 3.0f);  // scale 4/255, zero point 64
  // Four at a time, then one at a time: a NaN in both parts, and the same values in both.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {0.0f, -1.0f, nan, 3.0f, 10.0f, -5.0f, nan, 1.0f, -0.0f};
  std::vector<std::uint8_t> q(x.size());
  quantize_activations(x.data(), x.size(), p, q.data());
  // 1 / (4/255) = 63.75 → 64, + 64 = 128.
  CHECK(q == std::vector<std::uint8_t>{64, 0, 0, 255, 255, 0, 0, 128, 64});
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::uint8_t one;
    quantize_activations(&x[i], 1, p, &one);
    CHECK(one == q[i]);
  }

  const Tensor r = Tensor::random({1001}, 23, -1.0f, 3.0f);
  std::vector<std::uint8_t> codes(r.size());
  quantize_activations(r.data(), r.size(), p, codes.data());
  double worst = 0.0;
  for (std::size_t i = 0; i < r.size(); ++i) {
    const double back = (static_cast<double>(codes[i]) - p.zero_point) * p.scale;
    worst = std::max(worst, std::fabs(back - r.data()[i]));
  }
  CHECK(worst <= 0.5 * p.scale * (1.0 + 1e-5));
  CHECK(worst > 0.4 * p.scale);  // 1000 values do come close to the bound: the test can fail
}

TEST_CASE("An int8 product worked by hand, with and without a zero point") {
  // W (K=3, N=2) with integer weights (scales 1 and 2), x integers: every step is exact.
  const std::vector<float> w = {127, -254,  //
                                -4, 2,      //
                                2, 6};
  const Int8Weights q = quantize_weights(w.data(), 3, 2);
  REQUIRE(q.scale == std::vector<float>{1, 2});
  const std::vector<float> x = {1, 2, 3,  //
                                -1, 0, 5};
  const std::vector<float> bias = {0.5f, -1.0f};
  // y = x·W + bias: [1·127 − 2·4 + 3·2, −254 + 4 + 18] + bias, [−127 + 10, 254 + 30] + bias.
  const std::vector<float> expected = {125.5f, -233.0f, -116.5f, 283.0f};
  // Range [0, 255] has scale 1 and zero point 0; [-128, 127] scale 1 and zero point 128,
  // which the code sums must take back out.
  struct Range {
    float lo, hi;
    int zero_point;
  };
  for (const Range& range : {Range{0.0f, 255.0f, 0}, Range{-128.0f, 127.0f, 128}}) {
    const int zero_point = range.zero_point;
    const ActivationQuant p = activation_quant_params(range.lo, range.hi);
    REQUIRE(p.scale == 1.0f);
    REQUIRE(p.zero_point == zero_point);
    std::vector<float> xs = x;
    if (zero_point == 0) std::replace(xs.begin(), xs.end(), -1.0f, 0.0f);  // saturates at 0
    std::vector<std::uint8_t> xq(xs.size());
    quantize_activations(xs.data(), xs.size(), p, xq.data());
    std::vector<float> want = expected;
    if (zero_point == 0) {  // row 1 with x = [0, 0, 5]
      want[2] = 10.5f;
      want[3] = 29.0f;
    }
    for (const Int8LinearVariant& v : int8_linear_variants()) {
      CAPTURE(v.name);
      CAPTURE(zero_point);
      std::vector<float> y(4, -7.0f);
      v.kernel(y.data(), xq.data(), p, q, bias.data(), 2);
      CHECK(y == want);
    }
  }
}

TEST_CASE("Every int8 variant matches naive bit for bit, and the exact product within the bound") {
  for (const std::size_t K : {1, 15, 16, 17, 40}) {
    for (const std::size_t N : {1, 2, 3, 5, 13}) {
      const Tensor w = Tensor::random({K, N}, 30 + K * 7 + N);
      const Tensor bias = Tensor::random({N}, 31 + N);
      const Int8Weights q = quantize_weights(w.data(), K, N);
      for (const std::size_t B : {1, 3, 4, 5, 17}) {
        CAPTURE(K);
        CAPTURE(N);
        CAPTURE(B);
        const Tensor x = Tensor::random({B, K}, 40 + B * 3 + K, -0.5f, 2.0f);
        const ActivationQuant p = activation_quant_params(-0.5f, 2.0f);
        std::vector<std::uint8_t> xq(B * K);
        quantize_activations(x.data(), xq.size(), p, xq.data());
        std::vector<float> reference(B * N);
        find_int8_linear_variant("naive").kernel(reference.data(), xq.data(), p, q, bias.data(), B);
        const std::vector<double> exact = exact_product(x.data(), w.data(), bias.data(), B, K, N);
        const std::vector<double> bound =
            int8_linear_error_bounds(x.data(), w.data(), bias.data(), B, K, N, p, q);
        double worst = 0.0;
        for (std::size_t i = 0; i < B * N; ++i) {
          worst = std::max(worst, std::fabs(reference[i] - exact[i]) / bound[i]);
        }
        CHECK(worst <= 1.0);
        for (const Int8LinearVariant& v : int8_linear_variants()) {
          CAPTURE(v.name);
          std::vector<float> y(B * N, std::numeric_limits<float>::quiet_NaN());
          v.kernel(y.data(), xq.data(), p, q, bias.data(), B);
          CHECK(std::memcmp(y.data(), reference.data(), y.size() * sizeof(float)) == 0);
        }
      }
    }
  }
  CHECK_THROWS_WITH_AS(find_int8_linear_variant("vnni"),
                       "unknown int8 variant 'vnni'; known variants: naive, simd", ValueError);
}

TEST_CASE("An int8 measurement counts bytes, verifies, times both kernels; refuses bad sizes") {
  const TimerOptions o = timer_test::tiny_timer();
  const Int8LinearMeasurement m = measure_int8_linear("simd", 5, 37, 13, o);
  CHECK(m.variant == "simd");
  CHECK(m.int8_bytes == 13 * 48 + 4 * 13 + 4 * 13);  // K = 37 padded to 48
  CHECK(m.float32_bytes == 4 * 37 * 13);
  CHECK(m.flops == 2.0 * 5 * 37 * 13);
  CHECK(m.verified_rows == 5);
  CHECK(m.max_abs_error > 0.0);
  CHECK(m.max_error_to_bound > 0.0);
  CHECK(m.max_error_to_bound <= 1.0);
  CHECK(m.int8.samples > 0);
  CHECK(m.float32.samples > 0);
  CHECK(m.speedup == doctest::Approx(m.float32.median_ms / m.int8.median_ms));
  const nlohmann::json j = to_json(m);
  CHECK(j["variant"] == "simd");
  CHECK(j["int8_bytes"] == m.int8_bytes);
  CHECK(j["verified_rows"] == 5);
  CHECK(j.contains("int8"));
  CHECK(j.contains("float32"));
  // Past kInt8VerifiedRows only the first and last 16 rows are checked.
  CHECK(measure_int8_linear("naive", 40, 8, 3, o).verified_rows == 32);

  CHECK_THROWS_WITH_AS(measure_int8_linear("simd", 0, 64, 32, o),
                       "batch must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_int8_linear("simd", 1, 64, 4097, o),
                       "out must be between 1 and 4096, got 4097", ValueError);
  CHECK_THROWS_AS(measure_int8_linear("int4", 1, 4, 4, o), ValueError);
}
