// The trainer: checks and the budget before anything runs, then steps (batch, forward, loss,
// backward, optimizer, each timed with the Clock), an epoch's validation and record, the
// weights of the last finished epoch kept for a cancel or a diverging loss.
// Single-threaded and in a fixed order, so the same inputs give bit-identical weights.
// Not for: evaluation reports (evaluate.cpp) or the recipe's table (recipe.cpp).
#include "perflab/train/train.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <span>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/random.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/loss.hpp"

namespace perflab {

namespace {

std::string g3(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

Init init_of(const std::string& name) {
  if (name == "xavier") return Init::Xavier;
  if (name == "uniform") return Init::Uniform;
  return Init::He;
}

void check_data(const LabeledImages& d, const char* what) {
  if (d.pixels.size() != d.count * d.rows * d.cols || d.labels.size() != d.count) {
    throw ValueError(std::string(what) + " holds " + std::to_string(d.pixels.size()) +
                     " pixels and " + std::to_string(d.labels.size()) + " labels for " +
                     std::to_string(d.count) + " images of " + std::to_string(d.rows) + "×" +
                     std::to_string(d.cols) + "; they must agree");
  }
}

std::uint64_t epoch_seed(std::uint64_t seed, std::size_t epoch) {
  Rng rng(seed ^ (0xD1B54A32D192ED03ull * (static_cast<std::uint64_t>(epoch) + 1)));
  return rng.next_u64();
}

double per_sample_loss_flops(std::size_t classes, bool backward) {
  const double c = static_cast<double>(classes);
  return c * (kCrossEntropyForwardPerLogit + (backward ? kCrossEntropyBackwardPerLogit : 0.0));
}

}  // namespace

double training_plan_flops(const Model& model, std::size_t train_samples,
                           std::size_t validation_samples, const TrainRecipe& recipe) {
  const std::size_t classes = model.output_shape().back();
  const double train_per_sample = model.flops_per_sample().total() +
                                  model.backward_flops_per_sample().total() +
                                  per_sample_loss_flops(classes, true);
  const double validation_per_sample =
      model.flops_per_sample().total() + per_sample_loss_flops(classes, false);
  return static_cast<double>(recipe.epochs) *
         (static_cast<double>(train_samples) * train_per_sample +
          static_cast<double>(validation_samples) * validation_per_sample);
}

namespace {
// The teacher's logits of the batch's rows, in the batch's order.
Tensor teacher_rows(const Tensor& teacher, const std::vector<std::size_t>& rows) {
  const std::size_t C = teacher.dim(1);
  Tensor out({rows.size(), C});
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::copy_n(teacher.data() + rows[i] * C, C, out.data() + i * C);
  }
  return out;
}
}  // namespace

struct Trainer::State {
  Model& model;
  const LabeledImages& train;
  const LabeledImages& validation;
  TrainRecipe recipe;
  Clock& clock;
  bool image_layout = false;
  std::unique_ptr<Optimizer> optimizer;
  std::vector<std::size_t> order;
  std::vector<Tensor> kept;  // the weights after the last finished epoch
  EpochRecord current;
  double loss_sum = 0, steps_ms = 0;
  std::size_t correct = 0;
  bool stopped = false;
  // Distillation (Trainer::distill_from): the teacher's logits for every training row.
  const Tensor* teacher = nullptr;
  double temperature = 1, alpha = 0;

  State(Model& m, const LabeledImages& t, const LabeledImages& v, const TrainRecipe& r, Clock& c)
      : model(m), train(t), validation(v), recipe(r), clock(c) {}

