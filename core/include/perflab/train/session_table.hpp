// Data sets and models held by id between calls, for a caller that keeps state across many
// short calls: the page's lab worker loads a Fashion-MNIST split once (raw IDX bytes, which it
// inflated itself), trains a model a bounded number of steps per call so it can report
// progress and cancel between chunks, evaluates, and reads and writes model files as bytes.
// Everything here only holds objects and forwards to core (dataset.hpp, train.hpp,
// evaluate.hpp, model_file.hpp), so the wasm bindings only convert types.
// Not for: the CLI (it holds its own objects) or anything core computes elsewhere.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/train.hpp"

namespace perflab {

// How many data sets and models a table holds at once: a page holds a few (the test split,
// a training subset, the baseline and the student's models); more is a leak in the caller.
inline constexpr std::size_t kMaxHeldDatasets = 8;
inline constexpr std::size_t kMaxHeldModels = 16;
// The largest batch SessionTable::forward_ab times (fashion_mlp at 256 images: 0.1 GFLOP a call).
inline constexpr std::size_t kMaxForwardAbBatch = 256;

// The training facts a model file records for what a trainer did (what `perflab train` and
// the page write): the recipe, the epochs finished, seed, sample counts, the last epoch's
// accuracies; test_accuracy when given.
TrainingFacts training_facts_of(const TrainResult& result, const std::string& data,
                                std::optional<double> test_accuracy = std::nullopt);

class SessionTable {
 public:
  SessionTable();
  ~SessionTable();
  SessionTable(const SessionTable&) = delete;
  SessionTable& operator=(const SessionTable&) = delete;

  // ---- data sets
  // A Fashion-MNIST split ("train" or "test") from its raw (inflated) IDX bytes
  // (fashion_mnist_from_idx: every check and its sentence); `first` > 0 keeps the first rows
  // only (take_first), 0 keeps all. Returns the data set's id (1, 2, ...; never reused).
  std::size_t add_fashion_mnist(const std::vector<std::uint8_t>& image_bytes,
                                const std::vector<std::uint8_t>& label_bytes,
                                const std::string& split, std::size_t first);
  // A split its caller has read already (the Olympics checker's rebuilds hold the first N
  // images of the training split the grader loaded), held as add_fashion_mnist holds one;
  // split "train" or "test" (ValueError otherwise).
  std::size_t add_images(LabeledImages images, const std::string& split);
  // {"dataset": id, "data": "Fashion-MNIST", "split", "count", "rows", "cols", "classes",
  //  "class_names", "class_counts"}.
  nlohmann::json dataset_info(std::size_t dataset_id) const;
  // ValueError naming the id and the held ones when it is not held (here and below).
  void drop_dataset(std::size_t dataset_id);
  // The images of a held data set of the given split, shared (they stay valid after the set
  // is dropped), for a caller that measures on them outside the table (a suite's accuracy);
  // ValueError when the set holds another split: "data set 2 is the train split; this needs
  // the test split".
  std::shared_ptr<const LabeledImages> images(std::size_t dataset_id,
                                              const std::string& split) const;

  // ---- models
  // A model from a spec (model_from_json), untrained, default preprocessing.
  std::size_t add_model(const nlohmann::json& spec);
  // A model from a model file's bytes (read_model_file's refusals, `what` naming them).
  std::size_t add_model_file(const std::vector<std::uint8_t>& bytes, const std::string& what);
  // An int8 model file keeps its quantization: evaluate runs its int8 forward, model_file
  // writes its codes and scales, training it is refused.
  // {"model": id, "spec" (model_to_json), "parameter_count", "parameter_bytes" (an int8
  //  model's stored bytes), "quantization" (to_json(Quantization), null for a float model),
  //  "preprocessing", "training" (the facts, null for a model never trained), "trainer":
  //  null or {"steps_done", "steps_total", "steps_per_epoch", "finished", "cancelled"}}.
  nlohmann::json model_info(std::size_t model_id) const;
  void drop_model(std::size_t model_id);
  // The model file's bytes (model_file_bytes) with the facts of its training: the trainer's
  // result and the last evaluation on a "test" split after it, or those read from its file.
  std::vector<std::uint8_t> model_file(std::size_t model_id);

  // The weight distribution of the model's current weights (optimize/weights.hpp), its JSON.
  nlohmann::json weight_distribution(std::size_t model_id) const;

