// Protects the Acceleration chapter's exercises: every expected answer is recomputed here by
// hand from the variant's own parameters (N/6, 1/12, 72 and 8 bytes per GELU element,
// min(peak, I·B), peak/B, Amdahl), right answers score full points and wrong ones do not;
// choice answers follow the scenario or the roofline; the code exercises' hidden tests carry
// core's values; and the speed rule of the timed matmul test (graded from the sandbox's
// medians) passes at 1.2× and fails below it, with both times and the ratio in the message.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"
#include "exercise_helpers.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/roofline/roofline.hpp"

using namespace perflab;
using nlohmann::json;
using exercise_test::choice_starting_with;
using exercise_test::contains;

namespace {

constexpr std::uint32_t kSeeds = 40;

double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

json grade_values(const char* id, std::uint32_t seed, const std::vector<double>& values) {
  return grade_exercise(id, seed, {{"values", values}});
}

// Every answer right: the product of the test's small-integer matrices, by hand.
json right_matmul_results(const json& variant) {
  json results = json::array();
  for (const auto& test : variant.at("tests")) {
    if (test.contains("benchmark")) {
      const auto rounds = test.at("benchmark").at("rounds").get<std::size_t>();
      results.push_back({{"value",
                          {{"student_ms", std::vector<double>(rounds, 10.0)},
                           {"reference_ms", std::vector<double>(rounds, 30.0)},
                           {"max_abs_difference", 0.0}}}});
      continue;
    }
    const json& a = test.at("args")[0];
    const json& b = test.at("args")[1];
    const auto n = test.at("args")[2].get<std::size_t>();
    std::vector<double> c(n * n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        for (std::size_t k = 0; k < n; ++k) {
          c[i * n + j] += a[i * n + k].get<double>() * b[k * n + j].get<double>();
        }
      }
    }
    results.push_back({{"value", c}});
  }
  return results;
}

}  // namespace

TEST_CASE("intensity exercise: an N×N matmul has N/6 FLOP/byte and an add 1/12") {
  std::set<double> sizes;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.intensity", seed);
    const double n = param(v, "n");
    sizes.insert(n);
    CAPTURE(n);
    const json right = grade_values("acceleration.intensity", seed, {n / 6.0, 1.0 / 12.0});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    // Counting the bytes of one matrix only (2N³ / 4N² = N/2) is wrong.
    const json wrong = grade_values("acceleration.intensity", seed, {n / 2.0, 1.0 / 12.0});
    CHECK(wrong.at("correct") == false);
    CHECK(wrong.at("parts")[0].at("correct") == false);
    CHECK(wrong.at("parts")[1].at("correct") == true);
    CHECK(wrong.at("score") == doctest::Approx(5));
  }
  CHECK(sizes.size() >= 5);
}

TEST_CASE("gelu-traffic exercise: 72 bytes per element unfused, 8 fused, and the time saved") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.gelu-traffic", seed);
    const double n = param(v, "elements");
    const double bandwidth = param(v, "bandwidth_gb_per_s");
    CAPTURE(n);
    CAPTURE(bandwidth);
    const double unfused_mb = 72.0 * n / 1e6;
    const double fused_mb = 8.0 * n / 1e6;
    const double saved_ms = (72.0 - 8.0) * n / (bandwidth * 1e9) * 1e3;
    CHECK(grade_values("acceleration.gelu-traffic", seed, {unfused_mb, fused_mb, saved_ms})
              .at("correct") == true);
    // The saving as a ratio (9×) instead of milliseconds fails that part only.
    const json ratio = grade_values("acceleration.gelu-traffic", seed, {unfused_mb, fused_mb, 9});
    CHECK(ratio.at("parts")[2].at("correct") == false);
    CHECK(ratio.at("feedback") == "2 of 3 parts correct.");
  }
  const json prompt = exercise_variant("acceleration.gelu-traffic", 1).at("prompt");
  CHECK(contains(prompt.get<std::string>(), "eight passes"));
}

