// The Optimization chapter's floors that need a trained model, printed side by side from one
// run (never asserted in a test: machines are noisy):
//   structured pruning  half the hidden units of the trained fashion_mlp removed
//                       (optimize/structured.hpp), then at most 2 epochs of fine-tuning
//                       (optimize/finetune.hpp): test accuracy within 1 point of the model it
//                       came from, and its forward ≥ 1.6× faster at batch 1 and at batch 64,
//                       timed by core's interleaved A/B (stats/ab.hpp's run_ab, the
//                       Benchmarking chapter's) on the same input.
//   distillation        core's default student (a 784-32-10 MLP) trained on the first
//                       training images for the epochs of the page's full distillation
//                       plan (experiment_plan; 3,000 images, 20 epochs) from
//                       the same model's softened outputs (optimize/distill.hpp, core's
//                       default T and α) and on the labels alone, same recipe and seed, for
//                       5 seeds: the distilled student ahead by a mean whose 95% t interval
//                       lies above 0.
//   int8 quantization   the same model quantized to int8 (optimize/quantize.hpp, core's
//                       default calibration images, min/max and percentile): parameter
//                       bytes ≤ 0.3× the float model's and test accuracy within 0.5 points,
//                       evaluated through the int8 forward.
// Exits 1 when a floor is not met, 2 for bad arguments or an unreadable model or data set.
//   build/native/bench/perflab_bench_optimize_floors [--model FILE] [--data DIR]
//       [--fraction F] [--epochs N]
// The model defaults to the pretrained baseline tools/lab build writes
// (build/pretrained/fashion_mlp.perflab, run from the repository's root).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/optimize/finetune.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/optimize/structured.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "perflab/train/evaluate.hpp"

using namespace perflab;

namespace {

constexpr double kAccuracyFloorPoints = 1.0;
constexpr double kSpeedupFloor = 1.6;
constexpr std::size_t kMaxFinetuneEpochs = 2;
constexpr double kInt8BytesFloor = 0.3;
constexpr double kInt8AccuracyFloorPoints = 0.5;

// Interleaved A/B of the two models' forward at `batch` on one random input: A the model as
// trained, B the shrunk one. Returns whether B's speedup (median A / median B) meets the floor.
bool forward_ab(Model& base, Model& shrunk, std::size_t batch) {
  Shape shape = base.input_shape();
  shape[0] = batch;
  const Tensor x = Tensor::random(shape, 7);
  base.set_keep_for_backward(false);
  shrunk.set_keep_for_backward(false);
  const AbResult r = run_ab([&] { base.forward(x); }, [&] { shrunk.forward(x); });
  const Comparison& c = r.comparison;
  const bool met = c.ratio >= kSpeedupFloor;
  std::printf("forward at batch %3zu: base %.4f ms, pruned %.4f ms (medians of %zu interleaved "
              "rounds): %.2fx faster, 95%% interval %.2f-%.2f, %s; floor %.1fx: %s\n",
              batch, c.median_a, c.median_b, r.a_ms.size(), c.ratio, c.ratio_interval.low,
              c.ratio_interval.high, verdict_word(c.verdict), kSpeedupFloor,
              met ? "met" : "NOT MET");
  return met;
}

// Distilled minus labels-only test accuracy, in points, over `seeds` seeds; whether the 95%
// t interval of the mean lies above 0.
bool distillation(ModelFile& teacher, const LabeledImages& train, const LabeledImages& test,
                  int seeds) {
  const nlohmann::json student = default_distill_student_spec();
  // The page's full plan (core's experiment_plan): the sizes the page's sentence names.
  const nlohmann::json plan = experiment_plan("optimization-distillation", false);
  const LabeledImages subset = take_first(train, plan["train_images"].get<std::size_t>());
  std::vector<double> gains;
  for (int seed = 1; seed <= seeds; ++seed) {
    TrainRecipe recipe;
    recipe.epochs = plan["recipe"]["epochs"].get<std::size_t>();
    recipe.seed = static_cast<std::uint64_t>(seed);
    recipe.validation_samples = default_validation_samples(subset.count);
    Model distilled = model_from_json(student), labels_only = model_from_json(student);
    distill_with_validation_split(distilled, teacher, subset, recipe, kDefaultDistillTemperature,
                                  kDefaultDistillAlpha);
    train_with_validation_split(labels_only, subset, recipe);
    const double d = evaluate(distilled, test, recipe.preprocessing).accuracy;
    const double l = evaluate(labels_only, test, recipe.preprocessing).accuracy;
    gains.push_back(100 * (d - l));
    std::printf("distillation, seed %d: distilled %.2f%%, labels alone %.2f%%: %+.2f points\n",
                seed, 100 * d, 100 * l, gains.back());
  }
  double mean = 0, var = 0;
  for (double g : gains) mean += g / gains.size();
  for (double g : gains) var += (g - mean) * (g - mean) / (gains.size() - 1);
  const double half = student_t_quantile(0.975, gains.size() - 1) * std::sqrt(var / gains.size());
  const bool met = mean - half > 0;
  std::printf("distillation (T %g, alpha %g; teacher %s) ahead of labels alone by %+.2f points, "
              "95%% t interval %+.2f to %+.2f over %zu seeds; floor: the interval above 0: %s\n",
              kDefaultDistillTemperature, kDefaultDistillAlpha, teacher.model.name().c_str(), mean,
              mean - half, mean + half, gains.size(), met ? "met" : "NOT MET");
  return met;
}

// The model file quantized to int8 with each calibration, evaluated through its int8
// forward: bytes against the float model's and accuracy against base_accuracy.
bool int8_floors(const std::vector<std::uint8_t>& bytes, const std::string& what,
                 const LabeledImages& train, const LabeledImages& test, double base_accuracy) {
  bool met = true;
  for (Calibration c : {Calibration::MinMax, Calibration::Percentile}) {
    ModelFile f = read_model_file(bytes, what);
    const double float_bytes = 4.0 * static_cast<double>(f.model.parameter_count());
    f.quantization = quantize_int8(f.model, train, f.preprocessing, kDefaultCalibrationImages, c);
    dequantize_into(f.model, *f.quantization);
    const double int8_bytes = static_cast<double>(quantized_parameter_bytes(f.model, *f.quantization));
    const double accuracy = evaluate(f, test).accuracy;
    const double ratio = int8_bytes / float_bytes;
    const double points = 100 * (accuracy - base_accuracy);
    const bool bytes_met = ratio <= kInt8BytesFloor;
    const bool accuracy_met = points >= -kInt8AccuracyFloorPoints;  // better is within too
    std::printf("int8 (%s calibration on %zu training images): parameter bytes %.0f -> %.0f "
                "(%.3fx; floor <= %.1fx: %s), test accuracy %.2f%% against %.2f%% (%+.2f points; "
                "floor within %.1f: %s)\n",
                calibration_name(c), kDefaultCalibrationImages, float_bytes, int8_bytes, ratio,
                kInt8BytesFloor, bytes_met ? "met" : "NOT MET", 100 * accuracy, 100 * base_accuracy,
                points, kInt8AccuracyFloorPoints, accuracy_met ? "met" : "NOT MET");
    met = met && bytes_met && accuracy_met;
  }
  return met;
}

}  // namespace

