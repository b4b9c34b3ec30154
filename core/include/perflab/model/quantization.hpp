// A model whose Linear layers run as int8 (optimize/quantize.hpp makes one): per Linear, the
// per-channel int8 weights and the calibrated uint8 input quantization of kernels/int8.hpp,
// and the forward that runs them: each quantized Linear quantizes its float input, multiplies
// in int32 and dequantizes into its float output with the bias added, so the float layers in
// between (ReLU, ...) run as before and the next Linear quantizes again. Conv2d, attention and
// LayerNorm stay float32 (the lab has no int8 convolution yet). What the model file stores of
// it: to_json's header entry, and the codes and scales among the parameters (model_file.hpp).
// Not for: choosing scales (optimize/quantize.hpp calibrates them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/kernels/int8.hpp"
#include "perflab/model/model.hpp"

namespace perflab {

enum class Calibration { MinMax, Percentile };
// "minmax" / "percentile"; from_name: ValueError naming both.
const char* calibration_name(Calibration c);
Calibration calibration_from_name(const std::string& name);
// The percentile calibration keeps the 0.01th to 99.99th percentile of each input's values.
inline constexpr double kCalibrationPercentile = 99.99;

struct QuantizedLinear {
  std::size_t layer = 0;          // index of the Linear in the model
  Int8Weights weights;            // from the Linear's float weights
  std::vector<float> bias;        // the Linear's bias (empty without one)
  float input_lo = 0, input_hi = 0;  // the calibrated range of the layer's input
  ActivationQuant input;          // activation_quant_params(input_lo, input_hi)
};

struct Quantization {
  Calibration method = Calibration::MinMax;
  std::size_t calibration_images = 0;
  std::vector<QuantizedLinear> layers;  // every Linear of the model, in order
};

// Layer i of the quantized model on h (layer i's input): the int8 kernel for a quantized
// Linear, the layer's own forward otherwise. For callers that run the layers one by one.
Tensor quantized_layer_forward(Model& model, const Quantization& q, std::size_t i, const Tensor& h);

// The model's forward with its Linears quantized: x as Model::forward takes it (its ShapeError
// otherwise).
Tensor quantized_forward(Model& model, const Quantization& q, const Tensor& x);

// Bytes the quantized model's parameters take: each quantized Linear's K·N int8 codes, N
// float32 scales and its float32 bias, and every other parameter as float32. (The kernel's
// in-memory layout pads K to 16 and keeps code sums: Int8Weights::bytes.)
std::size_t quantized_parameter_bytes(Model& model, const Quantization& q);

// Quantized weights back into the model's float weights (each code × its scale): what a float
// forward, the export's float view and the weights view see of the quantized model.
void dequantize_into(Model& model, const Quantization& q);

// Int8Weights from stored codes (N, K), row per output, and N scales: what the model file
// reads back. ValueError for a code of -128 (the symmetric range is ±127) or a scale that is
// not positive and finite.
Int8Weights int8_weights_from_codes(const std::int8_t* codes, const float* scale, std::size_t K,
                                    std::size_t N);

// The model file's header entry: {scheme, calibration: {method, images}, layers: [{layer,
// input_range: [lo, hi], input_scale, input_zero_point}]}; the codes, scales and biases go
// with the parameters.
nlohmann::json to_json(const Quantization& q);
// The entry read back, without weights (the file's parameters fill them): ValueError naming
// the field, a layer that is not a Linear of `model`, or stored input parameters that are not
// what the stored range gives.
Quantization quantization_from_json(const nlohmann::json& j, const Model& model);

}  // namespace perflab
