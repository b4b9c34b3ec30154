// Protects the model spec and the Sequential Model: the course's MLP, small CNN and
// transformer block build from JSON with the hand-computed shapes, parameter and FLOP
// counts and run forward and backward; a model's gradients match finite differences; every
// kind of spec error (JSON syntax, unknown type, missing/unknown field, wrong type, shapes
// that do not chain) has its full message; the canonical spec round-trips.
#include <doctest/doctest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gradient_check.hpp"
#include "perflab/base/error.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/tensor/tensor.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

const char* const kKnownTypes =
    "Linear, Conv2d, ReLU, GELU, Sigmoid, Softmax, LayerNorm, MaxPool2d, Flatten, "
    "MultiHeadAttention, TransformerBlock";

json mlp_spec() {
  return json::parse(R"({
    "name": "mlp", "input": [64, 784],
    "layers": [{"type": "Linear", "in": 784, "out": 256}, {"type": "ReLU"},
               {"type": "Linear", "in": 256, "out": 128}, {"type": "ReLU"},
               {"type": "Linear", "in": 128, "out": 10}]})");
}

json cnn_spec() {
  return json::parse(R"({
    "name": "small-cnn", "input": [4, 1, 28, 28],
    "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 8, "kernel": 3, "padding": 1},
               {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
               {"type": "Conv2d", "in_channels": 8, "out_channels": 16, "kernel": 3, "padding": 1},
               {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
               {"type": "Flatten"}, {"type": "Linear", "in": 784, "out": 10},
               {"type": "Softmax"}]})");
}

// A spec with one layer entry, for the field errors.
json one_layer(const json& layer, json input = json::array({2, 8})) {
  return {{"name", "t"}, {"input", std::move(input)}, {"layers", json::array({layer})}};
}

