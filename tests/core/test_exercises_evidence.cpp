// Protects the exercises graded from data: countParameters(model), whose hidden tests carry
// core's Model counts (checked here against formulas written out per layer type), and the
// experiment-backed exercises, whose answers are computed from the rows of the student's own
// run: the batch-32 over batch-1 throughput gain, the median backward/forward ratio, the
// ridge point and the classification of matmul at N = 64 and 1024 on the measured roofline.
// Missing or malformed evidence is an error with a full message that says what to run.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

const char* const kCount = "profiling.count-parameters";
const char* const kThroughput = "profiling.batch-throughput";
const char* const kBackward = "profiling.backward-ratio";
const char* const kRidge = "acceleration.my-ridge";
const char* const kClassify = "acceleration.my-roofline-classify";

// Parameters by the formulas of the exercise's prompt, written out independently of core.
double hand_count(const json& spec) {
  double total = 0;
  for (const auto& l : spec.at("layers")) {
    const std::string type = l.at("type");
    const bool bias = l.value("bias", true);
    if (type == "Linear") {
      const double in = l.at("in"), out = l.at("out");
      total += in * out + (bias ? out : 0);
    } else if (type == "Conv2d") {
      const double c_in = l.at("in_channels"), c_out = l.at("out_channels"), k = l.at("kernel");
      total += c_out * c_in * k * k + (bias ? c_out : 0);
    } else if (type == "LayerNorm") {
      total += 2.0 * l.at("features").get<double>();
    } else if (type == "MultiHeadAttention") {
      const double d = l.at("d_model");
      total += 4 * (d * d + d);
    } else if (type == "TransformerBlock") {
      const double d = l.at("d_model"), ff = l.at("d_ff");
      total += 2 * (2 * d) + 4 * (d * d + d) + (d * ff + ff) + (ff * d + d);
    }
  }
  return total;
}

json batch_row(double batch, double samples_per_s) {
  return {{"name", "mlp"},
          {"batch_size", batch},
          {"samples_per_s", samples_per_s},
          {"ms_per_sample", 1000.0 / samples_per_s},
          {"latency", {{"median_ms", batch * 1000.0 / samples_per_s}}}};
}

json evidence(const char* experiment, json rows) {
  return {{"experiment", experiment}, {"rows", std::move(rows)}};
}

json roofline_row(double n, double peak, double bandwidth) {
  return {{"op", "matmul"},
          {"n", n},
          {"gflops_per_s", 3.5},
          {"peak_gflops_per_s", peak},
          {"bandwidth_gb_per_s", bandwidth}};
}

}  // namespace

TEST_CASE("countParameters tests carry core's counts, equal to the per-layer formulas") {
  std::set<std::string> types;
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    const json v = exercise_variant(kCount, seed);
    REQUIRE(v.at("tests").size() == 7);
    json right = json::array();
    json no_bias_default = json::array();  // treats a missing bias as false
    for (const auto& test : v.at("tests")) {
      const json& spec = test.at("args")[0];
      for (const auto& l : spec.at("layers")) types.insert(l.at("type").get<std::string>());
      right.push_back({{"value", hand_count(spec)}});
      json stripped = spec;
      for (auto& l : stripped["layers"]) {
        if (!l.contains("bias")) l["bias"] = false;
      }
      no_bias_default.push_back({{"value", hand_count(stripped)}});
    }
    const json g = grade_exercise(kCount, seed, {{"results", right}});
    CAPTURE(g.dump());
    CHECK(g.at("correct") == true);
    CHECK(g.at("score") == 10);
    const json bad = grade_exercise(kCount, seed, {{"results", no_bias_default}});
    CHECK(bad.at("correct") == false);
  }
  // Every layer type of the spec format appears in some variant.
  CHECK(types == std::set<std::string>{"Linear", "Conv2d", "ReLU", "GELU", "Sigmoid", "Softmax",
                                       "LayerNorm", "MaxPool2d", "Flatten",
                                       "MultiHeadAttention", "TransformerBlock"});
}

TEST_CASE("countParameters: the transformer block of the zoo has the textbook count") {
  // d_model 128, d_ff 512: LayerNorms 512, attention 4·(128² + 128) = 66,048, FFN 65,536 +
  // 512 + 65,536 + 128 = 131,712: 198,272 in all.
  const json spec = {{"name", "block"},
                     {"input", {1, 64, 128}},
                     {"layers", json::array({{{"type", "TransformerBlock"},
                                              {"d_model", 128},
                                              {"heads", 4},
                                              {"d_ff", 512}}})}};
  CHECK(hand_count(spec) == 198272);
}

