// Protects the Profiling chapter's exercises beyond the first three (tests/core/test_grader.cpp
// covers those and the engine): every answer is recomputed here, independently of core, from
// the variant's own parameters or test arguments; right answers score full points, wrong ones
// score 0 or the weighted share of the parts that are right, with per-part feedback; malformed
// multi-part answers are errors with full messages; the fake-clock tests of measureLatency
// tell a correct solution from one that times its warmup calls or returns the mean.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"
#include "exercise_helpers.hpp"

using namespace perflab;
using nlohmann::json;
using exercise_test::choice_starting_with;
using exercise_test::contains;

namespace {

const char* const kFfnMemory = "profiling.ffn-param-memory";
const char* const kAdam = "profiling.adam-memory";
const char* const kLinearFlops = "profiling.linear-flops";
const char* const kFlopsBatch = "profiling.flops-batch";
const char* const kConv = "profiling.conv-output";
const char* const kCountLinear = "profiling.count-linear-flops";
const char* const kCountConv = "profiling.count-conv2d-flops";
const char* const kEfficiency = "profiling.efficiency";
const char* const kLatencyStatistic = "profiling.latency-statistic";
const char* const kMeasureLatency = "profiling.measure-latency";
const char* const kIntegrated = "profiling.integrated-profile";

constexpr std::uint32_t kSeeds = 60;

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

double mean_of(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

std::int64_t param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<std::int64_t>();
}

// "1,234,567", as the prompts print large integers.
std::string grouped(std::int64_t x) {
  std::string digits = std::to_string(x);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A measureLatency test's description, read back the way the sandbox reads it.
struct LatencyTest {
  std::vector<double> costs_ms;
  int warmup = 0;
  int iterations = 0;
  double start_ms = 0;
};

LatencyTest read_latency_test(const json& test) {
  const json& args = test.at("args");
  REQUIRE(args.size() == 3);
  LatencyTest t;
  t.costs_ms = args[0].at("$fake_fn").at("costs_ms").get<std::vector<double>>();
  t.warmup = args[1].at("warmup");
  t.iterations = args[1].at("iterations");
  t.start_ms = args[2].at("$fake_clock").at("start_ms");
  return t;
}

// What a student's measureLatency returns on the fake clock, done the way JavaScript does
// it (doubles, the clock advanced by each cost): the correct solution, one that also times
// the warmup calls, and one that returns the mean.
enum class Solution { Correct, TimesWarmup, ReturnsMean };

double run_solution(const LatencyTest& t, Solution solution) {
  double now_ms = t.start_ms;
  std::size_t call = 0;
  const auto fn = [&] { now_ms += t.costs_ms.at(call++); };
  std::vector<double> times;
  for (int i = 0; i < t.warmup; ++i) {
    const double before = now_ms;
    fn();
    if (solution == Solution::TimesWarmup) times.push_back(now_ms - before);
  }
  for (int i = 0; i < t.iterations; ++i) {
    const double before = now_ms;
    fn();
    times.push_back(now_ms - before);
  }
  return solution == Solution::ReturnsMean ? mean_of(times) : median_of(times);
}

json results_of(const json& variant, Solution solution) {
  json results = json::array();
  for (const auto& test : variant.at("tests")) {
    results.push_back({{"value", run_solution(read_latency_test(test), solution)}});
  }
  return results;
}

}  // namespace

TEST_CASE("ffn-param-memory grades 4 bytes × the weights and biases of three Linear layers") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kFfnMemory, seed);
    const std::int64_t d_in = param(v, "d_in"), h1 = param(v, "h1"), h2 = param(v, "h2"),
                       d_out = param(v, "d_out");
    const std::string prompt = v.at("prompt");
    CHECK(contains(prompt, std::to_string(d_in) + " → " + std::to_string(h1)));
    CHECK(contains(prompt, std::to_string(h2) + " → " + std::to_string(d_out)));
    const std::int64_t weights = d_in * h1 + h1 * h2 + h2 * d_out;
    const std::int64_t biases = h1 + h2 + d_out;
    const std::int64_t bytes = 4 * (weights + biases);

    const json right = grade_exercise(kFfnMemory, seed, {{"value", bytes}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 10);
    CHECK(right.at("feedback") == "Correct.");
    CHECK_FALSE(right.contains("parts"));
    // The classic mistakes: the bias forgotten, a parameter count instead of bytes.
    const json no_bias = grade_exercise(kFfnMemory, seed, {{"value", 4 * weights}});
    CHECK(no_bias.at("correct") == false);
    CHECK(no_bias.at("score") == 0);
    CHECK(no_bias.at("feedback") == "Too low: the answer must be exact (within 0.5).");
    CHECK(grade_exercise(kFfnMemory, seed, {{"value", weights + biases}}).at("correct") == false);
    CHECK(grade_exercise(kFfnMemory, seed, {{"value", bytes + 1}}).at("feedback") ==
          "Too high: the answer must be exact (within 0.5).");
  }
}

