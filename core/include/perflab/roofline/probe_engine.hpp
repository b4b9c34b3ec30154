// The probe of every core, on the kernel engine (kernels/engine.hpp): the multiply-add peak
// and, where the engine runs relaxed SIMD, the FMA peak of one core; the compute peak of
// `threads` cores at once; the triad bandwidth of one core and of `threads` cores. These
// are the roofline's per-core and all-core roofs beside the machine probe's (probe.hpp),
// measured with the same chains, triad and Timer options, only run by the engine.
// Not for: the single-thread roofs profiles judge bottlenecks against (probe_machine), or
// unit-test assertions on speed.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/roofline.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// Every rate is work per call over the fastest sample, as the machine probe's (probe.hpp):
// a peak call is kEnginePeakSteps steps of peak_chains on every thread (2 FLOPs per
// multiply-add and lane, fused or not), a triad call moves 12 bytes per element over the
// probe's triad working set.
//
// A peak call is 128 of the machine probe's (about 0.3 ms of one core, where the probe's
// call is a few microseconds): every engine call wakes its threads and waits for the last
// one, which costs microseconds natively and tens of them in a browser (Atomics.notify and
// wait), and over the probe's short call that wait, not the arithmetic, set the all-core
// figure (natively on two cores: 22 GFLOP/s on both against 36 on one).
inline constexpr long kEnginePeakSteps = 128 * kProbePeakSteps;
struct EnginePeaks {
  unsigned threads = 1;                    // the all-core figures' thread count
  double muladd_gflops_per_s = 0;          // simd flavour, 1 thread
  std::optional<double> fma_gflops_per_s;  // fma flavour, 1 thread (none when the engine has no fma)
  double all_core_gflops_per_s = 0;        // fastest flavour, `threads` threads
  double per_core_triad_gb_per_s = 0, all_core_triad_gb_per_s = 0;

  // The roofs of `threads` cores working at once: the all-core peak and triad.
  Roofs all_core_roofs() const { return {all_core_gflops_per_s, all_core_triad_gb_per_s}; }
};

// Peaks (simd on 1 thread, fma on 1 thread when the engine has it, the fastest flavour on
// `threads`), then the triad on 1 thread and on `threads`, in the fastest flavour; progress
// covers all of them. ValueError (check_engine_call's sentence) when `threads` is outside
// 1..the engine's max_threads; Error when no engine is loaded; the options' ValueError.
EnginePeaks probe_engine(unsigned threads, const ProbeOptions& options = {},
                         Clock& clock = default_clock(), const ProgressFn& progress = nullptr);

// {threads, muladd_gflops_per_s, fma_gflops_per_s (null when not measured),
//  all_core_gflops_per_s, per_core_triad_gb_per_s, all_core_triad_gb_per_s,
//  all_core_flavour ("fma" when the FMA peak was measured, else "simd"),
//  all_core_ridge_flops_per_byte (the all-core roofs' ridge; null when a roof reads 0)}.
nlohmann::json to_json(const EnginePeaks& peaks);

}  // namespace perflab
