// Protects the kernels: every matmul variant agrees with an independent double-precision
// reference on awkward shapes (1, primes, sizes that are not multiples of the vector width,
// of the 4×8 and 2×16 register blocks or of the packed kernel's cache blocks), batched and
// broadcast; the blocked kernel with any tile sizes and its tile errors; shape errors say
// what was wrong; the vector e^x and tanh against the C library; the vector GELU over
// [−30, 30] and at extreme inputs, and every GELU variant over [−10, 10] and at ±inf/NaN
// against the double reference; the variants differ in the temporaries they allocate;
// add/mul; measure_matmul and measure_gelu validate their input and return finite figures
// (speed is never asserted).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "perflab/detail/simd.hpp"
#include "perflab/detail/vmath.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/base/random.hpp"
#include "perflab/tensor/tensor.hpp"

using namespace perflab;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// Checks every element of got (shape (..., M, N)) against sums in double over the matching
// slices of a and b, found by broadcasting each batch index independently of matmul().
// Tolerance: the classic bound for float summation of K products, K·2^-23·Σ|a·b|.
void check_against_double_reference(const Tensor& got, const Tensor& a, const Tensor& b) {
  const Shape& out_shape = got.shape();
  const std::size_t nd = out_shape.size();
  const std::size_t M = out_shape[nd - 2], N = out_shape[nd - 1], K = a.dim(-1);
  REQUIRE(b.dim(-2) == K);
  const std::size_t batches = M * N == 0 ? 0 : got.size() / (M * N);
  // Index of the slice of operand s used by output batch t (dims of size 1 broadcast).
  const auto slice_of = [&](const Shape& s, std::size_t t) {
    std::size_t slice = 0, stride = 1;
    for (std::size_t d = 0; d + 2 < nd; ++d) {
      const std::size_t out_d = nd - 3 - d;  // output batch dim, innermost first
      std::size_t rest = t;
      for (std::size_t e = nd - 3; e > out_d; --e) rest /= out_shape[e];
      const std::size_t i_out = rest % out_shape[out_d];
      if (d + 2 >= s.size()) continue;  // s has no such dimension
      const std::size_t dim = s[s.size() - 3 - d];
      slice += (dim == 1 ? 0 : i_out) * stride;
      stride *= dim;
    }
    return slice;
  };
  double worst_ratio = 0.0;
  for (std::size_t t = 0; t < batches; ++t) {
    const float* pa = a.data() + slice_of(a.shape(), t) * M * K;
    const float* pb = b.data() + slice_of(b.shape(), t) * K * N;
    for (std::size_t i = 0; i < M; ++i) {
      for (std::size_t j = 0; j < N; ++j) {
        double sum = 0.0, bound = 0.0;
        for (std::size_t k = 0; k < K; ++k) {
          const double p = static_cast<double>(pa[i * K + k]) * pb[k * N + j];
          sum += p;
          bound += std::fabs(p);
        }
        const double tolerance = static_cast<double>(K) * 0x1.0p-23 * bound + 1e-30;
        const double err = std::fabs(got[t * M * N + i * N + j] - sum);
        worst_ratio = std::max(worst_ratio, err / tolerance);
        if (!(err <= tolerance)) {
          INFO("batch " << t << ", element (" << i << ", " << j << "): got "
                        << got[t * M * N + i * N + j] << ", reference " << sum);
          REQUIRE(err <= tolerance);
        }
      }
    }
  }
  CHECK(worst_ratio <= 1.0);
}

std::vector<float> dense_range(float lo, float hi, std::size_t count) {
  std::vector<float> xs(count);
  for (std::size_t i = 0; i < count; ++i)
    xs[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(count - 1);
  return xs;
}

}  // namespace

constexpr const char* kUnknownMatmul =
    "unknown matmul variant 'fast'; known variants: naive, reordered, blocked, simd, packed";

TEST_CASE("the matmul variants are listed with naive first and found by name") {
  const auto& variants = matmul_variants();
  REQUIRE(variants.size() == 5);
  CHECK(variants[0].name == "naive");
  CHECK(variants[1].name == "reordered");
  CHECK(variants[2].name == "blocked");
  CHECK(variants[3].name == "simd");
  CHECK(variants[4].name == "packed");
  for (const auto& v : variants) {
    CHECK_FALSE(v.description.empty());
    CHECK(&find_matmul_variant(v.name) == &v);
  }
  CHECK_THROWS_WITH_AS(find_matmul_variant("fast"), kUnknownMatmul, ValueError);
}

TEST_CASE("matmul without a variant name uses packed") {
  CHECK(kDefaultMatmulVariant == "packed");
  const Tensor a = Tensor::random({2, 9, 13}, 41), b = Tensor::random({13, 10}, 42);
  CHECK(matmul(a, b).to_vector() == matmul(a, b, "packed").to_vector());
}

