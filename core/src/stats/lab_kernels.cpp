// lab_kernel and sample_kernel: the lab's matmul and GELU variants as callable kernels on
// inputs built once, and the timer's raw per-call samples of one. Not for: A/B rounds (ab.cpp).
#include "perflab/stats/lab_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/json_fields.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

void check_n(std::size_t n, std::size_t max, const char* op) {
  if (n < 1 || n > max) {
    throw ValueError("n must be between 1 and " + std::to_string(max) + " for " + op + ", got " +
                     std::to_string(n));
  }
}

struct MatmulInputs {
  Tensor a, b;
};

struct ModelInputs {
  Model model;
  Tensor x;
};

}  // namespace

LabKernel lab_kernel(const std::string& op, const std::string& variant, std::size_t n) {
  LabKernel k{op, variant, n, nullptr, {}};
  if (op == "matmul") {
    find_matmul_variant(variant);
    check_n(n, kMaxMeasureMatmulN, "matmul");
    auto in = std::make_shared<MatmulInputs>(
        MatmulInputs{Tensor::random({n, n}, 0x5EED0001), Tensor::random({n, n}, 0x5EED0002)});
    k.call = [in, variant] { const Tensor y = matmul(in->a, in->b, variant); };
    k.inputs = std::move(in);
    return k;
  }
  if (op == "gelu") {
    find_gelu_variant(variant);
    check_n(n, kMaxMeasureGeluN, "gelu");
    auto x = std::make_shared<Tensor>(Tensor::random({n}, 0x5EED0003, -4.0f, 4.0f));
    k.call = [x, variant] { const Tensor y = gelu(*x, variant); };
    k.inputs = std::move(x);
    return k;
  }
  if (op == "model") {
    const nlohmann::json& spec = zoo_spec(variant);  // names the zoo when it has no such model
    check_n(n, kMaxLabModelBatch, "a zoo model's batch");
    Model model = model_from_json(spec);
    model.set_keep_for_backward(false);  // inference: no caches for a backward pass
    Shape shape = model.input_shape();
    shape[0] = n;
    const Tensor x = Tensor::random(shape, 0x5EED0004);
    auto in = std::make_shared<ModelInputs>(ModelInputs{std::move(model), x});
    k.call = [in] { const Tensor y = in->model.forward(in->x); };
    k.inputs = std::move(in);
    return k;
  }
  throw ValueError("op must be \"matmul\", \"gelu\" or \"model\", got \"" + op + "\"");
}

void KernelSampling::validate() const {
  if (inner_iterations < 0 || inner_iterations > kMaxFixedInnerIterations) {
    throw ValueError("inner_iterations must be 0 (the timer's batching rule) or a whole number "
                     "from 1 to " + std::to_string(kMaxFixedInnerIterations) + ", got " +
                     std::to_string(inner_iterations));
  }
  if (!std::isfinite(clock_tick_ms) || clock_tick_ms < 0 || clock_tick_ms > kMaxClockTickMs) {
    throw ValueError("clock_tick_ms must be 0 (the clock as it is) or a number of milliseconds "
                     "above 0 and at most " + format_number(kMaxClockTickMs) + ", got " +
                     format_number(clock_tick_ms));
  }
}

void check_sample_kernel_limits(const std::string& op, std::size_t n, const TimerOptions& options,
                                const KernelSampling& sampling) {
  if (!(options.max_total_ms <= kMaxSampleKernelTotalMs)) {
    throw ValueError("max_total_ms must be at most " + format_number(kMaxSampleKernelTotalMs) +
                     " ms for one sampling call, got " + format_number(options.max_total_ms) +
                     "; take more samples over several calls");
  }
  std::size_t max = 0;
  const char* what = "";
  if (op == "matmul") {
    max = kMaxSampleMatmulN;
    what = "matmul";
  } else if (op == "gelu") {
    max = kMaxSampleGeluN;
    what = "gelu";
  } else if (op == "model") {
    max = kMaxSampleModelBatch;
    what = "a zoo model's batch";
  } else {
    return;  // lab_kernel names the ops
  }
  if (n > max) {
    throw ValueError("n must be at most " + std::to_string(max) + " for " + what +
                     " in one sampling call (one call of the slowest variant stays well under a "
                     "second), got " + std::to_string(n));
  }
  const long k = sampling.inner_iterations;
  if (k <= 1 || n == 0) return;
  // The batch's work against one call at the largest size, in the op's own cost (N³ or n).
  const double work = op == "matmul" ? static_cast<double>(k) * std::pow(static_cast<double>(n), 3)
                                     : static_cast<double>(k) * static_cast<double>(n);
  const double most = op == "matmul" ? std::pow(static_cast<double>(max), 3) : static_cast<double>(max);
  if (work > most) {
    const auto fits = static_cast<long>(std::floor(most / (work / static_cast<double>(k))));
    throw ValueError("inner_iterations " + std::to_string(k) + " at n=" + std::to_string(n) +
                     " is more work per sample than one call at the largest n (" +
                     std::to_string(max) + " for " + what + "); at n=" + std::to_string(n) +
                     " at most " + std::to_string(std::max(1L, fits)) + " calls per sample");
  }
}

