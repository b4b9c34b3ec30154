// Protects the model zoo: the original course's seven models, the Fashion-MNIST pair and the
// four MLPerf Tiny stand-ins, in order, each a spec that builds with the shapes by hand; the
// unknown-name message lists the zoo; the MLP builder the model-scaling experiment sweeps
// writes the Linear/ReLU stack it promises.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"

using namespace perflab;

TEST_CASE("the zoo lists the original course's models in order, the Fashion-MNIST pair, then "
          "the MLPerf Tiny stand-ins") {
  const std::vector<std::string> expected = {
      "linear_128_64", "linear_768_3072",   "linear_1000_500", "conv7x7_224",
      "mlp_784",       "cnn_28",            "transformer_block", "fashion_mlp",
      "fashion_cnn",   "kws_mlp_16000",     "vww_cnn_96",      "ad_autoencoder_640",
      "ic_cnn_32"};
  CHECK(zoo_names() == expected);
  REQUIRE(zoo().size() == expected.size());
  for (const ZooEntry& e : zoo()) {
    CAPTURE(e.name);
    CHECK_FALSE(e.description.empty());
    CHECK(e.spec.at("name") == e.name);
    CHECK(&zoo_spec(e.name) == &e.spec);
  }
}

TEST_CASE("every zoo spec builds into a model with the hand-computed output shape") {
  const auto out = [](const char* name) { return model_from_json(zoo_spec(name)).output_shape(); };
  CHECK(out("linear_128_64") == Shape{32, 64});
  CHECK(out("linear_768_3072") == Shape{32, 3072});
  CHECK(out("linear_1000_500") == Shape{32, 500});
  // floor((224 + 2·3 − 7) / 2) + 1 = 112.
  CHECK(out("conv7x7_224") == Shape{1, 64, 112, 112});
  CHECK(out("mlp_784") == Shape{64, 10});
  CHECK(out("cnn_28") == Shape{32, 10});
  CHECK(out("transformer_block") == Shape{4, 64, 128});
  const Model cnn = model_from_json(zoo_spec("cnn_28"));
  CHECK(cnn.size() == 8);
  CHECK(cnn.output_shapes()[6] == Shape{32, 784});  // 16 × 7 × 7 after two pools
  CHECK(out("fashion_mlp") == Shape{64, 10});
  CHECK(out("fashion_cnn") == Shape{64, 10});
}

TEST_CASE("the Fashion-MNIST models have the hand-computed parameters and matmul FLOPs") {
  // fashion_mlp: 784·256 + 256 + 256·128 + 128 + 128·10 + 10 = 235,146;
  //   2·(784·256 + 256·128 + 128·10) = 469,504 per sample.
  const Model mlp = model_from_json(zoo_spec("fashion_mlp"));
  CHECK(mlp.parameter_count() == 235146);
  CHECK(mlp.flops_per_sample().matmul == 469504);
  // fashion_cnn: conv1 16·9 + 16 = 160, conv2 32·16·9 + 32 = 4,640, Linear 1568·128 + 128 =
  //   200,832, Linear 128·10 + 10 = 1,290: 206,922. FLOPs per sample: conv1 2·9·16·28² =
  //   225,792, conv2 2·144·32·14² = 1,806,336, 2·1568·128 = 401,408, 2·128·10 = 2,560:
  //   2,436,096. Flatten gives 32·7·7 = 1,568 features.
  const Model cnn = model_from_json(zoo_spec("fashion_cnn"));
  CHECK(cnn.parameter_count() == 206922);
  CHECK(cnn.flops_per_sample().matmul == 2436096);
  CHECK(cnn.output_shapes()[6] == Shape{64, 1568});
}