std::string error_of(const json& spec) {
  try {
    model_from_json(spec);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("the MLP 784-256-128-10 builds from its spec with chained shapes and counts") {
  Model m = model_from_json(mlp_spec());
  CHECK(m.name() == "mlp");
  CHECK(m.input_shape() == Shape{64, 784});
  CHECK(m.batch_size() == 64);
  REQUIRE(m.size() == 5);
  CHECK(m.layer(0).label() == "Linear #0");
  CHECK(m.layer(4).label() == "Linear #4");
  CHECK(m.output_shapes() ==
        std::vector<Shape>{{64, 256}, {64, 256}, {64, 128}, {64, 128}, {64, 10}});
  CHECK(m.output_shape() == Shape{64, 10});
  CHECK(m.layer_input_shape(2) == Shape{64, 256});

  // (784·256 + 256) + (256·128 + 128) + (128·10 + 10)
  CHECK(m.parameter_count() == 200960 + 32896 + 1290);
  CHECK(m.parameter_bytes() == 235146 * 4);
  CHECK(m.layer(0).parameter_count() == 200960);
  const FlopCounts f = m.flops_per_sample();
  CHECK(f.matmul == 2.0 * (784 * 256 + 256 * 128 + 128 * 10));
  CHECK(f.matmul == 469504);
  CHECK(f.bias == 256 + 128 + 10);
  CHECK(f.elementwise == 256 + 128);
  CHECK(m.flops_per_batch() == f * 64);
  CHECK(m.layer_flops_per_sample(2).matmul == 65536);
  // The training backward: every dweight (= f.matmul), dinput for Linear #2 and #4 only.
  CHECK(m.backward_flops_per_sample().matmul == f.matmul + 65536 + 2560);
  CHECK(m.input_grad_flops_per_sample().matmul == 2.0 * 784 * 256);
  CHECK(m.layer_activation_bytes(0) == 64 * 256 * 4);
  CHECK(m.activation_bytes() == 64 * (256 + 256 + 128 + 128 + 10) * 4);

  const Tensor y = m.forward(Tensor::random({64, 784}, 1));
  CHECK(y.shape() == Shape{64, 10});
  const Tensor dx = m.backward(Tensor::random({64, 10}, 2));
  CHECK(dx.shape() == Shape{64, 784});
  CHECK(m.parameters()[0].name == "0.weight");
  CHECK(m.parameters()[5].name == "4.bias");
}

TEST_CASE("the training backward computes no input gradient for the first layer") {
  SUBCASE("a single Linear: backward is dweight only, as many FLOPs as the forward") {
    std::vector<std::unique_ptr<Layer>> layers;
    layers.push_back(std::make_unique<Linear>(128, 64));
    Model m("one", {8, 128}, std::move(layers), 1);
    const FlopCounts f = m.flops_per_sample();
    CHECK(f.matmul == 2.0 * 128 * 64);  // 16,384
    const FlopCounts b = m.backward_flops_per_sample();
    CHECK(b.matmul == 16384);  // xᵀ · dout only
    CHECK(b.bias == 64);       // the dbias sums
    CHECK(b.elementwise == 0);
    CHECK(m.layer_backward_flops_per_sample(0) == b);
    CHECK(m.input_grad_flops_per_sample().matmul == 16384);  // what backward adds for dinput
  }
  SUBCASE("a 2-layer MLP: both dweights, one dinput") {
    std::vector<std::unique_ptr<Layer>> layers;
    layers.push_back(std::make_unique<Linear>(10, 6));
    layers.push_back(std::make_unique<ReLU>());
    layers.push_back(std::make_unique<Linear>(6, 3));
    Model m("two", {4, 10}, std::move(layers), 2);
    // dweight: 2·10·6 + 2·6·3 = 156; dinput of the second Linear 2·6·3 = 36; ReLU 1 per
    // element of (6); biases 6 + 3.
    const FlopCounts b = m.backward_flops_per_sample();
    CHECK(b.matmul == 156 + 36);
    CHECK(b.bias == 9);
    CHECK(b.elementwise == 6);
    CHECK(m.layer_backward_flops_per_sample(0).matmul == 120);
    CHECK(m.layer_backward_flops_per_sample(2).matmul == 72);

    // The gradients are those of the full backward, and the first layer returned no dinput.
    const Tensor x = Tensor::random({4, 10}, 3);
    const Tensor dout = Tensor::random({4, 3}, 4);
    m.forward(x);
    m.zero_grad();
    const Tensor dx = m.backward(dout);
    CHECK(dx.shape() == Shape{4, 10});
    std::vector<Tensor> full;
    for (const ParameterRef& p : m.parameters()) full.push_back(*p.grad);
    m.zero_grad();
    m.backward_parameters(dout);
    const std::vector<ParameterRef> params = m.parameters();
    REQUIRE(params.size() == full.size());
    for (std::size_t i = 0; i < params.size(); ++i) {
      CAPTURE(params[i].name);
      for (std::size_t k = 0; k < full[i].size(); ++k) CHECK((*params[i].grad)[k] == full[i][k]);
    }
    // The flag is restored: backward still returns dinput for gradient checks.
    CHECK(m.layer(0).input_grad());
    CHECK(m.backward(dout).shape() == Shape{4, 10});
  }
  SUBCASE("a layer with input_grad off returns an empty tensor where it skipped dinput") {
    Linear l(5, 2);
    l.forward(Tensor::random({3, 5}, 5));
    l.set_input_grad(false);
    CHECK(l.backward(Tensor::full({3, 2}, 1.0f)).size() == 0);
    CHECK(l.backward_flops_for({3, 5}, false).matmul == 2.0 * 5 * 2);
    ReLU r;
    r.forward(Tensor::random({3, 5}, 6));
    r.set_input_grad(false);
    CHECK(r.backward(Tensor::full({3, 5}, 1.0f)).size() == 0);
    CHECK(r.backward_flops_for({3, 5}, false) == FlopCounts{});
    for (const std::size_t kernel : {std::size_t{1}, std::size_t{3}}) {  // 1×1 path and im2col
      CAPTURE(kernel);
      Conv2d c(2, 3, kernel, 1, kernel / 2);
      c.forward(Tensor::random({2, 2, 5, 5}, 7));
      const Tensor dout = Tensor::random({2, 3, 5, 5}, 8);
      c.backward(dout);
      const Tensor dweight = *c.parameters()[0].grad, dbias = *c.parameters()[1].grad;
      c.zero_grad();
      c.set_input_grad(false);
      CHECK(c.backward(dout).size() == 0);
      for (std::size_t k = 0; k < dweight.size(); ++k) CHECK((*c.parameters()[0].grad)[k] == dweight[k]);
      for (std::size_t k = 0; k < dbias.size(); ++k) CHECK((*c.parameters()[1].grad)[k] == dbias[k]);
    }
    Conv2d c(2, 3, 3, 1, 1);
    // dweight only: 2·(2·9)·3 per output position; no col2im.
    CHECK(c.backward_flops_for({1, 2, 5, 5}, false) ==
          FlopCounts{2.0 * 18 * 3 * 25, 3.0 * 25, 0.0});
  }
}

TEST_CASE("a model runs at any batch size but checks the other input dimensions") {
  Model m = model_from_json(mlp_spec());
  CHECK(m.forward(Tensor::random({3, 784}, 1)).shape() == Shape{3, 10});
  CHECK_THROWS_WITH_AS(
      m.forward(Tensor({3, 100})),
      "model mlp: input has shape (3, 100), expected (N, 784) for any batch size N", ShapeError);
  CHECK_THROWS_WITH_AS(m.forward(Tensor({784})),
                       "model mlp: input has shape (784), expected (N, 784) for any batch size N",
                       ShapeError);
  CHECK_THROWS_WITH_AS(m.layer(5), "model mlp has 5 layers; index 5 is out of range", ValueError);
}

TEST_CASE("the small CNN for 28x28 images builds, counts and runs forward and backward") {
  Model m = model_from_json(cnn_spec());
  CHECK(m.output_shapes() == std::vector<Shape>{{4, 8, 28, 28},
                                                {4, 8, 28, 28},
                                                {4, 8, 14, 14},
                                                {4, 16, 14, 14},
                                                {4, 16, 14, 14},
                                                {4, 16, 7, 7},
                                                {4, 784},
                                                {4, 10},
                                                {4, 10}});
  // (1·8·9 + 8) + (8·16·9 + 16) + (784·10 + 10)
  CHECK(m.parameter_count() == 80 + 1168 + 7850);
  // 2·9·8·28² + 2·72·16·14² + 2·784·10
  CHECK(m.flops_per_sample().matmul == 112896 + 451584 + 15680);
  CHECK(m.flops_per_sample().bias == 8 * 784 + 16 * 196 + 10);

  const Tensor y = m.forward(Tensor::random({4, 1, 28, 28}, 3));
  REQUIRE(y.shape() == Shape{4, 10});
  for (std::size_t n = 0; n < 4; ++n) {
    double sum = 0;
    for (std::size_t j = 0; j < 10; ++j) sum += y[n * 10 + j];
    CHECK(sum == doctest::Approx(1.0));
  }
  CHECK(m.backward(Tensor::random({4, 10}, 4)).shape() == Shape{4, 1, 28, 28});
}

TEST_CASE("the transformer block spec (d_model 128, 4 heads, d_ff 512, sequence 64) runs") {
  Model m = model_from_json_text(R"({"name": "block", "input": [2, 64, 128],
    "layers": [{"type": "TransformerBlock", "d_model": 128, "heads": 4, "d_ff": 512}]})");
  CHECK(m.parameter_count() == 198272);
  CHECK(m.flops_per_sample().matmul == 27262976);
  CHECK(m.output_shape() == Shape{2, 64, 128});
  const Tensor y = m.forward(Tensor::random({2, 64, 128}, 5));
  CHECK(y.shape() == Shape{2, 64, 128});
  CHECK(m.backward(Tensor::random({2, 64, 128}, 6)).shape() == Shape{2, 64, 128});
  CHECK(m.parameters()[0].name == "0.ln1.gamma");
}

TEST_CASE("a whole model's gradients match finite differences") {
  Model m = model_from_json_text(R"({"name": "tiny", "input": [2, 1, 6, 6],
    "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 2, "kernel": 3, "padding": 1},
               {"type": "Sigmoid"}, {"type": "MaxPool2d", "kernel": 2}, {"type": "Flatten"},
               {"type": "Linear", "in": 18, "out": 3}, {"type": "Softmax"}], "seed": 3})");
  // eps 1e-3 keeps perturbations from reordering a max-pool window.
  perflab::testing::check_gradients(m, Tensor::random({2, 1, 6, 6}, 7, -2, 2), 8,
                                    {1e-3, 3e-2, 2e-3});
}

