// Timer truth, natively: the lab's Timer and Google Benchmark time the same callables in one
// process (packed matmul at N = 64 and 256 into an output allocated once; fused-SIMD GELU
// over 64 Ki elements, the kernel as the lab calls it, returning a new tensor), and the bench
// prints both medians per call, their ratio, and whether they agree within 5%. The two
// tools are run in alternating rounds (lab, Google Benchmark, lab, ...) so that a machine
// that speeds up or slows down during the run affects both alike; each figure is the median
// of its round medians. Not a test: it asserts no timing and exits 0 unless a kernel is wrong
// or an argument unknown. `--quick`: fewer rounds. Built only when CMake finds benchmark
// (Debian: libbenchmark-dev).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace {

constexpr double kAgreement = 0.05;  // the bound on |lab / google − 1|

struct Kernel {
  std::string name;
  std::function<void()> call;
};

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Collects Google Benchmark's per-repetition times (ms per iteration), nothing printed.
class Collector final : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      if (r.run_type != Run::RT_Iteration || r.error_occurred || r.iterations == 0) continue;
      ms_per_call.push_back(1e3 * r.real_accumulated_time / static_cast<double>(r.iterations));
    }
  }
  std::vector<double> ms_per_call;
};

// One Google Benchmark measurement of `call`: `repetitions` runs of at least min_time_s each
// (its own iteration growth), the median of their times per iteration.
double google_median_ms(const Kernel& k, int repetitions, double min_time_s) {
  benchmark::ClearRegisteredBenchmarks();
  benchmark::RegisterBenchmark(k.name.c_str(),
                               [&k](benchmark::State& state) {
                                 for (auto _ : state) k.call();
                               })
      ->Repetitions(repetitions)
      ->MinTime(min_time_s)
      ->UseRealTime();
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  if (collector.ms_per_call.empty()) throw perflab::Error("Google Benchmark reported no runs");
  return median_of(collector.ms_per_call);
}

// The lab's Timer on `call`: per-call median with its default batching (each sample at
// least max(min_sample_ms, 100 clock ticks)).
double lab_median_ms(const Kernel& k, int samples, double min_sample_ms) {
  perflab::TimerOptions o;
  o.warmup = 3;
  o.samples = samples;
  o.min_sample_ms = min_sample_ms;
  o.max_total_ms = 60000;
  return perflab::Timer().options(o).run(k.call).median_ms;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "perflab_bench_timer_truth: unknown argument '%s'; the option is "
                           "--quick\n", argv[i]);
      return 2;
    }
  }
  // Google Benchmark reads its own flags; give it none but a program name.
  int gb_argc = 1;
  char* gb_argv[] = {argv[0], nullptr};
  benchmark::Initialize(&gb_argc, gb_argv);

  const int rounds = quick ? 3 : 7;
  // Per round: the lab's 15 samples of ≥ 2 ms against Google Benchmark's 5 repetitions of
  // ≥ 6 ms, about the same time spent by each tool.
  const int lab_samples = 15, gb_repetitions = 5;
  const double lab_min_sample_ms = 2.0, gb_min_time_s = 0.006;

  try {
    // Inputs made once and verified before timing, as every bench here does.
    std::vector<Kernel> kernels;
    const perflab::MatmulVariant& packed = perflab::find_matmul_variant("packed");
    std::vector<perflab::Tensor> keep;
    keep.reserve(6);
    for (std::size_t n : {std::size_t{64}, std::size_t{256}}) {
      keep.push_back(perflab::Tensor::random({n, n}, 0x5EED0001));
      const perflab::Tensor& a = keep.back();
      keep.push_back(perflab::Tensor::random({n, n}, 0x5EED0002));
      const perflab::Tensor& b = keep.back();
      keep.emplace_back(perflab::Shape{n, n});
      perflab::Tensor& out = keep.back();
      perflab::Tensor reference({n, n});
      perflab::find_matmul_variant("naive").kernel(reference.data(), a.data(), b.data(), n, n,
                                                   n);
      packed.kernel(out.data(), a.data(), b.data(), n, n, n);
      if (!(perflab::matmul_relative_error(out, reference) <= perflab::kMatmulTolerance)) {
        throw perflab::Error("packed matmul disagrees with naive at N = " + std::to_string(n));
      }
      kernels.push_back({"matmul packed N=" + std::to_string(n), [&packed, &a, &b, &out, n] {
                           packed.kernel(out.data(), a.data(), b.data(), n, n, n);
                           benchmark::ClobberMemory();
                         }});
    }
    const std::size_t gelu_n = 64 * 1024;
    const perflab::Tensor x = perflab::Tensor::random({gelu_n}, 0x5EED0003, -4.0f, 4.0f);
    {
      const perflab::Tensor y = perflab::gelu(x, "fused-simd");
      for (std::size_t i = 0; i < gelu_n; ++i) {
        const double ref = perflab::gelu_reference(x[i]);
        if (!(std::fabs(y[i] - ref) <= 1e-6 + 1e-5 * std::fabs(ref))) {
          throw perflab::Error("fused-simd GELU disagrees with the reference");
        }
      }
    }
    kernels.push_back({"gelu fused-simd n=65536", [&x] {
                         perflab::Tensor y = perflab::gelu(x, "fused-simd");
                         benchmark::DoNotOptimize(y.data());
                       }});

    std::printf("Timer truth: the lab's Timer against Google Benchmark, same callables, one "
                "process, %d alternating rounds (SIMD backend %s)\n\n",
                rounds, perflab::simd_backend());
    // The fastest round of each tool beside the medians: on a loaded machine the least
    // disturbed round is the better estimate of what the kernel costs.
    std::printf("%-26s %13s %13s %8s %6s %13s %13s %8s\n", "kernel", "lab med ms", "gbm med ms",
                "lab/gbm", "<=5%", "lab min ms", "gbm min ms", "lab/gbm");
    for (const Kernel& k : kernels) {
      std::vector<double> lab, google;
      for (int r = 0; r < rounds; ++r) {
        lab.push_back(lab_median_ms(k, lab_samples, lab_min_sample_ms));
        google.push_back(google_median_ms(k, gb_repetitions, gb_min_time_s));
      }
      const double lab_ms = median_of(lab), google_ms = median_of(google);
      const double ratio = lab_ms / google_ms;
      const double lab_min = *std::min_element(lab.begin(), lab.end());
      const double google_min = *std::min_element(google.begin(), google.end());
      std::printf("%-26s %13.5f %13.5f %8.3f %6s %13.5f %13.5f %8.3f\n", k.name.c_str(), lab_ms,
                  google_ms, ratio, std::fabs(ratio - 1) <= kAgreement ? "yes" : "no", lab_min,
                  google_min, lab_min / google_min);
    }
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "perflab_bench_timer_truth: %s\n", e.what());
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