TEST_CASE("the SIMD backend is reported consistently with the build") {
  const std::string backend = simd_backend();
  CHECK(simd_enabled() == (backend != "scalar"));
#if defined(PERFLAB_FORCE_SCALAR)
  CHECK_FALSE(simd_enabled());
#elif defined(__wasm_simd128__)
  CHECK(backend == "wasm-simd128");
#elif defined(__SSE2__)
  CHECK(backend == "sse2");
#endif
}

TEST_CASE("every matmul variant matches a double-precision reference on awkward 2-D shapes") {
  // Fixed shapes: ones, primes, sizes around the 4-row and 8-column blocks, and a draw of
  // random shapes from a fixed seed so a failure names a shape that reproduces.
  std::vector<Shape> shapes = {{1, 1, 1},   {1, 7, 1},   {1, 1, 9},    {3, 5, 7},
                               {4, 4, 4},   {4, 8, 8},   {5, 3, 9},    {8, 16, 12},
                               {13, 17, 11}, {31, 37, 29}, {64, 1, 64}, {1, 64, 33},
                               {6, 2, 10},  {7, 11, 3},  {67, 19, 71}, {2, 97, 5}};
  // Across the packed kernel's cache blocks (k 512, m 64, n 512) and the blocked kernel's
  // default tiles (m 64, n 256, k 128): several k blocks added into out, more blocks of
  // rows (an odd count: the last strip of a is the zero-padded copy), a second panel of
  // columns, each with ragged edges.
  const std::vector<Shape> block_edges = {{5, 257, 9},    {3, 600, 17},   {129, 7, 9},
                                          {2, 3, 513},    {65, 129, 257}, {131, 260, 515},
                                          {5, 1030, 9},   {67, 513, 18}};
  shapes.insert(shapes.end(), block_edges.begin(), block_edges.end());
  Rng rng(20240501);
  for (int draw = 0; draw < 25; ++draw) {
    shapes.push_back({static_cast<std::size_t>(rng.integer(1, 70)),
                      static_cast<std::size_t>(rng.integer(1, 70)),
                      static_cast<std::size_t>(rng.integer(1, 70))});
  }
  std::uint64_t seed = 1;
  for (const auto& v : matmul_variants()) {
    for (const Shape& mkn : shapes) {
      const std::size_t M = mkn[0], K = mkn[1], N = mkn[2];
      INFO("variant " << v.name << ", (M, K, N) = " << shape_to_string(mkn));
      const Tensor a = Tensor::random({M, K}, seed++);
      const Tensor b = Tensor::random({K, N}, seed++);
      const Tensor out = matmul(a, b, v.name);
      REQUIRE(out.shape() == Shape{M, N});
      check_against_double_reference(out, a, b);
    }
  }
}

TEST_CASE("every matmul variant overwrites its output rather than accumulating into it") {
  // K = 600 takes the packed kernel through a second k block, which adds into out.
  for (const std::size_t K : {6, 600}) {
    const Tensor a = Tensor::random({5, K}, 11), b = Tensor::random({K, 9}, 12);
    for (const auto& v : matmul_variants()) {
      INFO("variant " << v.name << ", K = " << K);
      Tensor out = Tensor::full({5, 9}, 1000.0f);
      v.kernel(out.data(), a.data(), b.data(), 5, K, 9);
      check_against_double_reference(out, a, b);
    }
  }
}

TEST_CASE("matmul with an empty inner dimension gives zeros") {
  const Tensor a({3, 0}), b({0, 4});
  for (const auto& v : matmul_variants()) {
    INFO("variant " << v.name);
    const Tensor out = matmul(a, b, v.name);
    REQUIRE(out.shape() == Shape{3, 4});
    for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == 0.0f);
  }
}

TEST_CASE("matmul broadcasts batch dimensions like numpy") {
  CHECK(matmul_output_shape({2, 3}, {3, 4}) == Shape{2, 4});
  CHECK(matmul_output_shape({5, 2, 3}, {3, 4}) == Shape{5, 2, 4});
  CHECK(matmul_output_shape({2, 3}, {5, 3, 4}) == Shape{5, 2, 4});
  CHECK(matmul_output_shape({1, 2, 3}, {7, 3, 4}) == Shape{7, 2, 4});
  CHECK(matmul_output_shape({2, 1, 2, 3}, {3, 3, 4}) == Shape{2, 3, 2, 4});
  CHECK(matmul_output_shape({4, 1, 1, 2, 3}, {5, 1, 3, 4}) == Shape{4, 5, 1, 2, 4});

  struct Case {
    Shape a, b, out;
  };
  const std::vector<Case> cases = {
      {{3, 5, 7}, {7, 6}, {3, 5, 6}},            // (B, M, K) @ (K, N)
      {{5, 7}, {3, 7, 6}, {3, 5, 6}},            // (M, K) @ (B, K, N)
      {{3, 5, 7}, {3, 7, 6}, {3, 5, 6}},         // (B, M, K) @ (B, K, N)
      {{2, 1, 5, 7}, {3, 7, 6}, {2, 3, 5, 6}},   // (2, 1, M, K) @ (3, K, N)
      {{1, 4, 9, 13}, {2, 1, 13, 3}, {2, 4, 9, 3}},
      {{2, 3, 1, 1}, {1, 1, 9}, {2, 3, 1, 9}},
  };
  std::uint64_t seed = 100;
  for (const auto& v : matmul_variants()) {
    for (const Case& c : cases) {
      INFO("variant " << v.name << ": a " << shape_to_string(c.a) << " @ b "
                      << shape_to_string(c.b));
      const Tensor a = Tensor::random(c.a, seed++);
      const Tensor b = Tensor::random(c.b, seed++);
      const Tensor out = matmul(a, b, v.name);
      REQUIRE(out.shape() == c.out);
      check_against_double_reference(out, a, b);
    }
  }
}

