// `perflab prune MODEL --sparsity S [--global | --structured] [--finetune EPOCHS] [--data DIR]
// --out MODEL`: core's magnitude pruning (optimize/prune.hpp: S of the weights zeroed) or
// structured pruning (optimize/structured.hpp: S of each hidden layer's units removed, the
// layers shrunk) of a model file, measured on the test split before and after, optionally
// fine-tuned (optimize/finetune.hpp; magnitude pruning's zeros held), written as a model file
// whose lineage says what was done. Core computes every number; this file reads, writes and
// prints.
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
#include "perflab/optimize/finetune.hpp"
#include "perflab/optimize/prune.hpp"
#include "perflab/optimize/structured.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/train.hpp"

namespace perflab::cli {

namespace {

// core's fine-tuning (optimize/finetune.hpp) with its progress on stderr.
void finetune_file(ModelFile& file, const LabeledImages& all, std::size_t epochs,
                   FinetuneAfter after) {
  const TrainRecipe recipe = finetune_recipe(file, epochs, all.count, after);
  std::fprintf(stderr,
               "perflab prune: fine-tuning %s for %s on %zu images (%zu held out), "
               "learning rate %s%s\n",
               file.model.name().c_str(), count_of(epochs, "epoch", "epochs").c_str(), all.count,
               recipe.validation_samples, format_number(recipe.learning_rate).c_str(),
               after == FinetuneAfter::Zeroed ? ", pruned weights kept at zero" : "");
  TrainCallbacks callbacks;
  callbacks.on_epoch = [](const EpochRecord& r) {
    std::fprintf(stderr, "perflab prune: epoch %zu: train loss %s, accuracy %s\n", r.epoch,
                 format_decimal(r.train_loss, 4).c_str(), percent(r.train_accuracy).c_str());
  };
  finetune(file, all, epochs, after, callbacks);
}

// The table of what structured pruning shrank, and what it saved.
void print_structured(const ModelFile& file, const std::string& path,
                      const StructuredPruneReport& r) {
  std::printf("pruned %s (%s) structurally: %s of the units of each prunable layer removed, "
              "the smallest by the L2 norm of their incoming weights\n",
              file.model.name().c_str(), path.c_str(), percent(r.fraction).c_str());
  std::printf("%-10s %-8s %8s %8s\n", "layer", "type", "before", "after");
  for (const ShrunkLayer& l : r.layers) {
    std::printf("%-10s %-8s %8zu %8zu  %s\n", ("layers[" + std::to_string(l.layer) + "]").c_str(),
                l.type.c_str(), l.before, l.after, l.type == "Linear" ? "units" : "channels");
  }
  std::printf("parameters %s -> %s (%s of them); forward FLOPs per sample %s -> %s (%s)\n",
              format_number(static_cast<double>(r.parameters_before), 17).c_str(),
              format_number(static_cast<double>(r.parameters_after), 17).c_str(),
              percent(static_cast<double>(r.parameters_after) / r.parameters_before).c_str(),
              format_number(r.flops_before, 17).c_str(), format_number(r.flops_after, 17).c_str(),
              percent(r.flops_after / r.flops_before).c_str());
}

}  // namespace

int prune_command(const std::vector<std::string>& args) {
  std::string model_path, out_path;
  std::optional<double> sparsity;
  PruneScope scope = PruneScope::Layer;
  bool structured = false;
  std::size_t finetune_epochs = 0;
  TrainFlags flags;  // --train-samples and --data only: the recipe is the file's
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const auto value = [&]() -> const std::string& { return option_value(args, i); };
    if (a == "--sparsity") {
      sparsity = number_arg(a, value());
    } else if (a == "--global") {
      scope = PruneScope::Global;
    } else if (a == "--structured") {
      structured = true;
    } else if (a == "--finetune") {
      finetune_epochs = static_cast<std::size_t>(count_arg(a, value()));
    } else if (a == "--train-samples") {
      flags.train_samples = count_arg(a, value());
    } else if (a == "--data") {
      flags.data_dir = value();
    } else if (a == "--out") {
      out_path = value();
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for prune; the options are --sparsity, --global, "
                   "--structured, --finetune, --train-samples, --data and --out");
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return usage("prune takes one MODEL, got '" + model_path + "' and '" + a + "'");
    }
  }
  if (model_path.empty() || !sparsity || out_path.empty()) {
    return usage("prune needs MODEL, --sparsity S and --out MODEL, e.g. perflab prune mlp.plm "
                 "--sparsity 0.5 --out mlp-pruned.plm");
  }
  if (flags.train_samples && (*flags.train_samples == 0 || finetune_epochs == 0)) {
    return usage(*flags.train_samples == 0 ? "--train-samples must be at least 1, got 0"
                                     : "--train-samples sizes the fine-tuning; give --finetune "
                                       "EPOCHS too");
  }
  if (structured && scope == PruneScope::Global) {
    return usage("--global sets one threshold over single weights; --structured removes whole "
                 "units of each layer alike: give one of them");
  }
  ModelFile file = read_model_path(model_path);
  if (file.quantization) {
    return usage(model_path + " is int8; prune the float model it came from, then quantize");
  }
  const LabeledImages test = load_fashion_mnist(flags.data_dir, "test");
  const Evaluation before = evaluate(file.model, test, file.preprocessing);

  std::optional<PruneReport> report;
  std::optional<StructuredPruneReport> shrunk;
  if (structured) {
    StructuredPrune result = prune_structured(file.model, *sparsity);
    file.model = std::move(result.model);
    shrunk = std::move(result.report);
    print_structured(file, model_path, *shrunk);
  } else {
    report = prune_magnitude(file.model, *sparsity, scope);
    std::printf("pruned %s (%s) by magnitude, %s: %s of %s weights are zero now (%s)\n",
                file.model.name().c_str(), model_path.c_str(),
                scope == PruneScope::Global ? "one threshold over all weight tensors"
                                            : "each weight tensor alike",
                format_number(static_cast<double>(report->zeroed), 17).c_str(),
                format_number(static_cast<double>(report->count), 17).c_str(),
                percent(report->achieved()).c_str());
    std::printf("%-16s %10s %10s %9s %12s\n", "tensor", "weights", "zero", "sparsity", "largest cut");
    for (const PrunedTensor& t : report->tensors) {
      std::printf("%-16s %10zu %10zu %9s %12s\n", t.name.c_str(), t.count, t.zeroed,
                  percent(static_cast<double>(t.zeroed) / static_cast<double>(t.count)).c_str(),
                  format_decimal(t.threshold, 3).c_str());
    }
  }
  const Evaluation pruned = evaluate(file.model, test, file.preprocessing);
  std::printf("test accuracy %s before, %s after pruning\n", percent(before.accuracy).c_str(),
              percent(pruned.accuracy).c_str());

  Evaluation last = pruned;
  TrainingFacts facts = file.training.value_or(TrainingFacts{});
  if (finetune_epochs > 0) {
    const LabeledImages all = training_images(flags);
    finetune_file(file, all, finetune_epochs,
                  structured ? FinetuneAfter::Shrunk : FinetuneAfter::Zeroed);
    last = evaluate(file.model, test, file.preprocessing);
    std::printf("test accuracy %s after %s of fine-tuning", percent(last.accuracy).c_str(),
                count_of(finetune_epochs, "epoch", "epochs").c_str());
    // A pruning of 0 zeroes nothing and counts the zeros: the sparsity the fine-tuning kept.
    if (report) {
      std::printf(" (sparsity kept: %s)",
                  percent(prune_magnitude(file.model, 0.0, scope).achieved()).c_str());
    }
    std::printf("\n");
  }
  facts.test_accuracy = last.accuracy;
  facts.lineage.push_back(report ? prune_lineage(*report, finetune_epochs)
                                 : structured_prune_lineage(*shrunk, finetune_epochs));
  write_binary_file(out_path, model_file_bytes(file.model, file.preprocessing, facts), "model file");
  std::printf("wrote %s: test accuracy %s\n", out_path.c_str(), percent(last.accuracy).c_str());
  return 0;
}

}  // namespace perflab::cli
