// Protects the row kernels: sum (naive and SIMD pairwise) against double sums with the
// classic error bound, softmax and LayerNorm (naive and fused) against double-precision
// references on awkward shapes, large-magnitude and non-finite inputs, their errors in full,
// and their FLOP/byte formulas against hand counts. Speed is never asserted.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/norm.hpp"
#include "perflab/base/random.hpp"
#include "perflab/kernels/reduce.hpp"
#include "perflab/tensor/tensor.hpp"

using namespace perflab;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Softmax of each row of the last axis, in double, from the float inputs, and the tolerance
// of a float kernel for each element: 2e-6 relative, plus the float rounding of x − max
// (up to |x − max|·2^-24 in the exponent, the same relative error in e^(x − max)).
struct SoftmaxReference {
  std::vector<double> y, tolerance;
};
SoftmaxReference softmax_reference(const Tensor& x) {
  const std::size_t cols = x.dim(-1);
  SoftmaxReference ref{std::vector<double>(x.size()), std::vector<double>(x.size())};
  for (std::size_t r = 0; r * cols < x.size(); ++r) {
    double m = -INFINITY;
    for (std::size_t j = 0; j < cols; ++j) m = std::max(m, static_cast<double>(x[r * cols + j]));
    double total = 0.0;
    for (std::size_t j = 0; j < cols; ++j) total += std::exp(x[r * cols + j] - m);
    for (std::size_t j = 0; j < cols; ++j) {
      const double d = m - x[r * cols + j];
      ref.y[r * cols + j] = std::exp(-d) / total;
      ref.tolerance[r * cols + j] = ref.y[r * cols + j] * (2e-6 + 0x1.0p-24 * d) + 1e-30;
    }
  }
  return ref;
}

// LayerNorm of each row in double; also returns each row's |mean| / std, which sets how much
// float rounding of the inputs' magnitude the result can carry.
struct LayerNormReference {
  std::vector<double> y;
  std::vector<double> mean_over_std;  // per row
};
LayerNormReference layernorm_reference(const Tensor& x, const Tensor& gamma, const Tensor& beta,
                                       double eps) {
  const std::size_t cols = x.dim(-1);
  LayerNormReference ref{std::vector<double>(x.size()), {}};
  for (std::size_t r = 0; r * cols < x.size(); ++r) {
    const float* in = x.data() + r * cols;
    double mean = 0.0;
    for (std::size_t j = 0; j < cols; ++j) mean += in[j];
    mean /= static_cast<double>(cols);
    double var = 0.0;
    for (std::size_t j = 0; j < cols; ++j) var += (in[j] - mean) * (in[j] - mean);
    var /= static_cast<double>(cols);
    const double rstd = 1.0 / std::sqrt(var + eps);
    for (std::size_t j = 0; j < cols; ++j)
      ref.y[r * cols + j] = (in[j] - mean) * rstd * gamma[j] + beta[j];
    ref.mean_over_std.push_back(std::fabs(mean) * rstd);
  }
  return ref;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// sum

TEST_CASE("the sum variants are listed and an unknown one is an error") {
  const auto& variants = sum_variants();
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].name == "naive");
  CHECK(variants[1].name == "simd");
  for (const auto& v : variants) CHECK_FALSE(v.description.empty());
  CHECK_THROWS_WITH_AS(sum(Tensor({3}), "fast"),
                       "unknown sum variant 'fast'; known variants: naive, simd", ValueError);
}

TEST_CASE("every sum variant adds small tensors exactly") {
  for (const auto& v : sum_variants()) {
    CAPTURE(v.name);
    CHECK(sum(Tensor({7}, {1, 2, 3, 4, 5, 6, 7}), v.name) == 28.0f);
    CHECK(sum(Tensor({2, 3}, {0.5f, -1, 2, 4, -0.25f, 8}), v.name) == 13.25f);
    CHECK(sum(Tensor({0}), v.name) == 0.0f);
    CHECK(sum(Tensor::full({1000}, 1.0f), v.name) == 1000.0f);
    CHECK(sum(Tensor({3}, {1, kInf, 2}), v.name) == kInf);
    CHECK(std::isnan(sum(Tensor({5}, {1, 2, kNaN, 3, 4}), v.name)));
    CHECK(std::isnan(sum(Tensor({2}, {kInf, -kInf}), v.name)));
  }
}

