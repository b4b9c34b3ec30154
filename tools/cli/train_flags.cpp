// The training flags `train` and `distill` share (train_flags.hpp).
#include "train_flags.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "args.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

namespace perflab::cli {

const char* const kTrainFlagNames =
    "--data, --epochs, --batch, --optimizer, --lr, --seed, --train-samples and "
    "--validation-samples";

bool read_train_flag(const std::vector<std::string>& args, std::size_t& i, TrainFlags& f) {
  const std::string& a = args[i];
  const auto value = [&]() -> const std::string& { return option_value(args, i); };
  if (a == "--data") {
    f.data_dir = value();
  } else if (a == "--epochs") {
    f.epochs = count_arg(a, value());
  } else if (a == "--batch") {
    f.batch = count_arg(a, value());
  } else if (a == "--optimizer") {
    f.optimizer = value();
  } else if (a == "--lr") {
    f.lr = number_arg(a, value());
  } else if (a == "--seed") {
    f.seed = static_cast<std::uint64_t>(count_arg(a, value()));
  } else if (a == "--train-samples") {
    f.train_samples = count_arg(a, value());
  } else if (a == "--validation-samples") {
    f.validation_samples = count_arg(a, value());
  } else {
    return false;
  }
  return true;
}

TrainRecipe recipe_with_flags(const std::string& zoo_name, const TrainFlags& f) {
  const auto names = baseline_recipe_names();
  const bool has_baseline = std::find(names.begin(), names.end(), zoo_name) != names.end();
  TrainRecipe recipe = has_baseline ? baseline_recipe(zoo_name) : TrainRecipe{};
  if (f.epochs) recipe.epochs = static_cast<std::size_t>(*f.epochs);
  if (f.batch) recipe.batch = static_cast<std::size_t>(*f.batch);
  if (f.optimizer) recipe.optimizer.name = *f.optimizer;
  if (f.lr) recipe.learning_rate = *f.lr;
  if (f.seed) recipe.seed = *f.seed;
  if (f.validation_samples) {
    recipe.validation_samples = static_cast<std::size_t>(*f.validation_samples);
  } else if (f.train_samples && *f.train_samples > 0) {
    recipe.validation_samples = default_validation_samples(static_cast<std::size_t>(*f.train_samples));
  }
  recipe.validate();
  return recipe;
}

LabeledImages training_images(const TrainFlags& f) {
  if (f.train_samples && *f.train_samples == 0) {
    throw ValueError("--train-samples must be at least 1, got 0; leave it out to train on every "
                     "training image");
  }
  LabeledImages all = load_fashion_mnist(f.data_dir, "train");
  if (!f.train_samples) return all;
  if (static_cast<std::size_t>(*f.train_samples) > all.count) {
    throw ValueError("--train-samples is " + std::to_string(*f.train_samples) +
                     "; the training set has " + std::to_string(all.count) + " images");
  }
  return take_first(all, static_cast<std::size_t>(*f.train_samples));
}

TrainCallbacks progress_on_stderr(const std::string& command) {
  auto last_tenth = std::make_shared<std::size_t>(0);
  TrainCallbacks callbacks;
  callbacks.on_progress = [command, last_tenth](const TrainProgress& p) {
    const std::size_t tenth = p.steps_total ? 10 * p.steps_done / p.steps_total : 10;
    if (tenth != *last_tenth && tenth < 10) {
      std::fprintf(stderr, "perflab %s: step %zu of %zu (epoch %zu), batch loss %s\n",
                   command.c_str(), p.steps_done, p.steps_total, p.epoch,
                   format_decimal(p.loss, 4).c_str());
    }
    *last_tenth = tenth;
  };
  callbacks.on_epoch = [command](const EpochRecord& r) {
    const std::string validation =
        std::isfinite(r.validation_loss)
            ? "validation loss " + format_decimal(r.validation_loss, 4) + ", accuracy " +
                  percent(r.validation_accuracy)
            : std::string("no validation images");
    std::fprintf(stderr, "perflab %s: epoch %zu: train loss %s, accuracy %s; %s; %s samples/s\n",
                 command.c_str(), r.epoch, format_decimal(r.train_loss, 4).c_str(),
                 percent(r.train_accuracy).c_str(), validation.c_str(),
                 format_number(std::round(r.samples_per_s)).c_str());
  };
  return callbacks;
}

std::string count_of(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace perflab::cli