TEST_CASE("adam-memory grades four float32 values per parameter, in MiB, within 0.5%") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kAdam, seed);
    const std::int64_t parameters = param(v, "parameters");
    CHECK(parameters >= 2'000'000);
    CHECK(parameters <= 400'000'000);
    // Large counts read with thousands separators.
    CHECK(contains(v.at("prompt"), grouped(parameters) + " float32 parameters"));
    const double bytes = static_cast<double>(parameters) * 16;  // param, grad, m, v
    const double mib = bytes / 1048576.0;

    CHECK(grade_exercise(kAdam, seed, {{"value", mib}}).at("correct") == true);
    CHECK(grade_exercise(kAdam, seed, {{"value", mib * 1.004}}).at("correct") == true);
    CHECK(grade_exercise(kAdam, seed, {{"value", mib * 0.996}}).at("correct") == true);
    // MB instead of MiB is almost 5% off; parameters alone or without the moments are worse.
    const json mb = grade_exercise(kAdam, seed, {{"value", bytes / 1e6}});
    CHECK(mb.at("correct") == false);
    CHECK(mb.at("feedback") == "Too high: the answer must be within 0.5%.");
    CHECK(grade_exercise(kAdam, seed, {{"value", mib / 4}}).at("correct") == false);
    CHECK(grade_exercise(kAdam, seed, {{"value", mib / 2}}).at("correct") == false);
  }
}

TEST_CASE("linear-flops grades three parts, each with its own tolerance and a third of the points") {
  const Exercise& e = find_exercise(kLinearFlops);
  REQUIRE(e.parts.size() == 3);
  CHECK(e.points == 15);
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kLinearFlops, seed);
    const double in = static_cast<double>(param(v, "in"));
    const double out = static_cast<double>(param(v, "out"));
    const double batch = static_cast<double>(param(v, "batch"));
    const double gflops_per_s = static_cast<double>(param(v, "gflops_per_s"));
    const std::string prompt = v.at("prompt");
    CHECK(contains(prompt, "batch of " + std::to_string(param(v, "batch")) + " samples"));
    CHECK(contains(prompt, std::to_string(param(v, "gflops_per_s")) + " GFLOP/s"));

    const double per_sample = 2 * in * out;
    const double per_batch = per_sample * batch;
    const double seconds = per_batch / (gflops_per_s * 1e9);
    const double latency_ms = seconds * 1000;

    const json right = grade_exercise(kLinearFlops, seed, {{"values", {per_sample, per_batch, latency_ms}}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 15);
    CHECK(right.at("max_score") == 15);
    CHECK(right.at("feedback") == "All 3 parts correct.");
    REQUIRE(right.at("parts").size() == 3);
    CHECK(right.at("parts")[0] == json{{"label", "FLOPs per sample"},
                                       {"correct", true},
                                       {"score", 5.0},
                                       {"max_score", 5.0},
                                       {"feedback", "Correct."}});
    // The latency part allows 1%.
    CHECK(grade_exercise(kLinearFlops, seed, {{"values", {per_sample, per_batch, latency_ms * 1.009}}})
              .at("correct") == true);

    // Bias counted and latency in seconds: only the batch total is right.
    const json one = grade_exercise(kLinearFlops, seed,
                                    {{"values", {per_sample + out, per_batch, seconds}}});
    CHECK(one.at("correct") == false);
    CHECK(one.at("score").get<double>() == doctest::Approx(5));
    CHECK(one.at("feedback") == "1 of 3 parts correct.");
    const json& parts = one.at("parts");
    CHECK(parts[0].at("correct") == false);
    CHECK(parts[0].at("score") == 0);
    CHECK(parts[0].at("feedback") == "Too high: the answer must be exact (within 0.5).");
    CHECK(parts[1].at("correct") == true);
    CHECK(parts[1].at("feedback") == "Correct.");
    CHECK(parts[2].at("correct") == false);
    CHECK(parts[2].at("label") == "Minimum latency of the batch");
    CHECK(parts[2].at("feedback") == "Too low: the answer must be within 1%.");

    // Per sample right, the batch forgotten (so the latency is one sample's): 2 of 3 wrong.
    const json forgot_batch = grade_exercise(
        kLinearFlops, seed, {{"values", {per_sample, per_sample, latency_ms / batch}}});
    CHECK(forgot_batch.at("score").get<double>() == doctest::Approx(5));
    CHECK(forgot_batch.at("parts")[1].at("feedback") ==
          "Too low: the answer must be exact (within 0.5).");

    const json none = grade_exercise(kLinearFlops, seed, {{"values", {0, 0, 0}}});
    CHECK(none.at("score") == 0);
    CHECK(none.at("feedback") == "0 of 3 parts correct.");
  }
}