TEST_CASE("attainable exercise: min(peak, intensity × bandwidth), on both sides of the ridge") {
  int memory = 0, compute = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.attainable", seed);
    const double peak = param(v, "peak_gflops_per_s");
    const double bandwidth = param(v, "bandwidth_gb_per_s");
    const double intensity = param(v, "intensity");
    const double expected = std::min(peak, intensity * bandwidth);
    (intensity * bandwidth < peak ? memory : compute) += 1;
    CAPTURE(v.dump());
    CHECK(grade_exercise("acceleration.attainable", seed, {{"value", expected}}).at("correct") ==
          true);
    CHECK(grade_exercise("acceleration.attainable", seed, {{"value", expected * 1.009}})
              .at("correct") == true);
    // The other roof is wrong whenever the two differ by more than the tolerance.
    const double other = intensity * bandwidth < peak ? peak : intensity * bandwidth;
    if (std::fabs(other - expected) > 0.02 * expected) {
      CHECK(grade_exercise("acceleration.attainable", seed, {{"value", other}}).at("correct") ==
            false);
    }
  }
  CHECK(memory > 5);
  CHECK(compute > 5);
}

TEST_CASE("ridge exercise: peak / bandwidth and the smallest N with N/6 at or above it") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.ridge", seed);
    const auto peak = static_cast<std::int64_t>(param(v, "peak_gflops_per_s"));
    const auto bandwidth = static_cast<std::int64_t>(param(v, "bandwidth_gb_per_s"));
    // N/6 ≥ peak/B  ⇔  N·B ≥ 6·peak, in integers: no rounding question.
    const std::int64_t n = (6 * peak + bandwidth - 1) / bandwidth;
    CAPTURE(peak);
    CAPTURE(bandwidth);
    const json right = grade_values("acceleration.ridge", seed,
                                    {static_cast<double>(peak) / static_cast<double>(bandwidth),
                                     static_cast<double>(n)});
    CHECK(right.at("correct") == true);
    const json off_by_one = grade_values(
        "acceleration.ridge", seed,
        {static_cast<double>(peak) / static_cast<double>(bandwidth), static_cast<double>(n - 1)});
    CHECK(off_by_one.at("parts")[1].at("correct") == false);
  }
}

TEST_CASE("simd-speedup exercise: lanes from the widths and Amdahl's law for the speedup") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.simd-speedup", seed);
    const double lanes = param(v, "vector_bits") / param(v, "element_bits");
    const double p = param(v, "percent") / 100.0;
    CAPTURE(v.dump());
    CHECK(v.at("params").at("element") == (param(v, "element_bits") == 64 ? "float64" : "float32"));
    const json right =
        grade_values("acceleration.simd-speedup", seed, {lanes, 1.0 / ((1 - p) + p / lanes)});
    CHECK(right.at("correct") == true);
    // The speedup part weighs twice the lanes part: 10 × 2/3 for a right speedup alone.
    const json ideal = grade_values("acceleration.simd-speedup", seed,
                                    {lanes + 1, 1.0 / ((1 - p) + p / lanes)});
    CHECK(ideal.at("score") == doctest::Approx(20.0 / 3.0));
    // Claiming the full `lanes`× (ignoring the serial part) is wrong unless p = 1.
    CHECK(grade_values("acceleration.simd-speedup", seed, {lanes, lanes})
              .at("parts")[1]
              .at("correct") == false);
  }
}

TEST_CASE("technique exercise: fuse at the memory roof, block for strided loops, vectorize "
          "scalar arithmetic, threads for one busy core") {
  std::set<std::string> answers;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    std::set<std::string> scenarios;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      const json v = choice_variant("acceleration.technique", seed, attempt);
      const std::string prompt = v.at("prompt").get<std::string>();
      CAPTURE(prompt);
      scenarios.insert(prompt);
      std::string right;
      if (contains(prompt, "separate element-wise") || contains(prompt, "element-wise add")) {
        right = "Fuse";
      } else if (contains(prompt, "i, j, k") || contains(prompt, "transpose")) {
        right = "Reorder or block";
      } else if (contains(prompt, "uses one")) {
        right = "Split the work";
      } else {
        REQUIRE((contains(prompt, "polynomial") || contains(prompt, "dot product")));
        right = "Vectorize";
      }
      answers.insert(right);
      const int index = choice_starting_with(v, right);
      const json g = grade_exercise("acceleration.technique", seed,
                                    {{"choice", index}, {"attempt", attempt}});
      CHECK(g.at("correct") == true);
      for (int c = 0; c < 4; ++c) {
        if (c == index) continue;
        CHECK(grade_exercise("acceleration.technique", seed, {{"choice", c}, {"attempt", attempt}})
                  .at("correct") == false);
      }
    }
    CHECK(scenarios.size() == 3);
  }
  CHECK(answers.size() == 4);
}

