// The kernel engine's measurements: the packed matmul and the fused GELU in a flavour ("fma"
// or "simd") on a number of threads, each on the inputs measure_matmul / measure_gelu draw,
// verified before timing, then timed by core's Timer around engine.run (the copies in and
// out are untimed). The thread-scaling and FMA experiments, the CLI's `perflab parallel` and
// the bench are made of these points.
// Not for: choosing the thread count (the caller asks facts()), or the probe's peaks
// (roofline/probe_engine.hpp).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/timing/timer.hpp"

namespace perflab {

struct ParallelMeasurement {
  std::string kernel;   // "matmul" or "gelu"
  std::string flavour;  // "fma" or "simd"
  unsigned threads = 1;
  std::size_t n = 0;  // N (matmul, square N×N @ N×N) or elements (gelu)
  double flops = 0, bytes = 0;  // per call: cost_matmul(N, N, N) or cost_gelu_fused(n)
  double gflops_per_s = 0, gb_per_s = 0;  // flops and bytes over the median
  // matmul: matmul_relative_error against naive (n <= kMaxVerifiedMatmulN), above that
  // against the main module's single-thread packed kernel; gelu: the largest
  // |got − ref| / (1e-6 + 1e-5·|ref|) against gelu_reference (at most 1, or it throws).
  double max_error = 0;
  Stats stats;
};

// Throws ValueError for a flavour the engine does not run, threads outside
// [1, facts().max_threads], n outside [1, kMaxMeasureMatmulN] (elements outside
// [1, kMaxMeasureGeluN]) or a call that cannot fit the time budget; Error when the result
// disagrees with the reference (kMatmulTolerance normwise for matmul; the GELU bound per
// element), or when no engine is loaded.
ParallelMeasurement measure_parallel_matmul(const std::string& flavour, unsigned threads,
                                            std::size_t n, const TimerOptions& options,
                                            Clock& clock = default_clock(),
                                            const ProgressFn& progress = nullptr);
ParallelMeasurement measure_parallel_gelu(const std::string& flavour, unsigned threads,
                                          std::size_t elements, const TimerOptions& options,
                                          Clock& clock = default_clock(),
                                          const ProgressFn& progress = nullptr);

// {kernel, flavour, threads, n, flops, bytes, gflops_per_s, gb_per_s, max_error, stats},
// flat like measure_matmul's row.
nlohmann::json to_json(const ParallelMeasurement& m);

}  // namespace perflab
