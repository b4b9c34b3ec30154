// The Sequential Model and the JSON spec: one schema table lists every layer type's fields
// (kind, default), and both the strict parser and the writer use it, so they cannot drift.
// Not for: layer arithmetic (layers*.cpp) or measuring (the profiler).
#include "perflab/model/model.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <utility>

#include "layers_detail.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/base/format.hpp"

namespace perflab {
namespace {

using nlohmann::json;

enum class Kind { PositiveInt, NonNegativeInt, Bool, PositiveNumber };

struct Field {
  const char* name;
  Kind kind;
  const char* default_text;  // nullptr: required; else how the default reads ("true", "kernel")
};

// A validated layer object: accessors return the value or the default.
class Fields {
 public:
  explicit Fields(const json& j) : j_(j) {}
  std::size_t size(const char* name) const { return j_.at(name).get<std::size_t>(); }
  std::size_t size_or(const char* name, std::size_t fallback) const {
    return j_.contains(name) ? size(name) : fallback;
  }
  bool flag_or(const char* name, bool fallback) const {
    return j_.contains(name) ? j_.at(name).get<bool>() : fallback;
  }
  double number_or(const char* name, double fallback) const {
    return j_.contains(name) ? j_.at(name).get<double>() : fallback;
  }

 private:
  const json& j_;
};

struct TypeSpec {
  const char* type;
  std::vector<Field> fields;
  // Checks that need two fields (heads divides d_model); returns "" or the message after
  // "layers[i].<field> ", with the field name as the first word.
  std::function<std::string(const Fields&)> check;
  std::function<std::unique_ptr<Layer>(const Fields&)> make;
  std::function<json(const Layer&)> write;  // the fields after "type"
};

template <class L>
const L& as(const Layer& layer) {
  return dynamic_cast<const L&>(layer);
}

std::string heads_divide(const Fields& f) {
  const std::size_t d = f.size("d_model"), h = f.size("heads");
  if (d % h == 0) return "";
  return "heads must divide d_model (" + std::to_string(d) + "), got " + std::to_string(h);
}

const std::vector<TypeSpec>& type_specs() {
  using K = Kind;
  static const std::vector<TypeSpec> specs = {
      {"Linear",
       {{"in", K::PositiveInt, nullptr},
        {"out", K::PositiveInt, nullptr},
        {"bias", K::Bool, "true"}},
       nullptr,
       [](const Fields& f) {
         return std::make_unique<Linear>(f.size("in"), f.size("out"), f.flag_or("bias", true));
       },
       [](const Layer& l) {
         const auto& x = as<Linear>(l);
         return json{{"in", x.in_features()}, {"out", x.out_features()}, {"bias", x.has_bias()}};
       }},
      {"Conv2d",
       {{"in_channels", K::PositiveInt, nullptr},
        {"out_channels", K::PositiveInt, nullptr},
        {"kernel", K::PositiveInt, nullptr},
        {"stride", K::PositiveInt, "1"},
        {"padding", K::NonNegativeInt, "0"},
        {"bias", K::Bool, "true"}},
       nullptr,
       [](const Fields& f) {
         return std::make_unique<Conv2d>(f.size("in_channels"), f.size("out_channels"),
                                         f.size("kernel"), f.size_or("stride", 1),
                                         f.size_or("padding", 0), f.flag_or("bias", true));
       },
       [](const Layer& l) {
         const auto& x = as<Conv2d>(l);
         return json{{"in_channels", x.in_channels()}, {"out_channels", x.out_channels()},
                     {"kernel", x.kernel()},           {"stride", x.stride()},
                     {"padding", x.padding()},         {"bias", x.has_bias()}};
       }},
      {"ReLU",
       {},
       nullptr,
       [](const Fields&) { return std::make_unique<ReLU>(); },
       [](const Layer&) { return json::object(); }},
      {"GELU",
       {},
       nullptr,
       [](const Fields&) { return std::make_unique<GELU>(); },
       [](const Layer&) { return json::object(); }},
      {"Sigmoid",
       {},
       nullptr,
       [](const Fields&) { return std::make_unique<Sigmoid>(); },
       [](const Layer&) { return json::object(); }},
      {"Softmax",
       {},
       nullptr,
       [](const Fields&) { return std::make_unique<Softmax>(); },
       [](const Layer&) { return json::object(); }},
      {"LayerNorm",
       {{"features", K::PositiveInt, nullptr}, {"eps", K::PositiveNumber, "1e-5"}},
       nullptr,
       [](const Fields& f) {
         return std::make_unique<LayerNorm>(f.size("features"), f.number_or("eps", 1e-5));
       },
       [](const Layer& l) {
         const auto& x = as<LayerNorm>(l);
         return json{{"features", x.features()}, {"eps", x.eps()}};
       }},
      {"MaxPool2d",
       {{"kernel", K::PositiveInt, nullptr}, {"stride", K::PositiveInt, "kernel"}},
       nullptr,
       [](const Fields& f) {
         const std::size_t k = f.size("kernel");
         return std::make_unique<MaxPool2d>(k, f.size_or("stride", k));
       },
       [](const Layer& l) {
         const auto& x = as<MaxPool2d>(l);
         return json{{"kernel", x.kernel()}, {"stride", x.stride()}};
       }},
      {"Flatten",
       {},
       nullptr,
       [](const Fields&) { return std::make_unique<Flatten>(); },
       [](const Layer&) { return json::object(); }},
      {"MultiHeadAttention",
       {{"d_model", K::PositiveInt, nullptr}, {"heads", K::PositiveInt, nullptr}},
       heads_divide,
       [](const Fields& f) {
         return std::make_unique<MultiHeadAttention>(f.size("d_model"), f.size("heads"));
       },
       [](const Layer& l) {
         const auto& x = as<MultiHeadAttention>(l);
         return json{{"d_model", x.d_model()}, {"heads", x.heads()}};
       }},
      {"TransformerBlock",
       {{"d_model", K::PositiveInt, nullptr},
        {"heads", K::PositiveInt, nullptr},
        {"d_ff", K::PositiveInt, nullptr}},
       heads_divide,
       [](const Fields& f) {
         return std::make_unique<TransformerBlock>(f.size("d_model"), f.size("heads"),
                                                   f.size("d_ff"));
       },
       [](const Layer& l) {
         const auto& x = as<TransformerBlock>(l);
         return json{{"d_model", x.d_model()}, {"heads", x.heads()}, {"d_ff", x.d_ff()}};
       }},
  };
  return specs;
}

std::string joined_types() {
  std::string text;
  for (const auto& t : type_specs()) text += (text.empty() ? "" : ", ") + std::string(t.type);
  return text;
}

// "in, out, bias [true]" or "no fields besides type".
std::string field_list(const TypeSpec& t) {
  if (t.fields.empty()) return "no fields besides type";
  std::string text;
  for (const Field& f : t.fields) {
    text += (text.empty() ? "" : ", ") + std::string(f.name);
    if (f.default_text != nullptr) text += " [" + std::string(f.default_text) + "]";
  }
  return text;
}

// Validates one value against its kind; returns "" or the message after "<where> ".
std::string check_value(const json& v, Kind kind) {
  switch (kind) {
    case Kind::PositiveInt:
    case Kind::NonNegativeInt: {
      const bool positive = kind == Kind::PositiveInt;
      const char* what = positive ? "must be a positive integer" : "must be a non-negative integer";
      if (!v.is_number_integer()) return std::string(what) + ", got " + describe(v);
      if (v.is_number_unsigned()) {
        const auto n = v.get<std::uint64_t>();
        if (positive && n == 0) return std::string(what) + ", got 0";
        if (n > kMaxSpecDimension) {
          return "must be at most " + std::to_string(kMaxSpecDimension) + ", got " + describe(v);
        }
        return "";
      }
      const auto n = v.get<std::int64_t>();
      if (n < 0 || (positive && n == 0)) return std::string(what) + ", got " + describe(v);
      if (static_cast<std::uint64_t>(n) > kMaxSpecDimension) {
        return "must be at most " + std::to_string(kMaxSpecDimension) + ", got " + describe(v);
      }
      return "";
    }
    case Kind::Bool:
      return v.is_boolean() ? "" : "must be true or false, got " + describe(v);
    case Kind::PositiveNumber:
      if (v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0.0) return "";
      return "must be a positive number, got " + describe(v);
  }
  return "";
}

std::unique_ptr<Layer> parse_layer(const json& j, std::size_t index) {
  const std::string where = "layers[" + std::to_string(index) + "]";
  if (!j.is_object()) {
    throw ValueError(where + " must be an object like {\"type\": \"ReLU\"}, got " + describe(j));
  }
  if (!j.contains("type")) {
    throw ValueError(where + ".type is missing; known types: " + joined_types());
  }
  const json& type = j.at("type");
  if (!type.is_string()) {
    throw ValueError(where + ".type must be a string, one of " + joined_types() + ", got " +
                     describe(type));
  }
  const auto& specs = type_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(), [&](const TypeSpec& t) {
    return type.get<std::string>() == t.type;
  });
  if (spec == specs.end()) {
    throw ValueError(where + ".type " + describe(type) +
                     " is not a known layer type; known types: " + joined_types());
  }
  const std::string takes = std::string(spec->type) + " takes " + field_list(*spec);
  for (const auto& item : j.items()) {
    const std::string& key = item.key();  // not a structured binding: lambdas capture it
    if (key == "type") continue;
    const bool known = std::any_of(spec->fields.begin(), spec->fields.end(),
                                   [&](const Field& f) { return key == f.name; });
    if (!known) {
      throw ValueError(where + "." + key + " is not a field of " + spec->type + "; " + takes);
    }
  }
  for (const Field& f : spec->fields) {
    if (!j.contains(f.name)) {
      if (f.default_text == nullptr) {
        throw ValueError(where + "." + f.name + " is missing; " + takes);
      }
      continue;
    }
    const std::string problem = check_value(j.at(f.name), f.kind);
    if (!problem.empty()) throw ValueError(where + "." + f.name + " " + problem);
  }
  const Fields fields(j);
  if (spec->check) {
    const std::string problem = spec->check(fields);
    if (!problem.empty()) throw ValueError(where + "." + problem);
  }
  return spec->make(fields);
}

Shape parse_input(const json& spec) {
  if (!spec.contains("input")) {
    throw ValueError("input is missing; give the input shape with the batch first, e.g. [64, 784]");
  }
  const json& input = spec.at("input");
  if (!input.is_array() || input.empty()) {
    throw ValueError("input must be a non-empty array of positive integers (batch first), got " +
                     describe(input));
  }
  if (input.size() > kMaxInputRank) {
    throw ValueError("input has " + std::to_string(input.size()) + " dimensions; at most " +
                     std::to_string(kMaxInputRank) +
                     " are allowed (batch first, e.g. [N, C, H, W] or [B, T, D])");
  }
  Shape shape;
  for (std::size_t i = 0; i < input.size(); ++i) {
    const std::string problem = check_value(input[i], Kind::PositiveInt);
    if (!problem.empty()) throw ValueError("input[" + std::to_string(i) + "] " + problem);
    shape.push_back(input[i].get<std::size_t>());
  }
  shape_numel(shape);  // ValueError if the element count does not fit this build
  return shape;
}

const char* kind_text(Kind kind) {
  switch (kind) {
    case Kind::PositiveInt: return "positive integer";
    case Kind::NonNegativeInt: return "non-negative integer";
    case Kind::Bool: return "true or false";
    case Kind::PositiveNumber: return "positive number";
  }
  return "";
}

}  // namespace