TEST_CASE("the SIMD sum stays within the pairwise error bound of a double sum") {
  // Sizes around the 16-float groups and 256-float blocks, and a large one.
  for (const std::size_t n : {1, 3, 15, 16, 17, 255, 256, 257, 1000, 4099, 1000003}) {
    CAPTURE(n);
    const Tensor x = Tensor::random({n}, n, -1.0f, 3.0f);
    double exact = 0.0, magnitude = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      exact += x[i];
      magnitude += std::fabs(x[i]);
    }
    // Each element passes through at most 21 additions inside a block (16 into its
    // accumulator, 2 combining accumulators, 2 across lanes, 1 with the tail) and one per
    // level of halving; each addition's relative error is at most 2^-24.
    const double levels = std::ceil(std::log2(static_cast<double>(n) / 256.0 + 1.0)) + 1.0;
    const double bound = (21.0 + levels) * 0x1.0p-24 * magnitude;
    CHECK(std::fabs(sum(x, "simd") - exact) <= bound);
  }
}

TEST_CASE("the naive sum drifts where the pairwise sum does not") {
  // 2^20 copies of 0.1f: the running float total of the naive loop loses low bits at every
  // step once it is large; the pairwise sum's partial sums stay small.
  const std::size_t n = 1u << 20;
  const Tensor x = Tensor::full({n}, 0.1f);
  const double exact = static_cast<double>(0.1f) * static_cast<double>(n);
  const double naive_error = std::fabs(sum(x, "naive") - exact) / exact;
  const double simd_error = std::fabs(sum(x, "simd") - exact) / exact;
  CAPTURE(naive_error);
  CAPTURE(simd_error);
  CHECK(simd_error <= 1e-6);
  CHECK(naive_error > 10.0 * simd_error);
}

// ---------------------------------------------------------------------------------------
// softmax

TEST_CASE("the softmax variants are listed and errors say what was wrong") {
  const auto& variants = softmax_variants();
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].name == "naive");
  CHECK(variants[1].name == "fused");
  CHECK_THROWS_WITH_AS(softmax(Tensor({3}), "online"),
                       "unknown softmax variant 'online'; known variants: naive, fused",
                       ValueError);
  CHECK_THROWS_WITH_AS(softmax(Tensor(Shape{})),
                       "softmax needs a tensor with at least 1 dimension (it normalises the "
                       "last); x has shape ()",
                       ShapeError);
}

TEST_CASE("every softmax variant matches a double-precision reference on awkward shapes") {
  const std::vector<Shape> shapes = {{1},    {1, 1},  {3, 1},   {2, 7},     {5, 16},
                                     {4, 17}, {3, 100}, {2, 3, 33}, {2, 1031}};
  std::uint64_t seed = 900;
  for (const auto& v : softmax_variants()) {
    for (const Shape& shape : shapes) {
      for (const float scale : {1.0f, 30.0f}) {
        INFO(v.name << ", shape " << shape_to_string(shape) << ", inputs in ±" << scale);
        const Tensor x = Tensor::random(shape, seed++, -scale, scale);
        const Tensor y = softmax(x, v.name);
        REQUIRE(y.shape() == shape);
        const SoftmaxReference ref = softmax_reference(x);
        for (std::size_t i = 0; i < ref.y.size(); ++i) {
          if (!(std::fabs(y[i] - ref.y[i]) <= ref.tolerance[i])) {
            INFO("element " << i << ": got " << y[i] << ", reference " << ref.y[i]);
            REQUIRE(std::fabs(y[i] - ref.y[i]) <= ref.tolerance[i]);
          }
        }
        const std::size_t cols = shape.back();
        for (std::size_t r = 0; r * cols < y.size(); ++r) {
          double row_sum = 0.0;
          for (std::size_t j = 0; j < cols; ++j) row_sum += y[r * cols + j];
          CHECK(row_sum == doctest::Approx(1.0).epsilon(1e-5));
        }
      }
    }
  }
}

TEST_CASE("softmax is exact-enough for large-magnitude inputs, where e^x alone overflows") {
  for (const auto& v : softmax_variants()) {
    CAPTURE(v.name);
    // Rows near 1e6 (float spacing 0.0625 there) and values spread over ±1e4.
    Tensor x = Tensor::random({3, 37}, 77, -8.0f, 8.0f);
    for (std::size_t i = 0; i < 37; ++i) x[i] += 1e6f;
    for (std::size_t i = 37; i < 74; ++i) x[i] *= 1250.0f;
    const Tensor y = softmax(x, v.name);
    const SoftmaxReference ref = softmax_reference(x);
    for (std::size_t i = 0; i < 3 * 37; ++i) {
      INFO("element " << i << ": got " << y[i] << ", reference " << ref.y[i]);
      CHECK(std::fabs(y[i] - ref.y[i]) <= ref.tolerance[i]);
    }
    // Differences that overflow float: the others are exactly 0, the maximum exactly 1.
    const Tensor huge = softmax(Tensor({1, 5}, {3e38f, -3e38f, 1e38f, -kInf, 2e38f}), v.name);
    CHECK(huge.to_vector() == std::vector<float>{1, 0, 0, 0, 0});
  }
}

