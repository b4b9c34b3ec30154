// What this file protects: int8 quantization of a model (optimize/quantize.hpp,
// model/quantization.hpp) and its model file (version 2). The quantized forward is the int8
// kernel's product layer by layer, close to the float model's; calibration ranges are the
// inputs' min/max or narrower percentiles; the bytes counted are the codes, scales and
// biases; a quantized file reads back to the same forward, bit for bit, exports its codes,
// and a damaged quantization entry is refused in a sentence.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/base/random.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/npy_export.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/train/evaluate.hpp"

using namespace perflab;

namespace {

// Images of 16 pixels (4×4) in 3 classes, from a seeded generator.
LabeledImages tiny_images(std::size_t count) {
  LabeledImages d;
  d.count = count;
  d.rows = 4;
  d.cols = 4;
  d.classes = 3;
  d.class_names = {"a", "b", "c"};
  d.pixels.resize(count * 16);
  d.labels.resize(count);
  Rng rng(5);
  for (auto& p : d.pixels) p = static_cast<std::uint8_t>(rng.next_u64() % 256);
  for (std::size_t i = 0; i < count; ++i) d.labels[i] = static_cast<std::uint8_t>(i % 3);
  return d;
}

Model mlp() {
  return model_from_json({{"name", "qmlp"},
                          {"input", {8, 16}},
                          {"seed", 9},
                          {"layers",
                           {{{"type", "Linear"}, {"in", 16}, {"out", 12}},
                            {{"type", "ReLU"}},
                            {{"type", "Linear"}, {"in", 12}, {"out", 3}}}}});
}

double max_difference(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a.data()[i]) - b.data()[i]));
  return m;
}

void reseal(std::vector<std::uint8_t>& b) {
  const std::size_t end = b.size() - 8;
  const std::uint64_t h = fnv1a64(std::string_view(reinterpret_cast<const char*>(b.data()), end));
  for (int i = 0; i < 8; ++i) b[end + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(h >> (8 * i));
}

}  // namespace

TEST_CASE("an int8 model computes the int8 kernel layer by layer, close to the float model") {
  Model m = mlp();
  const LabeledImages data = tiny_images(64);
  const Preprocessing pre;
  const Quantization q = quantize_int8(m, data, pre, 64, Calibration::MinMax);
  REQUIRE(q.layers.size() == 2);
  CHECK(q.layers[0].layer == 0);
  CHECK(q.layers[1].layer == 2);
  // The first Linear's inputs are pixels / 255: min/max is the images' own extremes.
  std::uint8_t lo = 255, hi = 0;
  for (std::uint8_t p : data.pixels) lo = std::min(lo, p), hi = std::max(hi, p);
  CHECK(q.layers[0].input_lo == doctest::Approx(lo / 255.0).epsilon(1e-6));
  CHECK(q.layers[0].input_hi == doctest::Approx(hi / 255.0).epsilon(1e-6));
  CHECK(q.layers[1].input_lo == 0.0f);  // after ReLU
  const Tensor x = images_tensor(data, 0, 16, pre, false);
  const Tensor f = m.forward(x);
  const Tensor g = quantized_forward(m, q, x);
  CHECK(max_difference(f, g) > 0);     // it really is another computation
  CHECK(max_difference(f, g) < 0.05);  // and a close one
  // By hand for the first layer: the kernel on the calibrated codes, plus the bias.
  std::vector<std::uint8_t> codes(x.size());
  quantize_activations(x.data(), x.size(), q.layers[0].input, codes.data());
  Tensor y({16, 12});
  find_int8_linear_variant("naive").kernel(y.data(), codes.data(), q.layers[0].input,
                                           q.layers[0].weights, q.layers[0].bias.data(), 16);
  const Tensor first = quantized_layer_forward(m, q, 0, x);
  CHECK(max_difference(first, y) == 0.0);
  // Each layer's error: zero nowhere, and the ReLU's no larger than the Linear's before it.
  const std::vector<LayerError> errors = layer_errors(m, q, x);
  REQUIRE(errors.size() == 3);
  CHECK(errors[0].max_abs > 0);
  CHECK(errors[1].max_abs <= errors[0].max_abs);
  CHECK(errors[2].max_abs == doctest::Approx(max_difference(f, g)).scale(0));
  // Bytes: codes, then a scale and a bias per output.
  CHECK(quantized_parameter_bytes(m, q) == 16 * 12 + 8 * 12 + 12 * 3 + 8 * 3);
  CHECK(quantize_lineage(q) == nlohmann::json{{"transform", "quantize"}, {"scheme", "int8"},
                                               {"calibration", "minmax"}, {"calibration_images", 64}});
}

TEST_CASE("percentile calibration keeps a narrower range than min/max, and bad requests are refused") {
  Model m = mlp();
  const LabeledImages data = tiny_images(200);
  const Quantization mm = quantize_int8(m, data, Preprocessing{}, 200, Calibration::MinMax);
  const Quantization pc = quantize_int8(m, data, Preprocessing{}, 200, Calibration::Percentile);
  CHECK(pc.layers[1].input_hi < mm.layers[1].input_hi);
  CHECK(pc.layers[1].input_hi > 0);
  CHECK(pc.layers[0].input_lo >= mm.layers[0].input_lo);
  CHECK_THROWS_WITH_AS(quantize_int8(m, data, Preprocessing{}, 0, Calibration::MinMax),
                       "calibration images must be from 1 to the 200 the data holds, got 0", ValueError);
  CHECK_THROWS_WITH_AS(calibration_from_name("mean"), doctest::Contains("calibration must be \"minmax\""),
                       ValueError);
  Model relus = model_from_json({{"name", "r"}, {"input", {1, 16}}, {"layers", {{{"type", "ReLU"}}}}});
  CHECK_THROWS_WITH_AS(quantize_int8(relus, data, Preprocessing{}, 10, Calibration::MinMax),
                       doctest::Contains("has no Linear layer"), ValueError);
  CHECK_THROWS_AS(quantized_forward(m, mm, Tensor({2, 15})), ShapeError);
}

