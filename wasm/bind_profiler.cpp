// Bindings for the Profiling chapter: the whole profile of a spec (the same JSON object as
// `perflab profile --json`, so the page and the CLI agree), the model zoo, the attention
// rows, and one measured point per call for the chapter's experiments (model scaling,
// batch size, forward vs backward, memory breakdown, profiling overhead, one Linear layer
// with a chosen matmul variant); the lab worker loops over points, so progress and cancel
// happen between calls.
// Not for: sweeps, charts or any counting (core/profiler, core/zoo).
#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/model/zoo.hpp"

namespace perflab::wasm {
namespace {

// undefined/null: the spec's own batch (0).
std::size_t to_batch(const val& batch) {
  return batch.isUndefined() || batch.isNull() ? 0 : to_size(batch, "batch");
}

// profileModel(spec, options?): options as profile_options_from_json documents them
// ({warmup, samples, min_sample_ms, max_total_ms, batch, layers, backward, context_passes,
// machine: {peak_gflops_per_s, bandwidth_gb_per_s}, input_seed}).
val profile_model_js(val spec, val options) {
  const nlohmann::json s = to_spec(spec);
  const ProfileOptions o = profile_options_from_json(
      options.isUndefined() || options.isNull() ? nlohmann::json() : to_json(options, "options"));
  return to_val(to_json(profile_spec(s, o)));
}

val zoo_names_js() {
  val out = val::array();
  const auto names = zoo_names();
  for (std::size_t i = 0; i < names.size(); ++i) out.set(i, names[i]);
  return out;
}

// [{name, description, spec}] for the model builder's picker.
val zoo_models_js() {
  nlohmann::json out = nlohmann::json::array();
  for (const ZooEntry& e : zoo()) {
    out.push_back({{"name", e.name}, {"description", e.description}, {"spec", e.spec}});
  }
  return to_val(out);
}

val layer_types_js() { return to_val(layer_type_reference()); }

val zoo_spec_js(val name) { return to_val(zoo_spec(to_string(name, "name"))); }

val mlp_spec_js(val widths, val batch) {
  return to_val(mlp_spec(to_shape(widths, "widths"), to_size(batch, "batch")));
}

// attentionScaling(d_model, heads, seqLengths, batch = 1) → [row].
val attention_scaling_js(val d_model, val heads, val seq_lengths, val batch) {
  const std::size_t d = to_size(d_model, "d_model");
  const std::size_t h = to_size(heads, "heads");
  const Shape seqs = to_shape(seq_lengths, "seqLengths");
  const std::size_t b = batch.isUndefined() || batch.isNull() ? 1 : to_size(batch, "batch");
  nlohmann::json rows = nlohmann::json::array();
  for (const AttentionRow& r : attention_scaling(d, h, seqs, b)) rows.push_back(to_json(r));
  return to_val(rows);
}

// attentionPoint(d_model, heads, seqLen, batch = 1) → the one row at that length.
val attention_point_js(val d_model, val heads, val seq_len, val batch) {
  const std::size_t d = to_size(d_model, "d_model");
  const std::size_t h = to_size(heads, "heads");
  const std::size_t t = to_size(seq_len, "seq_len");
  const std::size_t b = batch.isUndefined() || batch.isNull() ? 1 : to_size(batch, "batch");
  return to_val(to_json(attention_scaling(d, h, {t}, b).front()));
}

// The timer settings a profile uses when none are given (the model builder's base for its
// Measure longer control).
val profile_timer_defaults_js() { return to_val(to_json(default_profile_timer_options())); }

// A point's timer options: a profile's defaults when none are given (undefined or null).
TimerOptions to_profile_timer_options(const val& options) {
  return options.isUndefined() || options.isNull() ? default_profile_timer_options()
                                                   : to_timer_options(options);
}

// The experiments' points: (spec, batch?, timer options?).
val measure_forward_point_js(val spec, val batch, val options) {
  const nlohmann::json s = to_spec(spec);
  const std::size_t b = to_batch(batch);
  const TimerOptions o = to_profile_timer_options(options);
  return to_val(to_json(measure_forward_point(s, b, o)));
}

// measureMlpForwardPoint(widths, batch, options?): core's mlpSpec over widths, measured as
// measureForwardPoint measures a spec (the model-scaling experiment's points).
val measure_mlp_forward_point_js(val widths, val batch, val options) {
  const Shape w = to_shape(widths, "widths");
  const std::size_t b = to_size(batch, "batch");
  const TimerOptions o = to_profile_timer_options(options);
  return to_val(to_json(measure_forward_point(mlp_spec(w, b), b, o)));
}

val measure_backward_point_js(val spec, val batch, val options) {
  const nlohmann::json s = to_spec(spec);
  const std::size_t b = to_batch(batch);
  const TimerOptions o = to_profile_timer_options(options);
  return to_val(to_json(measure_backward_point(s, b, o)));
}

val memory_breakdown_js(val spec, val batch) {
  const nlohmann::json s = to_spec(spec);
  return to_val(to_json(measure_memory_breakdown(s, to_batch(batch))));
}

val profiling_overhead_js(val spec, val batch, val options) {
  const nlohmann::json s = to_spec(spec);
  const std::size_t b = to_batch(batch);
  const TimerOptions o = to_profile_timer_options(options);
  return to_val(to_json(measure_profiling_overhead(s, b, o)));
}

// measureLinear(inFeatures, outFeatures, batch, variant, options?): one Linear layer's
// forward with its matmul run by `variant` (the loop-vs-vectorized experiment).
val measure_linear_js(val in_features, val out_features, val batch, val variant, val options) {
  const std::size_t in = to_size(in_features, "in_features");
  const std::size_t out = to_size(out_features, "out_features");
  const std::size_t b = to_size(batch, "batch");
  const std::string v = to_string(variant, "variant");
  const TimerOptions o = to_profile_timer_options(options);
  return to_val(to_json(measure_linear_point(in, out, b, v, o)));
}

// layers.hpp's documented per-element costs, for the chapter's FLOP table.
val flop_costs_js() {
  nlohmann::json out = nlohmann::json::array();
  for (const ElementwiseCost& c : elementwise_costs()) {
    out.push_back({{"op", c.op},
                   {"per", c.per},
                   {"forward", c.forward},
                   {"backward", c.backward},
                   {"note", c.note}});
  }
  return to_val(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_profiler) {
  expose<&profile_model_js>("profileModel");
  expose<&profile_timer_defaults_js>("profileTimerDefaults");
  expose<&zoo_names_js>("zooNames");
  expose<&zoo_models_js>("zooModels");
  expose<&layer_types_js>("layerTypes");
  expose<&zoo_spec_js>("zooSpec");
  expose<&mlp_spec_js>("mlpSpec");
  expose<&attention_scaling_js>("attentionScaling");
  expose<&attention_point_js>("attentionPoint");
  expose<&measure_forward_point_js>("measureForwardPoint");
  expose<&measure_mlp_forward_point_js>("measureMlpForwardPoint");
  expose<&measure_backward_point_js>("measureBackwardPoint");
  expose<&memory_breakdown_js>("memoryBreakdown");
  expose<&profiling_overhead_js>("profilingOverhead");
  expose<&flop_costs_js>("flopCosts");
  expose<&measure_linear_js>("measureLinear");
}

}  // namespace perflab::wasm
