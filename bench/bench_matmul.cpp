// Kernel benchmark: for N = 64, 128, 256, 512, GFLOP/s of every registered matmul variant
// via measure_matmul (which verifies each variant against naive before timing it), the
// probe's SIMD peak (independent multiply-add chains) and copy bandwidth, and every GELU
// variant on 4 Mi elements via measure_gelu (verified first too), then ratios, all measured
// in this one run. Native and wasm (under Node). The machine may be shared, so the sweep runs
// in rounds (alternating the order of variants): figures are medians over rounds with their
// range, and each ratio is taken within a round.
// Not a test: it asserts nothing and always exits 0 unless a variant is wrong or an argument
// is unknown. `--quick` uses smaller time budgets and one round.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/roofline/probe.hpp"

namespace {

struct Range {
  double median = 0, lo = 0, hi = 0;
};

Range range_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {perflab::median(v), v.front(), v.back()};
}

void print_usage() {
  std::fprintf(stderr, "usage: perflab_bench [--quick] [--rounds R]\n");
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int rounds = 0;  // 0: the default for the budget
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc &&
               std::atoi(argv[i + 1]) >= 1) {
      rounds = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "unknown argument '%s'; ", argv[i]);
      print_usage();
      return 2;
    }
  }
  if (rounds == 0) rounds = quick ? 1 : 3;

  perflab::TimerOptions options;
  options.warmup = 1;
  options.samples = quick ? 5 : 15;
  options.min_sample_ms = quick ? 5.0 : 20.0;
  options.max_total_ms = quick ? 300.0 : 1500.0;
  perflab::ProbeOptions probe_options;
  probe_options.budget_ms = quick ? 100.0 : 300.0;

  const std::vector<std::size_t> sizes = {64, 128, 256, 512};
  constexpr std::size_t kFloorN = 256;
  constexpr double kFloorRatio = 3.0;
  constexpr std::size_t kPeakN = 512;
  constexpr double kPeakFloor = 0.8;  // issue 4: packed at N = 512, fraction of the SIMD peak

  std::printf("perflab matmul bench: simd backend %s (%s), %s budgets, %d round%s\n",
              perflab::simd_backend(), perflab::simd_enabled() ? "128-bit vectors" : "scalar",
              quick ? "quick" : "full", rounds, rounds == 1 ? "" : "s");

  std::vector<std::string> names;
  for (const auto& v : perflab::matmul_variants()) names.push_back(v.name);
  std::vector<std::string> gelu_names;
  for (const auto& v : perflab::gelu_variants()) gelu_names.push_back(v.name);
  constexpr std::size_t kGeluN = std::size_t{4} << 20;  // 4 Mi elements, 16 MiB

  // gflops[n][variant][round], peak[round] (mean of the probes around packed at kPeakN), ...
  std::map<std::size_t, std::map<std::string, std::vector<double>>> gflops;
  std::map<std::size_t, std::map<std::string, std::vector<double>>> cv;
  std::map<std::string, std::vector<double>> gelu_gb_per_s, gelu_ns;
  std::vector<double> peak, copy_gb_per_s;
  std::string last_warning;  // one example, when any figure was flagged
  int warned = 0;
  const auto note = [&](const perflab::Stats& stats, const std::string& what) {
    if (stats.warning.empty()) return;
    ++warned;
    last_warning = what + ": " + stats.warning;
  };
  try {
    for (int round = 0; round < rounds; ++round) {
      std::fprintf(stderr, "round %d of %d\n", round + 1, rounds);
      for (const std::size_t n : sizes) {
        std::vector<std::string> order = names;
        if (round % 2 == 1) std::reverse(order.begin(), order.end());
        for (const auto& name : order) {
          // The peak is probed just before and just after the floor's measurement, so that
          // the fraction compares figures taken under the same load on a shared machine.
          const bool floor_point = n == kPeakN && name == "packed";
          const auto probe = [&] {
            const perflab::PeakMeasurement pk = perflab::probe_peak_simd(probe_options);
            note(pk.stats, "SIMD peak");
            return pk.gflops_per_s;
          };
          const double peak_before = floor_point ? probe() : 0.0;
          const perflab::MatmulMeasurement m = perflab::measure_matmul(name, n, options);
          if (floor_point) peak.push_back(0.5 * (peak_before + probe()));
          gflops[n][name].push_back(m.gflops_per_s);
          cv[n][name].push_back(m.stats.cv);
          note(m.stats, name + " at N=" + std::to_string(n));
        }
      }
      const perflab::BandwidthMeasurement copy = perflab::probe_copy(probe_options);
      copy_gb_per_s.push_back(copy.gb_per_s);
      note(copy.stats, "copy");
      std::vector<std::string> order = gelu_names;
      if (round % 2 == 1) std::reverse(order.begin(), order.end());
      for (const auto& name : order) {
        const perflab::GeluMeasurement g = perflab::measure_gelu(name, kGeluN, options);
        gelu_gb_per_s[name].push_back(g.gb_per_s);
        gelu_ns[name].push_back(g.ns_per_element);
        note(g.stats, "gelu " + name);
      }
    }
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "bench failed: %s\n", e.what());
    return 1;
  }

  std::printf("%6s  %-10s %10s %17s %8s\n", "N", "variant", "GFLOP/s", "range", "cv");
  for (const std::size_t n : sizes) {
    for (const auto& name : names) {
      const Range g = range_of(gflops[n][name]);
      const Range c = range_of(cv[n][name]);
      std::printf("%6zu  %-10s %10.2f %8.2f-%-8.2f %7.1f%%\n", n, name.c_str(), g.median, g.lo,
                  g.hi, 100.0 * c.median);
    }
  }
  const Range p = range_of(peak);
  std::printf("SIMD peak (probe, independent multiply-add chains, around packed at N=%zu): "
              "%.2f GFLOP/s (%.2f-%.2f)\n",
              kPeakN, p.median, p.lo, p.hi);

  // Each ratio within a round, then the median and range over rounds.
  const auto ratio = [&](std::size_t n, const std::string& a, const std::string& b) {
    std::vector<double> r;
    for (int i = 0; i < rounds; ++i) r.push_back(gflops[n][a][i] / gflops[n][b][i]);
    return range_of(r);
  };
  const auto print_ratio = [&](std::size_t n, const char* a, const char* b) {
    const Range r = ratio(n, a, b);
    std::printf("  %s/%s %6.2fx (%.2f-%.2f)", a, b, r.median, r.lo, r.hi);
  };
  std::printf("\nratios (each within a round; median and range over rounds):\n");
  for (const std::size_t n : sizes) {
    std::printf("  N=%-4zu", n);
    print_ratio(n, "reordered", "naive");
    print_ratio(n, "blocked", "reordered");
    print_ratio(n, "simd", "reordered");
    std::printf("\n        ");
    print_ratio(n, "simd", "naive");
    print_ratio(n, "packed", "simd");
    print_ratio(n, "packed", "naive");
    std::printf("\n");
  }

  std::printf("\n");
  const Range floor_ratio = ratio(kFloorN, "simd", "naive");
  std::printf("simd/naive at N=%zu: %.1fx (floor %.0fx)%s\n", kFloorN, floor_ratio.median,
              kFloorRatio, floor_ratio.median < kFloorRatio ? " BELOW FLOOR" : "");
  for (const std::size_t n : {std::size_t{256}, kPeakN}) {
    const Range g = range_of(gflops[n]["packed"]);
    std::printf("packed at N=%zu: %.2f GFLOP/s (%.2f-%.2f)\n", n, g.median, g.lo, g.hi);
  }
  std::vector<double> fraction;
  for (int i = 0; i < rounds; ++i) fraction.push_back(gflops[kPeakN]["packed"][i] / peak[i]);
  const Range f = range_of(fraction);
  std::printf("packed at N=%zu / SIMD peak: %.0f%% (%.0f-%.0f%%) (floor %.0f%%)%s\n", kPeakN,
              100.0 * f.median, 100.0 * f.lo, 100.0 * f.hi, 100.0 * kPeakFloor,
              f.median < kPeakFloor ? " BELOW FLOOR" : "");

  // GELU: effective bandwidth counts each variant's own passes (8 bytes per element fused,
  // 72 unfused), so the ratio of times is taken from ns per element.
  std::printf("\nGELU on %zu elements (GB/s of the variant's own traffic):\n", kGeluN);
  std::printf("  %-13s %9s %17s %10s\n", "variant", "ns/elem", "range", "GB/s");
  for (const auto& name : gelu_names) {
    const Range ns = range_of(gelu_ns[name]);
    std::printf("  %-13s %9.3f %8.3f-%-8.3f %10.2f\n", name.c_str(), ns.median, ns.lo, ns.hi,
                range_of(gelu_gb_per_s[name]).median);
  }
  const Range c = range_of(copy_gb_per_s);
  std::printf("copy bandwidth (probe): %.2f GB/s (%.2f-%.2f)\n", c.median, c.lo, c.hi);
  std::vector<double> fused_speedup, fused_of_copy;
  for (int i = 0; i < rounds; ++i) {
    fused_speedup.push_back(gelu_ns["unfused"][i] / gelu_ns["fused-simd"][i]);
    fused_of_copy.push_back(gelu_gb_per_s["fused-simd"][i] / copy_gb_per_s[i]);
  }
  const Range s1 = range_of(fused_speedup), s2 = range_of(fused_of_copy);
  std::printf("gelu fused-simd / unfused: %.1fx (%.1f-%.1f) (floor 2x)%s\n", s1.median, s1.lo,
              s1.hi, s1.median < 2.0 ? " BELOW FLOOR" : "");
  std::printf("gelu fused-simd / copy bandwidth: %.0f%% (%.0f-%.0f%%) (floor 60%%)%s\n",
              100.0 * s2.median, 100.0 * s2.lo, 100.0 * s2.hi,
              s2.median < 0.6 ? " BELOW FLOOR" : "");
  if (warned > 0) {
    std::printf("\n%d figure%s flagged by the Timer, e.g. %s\n", warned, warned == 1 ? " was" : "s were",
                last_warning.c_str());
  }
  return 0;
}
