// Protects the model file and the .npy export: a model written and read back has the same
// architecture, preprocessing, training facts and bit-identical weights (so its outputs are
// identical); a foreign, empty, truncated, lengthened, corrupted or newer-version file is
// refused with its sentence, and so is a header whose checksum matches but whose parameters
// do not fit the architecture. The .npy bytes are checked against NumPy's format 1.0 by hand.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/npy_export.hpp"

using namespace perflab;

namespace {

Model small_cnn() {
  return model_from_json(nlohmann::json::parse(R"({
    "name": "tiny_cnn", "input": [2, 1, 6, 6], "seed": 7,
    "layers": [{"type": "Conv2d", "in_channels": 1, "out_channels": 2, "kernel": 3},
               {"type": "ReLU"}, {"type": "MaxPool2d", "kernel": 2}, {"type": "Flatten"},
               {"type": "Linear", "in": 8, "out": 3}]})"));
}

TrainingFacts some_facts() {
  TrainingFacts f;
  f.recipe = {{"optimizer", "adam"}, {"lr", 0.001}, {"batch", 64}, {"epochs", 2}};
  f.epochs = 2;
  f.seed = 42;
  f.data = "Fashion-MNIST";
  f.train_samples = 1000;
  f.validation_samples = 100;
  f.train_accuracy = 0.75;
  f.validation_accuracy = 0.7;
  return f;
}

std::uint64_t u64_at(const std::vector<std::uint8_t>& b, std::size_t at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | b[at + static_cast<std::size_t>(i)];
  return v;
}

// Rewrites the checksum after a deliberate change, so the check behind it is reached.
void reseal(std::vector<std::uint8_t>& b) {
  const std::size_t end = b.size() - 8;
  const std::uint64_t h = fnv1a64(std::string_view(reinterpret_cast<const char*>(b.data()), end));
  for (int i = 0; i < 8; ++i) b[end + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
}

// `b` with the header text `from` replaced by `to` (same length) and the checksum resealed.
std::vector<std::uint8_t> patched_header(std::vector<std::uint8_t> b, const std::string& from,
                                         const std::string& to) {
  REQUIRE(from.size() == to.size());
  const std::size_t at = std::string(b.begin(), b.end()).find(from);
  REQUIRE(at != std::string::npos);
  std::memcpy(b.data() + at, to.data(), to.size());
  reseal(b);
  return b;
}

const std::string kWhat = "model file 'm.plm'";

}  // namespace

TEST_CASE("a model file reads back to the same model, weights bit for bit") {
  Model m = small_cnn();
  // Weights unlike the spec's initialisation, so reading cannot pass by re-initialising.
  for (auto& p : m.parameters()) {
    for (std::size_t i = 0; i < p.value->size(); ++i) (*p.value)[i] = 0.01f * float(i) - 0.3f;
  }
  Preprocessing pre;
  pre.mean = 0.2860f;
  pre.std = 0.3530f;
  const auto bytes = model_file_bytes(m, pre, some_facts());
  CHECK(std::memcmp(bytes.data(), "\x89PLM\r\n\x1a\n", 8) == 0);
  CHECK(u64_at(bytes, 16) == bytes.size());

  ModelFile f = read_model_file(bytes, kWhat);
  CHECK(model_to_json(f.model) == model_to_json(m));
  CHECK(f.preprocessing.scale == pre.scale);
  CHECK(f.preprocessing.mean == pre.mean);
  CHECK(f.preprocessing.std == pre.std);
  REQUIRE(f.training.has_value());
  CHECK(to_json(*f.training) == to_json(some_facts()));
  CHECK_FALSE(f.training->test_accuracy.has_value());
  auto a = m.parameters();
  auto b = f.model.parameters();
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CAPTURE(a[i].name);
    CHECK(b[i].name == a[i].name);
    CHECK(b[i].value->to_vector() == a[i].value->to_vector());
  }
  const Tensor x = Tensor::random({2, 1, 6, 6}, 3, 0.0f, 1.0f);
  CHECK(f.model.forward(x).to_vector() == m.forward(x).to_vector());
  // The same model and facts give the same bytes.
  CHECK(model_file_bytes(f.model, f.preprocessing, f.training) == bytes);
}

