// The KV cache exercise (optimization.kv-cache-growth), graded from a run's rows: the slope of
// the recompute medians between the two longest lengths and the first length at which the
// cache outgrows the weights, each checked against a computation written here from the formula
// (not core's); the run is the variant (every seed grades the same rows alike); wrong answers
// fail, rows without what the exercise reads are refused by name.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

const char* const kId = "optimization.kv-cache-growth";

json decoder(int layers = 2, int d_model = 128) {
  return {{"name", "kv-decoder"}, {"vocab", 256}, {"d_model", d_model}, {"heads", 4},
          {"layers", layers},     {"d_ff", 512},  {"context", 512},    {"seed", 1}};
}

// 2,103,296 bytes of weights: not a whole number of 2 KiB positions.
constexpr double kWeights = 2'103'296;

json row(int tokens, double recompute_ms, const json& d = decoder(), double weights = kWeights) {
  return {{"tokens", tokens},
          {"decoder", d},
          {"parameter_bytes", weights},
          {"recompute", {{"median_ms", recompute_ms}}},
          {"cached", {{"median_ms", recompute_ms / 10}}}};
}

json answer(const json& rows, double k, double positions) {
  return {{"values", {k, positions}},
          {"evidence", {{"experiment", "optimization-kv-cache"}, {"rows", rows}}}};
}

}  // namespace

TEST_CASE("kv-cache-growth: the slope of the two longest lengths, the first length past the weights") {
  // Unsorted rows; the two longest are 64 and 128 tokens.
  const json rows = json::array({row(128, 900.0), row(16, 20.0), row(64, 250.0), row(32, 60.0)});
  const double slope = std::log(900.0 / 250.0) / std::log(2.0);
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    CAPTURE(seed);
    // 2 layers × 128 floats × (key + value) × 4 bytes = 2048 bytes per position.
    const double first = std::floor(kWeights / 2048.0) + 1;  // 1028
    const json right = grade_exercise(kId, seed, answer(rows, slope, first));
    CHECK(right.at("correct") == true);
    // The last length that fits is within 0.5% (the page prints the weights to 3 digits);
    // the weights divided by 4 bytes per float only, or the slope of the wrong pair, are not.
    CHECK(grade_exercise(kId, seed, answer(rows, slope, first - 1)).at("correct") == true);
    CHECK(grade_exercise(kId, seed, answer(rows, slope, first * 0.99)).at("correct") == false);
    CHECK(grade_exercise(kId, seed, answer(rows, slope, std::floor(kWeights / 1024.0) + 1))
              .at("correct") == false);
    const double early = std::log(250.0 / 60.0) / std::log(2.0);  // 2.06, not 1.85
    CHECK(grade_exercise(kId, seed, answer(rows, early, first)).at("correct") == false);
    // Within the stated 0.03: the medians as the table prints them.
    CHECK(grade_exercise(kId, seed, answer(rows, slope + 0.02, first)).at("correct") == true);
  }
}

TEST_CASE("kv-cache-growth: the length reads the run's decoder and weights") {
  const json d = decoder(4, 256);  // 8192 bytes per position
  const json rows = json::array({row(8, 10.0, d, 9e6), row(16, 40.0, d, 9e6)});
  const double first = std::floor(9e6 / 8192.0) + 1;  // 1099
  CHECK(grade_exercise(kId, 5, answer(rows, 2.0, first)).at("correct") == true);
  CHECK(grade_exercise(kId, 5, answer(rows, 2.0, std::floor(kWeights / 2048.0) + 1))
            .at("correct") == false);
}

TEST_CASE("kv-cache-growth: rows without what it reads are refused by name") {
  CHECK_THROWS_WITH_AS(grade_exercise(kId, 1, answer(json::array({row(8, 10.0)}), 2, 1)),
                       "your run of the KV cache experiment has 1 length; the slope needs two: "
                       "run it with its whole plan",
                       ValueError);
  json no_median = json::array({row(8, 10.0), row(16, 40.0)});
  no_median[1].erase("recompute");
  CHECK_THROWS_AS(grade_exercise(kId, 1, answer(no_median, 2, 1)), ValueError);
  const json mixed = json::array({row(8, 10.0), row(16, 40.0, decoder(3))});
  CHECK_THROWS_WITH_AS(grade_exercise(kId, 1, answer(mixed, 2, 1)),
                       "answer.evidence.rows[1] measured another decoder than rows[0]; run the "
                       "KV cache experiment again, all of it with one decoder",
                       ValueError);
}
