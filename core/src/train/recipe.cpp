// The training recipe: its checks, its learning-rate schedules, its JSON, and the baseline
// recipe of each Fashion-MNIST zoo model (the one table of defaults; docs/TRAINING.md gives
// the reasons and the accuracies they reach).
// Not for: running training (train.cpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/train/train.hpp"

namespace perflab {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

bool known(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names) {
    if (n == name) return true;
  }
  return false;
}

[[noreturn]] void refuse(const std::string& field, double v, const std::string& allowed) {
  throw ValueError("recipe " + field + " must be " + allowed + ", got " + format_number(v));
}

}  // namespace

const std::vector<std::string>& schedule_names() {
  static const std::vector<std::string> names = {"constant", "cosine", "step"};
  return names;
}

const std::vector<std::string>& init_names() {
  static const std::vector<std::string> names = {"he", "xavier", "uniform", "keep"};
  return names;
}

void TrainRecipe::validate() const {
  optimizer.validate();
  if (!(learning_rate > 0 && learning_rate <= kMaxLearningRate)) {
    refuse("learning_rate", learning_rate,
           "above 0 and at most " + format_number(kMaxLearningRate));
  }
  if (!known(schedule_names(), schedule)) {
    throw ValueError("recipe schedule \"" + schedule + "\" is not known; the schedules are " +
                     joined(schedule_names()));
  }
  if (!(min_lr_fraction >= 0 && min_lr_fraction <= 1)) {
    refuse("min_lr_fraction", min_lr_fraction, "from 0 to 1");
  }
  if (step_epochs < 1) refuse("step_epochs", 0, "at least 1");
  if (!(step_gamma > 0 && step_gamma <= 1)) refuse("step_gamma", step_gamma, "above 0 and at most 1");
  if (batch < 1 || batch > kMaxTrainBatch) {
    refuse("batch", static_cast<double>(batch), "from 1 to " + std::to_string(kMaxTrainBatch));
  }
  if (epochs < 1 || epochs > kMaxTrainEpochs) {
    refuse("epochs", static_cast<double>(epochs), "from 1 to " + std::to_string(kMaxTrainEpochs));
  }
  if (!known(init_names(), init)) {
    throw ValueError("recipe init \"" + init + "\" is not known; the initialisations are " +
                     joined(init_names()));
  }
  preprocessing.validate("recipe.preprocessing");
  if (!(max_total_ms > 0 && std::isfinite(max_total_ms))) {
    refuse("max_total_ms", max_total_ms, "a positive number of milliseconds");
  }
}

double TrainRecipe::learning_rate_at(std::size_t t, std::size_t total,
                                     std::size_t steps_per_epoch) const {
  if (schedule == "cosine" && total > 0) {
    const double progress = static_cast<double>(t) / static_cast<double>(total);
    const double c = 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
    return learning_rate * (min_lr_fraction + (1.0 - min_lr_fraction) * c);
  }
  if (schedule == "step" && steps_per_epoch > 0) {
    const std::size_t epoch = t / steps_per_epoch;
    return learning_rate * std::pow(step_gamma, static_cast<double>(epoch / step_epochs));
  }
  return learning_rate;
}

std::size_t default_validation_samples(std::size_t rows) {
  return std::min(kDefaultValidationSamples, rows / 10);
}

nlohmann::json to_json(const TrainRecipe& r) {
  return {{"optimizer",
           {{"name", r.optimizer.name},
            {"momentum", r.optimizer.momentum},
            {"beta1", r.optimizer.beta1},
            {"beta2", r.optimizer.beta2},
            {"eps", r.optimizer.eps},
            {"weight_decay", r.optimizer.weight_decay}}},
          {"learning_rate", r.learning_rate},
          {"schedule", r.schedule},
          {"min_lr_fraction", r.min_lr_fraction},
          {"step_epochs", r.step_epochs},
          {"step_gamma", r.step_gamma},
          {"batch", r.batch},
          {"epochs", r.epochs},
          {"init", r.init},
          {"seed", r.seed},
          {"validation_samples", r.validation_samples},
          {"preprocessing", to_json(r.preprocessing)},
          {"max_total_ms", r.max_total_ms}};
}