TEST_CASE("matmul shape errors name the shapes and what is allowed") {
  CHECK_THROWS_WITH_AS(
      matmul_output_shape({3}, {3, 4}),
      "matmul needs tensors with 2 or more dimensions; a has shape (3), a 1-D tensor",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      matmul_output_shape({2, 3}, {}),
      "matmul needs tensors with 2 or more dimensions; b has shape (), a 0-D tensor",
      ShapeError);
  CHECK_THROWS_WITH_AS(matmul_output_shape({2, 3}, {4, 5}),
                       "matmul shape mismatch: a (2, 3) @ b (4, 5): inner dimensions 3 (last "
                       "of a) and 4 (second-to-last of b) must be equal",
                       ShapeError);
  CHECK_THROWS_WITH_AS(matmul_output_shape({2, 3, 4}, {5, 4, 6}),
                       "matmul batch dimensions do not broadcast: a (2, 3, 4) @ b (5, 4, 6): "
                       "batch (2) and (5) differ at a dimension where neither is 1 (2 vs 5)",
                       ShapeError);
  CHECK_THROWS_WITH_AS(
      matmul_output_shape({2, 3, 1, 4}, {4, 4, 6}),
      "matmul batch dimensions do not broadcast: a (2, 3, 1, 4) @ b (4, 4, 6): batch (2, 3) "
      "and (4) differ at a dimension where neither is 1 (3 vs 4)",
      ShapeError);
  // matmul() itself reports the same errors, and an unknown variant.
  CHECK_THROWS_WITH_AS(matmul(Tensor({3}), Tensor({3, 4})),
                       "matmul needs tensors with 2 or more dimensions; a has shape (3), a "
                       "1-D tensor",
                       ShapeError);
  CHECK_THROWS_WITH_AS(matmul(Tensor({2, 3}), Tensor({2, 3}), "naive"),
                       "matmul shape mismatch: a (2, 3) @ b (2, 3): inner dimensions 3 (last "
                       "of a) and 2 (second-to-last of b) must be equal",
                       ShapeError);
  CHECK_THROWS_WITH_AS(matmul(Tensor({2, 3}), Tensor({3, 2}), "fast"), kUnknownMatmul,
                       ValueError);
  // matmul_blocked validates the shapes the same way.
  CHECK_THROWS_WITH_AS(matmul_blocked(Tensor({3}), Tensor({3, 4}), MatmulTiles{}),
                       "matmul needs tensors with 2 or more dimensions; a has shape (3), a "
                       "1-D tensor",
                       ShapeError);
  CHECK_THROWS_WITH_AS(matmul_blocked(Tensor({2, 3}), Tensor({2, 3}), MatmulTiles{}),
                       "matmul shape mismatch: a (2, 3) @ b (2, 3): inner dimensions 3 (last "
                       "of a) and 2 (second-to-last of b) must be equal",
                       ShapeError);
}

TEST_CASE("the blocked matmul gives the reference result for any tile sizes") {
  const std::vector<MatmulTiles> tiles = {
      {1, 1, 1}, {1, 7, 3}, {5, 1, 2}, {2, 3, 1}, {4, 8, 16}, {3, 5, 7}, {64, 256, 128},
      {1000, 1000, 1000},  // larger than the matrices: one tile covers them
  };
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{1, 1}, {1, 1}},         {{13, 17}, {17, 11}},     {{31, 5}, {5, 29}},
      {{6, 40}, {40, 9}},       {{3, 4, 7}, {7, 5}},      {{2, 1, 3, 6}, {4, 6, 10}},
  };
  std::uint64_t seed = 500;
  for (const MatmulTiles& t : tiles) {
    for (const auto& pair : shapes) {
      const Shape& sa = pair.first;  // not a structured binding: INFO captures it (clang 14)
      const Shape& sb = pair.second;
      INFO("tiles m " << t.m << ", n " << t.n << ", k " << t.k << ": a " << shape_to_string(sa)
                      << " @ b " << shape_to_string(sb));
      const Tensor a = Tensor::random(sa, seed++), b = Tensor::random(sb, seed++);
      const Tensor out = matmul_blocked(a, b, t);
      REQUIRE(out.shape() == matmul_output_shape(sa, sb));
      check_against_double_reference(out, a, b);
    }
  }
  // The raw kernel overwrites its output, like the registered variants.
  const Tensor a = Tensor::random({7, 9}, 1), b = Tensor::random({9, 6}, 2);
  Tensor out = Tensor::full({7, 6}, 1000.0f);
  matmul_blocked_kernel(out.data(), a.data(), b.data(), 7, 9, 6, MatmulTiles{2, 3, 4});
  check_against_double_reference(out, a, b);
  // The registered "blocked" variant is the default tiles.
  CHECK(matmul(a, b, "blocked").to_vector() == matmul_blocked(a, b, MatmulTiles{}).to_vector());
}

