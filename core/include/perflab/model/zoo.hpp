// The built-in model zoo: the original course's example models as model specs (model.hpp),
// each at a batch that profiles in well under a second, plus the spec builder the
// model-scaling experiment sweeps. The page's model builder starts from these; `perflab
// zoo` lists them. Not for: trained weights (parameters come from the spec's seed; `perflab
// train` writes a trained model to a model file).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace perflab {

struct ZooEntry {
  std::string name;         // "mlp_784"
  std::string description;  // one line: "MLP 784-256-128-10 with ReLU, batch 64"
  nlohmann::json spec;      // {"name", "input", "layers"}; "name" is the zoo name
};

// In the order of the original course: linear_128_64, linear_768_3072, linear_1000_500,
// conv7x7_224, mlp_784, cnn_28, transformer_block; then the two that learn Fashion-MNIST,
// fashion_mlp and fashion_cnn (train/train.hpp's baseline_recipe has their recipes); then
// stand-ins for MLPerf Tiny's four reference models at its input shapes, batch 1:
// kws_mlp_16000, vww_cnn_96, ad_autoencoder_640, ic_cnn_32 (suite/compliance.hpp times them).
const std::vector<ZooEntry>& zoo();
std::vector<std::string> zoo_names();
// ValueError for an unknown name: `unknown zoo model "resnet"; the zoo has linear_128_64,
// linear_768_3072, ...`.
const nlohmann::json& zoo_spec(std::string_view name);

// A Linear/ReLU stack over widths (at least two): widths {784, 256, 10} gives Linear(784,
// 256), ReLU, Linear(256, 10); input [batch, widths[0]], named "mlp_784_256_10". ValueError
// for fewer than two widths, a zero width or a zero batch.
nlohmann::json mlp_spec(const std::vector<std::size_t>& widths, std::size_t batch);

}  // namespace perflab
