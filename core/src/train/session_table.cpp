// Data sets and models held by id between calls (session_table.hpp): holding and forwarding
// only; the arithmetic is the trainer's, the evaluation's and the model file's.
#include "perflab/train/session_table.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/optimize/weights.hpp"

namespace perflab {

namespace {

std::optional<double> accuracy_or_none(double a) {
  return std::isfinite(a) ? std::optional<double>(a) : std::nullopt;
}

template <class Map>
std::string held_ids(const Map& m, const char* what) {
  if (m.empty()) return std::string("no ") + what + " is held";
  std::string s = std::string("the ") + what + "s held are ";
  bool first = true;
  for (const auto& [id, _] : m) {
    if (!first) s += ", ";
    s += std::to_string(id);
    first = false;
  }
  return s;
}

}  // namespace

TrainingFacts training_facts_of(const TrainResult& result, const std::string& data,
                                std::optional<double> test_accuracy) {
  TrainingFacts facts;
  facts.recipe = to_json(result.recipe);
  facts.epochs = result.epochs.size();
  facts.seed = result.recipe.seed;
  facts.data = data;
  facts.train_samples = result.train_samples;
  facts.validation_samples = result.validation_samples;
  if (!result.epochs.empty()) {
    facts.train_accuracy = accuracy_or_none(result.epochs.back().train_accuracy);
    facts.validation_accuracy = accuracy_or_none(result.epochs.back().validation_accuracy);
  }
  facts.test_accuracy = test_accuracy;
  return facts;
}

struct SessionTable::Dataset {
  std::string split;
  LabeledImages images;
};

struct SessionTable::Held {
  Model model;
  Preprocessing preprocessing;
  std::optional<TrainingFacts> facts;  // from its file, or of its last training
  // Training: the split the trainer reads (it must outlive the trainer), the trainer, and
  // the Error that ended it, repeated by later calls.
  std::shared_ptr<const Dataset> source;
  LabeledImages train, validation;
  std::unique_ptr<Trainer> trainer;
  std::string failed;
  std::optional<double> test_accuracy;  // the last evaluation on a "test" split since then