TEST_CASE("a tile size below 1 is an error naming the tile") {
  const Tensor a({2, 3}), b({3, 4});
  CHECK_THROWS_WITH_AS(matmul_blocked(a, b, MatmulTiles{0, 256, 128}),
                       "tile_m must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(matmul_blocked(a, b, MatmulTiles{64, 0, 128}),
                       "tile_n must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(matmul_blocked(a, b, MatmulTiles{64, 256, 0}),
                       "tile_k must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(MatmulTiles({0, 0, 0}).validate(), "tile_m must be between 1 and 4096, got 0",
                       ValueError);
  Tensor out({2, 4});
  CHECK_THROWS_WITH_AS(
      matmul_blocked_kernel(out.data(), a.data(), b.data(), 2, 3, 4, MatmulTiles{1, 1, 0}),
      "tile_k must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_matmul_blocked(8, MatmulTiles{8, 0, 8}, TimerOptions{}),
                       "tile_n must be between 1 and 4096, got 0", ValueError);
  // A tile of 2^31 − 1 used to be taken (45 s at n=4096 in wasm; near 2^32 its loop counter
  // wraps in wasm32): a tile never needs to exceed the largest measured matrix.
  CHECK_THROWS_WITH_AS(measure_matmul_blocked(8, MatmulTiles{64, 2147483647, 128}, TimerOptions{}),
                       "tile_n must be between 1 and 4096, got 2147483647", ValueError);
  CHECK_NOTHROW(MatmulTiles{4096, 4096, 4096}.validate());
  CHECK_NOTHROW(MatmulTiles{}.validate());
  CHECK(MatmulTiles{}.m == 64);
  CHECK(MatmulTiles{}.n == 256);
  CHECK(MatmulTiles{}.k == 128);
}

TEST_CASE("matmul_relative_error is the normwise error against the reference") {
  const Tensor ref({3}, {1.0f, -4.0f, 2.0f});
  CHECK(matmul_relative_error(ref, ref) == 0.0);
  CHECK(matmul_relative_error(Tensor({3}, {1.0f, -4.0f, 3.0f}), ref) == doctest::Approx(0.25));
  CHECK(std::isnan(matmul_relative_error(Tensor({3}, {kNaN, -4.0f, 2.0f}), ref)));
  CHECK(matmul_relative_error(Tensor({2}), Tensor({2})) == 0.0);
  CHECK(std::isinf(matmul_relative_error(Tensor({2}, {0.0f, 1.0f}), Tensor({2}))));
  CHECK_THROWS_WITH_AS(matmul_relative_error(Tensor({2}), Tensor({3})),
                       "matmul_relative_error needs equal shapes: got (2), reference (3)",
                       ShapeError);
}

TEST_CASE("the SIMD helpers round to nearest even and build exact powers of two") {
  using namespace perflab::detail;
  alignas(16) float out[4];
  alignas(16) const float in[4] = {2.5f, -1.5f, 0.49f, -3.7f};
  store(out, round_nearest(load(in)));
  CHECK(out[0] == 2.0f);
  CHECK(out[1] == -2.0f);
  CHECK(out[2] == 0.0f);
  CHECK(out[3] == -4.0f);

  alignas(16) const float n[4] = {-127.0f, -126.0f, 0.0f, 128.0f};
  store(out, pow2_int(load(n)));
  CHECK(out[0] == 0.0f);
  CHECK(out[1] == std::numeric_limits<float>::min());
  CHECK(out[2] == 1.0f);
  CHECK(out[3] == kInf);

  // shift_to_exponent of n + 127 carried by the rounding magic is 2^n, over the whole normal
  // range.
  for (int e = -126; e <= 128; ++e) {
    CAPTURE(e);
    store(out, shift_to_exponent(add(splat(static_cast<float>(e)), splat(kRoundMagic + 127.0f))));
    CHECK(out[0] == (e == 128 ? kInf : std::ldexp(1.0f, e)));
  }

  // The NaN rule the GELU clamps rely on: a NaN second operand survives max and min.
  store(out, max(splat(1.0f), splat(kNaN)));
  CHECK(std::isnan(out[0]));
  store(out, min(splat(1.0f), splat(kNaN)));
  CHECK(std::isnan(out[0]));

  // Horizontal sum and maximum; a NaN in any lane makes the maximum NaN.
  alignas(16) const float lanes[4] = {1.5f, -8.0f, 7.25f, 0.5f};
  CHECK(hsum(load(lanes)) == 1.25f);
  CHECK(hmax(load(lanes)) == 7.25f);
  CHECK(hmax(splat(-kInf)) == -kInf);
  for (int lane = 0; lane < 4; ++lane) {
    alignas(16) float with_nan[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    with_nan[lane] = kNaN;
    CAPTURE(lane);
    CHECK(std::isnan(hmax(load(with_nan))));
  }
}

// Applies a vector function to every value of xs (a padded last vector) and returns the
// results in order.
template <class F>
std::vector<float> apply_vec(const std::vector<float>& xs, F f) {
  using namespace perflab::detail;
  std::vector<float> ys(xs.size());
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    alignas(16) float buf[4] = {};
    for (std::size_t l = 0; l < 4 && i + l < xs.size(); ++l) buf[l] = xs[i + l];
    store(buf, f(load(buf)));
    for (std::size_t l = 0; l < 4 && i + l < xs.size(); ++l) ys[i + l] = buf[l];
  }
  return ys;
}

