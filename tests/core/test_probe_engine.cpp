// Protects the kernel engine's probe (roofline/probe_engine.hpp), never its speed: on the
// native engine every figure is finite and positive and the FMA peak is there exactly when the
// engine runs FMA; thread counts outside the engine's are refused with check_engine_call's
// sentence; on a fake engine over a fake clock the work each call is counted as (the probe's
// chains and lanes, the engine's steps, per thread; the triad's 12 bytes per element over the probe's
// arrays), which flavour and thread count each figure runs, and progress and cancel; the JSON.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/detail/kernel_bands.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/probe_engine.hpp"
#include "perflab/timing/clock.hpp"

using namespace perflab;

namespace {

// A few milliseconds per figure and 1 MiB for the triad's arrays.
ProbeOptions tiny_options() {
  ProbeOptions o;
  o.budget_ms = 3;
  o.samples = 3;
  o.bandwidth_bytes = 1u << 20;
  return o;
}

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

// The message `f` throws, or "" when it does not throw.
template <class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// An engine that runs nothing: each run advances the fake clock by 1 ms and is recorded.
struct Call {
  EngineKernel kernel;
  std::string flavour;
  unsigned threads;
  std::size_t n;
  long steps;
  float scalar;
};
class FakeEngine final : public KernelEngine {
 public:
  FakeEngine(FakeClock& clock, std::vector<std::string> flavours, unsigned max_threads)
      : clock_(clock) {
    facts_.flavours = std::move(flavours);
    facts_.max_threads = max_threads;
    facts_.shared_memory = max_threads > 1;
    facts_.why = "a fake engine";
  }
  EngineFacts facts() const override { return facts_; }
  void prepare(std::size_t a, std::size_t b, std::size_t c, std::size_t out, std::size_t,
               unsigned) override {
    prepared = {a, b, c, out};
  }
  void write(EngineBuffer buffer, const float*, std::size_t n) override {
    writes.emplace_back(buffer, n);
  }
  void read(EngineBuffer, float*, std::size_t) override {}
  void run(EngineKernel kernel, const std::string& flavour, unsigned threads, std::size_t,
           std::size_t, std::size_t n, long steps, float scalar) override {
    calls.push_back({kernel, flavour, threads, n, steps, scalar});
    clock_.advance(1.0);
  }
  std::vector<std::size_t> prepared;
  std::vector<std::pair<EngineBuffer, std::size_t>> writes;
  std::vector<Call> calls;

 private:
  FakeClock& clock_;
  EngineFacts facts_;
};

// Installs an engine for one test; the process's own engine comes back after it.
struct EngineGuard {
  explicit EngineGuard(std::shared_ptr<KernelEngine> engine) { set_kernel_engine(std::move(engine)); }
  ~EngineGuard() { set_kernel_engine(nullptr); }
  EngineGuard(const EngineGuard&) = delete;
  EngineGuard& operator=(const EngineGuard&) = delete;
};

// The distinct (kernel, flavour, threads) of the calls, in order.
std::vector<std::string> runs_of(const std::vector<Call>& calls) {
  std::vector<std::string> runs;
  for (const Call& c : calls) {
    const std::string what = std::string(c.kernel == EngineKernel::peak ? "peak" : "triad") + " " +
                             c.flavour + " " + std::to_string(c.threads);
    if (runs.empty() || runs.back() != what) runs.push_back(what);
  }
  return runs;
}

}  // namespace

// Natively only: the wasm build's engine is the page's JS one, which this binary has not.
#if !defined(__EMSCRIPTEN__)
TEST_CASE("the native engine's probe gives every figure, the FMA peak exactly when it runs FMA") {
  const EngineFacts facts = kernel_engine().facts();
  const EnginePeaks p = probe_engine(facts.max_threads, tiny_options());
  CHECK(p.threads == facts.max_threads);
  CHECK(finite_positive(p.muladd_gflops_per_s));
  CHECK(finite_positive(p.all_core_gflops_per_s));
  CHECK(finite_positive(p.per_core_triad_gb_per_s));
  CHECK(finite_positive(p.all_core_triad_gb_per_s));
  const bool fma = std::find(facts.flavours.begin(), facts.flavours.end(), "fma") != facts.flavours.end();
  CHECK(p.fma_gflops_per_s.has_value() == fma);
  if (p.fma_gflops_per_s) CHECK(finite_positive(*p.fma_gflops_per_s));
  // One thread is always allowed.
  CHECK(probe_engine(1, tiny_options()).threads == 1);
}

TEST_CASE("thread counts outside the engine's are refused with check_engine_call's sentence") {
  KernelEngine& engine = kernel_engine();
  const unsigned max = engine.facts().max_threads;
  const std::string fastest = engine.facts().flavours.front();
  for (unsigned threads : {0u, max + 1}) {
    CAPTURE(threads);
    const std::string expected = message_of([&] { check_engine_call(engine, fastest, threads); });
    REQUIRE(!expected.empty());
    CHECK_THROWS_WITH_AS(probe_engine(threads, tiny_options()), expected.c_str(), ValueError);
  }
  // The options are the probe's, with its messages.
  ProbeOptions bad = tiny_options();
  bad.samples = 1;
  CHECK_THROWS_WITH_AS(probe_engine(1, bad), "samples must be between 2 and 10000, got 1",
                       ValueError);
}
#endif