  explicit Held(Model m) : model(std::move(m)) {}
};

SessionTable::SessionTable() = default;
SessionTable::~SessionTable() = default;

const SessionTable::Dataset& SessionTable::dataset(std::size_t id) const {
  const auto it = datasets_.find(id);
  if (it == datasets_.end()) {
    throw ValueError("no data set has id " + std::to_string(id) + ": " +
                     held_ids(datasets_, "data set") + "; load one first");
  }
  return *it->second;
}

SessionTable::Held& SessionTable::held(std::size_t id) const {
  const auto it = models_.find(id);
  if (it == models_.end()) {
    throw ValueError("no model has id " + std::to_string(id) + ": " + held_ids(models_, "model") +
                     "; create or load one first");
  }
  return *it->second;
}

std::size_t SessionTable::add_fashion_mnist(const std::vector<std::uint8_t>& image_bytes,
                                            const std::vector<std::uint8_t>& label_bytes,
                                            const std::string& split, std::size_t first) {
  if (datasets_.size() >= kMaxHeldDatasets) {
    throw ValueError("the lab already holds " + std::to_string(datasets_.size()) +
                     " data sets, the most it keeps; drop one first");
  }
  LabeledImages images = fashion_mnist_from_idx(image_bytes, label_bytes, split);
  if (first > 0) images = take_first(images, first);
  auto d = std::make_shared<Dataset>(Dataset{split, std::move(images)});
  const std::size_t id = next_dataset_++;
  datasets_.emplace(id, std::move(d));
  return id;
}

nlohmann::json SessionTable::dataset_info(std::size_t dataset_id) const {
  const Dataset& d = dataset(dataset_id);
  const LabeledImages& i = d.images;
  return {{"dataset", dataset_id},
          {"data", "Fashion-MNIST"},
          {"split", d.split},
          {"count", i.count},
          {"rows", i.rows},
          {"cols", i.cols},
          {"classes", i.classes},
          {"class_names", i.class_names},
          {"class_counts", class_counts(i)},
          // What training on this set keeps aside for validation unless told otherwise.
          {"default_validation_samples", default_validation_samples(i.count)}};
}

std::shared_ptr<const LabeledImages> SessionTable::images(std::size_t dataset_id,
                                                          const std::string& split) const {
  dataset(dataset_id);
  const std::shared_ptr<const Dataset>& d = datasets_.at(dataset_id);
  if (d->split != split) {
    throw ValueError("data set " + std::to_string(dataset_id) + " is the " + d->split +
                     " split; this needs the " + split + " split");
  }
  // Shares ownership of the whole set, points at its images.
  return std::shared_ptr<const LabeledImages>(d, &d->images);
}

nlohmann::json SessionTable::weight_distribution(std::size_t model_id) const {
  return to_json(perflab::weight_distribution(held(model_id).model));
}

void SessionTable::drop_dataset(std::size_t dataset_id) {
  dataset(dataset_id);
  datasets_.erase(dataset_id);  // a model training on it keeps its own copy (source)
}

std::size_t SessionTable::add_model(const nlohmann::json& spec) {
  if (models_.size() >= kMaxHeldModels) {
    throw ValueError("the lab already holds " + std::to_string(models_.size()) +
                     " models, the most it keeps; drop one first");
  }
  auto h = std::make_unique<Held>(model_from_json(spec));
  const std::size_t id = next_model_++;
  models_.emplace(id, std::move(h));
  return id;
}

std::size_t SessionTable::add_model_file(const std::vector<std::uint8_t>& bytes,
                                         const std::string& what) {
  if (models_.size() >= kMaxHeldModels) {
    throw ValueError("the lab already holds " + std::to_string(models_.size()) +
                     " models, the most it keeps; drop one first");
  }
  ModelFile file = read_model_file(bytes, what);
  auto h = std::make_unique<Held>(std::move(file.model));
  h->preprocessing = file.preprocessing;
  h->facts = std::move(file.training);
  const std::size_t id = next_model_++;
  models_.emplace(id, std::move(h));
  return id;
}

nlohmann::json SessionTable::model_info(std::size_t model_id) const {
  const Held& h = held(model_id);
  nlohmann::json trainer = nullptr;
  if (h.trainer) {
    trainer = {{"steps_done", h.trainer->steps_done()},
               {"steps_total", h.trainer->steps_total()},
               {"steps_per_epoch", h.trainer->steps_per_epoch()},
               {"finished", h.trainer->finished()},
               {"cancelled", h.trainer->result().cancelled}};
  }
  return {{"model", model_id},
          {"spec", model_to_json(h.model)},
          {"parameter_count", h.model.parameter_count()},
          {"parameter_bytes", h.model.parameter_bytes()},
          {"preprocessing", to_json(h.preprocessing)},
          {"training", h.facts ? to_json(*h.facts) : nlohmann::json(nullptr)},
          {"trainer", trainer}};
}

void SessionTable::drop_model(std::size_t model_id) {
  held(model_id);
  models_.erase(model_id);
}

std::vector<std::uint8_t> SessionTable::model_file(std::size_t model_id) {
  Held& h = held(model_id);
  std::optional<TrainingFacts> facts = h.facts;
  if (h.trainer) facts = training_facts_of(h.trainer->result(), "Fashion-MNIST", h.test_accuracy);
  return model_file_bytes(h.model, h.preprocessing, facts);
}

nlohmann::json SessionTable::start_training(std::size_t model_id, std::size_t dataset_id,
                                            const nlohmann::json& recipe_json) {
  Held& h = held(model_id);
  const std::shared_ptr<const Dataset> source =
      datasets_.count(dataset_id) ? datasets_.at(dataset_id) : nullptr;
  if (!source) dataset(dataset_id);  // its sentence
  const auto names = baseline_recipe_names();
  const std::string name = h.model.name();
  const TrainRecipe base = std::find(names.begin(), names.end(), name) != names.end()
                               ? baseline_recipe(name)
                               : TrainRecipe{};
  const TrainRecipe recipe = recipe_from_json(recipe_json, base);
  if (recipe.validation_samples >= source->images.count) {
    throw ValueError("recipe validation_samples " + std::to_string(recipe.validation_samples) +
                     " leaves no training image of the data set's " +
                     std::to_string(source->images.count) + "; hold out fewer");
  }
  auto [train, validation] =
      split_validation(source->images, recipe.validation_samples, recipe.seed);
  // The old trainer reads the old split: it goes first.
  h.trainer.reset();
  h.failed.clear();
  h.test_accuracy.reset();
  h.source = source;
  h.train = std::move(train);
  h.validation = std::move(validation);
  try {
    h.trainer = std::make_unique<Trainer>(h.model, h.train, h.validation, recipe);
  } catch (...) {
    h.train = {};
    h.validation = {};
    h.source.reset();
    throw;
  }
  h.preprocessing = recipe.preprocessing;
  h.facts.reset();
  const TrainResult& r = h.trainer->result();
  return {{"model", model_id},
          {"steps_total", h.trainer->steps_total()},
          {"steps_per_epoch", h.trainer->steps_per_epoch()},
          {"train_samples", r.train_samples},
          {"validation_samples", r.validation_samples},
          {"recipe", to_json(r.recipe)}};
}

nlohmann::json SessionTable::train_steps(std::size_t model_id, std::size_t max_steps) {
  Held& h = held(model_id);
  if (!h.trainer) {
    throw ValueError("model " + std::to_string(model_id) +
                     " is not training: start its training first");
  }
  if (!h.failed.empty()) throw Error(h.failed);
  if (max_steps == 0) throw ValueError("steps must be at least 1, got 0");
  TrainProgress last;
  bool ran = false;
  TrainCallbacks callbacks;
  callbacks.on_progress = [&](const TrainProgress& p) {
    last = p;
    ran = true;
  };
  std::vector<EpochRecord> epochs;
  try {
    epochs = h.trainer->run(max_steps, callbacks);
  } catch (const std::exception& e) {
    h.failed = e.what();
    throw;
  }
  nlohmann::json records = nlohmann::json::array();
  for (const EpochRecord& e : epochs) records.push_back(to_json(e));
  return {{"model", model_id},
          {"steps_done", h.trainer->steps_done()},
          {"steps_total", h.trainer->steps_total()},
          {"epoch", ran ? nlohmann::json(last.epoch) : nlohmann::json(nullptr)},
          {"loss", ran ? nlohmann::json(last.loss) : nlohmann::json(nullptr)},
          {"epochs", records},
          {"finished", h.trainer->finished()}};
}

nlohmann::json SessionTable::cancel_training(std::size_t model_id) {
  Held& h = held(model_id);
  if (!h.trainer) {
    throw ValueError("model " + std::to_string(model_id) + " is not training: nothing to cancel");
  }
  h.trainer->cancel();
  return training_result(model_id);
}

nlohmann::json SessionTable::training_result(std::size_t model_id) const {
  const Held& h = held(model_id);
  if (!h.trainer) {
    throw ValueError("model " + std::to_string(model_id) +
                     " has not been trained here: start its training first");
  }
  return to_json(h.trainer->result());
}

nlohmann::json SessionTable::evaluate(std::size_t model_id, std::size_t dataset_id,
                                      std::size_t max_misclassified) {
  Held& h = held(model_id);
  const Dataset& d = dataset(dataset_id);
  EvaluateOptions options;
  options.max_misclassified = max_misclassified;
  const Evaluation e = perflab::evaluate(h.model, d.images, h.preprocessing, options);
  if (d.split == "test") h.test_accuracy = e.accuracy;
  return to_json(e);
}

SessionTable& session_table() {
  static SessionTable table;
  return table;
}

}  // namespace perflab
