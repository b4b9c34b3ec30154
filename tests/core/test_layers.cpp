// Protects the layers: every forward against hand-computed values on tiny inputs and a
// double-precision reference on larger ones, every backward against central finite
// differences (dinput and each parameter), parameter and FLOP counts against hand-computed
// values (the course's Linear(128, 64), Linear(768, 3072) and 7×7 stride-2 convolution),
// shape and argument errors with their full messages, caching rules and the observer hook.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gradient_check.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/base/random.hpp"
#include "perflab/tensor/tensor.hpp"

using namespace perflab;
using perflab::testing::check_gradients;
using perflab::testing::GradientTolerance;

namespace {

void check_values(const Tensor& got, const std::vector<double>& expected, double eps = 1e-5) {
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("element " << i);
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(eps));
  }
}

// max |got − ref| / max |ref|, as matmul_relative_error but against doubles.
double relative_error(const Tensor& got, const std::vector<double>& ref) {
  REQUIRE(got.size() == ref.size());
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff = std::max(diff, std::fabs(got[i] - ref[i]));
    scale = std::max(scale, std::fabs(ref[i]));
  }
  return diff / scale;
}

void set_values(Tensor& t, const std::vector<float>& values) {
  REQUIRE(t.size() == values.size());
  for (std::size_t i = 0; i < values.size(); ++i) t[i] = values[i];
}

// Random values with |x| >= margin, for layers with a kink at 0 (ReLU): the finite
// difference must not straddle it.
Tensor away_from_zero(Shape shape, std::uint64_t seed, float margin = 0.1f) {
  Tensor t = Tensor::random(std::move(shape), seed);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (std::fabs(t[i]) < margin) t[i] = t[i] < 0 ? t[i] - margin : t[i] + margin;
  }
  return t;
}

// Double-precision references, written directly from the definitions.
std::vector<double> linear_reference(const Tensor& x, Linear& l) {
  const std::size_t in = l.in_features(), out = l.out_features(), rows = x.size() / in;
  std::vector<double> y(rows * out);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < out; ++j) {
      double sum = l.has_bias() ? l.bias()[j] : 0.0;
      for (std::size_t k = 0; k < in; ++k)
        sum += static_cast<double>(x[r * in + k]) * l.weight()[k * out + j];
      y[r * out + j] = sum;
    }
  return y;
}

std::vector<double> conv_reference(const Tensor& x, Conv2d& c) {
  const std::size_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  const std::size_t K = c.kernel(), S = c.stride(), P = c.padding(), F = c.out_channels();
  const std::size_t Ho = (H + 2 * P - K) / S + 1, Wo = (W + 2 * P - K) / S + 1;
  std::vector<double> y(N * F * Ho * Wo);
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t f = 0; f < F; ++f)
      for (std::size_t oh = 0; oh < Ho; ++oh)
        for (std::size_t ow = 0; ow < Wo; ++ow) {
          double sum = c.has_bias() ? c.bias()[f] : 0.0;
          for (std::size_t ch = 0; ch < C; ++ch)
            for (std::size_t i = 0; i < K; ++i)
              for (std::size_t j = 0; j < K; ++j) {
                const long ih = static_cast<long>(oh * S + i) - static_cast<long>(P);
                const long iw = static_cast<long>(ow * S + j) - static_cast<long>(P);
                if (ih < 0 || iw < 0 || ih >= static_cast<long>(H) || iw >= static_cast<long>(W))
                  continue;
                sum += static_cast<double>(x[((n * C + ch) * H + ih) * W + iw]) *
                       c.weight()[((f * C + ch) * K + i) * K + j];
              }
          y[((n * F + f) * Ho + oh) * Wo + ow] = sum;
        }
  return y;
}

std::vector<double> attention_reference(const Tensor& x, MultiHeadAttention& a) {
  const std::size_t B = x.dim(0), T = x.dim(1), D = x.dim(2), H = a.heads(), dh = D / H;
  const auto project = [&](const std::vector<double>& in, char which) {
    std::vector<double> out(B * T * D);
    for (std::size_t r = 0; r < B * T; ++r)
      for (std::size_t j = 0; j < D; ++j) {
        double sum = a.bias(which)[j];
        for (std::size_t k = 0; k < D; ++k) sum += in[r * D + k] * a.weight(which)[k * D + j];
        out[r * D + j] = sum;
      }
    return out;
  };
  const std::vector<double> xd(x.data(), x.data() + x.size());
  const auto q = project(xd, 'q'), k = project(xd, 'k'), v = project(xd, 'v');
  std::vector<double> ctx(B * T * D);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t h = 0; h < H; ++h)
      for (std::size_t t = 0; t < T; ++t) {
        std::vector<double> s(T);
        double max_s = -1e300, sum = 0;
        for (std::size_t u = 0; u < T; ++u) {
          double dot = 0;
          for (std::size_t j = 0; j < dh; ++j)
            dot += q[(b * T + t) * D + h * dh + j] * k[(b * T + u) * D + h * dh + j];
          s[u] = dot / std::sqrt(static_cast<double>(dh));
          max_s = std::max(max_s, s[u]);
        }
        for (auto& e : s) sum += (e = std::exp(e - max_s));
        for (std::size_t j = 0; j < dh; ++j) {
          double o = 0;
          for (std::size_t u = 0; u < T; ++u) o += s[u] / sum * v[(b * T + u) * D + h * dh + j];
          ctx[(b * T + t) * D + h * dh + j] = o;
        }
      }
  return project(ctx, 'o');
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Linear

