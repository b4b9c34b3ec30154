// The Profiler's counting, memory, timing and whole-model profile (profiler.hpp). The
// ProfilerContext lives in profiler_context.cpp, the experiment points and attention
// analysis in profiler_points.cpp, JSON and options in profiler_json.cpp.
// Not for: estimating what can be measured (estimates appear only beside measurements).
#include "perflab/profiler/profiler.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/roofline/roofline.hpp"
#include "perflab/timing/interleaved.hpp"
#include "perflab/train/optimizer.hpp"
#include "profiler_detail.hpp"

namespace perflab {

namespace detail {

Shape at_batch(Shape shape, std::size_t batch) {
  if (!shape.empty()) shape[0] = batch;
  return shape;
}

std::size_t resolve_batch(const Model& model, std::size_t batch) {
  return batch == 0 ? model.batch_size() : batch;
}

Shape layer_input_at(const Model& model, std::size_t i, std::size_t batch) {
  return at_batch(model.layer_input_shape(i), batch);
}

KeepGuard::KeepGuard(Model& model) : model_(model) {
  for (std::size_t i = 0; i < model.size(); ++i)
    keep_.push_back(model.layer(i).keep_for_backward());
}

KeepGuard::~KeepGuard() {
  for (std::size_t i = 0; i < keep_.size(); ++i) model_.layer(i).set_keep_for_backward(keep_[i]);
}

Model model_at_batch(const nlohmann::json& spec, std::size_t batch) {
  // Anything malformed is left for model_from_json, whose messages name the field.
  if (batch == 0 || !spec.is_object() || !spec.contains("input") ||
      !spec.at("input").is_array() || spec.at("input").empty()) {
    return model_from_json(spec);
  }
  nlohmann::json at_batch = spec;
  at_batch["input"][0] = batch;
  return model_from_json(at_batch);
}

void check_pass_fits_budget(const Model& model, std::size_t batch, bool with_backward,
                            const TimerOptions& options) {
  const FlopReport flops = count_flops(model, batch);
  const std::string at = model.name() + " at batch " + std::to_string(flops.batch);
  if (with_backward) {
    check_call_fits_budget(flops.per_batch.total() + flops.backward_per_batch.total(),
                           "a forward and backward pass of " + at, options);
  } else {
    check_call_fits_budget(flops.per_batch.total(), "a forward pass of " + at, options);
  }
}

}  // namespace detail

using detail::at_batch;
using detail::layer_input_at;
using detail::resolve_batch;

TimerOptions default_profile_timer_options() {
  TimerOptions o;
  o.warmup = 1;
  o.samples = 10;
  o.min_sample_ms = 2.0;
  o.max_total_ms = 500.0;
  return o;
}

// ---------------------------------------------------------------------------------------
// Machine roofs

MachineRoofs roofs_from(const MachineProfile& machine) {
  return {machine.roofs(), "probe", machine.simd_backend};
}

namespace {
std::optional<MachineRoofs>& machine_roofs_slot() {
  static std::optional<MachineRoofs> roofs;
  return roofs;
}
}  // namespace

const MachineRoofs& machine_roofs() {
  auto& slot = machine_roofs_slot();
  if (!slot) slot = roofs_from(probe_machine(ProbeOptions::quick()));
  return *slot;
}

const MachineRoofs& set_machine_roofs(const Roofs& roofs, std::string simd_backend) {
  validate_roofs(roofs);
  return machine_roofs_slot().emplace(MachineRoofs{roofs, "probe", std::move(simd_backend)});
}

void clear_machine_roofs() { machine_roofs_slot().reset(); }

// ---------------------------------------------------------------------------------------
// Options

void ProfileOptions::validate() const {
  timer.validate();
  if (batch > kMaxSpecDimension) {
    throw ValueError("batch must be at most " + std::to_string(kMaxSpecDimension) + ", got " +
                     std::to_string(batch));
  }
  if (context_passes < 0 || context_passes > 1000) {
    throw ValueError("context_passes must be between 0 and 1000, got " +
                     std::to_string(context_passes));
  }
  if (machine) validate_roofs(*machine, "machine.");
}

// ---------------------------------------------------------------------------------------
// Counting

ParameterCount count_parameters(const Model& model) {
  ParameterCount c;
  for (std::size_t i = 0; i < model.size(); ++i) {
    const Layer& l = model.layer(i);
    c.layers.push_back({i, std::string(l.type()), l.parameter_count(), l.parameter_bytes()});
    c.total += l.parameter_count();
  }
  c.bytes = c.total * sizeof(float);
  return c;
}

FlopReport count_flops(const Model& model, std::size_t batch) {
  FlopReport r;
  r.batch = resolve_batch(model, batch);
  const auto b = static_cast<double>(r.batch);
  for (std::size_t i = 0; i < model.size(); ++i) {
    const Layer& l = model.layer(i);
    const Shape in = layer_input_at(model, i, r.batch);
    LayerFlops lf;
    lf.index = i;
    lf.type = std::string(l.type());
    lf.input_shape = in;
    lf.output_shape = l.output_shape(in);
    lf.per_sample = l.flops_per_sample(in);
    lf.per_batch = lf.per_sample * b;
    lf.backward_per_sample = l.backward_flops_for(in, i != 0);  // no dinput for layer 0
    r.per_sample += lf.per_sample;
    r.backward_per_sample += lf.backward_per_sample;
    r.layers.push_back(std::move(lf));
  }
  r.per_batch = r.per_sample * b;
  r.backward_per_batch = r.backward_per_sample * b;
  return r;
}

// ---------------------------------------------------------------------------------------
// Memory

OptimizerBytes optimizer_bytes(std::size_t parameter_count) {
  // The optimizers' own count of the buffers they allocate (train/optimizer.hpp).
  OptimizerConfig sgd{.name = "sgd", .momentum = 0.0};
  OptimizerConfig momentum{.name = "sgd", .momentum = 0.9};
  OptimizerConfig adam{.name = "adam"};
  OptimizerConfig adamw{.name = "adamw"};
  return {optimizer_state_bytes(sgd, parameter_count),
          optimizer_state_bytes(momentum, parameter_count),
          optimizer_state_bytes(adam, parameter_count),
          optimizer_state_bytes(adamw, parameter_count)};
}

namespace {

std::size_t gradient_bytes_of(Model& model) {
  std::size_t n = 0;
  for (const ParameterRef& p : model.parameters()) n += p.grad->bytes();
  return n;
}

// One forward with caches off frees whatever an earlier forward kept, so that no
// deallocation of old caches happens inside the session that follows (it would lower the
// current bytes below what the pass itself holds and hide part of its peak).
void drop_caches(Model& model, const Tensor& x) {
  model.set_keep_for_backward(false);
  Tensor y = model.forward(x);
}

}  // namespace

MemoryReport measure_memory(Model& model, std::size_t batch, std::uint64_t input_seed) {
  MemoryReport r;
  r.batch = resolve_batch(model, batch);
  r.parameter_bytes = model.parameter_bytes();
  for (std::size_t i = 0; i < model.size(); ++i) {
    const std::size_t bytes = model.layer(i).activation_bytes(layer_input_at(model, i, r.batch));
    r.activation_bytes += bytes;
    r.largest_activation_bytes = std::max(r.largest_activation_bytes, bytes);
  }
  r.gradient_bytes = gradient_bytes_of(model);
  r.optimizer_bytes = optimizer_bytes(model.parameter_count());

  detail::KeepGuard guard(model);
  const Tensor x = Tensor::random(at_batch(model.input_shape(), r.batch), input_seed);
  r.input_bytes = x.bytes();
  drop_caches(model, x);
  {
    MemorySession session;
    { Tensor y = model.forward(x); }
    const MemorySnapshot snap = session.stop();
    r.peak_bytes = snap.peak_bytes;
    r.allocation_count = snap.allocation_count;
  }
  r.activation_estimate_bytes = 2 * r.input_bytes;
  r.peak_estimate_bytes = r.parameter_bytes + r.activation_estimate_bytes;
  return r;
}

TrainingMemory measure_training_memory(Model& model, std::size_t batch, std::uint64_t input_seed) {
  TrainingMemory t;
  const std::size_t b = resolve_batch(model, batch);
  t.parameter_bytes = model.parameter_bytes();
  t.gradient_bytes = gradient_bytes_of(model);
  t.optimizer_bytes = optimizer_bytes(model.parameter_count());

  detail::KeepGuard guard(model);
  const Tensor x = Tensor::random(at_batch(model.input_shape(), b), input_seed);
  const Tensor dout = Tensor::full(at_batch(model.output_shape(), b), 1.0f);
  drop_caches(model, x);
  model.set_keep_for_backward(true);
  {
    MemorySession session;
    {
      Tensor y = model.forward(x);
      model.backward_parameters(dout);
    }
    t.step_peak_bytes = session.stop().peak_bytes;
  }
  model.zero_grad();
  const std::size_t fixed = t.parameter_bytes + t.gradient_bytes + t.step_peak_bytes;
  t.total_bytes = {fixed + t.optimizer_bytes.sgd, fixed + t.optimizer_bytes.momentum,
                   fixed + t.optimizer_bytes.adam, fixed + t.optimizer_bytes.adamw};
  return t;
}

// ---------------------------------------------------------------------------------------
// Timing

Stats measure_latency(Model& model, const TimerOptions& options, std::size_t batch,
                      std::uint64_t input_seed, Clock& clock) {
  options.validate();
  detail::KeepGuard guard(model);
  model.set_keep_for_backward(false);
  const Tensor x =
      Tensor::random(at_batch(model.input_shape(), resolve_batch(model, batch)), input_seed);
  Timer timer(clock);
  timer.options(options);
  return timer.run([&] { Tensor y = model.forward(x); });
}

namespace {

// Restores a lone layer's keep_for_backward.
class LayerKeepGuard {
 public:
  explicit LayerKeepGuard(Layer& layer) : layer_(layer), keep_(layer.keep_for_backward()) {}
  ~LayerKeepGuard() { layer_.set_keep_for_backward(keep_); }
  LayerKeepGuard(const LayerKeepGuard&) = delete;
  LayerKeepGuard& operator=(const LayerKeepGuard&) = delete;