TEST_CASE("an int8 model file reads back to the same forward and exports its codes") {
  Model m = mlp();
  const LabeledImages data = tiny_images(64);
  const Quantization q = quantize_int8(m, data, Preprocessing{}, 64, Calibration::Percentile);
  dequantize_into(m, q);
  const std::vector<std::uint8_t> bytes = model_file_bytes(m, Preprocessing{}, std::nullopt, &q);
  CHECK(bytes[8] == 2);
  ModelFile back = read_model_file(bytes, "model file 'q.plm'");
  REQUIRE(back.quantization);
  CHECK(back.quantization->method == Calibration::Percentile);
  CHECK(back.quantization->layers.size() == 2);
  const Tensor x = images_tensor(data, 0, 16, Preprocessing{}, false);
  CHECK(max_difference(quantized_forward(back.model, *back.quantization, x), quantized_forward(m, q, x)) == 0.0);
  // The float view of the weights is the codes times their scales.
  CHECK(max_difference(back.model.layer(0).parameters()[0].value->reshaped({16, 12}),
                       m.layer(0).parameters()[0].value->reshaped({16, 12})) == 0.0);
  // Written again, the same bytes.
  CHECK(model_file_bytes(back) == bytes);
  // After the header: one byte per code, then four per scale and per bias.
  const std::size_t header = static_cast<std::size_t>(bytes[12]) | static_cast<std::size_t>(bytes[13]) << 8;
  CHECK(bytes.size() == 24 + header + (16 * 12 + 4 * 12 + 4 * 12) + (12 * 3 + 4 * 3 + 4 * 3) + 8);
  const NpyExport e = export_npy(back);
  CHECK(e.manifest["layers"][0]["parameters"]["weight_int8"]["shape"] == nlohmann::json{12, 16});
  CHECK(e.manifest["layers"][2]["quantized"].contains("computes"));
  CHECK(e.manifest["quantization"]["calibration"]["method"] == "percentile");
}

TEST_CASE("a damaged int8 model file is refused in a sentence") {
  Model m = mlp();
  const Quantization q = quantize_int8(m, tiny_images(32), Preprocessing{}, 32, Calibration::MinMax);
  const std::vector<std::uint8_t> good = model_file_bytes(m, Preprocessing{}, std::nullopt, &q);
  const std::string text(good.begin(), good.end());
  const auto patched = [&](const std::string& from, const std::string& to) {
    std::vector<std::uint8_t> b = good;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    REQUIRE(from.size() == to.size());
    std::memcpy(b.data() + at, to.data(), to.size());
    reseal(b);
    return b;
  };
  CHECK_THROWS_WITH_AS(read_model_file(patched("\"layer\":2", "\"layer\":1"), "f"),
                       doctest::Contains("quantization.layers[1].layer must be the index of a Linear"),
                       ValueError);
  CHECK_THROWS_WITH_AS(read_model_file(patched("\"input_zero_point\":0", "\"input_zero_point\":1"), "f"),
                       doctest::Contains("are not what its input_range gives"), ValueError);
  CHECK_THROWS_WITH_AS(read_model_file(patched("\"dtype\":\"int8\"", "\"dtype\":\"int4\""), "f"),
                       doctest::Contains(".dtype must be \"int8\""), ValueError);
  // A code of -128 among the first layer's codes (they follow the header).
  std::vector<std::uint8_t> b = good;
  const std::size_t header = static_cast<std::size_t>(b[12]) | static_cast<std::size_t>(b[13]) << 8 |
                             static_cast<std::size_t>(b[14]) << 16;
  b[24 + header] = 0x80;
  reseal(b);
  CHECK_THROWS_WITH_AS(read_model_file(b, "f"), doctest::Contains("is -128; codes run from -127 to 127"),
                       ValueError);
  // A version 1 file may not hold a quantization.
  std::vector<std::uint8_t> v1 = good;
  v1[8] = 1;
  reseal(v1);
  CHECK_THROWS_WITH_AS(read_model_file(v1, "f"), doctest::Contains("quantization is not a field of header"),
                       ValueError);
}

TEST_CASE("the suite measures an int8 model file as int8: its stored bytes and its int8 accuracy") {
  Model m = mlp();
  const LabeledImages data = tiny_images(64);
  const Quantization q = quantize_int8(m, data, Preprocessing{}, 64, Calibration::MinMax);
  dequantize_into(m, q);
  ModelFile file = read_model_file(model_file_bytes(m, Preprocessing{}, std::nullopt, &q), "model file 'q.plm'");
  TimerOptions quick;
  quick.warmup = 1;
  quick.samples = 3;
  quick.min_sample_ms = 0.01;
  const ModelBenchmark b = benchmark_model_file(file, "qmlp int8", &data, 8, quick);
  CHECK(b.size_bytes == doctest::Approx(static_cast<double>(quantized_parameter_bytes(file.model, q))));
  // 243 parameters: 972 float32 bytes, 228 codes + 8 bytes (scale, bias) per output = 348.
  CHECK(b.size_bytes < 4.0 * static_cast<double>(file.model.parameter_count()) / 2);
  EvaluateOptions o;
  o.max_misclassified = 0;
  const Evaluation int8 = evaluate(file, data, o);
  CHECK(b.accuracy_correct == int8.correct);
  CHECK(b.latency.samples > 0);
}