TEST_CASE("the vector e^x is within a few float ulps of exp over its whole range") {
  // 200001 points over [−87, 88] (the range where e^x is a normal float), plus ±10 exactly.
  std::vector<float> xs = dense_range(-87.0f, 88.0f, 200001);
  xs.push_back(10.0f);
  xs.push_back(-10.0f);
  const std::vector<float> ys = apply_vec(xs, [](perflab::detail::f32x4 v) {
    return perflab::detail::exp_approx(v);
  });
  double worst = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double ref = std::exp(static_cast<double>(xs[i]));
    const double rel = std::fabs(ys[i] - ref) / ref;
    worst = std::max(worst, rel);
    if (!(rel <= 3e-7)) {
      INFO("x = " << xs[i] << ": got " << ys[i] << ", reference " << ref);
      REQUIRE(rel <= 3e-7);
    }
  }
  CHECK(worst <= 3e-7);
  // Saturation and non-finite inputs.
  const std::vector<float> special =
      apply_vec({-kInf, kInf, kNaN, -100.0f, 100.0f, 0.0f, -88.0f, 89.0f},
                [](perflab::detail::f32x4 v) { return perflab::detail::exp_approx(v); });
  CHECK(special[0] == 0.0f);
  CHECK(special[1] == kInf);
  CHECK(std::isnan(special[2]));
  CHECK(special[3] == 0.0f);
  CHECK(special[4] == kInf);
  CHECK(special[5] == 1.0f);
  CHECK(special[6] == 0.0f);  // saturates: e^-88 ≈ 6e-39 is below the normal range
  CHECK(special[7] == kInf);
}

TEST_CASE("the vector tanh is within 2e-7 of tanh over [-10, 10] and exact in the limits") {
  const std::vector<float> xs = dense_range(-10.0f, 10.0f, 40001);
  const std::vector<float> ys = apply_vec(xs, [](perflab::detail::f32x4 v) {
    return perflab::detail::tanh_approx(v);
  });
  double worst = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double err = std::fabs(ys[i] - std::tanh(static_cast<double>(xs[i])));
    worst = std::max(worst, err);
    if (!(err <= 2e-7)) {
      INFO("x = " << xs[i] << ": got " << ys[i]);
      REQUIRE(err <= 2e-7);
    }
  }
  CHECK(worst <= 2e-7);
  const std::vector<float> special =
      apply_vec({-kInf, kInf, kNaN, -10.0f, 10.0f, 0.0f},
                [](perflab::detail::f32x4 v) { return perflab::detail::tanh_approx(v); });
  CHECK(special[0] == -1.0f);
  CHECK(special[1] == 1.0f);
  CHECK(std::isnan(special[2]));
  CHECK(special[3] == -1.0f);
  CHECK(special[4] == 1.0f);
  CHECK(special[5] == 0.0f);
}

TEST_CASE("the vector GELU is within tolerance of the double reference everywhere") {
  // The fused SIMD kernel's own 2^x (not exp_approx): a dense range well past both clamps
  // (x = −10.0625 and t = −126 near x = 10), with ±10 exactly, then extreme and non-finite
  // inputs.
  std::vector<float> xs = dense_range(-30.0f, 30.0f, 600001);
  xs.push_back(10.0f);
  xs.push_back(-10.0f);
  const perflab::detail::GeluVec gelu_vec;
  const std::vector<float> ys = apply_vec(xs, gelu_vec);
  double worst = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double ref = gelu_reference(xs[i]);
    const double tolerance = 1e-6 + 1e-5 * std::fabs(ref);
    const double err = std::fabs(ys[i] - ref);
    worst = std::max(worst, err / tolerance);
    if (!(err <= tolerance)) {
      INFO("x = " << xs[i] << ": got " << ys[i] << ", reference " << ref);
      REQUIRE(err <= tolerance);
    }
  }
  CHECK(worst <= 0.1);  // measured 0.02: the Padé approximant of 2^f is good to about 1e-8
  const float big = std::numeric_limits<float>::max();
  const float tiny = std::numeric_limits<float>::denorm_min();
  const std::vector<float> special =
      apply_vec({kInf, -kInf, kNaN, big, -big, tiny, -tiny, 0.0f, -0.0f, 1e-20f},
                gelu_vec);
  CHECK(special[0] == kInf);
  CHECK(special[1] == 0.0f);  // −0: the limit, not −inf · 0 = NaN
  CHECK(std::isnan(special[2]));
  CHECK(special[3] == big);
  CHECK(special[4] == 0.0f);
  CHECK(std::fabs(special[5]) <= tiny);
  CHECK(std::fabs(special[6]) <= tiny);
  CHECK(special[7] == 0.0f);
  CHECK(special[8] == 0.0f);
  CHECK(special[9] == doctest::Approx(0.5e-20).epsilon(1e-6).scale(0));
}