TEST_CASE("batch-throughput is graded from the student's samples/s at batch 1 and 32") {
  const json rows = json::array({batch_row(1, 400), batch_row(8, 2000), batch_row(32, 1300)});
  const json ev = evidence("profiling-batch-size", rows);
  // 1300 / 400 = 3.25, within 3%.
  for (const double answer : {3.25, 3.2, 3.3}) {
    CAPTURE(answer);
    const json g = grade_exercise(kThroughput, 5, {{"value", answer}, {"evidence", ev}});
    CHECK(g.at("correct") == true);
    CHECK(g.at("score") == 20);
  }
  const json low = grade_exercise(kThroughput, 5, {{"value", 3.1}, {"evidence", ev}});
  CHECK(low.at("correct") == false);
  CHECK(low.at("feedback") == "Too low: the answer must be within 3%.");
  // The same answer is wrong for another machine's run: the data decides, not a constant.
  const json other = evidence("profiling-batch-size",
                              json::array({batch_row(32, 9000), batch_row(1, 1000)}));
  CHECK(grade_exercise(kThroughput, 5, {{"value", 3.25}, {"evidence", other}}).at("correct") ==
        false);
  CHECK(grade_exercise(kThroughput, 5, {{"value", 9}, {"evidence", other}}).at("correct") == true);
  // The seed does not matter.
  CHECK(grade_exercise(kThroughput, 77, {{"value", 9}, {"evidence", other}}).at("correct") ==
        true);
}

TEST_CASE("experiment-backed answers without usable evidence are errors that say what to run") {
  const json value = 3.25;
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1, {{"value", value}}),
      "answer.evidence is missing: run the batch-size experiment (profiling-batch-size) on this "
      "page first; this exercise is graded from samples_per_s at batch_size 1 and 32 in your "
      "own run",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1, {{"value", value}, {"evidence", json::array()}}),
      "answer.evidence must be an object {experiment, rows}, got []", ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value}, {"evidence", evidence("profiling-model-scaling", {})}}),
      "answer.evidence.experiment must be \"profiling-batch-size\", got "
      "\"profiling-model-scaling\"",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value}, {"evidence", evidence("profiling-batch-size", json::array())}}),
      "answer.evidence.rows must be a non-empty array of the rows of your run, got []; run the "
      "batch-size experiment (profiling-batch-size) on this page first; this exercise is graded "
      "from samples_per_s at batch_size 1 and 32 in your own run",
      ValueError);
  json extra = evidence("profiling-batch-size", json::array({batch_row(1, 1)}));
  extra["when"] = "now";
  CHECK_THROWS_WITH_AS(grade_exercise(kThroughput, 1, {{"value", value}, {"evidence", extra}}),
                       "answer.evidence has an unknown field \"when\"; allowed: \"experiment\", "
                       "\"rows\", \"finished_at\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value},
                      {"evidence", evidence("profiling-batch-size", json::array({batch_row(1, 5), 7}))}}),
      "answer.evidence.rows[1] must be an object (one row of profiling-batch-size), got 7",
      ValueError);

  // The run lacks batch 32.
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value},
                      {"evidence", evidence("profiling-batch-size",
                                            json::array({batch_row(1, 400), batch_row(8, 900)}))}}),
      "your run of the batch-size experiment has no row with batch_size 32 (it has 1, 8); run "
      "the batch-size experiment with batch 1 and 32 first",
      ValueError);
  // A row without the field the exercise reads.
  json missing = batch_row(32, 100);
  missing.erase("samples_per_s");
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value},
                      {"evidence", evidence("profiling-batch-size",
                                            json::array({batch_row(1, 400), missing}))}}),
      "answer.evidence.rows[1] has no field \"samples_per_s\"; rows of profiling-batch-size carry "
      "it (this exercise reads samples_per_s at batch_size 1 and 32): send the rows of that "
      "experiment as they are",
      ValueError);
  // Non-finite numbers cross from JavaScript as null.
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", value},
                      {"evidence", evidence("profiling-batch-size",
                                            json::array({batch_row(1, 400),
                                                         {{"batch_size", 32},
                                                          {"samples_per_s", nullptr}}}))}}),
      "answer.evidence.rows[1].samples_per_s must be a finite number above 0, got null; run the "
      "batch-size experiment again",
      ValueError);
  // A malformed value is still reported once the evidence is fine.
  CHECK_THROWS_WITH_AS(
      grade_exercise(kThroughput, 1,
                     {{"value", "3"},
                      {"evidence", evidence("profiling-batch-size",
                                            json::array({batch_row(1, 4), batch_row(32, 8)}))}}),
      "answer.value must be a finite number, got \"3\"", ValueError);
  // Exercises that are not experiment-backed refuse evidence like any unknown field.
  CHECK_THROWS_WITH_AS(
      grade_exercise("profiling.linear-params", 1,
                     {{"value", 1}, {"evidence", evidence("profiling-batch-size", {})}}),
      "answer has an unknown field \"evidence\"; allowed: \"value\"", ValueError);
}

