// Public and hidden tests of code exercises (grader.hpp, exercise_variant): a variant's first
// tests are public examples and the rest hidden (timed tests neither); a grading key draws
// fresh hidden inputs for every code exercise (never the arguments of a test the student's
// variant holds; the same key, the same tests), keeping the public and timed tests as the
// student saw them; a hidden test's feedback names the property that failed and never the
// expected value, the arguments or the value returned; a key outside its alphabet is refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using nlohmann::json;
using perflab::ExerciseKind;
using perflab::exercise_variant;
using perflab::grade_exercise;

namespace {

std::vector<std::string> code_exercises() {
  std::vector<std::string> ids;
  for (const auto& e : perflab::exercise_bank()) {
    if (e.kind == ExerciseKind::Code) ids.push_back(e.id);
  }
  return ids;
}

// A timed test's answer that passes the speed rule: these tests are about the other tests.
json fast_timing(const json& test) {
  const std::size_t rounds = test.at("benchmark").at("rounds");
  return {{"value",
           {{"student_ms", std::vector<double>(rounds, 1.0)},
            {"reference_ms", std::vector<double>(rounds, 2.0)},
            {"max_abs_difference", 0.0}}}};
}

}  // namespace

TEST_CASE("a grading key draws fresh hidden tests for every code exercise; public and timed tests stay") {
  const std::vector<std::string> ids = code_exercises();
  REQUIRE(ids.size() >= 13);
  for (const std::string& id : ids) {
    const perflab::Exercise& e = perflab::find_exercise(id);
    CHECK(e.public_tests == perflab::kDefaultPublicTests);
    for (std::uint32_t seed : {0u, 1u, 7u, 123456u, 4294967295u}) {
      const json page = exercise_variant(id, seed);
      CHECK(page == exercise_variant(id, seed, ""));
      std::set<std::string> shown;
      for (const auto& t : page.at("tests")) shown.insert(t.at("args").dump());
      for (const std::string key : {"k1", "course-2026.fall_B"}) {
        CAPTURE(id);
        CAPTURE(seed);
        CAPTURE(key);
        const json keyed = exercise_variant(id, seed, key);
        CHECK(keyed == exercise_variant(id, seed, key));  // the same key reproduces the draw
        const json& tests = keyed.at("tests");
        REQUIRE(tests.size() == page.at("tests").size());
        int hidden = 0;
        for (std::size_t i = 0; i < tests.size(); ++i) {
          const json& t = tests[i];
          const bool timed = t.contains("benchmark");
          CHECK(t.at("hidden") == (!timed && i >= static_cast<std::size_t>(e.public_tests)));
          CHECK(t.at("hidden") == page.at("tests")[i].at("hidden"));
          if (t.at("hidden") == true) {
            ++hidden;
            CHECK(t.at("name") == "hidden test " + std::to_string(hidden));
            CHECK(shown.count(t.at("args").dump()) == 0);
          } else {
            CHECK(t == page.at("tests")[i]);
          }
        }
        CHECK(hidden >= 2);
      }
      CHECK(exercise_variant(id, seed, "k1") != exercise_variant(id, seed, "k2"));
    }
  }
}

