// `perflab train (SPEC.json | --zoo NAME) --out MODEL [options]`: trains a classifier on
// Fashion-MNIST with core's trainer, measures it on the test split with core's evaluate(),
// and writes the model file (weights, preprocessing, training facts). Progress goes to
// stderr, the summary to stdout. Defaults come from core: the zoo model's baseline recipe
// (train.hpp's baseline_recipe), or core's default TrainRecipe for a spec file or a zoo
// model without one. Not for: deciding anything about the training (core does).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/session_table.hpp"
#include "perflab/train/train.hpp"

namespace perflab::cli {

namespace {

// "1 epoch", "15 epochs".
std::string count_of(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace

int train_command(const std::vector<std::string>& args) {
  std::string spec_path, zoo_name, out_path, data_dir = kFashionMnistDir;
  std::optional<int> epochs, batch, train_samples, validation_samples;
  std::optional<double> lr;
  std::optional<std::string> optimizer;
  std::optional<std::uint64_t> seed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> const std::string& { return option_value(args, i); };
    if (a == "--zoo") {
      zoo_name = value();
    } else if (a == "--out") {
      out_path = value();
    } else if (a == "--data") {
      data_dir = value();
    } else if (a == "--epochs") {
      epochs = count_arg(a, value());
    } else if (a == "--batch") {
      batch = count_arg(a, value());
    } else if (a == "--optimizer") {
      optimizer = value();
    } else if (a == "--lr") {
      lr = number_arg(a, value());
    } else if (a == "--seed") {
      seed = static_cast<std::uint64_t>(count_arg(a, value()));
    } else if (a == "--train-samples") {
      train_samples = count_arg(a, value());
    } else if (a == "--validation-samples") {
      validation_samples = count_arg(a, value());
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a +
                   "' for train; the options are --zoo, --out, --data, --epochs, --batch, "
                   "--optimizer, --lr, --seed, --train-samples and --validation-samples");
    } else if (spec_path.empty()) {
      spec_path = a;
    } else {
      return usage("train takes one SPEC.json, got '" + spec_path + "' and '" + a + "'");
    }
  }
  if (zoo_name.empty() == spec_path.empty()) {
    return usage("train needs either SPEC.json or --zoo NAME, e.g. perflab train --zoo "
                 "fashion_mlp --out mlp.plm");
  }
  if (out_path.empty()) {
    return usage("train needs --out MODEL, the model file to write, e.g. --out mlp.plm");
  }

  // The recipe: core's baseline for this zoo model, or core's defaults; flags replace fields.
  const auto names = baseline_recipe_names();
  const bool has_baseline = std::find(names.begin(), names.end(), zoo_name) != names.end();
  TrainRecipe recipe = has_baseline ? baseline_recipe(zoo_name) : TrainRecipe{};
  if (epochs) recipe.epochs = static_cast<std::size_t>(*epochs);
  if (batch) recipe.batch = static_cast<std::size_t>(*batch);
  if (optimizer) recipe.optimizer.name = *optimizer;
  if (lr) recipe.learning_rate = *lr;
  if (seed) recipe.seed = *seed;
  if (validation_samples) {
    recipe.validation_samples = static_cast<std::size_t>(*validation_samples);
  } else if (train_samples) {
    recipe.validation_samples = default_validation_samples(static_cast<std::size_t>(*train_samples));
  }
  recipe.validate();

  if (train_samples && *train_samples == 0) {
    return usage("--train-samples must be at least 1, got 0; leave it out to train on every "
                 "training image");
  }
  // The recipe and the spec are checked before the data is read; the trainer checks that
  // the model takes the images before anything is trained.
  const nlohmann::json spec = zoo_name.empty()
                                  ? spec_from_text(read_text_file(spec_path, "spec file"))
                                  : zoo_spec(zoo_name);
  Model model = model_from_json(spec);

  LabeledImages all = load_fashion_mnist(data_dir, "train");
  if (train_samples) {
    if (static_cast<std::size_t>(*train_samples) > all.count) {
      return usage("--train-samples is " + std::to_string(*train_samples) + "; the training set has " +
                   std::to_string(all.count) + " images");
    }
    all = take_first(all, static_cast<std::size_t>(*train_samples));
  }
  std::fprintf(stderr,
               "perflab train: %s on %zu Fashion-MNIST images (%zu held out for validation), "
               "%s, batch %zu, %s, learning rate %s, seed %llu\n",
               model.name().c_str(), all.count, recipe.validation_samples,
               count_of(recipe.epochs, "epoch", "epochs").c_str(), recipe.batch, recipe.optimizer.name.c_str(),
               format_number(recipe.learning_rate).c_str(),
               static_cast<unsigned long long>(recipe.seed));
  std::size_t last_tenth = 0;
  TrainCallbacks callbacks;
  callbacks.on_progress = [&](const TrainProgress& p) {
    const std::size_t tenth = p.steps_total ? 10 * p.steps_done / p.steps_total : 10;
    if (tenth != last_tenth && tenth < 10) {
      std::fprintf(stderr, "perflab train: step %zu of %zu (epoch %zu), batch loss %s\n",
                   p.steps_done, p.steps_total, p.epoch, format_decimal(p.loss, 4).c_str());
    }
    last_tenth = tenth;
  };
  callbacks.on_epoch = [&](const EpochRecord& r) {
    const std::string validation =
        std::isfinite(r.validation_loss)
            ? "validation loss " + format_decimal(r.validation_loss, 4) + ", accuracy " +
                  percent(r.validation_accuracy)
            : std::string("no validation images");
    std::fprintf(stderr, "perflab train: epoch %zu: train loss %s, accuracy %s; %s; %s samples/s\n",
                 r.epoch, format_decimal(r.train_loss, 4).c_str(), percent(r.train_accuracy).c_str(),
                 validation.c_str(), format_number(std::round(r.samples_per_s)).c_str());
  };
  const TrainResult result = train_with_validation_split(model, all, recipe, callbacks);

  const LabeledImages test = load_fashion_mnist(data_dir, "test");
  const Evaluation e = evaluate(model, test, recipe.preprocessing);

  const TrainingFacts facts = training_facts_of(result, "Fashion-MNIST", e.accuracy);
  write_binary_file(out_path, model_file_bytes(model, recipe.preprocessing, facts), "model file");
  std::printf("wrote %s: %s trained %s on %zu images; test accuracy %s (%zu of %zu)\n",
              out_path.c_str(), model.name().c_str(),
              count_of(facts.epochs, "epoch", "epochs").c_str(), facts.train_samples,
              percent(e.accuracy).c_str(), e.correct, e.n);
  return 0;
}

}  // namespace perflab::cli