TEST_CASE("a model without training facts keeps none") {
  Model m = small_cnn();
  const ModelFile f = read_model_file(model_file_bytes(m, Preprocessing{}, std::nullopt), kWhat);
  CHECK_FALSE(f.training.has_value());
}

TEST_CASE("foreign, short, long, corrupted and newer files are refused in a sentence") {
  Model m = small_cnn();
  const auto good = model_file_bytes(m, Preprocessing{}, some_facts());

  SUBCASE("foreign") {
    const std::string text = "{\"name\": \"mlp\"}";
    const std::vector<std::uint8_t> json(text.begin(), text.end());
    CHECK_THROWS_WITH_AS(read_model_file(json, kWhat),
                         "model file 'm.plm' is not a perflab model file: it starts with 7B 22 6E "
                         "61 6D 65 22 3A, a model file starts with 89 50 4C 4D 0D 0A 1A 0A "
                         "(perflab train --out writes one)",
                         ValueError);
    CHECK_THROWS_WITH_AS(read_model_file(std::vector<std::uint8_t>{}, kWhat),
                         "model file 'm.plm' is empty; a model file starts with 89 50 4C 4D 0D 0A "
                         "1A 0A (perflab train --out writes one)",
                         ValueError);
  }
  SUBCASE("truncated") {
    std::vector<std::uint8_t> cut(good.begin(), good.end() - 100);
    CHECK_THROWS_WITH_AS(read_model_file(cut, kWhat),
                         ("model file 'm.plm' is cut short: " + std::to_string(cut.size()) +
                          " bytes, its header says " + std::to_string(good.size()) +
                          "; copy or write the file again")
                             .c_str(),
                         ValueError);
    std::vector<std::uint8_t> stub(good.begin(), good.begin() + 5);
    CHECK_THROWS_WITH_AS(read_model_file(stub, kWhat),
                         "model file 'm.plm' is cut short: 5 bytes, fewer than a model file's "
                         "fixed 32; copy or write the file again",
                         ValueError);
  }
  SUBCASE("extra bytes") {
    auto longer = good;
    longer.push_back(0);
    CHECK_THROWS_WITH_AS(read_model_file(longer, kWhat),
                         ("model file 'm.plm' is corrupt: " + std::to_string(longer.size()) +
                          " bytes, its header says " + std::to_string(good.size()) +
                          " (1 bytes too many)")
                             .c_str(),
                         ValueError);
  }
  SUBCASE("one changed weight byte") {
    auto flipped = good;
    flipped.at(flipped.size() - 20) ^= 0x40;
    CHECK_THROWS_WITH_AS(read_model_file(flipped, kWhat),
                         "model file 'm.plm' is corrupt: its checksum does not match its contents "
                         "(some bytes changed after it was written); copy or write the file again",
                         ValueError);
  }
  SUBCASE("a newer format version") {
    // A float model is still written as version 1, which every reader since reads.
    CHECK(good[8] == 1);
    auto newer = good;
    newer[8] = 3;
    CHECK_THROWS_WITH_AS(read_model_file(newer, kWhat),
                         "model file 'm.plm' has format version 3; this perflab reads version 2 "
                         "and older; use a newer perflab",
                         ValueError);
  }
  SUBCASE("a sealed header whose parameters do not fit the architecture") {
    const auto crafted = patched_header(good, "\"name\":\"0.weight\"", "\"name\":\"0.wEight\"");
    CHECK_THROWS_WITH_AS(read_model_file(crafted, kWhat),
                         "model file 'm.plm' is corrupt: parameters[0] is {\"name\":\"0.wEight\","
                         "\"shape\":[2,1,3,3]}; the architecture's parameter 0 is 0.weight of shape "
                         "(2, 1, 3, 3)",
                         ValueError);
  }
  SUBCASE("a sealed header listing more weights than the file holds") {
    const auto crafted = patched_header(good, "\"shape\":[2,1,3,3]", "\"shape\":[9,1,3,3]");
    // 2·1·3·3 + 2 + 8·3 + 3 = 47 floats of weights: 188 bytes.
    CHECK_THROWS_WITH_AS(read_model_file(crafted, kWhat),
                         "model file 'm.plm' is corrupt: the parameters listed up to "
                         "parameters[0] need more than the 188 bytes of weights the file holds",
                         ValueError);
  }
  SUBCASE("a sealed non-finite weight") {
    auto crafted = good;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::memcpy(crafted.data() + crafted.size() - 8 - 4, &nan, 4);  // the last bias value
    reseal(crafted);
    CHECK_THROWS_WITH_AS(read_model_file(crafted, kWhat),
                         "model file 'm.plm' is corrupt: 4.bias holds NaN at element 2; weights "
                         "must be finite",
                         ValueError);
  }
}

