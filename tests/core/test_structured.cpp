// What this file protects: structured pruning (optimize/structured.hpp) and fine-tuning
// (optimize/finetune.hpp). The units removed are the ones with the smallest incoming norm,
// the shrunk model computes exactly what the original computes with those units silenced
// (for an MLP and for a CNN through pooling and Flatten), the counts in the report are the
// models', layers that cannot shrink are left alone or refused in a sentence, and fine-tuning
// runs at the learning rate its transform asks for and holds magnitude pruning's zeros.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/optimize/finetune.hpp"
#include "perflab/optimize/prune.hpp"
#include "perflab/optimize/structured.hpp"
#include "real_data.hpp"
#include "weight_helpers.hpp"

using namespace perflab;
using weight_test::parameter;
using weight_test::set_values;
using weight_test::values;

namespace {

Model from(const nlohmann::json& spec) { return model_from_json(spec); }

// Max |a − b| over two forward outputs of the same shape.
double max_difference(const Tensor& a, const Tensor& b) {
  REQUIRE(a.shape() == b.shape());
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(double(a.data()[i]) - b.data()[i]));
  return m;
}

const nlohmann::json kMlp = {{"name", "mlp"},
                             {"input", {5, 6}},
                             {"seed", 3},
                             {"layers",
                              {{{"type", "Linear"}, {"in", 6}, {"out", 8}},
                               {{"type", "ReLU"}},
                               {{"type", "Linear"}, {"in", 8}, {"out", 4}},
                               {{"type", "GELU"}},
                               {{"type", "Linear"}, {"in", 4}, {"out", 3}}}}};

const nlohmann::json kCnn = {{"name", "cnn"},
                             {"input", {2, 2, 6, 6}},
                             {"seed", 5},
                             {"layers",
                              {{{"type", "Conv2d"}, {"in_channels", 2}, {"out_channels", 4}, {"kernel", 3}, {"padding", 1}},
                               {{"type", "ReLU"}},
                               {{"type", "MaxPool2d"}, {"kernel", 2}},
                               {{"type", "Conv2d"}, {"in_channels", 4}, {"out_channels", 6}, {"kernel", 3}, {"padding", 1}},
                               {{"type", "ReLU"}},
                               {{"type", "Flatten"}},
                               {{"type", "Linear"}, {"in", 54}, {"out", 5}}}}};

}  // namespace

TEST_CASE("Structured pruning removes the units with the smallest incoming norm and shrinks both sides") {
  Model m = from(weight_test::kTwoLinear);
  // 0.weight is (in 2, out 2): column 0 = (3, 4), norm 5; column 1 = (0.6, 0.8), norm 1.
  set_values(m, "0.weight", {3.0f, 0.6f, 4.0f, 0.8f});
  set_values(m, "0.bias", {0.5f, -0.25f});
  set_values(m, "2.weight", {2.0f, 7.0f});
  StructuredPrune r = prune_structured(m, 0.5);
  REQUIRE(r.report.layers.size() == 1);  // the last Linear keeps its outputs
  CHECK(r.report.layers[0].layer == 0);
  CHECK(r.report.layers[0].before == 2);
  CHECK(r.report.layers[0].after == 1);
  CHECK(r.report.layers[0].kept == std::vector<std::size_t>{0});
  CHECK(values(r.model, "0.weight") == std::vector<float>{3.0f, 4.0f});
  CHECK(values(r.model, "0.bias") == std::vector<float>{0.5f});
  CHECK(values(r.model, "2.weight") == std::vector<float>{2.0f});
  CHECK(values(r.model, "2.bias") == values(m, "2.bias"));
  CHECK(model_to_json(r.model)["layers"][0]["out"] == 1);
  CHECK(model_to_json(r.model)["layers"][2]["in"] == 1);
  CHECK(r.report.parameters_before == m.parameter_count());
  CHECK(r.report.parameters_after == r.model.parameter_count());
  CHECK(r.report.parameters_after == 2 + 1 + 1 + 1);
  CHECK(r.report.flops_before == m.flops_per_sample().total());
  CHECK(r.report.flops_after == r.model.flops_per_sample().total());
  // Equal norms: the lower index stays.
  set_values(m, "0.weight", {1.0f, 1.0f, 0.0f, 0.0f});
  CHECK(prune_structured(m, 0.5).report.layers[0].kept == std::vector<std::size_t>{0});
}

