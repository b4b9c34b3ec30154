// `perflab quantize MODEL --int8 [--calibrate N] [--calibration minmax|percentile]
// [--data DIR] --out MODEL`: core's post-training int8 quantization (optimize/quantize.hpp)
// of a model file's Linear layers, calibrated on the first N training images, measured on the
// test split against the float model (accuracy, parameter bytes, each layer's output error),
// written as a model file (format version 2) whose lineage says what was done. Core computes
// every number; this file reads, writes and prints.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab::cli {

int quantize_command(const std::vector<std::string>& args) {
  std::string model_path, out_path, data_dir = kFashionMnistDir;
  bool int8 = false;
  std::size_t images = kDefaultCalibrationImages;
  Calibration method = Calibration::MinMax;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--int8") {
      int8 = true;
    } else if (a == "--calibrate") {
      images = static_cast<std::size_t>(count_arg(a, option_value(args, i)));
    } else if (a == "--calibration") {
      method = calibration_from_name(option_value(args, i));
    } else if (a == "--data") {
      data_dir = option_value(args, i);
    } else if (a == "--out") {
      out_path = option_value(args, i);
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a + "' for quantize; the options are --int8, --calibrate, "
                   "--calibration, --data and --out");
    } else if (model_path.empty()) {
      model_path = a;
    } else {
      return usage("quantize takes one MODEL, got '" + model_path + "' and '" + a + "'");
    }
  }
  if (model_path.empty() || !int8 || out_path.empty()) {
    return usage("quantize needs MODEL, --int8 (the one scheme there is) and --out MODEL, e.g. "
                 "perflab quantize mlp.plm --int8 --out mlp-int8.plm");
  }
  ModelFile file = read_model_path(model_path);
  if (file.quantization) {
    return usage(model_path + " is int8 already; quantize the float model it came from");
  }
  const LabeledImages train = load_fashion_mnist(data_dir, "train");
  const LabeledImages test = load_fashion_mnist(data_dir, "test");
  const Evaluation before = evaluate(file, test);
  const Quantization q = quantize_int8(file.model, train, file.preprocessing, images, method);

  // Each layer's error on the first 256 test images, through the float model and the int8 one.
  const bool image_layout = check_classifier(file.model, test);
  const Tensor x = images_tensor(test, 0, std::min<std::size_t>(256, test.count),
                                 file.preprocessing, image_layout);
  const std::vector<LayerError> errors = layer_errors(file.model, q, x);

  std::printf("quantized %s (%s) to int8: per-channel symmetric weights, uint8 activations "
              "calibrated on %zu training images by %s\n",
              file.model.name().c_str(), model_path.c_str(), images, calibration_name(method));
  std::printf("%-10s %-8s %-22s %10s %5s %12s %12s %12s\n", "layer", "type", "input range",
              "scale", "zero", "max |err|", "mean |err|", "max |float|");
  for (const LayerError& e : errors) {
    const QuantizedLinear* ql = nullptr;
    for (const QuantizedLinear& l : q.layers) {
      if (l.layer == e.layer) ql = &l;
    }
    const std::string range = ql ? "[" + format_decimal(ql->input_lo, 3) + ", " +
                                       format_decimal(ql->input_hi, 3) + "]"
                                 : "float32";
    std::printf("%-10s %-8s %-22s %10s %5s %12s %12s %12s\n",
                ("layers[" + std::to_string(e.layer) + "]").c_str(), e.type.c_str(), range.c_str(),
                ql ? format_number(ql->input.scale, 4).c_str() : "",
                ql ? std::to_string(ql->input.zero_point).c_str() : "",
                format_number(e.max_abs, 3).c_str(), format_number(e.mean_abs, 3).c_str(),
                format_number(e.float_max_abs, 3).c_str());
  }
  ModelFile out{std::move(file.model), file.preprocessing, file.training, q};
  const Evaluation after = evaluate(out, test);
  std::printf("parameter bytes %zu float32 -> %zu int8 (%s of them)\n", before.parameter_bytes,
              after.parameter_bytes,
              percent(static_cast<double>(after.parameter_bytes) / before.parameter_bytes).c_str());
  std::printf("test accuracy %s float32, %s int8 (%+.2f points)\n", percent(before.accuracy).c_str(),
              percent(after.accuracy).c_str(), 100 * (after.accuracy - before.accuracy));

  TrainingFacts facts = out.training.value_or(TrainingFacts{});
  facts.test_accuracy = after.accuracy;
  facts.lineage.push_back(quantize_lineage(q));
  out.training = facts;
  write_binary_file(out_path, model_file_bytes(out), "model file");
  std::printf("wrote %s: test accuracy %s\n", out_path.c_str(), percent(after.accuracy).c_str());
  return 0;
}

}  // namespace perflab::cli
