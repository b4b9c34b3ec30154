// Protects the division of work between threads and the kernel engine's measurements: the
// bands of kernel_bands.hpp cover every row (whole strips) and every element (whole 16-float
// chunks) exactly once, for thread counts above the work too; the packed matmul run band by
// band equals the single-thread packed kernel bit for bit (each row's arithmetic does not
// depend on the band) and agrees with naive; natively the std::thread engine's matmul, GELU
// and triad on 1, 2 and 3 threads equal the main kernels' results; engine calls and the
// measurements reject what they cannot run with sentences naming what is allowed; a wrong
// engine result is caught before timing; the measurement rows carry their counts. Speed is
// never asserted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/detail/kernel_bands.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/parallel.hpp"
#include "perflab/tensor/tensor.hpp"
#include "timer_helpers.hpp"

using namespace perflab;
using detail::Band;

namespace {

// Bands of t = 0..T-1 in order: contiguous from 0 to `size`, so each index is covered once.
template <class BandFn>
void check_bands_cover(std::size_t size, unsigned T, BandFn band_of) {
  std::size_t next = 0;
  for (unsigned t = 0; t < T; ++t) {
    const Band band = band_of(t);
    CAPTURE(t);
    REQUIRE(band.begin == next);
    REQUIRE(band.end >= band.begin);
    next = band.end;
  }
  CHECK(next == size);
}

// A fake engine that only states facts, for check_engine_call.
class FactsOnlyEngine final : public KernelEngine {
 public:
  EngineFacts facts() const override {
    return {{"fma", "simd"}, 4, true, "a test engine with both flavours"};
  }
  void prepare(std::size_t, std::size_t, std::size_t, std::size_t, std::size_t,
               unsigned) override {}
  void write(EngineBuffer, const float*, std::size_t) override {}
  void read(EngineBuffer, float*, std::size_t) override {}
  void run(EngineKernel, const std::string&, unsigned, std::size_t, std::size_t, std::size_t,
           long, float) override {}
};

Tensor naive_matmul(const Tensor& a, const Tensor& b) { return matmul(a, b, "naive"); }

}  // namespace

TEST_CASE("matmul_band gives each thread whole strips, every row exactly once") {
  constexpr std::size_t MR = detail::kPackedMR;
  for (std::size_t M : {0, 1, 2, 3, 5, 16, 17, 63, 64, 65, 127, 200, 513}) {
    for (unsigned T = 1; T <= 9; ++T) {
      CAPTURE(M);
      CAPTURE(T);
      check_bands_cover(M, T, [&](unsigned t) { return detail::matmul_band(M, t, T); });
      const std::size_t strips = (M + MR - 1) / MR;
      for (unsigned t = 0; t < T; ++t) {
        const Band band = detail::matmul_band(M, t, T);
        // A strip never straddles two bands (an empty band past the rows starts at M).
        if (band.begin < band.end) CHECK(band.begin % MR == 0);
        const std::size_t band_strips = (band.end - band.begin + MR - 1) / MR;
        // Balanced: strips / T or one more, the extra ones to the first threads.
        CHECK(band_strips == strips / T + (t < strips % T ? 1 : 0));
      }
    }
  }
  // Outside the threads: empty.
  CHECK(detail::matmul_band(10, 3, 3).begin == detail::matmul_band(10, 3, 3).end);
  CHECK(detail::matmul_band(10, 0, 0).begin == detail::matmul_band(10, 0, 0).end);
}

TEST_CASE("element_band gives each thread whole 16-float chunks, every element exactly once") {
  constexpr std::size_t chunk = detail::kBandChunkFloats;
  CHECK(chunk * sizeof(float) == 64);  // one cache line: no two threads write one line
  for (std::size_t n : {0, 1, 15, 16, 17, 31, 32, 33, 100, 1000, 4097}) {
    for (unsigned T = 1; T <= 9; ++T) {
      CAPTURE(n);
      CAPTURE(T);
      check_bands_cover(n, T, [&](unsigned t) { return detail::element_band(n, t, T); });
      const std::size_t chunks = n / chunk;
      for (unsigned t = 0; t < T; ++t) {
        const Band band = detail::element_band(n, t, T);
        CHECK(band.begin % chunk == 0);
        // Whole chunks, balanced as matmul_band balances strips; the last band's end is n.
        const std::size_t whole_end = t + 1 == T ? n / chunk * chunk : band.end;
        CHECK(whole_end % chunk == 0);
        CHECK((whole_end - band.begin) / chunk == chunks / T + (t < chunks % T ? 1 : 0));
      }
      // The last band holds the elements after the last whole chunk.
      CHECK(detail::element_band(n, T - 1, T).end == n);
    }
  }
}