TEST_CASE("conv-output grades H_out and the FLOPs per sample, weighted 4 and 6 points") {
  std::set<std::int64_t> strides;
  bool floored = false;  // some variant where (H + 2P - K) is not a multiple of the stride
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kConv, seed);
    const std::int64_t c_in = param(v, "in_channels"), c_out = param(v, "out_channels"),
                       k = param(v, "kernel"), s = param(v, "stride"), p = param(v, "padding"),
                       size = param(v, "size");
    CAPTURE(v.at("params").dump());
    REQUIRE(size + 2 * p >= k);
    strides.insert(s);
    floored = floored || (size + 2 * p - k) % s != 0;
    CHECK(contains(v.at("prompt"), std::to_string(k) + "×" + std::to_string(k) + " kernel"));
    // Output positions counted one by one: window starts -p, -p + s, ... that fit in the
    // padded image.
    std::int64_t h_out = 0;
    for (std::int64_t start = -p; start + k <= size + p; start += s) ++h_out;
    const double flops = 2.0 * static_cast<double>(c_out * h_out * h_out) *
                         static_cast<double>(c_in * k * k);

    const json right = grade_exercise(kConv, seed, {{"values", {h_out, flops}}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 10);
    CHECK(right.at("parts")[0].at("max_score") == 4);
    CHECK(right.at("parts")[1].at("max_score") == 6);

    // H_out right, FLOPs with the bias: 4 of 10; H_out off by one, FLOPs right: 6 of 10.
    const json h_only = grade_exercise(kConv, seed, {{"values", {h_out, flops + c_out * h_out * h_out}}});
    CHECK(h_only.at("score").get<double>() == doctest::Approx(4));
    CHECK(h_only.at("correct") == false);
    CHECK(h_only.at("parts")[1].at("feedback") == "Too high: the answer must be exact (within 0.5).");
    const json flops_only = grade_exercise(kConv, seed, {{"values", {h_out + 1, flops}}});
    CHECK(flops_only.at("score").get<double>() == doctest::Approx(6));
    CHECK(flops_only.at("feedback") == "1 of 2 parts correct.");
    // Half the FLOPs (one per multiply-accumulate) is wrong.
    CHECK(grade_exercise(kConv, seed, {{"values", {h_out, flops / 2}}}).at("parts")[1].at("correct") ==
          false);
  }
  CHECK(strides == std::set<std::int64_t>{1, 2});
  CHECK(floored);
}