TEST_CASE("gelu_reference gives the tanh-approximation values") {
  // Values of 0.5·x·(1 + tanh(sqrt(2/π)·(x + 0.044715·x³))) computed independently.
  CHECK(gelu_reference(0.0) == 0.0);
  CHECK(gelu_reference(1.0) == doctest::Approx(0.8411919906082768).epsilon(1e-14));
  CHECK(gelu_reference(-1.0) == doctest::Approx(-0.15880800939172324).epsilon(1e-14));
  CHECK(gelu_reference(2.0) == doctest::Approx(1.954597694087775).epsilon(1e-14));
  CHECK(gelu_reference(-3.0) == doctest::Approx(-0.0036373920817729943).epsilon(1e-12).scale(0));
  // Matches the literal formula to 1e-9 relative (0 at x = 0) wherever 1 + tanh does not cancel.
  for (double x = -5.0; x <= 5.0; x += 0.125) {
    const double literal =
        0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
    CHECK(std::fabs(gelu_reference(x) - literal) <= 1e-9 * std::fabs(literal));
  }
  CHECK(gelu_reference(INFINITY) == INFINITY);
  CHECK(gelu_reference(-INFINITY) == 0.0);
  CHECK(std::isnan(gelu_reference(NAN)));
  CHECK(gelu_reference(-10.0) < 0.0);  // tiny but not cancelled to zero
}

TEST_CASE("the gelu variants are listed and found by name") {
  const auto& variants = gelu_variants();
  REQUIRE(variants.size() == 4);
  CHECK(variants[0].name == "unfused");
  CHECK(variants[1].name == "unfused-simd");
  CHECK(variants[2].name == "fused");
  CHECK(variants[3].name == "fused-simd");
  for (const auto& v : variants) {
    CHECK_FALSE(v.description.empty());
    CHECK(&find_gelu_variant(v.name) == &v);
  }
  CHECK_THROWS_WITH_AS(
      gelu(Tensor({2}), "fast"),
      "unknown gelu variant 'fast'; known variants: unfused, unfused-simd, fused, fused-simd",
      ValueError);
  // The default is the fastest, fused-simd.
  const Tensor x = Tensor::random({37}, 5, -6.0f, 6.0f);
  CHECK(gelu(x).to_vector() == gelu(x, "fused-simd").to_vector());
}

TEST_CASE("every gelu variant matches the reference over [-10, 10]") {
  // 20001 points: a step of 0.001, and a count that is not a multiple of 4 (tail path).
  const std::vector<float> xs = dense_range(-10.0f, 10.0f, 20001);
  const Tensor x({xs.size()}, xs);
  for (const auto& v : gelu_variants()) {
    INFO("variant " << v.name);
    const Tensor y = gelu(x, v.name);
    REQUIRE(y.shape() == x.shape());
    double worst = 0.0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double ref = gelu_reference(xs[i]);
      const double tolerance = 1e-6 + 1e-5 * std::fabs(ref);
      const double err = std::fabs(y[i] - ref);
      worst = std::max(worst, err / tolerance);
      if (!(err <= tolerance)) {
        INFO("x = " << xs[i] << ": got " << y[i] << ", reference " << ref);
        REQUIRE(err <= tolerance);
      }
    }
    CHECK(worst <= 1.0);
    // Exact in the limits of the range.
    const Tensor ends = gelu(Tensor({2}, {10.0f, -10.0f}), v.name);
    CHECK(ends[0] == 10.0f);
    CHECK(std::fabs(ends[1]) <= 1e-30f);
  }
}

TEST_CASE("fused simd gelu gives every element the same arithmetic at every length") {
  // The kernel takes four vectors per step, then single vectors, then a padded last vector:
  // lengths 1..40 reach every mix of the three paths, and each element must equal what the
  // same input gives in the middle of a long run.
  const std::vector<float> xs = dense_range(-6.0f, 6.0f, 40);
  const Tensor whole = gelu(Tensor({xs.size()}, xs), "fused-simd");
  for (std::size_t n = 1; n <= xs.size(); ++n) {
    for (std::size_t offset : {std::size_t{0}, xs.size() - n}) {
      const std::vector<float> part(xs.begin() + offset, xs.begin() + offset + n);
      const Tensor y = gelu(Tensor({n}, part), "fused-simd");
      for (std::size_t i = 0; i < n; ++i) {
        INFO("n = " << n << ", offset " << offset << ", x = " << part[i]);
        CHECK(y[i] == whole[offset + i]);
      }
    }
  }
}

