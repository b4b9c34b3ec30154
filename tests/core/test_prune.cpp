// Magnitude pruning (optimize/prune.hpp) on weights set by hand: per tensor each weight tensor
// loses its own smallest weights, globally one threshold decides over all of them; exact
// counts, ties broken by position, biases untouched; the zero mask puts pruned weights back to
// zero after fine-tuning moved them; bad sparsities are sentences.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/optimize/prune.hpp"
#include "weight_helpers.hpp"

using namespace perflab;
using weight_test::parameter;
using weight_test::set_values;
using weight_test::values;

namespace {

Model hand_model() {
  Model m = model_from_json(weight_test::kTwoLinear);
  set_values(m, "0.weight", {0.5f, -1.0f, 0.005f, 2.0f});
  set_values(m, "0.bias", {0.001f, 0.001f});
  set_values(m, "2.weight", {0.0005f, -0.05f});
  set_values(m, "2.bias", {0.0f});
  return m;
}

}  // namespace

TEST_CASE("Per-tensor magnitude pruning zeroes each tensor's own smallest weights") {
  Model m = hand_model();
  const PruneReport r = prune_magnitude(m, 0.5, PruneScope::Layer);
  // 0.weight: 2 of 4, |w| 0.005 and 0.5; 2.weight: 1 of 2, |w| 0.0005.
  CHECK(values(m, "0.weight") == std::vector<float>{0.0f, -1.0f, 0.0f, 2.0f});
  CHECK(values(m, "2.weight") == std::vector<float>{0.0f, -0.05f});
  CHECK(values(m, "0.bias") == std::vector<float>{0.001f, 0.001f});  // biases stay
  REQUIRE(r.tensors.size() == 2);
  CHECK(r.tensors[0].zeroed == 2);
  CHECK(r.tensors[0].threshold == doctest::Approx(0.5));
  CHECK(r.tensors[1].zeroed == 1);
  CHECK(r.tensors[1].threshold == doctest::Approx(0.0005).scale(0));
  CHECK(r.count == 6);
  CHECK(r.zeroed == 3);
  CHECK(r.achieved() == 0.5);
  const nlohmann::json lineage = prune_lineage(r, 2);
  CHECK(lineage == nlohmann::json({{"transform", "prune"},
                                   {"method", "magnitude"},
                                   {"scope", "layer"},
                                   {"sparsity", 0.5},
                                   {"achieved", 0.5},
                                   {"finetune_epochs", 2}}));
  CHECK(to_json(r)["tensors"][1]["zeroed"] == 1);
}

TEST_CASE("Global magnitude pruning puts one threshold over every weight tensor") {
  Model m = hand_model();
  const PruneReport r = prune_magnitude(m, 0.5, PruneScope::Global);
  // The 3 smallest of all 6 |w|: 0.0005, 0.005, 0.05: the small layer loses both weights.
  CHECK(values(m, "0.weight") == std::vector<float>{0.5f, -1.0f, 0.0f, 2.0f});
  CHECK(values(m, "2.weight") == std::vector<float>{0.0f, 0.0f});
  CHECK(r.tensors[0].zeroed == 1);
  CHECK(r.tensors[1].zeroed == 2);
  CHECK(r.tensors[1].threshold == doctest::Approx(0.05));
  CHECK(r.zeroed == 3);
  CHECK(to_json(r)["scope"] == "global");
}

TEST_CASE("Pruning counts exactly, breaks ties by position, and refuses a sparsity outside [0, 1)") {
  Model m = hand_model();
  std::fill(parameter(m, "0.weight").data(), parameter(m, "0.weight").data() + 4, 0.25f);
  const PruneReport r = prune_magnitude(m, 0.25, PruneScope::Layer);
  // round(0.25 × 4) = 1 of the four equal weights: the first; round(0.25 × 2) = 1 (0.5 rounds up).
  CHECK(values(m, "0.weight") == std::vector<float>{0.0f, 0.25f, 0.25f, 0.25f});
  CHECK(r.tensors[1].zeroed == 1);
  Model none = hand_model();
  CHECK(prune_magnitude(none, 0.0, PruneScope::Global).zeroed == 0);
  CHECK(values(none, "2.weight") == std::vector<float>{0.0005f, -0.05f});
  for (double bad : {1.0, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(prune_magnitude(none, bad, PruneScope::Layer), ValueError);
  }
  CHECK_THROWS_WITH_AS(prune_magnitude(none, 1.0, PruneScope::Layer),
                       "sparsity must be at least 0 and below 1 (0.5 zeroes half the weights), "
                       "got 1",
                       ValueError);
  CHECK_THROWS_WITH_AS(prune_scope_from_name("row"),
                       "scope must be \"layer\" (each weight tensor loses the same fraction) or "
                       "\"global\" (one threshold over all weights), got \"row\"",
                       ValueError);
  CHECK(prune_scope_from_name("global") == PruneScope::Global);
  Model relu = model_from_json({{"input", {1, 4}}, {"layers", {{{"type", "ReLU"}}}}});
  CHECK_THROWS_WITH_AS(prune_magnitude(relu, 0.5, PruneScope::Layer),
                       "model model has no weight tensors; pruning has nothing to remove",
                       ValueError);
}

TEST_CASE("The zero mask puts pruned weights back to zero after an update moved them") {
  Model m = hand_model();
  prune_magnitude(m, 0.5, PruneScope::Layer);
  const ZeroMask mask = zero_mask_of(m);
  REQUIRE(mask.zeros.size() == 2);
  CHECK(mask.zeros[0] == std::vector<std::uint32_t>{0, 2});
  CHECK(mask.zeros[1] == std::vector<std::uint32_t>{0});
  // What an optimizer step does: every weight moves.
  for (const char* name : {"0.weight", "2.weight"}) {
    Tensor& t = parameter(m, name);
    for (std::size_t i = 0; i < t.size(); ++i) t.data()[i] += 0.125f;
  }
  reapply_zeros(m, mask);
  CHECK(values(m, "0.weight") == std::vector<float>{0.0f, -0.875f, 0.0f, 2.125f});
  CHECK(values(m, "2.weight")[0] == 0.0f);
  CHECK(values(m, "2.weight")[1] == doctest::Approx(0.075));
  Model relu = model_from_json({{"input", {1, 4}}, {"layers", {{{"type", "Linear"}, {"in", 4}, {"out", 1}}}}});
  CHECK_THROWS_WITH_AS(reapply_zeros(relu, mask),
                       "the zero mask has 2 weight tensors; model model has 1", ValueError);
}
