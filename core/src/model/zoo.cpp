// The model zoo's specs, written as JSON text so they read like the files a student would
// write, and parsed once. zoo_spec() hands out the parsed object; model_from_json checks it.
// Not for: counting or measuring (the profiler does that with the spec).
#include "perflab/model/zoo.hpp"

#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"

namespace perflab {

namespace {

struct ZooText {
  const char* name;
  const char* description;
  const char* spec;
};

// Batches: large enough that a forward pass is more than a few microseconds (so the timer
// batches little), small enough that `perflab profile --zoo NAME` stays near a second.
const ZooText kZoo[] = {
    {"linear_128_64", "Linear(128, 64), batch 32",
     R"({"name": "linear_128_64", "input": [32, 128],
         "layers": [{"type": "Linear", "in": 128, "out": 64}]})"},
    {"linear_768_3072", "Linear(768, 3072), a transformer's FFN expansion, batch 32",
     R"({"name": "linear_768_3072", "input": [32, 768],
         "layers": [{"type": "Linear", "in": 768, "out": 3072}]})"},
    {"linear_1000_500", "Linear(1000, 500), batch 32",
     R"({"name": "linear_1000_500", "input": [32, 1000],
         "layers": [{"type": "Linear", "in": 1000, "out": 500}]})"},
    {"conv7x7_224",
     "Conv2d 3→64, 7×7, stride 2, padding 3 on a 224×224 image (a ResNet stem), batch 1",
     R"({"name": "conv7x7_224", "input": [1, 3, 224, 224],
         "layers": [{"type": "Conv2d", "in_channels": 3, "out_channels": 64, "kernel": 7,
                     "stride": 2, "padding": 3}]})"},
    {"mlp_784", "MLP 784-256-128-10 with ReLU (MNIST-sized), batch 64",
     R"({"name": "mlp_784", "input": [64, 784],
         "layers": [{"type": "Linear", "in": 784, "out": 256}, {"type": "ReLU"},
                    {"type": "Linear", "in": 256, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 10}]})"},
    {"cnn_28",
     "small CNN for 28×28 images: Conv 1→8 3×3, ReLU, MaxPool 2, Conv 8→16 3×3, ReLU, "
     "MaxPool 2, Flatten, Linear 784→10; batch 32",
     R"({"name": "cnn_28", "input": [32, 1, 28, 28],
         "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 8, "kernel": 3,
                     "padding": 1},
                    {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
                    {"type": "Conv2d", "in_channels": 8, "out_channels": 16, "kernel": 3,
                     "padding": 1},
                    {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
                    {"type": "Flatten"},
                    {"type": "Linear", "in": 784, "out": 10}]})"},
    {"transformer_block",
     "pre-norm transformer block, d_model 128, 4 heads, d_ff 512, sequence 64, batch 4",
     R"({"name": "transformer_block", "input": [4, 64, 128],
         "layers": [{"type": "TransformerBlock", "d_model": 128, "heads": 4, "d_ff": 512}]})"},
    // The two models that learn Fashion-MNIST (baseline recipes: train/recipe.cpp; their
    // test accuracies: docs/PERFORMANCE.md). Batch 64, the recipes' training batch.
    {"fashion_mlp",
     "Fashion-MNIST's baseline MLP 784-256-128-10 with ReLU, batch 64 (trained: perflab train)",
     R"({"name": "fashion_mlp", "input": [64, 784],
         "layers": [{"type": "Linear", "in": 784, "out": 256}, {"type": "ReLU"},
                    {"type": "Linear", "in": 256, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 10}]})"},
    {"fashion_cnn",
     "Fashion-MNIST CNN: Conv 1→16 3×3, ReLU, MaxPool 2, Conv 16→32 3×3, ReLU, MaxPool 2, "
     "Flatten, Linear 1568→128, ReLU, Linear 128→10; batch 64 (trained: perflab train)",
     R"({"name": "fashion_cnn", "input": [64, 1, 28, 28],
         "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 16, "kernel": 3,
                     "padding": 1},
                    {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
                    {"type": "Conv2d", "in_channels": 16, "out_channels": 32, "kernel": 3,
                     "padding": 1},
                    {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2},
                    {"type": "Flatten"},
                    {"type": "Linear", "in": 1568, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 10}]})"},
    // Stand-ins for MLPerf Tiny's four reference models at the input shapes its benchmark
    // lists, batch 1 (single-stream latency, as MLPerf Tiny measures it), built from core's
    // layer types; each description says what the reference is and how this one differs.
    // `perflab compliance` times them against the original course's latency targets
    // (suite/compliance.hpp). Weights come from the spec's seed: none is trained.
    {"kws_mlp_16000",
     "keyword spotting stand-in on MLPerf Tiny's input (1, 16000), one second of 16 kHz audio: "
     "MLP 16000-64-64-12 with ReLU on the raw waveform (12 classes: 10 words, silence, "
     "unknown), batch 1. MLPerf Tiny's reference is a DS-CNN (depthwise-separable convolutions "
     "on 49×10 MFCC features); core has no MFCC front end and no 1-D or depthwise convolution, "
     "so the first Linear stands in for the front end, with far more parameters",
     R"({"name": "kws_mlp_16000", "input": [1, 16000],
         "layers": [{"type": "Linear", "in": 16000, "out": 64}, {"type": "ReLU"},
                    {"type": "Linear", "in": 64, "out": 64}, {"type": "ReLU"},
                    {"type": "Linear", "in": 64, "out": 12}]})"},
    {"vww_cnn_96",
     "visual wake words stand-in on MLPerf Tiny's (1, 96, 96, 3) image, NCHW [1, 3, 96, 96]: "
     "a MobileNet-like stack of plain 3×3 convolutions 3→8→16→32→32→64→64→128 (five of "
     "stride 2), ReLU, MaxPool 3, Flatten, Linear 128→2 (person / no person), batch 1. MLPerf "
     "Tiny's reference is MobileNetV1 (width 0.25), whose depthwise-separable convolutions "
     "core does not have",
     R"({"name": "vww_cnn_96", "input": [1, 3, 96, 96],
         "layers": [{"type": "Conv2d", "in_channels": 3, "out_channels": 8, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 8, "out_channels": 16, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 16, "out_channels": 32, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 32, "out_channels": 32, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 32, "out_channels": 64, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 64, "out_channels": 64, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 64, "out_channels": 128, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "MaxPool2d", "kernel": 3}, {"type": "Flatten"},
                    {"type": "Linear", "in": 128, "out": 2}]})"},
    {"ad_autoencoder_640",
     "anomaly detection on MLPerf Tiny's input (1, 640), five frames of 128 log-mel bins: "
     "fully connected autoencoder 640-128-128-128-128-8-128-128-128-128-640 with ReLU, batch 1. "
     "MLPerf Tiny's reference has these widths with batch normalization after each hidden "
     "layer, which core does not have",
     R"({"name": "ad_autoencoder_640", "input": [1, 640],
         "layers": [{"type": "Linear", "in": 640, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 8}, {"type": "ReLU"},
                    {"type": "Linear", "in": 8, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 128}, {"type": "ReLU"},
                    {"type": "Linear", "in": 128, "out": 640}]})"},
    {"ic_cnn_32",
     "image classification stand-in on MLPerf Tiny's (1, 32, 32, 3) CIFAR-10 image, NCHW "
     "[1, 3, 32, 32]: ResNet-8's convolutions without its skip connections: 3×3 convolutions "
     "3→16→16→16→32 (stride 2)→32→64 (stride 2)→64 with ReLU, MaxPool 8, Flatten, Linear "
     "64→10, batch 1. MLPerf Tiny's reference is ResNet-8 (residual adds, 1×1 shortcut "
     "convolutions, batch normalization, average pooling), which core cannot build: it has no "
     "add, no average pooling and no batch normalization",
     R"({"name": "ic_cnn_32", "input": [1, 3, 32, 32],
         "layers": [{"type": "Conv2d", "in_channels": 3, "out_channels": 16, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 16, "out_channels": 16, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 16, "out_channels": 16, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 16, "out_channels": 32, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 32, "out_channels": 32, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 32, "out_channels": 64, "kernel": 3,
                     "stride": 2, "padding": 1}, {"type": "ReLU"},
                    {"type": "Conv2d", "in_channels": 64, "out_channels": 64, "kernel": 3,
                     "padding": 1}, {"type": "ReLU"},
                    {"type": "MaxPool2d", "kernel": 8}, {"type": "Flatten"},
                    {"type": "Linear", "in": 64, "out": 10}]})"},
};