namespace {

template <class T>
void read_into(const nlohmann::json& v, const std::string& field, T& out) {
  read_json_value(v, field, out, JsonRange::any);
}

template <class Fields>
void read_object(const nlohmann::json& j, const std::string& where, const Fields& fields) {
  if (!j.is_object()) throw_json_field_type(j, where, "an object");
  for (const auto& [key, value] : j.items()) {
    bool found = false;
    std::string names;
    for (const auto& [name, read] : fields) {
      names += (names.empty() ? "" : ", ") + std::string(name);
      if (key == name) {
        read(value, where + "." + key);
        found = true;
      }
    }
    if (!found) {
      throw ValueError(where + "." + key + " is not a field; " + where + " takes " + names);
    }
  }
}

using FieldReader = std::pair<const char*, std::function<void(const nlohmann::json&, const std::string&)>>;

template <class T>
FieldReader field(const char* name, T& target) {
  return {name, [&target](const nlohmann::json& v, const std::string& f) { read_into(v, f, target); }};
}

}  // namespace

TrainRecipe recipe_from_json(const nlohmann::json& j, const TrainRecipe& base) {
  TrainRecipe r = base;
  OptimizerConfig& o = r.optimizer;
  Preprocessing& p = r.preprocessing;
  const std::vector<FieldReader> optimizer_fields = {
      field("name", o.name),   field("momentum", o.momentum), field("beta1", o.beta1),
      field("beta2", o.beta2), field("eps", o.eps),           field("weight_decay", o.weight_decay)};
  const std::vector<FieldReader> preprocessing_fields = {
      field("scale", p.scale), field("mean", p.mean), field("std", p.std)};
  const std::vector<FieldReader> fields = {
      {"optimizer",
       [&](const nlohmann::json& v, const std::string& f) {
         // A name alone is allowed: "optimizer": "sgd".
         if (v.is_string()) {
           o.name = v.get<std::string>();
         } else {
           read_object(v, f, optimizer_fields);
         }
       }},
      field("learning_rate", r.learning_rate),
      field("schedule", r.schedule),
      field("min_lr_fraction", r.min_lr_fraction),
      field("step_epochs", r.step_epochs),
      field("step_gamma", r.step_gamma),
      field("batch", r.batch),
      field("epochs", r.epochs),
      field("init", r.init),
      field("seed", r.seed),
      field("validation_samples", r.validation_samples),
      {"preprocessing",
       [&](const nlohmann::json& v, const std::string& f) { read_object(v, f, preprocessing_fields); }},
      field("max_total_ms", r.max_total_ms)};
  read_object(j, "recipe", fields);
  r.validate();
  return r;
}

Preprocessing fashion_mnist_standardization() { return {1.0f / 255.0f, 0.2860f, 0.3530f}; }

namespace {

struct Baseline {
  const char* zoo_name;
  TrainRecipe recipe;
};

// The baselines (docs/TRAINING.md): Adam at 1e-3 with a cosine decay to 0, batch 64, He
// initialisation, standardised pixels, 5,000 of the 60,000 training images for validation.
const std::vector<Baseline>& baselines() {
  static const std::vector<Baseline> table = [] {
    TrainRecipe common;
    common.optimizer = OptimizerConfig{.name = "adam"};
    common.learning_rate = 1e-3;
    common.schedule = "cosine";
    common.batch = 64;
    common.init = "he";
    common.seed = 1;
    common.validation_samples = kDefaultValidationSamples;
    common.preprocessing = fashion_mnist_standardization();
    TrainRecipe mlp = common;
    mlp.epochs = 15;
    TrainRecipe cnn = common;
    cnn.epochs = 10;
    return std::vector<Baseline>{{"fashion_mlp", mlp}, {"fashion_cnn", cnn}};
  }();
  return table;
}

}  // namespace

const TrainRecipe& baseline_recipe(std::string_view zoo_name) {
  for (const Baseline& b : baselines()) {
    if (zoo_name == b.zoo_name) return b.recipe;
  }
  throw ValueError("zoo model \"" + std::string(zoo_name) +
                   "\" has no baseline recipe; the models with one are " +
                   joined(baseline_recipe_names()));
}

std::vector<std::string> baseline_recipe_names() {
  std::vector<std::string> names;
  for (const Baseline& b : baselines()) names.emplace_back(b.zoo_name);
  return names;
}

}  // namespace perflab