TEST_CASE("Linear computes x·W + b with the weight laid out (in, out)") {
  Linear l(2, 3);
  set_values(l.weight(), {1, 2, 3, 4, 5, 6});
  set_values(l.bias(), {0.5f, -1, 0});
  const Tensor y = l.forward(Tensor({1, 2}, {1, 2}));
  CHECK(y.shape() == Shape{1, 3});
  check_values(y, {9.5, 11, 15});

  Linear no_bias(2, 3, false);
  set_values(no_bias.weight(), {1, 2, 3, 4, 5, 6});
  check_values(no_bias.forward(Tensor({2, 2}, {1, 2, -1, 0})), {9, 12, 15, -1, -2, -3});
}

TEST_CASE(
    "Linear applies to the last axis of any leading dimensions and matches a double reference") {
  Linear l(37, 19, true, 7);
  const Tensor x = Tensor::random({3, 5, 37}, 8);
  const Tensor y = l.forward(x);
  REQUIRE(y.shape() == Shape{3, 5, 19});
  CHECK(relative_error(y, linear_reference(x, l)) < 1e-5);
}

TEST_CASE("Linear backward matches finite differences for dinput, dweight and dbias") {
  Linear l(5, 4, true, 1);
  check_gradients(l, Tensor::random({3, 5}, 2), 3);
  Linear batched(3, 2, false, 4);
  check_gradients(batched, Tensor::random({2, 2, 3}, 5), 6);
}

TEST_CASE("Linear counts parameters and FLOPs by the course's convention") {
  CHECK(Linear(128, 64).parameter_count() == 8256);
  CHECK(Linear(128, 64).parameter_bytes() == 8256 * 4);
  CHECK(Linear(768, 3072).parameter_count() == 2362368);
  CHECK(Linear(1000, 500).parameter_count() == 500500);
  CHECK(Linear(128, 64, false).parameter_count() == 8192);

  Linear l(128, 64);
  const FlopCounts f = l.flops_per_sample({32, 128});
  CHECK(f.matmul == 16384);  // 2 · 128 · 64, whatever the batch
  CHECK(f.bias == 64);
  CHECK(f.elementwise == 0);
  CHECK(l.flops_per_sample({1, 128}) == f);
  // A sequence: one product per position.
  CHECK(l.flops_per_sample({2, 10, 128}).matmul == 163840);
  const FlopCounts b = l.backward_flops_per_sample({32, 128});
  CHECK(b.matmul == 32768);
  CHECK(b.bias == 64);
  CHECK(l.activation_bytes({32, 128}) == 32 * 64 * 4);
  CHECK(Linear(768, 3072).flops_per_sample({1, 768}).matmul == 4718592);
}

TEST_CASE("Linear rejects inputs whose features or rank do not fit") {
  Linear l(256, 10);
  CHECK_THROWS_WITH_AS(l.output_shape({64, 300}),
                       "Linear: input has 300 features, layer expects 256", ShapeError);
  CHECK_THROWS_WITH_AS(
      l.output_shape({256}),
      "Linear: input must have at least 2 dimensions (batch, ..., features), got shape (256)",
      ShapeError);
  // Inside a model (index set) a chain error names the spec field to change.
  l.set_index(2);
  CHECK_THROWS_WITH_AS(
      l.forward(Tensor({4, 300})),
      "layers[2].in is 256 but the previous layer gives 300 features; set layers[2].in to 300",
      ShapeError);
  CHECK_THROWS_WITH_AS(Linear(0, 3), "Linear: in must be a positive integer, got 0", ValueError);
  CHECK_THROWS_WITH_AS(Linear(3, 0), "Linear: out must be a positive integer, got 0", ValueError);
}

TEST_CASE("parameter initialisation is deterministic in the seed and bounded by 1/sqrt(fan_in)") {
  Linear a(16, 8, true, 42), b(16, 8, true, 42), c(16, 8, true, 43);
  CHECK(a.weight().to_vector() == b.weight().to_vector());
  CHECK(a.bias().to_vector() == b.bias().to_vector());
  CHECK(a.weight().to_vector() != c.weight().to_vector());
  for (std::size_t i = 0; i < a.weight().size(); ++i) CHECK(std::fabs(a.weight()[i]) <= 0.25f);
  c.reset_parameters(42);
  CHECK(c.weight().to_vector() == a.weight().to_vector());

  Conv2d conv(3, 4, 3);
  for (std::size_t i = 0; i < conv.weight().size(); ++i)
    CHECK(std::fabs(conv.weight()[i]) <= 1.0f / std::sqrt(27.0f));
}

