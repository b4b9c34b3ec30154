// Data sets and models held by id between calls (session_table.hpp): holding and forwarding
// only; the arithmetic is the trainer's, the evaluation's and the model file's.
#include "perflab/train/session_table.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/optimize/finetune.hpp"
#include "perflab/optimize/structured.hpp"
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

// The recipe a held model trains with unless told otherwise: its zoo name's baseline recipe,
// else core's default.
TrainRecipe base_recipe_of(const Model& model) {
  const auto names = baseline_recipe_names();
  return std::find(names.begin(), names.end(), model.name()) != names.end()
             ? baseline_recipe(model.name())
             : TrainRecipe{};
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
  // Its Linears run as int8 (an int8 model file's): evaluation runs the int8 forward, the
  // model file keeps the codes and scales, training is refused.
  std::optional<Quantization> quantization;
  // Transforms (prune_structured, start_distillation): the lineage the model's file carries
  // before its own transforms (null: the facts' own), its structured prune, and its
  // distillation's entry; the teacher's logits of the training rows (the trainer reads them).
  nlohmann::json lineage = nullptr;
  std::optional<StructuredPruneReport> structured;
  nlohmann::json distilled = nullptr;
  Tensor teacher_logits;

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
  return add_images(std::move(images), split);
}

std::size_t SessionTable::add_images(LabeledImages images, const std::string& split) {
  if (datasets_.size() >= kMaxHeldDatasets) {
    throw ValueError("the lab already holds " + std::to_string(datasets_.size()) +
                     " data sets, the most it keeps; drop one first");
  }
  if (split != "train" && split != "test") {
    throw ValueError("split must be \"train\" or \"test\", got \"" + split + "\"");
  }
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
  h->quantization = std::move(file.quantization);
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
          {"parameter_bytes", h.quantization
                                  ? quantized_parameter_bytes(const_cast<Model&>(h.model),
                                                              *h.quantization)
                                  : h.model.parameter_bytes()},
          {"quantization", h.quantization ? to_json(*h.quantization) : nlohmann::json(nullptr)},
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
  if (facts && !h.lineage.is_null()) {
    // A transform's result: the source's lineage, then this model's transforms.
    const std::size_t epochs = h.trainer ? h.trainer->result().epochs.size() : 0;
    facts->lineage = h.lineage;
    if (h.structured) facts->lineage.push_back(structured_prune_lineage(*h.structured, epochs));
    if (!h.distilled.is_null()) {
      nlohmann::json entry = h.distilled;
      entry["epochs"] = epochs;
      facts->lineage.push_back(entry);
    }
  }
  return model_file_bytes(h.model, h.preprocessing, facts,
                          h.quantization ? &*h.quantization : nullptr);
}

nlohmann::json SessionTable::start_training(std::size_t model_id, std::size_t dataset_id,
                                            const nlohmann::json& recipe_json) {
  const TrainRecipe base = base_recipe_of(held(model_id).model);
  dataset(dataset_id);  // its sentence before the recipe's
  return begin_training(model_id, dataset_id, recipe_from_json(recipe_json, base));
}

