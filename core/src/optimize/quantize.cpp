// Post-training int8 quantization (optimize/quantize.hpp): calibration by running the float
// model layer by layer, per-channel weights from kernels/int8, and each layer's error.
#include "perflab/optimize/quantize.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab {
namespace {

// The value at fraction p (0..1) of the sorted values, by the linear rule.
float percentile_of(std::vector<float>& v, double p) {
  const double pos = p * static_cast<double>(v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(pos);
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(lo), v.end());
  const float a = v[lo];
  if (lo + 1 >= v.size()) return a;
  const float b = *std::min_element(v.begin() + static_cast<std::ptrdiff_t>(lo + 1), v.end());
  return static_cast<float>(a + (pos - static_cast<double>(lo)) * (b - a));
}

}  // namespace

Quantization quantize_int8(Model& model, const LabeledImages& calibration,
                           const Preprocessing& preprocessing, std::size_t images,
                           Calibration method) {
  if (images == 0 || images > calibration.count) {
    throw ValueError("calibration images must be from 1 to the " + std::to_string(calibration.count) +
                     " the data holds, got " + std::to_string(images));
  }
  std::vector<std::size_t> linears;
  for (std::size_t i = 0; i < model.size(); ++i) {
    if (model.layer(i).type() == "Linear") linears.push_back(i);
  }
  if (linears.empty()) {
    throw ValueError("model " + model.name() + " has no Linear layer; int8 quantization "
                     "quantizes Linear layers (Conv2d, attention and LayerNorm stay float32)");
  }
  const LabeledImages data = take_first(calibration, images);
  const bool image_layout = check_classifier(model, data);
  preprocessing.validate();

  // Each Linear's input values over the calibration images: the running min and max, and
  // for the percentile method every value (at most 1,000 images × 4,096 inputs by default).
  const std::size_t L = model.size();
  std::vector<float> lo(L, std::numeric_limits<float>::infinity());
  std::vector<float> hi(L, -std::numeric_limits<float>::infinity());
  std::vector<std::vector<float>> seen(L);
  InferenceScope inference(model);
  for (std::size_t first = 0; first < data.count; first += 256) {
    const std::size_t n = std::min<std::size_t>(256, data.count - first);
    Tensor h = images_tensor(data, first, n, preprocessing, image_layout);
    for (std::size_t i = 0; i < L; ++i) {
      if (model.layer(i).type() == "Linear") {
        const auto [mn, mx] = std::minmax_element(h.data(), h.data() + h.size());
        lo[i] = std::min(lo[i], *mn);
        hi[i] = std::max(hi[i], *mx);
        if (method == Calibration::Percentile) seen[i].insert(seen[i].end(), h.data(), h.data() + h.size());
      }
      h = model.layer(i).forward(h);
    }
  }
  Quantization q;
  q.method = method;
  q.calibration_images = images;
  for (std::size_t i : linears) {
    auto& lin = dynamic_cast<Linear&>(model.layer(i));
    QuantizedLinear ql;
    ql.layer = i;
    ql.weights = quantize_weights(lin.weight().data(), lin.in_features(), lin.out_features());
    if (lin.has_bias()) ql.bias.assign(lin.bias().data(), lin.bias().data() + lin.bias().size());
    if (method == Calibration::Percentile) {
      ql.input_lo = percentile_of(seen[i], (100 - kCalibrationPercentile) / 100);
      ql.input_hi = percentile_of(seen[i], kCalibrationPercentile / 100);
    } else {
      ql.input_lo = lo[i];
      ql.input_hi = hi[i];
    }
    ql.input = activation_quant_params(ql.input_lo, ql.input_hi);
    q.layers.push_back(std::move(ql));
  }
  return q;
}

std::vector<LayerError> layer_errors(Model& model, const Quantization& q, const Tensor& x) {
  model.check_input(x);
  InferenceScope inference(model);
  std::vector<LayerError> out;
  Tensor f = x, g = x;
  for (std::size_t i = 0; i < model.size(); ++i) {
    f = model.layer(i).forward(f);
    g = quantized_layer_forward(model, q, i, g);
    LayerError e;
    e.layer = i;
    e.type = std::string(model.layer(i).type());
    double sum = 0;
    for (std::size_t k = 0; k < f.size(); ++k) {
      const double d = std::fabs(double(f.data()[k]) - g.data()[k]);
      e.max_abs = std::max(e.max_abs, d);
      e.float_max_abs = std::max(e.float_max_abs, std::fabs(double(f.data()[k])));
      sum += d;
    }
    e.mean_abs = f.size() ? sum / static_cast<double>(f.size()) : 0.0;
    out.push_back(e);
  }
  return out;
}

nlohmann::json quantize_lineage(const Quantization& q) {
  return {{"transform", "quantize"},
          {"scheme", "int8"},
          {"calibration", calibration_name(q.method)},
          {"calibration_images", q.calibration_images}};
}

}  // namespace perflab
