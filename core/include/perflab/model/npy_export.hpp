// A model's weights in NumPy's own .npy format (version 1.0: a short text header, then the
// raw little-endian data) with a manifest.json, so anyone can recompute the model's outputs
// without perflab (`perflab export MODEL --npy DIR`; docs/MODEL_FILE.md shows the NumPy
// forward pass). Bytes and JSON only: the CLI writes the files.
// A quantized model file exports each quantized Linear's int8 codes and scales besides.
// Not for: reading .npy back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// One tensor as a .npy file: magic "\x93NUMPY", version 1.0, a header
// "{'descr': '<f4', 'fortran_order': False, 'shape': (784, 256), }" padded with spaces and a
// newline so the data starts at a multiple of 64 bytes (as NumPy writes it), then the values
// in C order. A 1-D shape is written "(10,)".
std::vector<std::uint8_t> npy_bytes(const Tensor& t);
// Any C-order array: descr "<f4" (float32), "|i1" (int8) or "<i4" (int32), as NumPy names them.
std::vector<std::uint8_t> npy_bytes(const void* data, std::size_t bytes, const Shape& shape,
                                    const std::string& descr);

struct NpyFile {
  std::string name;  // "0.weight.npy": the model's parameter name (Model::parameters) + .npy
  std::vector<std::uint8_t> bytes;
};

struct NpyExport {
  std::vector<NpyFile> files;  // one per parameter tensor, in Model::parameters() order
  // {"format": "perflab-npy-export", "version": 1, "model": name, "input": [1, 28, 28] (one
  //  sample's shape), "preprocessing": {"scale", "mean", "std", "formula"},
  //  "layers": [{"index", "type", the spec's fields (in, out, kernel, ...), "computes",
  //              "parameters": {"weight": {"file", "shape", "dtype"}, "bias": {...}}}]}
  nlohmann::json manifest;
};

// Every parameter of the model and the manifest. ValueError from Preprocessing::validate.
NpyExport export_npy(Model& model, const Preprocessing& preprocessing);
// The file's model; a quantized Linear's layer entry also holds "quantized": {"computes", the
// formula} and its parameters weight_int8 (out, in) |i1, weight_scale (out) <f4, input_scale
// (1) <f4 and input_zero_point (1) <i4 beside the float weight (codes × scales) and bias.
NpyExport export_npy(ModelFile& file);

}  // namespace perflab