double CoarseClock::now_ms() { return std::floor(base_->now_ms() / tick_ms_) * tick_ms_; }

namespace {

// Exactly `inner` calls per sample: no calibration, so a sample may be far shorter than the
// clock's tick (the point of the clock experiment).
KernelSample sample_fixed(const LabKernel& kernel, const TimerOptions& options, Clock& clock,
                          const ProgressFn& progress, long inner) {
  KernelSample out;
  out.inner_iterations = inner;
  out.resolution_ms = measure_resolution_ms(clock);
  const double start = clock.now_ms();
  for (int i = 0; i < options.warmup && clock.now_ms() - start < options.max_total_ms; ++i) {
    kernel.call();
  }
  out.samples_ms.reserve(static_cast<std::size_t>(options.samples));
  for (int s = 0; s < options.samples; ++s) {
    out.samples_ms.push_back(time_batch_ms(clock, kernel.call, inner) / static_cast<double>(inner));
    if (progress && !progress(static_cast<double>(s + 1) / options.samples)) {
      throw CancelledError("sampling cancelled after " + std::to_string(s + 1) + " of " +
                           std::to_string(options.samples) + " samples");
    }
    if (s + 1 < options.samples && clock.now_ms() - start > options.max_total_ms) {
      out.warning = "the time budget (max_total_ms " + format_number(options.max_total_ms) +
                    " ms) ran out after " + std::to_string(s + 1) + " of " +
                    std::to_string(options.samples) +
                    " samples; take fewer samples or allow more time";
      break;
    }
  }
  return out;
}

}  // namespace

KernelSample sample_kernel(const LabKernel& kernel, const TimerOptions& options, Clock& clock,
                           const ProgressFn& progress, const KernelSampling& sampling) {
  options.validate();
  sampling.validate();
  check_sample_kernel_limits(kernel.op, kernel.n, options, sampling);
  CoarseClock coarse(clock, sampling.clock_tick_ms > 0 ? sampling.clock_tick_ms : 1.0);
  Clock& used = sampling.clock_tick_ms > 0 ? static_cast<Clock&>(coarse) : clock;
  KernelSample out;
  if (sampling.inner_iterations > 0) {
    out = sample_fixed(kernel, options, used, progress, sampling.inner_iterations);
  } else {
    Timer timer(used);
    timer.options(options);
    if (progress) timer.on_progress(progress);
    const Stats stats = timer.run(kernel.call);
    out = {stats.per_call_ms, stats.inner_iterations, stats.resolution_ms, 0, stats.warning};
  }
  out.clock_tick_ms = sampling.clock_tick_ms;
  return out;
}

// KernelSample's JSON fields, written by to_json and read by kernel_sample_from_json.
auto json_fields_of(const KernelSample*) {
  using K = KernelSample;
  constexpr JsonRange kNonNegative = JsonRange::non_negative;
  return std::make_tuple(JsonField{"samples_ms", &K::samples_ms, kNonNegative},
                         JsonField{"inner_iterations", &K::inner_iterations},
                         JsonField{"resolution_ms", &K::resolution_ms, kNonNegative},
                         JsonField{"clock_tick_ms", &K::clock_tick_ms, kNonNegative},
                         JsonField{"warning", &K::warning});
}

nlohmann::json to_json(const KernelSample& sample) { return write_fields(sample); }
KernelSample kernel_sample_from_json(const nlohmann::json& j, const std::string& where) {
  return read_fields<KernelSample>(j, where);
}

}  // namespace perflab
