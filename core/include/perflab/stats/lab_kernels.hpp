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
// op "gelu": a variant of gelu_variants() over n elements, 1..kMaxMeasureGeluN;
// op "model": the variant names a zoo model, one inference forward at batch n,
// 1..kMaxLabModelBatch. Inputs are random with fixed seeds, the same for every variant.
// Throws ValueError naming op, the variant or n and what is allowed.
inline constexpr std::size_t kMaxLabModelBatch = 1024;
LabKernel lab_kernel(const std::string& op, const std::string& variant, std::size_t n);

struct KernelSample {
  std::vector<double> samples_ms;  // per-call time of each sample, in order, outliers kept
  long inner_iterations = 1;       // calls per sample (the timer's batching rule, or fixed)
  double resolution_ms = 0;        // the resolution of the clock the samples were read from
  double clock_tick_ms = 0;        // the coarsening applied (0: none)
  std::string warning;             // the timer's warning, if any (e.g. the budget ran out)
};
// JSON from one field list: {samples_ms, inner_iterations, resolution_ms, clock_tick_ms,
// warning}, what the page's sampleKernel returns; the reader names a missing or mistyped field
// by its path.
nlohmann::json to_json(const KernelSample& sample);
KernelSample kernel_sample_from_json(const nlohmann::json& j, const std::string& where = "sample");

// What the Benchmarking chapter changes about sampling to show why the timer's rule exists.
struct KernelSampling {
  // 0: the timer's batching rule (each sample ≥ 100 ticks and min_sample_ms); n ≥ 1: every
  // sample is exactly n back-to-back calls, no calibration (1: one call per sample, as the
  // warmup experiment needs to see each call). At most kMaxFixedInnerIterations.
  long inner_iterations = 0;
  // 0: the clock as it is; > 0: every reading rounded down to a multiple of this (at most
  // kMaxClockTickMs), emulating a coarser clock than the machine's.
  double clock_tick_ms = 0;
  // ValueError naming the field, its value and the allowed range.
  void validate() const;
};
inline constexpr long kMaxFixedInnerIterations = 1L << 20;
inline constexpr double kMaxClockTickMs = 100.0;

// A clock whose readings are `base`'s rounded down to a multiple of tick_ms.
class CoarseClock final : public Clock {
 public:
  CoarseClock(Clock& base, double tick_ms) : base_(&base), tick_ms_(tick_ms) {}
  double now_ms() override;
  const char* name() const override { return "coarsened"; }

 private:
  Clock* base_;
  double tick_ms_;
};

// The bounds on one sample_kernel call (the page waits for it in one call, and no call may
// take 10 s): max_total_ms at most kMaxSampleKernelTotalMs, and sizes per op so that one call
// of the slowest variant stays well under a second in the scalar wasm build (naive matmul
// at N = 1024 takes 13.6 s, at 512 about 0.2 s): N = 512 for matmul, 2^22 GELU elements, batch
// 16 for a zoo model, as an A/B's. A fixed batch (inner_iterations k) does at most the work of
// one call at the largest size: k·N³ ≤ 512³ for matmul, k·n ≤ 2^22 for GELU, k·batch ≤ 16.
// A run can exceed max_total_ms by at most the call or batch running when it ends (two with
// warmup). More samples than one call's budget holds are taken over several calls.
inline constexpr double kMaxSampleKernelTotalMs = 5000;
inline constexpr std::size_t kMaxSampleMatmulN = 512;
inline constexpr std::size_t kMaxSampleGeluN = std::size_t{1} << 22;
inline constexpr std::size_t kMaxSampleModelBatch = 16;

// Refuses, before any work (no inputs built), a sampling of `op` at `n` that breaks those
// bounds: a ValueError naming the limit and what is allowed. Op and variant names are
// lab_kernel's to check.
void check_sample_kernel_limits(const std::string& op, std::size_t n, const TimerOptions& options,
                                const KernelSampling& sampling);

// Times `kernel` with `options` (warmup, samples, min_sample_ms, max_total_ms) and returns
// every sample it took. With the default sampling this is Timer::run; a fixed
// inner_iterations runs warmup calls, then `samples` batches of exactly that many calls,
// stopping early (with a warning saying how many were taken) when max_total_ms runs out;
// progress after each sample. Throws what options.validate() and sampling.validate() throw.
KernelSample sample_kernel(const LabKernel& kernel, const TimerOptions& options = {},
                           Clock& clock = default_clock(), const ProgressFn& progress = {},
                           const KernelSampling& sampling = {});

}  // namespace perflab
