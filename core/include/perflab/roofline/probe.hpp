// Machine probe: measures this CPU's peak float32 throughput (SIMD and scalar), the int8
// kernel's integer peak, its memory bandwidth (STREAM-style copy and triad beyond the
// last-level cache) and bandwidth against working-set size (the cache plateaus). These are
// the roofs of the roofline (roofline.hpp) and what the profiler judges bottlenecks against.
// Single thread, timed with the Timer; its float loops are its own (detail/simd.hpp), the
// integer one the int8 kernel's (kernels/int8.hpp), whose vector types it needs.
// Not for: multi-core figures, FMA-only peaks (simd128 has no FMA), or unit-test assertions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/roofline/roofline.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

struct ProbeOptions {
  // Time for one figure (each peak, each bandwidth, each sweep point), warmup included. Soft:
  // the Timer always takes two samples, so one call over a large buffer can exceed it.
  double budget_ms = 250.0;
  // Timed samples per figure when the budget allows; each sample lasts at least
  // budget_ms / (3·samples).
  int samples = 15;
  // Copy and triad: total bytes of all their arrays (copy 2, triad 3). Well beyond a
  // laptop's last-level cache (8–36 MiB); lower it only when memory is short.
  std::size_t bandwidth_bytes = 128u << 20;
  // Working-set sweep: from min to max, sweep_points_per_doubling points per doubling
  // (1: powers of two; 2: √2 steps). Sizes are rounded down to multiples of 128 bytes.
  std::size_t sweep_min_bytes = 4u << 10;
  std::size_t sweep_max_bytes = 256u << 20;
  int sweep_points_per_doubling = 1;

  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
  // The Timer options each figure is timed with (`warmup` calls first): samples, budget_ms
  // as the time limit, a third of it spread over the samples as their minimum length, and
  // every sample kept (the rate comes from the fastest one). The engine's probe
  // (probe_engine.hpp) times its figures with these too.
  TimerOptions timer_options(int warmup = 1) const;
  // Small budgets for the Profiling chapter's bottleneck verdicts: probe_machine takes
  // well under a second, natively and in V8 (60 ms per figure, a 64 MiB working set, still
  // beyond most laptops' last-level caches).
  static ProbeOptions quick();
};

// Every rate (GFLOP/s, GB/s) is work per call over the FASTEST sample (stats.min_ms), as
// STREAM reports its best rate: interference only slows samples down, so on a busy machine
// the median reads low while the best sample stays near what the hardware does. The full
// statistics are kept beside each rate. To compare a kernel with these roofs on equal terms,
// take its rate from its fastest sample too (measure_matmul's gflops_per_s uses the median,
// which can only make the kernel's fraction of the peak look smaller).
//
// Buffers come from Tensors, so MemoryTracker sees them; when it has a cap, the working set
// shrinks to what the cap leaves (AllocationError when that is too little to measure).

// Peak throughput of independent multiply-add chains, held in registers (no memory
// traffic). Each multiply-add counts as 2 FLOPs per lane whether or not the target fuses it
// (wasm simd128 cannot; native SSE2 builds without -mfma do not).
struct PeakMeasurement {
  double gflops_per_s = 0;
  double flops_per_call = 0;
  int chains = 0;  // independent accumulators (14): enough to hide the multiply-add latency
  Stats stats;
};
// 128-bit vectors through detail/simd.hpp (in a scalar build, its scalar fallback).
PeakMeasurement probe_peak_simd(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                const ProgressFn& progress = nullptr);
// Scalar chains, kept scalar (auto-vectorization is disabled for them).
PeakMeasurement probe_peak_scalar(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                  const ProgressFn& progress = nullptr);
// The integer peak, the int8 Linear's own roof: its multiply-add (eight int16 products summed
// in pairs into four int32 lanes, then accumulated: kernels/int8.hpp int8_peak_chains) in
// kInt8PeakChains (10) chains, registers only. flops_per_call and gflops_per_s count integer ops (16 per
// multiply-add of eight pairs, as 2·B·K·N counts the int8 Linear's), so they compare with
// the float peak op for op.
PeakMeasurement probe_peak_int8(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                const ProgressFn& progress = nullptr);

// STREAM's byte counting: copy b[i] = a[i] moves 8 bytes per element (read + write), triad
// a[i] = b[i] + s·c[i] moves 12 (the write-allocate read of the destination is not
// counted, as in STREAM). Loops over 128-bit vectors with ordinary stores, as the kernels
// use, never the C library's memcpy. GB/s are 10^9 bytes per second.
struct BandwidthMeasurement {
  std::string kernel;  // "copy" or "triad"
  double gb_per_s = 0;
  double bytes_per_call = 0;
  std::size_t working_set_bytes = 0;  // all arrays together, after any cap
  Stats stats;
};
BandwidthMeasurement probe_copy(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                const ProgressFn& progress = nullptr);
BandwidthMeasurement probe_triad(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                 const ProgressFn& progress = nullptr);
// The triad's elements per array: three arrays in options.bandwidth_bytes, or in what the
// tracker's cap leaves, a multiple of 16. AllocationError when that is under 64 KiB.
std::size_t triad_floats_per_array(const ProbeOptions& options);