TEST_CASE("softmax handles infinities and NaN as NumPy's expression does") {
  // Row 0: a NaN; row 1: +inf (inf − inf is NaN); row 2: all −inf (0/0); row 3: some −inf,
  // which get probability 0 while the rest is normal. Six columns: a vector and a tail.
  const Tensor x({4, 6}, {1, 2, kNaN, 3, 4, 5,                   //
                          1, kInf, 2, 3, 4, 5,                   //
                          -kInf, -kInf, -kInf, -kInf, -kInf, -kInf,  //
                          -kInf, 0, -kInf, 0, -kInf, std::log(2.0f)});
  for (const auto& v : softmax_variants()) {
    CAPTURE(v.name);
    const Tensor y = softmax(x, v.name);
    for (std::size_t i = 0; i < 18; ++i) {
      CAPTURE(i);
      CHECK(std::isnan(y[i]));
    }
    CHECK(y[18] == 0.0f);
    CHECK(y[19] == doctest::Approx(0.25).epsilon(1e-6));
    CHECK(y[20] == 0.0f);
    CHECK(y[21] == doctest::Approx(0.25).epsilon(1e-6));
    CHECK(y[22] == 0.0f);
    CHECK(y[23] == doctest::Approx(0.5).epsilon(1e-6));
  }
  CHECK(softmax(Tensor({3, 0})).shape() == Shape{3, 0});
}

TEST_CASE("the softmax cost formulas match hand counts") {
  // 3 rows of 4: n = 12. FLOPs 5 per element. Naive bytes: 4n + 8n + 8n; fused: 4n + 8n.
  const OpCost naive = cost_softmax_naive(3, 4);
  const OpCost fused = cost_softmax_fused(3, 4);
  CHECK(naive.flops == 60.0);
  CHECK(naive.bytes == 240.0);
  CHECK(fused.flops == 60.0);
  CHECK(fused.bytes == 144.0);
  CHECK(cost_softmax_fused(0, 8).bytes == 0.0);
}

// ---------------------------------------------------------------------------------------
// layernorm

TEST_CASE("the layernorm variants are listed and errors say what was wrong") {
  const auto& variants = layernorm_variants();
  REQUIRE(variants.size() == 2);
  CHECK(variants[0].name == "naive");
  CHECK(variants[1].name == "fused");
  const Tensor x({2, 4}), g = Tensor::full({4}, 1.0f), b({4});
  CHECK_THROWS_WITH_AS(layernorm(x, g, b, 1e-5, "welford"),
                       "unknown layernorm variant 'welford'; known variants: naive, fused",
                       ValueError);
  CHECK_THROWS_WITH_AS(layernorm(Tensor(Shape{}), Tensor({1}), Tensor({1})),
                       "layernorm needs a tensor with at least 1 dimension (it normalises the "
                       "last); x has shape ()",
                       ShapeError);
  CHECK_THROWS_WITH_AS(layernorm(x, Tensor({5}), b),
                       "layernorm gamma has shape (5), expected (4): one value per feature of "
                       "the last dimension of x (2, 4)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(layernorm(x, g, Tensor({1, 4})),
                       "layernorm beta has shape (1, 4), expected (4): one value per feature "
                       "of the last dimension of x (2, 4)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(layernorm(x, g, b, 0.0),
                       "layernorm eps must be a finite number above 0, got 0", ValueError);
  CHECK_THROWS_WITH_AS(layernorm(x, g, b, -1e-5),
                       "layernorm eps must be a finite number above 0, got -1e-05", ValueError);
  CHECK_THROWS_WITH_AS(layernorm(x, g, b, INFINITY),
                       "layernorm eps must be a finite number above 0, got Infinity", ValueError);
  CHECK_THROWS_AS(layernorm(x, g, b, NAN), ValueError);
}

