// `perflab evaluate MODEL`, `perflab export MODEL --npy DIR` and `perflab weights MODEL`: a
// model file (core's model_file.hpp) measured on Fashion-MNIST's test split, written out as
// NumPy files, or its weight distribution (optimize/weights.hpp). Core computes every number;
// this file reads and writes files and prints.
// Not for: training (train_command.cpp) or deciding anything about the model.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/npy_export.hpp"
#include "perflab/optimize/weights.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab::cli {

namespace {

void print_evaluation(const std::string& path, const ModelFile& file, const Evaluation& e) {
  std::printf("model %s (%s): %s parameters, %s\n", file.model.name().c_str(), path.c_str(),
              format_number(static_cast<double>(file.model.parameter_count()), 17).c_str(),
              format_bytes(e.parameter_bytes).c_str());
  std::printf("test accuracy %s (%zu of %zu images right), mean loss %s\n\n",
              percent(e.accuracy).c_str(), e.correct, e.n, format_decimal(e.mean_loss, 4).c_str());
  std::printf("%-3s %-14s %8s %9s\n", "#", "class", "images", "accuracy");
  for (std::size_t c = 0; c < e.classes; ++c) {
    const std::string name = c < e.class_names.size() ? e.class_names[c] : std::to_string(c);
    std::printf("%-3zu %-14s %8zu %9s\n", c, name.c_str(), e.per_class_count[c],
                e.per_class[c] ? percent(*e.per_class[c]).c_str() : "-");
  }
  std::printf("\nconfusion matrix (rows: true class, columns: predicted class)\n    ");
  for (std::size_t c = 0; c < e.classes; ++c) std::printf("%6zu", c);
  std::printf("\n");
  for (std::size_t r = 0; r < e.classes; ++r) {
    std::printf("%-4zu", r);
    for (std::size_t c = 0; c < e.classes; ++c) std::printf("%6zu", e.confusion[r][c]);
    std::printf("\n");
  }
}

}  // namespace

ModelFile read_model_path(const std::string& path) {
  const std::vector<std::uint8_t> bytes = read_binary_file(path, "model file", kMaxModelFileBytes);
  return read_model_file(bytes, "model file '" + path + "'");
}

int evaluate_command(const std::vector<std::string>& args) {
  bool json = false;
  std::string model_path, data_dir = kFashionMnistDir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      json = true;
    } else if (a == "--data") {
      data_dir = option_value(args, i);
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for evaluate; the options are --data DIR and --json");
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return usage("evaluate takes one MODEL, got '" + model_path + "' and '" + a + "'");
    }
  }
  if (model_path.empty()) {
    return usage("evaluate needs MODEL, a file perflab train --out wrote, e.g. perflab evaluate "
                 "mlp.plm");
  }
  ModelFile file = read_model_path(model_path);
  const LabeledImages test = load_fashion_mnist(data_dir, "test");
  const Evaluation e = evaluate(file, test);
  if (json) {
    nlohmann::json out = to_json(e);
    out["model"] = file.model.name();
    out["data"] = data_dir;
    out["split"] = "test";
    out["preprocessing"] = to_json(file.preprocessing);
    out["training"] = file.training ? to_json(*file.training) : nlohmann::json(nullptr);
    std::cout << out.dump(2) << "\n";
  } else {
    print_evaluation(model_path, file, e);
  }
  return 0;
}

namespace {

// One row of the weights table: name, count, mean, std, min, max, |w| at 10/50/90%, the
// fractions below 0.001/0.01/0.1.
void print_weight_row(const WeightStats& s) {
  const auto fixed = [](double v) { return format_decimal(v, 3); };
  std::printf("%-16s %10s %10s %9s %9s %9s %9s %9s %9s %8s %8s %8s\n", s.name.c_str(),
              format_number(static_cast<double>(s.count), 17).c_str(), fixed(s.mean).c_str(),
              fixed(s.std).c_str(), fixed(s.min).c_str(), fixed(s.max).c_str(),
              fixed(s.magnitude_percentiles[0]).c_str(), fixed(s.magnitude_percentiles[4]).c_str(),
              fixed(s.magnitude_percentiles[8]).c_str(), percent(s.fraction_below[0]).c_str(),
              percent(s.fraction_below[1]).c_str(), percent(s.fraction_below[2]).c_str());
}

void print_weights(const std::string& path, const WeightDistribution& d) {
  std::printf("weights of model %s (%s): %s in %zu weight tensors (biases and norms left out)\n\n",
              d.model.c_str(), path.c_str(),
              format_number(static_cast<double>(d.all.count), 17).c_str(), d.tensors.size());
  std::printf("%-16s %10s %10s %9s %9s %9s %9s %9s %9s %8s %8s %8s\n", "tensor", "count", "mean",
              "std", "min", "max", "|w| p10", "|w| p50", "|w| p90", "<0.001", "<0.01", "<0.1");
  for (const WeightStats& s : d.tensors) print_weight_row(s);
  print_weight_row(d.all);
  std::printf("\n|w| pN: the magnitude below which N%% of the weights lie (numpy's linear rule); "
              "<t: the fraction\nof weights whose magnitude is below t. --json adds every decile "
              "and a %zu-bin histogram per tensor.\n",
              d.all.histogram.counts.size());
}

}  // namespace

int weights_command(const std::vector<std::string>& args) {
  bool json = false;
  std::string model_path;
  for (const std::string& a : args) {
    if (a == "--json") {
      json = true;
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for weights; the option is --json");
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return usage("weights takes one MODEL, got '" + model_path + "' and '" + a + "'");
    }
  }
  if (model_path.empty()) {
    return usage("weights needs MODEL, a file perflab train --out wrote, e.g. perflab weights "
                 "mlp.plm");
  }
  ModelFile file = read_model_path(model_path);
  const WeightDistribution d = weight_distribution(file.model);
  if (json) {
    std::cout << to_json(d).dump(2) << "\n";
  } else {
    print_weights(model_path, d);
  }
  return 0;
}

int export_command(const std::vector<std::string>& args) {
  std::string model_path, dir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--npy") {
      dir = option_value(args, i);
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for export; the option is --npy DIR");
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return usage("export takes one MODEL, got '" + model_path + "' and '" + a + "'");
    }
  }
  if (model_path.empty() || dir.empty()) {
    return usage("export needs MODEL and --npy DIR, e.g. perflab export mlp.plm --npy mlp-npy");
  }
  ModelFile file = read_model_path(model_path);
  const NpyExport e = export_npy(file);
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (!std::filesystem::is_directory(dir)) {
    throw ValueError("cannot make the folder '" + dir + "'" +
                     (error ? ": " + error.message() : std::string(": a file has that name")));
  }
  const std::filesystem::path folder(dir);
  for (const NpyFile& f : e.files) write_binary_file((folder / f.name).string(), f.bytes, "file");
  const std::string manifest = e.manifest.dump(2) + "\n";
  write_binary_file((folder / "manifest.json").string(),
                    std::vector<std::uint8_t>(manifest.begin(), manifest.end()), "file");
  std::printf("wrote %zu .npy files and manifest.json to %s\n", e.files.size(), dir.c_str());
  return 0;
}

}  // namespace perflab::cli
