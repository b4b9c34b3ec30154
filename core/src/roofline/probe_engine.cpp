// The probe of every core on the kernel engine: the same register-only chains and STREAM
// triad as the machine probe (detail/kernel_bands.hpp), timed with the same Timer options,
// but run by the engine's threads in its own memory. Core owns the counts and the timing;
// the engine only runs each call (kernels/engine.hpp).
// Not for: the single-thread roofs (probe.cpp) or deciding how many threads to use (the
// caller's, within the engine's facts).
#include "perflab/roofline/probe_engine.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/detail/kernel_bands.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

using std::size_t;

// Maps a sub-task's progress in [0, 1] onto [lo, hi] of the caller's.
ProgressFn sub_progress(const ProgressFn& progress, double lo, double hi) {
  if (!progress) return nullptr;
  return [progress, lo, hi](double f) { return progress(lo + (hi - lo) * f); };
}

void report(const ProgressFn& progress, double fraction, const std::string& stage) {
  if (progress && !progress(fraction)) {
    throw CancelledError("engine probe cancelled before " + stage);
  }
}

Stats time_calls(const std::function<void()>& call, const ProbeOptions& o, Clock& clock,
                 const ProgressFn& progress) {
  Timer timer(clock);
  timer.options(o.timer_options(1));
  if (progress) timer.on_progress(progress);
  return timer.run(call);
}

// GFLOP/s of peak_chains on every one of `threads` threads, over the fastest sample: each
// step is one multiply-add (2 FLOPs) per lane in each of the chains.
double peak_gflops_per_s(KernelEngine& engine, const std::string& flavour, unsigned threads,
                         const ProbeOptions& o, Clock& clock, const ProgressFn& progress) {
  engine.prepare(0, 0, 0, 0, 0, threads);
  const double flops_per_call = 2.0 * detail::kLanes * detail::kPeakChains *
                                static_cast<double>(kEnginePeakSteps) * threads;
  const Stats stats = time_calls(
      [&] {
        engine.run(EngineKernel::peak, flavour, threads, 0, 0, 0, kEnginePeakSteps,
                   kProbePeakMultiplier);
      },
      o, clock, progress);
  return gflops_per_s(flops_per_call, stats.min_ms);
}

// GB/s of the triad over `n` elements per array on `threads` threads (the arrays already
// written), counted as probe_triad counts it: 12 bytes per element, over the fastest sample.
double triad_gb_per_s(KernelEngine& engine, const std::string& flavour, unsigned threads,
                      size_t n, const ProbeOptions& o, Clock& clock, const ProgressFn& progress) {
  const double bytes_per_call = 3.0 * sizeof(float) * static_cast<double>(n);
  const Stats stats = time_calls(
      [&] {
        engine.run(EngineKernel::triad, flavour, threads, 0, 0, n, 0, kProbeTriadScalar);
      },
      o, clock, progress);
  return gb_per_s(bytes_per_call, stats.min_ms);
}

}  // namespace

EnginePeaks probe_engine(unsigned threads, const ProbeOptions& options, Clock& clock,
                         const ProgressFn& progress) {
  options.validate();
  KernelEngine& engine = kernel_engine();
  const EngineFacts facts = engine.facts();
  const bool has_fma =
      std::find(facts.flavours.begin(), facts.flavours.end(), "fma") != facts.flavours.end();
  // The flavours come fastest first; the all-core figures use the fastest.
  const std::string fastest = facts.flavours.empty() ? "simd" : facts.flavours.front();
  check_engine_call(engine, "simd", 1);
  check_engine_call(engine, fastest, threads);

  EnginePeaks p;
  p.threads = threads;
  const size_t steps = has_fma ? 5 : 4;
  size_t step = 0;
  const auto next = [&](const std::string& stage) {
    report(progress, static_cast<double>(step) / steps, stage);
    const double lo = static_cast<double>(step) / steps;
    ++step;
    return sub_progress(progress, lo, static_cast<double>(step) / steps);
  };

  p.muladd_gflops_per_s =
      peak_gflops_per_s(engine, "simd", 1, options, clock, next("the multiply-add peak"));
  if (has_fma) {
    p.fma_gflops_per_s =
        peak_gflops_per_s(engine, "fma", 1, options, clock, next("the FMA peak"));
  }
  p.all_core_gflops_per_s =
      peak_gflops_per_s(engine, fastest, threads, options, clock, next("the all-core peak"));

  // The triad's arrays as probe_triad sizes them (within the tracker's cap, since core holds
  // the inputs while it copies them in); written once, untimed, so the engine reads numbers.
  const size_t n = triad_floats_per_array(options);
  engine.prepare(n, n, n, 0, 0, threads);
  {
    const Tensor b = Tensor::full({n}, 1.0f);
    engine.write(EngineBuffer::b, b.data(), n);
  }
  {
    const Tensor c = Tensor::full({n}, 2.0f);
    engine.write(EngineBuffer::c, c.data(), n);
  }
  {
    // a too: its pages are then mapped before timing, as probe_triad's zero-filled tensor's.
    const Tensor a({n});
    engine.write(EngineBuffer::a, a.data(), n);
  }
  p.per_core_triad_gb_per_s =
      triad_gb_per_s(engine, fastest, 1, n, options, clock, next("the one-core triad"));
  p.all_core_triad_gb_per_s =
      triad_gb_per_s(engine, fastest, threads, n, options, clock, next("the all-core triad"));
  return p;
}

nlohmann::json to_json(const EnginePeaks& p) {
  using json = nlohmann::json;
  const Roofs all = p.all_core_roofs();
  // A figure a busy machine could not time reads 0: null, not a division error.
  const bool placed = all.peak_gflops_per_s > 0 && all.bandwidth_gb_per_s > 0;
  return {{"threads", p.threads},
          {"muladd_gflops_per_s", p.muladd_gflops_per_s},
          {"fma_gflops_per_s", p.fma_gflops_per_s ? json(*p.fma_gflops_per_s) : json(nullptr)},
          {"all_core_gflops_per_s", p.all_core_gflops_per_s},
          {"per_core_triad_gb_per_s", p.per_core_triad_gb_per_s},
          {"all_core_triad_gb_per_s", p.all_core_triad_gb_per_s},
          {"all_core_flavour", p.fma_gflops_per_s ? "fma" : "simd"},
          {"all_core_ridge_flops_per_byte", placed ? json(ridge_point(all)) : json(nullptr)}};
}

}  // namespace perflab