TEST_CASE("a model with a non-finite weight is not written") {
  Model m = small_cnn();
  (*m.parameters()[1].value)[0] = std::numeric_limits<float>::infinity();
  CHECK_THROWS_WITH_AS(model_file_bytes(m, Preprocessing{}, std::nullopt),
                       "parameter 0.bias holds Infinity at element 0; a model file keeps finite "
                       "weights only (train again with a lower learning rate)",
                       ValueError);
}

TEST_CASE(".npy bytes follow NumPy's format 1.0: header, padding to 64, raw float32") {
  const Tensor t({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto b = npy_bytes(t);
  // 10 fixed bytes + the 60-character dictionary + '\n' = 71, padded to 128 (as NumPy does).
  REQUIRE(b.size() == 128 + 24);
  CHECK(std::memcmp(b.data(), "\x93NUMPY\x01\x00", 8) == 0);
  const std::size_t header_len = b[8] | (b[9] << 8);
  CHECK(header_len == 128 - 10);
  const std::string header(b.begin() + 10, b.begin() + 10 + static_cast<long>(header_len));
  CHECK(header.rfind("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 0) == 0);
  CHECK(header.back() == '\n');
  float values[6];
  std::memcpy(values, b.data() + 128, sizeof(values));
  CHECK(values[5] == 6.0f);
  const auto one = npy_bytes(Tensor({3}, {1, 2, 3}));
  CHECK(std::string(one.begin() + 10, one.begin() + 128).find("'shape': (3,), }") !=
        std::string::npos);
}

TEST_CASE("the .npy export lists every layer in order with its parameter files and shapes") {
  Model m = small_cnn();
  Preprocessing pre;
  pre.mean = 0.5f;
  const NpyExport e = export_npy(m, pre);
  REQUIRE(e.files.size() == 4);
  CHECK(e.files[0].name == "0.weight.npy");
  CHECK(e.files[3].name == "4.bias.npy");
  const auto& layers = e.manifest.at("layers");
  REQUIRE(layers.size() == 5);
  CHECK(layers[0].at("type") == "Conv2d");
  CHECK(layers[0].at("parameters").at("weight").at("shape") == nlohmann::json({2, 1, 3, 3}));
  CHECK(layers[0].at("parameters").at("weight").at("file") == "0.weight.npy");
  CHECK(layers[2].at("type") == "MaxPool2d");
  CHECK(layers[2].at("parameters").empty());
  CHECK(layers[4].at("parameters").at("bias").at("shape") == nlohmann::json({3}));
  CHECK(e.manifest.at("input") == nlohmann::json({1, 6, 6}));
  CHECK(e.manifest.at("preprocessing").at("mean") == 0.5f);
  CHECK(e.files[3].bytes == npy_bytes(static_cast<Linear&>(m.layer(4)).bias()));
}