TEST_CASE("technique exercise draws the same scenario on every compiler for a fixed seed") {
  // Pinned from a native run (the wasm doctest build checks the same); the native build once
  // drew two numbers of a scenario in the other order, so every figure is drawn in a
  // statement of its own or in one braced list, which C++ evaluates in order.
  CHECK(exercise_variant("acceleration.technique", 42).at("params").at("scenario") ==
        "A 2048×2048 matmul, already blocked for the cache and vectorized, runs at 85% of one "
        "core's SIMD peak. The machine has 12 cores and the code uses one.");
}

// The intensity of one operation as the roofline counts it, from its text.
double op_intensity(const std::string& op) {
  if (contains(op, "add")) return 1.0 / 12.0;                   // 1 FLOP per 12 bytes
  if (contains(op, "GELU")) return kGeluFlopsPerElement / 8.0;  // read x, write the result
  if (contains(op, "sum")) return 1.0 / 4.0;
  return std::stod(op.substr(2)) / 6.0;  // "a 64×64 matmul"
}

TEST_CASE("roofline-position exercise: below the ridge is the slanted roof, above it the flat") {
  int memory = 0, compute = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("acceleration.roofline-position", seed);
    const std::string a = v.at("params").at("op_a").get<std::string>();
    const std::string b = v.at("params").at("op_b").get<std::string>();
    CHECK(a != b);
    const double ridge = param(v, "peak_gflops_per_s") / param(v, "bandwidth_gb_per_s");
    CAPTURE(a);
    CAPTURE(b);
    CAPTURE(ridge);
    const bool a_compute = op_intensity(a) >= ridge;
    const bool b_compute = op_intensity(b) >= ridge;
    for (bool c : {a_compute, b_compute}) (c ? compute : memory) += 1;
    const int right = (a_compute ? 2 : 0) + (b_compute ? 1 : 0);  // the bank's order
    CHECK(grade_exercise("acceleration.roofline-position", seed, {{"choice", right}})
              .at("correct") == true);
    for (int c = 0; c < 4; ++c) {
      if (c == right) continue;
      CHECK(grade_exercise("acceleration.roofline-position", seed, {{"choice", c}})
                .at("correct") == false);
    }
  }
  CHECK(memory > 10);
  CHECK(compute > 10);
}

TEST_CASE("attainable-code exercise sends core's roofline bound as each test's expected value") {
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const json v = exercise_variant("acceleration.attainable-code", seed);
    REQUIRE(v.at("tests").size() == 6);
    json right = json::array();
    json swapped = json::array();  // max instead of min
    for (const auto& test : v.at("tests")) {
      const double peak = test.at("args")[0].get<double>();
      const double bandwidth = test.at("args")[1].get<double>();
      const double intensity = test.at("args")[2].get<double>();
      right.push_back({{"value", std::min(peak, intensity * bandwidth)}});
      swapped.push_back({{"value", std::max(peak, intensity * bandwidth)}});
    }
    const json g = grade_exercise("acceleration.attainable-code", seed, {{"results", right}});
    CHECK(g.at("correct") == true);
    CHECK(g.at("feedback") == "All 6 tests passed.");
    // max() is right only where the two roofs meet (the ridge test).
    const json bad = grade_exercise("acceleration.attainable-code", seed, {{"results", swapped}});
    CHECK(bad.at("feedback") == "1 of 6 tests passed.");
  }
  // "another machine" is drawn too (ten times the roofs), so a re-grade's hidden tests differ.
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    const json args = exercise_variant("acceleration.attainable-code", seed).at("tests")[5].at("args");
    CHECK(args[0] >= 500);
    CHECK(args[0] <= 4000);
    CHECK(args[1] >= 60);
    CHECK(args[1] <= 600);
  }
}

