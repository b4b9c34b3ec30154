// evaluate(): a classifier over a labelled split, batch by batch, counting what it got
// right (evaluate.hpp). Predictions are the arg-max of the logits (the first one on a tie,
// as NumPy's argmax), so an independent forward pass can reproduce the accuracy exactly.
// Not for: training-time statistics of mini-batches (the trainer's own records).
#include "perflab/train/evaluate.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <span>

#include "perflab/base/error.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/train/loss.hpp"

namespace perflab {

using nlohmann::json;

bool check_classifier(const Model& model, const LabeledImages& d) {
  const Shape& in = model.input_shape();
  const std::size_t pixels = d.rows * d.cols;
  bool image = false;
  if (in.size() == 2 && in[1] == pixels) {
    image = false;
  } else if (in.size() == 4 && in[1] == 1 && in[2] == d.rows && in[3] == d.cols) {
    image = true;
  } else {
    const std::string r = std::to_string(d.rows), c = std::to_string(d.cols);
    throw ValueError("the model's input " + shape_to_string(in) + " does not take the data's " +
                     r + "×" + c + " grey images: its input must be [batch, " +
                     std::to_string(pixels) + "] (flat) or [batch, 1, " + r + ", " + c +
                     "] (image)");
  }
  const Shape& out = model.output_shape();
  if (out.size() != 2 || out[1] != d.classes) {
    throw ValueError("the model's output " + shape_to_string(out) + " must be (batch, " +
                     std::to_string(d.classes) + "): one logit per class of the data; make the " +
                     "last layer give " + std::to_string(d.classes) + " outputs");
  }
  return image;
}

namespace {

// logits_of's loop with the forward given: the float model's, or a quantized one's.
Tensor logits_with(Model& model, const std::function<Tensor(const Tensor&)>& forward,
                   const LabeledImages& data, const Preprocessing& preprocessing,
                   std::size_t batch) {
  preprocessing.validate();
  if (data.count == 0) throw ValueError("the split has no images; give at least one");
  if (batch == 0) throw ValueError("logits batch must be at least 1, got 0");
  const bool image_layout = check_classifier(model, data);
  const std::size_t k = data.classes;
  Tensor out({data.count, k});
  InferenceScope inference(model);
  for (std::size_t first = 0; first < data.count; first += batch) {
    const std::size_t n = std::min(batch, data.count - first);
    const Tensor logits = forward(images_tensor(data, first, n, preprocessing, image_layout));
    std::copy_n(logits.data(), n * k, out.data() + first * k);
  }
  return out;
}

}  // namespace

Tensor logits_of(Model& model, const LabeledImages& data, const Preprocessing& preprocessing,
                 std::size_t batch) {
  return logits_with(
      model, [&](const Tensor& x) { return model.forward(x); }, data, preprocessing, batch);
}

Tensor logits_of(ModelFile& file, const LabeledImages& data, std::size_t batch) {
  if (!file.quantization) return logits_of(file.model, data, file.preprocessing, batch);
  const Quantization& q = *file.quantization;
  return logits_with(
      file.model, [&](const Tensor& x) { return quantized_forward(file.model, q, x); }, data,
      file.preprocessing, batch);
}

namespace {

// evaluate's loop with the forward given: the float model's, or a quantized one's.
Evaluation evaluate_with(Model& model, const std::function<Tensor(const Tensor&)>& forward,
                         std::size_t parameter_bytes, const LabeledImages& data,
                         const Preprocessing& preprocessing, const EvaluateOptions& options) {
  preprocessing.validate();
  if (data.count == 0) throw ValueError("the evaluation split has no images; give at least one");
  if (options.batch == 0) throw ValueError("evaluation batch must be at least 1, got 0");
  const bool image_layout = check_classifier(model, data);

  const std::size_t k = data.classes;
  Evaluation e;
  e.n = data.count;
  e.classes = k;
  e.per_class_count.assign(k, 0);
  e.confusion.assign(k, std::vector<std::size_t>(k, 0));
  e.parameter_bytes = parameter_bytes;
  e.class_names = data.class_names;
  double loss_sum = 0;

  InferenceScope inference(model);
  for (std::size_t first = 0; first < data.count; first += options.batch) {
    const std::size_t n = std::min(options.batch, data.count - first);
    const Tensor logits = forward(images_tensor(data, first, n, preprocessing, image_layout));
    const std::span<const std::uint8_t> labels(data.labels.data() + first, n);
    loss_sum += softmax_cross_entropy(logits, labels, false).loss * static_cast<double>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const float* row = logits.data() + i * k;
      const std::size_t predicted =
          static_cast<std::size_t>(std::max_element(row, row + k) - row);  // first on a tie
      const std::uint8_t label = labels[i];
      ++e.per_class_count[label];
      ++e.confusion[label][predicted];
      if (predicted == label) {
        ++e.correct;
      } else if (e.misclassified.size() < options.max_misclassified) {
        // The prediction's softmax probability, 1 / Σ e^(z − z_max) (no overflow).
        double sum = 0;
        for (std::size_t c = 0; c < k; ++c) {
          sum += std::exp(static_cast<double>(row[c]) - static_cast<double>(row[predicted]));
        }
        e.misclassified.push_back({first + i, label, static_cast<std::uint8_t>(predicted),
                                   1.0 / sum});
      }
    }
    if (options.progress && !options.progress(first + n, data.count)) {
      throw CancelledError("evaluation cancelled after " + std::to_string(first + n) + " of " +
                           std::to_string(data.count) + " images");
    }
  }
  e.accuracy = static_cast<double>(e.correct) / static_cast<double>(e.n);
  e.mean_loss = loss_sum / static_cast<double>(e.n);
  e.misclassified_total = e.n - e.correct;
  for (std::size_t c = 0; c < k; ++c) {
    if (e.per_class_count[c] == 0) {
      e.per_class.push_back(std::nullopt);
    } else {
      e.per_class.push_back(static_cast<double>(e.confusion[c][c]) /
                            static_cast<double>(e.per_class_count[c]));
    }
  }
  return e;
}

}  // namespace

Evaluation evaluate(Model& model, const LabeledImages& data, const Preprocessing& preprocessing,
                    const EvaluateOptions& options) {
  return evaluate_with(
      model, [&](const Tensor& x) { return model.forward(x); }, model.parameter_bytes(), data,
      preprocessing, options);
}

Evaluation evaluate(Model& model, const Quantization* quantization, const LabeledImages& data,
                    const Preprocessing& preprocessing, const EvaluateOptions& options) {
  if (quantization == nullptr) return evaluate(model, data, preprocessing, options);
  return evaluate_with(
      model, [&](const Tensor& x) { return quantized_forward(model, *quantization, x); },
      quantized_parameter_bytes(model, *quantization), data, preprocessing, options);
}

Evaluation evaluate(ModelFile& file, const LabeledImages& data, const EvaluateOptions& options) {
  return evaluate(file.model, file.quantization ? &*file.quantization : nullptr, data,
                  file.preprocessing, options);
}

json to_json(const Evaluation& e) { return write_fields(e); }

}  // namespace perflab
