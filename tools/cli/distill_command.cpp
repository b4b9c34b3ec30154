// `perflab distill TEACHER (--student SPEC.json | --zoo NAME) [--temperature T] [--alpha A]
// [--epochs N] [training flags] --out MODEL`: core's distillation (optimize/distill.hpp) of a
// trained teacher file into a student, and the same student trained on the labels alone with
// the same recipe, seed and split, both measured on the test split: the difference is what
// the teacher's softened outputs bought. Writes the distilled student, its lineage naming
// the teacher. Core computes every number; this file reads, writes and prints.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "train_flags.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab::cli {

int distill_command(const std::vector<std::string>& args) {
  std::string teacher_path, spec_path, zoo_name, out_path;
  double temperature = kDefaultDistillTemperature, alpha = kDefaultDistillAlpha;
  TrainFlags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--student") {
      spec_path = option_value(args, i);
    } else if (a == "--zoo") {
      zoo_name = option_value(args, i);
    } else if (a == "--temperature") {
      temperature = number_arg(a, option_value(args, i));
    } else if (a == "--alpha") {
      alpha = number_arg(a, option_value(args, i));
    } else if (a == "--out") {
      out_path = option_value(args, i);
    } else if (read_train_flag(args, i, flags)) {
      continue;
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for distill; the options are --student, --zoo, "
                   "--temperature, --alpha, --out, " + kTrainFlagNames);
    } else if (teacher_path.empty()) {
      teacher_path = a;
    } else {
      return usage("distill takes one TEACHER model file, got '" + teacher_path + "' and '" +
                   a + "'");
    }
  }
  if (teacher_path.empty() || spec_path.empty() == zoo_name.empty() || out_path.empty()) {
    return usage("distill needs TEACHER, one of --student SPEC.json or --zoo NAME, and --out "
                 "MODEL, e.g. perflab distill cnn.plm --zoo fashion_mlp --out mlp-distilled.plm");
  }
  const TrainRecipe recipe = recipe_with_flags(zoo_name, flags);
  ModelFile teacher = read_model_path(teacher_path);
  const nlohmann::json spec = zoo_name.empty()
                                  ? spec_from_text(read_text_file(spec_path, "spec file"))
                                  : zoo_spec(zoo_name);
  Model student = model_from_json(spec);
  Model labels_only = model_from_json(spec);

  const LabeledImages all = training_images(flags);
  const LabeledImages test = load_fashion_mnist(flags.data_dir, "test");
  const double teacher_accuracy = evaluate(teacher.model, test, teacher.preprocessing).accuracy;
  std::fprintf(stderr,
               "perflab distill: %s (%s parameters, test accuracy %s) into %s (%s parameters) on "
               "%zu Fashion-MNIST images (%zu held out), temperature %s, alpha %s, %s, seed "
               "%llu\n",
               teacher.model.name().c_str(),
               format_number(static_cast<double>(teacher.model.parameter_count()), 17).c_str(),
               percent(teacher_accuracy).c_str(), student.name().c_str(),
               format_number(static_cast<double>(student.parameter_count()), 17).c_str(),
               all.count, recipe.validation_samples, format_number(temperature).c_str(),
               format_number(alpha).c_str(), count_of(recipe.epochs, "epoch", "epochs").c_str(),
               static_cast<unsigned long long>(recipe.seed));
  const TrainResult distilled = distill_with_validation_split(
      student, teacher, all, recipe, temperature, alpha, progress_on_stderr("distill"));
  std::fprintf(stderr, "perflab distill: the same student on the labels alone, same recipe and "
                       "seed\n");
  train_with_validation_split(labels_only, all, recipe, progress_on_stderr("distill"));

  const Evaluation d = evaluate(student, test, recipe.preprocessing);
  const Evaluation l = evaluate(labels_only, test, recipe.preprocessing);
  std::printf("distilled %s from %s: test accuracy %s (%zu of %zu); on the labels alone %s "
              "(%zu); difference %+.2f points (teacher: %s)\n",
              student.name().c_str(), teacher.model.name().c_str(), percent(d.accuracy).c_str(),
              d.correct, d.n, percent(l.accuracy).c_str(), l.correct,
              100 * (d.accuracy - l.accuracy), percent(teacher_accuracy).c_str());

  TrainingFacts facts = training_facts_of(distilled, "Fashion-MNIST", d.accuracy);
  facts.lineage.push_back(distill_lineage(teacher, temperature, alpha, facts.epochs));
  write_binary_file(out_path, model_file_bytes(student, recipe.preprocessing, facts), "model file");
  std::printf("wrote %s: test accuracy %s\n", out_path.c_str(), percent(d.accuracy).c_str());
  return 0;
}

}  // namespace perflab::cli
