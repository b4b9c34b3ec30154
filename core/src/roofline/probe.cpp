// The machine probe: register-only multiply-add chains for peak FLOP/s, STREAM copy and
// triad for bandwidth, and a read sweep over working-set sizes for the cache plateaus.
// Everything the compiler could fold, fuse into memcpy or auto-vectorize is kept from it
// (volatile inputs and sinks, attributes below), so the figures are what the code does.
// Also the JSON of the sweep's rows and of the machine profile.
// Not for: threads, or non-temporal stores (the lab's kernels do not use them either).
#include "perflab/roofline/probe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

#include "perflab/detail/kernel_bands.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/tensor/tensor.hpp"

// Scalar chains must stay scalar: GCC's and Clang's SLP vectorizers would otherwise pack
// four of them into one vector register and the "scalar" figure would be a vector one.
// GCC has a function attribute for it. Clang has none, so each chain passes through an
// empty asm statement that pins it to one scalar register (no instruction is emitted).
// Copy loops must stay loops: GCC and Clang turn them into a memcpy call, whose
// non-temporal stores for large sizes would report a bandwidth no lab kernel reaches.
// (Both checked in the x86 and wasm disassembly.)
#if defined(__clang__)
#define PERFLAB_PROBE_NOINLINE __attribute__((noinline))
#define PERFLAB_PROBE_NO_VECTORIZE
#define PERFLAB_PROBE_NO_MEMCPY __attribute__((no_builtin("memcpy")))
#if defined(__wasm__)
#define PERFLAB_PROBE_SCALAR_REGISTER "+r"
#elif defined(__x86_64__) || defined(__i386__)
#define PERFLAB_PROBE_SCALAR_REGISTER "+x"
#elif defined(__aarch64__) || defined(__arm__)
#define PERFLAB_PROBE_SCALAR_REGISTER "+w"
#endif
#elif defined(__GNUC__)
#define PERFLAB_PROBE_NOINLINE __attribute__((noinline))
#define PERFLAB_PROBE_NO_VECTORIZE __attribute__((optimize("no-tree-vectorize")))
#define PERFLAB_PROBE_NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define PERFLAB_PROBE_NOINLINE
#define PERFLAB_PROBE_NO_VECTORIZE
#define PERFLAB_PROBE_NO_MEMCPY
#endif