TEST_CASE("a hidden test's feedback names the property that failed, a public one the expected value") {
  SUBCASE("numbers: type, tolerance, an error, a timeout") {
    const json v = exercise_variant("profiling.median", 5, "k");
    const json& tests = v.at("tests");
    REQUIRE(tests.size() == 7);
    const auto median_of = [](std::vector<double> x) {
      std::sort(x.begin(), x.end());
      const std::size_t m = x.size() / 2;
      return x.size() % 2 ? x[m] : (x[m - 1] + x[m]) / 2;
    };
    std::vector<double> right;
    for (const auto& t : tests) right.push_back(median_of(t.at("args")[0].get<std::vector<double>>()));
    const json answer = {{"results",
                          {{{"value", right[0] + 1}},
                           {{"value", right[1]}},
                           {{"value", "12"}},
                           {{"value", right[3] + 0.5}},
                           {{"error", "RangeError: too far"}},
                           {{"timeout", true}},
                           {{"value", right[6]}}}}};
    const json g = grade_exercise("profiling.median", 5, answer, "k");
    const json& m = g.at("tests");
    CHECK(m[0].at("hidden") == false);
    CHECK(m[0].at("message").get<std::string>().find("(called as median([") != std::string::npos);
    CHECK(m[0].at("message").get<std::string>().find(": expected ") != std::string::npos);
    CHECK(m[1].at("message") == std::string(tests[1].at("name")) + ": passed");
    CHECK(m[2].at("message") == "hidden test 1: failed: wrong type: the result is a string, not a number");
    CHECK(m[3].at("message") ==
          "hidden test 2: failed: outside the tolerance: the result is off by more than the tolerance "
          "(within a relative 1e-09 or 1e-12)");
    CHECK(m[4].at("message") == "hidden test 3: failed: threw RangeError: too far");
    CHECK(m[5].at("message") == "hidden test 4: failed: did not finish within 2000 ms");
    CHECK(m[6].at("message") == "hidden test 5: passed");
    CHECK(m[6].at("hidden") == true);
    CHECK(g.at("score").get<double>() == doctest::Approx(15.0 * 2 / 7));
  }
  SUBCASE("arrays: order, length, one element") {
    const json v = exercise_variant("acceleration.matmul-loop-order", 9, "k");
    const json& tests = v.at("tests");
    REQUIRE(tests.size() == 6);
    const auto product = [](const json& t) {
      const std::vector<double> a = t.at("args")[0], b = t.at("args")[1];
      const std::size_t n = t.at("args")[2];
      std::vector<double> c(n * n, 0.0);
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < n; ++k)
          for (std::size_t j = 0; j < n; ++j) c[i * n + j] += a[i * n + k] * b[k * n + j];
      return c;
    };
    std::vector<double> reversed = product(tests[2]);
    std::reverse(reversed.begin(), reversed.end());
    REQUIRE(reversed != product(tests[2]));
    std::vector<double> shorter = product(tests[3]);
    shorter.resize(shorter.size() - 3);
    std::vector<double> one_off = product(tests[4]);
    one_off[5] += 1;
    const json answer = {{"results",
                          {{{"value", product(tests[0])}},
                           {{"value", product(tests[1])}},
                           {{"value", reversed}},
                           {{"value", shorter}},
                           {{"value", one_off}},
                           fast_timing(tests[5])}}};
    const json m = grade_exercise("acceleration.matmul-loop-order", 9, answer, "k").at("tests");
    CHECK(m[2].at("message") ==
          "hidden test 1: failed: wrong order: the result holds the values expected in another order");
    CHECK(m[3].at("message") == "hidden test 2: failed: wrong length: the result has " +
                                    std::to_string(shorter.size()) +
                                    " values, not the number expected");
    CHECK(m[4].at("message") ==
          "hidden test 3: failed: outside the tolerance: the result[5] is off by more than the "
          "tolerance (within a relative 1e-09 or 1e-09)");
    CHECK(m[5].at("hidden") == false);  // timed: its own timings, not an answer
    CHECK(m[5].at("passed") == true);
  }
}

TEST_CASE("a grading key outside its alphabet or length is refused") {
  const std::string why =
      "hidden_key must be empty (the student's own tests) or 1 to 64 letters, digits, '.', '_' "
      "or '-', got ";
  CHECK_THROWS_WITH_AS(exercise_variant("profiling.median", 1, "a b"), (why + "\"a b\"").c_str(),
                       perflab::ValueError);
  CHECK_THROWS_AS(exercise_variant("profiling.median", 1, std::string(65, 'k')),
                  perflab::ValueError);
  CHECK_NOTHROW(exercise_variant("profiling.median", 1, std::string(64, 'k')));
  CHECK_THROWS_WITH_AS(grade_exercise("profiling.median", 1, {{"results", json::array()}}, "k/1"),
                       (why + "\"k/1\"").c_str(), perflab::ValueError);
}
