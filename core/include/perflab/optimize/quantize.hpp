// Post-training int8 quantization of a model's Linear layers (model/quantization.hpp runs the
// result): per-channel symmetric int8 weights and uint8 activations with a zero point
// (kernels/int8.hpp), each Linear's input range calibrated by running the float model on N
// training images, by min/max or by a percentile (which clips the rare extremes min/max
// would stretch the scale to cover); and how far each layer's output moved.
// Not for: quantization-aware training, int8 storage of activations between layers.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/quantization.hpp"

namespace perflab {

// `perflab quantize`'s default number of calibration images.
inline constexpr std::size_t kDefaultCalibrationImages = 1000;

// Calibrates on the first `images` of `calibration` (preprocessed as the model's file says)
// and quantizes every Linear. ValueError: images 0 or more than the data holds, a model
// without a Linear, or a model that does not take the images (evaluate's check).
Quantization quantize_int8(Model& model, const LabeledImages& calibration,
                           const Preprocessing& preprocessing, std::size_t images,
                           Calibration method);

// Each layer's output through the float model and the quantized one on the same input:
// max and mean |float − quantized| over its values, and the float output's max |value| to
// judge them against.
struct LayerError {
  std::size_t layer = 0;
  std::string type;
  double max_abs = 0, mean_abs = 0, float_max_abs = 0;
};
std::vector<LayerError> layer_errors(Model& model, const Quantization& q, const Tensor& x);

// The lineage entry: {transform: "quantize", scheme: "int8", calibration, calibration_images}.
nlohmann::json quantize_lineage(const Quantization& q);

}  // namespace perflab