TEST_CASE("shapes that do not chain name the field to change, as layers[i].field") {
  json spec = mlp_spec();
  spec["layers"][2]["in"] = 300;  // layer 2 expects 300, gets 256
  CHECK_THROWS_WITH_AS(
      model_from_json(spec),
      "layers[2].in is 300 but the previous layer gives 256 features; set layers[2].in to 256",
      ShapeError);
  spec = mlp_spec();
  spec["layers"][0]["out"] = 300;
  CHECK_THROWS_WITH_AS(
      model_from_json(spec),
      "layers[2].in is 256 but the previous layer gives 300 features; set layers[2].in to 300",
      ShapeError);
  spec = mlp_spec();
  spec["layers"][0]["in"] = 100;  // the first layer reads the spec's input
  CHECK_THROWS_WITH_AS(
      model_from_json(spec),
      "layers[0].in is 100 but the model input gives 784 features; set layers[0].in to 784",
      ShapeError);
  spec = cnn_spec();
  spec["layers"].erase(6);  // no Flatten before the Linear: it reads the last axis, 7
  CHECK_THROWS_WITH_AS(
      model_from_json(spec),
      "layers[6].in is 784 but the previous layer gives 7 features; set layers[6].in to 7",
      ShapeError);
  spec = cnn_spec();
  spec["layers"][3]["in_channels"] = 4;
  CHECK_THROWS_WITH_AS(model_from_json(spec),
                       "layers[3].in_channels is 4 but the previous layer gives 8 channels; set "
                       "layers[3].in_channels to 8",
                       ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(one_layer({{"type", "Conv2d"}, {"in_channels", 1}, {"out_channels", 2},
                                 {"kernel", 7}, {"padding", 1}},
                                {1, 1, 4, 4})),
      "layers[0].kernel is 7 but the model input gives 4×4 (6×6 with layers[0].padding 1); set "
      "layers[0].kernel to at most 6 or raise layers[0].padding",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(one_layer({{"type", "MaxPool2d"}, {"kernel", 3}}, {1, 2, 2, 5})),
      "layers[0].kernel is 3 but the model input gives 2×5; set layers[0].kernel to at most 2",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(one_layer({{"type", "LayerNorm"}, {"features", 6}})),
      "layers[0].features is 6 but the model input gives 8 features; set layers[0].features to 8",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(one_layer({{"type", "TransformerBlock"}, {"d_model", 4}, {"heads", 2},
                                 {"d_ff", 8}},
                                {1, 3, 8})),
      "layers[0].d_model is 4 but the model input gives 8 features; set layers[0].d_model to 8",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(
          one_layer({{"type", "Conv2d"}, {"in_channels", 1}, {"out_channels", 2}, {"kernel", 3}})),
      "layers[0].type Conv2d needs an input of shape (N, C, H, W), but the model input gives "
      "(2, 8); change the spec's input",
      ShapeError);
  CHECK_THROWS_WITH_AS(
      model_from_json(one_layer({{"type", "MultiHeadAttention"}, {"d_model", 8}, {"heads", 2}})),
      "layers[0].type MultiHeadAttention needs an input of shape (B, T, D), but the model input "
      "gives (2, 8); change the spec's input",
      ShapeError);
  // A rank error after the first layer points at the layers before it.
  spec = cnn_spec();
  spec["layers"].push_back({{"type", "MaxPool2d"}, {"kernel", 2}});
  CHECK_THROWS_WITH_AS(model_from_json(spec),
                       "layers[9].type MaxPool2d needs an input of shape (N, C, H, W), but the "
                       "previous layer gives (4, 10); change the layers before it or this "
                       "layer's type",
                       ShapeError);
}