TEST_CASE("the MLPerf Tiny stand-ins have the hand-computed shapes, parameters and FLOPs") {
  // kws_mlp_16000: 16000·64 + 64 + 64·64 + 64 + 64·12 + 12 = 1,029,004;
  //   2·(16000·64 + 64·64 + 64·12) = 2,057,728 per input.
  const Model kws = model_from_json(zoo_spec("kws_mlp_16000"));
  CHECK(kws.output_shape() == Shape{1, 12});
  CHECK(kws.parameter_count() == 1029004);
  CHECK(kws.flops_per_sample().matmul == 2057728);
  // vww_cnn_96: stride-2 3×3 convolutions with padding 1 halve 96 → 48 → 24 → 12 → 6 → 3
  //   (⌊(H + 2 − 3) / 2⌋ + 1); MaxPool 3 leaves 1×1×128. Parameters: 8·27 + 8, 16·72 + 16,
  //   32·144 + 32, 32·288 + 32, 64·288 + 64, 64·576 + 64, 128·576 + 128, 128·2 + 2 = 144,818.
  //   FLOPs 2·C_out·H·W·C_in·9: 995,328 + 1,327,104 + 1,327,104 + 2,654,208 + 1,327,104 +
  //   2,654,208 + 1,327,104 + 512 = 11,612,672.
  const Model vww = model_from_json(zoo_spec("vww_cnn_96"));
  CHECK(vww.output_shape() == Shape{1, 2});
  CHECK(vww.output_shapes()[12] == Shape{1, 128, 3, 3});
  CHECK(vww.parameter_count() == 144818);
  CHECK(vww.flops_per_sample().matmul == 11612672);
  // ad_autoencoder_640: 640·128 + 128, three of 128·128 + 128, 128·8 + 8, 8·128 + 128, three of
  //   128·128 + 128, 128·640 + 640 = 265,864; FLOPs 2·(2·81,920 + 6·16,384 + 2·1,024) = 528,384.
  const Model ad = model_from_json(zoo_spec("ad_autoencoder_640"));
  CHECK(ad.output_shape() == Shape{1, 640});
  CHECK(ad.output_shapes()[8] == Shape{1, 8});  // the bottleneck
  CHECK(ad.parameter_count() == 265864);
  CHECK(ad.flops_per_sample().matmul == 528384);
  // ic_cnn_32: 32×32 for three convolutions, 16×16 after the first stride 2, 8×8 after the
  //   second; MaxPool 8 leaves 1×1×64. Parameters 16·27 + 16, 2·(16·144 + 16), 32·144 + 32,
  //   32·288 + 32, 64·288 + 64, 64·576 + 64, 64·10 + 10 = 75,050. FLOPs 884,736 + 2·4,718,592
  //   + 2,359,296 + 4,718,592 + 2,359,296 + 4,718,592 + 1,280 = 24,478,976.
  const Model ic = model_from_json(zoo_spec("ic_cnn_32"));
  CHECK(ic.output_shape() == Shape{1, 10});
  CHECK(ic.output_shapes()[12] == Shape{1, 64, 8, 8});
  CHECK(ic.parameter_count() == 75050);
  CHECK(ic.flops_per_sample().matmul == 24478976);
}

TEST_CASE("an unknown zoo name is an error that lists the zoo") {
  CHECK_THROWS_WITH_AS(zoo_spec("resnet50"),
                       "unknown zoo model \"resnet50\"; the zoo has linear_128_64, "
                       "linear_768_3072, linear_1000_500, conv7x7_224, mlp_784, cnn_28, "
                       "transformer_block, fashion_mlp, fashion_cnn, kws_mlp_16000, vww_cnn_96, "
                       "ad_autoencoder_640, ic_cnn_32",
                       ValueError);
}

TEST_CASE("mlp_spec writes a Linear/ReLU stack over the widths") {
  const auto spec = mlp_spec({784, 512, 512, 10}, 16);
  CHECK(spec.at("name") == "mlp_784_512_512_10");
  CHECK(spec.at("input") == nlohmann::json::array({16, 784}));
  const Model m = model_from_json(spec);
  REQUIRE(m.size() == 5);
  CHECK(m.layer(0).type() == "Linear");
  CHECK(m.layer(1).type() == "ReLU");
  CHECK(m.layer(4).type() == "Linear");
  // 784·512 + 512 + 512·512 + 512 + 512·10 + 10
  CHECK(m.parameter_count() == 401920 + 262656 + 5130);
  CHECK(m.output_shape() == Shape{16, 10});

  SUBCASE("a single layer has no ReLU") {
    const Model one = model_from_json(mlp_spec({4, 3}, 1));
    CHECK(one.size() == 1);
  }
  SUBCASE("bad widths and batches are errors") {
    CHECK_THROWS_WITH_AS(mlp_spec({784}, 1),
                         "an MLP needs at least two widths (input and output), got 1", ValueError);
    CHECK_THROWS_WITH_AS(mlp_spec({784, 0, 10}, 1), "widths[1] must be a positive integer, got 0",
                         ValueError);
    CHECK_THROWS_WITH_AS(mlp_spec({784, 10}, 0), "batch must be a positive integer, got 0",
                         ValueError);
  }
}