TEST_CASE("each figure counts the probe's work per call and runs where it says") {
  FakeClock clock(0.0, 1e-9);
  auto engine = std::make_shared<FakeEngine>(clock, std::vector<std::string>{"fma", "simd"}, 4);
  const EngineGuard guard(engine);
  const ProbeOptions options = tiny_options();
  const EnginePeaks p = probe_engine(3, options, clock);

  // Every call lasts 1 ms, so a rate is the work of one call over 1 ms.
  const double flops_per_thread =
      2.0 * detail::kLanes * detail::kPeakChains * static_cast<double>(kEnginePeakSteps);
  CHECK(p.threads == 3);
  CHECK(p.muladd_gflops_per_s == doctest::Approx(flops_per_thread / 1e6));
  REQUIRE(p.fma_gflops_per_s.has_value());
  CHECK(*p.fma_gflops_per_s == doctest::Approx(flops_per_thread / 1e6));
  CHECK(p.all_core_gflops_per_s == doctest::Approx(3 * flops_per_thread / 1e6));
  const std::size_t n = triad_floats_per_array(options);
  CHECK(p.per_core_triad_gb_per_s == doctest::Approx(12.0 * n / 1e6));
  CHECK(p.all_core_triad_gb_per_s == doctest::Approx(12.0 * n / 1e6));

  // Multiply-add and FMA on one thread, the fastest flavour (fma) on 3; the triad on 1 and 3.
  CHECK(runs_of(engine->calls) == std::vector<std::string>{"peak simd 1", "peak fma 1", "peak fma 3",
                                                           "triad fma 1", "triad fma 3"});
  for (const Call& c : engine->calls) {
    if (c.kernel == EngineKernel::peak) {
      CHECK(c.steps == kEnginePeakSteps);
      CHECK(c.scalar == kProbePeakMultiplier);
    } else {
      CHECK(c.n == n);
      CHECK(c.scalar == kProbeTriadScalar);
    }
  }
  // The triad's three arrays, each written once before timing.
  CHECK(engine->prepared == std::vector<std::size_t>{n, n, n, 0});
  CHECK(engine->writes.size() == 3);
  for (const auto& [buffer, count] : engine->writes) CHECK(count == n);
}

TEST_CASE("an engine without FMA has no FMA peak; its all-core figures run its one flavour") {
  FakeClock clock(0.0, 1e-9);
  auto engine = std::make_shared<FakeEngine>(clock, std::vector<std::string>{"simd"}, 2);
  const EngineGuard guard(engine);
  const EnginePeaks p = probe_engine(2, tiny_options(), clock);
  CHECK_FALSE(p.fma_gflops_per_s.has_value());
  CHECK(runs_of(engine->calls) ==
        std::vector<std::string>{"peak simd 1", "peak simd 2", "triad simd 1", "triad simd 2"});
  const nlohmann::json j = to_json(p);
  CHECK(j["fma_gflops_per_s"].is_null());
  CHECK(j["all_core_flavour"] == "simd");
}

TEST_CASE("progress rises to 1 over every figure, and a cancel stops the probe") {
  FakeClock clock(0.0, 1e-9);
  auto engine = std::make_shared<FakeEngine>(clock, std::vector<std::string>{"fma", "simd"}, 2);
  const EngineGuard guard(engine);
  std::vector<double> fractions;
  probe_engine(2, tiny_options(), clock, [&](double f) {
    fractions.push_back(f);
    return true;
  });
  REQUIRE(!fractions.empty());
  for (std::size_t i = 1; i < fractions.size(); ++i) CHECK(fractions[i] >= fractions[i - 1]);
  CHECK(fractions.back() == doctest::Approx(1.0));
  CHECK(fractions.front() >= 0.0);

  engine->calls.clear();
  CHECK_THROWS_AS(probe_engine(2, tiny_options(), clock, [](double f) { return f < 0.5; }),
                  CancelledError);
  CHECK(runs_of(engine->calls).size() < 5);
}

TEST_CASE("the JSON carries every figure, the all-core roofs' ridge, and null for what was not measured") {
  EnginePeaks p;
  p.threads = 2;
  p.muladd_gflops_per_s = 40;
  p.fma_gflops_per_s = 60;
  p.all_core_gflops_per_s = 120;
  p.per_core_triad_gb_per_s = 10;
  p.all_core_triad_gb_per_s = 15;
  const nlohmann::json j = to_json(p);
  CHECK(j["threads"] == 2);
  CHECK(j["muladd_gflops_per_s"] == 40.0);
  CHECK(j["fma_gflops_per_s"] == 60.0);
  CHECK(j["all_core_gflops_per_s"] == 120.0);
  CHECK(j["per_core_triad_gb_per_s"] == 10.0);
  CHECK(j["all_core_triad_gb_per_s"] == 15.0);
  CHECK(j["all_core_flavour"] == "fma");
  CHECK(j["all_core_ridge_flops_per_byte"].get<double>() == doctest::Approx(8.0));
  CHECK(p.all_core_roofs().peak_gflops_per_s == 120.0);
  CHECK(p.all_core_roofs().bandwidth_gb_per_s == 15.0);
  // A machine too busy to time reads 0: no ridge, not a division error.
  p.all_core_triad_gb_per_s = 0;
  CHECK(to_json(p)["all_core_ridge_flops_per_byte"].is_null());
}