TEST_CASE("unknown layer types list the known ones") {
  json spec = mlp_spec();
  spec["layers"][3] = {{"type", "Dense"}};
  const std::string unknown = "layers[3].type \"Dense\" is not a known layer type; known types: " +
                              std::string(kKnownTypes);
  CHECK_THROWS_WITH_AS(model_from_json(spec), unknown.c_str(), ValueError);
  CHECK(error_of(one_layer(json::object())) ==
        "layers[0].type is missing; known types: " + std::string(kKnownTypes));
  CHECK(error_of(one_layer({{"type", 5}})) ==
        "layers[0].type must be a string, one of " + std::string(kKnownTypes) + ", got 5");
  CHECK(error_of(one_layer("ReLU")) ==
        "layers[0] must be an object like {\"type\": \"ReLU\"}, got \"ReLU\"");
  std::string joined;
  for (const auto& t : layer_types()) joined += (joined.empty() ? "" : ", ") + t;
  CHECK(joined == kKnownTypes);
}

TEST_CASE("the layer type reference is the table the parser checks against") {
  const json ref = layer_type_reference();
  REQUIRE(ref.size() == layer_types().size());
  for (std::size_t i = 0; i < ref.size(); ++i) CHECK(ref[i].at("type") == layer_types()[i]);
  CHECK(ref[0] == json::parse(R"({"type": "Linear", "takes": "in, out, bias [true]", "fields": [
      {"name": "in", "kind": "positive integer", "default": null},
      {"name": "out", "kind": "positive integer", "default": null},
      {"name": "bias", "kind": "true or false", "default": "true"}]})"));
  CHECK(ref[7].at("takes") == "kernel, stride [kernel]");  // MaxPool2d
  CHECK(ref[2].at("fields").empty());                      // ReLU
  // Every field the reference lists is accepted, every required one is required, and one it
  // does not list is refused with the reference's own "takes" text.
  for (const json& t : ref) {
    json layer = {{"type", t.at("type")}};
    for (const json& f : t.at("fields")) {
      if (!f.at("default").is_null()) continue;
      layer[f.at("name").get<std::string>()] = 8;  // valid for every required field
    }
    json full = layer;
    for (const json& f : t.at("fields")) {
      if (f.at("kind") == "true or false") full[f.at("name").get<std::string>()] = false;
      if (f.at("kind") == "positive number") full[f.at("name").get<std::string>()] = 0.5;
      if (f.at("kind") == "non-negative integer") full[f.at("name").get<std::string>()] = 0;
    }
    const std::string where = "layers[0]";
    const std::string type = t.at("type");
    CHECK_MESSAGE(error_of(one_layer(full)).find("is not a field") == std::string::npos, type);
    json extra = layer;
    extra["not_a_field"] = 1;
    CHECK(error_of(one_layer(extra)) == where + ".not_a_field is not a field of " + type + "; " +
                                            type + " takes " + t.at("takes").get<std::string>());
    for (const json& f : t.at("fields")) {
      if (!f.at("default").is_null()) continue;
      json missing = layer;
      missing.erase(f.at("name").get<std::string>());
      CHECK(error_of(one_layer(missing)) == where + "." + f.at("name").get<std::string>() +
                                                " is missing; " + type + " takes " +
                                                t.at("takes").get<std::string>());
    }
  }
}