// What one timed peak call runs: kProbePeakSteps steps of the chains, multiplying by
// kProbePeakMultiplier (below 1, so each chain converges: no overflow, no subnormals); the
// triad's scalar. Shared with the engine's probe, so its calls are the same work.
inline constexpr long kProbePeakSteps = 2048;
inline constexpr float kProbePeakMultiplier = 0.9990234375f;
inline constexpr float kProbeTriadScalar = 0.5f;

// Read bandwidth (a vector sum over the first `bytes` of one buffer, 8 accumulators) at each
// working-set size, smallest first; warm runs, so a size that fits a cache level reads at
// that level's speed. The last row is sweep_max_bytes, or less when the tracker's cap leaves
// less. Progress covers the whole sweep.
struct SweepRow {
  std::size_t bytes = 0;
  double bytes_per_call = 0;  // bytes one timed call reads: the working set, one or more passes
  double gb_per_s = 0;        // bytes_per_call / stats.min_ms
  Stats stats;                // per call
};
std::vector<SweepRow> probe_sweep(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                                  const ProgressFn& progress = nullptr);

// One point of that sweep, for a page that loops over sizes itself (progress and cancel
// between points): the read bandwidth of a working set of `bytes` (rounded down to a
// multiple of 128; the row says what was read), timed with `options` (outliers kept, as
// everywhere here, because the rate is taken over the fastest sample). probe_sweep times each of its sizes with this same
// code. Throws ValueError for bytes outside [kMinReadBandwidthBytes, kMaxReadBandwidthBytes]
// and AllocationError when the tracker's cap leaves less than bytes.
inline constexpr std::size_t kMinReadBandwidthBytes = std::size_t{4} << 10;    // 4 KiB
inline constexpr std::size_t kMaxReadBandwidthBytes = std::size_t{256} << 20;  // 256 MiB
SweepRow probe_read_bandwidth(std::size_t bytes, const TimerOptions& options,
                              Clock& clock = default_clock(), const ProgressFn& progress = nullptr);

// The five headline figures. For a roofline use peak_gflops_per_s() (the scalar peak for
// scalar kernels) and the triad bandwidth (two reads and a write per element, like most
// kernels).
struct MachineProfile {
  double peak_gflops_per_s_simd = 0;
  double peak_gflops_per_s_scalar = 0;
  double peak_gops_per_s_int8 = 0;  // integer ops/s of the int8 multiply-add (probe_peak_int8)
  double copy_gb_per_s = 0;
  double triad_gb_per_s = 0;
  std::string simd_backend;  // "wasm-simd128", "sse2", "neon" or "scalar"
  bool simd_enabled = false;
  std::size_t bandwidth_working_set_bytes = 0;  // of the triad (after any cap)
  double elapsed_ms = 0;                        // the probe's own wall time
  // Empty when all five figures are reliable; else "<figure>: <Timer warning>" joined by "; ".
  // (The Timer's remedies name its own options; here, raise budget_ms or lower samples.)
  std::string warning;

  // The compute roof of this build's vector kernels: the SIMD peak, or the scalar peak in a
  // build without SIMD (there the SIMD figure times the fallback's emulated vectors, 56
  // scalar chains that spill registers and read below the scalar figure).
  double peak_gflops_per_s() const {
    return simd_enabled ? peak_gflops_per_s_simd : peak_gflops_per_s_scalar;
  }
  // The roofline's roofs: peak_gflops_per_s() and the triad bandwidth.
  Roofs roofs() const { return {peak_gflops_per_s(), triad_gb_per_s}; }
};
// Peak SIMD, peak scalar, integer peak, copy, triad, in that order; progress covers all five. Measures
// and returns, nothing more: the roofs profiles judge bottlenecks against change only
// through set_machine_roofs (profiler.hpp).
MachineProfile probe_machine(const ProbeOptions& options = {}, Clock& clock = default_clock(),
                             const ProgressFn& progress = nullptr);

// ---- JSON, the same field names in C++, the page and the CLI.
// {bytes, bytes_per_call, gb_per_s, stats}: one point of the read sweep.
nlohmann::json to_json(const SweepRow& row);
// {peak_gflops_per_s (this build's compute roof), simd_peak_gflops_per_s,
//  scalar_peak_gflops_per_s, int8_peak_gops_per_s (the int8 Linear's roof), copy_gb_per_s, triad_gb_per_s, bandwidth_gb_per_s (the triad:
//  the roofline's bandwidth roof), ridge_flops_per_byte (null when a roof reads 0),
//  simd_backend, simd_enabled, bandwidth_working_set_bytes, elapsed_ms, warning}.
nlohmann::json to_json(const MachineProfile& machine);

}  // namespace perflab
