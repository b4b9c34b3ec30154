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
#include "train_flags.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/session_table.hpp"
#include "perflab/train/train.hpp"

namespace perflab::cli {

int train_command(const std::vector<std::string>& args) {
  std::string spec_path, zoo_name, out_path;
  TrainFlags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--zoo") {
      zoo_name = option_value(args, i);
    } else if (a == "--out") {
      out_path = option_value(args, i);
    } else if (read_train_flag(args, i, flags)) {
      continue;
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for train; the options are --zoo, --out, " +
                   kTrainFlagNames);
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
  const TrainRecipe recipe = recipe_with_flags(zoo_name, flags);
  if (flags.train_samples && *flags.train_samples == 0) {
    return usage("--train-samples must be at least 1, got 0; leave it out to train on every "
                 "training image");
  }
  // The recipe and the spec are checked before the data is read; the trainer checks that
  // the model takes the images before anything is trained.
  const nlohmann::json spec = zoo_name.empty()
                                  ? spec_from_text(read_text_file(spec_path, "spec file"))
                                  : zoo_spec(zoo_name);
  Model model = model_from_json(spec);

  const LabeledImages all = training_images(flags);
  std::fprintf(stderr,
               "perflab train: %s on %zu Fashion-MNIST images (%zu held out for validation), "
               "%s, batch %zu, %s, learning rate %s, seed %llu\n",
               model.name().c_str(), all.count, recipe.validation_samples,
               count_of(recipe.epochs, "epoch", "epochs").c_str(), recipe.batch, recipe.optimizer.name.c_str(),
               format_number(recipe.learning_rate).c_str(),
               static_cast<unsigned long long>(recipe.seed));
  const TrainResult result =
      train_with_validation_split(model, all, recipe, progress_on_stderr("train"));

  const LabeledImages test = load_fashion_mnist(flags.data_dir, "test");
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