TEST_CASE("fused gelu keeps its relative accuracy in the negative tail") {
  // 1 + tanh(u) cancels near u = −1; the fused kernels' x / (1 + e^(−2u)) does not, so even
  // gelu(−10) ≈ −1e-37 comes out with a few correct digits.
  const std::vector<float> xs = dense_range(-10.0f, -3.0f, 7001);
  for (const char* variant : {"fused", "fused-simd"}) {
    const Tensor y = gelu(Tensor({xs.size()}, xs), variant);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const double ref = gelu_reference(xs[i]);
      INFO(variant << ": x = " << xs[i] << ": got " << y[i] << ", reference " << ref);
      REQUIRE(std::fabs(y[i] - ref) <= 1e-4 * std::fabs(ref));
    }
  }
}

TEST_CASE("gelu handles infinities and NaN") {
  const Tensor x({5}, {kInf, -kInf, kNaN, 0.0f, -0.0f});
  for (const char* variant : {"fused", "fused-simd"}) {
    CAPTURE(variant);
    const Tensor y = gelu(x, variant);  // the limits
    CHECK(y[0] == kInf);
    CHECK(y[1] == 0.0f);  // −0 compares equal
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 0.0f);
    CHECK(y[4] == 0.0f);
  }
  for (const char* variant : {"unfused", "unfused-simd"}) {
    CAPTURE(variant);
    const Tensor y = gelu(x, variant);  // IEEE arithmetic as NumPy does: −inf · 0 is NaN
    CHECK(y[0] == kInf);
    CHECK(std::isnan(y[1]));
    CHECK(std::isnan(y[2]));
    CHECK(y[3] == 0.0f);
    CHECK(y[4] == 0.0f);
  }
}

TEST_CASE("unfused gelu allocates a temporary per operation and fused gelu none") {
  const Tensor x = Tensor::random({1000}, 7, -4.0f, 4.0f);
  const std::size_t out_bytes = x.bytes();
  for (const char* variant : {"unfused", "unfused-simd"}) {
    CAPTURE(variant);
    MemorySession session;
    const Tensor y = gelu(x, variant);
    const MemorySnapshot s = session.stop();
    CHECK(s.allocation_count == 8);  // x³, ·0.044715, x+, ·sqrt(2/π), tanh, 1+, x·, ·0.5
    CHECK(s.peak_bytes >= 2 * out_bytes);
    CHECK(s.current_bytes == out_bytes);  // only the result is left
  }
  for (const char* variant : {"fused", "fused-simd"}) {
    CAPTURE(variant);
    MemorySession session;
    const Tensor y = gelu(x, variant);
    const MemorySnapshot s = session.stop();
    CHECK(s.allocation_count == 1);
    CHECK(s.peak_bytes == out_bytes);
    CHECK(s.current_bytes == out_bytes);
  }
}

TEST_CASE("add and mul work element-wise and reject differing shapes") {
  // 7 elements: one full vector and a tail of 3.
  const Tensor a({7}, {1, 2, 3, 4, 5, 6, 7});
  const Tensor b({7}, {0.5f, -2, 10, 0, -5, 1024, kInf});
  const std::vector<float> sum = add(a, b).to_vector();
  const std::vector<float> prod = mul(a, b).to_vector();
  CHECK(sum == std::vector<float>{1.5f, 0, 13, 4, 0, 1030, kInf});
  CHECK(prod == std::vector<float>{0.5f, -4, 30, 0, -25, 6144, kInf});
  CHECK(add(Tensor({2, 3}), Tensor({2, 3})).shape() == Shape{2, 3});
  CHECK(add(Tensor({0}), Tensor({0})).size() == 0);

  CHECK_THROWS_WITH_AS(add(Tensor({2, 3}), Tensor({3, 2})),
                       "add shape mismatch: a (2, 3) and b (3, 2) must have the same shape",
                       ShapeError);
  CHECK_THROWS_WITH_AS(mul(Tensor({6}), Tensor({2, 3})),
                       "mul shape mismatch: a (6) and b (2, 3) must have the same shape",
                       ShapeError);
}

TEST_CASE("add and mul match a scalar reference at sizes around the vector width") {
  // 1 (tail only), 3, 4 (one vector), 5, 17 (vectors and a tail of 1), 1023 (many and 3),
  // and a 3-D shape: element-wise is indifferent to rank.
  const Shape shapes[] = {{1}, {3}, {4}, {5}, {17}, {1023}, {3, 7, 11}};
  std::uint64_t seed = 40;
  for (const Shape& shape : shapes) {
    CAPTURE(shape_to_string(shape));
    const Tensor a = Tensor::random(shape, ++seed, -100.0f, 100.0f);
    const Tensor b = Tensor::random(shape, ++seed, -100.0f, 100.0f);
    const Tensor sum = add(a, b), prod = mul(a, b);
    REQUIRE(sum.shape() == shape);
    REQUIRE(prod.shape() == shape);
    for (std::size_t i = 0; i < a.size(); ++i) {
      // One float operation each, so the result is the correctly rounded float.
      CHECK(sum[i] == static_cast<float>(static_cast<double>(a[i]) + b[i]));
      CHECK(prod[i] == static_cast<float>(static_cast<double>(a[i]) * b[i]));
    }
  }
}

