// Int8 Linear bench: the "simd" int8 kernel (activations quantized in the timed call) against
// the float packed matmul at the fashion MLP's layer shapes (784→256, 256→128, 128→10) at
// batch 1 and 64, and square N = 256 (batch 256, 256→256), each pair timed side by side in
// one measure_int8_linear call (which verifies the int8 kernel against naive and the exact
// product first). The machine may be shared, so the sweep runs in rounds (alternating the
// order of shapes): figures are medians over rounds with their range, each ratio taken
// within a round. Native and wasm (under Node).
// Not a test: it asserts nothing and always exits 0 unless a kernel is wrong or an argument
// is unknown. `--quick` uses smaller time budgets and one round.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/int8.hpp"

namespace {

struct Range {
  double median = 0, lo = 0, hi = 0;
};

Range range_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {perflab::median(v), v.front(), v.back()};
}

struct Shape {
  std::size_t batch, in, out;
};

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
      std::fprintf(stderr, "unknown argument '%s'; usage: perflab_bench_int8 [--quick] "
                           "[--rounds R]\n", argv[i]);
      return 2;
    }
  }
  if (rounds == 0) rounds = quick ? 1 : 3;

  perflab::TimerOptions options;
  options.warmup = 1;
  options.samples = quick ? 5 : 15;
  options.min_sample_ms = quick ? 5.0 : 20.0;
  options.max_total_ms = quick ? 300.0 : 1500.0;

  const std::vector<Shape> shapes = {{1, 784, 256},  {1, 256, 128},  {1, 128, 10},
                                     {64, 784, 256}, {64, 256, 128}, {64, 128, 10},
                                     {256, 256, 256}};
  // The floor: int8 at least 1.8× the float packed matmul at square N = 256, the size the
  // matmul floors are set at, meant for the wasm build (natively it is informational).
  constexpr std::size_t kFloorShape = 6;
  constexpr double kFloorRatio = 1.8;

  std::printf("perflab int8 bench: simd backend %s (%s), %s budgets, %d round%s\n",
              perflab::simd_backend(), perflab::simd_enabled() ? "128-bit vectors" : "scalar",
              quick ? "quick" : "full", rounds, rounds == 1 ? "" : "s");

  // Per shape, one value per round.
  std::vector<std::vector<double>> int8_ms(shapes.size()), float_ms(shapes.size()),
      speedup(shapes.size()), to_bound(shapes.size());
  std::vector<double> bytes_ratio(shapes.size());
  int warned = 0;
  std::string last_warning;
  try {
    for (int round = 0; round < rounds; ++round) {
      std::fprintf(stderr, "round %d of %d\n", round + 1, rounds);
      for (std::size_t j = 0; j < shapes.size(); ++j) {
        const std::size_t i = round % 2 == 0 ? j : shapes.size() - 1 - j;
        const Shape& s = shapes[i];
        const perflab::Int8LinearMeasurement m =
            perflab::measure_int8_linear("simd", s.batch, s.in, s.out, options);
        int8_ms[i].push_back(m.int8.median_ms);
        float_ms[i].push_back(m.float32.median_ms);
        speedup[i].push_back(m.speedup);
        to_bound[i].push_back(m.max_error_to_bound);
        bytes_ratio[i] = static_cast<double>(m.float32_bytes) / static_cast<double>(m.int8_bytes);
        for (const perflab::Stats* st : {&m.int8, &m.float32}) {
          if (st->warning.empty()) continue;
          ++warned;
          last_warning = st->warning;
        }
      }
    }
  } catch (const perflab::Error& e) {
    std::fprintf(stderr, "bench failed: %s\n", e.what());
    return 1;
  }

  std::printf("%6s %12s %11s %11s %19s %13s %11s\n", "batch", "Linear", "int8 ms", "float ms",
              "float/int8 (range)", "bytes f32/i8", "err/bound");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& s = shapes[i];
    const Range r = range_of(speedup[i]);
    const std::string layer = std::to_string(s.in) + "→" + std::to_string(s.out);
    std::printf("%6zu %12s %11.4f %11.4f %7.2fx (%.2f-%.2f) %12.2fx %11.2f\n", s.batch,
                layer.c_str(), range_of(int8_ms[i]).median, range_of(float_ms[i]).median,
                r.median, r.lo, r.hi, bytes_ratio[i], range_of(to_bound[i]).hi);
  }
  const Shape& f = shapes[kFloorShape];
  const Range r = range_of(speedup[kFloorShape]);
  std::printf("\nint8/float packed at batch %zu, %zu→%zu: %.2fx, floor %.1fx: %s\n", f.batch,
              f.in, f.out, r.median, kFloorRatio, r.median >= kFloorRatio ? "met" : "not met");
  if (warned > 0) {
    std::printf("\n%d figure%s flagged by the Timer, e.g. %s\n", warned,
                warned == 1 ? " was" : "s were", last_warning.c_str());
  }
  return 0;
}