TEST_CASE("efficiency grades 100 × achieved / peak within 0.1 percentage points") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kEfficiency, seed);
    const double achieved = v.at("params").at("achieved_gflops_per_s");
    const double peak = v.at("params").at("peak_gflops_per_s");
    REQUIRE(peak > 0);
    CHECK(achieved > 0);
    CHECK(achieved < peak);
    const double percent = 100 * achieved / peak;
    CHECK(grade_exercise(kEfficiency, seed, {{"value", percent}}).at("correct") == true);
    CHECK(grade_exercise(kEfficiency, seed, {{"value", percent + 0.09}}).at("correct") == true);
    const json fraction = grade_exercise(kEfficiency, seed, {{"value", achieved / peak}});
    CHECK(fraction.at("correct") == false);
    CHECK(fraction.at("feedback") == "Too low: the answer must be within 0.1.");
    CHECK(grade_exercise(kEfficiency, seed, {{"value", 100 * peak / achieved}}).at("correct") ==
          false);
  }
}

TEST_CASE("flops-batch: each try asks about another quantity, whose answer follows from counting") {
  // What each quantity does when the batch grows ratio×, worked out by hand from its formula.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"its FLOPs per sample?", "It stays the same"},
      {"the number of weights it holds?", "It stays the same"},
      {"the FLOPs of one forward pass over the whole batch?", "It grows "},
      {"the bytes of output one forward pass writes?", "It grows "},
      {"the weight bytes read per sample", "It shrinks "},
      {"the number of forward passes it takes to run", "It shrinks "},
      {"the time it takes per sample?", "No fixed answer"},
      {"the GFLOP/s it reaches?", "No fixed answer"}};
  std::set<int> positions;
  std::set<std::string> asked;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    std::set<std::string> asked_of_seed;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      CAPTURE(seed);
      CAPTURE(attempt);
      const json v = choice_variant(kFlopsBatch, seed, attempt);
      CHECK(param(v, "batch_large") == param(v, "batch_small") * param(v, "ratio"));
      REQUIRE(v.at("choices").size() == 4);
      const std::string prompt = v.at("prompt");
      std::string answer;
      for (const auto& [quantity, verdict] : expected) {
        if (contains(prompt, quantity)) {
          answer = verdict;
          asked.insert(quantity);
          asked_of_seed.insert(quantity);
        }
      }
      REQUIRE_FALSE(answer.empty());
      const int right = choice_starting_with(v, answer);
      positions.insert(right);
      // Templates are filled in: "It grows 8×".
      CHECK(v.at("choices")[static_cast<std::size_t>(choice_starting_with(v, "It grows "))] ==
            "It grows " + std::to_string(param(v, "ratio")) + "×");
      const json ok = grade_exercise(kFlopsBatch, seed, {{"choice", right}, {"attempt", attempt}});
      CHECK(ok.at("correct") == true);
      CHECK(ok.at("feedback").get<std::string>().rfind(
                "Correct: " + v.at("choices")[static_cast<std::size_t>(right)].get<std::string>() + ".",
                0) == 0);
      for (int c = 0; c < 4; ++c) {
        if (c == right) continue;
        CHECK(grade_exercise(kFlopsBatch, seed, {{"choice", c}, {"attempt", attempt}})
                  .at("correct") == false);
      }
    }
    CHECK(asked_of_seed.size() == 3);  // three tries, three different quantities
  }
  CHECK(positions.size() == 4);
  CHECK(asked.size() == expected.size());
}

