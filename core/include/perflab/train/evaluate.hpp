// A classifier measured on a labelled split: accuracy, per-class accuracy, the confusion
// matrix, the mean cross-entropy loss and which images it got wrong. `perflab evaluate`, the
// trainer's per-epoch validation and the page's evaluation all read these numbers.
// Not for: training (train.hpp), timing the model (the profiler) or picking a threshold.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/json_fields.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"

namespace perflab {

// Checks that `model` classifies d's images, the check the trainer and evaluate() share: its
// input reads them flat, (batch, rows·cols), or as images, (batch, 1, rows, cols), and its
// output is one logit per class, (batch, classes). Returns true for the image layout (a CNN),
// false for the flat one (an MLP). ValueError otherwise, naming what to change:
//   "the model's input (8, 30) does not take the data's 6×6 grey images: its input must be
//    [batch, 36] (flat) or [batch, 1, 6, 6] (image)"
//   "the model's output (8, 4) must be (batch, 3): one logit per class of the data; make the
//    last layer give 3 outputs"
bool check_classifier(const Model& model, const LabeledImages& d);

struct Misclassified {
  std::size_t index = 0;      // row of the split
  std::uint8_t label = 0;     // the true class
  std::uint8_t predicted = 0;  // the model's
  double confidence = 0;      // the softmax probability of the predicted class
};

inline auto json_fields_of(const Misclassified*) {
  using M = Misclassified;
  return std::make_tuple(JsonField{"index", &M::index}, JsonField{"label", &M::label},
                         JsonField{"predicted", &M::predicted},
                         JsonField{"confidence", &M::confidence});
}

struct Evaluation {
  std::size_t n = 0;        // images evaluated
  std::size_t classes = 0;  // of the data set
  std::size_t correct = 0;
  double accuracy = 0;   // correct / n
  double mean_loss = 0;  // mean softmax_cross_entropy (train/loss.hpp) of the outputs, nats
  std::vector<std::size_t> per_class_count;    // images of each true class
  std::vector<std::optional<double>> per_class;  // accuracy per true class; empty: no images
  // (classes, classes) counts: rows the true class, columns the predicted one.
  std::vector<std::vector<std::size_t>> confusion;
  std::vector<Misclassified> misclassified;  // the first ones in row order, up to the cap
  std::size_t misclassified_total = 0;       // all of them (n − correct)
  std::size_t parameter_bytes = 0;           // the model's parameters × 4
  std::vector<std::string> class_names;
};

// Evaluation (and the trainer's validation) runs forward passes of this many rows, no
// gradients kept: the batch decides memory, not results.
inline constexpr std::size_t kEvaluationBatch = 256;

struct EvaluateOptions {
  std::size_t batch = kEvaluationBatch;  // images per forward pass
  std::size_t max_misclassified = 100;  // how many wrong images to list
  // After each batch: (images done, total); returning false stops with a CancelledError.
  std::function<bool(std::size_t, std::size_t)> progress;
};

// Every image of `data` through the model (no caches kept; the model's keep_for_backward
// setting is restored). The model's outputs are the logits of data.classes classes
// (check_classifier's ValueError otherwise). ValueError for an empty split, batch 0, or a bad
// preprocessing.
Evaluation evaluate(Model& model, const LabeledImages& data, const Preprocessing& preprocessing,
                    const EvaluateOptions& options = {});

// A model as it is stored: with a quantization, the int8 forward (model/quantization.hpp) and
// parameter_bytes its stored bytes (codes, scales, biases); without one, evaluate above.
Evaluation evaluate(Model& model, const Quantization* quantization, const LabeledImages& data,
                    const Preprocessing& preprocessing, const EvaluateOptions& options = {});
// A model file as it runs: its own preprocessing and quantization (the overload above).
Evaluation evaluate(ModelFile& file, const LabeledImages& data, const EvaluateOptions& options = {});

// The logits (data.count, data.classes) of every image, in the data's order, computed as
// evaluate computes them (batches of `batch`, the model's keep_for_backward restored): what a
// teacher gives distillation. Its refusals.
Tensor logits_of(Model& model, const LabeledImages& data, const Preprocessing& preprocessing,
                 std::size_t batch = 256);
// A model file's logits as it runs (evaluate(ModelFile&)'s forward: int8 for a quantized file).
Tensor logits_of(ModelFile& file, const LabeledImages& data, std::size_t batch = 256);

// Its JSON, written and read by one list (base/json_fields.hpp): {"n", "classes", "correct",
// "accuracy", "mean_loss", "per_class" (null for a class without images), "per_class_count",
// "confusion", "misclassified": [{"index", "label", "predicted", "confidence"}],
// "misclassified_total", "parameter_bytes", "class_names"}.
inline auto json_fields_of(const Evaluation*) {
  using E = Evaluation;
  return std::make_tuple(
      JsonField{"n", &E::n}, JsonField{"classes", &E::classes}, JsonField{"correct", &E::correct},
      JsonField{"accuracy", &E::accuracy}, JsonField{"mean_loss", &E::mean_loss},
      JsonField{"per_class", &E::per_class}, JsonField{"per_class_count", &E::per_class_count},
      JsonField{"confusion", &E::confusion}, JsonField{"misclassified", &E::misclassified},
      JsonField{"misclassified_total", &E::misclassified_total},
      JsonField{"parameter_bytes", &E::parameter_bytes},
      JsonField{"class_names", &E::class_names});
}
nlohmann::json to_json(const Evaluation& e);

}  // namespace perflab
