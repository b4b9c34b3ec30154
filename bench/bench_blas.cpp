// Native reference ratio: our matmul variants (measure_matmul verifies each against naive
// first; the scalar baselines are left to perflab_bench) against OpenBLAS's cblas_sgemm on
// one thread, N = 128, 256, 512, same Timer and options, in interleaved rounds as
// bench/compare.mjs (the machine may be shared); also the fraction of our SIMD peak
// (probe.hpp). OpenBLAS picks AVX2/AVX-512 + FMA kernels at run time, ours are 128-bit SSE2:
// a yardstick, not a floor. Not a test: asserts no timing; exits 0 unless a result is wrong
// or an argument unknown. `--quick`: smaller budgets. Built only if pkg-config finds openblas.
#include <cblas.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace {

// Issue 4: matmul at N = 512 reaches at least 80% of the measured SIMD peak.
constexpr std::size_t kPeakFloorN = 512;
constexpr double kPeakFloor = 0.8;

// out (n, n) = a (n, n) @ b (n, n), row-major, overwritten (beta 0) as our kernels do.
void sgemm(float* out, const float* a, const float* b, std::size_t n) {
  const int size = static_cast<int>(n);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, size, size, size, 1.0f, a, size, b, size,
              0.0f, out, size);
}

// OpenBLAS's sgemm on random inputs made once, checked against our naive kernel, then timed.
perflab::MatmulMeasurement measure_sgemm(std::size_t n, const perflab::TimerOptions& options) {
  const perflab::Tensor a = perflab::Tensor::random({n, n}, 0x5EED0001);
  const perflab::Tensor b = perflab::Tensor::random({n, n}, 0x5EED0002);
  perflab::Tensor out({n, n});
  perflab::Tensor reference({n, n});
  perflab::matmul_variants().front().kernel(reference.data(), a.data(), b.data(), n, n, n);
  sgemm(out.data(), a.data(), b.data(), n);
  const double error = perflab::matmul_relative_error(out, reference);
  if (!(error <= perflab::kMatmulTolerance)) {
    throw perflab::Error("cblas_sgemm disagrees with naive at n=" + std::to_string(n) +
                         ": normwise error " + std::to_string(error));
  }
  perflab::MatmulMeasurement m;
  m.variant = "openblas";
  m.n = n;
  m.flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  m.stats =
      perflab::Timer().options(options).run([&] { sgemm(out.data(), a.data(), b.data(), n); });
  m.gflops_per_s = m.stats.median_ms > 0 ? m.flops / (m.stats.median_ms * 1e6) : 0.0;
  return m;
}

// One figure: a kernel timed once per round; the figure is the median of its round medians.
struct Timing {
  perflab::Stats stats;
  double flops = 0;  // per call
};
struct Figure {
  std::string name;
  std::function<Timing()> time;
  std::vector<double> median_ms;     // per round
  std::vector<double> gflops_per_s;  // per round
  std::vector<double> cv;            // per round
};

