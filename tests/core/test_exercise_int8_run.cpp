// The quantization exercise graded from a run (optimization.int8-my-run): the uint8 code the
// percentile calibration gives a drawn fraction of the last Linear's min/max top (clipped
// beyond its range), and how many times finer the percentile scale is there, each checked
// against the formula written out here (range widened to 0, scale (hi − lo)/255, zero point,
// round, clamp), over several seeds; wrong answers (the min/max code, the inverse ratio, a
// code two away) fail, rows without both calibrations are refused by name.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

const char* const kId = "optimization.int8-my-run";

json row(int percentile, int linear, double lo, double hi) {
  return {{"percentile", percentile}, {"linear", linear}, {"lo", lo}, {"hi", hi}};
}

json answer(const json& rows, double value, double ratio) {
  return {{"values", {value, ratio}},
          {"evidence", {{"experiment", "optimization-quantization"}, {"rows", rows}}}};
}

}  // namespace

TEST_CASE("int8-my-run: the percentile code of a fraction of the min/max top, the scales' ratio") {
  // Three Linears per calibration; the last one's inputs are ReLU outputs, from 0.
  const json rows = json::array({row(0, 0, 0, 1), row(0, 1, 0, 12.5), row(0, 2, 0, 20.4),
                                 row(1, 0, 0, 1), row(1, 1, 0, 9.1), row(1, 2, 0, 15.3)});
  const double s_minmax = 20.4 / 255, s_percentile = 15.3 / 255;
  int clipped = 0;
  for (std::uint32_t seed = 0; seed < 16; ++seed) {
    CAPTURE(seed);
    const double f = exercise_variant(kId, seed).at("params").at("fraction").get<double>();
    const double x = f * 20.4;
    // Zero point 0 (the range starts at 0); beyond 15.3 the code clips to 255.
    const double code = std::min(255.0, std::round(x / s_percentile));
    clipped += code == 255.0;
    const double ratio = s_minmax / s_percentile;
    CHECK(grade_exercise(kId, seed, answer(rows, code, ratio)).at("correct") == true);
    CHECK(grade_exercise(kId, seed, answer(rows, code - 1, ratio * 1.008)).at("correct") == true);
    // The inverse ratio; the min/max code (the wrong range); a code 2 away.
    CHECK(grade_exercise(kId, seed, answer(rows, code, 1 / ratio)).at("correct") == false);
    const double minmax_code = std::round(x / s_minmax);
    CHECK(grade_exercise(kId, seed, answer(rows, minmax_code, ratio)).at("correct") == false);
    CHECK(grade_exercise(kId, seed, answer(rows, code - 2, ratio)).at("correct") == false);
  }
  CHECK(clipped > 0);  // some variants ask for a clipped value
  CHECK(clipped < 16);
}

TEST_CASE("int8-my-run: a range below 0 moves the zero point") {
  const json rows = json::array({row(0, 0, -2.0, 6.0), row(1, 0, -1.0, 4.0)});
  const double f = exercise_variant(kId, 3).at("params").at("fraction").get<double>();
  const double s = 5.0 / 255;                // the percentile range
  const double z = std::round(1.0 / s);      // 51
  const double code = std::min(255.0, std::round(f * 6.0 / s) + z);
  const double ratio = (8.0 / 255) / s;
  CHECK(grade_exercise(kId, 3, answer(rows, code, ratio)).at("correct") == true);
  CHECK(grade_exercise(kId, 3, answer(rows, code - z, ratio)).at("correct") == false);
}

TEST_CASE("int8-my-run: rows without both calibrations are refused by name") {
  CHECK_THROWS_WITH_AS(
      grade_exercise(kId, 1, answer(json::array({row(0, 0, 0, 1)}), 1, 1)),
      "your run of the quantization experiment has no percentile calibration; run the "
      "quantization experiment again, with both",
      ValueError);
  CHECK_THROWS_AS(grade_exercise(kId, 1, answer(json::array({row(2, 0, 0, 1), row(1, 0, 0, 1)}), 1, 1)),
                  ValueError);
}
