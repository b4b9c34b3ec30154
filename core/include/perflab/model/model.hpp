// Sequential models and the JSON model spec shared by the page, the CLI and tests
// (docs/MODEL_SPEC.md): {"name", "input": [batch, ...], "seed"?, "layers": [{"type", ...}]}.
// Parsing is strict (errors name layers[i].field, the value and what is allowed) and shapes
// are checked to chain when the Model is built, before anything runs.
// Not for: profiling (the profiler measures a Model), optimizers or branching graphs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/model/layers.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// The spec's layer types, in docs/MODEL_SPEC.md's order: Linear, Conv2d, ReLU, GELU, Sigmoid, Softmax,
// LayerNorm, MaxPool2d, Flatten, MultiHeadAttention, TransformerBlock.
const std::vector<std::string>& layer_types();

// What each layer type takes, from the table the parser checks specs against, in
// layer_types()' order: [{type, fields: [{name, kind ("positive integer", "non-negative
// integer", "true or false", "positive number"), default (its text, e.g. "true" or "kernel";
// null when required)}], takes ("in, out, bias [true]", as the parser's errors say it)}].
nlohmann::json layer_type_reference();

// Size fields of a spec (in, out, kernel, input dimensions, ...) are at most this.
inline constexpr std::size_t kMaxSpecDimension = std::size_t{1} << 24;
// The most layers a spec may list: the zoo's models have at most a few dozen (a block counts
// as one), and profiling 1,000 ReLU layers took 36 s in wasm, 10,000 over 300 s.
inline constexpr std::size_t kMaxModelLayers = 256;
// The most dimensions an input shape may have: an image batch (N, C, H, W) has 4, a sequence
// batch (B, T, D) 3.
inline constexpr std::size_t kMaxInputRank = 6;

class Model {
 public:
  // Takes the layers, numbers them ("Linear #2" in errors), checks that the shapes chain
  // from input_shape (ShapeError from the first layer that does not fit, naming the spec
  // field to change: "layers[2].in is 256 but the previous layer gives 300 features; set
  // layers[2].in to 300") and re-initialises layer i's parameters
  // from derive(seed, i), so parameters depend on (layers, seed) only.
  // ValueError for an empty input shape or a null layer.
  Model(std::string name, Shape input_shape, std::vector<std::unique_ptr<Layer>> layers,
        std::uint64_t seed = 0);
  Model(Model&&) noexcept = default;
  Model& operator=(Model&&) noexcept = default;

  const std::string& name() const { return name_; }
  std::uint64_t seed() const { return seed_; }
  const Shape& input_shape() const { return input_shape_; }  // the spec's, batch first
  std::size_t batch_size() const { return input_shape_[0]; }

  std::size_t size() const { return layers_.size(); }
  // ValueError when i is out of range.
  Layer& layer(std::size_t i);
  const Layer& layer(std::size_t i) const;
  // Shapes at the spec's batch size: layer i reads layer_input_shape(i) and writes
  // output_shapes()[i]; output_shape() is the model's (the input when there are no layers).
  const Shape& layer_input_shape(std::size_t i) const;
  const std::vector<Shape>& output_shapes() const { return output_shapes_; }
  const Shape& output_shape() const;

  std::size_t parameter_count() const;
  std::size_t parameter_bytes() const { return parameter_count() * sizeof(float); }
  // FLOPs by the convention of layers.hpp; per batch = per sample × batch_size().
  FlopCounts layer_flops_per_sample(std::size_t i) const;
  FlopCounts flops_per_sample() const;
  FlopCounts flops_per_batch() const;
  // The training backward's (backward_parameters): layer 0 without its input gradient.
  FlopCounts layer_backward_flops_per_sample(std::size_t i) const;
  FlopCounts backward_flops_per_sample() const;
  // What backward adds to backward_parameters: layer 0's input gradient.
  FlopCounts input_grad_flops_per_sample() const;
  // Bytes of layer i's output at the spec's batch; the model's is the sum over layers.
  std::size_t layer_activation_bytes(std::size_t i) const;
  std::size_t activation_bytes() const;

  // x: the spec's input shape with any batch size (ShapeError otherwise). Layers keep
  // caches for backward unless set_keep_for_backward(false).
  Tensor forward(const Tensor& x);
  // forward's refusal of an input of another shape (ShapeError), for callers that run the
  // layers one by one.
  void check_input(const Tensor& x) const;
  // dout: the shape of the last forward's output. Returns dinput; accumulates gradients.
  // For gradient checks and callers that need dinput; training uses backward_parameters.
  Tensor backward(const Tensor& dout);
  // The training step's backward: accumulates every parameter gradient and computes no
  // input gradient for layer 0, as nothing upstream reads it (Layer::set_input_grad).
  // backward_flops_per_sample counts this pass.
  void backward_parameters(const Tensor& dout);
  void zero_grad();
  // Names prefixed with the layer index: "0.weight", "3.attn.q.bias".
  std::vector<ParameterRef> parameters();
  void set_keep_for_backward(bool keep);
  // Layer i from derive(seed, i), by the scheme (layers.hpp's Init); the spec's seed uses
  // Init::Uniform, training usually He (TrainRecipe::init, train/train.hpp).
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform);

 private:
  std::string name_;
  Shape input_shape_;
  std::vector<std::unique_ptr<Layer>> layers_;
  std::vector<Shape> output_shapes_;
  std::uint64_t seed_;
};

// Turns a model's caches off for a scope (inference: evaluation, a quantized forward) and
// puts its keep_for_backward setting back when the scope ends, thrown or not.
class InferenceScope {
 public:
  explicit InferenceScope(Model& m)
      : model_(m), keep_(m.size() > 0 && m.layer(0).keep_for_backward()) {
    model_.set_keep_for_backward(false);
  }
  ~InferenceScope() { model_.set_keep_for_backward(keep_); }
  InferenceScope(const InferenceScope&) = delete;
  InferenceScope& operator=(const InferenceScope&) = delete;

 private:
  Model& model_;
  bool keep_;
};

// The name of a spec without "name" (docs/MODEL_SPEC.md).
inline constexpr const char* kDefaultModelName = "model";
// A spec's name as model_from_json reads it: its "name" when that is a string, else
// kDefaultModelName (a spec whose "name" is not a string is refused by model_from_json).
std::string spec_name(const nlohmann::json& spec);

// Builds a Model from a parsed spec. ValueError for a malformed spec, naming the field:
//   layers[3].type "Dense" is not a known layer type; known types: Linear, Conv2d, ...
//   layers[0].out is missing; Linear takes in, out, bias [true]
//   layers[2].out must be a positive integer, got "ten"
//   layers[1].size is not a field of ReLU; ReLU takes no fields besides type
// ShapeError when the shapes do not chain, in the same form ("layers[2].in is 256 but the
// previous layer gives 300 features; set layers[2].in to 300"); the index is the position
// in "layers", counted from 0.
Model model_from_json(const nlohmann::json& spec);
// A spec's JSON text as JSON (the CLI's files, the page's editor), parsed once. ValueError
// "model spec is not valid JSON: parse error at line 3, column 5: ..." for text that is not
// JSON; the spec itself is checked when a Model is built from it.
nlohmann::json spec_from_text(std::string_view text);
// model_from_json(spec_from_text(text)).
Model model_from_json_text(std::string_view text);
// The canonical spec: every field written out, defaults included; parses back to an
// identical model.
nlohmann::json model_to_json(const Model& model);
// One layer's entry of the spec: {"type": "Linear", "in": 784, "out": 256, "bias": true}.
nlohmann::json layer_to_json(const Layer& layer);

}  // namespace perflab
