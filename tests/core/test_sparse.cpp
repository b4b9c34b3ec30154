// The CSR Linear kernels (kernels/sparse.hpp): the CSR of a hand-written weight, a product
// worked by hand, every variant against the dense product at batch sizes around the SIMD widths,
// the measurement's counts (on a tiny real budget; no time asserted) and its refusals, and the
// crossover found between two measured densities.
#include <doctest/doctest.h>

#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/sparse.hpp"
#include "perflab/tensor/tensor.hpp"
#include "timer_helpers.hpp"

using namespace perflab;

TEST_CASE("CSR of a weight's transpose, and a product worked by hand") {
  // W (K=3, N=2): outputs read inputs 0 and 2 (output 0) and input 1 (output 1).
  const std::vector<float> w = {1, 0, 0, 2, 3, 0};
  const CsrMatrix wt = csr_from_weight(w.data(), 3, 2);
  CHECK(wt.rows == 2);
  CHECK(wt.cols == 3);
  CHECK(wt.row_start == std::vector<std::uint32_t>{0, 2, 3});
  CHECK(wt.col == std::vector<std::uint32_t>{0, 2, 1});
  CHECK(wt.value == std::vector<float>{1, 3, 2});
  CHECK(wt.bytes() == 4 * (3 + 3 + 3));
  // x = [[1, 1, 1], [1, 2, 3]]: y = [[1 + 3, 2], [1 + 9, 4]].
  const std::vector<float> x = {1, 1, 1, 1, 2, 3};
  for (const SparseLinearVariant& v : sparse_linear_variants()) {
    CAPTURE(v.name);
    std::vector<float> y(4, -1.0f);
    v.kernel(y.data(), x.data(), wt, 2);
    CHECK(y == std::vector<float>{4, 2, 10, 4});
  }
  CHECK_THROWS_WITH_AS(csr_from_weight(w.data(), 0, 2),
                       "a sparse weight needs at least one row and column, got (0, 2)", ValueError);
}

TEST_CASE("Every sparse variant agrees with the dense product, at batches around the SIMD width") {
  const std::size_t K = 37, N = 13;
  Tensor w = Tensor::random({K, N}, 3);
  for (std::size_t i = 0; i < w.size(); i += 3) w.data()[i] = 0.0f;  // a third zero
  const CsrMatrix wt = csr_from_weight(w.data(), K, N);
  CHECK(wt.nnz() == K * N - (K * N + 2) / 3);
  for (std::size_t B : {1, 3, 4, 5, 9, 16, 21, 37}) {
    const Tensor x = Tensor::random({B, K}, 4 + B);
    const Tensor dense = matmul(x, w, "naive");
    for (const SparseLinearVariant& v : sparse_linear_variants()) {
      CAPTURE(B);
      CAPTURE(v.name);
      Tensor y({B, N});
      v.kernel(y.data(), x.data(), wt, B);
      CHECK(matmul_relative_error(y, dense) <= kSparseTolerance);
    }
  }
  CHECK_THROWS_WITH_AS(find_sparse_linear_variant("blocked"),
                       "unknown sparse variant 'blocked'; known variants: naive, batched",
                       ValueError);
}

TEST_CASE("A sparse measurement counts what it kept and times both kernels; bad sizes are sentences") {
  const TimerOptions o = timer_test::tiny_timer();
  const SparseLinearMeasurement m = measure_sparse_linear("batched", 8, 64, 32, 0.25, o);
  CHECK(m.nnz == 512);  // a quarter of 64·32
  CHECK(m.csr_bytes == 4 * (512 + 512 + 33));
  CHECK(m.dense_bytes == 4 * 64 * 32);
  CHECK(m.sparse_flops == 2.0 * 8 * 512);
  CHECK(m.dense_flops == 2.0 * 8 * 64 * 32);
  CHECK(m.sparse.samples > 0);
  CHECK(m.dense.samples > 0);
  CHECK(m.speedup == doctest::Approx(m.dense.median_ms / m.sparse.median_ms));
  const nlohmann::json j = to_json(m);
  CHECK(j["variant"] == "batched");
  CHECK(j["nnz"] == 512);
  CHECK(j.contains("sparse"));
  CHECK_THROWS_WITH_AS(measure_sparse_linear("batched", 8, 64, 32, 0.0, o),
                       "density must be above 0 and at most 1 (the fraction of weights kept: 0.1 "
                       "keeps a tenth), got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_sparse_linear("naive", 0, 64, 32, 0.5, o),
                       "batch must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_AS(measure_sparse_linear("csc", 1, 4, 4, 0.5, o), ValueError);
}

TEST_CASE("The crossover lies between the last faster density and the next, interpolated") {
  const auto point = [](double density, double speedup) {
    SparseLinearMeasurement m;
    m.density = density;
    m.speedup = speedup;
    return m;
  };
  // Speedup 1.5 at 10%, 0.5 at 20%: it crosses 1 halfway, at 15%.
  const SparseCrossover c = sparse_crossover({point(0.2, 0.5), point(0.05, 2.0), point(0.1, 1.5)});
  CHECK(c.found);
  CHECK(c.density == doctest::Approx(0.15));
  CHECK(c.sentence == "sparse is faster below about 15% density (between 10% and 20% measured)");
  const SparseCrossover faster = sparse_crossover({point(0.1, 3.0), point(0.5, 1.2)});
  CHECK_FALSE(faster.found);
  CHECK(faster.sentence == "sparse was faster at every density measured, up to 50%");
  const SparseCrossover slower = sparse_crossover({point(0.1, 0.9), point(0.5, 0.2)});
  CHECK(slower.sentence == "sparse was slower at every density measured, down to 10%");
}