TEST_CASE("matmul-loop-order exercise checks products against core and sends one timed test") {
  const json v = exercise_variant("acceleration.matmul-loop-order", 7);
  const json& tests = v.at("tests");
  REQUIRE(tests.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) {
    const std::size_t n = tests[i].at("args")[2].get<std::size_t>();
    CHECK(tests[i].at("args")[0].size() == n * n);
    CHECK_FALSE(tests[i].contains("benchmark"));
  }
  CHECK(tests[2].at("args")[2] == 7);
  const json& timed = tests[5];
  CHECK(timed.at("name") == "faster than the naive loop at N = 512");
  CHECK(timed.at("args") == json::array());
  CHECK(timed.at("benchmark").at("reference") == "matmul-ijk");
  CHECK(timed.at("benchmark").at("n") == 512);
  CHECK(timed.at("benchmark").at("rounds") == 3);
  CHECK(timed.at("benchmark") == exercise_variant("acceleration.matmul-loop-order", 7)
                                     .at("tests")[5]
                                     .at("benchmark"));

  const json right = right_matmul_results(v);
  const json g = grade_exercise("acceleration.matmul-loop-order", 7, {{"results", right}});
  CHECK(g.at("correct") == true);
  CHECK(g.at("score") == 15);

  // A transposed product (C = Bᵀ... the wrong index) fails the tests where it differs.
  json wrong = right;
  wrong[3]["value"][1] = wrong[3]["value"][1].get<double>() + 1;
  const json w = grade_exercise("acceleration.matmul-loop-order", 7, {{"results", wrong}});
  CHECK(w.at("correct") == false);
  CHECK(w.at("feedback") == "5 of 6 tests passed.");
  CHECK(w.at("score") == 14);
}

TEST_CASE("the loop order, which only the timed test rewards, is worth most of matmul's points") {
  const json v = exercise_variant("acceleration.matmul-loop-order", 7);
  const json right = right_matmul_results(v);
  // The starter code: every product right, the timed test failed.
  json starter = right;
  starter[5] = {{"value",
                 {{"student_ms", {30.0, 31.0, 29.0}},
                  {"reference_ms", {30.0, 30.0, 30.0}},
                  {"max_abs_difference", 0.0}}}};
  const json g = grade_exercise("acceleration.matmul-loop-order", 7, {{"results", starter}});
  CHECK(g.at("correct") == false);
  CHECK(g.at("score") == 5);
  CHECK(g.at("max_score") == 15);
  CHECK(g.at("feedback") ==
        "5 of 6 tests passed. The timed test, worth 10 of the 15 points, did not pass.");
  // The timed test alone: 10 of 15.
  json timed_only = right;
  for (std::size_t i = 0; i < 5; ++i) timed_only[i] = {{"error", "TypeError: no"}};
  CHECK(grade_exercise("acceleration.matmul-loop-order", 7, {{"results", timed_only}})
            .at("score") == 10);
  const Exercise& e = find_exercise("acceleration.matmul-loop-order");
  CHECK(e.timed_points == 10);
  CHECK(scoring_text(e) ==
        "The timed test earns 10 of the 15 points, the other tests share the rest equally; "
        "reruns cost nothing.");
  // Other code exercises still count every test the same.
  CHECK(scoring_text(find_exercise("acceleration.attainable-code")) ==
        "Points in proportion to the tests your code passes; reruns cost nothing.");
}