TEST_CASE("latency-statistic: each try asks another question, and the outlier really skews the mean") {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"typical latency", "The median, "},
      {"best predicts the total time", "The mean, "},
      {"the best case", "The minimum, "},
      {"latency budget", "The maximum, "}};
  std::set<int> positions;
  std::set<std::string> asked;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    std::set<std::string> asked_of_seed;
    for (int attempt = 1; attempt <= 2; ++attempt) {
      CAPTURE(seed);
      CAPTURE(attempt);
      const json v = choice_variant(kLatencyStatistic, seed, attempt);
      const auto samples = v.at("params").at("samples_ms").get<std::vector<double>>();
      REQUIRE(samples.size() == 9);
      const std::string prompt = v.at("prompt");
      CHECK(contains(prompt, v.at("params").at("samples_text").get<std::string>()));

      const double median_ms = median_of(samples);
      const double mean_ms = mean_of(samples);
      const double min_ms = *std::min_element(samples.begin(), samples.end());
      const double max_ms = *std::max_element(samples.begin(), samples.end());
      // One outlier: the max is at least 4× the median and pulls the mean 25% above it.
      CHECK(max_ms >= 4 * median_ms);
      CHECK(mean_ms >= 1.25 * median_ms);
      CHECK(min_ms < median_ms);
      CHECK(v.at("params").at("median_ms").get<double>() == median_ms);
      CHECK(v.at("params").at("mean_ms").get<double>() == doctest::Approx(mean_ms).epsilon(0.01));

      std::string answer;
      for (const auto& [question, statistic] : expected) {
        if (contains(prompt, question)) {
          answer = statistic;
          asked.insert(question);
          asked_of_seed.insert(question);
        }
      }
      REQUIRE_FALSE(answer.empty());
      const int right = choice_starting_with(v, answer);
      positions.insert(right);
      CHECK(grade_exercise(kLatencyStatistic, seed, {{"choice", right}, {"attempt", attempt}})
                .at("correct") == true);
      for (const auto& [question, statistic] : expected) {
        if (statistic == answer) continue;
        const int c = choice_starting_with(v, statistic);
        CHECK(grade_exercise(kLatencyStatistic, seed, {{"choice", c}, {"attempt", attempt}})
                  .at("correct") == false);
      }
    }
    CHECK(asked_of_seed.size() == 2);
  }
  CHECK(positions.size() == 4);
  CHECK(asked.size() == expected.size());
}

TEST_CASE("count-linear-flops tests return 2·in·out, bias excluded") {
  for (std::uint32_t seed = 0; seed < kSeeds; seed += 7) {
    CAPTURE(seed);
    const json v = exercise_variant(kCountLinear, seed);
    const json& tests = v.at("tests");
    REQUIRE(tests.size() == 5);
    json right = json::array();
    json with_bias = json::array();
    for (const auto& t : tests) {
      REQUIRE(t.at("args").size() == 2);
      const std::int64_t in = t.at("args")[0], out = t.at("args")[1];
      right.push_back({{"value", 2 * in * out}});
      with_bias.push_back({{"value", 2 * in * out + out}});
    }
    // The FFN layer's width is drawn too (out = 4·in), so a re-grade's hidden tests differ.
    const std::int64_t d_model = tests[4].at("args")[0];
    CHECK(tests[4].at("args") == json{d_model, 4 * d_model});
    CHECK(right[4].at("value") == 8 * d_model * d_model);
    const json ok = grade_exercise(kCountLinear, seed, {{"results", right}});
    CHECK(ok.at("correct") == true);
    CHECK(ok.at("score") == 10);
    const json bias = grade_exercise(kCountLinear, seed, {{"results", with_bias}});
    CHECK(bias.at("score") == 0);
    // A public example shows the expected value and the call; a hidden test only what failed.
    const std::int64_t n = tests[0].at("args")[0];
    CHECK(bias.at("tests")[0].at("message") ==
          "square layer: expected " + std::to_string(2 * n * n) + ", got " +
              std::to_string(2 * n * n + n) + " (called as countLinearFlops(" +
              std::to_string(n) + ", " + std::to_string(n) + "))");
    CHECK(bias.at("tests")[4].at("message") ==
          "hidden test 3: failed: wrong value: the result is not the value expected (exact)");
  }
}

