// Answer modes (answer_modes.hpp): what a course file chooses per exercise and how the
// grader's feedback follows it. The point of assessed and sealed modes is that the course
// page stops being an oracle: a blind bisection that solves a percentile exercise from
// "Too high"/"Too low" in practice mode gets no direction in assessed mode, and a sealed
// answer gets the same reply whether it is right or wrong.
#include <doctest/doctest.h>

#include <optional>

#include "perflab/base/error.hpp"
#include "perflab/grading/course.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr const char* kPercentile = "benchmarking.percentile";

// Bisects on the grader's feedback alone, knowing nothing of the exercise: the number of
// tries to a correct answer, or nullopt when the feedback gives no direction to go on.
std::optional<int> blind_bisection(AnswerMode mode, std::uint32_t seed) {
  double lo = 0, hi = 1e6;
  for (int tries = 1; tries <= 100; ++tries) {
    const double mid = (lo + hi) / 2;
    const json g = grade_exercise(kPercentile, seed, {{"value", mid}}, {}, mode);
    if (g.at("correct") == true) return tries;
    const std::string feedback = g.at("feedback").get<std::string>();
    if (feedback.rfind("Too high", 0) == 0) {
      hi = mid;
    } else if (feedback.rfind("Too low", 0) == 0) {
      lo = mid;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

json course_with(json modes) {
  return {{"id", "c"}, {"title", "t"}, {"salt", "s"}, {"modes", std::move(modes)}};
}

}  // namespace

TEST_CASE("a blind bisection solves a numeric exercise in practice mode, not in assessed mode") {
  REQUIRE_FALSE(find_exercise(kPercentile).feedback_hides_answer);
  for (std::uint32_t seed : {1u, 7u, 2026u}) {
    CAPTURE(seed);
    const std::optional<int> practice = blind_bisection(AnswerMode::Practice, seed);
    REQUIRE(practice.has_value());
    CHECK(*practice <= 40);
    CHECK_FALSE(blind_bisection(AnswerMode::Assessed, seed).has_value());
    CHECK_FALSE(blind_bisection(AnswerMode::Sealed, seed).has_value());
  }
}

TEST_CASE("assessed mode grades the same and says only right or wrong") {
  const json wrong = {{"value", 1e6}};
  const json practice = grade_exercise(kPercentile, 3, wrong);
  const json assessed = grade_exercise(kPercentile, 3, wrong, {}, AnswerMode::Assessed);
  CHECK(practice.at("feedback").get<std::string>().rfind("Too high", 0) == 0);
  CHECK_FALSE(practice.contains("mode"));
  CHECK(assessed.at("feedback") ==
        "Not correct: the answer must be " + find_exercise(kPercentile).tolerance.text() + ".");
  CHECK(assessed.at("correct") == false);
  CHECK(assessed.at("score") == 0);
  CHECK(assessed.at("mode") == "assessed");

  // A multi-part exercise: each part right or wrong, no direction.
  const json parts = grade_exercise("benchmarking.summary-interval", 3,
                                    {{"values", {1e6, 1e6, 1e6, 1e6}}}, {}, AnswerMode::Assessed);
  REQUIRE(parts.at("parts").size() == 4);
  for (const auto& part : parts.at("parts")) {
    CHECK(part.at("feedback").get<std::string>().rfind("Not correct", 0) == 0);
  }
}

TEST_CASE("sealed mode checks the answer but returns no verdict") {
  // The right answer, found in practice mode, and a wrong one get the same sealed reply.
  std::optional<double> right;
  double lo = 0, hi = 1e6;
  for (int i = 0; i < 100 && !right; ++i) {
    const double mid = (lo + hi) / 2;
    const json g = grade_exercise(kPercentile, 5, {{"value", mid}});
    if (g.at("correct") == true) right = mid;
    else if (g.at("feedback").get<std::string>().rfind("Too high", 0) == 0) hi = mid;
    else lo = mid;
  }
  REQUIRE(right.has_value());
  const json a = grade_exercise(kPercentile, 5, {{"value", *right}}, {}, AnswerMode::Sealed);
  const json b = grade_exercise(kPercentile, 5, {{"value", -3}}, {}, AnswerMode::Sealed);
  CHECK(a == b);
  CHECK(a.at("correct").is_null());
  CHECK(a.at("score").is_null());
  CHECK(a.at("max_score") == find_exercise(kPercentile).points);
  CHECK(a.at("feedback") == kSealedFeedback);
  CHECK(a.at("mode") == "sealed");
  CHECK_THROWS_WITH_AS(grade_exercise(kPercentile, 5, {{"value", "x"}}, {}, AnswerMode::Sealed),
                       "answer.value must be a finite number, got \"x\"", ValueError);
}

TEST_CASE("course.json chooses a mode per exercise, per chapter and for the course") {
  const Course plain = course_from_json({{"id", "c"}, {"title", "t"}, {"salt", "s"}});
  CHECK(exercise_mode(plain.modes, kPercentile, "benchmarking") == AnswerMode::Practice);
  CHECK(plain.modes.assessed_tries == kDefaultAssessedTries);

  const Course c = course_from_json(course_with(
      {{"default", "assessed"},
       {"chapters", {{"profiling", "practice"}}},
       {"exercises", {{kPercentile, "sealed"}, {"profiling.linear-params", "assessed"}}},
       {"assessed_tries", 5}}));
  CHECK(exercise_mode(c.modes, kPercentile, "benchmarking") == AnswerMode::Sealed);
  CHECK(exercise_mode(c.modes, "profiling.linear-params", "profiling") == AnswerMode::Assessed);
  CHECK(exercise_mode(c.modes, "profiling.other", "profiling") == AnswerMode::Practice);
  CHECK(exercise_mode(c.modes, "benchmarking.batching", "benchmarking") == AnswerMode::Assessed);
  CHECK(c.modes.assessed_tries == 5);

  // to_json resolves every exercise of the bank, and reads back to the same modes.
  const json shown = to_json(c).at("modes");
  CHECK(shown.at("exercises").size() == exercise_bank().size());
  CHECK(shown.at("exercises").at(kPercentile) == "sealed");
  CHECK(shown.at("exercises").at("benchmarking.batching") == "assessed");
  CHECK(shown.at("assessed_tries") == 5);
  CHECK(to_json(course_from_json(to_json(c))).at("modes") == shown);
}

TEST_CASE("course.json's modes are refused with what is allowed") {
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"default", "quiz"}})),
                       doctest::Contains("course.json \"modes\".default is \"quiz\"; the modes are "
                                         "\"practice\", \"assessed\" or \"sealed\""),
                       ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"chapters", {{"roofline", "assessed"}}}})),
                       "course.json \"modes\".chapters names \"roofline\", which is not a chapter "
                       "with exercises; the chapters are \"profiling\", \"acceleration\", "
                       "\"benchmarking\", \"optimization\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(
      course_from_json(course_with({{"exercises", {{"profiling.nope", "sealed"}}}})),
      doctest::Contains("course.json \"modes\".exercises names \"profiling.nope\", which is not "
                        "an exercise of the bank"),
      ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"exercises", {{kPercentile, 3}}}})),
                       "course.json \"modes\".exercises[\"benchmarking.percentile\"] must be "
                       "\"practice\", \"assessed\" or \"sealed\", got 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"assessed_tries", 0}})),
                       doctest::Contains("must be an integer from 1 to 100, got 0"), ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"assessed_tries", 2.5}})),
                       doctest::Contains("must be an integer from 1 to 100, got 2.5"), ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with({{"tries", 2}})),
                       "course.json \"modes\" has an unknown field \"tries\"; allowed: "
                       "\"default\", \"chapters\", \"exercises\", \"assessed_tries\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(course_from_json(course_with("assessed")),
                       doctest::Contains("course.json \"modes\" must be an object like"), ValueError);
}