TEST_CASE("backward-ratio is the median of measured_ms / forward_ms over the student's rows") {
  const auto row = [](double backward_ms, double forward_ms) {
    return json{{"batch_size", 32},
                {"measured_ms", backward_ms},
                {"forward_ms", forward_ms},
                {"estimated_ms", 2 * forward_ms},
                {"ratio_to_forward", backward_ms / forward_ms}};
  };
  // Ratios 1.5, 2.5 and 4: the median is 2.5 (the mean, 2.67, is outside 3%).
  const json ev = evidence("profiling-forward-backward",
                           json::array({row(3, 2), row(10, 4), row(20, 5)}));
  CHECK(grade_exercise(kBackward, 2, {{"value", 2.5}, {"evidence", ev}}).at("correct") == true);
  CHECK(grade_exercise(kBackward, 2, {{"value", 8.0 / 3.0}, {"evidence", ev}}).at("correct") ==
        false);
  // One row: its ratio.
  const json one = evidence("profiling-forward-backward", json::array({row(7, 2)}));
  CHECK(grade_exercise(kBackward, 2, {{"value", 3.5}, {"evidence", one}}).at("correct") == true);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kBackward, 2,
                     {{"value", 2},
                      {"evidence", evidence("profiling-forward-backward",
                                            json::array({row(3, 2), row(1, 0)}))}}),
      "answer.evidence.rows[1].forward_ms must be a finite number above 0, got 0; run the "
      "forward-vs-backward experiment again",
      ValueError);
}

TEST_CASE("my-ridge is the measured peak over the measured bandwidth of the student's run") {
  const json ev = evidence("acceleration-roofline",
                           json::array({roofline_row(64, 48, 12), roofline_row(256, 48, 12)}));
  // Ridge 48 / 12 = 4 FLOP/byte; an add attains 12 / 12 = 1 GFLOP/s.
  const auto answer = [&](double ridge, double add) {
    return grade_exercise(kRidge, 9, {{"values", {ridge, add}}, {"evidence", ev}});
  };
  const json g = answer(4, 1);
  CHECK(g.at("correct") == true);
  CHECK(g.at("score") == 15);
  CHECK(answer(4.07, 0.99).at("correct") == true);
  // The inverse (bandwidth / peak) and the peak itself are wrong.
  const json wrong = answer(0.25, 48);
  CHECK(wrong.at("parts")[0].at("correct") == false);
  CHECK(wrong.at("parts")[1].at("correct") == false);
  CHECK(answer(4, 48).at("score") == doctest::Approx(7.5));
  json no_roof = roofline_row(64, 48, 12);
  no_roof.erase("bandwidth_gb_per_s");
  CHECK_THROWS_WITH_AS(
      grade_exercise(kRidge, 9,
                     {{"values", {4, 1}},
                      {"evidence", evidence("acceleration-roofline", json::array({no_roof}))}}),
      "answer.evidence.rows[0] has no field \"bandwidth_gb_per_s\"; rows of acceleration-roofline "
      "carry it (this exercise reads peak_gflops_per_s and bandwidth_gb_per_s): send the rows of "
      "that experiment as they are",
      ValueError);
}

TEST_CASE("my-roofline-classify places each try's two matmuls at N/6 against the student's own ridge") {
  // Choices in the bank's order: (smaller N, larger N) = (mem, mem), (mem, compute),
  // (compute, mem), (compute, compute). Ridges 4, 20 and 200 FLOP/byte.
  std::set<std::pair<std::int64_t, std::int64_t>> pairs;
  std::set<int> answers;
  for (const double ridge : {4.0, 20.0, 200.0}) {
    const json ev =
        evidence("acceleration-roofline", json::array({roofline_row(64, 10 * ridge, 10)}));
    for (std::uint32_t seed : {4u, 5u, 6u}) {
      for (int attempt = 1; attempt <= 3; ++attempt) {
        CAPTURE(ridge);
        CAPTURE(seed);
        CAPTURE(attempt);
        const json v = choice_variant(kClassify, seed, attempt);
        const std::int64_t small = v.at("params").at("n_small");
        const std::int64_t large = v.at("params").at("n_large");
        REQUIRE(small < large);
        pairs.insert({small, large});
        CHECK(v.at("prompt").get<std::string>().find(
                  "place a " + std::to_string(small) + "×" + std::to_string(small) + " and a " +
                  std::to_string(large) + "×" + std::to_string(large)) != std::string::npos);
        CHECK(v.at("choices")[1] == "N = " + std::to_string(small) + " memory-bound, N = " +
                                        std::to_string(large) + " compute-bound");
        const bool small_compute = static_cast<double>(small) / 6.0 >= ridge;
        const bool large_compute = static_cast<double>(large) / 6.0 >= ridge;
        const int right = (small_compute ? 2 : 0) + (large_compute ? 1 : 0);
        answers.insert(right);
        for (int choice = 0; choice < 4; ++choice) {
          const json g = grade_exercise(
              kClassify, seed, {{"choice", choice}, {"attempt", attempt}, {"evidence", ev}});
          CHECK(g.at("correct") == (choice == right));
          CHECK(g.at("score") == (choice == right ? 20 * choice_score_fraction(attempt) : 0));
        }
      }
    }
  }
  CHECK(pairs.size() >= 5);    // the sizes change from try to try
  CHECK(answers.size() >= 3);  // and with them the verdict
  CHECK_THROWS_WITH_AS(grade_exercise(kClassify, 4, {{"choice", 3}}),
                       "answer.evidence is missing: run the roofline experiment "
                       "(acceleration-roofline) on this page first; this exercise is graded from "
                       "peak_gflops_per_s and bandwidth_gb_per_s in your own run",
                       ValueError);
}