nlohmann::json layer_type_reference() {
  json out = json::array();
  for (const TypeSpec& t : type_specs()) {
    json fields = json::array();
    for (const Field& f : t.fields) {
      fields.push_back({{"name", f.name},
                        {"kind", kind_text(f.kind)},
                        {"default", f.default_text == nullptr ? json(nullptr) : json(f.default_text)}});
    }
    out.push_back({{"type", t.type}, {"fields", std::move(fields)}, {"takes", field_list(t)}});
  }
  return out;
}

const std::vector<std::string>& layer_types() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& t : type_specs()) v.emplace_back(t.type);
    return v;
  }();
  return names;
}

// ---------------------------------------------------------------------------------------
// Model

Model::Model(std::string name, Shape input_shape, std::vector<std::unique_ptr<Layer>> layers,
             std::uint64_t seed)
    : name_(std::move(name)),
      input_shape_(std::move(input_shape)),
      layers_(std::move(layers)),
      seed_(seed) {
  if (input_shape_.empty()) {
    throw ValueError("model " + name_ + ": the input shape must have at least the batch dimension");
  }
  Shape shape = input_shape_;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    if (!layers_[i])
      throw ValueError("model " + name_ + ": layer " + std::to_string(i) + " is null");
    layers_[i]->set_index(i);
    shape = layers_[i]->output_shape(shape);
    output_shapes_.push_back(shape);
  }
  reset_parameters(seed_);
}