TEST_CASE("count-conv2d-flops tests return 2·C_in·C_out·k²·H_out·W_out") {
  for (std::uint32_t seed = 0; seed < kSeeds; seed += 7) {
    CAPTURE(seed);
    const json v = exercise_variant(kCountConv, seed);
    const json& tests = v.at("tests");
    REQUIRE(tests.size() == 5);
    json right = json::array();
    json square_h = json::array();  // uses hOut twice: wrong only on a non-square output
    int non_square = 0;
    for (const auto& t : tests) {
      const auto a = t.at("args").get<std::vector<std::int64_t>>();
      REQUIRE(a.size() == 5);
      right.push_back({{"value", 2 * a[0] * a[1] * a[2] * a[2] * a[3] * a[4]}});
      square_h.push_back({{"value", 2 * a[0] * a[1] * a[2] * a[2] * a[3] * a[3]}});
      non_square += a[3] != a[4] ? 1 : 0;
    }
    CHECK(tests[2].at("name") == "hidden test 1");  // the non-square output
    CHECK(tests[2].at("args")[3] != tests[2].at("args")[4]);
    // A ResNet-like stem: 3 channels in, 7×7, its width and map drawn.
    CHECK(tests[4].at("args")[0] == 3);
    CHECK(tests[4].at("args")[2] == 7);
    CHECK(tests[4].at("args")[3] == tests[4].at("args")[4]);
    CHECK(grade_exercise(kCountConv, seed, {{"results", right}}).at("correct") == true);
    const json h = grade_exercise(kCountConv, seed, {{"results", square_h}});
    CHECK(h.at("correct") == false);
    CHECK(h.at("tests")[2].at("passed") == false);
    CHECK(h.at("score").get<double>() == doctest::Approx(10.0 * (5 - non_square) / 5));
  }
}

TEST_CASE("measure-latency tests describe a fake fn and clock whose median the grader knows") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kMeasureLatency, seed);
    const json& tests = v.at("tests");
    REQUIRE(tests.size() == 6);
    for (const auto& test : tests) {
      CAPTURE(test.dump());
      const LatencyTest t = read_latency_test(test);
      CHECK(t.costs_ms.size() == static_cast<std::size_t>(t.warmup + t.iterations));
      CHECK(t.iterations >= 1);
      CHECK(t.start_ms > 0);  // so clock.now() is not itself a duration
      CHECK(std::all_of(t.costs_ms.begin(), t.costs_ms.end(), [](double c) { return c > 0; }));
      // The test description is all the page gets: no expected value in it.
      CHECK(test.size() == 3);  // name, args, hidden
      CHECK(!test.contains("expected"));
    }
    CHECK(read_latency_test(tests[0]).warmup == 0);
    CHECK(read_latency_test(tests[1]).warmup == 3);
    CHECK(read_latency_test(tests[2]).iterations % 2 == 0);

    // The correct solution, run on the fake clock in doubles, passes every test.
    const json correct = grade_exercise(kMeasureLatency, seed, {{"results", results_of(v, Solution::Correct)}});
    CHECK(correct.at("correct") == true);
    CHECK(correct.at("score") == 15);
    CHECK(correct.at("feedback") == "All 6 tests passed.");

    // Timing the warmup calls changes the median of every test that has warmup calls.
    const json warm = grade_exercise(kMeasureLatency, seed, {{"results", results_of(v, Solution::TimesWarmup)}});
    CHECK(warm.at("correct") == false);
    CHECK(warm.at("tests")[0].at("passed") == true);  // no warmup: nothing to get wrong
    for (std::size_t i = 1; i < tests.size(); ++i) {
      CAPTURE(i);
      CHECK(warm.at("tests")[i].at("passed") == false);
    }

    // The mean fails on the skewed tests (and passes on a single iteration, where the two agree).
    const json mean = grade_exercise(kMeasureLatency, seed, {{"results", results_of(v, Solution::ReturnsMean)}});
    CHECK(mean.at("correct") == false);
    CHECK(mean.at("tests")[3].at("name") == "hidden test 2");  // one slow outlier
    CHECK(mean.at("tests")[3].at("passed") == false);
    CHECK(mean.at("tests")[5].at("passed") == false);
    CHECK(mean.at("tests")[4].at("passed") == true);
  }
  // The even-length test's median is the mean of two distinct middle values.
  const LatencyTest even = read_latency_test(exercise_variant(kMeasureLatency, 3).at("tests")[2]);
  std::vector<double> timed(even.costs_ms.begin() + even.warmup, even.costs_ms.end());
  std::sort(timed.begin(), timed.end());
  CHECK(timed[2] != timed[3]);
}