TEST_CASE("missing and unknown fields name the layer, the field and the fields allowed") {
  CHECK_THROWS_WITH_AS(model_from_json(one_layer({{"type", "Linear"}, {"in", 8}})),
                       "layers[0].out is missing; Linear takes in, out, bias [true]", ValueError);
  CHECK(error_of(one_layer({{"type", "Linear"}, {"in", 8}, {"outs", 4}})) ==
        "layers[0].outs is not a field of Linear; Linear takes in, out, bias [true]");
  CHECK(error_of(one_layer({{"type", "ReLU"}, {"size", 4}})) ==
        "layers[0].size is not a field of ReLU; ReLU takes no fields besides type");
  CHECK(error_of(one_layer({{"type", "Conv2d"}, {"in_channels", 1}})) ==
        "layers[0].out_channels is missing; Conv2d takes in_channels, out_channels, kernel, stride "
        "[1], padding [0], bias [true]");
  CHECK(error_of(one_layer({{"type", "MaxPool2d"}})) ==
        "layers[0].kernel is missing; MaxPool2d takes kernel, stride [kernel]");
  CHECK(error_of(one_layer({{"type", "TransformerBlock"}, {"d_model", 8}, {"heads", 2}})) ==
        "layers[0].d_ff is missing; TransformerBlock takes d_model, heads, d_ff");
}