TEST_CASE("A shrunk MLP computes what the original computes with the removed units silenced") {
  Model m = from(kMlp);
  StructuredPrune r = prune_structured(m, 0.5);
  REQUIRE(r.report.layers.size() == 2);
  CHECK(r.report.layers[0].after == 4);
  CHECK(r.report.layers[1].after == 2);
  // Silence the removed units in the original: their outgoing weights (rows of the next W).
  const Tensor x = Tensor::random({5, 6}, 11);
  const Tensor shrunk_out = r.model.forward(x);
  for (const ShrunkLayer& l : r.report.layers) {
    const std::size_t next = l.layer + 2;
    Tensor& w = parameter(m, std::to_string(next) + ".weight");  // (units, out)
    const std::size_t out = w.size() / l.before;
    for (std::size_t u = 0; u < l.before; ++u) {
      if (std::find(l.kept.begin(), l.kept.end(), u) != l.kept.end()) continue;
      for (std::size_t o = 0; o < out; ++o) w.data()[u * out + o] = 0.0f;
    }
  }
  CHECK(max_difference(m.forward(x), shrunk_out) < 1e-5);
  // The removed units had the smallest norms of their layer.
  const Tensor& w0 = parameter(m, "0.weight");
  std::vector<double> norm(8, 0.0);
  for (std::size_t k = 0; k < 6; ++k) {
    for (std::size_t u = 0; u < 8; ++u) norm[u] += double(w0.data()[k * 8 + u]) * w0.data()[k * 8 + u];
  }
  double smallest_kept = 1e30, largest_removed = 0;
  for (std::size_t u = 0; u < 8; ++u) {
    const auto& kept = r.report.layers[0].kept;
    const bool k = std::find(kept.begin(), kept.end(), u) != kept.end();
    (k ? smallest_kept : largest_removed) = k ? std::min(smallest_kept, norm[u]) : std::max(largest_removed, norm[u]);
  }
  CHECK(largest_removed <= smallest_kept);
}

TEST_CASE("A shrunk CNN drops channels through pooling and Flatten, and keeps its outputs") {
  Model m = from(kCnn);
  StructuredPrune r = prune_structured(m, 0.5);
  REQUIRE(r.report.layers.size() == 2);
  CHECK(r.report.layers[0].type == "Conv2d");
  CHECK(r.report.layers[0].after == 2);
  CHECK(r.report.layers[1].after == 3);
  const nlohmann::json spec = model_to_json(r.model);
  CHECK(spec["layers"][3]["in_channels"] == 2);
  CHECK(spec["layers"][6]["in"] == 3 * 3 * 3);  // 3 channels of 3×3 after the pool
  const Tensor x = Tensor::random({2, 2, 6, 6}, 13);
  const Tensor shrunk_out = r.model.forward(x);
  CHECK(shrunk_out.shape() == Shape{2, 5});
  // Silence the removed channels in the original: the next Conv2d's input channels, and the
  // Linear's rows of every removed channel's 9 positions.
  Tensor& w3 = parameter(m, "3.weight");  // (6, 4, 3, 3)
  for (std::size_t o = 0; o < 6; ++o) {
    for (std::size_t c = 0; c < 4; ++c) {
      const auto& kept = r.report.layers[0].kept;
      if (std::find(kept.begin(), kept.end(), c) != kept.end()) continue;
      for (std::size_t e = 0; e < 9; ++e) w3.data()[(o * 4 + c) * 9 + e] = 0.0f;
    }
  }
  Tensor& w6 = parameter(m, "6.weight");  // (54, 5)
  for (std::size_t c = 0; c < 6; ++c) {
    const auto& kept = r.report.layers[1].kept;
    if (std::find(kept.begin(), kept.end(), c) != kept.end()) continue;
    for (std::size_t row = c * 9; row < (c + 1) * 9; ++row) {
      for (std::size_t o = 0; o < 5; ++o) w6.data()[row * 5 + o] = 0.0f;
    }
  }
  CHECK(max_difference(m.forward(x), shrunk_out) < 1e-5);
}

TEST_CASE("Structured pruning at 0 keeps the model, and refuses a fraction or a model it cannot prune") {
  Model m = from(kMlp);
  const Tensor x = Tensor::random({5, 6}, 17);
  StructuredPrune same = prune_structured(m, 0.0);
  CHECK(same.report.parameters_after == same.report.parameters_before);
  CHECK(max_difference(same.model.forward(x), m.forward(x)) == 0.0);
  // At least one unit stays however large the fraction.
  CHECK(prune_structured(m, 0.99).report.layers[1].after == 1);
  for (double bad : {1.0, -0.1, std::nan("")}) {
    CHECK_THROWS_WITH_AS(prune_structured(m, bad),
                         doctest::Contains("fraction must be at least 0 and below 1"), ValueError);
  }
  // Normalising across units (Softmax, LayerNorm) mixes them: nothing there can be removed.
  const nlohmann::json mixed = {{"name", "mixed"},
                                {"input", {1, 4}},
                                {"layers",
                                 {{{"type", "Linear"}, {"in", 4}, {"out", 4}},
                                  {{"type", "LayerNorm"}, {"features", 4}},
                                  {{"type", "Linear"}, {"in", 4}, {"out", 2}}}}};
  Model n = from(mixed);
  CHECK_THROWS_WITH_AS(prune_structured(n, 0.5),
                       doctest::Contains("model mixed has no hidden units to remove"), ValueError);
  // A layer that cannot shrink keeps its parameters in the shrunk model.
  const nlohmann::json partly = {{"name", "partly"},
                                 {"input", {1, 4}},
                                 {"layers",
                                  {{{"type", "Linear"}, {"in", 4}, {"out", 4}},
                                   {{"type", "LayerNorm"}, {"features", 4}},
                                   {{"type", "Linear"}, {"in", 4}, {"out", 6}},
                                   {{"type", "ReLU"}},
                                   {{"type", "Linear"}, {"in", 6}, {"out", 2}}}}};
  Model p = from(partly);
  StructuredPrune pr = prune_structured(p, 0.5);
  REQUIRE(pr.report.layers.size() == 1);
  CHECK(pr.report.layers[0].layer == 2);
  CHECK(values(pr.model, "0.weight") == values(p, "0.weight"));
  CHECK(values(pr.model, "1.gamma") == values(p, "1.gamma"));
}