TEST_CASE("parameters() names each parameter and its gradient, and zero_grad clears them") {
  Linear l(3, 2);
  auto params = l.parameters();
  REQUIRE(params.size() == 2);
  CHECK(params[0].name == "weight");
  CHECK(params[0].value == &l.weight());
  CHECK(params[0].grad == &l.dweight());
  CHECK(params[1].name == "bias");
  CHECK(params[1].grad->shape() == Shape{2});
  CHECK(Linear(3, 2, false).parameters().size() == 1);

  l.forward(Tensor::random({4, 3}, 1));
  l.backward(Tensor::full({4, 2}, 1.0f));
  CHECK(l.dbias()[0] == doctest::Approx(4.0));
  l.backward(Tensor::full({4, 2}, 1.0f));  // gradients accumulate
  CHECK(l.dbias()[0] == doctest::Approx(8.0));
  l.zero_grad();
  CHECK(l.dbias()[0] == 0.0f);
  CHECK(l.dweight()[0] == 0.0f);
}

// ---------------------------------------------------------------------------------------
// im2col, col2im, Conv2d

TEST_CASE(
    "im2col lays out patches as rows (c, i, j) by output positions, and col2im adds them back") {
  const Tensor x({1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor col({4, 4});
  im2col(col.data(), x.data(), 1, 3, 3, 2, 1, 0);
  check_values(col, {1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9});

  // Padding 1, stride 2: windows at (−1, −1), (−1, 1), (1, −1), (1, 1) of the image.
  Tensor padded({4, 4});
  im2col(padded.data(), x.data(), 1, 3, 3, 2, 2, 1);
  check_values(padded, {0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8, 1, 3, 7, 9});

  // col2im of ones counts how many patches cover each pixel.
  Tensor dx({1, 3, 3});
  col2im(dx.data(), Tensor::full({4, 4}, 1.0f).data(), 1, 3, 3, 2, 1, 0);
  check_values(dx, {1, 2, 1, 2, 4, 2, 1, 2, 1});

  CHECK(conv_output_size(224, 7, 2, 3) == 112);
  CHECK(conv_output_size(28, 3, 1, 1) == 28);
  CHECK_THROWS_WITH_AS(conv_output_size(3, 7, 1, 1),
                       "conv_output_size: kernel 7 is larger than the padded input 5 (3 with "
                       "padding 1)",
                       ValueError);
}

TEST_CASE("col2im is the adjoint of im2col: <im2col(x), y> equals <x, col2im(y)>") {
  struct Case {
    std::size_t C, H, W, k, stride, padding;
  };
  // 1s, primes, stride > 1, padding > 0, a kernel as large as the padded input (one
  // output), a kernel larger than the image itself (only the padding makes it fit), and a
  // stride that skips pixels entirely (they get no gradient).
  const Case cases[] = {{1, 1, 1, 1, 1, 0}, {1, 5, 7, 3, 1, 0},  {3, 7, 5, 3, 2, 1},
                        {2, 11, 13, 5, 3, 2}, {5, 4, 4, 1, 1, 0}, {1, 3, 3, 5, 1, 1},
                        {2, 6, 6, 8, 1, 1},  {3, 9, 9, 2, 4, 0},  {1, 1, 1, 3, 1, 1},
                        {4, 8, 3, 3, 2, 3}};
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    CAPTURE(c.C);
    CAPTURE(c.H);
    CAPTURE(c.W);
    CAPTURE(c.k);
    CAPTURE(c.stride);
    CAPTURE(c.padding);
    const std::size_t Ho = conv_output_size(c.H, c.k, c.stride, c.padding);
    const std::size_t Wo = conv_output_size(c.W, c.k, c.stride, c.padding);
    const Tensor x = Tensor::random({c.C, c.H, c.W}, ++seed);
    const Tensor y = Tensor::random({c.C * c.k * c.k, Ho * Wo}, ++seed);
    Tensor col({c.C * c.k * c.k, Ho * Wo});
    im2col(col.data(), x.data(), c.C, c.H, c.W, c.k, c.stride, c.padding);
    Tensor back = Tensor::full({c.C, c.H, c.W}, 0.0f);
    col2im(back.data(), y.data(), c.C, c.H, c.W, c.k, c.stride, c.padding);
    double lhs = 0, rhs = 0;
    for (std::size_t i = 0; i < col.size(); ++i) lhs += static_cast<double>(col[i]) * y[i];
    for (std::size_t i = 0; i < x.size(); ++i) rhs += static_cast<double>(x[i]) * back[i];
    CHECK(lhs == doctest::Approx(rhs).epsilon(1e-6));
  }
}

TEST_CASE("Conv2d matches hand-computed sums with and without padding and stride") {
  const Tensor x({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  Conv2d c(1, 1, 2, 1, 0, true);
  set_values(c.weight(), {1, 1, 1, 1});
  set_values(c.bias(), {0.5f});
  const Tensor y = c.forward(x);
  CHECK(y.shape() == Shape{1, 1, 2, 2});
  check_values(y, {12.5, 16.5, 24.5, 28.5});

  Conv2d strided(1, 1, 2, 2, 1, false);
  set_values(strided.weight(), {1, 1, 1, 1});
  check_values(strided.forward(x), {1, 5, 11, 28});
}

TEST_CASE("Conv2d matches a double-precision direct convolution") {
  Conv2d c(3, 5, 3, 2, 1, true, 11);
  const Tensor x = Tensor::random({2, 3, 9, 8}, 12);
  const Tensor y = c.forward(x);
  REQUIRE(y.shape() == Shape{2, 5, 5, 4});
  CHECK(relative_error(y, conv_reference(x, c)) < 1e-5);

  Conv2d wide(2, 9, 5, 1, 0, false, 13);
  const Tensor x2 = Tensor::random({1, 2, 7, 11}, 14);
  CHECK(relative_error(wide.forward(x2), conv_reference(x2, wide)) < 1e-5);
}

TEST_CASE("Conv2d backward matches finite differences") {
  Conv2d c(2, 3, 3, 2, 1, true, 21);
  check_gradients(c, Tensor::random({2, 2, 5, 4}, 22), 23);
  Conv2d no_pad(1, 2, 2, 1, 0, false, 24);
  check_gradients(no_pad, Tensor::random({1, 1, 4, 3}, 25), 26);
}

TEST_CASE("each Conv2d forward path matches the direct reference and its backward the finite differences") {
  struct Case {
    std::size_t in, out, k, stride, padding;
    bool bias;
    Shape input;
    const char* path;
  };
  // Every path, with remainders: output widths that are not multiples of 8 or 4, channel
  // counts that are not multiples of 4, and the patch-size limit on both sides.
  const Case cases[] = {
      {3, 5, 1, 1, 0, true, {2, 3, 5, 7}, "gemm-1x1"},
      {1, 1, 1, 1, 0, false, {1, 1, 1, 1}, "gemm-1x1"},
      {1, 8, 3, 1, 1, true, {2, 1, 9, 13}, "direct"},   // cnn_28's first layer, smaller
      {3, 6, 3, 1, 0, false, {1, 3, 7, 21}, "direct"},  // Wo 19: 8 + 8 + scalar 3
      {2, 9, 4, 1, 2, true, {1, 2, 6, 9}, "direct"},    // patch 32, the limit
      {1, 4, 1, 1, 1, true, {1, 1, 3, 4}, "direct"},    // 1×1 with padding
      {3, 4, 3, 1, 1, true, {1, 3, 5, 6}, "direct"},    // Wo 6: one 4-block + 2
      {4, 5, 3, 1, 1, true, {1, 4, 5, 6}, "im2col"},    // patch 36, above the limit
      {2, 3, 3, 2, 1, true, {2, 2, 7, 6}, "im2col"},    // strided
      {3, 4, 1, 2, 0, false, {1, 3, 5, 5}, "im2col"},   // 1×1 strided
  };
  std::uint64_t seed = 300;
  for (const Case& c : cases) {
    CAPTURE(c.path);
    CAPTURE(shape_to_string(c.input));
    Conv2d conv(c.in, c.out, c.k, c.stride, c.padding, c.bias, ++seed);
    REQUIRE(conv.forward_path() == c.path);
    const Tensor x = Tensor::random(c.input, ++seed);
    CHECK(relative_error(conv.forward(x), conv_reference(x, conv)) < 1e-5);
    check_gradients(conv, x, ++seed);
    {
      // The same layer under a matmul override takes im2col with that variant, same result.
      LayerMatmulVariantScope naive("naive");
      CHECK(conv.forward_path() == "im2col");
      CHECK(relative_error(conv.forward(x), conv_reference(x, conv)) < 1e-5);
    }
    CHECK(conv.forward_path() == c.path);
  }
}

TEST_CASE("the zoo's convolutions take the path the measurements chose") {
  CHECK(Conv2d(3, 64, 7, 2, 3).forward_path() == "im2col");  // conv7x7_224
  CHECK(Conv2d(1, 8, 3, 1, 1).forward_path() == "direct");   // cnn_28, first
  CHECK(Conv2d(8, 16, 3, 1, 1).forward_path() == "im2col");  // cnn_28, second (patch 72)
  CHECK(Conv2d(64, 128, 1).forward_path() == "gemm-1x1");
}

TEST_CASE("the 7x7 stride-2 convolution on 224x224 has 236,027,904 matmul FLOPs per sample") {
  Conv2d c(3, 64, 7, 2, 3);
  CHECK(c.output_shape({8, 3, 224, 224}) == Shape{8, 64, 112, 112});
  const FlopCounts f = c.flops_per_sample({8, 3, 224, 224});
  CHECK(f.matmul == 236027904);
  CHECK(f.bias == 64 * 112 * 112);
  CHECK(f.elementwise == 0);
  CHECK(c.parameter_count() == 64 * 3 * 7 * 7 + 64);
  CHECK(c.activation_bytes({8, 3, 224, 224}) == 8ull * 64 * 112 * 112 * 4);
  const FlopCounts b = c.backward_flops_per_sample({1, 3, 224, 224});
  CHECK(b.matmul == 2 * 236027904.0);
  CHECK(b.elementwise == 3 * 7 * 7 * 112 * 112);  // col2im
}

TEST_CASE("Conv2d rejects inputs that are not NCHW, have the wrong channels or are too small") {
  Conv2d c(3, 8, 7);
  CHECK_THROWS_WITH_AS(c.output_shape({64, 784}),
                       "Conv2d: input must have shape (N, C, H, W), got (64, 784)", ShapeError);
  CHECK_THROWS_WITH_AS(c.output_shape({1, 1, 28, 28}),
                       "Conv2d: input has 1 channel, layer expects 3", ShapeError);
  CHECK_THROWS_WITH_AS(c.output_shape({1, 4, 28, 28}),
                       "Conv2d: input has 4 channels, layer expects 3", ShapeError);
  CHECK_THROWS_WITH_AS(c.output_shape({1, 3, 5, 9}),
                       "Conv2d: kernel 7 is larger than the padded input 5×9 (5×9 with padding 0)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(Conv2d(3, 8, 3, 0), "Conv2d: stride must be a positive integer, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(Conv2d(3, 8, 0), "Conv2d: kernel must be a positive integer, got 0",
                       ValueError);
}

// ---------------------------------------------------------------------------------------
// Activations

TEST_CASE("ReLU, GELU and Sigmoid match hand-computed values") {
  ReLU relu;
  check_values(relu.forward(Tensor({1, 4}, {-2, -0.5f, 0, 3})), {0, 0, 0, 3});

  GELU gelu_layer;
  check_values(gelu_layer.forward(Tensor({1, 4}, {1, -1, 2, 0.5f})),
               {0.8411919906, -0.1588080094, 1.9545976941, 0.3457140098}, 1e-5);

  Sigmoid sigmoid;
  const float ln3 = std::log(3.0f);
  const Tensor s = sigmoid.forward(Tensor({1, 5}, {0, ln3, -ln3, 100, -100}));
  check_values(s, {0.5, 0.75, 0.25, 1, 0}, 1e-6);
  CHECK(s[4] >= 0.0f);  // exp(100) never computed: no inf/inf
}

TEST_CASE("ReLU, GELU and Sigmoid backward match finite differences") {
  ReLU relu;
  check_gradients(relu, away_from_zero({2, 3, 4}, 31), 32);
  GELU gelu_layer;
  check_gradients(gelu_layer, Tensor::random({3, 7}, 33, -3, 3), 34);
  Sigmoid sigmoid;
  check_gradients(sigmoid, Tensor::random({3, 7}, 35, -4, 4), 36);
}

TEST_CASE("Softmax is numerically stable over the last axis") {
  Softmax softmax;
  const Tensor y = softmax.forward(Tensor({3, 3}, {1, 2, 3, 1000, 1001, 1002, -5, -5, -5}));
  check_values(y, {0.0900305732, 0.2447284711, 0.6652409558, 0.0900305732, 0.2447284711,
                   0.6652409558, 1.0 / 3, 1.0 / 3, 1.0 / 3});

  const Tensor x = Tensor::random({2, 3, 17}, 41, -5, 5);
  const Tensor big = softmax.forward(x);
  for (std::size_t r = 0; r < 6; ++r) {
    double sum = 0, max_x = -1e9;
    for (std::size_t j = 0; j < 17; ++j)
      max_x = std::max(max_x, static_cast<double>(x[r * 17 + j]));
    for (std::size_t j = 0; j < 17; ++j) sum += std::exp(x[r * 17 + j] - max_x);
    for (std::size_t j = 0; j < 17; ++j)
      CHECK(big[r * 17 + j] ==
            doctest::Approx(std::exp(x[r * 17 + j] - max_x) / sum).epsilon(1e-5).scale(0));
  }
}

TEST_CASE("Softmax backward matches finite differences") {
  Softmax softmax;
  check_gradients(softmax, Tensor::random({2, 2, 5}, 42, -2, 2), 43);
}

TEST_CASE("element-wise layers count FLOPs by their documented per-element costs") {
  const Shape s = {16, 10, 32};  // 320 elements per sample
  CHECK(ReLU().flops_per_sample(s) == FlopCounts{0, 0, 320});
  CHECK(GELU().flops_per_sample(s).elementwise == 9 * 320);
  CHECK(GELU().backward_flops_per_sample(s).elementwise == 19 * 320);
  CHECK(Sigmoid().flops_per_sample(s).elementwise == 4 * 320);
  CHECK(Softmax().flops_per_sample(s).elementwise == 5 * 320);
  CHECK(Softmax().backward_flops_per_sample(s).elementwise == 4 * 320);
  CHECK(LayerNorm(32).flops_per_sample(s).elementwise == 7 * 320);
  CHECK(LayerNorm(32).backward_flops_per_sample(s).elementwise == 11 * 320);
  CHECK(MaxPool2d(2).flops_per_sample({4, 3, 8, 8}).elementwise == 3 * 3 * 16);
  CHECK(MaxPool2d(2).backward_flops_per_sample({4, 3, 8, 8}).elementwise == 3 * 16);
  CHECK(Flatten().flops_per_sample({4, 3, 8, 8}).total() == 0);
  CHECK(ReLU().parameter_count() == 0);
  CHECK(ReLU().activation_bytes(s) == 16 * 320 * 4);

  const auto& table = elementwise_costs();
  REQUIRE_FALSE(table.empty());
  CHECK(table[1].op == "GELU");
  CHECK(table[1].forward == "9");
}

TEST_CASE("activations and Softmax reject shapes without the dimensions they need") {
  CHECK_THROWS_WITH_AS(ReLU().output_shape({}),
                       "ReLU: input must have at least 1 dimension (the batch), got shape ()",
                       ShapeError);
  CHECK_THROWS_WITH_AS(
      Softmax().output_shape({10}),
      "Softmax: input must have at least 2 dimensions (batch, ..., classes), got shape (10)",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      Flatten().output_shape({10}),
      "Flatten: input must have at least 2 dimensions (batch, ...), got shape (10)", ShapeError);
}

// ---------------------------------------------------------------------------------------
// LayerNorm, MaxPool2d, Flatten

TEST_CASE("LayerNorm normalises the last axis and applies gamma and beta") {
  LayerNorm ln(4);
  check_values(ln.forward(Tensor({1, 4}, {1, 2, 3, 4})),
               {-1.3416354200, -0.4472118067, 0.4472118067, 1.3416354200});
  set_values(ln.gamma(), {2, 2, 1, 1});
  set_values(ln.beta(), {1, 0, 0, -1});
  check_values(ln.forward(Tensor({2, 4}, {1, 2, 3, 4, 5, 5, 5, 5})),
               {-1.6832708399, -0.8944236133, 0.4472118067, 0.3416354200, 1, 0, 0, -1});
  CHECK(ln.parameter_count() == 8);
  CHECK(ln.parameters()[0].name == "gamma");
  CHECK(ln.parameters()[1].name == "beta");
}

TEST_CASE("LayerNorm backward matches finite differences") {
  LayerNorm ln(6);
  Rng rng(51);
  for (std::size_t i = 0; i < 6; ++i) {
    ln.gamma()[i] = static_cast<float>(rng.uniform(0.5, 1.5));
    ln.beta()[i] = static_cast<float>(rng.uniform(-0.5, 0.5));
  }
  check_gradients(ln, Tensor::random({2, 3, 6}, 52, -2, 2), 53, {1e-2, 3e-2, 3e-3});
}

TEST_CASE("LayerNorm rejects the wrong feature count and bad arguments") {
  CHECK_THROWS_WITH_AS(LayerNorm(128).output_shape({2, 100}),
                       "LayerNorm: input has 100 features, layer expects 128", ShapeError);
  CHECK_THROWS_WITH_AS(LayerNorm(0), "LayerNorm: features must be a positive integer, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(LayerNorm(4, -1.0), "LayerNorm: eps must be a positive number, got -1",
                       ValueError);
}

TEST_CASE("MaxPool2d takes window maxima and routes gradients to them") {
  std::vector<float> v(16);
  for (std::size_t i = 0; i < 16; ++i) v[i] = static_cast<float>(i + 1);
  const Tensor x({1, 1, 4, 4}, v);
  MaxPool2d pool(2);
  CHECK(pool.stride() == 2);
  check_values(pool.forward(x), {6, 8, 14, 16});
  const Tensor dx = pool.backward(Tensor({1, 1, 2, 2}, {1, 2, 3, 4}));
  check_values(dx, {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4});

  MaxPool2d overlapping(3, 1);
  check_values(overlapping.forward(x), {11, 12, 15, 16});
  CHECK(std::isnan(MaxPool2d(2).forward(Tensor({1, 1, 2, 2}, {1, NAN, 3, 2}))[0]));
}

TEST_CASE("MaxPool2d backward matches finite differences on well-separated values") {
  // A shuffled ramp with steps of 0.1: no two values in a window within 2·eps.
  Tensor x({2, 2, 5, 4});
  Rng rng(61);
  std::vector<float> ramp(x.size());
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = 0.1f * static_cast<float>(i) - 4.0f;
  for (std::size_t i = ramp.size(); i-- > 1;)
    std::swap(ramp[i],
              ramp[static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(i)))]);
  set_values(x, ramp);
  MaxPool2d pool(2, 1);
  check_gradients(pool, x, 62);
}

TEST_CASE("MaxPool2d rejects inputs that are not NCHW or smaller than the kernel") {
  CHECK_THROWS_WITH_AS(MaxPool2d(2).output_shape({4, 10}),
                       "MaxPool2d: input must have shape (N, C, H, W), got (4, 10)", ShapeError);
  CHECK_THROWS_WITH_AS(MaxPool2d(3).output_shape({1, 1, 2, 5}),
                       "MaxPool2d: kernel 3 is larger than the input 2×5", ShapeError);
  CHECK_THROWS_WITH_AS(MaxPool2d(2, 0), "MaxPool2d: stride must be a positive integer, got 0",
                       ValueError);
}

TEST_CASE("Flatten keeps the batch dimension and its backward restores the shape") {
  Flatten flatten;
  const Tensor x = Tensor::random({2, 3, 2, 2}, 71);
  const Tensor y = flatten.forward(x);
  CHECK(y.shape() == Shape{2, 12});
  CHECK(y.to_vector() == x.to_vector());
  const Tensor dx = flatten.backward(y);
  CHECK(dx.shape() == x.shape());
  CHECK(dx.to_vector() == x.to_vector());
}

// ---------------------------------------------------------------------------------------
// Attention and the transformer block

TEST_CASE("MultiHeadAttention matches a double-precision reference") {
  MultiHeadAttention a(8, 2, 81);
  const Tensor x = Tensor::random({2, 5, 8}, 82);
  const Tensor y = a.forward(x);
  REQUIRE(y.shape() == Shape{2, 5, 8});
  CHECK(relative_error(y, attention_reference(x, a)) < 1e-5);

  MultiHeadAttention one_head(12, 1, 83);
  const Tensor x1 = Tensor::random({1, 9, 12}, 84);
  CHECK(relative_error(one_head.forward(x1), attention_reference(x1, one_head)) < 1e-5);
}

TEST_CASE("MultiHeadAttention over one position is the value and output projections") {
  // With T = 1 the softmax is exactly 1, so y = (x·Wv + bv)·Wo + bo.
  MultiHeadAttention a(2, 1);
  set_values(a.weight('v'), {1, 2, 3, 4});
  set_values(a.bias('v'), {1, 0});
  set_values(a.weight('o'), {0, 1, 1, 0});
  set_values(a.bias('o'), {0, 0.5f});
  // x = (1, 1): v = (1 + 3 + 1, 2 + 4) = (5, 6); y = (6, 5.5).
  check_values(a.forward(Tensor({1, 1, 2}, {1, 1})), {6, 5.5});
}

TEST_CASE("MultiHeadAttention backward matches finite differences for input and all projections") {
  MultiHeadAttention a(4, 2, 91);
  check_gradients(a, Tensor::random({2, 3, 4}, 92), 93);
}

TEST_CASE("MultiHeadAttention counts projections, scores and softmax separately") {
  MultiHeadAttention a(128, 4);
  CHECK(a.parameter_count() == 4 * (128 * 128 + 128));
  const FlopCounts f = a.flops_per_sample({2, 64, 128});
  CHECK(f.matmul == 8.0 * 64 * 128 * 128 + 4.0 * 64 * 64 * 128);
  CHECK(f.bias == 4 * 64 * 128);
  CHECK(f.elementwise == 6 * 4 * 64 * 64);
  const FlopCounts b = a.backward_flops_per_sample({2, 64, 128});
  CHECK(b.matmul == 2 * f.matmul);
  CHECK(b.elementwise == 5 * 4 * 64 * 64);
  std::vector<std::string> names;
  for (const auto& p : a.parameters()) names.push_back(p.name);
  CHECK(names == std::vector<std::string>{"q.weight", "q.bias", "k.weight", "k.bias", "v.weight",
                                          "v.bias", "o.weight", "o.bias"});
  CHECK_THROWS_WITH_AS(a.weight('x'),
                       "MultiHeadAttention: projection must be 'q', 'k', 'v' or 'o', got 'x'",
                       ValueError);
}

TEST_CASE("MultiHeadAttention and TransformerBlock reject bad shapes and head counts") {
  MultiHeadAttention a(128, 4);
  CHECK_THROWS_WITH_AS(a.output_shape({64, 128}),
                       "MultiHeadAttention: input must have shape (B, T, D), got (64, 128)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(a.output_shape({2, 64, 64}),
                       "MultiHeadAttention: input has 64 features, layer expects 128", ShapeError);
  CHECK_THROWS_WITH_AS(MultiHeadAttention(128, 5),
                       "MultiHeadAttention: heads (5) must divide d_model (128)", ValueError);
  CHECK_THROWS_WITH_AS(TransformerBlock(128, 3, 512),
                       "TransformerBlock: heads (3) must divide d_model (128)", ValueError);
  CHECK_THROWS_WITH_AS(TransformerBlock(128, 4, 0),
                       "TransformerBlock: d_ff must be a positive integer, got 0", ValueError);
  CHECK_THROWS_WITH_AS(TransformerBlock(16, 2, 32).output_shape({1, 4, 8}),
                       "TransformerBlock: input has 8 features, layer expects 16", ShapeError);
}

TEST_CASE("TransformerBlock is x + MHA(LN(x)) then + FFN(LN(·)) with GELU") {
  TransformerBlock block(8, 2, 12, 101);
  const Tensor x = Tensor::random({2, 3, 8}, 102);
  const Tensor y = block.forward(x);
  REQUIRE(y.shape() == Shape{2, 3, 8});

  // Recompute from the parts' own parameters with double references.
  LayerNorm& ln1 = block.ln1();
  const Tensor n1 = ln1.forward(x);
  const std::vector<double> a = attention_reference(n1, block.attn());
  Tensor h(x.shape());
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(x[i] + a[i]);
  const Tensor n2 = block.ln2().forward(h);
  const std::vector<double> f1 = linear_reference(n2, block.ffn1());
  Tensor g({2, 3, 12});
  for (std::size_t i = 0; i < g.size(); ++i) g[i] = static_cast<float>(gelu_reference(f1[i]));
  const std::vector<double> f2 = linear_reference(g, block.ffn2());
  std::vector<double> expected(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) expected[i] = h[i] + f2[i];
  CHECK(relative_error(y, expected) < 1e-5);
}

TEST_CASE("TransformerBlock backward matches finite differences through every part") {
  TransformerBlock block(4, 2, 6, 111);
  check_gradients(block, Tensor::random({2, 3, 4}, 112), 113, {1e-2, 3e-2, 3e-3});
}

TEST_CASE("TransformerBlock d_model 128, 4 heads, d_ff 512 counts parameters and FLOPs") {
  TransformerBlock block(128, 4, 512);
  // 2 LayerNorms (2·256) + attention 4·(128² + 128) + FFN (128·512 + 512) + (512·128 + 128).
  CHECK(block.parameter_count() == 512 + 66048 + 66048 + 65664);
  CHECK(block.parameter_count() == 198272);
  const FlopCounts f = block.flops_per_sample({1, 64, 128});
  CHECK(f.matmul == 10485760.0 + 16777216.0);
  CHECK(f.bias == 32768.0 + 32768.0 + 8192.0);
  // LayerNorms 2·7·64·128, scores 6·4·64², GELU 9·64·512, residuals 2·64·128.
  CHECK(f.elementwise == 114688.0 + 98304.0 + 294912.0 + 16384.0);
  CHECK(block.backward_flops_per_sample({1, 64, 128}).matmul == 2 * f.matmul);
  CHECK(block.parameters().front().name == "ln1.gamma");
  CHECK(block.parameters().back().name == "ffn2.bias");
}

TEST_CASE("TransformerBlock of the course runs forward and backward on a 64-token sequence") {
  TransformerBlock block(128, 4, 512, 7);
  const Tensor x = Tensor::random({2, 64, 128}, 8);
  const Tensor y = block.forward(x);
  CHECK(y.shape() == Shape{2, 64, 128});
  const Tensor dx = block.backward(Tensor::random({2, 64, 128}, 9));
  CHECK(dx.shape() == x.shape());
  bool finite = true;
  for (std::size_t i = 0; i < dx.size(); ++i) finite = finite && std::isfinite(dx[i]);
  CHECK(finite);
  CHECK(block.attn().dweight('q')[0] != 0.0f);
}

// ---------------------------------------------------------------------------------------
// Caching, errors of backward, the observer

TEST_CASE("backward needs a kept forward and a dout of the output's shape") {
  Linear l(3, 2);
  CHECK_THROWS_WITH_AS(l.backward(Tensor({4, 2})),
                       "Linear: backward needs a forward pass first, run with keep_for_backward on",
                       Error);
  l.forward(Tensor({4, 3}));
  CHECK_THROWS_WITH_AS(
      l.backward(Tensor({4, 3})),
      "Linear: dout has shape (4, 3), expected (4, 2) (the output of the last forward)",
      ShapeError);
  l.set_keep_for_backward(false);
  l.forward(Tensor({4, 3}));
  CHECK_THROWS_WITH_AS(l.backward(Tensor({4, 2})),
                       "Linear: backward needs a forward pass first, run with keep_for_backward on",
                       Error);
}

TEST_CASE("with keep_for_backward off a forward keeps nothing and frees earlier caches") {
  MemoryTracker& tracker = MemoryTracker::global();
  TransformerBlock block(16, 2, 32, 3);
  const Tensor x = Tensor::random({2, 8, 16}, 4);
  const std::size_t before = tracker.current_bytes();
  block.forward(x);  // output dropped; the caches stay
  const std::size_t kept = tracker.current_bytes() - before;
  CHECK(kept > x.bytes());
  block.set_keep_for_backward(false);
  CHECK_FALSE(block.ffn1().keep_for_backward());  // applies to the parts
  block.forward(x);
  CHECK(tracker.current_bytes() == before);
}

namespace {
struct RecordingObserver final : LayerObserver {
  std::vector<std::string> events;
  void on_begin(const Layer& l, Pass p) override {
    events.push_back(std::string(p == Pass::Forward ? "F+" : "B+") + std::string(l.type()));
  }
  void on_end(const Layer& l, Pass p) override {
    events.push_back(std::string(p == Pass::Forward ? "F-" : "B-") + std::string(l.type()));
  }
};
}  // namespace

TEST_CASE("the layer observer sees every forward and backward, nested parts included") {
  RecordingObserver observer;
  set_layer_observer(&observer);
  TransformerBlock block(4, 2, 8);
  block.forward(Tensor::random({1, 2, 4}, 1));
  const std::vector<std::string> expected = {"F+TransformerBlock",
                                             "F+LayerNorm",
                                             "F-LayerNorm",
                                             "F+MultiHeadAttention",
                                             "F-MultiHeadAttention",
                                             "F+LayerNorm",
                                             "F-LayerNorm",
                                             "F+Linear",
                                             "F-Linear",
                                             "F+GELU",
                                             "F-GELU",
                                             "F+Linear",
                                             "F-Linear",
                                             "F-TransformerBlock"};
  CHECK(observer.events == expected);

  observer.events.clear();
  Linear l(3, 2);
  CHECK_THROWS_AS(l.forward(Tensor({1, 5})), ShapeError);
  CHECK(observer.events == std::vector<std::string>{"F+Linear", "F-Linear"});  // paired on throw
  set_layer_observer(nullptr);
  CHECK(layer_observer() == nullptr);
}