TEST_CASE("the timed matmul test passes at 1.2× the naive loop's speed and fails below it") {
  const json v = exercise_variant("acceleration.matmul-loop-order", 3);
  json results = right_matmul_results(v);
  const auto timed = [&](std::vector<double> student_ms, std::vector<double> reference_ms,
                         double difference) {
    results[5] = {{"value",
                   {{"student_ms", student_ms},
                    {"reference_ms", reference_ms},
                    {"max_abs_difference", difference}}}};
    return grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}})
        .at("tests")[5];
  };
  // core takes the medians of the rounds and shows every round.
  const json fast = timed({12.5, 14, 11}, {31.25, 29, 40}, 0);
  CHECK(fast.at("passed") == true);
  CHECK(fast.at("message") ==
        "faster than the naive loop at N = 512: yours 12.5 ms, the naive ijk loop 31.2 ms "
        "(medians of 3 interleaved rounds at N = 512; each round: yours 12.5, 14, 11 ms, the "
        "naive ijk loop 31.2, 29, 40 ms): 2.50× as fast, at least 1.2× needed");
  CHECK(timed({25, 25, 25}, {30, 30, 30}, 0).at("passed") == true);  // exactly 1.2×
  const json slow = timed({28, 50, 20}, {30, 30, 30}, 0);
  CHECK(slow.at("passed") == false);
  CHECK(slow.at("message") ==
        "faster than the naive loop at N = 512: yours 28 ms, the naive ijk loop 30 ms "
        "(medians of 3 interleaved rounds at N = 512; each round: yours 28, 50, 20 ms, the "
        "naive ijk loop 30, 30, 30 ms): only 1.07× as fast; at least 1.2× needed (if your "
        "loop order is right, close other tabs and run again)");
  const json different = timed({1, 1, 1}, {30, 30, 30}, 0.5);
  CHECK(different.at("passed") == false);
  CHECK(different.at("message") ==
        "faster than the naive loop at N = 512: at N = 512 your result differs from the "
        "naive ijk loop's by up to 0.5 (allowed 1e-06), so its speed does not count");
  CHECK(timed({0, 0, 0}, {30, 30, 30}, 0).at("passed") == true);  // below the clock's resolution

  // A function that threw or timed out in the timed test fails it like any test.
  results[5] = {{"error", "TypeError: x is undefined"}};
  CHECK(grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}})
            .at("tests")[5]
            .at("message") == "faster than the naive loop at N = 512: threw TypeError: x is "
                              "undefined");

  // The sandbox's timing object is checked field by field: one time per round of the test.
  results[5] = {{"value", 3}};
  CHECK_THROWS_WITH_AS(
      grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}}),
      "answer.results[5].value must be the sandbox's timing object {student_ms, reference_ms, "
      "max_abs_difference}, got 3",
      ValueError);
  results[5] = {{"value",
                 {{"student_ms", {1, 1, 1}}, {"reference_ms", {2, nullptr, 2}},
                  {"max_abs_difference", 0}}}};
  CHECK_THROWS_WITH_AS(
      grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}}),
      "answer.results[5].value.reference_ms[1] must be a finite number >= 0, got null",
      ValueError);
  results[5] = {{"value",
                 {{"student_ms", {1, 1}}, {"reference_ms", {2, 2, 2}}, {"max_abs_difference", 0}}}};
  CHECK_THROWS_WITH_AS(
      grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}}),
      "answer.results[5].value.student_ms must be an array of 3 times in ms, one per round, got "
      "[1,1]",
      ValueError);
  results[5] = {{"value", {{"student_ms", {1, 1, 1}}, {"reference_ms", {2, 2, 2}}}}};
  CHECK_THROWS_WITH_AS(
      grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}}),
      "answer.results[5].value.max_abs_difference must be a finite number >= 0, got nothing",
      ValueError);
  results[5] = {{"value",
                 {{"student_median_ms", 1}, {"student_ms", {1, 1, 1}}, {"reference_ms", {2, 2, 2}},
                  {"max_abs_difference", 0}}}};
  CHECK_THROWS_WITH_AS(
      grade_exercise("acceleration.matmul-loop-order", 3, {{"results", results}}),
      "answer.results[5].value has an unknown field \"student_median_ms\"; allowed: student_ms, "
      "reference_ms, max_abs_difference",
      ValueError);
}
