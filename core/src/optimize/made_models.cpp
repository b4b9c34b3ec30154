// The Optimization chapter's work on held models (made_models.hpp): each model is read as its
// model file runs it (SessionTable::model_file, read back as `perflab suite` reads a file), so
// an int8 model times and quantizes exactly as the CLI's would.
#include "perflab/optimize/made_models.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/timing/interleaved.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab {

namespace {

ModelFile held_file(SessionTable& table, std::size_t id) {
  return read_model_file(table.model_file(id), "held model " + std::to_string(id));
}

}  // namespace

nlohmann::json quantize_held_model(SessionTable& table, std::size_t model_id,
                                   std::size_t train_id, std::size_t test_id, std::size_t images,
                                   Calibration method, std::size_t error_images) {
  if (error_images == 0) {
    throw ValueError("error_images must be at least 1 (the test images each layer's error is "
                     "measured on), got 0");
  }
  ModelFile file = held_file(table, model_id);
  if (file.quantization) {
    throw ValueError("model " + std::to_string(model_id) +
                     " is int8 already; quantize the float model it came from");
  }
  const std::shared_ptr<const LabeledImages> train = table.images(train_id, "train");
  const std::shared_ptr<const LabeledImages> test = table.images(test_id, "test");
  const std::size_t float_bytes = file.model.parameter_bytes();
  const Quantization q = quantize_int8(file.model, *train, file.preprocessing, images, method);

  const bool image_layout = check_classifier(file.model, *test);
  const Tensor x = images_tensor(*test, 0, std::min(error_images, test->count),
                                 file.preprocessing, image_layout);
  nlohmann::json errors = nlohmann::json::array();
  for (const LayerError& e : layer_errors(file.model, q, x)) {
    errors.push_back({{"layer", e.layer},
                      {"type", e.type},
                      {"max_abs", e.max_abs},
                      {"mean_abs", e.mean_abs},
                      {"float_max_abs", e.float_max_abs}});
  }
  const std::size_t int8_bytes = quantized_parameter_bytes(file.model, q);

  TrainingFacts facts = file.training.value_or(TrainingFacts{});
  facts.test_accuracy.reset();  // the float model's; the int8 model is evaluated afresh
  facts.lineage.push_back(quantize_lineage(q));
  ModelFile out{std::move(file.model), file.preprocessing, facts, q};
  const std::size_t id = table.add_model_file(model_file_bytes(out), "the int8 model");

  const nlohmann::json header = to_json(q);
  return {{"model", id},
          {"source", model_id},
          {"calibration", calibration_name(q.method)},
          {"calibration_images", q.calibration_images},
          {"lineage", facts.lineage},
          {"float_parameter_bytes", float_bytes},
          {"parameter_bytes", int8_bytes},
          {"layers", header.at("layers")},
          {"layer_errors", errors}};
}

nlohmann::json time_held_models(SessionTable& table, const std::vector<std::size_t>& model_ids,
                                std::size_t test_id, std::size_t batch,
                                const TimerOptions& options, Clock& clock,
                                const ProgressFn& progress) {
  if (model_ids.empty()) throw ValueError("model_ids must list at least one held model, got none");
  if (model_ids.size() > kMaxTimedModels) {
    throw ValueError("one timing run takes at most " + std::to_string(kMaxTimedModels) +
                     " models, got " + std::to_string(model_ids.size()));
  }
  if (std::set<std::size_t>(model_ids.begin(), model_ids.end()).size() != model_ids.size()) {
    throw ValueError("model_ids lists a model twice; list each held model once");
  }
  const std::shared_ptr<const LabeledImages> test = table.images(test_id, "test");
  if (batch == 0 || batch > test->count) {
    throw ValueError("batch must be from 1 to the test split's " + std::to_string(test->count) +
                     " images, got " + std::to_string(batch));
  }
  options.validate();
  const LabeledImages inputs = take_first(*test, batch);
  std::vector<ModelFile> files;
  files.reserve(model_ids.size());
  for (std::size_t id : model_ids) {
    files.push_back(held_file(table, id));
    check_classifier(files.back().model, inputs);
  }
  std::vector<std::function<void()>> fns;
  for (ModelFile& f : files) {
    fns.push_back([&f, &inputs, batch] { (void)logits_of(f, inputs, batch); });
  }
  const InterleavedStats run = run_interleaved(fns, options, clock, progress);
  nlohmann::json models = nlohmann::json::array();
  for (std::size_t i = 0; i < model_ids.size(); ++i) {
    models.push_back({{"model", model_ids[i]},
                      {"stats", to_json(run.stats[i])},
                      {"per_call_ms", run.stats[i].per_call_ms}});
  }
  return {{"batch", batch}, {"rounds", run.rounds}, {"models", models}};
}

std::vector<bool> pareto_front(const std::vector<ParetoPoint>& points) {
  for (std::size_t i = 0; i < points.size(); ++i) {
    const ParetoPoint& p = points[i];
    if (!std::isfinite(p.cost) || p.cost < 0 || !std::isfinite(p.accuracy)) {
      throw ValueError("points[" + std::to_string(i) + "] must have a finite cost of at least 0 "
                       "and a finite accuracy, got cost " + std::to_string(p.cost) +
                       " and accuracy " + std::to_string(p.accuracy));
    }
  }
  std::vector<bool> on(points.size(), true);
  for (std::size_t i = 0; i < points.size(); ++i) {
    for (std::size_t j = 0; j < points.size() && on[i]; ++j) {
      const ParetoPoint& a = points[j];
      const ParetoPoint& b = points[i];
      const bool as_good = a.cost <= b.cost && a.accuracy >= b.accuracy;
      const bool better = a.cost < b.cost || a.accuracy > b.accuracy;
      if (j != i && as_good && better) on[i] = false;
    }
  }
  return on;
}

}  // namespace perflab
