// A quantized model's forward, bytes and header entry (model/quantization.hpp).
#include "perflab/model/quantization.hpp"

#include <algorithm>
#include <cmath>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_fields.hpp"

namespace perflab {
namespace {

// y = the quantized Linear of x (any shape whose last dimension is K).
Tensor int8_linear(const QuantizedLinear& q, const Tensor& x, const Shape& out_shape) {
  const std::size_t rows = x.size() / q.weights.in;
  std::vector<std::uint8_t> codes(x.size());
  quantize_activations(x.data(), x.size(), q.input, codes.data());
  Tensor y(out_shape);
  find_int8_linear_variant("simd").kernel(y.data(), codes.data(), q.input, q.weights,
                                          q.bias.empty() ? nullptr : q.bias.data(), rows);
  return y;
}

const QuantizedLinear* quantized_at(const Quantization& q, std::size_t layer) {
  for (const QuantizedLinear& l : q.layers) {
    if (l.layer == layer) return &l;
  }
  return nullptr;
}

}  // namespace

const char* calibration_name(Calibration c) {
  return c == Calibration::Percentile ? "percentile" : "minmax";
}

Calibration calibration_from_name(const std::string& name) {
  if (name == "minmax") return Calibration::MinMax;
  if (name == "percentile") return Calibration::Percentile;
  throw ValueError("calibration must be \"minmax\" (each input's smallest and largest value) or "
                   "\"percentile\" (its " + format_number(100 - kCalibrationPercentile) + "th to " +
                   format_number(kCalibrationPercentile) + "th percentile), got " + describe(name));
}

Tensor quantized_layer_forward(Model& model, const Quantization& q, std::size_t i, const Tensor& h) {
  if (const QuantizedLinear* ql = quantized_at(q, i)) {
    return int8_linear(*ql, h, model.layer(i).output_shape(h.shape()));
  }
  return model.layer(i).forward(h);
}

Tensor quantized_forward(Model& model, const Quantization& q, const Tensor& x) {
  model.check_input(x);
  InferenceScope inference(model);
  Tensor h = x;
  for (std::size_t i = 0; i < model.size(); ++i) h = quantized_layer_forward(model, q, i, h);
  return h;
}

std::size_t quantized_parameter_bytes(Model& model, const Quantization& q) {
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < model.size(); ++i) {
    if (const QuantizedLinear* ql = quantized_at(q, i)) {
      bytes += ql->weights.in * ql->weights.out + 4 * ql->weights.scale.size() + 4 * ql->bias.size();
    } else {
      bytes += model.layer(i).parameter_bytes();
    }
  }
  return bytes;
}

void dequantize_into(Model& model, const Quantization& q) {
  for (const QuantizedLinear& l : q.layers) {
    auto& lin = dynamic_cast<Linear&>(model.layer(l.layer));
    dequantize_weights(lin.weight().data(), l.weights);
  }
}

Int8Weights int8_weights_from_codes(const std::int8_t* codes, const float* scale, std::size_t K,
                                    std::size_t N) {
  Int8Weights w;
  w.in = K;
  w.out = N;
  w.stride = Int8Weights::stride_for(K);
  w.code.assign(N * w.stride, 0);
  w.scale.assign(scale, scale + N);
  w.code_sum.assign(N, 0);
  for (std::size_t n = 0; n < N; ++n) {
    if (!(std::isfinite(scale[n]) && scale[n] > 0)) {
      throw ValueError("the weight scale of output " + std::to_string(n) + " is " +
                       format_number(scale[n]) + "; scales are positive finite numbers");
    }
    for (std::size_t k = 0; k < K; ++k) {
      const std::int8_t c = codes[n * K + k];
      if (c == -128) {
        throw ValueError("the weight code of output " + std::to_string(n) + ", input " +
                         std::to_string(k) + " is -128; codes run from -127 to 127");
      }
      w.code[n * w.stride + k] = c;
      w.code_sum[n] += c;
    }
  }
  return w;
}

nlohmann::json to_json(const Quantization& q) {
  nlohmann::json layers = nlohmann::json::array();
  for (const QuantizedLinear& l : q.layers) {
    layers.push_back({{"layer", l.layer},
                      {"input_range", {l.input_lo, l.input_hi}},
                      {"input_scale", l.input.scale},
                      {"input_zero_point", l.input.zero_point}});
  }
  return {{"scheme", "int8 per-channel symmetric weights, uint8 activations with a zero point"},
          {"calibration", {{"method", calibration_name(q.method)}, {"images", q.calibration_images}}},
          {"layers", layers}};
}

Quantization quantization_from_json(const nlohmann::json& j, const Model& model) {
  using nlohmann::json;
  if (!j.is_object()) throw ValueError("quantization must be an object, got " + describe(j));
  const json& calibration = json_member(j, "quantization", "calibration");
  Quantization q;
  q.method = calibration_from_name(json_member(calibration, "quantization.calibration", "method")
                                       .get<std::string>());
  const json& images = json_member(calibration, "quantization.calibration", "images");
  if (!images.is_number_unsigned()) {
    throw ValueError("quantization.calibration.images must be a whole number, got " + describe(images));
  }
  q.calibration_images = images.get<std::size_t>();
  const json& layers = json_member(j, "quantization", "layers");
  if (!layers.is_array()) throw ValueError("quantization.layers must be an array, got " + describe(layers));
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::string field = "quantization.layers[" + std::to_string(i) + "]";
    const json& e = layers[i];
    const json& layer = json_member(e, field, "layer");
    if (!layer.is_number_unsigned() || layer.get<std::size_t>() >= model.size() ||
        model.layer(layer.get<std::size_t>()).type() != "Linear" ||
        (!q.layers.empty() && layer.get<std::size_t>() <= q.layers.back().layer)) {
      throw ValueError(field + ".layer must be the index of a Linear of the architecture, after "
                       "the one before, got " + describe(layer));
    }
    const json& range = json_member(e, field, "input_range");
    if (!range.is_array() || range.size() != 2 || !range[0].is_number() || !range[1].is_number()) {
      throw ValueError(field + ".input_range must be [lo, hi], got " + describe(range));
    }
    QuantizedLinear ql;
    ql.layer = layer.get<std::size_t>();
    ql.input_lo = range[0].get<float>();
    ql.input_hi = range[1].get<float>();
    ql.input = activation_quant_params(ql.input_lo, ql.input_hi);
    const json& scale = json_member(e, field, "input_scale");
    const json& zero = json_member(e, field, "input_zero_point");
    if (!scale.is_number() || scale.get<float>() != ql.input.scale || !zero.is_number_integer() ||
        zero.get<std::int32_t>() != ql.input.zero_point) {
      throw ValueError(field + "'s input_scale and input_zero_point are not what its input_range "
                       "gives (" + format_number(ql.input.scale) + " and " +
                       std::to_string(ql.input.zero_point) + ")");
    }
    q.layers.push_back(std::move(ql));
  }
  return q;
}

}  // namespace perflab