int main(int argc, char** argv) {
  std::string model_path = "build/pretrained/fashion_mlp.perflab";
  std::string dir = kFashionMnistDir;
  double fraction = 0.5;
  long epochs = 2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--model" && i + 1 < argc) {
      model_path = argv[++i];
    } else if (a == "--data" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--fraction" && i + 1 < argc) {
      fraction = std::strtod(argv[++i], nullptr);
    } else if (a == "--epochs" && i + 1 < argc) {
      epochs = std::strtol(argv[++i], nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: perflab_bench_optimize_floors [--model FILE] [--data DIR] "
                           "[--fraction F] [--epochs N]\n");
      return 2;
    }
  }
  try {
    std::ifstream in(model_path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read model file '" + model_path + "' (tools/lab build writes it)");
    const std::vector<std::uint8_t> bytes(std::istreambuf_iterator<char>(in), {});
    const std::string what = "model file '" + model_path + "'";
    ModelFile base = read_model_file(bytes, what);
    const LabeledImages test = load_fashion_mnist(dir, "test");
    const LabeledImages train = load_fashion_mnist(dir, "train");
    const double base_accuracy = evaluate(base.model, test, base.preprocessing).accuracy;

    StructuredPrune pruned = prune_structured(base.model, fraction);
    ModelFile shrunk{std::move(pruned.model), base.preprocessing, base.training};
    std::printf("structured pruning of %s (%s): %.0f%% of each hidden layer's units removed, "
                "parameters %zu -> %zu, forward FLOPs per sample %.0f -> %.0f (%.2fx fewer)\n",
                base.model.name().c_str(), model_path.c_str(), 100 * fraction,
                pruned.report.parameters_before, pruned.report.parameters_after,
                pruned.report.flops_before, pruned.report.flops_after,
                pruned.report.flops_before / pruned.report.flops_after);
    const double cut_accuracy = evaluate(shrunk.model, test, shrunk.preprocessing).accuracy;
    finetune(shrunk, train, static_cast<std::size_t>(epochs), FinetuneAfter::Shrunk);
    const double tuned = evaluate(shrunk.model, test, shrunk.preprocessing).accuracy;
    const double drop = 100 * (base_accuracy - tuned);
    const bool accuracy_met = drop <= kAccuracyFloorPoints && epochs <= long(kMaxFinetuneEpochs);
    std::printf("test accuracy: %.2f%% as trained, %.2f%% pruned, %.2f%% after %ld epoch%s of "
                "fine-tuning (%.2f points below); floor within %.0f point after at most %zu "
                "epochs: %s\n",
                100 * base_accuracy, 100 * cut_accuracy, 100 * tuned, epochs,
                epochs == 1 ? "" : "s", drop, kAccuracyFloorPoints, kMaxFinetuneEpochs,
                accuracy_met ? "met" : "NOT MET");
    bool met = accuracy_met;
    for (std::size_t batch : {std::size_t{1}, std::size_t{64}}) {
      met = forward_ab(base.model, shrunk.model, batch) && met;
    }
    met = distillation(base, train, test, 5) && met;
    met = int8_floors(bytes, what, train, test, base_accuracy) && met;
    return met ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "perflab_bench_optimize_floors: %s\n", e.what());
    return 2;
  }
}