TEST_CASE("the packed matmul run band by band equals the one-thread kernel bit for bit") {
  // Shapes across the kernel's edges: odd M (the zero-padded edge strip), N not a multiple of
  // NR, K above KC = 512 (a second k block, accumulated) and N above NC = 512 (two panels).
  struct Shape3 {
    std::size_t M, K, N;
  };
  for (const Shape3 s : {Shape3{1, 1, 1}, Shape3{3, 5, 7}, Shape3{17, 33, 40},
                         Shape3{9, 520, 19}, Shape3{7, 16, 530}, Shape3{2, 0, 3}}) {
    CAPTURE(s.M);
    CAPTURE(s.K);
    CAPTURE(s.N);
    const Tensor a = Tensor::random({s.M, s.K}, 11);
    const Tensor b = Tensor::random({s.K, s.N}, 12);
    const Tensor single = matmul(a, b, "packed");
    for (unsigned T = 1; T <= 5; ++T) {
      CAPTURE(T);
      Tensor out = Tensor::full({s.M, s.N}, std::nanf(""));  // every element must be written
      for (unsigned t = 0; t < T; ++t) {
        Tensor scratch({detail::packed_scratch_floats(s.K, s.N)});  // each thread its own
        const Band band = detail::matmul_band(s.M, t, T);
        detail::matmul_packed_rows(out.data(), a.data(), b.data(), s.M, s.K, s.N, band.begin,
                                   band.end, scratch.data());
      }
      for (std::size_t i = 0; i < out.size(); ++i) {
        CAPTURE(i);
        REQUIRE(out[i] == single[i]);
      }
      CHECK(matmul_relative_error(out, naive_matmul(a, b)) <= kMatmulTolerance);
    }
  }
}

TEST_CASE("check_engine_call names the flavours and the thread range the engine allows") {
  const FactsOnlyEngine engine;
  CHECK_NOTHROW(check_engine_call(engine, "fma", 1));
  CHECK_NOTHROW(check_engine_call(engine, "simd", 4));
  CHECK_THROWS_WITH_AS(check_engine_call(engine, "avx", 1),
                       "engine flavour 'avx' is not one this engine can run; it runs fma, simd "
                       "(a test engine with both flavours)",
                       ValueError);
  CHECK_THROWS_WITH_AS(check_engine_call(engine, "simd", 0),
                       "threads must be between 1 and 4 (this engine's max_threads: a test "
                       "engine with both flavours), got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(check_engine_call(engine, "simd", 5),
                       "threads must be between 1 and 4 (this engine's max_threads: a test "
                       "engine with both flavours), got 5",
                       ValueError);
  const nlohmann::json facts = to_json(engine.facts());
  CHECK(facts["flavours"] == nlohmann::json::array({"fma", "simd"}));
  CHECK(facts["max_threads"] == 4);
  CHECK(facts["shared_memory"] == true);
  CHECK(facts["why"] == "a test engine with both flavours");
}

#if !defined(__EMSCRIPTEN__)

TEST_CASE("the native engine runs simd on up to hardware_concurrency threads, capped") {
  const EngineFacts facts = kernel_engine().facts();
  CHECK(facts.flavours == std::vector<std::string>{"simd"});
  CHECK(facts.max_threads >= 1);
  CHECK(facts.max_threads <= kMaxEngineThreads);
  CHECK(facts.shared_memory);
  CHECK_THROWS_WITH_AS(make_thread_engine(0),
                       "a thread engine runs between 1 and 16 threads, got 0", ValueError);
  CHECK_THROWS_WITH_AS(make_thread_engine(kMaxEngineThreads + 1),
                       "a thread engine runs between 1 and 16 threads, got 17", ValueError);
}