std::string range(const std::vector<double>& values, const char* format) {
  if (values.size() < 2) return "";
  char text[64];
  std::snprintf(text, sizeof text, format, *std::min_element(values.begin(), values.end()),
                *std::max_element(values.begin(), values.end()));
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "unknown argument '%s'; usage: perflab_bench_blas [--quick]\n", argv[i]);
      return 2;
    }
  }
  // Our kernels are single-threaded; so must the yardstick be. The environment variable
  // OPENBLAS_NUM_THREADS is read when the library loads, too late to set here.
  openblas_set_num_threads(1);

  // The same options as bench/compare.mjs gives both sides.
  perflab::TimerOptions options;
  options.warmup = quick ? 1 : 2;
  options.samples = quick ? 5 : 15;
  options.min_sample_ms = quick ? 5.0 : 20.0;
  options.max_total_ms = quick ? 400.0 : 2500.0;

  std::printf("perflab matmul vs OpenBLAS cblas_sgemm, native, %s budgets\n",
              quick ? "quick" : "full");
  std::printf("ours: simd backend %s; OpenBLAS %s, core %s, %d thread(s)\n",
              perflab::simd_backend(), openblas_get_config(), openblas_get_corename(),
              openblas_get_num_threads());
  const int rounds = quick ? 1 : 3;
  std::printf("%d interleaved round(s): each figure is the median of its round medians\n", rounds);
  std::printf(
      "'peak' is the probe's SIMD multiply-add peak of this build (%s), timed in the\n"
      "same rounds: the roof our kernels are held to (OpenBLAS may pass it: wider\n"
      "vectors, FMA)\n",
      perflab::simd_backend());
  std::printf("%6s  %-10s %10s %12s %19s %8s %10s %8s\n", "N", "variant", "GFLOP/s", "median ms",
              "rounds range ms", "cv", "/openblas", "/peak");

  // The summary names one variant chosen before measuring, as bench/compare.mjs does, rather
  // than the fastest of a noisy run: "packed" once it is registered, else "simd".
  std::string headline = "simd";
  for (const auto& v : perflab::matmul_variants()) {
    if (v.name == "packed") headline = v.name;
  }

  const std::vector<std::size_t> sizes = {128, 256, 512};
  std::vector<std::string> summary;
  try {
    for (const std::size_t n : sizes) {
      const double flops =
          2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
      std::vector<Figure> figures;
      figures.push_back({"openblas", [&] {
                           return Timing{measure_sgemm(n, options).stats, flops};
                         }});
      for (const auto& v : perflab::matmul_variants()) {
        if (v.name == "naive" || v.name == "reordered") continue;
        figures.push_back({v.name, [&, name = v.name] {
                             return Timing{perflab::measure_matmul(name, n, options).stats, flops};
                           }});
      }
      figures.push_back({"peak", [] {
                           const perflab::PeakMeasurement p =
                               perflab::probe_peak_simd(perflab::ProbeOptions::quick());
                           return Timing{p.stats, p.flops_per_call};
                         }});
      // Alternate the order each round, so a change in the machine's load hits all alike.
      for (int r = 0; r < rounds; ++r) {
        for (std::size_t k = 0; k < figures.size(); ++k) {
          Figure& f = figures[r % 2 == 0 ? k : figures.size() - 1 - k];
          const Timing t = f.time();
          f.median_ms.push_back(t.stats.median_ms);
          f.gflops_per_s.push_back(t.flops / (t.stats.median_ms * 1e6));
          f.cv.push_back(t.stats.cv);
        }
      }
      const double blas_gflops_per_s = perflab::median(figures.front().gflops_per_s);
      const double peak_gflops_per_s = perflab::median(figures.back().gflops_per_s);
      for (const Figure& f : figures) {
        const double gflops_per_s = perflab::median(f.gflops_per_s);
        std::printf("%6zu  %-10s %10.2f %12.4f %19s %7.1f%% %9.2fx %7.0f%%\n", n, f.name.c_str(),
                    gflops_per_s, perflab::median(f.median_ms),
                    range(f.median_ms, "%.4f-%.4f").c_str(), 100.0 * perflab::median(f.cv),
                    gflops_per_s / blas_gflops_per_s, 100.0 * gflops_per_s / peak_gflops_per_s);
      }
      std::fflush(stdout);

      const auto ours = std::find_if(figures.begin(), figures.end(),
                                     [&](const Figure& f) { return f.name == headline; });
      std::vector<double> ratios;  // per round, throughput ours/openblas
      for (int r = 0; r < rounds; ++r) {
        ratios.push_back(figures.front().median_ms[r] / ours->median_ms[r]);
      }
      const std::string spread = range(ratios, "%.2f-%.2fx");
      char line[240];
      std::snprintf(line, sizeof line,
                    "matmul N=%zu: ours %s %.1f GFLOP/s vs OpenBLAS sgemm %.1f GFLOP/s = %.2fx%s "
                    "(reference, no floor)",
                    n, headline.c_str(), perflab::median(ours->gflops_per_s), blas_gflops_per_s,
                    perflab::median(ratios),
                    spread.empty() ? "" : (" (rounds " + spread + ")").c_str());
      summary.emplace_back(line);
      if (n == kPeakFloorN) {
        const double fraction = perflab::median(ours->gflops_per_s) / peak_gflops_per_s;
        std::snprintf(line, sizeof line,
                      "matmul N=%zu: ours %s at %.0f%% of the probe's SIMD peak %.1f GFLOP/s "
                      "(floor %.0f%%)%s",
                      n, headline.c_str(), 100.0 * fraction, peak_gflops_per_s, 100.0 * kPeakFloor,
                      fraction < kPeakFloor ? " BELOW FLOOR" : "");
        summary.emplace_back(line);
      }
    }
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "bench failed: %s\n", e.what());
    return 1;
  }
  std::printf(
      "\nsummary (same run, %d interleaved round(s); ratio = ours/OpenBLAS in "
      "throughput):\n",
      rounds);
  for (const std::string& line : summary) std::printf("%s\n", line.c_str());
  return 0;
}
