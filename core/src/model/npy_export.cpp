// NumPy .npy files and the manifest of `perflab export --npy` (npy_export.hpp). The manifest's
// "computes" sentences state each layer's arithmetic in NumPy terms, so a reader needs
// nothing but this folder and docs/MODEL_SPEC.md to recompute the outputs.
// Not for: writing files (the CLI does).
#include "perflab/model/npy_export.hpp"

#include <bit>
#include <cstring>
#include <string_view>

#include "perflab/model/model_file.hpp"

namespace perflab {

using nlohmann::json;

static_assert(std::endian::native == std::endian::little,
              "npy_bytes writes '<f4' from memory; this target is not little-endian");

namespace {

// The arithmetic of the layer types a trained classifier uses, in NumPy terms; the others
// point at the spec's table.
std::string computes(std::string_view type) {
  if (type == "Linear") return "y = x @ weight + bias; weight is (in, out), x is (..., in)";
  if (type == "Conv2d") {
    return "y[n, o, i, j] = bias[o] + sum over c, u, v of weight[o, c, u, v] * "
           "xp[n, c, i*stride + u, j*stride + v], xp = x zero-padded by padding on each side "
           "of H and W (cross-correlation, as PyTorch's Conv2d)";
  }
  if (type == "ReLU") return "y = maximum(x, 0)";
  if (type == "MaxPool2d") {
    return "y[n, c, i, j] = max of x[n, c, i*stride : i*stride + kernel, j*stride : j*stride "
           "+ kernel], no padding";
  }
  if (type == "Flatten") return "y = x.reshape(len(x), -1) (C order)";
  if (type == "Softmax") return "y = exp(x - max) / sum(exp(x - max)) over the last axis";
  if (type == "Sigmoid") return "y = 1 / (1 + exp(-x))";
  return "see docs/MODEL_SPEC.md's table of layer types";
}

}  // namespace

std::vector<std::uint8_t> npy_bytes(const void* data, std::size_t bytes, const Shape& dims,
                                    const std::string& descr) {
  std::string shape = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) shape += (i ? ", " : "") + std::to_string(dims[i]);
  shape += dims.size() == 1 ? ",)" : ")";
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // magic (6) + version (2) + header length (2) + header + '\n', a multiple of 64.
  const std::size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::vector<std::uint8_t> out(10 + header.size() + bytes);
  std::memcpy(out.data(), "\x93NUMPY", 6);
  out[6] = 1;  // format version 1.0: the header length is a u16
  out[7] = 0;
  out[8] = static_cast<std::uint8_t>(header.size() & 0xff);
  out[9] = static_cast<std::uint8_t>(header.size() >> 8);
  std::memcpy(out.data() + 10, header.data(), header.size());
  if (bytes > 0) std::memcpy(out.data() + 10 + header.size(), data, bytes);
  return out;
}

std::vector<std::uint8_t> npy_bytes(const Tensor& t) {
  return npy_bytes(t.data(), t.bytes(), t.shape(), "<f4");
}

NpyExport export_npy(Model& model, const Preprocessing& preprocessing) {
  preprocessing.validate();
  NpyExport out;
  json layers = json::array();
  for (std::size_t i = 0; i < model.size(); ++i) {
    Layer& layer = model.layer(i);
    json entry = layer_to_json(layer);
    entry["index"] = i;
    entry["computes"] = computes(layer.type());
    json params = json::object();
    for (const auto& p : layer.parameters()) {
      const std::string file = std::to_string(i) + "." + p.name + ".npy";
      params[p.name] = {{"file", file}, {"shape", p.value->shape()}, {"dtype", "<f4"}};
      out.files.push_back({file, npy_bytes(*p.value)});
    }
    entry["parameters"] = std::move(params);
    layers.push_back(std::move(entry));
  }
  json pre = to_json(preprocessing);
  pre["formula"] = "x = (pixel * scale - mean) / std, pixel the stored 0..255 value";
  const Shape& input = model.input_shape();
  out.manifest = {{"format", "perflab-npy-export"},
                  {"version", 1},
                  {"model", model.name()},
                  {"input", Shape(input.begin() + 1, input.end())},
                  {"preprocessing", std::move(pre)},
                  {"layers", std::move(layers)}};
  return out;
}

NpyExport export_npy(ModelFile& file) {
  NpyExport out = export_npy(file.model, file.preprocessing);
  if (!file.quantization) return out;
  for (const QuantizedLinear& l : file.quantization->layers) {
    const Int8Weights& w = l.weights;
    std::vector<std::int8_t> codes(w.out * w.in);
    for (std::size_t n = 0; n < w.out; ++n) {
      std::copy_n(w.code.data() + n * w.stride, w.in, codes.data() + n * w.in);
    }
    const std::string stem = std::to_string(l.layer) + ".";
    json& entry = out.manifest["layers"][l.layer];
    const auto add = [&](const std::string& name, std::vector<std::uint8_t> bytes, Shape shape,
                         const char* descr) {
      entry["parameters"][name] = {{"file", stem + name + ".npy"}, {"shape", shape}, {"dtype", descr}};
      out.files.push_back({stem + name + ".npy", std::move(bytes)});
    };
    add("weight_int8", npy_bytes(codes.data(), codes.size(), {w.out, w.in}, "|i1"), {w.out, w.in}, "|i1");
    add("weight_scale", npy_bytes(w.scale.data(), 4 * w.out, {w.out}, "<f4"), {w.out}, "<f4");
    add("input_scale", npy_bytes(&l.input.scale, 4, {1}, "<f4"), {1}, "<f4");
    add("input_zero_point", npy_bytes(&l.input.zero_point, 4, {1}, "<i4"), {1}, "<i4");
    entry["quantized"] = {
        {"computes",
         "q = clip(rint(x / input_scale) + input_zero_point, 0, 255) (x in float32, rint to "
         "nearest even); acc = (q - input_zero_point) @ weight_int8.T in int32; y = float32(acc) "
         "* (input_scale * weight_scale) + bias, in float32; weight (float32) is weight_int8.T "
         "* weight_scale, for a float forward"}};
  }
  out.manifest["quantization"] = to_json(*file.quantization);
  return out;
}

}  // namespace perflab