TEST_CASE("every gelu variant keeps a 2-D and a 3-D shape and matches the reference") {
  const Shape shapes[] = {{5, 7}, {3, 4, 9}, {2, 1, 1}};
  std::uint64_t seed = 60;
  for (const Shape& shape : shapes) {
    const Tensor x = Tensor::random(shape, ++seed, -6.0f, 6.0f);
    for (const auto& v : gelu_variants()) {
      CAPTURE(shape_to_string(shape));
      CAPTURE(v.name);
      const Tensor y = gelu(x, v.name);
      REQUIRE(y.shape() == shape);
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double ref = gelu_reference(x[i]);
        CHECK(y[i] == doctest::Approx(ref).epsilon(1e-5).scale(0.1));
      }
    }
  }
}

TEST_CASE("measure_matmul validates n, the variant and the options") {
  TimerOptions options;
  CHECK_THROWS_WITH_AS(measure_matmul("simd", 0, options), "n must be between 1 and 4096, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_matmul("naive", 4097, options),
                       "n must be between 1 and 4096, got 4097", ValueError);
  CHECK_THROWS_WITH_AS(measure_matmul("fast", 8, options), kUnknownMatmul, ValueError);
  CHECK_THROWS_WITH_AS(measure_matmul_blocked(0, MatmulTiles{}, options),
                       "n must be between 1 and 4096, got 0", ValueError);
  options.samples = 0;
  CHECK_THROWS_AS(measure_matmul("simd", 8, options), ValueError);
}

TEST_CASE("measure_matmul returns a finite positive figure for every variant") {
  TimerOptions options;
  options.warmup = 1;
  options.samples = 5;
  options.min_sample_ms = 0.5;
  options.max_total_ms = 100;
  for (const auto& v : matmul_variants()) {
    INFO("variant " << v.name);
    const MatmulMeasurement m = measure_matmul(v.name, 33, options);
    CHECK(m.variant == v.name);
    CHECK(m.n == 33);
    CHECK(m.flops == 2.0 * 33 * 33 * 33);
    CHECK(m.stats.samples >= 2);
    CHECK(m.stats.median_ms > 0.0);
    CHECK(std::isfinite(m.gflops_per_s));
    CHECK(m.gflops_per_s > 0.0);
    CHECK(m.gflops_per_s == doctest::Approx(m.flops / (m.stats.median_ms * 1e6)));
  }
  // The tuning experiment's point: the blocked kernel with the student's tiles.
  const MatmulMeasurement m = measure_matmul_blocked(33, MatmulTiles{4, 8, 5}, options);
  CHECK(m.variant == "blocked");
  CHECK(m.n == 33);
  CHECK(m.flops == 2.0 * 33 * 33 * 33);
  CHECK(m.gflops_per_s > 0.0);
}

TEST_CASE("measure_gelu validates its input and returns a finite figure for every variant") {
  TimerOptions options;
  CHECK_THROWS_WITH_AS(measure_gelu("fused", 0, options),
                       "n must be between 1 and 67108864, got 0", ValueError);
  CHECK_THROWS_WITH_AS(
      measure_gelu("fast", 8, options),
      "unknown gelu variant 'fast'; known variants: unfused, unfused-simd, fused, fused-simd",
      ValueError);
  options.warmup = 1;
  options.samples = 5;
  options.min_sample_ms = 0.2;
  options.max_total_ms = 50;
  for (const auto& v : gelu_variants()) {
    INFO("variant " << v.name);
    const GeluMeasurement m = measure_gelu(v.name, 1001, options);
    CHECK(m.variant == v.name);
    CHECK(m.n == 1001);
    // Bytes per call: 8 per element for one fused pass, 72 for the eight unfused passes.
    CHECK(m.bytes == (v.name.rfind("fused", 0) == 0 ? 8.0 : 72.0) * 1001);
    CHECK(m.stats.median_ms > 0.0);
    CHECK(m.gb_per_s == doctest::Approx(m.bytes / (m.stats.median_ms * 1e6)));
    CHECK(m.ns_per_element == doctest::Approx(m.stats.median_ms * 1e6 / 1001));
  }
}

TEST_CASE("measure_matmul reports progress and stops when asked to") {
  TimerOptions options;
  options.warmup = 0;
  options.samples = 5;
  options.min_sample_ms = 0.1;
  options.max_total_ms = 100;
  int calls = 0;
  double last = -1.0;
  measure_matmul("simd", 8, options, default_clock(), [&](double fraction) {
    ++calls;
    last = fraction;
    return true;
  });
  CHECK(calls > 0);
  CHECK(last == doctest::Approx(1.0));
  CHECK_THROWS_AS(measure_matmul("simd", 8, options, default_clock(),
                                 [](double) { return false; }),
                  CancelledError);
}