TEST_CASE("integrated-profile grades parameters, FLOPs per batch and Adam bytes of a drawn MLP") {
  const Exercise& e = find_exercise(kIntegrated);
  REQUIRE(e.parts.size() == 3);
  CHECK(e.points == 15);
  std::set<std::string> drawn;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kIntegrated, seed);
    const std::int64_t d_in = param(v, "d_in"), h = param(v, "h"), d_out = param(v, "d_out");
    const std::int64_t batch = param(v, "batch");
    drawn.insert(v.at("params").dump());
    const std::string prompt = v.at("prompt");
    CHECK(contains(prompt, "Linear(" + grouped(d_in) + " → " + grouped(h) + ")"));
    CHECK(contains(prompt, "batch of " + grouped(batch) + " samples"));

    // By hand: Linear(d_in, h) and Linear(h, d_out) with biases; 2 FLOPs per MAC; Adam keeps
    // parameter, gradient, m and v (4 floats each) and the three layer outputs stay alive.
    const double parameters = static_cast<double>(d_in * h + h + h * d_out + d_out);
    const double flops = 2.0 * static_cast<double>(d_in * h + h * d_out) * batch;
    const double activations = 4.0 * static_cast<double>(batch * (h + h + d_out));
    const double adam_bytes = 16.0 * parameters + activations;

    const json right = grade_exercise(kIntegrated, seed, {{"values", {parameters, flops, adam_bytes}}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 15);
    CHECK(right.at("feedback") == "All 3 parts correct.");

    // The usual slips: FLOPs per sample instead of per batch, activations left out of Adam.
    const json wrong = grade_exercise(
        kIntegrated, seed, {{"values", {parameters, flops / batch, 16.0 * parameters}}});
    CHECK(wrong.at("correct") == false);
    CHECK(wrong.at("score").get<double>() == doctest::Approx(5));
    CHECK(wrong.at("feedback") == "1 of 3 parts correct.");
    CHECK(wrong.at("parts")[1].at("label") == "FLOPs per batch");
    CHECK(wrong.at("parts")[1].at("feedback") == "Too low: the answer must be exact (within 0.5).");
    CHECK(wrong.at("parts")[2].at("label") == "Adam training memory");
    CHECK(wrong.at("parts")[2].at("feedback") ==
          "Too low: the answer must be exact (within 0.5).");
    // One parameter too many and the activations counted twice: both too high.
    const json high = grade_exercise(
        kIntegrated, seed, {{"values", {parameters + 1, flops, adam_bytes + activations}}});
    CHECK(high.at("score") == doctest::Approx(5));
    CHECK(high.at("parts")[0].at("feedback") == "Too high: the answer must be exact (within 0.5).");
  }
  CHECK(drawn.size() > kSeeds / 2);  // variants really differ between students
}

TEST_CASE("multi-part numeric answers are validated with full messages") {
  const std::string parts = "FLOPs per sample, FLOPs per batch, Minimum latency of the batch";
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, json(5)),
                       "answer must be an object like {\"values\": [1, 2, 3]}, got 5", ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, json::object()),
                       ("answer.values is missing; it must be an array of 3 finite numbers, one "
                        "per part (" + parts + ")").c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"value", 3}}),
                       "answer has an unknown field \"value\"; allowed: \"values\"", ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"values", 3}}),
                       ("answer.values must be an array of 3 finite numbers, one per part (" +
                        parts + "), got 3").c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"values", {1, 2}}}),
                       ("answer.values must have 3 entries, one per part (" + parts + "), got 2")
                           .c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"values", {1, 2, 3, 4}}}),
                       ("answer.values must have 3 entries, one per part (" + parts + "), got 4")
                           .c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"values", {1, "2", 3}}}),
                       "answer.values[1] (FLOPs per batch) must be a finite number, got \"2\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kLinearFlops, 1, {{"values", {1, 2, nullptr}}}),
                       "answer.values[2] (Minimum latency of the batch) must be a finite number, "
                       "got null",
                       ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(kLinearFlops, 1,
                     {{"values", {std::numeric_limits<double>::quiet_NaN(), 2, 3}}}),
      "answer.values[0] (FLOPs per sample) must be a finite number, got NaN", ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kConv, 1, {{"values", {1}}}),
                       "answer.values must have 2 entries, one per part (Output height H_out, "
                       "FLOPs per sample), got 1",
                       ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(kConv, 1, json::array({1, 2})),
                       "answer must be an object like {\"values\": [1, 2]}, got [1,2]", ValueError);
  // A single-part exercise still takes {value} only.
  CHECK_THROWS_WITH_AS(grade_exercise(kFfnMemory, 1, {{"values", {1}}}),
                       "answer has an unknown field \"values\"; allowed: \"value\"", ValueError);
}