Layer& Model::layer(std::size_t i) {
  return const_cast<Layer&>(static_cast<const Model&>(*this).layer(i));
}

const Layer& Model::layer(std::size_t i) const {
  if (i >= layers_.size()) {
    throw ValueError("model " + name_ + " has " + std::to_string(layers_.size()) +
                     " layers; index " + std::to_string(i) + " is out of range");
  }
  return *layers_[i];
}

const Shape& Model::layer_input_shape(std::size_t i) const {
  layer(i);  // range check
  return i == 0 ? input_shape_ : output_shapes_[i - 1];
}

const Shape& Model::output_shape() const {
  return output_shapes_.empty() ? input_shape_ : output_shapes_.back();
}

std::size_t Model::parameter_count() const {
  std::size_t n = 0;
  for (const auto& l : layers_) n += l->parameter_count();
  return n;
}

FlopCounts Model::layer_flops_per_sample(std::size_t i) const {
  return layer(i).flops_per_sample(layer_input_shape(i));
}

FlopCounts Model::flops_per_sample() const {
  FlopCounts f;
  for (std::size_t i = 0; i < layers_.size(); ++i) f += layer_flops_per_sample(i);
  return f;
}

FlopCounts Model::flops_per_batch() const {
  return flops_per_sample() * static_cast<double>(batch_size());
}

