// The lab's kernels as the Benchmarking chapter times them: one call of a matmul or GELU
// variant on inputs built once (LabKernel), and a run of the timer over one of them that keeps
// every per-call sample in order, nothing dropped (sample_kernel): the raw material of the
// chapter's distributions, intervals and A/B runs.
// Not for: the A/B runner's rounds (ab.hpp) or statistics of the samples (summary.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// One kernel ready to call: `call` runs it once through the lab's Tensor API (so it pays the
// allocation of its output, as every arm of an A/B run does); `inputs` keeps its inputs alive.
struct LabKernel {
  std::string op, variant;
  std::size_t n = 0;
  std::shared_ptr<void> inputs;
  std::function<void()> call;
};

// op "matmul": a variant of matmul_variants() on N×N @ N×N, n = N in 1..kMaxMeasureMatmulN;
// op "gelu": a variant of gelu_variants() over n elements, 1..kMaxMeasureGeluN. Inputs are
// random with fixed seeds, the same for every variant. Throws ValueError naming op, the
// variant or n and what is allowed.
LabKernel lab_kernel(const std::string& op, const std::string& variant, std::size_t n);

struct KernelSample {
  std::vector<double> samples_ms;  // per-call time of each sample, in order, outliers kept
  long inner_iterations = 1;       // calls per sample (the timer's batching rule)
  double resolution_ms = 0;        // the clock's measured resolution
  std::string warning;             // the timer's warning, if any (e.g. the budget ran out)
};

// Times `kernel` with Timer and `options` (warmup, samples, min_sample_ms, max_total_ms)
// and returns every sample it took. Throws what options.validate() throws.
KernelSample sample_kernel(const LabKernel& kernel, const TimerOptions& options = {},
                           Clock& clock = default_clock(), const ProgressFn& progress = {});

}  // namespace perflab