TEST_CASE("the bank JSON states each part's label, unit, tolerance, weight and points") {
  const json linear = exercise_to_json(find_exercise(kLinearFlops));
  CHECK(linear.at("kind") == "numeric");
  CHECK(linear.at("parts") ==
        json::parse(R"json([
          {"label": "FLOPs per sample", "unit": "FLOPs", "weight": 1.0, "points": 5.0,
           "tolerance": {"rel": 0.0, "abs": 0.5, "text": "exact (within 0.5)"}},
          {"label": "FLOPs per batch", "unit": "FLOPs", "weight": 1.0, "points": 5.0,
           "tolerance": {"rel": 0.0, "abs": 0.5, "text": "exact (within 0.5)"}},
          {"label": "Minimum latency of the batch", "unit": "ms", "weight": 1.0, "points": 5.0,
           "tolerance": {"rel": 0.01, "abs": 0.0, "text": "within 1%"}}])json"));
  const json conv = exercise_to_json(find_exercise(kConv));
  CHECK(conv.at("parts")[0].at("points") == 4);
  CHECK(conv.at("parts")[1].at("points") == 6);
  CHECK(exercise_to_json(find_exercise(kAdam)).at("parts") == json::array());
  CHECK(exercise_to_json(find_exercise(kAdam)).at("unit") == "MiB");
}

TEST_CASE("the new exercises draw the same variants on every platform for a fixed seed") {
  // Pinned once from a native run: the wasm doctest build checks the same numbers, so a
  // student's page and the native re-grader draw identical variants.
  CHECK(exercise_variant(kLinearFlops, 42).at("params") ==
        json{{"in", 128}, {"out", 4096}, {"batch", 64}, {"gflops_per_s", 25}});
  CHECK(exercise_variant(kIntegrated, 42).at("params") ==
        json{{"d_in", 256}, {"h", 32}, {"d_out", 2}, {"batch", 64}});
  CHECK(exercise_variant(kConv, 42).at("params") ==
        json{{"in_channels", 3}, {"out_channels", 32}, {"kernel", 5},
             {"stride", 1},      {"padding", 2},       {"size", 64}});
  const json latency = exercise_variant(kLatencyStatistic, 42);
  CHECK(latency.at("params").at("samples_ms") ==
        json{7.86, 8.62, 7.86, 7.97, 8.66, 8.04, 8.26, 57.88, 7.78});
  CHECK(std::count(latency.at("choices").begin(), latency.at("choices").end(),
                   json("The median, 8.04 ms")) == 1);
  CHECK(exercise_variant(kMeasureLatency, 42).at("tests")[1].at("args") ==
        json::parse(R"json([{"$fake_fn": {"costs_ms": [40.747, 143.89, 40.655, 7.905, 8.495,
                            7.101, 7.319, 7.515]}}, {"iterations": 5, "warmup": 3},
                            {"$fake_clock": {"start_ms": 2100.11}}])json"));
  CHECK(exercise_variant(kAdam, 42).at("prompt").get<std::string>().rfind(
            "A model with 359,200,000 float32 parameters", 0) == 0);
}

TEST_CASE("code exercises draw each test's arguments in one order on every compiler") {
  // Pinned from the page's (wasm) build. Two draws passed to one call are evaluated in the
  // compiler's order, so the native re-grader once drew these arguments swapped.
  const auto args = [](const char* id) {
    const json variant = exercise_variant(id, 42);
    json out = json::array();
    for (const auto& test : variant.at("tests")) out.push_back(test.at("args"));
    return out;
  };
  CHECK(args(kCountLinear) == json{{2048, 2048}, {3072, 3}, {16, 1536}, {1, 768}, {1280, 5120}});
  CHECK(args(kCountConv) == json{{128, 32, 3, 56, 56},
                                 {256, 512, 1, 7, 7},
                                 {128, 16, 7, 25, 21},
                                 {1, 1, 5, 56, 28},
                                 {3, 96, 7, 128, 128}});
}