FlopCounts Model::layer_backward_flops_per_sample(std::size_t i) const {
  return layer(i).backward_flops_for(layer_input_shape(i), i != 0);
}

FlopCounts Model::backward_flops_per_sample() const {
  FlopCounts f;
  for (std::size_t i = 0; i < layers_.size(); ++i) f += layer_backward_flops_per_sample(i);
  return f;
}

FlopCounts Model::input_grad_flops_per_sample() const {
  if (layers_.empty()) return {};
  return layers_[0]->input_grad_flops_per_sample(layer_input_shape(0));
}

std::size_t Model::layer_activation_bytes(std::size_t i) const {
  return layer(i).activation_bytes(layer_input_shape(i));
}

std::size_t Model::activation_bytes() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < layers_.size(); ++i) n += layer_activation_bytes(i);
  return n;
}

Tensor Model::forward(const Tensor& x) {
  check_input(x);
  if (layers_.empty()) return x;
  Tensor h = layers_[0]->forward(x);
  for (std::size_t i = 1; i < layers_.size(); ++i) h = layers_[i]->forward(h);
  return h;
}

void Model::check_input(const Tensor& x) const {
  const Shape& s = x.shape();
  if (s.size() != input_shape_.size() ||
      !std::equal(s.begin() + 1, s.end(), input_shape_.begin() + 1)) {
    std::string expected = "(N";
    for (std::size_t i = 1; i < input_shape_.size(); ++i) {
      expected += ", " + std::to_string(input_shape_[i]);
    }
    throw ShapeError("model " + name_ + ": input has shape " + shape_to_string(s) + ", expected " +
                     expected + ") for any batch size N");
  }
}

Tensor Model::backward(const Tensor& dout) {
  if (layers_.empty()) return dout;
  Tensor d = layers_.back()->backward(dout);
  for (std::size_t i = layers_.size() - 1; i-- > 0;) d = layers_[i]->backward(d);
  return d;
}

void Model::backward_parameters(const Tensor& dout) {
  if (layers_.empty()) return;
  Layer& first = *layers_[0];
  // Restore the flag even when a layer throws, so that backward keeps returning dinput.
  struct InputGradOff {
    Layer& layer;
    explicit InputGradOff(Layer& l) : layer(l) { layer.set_input_grad(false); }
    ~InputGradOff() { layer.set_input_grad(true); }
    InputGradOff(const InputGradOff&) = delete;
    InputGradOff& operator=(const InputGradOff&) = delete;
  } off(first);
  if (layers_.size() == 1) {
    first.backward(dout);
    return;
  }
  Tensor d = layers_.back()->backward(dout);
  for (std::size_t i = layers_.size() - 1; i-- > 1;) d = layers_[i]->backward(d);
  first.backward(d);
}

