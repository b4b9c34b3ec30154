// Training a classifier in core: mini-batches from a seeded shuffle, the model's forward,
// the fused softmax cross-entropy, the training backward (Model::backward_parameters), one
// optimizer step at the schedule's learning rate; per epoch a record (train and validation
// loss and accuracy, samples/s, the time split forward / loss / backward / optimizer measured
// with core's Clock). Deterministic: the same spec, recipe, data and build give bit-identical
// weights. A plan whose FLOPs cannot fit the recipe's time budget is refused before it
// starts; a NaN or infinite loss stops training with a sentence naming the step and the fix.
// Trainer runs a bounded number of steps per call, so a caller that must stay responsive
// (the page's worker) trains in chunks; train() runs it to the end.
// Not for: evaluation reports (train/evaluate.hpp), data loading (data/dataset.hpp), or
// regularisers beyond weight decay (no dropout, no augmentation).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/optimizer.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// The recipe: everything that decides what training computes.

// Learning-rate schedules, by name, over the run's steps t = 0 .. T−1 (T = epochs × steps
// per epoch):
//   "constant"  lr
//   "cosine"    lr · (f + (1 − f) · ½(1 + cos(π·t/T))), f = min_lr_fraction: from lr down to
//               f·lr at the end (Loshchilov and Hutter's SGDR without restarts)
//   "step"      lr · step_gamma^⌊epoch / step_epochs⌋: divided by 1/step_gamma every
//               step_epochs epochs
const std::vector<std::string>& schedule_names();
// Initialisations by name: "he", "xavier", "uniform" (layers.hpp's Init), and "keep": train
// from the model's current weights (fine-tuning).
const std::vector<std::string>& init_names();

// The rows a training set keeps aside for validation when the caller does not say: the
// recipe's default, kDefaultValidationSamples, but at most a tenth of the rows (5,000 of the
// 60,000 training images; 1,200 of the page's 12,000-image subset, so that 10,800 train).
// `perflab train --train-samples N` and the page's default (dataset_info) both use it.
inline constexpr std::size_t kDefaultValidationSamples = 5000;
std::size_t default_validation_samples(std::size_t rows);

// The bounds a recipe is checked against (TrainRecipe::validate).
inline constexpr std::size_t kMaxTrainEpochs = 1000;
inline constexpr std::size_t kMaxTrainBatch = 4096;
inline constexpr double kMaxLearningRate = 10.0;
// Validation runs evaluate() (train/evaluate.hpp) in kEvaluationBatch rows.

struct TrainRecipe {
  OptimizerConfig optimizer;          // name "adam" by default; momentum, betas, decay
  double learning_rate = 1e-3;        // the schedule's peak, (0, kMaxLearningRate]
  std::string schedule = "cosine";
  double min_lr_fraction = 0.0;       // cosine: the last step's fraction of lr, [0, 1]
  std::size_t step_epochs = 5;        // step: epochs between decays, >= 1
  double step_gamma = 0.1;            // step: the factor, (0, 1]
  std::size_t batch = 64;             // samples per step, 1 .. kMaxTrainBatch
  std::size_t epochs = 1;             // 1 .. kMaxTrainEpochs
  std::string init = "he";
  std::uint64_t seed = 1;             // initialisation, shuffling and the validation split
  // Rows of the training set kept aside for validation by the callers that split
  // (train_with_validation_split, `perflab train`, the page): split_validation(seed).
  std::size_t validation_samples = kDefaultValidationSamples;
  Preprocessing preprocessing;        // applied to every batch; stored with the model
  // The time budget a plan must fit (at kFastestGflopsPerS, the fastest any core computes):
  // epochs × (training samples × training FLOPs per sample + validation samples × forward
  // FLOPs per sample). Default one hour.
  double max_total_ms = 3'600'000;
  // ValueError naming the field, the value and the allowed range.
  void validate() const;
  // The schedule's learning rate at step t of total steps (t < total), with steps_per_epoch
  // to find the epoch for "step".
  double learning_rate_at(std::size_t t, std::size_t total, std::size_t steps_per_epoch) const;
};

// Every field, with the optimizer's nested: {"optimizer": {"name", "momentum", "beta1",
// "beta2", "eps", "weight_decay"}, "learning_rate", "schedule", ..., "preprocessing":
// {"scale", "mean", "std"}, "max_total_ms"}.
nlohmann::json to_json(const TrainRecipe& recipe);
// A recipe from JSON: the fields given replace base's, the others stay (so {"epochs": 2}
// is the baseline with two epochs); unknown fields and wrong types are ValueErrors naming
// the field; the result is validated.
TrainRecipe recipe_from_json(const nlohmann::json& j, const TrainRecipe& base = {});

// The baseline recipe of a zoo model trained on Fashion-MNIST: the one place `perflab train`,
// the page and the floors' bench take their defaults from. ValueError for a zoo name without
// one, listing those with one.
const TrainRecipe& baseline_recipe(std::string_view zoo_name);
// The zoo names that have a baseline recipe: fashion_mlp, fashion_cnn.
std::vector<std::string> baseline_recipe_names();
// Fashion-MNIST's training pixels scaled to [0, 1] have mean 0.2860 and standard deviation
// 0.3530 (over all 60,000 × 784 pixels; a test recomputes them from the files): the
// baseline recipes standardise with them.
Preprocessing fashion_mnist_standardization();

// ---------------------------------------------------------------------------------------
// What training reports.