TEST_CASE("every layernorm variant matches a double-precision reference on awkward shapes") {
  const std::vector<Shape> shapes = {{1},    {2, 1},  {3, 5},    {4, 16},  {2, 17},
                                     {3, 100}, {2, 3, 33}, {1, 1000}, {2, 4099}};
  std::uint64_t seed = 1200;
  for (const auto& v : layernorm_variants()) {
    for (const Shape& shape : shapes) {
      INFO(v.name << ", shape " << shape_to_string(shape));
      const std::size_t D = shape.back();
      const Tensor x = Tensor::random(shape, seed++, -3.0f, 5.0f);
      const Tensor gamma = Tensor::random({D}, seed++, 0.5f, 2.0f);
      const Tensor beta = Tensor::random({D}, seed++, -1.0f, 1.0f);
      const Tensor y = layernorm(x, gamma, beta, 1e-5, v.name);
      REQUIRE(y.shape() == shape);
      const LayerNormReference ref = layernorm_reference(x, gamma, beta, 1e-5);
      for (std::size_t i = 0; i < ref.y.size(); ++i) {
        if (!(std::fabs(y[i] - ref.y[i]) <= 1e-5 * (1.0 + std::fabs(ref.y[i])))) {
          INFO("element " << i << ": got " << y[i] << ", reference " << ref.y[i]);
          REQUIRE(std::fabs(y[i] - ref.y[i]) <= 1e-5 * (1.0 + std::fabs(ref.y[i])));
        }
      }
    }
  }
}

TEST_CASE("layernorm stays accurate when the mean dwarfs the spread") {
  // Rows around 1e4 and 3e5 with a spread of about 1 (std 0.58), and a row whose first value
  // is far from the rest. Sum and sum of squares in float would cancel to noise here (x² ≈
  // 1e8 to 1e11 against a variance of 0.33: errors of several units). What is left is the
  // float rounding of the mean, a few ulps of |mean|, divided by std: the tolerance is 8 such
  // ulps (measured worst: under 2 for fused, under 4 for naive).
  const std::size_t D = 515;
  Tensor x = Tensor::random({3, D}, 31, -1.0f, 1.0f);
  for (std::size_t j = 0; j < D; ++j) {
    x[j] += 1e4f;
    x[D + j] += 3e5f;
  }
  x[2 * D] = 1e4f;  // an outlier first value: a shift by the first value would not help
  const Tensor gamma = Tensor::full({D}, 1.0f), beta({D});
  const LayerNormReference ref = layernorm_reference(x, gamma, beta, 1e-5);
  for (const auto& v : layernorm_variants()) {
    CAPTURE(v.name);
    const Tensor y = layernorm(x, gamma, beta, 1e-5, v.name);
    for (std::size_t r = 0; r < 3; ++r) {
      const double tolerance = 1e-5 + 8 * 0x1.0p-24 * ref.mean_over_std[r];
      double worst = 0.0;
      for (std::size_t j = 0; j < D; ++j)
        worst = std::max(worst, std::fabs(y[r * D + j] - ref.y[r * D + j]));
      INFO("row " << r << ": |mean|/std " << ref.mean_over_std[r] << ", worst error " << worst
                  << ", tolerance " << tolerance);
      CHECK(worst <= tolerance);
    }
  }
}

TEST_CASE("fused layernorm maps a constant row exactly onto beta") {
  // Zero variance: every x − mean is exactly 0, so y = beta, for any eps.
  const Tensor x = Tensor::full({2, 37}, 1234.5f);
  const Tensor gamma = Tensor::random({37}, 3), beta = Tensor::random({37}, 4);
  const Tensor y = layernorm(x, gamma, beta, 1e-5, "fused");
  for (std::size_t i = 0; i < y.size(); ++i) {
    CAPTURE(i);
    CHECK(y[i] == beta[i % 37]);
  }
  // With gamma 1 and beta 0 the rows of a non-constant input come out with mean 0, variance 1.
  const Tensor z = layernorm(Tensor::random({1, 300}, 9, -2.0f, 7.0f), Tensor::full({300}, 1.0f),
                             Tensor({300}));
  double mean = 0.0, var = 0.0;
  for (std::size_t j = 0; j < 300; ++j) mean += z[j] / 300.0;
  for (std::size_t j = 0; j < 300; ++j) var += (z[j] - mean) * (z[j] - mean) / 300.0;
  CHECK(std::fabs(mean) <= 1e-6);
  CHECK(var == doctest::Approx(1.0).epsilon(1e-4));  // eps 1e-5 pulls it just below 1
  CHECK(layernorm(Tensor({4, 0}), Tensor({0}), Tensor({0})).shape() == Shape{4, 0});
}

TEST_CASE("the layernorm cost formulas match hand counts") {
  // 3 rows of 4: n = 12, gamma and beta 2·4 floats = 32 bytes. FLOPs 7 per element.
  // Naive bytes: 4n + 4n + 8n + 32; fused: 4n + 8n + 32.
  const OpCost naive = cost_layernorm_naive(3, 4);
  const OpCost fused = cost_layernorm_fused(3, 4);
  CHECK(naive.flops == 84.0);
  CHECK(naive.bytes == 224.0);
  CHECK(fused.flops == 84.0);
  CHECK(fused.bytes == 176.0);
}