 private:
  Layer& layer_;
  bool keep_;
};

LayerProfile layer_counts(const Layer& layer, const Shape& input_shape) {
  LayerProfile p;
  p.index = layer.index().value_or(0);
  p.type = std::string(layer.type());
  p.label = layer.label();
  p.input_shape = input_shape;
  p.output_shape = layer.output_shape(input_shape);
  p.parameters = layer.parameter_count();
  p.parameter_bytes = layer.parameter_bytes();
  p.flops_per_sample = layer.flops_per_sample(input_shape);
  p.flops_per_batch = p.flops_per_sample * static_cast<double>(input_shape.at(0));
  p.activation_bytes = layer.activation_bytes(input_shape);
  return p;
}

}  // namespace

LayerProfile profile_layer(Layer& layer, const Shape& input_shape, const TimerOptions& options,
                           std::uint64_t input_seed, Clock& clock) {
  options.validate();
  if (input_shape.empty()) {
    throw ShapeError(layer.label() + ": the input shape must have at least the batch dimension");
  }
  LayerProfile p = layer_counts(layer, input_shape);
  LayerKeepGuard guard(layer);
  layer.set_keep_for_backward(false);
  const Tensor x = Tensor::random(input_shape, input_seed);
  { Tensor y = layer.forward(x); }  // drops any kept cache (see drop_caches)
  {
    MemorySession session;
    { Tensor y = layer.forward(x); }
    p.peak_bytes = session.stop().peak_bytes;
  }
  Timer timer(clock);
  timer.options(options);
  p.forward = timer.run([&] { Tensor y = layer.forward(x); });
  p.gflops_per_s = gflops_per_s(p.flops_per_batch.matmul, p.forward.median_ms);
  p.gflops_per_s_all = gflops_per_s(p.flops_per_batch.total(), p.forward.median_ms);
  return p;
}

// ---------------------------------------------------------------------------------------
// Bottleneck, forward and backward

Bottleneck judge_bottleneck(double flops, double bytes, double measured_gflops_per_s,
                            double headline_gflops_per_s, std::size_t peak_bytes, double median_ms,
                            const MachineRoofs& machine) {
  Bottleneck b;
  b.intensity_flops_per_byte = arithmetic_intensity(flops, bytes);
  b.measured_gflops_per_s = measured_gflops_per_s;
  b.placement = place_on_roofline(flops, bytes, measured_gflops_per_s, machine);
  b.fraction_of_peak = measured_gflops_per_s / machine.peak_gflops_per_s;
  b.machine = machine;
  // The original: efficiency = GFLOP/s / an assumed 100 GFLOP/s peak (clamped to 1), and
  // "memory" when peak MB per second of latency exceeds 100 × GFLOP/s.
  constexpr double kAssumedPeakGflops = 100.0;
  b.original_efficiency = std::min(headline_gflops_per_s / kAssumedPeakGflops, 1.0);
  const double seconds = std::max(median_ms / 1000.0, 1e-6);
  const double mb_per_s = static_cast<double>(peak_bytes) / (1024.0 * 1024.0) / seconds;
  b.original_verdict = mb_per_s > headline_gflops_per_s * 100.0 ? "memory" : "compute";
  b.original_memory_bandwidth_mb_per_s = mb_per_s;
  return b;
}

namespace {
MachineRoofs resolve_roofs(const ProfileOptions& options) {
  if (options.machine) {
    MachineRoofs r = *options.machine;
    if (r.source.empty()) r.source = "given";
    return r;
  }
  return machine_roofs();
}
}  // namespace

ForwardProfile profile_forward_pass(Model& model, const ProfileOptions& options, Clock& clock) {
  options.validate();
  ForwardProfile f;
  f.batch = resolve_batch(model, options.batch);
  f.flops_per_sample = model.flops_per_sample();
  f.flops_per_batch = f.flops_per_sample * static_cast<double>(f.batch);
  f.memory = measure_memory(model, f.batch, options.input_seed);
  f.latency = measure_latency(model, options.timer, f.batch, options.input_seed, clock);
  const double ms = f.latency.median_ms;
  f.gflops_per_s = gflops_per_s(f.flops_per_batch.matmul, ms);
  f.gflops_per_s_all = gflops_per_s(f.flops_per_batch.total(), ms);
  f.samples_per_s = per_second(static_cast<double>(f.batch), ms);
  f.bytes_moved = static_cast<double>(f.memory.parameter_bytes + f.memory.input_bytes +
                                      f.memory.activation_bytes);
  f.arithmetic_intensity = f.flops_per_batch.total() / f.bytes_moved;
  f.memory_bandwidth_mb_per_s = per_second(f.bytes_moved / (1024.0 * 1024.0), ms);
  const double output_bytes =
      4.0 * static_cast<double>(shape_numel(at_batch(model.output_shape(), f.batch)));
  const double around = static_cast<double>(f.memory.parameter_bytes + f.memory.input_bytes);
  f.useful_bytes = around + output_bytes;
  f.held_bytes = around + static_cast<double>(f.memory.peak_bytes);
  f.memory_efficiency = f.held_bytes > 0 ? f.useful_bytes / f.held_bytes : 0.0;
  f.bottleneck = judge_bottleneck(
      f.flops_per_batch.total(), f.bytes_moved, f.gflops_per_s_all, f.gflops_per_s,
      std::max(f.memory.peak_bytes, f.memory.peak_estimate_bytes), ms, resolve_roofs(options));
  return f;
}

BackwardProfile profile_backward_pass(Model& model, const ProfileOptions& options, Clock& clock) {
  options.validate();
  BackwardProfile r;
  r.batch = resolve_batch(model, options.batch);
  const auto b = static_cast<double>(r.batch);
  r.flops_per_batch = model.backward_flops_per_sample() * b;
  r.forward_flops_per_batch = model.flops_per_sample() * b;
  r.flops_ratio_to_forward = r.forward_flops_per_batch.matmul > 0
                                 ? r.flops_per_batch.matmul / r.forward_flops_per_batch.matmul
                                 : 0.0;
  r.skipped_input_grad_flops = model.input_grad_flops_per_sample() * b;
  r.estimated_flops = 2.0 * r.forward_flops_per_batch.matmul;
  {
    detail::KeepGuard guard(model);
    model.set_keep_for_backward(true);
    const Tensor x = Tensor::random(at_batch(model.input_shape(), r.batch), options.input_seed);
    const Tensor dout = Tensor::full(at_batch(model.output_shape(), r.batch), 1.0f);
    { Tensor y = model.forward(x); }  // the kept forward the first timed backward reads
    // Forward then backward in every round: the training order, and one run, so the ratio
    // of their medians is not skewed by the machine changing speed between two runs. Every
    // forward keeps caches of the same input, so each backward reads a forward like its own.
    InterleavedStats run = run_interleaved(
        {[&] { Tensor y = model.forward(x); }, [&] { model.backward_parameters(dout); }},
        options.timer, clock);
    r.forward = std::move(run.stats[0]);
    r.backward = std::move(run.stats[1]);
    r.rounds = run.rounds;
    model.zero_grad();
  }
  r.measured_ms = r.backward.median_ms;
  r.estimated_ms = 2.0 * r.forward.median_ms;
  r.ratio_to_forward = r.forward.median_ms > 0 ? r.measured_ms / r.forward.median_ms : 0.0;
  r.gflops_per_s = gflops_per_s(r.flops_per_batch.matmul, r.measured_ms);
  r.memory = measure_training_memory(model, r.batch, options.input_seed);
  r.total_flops = r.forward_flops_per_batch.matmul + r.flops_per_batch.matmul;
  r.total_ms = r.forward.median_ms + r.measured_ms;
  r.total_gflops_per_s = gflops_per_s(r.total_flops, r.total_ms);
  r.total_memory_bytes = r.memory.total_bytes.sgd;
  r.estimated_total_flops = 3.0 * r.forward_flops_per_batch.matmul;
  r.estimated_total_ms = 3.0 * r.forward.median_ms;
  return r;
}

// ---------------------------------------------------------------------------------------
// The whole profile

ModelProfile profile_model(Model& model, const ProfileOptions& options, const ProgressFn& progress,
                           Clock& clock) {
  options.validate();
  const std::size_t batch = resolve_batch(model, options.batch);
  // Stages: forward, each layer, backward, context; progress after each.
  const double stages = 1.0 + (options.layers ? static_cast<double>(model.size()) : 0.0) +
                        (options.backward ? 1.0 : 0.0) + (options.context_passes > 0 ? 1.0 : 0.0);
  double done = 0;
  const auto step = [&] {
    done += 1;
    if (progress && !progress(std::min(done / stages, 1.0))) {
      throw CancelledError("profile of " + model.name() + " cancelled");
    }
  };

  ModelProfile p;
  p.name = model.name();
  p.input = at_batch(model.input_shape(), batch);
  p.output_shape = at_batch(model.output_shape(), batch);
  p.parameters = count_parameters(model);
  p.flops = count_flops(model, batch);
  // Refused before any work when its longest pass cannot end within the budget, as the
  // profiler's points are; a pass that may fit but outlasts it gets one sample (the timer's rule).
  detail::check_pass_fits_budget(model, batch, options.backward, options.timer);

  ProfileOptions forward_options = options;
  forward_options.batch = batch;
  p.forward = profile_forward_pass(model, forward_options, clock);
  step();

  p.layers_timed = options.layers;
  for (std::size_t i = 0; i < model.size(); ++i) {
    const Shape in = layer_input_at(model, i, batch);
    if (options.layers) {
      p.layers.push_back(
          profile_layer(model.layer(i), in, options.timer, options.input_seed + i, clock));
      step();
    } else {
      p.layers.push_back(layer_counts(model.layer(i), in));
    }
  }

  if (options.backward) {
    p.backward = profile_backward_pass(model, forward_options, clock);
    step();
  }

  if (options.context_passes > 0) {
    detail::KeepGuard guard(model);
    model.set_keep_for_backward(options.backward);
    const Tensor x = Tensor::random(p.input, options.input_seed);
    const Tensor dout = Tensor::full(p.output_shape, 1.0f);
    ProfilerContext context(clock);
    context.watch(model, batch);
    for (int pass = 0; pass < options.context_passes; ++pass) {
      Tensor y = model.forward(x);
      if (options.backward) {
        model.backward_parameters(dout);
      }
    }
    if (options.backward) model.zero_grad();
    p.top_operations = context.top_operations();
    p.operation_passes = options.context_passes;
    step();
  }
  return p;
}

ModelProfile profile_spec(const nlohmann::json& spec, const ProfileOptions& options,
                          const ProgressFn& progress, Clock& clock) {
  options.validate();
  Model model = detail::model_at_batch(spec, options.batch);
  ProfileOptions o = options;
  o.batch = 0;  // the spec now has it
  return profile_model(model, o, progress, clock);
}

}  // namespace perflab