void Model::zero_grad() {
  for (auto& l : layers_) l->zero_grad();
}

std::vector<ParameterRef> Model::parameters() {
  std::vector<ParameterRef> refs;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    for (ParameterRef& p : layers_[i]->parameters()) {
      p.name = std::to_string(i) + "." + p.name;
      refs.push_back(std::move(p));
    }
  }
  return refs;
}

void Model::set_keep_for_backward(bool keep) {
  for (auto& l : layers_) l->set_keep_for_backward(keep);
}

void Model::reset_parameters(std::uint64_t seed, Init init) {
  seed_ = seed;
  for (std::size_t i = 0; i < layers_.size(); ++i) {
    layers_[i]->reset_parameters(detail::derive_seed(seed, i), init);
  }
}

// ---------------------------------------------------------------------------------------
// JSON

std::string spec_name(const json& spec) {
  const auto it = spec.is_object() ? spec.find("name") : spec.end();
  return it != spec.end() && it->is_string() ? it->get<std::string>() : kDefaultModelName;
}

Model model_from_json(const json& spec) {
  if (!spec.is_object()) {
    throw ValueError(
        "a model spec must be a JSON object like {\"name\": \"mlp\", \"input\": [64, 784], "
        "\"layers\": [...]}, got " +
        describe(spec));
  }
  for (const auto& item : spec.items()) {
    const std::string& key = item.key();
    if (key != "name" && key != "input" && key != "layers" && key != "seed") {
      throw ValueError(key +
                       " is not a field of a model spec; allowed: name, input, layers, "
                       "seed [0]");
    }
  }
  if (spec.contains("name") && !spec.at("name").is_string()) {
    throw ValueError("name must be a string, got " + describe(spec.at("name")));
  }
  std::string name = spec_name(spec);
  std::uint64_t seed = 0;
  if (spec.contains("seed")) {
    const json& s = spec.at("seed");
    if (!s.is_number_integer() || (!s.is_number_unsigned() && s.get<std::int64_t>() < 0)) {
      throw ValueError("seed must be a non-negative integer, got " + describe(s));
    }
    seed = s.get<std::uint64_t>();
  }
  Shape input = parse_input(spec);
  if (!spec.contains("layers")) {
    throw ValueError(
        "layers is missing; give an array of layers like [{\"type\": \"Linear\", \"in\": 784, "
        "\"out\": 10}]");
  }
  const json& layers = spec.at("layers");
  if (!layers.is_array() || layers.empty()) {
    throw ValueError("layers must be a non-empty array of layer objects, got " + describe(layers));
  }
  if (layers.size() > kMaxModelLayers) {
    throw ValueError("layers has " + std::to_string(layers.size()) + " entries; at most " +
                     std::to_string(kMaxModelLayers) +
                     " are allowed (a TransformerBlock counts as one: use blocks for depth)");
  }
  // Every entry is parsed before any shape is checked, so a typo anywhere is reported as a
  // typo rather than as the shape error it may cause.
  std::vector<std::unique_ptr<Layer>> parsed;
  for (std::size_t i = 0; i < layers.size(); ++i) parsed.push_back(parse_layer(layers[i], i));
  return Model(std::move(name), std::move(input), std::move(parsed), seed);
}

json spec_from_text(std::string_view text) { return parse_json_text(text, "model spec"); }

Model model_from_json_text(std::string_view text) { return model_from_json(spec_from_text(text)); }

json layer_to_json(const Layer& layer) {
  const auto& specs = type_specs();
  const auto spec = std::find_if(specs.begin(), specs.end(),
                                 [&](const TypeSpec& t) { return layer.type() == t.type; });
  if (spec == specs.end()) {
    throw ValueError("layer type " + std::string(layer.type()) +
                     " has no spec form; known types: " + joined_types());
  }
  json j = spec->write(layer);
  j["type"] = spec->type;
  return j;
}

json model_to_json(const Model& model) {
  json layers = json::array();
  for (std::size_t i = 0; i < model.size(); ++i) layers.push_back(layer_to_json(model.layer(i)));
  return {{"name", model.name()},
          {"input", model.input_shape()},
          {"seed", model.seed()},
          {"layers", std::move(layers)}};
}

}  // namespace perflab