nlohmann::json SessionTable::begin_training(std::size_t model_id, std::size_t dataset_id,
                                            const TrainRecipe& recipe,
                                            const std::function<void(Held&)>& setup) {
  Held& h = held(model_id);
  if (h.quantization) {
    throw ValueError("model " + std::to_string(model_id) +
                     " is int8; train the float model it came from, then quantize again");
  }
  const std::shared_ptr<const Dataset> source =
      datasets_.count(dataset_id) ? datasets_.at(dataset_id) : nullptr;
  if (!source) dataset(dataset_id);  // its sentence
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
  h.teacher_logits = Tensor();
  h.distilled = nullptr;
  try {
    h.trainer = std::make_unique<Trainer>(h.model, h.train, h.validation, recipe);
    if (setup) setup(h);
  } catch (...) {
    h.trainer.reset();
    h.teacher_logits = Tensor();
    h.distilled = nullptr;
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

nlohmann::json SessionTable::prune_structured(std::size_t model_id, double fraction) {
  Held& source = held(model_id);
  if (source.quantization) {
    throw ValueError("model " + std::to_string(model_id) +
                     " is int8; prune the float model it came from, then quantize again");
  }
  if (models_.size() >= kMaxHeldModels) {
    throw ValueError("the lab already holds " + std::to_string(models_.size()) +
                     " models, the most it keeps; drop one first");
  }
  StructuredPrune pruned = perflab::prune_structured(source.model, fraction);
  auto h = std::make_unique<Held>(std::move(pruned.model));
  h->preprocessing = source.preprocessing;
  std::optional<TrainingFacts> facts = source.facts;
  if (source.trainer) {
    facts = training_facts_of(source.trainer->result(), "Fashion-MNIST", source.test_accuracy);
  }
  h->lineage = facts ? facts->lineage : nlohmann::json::array();
  if (source.structured) {
    h->lineage.push_back(structured_prune_lineage(
        *source.structured, source.trainer ? source.trainer->result().epochs.size() : 0));
  }
  if (facts) facts->test_accuracy.reset();  // the source's, not this model's
  h->facts = std::move(facts);
  h->structured = pruned.report;
  const std::size_t id = next_model_++;
  models_.emplace(id, std::move(h));
  return {{"model", id},
          {"source", model_id},
          {"report", to_json(pruned.report)},
          {"info", model_info(id)}};
}

nlohmann::json SessionTable::start_finetuning(std::size_t model_id, std::size_t dataset_id,
                                              std::size_t epochs) {
  Held& h = held(model_id);
  const Dataset& d = dataset(dataset_id);
  // finetune_recipe reads only the file's facts and preprocessing: the model goes into a
  // ModelFile for the call and comes straight back.
  ModelFile file{std::move(h.model), h.preprocessing, h.facts};
  TrainRecipe recipe;
  try {
    recipe = finetune_recipe(file, epochs, d.images.count, FinetuneAfter::Shrunk);
  } catch (...) {
    h.model = std::move(file.model);
    throw;
  }
  h.model = std::move(file.model);
  return begin_training(model_id, dataset_id, recipe);
}

nlohmann::json SessionTable::start_distillation(std::size_t student_id, std::size_t teacher_id,
                                                std::size_t dataset_id,
                                                const nlohmann::json& recipe_json,
                                                double temperature, double alpha) {
  Held& student = held(student_id);
  Held& teacher = held(teacher_id);
  if (student_id == teacher_id) {
    throw ValueError("distillation needs two models: student and teacher are both model " +
                     std::to_string(student_id));
  }
  const TrainRecipe recipe = recipe_from_json(recipe_json, base_recipe_of(student.model));
  std::optional<TrainingFacts> teacher_facts = teacher.facts;
  if (teacher.trainer) {
    teacher_facts = training_facts_of(teacher.trainer->result(), "Fashion-MNIST");
  }
  if (teacher_facts && teacher.test_accuracy) teacher_facts->test_accuracy = teacher.test_accuracy;
  nlohmann::json answer = begin_training(student_id, dataset_id, recipe, [&](Held& h) {
    // An int8 teacher teaches as its file runs: its int8 forward (logits_of).
    ModelFile file{std::move(teacher.model), teacher.preprocessing, teacher_facts,
                   teacher.quantization};
    try {
      h.teacher_logits = logits_of(file, h.train);
      h.distilled = distill_lineage(file, temperature, alpha, 0);
    } catch (...) {
      teacher.model = std::move(file.model);
      throw;
    }
    teacher.model = std::move(file.model);
    h.trainer->distill_from(h.teacher_logits, temperature, alpha);
  });
  student.lineage = nlohmann::json::array();
  answer["temperature"] = temperature;
  answer["alpha"] = alpha;
  answer["teacher"] = teacher.model.name();
  return answer;
}

nlohmann::json SessionTable::forward_ab(std::size_t model_a, std::size_t model_b,
                                        std::size_t batch, const AbOptions& options) {
  Held& a = held(model_a);
  Held& b = held(model_b);
  if (batch < 1 || batch > kMaxForwardAbBatch) {
    throw ValueError("batch must be 1 to " + std::to_string(kMaxForwardAbBatch) + ", got " +
                     std::to_string(batch));
  }
  Shape shape = a.model.input_shape();
  Shape other = b.model.input_shape();
  shape[0] = other[0] = batch;
  if (shape != other) {
    throw ValueError("model " + std::to_string(model_a) + " takes " + shape_to_string(shape) +
                     " and model " + std::to_string(model_b) + " takes " +
                     shape_to_string(other) + ": the two forwards need the same input");
  }
  options.validate();
  const Tensor x = Tensor::random(shape, 7);
  InferenceScope scope_a(a.model), scope_b(b.model);
  // An int8 model runs as its file does: the int8 forward of its Linears.
  const auto forward = [&x](Held& h) -> std::function<void()> {
    if (h.quantization) return [&h, &x] { quantized_forward(h.model, *h.quantization, x); };
    return [&h, &x] { h.model.forward(x); };
  };
  const AbResult r = run_ab(forward(a), forward(b), options);
  nlohmann::json out = {{"batch", batch},
                        {"model_a", model_a},
                        {"model_b", model_b},
                        {"name_a", a.model.name()},
                        {"name_b", b.model.name()},
                        {"flops_per_sample_a", a.model.flops_per_sample().total()},
                        {"flops_per_sample_b", b.model.flops_per_sample().total()}};
  out.update(to_json(r));
  // What the run timed with, beside its samples (to_json leaves them to the caller): an
  // Olympics entry's timing carries them for the evidence checks of its clock grid.
  out["inner_iterations_a"] = r.inner_iterations_a;
  out["inner_iterations_b"] = r.inner_iterations_b;
  out["resolution_ms"] = r.resolution_ms;
  return out;
}

nlohmann::json SessionTable::evaluate(std::size_t model_id, std::size_t dataset_id,
                                      std::size_t max_misclassified) {
  Held& h = held(model_id);
  const Dataset& d = dataset(dataset_id);
  EvaluateOptions options;
  options.max_misclassified = max_misclassified;
  // An int8 model as its file runs it: the int8 forward, and its stored parameter bytes.
  const Evaluation e = perflab::evaluate(h.model, h.quantization ? &*h.quantization : nullptr,
                                         d.images, h.preprocessing, options);
  if (d.split == "test") h.test_accuracy = e.accuracy;
  return to_json(e);
}

SessionTable& session_table() {
  static SessionTable table;
  return table;
}

}  // namespace perflab
