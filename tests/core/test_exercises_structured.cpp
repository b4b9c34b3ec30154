// Protects optimization.structured-layers, graded from the student's own structured-pruning
// run: the rows are the pruned model's Linear layers (in → out) the page publishes; the
// second layer's parameters (in·out + out) and the first layer's forward FLOPs at the
// prompt's batch (2·in·out·batch) are recomputed here by hand; the usual mistakes (the
// baseline's widths, biases left out, FLOPs per image, one FLOP per multiply-accumulate)
// fail; another run's widths change the answer; a run without those layers is a sentence
// saying what to run; feedback never shows the expected value.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;
using exercise_test::contains;

namespace {

const char* const kLayers = "optimization.structured-layers";
constexpr double kBatch = 64;  // the prompt's

// The pruned fashion_mlp's Linear layers at hidden widths h1, h2.
json rows(double h1, double h2) {
  return json::array({{{"linear", 0}, {"in", 784}, {"out", h1}},
                      {{"linear", 1}, {"in", h1}, {"out", h2}},
                      {{"linear", 2}, {"in", h2}, {"out", 10}}});
}

json answer(double params, double flops, const json& r) {
  return {{"values", {params, flops}},
          {"evidence", {{"experiment", "optimization-structured"}, {"rows", r}}}};
}

}  // namespace

TEST_CASE("structured-layers: the second layer's parameters and the first's FLOPs, from the run") {
  const json v = exercise_variant(kLayers, 1);
  CHECK(contains(v.at("prompt").get<std::string>(), "for a batch of 64 images"));
  const double widths[][2] = {{128, 64}, {192, 96}, {64, 32}};
  for (const auto& w : widths) {
    const double h1 = w[0], h2 = w[1];
    CAPTURE(h1);
    const json run = rows(h1, h2);
    const double params = h1 * h2 + h2, flops = 2 * 784 * h1 * kBatch;
    for (std::uint32_t seed : {1u, 9u}) {
      const json right = grade_exercise(kLayers, seed, answer(params, flops, run));
      CHECK(right.at("correct") == true);
      CHECK(right.at("score") == 15);
    }
    // Biases left out; FLOPs per image; one FLOP per multiply-accumulate; the baseline's widths.
    const json no_bias = grade_exercise(kLayers, 1, answer(h1 * h2, flops, run));
    CHECK(no_bias.at("correct") == false);
    CHECK(no_bias.at("score") < 15);
    CHECK(no_bias.at("score") > 0);
    CHECK(grade_exercise(kLayers, 1, answer(params, 2 * 784 * h1, run)).at("correct") == false);
    CHECK(grade_exercise(kLayers, 1, answer(params, 784 * h1 * kBatch, run)).at("correct") ==
          false);
    const json baseline =
        grade_exercise(kLayers, 1, answer(256.0 * 128 + 128, 2 * 784 * 256 * kBatch, run));
    CHECK(baseline.at("score") == 0);
    // Feedback says right or wrong, never the expected value.
    CHECK_FALSE(contains(no_bias.dump(), std::to_string(static_cast<long long>(params))));
  }
  // The same numbers are wrong for another run: the data decides.
  CHECK(grade_exercise(kLayers, 1, answer(128.0 * 64 + 64, 2 * 784 * 128 * kBatch, rows(192, 96)))
            .at("score") == 0);
}

TEST_CASE("structured-layers: a run without the layers asked is a sentence saying what to run") {
  json run = rows(128, 64);
  run.erase(1);
  CHECK_THROWS_WITH_AS(grade_exercise(kLayers, 3, answer(1, 1, run)),
                       "your run of the structured-pruning experiment has no Linear layer 1 (it "
                       "lists 2 layers); run the structured-pruning experiment again",
                       ValueError);
  CHECK_THROWS_AS(grade_exercise(kLayers, 3, {{"values", {1, 1}}}), ValueError);
  json bad = rows(128, 64);
  bad[0]["out"] = nullptr;
  CHECK_THROWS_AS(grade_exercise(kLayers, 3, answer(1, 1, bad)), ValueError);
}