TEST_CASE("the native engine's matmul, GELU and triad on 1, 2 and 3 threads equal one thread's") {
  // Three threads whatever this machine has: the division is what is tested, not the speed.
  const std::shared_ptr<KernelEngine> engine = make_thread_engine(3);
  SUBCASE("matmul") {
    for (std::size_t n : {1, 5, 33, 130}) {
      const Tensor a = Tensor::random({n, n}, 21);
      const Tensor b = Tensor::random({n, n}, 22);
      const Tensor packed = matmul(a, b, "packed");
      const Tensor naive = naive_matmul(a, b);
      for (unsigned threads : {1u, 2u, 3u}) {
        CAPTURE(n);
        CAPTURE(threads);
        engine->prepare(n * n, n * n, 0, n * n, detail::packed_scratch_floats(n, n), threads);
        engine->write(EngineBuffer::a, a.data(), n * n);
        engine->write(EngineBuffer::b, b.data(), n * n);
        engine->run(EngineKernel::matmul, "simd", threads, n, n, n, 0, 0.0f);
        Tensor out({n, n});
        engine->read(EngineBuffer::out, out.data(), n * n);
        for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(out[i] == packed[i]);
        CHECK(matmul_relative_error(out, naive) <= kMatmulTolerance);
      }
    }
  }
  SUBCASE("gelu") {
    for (std::size_t n : {1, 15, 16, 17, 1000, 4099}) {
      const Tensor x = Tensor::random({n}, 23, -6.0f, 6.0f);
      const Tensor fused = gelu(x, "fused-simd");
      for (unsigned threads : {1u, 2u, 3u}) {
        CAPTURE(n);
        CAPTURE(threads);
        engine->prepare(n, 0, 0, n, 0, threads);
        engine->write(EngineBuffer::a, x.data(), n);
        engine->run(EngineKernel::gelu, "simd", threads, 0, 0, n, 0, 0.0f);
        std::vector<float> out(n);
        engine->read(EngineBuffer::out, out.data(), n);
        for (std::size_t i = 0; i < n; ++i) {
          REQUIRE(out[i] == fused[i]);
          const double ref = gelu_reference(x[i]);
          CHECK(std::fabs(out[i] - ref) <= 1e-6 + 1e-5 * std::fabs(ref));
        }
      }
    }
  }
  SUBCASE("triad") {
    const std::size_t n = 1003;
    const Tensor b = Tensor::random({n}, 24);
    const Tensor c = Tensor::random({n}, 25);
    for (unsigned threads : {1u, 2u, 3u}) {
      CAPTURE(threads);
      engine->prepare(n, n, n, 0, 0, threads);
      engine->write(EngineBuffer::b, b.data(), n);
      engine->write(EngineBuffer::c, c.data(), n);
      engine->run(EngineKernel::triad, "simd", threads, 0, 0, n, 0, 0.5f);
      std::vector<float> a(n);
      engine->read(EngineBuffer::a, a.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        CAPTURE(i);
        REQUIRE(a[i] == doctest::Approx(b[i] + 0.5 * c[i]).epsilon(1e-6).scale(0));
      }
    }
  }
  SUBCASE("a run the buffers do not fit is refused") {
    engine->prepare(4, 4, 0, 4, detail::packed_scratch_floats(2, 2), 1);
    CHECK_THROWS_WITH_AS(engine->run(EngineKernel::matmul, "simd", 1, 3, 3, 3, 0, 0.0f),
                         "the engine's buffer a holds 4 floats but this run needs 9: call "
                         "prepare with the job's sizes first",
                         ValueError);
    CHECK_THROWS_WITH_AS(engine->run(EngineKernel::matmul, "fma", 1, 2, 2, 2, 0, 0.0f),
                         doctest::Contains("engine flavour 'fma' is not one this engine can run; "
                                           "it runs simd"),
                         ValueError);
  }
}