std::string names_joined() {
  std::string s;
  for (const auto& z : kZoo) s += (s.empty() ? "" : ", ") + std::string(z.name);
  return s;
}

}  // namespace

const std::vector<ZooEntry>& zoo() {
  static const std::vector<ZooEntry> entries = [] {
    std::vector<ZooEntry> v;
    for (const auto& z : kZoo) {
      const std::string what = "zoo spec " + std::string(z.name);
      v.push_back({z.name, z.description, parse_json_text(z.spec, what)});
    }
    return v;
  }();
  return entries;
}

std::vector<std::string> zoo_names() {
  std::vector<std::string> names;
  for (const auto& z : kZoo) names.emplace_back(z.name);
  return names;
}

const nlohmann::json& zoo_spec(std::string_view name) {
  for (const auto& e : zoo()) {
    if (e.name == name) return e.spec;
  }
  throw ValueError("unknown zoo model \"" + std::string(name) + "\"; the zoo has " +
                   names_joined());
}

nlohmann::json mlp_spec(const std::vector<std::size_t>& widths, std::size_t batch) {
  if (widths.size() < 2) {
    throw ValueError("an MLP needs at least two widths (input and output), got " +
                     std::to_string(widths.size()));
  }
  if (batch == 0) throw ValueError("batch must be a positive integer, got 0");
  std::string name = "mlp";
  for (std::size_t i = 0; i < widths.size(); ++i) {
    if (widths[i] == 0) {
      throw ValueError("widths[" + std::to_string(i) + "] must be a positive integer, got 0");
    }
    // Two appends: GCC 12 warns (-Wrestrict, a false positive) on "_" + std::to_string.
    name += '_';
    name += std::to_string(widths[i]);
  }
  nlohmann::json layers = nlohmann::json::array();
  for (std::size_t i = 0; i + 1 < widths.size(); ++i) {
    if (i > 0) layers.push_back({{"type", "ReLU"}});
    layers.push_back({{"type", "Linear"}, {"in", widths[i]}, {"out", widths[i + 1]}});
  }
  return {{"name", name}, {"input", {batch, widths[0]}}, {"layers", layers}};
}

}  // namespace perflab