  // ---- training
  // Starts training model_id on data set dataset_id: the recipe is the model's baseline
  // (baseline_recipe(spec name)) or core's default TrainRecipe, with recipe_json's fields
  // replacing it (recipe_from_json); recipe.validation_samples rows are held out
  // (split_validation, as train_with_validation_split). The Trainer initialises the weights
  // and checks the plan (its ValueErrors). A model already training starts over. Returns
  // {"model", "steps_total", "steps_per_epoch", "train_samples", "validation_samples",
  //  "recipe"}.
  nlohmann::json start_training(std::size_t model_id, std::size_t dataset_id,
                                const nlohmann::json& recipe_json);
  // Runs up to max_steps (≥ 1) steps: {"model", "steps_done", "steps_total", "epoch" (of the
  // last step), "loss" (the last step's batch loss, null when no step ran), "epochs" (the
  // records finished in this call), "finished"}. Chunks of any sizes give the same weights
  // as one long call. A NaN loss is the trainer's Error, and the training ends there.
  nlohmann::json train_steps(std::size_t model_id, std::size_t max_steps);
  // Stops training: the weights of the last finished epoch come back (Trainer::cancel).
  // Returns training_result.
  nlohmann::json cancel_training(std::size_t model_id);
  // to_json(TrainResult) of the model's training so far.
  nlohmann::json training_result(std::size_t model_id) const;

  // ---- transforms of a held model (the Optimization chapter)
  // Structured pruning (optimize/structured.hpp) of a held model into a new held model: the
  // shrunk copy with the source's preprocessing and training facts (fine-tuning reads their
  // recipe); its file's lineage gains the prune (with the fine-tuning epochs finished since).
  // The source is only read. Returns {"model": new id, "source", "report":
  // to_json(StructuredPruneReport), "info": model_info(new id)}. prune_structured's refusals,
  // and ValueError for an int8 model (prune the float model it came from).
  nlohmann::json prune_structured(std::size_t model_id, double fraction);
  // Starts fine-tuning a held model after structured pruning: finetune_recipe(its facts,
  // epochs, the data set's rows, FinetuneAfter::Shrunk), from its current weights; then
  // train_steps, cancel_training and training_result as for start_training, whose answer
  // this is. ValueError for 0 epochs.
  nlohmann::json start_finetuning(std::size_t model_id, std::size_t dataset_id,
                                  std::size_t epochs);
  // Starts training student_id on distillation_loss from teacher_id's logits (optimize/
  // distill.hpp): the split, seed and recipe of start_training(student_id, dataset_id,
  // recipe_json), so a labels-only twin started with the same arguments differs only in the
  // loss; the teacher's logits of the training rows are computed once here as its file runs
  // (an int8 teacher through its int8 forward), so the teacher may be dropped afterwards.
  // ValueError when the two ids are one model, and the Trainer's distill_from refusals
  // (temperature, alpha, a teacher without one logit per class).
  // start_training's answer with "temperature", "alpha" and "teacher" (the teacher's name).
  nlohmann::json start_distillation(std::size_t student_id, std::size_t teacher_id,
                                    std::size_t dataset_id, const nlohmann::json& recipe_json,
                                    double temperature, double alpha);
  // The forward passes of two held models that take the same input, at `batch` images
  // (1..kMaxForwardAbBatch), timed by run_ab (stats/ab.hpp: interleaved rounds, core's
  // comparison) on one seeded random input, each as its file runs (an int8 model through its
  // int8 forward). {"batch", "model_a", "model_b", "name_a",
  // "name_b", "flops_per_sample_a", "flops_per_sample_b", ...to_json(AbResult),
  // "inner_iterations_a", "inner_iterations_b", "resolution_ms"}. ValueError
  // when the inputs differ or batch is out of range; run_ab's refusals.
  nlohmann::json forward_ab(std::size_t model_a, std::size_t model_b, std::size_t batch,
                            const AbOptions& options);

  // ---- evaluation
  // evaluate() of the model's current weights with its preprocessing on the data set,
  // listing up to max_misclassified wrong images; its JSON (evaluate.hpp).
  nlohmann::json evaluate(std::size_t model_id, std::size_t dataset_id,
                          std::size_t max_misclassified);

 private:
  struct Dataset;
  struct Held;
  const Dataset& dataset(std::size_t id) const;
  Held& held(std::size_t id) const;
  // start_training's body once the recipe is known: splits, makes the Trainer, runs
  // setup(held) (distillation) before any step; any throw leaves the model untrained.
  nlohmann::json begin_training(std::size_t model_id, std::size_t dataset_id,
                                const TrainRecipe& recipe,
                                const std::function<void(Held&)>& setup = {});
  std::map<std::size_t, std::shared_ptr<const Dataset>> datasets_;
  std::map<std::size_t, std::unique_ptr<Held>> models_;
  std::size_t next_dataset_ = 1, next_model_ = 1;
};

// The process's one table (the wasm module's state between the page's calls).
SessionTable& session_table();

}  // namespace perflab