TEST_CASE("measure_parallel_matmul and measure_parallel_gelu validate, verify, then time") {
  const TimerOptions options = timer_test::tiny_timer();
  const unsigned max_threads = kernel_engine().facts().max_threads;
  CHECK_THROWS_WITH_AS(measure_parallel_matmul("simd", 1, 0, options),
                       "n must be between 1 and 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_parallel_matmul("simd", 1, 4097, options),
                       "n must be between 1 and 4096, got 4097", ValueError);
  CHECK_THROWS_WITH_AS(measure_parallel_gelu("simd", 1, 0, options),
                       "n must be between 1 and 67108864, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_parallel_gelu("fma", 1, 16, options),
                       doctest::Contains("engine flavour 'fma' is not one this engine can run"),
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_parallel_matmul("simd", max_threads + 1, 16, options),
                       doctest::Contains(("threads must be between 1 and " +
                                          std::to_string(max_threads))
                                             .c_str()),
                       ValueError);

  for (unsigned threads = 1; threads <= std::min(2u, max_threads); ++threads) {
    CAPTURE(threads);
    const ParallelMeasurement m = measure_parallel_matmul("simd", threads, 24, options);
    CHECK(m.kernel == "matmul");
    CHECK(m.flavour == "simd");
    CHECK(m.threads == threads);
    CHECK(m.n == 24);
    CHECK(m.flops == doctest::Approx(2.0 * 24 * 24 * 24));
    CHECK(m.bytes == doctest::Approx(12.0 * 24 * 24));
    CHECK(m.max_error <= kMatmulTolerance);
    REQUIRE(m.stats.median_ms > 0);
    CHECK(m.gflops_per_s == doctest::Approx(m.flops / (m.stats.median_ms * 1e6)));
    CHECK(m.gb_per_s == doctest::Approx(m.bytes / (m.stats.median_ms * 1e6)));
    const nlohmann::json row = to_json(m);
    for (const char* key : {"kernel", "flavour", "threads", "n", "flops", "bytes", "gflops_per_s",
                            "gb_per_s", "max_error", "stats"}) {
      CHECK_MESSAGE(row.contains(key), key);
    }
    CHECK(row["threads"] == threads);

    const ParallelMeasurement g = measure_parallel_gelu("simd", threads, 1000, options);
    CHECK(g.kernel == "gelu");
    CHECK(g.n == 1000);
    CHECK(g.flops == doctest::Approx(kGeluFlopsPerElement * 1000));
    CHECK(g.bytes == doctest::Approx(cost_gelu_fused(1000).bytes));
    CHECK(g.max_error <= 1.0);
    REQUIRE(g.stats.median_ms > 0);
    CHECK(g.gb_per_s == doctest::Approx(g.bytes / (g.stats.median_ms * 1e6)));
  }
}

namespace {

// The native engine with one element of every read result changed: what a wrong band (or a
// wrong engine module) would hand back.
class CorruptingEngine final : public KernelEngine {
 public:
  std::shared_ptr<KernelEngine> inner = make_thread_engine(1);
  EngineFacts facts() const override { return inner->facts(); }
  void prepare(std::size_t a, std::size_t b, std::size_t c, std::size_t out, std::size_t scratch,
               unsigned threads) override {
    inner->prepare(a, b, c, out, scratch, threads);
  }
  void write(EngineBuffer buffer, const float* src, std::size_t n) override {
    inner->write(buffer, src, n);
  }
  void read(EngineBuffer buffer, float* dst, std::size_t n) override {
    inner->read(buffer, dst, n);
    dst[n / 2] += 1.0f;
  }
  void run(EngineKernel kernel, const std::string& flavour, unsigned threads, std::size_t m,
           std::size_t k, std::size_t n, long steps, float scalar) override {
    inner->run(kernel, flavour, threads, m, k, n, steps, scalar);
  }
};

}  // namespace

TEST_CASE("a wrong engine result is caught before anything is timed") {
  set_kernel_engine(std::make_shared<CorruptingEngine>());
  const TimerOptions options = timer_test::tiny_timer();
  CHECK_THROWS_WITH_AS(measure_parallel_matmul("simd", 1, 8, options),
                       doctest::Contains("the engine's simd matmul on 1 thread disagrees with "
                                         "naive at n=8: max relative error"),
                       Error);
  CHECK_THROWS_WITH_AS(measure_parallel_gelu("simd", 1, 100, options),
                       doctest::Contains("the engine's simd gelu on 1 thread disagrees with the "
                                         "reference at x = "),
                       Error);
  set_kernel_engine(nullptr);  // back to the default engine
  CHECK(kernel_engine().facts().flavours == std::vector<std::string>{"simd"});
}

#else

TEST_CASE("in wasm no kernel engine is loaded until the lab worker installs one") {
  set_kernel_engine(nullptr);
  CHECK_THROWS_WITH_AS(kernel_engine(), doctest::Contains("no kernel engine is loaded"), Error);
}

#endif
