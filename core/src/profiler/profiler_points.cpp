// One measured point per call for the Profiling chapter's experiments (the lab worker loops
// over points, so progress and cancel happen between them), and the attention analysis
// against sequence length (counted, MultiHeadAttention's convention).
// Not for: sweeps (the worker's loop) or charting.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/base/rates.hpp"
#include "profiler_detail.hpp"

namespace perflab {

namespace {
Model model_at(const nlohmann::json& spec, std::size_t batch) {
  if (batch > kMaxSpecDimension) {
    throw ValueError("batch must be at most " + std::to_string(kMaxSpecDimension) + ", got " +
                     std::to_string(batch));
  }
  return detail::model_at_batch(spec, batch);
}

// a·b·c in decimal, exactly, for sizes up to kMaxSpecDimension (2^24): the product reaches
// 2^72, past any 64-bit integer and past a double's exact range, so it is written as
// high·10^9 + low, each part well inside 64 bits.
std::string product_text(std::size_t a, std::size_t b, std::size_t c) {
  constexpr std::uint64_t kBase = 1000000000;
  const std::uint64_t ab = static_cast<std::uint64_t>(a) * b;  // < 2^48
  std::uint64_t low = (ab % kBase) * c;                          // < 10^9 · 2^24
  const std::uint64_t high = (ab / kBase) * c + low / kBase;     // < 2^48 / 10^9 · 2^24 + 2^24
  low %= kBase;
  if (high == 0) return std::to_string(low);
  const std::string digits = std::to_string(low);
  return std::to_string(high) + std::string(9 - digits.size(), '0') + digits;
}
}  // namespace

LinearPoint measure_linear_point(std::size_t in_features, std::size_t out_features,
                                 std::size_t batch, std::string_view variant,
                                 const TimerOptions& options, Clock& clock) {
  const std::pair<const char*, std::size_t> sizes[] = {
      {"in_features", in_features}, {"out_features", out_features}, {"batch", batch}};
  for (const auto& [name, value] : sizes) {
    if (value < 1 || value > kMaxSpecDimension) {
      throw ValueError(std::string(name) + " must be between 1 and " +
                       std::to_string(kMaxSpecDimension) + ", got " + std::to_string(value));
    }
  }
  const double terms = static_cast<double>(batch) * static_cast<double>(in_features) *
                       static_cast<double>(out_features);
  if (terms > kMaxLinearPointTerms) {
    throw ValueError("batch × in_features × out_features must be at most " +
                     std::to_string(static_cast<long long>(kMaxLinearPointTerms)) + ", got " +
                     std::to_string(batch) + " × " + std::to_string(in_features) + " × " +
                     std::to_string(out_features) + " = " +
                     product_text(batch, in_features, out_features));
  }
  options.validate();
  check_call_fits_budget(2 * terms, "a Linear layer's forward", options);
  const LayerMatmulVariantScope scope(variant);  // ValueError for an unknown variant
  Linear layer(in_features, out_features, true, 1);
  const LayerProfile profile = profile_layer(layer, {batch, in_features}, options, 1, clock);
  LinearPoint p;
  p.variant = std::string(layer_matmul_variant());
  p.in_features = in_features;
  p.out_features = out_features;
  p.batch = batch;
  p.flops = profile.flops_per_batch.matmul;
  p.gflops_per_s = profile.gflops_per_s;
  p.stats = profile.forward;
  return p;
}

ForwardPoint measure_forward_point(const nlohmann::json& spec, std::size_t batch,
                                   const TimerOptions& options, Clock& clock) {
  options.validate();
  Model model = model_at(spec, batch);
  return measure_forward_point(model, 0, options, clock);
}

ForwardPoint measure_forward_point(Model& model, std::size_t batch, const TimerOptions& options,
                                   Clock& clock) {
  options.validate();
  if (batch > kMaxSpecDimension) {
    throw ValueError("batch must be at most " + std::to_string(kMaxSpecDimension) + ", got " +
                     std::to_string(batch));
  }
  detail::check_pass_fits_budget(model, batch, false, options);
  ForwardPoint p;
  p.name = model.name();
  p.batch = batch == 0 ? model.batch_size() : batch;
  p.parameters = model.parameter_count();
  p.flops_per_sample = model.flops_per_sample().matmul;
  p.flops_per_batch = p.flops_per_sample * static_cast<double>(p.batch);
  const MemoryReport memory = measure_memory(model, batch);
  p.activation_bytes = memory.activation_bytes;
  p.peak_bytes = memory.peak_bytes;
  p.latency = measure_latency(model, options, batch, 1, clock);
  p.gflops_per_s = gflops_per_s(p.flops_per_batch, p.latency.median_ms);
  p.samples_per_s = per_second(static_cast<double>(p.batch), p.latency.median_ms);
  p.ms_per_sample = p.latency.median_ms / static_cast<double>(p.batch);
  return p;
}

BackwardProfile measure_backward_point(const nlohmann::json& spec, std::size_t batch,
                                       const TimerOptions& options, Clock& clock) {
  options.validate();
  Model model = model_at(spec, batch);
  detail::check_pass_fits_budget(model, 0, true, options);
  ProfileOptions o;
  o.timer = options;
  return profile_backward_pass(model, o, clock);
}

MemoryBreakdown measure_memory_breakdown(const nlohmann::json& spec, std::size_t batch) {
  Model model = model_at(spec, batch);
  return {measure_memory(model), measure_training_memory(model)};
}

OverheadPoint measure_profiling_overhead(const nlohmann::json& spec, std::size_t batch,
                                         const TimerOptions& options, Clock& clock) {
  options.validate();
  Model model = model_at(spec, batch);
  detail::check_pass_fits_budget(model, 0, false, options);
  OverheadPoint p;
  p.plain = measure_latency(model, options, 0, 1, clock);
  {
    ProfilerContext context(clock);
    context.watch(model);
    p.with_context = measure_latency(model, options, 0, 1, clock);
    // Calls per forward, nested parts included: one more pass on a clean record.
    context.reset();
    model.set_keep_for_backward(false);
    { Tensor y = model.forward(Tensor::random(model.input_shape(), 1)); }
    for (const OperationRow& row : context.top_operations()) p.layer_calls_per_forward += row.calls;
  }
  p.plain_ms = p.plain.median_ms;
  p.with_context_ms = p.with_context.median_ms;
  p.overhead_ms = p.with_context_ms - p.plain_ms;
  p.overhead_percent = p.plain_ms > 0 ? 100.0 * p.overhead_ms / p.plain_ms : 0.0;
  Timer timer(clock);
  timer.options(options);
  volatile double sink = 0;
  p.clock_read_ms = timer.run([&] { sink = sink + clock.now_ms(); }).median_ms;
  return p;
}

std::vector<AttentionRow> attention_scaling(std::size_t d_model, std::size_t heads,
                                            const std::vector<std::size_t>& seq_lengths,
                                            std::size_t batch) {
  if (d_model == 0) throw ValueError("d_model must be a positive integer, got 0");
  if (heads == 0) throw ValueError("heads must be a positive integer, got 0");
  if (d_model % heads != 0) {
    throw ValueError("heads must divide d_model (" + std::to_string(d_model) + "), got " +
                     std::to_string(heads));
  }
  if (batch == 0) throw ValueError("batch must be a positive integer, got 0");
  if (seq_lengths.empty()) throw ValueError("seq_lengths must hold at least one length, got none");
  const auto D = static_cast<double>(d_model), H = static_cast<double>(heads);
  std::vector<AttentionRow> rows;
  for (std::size_t i = 0; i < seq_lengths.size(); ++i) {
    const std::size_t t = seq_lengths[i];
    if (t == 0 || t > kMaxSpecDimension) {
      throw ValueError("seq_lengths[" + std::to_string(i) + "] must be between 1 and " +
                       std::to_string(kMaxSpecDimension) + ", got " + std::to_string(t));
    }
    const auto T = static_cast<double>(t);
    AttentionRow r;
    r.seq_len = t;
    r.projection_flops = 4 * (2 * T * D * D);
    r.scores_flops = 2 * T * T * D;
    r.context_flops = 2 * T * T * D;
    r.quadratic_flops = r.scores_flops + r.context_flops;
    r.matmul_flops = r.projection_flops + r.quadratic_flops;
    r.softmax_flops = flop_cost::kAttentionScoreForward * H * T * T;
    r.bias_flops = 4 * T * D;
    r.quadratic_fraction = r.quadratic_flops / r.matmul_flops;
    const double f = sizeof(float), B = static_cast<double>(batch);
    r.weight_bytes = f * (4 * D * D + 4 * D);
    r.qkv_bytes = f * 4 * B * T * D;
    r.score_matrix_bytes = f * B * H * T * T;
    r.output_bytes = f * B * T * D;
    r.activation_bytes = r.qkv_bytes + r.score_matrix_bytes + r.output_bytes;
    rows.push_back(r);
  }
  return rows;
}

}  // namespace perflab
