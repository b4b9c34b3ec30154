// The profiler's results as JSON (the CLI prints and the page receives exactly these
// objects, so they cannot disagree) and its options read from JSON (the page's options
// object). Field names are the C++ ones, units in the names.
// Not for: formatting text (tools/cli) or validating ranges (ProfileOptions::validate).
#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"
#include "perflab/profiler/profiler.hpp"

namespace perflab {

using nlohmann::json;

namespace {

int int_option(const json& v, const std::string& name) { return json_int(v, "options." + name); }

std::size_t size_option(const json& v, const std::string& name) {
  const bool integral =
      v.is_number_integer() || (v.is_number_float() && std::isfinite(v.get<double>()) &&
                                std::trunc(v.get<double>()) == v.get<double>());
  if (!integral || v.get<double>() < 0) {
    throw ValueError("options." + name + " must be a non-negative integer, got " + describe(v));
  }
  const double d = v.get<double>();
  if (d > static_cast<double>(kMaxSpecDimension)) {
    throw ValueError("options." + name + " must be at most " + std::to_string(kMaxSpecDimension) +
                     ", got " + describe(v));
  }
  return static_cast<std::size_t>(d);
}

double number_option(const json& v, const std::string& name) {
  return json_number(v, "options." + name);
}

bool bool_option(const json& v, const std::string& name) {
  if (!v.is_boolean()) {
    throw ValueError("options." + name + " must be true or false, got " + describe(v));
  }
  return v.get<bool>();
}

json shape_json(const Shape& s) { return json(s); }

}  // namespace

ProfileOptions profile_options_from_json(const json& options) {
  ProfileOptions o;
  if (options.is_null()) return o;
  const char* const allowed =
      "warmup, samples, min_sample_ms, max_total_ms, batch, layers, backward, context_passes, "
      "machine, input_seed and controls";
  if (!options.is_object()) {
    throw ValueError(std::string("options must be an object with optional fields ") + allowed +
                     ", got " + describe(options));
  }
  for (const auto& [key, v] : options.items()) {
    if (v.is_null()) continue;  // {"batch": null} means the default
    if (read_timer_option(o.timer, key, v, "options." + key)) {
      continue;
    } else if (key == "batch") {
      o.batch = size_option(v, key);
    } else if (key == "layers") {
      o.layers = bool_option(v, key);
    } else if (key == "backward") {
      o.backward = bool_option(v, key);
    } else if (key == "context_passes") {
      o.context_passes = int_option(v, key);
    } else if (key == "controls") {
      o.timer.controls = timer_controls_from_json(v, "options.controls");
    } else if (key == "input_seed") {
      o.input_seed = size_option(v, key);
    } else if (key == "machine") {
      if (!v.is_object() || !v.contains("peak_gflops_per_s") || !v.contains("bandwidth_gb_per_s") ||
          v.size() != 2) {
        throw ValueError(
            "options.machine must be an object {peak_gflops_per_s, bandwidth_gb_per_s}, got " +
            describe(v));
      }
      MachineRoofs r;
      r.peak_gflops_per_s = number_option(v["peak_gflops_per_s"], "machine.peak_gflops_per_s");
      r.bandwidth_gb_per_s = number_option(v["bandwidth_gb_per_s"], "machine.bandwidth_gb_per_s");
      r.source = "given";
      o.machine = r;
    } else {
      throw ValueError("unknown option \"" + key + "\"; the allowed options are " + allowed);
    }
  }
  o.validate();
  return o;
}

json to_json(const FlopCounts& f) {
  return {
      {"matmul", f.matmul}, {"bias", f.bias}, {"elementwise", f.elementwise}, {"total", f.total()}};
}

json to_json(const OptimizerBytes& b) {
  return {{"sgd", b.sgd}, {"momentum", b.momentum}, {"adam", b.adam}, {"adamw", b.adamw}};
}

json to_json(const MachineRoofs& r) {
  return {{"peak_gflops_per_s", r.peak_gflops_per_s},
          {"bandwidth_gb_per_s", r.bandwidth_gb_per_s},
          {"source", r.source},
          {"simd_backend", r.simd_backend}};
}

json to_json(const ParameterCount& c) {
  json layers = json::array();
  for (const auto& l : c.layers) {
    layers.push_back({{"index", l.index},
                      {"type", l.type},
                      {"parameters", l.parameters},
                      {"parameter_bytes", l.parameter_bytes}});
  }
  return {{"parameters", c.total}, {"parameter_bytes", c.bytes}, {"layers", layers}};
}

json to_json(const FlopReport& r) {
  json layers = json::array();
  for (const auto& l : r.layers) {
    layers.push_back({{"index", l.index},
                      {"type", l.type},
                      {"input_shape", shape_json(l.input_shape)},
                      {"output_shape", shape_json(l.output_shape)},
                      {"flops_per_sample", l.per_sample.matmul},
                      {"flops_per_batch", l.per_batch.matmul},
                      {"per_sample", to_json(l.per_sample)},
                      {"per_batch", to_json(l.per_batch)},
                      {"backward_per_sample", to_json(l.backward_per_sample)}});
  }
  return {{"batch_size", r.batch},
          {"flops_per_sample", r.per_sample.matmul},
          {"flops_per_batch", r.per_batch.matmul},
          {"per_sample", to_json(r.per_sample)},
          {"per_batch", to_json(r.per_batch)},
          {"backward_per_sample", to_json(r.backward_per_sample)},
          {"backward_per_batch", to_json(r.backward_per_batch)},
          {"layers", layers}};
}

json to_json(const MemoryReport& m) {
  return {{"batch_size", m.batch},
          {"parameter_bytes", m.parameter_bytes},
          {"activation_bytes", m.activation_bytes},
          {"largest_activation_bytes", m.largest_activation_bytes},
          {"input_bytes", m.input_bytes},
          {"peak_bytes", m.peak_bytes},
          {"allocation_count", m.allocation_count},
          {"gradient_bytes", m.gradient_bytes},
          {"optimizer_bytes", to_json(m.optimizer_bytes)},
          {"activation_estimate_bytes", m.activation_estimate_bytes},
          {"peak_estimate_bytes", m.peak_estimate_bytes}};
}

json to_json(const TrainingMemory& t) {
  return {{"step_peak_bytes", t.step_peak_bytes},
          {"parameter_bytes", t.parameter_bytes},
          {"gradient_bytes", t.gradient_bytes},
          {"optimizer_bytes", to_json(t.optimizer_bytes)},
          {"total_bytes", to_json(t.total_bytes)}};
}

json to_json(const LayerProfile& l) {
  const bool timed = l.forward.samples > 0;
  return {{"index", l.index},
          {"type", l.type},
          {"label", l.label},
          {"input_shape", shape_json(l.input_shape)},
          {"output_shape", shape_json(l.output_shape)},
          {"parameters", l.parameters},
          {"parameter_bytes", l.parameter_bytes},
          {"flops_per_sample", l.flops_per_sample.matmul},
          {"flops_per_batch", l.flops_per_batch.matmul},
          {"flops_breakdown", to_json(l.flops_per_batch)},
          {"activation_bytes", l.activation_bytes},
          {"peak_bytes", timed ? json(l.peak_bytes) : json(nullptr)},
          {"forward_ms", timed ? json(l.forward.median_ms) : json(nullptr)},
          {"gflops_per_s", timed ? json(l.gflops_per_s) : json(nullptr)},
          {"gflops_per_s_all", timed ? json(l.gflops_per_s_all) : json(nullptr)},
          {"stats", timed ? to_json(l.forward) : json(nullptr)}};
}

json to_json(const Bottleneck& b) {
  const RooflinePlacement& p = b.placement;
  return {{"verdict", to_string(p.bound)},
          {"reason", p.verdict},
          {"intensity_flops_per_byte", b.intensity_flops_per_byte},
          {"ridge_flops_per_byte", p.ridge_flops_per_byte},
          {"attainable_gflops_per_s", p.attainable_gflops_per_s},
          {"measured_gflops_per_s", b.measured_gflops_per_s},
          {"fraction_of_attainable", p.fraction_of_attainable},
          {"fraction_of_peak", b.fraction_of_peak},
          {"machine", to_json(b.machine)},
          {"original_efficiency", b.original_efficiency},
          {"original_verdict", b.original_verdict},
          {"original_memory_bandwidth_mb_per_s", b.original_memory_bandwidth_mb_per_s}};
}

json to_json(const ForwardProfile& f) {
  return {{"batch_size", f.batch},
          {"flops_per_sample", f.flops_per_sample.matmul},
          {"flops_per_batch", f.flops_per_batch.matmul},
          {"flops_breakdown", to_json(f.flops_per_batch)},
          {"memory", to_json(f.memory)},
          {"latency", to_json(f.latency)},
          {"gflops_per_s", f.gflops_per_s},
          {"gflops_per_s_all", f.gflops_per_s_all},
          {"samples_per_s", f.samples_per_s},
          {"bytes_moved", f.bytes_moved},
          {"arithmetic_intensity", f.arithmetic_intensity},
          {"memory_bandwidth_mb_per_s", f.memory_bandwidth_mb_per_s},
          {"useful_bytes", f.useful_bytes},
          {"held_bytes", f.held_bytes},
          {"memory_efficiency", f.memory_efficiency},
          {"bottleneck", to_json(f.bottleneck)}};
}

json to_json(const BackwardProfile& b) {
  return {{"batch_size", b.batch},
          {"timing", "interleaved"},
          {"rounds", b.rounds},
          {"measured_ms", b.measured_ms},
          {"estimated_ms", b.estimated_ms},
          {"forward_ms", b.forward.median_ms},
          {"ratio_to_forward", b.ratio_to_forward},
          {"flops", b.flops_per_batch.matmul},
          {"estimated_flops", b.estimated_flops},
          {"flops_breakdown", to_json(b.flops_per_batch)},
          {"forward_flops", b.forward_flops_per_batch.matmul},
          {"flops_ratio_to_forward", b.flops_ratio_to_forward},
          {"skipped_input_grad_flops", b.skipped_input_grad_flops.matmul},
          {"gflops_per_s", b.gflops_per_s},
          {"forward_latency", to_json(b.forward)},
          {"latency", to_json(b.backward)},
          {"training_memory", to_json(b.memory)},
          {"total_flops", b.total_flops},
          {"total_ms", b.total_ms},
          {"total_gflops_per_s", b.total_gflops_per_s},
          {"total_memory_bytes", b.total_memory_bytes},
          {"estimated_total_flops", b.estimated_total_flops},
          {"estimated_total_ms", b.estimated_total_ms}};
}

json to_json(const OperationRow& r) {
  return {{"layer", r.layer},     {"type", r.type},
          {"pass", r.pass},       {"depth", r.depth},
          {"calls", r.calls},     {"total_ms", r.total_ms},
          {"self_ms", r.self_ms}, {"percent_of_total", r.percent_of_total},
          {"flops", r.flops},     {"gflops_per_s", r.gflops_per_s}};
}

json to_json(const ForwardPoint& p) {
  return {{"name", p.name},
          {"batch_size", p.batch},
          {"parameters", p.parameters},
          {"flops_per_sample", p.flops_per_sample},
          {"flops_per_batch", p.flops_per_batch},
          {"activation_bytes", p.activation_bytes},
          {"peak_bytes", p.peak_bytes},
          {"latency", to_json(p.latency)},
          {"gflops_per_s", p.gflops_per_s},
          {"samples_per_s", p.samples_per_s},
          {"ms_per_sample", p.ms_per_sample}};
}

json to_json(const MemoryBreakdown& m) {
  return {{"inference", to_json(m.inference)}, {"training", to_json(m.training)}};
}

json to_json(const OverheadPoint& p) {
  return {{"layer_calls_per_forward", p.layer_calls_per_forward},
          {"plain_ms", p.plain_ms},
          {"with_context_ms", p.with_context_ms},
          {"overhead_ms", p.overhead_ms},
          {"overhead_percent", p.overhead_percent},
          {"clock_read_ms", p.clock_read_ms},
          {"plain", to_json(p.plain)},
          {"with_context", to_json(p.with_context)}};
}

json to_json(const LinearPoint& p) {
  return {{"variant", p.variant},           {"in_features", p.in_features},
          {"out_features", p.out_features}, {"batch", p.batch},
          {"flops", p.flops},               {"gflops_per_s", p.gflops_per_s},
          {"stats", to_json(p.stats)}};
}

json to_json(const AttentionRow& r) {
  return {{"seq_len", r.seq_len},
          {"projection_flops", r.projection_flops},
          {"scores_flops", r.scores_flops},
          {"context_flops", r.context_flops},
          {"quadratic_flops", r.quadratic_flops},
          {"matmul_flops", r.matmul_flops},
          {"softmax_flops", r.softmax_flops},
          {"bias_flops", r.bias_flops},
          {"quadratic_fraction", r.quadratic_fraction},
          {"weight_bytes", r.weight_bytes},
          {"qkv_bytes", r.qkv_bytes},
          {"score_matrix_bytes", r.score_matrix_bytes},
          {"output_bytes", r.output_bytes},
          {"activation_bytes", r.activation_bytes}};
}

json to_json(const ModelProfile& p) {
  const ForwardProfile& f = p.forward;
  const MemoryReport& m = f.memory;
  json layers = json::array();
  for (const auto& l : p.layers) layers.push_back(to_json(l));
  json ops = json::array();
  for (const auto& r : p.top_operations) ops.push_back(to_json(r));
  return {{"name", p.name},
          {"input", shape_json(p.input)},
          {"output_shape", shape_json(p.output_shape)},
          {"batch_size", f.batch},
          {"parameters", p.parameters.total},
          {"parameter_bytes", p.parameters.bytes},
          {"flops_per_sample", p.flops.per_sample.matmul},
          {"flops_per_batch", p.flops.per_batch.matmul},
          {"flops_breakdown", to_json(p.flops.per_batch)},
          {"flops_breakdown_per_sample", to_json(p.flops.per_sample)},
          {"activation_bytes", m.activation_bytes},
          {"activation_estimate_bytes", m.activation_estimate_bytes},
          {"largest_activation_bytes", m.largest_activation_bytes},
          {"input_bytes", m.input_bytes},
          {"peak_bytes", m.peak_bytes},
          {"peak_estimate_bytes", m.peak_estimate_bytes},
          {"gradient_bytes", m.gradient_bytes},
          {"optimizer_bytes", to_json(m.optimizer_bytes)},
          {"layers", layers},
          {"latency", to_json(f.latency)},
          {"gflops_per_s", f.gflops_per_s},
          {"gflops_per_s_all", f.gflops_per_s_all},
          {"samples_per_s", f.samples_per_s},
          {"bytes_moved", f.bytes_moved},
          {"arithmetic_intensity", f.arithmetic_intensity},
          {"memory_bandwidth_mb_per_s", f.memory_bandwidth_mb_per_s},
          {"useful_bytes", f.useful_bytes},
          {"held_bytes", f.held_bytes},
          {"memory_efficiency", f.memory_efficiency},
          {"bottleneck", to_json(f.bottleneck)},
          {"backward", p.backward ? to_json(*p.backward) : json(nullptr)},
          {"top_operations", ops},
          {"top_operations_passes", p.operation_passes}};
}

}  // namespace perflab