TEST_CASE("Structured pruning's report and lineage say what was removed") {
  Model m = from(kMlp);
  const StructuredPruneReport r = prune_structured(m, 0.5).report;
  const nlohmann::json j = to_json(r);
  CHECK(j["fraction"] == 0.5);
  CHECK(j["parameters_before"] == m.parameter_count());
  CHECK(j["layers"].size() == 2);
  CHECK(j["layers"][1] == nlohmann::json{{"layer", 2}, {"type", "Linear"}, {"before", 4}, {"after", 2}});
  const nlohmann::json l = structured_prune_lineage(r, 2);
  CHECK(l["transform"] == "prune");
  CHECK(l["method"] == "structured");
  CHECK(l["finetune_epochs"] == 2);
  CHECK(l["layers"][0] == nlohmann::json{{"layer", 0}, {"before", 8}, {"after", 4}});
}

TEST_CASE("Fine-tuning's recipe: a tenth of the learning rate after zeroing, the recipe's own after shrinking") {
  Model m = from(weight_test::kTwoLinear);
  ModelFile file{std::move(m), Preprocessing{}, std::nullopt};
  const TrainRecipe base{};
  const TrainRecipe zeroed = finetune_recipe(file, 2, 1000, FinetuneAfter::Zeroed);
  const TrainRecipe shrunk = finetune_recipe(file, 2, 1000, FinetuneAfter::Shrunk);
  CHECK(zeroed.learning_rate == doctest::Approx(base.learning_rate / 10).scale(0));
  CHECK(shrunk.learning_rate == doctest::Approx(base.learning_rate).scale(0));
  CHECK(zeroed.epochs == 2);
  CHECK(zeroed.init == "keep");
  CHECK(zeroed.validation_samples <= default_validation_samples(1000));
  CHECK_THROWS_WITH_AS(finetune_recipe(file, 0, 1000, FinetuneAfter::Shrunk),
                       doctest::Contains("at least 1 epoch"), ValueError);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("Fine-tuning a pruned MLP on a tiny real subset holds its zeros, and a shrunk one learns") {
  const LabeledImages train = take_first(real_data::fashion_mnist("train"), 600);
  const nlohmann::json spec = {{"name", "small"},
                               {"input", {32, 784}},
                               {"seed", 1},
                               {"layers",
                                {{{"type", "Linear"}, {"in", 784}, {"out", 32}},
                                 {{"type", "ReLU"}},
                                 {{"type", "Linear"}, {"in", 32}, {"out", 10}}}}};
  ModelFile zeroed{model_from_json(spec), Preprocessing{}, std::nullopt};
  prune_magnitude(zeroed.model, 0.5, PruneScope::Layer);
  const std::vector<float> before = values(zeroed.model, "0.weight");
  const TrainResult t = finetune(zeroed, train, 1, FinetuneAfter::Zeroed);
  REQUIRE(t.epochs.size() == 1);
  const std::vector<float> after = values(zeroed.model, "0.weight");
  std::size_t zeros = 0, moved = 0;
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i] == 0.0f) {
      CHECK(after[i] == 0.0f);
      ++zeros;
    } else if (after[i] != before[i]) {
      ++moved;
    }
  }
  CHECK(zeros == before.size() / 2);
  CHECK(moved > before.size() / 4);  // the kept weights did train

  Model base = model_from_json(spec);
  StructuredPrune shrunk = prune_structured(base, 0.5);
  ModelFile file{std::move(shrunk.model), Preprocessing{}, std::nullopt};
  const TrainResult s = finetune(file, train, 2, FinetuneAfter::Shrunk);
  REQUIRE(s.epochs.size() == 2);
  CHECK(s.epochs[1].train_loss < s.epochs[0].train_loss);
}
#endif