TEST_CASE("fields of the wrong type or range say what was given and what is allowed") {
  json spec = mlp_spec();
  spec["layers"][2]["out"] = "ten";
  CHECK_THROWS_WITH_AS(model_from_json(spec),
                       "layers[2].out must be a positive integer, got \"ten\"", ValueError);
  const auto linear = [](const char* field, json value) {
    json l = {{"type", "Linear"}, {"in", 8}, {"out", 4}};
    l[field] = std::move(value);
    return error_of(one_layer(l));
  };
  CHECK(linear("in", -3) == "layers[0].in must be a positive integer, got -3");
  CHECK(linear("in", 0) == "layers[0].in must be a positive integer, got 0");
  CHECK(linear("in", 8.5) == "layers[0].in must be a positive integer, got 8.5");
  CHECK(linear("in", 8.0) == "layers[0].in must be a positive integer, got 8.0");
  CHECK(linear("out", 100000000) == "layers[0].out must be at most 16777216, got 100000000");
  CHECK(linear("bias", 1) == "layers[0].bias must be true or false, got 1");
  CHECK(linear("in", json::array({8})) == "layers[0].in must be a positive integer, got [8]");
  CHECK(error_of(one_layer({{"type", "Conv2d"},
                            {"in_channels", 1},
                            {"out_channels", 1},
                            {"kernel", 1},
                            {"padding", -1}})) ==
        "layers[0].padding must be a non-negative integer, got -1");
  CHECK(error_of(one_layer({{"type", "LayerNorm"}, {"features", 8}, {"eps", 0}})) ==
        "layers[0].eps must be a positive number, got 0");
  CHECK(error_of(one_layer({{"type", "MultiHeadAttention"}, {"d_model", 128}, {"heads", 5}},
                           {1, 4, 128})) == "layers[0].heads must divide d_model (128), got 5");
}

TEST_CASE("field errors are reported before shape errors") {
  json spec = mlp_spec();
  spec["layers"][0]["out"] = 300;  // would be a shape error at layer 2
  spec["layers"][4]["bias"] = "no";
  CHECK(error_of(spec) == "layers[4].bias must be true or false, got \"no\"");
}

TEST_CASE("the top level of a spec is checked like the layers") {
  CHECK(error_of(json::array()) ==
        "a model spec must be a JSON object like {\"name\": \"mlp\", \"input\": [64, 784], "
        "\"layers\": [...]}, got []");
  json spec = mlp_spec();
  spec["layer"] = json::array();
  CHECK(error_of(spec) ==
        "layer is not a field of a model spec; allowed: name, input, layers, seed [0]");
  spec = mlp_spec();
  spec.erase("input");
  CHECK(error_of(spec) ==
        "input is missing; give the input shape with the batch first, e.g. [64, 784]");
  spec["input"] = json::array();
  CHECK(error_of(spec) ==
        "input must be a non-empty array of positive integers (batch first), got []");
  spec["input"] = {64, 0};
  CHECK(error_of(spec) == "input[1] must be a positive integer, got 0");
  spec = mlp_spec();
  spec["layers"] = json::array();
  CHECK(error_of(spec) == "layers must be a non-empty array of layer objects, got []");
  spec.erase("layers");
  CHECK(error_of(spec) ==
        "layers is missing; give an array of layers like [{\"type\": \"Linear\", \"in\": 784, "
        "\"out\": 10}]");
  spec = mlp_spec();
  spec["name"] = 5;
  CHECK(error_of(spec) == "name must be a string, got 5");
  spec = mlp_spec();
  spec["seed"] = -1;
  CHECK(error_of(spec) == "seed must be a non-negative integer, got -1");
  spec.erase("name");
  spec["seed"] = 2;
  CHECK(model_from_json(spec).name() == "model");
}

TEST_CASE("text that is not JSON is a clear error") {
  CHECK_THROWS_WITH_AS(model_from_json_text("{\"name\": \"x\", "),
                       "model spec is not valid JSON: parse error at line 1, column 15: the "
                       "text ends before the JSON value is complete; expected a key in double "
                       "quotes",
                       ValueError);
  CHECK_THROWS_WITH_AS(model_from_json_text(""),
                       "model spec is not valid JSON: parse error at line 1, column 1: the text "
                       "is empty; a JSON value (an object, an array, a string, a number, true, "
                       "false or null) was expected",
                       ValueError);
}

TEST_CASE("the canonical spec writes every field and round-trips to the same model") {
  Model m = model_from_json(cnn_spec());
  const json canonical = model_to_json(m);
  CHECK(canonical["name"] == "small-cnn");
  CHECK(canonical["input"] == json::array({4, 1, 28, 28}));
  CHECK(canonical["seed"] == 0);
  CHECK(canonical["layers"][0] == json{{"type", "Conv2d"},
                                       {"in_channels", 1},
                                       {"out_channels", 8},
                                       {"kernel", 3},
                                       {"stride", 1},
                                       {"padding", 1},
                                       {"bias", true}});
  CHECK(canonical["layers"][2] == json{{"type", "MaxPool2d"}, {"kernel", 2}, {"stride", 2}});
  CHECK(canonical["layers"][6] == json{{"type", "Flatten"}});

  Model again = model_from_json(canonical);
  CHECK(model_to_json(again) == canonical);
  CHECK(again.layer(0).parameters()[0].value->to_vector() ==
        m.layer(0).parameters()[0].value->to_vector());

  const json block = layer_to_json(TransformerBlock(8, 2, 16));
  CHECK(block == json{{"type", "TransformerBlock"}, {"d_model", 8}, {"heads", 2}, {"d_ff", 16}});
  CHECK(layer_to_json(LayerNorm(8)) == json{{"type", "LayerNorm"}, {"features", 8}, {"eps", 1e-5}});
}