  void keep_weights() {
    kept.clear();
    for (const ParameterRef& p : model.parameters()) kept.push_back(*p.value);
  }
  void restore_weights() {
    std::size_t i = 0;
    for (const ParameterRef& p : model.parameters()) *p.value = kept[i++];
    model.zero_grad();
  }
  void shuffle(std::size_t epoch) {
    order.resize(train.count);
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    Rng rng(epoch_seed(recipe.seed, epoch));
    for (std::size_t i = order.size(); i > 1; --i) {
      const std::size_t j = static_cast<std::size_t>(rng.next_u64() % i);
      std::swap(order[i - 1], order[j]);
    }
  }
  // Mean loss and accuracy over a data set: core's evaluate(), forward passes of
  // kEvaluationBatch rows.
  std::pair<double, double> evaluate(const LabeledImages& d) {
    if (d.count == 0) return {std::nan(""), std::nan("")};
    EvaluateOptions options;
    options.batch = kEvaluationBatch;
    options.max_misclassified = 0;
    const Evaluation e = perflab::evaluate(model, d, recipe.preprocessing, options);
    return {e.mean_loss, e.accuracy};
  }
};

Trainer::Trainer(Model& model, const LabeledImages& train, const LabeledImages& validation,
                 const TrainRecipe& recipe, Clock& clock)
    : s_(std::make_unique<State>(model, train, validation, recipe, clock)) {
  recipe.validate();
  check_data(train, "the training set");
  check_data(validation, "the validation set");
  if (train.count == 0) throw ValueError("the training set is empty: give it at least 1 image");
  if (validation.count > 0 && (validation.rows != train.rows || validation.cols != train.cols ||
                               validation.classes != train.classes)) {
    throw ValueError("the validation set's images (" + std::to_string(validation.rows) + "×" +
                     std::to_string(validation.cols) + ", " + std::to_string(validation.classes) +
                     " classes) differ from the training set's (" + std::to_string(train.rows) +
                     "×" + std::to_string(train.cols) + ", " + std::to_string(train.classes) +
                     " classes)");
  }
  s_->image_layout = check_classifier(model, train);

  const double plan = training_plan_flops(model, train.count, validation.count, recipe);
  const double least_ms = plan / (kFastestGflopsPerS * 1e6);
  if (least_ms > recipe.max_total_ms) {
    const std::string least = format_number(std::ceil(least_ms));
    throw ValueError("a training plan of " + std::to_string(recipe.epochs) + " epochs over " +
                     std::to_string(train.count) + " training and " +
                     std::to_string(validation.count) + " validation images is " + g3(plan) +
                     " FLOPs, at least " + least + " ms at " + format_number(kFastestGflopsPerS) +
                     " GFLOP/s (faster than any one core), more than the " +
                     format_number(recipe.max_total_ms) + " ms time budget: give it at least " +
                     least + " ms with max_total_ms, or train fewer epochs or images");
  }

  if (recipe.init != "keep") model.reset_parameters(recipe.seed, init_of(recipe.init));
  model.zero_grad();
  model.set_keep_for_backward(true);
  s_->optimizer = make_optimizer(recipe.optimizer, model.parameters());
  s_->keep_weights();

  steps_per_epoch_ = perflab::steps_per_epoch(train.count, recipe.batch);
  steps_total_ = steps_per_epoch_ * recipe.epochs;
  result_.steps_total = steps_total_;
  result_.train_samples = train.count;
  result_.validation_samples = validation.count;
  result_.parameter_count = model.parameter_count();
  result_.optimizer_state_bytes = s_->optimizer->state_bytes();
  result_.flops_per_sample = model.flops_per_sample().total() +
                             model.backward_flops_per_sample().total() +
                             per_sample_loss_flops(train.classes, true);
  result_.plan_flops = plan;
  result_.recipe = recipe;
}

Trainer::~Trainer() = default;

void Trainer::distill_from(const Tensor& teacher_logits, double temperature, double alpha) {
  if (step_ > 0) {
    throw Error("distill_from must come before the first training step; " +
                std::to_string(step_) + " have run");
  }
  const Shape want{s_->train.count, s_->train.classes};
  if (teacher_logits.shape() != want) {
    throw ShapeError("distillation: the teacher's logits have shape " +
                     shape_to_string(teacher_logits.shape()) + "; the training rows need " +
                     shape_to_string(want) + " (one row of class logits per training image)");
  }
  // The loss checks T and alpha; check them now, before any step, on an empty batch.
  const Tensor none({0, s_->train.classes});
  distillation_loss(none, none, {}, temperature, alpha);
  s_->teacher = &teacher_logits;
  s_->temperature = temperature;
  s_->alpha = alpha;
}

bool Trainer::finished() const { return s_->stopped || step_ >= steps_total_; }

void Trainer::cancel() {
  if (finished()) return;
  s_->restore_weights();
  s_->stopped = true;
  result_.cancelled = true;
}

std::vector<EpochRecord> Trainer::run(std::size_t max_steps, const TrainCallbacks& callbacks) {
  State& s = *s_;
  const TrainRecipe& r = s.recipe;
  std::vector<EpochRecord> finished_epochs;
  for (std::size_t k = 0; k < max_steps && !finished(); ++k) {
    const std::size_t epoch = step_ / steps_per_epoch_;
    const std::size_t pos = step_ % steps_per_epoch_;
    if (pos == 0) {
      s.shuffle(epoch);
      s.current = EpochRecord{};
      s.current.epoch = epoch + 1;
      s.loss_sum = 0;
      s.correct = 0;
      s.steps_ms = 0;
    }
    EpochRecord& e = s.current;
    const double lr = r.learning_rate_at(step_, steps_total_, steps_per_epoch_);

    const double t0 = s.clock.now_ms();
    const std::size_t first = pos * r.batch;
    const std::size_t n = std::min(r.batch, s.train.count - first);
    const std::vector<std::size_t> rows(s.order.begin() + static_cast<std::ptrdiff_t>(first),
                                        s.order.begin() + static_cast<std::ptrdiff_t>(first + n));
    const Tensor x = images_tensor(s.train, rows, r.preprocessing, s.image_layout);
    std::vector<std::uint8_t> labels(n);
    for (std::size_t i = 0; i < n; ++i) labels[i] = s.train.labels[rows[i]];
    const double t1 = s.clock.now_ms();
    const Tensor logits = s.model.forward(x);
    const double t2 = s.clock.now_ms();
    const LossResult loss = s.teacher ? distillation_loss(logits, teacher_rows(*s.teacher, rows),
                                                          labels, s.temperature, s.alpha)
                                      : softmax_cross_entropy(logits, labels);
    const double t3 = s.clock.now_ms();
    if (!std::isfinite(loss.loss)) {
      const std::string what = std::isnan(loss.loss) ? "NaN" : "infinite";
      s.restore_weights();
      s.stopped = true;
      const std::string where = "training stopped at step " + std::to_string(step_ + 1) +
                                " of " + std::to_string(steps_total_) + " (epoch " +
                                std::to_string(epoch + 1) + "): the loss became " + what + ". ";
      if (step_ == 0) {  // no update has run: the learning rate cannot be the cause
        throw Error(where + "No weight had been updated yet, so the inputs or the initial " +
                    "weights give non-finite logits: check the preprocessing (scale, mean, std) " +
                    "and the initialisation");
      }
      throw Error(where + "The learning rate (" + format_number(lr) + " at that step, " +
                  r.optimizer.name + ") is probably too high: lower it, e.g. to " +
                  format_number(lr / 10) + ", and train again. The model keeps the weights of " +
                  "epoch " + std::to_string(result_.epochs.size()) +
                  (result_.epochs.empty() ? " (the initial ones)" : ""));
    }
    s.model.zero_grad();
    s.model.backward_parameters(loss.dlogits);
    const double t4 = s.clock.now_ms();
    s.optimizer->step(lr);
    const double t5 = s.clock.now_ms();

    e.data_ms += t1 - t0;
    e.forward_ms += t2 - t1;
    e.loss_ms += t3 - t2;
    e.backward_ms += t4 - t3;
    e.optimizer_ms += t5 - t4;
    s.steps_ms += t5 - t0;
    e.steps += 1;
    e.samples += n;
    e.learning_rate = lr;
    s.loss_sum += loss.loss * static_cast<double>(n);
    s.correct += loss.correct;
    ++step_;
    result_.steps_done = step_;
    if (callbacks.on_progress) callbacks.on_progress({step_, steps_total_, epoch + 1, loss.loss});

    if (pos + 1 == steps_per_epoch_) {
      e.train_loss = s.loss_sum / static_cast<double>(e.samples);
      e.train_accuracy = static_cast<double>(s.correct) / static_cast<double>(e.samples);
      const double v0 = s.clock.now_ms();
      const auto [vloss, vacc] = s.evaluate(s.validation);
      e.validation_ms = s.clock.now_ms() - v0;
      e.validation_loss = vloss;
      e.validation_accuracy = vacc;
      e.epoch_ms = s.steps_ms + e.validation_ms;
      e.samples_per_s = s.steps_ms > 0 ? static_cast<double>(e.samples) * 1000.0 / s.steps_ms : 0;
      s.keep_weights();
      result_.epochs.push_back(e);
      finished_epochs.push_back(e);
      if (callbacks.on_epoch) callbacks.on_epoch(e);
    }
    if (!finished() && callbacks.should_cancel && callbacks.should_cancel()) {
      cancel();
      break;
    }
  }
  return finished_epochs;
}

TrainResult train(Model& model, const LabeledImages& train, const LabeledImages& validation,
                  const TrainRecipe& recipe, const TrainCallbacks& callbacks) {
  Trainer trainer(model, train, validation, recipe);
  trainer.run(trainer.steps_total(), callbacks);
  return trainer.result();
}

std::pair<LabeledImages, LabeledImages> recipe_split(const LabeledImages& all,
                                                     const TrainRecipe& recipe) {
  recipe.validate();
  if (recipe.validation_samples >= all.count) {
    throw ValueError("recipe validation_samples " + std::to_string(recipe.validation_samples) +
                     " leaves no training images out of " + std::to_string(all.count) +
                     "; keep it below " + std::to_string(all.count));
  }
  return split_validation(all, recipe.validation_samples, recipe.seed);
}

TrainResult train_with_validation_split(Model& model, const LabeledImages& all,
                                        const TrainRecipe& recipe,
                                        const TrainCallbacks& callbacks) {
  const auto [train_part, validation_part] = recipe_split(all, recipe);
  return train(model, train_part, validation_part, recipe, callbacks);
}

nlohmann::json to_json(const EpochRecord& e) {
  const auto number_or_null = [](double v) -> nlohmann::json {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  return {{"epoch", e.epoch},
          {"steps", e.steps},
          {"samples", e.samples},
          {"learning_rate", e.learning_rate},
          {"train_loss", number_or_null(e.train_loss)},
          {"train_accuracy", e.train_accuracy},
          {"validation_loss", number_or_null(e.validation_loss)},
          {"validation_accuracy", number_or_null(e.validation_accuracy)},
          {"data_ms", e.data_ms},
          {"forward_ms", e.forward_ms},
          {"loss_ms", e.loss_ms},
          {"backward_ms", e.backward_ms},
          {"optimizer_ms", e.optimizer_ms},
          {"validation_ms", e.validation_ms},
          {"epoch_ms", e.epoch_ms},
          {"samples_per_s", e.samples_per_s}};
}

nlohmann::json to_json(const TrainResult& t) {
  nlohmann::json epochs = nlohmann::json::array();
  for (const EpochRecord& e : t.epochs) epochs.push_back(to_json(e));
  return {{"epochs", epochs},
          {"cancelled", t.cancelled},
          {"steps_done", t.steps_done},
          {"steps_total", t.steps_total},
          {"train_samples", t.train_samples},
          {"validation_samples", t.validation_samples},
          {"parameter_count", t.parameter_count},
          {"optimizer_state_bytes", t.optimizer_state_bytes},
          {"flops_per_sample", t.flops_per_sample},
          {"plan_flops", t.plan_flops},
          {"recipe", to_json(t.recipe)}};
}

}  // namespace perflab