namespace perflab {
namespace {

using std::size_t;
using namespace detail;

// The chains and the triad loop are detail::peak_chains and detail::triad_range
// (kernel_bands.hpp), which the kernel engine runs on every thread for the all-core figures;
// the scalar chains below are as many as the vector ones, for the same reason.
constexpr int kChains = kPeakChains;
constexpr long kStepsPerCall = kProbePeakSteps;

// Inputs read through volatile so the compiler cannot know them; results written to
// volatile so no chain is dead.
// Below 1, so each chain converges to m / (1 − m) ≈ 1023: no overflow, no subnormals.
volatile float g_multiplier = kProbePeakMultiplier;
volatile float g_triad_scale = kProbeTriadScalar;
volatile float g_sink[kChains];

// peak_chains is never inlined (its own attributes keep a scalar build's code scalar).
void simd_chains(long steps, float m) { g_sink[0] = peak_chains(steps, m); }

PERFLAB_PROBE_NOINLINE PERFLAB_PROBE_NO_VECTORIZE void scalar_chains(long steps, float m) {
  float acc[kChains];
  for (int k = 0; k < kChains; ++k) acc[k] = 1.0f + 0.125f * static_cast<float>(k);
  for (long s = 0; s < steps; ++s) {
    for (int k = 0; k < kChains; ++k) {
      acc[k] = acc[k] * m + m;
#if defined(PERFLAB_PROBE_SCALAR_REGISTER)
      __asm__("" : PERFLAB_PROBE_SCALAR_REGISTER(acc[k]));
#endif
    }
  }
  for (int k = 0; k < kChains; ++k) g_sink[k] = acc[k];
}

// n is a multiple of 4 · kLanes (arrays are sized so).
PERFLAB_PROBE_NOINLINE PERFLAB_PROBE_NO_MEMCPY void copy_kernel(float* dst, const float* src,
                                                                size_t n) {
  for (size_t i = 0; i < n; i += kLanes) store(dst + i, load(src + i));
}

PERFLAB_PROBE_NOINLINE
void triad_kernel(float* a, const float* b, const float* c, float s, size_t n) {
  triad_range(a, b, c, s, 0, n);
}

// Eight accumulators so that, in L1, loads rather than the add latency set the pace.
// `passes` repeats the read so a call over a small working set is long enough that the
// call itself costs nothing measurable. n is a multiple of 8 · kLanes.
constexpr size_t kSumBlockFloats = 8 * kLanes;
PERFLAB_PROBE_NOINLINE
float read_sum_kernel(const float* p, size_t n, size_t passes) {
  f32x4 acc[8];
  for (auto& a : acc) a = zero();
  for (size_t pass = 0; pass < passes; ++pass) {
    for (size_t i = 0; i < n; i += kSumBlockFloats) {
      for (int k = 0; k < 8; ++k) acc[k] = add(acc[k], load(p + i + k * kLanes));
    }
  }
  for (int k = 1; k < 8; ++k) acc[0] = add(acc[0], acc[k]);
  alignas(16) float lanes[kLanes];
  store(lanes, acc[0]);
  return lanes[0] + lanes[1] + lanes[2] + lanes[3];
}

void check_bytes(const char* name, size_t value, size_t lo, size_t hi) {
  if (value < lo || value > hi) {
    throw ValueError(std::string(name) + " must be between " + std::to_string(lo) + " (" +
                     format_bytes(lo) + ") and " + std::to_string(hi) + " (" + format_bytes(hi) +
                     "), got " + std::to_string(value));
  }
}

constexpr size_t kMinBandwidthBytes = 64u << 10;
constexpr size_t kMinSweepBytes = 1u << 10;
// 1 GiB: the wasm module's whole memory, and far beyond any cache.
constexpr size_t kMaxProbeBytes = size_t{1} << 30;
constexpr size_t kSweepAlignBytes = kSumBlockFloats * sizeof(float);  // 128
// Each timed call of the sweep reads at least this much (several passes over small sets).
constexpr size_t kMinSweepCallBytes = 256u << 10;

TimerOptions timer_options(const ProbeOptions& o, int warmup) { return o.timer_options(warmup); }

// Maps a sub-task's progress in [0, 1] onto [lo, hi] of the caller's.
ProgressFn sub_progress(const ProgressFn& progress, double lo, double hi) {
  if (!progress) return nullptr;
  return [progress, lo, hi](double f) { return progress(lo + (hi - lo) * f); };
}

void report(const ProgressFn& progress, double fraction, const std::string& stage) {
  if (progress && !progress(fraction)) throw CancelledError("probe cancelled before " + stage);
}

// What the tracker's cap leaves for new tensors; `wanted` when there is no cap.
size_t bytes_allowed(size_t wanted) {
  const MemoryTracker& tracker = MemoryTracker::global();
  if (tracker.cap_bytes() == 0) return wanted;
  const size_t left = tracker.cap_bytes() > tracker.current_bytes()
                          ? tracker.cap_bytes() - tracker.current_bytes()
                          : 0;
  return std::min(wanted, left);
}

// Floats per array for `arrays` arrays within the options' working set and the cap,
// a multiple of 16 (whole 4-vector groups).
size_t floats_per_array(const ProbeOptions& o, size_t arrays, const char* kernel) {
  const size_t total = bytes_allowed(o.bandwidth_bytes);
  if (total < kMinBandwidthBytes) {
    throw AllocationError(std::string("the ") + kernel + " probe needs at least " +
                          format_bytes(kMinBandwidthBytes) + " but the lab's memory cap of " +
                          format_bytes(MemoryTracker::global().cap_bytes()) + " leaves " +
                          format_bytes(total) + "; free some tensors first");
  }
  return total / (arrays * sizeof(float)) / 16 * 16;
}

// Every rate here is work per call over the FASTEST sample's time (stats.min_ms).
// The fastest sample, as STREAM reports its best rate: other processes and interrupts only
// ever slow a sample down, so on a busy machine the median reads low while the best sample
// stays close to what the hardware does. Samples last at least 100 clock ticks, so the
// clock cannot make the best sample look faster than it was by more than about 1%.
// `call` does ops_per_call operations in `chains` chains.
PeakMeasurement run_peak_of(const std::function<void()>& call, double ops_per_call, int chains,
                            const ProbeOptions& o, Clock& clock, const ProgressFn& progress) {
  o.validate();
  Timer timer(clock);
  timer.options(timer_options(o, 1));
  if (progress) timer.on_progress(progress);
  PeakMeasurement m;
  m.stats = timer.run(call);
  m.chains = chains;
  m.flops_per_call = ops_per_call;
  m.gflops_per_s = gflops_per_s(m.flops_per_call, m.stats.min_ms);
  return m;
}

PeakMeasurement run_peak(void (*chains)(long, float), int lanes, const ProbeOptions& o,
                         Clock& clock, const ProgressFn& progress) {
  return run_peak_of([chains] { chains(kStepsPerCall, g_multiplier); },
                     2.0 * lanes * kChains * static_cast<double>(kStepsPerCall), kChains, o,
                     clock, progress);
}

// One sweep point: the read bandwidth over the first `bytes` (a multiple of
// kSweepAlignBytes) of buffer, which holds at least that many.
SweepRow read_point(const float* buffer, size_t bytes, const TimerOptions& options, Clock& clock,
                    const ProgressFn& progress) {
  volatile float sink = 0;
  Timer timer(clock);
  timer.options(options);
  if (progress) timer.on_progress(progress);
  const size_t n = bytes / sizeof(float);
  const size_t passes = std::max<size_t>(1, kMinSweepCallBytes / bytes);
  SweepRow row;
  row.bytes = bytes;
  row.stats = timer.run([&] { sink = read_sum_kernel(buffer, n, passes); });
  row.bytes_per_call = static_cast<double>(bytes) * static_cast<double>(passes);
  row.gb_per_s = gb_per_s(row.bytes_per_call, row.stats.min_ms);
  (void)sink;
  return row;
}

BandwidthMeasurement bandwidth_result(const char* kernel, double bytes_per_call,
                                      size_t working_set_bytes, Stats stats) {
  BandwidthMeasurement m;
  m.kernel = kernel;
  m.bytes_per_call = bytes_per_call;
  m.working_set_bytes = working_set_bytes;
  m.gb_per_s = gb_per_s(bytes_per_call, stats.min_ms);
  m.stats = std::move(stats);
  return m;
}

}  // namespace

TimerOptions ProbeOptions::timer_options(int warmup) const {
  TimerOptions t;
  t.warmup = warmup;
  t.samples = samples;
  t.max_total_ms = budget_ms;
  // A third of the budget per sample spread: calibration and warmup take their share first.
  t.min_sample_ms = budget_ms / (3.0 * samples);
  // Keep every sample: on a busy machine the undisturbed ones can be the minority, and the
  // Tukey fences would drop exactly the samples the best rate is taken from.
  t.drop_outliers = false;
  return t;
}

std::size_t triad_floats_per_array(const ProbeOptions& options) {
  options.validate();
  return floats_per_array(options, 3, "triad");
}

void ProbeOptions::validate() const {
  if (!(budget_ms > 0 && budget_ms <= 600000)) {  // also rejects NaN
    throw ValueError("budget_ms must be greater than 0 and at most 600000, got " +
                     format_number(budget_ms));
  }
  if (samples < 2 || samples > 10000) {
    throw ValueError("samples must be between 2 and 10000, got " + std::to_string(samples));
  }
  check_bytes("bandwidth_bytes", bandwidth_bytes, kMinBandwidthBytes, kMaxProbeBytes);
  check_bytes("sweep_min_bytes", sweep_min_bytes, kMinSweepBytes, kMaxProbeBytes);
  check_bytes("sweep_max_bytes", sweep_max_bytes, kMinSweepBytes, kMaxProbeBytes);
  if (sweep_min_bytes > sweep_max_bytes) {
    throw ValueError("sweep_min_bytes (" + std::to_string(sweep_min_bytes) +
                     ") must not exceed sweep_max_bytes (" + std::to_string(sweep_max_bytes) + ")");
  }
  if (sweep_points_per_doubling < 1 || sweep_points_per_doubling > 8) {
    throw ValueError("sweep_points_per_doubling must be between 1 and 8, got " +
                     std::to_string(sweep_points_per_doubling));
  }
}

ProbeOptions ProbeOptions::quick() {
  ProbeOptions o;
  o.budget_ms = 60.0;
  o.samples = 8;
  o.bandwidth_bytes = 64u << 20;
  return o;
}

PeakMeasurement probe_peak_simd(const ProbeOptions& options, Clock& clock,
                                const ProgressFn& progress) {
  return run_peak(simd_chains, kLanes, options, clock, progress);
}

PeakMeasurement probe_peak_scalar(const ProbeOptions& options, Clock& clock,
                                  const ProgressFn& progress) {
  return run_peak(scalar_chains, 1, options, clock, progress);
}

PeakMeasurement probe_peak_int8(const ProbeOptions& options, Clock& clock,
                                const ProgressFn& progress) {
  return run_peak_of([] { int8_peak_chains(kStepsPerCall); },
                     kInt8PeakOpsPerStep * kInt8PeakChains * static_cast<double>(kStepsPerCall),
                     kInt8PeakChains, options, clock, progress);
}

BandwidthMeasurement probe_copy(const ProbeOptions& options, Clock& clock,
                                const ProgressFn& progress) {
  options.validate();
  const size_t n = floats_per_array(options, 2, "copy");
  const Tensor src = Tensor::full({n}, 1.0f);
  Tensor dst({n});  // zero-filled, so its pages are mapped before timing
  Timer timer(clock);
  timer.options(timer_options(options, 1));
  if (progress) timer.on_progress(progress);
  Stats stats = timer.run([&] { copy_kernel(dst.data(), src.data(), n); });
  return bandwidth_result("copy", 2.0 * sizeof(float) * static_cast<double>(n),
                          2 * n * sizeof(float), std::move(stats));
}

BandwidthMeasurement probe_triad(const ProbeOptions& options, Clock& clock,
                                 const ProgressFn& progress) {
  options.validate();
  const size_t n = triad_floats_per_array(options);
  Tensor a({n});
  const Tensor b = Tensor::full({n}, 1.0f);
  const Tensor c = Tensor::full({n}, 2.0f);
  Timer timer(clock);
  timer.options(timer_options(options, 1));
  if (progress) timer.on_progress(progress);
  Stats stats = timer.run([&] { triad_kernel(a.data(), b.data(), c.data(), g_triad_scale, n); });
  return bandwidth_result("triad", 3.0 * sizeof(float) * static_cast<double>(n),
                          3 * n * sizeof(float), std::move(stats));
}

std::vector<SweepRow> probe_sweep(const ProbeOptions& options, Clock& clock,
                                  const ProgressFn& progress) {
  options.validate();
  const size_t min_bytes = options.sweep_min_bytes / kSweepAlignBytes * kSweepAlignBytes;
  const size_t max_bytes =
      bytes_allowed(options.sweep_max_bytes) / kSweepAlignBytes * kSweepAlignBytes;
  if (max_bytes < min_bytes) {
    throw AllocationError("the working-set sweep needs " + format_bytes(min_bytes) +
                          " for its smallest size but the lab's memory cap of " +
                          format_bytes(MemoryTracker::global().cap_bytes()) + " leaves " +
                          format_bytes(max_bytes) + "; free some tensors first");
  }

  // Sizes min·2^(i/points_per_doubling), then max itself unless the last step is within
  // 1% of it (then max replaces it).
  std::vector<size_t> sizes;
  for (int i = 0;; ++i) {
    const double size = static_cast<double>(min_bytes) *
                        std::exp2(static_cast<double>(i) / options.sweep_points_per_doubling);
    if (size >= 0.99 * static_cast<double>(max_bytes)) break;
    const size_t rounded = static_cast<size_t>(size) / kSweepAlignBytes * kSweepAlignBytes;
    if (sizes.empty() || rounded > sizes.back()) sizes.push_back(rounded);
  }
  if (sizes.empty() || max_bytes > sizes.back()) sizes.push_back(max_bytes);

  const Tensor buffer = Tensor::full({max_bytes / sizeof(float)}, 1.0f);
  std::vector<SweepRow> rows;
  rows.reserve(sizes.size());
  for (size_t i = 0; i < sizes.size(); ++i) {
    const size_t bytes = sizes[i];
    const double lo = static_cast<double>(i) / static_cast<double>(sizes.size());
    const double hi = static_cast<double>(i + 1) / static_cast<double>(sizes.size());
    report(progress, lo, "sweep size " + format_bytes(bytes));
    // Two warm passes load the caches.
    rows.push_back(read_point(buffer.data(), bytes, timer_options(options, 2), clock,
                              sub_progress(progress, lo, hi)));
  }
  return rows;
}

SweepRow probe_read_bandwidth(std::size_t bytes, const TimerOptions& options, Clock& clock,
                              const ProgressFn& progress) {
  check_bytes("bytes", bytes, kMinReadBandwidthBytes, kMaxReadBandwidthBytes);
  options.validate();
  const size_t aligned = bytes / kSweepAlignBytes * kSweepAlignBytes;
  const size_t allowed = bytes_allowed(aligned);
  if (allowed < aligned) {
    throw AllocationError("a read-bandwidth point of " + format_bytes(aligned) +
                          " does not fit: the lab's memory cap of " +
                          format_bytes(MemoryTracker::global().cap_bytes()) + " leaves " +
                          format_bytes(allowed) + "; use a smaller size or free some tensors");
  }
  const Tensor buffer = Tensor::full({aligned / sizeof(float)}, 1.0f);
  // As the sweep: every sample kept, since the rate comes from the fastest one.
  TimerOptions timer = options;
  timer.drop_outliers = false;
  return read_point(buffer.data(), aligned, timer, clock, progress);
}

MachineProfile probe_machine(const ProbeOptions& options, Clock& clock,
                             const ProgressFn& progress) {
  options.validate();
  const double start_ms = clock.now_ms();
  MachineProfile p;
  p.simd_backend = kSimdBackend;
  p.simd_enabled = kSimdEnabled;
  std::string warning;
  const auto note = [&warning](const char* figure, const Stats& s) {
    if (s.warning.empty()) return;
    warning += (warning.empty() ? "" : "; ") + std::string(figure) + ": " + s.warning;
  };

  const PeakMeasurement simd = probe_peak_simd(options, clock, sub_progress(progress, 0, 0.2));
  p.peak_gflops_per_s_simd = simd.gflops_per_s;
  note("SIMD peak", simd.stats);
  report(progress, 0.2, "the scalar peak");
  const PeakMeasurement scalar =
      probe_peak_scalar(options, clock, sub_progress(progress, 0.2, 0.4));
  p.peak_gflops_per_s_scalar = scalar.gflops_per_s;
  note("scalar peak", scalar.stats);
  report(progress, 0.4, "the integer peak");
  const PeakMeasurement int8 = probe_peak_int8(options, clock, sub_progress(progress, 0.4, 0.6));
  p.peak_gops_per_s_int8 = int8.gflops_per_s;
  note("integer peak", int8.stats);
  report(progress, 0.6, "copy");
  const BandwidthMeasurement copy = probe_copy(options, clock, sub_progress(progress, 0.6, 0.8));
  p.copy_gb_per_s = copy.gb_per_s;
  note("copy", copy.stats);
  report(progress, 0.8, "triad");
  const BandwidthMeasurement triad = probe_triad(options, clock, sub_progress(progress, 0.8, 1));
  p.triad_gb_per_s = triad.gb_per_s;
  p.bandwidth_working_set_bytes = triad.working_set_bytes;
  note("triad", triad.stats);

  p.warning = std::move(warning);
  p.elapsed_ms = clock.now_ms() - start_ms;
  return p;
}

nlohmann::json to_json(const SweepRow& row) {
  return {{"bytes", row.bytes},
          {"bytes_per_call", row.bytes_per_call},
          {"gb_per_s", row.gb_per_s},
          {"stats", to_json(row.stats)}};
}

nlohmann::json to_json(const MachineProfile& m) {
  using json = nlohmann::json;
  const Roofs roofs = m.roofs();
  // A probe on a machine too busy to time reads 0; say so with null, not a division error.
  const bool placed = roofs.peak_gflops_per_s > 0 && roofs.bandwidth_gb_per_s > 0;
  return {{"peak_gflops_per_s", roofs.peak_gflops_per_s},
          {"simd_peak_gflops_per_s", m.peak_gflops_per_s_simd},
          {"scalar_peak_gflops_per_s", m.peak_gflops_per_s_scalar},
          {"int8_peak_gops_per_s", m.peak_gops_per_s_int8},
          {"copy_gb_per_s", m.copy_gb_per_s},
          {"triad_gb_per_s", m.triad_gb_per_s},
          {"bandwidth_gb_per_s", roofs.bandwidth_gb_per_s},
          {"ridge_flops_per_byte",
           placed ? json(ridge_point(roofs)) : json(nullptr)},
          {"simd_backend", m.simd_backend},
          {"simd_enabled", m.simd_enabled},
          {"bandwidth_working_set_bytes", m.bandwidth_working_set_bytes},
          {"elapsed_ms", m.elapsed_ms},
          {"warning", m.warning}};
}

}  // namespace perflab