TEST_CASE("parameters depend on the spec's seed, and each layer gets its own stream") {
  json spec = one_layer({{"type", "Linear"}, {"in", 8}, {"out", 8}});
  spec["layers"].push_back({{"type", "Linear"}, {"in", 8}, {"out", 8}});
  Model a = model_from_json(spec), b = model_from_json(spec);
  CHECK(a.layer(0).parameters()[0].value->to_vector() ==
        b.layer(0).parameters()[0].value->to_vector());
  CHECK(a.layer(0).parameters()[0].value->to_vector() !=
        a.layer(1).parameters()[0].value->to_vector());
  spec["seed"] = 1;
  Model c = model_from_json(spec);
  CHECK(c.seed() == 1);
  CHECK(c.layer(0).parameters()[0].value->to_vector() !=
        a.layer(0).parameters()[0].value->to_vector());
  c.reset_parameters(0);
  CHECK(c.layer(0).parameters()[0].value->to_vector() ==
        a.layer(0).parameters()[0].value->to_vector());
}

TEST_CASE("a model built in C++ checks its chain and can drop caches for inference") {
  std::vector<std::unique_ptr<Layer>> layers;
  layers.push_back(std::make_unique<Linear>(4, 3));
  layers.push_back(std::make_unique<GELU>());
  layers.push_back(std::make_unique<Linear>(3, 2, false));
  Model m("cpp", {5, 4}, std::move(layers), 9);
  CHECK(m.parameter_count() == 4 * 3 + 3 + 3 * 2);
  m.set_keep_for_backward(false);
  CHECK(m.forward(Tensor::random({5, 4}, 1)).shape() == Shape{5, 2});
  CHECK_THROWS_WITH_AS(
      m.backward(Tensor({5, 2})),
      "Linear #2: backward needs a forward pass first, run with keep_for_backward on", Error);

  std::vector<std::unique_ptr<Layer>> bad;
  bad.push_back(std::make_unique<Linear>(4, 3));
  bad.push_back(std::make_unique<Linear>(4, 3));
  CHECK_THROWS_WITH_AS(Model("bad", {5, 4}, std::move(bad)),
                       "layers[1].in is 4 but the previous layer gives 3 features; set "
                       "layers[1].in to 3",
                       ShapeError);
  CHECK_THROWS_WITH_AS(Model("empty", {}, {}),
                       "model empty: the input shape must have at least the batch dimension",
                       ValueError);
}

TEST_CASE("a spec with more layers or input dimensions than the limits is refused before it is built") {
  // 1,000 ReLU layers took 36 s to profile in wasm; a rank-7 input is no model the lab has.
  nlohmann::json spec = {{"name", "deep"}, {"input", {2, 3}}, {"layers", nlohmann::json::array()}};
  for (std::size_t i = 0; i < kMaxModelLayers + 1; ++i) spec["layers"].push_back({{"type", "ReLU"}});
  CHECK_THROWS_WITH_AS(model_from_json(spec),
                       "layers has 257 entries; at most 256 are allowed (a TransformerBlock counts "
                       "as one: use blocks for depth)",
                       ValueError);
  spec["layers"].erase(spec["layers"].begin());
  CHECK(model_from_json(spec).size() == kMaxModelLayers);
  const nlohmann::json wide = {{"name", "rank"}, {"input", {1, 1, 1, 1, 1, 1, 1}},
                               {"layers", {{{"type", "ReLU"}}}}};
  CHECK_THROWS_WITH_AS(model_from_json(wide),
                       "input has 7 dimensions; at most 6 are allowed (batch first, e.g. "
                       "[N, C, H, W] or [B, T, D])",
                       ValueError);
  for (const ZooEntry& e : zoo()) {
    CAPTURE(e.name);
    CHECK(model_from_json(e.spec).size() <= kMaxModelLayers);
  }
}