struct EpochRecord {
  std::size_t epoch = 0;          // 1-based
  std::size_t steps = 0;          // optimizer steps in this epoch
  std::size_t samples = 0;        // training samples seen
  double learning_rate = 0;       // at the epoch's last step
  // Mean over the epoch's batches as the weights changed (the usual running figures).
  double train_loss = 0, train_accuracy = 0;
  // On the validation rows after the epoch; NaN (null in JSON) without a validation set.
  double validation_loss = 0, validation_accuracy = 0;
  // Time of each part of the epoch's steps, summed, by core's Clock: data (building the
  // batches), forward, loss (softmax cross-entropy and its gradient), backward, optimizer;
  // then the validation passes and the whole epoch.
  double data_ms = 0, forward_ms = 0, loss_ms = 0, backward_ms = 0, optimizer_ms = 0;
  double validation_ms = 0, epoch_ms = 0;
  // Training samples per second over the steps' time (the epoch less validation).
  double samples_per_s = 0;
};

struct TrainResult {
  std::vector<EpochRecord> epochs;  // the epochs finished; the model holds their weights
  bool cancelled = false;           // stopped by the cancel check before the last epoch
  std::size_t steps_done = 0, steps_total = 0;
  std::size_t train_samples = 0, validation_samples = 0;
  std::size_t parameter_count = 0;
  // The optimizer's state buffers, measured (Optimizer::state_bytes).
  std::size_t optimizer_state_bytes = 0;
  double flops_per_sample = 0;  // forward + training backward + loss, per training sample
  double plan_flops = 0;        // what the budget check counted
  TrainRecipe recipe;
};
nlohmann::json to_json(const EpochRecord& record);
nlohmann::json to_json(const TrainResult& result);

struct TrainProgress {
  std::size_t steps_done = 0, steps_total = 0;
  std::size_t epoch = 0;  // 1-based, the epoch the step belongs to
  double loss = 0;        // the step's batch loss
};

struct TrainCallbacks {
  // After every step.
  std::function<void(const TrainProgress&)> on_progress;
  // After every finished epoch (validation included).
  std::function<void(const EpochRecord&)> on_epoch;
  // Asked after every step; true stops training: the model goes back to the weights of the
  // last finished epoch (the initial ones before the first), and the result keeps the
  // epochs finished, with cancelled set.
  std::function<bool()> should_cancel;
};

// Optimizer steps in one epoch of train_samples at this batch: every sample once, the last
// step on the rows left over when batch does not divide the count (none is dropped), so
// ceil(train_samples / batch). What Trainer runs, and what the exercises ask. Inline: the
// grader uses it, and the page's main module links no trainer. ValueError for batch 0.
inline std::size_t steps_per_epoch(std::size_t train_samples, std::size_t batch) {
  if (batch == 0) throw ValueError("steps per epoch: batch must be at least 1, got 0");
  return (train_samples + batch - 1) / batch;
}

// FLOPs of the plan (what TrainRecipe::max_total_ms is checked against): epochs × (train
// samples × training FLOPs per sample + validation samples × forward FLOPs per sample).
double training_plan_flops(const Model& model, std::size_t train_samples,
                           std::size_t validation_samples, const TrainRecipe& recipe);

// Training one model on one data set, a bounded number of steps at a time. The model and
// the data sets must outlive the Trainer.
class Trainer {
 public:
  // Validates the recipe, that the model takes the data's images (input [batch, rows·cols]
  // or [batch, 1, rows, cols]) and gives one logit per class, that the data sets match, and
  // the plan's FLOPs against the budget (ValueError, each a sentence naming what to change),
  // then initialises the weights (recipe.init) and the optimizer's state.
  Trainer(Model& model, const LabeledImages& train, const LabeledImages& validation,
          const TrainRecipe& recipe, Clock& clock = default_clock());
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // Runs up to max_steps steps (stopping at the end of training); returns the epochs
  // finished during the call. A NaN or infinite loss throws Error ("training stopped at
  // step 37 of 1720 (epoch 1): the loss became NaN; ...") after putting back the weights of
  // the last finished epoch.
  std::vector<EpochRecord> run(std::size_t max_steps, const TrainCallbacks& callbacks = {});
  // Trains on loss.hpp's distillation_loss instead of the labels alone: teacher_logits
  // (train.count, classes) holds the teacher's logits of every training row, in the training
  // set's order, and must outlive the Trainer. Before the first step only (Error after);
  // ShapeError for another shape, ValueError for temperature or alpha out of range.
  void distill_from(const Tensor& teacher_logits, double temperature, double alpha);
  // Stops where it is: the weights of the last finished epoch come back, result().cancelled.
  void cancel();
  bool finished() const;
  std::size_t steps_done() const { return step_; }
  std::size_t steps_total() const { return steps_total_; }
  std::size_t steps_per_epoch() const { return steps_per_epoch_; }
  const TrainResult& result() const { return result_; }

 private:
  struct State;
  std::unique_ptr<State> s_;
  TrainResult result_;
  std::size_t step_ = 0, steps_total_ = 0, steps_per_epoch_ = 0;
};

// Trainer run to the end (or the cancel check).
TrainResult train(Model& model, const LabeledImages& train, const LabeledImages& validation,
                  const TrainRecipe& recipe, const TrainCallbacks& callbacks = {});
// recipe.validate(), then split_validation(all, recipe.validation_samples, recipe.seed):
// (train, validation). ValueError when the validation rows would leave no training image.
std::pair<LabeledImages, LabeledImages> recipe_split(const LabeledImages& all,
                                                     const TrainRecipe& recipe);
// recipe_split, then train().
TrainResult train_with_validation_split(Model& model, const LabeledImages& all,
                                        const TrainRecipe& recipe,
                                        const TrainCallbacks& callbacks = {});

}  // namespace perflab
