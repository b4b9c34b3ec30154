// Bindings of training in core for the page's lab worker: Fashion-MNIST from raw IDX bytes,
// models from a spec or a model file's bytes, training a bounded number of steps per call
// (the worker reports progress and sees a cancel between chunks), evaluation, and a model
// file's bytes. The objects live in core's session table (train/session_table.hpp) and are
// named by id; each binding converts its arguments in order and core's JSON back.
// Not for: logic (core/), inflating gzip (the worker's DecompressionStream).
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/train/session_table.hpp"
#include "perflab/train/train.hpp"

namespace perflab::wasm {

namespace {

// undefined: the default; otherwise a non-negative integer named `name`.
std::size_t size_or(const val& v, const std::string& name, std::size_t fallback) {
  return v.isUndefined() ? fallback : to_size(v, name);
}

// A Fashion-MNIST split from its inflated IDX files (the .gz files' contents); `first` keeps
// the first rows only (undefined or 0: all). Returns the data set's facts with its id.
val load_fashion_mnist_js(val images, val labels, val split, val first) {
  const auto image_bytes = to_bytes(images, "images", kMaxIdxBytes);
  const auto label_bytes = to_bytes(labels, "labels", kMaxIdxBytes);
  const std::string s = to_string(split, "split");
  const std::size_t n = size_or(first, "first", 0);
  SessionTable& t = session_table();
  return to_val(t.dataset_info(t.add_fashion_mnist(image_bytes, label_bytes, s, n)));
}

val dataset_info_js(val dataset_id) {
  return to_val(session_table().dataset_info(to_size(dataset_id, "dataset_id")));
}

val drop_dataset_js(val dataset_id) {
  session_table().drop_dataset(to_size(dataset_id, "dataset_id"));
  return val::undefined();
}

// An untrained model from a spec (an object or its JSON text); its facts with its id.
val create_model_js(val spec) {
  SessionTable& t = session_table();
  return to_val(t.model_info(t.add_model(to_spec(spec))));
}

// A model from a model file's bytes; its facts (training facts included) with its id.
val load_model_file_js(val bytes) {
  const auto b = to_bytes(bytes, "bytes", kMaxModelFileBytes);
  SessionTable& t = session_table();
  return to_val(t.model_info(t.add_model_file(b, "the model file")));
}

val model_info_js(val model_id) {
  return to_val(session_table().model_info(to_size(model_id, "model_id")));
}

val drop_model_js(val model_id) {
  session_table().drop_model(to_size(model_id, "model_id"));
  return val::undefined();
}

// The model file's bytes (a Uint8Array).
val model_file_bytes_js(val model_id) {
  return copy_to_uint8_array(session_table().model_file(to_size(model_id, "model_id")));
}

// recipe: an object of TrainRecipe's fields replacing the model's baseline (undefined: {}).
val start_training_js(val model_id, val dataset_id, val recipe) {
  const std::size_t m = to_size(model_id, "model_id");
  const std::size_t d = to_size(dataset_id, "dataset_id");
  const nlohmann::json r =
      recipe.isUndefined() ? nlohmann::json::object() : to_json(recipe, "recipe");
  return to_val(session_table().start_training(m, d, r));
}

val train_steps_js(val model_id, val steps) {
  const std::size_t m = to_size(model_id, "model_id");
  return to_val(session_table().train_steps(m, to_size(steps, "steps")));
}

val cancel_training_js(val model_id) {
  return to_val(session_table().cancel_training(to_size(model_id, "model_id")));
}

val training_result_js(val model_id) {
  return to_val(session_table().training_result(to_size(model_id, "model_id")));
}

// max_misclassified: how many wrong images to list (undefined: core's default).
val evaluate_model_js(val model_id, val dataset_id, val max_misclassified) {
  const std::size_t m = to_size(model_id, "model_id");
  const std::size_t d = to_size(dataset_id, "dataset_id");
  const std::size_t k =
      size_or(max_misclassified, "max_misclassified", EvaluateOptions{}.max_misclassified);
  return to_val(session_table().evaluate(m, d, k));
}

// The weight distribution of a held model's current weights (optimize/weights.hpp).
val weight_distribution_js(val model_id) {
  return to_val(session_table().weight_distribution(to_size(model_id, "model_id")));
}

// Structured pruning of a held model into a new held model (optimize/structured.hpp).
val prune_structured_js(val model_id, val fraction) {
  const std::size_t m = to_size(model_id, "model_id");
  return to_val(session_table().prune_structured(m, to_finite_number(fraction, "fraction")));
}

// Fine-tuning a structurally pruned model: startTraining's answer; trainSteps runs it.
val start_finetuning_js(val model_id, val dataset_id, val epochs) {
  const std::size_t m = to_size(model_id, "model_id");
  const std::size_t d = to_size(dataset_id, "dataset_id");
  return to_val(session_table().start_finetuning(m, d, to_size(epochs, "epochs")));
}

// Distillation of a held teacher into a held student; temperature and alpha undefined: core's
// defaults (optimize/distill.hpp). trainSteps runs it.
val start_distillation_js(val student_id, val teacher_id, val dataset_id, val recipe,
                          val temperature, val alpha) {
  const std::size_t s = to_size(student_id, "student_id");
  const std::size_t t = to_size(teacher_id, "teacher_id");
  const std::size_t d = to_size(dataset_id, "dataset_id");
  const nlohmann::json r =
      recipe.isUndefined() ? nlohmann::json::object() : to_json(recipe, "recipe");
  const double T = temperature.isUndefined() ? kDefaultDistillTemperature
                                             : to_finite_number(temperature, "temperature");
  const double a = alpha.isUndefined() ? kDefaultDistillAlpha : to_finite_number(alpha, "alpha");
  return to_val(session_table().start_distillation(s, t, d, r, T, a));
}

// Two held models' forwards timed by core's interleaved A/B at one batch; options: rounds,
// warmup, min_sample_ms, seed (undefined: run_ab's defaults).
val forward_ab_js(val model_a, val model_b, val batch, val options) {
  const std::size_t a = to_size(model_a, "model_a");
  const std::size_t b = to_size(model_b, "model_b");
  const std::size_t n = to_size(batch, "batch");
  check_option_keys(options, {"rounds", "warmup", "min_sample_ms", "seed"});
  AbOptions o;
  if (const val v = option(options, "rounds"); !v.isUndefined()) {
    o.rounds = to_int(v, "options.rounds");
  }
  if (const val v = option(options, "warmup"); !v.isUndefined()) {
    o.warmup = to_int(v, "options.warmup");
  }
  if (const val v = option(options, "min_sample_ms"); !v.isUndefined()) {
    o.min_sample_ms = to_finite_number(v, "options.min_sample_ms");
  }
  if (const val v = option(options, "seed"); !v.isUndefined()) {
    o.seed = o.compare.seed = to_size(v, "options.seed");
  }
  return to_val(session_table().forward_ab(a, b, n, o));
}

// A zoo model's baseline recipe (train.hpp), with the names that have one on error.
val baseline_recipe_js(val name) {
  return to_val(to_json(baseline_recipe(to_string(name, "name"))));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_train) {
  expose<&load_fashion_mnist_js>("loadFashionMnist");
  expose<&dataset_info_js>("datasetInfo");
  expose<&drop_dataset_js>("dropDataset");
  expose<&create_model_js>("createModel");
  expose<&load_model_file_js>("loadModelFile");
  expose<&model_info_js>("modelInfo");
  expose<&drop_model_js>("dropModel");
  expose<&model_file_bytes_js>("modelFileBytes");
  expose<&start_training_js>("startTraining");
  expose<&train_steps_js>("trainSteps");
  expose<&cancel_training_js>("cancelTraining");
  expose<&training_result_js>("trainingResult");
  expose<&evaluate_model_js>("evaluateModel");
  expose<&baseline_recipe_js>("baselineRecipe");
  expose<&weight_distribution_js>("weightDistribution");
  expose<&prune_structured_js>("pruneStructured");
  expose<&start_finetuning_js>("startFinetuning");
  expose<&start_distillation_js>("startDistillation");
  expose<&forward_ab_js>("forwardAB");
}

}  // namespace perflab::wasm
