// Matmul benchmark: for N = 64, 128, 256, 512, GFLOP/s of every registered variant via
// measure_matmul (which verifies each variant against naive before timing it), then the
// simd/naive ratio at each N, all measured in this one run. Native and wasm (under Node).
// Not a test: it asserts nothing and always exits 0 unless a variant is wrong or an
// argument is unknown. `--quick` uses smaller time budgets.
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "perflab/error.hpp"
#include "perflab/kernels.hpp"

int main(int argc, char** argv) {
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else {
      std::fprintf(stderr, "unknown argument '%s'; usage: perflab_bench [--quick]\n", argv[i]);
      return 2;
    }
  }

  perflab::TimerOptions options;
  options.warmup = 1;
  options.samples = quick ? 5 : 15;
  options.min_sample_ms = quick ? 5.0 : 20.0;
  options.max_total_ms = quick ? 300.0 : 1500.0;

  const std::vector<std::size_t> sizes = {64, 128, 256, 512};
  constexpr std::size_t kFloorN = 256;
  constexpr double kFloorRatio = 3.0;

  std::printf("perflab matmul bench: simd backend %s (%s), %s budgets\n",
              perflab::simd_backend(), perflab::simd_enabled() ? "128-bit vectors" : "scalar",
              quick ? "quick" : "full");
  std::printf("%6s  %-10s %10s %12s %8s  %s\n", "N", "variant", "GFLOP/s", "median ms", "cv",
              "warning");

  std::map<std::size_t, std::map<std::string, double>> gflops;  // N -> variant -> GFLOP/s
  try {
    for (const std::size_t n : sizes) {
      for (const auto& v : perflab::matmul_variants()) {
        const perflab::MatmulMeasurement m = perflab::measure_matmul(v.name, n, options);
        gflops[n][v.name] = m.gflops_per_s;
        std::printf("%6zu  %-10s %10.2f %12.4f %7.1f%%  %s\n", n, v.name.c_str(),
                    m.gflops_per_s, m.stats.median_ms, 100.0 * m.stats.cv,
                    m.stats.warning.c_str());
        std::fflush(stdout);
      }
    }
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "bench failed: %s\n", e.what());
    return 1;
  }

  std::printf("\nratios (same run):\n");
  for (const std::size_t n : sizes) {
    const auto& g = gflops[n];
    std::printf("  N=%-4zu simd/naive %6.1fx   reordered/naive %6.1fx   simd/reordered %6.1fx\n",
                n, g.at("simd") / g.at("naive"), g.at("reordered") / g.at("naive"),
                g.at("simd") / g.at("reordered"));
  }
  const double ratio = gflops[kFloorN].at("simd") / gflops[kFloorN].at("naive");
  std::printf("simd/naive at N=%zu: %.1fx (floor %.0fx)%s\n", kFloorN, ratio, kFloorRatio,
              ratio < kFloorRatio ? " BELOW FLOOR" : "");
  return 0;
}
